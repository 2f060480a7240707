"""``bcast-plan-prefetch`` on hand-written loop IR: what a phased row loop
prefetches and which streams it defers (tests/filecheck/transforms/plan_prefetch.mlir
shows it after the lowering), and the C printer's reading of the marks."""

from __future__ import annotations

import re
import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import UnitAttr

import bcast
from bcast.ir.loops import DEFERRED_STREAM_ATTR, PREFETCH_AHEAD_ATTR, PREFETCH_BLOCK_ATTR
from bcast.lowering.c_emitter import emit_module
from bcast.passes.errors import PassError
from bcast.passes.loops.plan_prefetch import PREFETCH_BLOCK, PREFETCH_BYTES, PREFETCH_ROWS, PlanPrefetchPass
from bcast.passes.loops.streaming_stores import STREAM_BYTES
from bcast.tests.passes.loops.loop_ir import parse

ROW = """
func.func @f(%x: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<1024xf32>
    scf.for %j = %c0 to %n step %c1 {
      %a = memref.load %x[%i, %j] : memref<1024x1024xf32>
      memref.store %a, %t[%j] : memref<1024xf32>
    } {bcast.parallel}
    scf.for %j = %c0 to %n step %c1 {
      %b = memref.load %t[%j] : memref<1024xf32>
      %e = math.exp %b : f32
      memref.store %e, %t[%j] : memref<1024xf32>
    } {bcast.parallel}
    scf.for %j = %c0 to %n step %c1 {
      %c = memref.load %t[%j] : memref<1024xf32>
      memref.store %c, %out[%i, %j] : memref<1024x1024xf32>
    } {bcast.parallel}
    memref.dealloc %t : memref<1024xf32>
  } {bcast.parallel}
  func.return
}
"""
STREAMED = ROW.replace("memref.store %c, %out[%i, %j] :", "memref.store %c, %out[%i, %j] {nontemporal = true} :")


def planned(text: str):
    """(the phases' blocks, the accesses' rows ahead by memref, the deferred
    stores' memrefs) after running the pass twice."""
    module = parse(text)
    for _ in range(2):
        PlanPrefetchPass().apply(Context(), module)
    ops = list(module.walk())
    blocks = [o.attributes[PREFETCH_BLOCK_ATTR].value.data if PREFETCH_BLOCK_ATTR in o.attributes else None
              for o in ops if isinstance(o, scf.ForOp)]
    ahead = {o.memref.name_hint: o.attributes[PREFETCH_AHEAD_ATTR].value.data
             for o in ops if PREFETCH_AHEAD_ATTR in o.attributes}
    deferred = [o.memref.name_hint for o in ops if DEFERRED_STREAM_ATTR in o.attributes]
    return blocks, ahead, deferred


def test_a_row_loop_prefetches_its_input_and_result_rows():
    assert planned(ROW) == ([None, None, PREFETCH_BLOCK, None], {"x": PREFETCH_ROWS, "out": 1}, [])


def test_a_streamed_result_waits_for_the_next_row():
    assert planned(STREAMED) == ([None, None, PREFETCH_BLOCK, None], {"x": PREFETCH_ROWS}, ["out"])


@pytest.mark.parametrize("old, new, want", [
    # too small to prefetch (under PREFETCH_BYTES: 4 MiB)
    ("1024x1024xf32", "1024x1023xf32", ([None] * 4, {}, [])),
    # a transposed read is not a row
    ("%x[%i, %j]", "%x[%j, %i]", ([None, None, PREFETCH_BLOCK, None], {"out": 1}, [])),
    # only two phases: the result's row is not prefetched
    ("""    scf.for %j = %c0 to %n step %c1 {
      %c = memref.load %t[%j] : memref<1024xf32>
      memref.store %c, %out[%i, %j] : memref<1024x1024xf32>
    } {bcast.parallel}
""", "", ([None, None, PREFETCH_BLOCK], {"x": PREFETCH_ROWS}, [])),
])
def test_other_rows_are_not_prefetched(old, new, want):
    assert old in ROW
    assert planned(ROW.replace(old, new)) == want


def test_a_streamed_result_read_in_its_row_is_not_deferred():
    read = STREAMED.replace("%b = memref.load %t[%j]", "%b = memref.load %out[%i, %j]").replace(
        "%b = memref.load %out[%i, %j] : memref<1024xf32>", "%b = memref.load %out[%i, %j] : memref<1024x1024xf32>")
    assert planned(read) == ([None, None, PREFETCH_BLOCK, None], {"x": PREFETCH_ROWS}, [])


def test_stale_marks_are_cleared():
    stale = ROW.replace("%x[%i, %j] :", "%x[%i, %j] {bcast.prefetch_ahead = 5 : i64} :").replace(
        "1024x1024xf32", "1024x1023xf32")
    assert planned(stale) == ([None] * 4, {}, [])


def test_the_printer_prefetches_what_the_marks_say():
    module = parse(ROW)
    PlanPrefetchPass().apply(Context(), module)
    source, _ = emit_module(module)
    assert f"+= {PREFETCH_BLOCK})" in source
    assert f"+ {PREFETCH_ROWS} < 1024 ?" in source and "+ 1 < 1024 ?" in source
    assert "BCAST_PREFETCH_WRITE(" in source


def test_the_printer_rejects_a_deferred_stream_without_a_prefetching_phase():
    module = parse(STREAMED)
    store = next(o for o in module.walk() if isinstance(o, memref.StoreOp) and o.memref.name_hint == "out")
    store.attributes[DEFERRED_STREAM_ATTR] = UnitAttr()
    with pytest.raises(PassError, match=DEFERRED_STREAM_ATTR):
        emit_module(module)


def test_arrays_with_dynamic_dims_are_marked_for_a_run_time_decision():
    """Their size is known only at run time: marked as a large array is; a
    streamed result with ? dims, the row's one streamed store, is deferred
    as a static one is (the target streams it only when it is large), and
    its next row prefetched for writing as a plain store's is (the target
    does so only when it does not stream)."""
    assert planned(ROW.replace("1024x1024xf32", "?x1024xf32")) == planned(ROW)
    assert planned(STREAMED.replace("1024x1024xf32", "?x1024xf32")) == (
        [None, None, PREFETCH_BLOCK, None], {"x": PREFETCH_ROWS, "out": 1}, ["out"])


def test_two_streamed_results_with_dynamic_dims_are_not_deferred():
    """Each may or may not stream at run time, by its own size: the row
    streams them as it computes them."""
    two = STREAMED.replace("%out: memref<1024x1024xf32>", "%out: memref<1024x1024xf32>, %out2: memref<1024x1024xf32>")
    two = two.replace("memref.store %c, %out[%i, %j] {nontemporal = true} : memref<1024x1024xf32>",
                      "memref.store %c, %out[%i, %j] {nontemporal = true} : memref<1024x1024xf32>\n"
                      "      memref.store %c, %out2[%i, %j] {nontemporal = true} : memref<1024x1024xf32>")
    assert planned(two)[2] == ["out", "out2"]
    assert planned(two.replace("1024x1024xf32", "?x1024xf32")) == (
        [None, None, PREFETCH_BLOCK, None], {"x": PREFETCH_ROWS, "out": 1, "out2": 1}, [])


SOFTMAX = """
func.func @main(%x: tensor<?x4096xf32>) -> tensor<?x4096xf32> {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<?x4096xf32>) -> tensor<?xf32>
  %b = bcast.broadcast_in_dim %m, dims = [0] : (tensor<?xf32>) -> tensor<?x1xf32>
  %d = bcast.subtract %x, %b : (tensor<?x4096xf32>, tensor<?x1xf32>) -> tensor<?x4096xf32>
  %e = bcast.exponential %d : tensor<?x4096xf32>
  %s = bcast.reduce add %e, dims = [1] : (tensor<?x4096xf32>) -> tensor<?xf32>
  %t = bcast.broadcast_in_dim %s, dims = [0] : (tensor<?xf32>) -> tensor<?x1xf32>
  %r = bcast.divide %e, %t : (tensor<?x4096xf32>, tensor<?x1xf32>) -> tensor<?x4096xf32>
  func.return %r : tensor<?x4096xf32>
}
"""


def test_the_c_target_prefetches_dynamic_rows_only_when_the_array_is_large():
    """``PREFETCH_BYTES`` is 256 rows of 4096 f32: the phase prefetches from
    there (the row ahead clamped to the run-time rows), else runs as the
    static program's; NumPy's results at 0, 1, 3 and 256 rows."""
    f = bcast.compile(SOFTMAX, backend="c")
    assert f"* 4 >= {PREFETCH_BYTES})) {{" in f.c_source and "BCAST_PREFETCH(x + " in f.c_source
    assert f"+ {PREFETCH_ROWS} < x_d0 ? " in f.c_source
    rng = np.random.default_rng(0)
    for rows in (0, 1, 3, PREFETCH_BYTES // (4 * 4096)):
        x = rng.standard_normal((rows, 4096)).astype(np.float32)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(f(x), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_a_dynamic_streamed_row_is_drained_by_the_next_rows_phase_or_prefetched():
    """Softmax with ``?`` rows: its result streams from ``STREAM_BYTES``
    (2048 rows of 4096 f32), row by row through one tile that the next
    row's prefetching phase streams out, as the static program's does
    (docs/performance.md, "Dynamic shapes"); that phase runs whenever a row
    is pending, whatever the size of ``x``, and only then (the drain's code
    in a loop that never drains cost layernorm at 1024x1024 6%). NumPy's results on both sides
    of the threshold, on the threads' row ranges as OpenMP splits them."""
    f = bcast.compile(SOFTMAX, backend="c")
    # while a row waits, the prefetching phase that drains it; else the static program's phases
    drains = f.c_source.index("            if (p2) {\n")
    prefetches = f.c_source.index("} else if (((size_t)x_d0 * (size_t)4096 * 4 >= 4194304) "
                                  "|| ((size_t)result0_d0 * (size_t)4096 * 4 >= 4194304)) {")
    assert f.c_source.count("if (p2) bcast_stream(p2 + ") == 1
    assert drains < f.c_source.index("if (p2) bcast_stream(p2 + ") < prefetches
    assert "p2 = result0 + " in f.c_source and "if (p2) bcast_stream(p2, tile1, sizeof tile1);" in f.c_source
    # below STREAM_BYTES its rows are plain stores: the next one is prefetched for writing
    assert re.search(r"if \(!\(\(size_t\)result0_d0 \* \(size_t\)4096 \* 4 >= 33554432\)\) for \(.*\) "
                     r"BCAST_PREFETCH_WRITE\(result0 \+ r\d+ \* 4096", f.c_source)
    rng = np.random.default_rng(0)
    for rows in (STREAM_BYTES // (4 * 4096) - 1, STREAM_BYTES // (4 * 4096) + 1):
        x = rng.standard_normal((rows, 4096)).astype(np.float32)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(f(x), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
