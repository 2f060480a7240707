"""JAX's shape-polymorphic exports (``jax.export`` with ``symbolic_shape``)
imported by bcast and run, compiled once, at three sizes each (1 included),
equal to ``jax.jit`` at each size; and their assertions (``b >= 1``) as
located run-time errors with JAX's message (docs/stablehlo.md, "Dynamic
programs").

They run on every backend that runs dynamic programs (``SIZE_TENSOR_BACKENDS``,
the C backend included): the import reads JAX's sizes through tensors
(``bcast.size_to_tensor``, ``size_from_tensor``, ``shape_assertion``), which
the C runtime computes and checks at entry (lowering/c_sizes.py). Skipped,
visibly, when jax is not installed.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import bcast

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
from jax import export  # noqa: E402

from bcast.lowering import c_runtime  # noqa: E402
from bcast.lowering.stablehlo_emitter import emit_text  # noqa: E402
from bcast.tools import driver  # noqa: E402
from bcast.tools.api import DYNAMIC_BACKENDS  # noqa: E402

SIZE_TENSOR_BACKENDS = DYNAMIC_BACKENDS
"""The backends that run the size ops of the import: all of them."""
from bcast.tools.jax_bridge import refined_stablehlo, run_stablehlo  # noqa: E402

INDEX = "i32"
"""The spec of a rank-0 ``int32`` argument (a start index or position),
drawn from -2 to 8 so that clamping and wrapping are exercised."""

INDICES = "i32:"
"""The prefix of a spec of an ``int32`` array of indices of the shape after
it (``"i32:b"``), drawn as ``INDEX``'s values are."""


PROGRAMS = {
    "scale_shift": (lambda x: x * 2.0 + 1.0, ["b,4"]),
    "row_bias": (lambda x, r: x + r, ["b,4", "4"]),
    "column_bias": (lambda x, c: x + c[:, None], ["b,4", "b"]),
    "same_batch": (lambda x, y: x * y + 1.0, ["b,3", "b,3"]),
    "rank_3_bias": (lambda x, y: x + y, ["b,2,3", "3"]),
    "softmax": (lambda x: jax.nn.softmax(x, axis=-1), ["b,8"]),
    "layernorm": (lambda x: (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5), ["b,8"]),
    "logsumexp": (lambda x: jax.nn.logsumexp(x, axis=-1), ["b,5"]),
    "l2_normalize": (lambda x: x / jnp.linalg.norm(x, axis=-1, keepdims=True), ["b,6"]),
    "sum_over_batch": (lambda x: jnp.sum(x, axis=0), ["b,4"]),
    "mean_over_batch": (lambda x: jnp.mean(x, axis=0), ["b,4"]),
    "outer": (lambda x, y: x[:, None] * y[None, :], ["a", "b"]),
    "leaky_where": (lambda x: jnp.where(x > 0, x, 0.1 * x), ["b,3"]),
    "broadcast_to_2_b": (lambda x: jnp.broadcast_to(x, (2, x.shape[0])) * 3.0, ["b"]),
    "flatten": (lambda x: jnp.reshape(x, (-1,)) * 2.0, ["b,4"]),  # dynamic_reshape to 4*b
    "add_arange": (lambda x: x + jnp.arange(x.shape[0], dtype=jnp.float32), ["b"]),  # dynamic_iota
    "split_rows": (lambda x: jnp.reshape(x, (x.shape[0], 2, 3)).sum(-1), ["b,6"]),
    "argmax_rows": (lambda x: jnp.argmax(x, axis=-1), ["b,5"]),  # reduce of (x, dynamic_iota)
    "one_hot_argmin": (lambda x: jax.nn.one_hot(jnp.argmin(x, axis=-1), 4), ["b,4"]),
    "flip_batch": (lambda x: jnp.flip(x, 0) * 2.0, ["b,4"]),  # reverse along the ? dim
    "flip_both": (lambda x: jnp.flip(x) + 1.0, ["b,3"]),  # reverse along ? and static dims
    "cumsum_rows": (lambda x: jnp.cumsum(x, axis=1), ["b,5"]),  # reduce_window along a static dim
    "cummax_reverse": (lambda x: jax.lax.cummax(x, axis=1, reverse=True), ["b,4"]),
    # along the ? dim: custom_call @stablehlo.dynamic_reduce_window
    "cumsum_batch": (lambda x: jnp.cumsum(x, axis=0), ["b,4"]),
    "cumprod_batch": (lambda x: jnp.cumprod(x, axis=0), ["b,3"]),
    "cummax_batch": (lambda x: jax.lax.cummax(x, axis=0), ["b,4"]),
    "cummin_batch_reverse": (lambda x: jax.lax.cummin(x, axis=0, reverse=True), ["b,4"]),
    "cumsum_of_scaled_vector": (lambda x: jnp.cumsum(2.0 * x + 1.0), ["b"]),
    "cumsum_middle_dim": (lambda x: jnp.cumsum(x, axis=1), ["2,b,3"]),
    "mlp_layer": (lambda x, w, c: jax.nn.gelu(x @ w + c), ["b,4", "4,3", "3"]),  # dot_general, ? free dim
    "attention_scores": (lambda q, k: jax.nn.softmax(q @ k.T / 2.0, axis=-1), ["s,4", "t,4"]),  # ? x ? result
    "batched_einsum": (lambda x, y: jnp.einsum("bij,bjk->bik", x, y), ["b,2,3", "b,3,4"]),  # ? batch dims
    "contract_over_batch": (lambda x, y: jnp.einsum("bi,bj->ij", x, y), ["b,2", "b,3"]),  # ? contracting dim
    "outer_of_rows": (lambda x, i: jnp.outer(jax.lax.dynamic_index_in_dim(x, i, 0, False), x[0]),
                      ["b,4", INDEX]),  # dynamic_slice along the ? dim
    "dynamic_window": (lambda x, i: jax.lax.dynamic_slice(x, (i, 1), (1, 2)) * 2.0, ["b,4", INDEX]),
    "take_row": (lambda x, i: jnp.take(x, i, axis=0) + 1.0, ["b,4", INDEX]),  # gather from a ? operand dim
    "take_rows": (lambda x, r: jnp.take(x, jnp.array([0, 2, -1]) + r, axis=0, mode="clip"), ["b,3", INDEX]),
    "concatenate_batches": (lambda x, y: jnp.concatenate([x, y]) * 2.0, ["b,4", "b,4"]),  # along the ? dim
    "concatenate_columns": (lambda x, y: jnp.concatenate([x, y], axis=1), ["b,4", "b,2"]),  # beside it
    "stack_with_ones": (lambda x: jnp.concatenate([x, jnp.ones((1, 3), x.dtype), x]), ["b,3"]),
    "pad_both": (lambda x: jnp.pad(x, ((1, 2), (0, 1))), ["b,3"]),  # stablehlo.pad of the ? dim
    "pad_interior": (lambda x: jax.lax.pad(x, 0.5, ((1, -1, 1), (0, 0, 0))), ["b,2"]),
    "reshape_b_2_2": (lambda x: x.reshape(x.shape[0], 2, 2) * 3.0, ["b,4"]),  # dynamic_reshape
    "positional_iota": (lambda x: x + jnp.arange(x.shape[1], dtype=x.dtype)[None, :] / 10, ["4,b"]),
    # reduce_window with a ? batch dim no window spans: a CNN's pools
    "max_pool_batch": (lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1),
                                                       "VALID"), ["b,6,6,3"]),
    "avg_pool_same_batch": (lambda x: jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 1, 1, 1),
                                                            "SAME") / 9.0, ["b,5,5,2"]),
    "cond_rows": (lambda x: jax.lax.cond(jnp.sum(x) > 0, lambda v: v * 2.0, lambda v: v - 1.0, x), ["b,4"]),
    "switch_rows": (lambda x, k: jax.lax.switch(k, [jnp.tanh, jax.nn.relu, lambda v: v * v], x), ["b,3", INDEX]),
    "newton_rows": (lambda x: _newton_sqrt(jnp.abs(x) + 1.0), ["b,3"]),  # a while_loop to convergence
    "matmul_batch_broadcast": (lambda x, y: x @ y, ["b,1,3,4", "5,4,6"]),  # b batches of a 1 stretched to 5
    "matmul_batches": (lambda x, y: jnp.matmul(x, y) * 2.0, ["b,3,4", "b,4,2"]),
    "take_symbolic_count": (lambda x, i: jnp.take(x, i, axis=0), ["5,4", INDICES + "b"]),  # ? gather indices
    "roll_batch": (lambda x: jnp.roll(x, 1, axis=0), ["b,4"]),  # real_dynamic_slice of a range from b
    "take_static_axis": (lambda x: jnp.take(x, jnp.array([2, 0, 3]), axis=1), ["b,4"]),  # dynamic_gather
    "take_per_row_count": (lambda x, i: jnp.take(x, i, axis=1, mode="clip"), ["b,4", INDICES + "b"]),
    "sort_rows": (lambda x: jnp.sort(x, axis=-1), ["b,4"]),  # sort beside the ? dim
    "sort_batch": (lambda x: jnp.sort(x, axis=0), ["b,4"]),  # along it
    "argsort_batch": (lambda x: jnp.argsort(x, axis=0), ["b,3"]),  # a dynamic_iota sorted by x
    "argsort_rows_descending": (lambda x: jnp.argsort(x, axis=-1, descending=True), ["b,5"]),
    "top_k_values": (lambda x: jax.lax.top_k(x, 2)[0], ["b,4"]),  # the chlo.top_k composite
    "top_k_indices": (lambda x: jax.lax.top_k(x, 3)[1], ["b,5"]),
    "median_batch": (lambda x: jnp.median(x, axis=0), ["b,3"]),  # sort along ?, the middle rows
    "two_key_sort": (lambda x, y: jax.lax.sort((jnp.round(x), y), dimension=0, num_keys=2)[1], ["b,3", "b,3"]),
    # a CNN layer of a batch-polymorphic export: stablehlo.convolution of a ? batch, bias, relu
    "cnn_layer": (lambda x, w, c: jax.nn.relu(jax.lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")) + c), ["b,6,6,2", "3,3,2,3", "3"]),
    # real_dynamic_slice with run-time limits beside a static range; dynamic_gather of a sorted ? operand
    "split_columns": (lambda x: jnp.stack(jnp.split(x, 2, axis=1)).sum(0), ["b,4"]),
    "split_three_ways": (lambda x: jnp.split(x, [1, 3], axis=1)[1] * 2.0, ["b,5"]),
    "dynamic_slice_columns": (lambda x, i: jax.lax.dynamic_slice(x, (0, i), (x.shape[0], 2)), ["b,8", INDEX]),
    "strided_columns": (lambda x: x[:, ::2] + 1.0, ["b,5"]),
    "median_columns": (lambda x: jnp.median(x, axis=1), ["b,4"]),
    "quantiles_columns": (lambda x: jnp.quantile(x, jnp.array([0.25, 0.75]), axis=1), ["b,5"]),
    # scatter of ? rows, indices and updates: every update kind JAX writes (out-of-bounds indices skipped)
    "scatter_add_rows": (lambda x, i, v: x.at[i].add(v), ["n,4", INDICES + "k", "k,4"]),
    "scatter_set_rows": (lambda x, i, v: x.at[i].set(v), ["n,4", INDICES + "k", "k,4"]),
    "scatter_max_rows": (lambda x, i, v: x.at[i].max(v), ["n,4", INDICES + "k", "k,4"]),
    "scatter_min_rows": (lambda x, i, v: x.at[i].min(v), ["n,4", INDICES + "k", "k,4"]),
    "scatter_multiply_rows": (lambda x, i, v: x.at[i].multiply(v), ["n,4", INDICES + "k", "k,4"]),
    "segment_sum": (lambda d, s: jax.ops.segment_sum(d, s, num_segments=5), ["n,3", INDICES + "n"]),
    "histogram_counts": (lambda s: jnp.zeros(6, jnp.float32).at[s].add(1.0), [INDICES + "n"]),
    # argmax/argmin along the ? dim: reduce of (x, dynamic_iota) over it
    "argmax_along_batch": (lambda x: jnp.argmax(x, axis=-1), ["3,n"]),
    "argmin_along_batch": (lambda x: jnp.argmin(x, axis=0), ["n,4"]),
    "argmax_keepdims_both": (lambda x: jnp.argmax(x, axis=1, keepdims=True), ["m,n"]),
}
"""name: (function, one shape spec per argument: sizes and dimension variables)."""

CONTROL_FLOW = {"cond_rows", "switch_rows", "newton_rows"}
"""Programs of control flow on ``?`` dims (``bcast.case``, ``bcast.while``,
with run-time checks in the loop's regions): every backend runs them, C
too (docs/c-backend.md, "Control flow")."""

def _newton_sqrt(a):
    """Newton's iteration for sqrt(a) until no element moves by 1e-6."""
    def step(state):
        x, _ = state
        return 0.5 * (x + a / x), x
    return jax.lax.while_loop(lambda s: jnp.max(jnp.abs(s[0] - s[1])) > 1e-6, step, (a, a + 1.0))[0]


SIZES = [1, 3, 7]
"""The sizes of the first dimension variable at the three runs (the second, if
any, takes the next one round: (1, 3), (3, 7), (7, 1))."""


def _variables(specs: list[str]) -> list[str]:
    return sorted({n for s in specs if s != INDEX for n in s.removeprefix(INDICES).split(",") if not n.isdigit()})


def _is_int(spec: str) -> bool:
    return spec == INDEX or spec.startswith(INDICES)


def exported_text(fn, specs: list[str]) -> str:
    """``jax.export`` of ``jax.jit(fn)`` for float32 arguments of ``specs``."""
    names = _variables(specs)
    symbols = dict(zip(names, export.symbolic_shape(",".join(names))))
    shapes = [() if s == INDEX else tuple(int(n) if n.isdigit() else symbols[n]
                                          for n in s.removeprefix(INDICES).split(",")) for s in specs]
    exported = export.export(jax.jit(fn))(*(jax.ShapeDtypeStruct(shape, jnp.int32 if _is_int(s) else jnp.float32)
                                            for shape, s in zip(shapes, specs)))
    return exported.mlir_module()


def arguments(specs: list[str], run: int, rng) -> list[np.ndarray]:
    names = _variables(specs)
    value = {n: SIZES[(run + k) % len(SIZES)] for k, n in enumerate(names)}
    shape = [tuple(int(n) if n.isdigit() else value[n] for n in s.removeprefix(INDICES).split(","))
             for s in specs if s != INDEX]
    shapes = iter(shape)
    return [np.int32(rng.integers(-2, 9)) if s == INDEX else
            rng.integers(-2, 9, next(shapes)).astype(np.int32) if s.startswith(INDICES) else
            rng.standard_normal(next(shapes)).astype(np.float32) for s in specs]


@pytest.fixture(scope="module", params=sorted(PROGRAMS))
def program(request):
    fn, specs = PROGRAMS[request.param]
    return fn, specs, exported_text(fn, specs)


def test_the_export_is_shape_polymorphic(program) -> None:
    _, _, text = program
    assert "?" in text and "get_dimension_size" in text


@pytest.mark.quick_share(4)
@pytest.mark.parametrize("backend", SIZE_TENSOR_BACKENDS)
def test_one_compile_runs_at_three_sizes_as_jax_jit(program, backend) -> None:
    fn, specs, text = program
    compiled = bcast.compile(text, backend=backend)
    rng = np.random.default_rng(0)
    for run in range(len(SIZES)):
        args = arguments(specs, run, rng)
        expected = np.asarray(jax.jit(fn)(*args))
        got = compiled(*args)
        assert got.shape == expected.shape, (run, got.shape, expected.shape)
        np.testing.assert_allclose(got, expected, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CONTROL_FLOW))
def test_control_flow_on_dynamic_rows_chooses_the_c_backend(name) -> None:
    """``bcast.compile`` without a backend runs ``cond``, ``switch`` and a
    ``while_loop`` on ``?`` rows in C (it used to fall back to NumPy)."""
    if not c_runtime.available():
        pytest.skip("no C compiler")
    fn, specs = PROGRAMS[name]
    compiled = bcast.compile(exported_text(fn, specs))
    assert compiled.backend == "c"
    args = arguments(specs, 1, np.random.default_rng(1))
    np.testing.assert_allclose(compiled(*args), np.asarray(jax.jit(fn)(*args)), rtol=2e-5, atol=1e-6)


@pytest.mark.quick_share(3)
def test_the_stablehlo_export_runs_in_xla_at_three_sizes(program) -> None:
    """Round trip: bcast's ``-t stablehlo`` of the imported program is one
    dynamic module (``?`` in ``@main``'s signature) that jaxlib's shape
    refinement makes static at each size and XLA runs to ``jax.jit``'s results."""
    fn, specs, text = program
    module = driver.load(text, "export.mlir", import_stablehlo=True)
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    exported = emit_text(module)
    assert "?" in exported.split("{", 2)[1]  # @main's signature stays dynamic
    rng = np.random.default_rng(1)
    for run in range(len(SIZES)):
        args = arguments(specs, run, rng)
        expected = np.asarray(jax.jit(fn)(*args))
        (got,) = run_stablehlo(refined_stablehlo(exported, [a.shape for a in args]), args)
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("backend", SIZE_TENSOR_BACKENDS)
def test_jax_shape_assertion_is_a_located_run_time_error(backend) -> None:
    """JAX asserts ``b >= 1``; at ``b = 0`` the export fails in JAX and in bcast,
    at the assertion, with JAX's message and the size."""
    fn, specs = PROGRAMS["row_bias"]
    text = exported_text(fn, specs)
    x, r = np.zeros((0, 4), np.float32), np.zeros(4, np.float32)
    (b,) = export.symbolic_shape("b")
    exported = export.export(jax.jit(fn))(jax.ShapeDtypeStruct((b, 4), jnp.float32),
                                          jax.ShapeDtypeStruct((4,), jnp.float32))
    with pytest.raises(Exception, match="Expected value >= 1 for dimension variable 'b'"):
        exported.call(x, r)
    compiled = bcast.compile(text, filename="export.mlir", backend=backend)
    with pytest.raises(bcast.BcastError) as info:
        compiled(x, r)
    message = str(info.value)
    assert re.match(r"export\.mlir:\d+:\d+: error: Input shapes do not match the polymorphic shapes", message)
    assert "'b' = 0 from specification 'b'" in message


STRETCHING = """
func.func @main(%x: tensor<?x4xf32>, %c: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = bcast.multiply %x, %c : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
"""


@pytest.mark.parametrize(("x_rows", "c_rows"), [(3, 3), (3, 1), (1, 5), (0, 1), (1, 0)])
def test_a_dynamic_program_exports_numpys_broadcasting_to_xla(x_rows, c_rows) -> None:
    """A ``?`` that is 1 at run time stretches in XLA too: the export's
    broadcast sizes are NumPy's, computed from the run-time sizes."""
    module = driver.load(STRETCHING, "prog.mlir")
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    exported = emit_text(module)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((x_rows, 4)).astype(np.float32)
    c = rng.standard_normal((c_rows, 1)).astype(np.float32)
    (got,) = run_stablehlo(refined_stablehlo(exported, [x.shape, c.shape]), [x, c])
    np.testing.assert_array_equal(got, x * c)


def test_sizes_that_do_not_broadcast_fail_jaxlibs_refinement() -> None:
    module = driver.load(STRETCHING, "prog.mlir")
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    with pytest.raises(bcast.BcastError, match="shape refinement fails"):
        refined_stablehlo(emit_text(module), [(3, 4), (2, 1)])


BOUNDED = """
func.func @main(%x: tensor<16xf32>, %n: tensor<i32>) -> (tensor<?xf32, #stablehlo.bounds<16>>, tensor<i32>) {
  %0 = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<16xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<16>>
  %1 = stablehlo.multiply %0, %0 : tensor<?xf32, #stablehlo.bounds<16>>
  %2 = stablehlo.get_dimension_size %1, dim = 0 : (tensor<?xf32, #stablehlo.bounds<16>>) -> tensor<i32>
  return %1, %2 : tensor<?xf32, #stablehlo.bounds<16>>, tensor<i32>
}
"""


@pytest.mark.parametrize("backend", SIZE_TENSOR_BACKENDS)
def test_a_bounded_program_runs_as_xla_runs_its_export(backend) -> None:
    """StableHLO's bounded form (set_dimension_size/get_dimension_size) runs in
    bcast, and its -t stablehlo export runs in XLA (which pads the result to
    the bound: its first ``n`` elements and the size are compared)."""
    compiled = bcast.compile(BOUNDED, backend=backend)
    module = driver.load(BOUNDED, "bounded.mlir", import_stablehlo=True)
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    exported = emit_text(module)
    x = np.arange(16, dtype=np.float32) - 3
    for n in (0, 1, 5, 16):
        values, size = compiled(x, np.int32(n))
        np.testing.assert_array_equal(values, x[:n] * x[:n])
        assert int(size) == n
        padded, xla_size = run_stablehlo(exported, [x, np.int32(n)])
        assert int(xla_size) == n
        np.testing.assert_array_equal(padded[:n], values)
    with pytest.raises(bcast.BcastError, match="size 17 of dimension 0 is above its bound 16"):
        compiled(x, np.int32(17))


DATA_SIZE = """
func.func @main(%x: tensor<?xf32>, %counts: tensor<2xi32>) -> tensor<?xf32> {
  %total = bcast.reduce add %counts, dims = [0] : (tensor<2xi32>) -> tensor<i32>
  %n = bcast.size_from_tensor %total : tensor<i32>
  %0 = bcast.dynamic_reshape %x, [%n] : (tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
"""


def test_c_refuses_a_size_computed_from_array_data_located() -> None:
    """The C backend computes sizes at entry; one summed from an array
    argument's elements would run the program before the program: refused
    when compiling, at the op that reads it (the other backends run it)."""
    with pytest.raises(bcast.BcastError, match=r"^prog\.mlir:4:8: error: 'bcast\.size_from_tensor' op reads a size "
                                               r"computed by 'bcast\.reduce', which the C backend does not"):
        bcast.compile(DATA_SIZE, filename="prog.mlir", backend="c")
    x = np.arange(5, dtype=np.float32)
    got = bcast.compile(DATA_SIZE, backend="numpy")(x, np.array([2, 3], np.int32))
    np.testing.assert_array_equal(got, x)


DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32}

CUMULATIVE = """
func.func @main(%x: tensor<?x4xELEMENT>) -> tensor<?x4xELEMENT> {
  %0 = bcast.cumulative KIND %x, dim = 0REVERSE : (tensor<?x4xELEMENT>) -> tensor<?x4xELEMENT>
  func.return %0 : tensor<?x4xELEMENT>
}
"""


@pytest.mark.parametrize("reverse", ["", " reverse"])
@pytest.mark.parametrize("element", ["f32", "f16", "i32"])
@pytest.mark.parametrize("kind", ["add", "multiply", "maximum", "minimum"])
def test_a_cumulative_along_a_dynamic_dim_exports_to_xla_at_sizes_0_1_5(kind, element, reverse) -> None:
    """``bcast.cumulative`` along a ``?`` dim is written as JAX's
    ``dynamic_reduce_window`` (its window ``maximum(n, 1)``): XLA runs it,
    after jaxlib's shape refinement, at sizes 0, 1 and 5 with bcast's
    results; bcast imports it back (but float maximum/minimum, whose body
    guards NaN, as in the static form) with no check left."""
    text = CUMULATIVE.replace("KIND", kind).replace("ELEMENT", element).replace("REVERSE", reverse)
    module = driver.load(text, "prog.mlir")
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    exported = emit_text(module)
    assert "stablehlo.dynamic_reduce_window" in exported
    reference = bcast.compile(text, backend="reference")
    nan_guarded = kind in ("maximum", "minimum") and element != "i32"
    back = None if nan_guarded else driver.load(exported, "export.mlir", import_stablehlo=True,
                                                pipeline="canonicalize")  # fmt: skip
    if back is not None:
        assert "bcast.cumulative" in str(back) and "check_broadcastable" not in str(back)
    rng = np.random.default_rng(3)
    for n in (0, 1, 5):
        x = (rng.standard_normal((n, 4)) * 3).astype(DTYPES[element])
        expected = reference(x)
        (got,) = run_stablehlo(refined_stablehlo(exported, [x.shape]), [x])
        np.testing.assert_allclose(got, expected, rtol=2e-3)


WINDOW_FROM_ANOTHER_ARGUMENT = """
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %n1 = stablehlo.add %n, %m1 : tensor<i32>
  %w = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.constant dense<1> : tensor<1xi32>
  %lo = stablehlo.reshape %n1 : (tensor<i32>) -> tensor<1xi32>
  %z = stablehlo.constant dense<0> : tensor<1xi32>
  %pp = stablehlo.concatenate %lo, %z, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %p = stablehlo.reshape %pp : (tensor<2xi32>) -> tensor<1x2xi32>
  %r = "stablehlo.custom_call"(%x, %init, %w, %s, %s, %s, %p) <{call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@add]}> : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
"""


@pytest.mark.parametrize("backend", SIZE_TENSOR_BACKENDS)
def test_a_window_that_is_not_the_dim_is_a_located_run_time_error(backend) -> None:
    """A window read from another argument's size is checked against the dim
    at run time: equal, the cumulative sum; different (a sliding window),
    a located error with both sizes and nothing returned."""
    compiled = bcast.compile(WINDOW_FROM_ANOTHER_ARGUMENT, filename="window.mlir", backend=backend)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(compiled(x, np.zeros(4, np.float32)), np.cumsum(x))
    with pytest.raises(bcast.BcastError) as info:
        compiled(x, np.zeros(3, np.float32))
    assert str(info.value).startswith("window.mlir:13:8: error: the window of a cumulative "
                                      "stablehlo.dynamic_reduce_window is not its dim's size: (3,) (4,)")
