"""``bcast.iota`` and ``bcast.reverse`` on every backend against NumPy
(``np.arange`` converted as ``bcast.convert`` does, ``np.flip``): element
types with wrapping and rounding, zero-size dims, a reverse fused as an input
view and an iota feeding a fusion, under xla and tml semantics too."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]


def iota_program(shape: tuple[int, ...], dim: int, element: str) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    return f"""
func.func @main() -> {t} {{
  %0 = bcast.iota dim = {dim} : {t}
  func.return %0 : {t}
}}
"""


def expected_iota(shape, dim, dtype) -> np.ndarray:
    along = np.arange(shape[dim], dtype=np.int64).astype(dtype)  # wraps / rounds as convert does here
    ones = [shape[dim] if d == dim else 1 for d in range(len(shape))]
    return np.broadcast_to(along.reshape(ones), shape)


IOTAS = [
    ((4, 5), 0, "i32", np.int32),
    ((4, 5), 1, "i32", np.int32),
    ((2, 3, 4), 2, "f32", np.float32),
    ((3, 2), 0, "f16", np.float16),
    ((300,), 0, "ui8", np.uint8),  # wraps at 256
    ((3000,), 0, "f16", np.float16),  # f16 rounds above 2048
    ((0, 3), 1, "i64", np.int64),
    ((2, 0), 1, "f64", np.float64),
    ((5,), 0, "i8", np.int8),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape, dim, element, dtype", IOTAS)
def test_iota_matches_numpy(backend, shape, dim, element, dtype):
    got = np.asarray(bcast.compile(iota_program(shape, dim, element), backend=backend)())
    want = expected_iota(shape, dim, dtype)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def reverse_program(shape: tuple[int, ...], dims: list[int], element: str) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %0 = bcast.reverse %x, dims = {dims} : {t}
  func.return %0 : {t}
}}
"""


REVERSES = [
    ((3, 4), [1], "f32", np.float32),
    ((3, 4), [0, 1], "i32", np.int32),
    ((3, 4), [1, 0], "ui8", np.uint8),
    ((2, 3, 4), [0, 2], "f16", np.float16),
    ((5,), [0], "i1", np.bool_),
    ((1, 4), [0], "f32", np.float32),  # a size-1 dim: identity
    ((0, 3), [0, 1], "f32", np.float32),
    ((3, 4), [], "i64", np.int64),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape, dims, element, dtype", REVERSES)
def test_reverse_matches_numpy(backend, shape, dims, element, dtype):
    rng = np.random.default_rng(0)
    x = (rng.random(shape) * 200).astype(dtype) if dtype != np.bool_ else rng.random(shape) < 0.5
    got = np.asarray(bcast.compile(reverse_program(shape, dims, element), backend=backend)(x))
    want = np.flip(x, tuple(dims))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert not np.shares_memory(got, x)  # a reverse is a view inside, never in a result
    np.testing.assert_array_equal(got, want)


FUSED = """
module attributes {bcast.semantics = "xla"} {
func.func @main(%x: tensor<70x33xf32>, %l: tensor<70x1xi32>) -> (tensor<70x33xf32>, tensor<70x33xf32>) {
  %0 = bcast.iota dim = 1 : tensor<1x33xi32>
  %1 = bcast.compare EQ, %0, %l : (tensor<1x33xi32>, tensor<70x1xi32>) -> tensor<70x33xi1>
  %2 = bcast.convert %1 : (tensor<70x33xi1>) -> tensor<70x33xf32>
  %3 = bcast.reverse %x, dims = [0, 1] : tensor<70x33xf32>
  %4 = bcast.add %2, %3 : (tensor<70x33xf32>, tensor<70x33xf32>) -> tensor<70x33xf32>
  %5 = bcast.iota dim = 0 : tensor<70x33xf32>
  %6 = bcast.multiply %5, %3 : (tensor<70x33xf32>, tensor<70x33xf32>) -> tensor<70x33xf32>
  func.return %4, %6 : tensor<70x33xf32>, tensor<70x33xf32>
}
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_hot_plus_reversed_input_fuses_and_matches_numpy(backend):
    """Under xla semantics; a reverse of both dims is an input view of the
    fusion (rows reversed too, so a block of rows reads other rows)."""
    rng = np.random.default_rng(1)
    x = rng.random((70, 33)).astype(np.float32)
    labels = rng.integers(0, 33, (70, 1)).astype(np.int32)
    got_sum, got_product = bcast.compile(FUSED, backend=backend)(x, labels)
    one_hot = (np.arange(33)[None, :] == labels).astype(np.float32)
    np.testing.assert_array_equal(got_sum, one_hot + x[::-1, ::-1])
    rows = np.broadcast_to(np.arange(70, dtype=np.float32)[:, None], (70, 33))
    np.testing.assert_array_equal(got_product, rows * x[::-1, ::-1])


NESTED = """
module attributes {bcast.semantics = "tml"} {
func.func @main(%x: tensor<3xtensor<2xf32>>) -> tensor<3xtensor<2xf32>> {
  %0 = bcast.reverse %x, dims = [1] : tensor<3xtensor<2xf32>>
  func.return %0 : tensor<3xtensor<2xf32>>
}
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_nested_reverse_reverses_each_inner_tensor(backend):
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    got = bcast.compile(NESTED, backend=backend)(x)
    np.testing.assert_array_equal(np.asarray(got), x[:, ::-1])


def test_reverse_is_a_fusion_input_view_and_iota_a_boundary():
    from bcast.tools import driver

    module = driver.load(FUSED, "fused.mlir")
    driver.run_pipeline(driver.parse_pipeline("bcast-make-explicit,bcast-fuse"), driver.make_context(), module)
    text = str(module)
    fusions = text.split("bcast.fusion")[1:]
    assert fusions and all("bcast.reverse" in f.split("bcast.yield")[0] for f in fusions), text
    assert not any("bcast.iota" in f.split("bcast.yield")[0] for f in fusions), text


@pytest.mark.parametrize("shape, dim, element, dtype", [c for c in IOTAS if 0 not in c[0]])
def test_iota_exported_runs_on_xla_as_numpy_says(shape, dim, element, dtype):
    """XLA's iota wraps (ui8, i8) and rounds (f16 above 2048) exactly as
    bcast's does: the index converted to the element type."""
    got = run_on_xla(written_back(iota_program(shape, dim, element)), ())[0]
    np.testing.assert_array_equal(got, expected_iota(shape, dim, dtype))


@pytest.mark.parametrize("shape, dims, element, dtype", [c for c in REVERSES if 0 not in c[0]])
def test_reverse_exported_runs_on_xla_as_numpy_says(shape, dims, element, dtype):
    x = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    got = run_on_xla(written_back(reverse_program(shape, dims, element)), (x,))[0]
    np.testing.assert_array_equal(got, np.flip(x, tuple(dims)))


def test_jaxlib_refuses_a_boolean_iota_as_bcast_does():
    """Why ``bcast.iota`` rejects i1: StableHLO's iota has no booleans."""
    pytest.importorskip("jax")
    from bcast.tools.jax_bridge import verify_stablehlo

    with pytest.raises(bcast.BcastError, match="'stablehlo.iota' op result #0 must be"):
        verify_stablehlo("func.func public @main() -> tensor<3xi1> {\n"
                         "  %0 = stablehlo.iota dim = 0 : tensor<3xi1>\n"
                         "  return %0 : tensor<3xi1>\n}\n")


@pytest.mark.filterwarnings("error::UserWarning")  # JAX without x64 warns of an int64 arange
@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_target_runs_iota_and_reverse_on_other_libraries(library):
    """Standard functions only (``arange``, ``reshape``, ``broadcast_to``,
    ``flip``): the same module on array_api_strict, dask (lazy) and JAX (jit)."""
    lib = pytest.importorskip(library)
    rng = np.random.default_rng(2)
    x = rng.random((70, 33)).astype(np.float32)
    labels = rng.integers(0, 33, (70, 1)).astype(np.int32)
    want = bcast.compile(FUSED, backend="reference")(x, labels)
    f = bcast.compile(FUSED, backend="array-api")
    if library == "jax.numpy":
        import jax

        got = jax.jit(f)(lib.asarray(x), lib.asarray(labels))
    elif library == "dask.array":
        got = f(lib.from_array(x, chunks=(16, 8)), lib.from_array(labels, chunks=(16, 1)))
        got = tuple(g.compute() for g in got)
    else:
        got = f(lib.asarray(x), lib.asarray(labels))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), w)
