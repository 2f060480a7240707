"""``numerics.direct_ufunc`` claims that, for an element type, an op's
definition (``bcast.ir.scalar``) is exactly one ufunc (so the NumPy target
calls the ufunc with ``out=``): check the claim bit for bit against the
definition run on ``NumpyScalars``, on edge values of every element type."""

from __future__ import annotations

import numpy as np
import pytest

from bcast.ir import numerics
from bcast.ir import ops as bc

SAMPLES = {
    "float": [np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 1e-310, 3.0], t) for t in (np.float16, np.float32, np.float64)],
    "signed": [np.array([0, 1, -1, 7, -8, np.iinfo(t).min, np.iinfo(t).max, 3, 2], t) for t in (np.int8, np.int32, np.int64)],
    "unsigned": [np.array([0, 1, 2, 7, 8, np.iinfo(t).max, 3, 5, 9], t) for t in (np.uint8, np.uint64)],
    "bool": [np.array([True, False, True, False, True, True, False, False, True])],
}
_KINDS = {"f": "float", "i": "signed", "u": "unsigned", "b": "bool"}
CASES = [
    (numerics.function(op.SCALAR), x, ufunc)
    for op in bc.OPS if hasattr(op, "SCALAR")
    for kind, samples in SAMPLES.items()
    for x in samples
    if kind in op.ELEMENT_KINDS
    and (ufunc := numerics.direct_ufunc(op.SCALAR, numerics.element_of(x), len(op.get_irdl_definition().operands)))
]  # fmt: skip
IDS = [f"{f.__name__}-{x.dtype}" for f, x, _ in CASES]


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("function, x, ufunc", CASES, ids=IDS)
def test_the_ufunc_is_exactly_the_definition(function, x, ufunc) -> None:
    args = (x,) if ufunc.nin == 1 else (x, np.roll(x, 3))
    with np.errstate(all="ignore"):
        want = np.asarray(function(*args))
        out = np.empty_like(want)
        ufunc(*args, out=out)
    assert same_bits(out, want), (x.dtype, out, want)


BINARY_CASES = [case for case in CASES if case[2].nin == 2]


@pytest.mark.parametrize("function, x, ufunc", BINARY_CASES, ids=[f"{f.__name__}-{x.dtype}" for f, x, _ in BINARY_CASES])
def test_a_uniform_operand_takes_no_other_path(function, x, ufunc) -> None:
    """A ufunc may switch algorithm when an operand is the same everywhere (a
    scalar or a stride-0 broadcast, which is how bcast passes splats):
    NumPy's ``power`` computes ``x ** 0.5`` as ``sqrt`` then. The exact
    ufuncs must give the same bits either way."""
    for v in x:
        uniform = np.broadcast_to(v, x.shape)
        with np.errstate(all="ignore"):
            want = ufunc(x, np.array(uniform)), ufunc(np.array(uniform), x)
            got = ufunc(x, uniform), ufunc(uniform, x)
        assert same_bits(got[0], want[0]) and same_bits(got[1], want[1]), (function.__name__, x.dtype, v)


@pytest.mark.parametrize("exponent", [0.5, 2.0, -1.0, 1.0, 0.0])
def test_float_power_is_ieee_with_a_uniform_exponent(exponent) -> None:
    """``numerics.power`` gives IEEE ``pow``'s special values whether the
    exponent is a full array or a broadcast: NumPy's ``sqrt`` shortcut for
    0.5 is mended (``pow(-inf, 0.5) = +inf``, ``pow(-0.0, 0.5) = +0.0``).
    Finite values may differ by an ulp between NumPy's two paths (its
    ``sqrt`` is correctly rounded, its f32 ``pow`` is not): floats are
    compared within the tolerance of docs/semantics.md (Reductions), never bit for bit."""
    for x in SAMPLES["float"]:
        full = np.full(x.shape, exponent, x.dtype)
        with np.errstate(all="ignore"):
            want = np.power(x, full)  # the elementwise (non-shortcut) loop
            got = np.asarray(numerics.power(x, np.broadcast_to(x.dtype.type(exponent), x.shape)))
        special = ~np.isfinite(x) | (x == 0)
        assert same_bits(got[special], want[special]), (x.dtype, exponent, got, want)
        np.testing.assert_allclose(got, want, rtol=2 * np.finfo(x.dtype).eps, equal_nan=True)
