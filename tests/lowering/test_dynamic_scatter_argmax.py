"""``scatter`` with ``?`` dims (the operand's rows, the count of indices and
updates: ``x.at[i].add(v)``, ``jax.ops.segment_sum`` of a run-time length)
and ``argmax``/``argmin`` along a ``?`` dim, on every backend (docs/ir.md,
"scatter" and "argmax"): one compile runs at sizes 0, 1 and more to the
spec's values (``test_scatter.oracle``: out-of-bounds updates skipped, an
empty operand included); what a ``?`` leaves unproven (updates against
indices, a window against its input dim; an empty argmax dim, an index type
too narrow for the run-time dim) is a located run-time error on every
backend; a Hypothesis property draws sizes and indices for every kind.
JAX's shape-polymorphic exports of the same programs run in
tests/tools/test_jax_dynamic.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir.rules import GatherDims
from bcast.lowering import c_runtime, memref_abi
from bcast.tests.budget import examples
from bcast.tests.lowering.test_argmax import arg_program
from bcast.tests.lowering.test_c_dynamic import loop_ir_text, run_sanitized, sanitized_units
from bcast.tests.lowering.test_gather import indices_for
from bcast.tests.lowering.test_scatter import KINDS, oracle, scatter_program, updates_for
from bcast.tools.api import DYNAMIC_BACKENDS

ROWS = GatherDims((1,), (0,), (), (), (0,), 1)
"""``x.at[i].add(v)`` as JAX writes it: rows of ``x`` at ``i`` of shape (k, 1)."""

EMBEDDING = GatherDims((2,), (0,), (), (), (0,), 2)
"""An embedding gradient: a (b, 5) id array, the index vector implicit."""

WINDOWS = GatherDims((1, 2), (), (), (), (0, 1), 1)
"""Windows of (a, b) at two-component starts: elements past the end skipped."""

SIZES = [(0, 3), (3, 0), (0, 0), (1, 1), (4, 7), (7, 2)]
"""(operand rows, count of indices) at the runs of one compile."""


def rows_program(kind: str, element: str = "f32", index: str = "i32", rows="?", count="?") -> str:
    return scatter_program(kind, (rows, 4), (count, 1), (count, 4), ROWS, element, index)


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("kind", KINDS)
def test_rows_at_run_time_counts_as_the_spec(backend, kind):
    """``x.at[i].KIND(v)`` of ? rows and a ? count: out-of-bounds and
    negative indices skipped, an empty operand written nothing, no indices
    leaving the operand as it was (and never its memory)."""
    f = bcast.compile(rows_program(kind), backend=backend)
    for seed, (n, k) in enumerate(SIZES):
        x = updates_for((n, 4), 50 + seed)
        i, u = indices_for((k, 1), "i32", seed), updates_for((k, 4), seed)
        got = np.asarray(f(x, i, u))
        assert got.shape == (n, 4)
        np.testing.assert_array_equal(got, oracle(kind, x, i, u, ROWS), err_msg=f"n={n} indices {i}")


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("index", ["i8", "ui8", "ui64", "i64"])
def test_every_index_type_at_run_time_sizes(backend, index):
    """Extreme indices of every width against a ? operand: none wraps into
    bounds (``bounded_i64`` of a run-time size)."""
    f = bcast.compile(rows_program("add", index=index), backend=backend)
    for seed, (n, k) in enumerate([(1, 5), (5, 9), (0, 2)]):
        x, i, u = updates_for((n, 4), seed), indices_for((k, 1), index, seed), updates_for((k, 4), 9 + seed)
        np.testing.assert_array_equal(f(x, i, u), oracle("add", x, i, u, ROWS), err_msg=f"indices {i}")


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_an_embedding_gradient_of_a_run_time_vocabulary_and_batch(backend):
    f = bcast.compile(scatter_program("add", ("?", 3), ("?", 5), ("?", 5, 3), EMBEDDING, "f32", "i64"),
                      backend=backend)
    for seed, (vocab, batch) in enumerate([(12, 2), (1, 1), (0, 3), (6, 0)]):
        x, i, u = updates_for((vocab, 3), seed), indices_for((batch, 5), "i64", seed), updates_for((batch, 5, 3), seed)
        np.testing.assert_array_equal(f(x, i, u), oracle("add", x, i, u, EMBEDDING))


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_run_time_windows_skip_elements_past_the_end(backend):
    """Windows of ? size into a ? operand: each window fits its input dim
    at run time (checked), its elements past the end skipped one by one."""
    f = bcast.compile(scatter_program("set", ("?", "?"), (3, 2), (3, "?", "?"), WINDOWS, "i32", "i32"),
                      backend=backend)
    for seed, (a, b, wa, wb) in enumerate([(5, 7, 2, 3), (1, 1, 1, 1), (4, 0, 2, 0), (3, 3, 3, 3)]):
        x = np.arange(a * b, dtype=np.int32).reshape(a, b)
        i, u = indices_for((3, 2), "i32", seed), (100 + np.arange(3 * wa * wb, dtype=np.int32)).reshape(3, wa, wb)
        np.testing.assert_array_equal(f(x, i, u), oracle("set", x, i, u, WINDOWS))


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_sizes_a_question_mark_left_unproven_are_located_run_time_errors(backend):
    """Updates whose count is not the indices', and a window larger than
    its run-time input dim: errors at the scatter, in the verifier's terms,
    nothing returned."""
    f = bcast.compile(rows_program("add"), backend=backend, filename="prog.mlir")
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((3, 4), np.float32), np.zeros((2, 1), np.int32), np.ones((3, 4), np.float32))
    assert str(info.value).splitlines()[0] == (
        "prog.mlir:3:8: error: scatter updates dimension 0 has size 3, not the size of its scatter_indices "
        "dimension 0 (2)")
    g = bcast.compile(scatter_program("set", ("?", "?"), (3, 2), (3, "?", "?"), WINDOWS, "i32", "i32"),
                      backend=backend, filename="prog.mlir")
    with pytest.raises(bcast.BcastError) as info:
        g(np.ones((4, 2), np.int32), np.zeros((3, 2), np.int32), np.ones((3, 2, 3), np.int32))
    assert str(info.value).splitlines()[0] == (
        "prog.mlir:3:8: error: scatter updates dimension 2 (window of input dimension 1) has size 3, larger than "
        "the input's 2")


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_static_empty_operand_skips_every_update(backend):
    """One definition for static and ``?`` dims: a scatter into an empty
    inserted dim is valid (every update out of bounds), as JAX's
    ``jnp.zeros((0, 4)).at[i].add(v)``."""
    f = bcast.compile(rows_program("add", rows=0, count=2), backend=backend)
    got = f(np.zeros((0, 4), np.float32), np.array([[0], [1]], np.int32), np.ones((2, 4), np.float32))
    assert got.shape == (0, 4)


# -- argmax / argmin along a ? dim ------------------------------------------


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reduce_along_a_run_time_dim_as_numpy(backend, name):
    f = bcast.compile(arg_program(name, [3, "?"], 1, "f32", "i32"), backend=backend)
    for n in (1, 2, 7):
        x = np.random.default_rng(n).standard_normal((3, n)).astype(np.float32)
        x[0, n // 2] = np.nan  # the first NaN wins
        x[1, :] = 0.5  # ties: the first
        got = np.asarray(f(x))
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, getattr(np, name)(x, axis=1))


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_an_empty_run_time_dim_is_a_located_error(backend, name):
    """Decided (docs/ir.md, "argmax"): the argmax of nothing is an error,
    at compile time for a static dim and at run time for a ``?`` one, in
    the same words; never XLA's index 0 of the reduce's init value."""
    f = bcast.compile(arg_program(name, ["?", 4], 0, "f32", "i64"), backend=backend, filename="prog.mlir")
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((0, 4), np.float32))
    assert str(info.value).splitlines()[0] == f"prog.mlir:3:8: error: {name} of an empty dim (dim 0 has size 0)"


MORE_STATIC = {
    "scatter": ("%r = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], "
                "scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<?x4xf32>, tensor<2x1xi32>, "
                "tensor<2x4xf32>) -> tensor<5x4xf32>", "tensor<5x4xf32>"),
    "dynamic_update_slice": ("%r = bcast.dynamic_update_slice %x[%j, %j], %u : (tensor<?x4xf32>, tensor<i32>, "
                             "tensor<i32>, tensor<2x4xf32>) -> tensor<5x4xf32>", "tensor<5x4xf32>"),
    "argmax": ("%r = bcast.argmax %x, dim = 1 : (tensor<?x4xf32>) -> tensor<5xi32>", "tensor<5xi32>"),
}
"""Ops whose declared result is more static than the operand's ``?`` dim it takes."""


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("name", sorted(MORE_STATIC))
def test_a_declared_result_more_static_than_its_operand_is_checked(backend, name):
    """Every backend fails where the reference fails (no buffer of the
    declared 5 rows filled from 3), and runs at the declared size."""
    body, result = MORE_STATIC[name]
    text = (f"func.func @main(%x: tensor<?x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>, %j: tensor<i32>) "
            f"-> {result} {{\n  {body}\n  func.return %r : {result}\n}}\n")
    f = bcast.compile(text, backend=backend, filename="prog.mlir")
    i, u, j = np.array([[0], [4]], np.int32), np.ones((2, 4), np.float32), np.int32(1)
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    reference = bcast.compile(text, backend="reference")(x, i, u, j)
    np.testing.assert_array_equal(f(x, i, u, j), reference)
    with pytest.raises(bcast.BcastError) as info:
        f(x[:3], i, u, j)
    shape = "(3,)" if name == "argmax" else "(3, 4)"
    assert str(info.value).splitlines()[0] == (
        f"prog.mlir:2:8: error: 'bcast.{name}' op result has shape {shape} at run time, which its type {result} "
        "does not allow")


UNUSED = """\
func.func @main(%x: tensor<?x4xf32>, %i: tensor<?x1xi32>, %u: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = bcast.argmax %x, dim = 0 : (tensor<?x4xf32>) -> tensor<4xi32>
  %s = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %x : tensor<?x4xf32>
}
"""


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_unused_ops_keep_their_run_time_checks(backend):
    """docs/semantics.md, "Run-time checks of unused ops": an argmax and a
    scatter nothing reads still fail where the reference fails."""
    f = bcast.compile(UNUSED, backend=backend, filename="prog.mlir")
    x, i = np.ones((2, 4), np.float32), np.zeros((1, 1), np.int32)
    np.testing.assert_array_equal(f(x, i, np.ones((1, 4), np.float32)), x)
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((0, 4), np.float32), i, np.ones((1, 4), np.float32))
    assert str(info.value).splitlines()[0] == "prog.mlir:2:8: error: argmax of an empty dim (dim 0 has size 0)"
    with pytest.raises(bcast.BcastError) as info:
        f(x, i, np.ones((2, 4), np.float32))
    assert str(info.value).splitlines()[0].startswith("prog.mlir:3:8: error: scatter updates dimension 0 has size 2")


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_an_index_type_too_narrow_for_the_run_time_dim_is_a_located_error(backend):
    f = bcast.compile(arg_program("argmax", ["?"], 0, "i32", "i8"), backend=backend, filename="prog.mlir")
    x = np.zeros(128, np.int32)
    x[127] = 1
    assert int(f(x)) == 127  # 128 elements: the last index, 127, fits i8
    with pytest.raises(bcast.BcastError) as info:
        f(np.zeros(129, np.int32))
    assert str(info.value).splitlines()[0] == (
        "prog.mlir:3:8: error: argmax of dim 0 of size 129: index type i8 cannot hold its last index")


# -- properties --------------------------------------------------------------


@pytest.fixture(scope="module")
def compiled_rows():
    """One compile per (backend, kind) of the ? rows program, shared by the
    property's examples (a C build per example would dominate)."""
    return {(b, k): bcast.compile(rows_program(k, index="i64"), backend=b) for b in DYNAMIC_BACKENDS for k in KINDS}


@st.composite
def row_scatters(draw):
    """Operand rows and a count of 0-6, indices in [-3, n + 3) (out of
    bounds included), updates from few values (duplicate positions fold)."""
    n, k = draw(st.integers(0, 6)), draw(st.integers(0, 6))
    i = np.array(draw(st.lists(st.integers(-3, n + 2), min_size=k, max_size=k)), np.int64).reshape(k, 1)
    values = st.sampled_from([-2.0, -0.5, 0.0, 1.0, 3.0])
    x = np.array(draw(st.lists(values, min_size=4 * n, max_size=4 * n)), np.float32).reshape(n, 4)
    u = np.array(draw(st.lists(values, min_size=4 * k, max_size=4 * k)), np.float32).reshape(k, 4)
    return draw(st.sampled_from(KINDS)), x, i, u


def test_random_run_time_scatters_agree_on_every_backend(compiled_rows):
    """Every backend equals the reference evaluator and the spec's oracle
    (NumPy, one update element at a time)."""
    @settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
    @given(row_scatters())
    def check(case):
        kind, x, i, u = case
        want = oracle(kind, x, i, u, ROWS)
        reference = np.asarray(compiled_rows["reference", kind](x, i, u))
        np.testing.assert_array_equal(reference, want)
        for backend in DYNAMIC_BACKENDS:
            np.testing.assert_array_equal(np.asarray(compiled_rows[backend, kind](x, i, u)), reference,
                                          err_msg=backend)

    check()


@pytest.fixture(scope="module")
def compiled_arg_reduce():
    return {(b, name): bcast.compile(arg_program(name, [2, "?"], 1, "f32", "i32"), backend=b)
            for b in DYNAMIC_BACKENDS for name in ("argmax", "argmin")}


def test_random_arg_reduce_along_a_run_time_dim(compiled_arg_reduce):
    values = st.sampled_from([-np.inf, -1.0, -0.0, 0.0, 2.0, np.inf, np.nan])

    @settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(1, 9).flatmap(lambda n: st.lists(values, min_size=2 * n, max_size=2 * n)),
           st.sampled_from(["argmax", "argmin"]))
    def check(flat, name):
        x = np.array(flat, np.float32).reshape(2, -1)
        want = getattr(np, name)(x, axis=1).astype(np.int32)
        for backend in DYNAMIC_BACKENDS:
            np.testing.assert_array_equal(compiled_arg_reduce[backend, name](x), want, err_msg=backend)

    check()


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_run_time_scatters_are_clean_under_sanitizers(tmp_path):
    """Buffers of exactly their sizes (0 and 1 included), indices of any
    bits: the C loops never read or write outside them."""
    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units([
        ("rows", rows_program("add"), [{0: n, 1: k, 2: k} for n, k in SIZES]),
        ("windows", scatter_program("set", ("?", "?"), (3, 2), (3, "?", "?"), WINDOWS, "i32", "i32"),
         [{0: a, 2: w} for a, w in [(0, 0), (1, 1), (5, 3), (2, 3)]]),
        ("argmax", arg_program("argmax", [3, "?"], 1, "f32", "i32"), [{0: n} for n in (0, 1, 2, 9)]),
    ], tmp_path, "s")
    assert refused == [
        ("windows", {0: 2, 2: 3}, "scatter updates dimension 1 (window of input dimension 0) has size 3, larger "
                                  "than the input's 2"),
        ("argmax", {0: 0}, "argmax of an empty dim (dim 1 has size 0)")]
    run_sanitized(units, calls, tmp_path, cc)


@pytest.mark.skipif(not memref_abi.tools_available(), reason="mlir-opt-19 not installed")
@pytest.mark.parametrize("kind", ["add", "set"])
def test_run_time_scatter_and_argmax_loop_ir_is_upstream_mlir(kind):
    """The loop IR of a scatter of run-time sizes (the guard loop of 0 or 1
    iteration, positions bounded by run-time sizes) and of an argmax along
    a ``?`` dim: mlir-opt 19 parses and verifies it."""
    for text in (rows_program(kind), arg_program("argmax", [3, "?"], 1, "f32", "i32")):
        loops = loop_ir_text(text)
        assert "memref.dim" in loops
        assert "func.func @main" in memref_abi.verify(loops)
