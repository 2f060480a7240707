"""``bcast.slice`` on every backend against NumPy's basic slicing: strides
> 1, zero-size results, f16/ui8/i1 elements, a slice fused as an input view
(read at ``start + i * stride``), slices composed by canonicalize, and the
program exported with ``-t stablehlo`` run on XLA."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]


def tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def slice_program(shape, ranges, element: str) -> str:
    """``ranges``: (start, limit, stride) per dim."""
    result = tuple(-(-(limit - start) // stride) for start, limit, stride in ranges)
    text = ", ".join(f"{s}:{l}:{st}" for s, l, st in ranges)
    t, r = tensor(shape, element), tensor(result, element)
    return f"""
func.func @main(%x: {t}) -> {r} {{
  %0 = bcast.slice %x [{text}] : ({t}) -> {r}
  func.return %0 : {r}
}}
"""


SLICES = [
    ((4, 5), [(0, 4, 1), (1, 3, 1)], "f32", np.float32),
    ((8, 9), [(1, 8, 3), (0, 9, 2)], "i32", np.int32),
    ((7,), [(2, 7, 4)], "f16", np.float16),
    ((6, 4), [(5, 6, 1), (0, 4, 3)], "ui8", np.uint8),
    ((9,), [(0, 9, 2)], "i1", np.bool_),
    ((4, 5), [(2, 2, 1), (0, 5, 1)], "f32", np.float32),  # zero rows
    ((4, 5), [(0, 4, 2), (5, 5, 3)], "i64", np.int64),  # zero columns
    ((0, 3), [(0, 0, 1), (1, 3, 1)], "f64", np.float64),  # an empty operand
    ((2, 3, 4), [(0, 2, 1), (0, 3, 1), (0, 4, 1)], "f32", np.float32),  # the whole tensor (a fold)
    ((), [], "i8", np.int8),  # rank 0
]


def sample(shape, dtype) -> np.ndarray:
    rng = np.random.default_rng(0)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    return (rng.random(shape) * 200).astype(dtype)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape, ranges, element, dtype", SLICES)
def test_slice_matches_numpy(backend, shape, ranges, element, dtype):
    x = sample(shape, dtype)
    got = np.asarray(bcast.compile(slice_program(shape, ranges, element), backend=backend)(x))
    want = x[tuple(slice(*r) for r in ranges)]
    assert got.dtype == want.dtype and got.shape == want.shape
    assert not np.shares_memory(got, x)  # a slice is a view inside, never in a result
    np.testing.assert_array_equal(got, want)


FUSED = """
func.func @main(%x: tensor<70x33xf32>, %y: tensor<35x11xf32>) -> tensor<35x11xf32> {
  %0 = bcast.slice %x [1:70:2, 0:33:3] : (tensor<70x33xf32>) -> tensor<35x11xf32>
  %1 = bcast.multiply %0, %y : (tensor<35x11xf32>, tensor<35x11xf32>) -> tensor<35x11xf32>
  %2 = bcast.slice %x [0:35, 22:33] : (tensor<70x33xf32>) -> tensor<35x11xf32>
  %3 = bcast.maximum %1, %2 : (tensor<35x11xf32>, tensor<35x11xf32>) -> tensor<35x11xf32>
  func.return %3 : tensor<35x11xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_fused_slices_match_numpy(backend):
    """Two slices of one input (a stride on rows too, so a block of result
    rows reads other operand rows) as input views of one fusion. ``maximum``,
    not ``add``: XLA (JAX jit below) contracts a multiply-add into an FMA."""
    rng = np.random.default_rng(1)
    x = rng.random((70, 33)).astype(np.float32)
    y = rng.random((35, 11)).astype(np.float32)
    got = bcast.compile(FUSED, backend=backend)(x, y)
    np.testing.assert_array_equal(np.asarray(got), np.maximum(x[1::2, ::3] * y, x[:35, 22:]))


def test_slice_is_a_fusion_input_view():
    from bcast.tools import driver

    module = driver.load(FUSED, "fused.mlir")
    driver.run_pipeline(driver.parse_pipeline("bcast-make-explicit,bcast-fuse"), driver.make_context(), module)
    text = str(module)
    fusions = text.split("bcast.fusion")[1:]
    assert len(fusions) == 1 and fusions[0].split("bcast.yield")[0].count("bcast.slice") == 2, text


CHAIN = """
func.func @main(%x: tensor<10x9xf32>) -> (tensor<2x2xf32>, tensor<0x3xf32>) {
  %0 = bcast.slice %x [1:10:2, 0:9] : (tensor<10x9xf32>) -> tensor<5x9xf32>
  %1 = bcast.slice %0 [1:5:2, 2:8:4] : (tensor<5x9xf32>) -> tensor<2x2xf32>
  %2 = bcast.slice %0 [5:5, 0:9:3] : (tensor<5x9xf32>) -> tensor<0x3xf32>
  func.return %1, %2 : tensor<2x2xf32>, tensor<0x3xf32>
}
"""


def test_slice_chains_canonicalize_to_one_slice_with_numpy_result():
    from bcast.tools import driver

    module = driver.load(CHAIN, "chain.mlir")
    driver.run_pipeline(driver.parse_pipeline("canonicalize"), driver.make_context(), module)
    text = str(module)
    assert text.count("bcast.slice %x") == 2 and "bcast.slice %0" not in text, text
    x = np.arange(90, dtype=np.float32).reshape(10, 9)
    composed, empty = bcast.compile(text, backend="numpy")(x)
    np.testing.assert_array_equal(composed, x[1::2][1:5:2, 2:8:4])
    assert empty.shape == (0, 3)


@pytest.mark.parametrize("shape, ranges, element, dtype", [c for c in SLICES if 0 not in c[0]])
def test_slice_exported_runs_on_xla_as_numpy_says(shape, ranges, element, dtype):
    x = sample(shape, dtype)
    got = run_on_xla(written_back(slice_program(shape, ranges, element)), (x,))[0]
    want = x[tuple(slice(*r) for r in ranges)]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_target_runs_slices_on_other_libraries(library):
    lib = pytest.importorskip(library)
    rng = np.random.default_rng(2)
    x = rng.random((70, 33)).astype(np.float32)
    y = rng.random((35, 11)).astype(np.float32)
    want = bcast.compile(FUSED, backend="reference")(x, y)
    f = bcast.compile(FUSED, backend="array-api")
    if library == "jax.numpy":
        import jax

        got = jax.jit(f)(lib.asarray(x), lib.asarray(y))
    elif library == "dask.array":
        got = f(lib.from_array(x, chunks=(16, 8)), lib.from_array(y, chunks=(16, 8))).compute()
    else:
        got = f(lib.asarray(x), lib.asarray(y))
    np.testing.assert_array_equal(np.asarray(got), want)


SOFTMAX = """
func.func @main(%x: tensor<4001x130xf32>, %y: tensor<2000x65xf32>) -> tensor<2000x65xf32> {
  %0 = bcast.slice %x [1:4001:2, 0:130:2] : (tensor<4001x130xf32>) -> tensor<2000x65xf32>
  %1 = bcast.multiply %0, %y : (tensor<2000x65xf32>, tensor<2000x65xf32>) -> tensor<2000x65xf32>
  %2 = bcast.exponential %1 : tensor<2000x65xf32>
  %3 = bcast.reduce add %2, dims = [1] keepdims : (tensor<2000x65xf32>) -> tensor<2000x1xf32>
  %4 = bcast.divide %2, %3 : (tensor<2000x65xf32>, tensor<2000x1xf32>) -> tensor<2000x65xf32>
  func.return %4 : tensor<2000x65xf32>
}
"""


@pytest.mark.parametrize("backend", ["numpy", "array-api", "c"])
def test_softmax_of_a_strided_slice_runs_in_row_blocks(backend):
    """A fusion large enough to run in several blocks of rows, each reading
    its rows of the strided view; the reference evaluator's values (the C
    target's ``exp`` may differ in the last bit)."""
    rng = np.random.default_rng(3)
    x = rng.random((4001, 130)).astype(np.float32)
    y = rng.random((2000, 65)).astype(np.float32)
    want = bcast.compile(SOFTMAX, backend="reference")(x, y)
    np.testing.assert_allclose(np.asarray(bcast.compile(SOFTMAX, backend=backend)(x, y)), want, rtol=1e-6)
    np.testing.assert_allclose(want, np.exp(x[1::2, ::2] * y) / np.exp(x[1::2, ::2] * y).sum(1, keepdims=True),
                               rtol=1e-6)
