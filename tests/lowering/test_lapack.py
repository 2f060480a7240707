"""``lu`` and ``cholesky`` (docs/ir.md, "lu", "cholesky"): JAX's
``jnp.linalg`` programs exported at test time (LAPACK's getrf and potrf
custom calls on a CPU), imported and run on every backend to ``jax.jit``'s
values; pivots identical to LAPACK's; singular and non positive definite
matrices (``info``); batches; sizes 0, 1, 2, 7 and 64; ``-t stablehlo``
written back and run by XLA; a Hypothesis property against NumPy
(``P L U = A``, ``np.linalg.cholesky``); the rules' errors, located."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import bcast
from bcast.tests.budget import examples
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ("reference", "numpy", "array-api", "c")
SIZES = (0, 1, 2, 7, 64)

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
jsl = pytest.importorskip("jax.scipy.linalg")


def tolerance(n: int, dtype) -> float:
    """docs/ir.md, "lu": results agree with LAPACK's within ``2 n eps`` of the
    largest entry (``n`` the order): LAPACK's blocked algorithms (and XLA
    around them) round in another order."""
    return 2 * max(n, 1) * float(np.finfo(dtype).eps)


def assert_close(got, want, n: int, what: str = "") -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape), what
    if want.dtype.kind != "f":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    scale = np.nanmax(np.abs(want), initial=1.0) if want.size and np.isfinite(want).any() else 1.0
    tol = tolerance(n, want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


def well_conditioned(rng, shape, dtype=np.float32):
    """The identity plus a small random part: condition number about 3 at any order."""
    n = shape[-1]
    return (np.eye(n) + 0.5 * rng.standard_normal(shape) / np.sqrt(max(n, 1))).astype(dtype)


def spd(rng, shape, dtype=np.float32):
    m = rng.standard_normal(shape)
    return (m @ np.swapaxes(m, -1, -2) / max(shape[-1], 1) + np.eye(shape[-1])).astype(dtype)


def as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def run_everywhere_as_jax(fn, args, n: int) -> None:
    """``fn`` exported by ``bcast.from_jax`` (JAX's CPU lowering: LAPACK
    custom calls), run on every backend, equal to ``jax.jit(fn)``."""
    module = bcast.from_jax(fn, *args)
    assert "custom_call" not in str(module)
    want = as_tuple(jax.jit(fn)(*args))
    for backend in BACKENDS:
        got = as_tuple(bcast.compile(module, backend=backend)(*args))
        assert len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, n, f"{backend} result {k}")


PROGRAMS = {
    "inv": (jnp.linalg.inv, lambda r, n: (well_conditioned(r, (n, n)),)),
    "solve": (jnp.linalg.solve, lambda r, n: (well_conditioned(r, (n, n)), r.standard_normal((n, 3)).astype(np.float32))),
    "det": (jnp.linalg.det, lambda r, n: (well_conditioned(r, (n, n)),)),
    "slogdet": (lambda a: tuple(jnp.linalg.slogdet(a)), lambda r, n: (well_conditioned(r, (n, n)),)),
    "lu_factor": (jsl.lu_factor, lambda r, n: (r.standard_normal((n, n)).astype(np.float32),)),
    "cholesky": (jnp.linalg.cholesky, lambda r, n: (spd(r, (n, n)),)),
    "cho_solve": (lambda a, b: jsl.cho_solve(jsl.cho_factor(a), b),
                  lambda r, n: (spd(r, (n, n)), r.standard_normal((n,)).astype(np.float32))),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_jnp_linalg_runs_on_every_backend_as_jax_jit(name):
    fn, make = PROGRAMS[name]
    run_everywhere_as_jax(fn, make(np.random.default_rng(0), 7), 7)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", ["solve", "lu_factor", "cho_solve"])
def test_sizes(name, n):
    """Order 0 (nothing to factor), 1, 2, 7 and 64 (beyond LAPACK's block
    size: XLA's values come from its blocked algorithms)."""
    fn, make = PROGRAMS[name]
    run_everywhere_as_jax(fn, make(np.random.default_rng(n), n), n)


def test_f64_with_x64():
    rng = np.random.default_rng(1)
    a, b = well_conditioned(rng, (6, 6), np.float64), rng.standard_normal((6, 2))
    s = spd(rng, (6, 6), np.float64)
    with jax.enable_x64(True):
        run_everywhere_as_jax(jnp.linalg.solve, (a, b), 6)
        run_everywhere_as_jax(jnp.linalg.cholesky, (s,), 6)


def test_batched():
    """Leading dims are batch dims (``num_batch_dims`` in JAX's call)."""
    rng = np.random.default_rng(2)
    run_everywhere_as_jax(jnp.linalg.det, (well_conditioned(rng, (3, 5, 5)),), 5)
    run_everywhere_as_jax(jnp.linalg.cholesky, (spd(rng, (2, 3, 4, 4)),), 4)
    run_everywhere_as_jax(jnp.linalg.solve, (well_conditioned(rng, (2, 4, 4)), rng.standard_normal((2, 4, 1))
                                             .astype(np.float32)), 4)


def test_rectangular_lu():
    """getrf takes m x n matrices: ``min(m, n)`` pivots (``jax.lax.linalg.lu``)."""
    rng = np.random.default_rng(3)
    for shape in ((5, 3), (2, 3, 6)):
        run_everywhere_as_jax(lambda a: jax.lax.linalg.lu(a)[:2], (rng.standard_normal(shape).astype(np.float32),), 6)


@pytest.mark.parametrize("n", [2, 7, 64])
def test_pivots_are_lapacks(n):
    """On inputs without ties the pivots are XLA's (LAPACK's) exactly."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, n, n)).astype(np.float32)
    _, pivots, _ = jax.jit(jax.lax.linalg.lu)(a)
    for backend in BACKENDS:
        _, got = bcast.compile(bcast.from_jax(jsl.lu_factor, a), backend=backend)(a)
        np.testing.assert_array_equal(got, np.asarray(pivots), err_msg=backend)


def lapack_program(shape, element="f32", lower=True) -> str:
    """``lu`` and (of a square matrix) ``cholesky`` of the same matrices,
    every result returned."""
    t = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    batch = shape[:-2]
    k = min(shape[-2:])
    index = lambda dims: f"tensor<{''.join(f'{d}x' for d in dims)}i32>"  # noqa: E731
    pivots, info = index((*batch, k)), index(batch)
    if shape[-1] != shape[-2]:
        return (f"func.func @main(%a: {t}) -> ({t}, {pivots}, {info}) {{\n"
                f"  %lu, %p, %i = bcast.lu %a : ({t}) -> ({t}, {pivots}, {info})\n"
                f"  func.return %lu, %p, %i : {t}, {pivots}, {info}\n}}\n")
    return (f"func.func @main(%a: {t}) -> ({t}, {pivots}, {info}, {t}, {info}) {{\n"
            f"  %lu, %p, %i = bcast.lu %a : ({t}) -> ({t}, {pivots}, {info})\n"
            f"  %l, %j = bcast.cholesky %a, lower = {str(lower).lower()} : ({t}) -> ({t}, {info})\n"
            f"  func.return %lu, %p, %i, %l, %j : {t}, {pivots}, {info}, {t}, {info}\n}}\n")


def singular_batch() -> np.ndarray:
    """Exactly singular and non positive definite matrices (small integers:
    every step is exact, so LAPACK and bcast give the same bits)."""
    return np.array([
        [[2, 1, 1], [4, 2, 2], [1, 3, 5]],   # row 2 = 2 * row 1: a zero pivot at step 2
        [[0, 0, 0], [0, 0, 0], [0, 0, 0]],   # every pivot zero: info 1
        [[4, 2, 2], [2, 5, 3], [2, 3, -6]],  # symmetric, not positive definite at column 3
        [[1, 2, 0], [2, 1, 0], [0, 0, 1]],   # symmetric, indefinite at column 2
    ], np.float32)


GETRF_INFO = [3, 1, 0, 0]
POTRF_INFO = [2, 1, 3, 2]
"""LAPACK's ``info`` for ``singular_batch``, worked by hand: getrf's first
zero pivot (matrix 0: rows 1 and 2 cancel at step 3); potrf's first column
whose diagonal is not positive (matrix 0 is read from its lower triangle:
``2 - 4**2 / 2 < 0`` at column 2)."""


def test_singular_and_not_positive_definite_give_lapacks_info_and_values():
    """``-t stablehlo`` writes the LAPACK calls XLA runs: on matrices where
    every step is exact, every result of every backend is XLA's bit for
    bit, ``info`` included (getrf: the first zero pivot, the factorization
    completed; potrf: the failing column, the diagonal holding what failed,
    the rest untouched)."""
    a = singular_batch()
    src = lapack_program(a.shape)
    xla = run_on_xla(written_back(src), (a,))
    np.testing.assert_array_equal(xla[2], GETRF_INFO)
    np.testing.assert_array_equal(xla[4], POTRF_INFO)
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(a)
        for k, (g, w) in enumerate(zip(got, xla)):
            np.testing.assert_array_equal(g, w, err_msg=f"{backend} result {k}")


def test_upper_cholesky_on_xla():
    """The upper factor (``uplo = 'U'``) from the upper triangle; the lower
    one keeps the input; a negative definite matrix fails at column 1, one
    whose last diagonal entry is too small at column 4."""
    a = spd(np.random.default_rng(5), (4, 4, 4))
    a[2, 3, 3] = -1
    a[3] *= -1
    src = lapack_program(a.shape, lower=False)
    xla = run_on_xla(written_back(src), (a,))
    assert list(xla[4]) == [0, 0, 4, 1]
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(a)
        assert_close(got[3], xla[3], 4, backend)
        np.testing.assert_array_equal(got[4], xla[4], err_msg=backend)


def test_jnp_singular_and_not_positive_definite():
    """What JAX makes of ``info``: ``det`` of a singular matrix is 0 and
    ``slogdet`` gives (0, -inf); ``cholesky`` of a matrix that is not
    positive definite is NaN in its lower triangle (a select on ``info``,
    then the mask), in a batch only that matrix."""
    a = singular_batch()
    run_everywhere_as_jax(jnp.linalg.det, (a[:2],), 3)
    run_everywhere_as_jax(lambda x: tuple(jnp.linalg.slogdet(x)), (a[:2],), 3)
    b = np.stack([spd(np.random.default_rng(7), (3, 3)), a[2], a[3]])
    want = np.asarray(jax.jit(jnp.linalg.cholesky)(b))
    rows, cols = np.tril_indices(3)
    assert np.isnan(want[1:, rows, cols]).all() and not np.isnan(want[0]).any()
    run_everywhere_as_jax(jnp.linalg.cholesky, (b,), 3)


def test_gaussian_logpdf_and_zero_size_batches():
    rng = np.random.default_rng(8)
    run_everywhere_as_jax(jax.scipy.stats.multivariate_normal.logpdf,
                          (rng.standard_normal((5, 3)).astype(np.float32), np.zeros(3, np.float32), spd(rng, (3, 3))), 3)
    empty = np.zeros((0, 3, 3), np.float32)
    for backend in BACKENDS:
        got = bcast.compile(lapack_program(empty.shape), backend=backend)(empty)
        assert [g.shape for g in got] == [(0, 3, 3), (0, 3), (0,), (0, 3, 3), (0,)], backend


def test_an_out_that_is_the_operand_gives_the_right_values():
    """``out=`` holding the input matrix itself: the results as if computed
    into fresh arrays and then copied."""
    a = well_conditioned(np.random.default_rng(9), (2, 4, 4))
    src = lapack_program(a.shape)
    for backend in BACKENDS[1:]:
        f = bcast.compile(src, backend=backend)
        want = f(a)
        into = a.copy()
        outs = (into, np.empty((2, 4), np.int32), np.empty(2, np.int32), np.empty_like(a), np.empty(2, np.int32))
        f(into, out=outs)
        for k, (g, w) in enumerate(zip(outs, want)):
            np.testing.assert_array_equal(g, w, err_msg=f"{backend} result {k}")


def test_the_input_is_not_changed():
    a = well_conditioned(np.random.default_rng(10), (3, 3))
    kept = a.copy()
    for backend in BACKENDS:
        bcast.compile(lapack_program(a.shape), backend=backend)(a)
        np.testing.assert_array_equal(a, kept, err_msg=backend)


@pytest.mark.parametrize("element, words", [
    ("f16", "operand must be f32 or f64, got element type f16"),
    ("i32", "operand must be f32 or f64, got element type i32"),
])
def test_other_element_types_are_refused_located(element, words):
    with pytest.raises(bcast.BcastError) as e:
        bcast.compile(lapack_program((3, 3), element), backend="reference")
    assert f"<source>:2:17: error: 'bcast.lu' op {words}" in str(e.value)


# -- Hypothesis: against NumPy --------------------------------------------------------------


@cache
def compiled(shape, backend):
    return bcast.compile(lapack_program(shape, "f64"), backend=backend)


def permutation(pivots: np.ndarray, m: int) -> np.ndarray:
    """The rows of ``P^T A`` from LAPACK's 1-based swaps."""
    rows = np.arange(m)
    for j, p in enumerate(pivots - 1):
        rows[[j, p]] = rows[[p, j]]
    return rows


SHAPES = [(1, 1), (2, 2), (3, 3), (5, 5), (4, 2), (2, 5), (2, 3, 3)]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHAPES).flatmap(lambda s: arrays(np.float64, s, elements=st.integers(-9, 9).map(float))),
       st.sampled_from(BACKENDS))
def test_lu_and_cholesky_agree_with_numpy(a, backend):
    """``P L U = A`` (``L`` unit lower, ``U`` upper, ``|L| <= 1``: partial
    pivoting) for any matrix, singular ones included, with ``info`` the
    first zero on ``U``'s diagonal; the Cholesky factor of ``A A^T + I`` is
    ``np.linalg.cholesky``'s, the upper triangle untouched."""
    lu, pivots, info = compiled(a.shape, backend)(a)[:3]
    *batch, m, n = a.shape
    k = min(m, n)
    for index in np.ndindex(*batch):
        f, p = lu[index], pivots[index]
        lower = (np.tril(f, -1) + np.eye(m, n))[:, :k]
        upper = np.triu(f)[:k, :]
        assert np.all(np.abs(lower) <= 1)
        np.testing.assert_allclose(lower @ upper, a[index][permutation(p, m)], atol=1e-9 * (1 + np.abs(a).max()) ** 3)
        zeros = np.flatnonzero(np.diagonal(f)[:k] == 0)
        assert info[index] == (zeros[0] + 1 if zeros.size else 0)
    if m == n:
        s = a @ np.swapaxes(a, -1, -2) + np.eye(n)
        factor, status = compiled(a.shape, backend)(s)[3:]
        np.testing.assert_array_equal(status, np.zeros(batch, np.int32))
        np.testing.assert_allclose(np.tril(factor), np.linalg.cholesky(s), rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(np.triu(factor, 1), np.triu(s, 1))
