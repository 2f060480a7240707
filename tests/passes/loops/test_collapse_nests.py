"""``bcast-collapse-nests`` on hand-written loop IR: which nests it marks
``bcast.collapse`` (tests/filecheck/transforms/collapse_nests.mlir shows it
after the lowering), and the C printer's reading of a mark."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import scf

from bcast.ir.loops import COLLAPSE_ATTR
from bcast.passes.errors import PassError
from bcast.passes.loops.collapse_nests import CollapseNestsPass, collapsed_nest
from bcast.tests.passes.loops.loop_ir import parse

NEST = """
func.func @f(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      memref.store %a, %out[%i, %j] : memref<4x8xf32>
    } {bcast.parallel}
  } {bcast.parallel}
  func.return
}
"""


def marks(text: str) -> list[int | None]:
    """Each loop's mark, outside in, after running the pass twice."""
    module = parse(text)
    for _ in range(2):
        CollapseNestsPass().apply(Context(), module)
    return [loop.attributes[COLLAPSE_ATTR].value.data if COLLAPSE_ATTR in loop.attributes else None
            for loop in module.walk() if isinstance(loop, scf.ForOp)]


def test_a_nest_over_full_dims_collapses():
    assert marks(NEST) == [2, None]


@pytest.mark.parametrize("old, new", [
    ("%x[%i, %j]", "%x[%j, %i]"),  # transposed
    ("%x[%i, %j] : memref<4x8xf32>", "%x[%c0, %j] : memref<4x8xf32>"),  # broadcast along the rows
    ("    } {bcast.parallel}\n  } {bcast.parallel}", "    }\n  } {bcast.parallel}"),  # inner not parallel
    ("scf.for %j = %c0 to %c8 step %c1", "scf.for %j = %c1 to %c8 step %c1"),  # not from 0
    ("%a = memref.load %x[%i, %j] : memref<4x8xf32>",  # a variable used as a value
     "%a0 = memref.load %x[%i, %j] : memref<4x8xf32>\n      %k = arith.index_cast %j : index to i32\n"
     "      %a = arith.sitofp %k : i32 to f32"),
])
def test_other_nests_stay_loops(old, new):
    assert old in NEST
    assert marks(NEST.replace(old, new)) == [None, None]


def test_a_stale_mark_is_cleared():
    stale = NEST.replace("%x[%i, %j]", "%x[%j, %i]").replace(
        "  } {bcast.parallel}\n  func", "  } {bcast.parallel, bcast.collapse = 2 : i64}\n  func")
    assert "bcast.collapse" in stale
    assert marks(stale) == [None, None]


def test_the_rows_of_phases_collapse_above_them():
    """A nest down to a row whose body runs two phases: the rows collapse,
    the phases stay their own loops."""
    phased = """
func.func @f(%x: memref<2x4x8xf32>, %out: memref<2x4x8xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %h = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %a = memref.load %x[%h, %i, %j] : memref<2x4x8xf32>
        memref.store %a, %out[%h, %i, %j] : memref<2x4x8xf32>
      } {bcast.parallel}
      scf.for %j = %c0 to %c8 step %c1 {
        %a = memref.load %out[%h, %i, %j] : memref<2x4x8xf32>
        memref.store %a, %out[%h, %i, %j] : memref<2x4x8xf32>
      } {bcast.parallel}
    } {bcast.parallel}
  } {bcast.parallel}
  func.return
}
"""
    assert marks(phased) == [2, None, None, None]


def test_the_printer_rejects_a_mark_deeper_than_the_nest():
    module = parse(NEST.replace("  } {bcast.parallel}\n  func", "  } {bcast.parallel, bcast.collapse = 3 : i64}\n  func"))
    outer = next(loop for loop in module.walk() if isinstance(loop, scf.ForOp))
    with pytest.raises(PassError, match="bcast.collapse = 3"):
        collapsed_nest(outer)
