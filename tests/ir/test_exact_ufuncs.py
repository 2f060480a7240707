"""``numerics.EXACT_UFUNCS`` claims that, for an element kind, a function is
exactly one ufunc (so the NumPy target calls the ufunc with ``out=``): check
the claim bit for bit on edge values of every kind it lists, and that the
functions taking ``out=`` themselves give the same bits into ``out``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from bcast.ir import numerics

SAMPLES = {
    "float": [np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 1e-310, 3.0], t) for t in (np.float16, np.float32, np.float64)],
    "signed": [np.array([0, 1, -1, 7, -8, np.iinfo(t).min, np.iinfo(t).max, 3, 2], t) for t in (np.int8, np.int32, np.int64)],
    "unsigned": [np.array([0, 1, 2, 7, 8, np.iinfo(t).max, 3, 5, 9], t) for t in (np.uint8, np.uint64)],
    "bool": [np.array([True, False, True, False, True, True, False, False, True])],
}
CASES = [(f, kind, ufunc) for f, kinds in numerics.EXACT_UFUNCS.items() for kind, ufunc in kinds.items()]


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("function, kind, ufunc", CASES, ids=[f"{f.__name__}-{k}" for f, k, _ in CASES])
def test_the_ufunc_is_exactly_the_function(function, kind, ufunc) -> None:
    arity = len(inspect.signature(function).parameters)
    for x in SAMPLES[kind]:
        args = (x,) if arity == 1 else (x, np.roll(x, 3))
        with np.errstate(all="ignore"):
            want = np.asarray(function(*args))
            out = np.empty_like(want)
            ufunc(*args, out=out)
        assert same_bits(out, want), (x.dtype, out, want)


@pytest.mark.parametrize("function", sorted(numerics.WRITES_INTO_OUT, key=lambda f: f.__name__))
def test_functions_writing_into_out_give_the_same_bits(function) -> None:
    for x in SAMPLES["float"]:
        out = np.full_like(x, 7)
        assert function(x, out=out) is out
        assert same_bits(out, function(x))


BINARY_CASES = [case for case in CASES if len(inspect.signature(case[0]).parameters) == 2]


@pytest.mark.parametrize("function, kind, ufunc", BINARY_CASES, ids=[f"{f.__name__}-{k}" for f, k, _ in BINARY_CASES])
def test_a_uniform_operand_takes_no_other_path(function, kind, ufunc) -> None:
    """A ufunc may switch algorithm when an operand is the same everywhere (a
    scalar or a stride-0 broadcast, which is how bcast passes splats):
    NumPy's ``power`` computes ``x ** 0.5`` as ``sqrt`` then. The exact
    ufuncs must give the same bits either way."""
    for x in SAMPLES[kind]:
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
