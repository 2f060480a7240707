"""``triangular_solve`` (docs/ir.md, "triangular_solve"): JAX's
``jax.lax.linalg.triangular_solve`` exported, imported and run on every
backend to ``jax.jit``'s values; ``-t stablehlo`` written back and run by
XLA; every flag against a NumPy solve of the masked matrix; the rules'
errors through ``bcast.compile``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import bcast
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ("reference", "numpy", "array-api", "c")
FLAGS = list(itertools.product([True, False], [True, False], [True, False], ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]))


def tensor(shape, element: str = "f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


def program(a_shape, b_shape, left, lower, unit, transpose, element: str = "f32") -> str:
    a, b = tensor(a_shape, element), tensor(b_shape, element)
    flags = (f"left_side = {str(left).lower()}, lower = {str(lower).lower()}, "
             f"unit_diagonal = {str(unit).lower()}, transpose_a = {transpose}")
    return (f"func.func @main(%a: {a}, %b: {b}) -> {b} {{\n"
            f"  %x = bcast.triangular_solve %a, %b, {flags} : ({a}, {b}) -> {b}\n"
            f"  func.return %x : {b}\n}}\n")


def expected(a, b, left, lower, unit, transpose) -> np.ndarray:
    """``np.linalg.solve`` (LAPACK's LU) on the triangle the flags select, in f64."""
    t = (np.tril(a) if lower else np.triu(a)).astype(np.float64)
    if unit:
        i = np.arange(a.shape[-1])
        t[..., i, i] = 1
    if transpose != "NO_TRANSPOSE":
        t = np.swapaxes(t, -1, -2)
    b = b.astype(np.float64)
    if left:
        return np.linalg.solve(t, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def operands(rng, batch, n, cols, left, dtype=np.float32):
    a = (rng.standard_normal((*batch, n, n)) + 4 * np.eye(n)).astype(dtype)  # well conditioned
    b = rng.standard_normal((*batch, n, cols) if left else (*batch, cols, n)).astype(dtype)
    return a, b


@pytest.mark.parametrize("left, lower, unit, transpose", FLAGS)
def test_every_flag_on_every_backend_is_the_solve_of_the_selected_triangle(left, lower, unit, transpose):
    rng = np.random.default_rng(0)
    a, b = operands(rng, (2,), 5, 3, left)
    a[0, 0, 4], a[0, 4, 0] = (np.nan, 0) if lower else (0, np.nan)  # NaN in the triangle not read
    src = program(a.shape, b.shape, left, lower, unit, transpose)
    want = expected(np.nan_to_num(a), b, left, lower, unit, transpose)
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(a, b)
        assert got.dtype == np.float32 and got.shape == b.shape
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5, err_msg=backend)


@pytest.mark.parametrize("element, dtype, tolerance", [("f16", np.float16, 2e-3), ("f64", np.float64, 1e-12)])
def test_f16_and_f64_agree_with_the_reference(element, dtype, tolerance):
    """f16 is solved in f32 and rounded once, so every backend gives the
    reference's bits; f64 within rounding."""
    rng = np.random.default_rng(1)
    a, b = operands(rng, (3,), 4, 2, False, dtype)
    src = program(a.shape, b.shape, False, True, False, "TRANSPOSE", element)
    ref = bcast.compile(src, backend="reference")(a, b)
    np.testing.assert_allclose(ref, expected(a, b, False, True, False, "TRANSPOSE"), rtol=tolerance, atol=tolerance)
    for backend in BACKENDS[1:]:
        got = bcast.compile(src, backend=backend)(a, b)
        if dtype == np.float16:
            np.testing.assert_array_equal(got, ref, err_msg=backend)
        else:
            np.testing.assert_allclose(got, ref, rtol=1e-13, atol=1e-13, err_msg=backend)


def test_a_singular_matrix_gives_ieee_values_not_an_error():
    """A zero on the diagonal divides by zero, as XLA does: inf and NaN."""
    a = np.array([[0.0, 0.0], [1.0, 1.0]], np.float32)
    b = np.array([[1.0], [1.0]], np.float32)
    src = program(a.shape, b.shape, True, True, False, "NO_TRANSPOSE")
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(a, b)
        assert np.isinf(got[0, 0]) and np.isinf(got[1, 0]), backend


def test_an_out_that_is_b_gives_the_right_values():
    """``out=b``: the result as if computed into a fresh array and copied."""
    rng = np.random.default_rng(7)
    a, b = operands(rng, (2,), 4, 3, True)
    src = program(a.shape, b.shape, True, False, False, "TRANSPOSE")
    for backend in BACKENDS[1:]:
        f = bcast.compile(src, backend=backend)
        want, into = f(a, b), b.copy()
        f(a, into, out=into)
        np.testing.assert_array_equal(into, want, err_msg=backend)


def test_zero_size_operands_give_an_empty_result():
    for shape_a, shape_b in (((0, 0), (0, 3)), ((2, 3, 3), (2, 3, 0))):
        src = program(shape_a, shape_b, True, True, False, "NO_TRANSPOSE")
        for backend in BACKENDS:
            got = bcast.compile(src, backend=backend)(np.ones(shape_a, np.float32), np.ones(shape_b, np.float32))
            assert got.shape == shape_b, backend


@pytest.mark.parametrize("a_shape, b_shape, words", [
    ((4,), (4, 3), "operand 'a' must have rank >= 2, but got 'tensor<4xf32>'"),
    ((4, 3), (4, 3), "two minor dimensions of operand 'a' must be compatible, but got 'tensor<4x3xf32>'"),
    ((10, 4, 4), (4, 3), "operands must have equal rank, but got 'tensor<10x4x4xf32>' and 'tensor<4x3xf32>'"),
    ((4, 4), (3, 4), "shared dimension of operands 'a' and 'b' must be compatible, but got 'tensor<4x4xf32>' and "
                     "'tensor<3x4xf32>'"),
    ((10, 5, 4, 4), (10, 6, 4, 3), "batch dimensions of the operands must be compatible, but got "
                                   "'tensor<10x5x4x4xf32>' and 'tensor<10x6x4x3xf32>'"),
])
def test_the_rules_are_stablehlos_located(a_shape, b_shape, words):
    src = program(a_shape, b_shape, True, True, True, "NO_TRANSPOSE")
    with pytest.raises(bcast.BcastError) as e:
        bcast.compile(src, backend="reference")
    assert f"<source>:2:8: error: 'bcast.triangular_solve' op {words}" in str(e.value)


def test_integer_operands_are_refused():
    with pytest.raises(bcast.BcastError, match="operands must be floating-point, got element type i32|"
                                               "got element type i32"):
        bcast.compile(program((2, 2), (2, 1), True, True, False, "NO_TRANSPOSE", "i32"), backend="reference")


# -- JAX ----------------------------------------------------------------------------------------------


def exported(fn, *args) -> str:
    """JAX's StableHLO of ``fn`` for a GPU: on the CPU, JAX calls LAPACK
    through a ``custom_call`` instead of ``stablehlo.triangular_solve``."""
    jax = pytest.importorskip("jax")
    from jax import export

    text = export.export(jax.jit(fn), platforms=["cuda"])(*args).mlir_module()
    assert "stablehlo.triangular_solve" in text
    return text


def jax_solve(left, lower, unit, transpose):
    jax = pytest.importorskip("jax")

    def fn(a, b):
        return jax.lax.linalg.triangular_solve(a, b, left_side=left, lower=lower, unit_diagonal=unit,
                                               transpose_a=transpose != "NO_TRANSPOSE",
                                               conjugate_a=transpose == "ADJOINT")
    return jax, fn


@pytest.mark.parametrize("left, lower, unit, transpose", [f for f in FLAGS if f[3] != "ADJOINT"])
def test_jax_triangular_solve_runs_on_every_backend_as_jax_jit(left, lower, unit, transpose):
    jax, fn = jax_solve(left, lower, unit, transpose)
    rng = np.random.default_rng(2)
    a, b = operands(rng, (2, 3), 4, 5, left)
    module = exported(fn, a, b)
    want = np.asarray(jax.jit(fn)(a, b))
    for backend in BACKENDS:
        got = bcast.compile(module, backend=backend)(a, b)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=backend)


@pytest.mark.parametrize("left, lower, unit, transpose", [(True, True, False, "TRANSPOSE"),
                                                          (False, False, True, "NO_TRANSPOSE"),
                                                          (True, False, False, "ADJOINT")])
def test_exported_with_t_stablehlo_runs_on_xla(left, lower, unit, transpose):
    """``-t stablehlo`` writes ``stablehlo.triangular_solve`` with the same
    flags: jaxlib's verifier takes it and XLA computes the same values."""

    rng = np.random.default_rng(3)
    a, b = operands(rng, (2,), 4, 3, left)
    src = program(a.shape, b.shape, left, lower, unit, transpose)
    exported = written_back(src)
    assert "stablehlo.triangular_solve" in exported and f"transpose {transpose}" in exported
    (got,) = run_on_xla(exported, (a, b))
    np.testing.assert_allclose(got, expected(a, b, left, lower, unit, transpose), rtol=1e-5, atol=1e-5)


def test_jnp_linalg_solve_of_a_cholesky_factor_runs_on_every_backend():
    """``jax.scipy.linalg.solve_triangular``, the shape of Cholesky-based code."""
    jax = pytest.importorskip("jax")
    import jax.scipy.linalg as jsl

    def fn(l, y):
        z = jsl.solve_triangular(l, y, lower=True)
        return jsl.solve_triangular(l, z, lower=True, trans="T")

    rng = np.random.default_rng(4)
    m = rng.standard_normal((6, 6)).astype(np.float32)
    l = np.linalg.cholesky(m @ m.T + 6 * np.eye(6, dtype=np.float32)).astype(np.float32)
    y = rng.standard_normal((6, 2)).astype(np.float32)
    module = exported(fn, l, y)
    want = np.asarray(jax.jit(fn)(l, y))
    for backend in BACKENDS:
        np.testing.assert_allclose(bcast.compile(module, backend=backend)(l, y), want, rtol=1e-4, atol=1e-5,
                                   err_msg=backend)


@pytest.mark.parametrize("left, lower, unit, transpose", [(True, True, False, "NO_TRANSPOSE"),
                                                          (False, False, True, "TRANSPOSE"),
                                                          (True, False, False, "ADJOINT")])
def test_jax_cpu_export_calls_lapack_and_is_imported_as_the_op(left, lower, unit, transpose):
    """On a CPU, JAX writes ``custom_call @lapack_strsm_ffi`` with LAPACK's
    flag characters (what ``bcast.from_jax`` sees): imported as
    ``bcast.triangular_solve`` with the same flags, batch dims included."""
    jax, fn = jax_solve(left, lower, unit, transpose)
    rng = np.random.default_rng(5)
    a, b = operands(rng, (3,), 4, 2, left)
    assert "lapack_strsm_ffi" in jax.jit(fn).lower(a, b).as_text()
    module = bcast.from_jax(fn, a, b)
    assert "bcast.triangular_solve" in str(module) and "custom_call" not in str(module)
    want = np.asarray(jax.jit(fn)(a, b))
    for backend in BACKENDS:
        np.testing.assert_allclose(bcast.compile(module, backend=backend)(a, b), want, rtol=1e-5, atol=1e-5,
                                   err_msg=backend)


def test_cholesky_solve_as_jax_exports_it_on_a_cpu():
    """``jax.scipy.linalg.cho_solve`` after ``jnp.linalg.cholesky``'s factor
    (given as an argument): two trsm calls, f64 with x64 enabled."""
    jax = pytest.importorskip("jax")
    import jax.scipy.linalg as jsl

    def fn(l, y):
        return jsl.cho_solve((l, True), y)

    rng = np.random.default_rng(6)
    m = rng.standard_normal((5, 5))
    l = np.linalg.cholesky(m @ m.T + 5 * np.eye(5))
    y = rng.standard_normal((5, 3))
    with jax.enable_x64(True):
        module = bcast.from_jax(fn, l, y)
        want = np.asarray(jax.jit(fn)(l, y))
    for backend in BACKENDS:
        np.testing.assert_allclose(bcast.compile(module, backend=backend)(l, y), want, rtol=1e-10, atol=1e-12,
                                   err_msg=backend)
