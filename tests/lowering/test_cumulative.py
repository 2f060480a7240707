"""``bcast.cumulative`` on every backend against NumPy's scans
(``np.cumsum``/``np.cumprod`` with the element type as accumulator, so
integers wrap; ``np.maximum.accumulate``/``np.minimum.accumulate``, which
propagate NaN; ``f16`` accumulated in ``f32``): every kind, dims 0 and 1,
``reverse``, zero-size and size-1 dims, f32/f64/f16/i32/ui8; the Array API
module on array_api_strict, dask and JAX, and its standard-function scan
(``_scan``) for a library without ``cumulative_sum``; the ``-t stablehlo``
export on XLA.

Tolerances: every bcast backend folds in order (a sequential scan), as
NumPy does, so they equal NumPy exactly. XLA runs the ``reduce_window``
its own way (each window summed on its own, or as a tree), so its float
sums and products may associate differently: each partial sum of ``k``
terms may differ by about ``k`` ulp of the sum of the magnitudes, hence
``atol = n * eps * cumsum(|x|)`` and ``rtol = n * eps`` for a dim of ``n``
(``n * eps`` bounds the relative error of any order of summation or
product). Integers, max and min are exact in any order (integer ``+`` and
``*`` wrap modulo ``2**bits``, which is associative)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.lowering import array_api_runtime
from bcast.tests.budget import examples
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]
KINDS = ["add", "multiply", "maximum", "minimum"]
ELEMENTS = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i32": np.int32, "ui8": np.uint8}


def tensor(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def cumulative_program(kind: str, shape, dim: int, element: str, reverse: bool) -> str:
    t = tensor(shape, element)
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %0 = bcast.cumulative {kind} %x, dim = {dim}{' reverse' if reverse else ''} : ({t}) -> {t}
  func.return %0 : {t}
}}
"""


def numpy_cumulative(kind: str, x: np.ndarray, dim: int, reverse: bool) -> np.ndarray:
    """NumPy's scans, with the accumulator bcast uses (the element type;
    f32 for f16); an all -0.0 prefix sums to +0.0 (bcast folds from the
    identity 0.0, as XLA)."""
    acc = np.dtype(np.float32) if x.dtype == np.float16 else x.dtype
    x = np.flip(x, dim) if reverse else x
    with np.errstate(all="ignore"):
        if kind == "add":
            y = np.cumsum(x, axis=dim, dtype=acc)
            y = y + acc.type(0) if acc.kind == "f" else y
        elif kind == "multiply":
            y = np.cumprod(x, axis=dim, dtype=acc)
        else:
            y = getattr(np, kind).accumulate(x, axis=dim, dtype=acc)
    y = np.flip(y, dim) if reverse else y
    return y.astype(x.dtype)


def sample(shape, element: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np.dtype(ELEMENTS[element])
    if dtype.kind == "f":
        x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
        return x.astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)  # sums and products wrap


CASES = [
    ((4, 6), 1, "f32"),
    ((5, 3), 0, "f64"),
    ((3, 9), 1, "f16"),
    ((6, 4), 0, "i32"),
    ((2, 3, 5), 2, "ui8"),
    ((7,), 0, "f32"),
    ((4, 1), 1, "f32"),  # a size-1 dim: the operand itself
    ((0, 3), 1, "i32"),  # zero-size
    ((3, 0), 1, "f32"),  # the scanned dim empty
]


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape, dim, element", CASES)
def test_cumulative_matches_numpy(backend, kind, reverse, shape, dim, element):
    x = sample(shape, element, seed=len(shape) * 5 + dim)
    got = np.asarray(bcast.compile(cumulative_program(kind, shape, dim, element, reverse), backend=backend)(x))
    want = numpy_cumulative(kind, x, dim, reverse)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


WITH_NAN = np.array([[1.0, np.nan, 3.0, -1.0], [-0.0, -0.0, 2.0, np.inf], [4.0, -np.inf, np.nan, 0.0]],
                    np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_nan_propagates_and_sums_start_from_plus_zero(backend):
    """A NaN stays from its place on (for max and min too); a sum of only
    -0.0 is +0.0 (folded from the identity, as XLA's reduce_window)."""
    for kind in KINDS:
        f = bcast.compile(cumulative_program(kind, (3, 4), 1, "f32", False), backend=backend)
        np.testing.assert_array_equal(f(WITH_NAN), numpy_cumulative(kind, WITH_NAN, 1, False))
    total = bcast.compile(cumulative_program("add", (3, 4), 1, "f32", False), backend=backend)(WITH_NAN)
    assert not np.signbit(total[1, 0]) and not np.signbit(total[1, 1])
    assert np.isnan(total[0, 1:]).all() and np.isnan(total[2, 2:]).all()


def test_integer_sums_wrap():
    x = np.array([2**31 - 1, 1, 2**31 - 1], np.int32)
    for backend in BACKENDS:
        got = bcast.compile(cumulative_program("add", (3,), 0, "i32", False), backend=backend)(x)
        np.testing.assert_array_equal(got, np.array([2**31 - 1, -2**31, -1], np.int32))


@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_target_runs_cumulative_on_other_libraries(library):
    """``cumulative_sum``/``cumulative_prod`` where the namespace has them,
    ``_scan`` for max/min: the same module on array_api_strict, dask
    (chunked along the scanned dim) and JAX (jit)."""
    lib = pytest.importorskip(library)
    x = sample((4, 6), "f32", seed=3)
    for kind in KINDS:
        for reverse in (False, True):
            f = bcast.compile(cumulative_program(kind, (4, 6), 1, "f32", reverse), backend="array-api")
            if library == "jax.numpy":
                import jax

                got = jax.jit(f)(lib.asarray(x))
            elif library == "dask.array":
                got = f(lib.from_array(x, chunks=(2, 4))).compute()
            else:
                got = f(lib.asarray(x))
            np.testing.assert_allclose(np.asarray(got), numpy_cumulative(kind, x, 1, reverse), rtol=1e-6)


class WithoutScans:
    """A namespace without the standard's scans (as before the 2023.12
    standard): everything else is NumPy's (array_api_compat)."""

    def __init__(self, xp):
        self._xp = xp

    def __getattr__(self, name):
        if name in ("cumulative_sum", "cumulative_prod"):
            raise AttributeError(name)
        return getattr(self._xp, name)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape, dim, element", [c for c in CASES if c[2] != "f16"])
def test_scan_from_standard_functions(kind, shape, dim, element):
    """``_scan`` (log2(n) steps of shifted combines): integers, max and min
    exactly, float sums and products to a few ulp (another association)."""
    import array_api_compat.numpy as xp

    x = sample(shape, element, seed=9)
    got = np.asarray(array_api_runtime.cumulative(WithoutScans(xp), kind, x, dim, False,
                                                  np.dtype(ELEMENTS[element]).name))  # fmt: skip
    want = numpy_cumulative(kind, x, dim, False)
    assert got.dtype == want.dtype
    if np.dtype(ELEMENTS[element]).kind == "f" and kind in ("add", "multiply"):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape, dim, element", CASES)
def test_exported_cumulative_runs_on_xla_as_numpy_says(kind, reverse, shape, dim, element):
    """The tolerance (module docstring): ``n * eps`` of the magnitudes. An
    empty scanned dim is exported as the operand (StableHLO has no window
    of size 0)."""
    x = sample(shape, element, seed=len(shape) * 5 + dim)
    got = run_on_xla(written_back(cumulative_program(kind, shape, dim, element, reverse)), (x,))[0]
    want = numpy_cumulative(kind, x, dim, reverse)
    assert got.dtype == want.dtype and got.shape == want.shape
    dtype = np.dtype(ELEMENTS[element])
    if dtype.kind != "f" or kind in ("maximum", "minimum"):
        np.testing.assert_array_equal(got, want)
        return
    n, eps = shape[dim], np.finfo(dtype).eps
    magnitude = numpy_cumulative(kind, np.abs(x).astype(np.float64), dim, reverse)
    np.testing.assert_allclose(got, want, rtol=n * eps, atol=0)
    assert np.all(np.abs(got.astype(np.float64) - want) <= n * eps * magnitude + n * eps * np.abs(want))


def test_exported_max_and_min_keep_nan_on_xla():
    """XLA's own ``maximum`` may drop a NaN; the export guards it, so XLA
    gives NumPy's NaNs."""
    for kind in ("maximum", "minimum"):
        got = run_on_xla(written_back(cumulative_program(kind, (3, 4), 1, "f32", False)), (WITH_NAN,))[0]
        np.testing.assert_array_equal(got, numpy_cumulative(kind, WITH_NAN, 1, False))


@st.composite
def scans(draw):
    """A random scan: rank 1-3, sizes 0-5, any dim, kind, direction and
    element type; values from edge pools (NaN, infinities, -0.0, the
    integer extremes, so sums and products wrap)."""
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=1, max_size=3)))
    dim = draw(st.integers(0, len(shape) - 1))
    element = draw(st.sampled_from(sorted(ELEMENTS)))
    dtype = np.dtype(ELEMENTS[element])
    if dtype.kind == "f":
        pool = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.0, 3.0, 0.25]
    else:
        info = np.iinfo(dtype)
        pool = [int(info.min), int(info.max), 0, 1, 2, 3, 7]
    values = draw(st.lists(st.sampled_from(pool), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    x = np.array(values, dtype=dtype).reshape(shape)
    return draw(st.sampled_from(KINDS)), x, dim, element, draw(st.booleans())


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_scans_match_numpy(backend):
    """Exact on every backend (each folds in order, as NumPy), the sign of
    a zero sum or product included; the C backend compiles each example,
    so it draws fewer."""
    @settings(max_examples=examples(12 if backend == "c" else 60), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(scans())
    def check(case):
        kind, x, dim, element, reverse = case
        got = bcast.compile(cumulative_program(kind, x.shape, dim, element, reverse), backend=backend)(x)
        want = numpy_cumulative(kind, x, dim, reverse)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        if kind in ("add", "multiply"):  # a zero's sign from max/min is unspecified, as for maximum
            assert np.array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))

    check()
