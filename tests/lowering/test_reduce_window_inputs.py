"""``reduce_window`` of several inputs and init values, imported from
StableHLO on every backend (docs/stablehlo.md, "Supported ops"): a body
that combines each input on its own is one ``bcast.reduce_window`` per
input; a body that mixes them (an argmax-pooling of (value, index) pairs)
is unrolled over the window's places, with padding, strides, base and
window dilations, against ``jax.jit``; the export runs on XLA; the forms
left are refused, located, naming the op."""

from __future__ import annotations

import numpy as np
import pytest

import bcast

jax = pytest.importorskip("jax")
jnp = jax.numpy

BACKENDS = ["reference", "numpy", "array-api", "c"]


def larger(a, b):
    """Keep the larger value, the smaller index on a tie (NaN-free inputs)."""
    pick = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]))
    return jnp.where(pick, b[0], a[0]), jnp.where(pick, b[1], a[1])


def argmax_pool(window, strides, padding, base=None, dilation=None):
    def fn(x):
        index = jnp.arange(x.size, dtype=jnp.int32).reshape(x.shape)
        return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(-1)), larger, window, strides, padding,
                                     base_dilation=base, window_dilation=dilation)
    return fn


def sum_and_min(x, y):
    return jax.lax.reduce_window((x, y), (0.0, jnp.inf), lambda a, b: (b[0] + a[0], jnp.minimum(a[1], b[1])),
                                 (3, 2), (2, 1), ((1, 1), (0, 1)))


POOLS = {
    "valid_2x2": argmax_pool((2, 2), (2, 2), "VALID"),
    "same_3x3_stride_2": argmax_pool((3, 3), (2, 2), "SAME"),
    "dilated_window": argmax_pool((2, 2), (1, 1), "VALID", dilation=(2, 1)),
    "base_dilated_padded": argmax_pool((2, 3), (1, 2), ((1, 0), (2, 1)), base=(2, 1)),
    "empty_result": argmax_pool((5, 2), (1, 1), "VALID"),
}


def ties(shape, seed):
    """Small integers as floats: every window has ties."""
    return np.random.default_rng(seed).integers(-2, 3, shape).astype(np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(POOLS))
def test_argmax_pooling_runs_as_jax(backend, name):
    fn = POOLS[name]
    x = ties((4, 7), 0)
    module = bcast.from_jax(fn, x)
    assert "reduce_window" not in str(module)
    got = bcast.compile(module, backend=backend)(x)
    for g, e in zip(got, jax.jit(fn)(x)):
        np.testing.assert_array_equal(g, np.asarray(e))


@pytest.mark.parametrize("backend", BACKENDS)
def test_independent_reductions_are_one_reduce_window_each(backend):
    x, y = ties((5, 4), 1), ties((5, 4), 2)
    module = bcast.from_jax(sum_and_min, x, y)
    assert str(module).count("bcast.reduce_window") == 2
    got = bcast.compile(module, backend=backend)(x, y)
    for g, e in zip(got, jax.jit(sum_and_min)(x, y)):
        np.testing.assert_array_equal(g, np.asarray(e))


@pytest.mark.parametrize("name", ["same_3x3_stride_2", "base_dilated_padded"])
def test_the_unrolled_export_runs_on_xla_as_jax(name):
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    fn = POOLS[name]
    x = ties((4, 7), 3)
    exported = emit_text(bcast.from_jax(fn, x))
    verify_stablehlo(exported)
    got = run_stablehlo(exported, (x,))
    for g, e in zip(got, jax.jit(fn)(x)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


MIXED = """\
func.func @main(%x: tensor<SHAPExf32>, %i: tensor<SHAPExi32>) -> tensor<OUTxi32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %zero) <{window_dimensions = array<i64: WINDOW>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) : (tensor<SHAPExf32>, tensor<SHAPExi32>, tensor<f32>, tensor<i32>) -> (tensor<OUTxf32>, tensor<OUTxi32>)
  func.return %r#1 : tensor<OUTxi32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_written_argmax_pool_runs_and_its_limits_are_located_refusals(backend):
    f = bcast.compile(MIXED.replace("SHAPE", "2x6").replace("OUT", "1x4").replace("WINDOW", "2, 3"), backend=backend)
    x = np.array([[1, 5, 2, 2, 0, 9], [7, 5, 3, 1, 8, 9]], np.float32)
    i = np.arange(12, dtype=np.int32).reshape(2, 6)
    np.testing.assert_array_equal(f(x, i), [[6, 1, 10, 5]])
    for shape, out, window in [("9x9", "1x1", "9, 9"), ("?x6", "?x4", "1, 3")]:
        text = MIXED.replace("SHAPE", shape).replace("OUT", out).replace("WINDOW", window)
        with pytest.raises(bcast.BcastError) as info:
            bcast.compile(text, backend=backend, filename="pool.mlir")
        lines = str(info.value).splitlines()
        assert lines[0] == ("pool.mlir:4:10: error: 'stablehlo.reduce_window' op reduce_window of 2 inputs whose "
                            "body does not combine each input on its own is not supported by "
                            "convert-stablehlo-to-bcast")
        assert "at most 64 places" in lines[1]
