"""``dynamic_slice``, ``dynamic_update_slice`` and ``gather`` of operands
with ``?`` dims on every backend (docs/semantics.md, "Dynamic and bounded shapes"): the starts are
clamped into the run-time ``[0, n - size]`` as StableHLO's spec says, so any
start value reads in bounds, at run-time sizes 1 and more; a block larger
than the run-time dim is a located error, the same on every backend, before
anything runs; the C is clean under ASan and UBSan at those sizes."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.ir import numerics
from bcast.lowering import c_runtime
from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units
from bcast.tools.api import DYNAMIC_BACKENDS

ROWS = """\
func.func @main(%x: tensor<?x4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %0 = bcast.dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""

BOTH = """\
func.func @main(%x: tensor<?x?xf64>, %i: tensor<ui8>, %j: tensor<ui8>) -> tensor<1x0xf64> {
  %0 = bcast.dynamic_slice %x[%i, %j], sizes = [1, 0] : (tensor<?x?xf64>, tensor<ui8>, tensor<ui8>) -> tensor<1x0xf64>
  func.return %0 : tensor<1x0xf64>
}
"""

GATHER = """\
func.func @main(%x: tensor<?x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %0 = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 4] : (tensor<?x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
"""

UPDATE_ROW = """\
func.func @main(%x: tensor<?x4xf32>, %u: tensor<1x4xf32>, %i: tensor<i32>) -> tensor<?x4xf32> {
  %c = bcast.constant dense<0> : tensor<i32>
  %0 = bcast.dynamic_update_slice %x[%i, %c], %u : (tensor<?x4xf32>, tensor<i32>, tensor<i32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
"""

UPDATE_ROWS = """\
func.func @main(%x: tensor<6x?xf64>, %u: tensor<?x?xf64>, %i: tensor<i8>, %j: tensor<i8>) -> tensor<6x?xf64> {
  %0 = bcast.dynamic_update_slice %x[%i, %j], %u : (tensor<6x?xf64>, tensor<i8>, tensor<i8>, tensor<?x?xf64>) -> tensor<6x?xf64>
  func.return %0 : tensor<6x?xf64>
}
"""

STARTS = [-3, 0, 1, 2, 5, 100]


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_gather_of_run_time_rows_clamps_its_starts_as_the_spec(backend):
    """``jnp.take(x, rows, axis=0)``'s gather from an operand of ``?``
    rows: each start clamped into the run-time ``[0, n - 1]``."""
    f = bcast.compile(GATHER, backend=backend)
    rows = np.array([[-3], [1], [100]], np.int32)
    for n in (1, 2, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        np.testing.assert_array_equal(f(x, rows), x[np.clip(rows[:, 0], 0, n - 1)])


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_dynamic_slice_of_run_time_rows_clamps_its_starts_as_the_spec(backend):
    f = bcast.compile(ROWS, backend=backend)
    for n in (2, 3, 7):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        for i in STARTS:
            for j in (-1, 0, 1, 9):
                starts = (np.int32(i), np.int32(j))
                got = f(x, *starts)
                np.testing.assert_array_equal(got, numerics.dynamic_slice(x, starts, (2, 3)))
                top, left = min(max(i, 0), n - 2), min(max(j, 0), 1)
                np.testing.assert_array_equal(got, x[top:top + 2, left:left + 3])


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_size_0_block_reads_nothing_at_any_size(backend):
    f = bcast.compile(BOTH, backend=backend)
    for a, b in [(1, 0), (1, 1), (3, 5)]:
        x = np.ones((a, b))
        assert f(x, np.uint8(200), np.uint8(3)).shape == (1, 0)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("rows", [1, 0])
def test_a_block_larger_than_the_run_time_dim_is_a_located_error(backend, rows):
    f = bcast.compile(ROWS, backend=backend, filename="prog.mlir")
    out = np.full((2, 3), 7.0, np.float32)
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((rows, 4), np.float32), np.int32(0), np.int32(0), out=out)
    assert str(info.value).splitlines()[0] == (
        f"prog.mlir:2:8: error: dynamic_slice size 2 of dimension 0 is larger than the operand's size {rows}")
    assert (out == 7.0).all()


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_gather_slice_larger_than_the_run_time_dim_is_a_located_error(backend):
    f = bcast.compile(GATHER, backend=backend, filename="prog.mlir")
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((0, 4), np.float32), np.zeros((3, 1), np.int32))
    assert str(info.value).splitlines()[0] == (
        "prog.mlir:2:8: error: gather slice size 1 of dimension 0 is larger than the operand's size 0")


def update_reference(x: np.ndarray, u: np.ndarray, starts) -> np.ndarray:
    """StableHLO's ``dynamic_update_slice`` written out: starts clamped into
    ``[0, n - size]``, the update written there in a copy."""
    want = x.copy()
    at = tuple(slice(min(max(int(i), 0), n - z), min(max(int(i), 0), n - z) + z)
               for i, n, z in zip(starts, x.shape, u.shape))
    want[at] = u
    return want


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_row_written_into_run_time_rows_clamps_its_start(backend):
    """``scan``'s write of row ``i`` into a carry of ``?`` rows: the start
    clamped into the run-time ``[0, n - 1]``; the operand is not changed."""
    f = bcast.compile(UPDATE_ROW, backend=backend)
    u = np.full((1, 4), 9.0, np.float32)
    for n in (1, 2, 5):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        before = x.copy()
        for i in STARTS:
            np.testing.assert_array_equal(f(x, u, np.int32(i)), update_reference(x, u, (i, 0)))
        np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_an_update_of_run_time_sizes_clamps_its_starts(backend):
    """``?`` on both sides, sizes 0 and 1 included, ``i8`` starts of either sign."""
    f = bcast.compile(UPDATE_ROWS, backend=backend)
    rng = np.random.default_rng(0)
    for cols, (r, c) in [(0, (0, 0)), (1, (1, 1)), (3, (6, 3)), (5, (2, 0)), (7, (3, 4))]:
        x, u = rng.standard_normal((6, cols)), rng.standard_normal((r, c))
        for i, j in [(-128, 0), (2, 1), (127, 127), (5, -1)]:
            got = f(x, u, np.int8(i), np.int8(j))
            np.testing.assert_array_equal(got, update_reference(x, u, (i, j)))


UPDATE_MISMATCHES = {
    "a row into no rows": (UPDATE_ROW, 3, [np.ones((0, 4), np.float32), np.ones((1, 4), np.float32), np.int32(0)],
                           "size 1 in dimension 0, larger than the operand's 0"),
    "more rows than the operand": (UPDATE_ROWS, 2, [np.ones((6, 2)), np.ones((7, 2)), np.int8(0), np.int8(0)],
                                   "size 7 in dimension 0, larger than the operand's 6"),
    "wider than the operand": (UPDATE_ROWS, 2, [np.ones((6, 4)), np.ones((2, 5)), np.int8(0), np.int8(0)],
                               "size 5 in dimension 1, larger than the operand's 4"),
}


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("case", UPDATE_MISMATCHES)
def test_an_update_larger_than_the_run_time_operand_is_a_located_error(backend, case):
    """Before anything runs: ``out`` keeps what it held."""
    program, line, args, words = UPDATE_MISMATCHES[case]
    f = bcast.compile(program, backend=backend, filename="prog.mlir")
    out = np.full(args[0].shape, 7.0, args[0].dtype)
    with pytest.raises(bcast.BcastError) as info:
        f(*args, out=out)
    assert str(info.value).splitlines()[0] == f"prog.mlir:{line}:8: error: dynamic_update_slice update has {words}"
    assert (out == 7.0).all()


@pytest.mark.slow  # 10 s: ASan/UBSan builds (the thorough run, CI)
def test_dynamic_slices_are_clean_under_sanitizers(tmp_path):
    """Called with buffers of exactly their sizes and starts far beyond
    either end (the harness fills an ``i32`` start with a float's bits,
    large and of either sign; a ``ui8`` one with a random byte); the sizes
    too small for the block are refused by the size plan before any call."""
    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units([
        ("rows", ROWS, [{0: n} for n in (0, 1, 2, 3, 9)]),
        ("both", BOTH, [{0: a} for a in (1, 3)]),
        ("gather", GATHER, [{0: n} for n in (0, 1, 5)]),
        ("update_row", UPDATE_ROW, [{0: n} for n in (0, 1, 3)]),
        ("update_rows", UPDATE_ROWS, [{0: a, 1: b} for a, b in ((0, 0), (1, 1), (3, 2), (2, 3))]),
    ], tmp_path, "s")
    assert refused == [*(("rows", {0: n}, f"dynamic_slice size 2 of dimension 0 is larger than the operand's size {n}")
                         for n in (0, 1)),
                       ("gather", {0: 0}, "gather slice size 1 of dimension 0 is larger than the operand's size 0"),
                       ("update_row", {0: 0}, "dynamic_update_slice update has size 1 in dimension 0, larger than "
                                              "the operand's 0"),
                       ("update_rows", {0: 2, 1: 3}, "dynamic_update_slice update has size 3 in dimension 1, "
                                                     "larger than the operand's 2")]
    run_sanitized(units, calls, tmp_path, cc)
