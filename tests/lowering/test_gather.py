"""``bcast.gather`` (StableHLO's ``gather``) on every backend against an
oracle that walks the result element by element as StableHLO's spec says
(batch index -> index vector -> clamped start; plus the offset or the batch
position), for the forms JAX emits (``x[i]``, ``take`` along an axis,
``take_along_axis``, embedding lookups), StableHLO's interpreter cases,
several index types with negative, out-of-range and extreme indices (the C
target must never read out of bounds), an implicit trailing index vector,
an empty one, and slices smaller than their dims; the exported module runs on
XLA with the same values; the Array API target on array_api_strict and JAX."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import bcast
from bcast.ir.rules import GatherDims, gather_shape
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]

INDEX_DTYPES = {"i32": np.int32, "i64": np.int64, "ui32": np.uint32, "ui64": np.uint64, "i8": np.int8,
                "ui8": np.uint8}


def tensor(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def dims_text(dims: GatherDims) -> str:
    fields = [f"{f} = [{', '.join(map(str, getattr(dims, f)))}]" for f in
              ("offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
               "start_index_map") if getattr(dims, f)]
    return f"<{', '.join([*fields, f'index_vector_dim = {dims.index_vector_dim}'])}>"


def gather_program(shape, index_shape, dims: GatherDims, sizes, element: str, index: str) -> str:
    t, i = tensor(shape, element), tensor(index_shape, index)
    r = tensor(gather_shape(tuple(shape), tuple(index_shape), dims, sizes), element)
    return f"""
func.func @main(%x: {t}, %i: {i}) -> {r} {{
  %0 = bcast.gather %x[%i], {dims_text(dims)}, sizes = {list(sizes)} : ({t}, {i}) -> {r}
  func.return %0 : {r}
}}
"""


def oracle(x: np.ndarray, indices: np.ndarray, dims: GatherDims, sizes) -> np.ndarray:
    """StableHLO's spec, one result element at a time, in Python ints."""
    shape = gather_shape(x.shape, indices.shape, dims, sizes)
    kept = [d for d in range(x.ndim) if d not in (*dims.collapsed_slice_dims, *dims.operand_batching_dims)]
    out = np.empty(shape, x.dtype)
    for at in itertools.product(*map(range, shape)):
        batch = [i for a, i in enumerate(at) if a not in dims.offset_dims]
        full = [0] * x.ndim
        for k, d in enumerate(dims.start_index_map):
            where = list(batch)
            if dims.index_vector_dim < indices.ndim:
                where.insert(dims.index_vector_dim, k)
            start = int(indices[tuple(where)])
            full[d] = min(max(start, 0), x.shape[d] - sizes[d])
        for d, b in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
            full[d] = batch[b - (b > dims.index_vector_dim)]
        for d, a in zip(kept, dims.offset_dims):
            full[d] += at[a]
        out[at] = x[tuple(full)]
    return out


CASES = {
    # x[i] with i of shape (5,) as JAX writes it: a (5, 1) index array
    "rows": ((6, 4), (5, 1), GatherDims((1,), (0,), (), (), (0,), 1), (1, 4)),
    # jnp.take(x, i, axis=1)
    "take_axis_1": ((3, 8), (6, 1), GatherDims((0,), (1,), (), (), (1,), 1), (3, 1)),
    # take_along_axis(x, idx[:, None], axis=1): a batching dim
    "along_axis": ((6, 10), (6, 1, 1), GatherDims((), (1,), (0,), (0,), (1,), 2), (1, 1)),
    # an embedding table read at a (2, 5) id array, the index vector implicit (index_vector_dim = rank)
    "embedding": ((16, 8), (2, 5), GatherDims((2,), (0,), (), (), (0,), 2), (1, 8)),
    # StableHLO's interpreter cases (gather.mlir)
    "spec": ((3, 4, 2), (2, 3, 2), GatherDims((2, 3), (0,), (), (), (1, 0), 2), (1, 2, 2)),
    "spec_batching": ((2, 3, 4, 2), (2, 2, 3, 2), GatherDims((3, 4), (1,), (0,), (1,), (2, 1), 3), (1, 1, 2, 2)),
    # windows smaller than their dims, not collapsed: starts clamp to dim - size
    "windows": ((5, 7), (4, 2), GatherDims((1, 2), (), (), (), (0, 1), 1), (2, 3)),
    # an empty index vector: every batch element is the one slice at 0
    "no_starts": ((4, 3), (2, 0), GatherDims((1, 2), (), (), (), (), 1), (2, 3)),
}


def indices_for(index_shape, index: str, seed: int) -> np.ndarray:
    """Indices in a small range around the dims (negative and out of range
    included) and, every few elements, the index type's extremes."""
    dtype = np.dtype(INDEX_DTYPES[index])
    info, rng = np.iinfo(dtype), np.random.default_rng(seed)
    near = rng.integers(max(int(info.min), -9), min(int(info.max), 20), index_shape, endpoint=True).astype(dtype)
    extreme = rng.choice(np.array([info.min, info.max], dtype), index_shape)
    return np.where(rng.random(index_shape) < 0.2, extreme, near)


def sample(shape) -> np.ndarray:
    return np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * 0.5 - 3.0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_gather_reads_what_the_spec_says(backend, case):
    shape, index_shape, dims, sizes = CASES[case]
    x = sample(shape)
    f = bcast.compile(gather_program(shape, index_shape, dims, sizes, "f32", "i32"), backend=backend)
    for seed in range(3):
        i = indices_for(index_shape, "i32", seed)
        np.testing.assert_array_equal(np.asarray(f(x, i)), oracle(x, i, dims, sizes), err_msg=f"indices {i}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", sorted(INDEX_DTYPES))
def test_gather_clamps_every_index_type(backend, index):
    shape, index_shape, dims, sizes = CASES["windows"]
    x = sample(shape)
    f = bcast.compile(gather_program(shape, index_shape, dims, sizes, "f32", index), backend=backend)
    for seed in range(4):
        i = indices_for(index_shape, index, seed)
        np.testing.assert_array_equal(np.asarray(f(x, i)), oracle(x, i, dims, sizes), err_msg=f"indices {i}")


def test_spec_values_of_stablehlo_interpreter_case():
    """StableHLO's first interpreter case (gather.mlir) by its expected
    values, which the oracle must give too (so it is the spec's)."""
    shape, index_shape, dims, sizes = CASES["spec"]
    x = np.arange(1, 25, dtype=np.int64).reshape(shape)
    i = np.array([[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]], np.int64)
    first_rows = [[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]]
    second_rows = [[[9, 10], [11, 12]], [[11, 12], [13, 14]], [[17, 18], [19, 20]]]
    np.testing.assert_array_equal(oracle(x, i, dims, sizes), [first_rows, second_rows])
    for backend in BACKENDS:
        f = bcast.compile(gather_program(shape, index_shape, dims, sizes, "i64", "i64"), backend=backend)
        np.testing.assert_array_equal(np.asarray(f(x, i)), [first_rows, second_rows], err_msg=backend)


def test_gather_is_a_fusion_boundary_between_fusions():
    """``exp(x)[i] * 2`` on C: the gather reads the stored ``exp`` and its
    result feeds the next fusion."""
    text = """
func.func @main(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %e = bcast.exponential %x : tensor<6x4xf32>
  %g = bcast.gather %e[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 4] : (tensor<6x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %c = bcast.constant dense<2.0> : tensor<f32>
  %r = bcast.multiply %g, %c : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
"""
    x = sample((6, 4))
    i = np.array([[5], [-1], [2]], np.int32)
    want = np.exp(x)[[5, 0, 2]] * 2
    for backend in BACKENDS:
        np.testing.assert_allclose(np.asarray(bcast.compile(text, backend=backend)(x, i)), want, rtol=1e-6,
                                   err_msg=backend)


@pytest.mark.parametrize("index", ["i8", "ui8", "i32", "ui64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_exported_gather_runs_on_xla_as_the_oracle_says(case, index):
    """``-t stablehlo`` writes ``stablehlo.gather``; XLA clamps as bcast
    does (an index type too narrow for ``dim - size`` is widened first)."""
    shape, index_shape, dims, sizes = CASES[case]
    exported = written_back(gather_program(shape, index_shape, dims, sizes, "f32", index))
    assert '"stablehlo.gather"' in exported, exported
    x = sample(shape)
    for seed in range(2):
        i = indices_for(index_shape, index, seed)
        (got,) = run_on_xla(exported, (x, i))
        np.testing.assert_array_equal(got, oracle(x, i, dims, sizes), err_msg=f"indices {i}")


@pytest.mark.parametrize("library", ["array_api_strict", "jax.numpy"])
def test_array_api_target_gathers_on_other_libraries(library):
    lib = pytest.importorskip(library)
    shape, index_shape, dims, sizes = CASES["spec_batching"]
    f = bcast.compile(gather_program(shape, index_shape, dims, sizes, "f32", "i32"), backend="array-api")
    x, i = sample(shape), indices_for(index_shape, "i32", 1)
    if library == "jax.numpy":
        import jax

        got = jax.jit(f)(lib.asarray(x), lib.asarray(i))
    else:
        got = f(lib.asarray(x), lib.asarray(i))
    np.testing.assert_array_equal(np.asarray(got), oracle(x, i, dims, sizes))
