"""``select_and_scatter`` (docs/stablehlo.md, "select_and_scatter"): the
gradient of JAX's max pool exported, imported and run on every backend to
``jax.jit``'s values (strides, overlapping windows, padding, ties, NaN,
-inf), and written back with ``-t stablehlo`` and run by XLA."""

from __future__ import annotations

import numpy as np
import pytest

import bcast

BACKENDS = ("reference", "numpy", "array-api", "c")
POOLS = [  # (input shape, window, strides, padding)
    ((1, 6, 6, 2), (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
    ((2, 5, 7, 3), (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),  # overlapping windows, padding
    ((1, 4, 4, 1), (1, 3, 3, 1), (1, 1, 1, 1), "SAME"),
    ((3, 8), (2, 3), (1, 2), "VALID"),
]


def max_pool_grad(window, strides, padding):
    jax = pytest.importorskip("jax")

    def pool(x):
        return jax.lax.reduce_window(x, -jax.numpy.inf, jax.lax.max, window, strides, padding)

    def grad(x, g):
        return jax.vjp(pool, x)[1](g)[0]

    return jax, pool, grad


@pytest.mark.parametrize("shape, window, strides, padding", POOLS)
def test_max_pool_gradient_runs_on_every_backend_as_jax_jit(shape, window, strides, padding):
    jax, pool, grad = max_pool_grad(window, strides, padding)
    rng = np.random.default_rng(0)
    x = rng.integers(-3, 4, shape).astype(np.float32)  # small integers: ties in most windows
    g = rng.standard_normal(np.shape(jax.eval_shape(pool, x))).astype(np.float32)
    text = jax.jit(grad).lower(x, g).as_text()
    assert "stablehlo.select_and_scatter" in text
    want = np.asarray(jax.jit(grad)(x, g))
    module = bcast.from_jax(grad, x, g)
    for backend in BACKENDS:
        np.testing.assert_allclose(bcast.compile(module, backend=backend)(x, g), want, rtol=1e-6, atol=1e-6,
                                   err_msg=backend)


def test_nan_and_infinities_are_picked_as_xla_picks_them():
    """The select region runs in window order as StableHLO says: a NaN
    loses every GE comparison, so the place after it is picked; -inf is
    picked when the whole window is -inf (never the padding)."""
    jax, pool, grad = max_pool_grad((2, 2), (2, 2), "SAME")
    x = np.array([[np.nan, 1, -np.inf], [2, np.nan, -np.inf], [np.nan, np.nan, 5]], np.float32)
    g = np.arange(1, 5, dtype=np.float32).reshape(2, 2)
    want = np.asarray(jax.jit(grad)(x, g))
    module = bcast.from_jax(grad, x, g)
    for backend in BACKENDS:
        np.testing.assert_array_equal(bcast.compile(module, backend=backend)(x, g), want, err_msg=backend)


def test_the_spec_example_on_every_backend():
    """StableHLO's interpreter test: i64, a 3x1 window, stride 2, padding."""
    src = """func.func @main(%operand: tensor<4x2xi64>, %source: tensor<2x2xi64>) -> tensor<4x2xi64> {
  %init = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.select_and_scatter"(%operand, %source, %init) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.compare GE, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>,
      padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  return %result : tensor<4x2xi64>
}"""
    operand = np.array([[1, 5], [2, 5], [3, 6], [4, 4]], np.int64)
    source = np.array([[5, 6], [7, 8]], np.int64)
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(operand, source)
        np.testing.assert_array_equal(got, [[0, 0], [0, 0], [5, 14], [7, 0]], err_msg=backend)


def test_exported_with_t_stablehlo_runs_on_xla():
    jax, pool, grad = max_pool_grad((1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, (2, 5, 5, 2)).astype(np.float32)
    g = rng.standard_normal((2, 3, 3, 2)).astype(np.float32)
    exported = emit_text(bcast.from_jax(grad, x, g))
    verify_stablehlo(exported)
    (got,) = run_stablehlo(exported, (x, g))
    np.testing.assert_allclose(np.asarray(got), np.asarray(jax.jit(grad)(x, g)), rtol=1e-6, atol=1e-6)
