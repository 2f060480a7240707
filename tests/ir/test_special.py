"""``bcast.ir.special``: the composed ``math.erf``/``math.erfc`` of NumPy and
the Array API runtime, in ulps against Python's ``math.erf``/``math.erfc``
(glibc's, in f64) over dense sweeps, the tails, tiny and subnormal values
and the special values of each element type."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bcast.ir import special
from bcast.ir.numerics import NumpyScalars

LIBM = {"erf": math.erf, "erfc": math.erfc}
EXPANSION = {"erf": special.erf, "erfc": special.erfc}
SIGNED_BITS = {2: np.int16, 4: np.int32, 8: np.int64}


def ordered(x: np.ndarray) -> np.ndarray:
    """The float's rank among the floats of its type (adjacent floats differ
    by 1, -0.0 and +0.0 are one apart): ulps are differences of ranks."""
    bits = x.view(SIGNED_BITS[x.itemsize]).astype(np.int64)
    return np.where(bits < 0, -(1 << (8 * x.itemsize - 1)) - bits, bits)


def ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    both_nan = np.isnan(got) & np.isnan(want)
    return np.where(both_nan, 0, np.abs(ordered(got) - ordered(want)))


def libm(name: str, x: np.ndarray) -> np.ndarray:
    """Python's function in f64, rounded once to ``x``'s type."""
    return np.array([LIBM[name](v) for v in x.astype(np.float64).tolist()]).astype(x.dtype)


def composed(name: str, x: np.ndarray) -> np.ndarray:
    """The expansion on NumPy; f16 goes through f32 as ``MathFunction`` says."""
    element = {np.float16: "f32", np.float32: "f32", np.float64: "f64"}[x.dtype.type]
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    with np.errstate(all="ignore"):
        return np.asarray(EXPANSION[name](NumpyScalars(), element, wide)).astype(x.dtype)


def sweep(dtype) -> np.ndarray:
    """Dense and logarithmic sweeps of both signs down to the subnormals and
    past where ``erfc`` underflows, plus the special values."""
    info = np.finfo(dtype)
    rng = np.random.default_rng(22)
    top = float(np.log10(30.0))
    low = float(np.log10(float(info.smallest_subnormal)))
    magnitudes = np.concatenate([
        np.linspace(0, 30, 300_001), rng.uniform(0, 6, 200_000), np.linspace(0.45, 0.55, 20_001),
        10.0 ** rng.uniform(low, top, 200_000), 10.0 ** np.linspace(low, top, 20_001),
    ]).astype(dtype)  # fmt: skip
    specials = np.array([0.0, float(info.smallest_subnormal), float(info.tiny), float(info.max), np.inf],
                        dtype)  # fmt: skip
    values = np.concatenate([magnitudes, specials])
    return np.concatenate([values, -values, np.array([np.nan], dtype)])


def every_float(dtype, step: int) -> np.ndarray:
    """Every ``step``-th bit pattern of the type that is a number."""
    unsigned = {np.float16: np.uint16, np.float32: np.uint32}[dtype]
    bits = np.arange(0, 1 << (8 * np.dtype(dtype).itemsize), step, dtype=np.uint64).astype(unsigned)
    x = bits.view(dtype)
    return x[~np.isnan(x)]


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_f64_within_the_stated_ulps_of_libm(name):
    x = sweep(np.float64)
    off = ulps(composed(name, x), libm(name, x))
    worst = int(np.argmax(off))
    assert off.max() <= special.ERF_ULPS["f64"], (x[worst], off.max())


@pytest.mark.parametrize("name", ["erf", "erfc"])
@pytest.mark.parametrize("dtype, step", [(np.float32, 1009), (np.float16, 1)])
def test_narrow_types_are_libm_rounded_once(name, dtype, step):
    """f32 is computed in f64 and rounded once: within 1 ulp of libm's f64
    result rounded (f16 goes through f32, so two roundings)."""
    x = np.concatenate([every_float(dtype, step), sweep(dtype)])
    off = ulps(composed(name, x), libm(name, x))
    element = "f32" if dtype == np.float32 else "f16"
    assert off.max() <= special.ERF_ULPS[element], (x[int(np.argmax(off))], off.max())


def test_the_tail_of_erfc_does_not_cancel():
    """``erfc`` of large arguments is tiny and relative-accurate (``1 -
    erf`` would be 0 from 6 on), down to the subnormals of f64."""
    x = np.array([6.0, 10.0, 20.0, 26.0, 26.6, 27.0, 27.2])
    got = composed("erfc", x)
    assert (got > 0).all()
    assert ulps(got, libm("erfc", x)).max() <= special.ERF_ULPS["f64"]
    assert got[-1] < np.finfo(np.float64).tiny  # subnormal


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_special_values_are_exact(dtype):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype)
    erf, erfc = composed("erf", x), composed("erfc", x)
    np.testing.assert_array_equal(erf, np.array([0.0, -0.0, 1.0, -1.0, np.nan], dtype))
    np.testing.assert_array_equal(np.signbit(erf[:2]), [False, True])
    np.testing.assert_array_equal(erfc, np.array([1.0, 1.0, 0.0, 2.0, np.nan], dtype))


def test_tiny_arguments_keep_their_sign_and_scale():
    """``erf(x) = 2x/sqrt(pi)`` below ``1e-8``, subnormals included."""
    x = np.array([5e-324, -5e-324, 1e-310, -1e-300, 1e-20], np.float64)
    got = composed("erf", x)
    assert ulps(got, libm("erf", x)).max() <= 1
    np.testing.assert_array_equal(np.signbit(got), np.signbit(x))


def test_array_api_runs_the_same_composition():
    """The Array API runtime composes the primitives from standard
    functions only (``array_api_strict``), with NumPy's results."""
    xs = pytest.importorskip("array_api_strict")
    from bcast.lowering.array_api_runtime import ArrayApiScalars

    for dtype, xdtype, element in ((np.float64, xs.float64, "f64"), (np.float32, xs.float32, "f32")):
        x = sweep(dtype)[::7]
        for name in ("erf", "erfc"):
            with np.errstate(all="ignore"):  # array_api_strict computes with NumPy's ufuncs
                got = np.asarray(EXPANSION[name](ArrayApiScalars(xs), element, xs.asarray(x, dtype=xdtype)))
            np.testing.assert_array_equal(got, composed(name, x))
