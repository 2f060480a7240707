"""``bcast.scatter`` (StableHLO's ``scatter`` whose update computation is
the update, ``set``, or a kind's binary op, ``add``, ``multiply``,
``maximum``, ``minimum``) on every backend against an oracle
that walks the updates element by element as StableHLO's spec says (the
position the gather would read, not clamped; out of bounds skipped), for
the forms JAX emits (``x.at[i].set``, ``.add``, ``.multiply``, ``.max``, ``.min``), StableHLO's
interpreter cases, several index types with negative, out-of-range and
extreme indices (the C target must never write out of bounds), duplicates
(the combining kinds fold in all, ``set`` keeps the last), NaN kept by max/min; the exported module runs on XLA
with the same values; the Array API target on array_api_strict and JAX."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import bcast
from bcast.ir.rules import GatherDims
from bcast.tests.lowering.test_gather import INDEX_DTYPES, indices_for, sample, tensor
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]


def dims_text(dims: GatherDims) -> str:
    names = ("update_window_dims", "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims",
             "scatter_dims_to_operand_dims")
    values = (dims.offset_dims, dims.collapsed_slice_dims, dims.operand_batching_dims,
              dims.start_indices_batching_dims, dims.start_index_map)
    fields = [f"{n} = [{', '.join(map(str, v))}]" for n, v in zip(names, values) if v]
    return f"<{', '.join([*fields, f'index_vector_dim = {dims.index_vector_dim}'])}>"


def scatter_program(kind: str, shape, index_shape, update_shape, dims: GatherDims, element: str, index: str) -> str:
    t, i, u = tensor(shape, element), tensor(index_shape, index), tensor(update_shape, element)
    return f"""
func.func @main(%x: {t}, %i: {i}, %u: {u}) -> {t} {{
  %0 = bcast.scatter {kind} %x[%i], %u, {dims_text(dims)} : ({t}, {i}, {u}) -> {t}
  func.return %0 : {t}
}}
"""


def oracle(kind: str, x: np.ndarray, indices: np.ndarray, updates: np.ndarray, dims: GatherDims) -> np.ndarray:
    """StableHLO's spec, one update element at a time in row-major order, in Python ints."""
    out = np.array(x)
    kept = [d for d in range(x.ndim) if d not in (*dims.collapsed_slice_dims, *dims.operand_batching_dims)]
    for at in itertools.product(*map(range, updates.shape)):
        batch = [i for a, i in enumerate(at) if a not in dims.offset_dims]
        full = [0] * x.ndim
        for k, d in enumerate(dims.start_index_map):
            where = list(batch)
            if dims.index_vector_dim < indices.ndim:
                where.insert(dims.index_vector_dim, k)
            full[d] = int(indices[tuple(where)])
        for d, b in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
            full[d] = batch[b - (b > dims.index_vector_dim)]
        for d, a in zip(kept, dims.offset_dims):
            full[d] += at[a]
        if all(0 <= p < n for p, n in zip(full, x.shape)):
            with np.errstate(over="ignore"):  # integers wrap
                out[tuple(full)] = COMBINES[kind](out[tuple(full)], updates[at])
    return out


COMBINES = {"set": lambda old, new: new, "add": lambda old, new: old + new,
            "multiply": lambda old, new: old * new, "maximum": np.maximum, "minimum": np.minimum}
"""What each kind makes of the old value and one update (max/min keep NaN)."""
KINDS = sorted(COMBINES)


CASES = {
    # x.at[i].set(rows) / .add as JAX writes it: i of shape (5,) as (5, 1)
    "rows": ((6, 4), (5, 1), (5, 4), GatherDims((1,), (0,), (), (), (0,), 1)),
    # a (2, 5) id array, the index vector implicit (an embedding gradient)
    "embedding": ((12, 3), (2, 5), (2, 5, 3), GatherDims((2,), (0,), (), (), (0,), 2)),
    # one element per index vector, two dims: x.at[i, j]
    "points": ((5, 7), (6, 2), (6,), GatherDims((), (0, 1), (), (), (0, 1), 1)),
    # windows smaller than their dims: elements past the end skipped one by one
    "windows": ((5, 7), (3, 2), (3, 2, 3), GatherDims((1, 2), (), (), (), (0, 1), 1)),
    # StableHLO's interpreter cases (scatter.mlir), with their window shapes
    "spec": ((3, 4, 2), (2, 3, 2), (2, 3, 2, 2), GatherDims((2, 3), (0,), (), (), (1, 0), 2)),
    "spec_batching": ((2, 3, 4, 2), (2, 2, 3, 2), (2, 2, 3, 2, 2),
                      GatherDims((3, 4), (1,), (0,), (1,), (2, 1), 3)),
}


def updates_for(shape, seed: int) -> np.ndarray:
    return (np.random.default_rng(100 + seed).integers(-20, 20, shape) * 0.25).astype(np.float32)


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_scatter_writes_what_the_spec_says(backend, kind, case):
    shape, index_shape, update_shape, dims = CASES[case]
    x = sample(shape)
    f = bcast.compile(scatter_program(kind, shape, index_shape, update_shape, dims, "f32", "i32"), backend=backend)
    for seed in range(3):
        i, u = indices_for(index_shape, "i32", seed), updates_for(update_shape, seed)
        np.testing.assert_array_equal(np.asarray(f(x, i, u)), oracle(kind, x, i, u, dims), err_msg=f"indices {i}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", sorted(INDEX_DTYPES))
def test_scatter_skips_out_of_bounds_for_every_index_type(backend, index):
    shape, index_shape, update_shape, dims = CASES["windows"]
    x = sample(shape)
    for kind in ("set", "add"):
        f = bcast.compile(scatter_program(kind, shape, index_shape, update_shape, dims, "f32", index),
                          backend=backend)
        for seed in range(4):
            i, u = indices_for(index_shape, index, seed), updates_for(update_shape, seed)
            np.testing.assert_array_equal(np.asarray(f(x, i, u)), oracle(kind, x, i, u, dims),
                                          err_msg=f"{kind} indices {i}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_integer_add_wraps_and_the_operand_is_kept(backend):
    shape, index_shape, update_shape, dims = CASES["rows"]
    x = np.full(shape, 2**31 - 2, np.int32)
    i = np.array([[1], [1], [1], [3], [-1]], np.int32)
    u = np.full(update_shape, 1, np.int32)
    f = bcast.compile(scatter_program("add", shape, index_shape, update_shape, dims, "i32", "i32"), backend=backend)
    got = np.asarray(f(x, i, u))
    np.testing.assert_array_equal(got, oracle("add", x, i, u, dims))
    assert got[1, 0] == -(2**31) + 1 and (x == 2**31 - 2).all()


def test_spec_values_of_stablehlo_interpreter_case():
    """StableHLO's first interpreter case (scatter.mlir) by its expected
    values (ones added), which the oracle must give too."""
    shape, index_shape, update_shape, dims = CASES["spec"]
    x = np.arange(1, 25, dtype=np.int64).reshape(shape)
    i = np.array([[[0, 2], [1, 0], [2, 1]], [[0, 1], [1, 0], [0, 9]]], np.int64)
    u = np.ones(update_shape, np.int64)
    want = [[[1, 2], [5, 6], [7, 8], [7, 8]], [[10, 11], [12, 13], [14, 15], [16, 17]],
            [[18, 19], [20, 21], [21, 22], [23, 24]]]
    np.testing.assert_array_equal(oracle("add", x, i, u, dims), want)
    for backend in BACKENDS:
        f = bcast.compile(scatter_program("add", shape, index_shape, update_shape, dims, "i64", "i64"),
                          backend=backend)
        np.testing.assert_array_equal(np.asarray(f(x, i, u)), want, err_msg=backend)


def fitting_indices(shape, index_shape, update_shape, dims: GatherDims, index: str, distinct: bool) -> np.ndarray:
    """Index vectors whose windows fit in the operand (XLA skips a window
    that does not fit whole, the spec element by element: they agree on
    these), all different when ``distinct``."""
    kept = [d for d in range(len(shape)) if d not in (*dims.collapsed_slice_dims, *dims.operand_batching_dims)]
    window = {d: update_shape[a] for d, a in zip(kept, dims.offset_dims)}
    ranges = [range(shape[d] - window.get(d, 1) + 1) for d in dims.start_index_map]
    vector_dim = dims.index_vector_dim
    count = int(np.prod([n for a, n in enumerate(index_shape) if a != vector_dim]))
    candidates = list(itertools.product(*ranges))
    rng = np.random.default_rng(7)
    picks = rng.permutation(len(candidates))[:count] if distinct else rng.integers(0, len(candidates), count)
    vectors = np.array([candidates[p] for p in picks], INDEX_DTYPES[index])
    batch = [n for a, n in enumerate(index_shape) if a != vector_dim]
    vectors = vectors.reshape(*batch, len(dims.start_index_map))
    return vectors[..., 0] if vector_dim == len(index_shape) else np.moveaxis(vectors, -1, vector_dim)


XLA_CASES = [(case, "add") for case in sorted(CASES)] + [(case, "set") for case in ("embedding", "points", "rows")]
"""``set`` on the cases whose windows cannot overlap (one element per
index vector on its start dims): XLA's order among duplicates is its own."""


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("index", ["i8", "ui8", "i32", "ui64"])
@pytest.mark.parametrize("case, kind", XLA_CASES)
def test_exported_scatter_runs_on_xla_as_the_oracle_says(case, kind, index):
    """``-t stablehlo`` writes ``stablehlo.scatter`` with the update
    computation JAX writes; XLA runs it to the oracle's values."""
    shape, index_shape, update_shape, dims = CASES[case]
    exported = written_back(scatter_program(kind, shape, index_shape, update_shape, dims, "f32", index))
    assert '"stablehlo.scatter"' in exported, exported
    x, u = sample(shape), updates_for(update_shape, 0)
    i = fitting_indices(shape, index_shape, update_shape, dims, index, distinct=kind == "set")
    (got,) = run_on_xla(exported, (x, i, u))
    np.testing.assert_array_equal(got, oracle(kind, x, i, u, dims), err_msg=f"indices {i}")


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("kind", ["multiply", "maximum", "minimum"])
def test_exported_combining_scatter_runs_on_xla_as_the_oracle_says(kind, case):
    """``x.at[i].multiply/max/min``: XLA runs the exported update computation
    (max/min with the NaN guard) to the oracle's values, duplicates
    included (products of quarters are exact in any order), and a NaN
    update or operand element stays NaN."""
    shape, index_shape, update_shape, dims = CASES[case]
    exported = written_back(scatter_program(kind, shape, index_shape, update_shape, dims, "f32", "i32"))
    x, u = sample(shape), updates_for(update_shape, 0)
    x.flat[0], u.flat[-1] = np.nan, np.nan
    i = fitting_indices(shape, index_shape, update_shape, dims, "i32", distinct=False)
    (got,) = run_on_xla(exported, (x, i, u))
    np.testing.assert_array_equal(got, oracle(kind, x, i, u, dims), err_msg=f"indices {i}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_combining_scatter_keeps_nan_and_wraps_integers(backend):
    """Max and min keep a NaN of the operand or of an update (NumPy's
    ``np.maximum``, XLA with the guard); an integer product wraps."""
    shape, index_shape, update_shape, dims = CASES["rows"]
    x = sample(shape)
    x[1, 0] = np.nan
    i = np.array([[1], [1], [2], [3], [3]], np.int32)
    u = updates_for(update_shape, 2)
    u[2, 1] = np.nan
    for kind in ("maximum", "minimum"):
        got = np.asarray(bcast.compile(scatter_program(kind, shape, index_shape, update_shape, dims, "f32", "i32"),
                                       backend=backend)(x, i, u))  # fmt: skip
        np.testing.assert_array_equal(got, oracle(kind, x, i, u, dims), err_msg=kind)
        assert np.isnan(got[1, 0]) and np.isnan(got[2, 1]) and not np.isnan(got[3]).any()
    xi = np.full(shape, 3, np.int32)
    ui = np.full(update_shape, 2**30, np.int32)
    got = bcast.compile(scatter_program("multiply", shape, index_shape, update_shape, dims, "i32", "i32"),
                        backend=backend)(xi, i, ui)
    np.testing.assert_array_equal(got, oracle("multiply", xi, i, ui, dims))
    assert got[1, 0] == 0 and got[2, 0] == -(2**30)  # 3 * 2**60 and 3 * 2**30 modulo 2**32


@pytest.mark.parametrize("library", ["array_api_strict", "jax.numpy"])
def test_array_api_target_scatters_on_other_libraries(library):
    lib = pytest.importorskip(library)
    shape, index_shape, update_shape, dims = CASES["spec_batching"]
    x, i, u = sample(shape), indices_for(index_shape, "i32", 1), updates_for(update_shape, 1)
    for kind in KINDS:
        f = bcast.compile(scatter_program(kind, shape, index_shape, update_shape, dims, "f32", "i32"),
                          backend="array-api")
        if library == "jax.numpy":
            import jax

            got = jax.jit(f)(lib.asarray(x), lib.asarray(i), lib.asarray(u))
        else:
            got = f(lib.asarray(x), lib.asarray(i), lib.asarray(u))
        np.testing.assert_array_equal(np.asarray(got), oracle(kind, x, i, u, dims), err_msg=kind)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("element, dtype", [("i1", np.bool_), ("f16", np.float16), ("ui64", np.uint64),
                                            ("i8", np.int8)])
def test_gather_and_scatter_move_every_element_type(backend, element, dtype):
    """Booleans (bytes in the C buffers), f16 (``add`` rounded once per
    update), ui64 and i8 elements (``add`` wraps) through gather and scatter."""
    from bcast.tests.lowering.test_gather import CASES as GATHERS, gather_program, oracle as gather_oracle

    shape, index_shape, dims, sizes = GATHERS["rows"]
    x = (np.arange(int(np.prod(shape))) % 3).reshape(shape).astype(dtype)
    i = indices_for(index_shape, "i32", 0)
    got = bcast.compile(gather_program(shape, index_shape, dims, sizes, element, "i32"), backend=backend)(x, i)
    np.testing.assert_array_equal(np.asarray(got), gather_oracle(x, i, dims, sizes))
    shape, index_shape, update_shape, dims = CASES["rows"]
    u = (np.arange(int(np.prod(update_shape))) % 2).reshape(update_shape).astype(dtype)
    for kind in ["set"] if element == "i1" else ["set", "add"]:
        f = bcast.compile(scatter_program(kind, shape, index_shape, update_shape, dims, element, "i32"),
                          backend=backend)
        np.testing.assert_array_equal(np.asarray(f(x, i, u)), oracle(kind, x, i, u, dims), err_msg=kind)
