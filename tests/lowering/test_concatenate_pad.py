"""``bcast.concatenate`` and ``bcast.pad`` on every backend against NumPy
(``np.concatenate``; ``np.pad`` for edges, strided placement for interior
padding): zero-size operands, three operands, first and last dim, f16/ui8/i1,
cropping (negative edges) and interior padding."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.ir import numerics

BACKENDS = ["reference", "numpy", "array-api", "c"]

DTYPES = {"f32": np.float32, "f16": np.float16, "ui8": np.uint8, "i1": np.bool_, "i32": np.int32, "f64": np.float64}


def tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def sample(shape, element, seed):
    rng = np.random.default_rng(seed)
    if element == "i1":
        return rng.random(shape) < 0.5
    return (rng.random(shape) * 200).astype(DTYPES[element])


def concatenate_program(shapes, dim: int, element: str) -> str:
    result = list(shapes[0])
    result[dim] = sum(s[dim] for s in shapes)
    types = [tensor(s, element) for s in shapes]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    operands = ", ".join(f"%a{i}" for i in range(len(shapes)))
    r = tensor(tuple(result), element)
    return f"""
func.func @main({args}) -> {r} {{
  %0 = bcast.concatenate {operands}, dim = {dim} : ({', '.join(types)}) -> {r}
  func.return %0 : {r}
}}
"""


CONCATENATES = [
    ([(2, 3), (1, 3)], 0, "f32"),
    ([(2, 3), (2, 4), (2, 1)], 1, "f16"),  # three operands, last dim
    ([(2, 0), (2, 3), (2, 0)], 1, "ui8"),  # zero-size operands
    ([(0, 3), (0, 3)], 0, "i32"),  # a zero-size result
    ([(4,), (3,), (5,)], 0, "i1"),
    ([(2, 3, 4), (2, 1, 4)], 1, "f64"),  # a middle dim
    ([(3, 2)], 0, "f32"),  # one operand
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shapes, dim, element", CONCATENATES)
def test_concatenate_matches_numpy(backend, shapes, dim, element):
    xs = [sample(s, element, i) for i, s in enumerate(shapes)]
    got = np.asarray(bcast.compile(concatenate_program(shapes, dim, element), backend=backend)(*xs))
    want = np.concatenate(xs, dim)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert not any(np.shares_memory(got, x) for x in xs)
    np.testing.assert_array_equal(got, want)


def pad_program(shape, low, high, interior, element: str) -> str:
    result = numerics.pad(np.zeros(shape), 0, low, high, interior).shape
    t, v, r = tensor(shape, element), tensor((), element), tensor(result, element)
    return f"""
func.func @main(%x: {t}, %v: {v}) -> {r} {{
  %0 = bcast.pad %x, %v, low = {list(low)}, high = {list(high)}, interior = {list(interior)} : ({t}, {v}) -> {r}
  func.return %0 : {r}
}}
"""


def expected_pad(x, value, low, high, interior) -> np.ndarray:
    """Interior padding by strided placement, then the edges by ``np.pad``
    (positive) and slicing (negative): an independent route to the result."""
    if x.ndim == 0:
        return x.copy()
    spread = [n + max(n - 1, 0) * g for n, g in zip(x.shape, interior)]
    inner = np.full(spread, value, dtype=x.dtype)
    inner[tuple(slice(None, None, g + 1) for g in interior)] = x
    padded = np.pad(inner, [(max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high)], constant_values=value)
    return padded[tuple(slice(max(-lo, 0), padded.shape[d] - max(-hi, 0)) for d, (lo, hi) in enumerate(zip(low, high)))]


PADS = [
    ((2, 3), [1, 0], [2, 1], [0, 0], "f32"),
    ((2, 3), [1, 0], [-1, 1], [1, 0], "f32"),  # cropping and interior
    ((3, 4), [-1, -2], [0, -1], [0, 2], "f16"),  # negative edges reach into interior gaps
    ((4,), [-2], [3], [1], "ui8"),
    ((0, 3), [1, 1], [2, 0], [3, 1], "i32"),  # zero-size operand
    ((2, 2), [0, 1], [1, 0], [0, 0], "i1"),
    ((2, 1, 3), [0, 2, 0], [1, 0, -3], [2, 5, 0], "f64"),
    ((), [], [], [], "f32"),  # a scalar pads to itself
    ((0, 2), [-1, 0], [1, 0], [0, 0], "f32"),  # a crop past an empty dim takes the other edge's padding
    ((1, 2), [-2, 0], [2, 0], [0, 0], "f32"),  # a crop past the elements: padding, then cropping
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape, low, high, interior, element", PADS)
def test_pad_matches_numpy(backend, shape, low, high, interior, element):
    x = sample(shape, element, 0)
    value = np.array(True if element == "i1" else 7, dtype=DTYPES[element])
    got = np.asarray(bcast.compile(pad_program(shape, low, high, interior, element), backend=backend)(x, value))
    want = expected_pad(x, value, low, high, interior)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert not np.shares_memory(got, x)
    np.testing.assert_array_equal(got, want)



CHAINED = """
func.func @main(%x: tensor<3x4xf32>, %y: tensor<2x4xf32>, %v: tensor<f32>, %w: tensor<7xf32>) -> (tensor<5x4xf32>, tensor<4x7xf32>) {
  %0 = bcast.subtract %x, %v : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = bcast.concatenate %0, %y, dim = 0 : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  %2 = bcast.add %1, %v : (tensor<5x4xf32>, tensor<f32>) -> tensor<5x4xf32>
  %3 = bcast.pad %0, %v, low = [0, 1], high = [1, -1], interior = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4x7xf32>
  %4 = bcast.subtract %3, %w : (tensor<4x7xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %2, %4 : tensor<5x4xf32>, tensor<4x7xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_concatenate_and_pad_between_broadcasting_elementwise_ops(backend):
    """Fusion boundaries: the elementwise producers and consumers (one with
    an implicit broadcast) fuse around them on every backend."""
    rng = np.random.default_rng(2)
    x, y = rng.random((3, 4)).astype(np.float32), rng.random((2, 4)).astype(np.float32)
    v, w = np.array(0.5, dtype=np.float32), rng.random(7).astype(np.float32)
    got_joined, got_padded = bcast.compile(CHAINED, backend=backend)(x, y, v, w)
    np.testing.assert_array_equal(got_joined, np.concatenate([x - v, y]) + v)
    np.testing.assert_array_equal(got_padded, expected_pad(x - v, v, [0, 1], [1, -1], [0, 1]) - w)


@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_target_runs_concatenate_and_pad_on_other_libraries(library):
    """Standard functions only (``concat``, ``expand_dims``, ``reshape``,
    ``broadcast_to``, slicing; no item assignment, which JAX and dask
    arrays lack): the same module on array_api_strict, dask (lazy, chunked)
    and JAX (jit). ``CHAINED`` feeds no multiply into an add, which XLA
    would contract to a fused multiply-add under jit."""
    lib = pytest.importorskip(library)
    rng = np.random.default_rng(3)
    x, y = rng.random((3, 4)).astype(np.float32), rng.random((2, 4)).astype(np.float32)
    v, w = np.array(0.5, dtype=np.float32), rng.random(7).astype(np.float32)
    want = bcast.compile(CHAINED, backend="reference")(x, y, v, w)
    f = bcast.compile(CHAINED, backend="array-api")
    if library == "jax.numpy":
        import jax

        got = jax.jit(f)(*(lib.asarray(a) for a in (x, y, v, w)))
    elif library == "dask.array":
        got = f(lib.from_array(x, chunks=(2, 3)), lib.from_array(y, chunks=(1, 2)), lib.from_array(v),
                lib.from_array(w, chunks=3))
        got = tuple(g.compute() for g in got)
    else:
        got = f(*(lib.asarray(a) for a in (x, y, v, w)))
    for g, want_one in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), want_one)
