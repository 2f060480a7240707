"""``bcast-scratch-allocs`` on hand-written loop IR: which allocs it marks
``bcast.scratch`` (tests/filecheck/transforms/scratch_allocs.mlir shows it
after the lowering), and the C printer's reading of a mark."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import memref

from bcast.ir.loops import SCRATCH_ATTR
from bcast.lowering.c_emitter import emit_module
from bcast.passes.errors import PassError
from bcast.passes.loops.scratch_allocs import ScratchAllocsPass
from bcast.tests.passes.loops.loop_ir import parse

LOOP = """
func.func @f(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %kept = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.alloc() : memref<8xf32>
    %small = memref.alloc() {bcast.stack} : memref<8xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      memref.store %a, %row[%j] : memref<8xf32>
      memref.store %a, %small[%j] : memref<8xf32>
      memref.store %a, %kept[%j] : memref<8xf32>
      %b = memref.load %row[%j] : memref<8xf32>
      memref.store %b, %out[%i, %j] : memref<4x8xf32>
    } {bcast.parallel}
    memref.dealloc %row : memref<8xf32>
    memref.dealloc %small : memref<8xf32>
  } {bcast.parallel}
  memref.dealloc %kept : memref<8xf32>
  func.return
}
"""


def scratch(text: str) -> list[str]:
    """The allocs marked, after running the pass twice."""
    module = parse(text)
    for _ in range(2):
        ScratchAllocsPass().apply(Context(), module)
    return [a.memref.name_hint for a in module.walk() if isinstance(a, memref.AllocOp) and SCRATCH_ATTR in a.attributes]


def test_a_heap_buffer_freed_every_iteration_is_scratch():
    """Not the stack array, nor the buffer of the function (no loop frees it)."""
    assert scratch(LOOP) == ["row"]


def test_a_buffer_the_body_does_not_free_is_not_scratch():
    kept = LOOP.replace("    memref.dealloc %row : memref<8xf32>\n", "")
    assert kept != LOOP
    assert scratch(kept) == []


def test_a_stale_mark_goes():
    stale = LOOP.replace("%kept = memref.alloc() :", "%kept = memref.alloc() {bcast.scratch} :")
    assert stale != LOOP
    assert scratch(stale) == ["row"]


def test_the_printer_allocates_scratch_once_per_loop():
    module = parse(LOOP)
    ScratchAllocsPass().apply(Context(), module)
    source, _ = emit_module(module)
    # %row (v2) is made right before the row loop and freed right after it
    assert "float *v2 = bcast_alloc(32);\n    for (int64_t i3 = 0; i3 < 4;" in source
    assert "        }\n    }\n    free(v2);\n" in source
    assert source.count("bcast_alloc(32)") == 2 and source.count("free(v2)") == 1


def test_the_printer_rejects_scratch_on_the_stack():
    module = parse(LOOP.replace("memref.alloc() {bcast.stack}", "memref.alloc() {bcast.stack, bcast.scratch}"))
    with pytest.raises(PassError, match="bcast.scratch and bcast.stack"):
        emit_module(module)
