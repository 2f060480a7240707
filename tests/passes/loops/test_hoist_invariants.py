"""``bcast-hoist-invariants`` on hand-written loop IR (bcast-opt reads bcast
programs only; tests/filecheck/transforms/hoist_invariants.mlir shows the
pass after the lowering): what moves, and what must stay."""

from __future__ import annotations

from io import StringIO

from xdsl.context import Context
from xdsl.printer import Printer

from bcast.passes.loops.hoist_invariants import HoistInvariantsPass
from bcast.tests.passes.loops.loop_ir import parse


def hoisted(text: str) -> list[str]:
    """The pass's output, one stripped line per op, after running it twice."""
    module = parse(text)
    HoistInvariantsPass().apply(Context(), module)
    once = str(module)
    HoistInvariantsPass().apply(Context(), module)
    assert str(module) == once  # a second run changes nothing
    out = StringIO()
    Printer(stream=out).print_op(module)
    return [line.strip() for line in out.getvalue().splitlines()]


def lines_between(lines: list[str], first: str, last: str) -> list[str]:
    start = next(k for k, line in enumerate(lines) if line.startswith(first))
    return lines[start:next(k for k in range(start, len(lines)) if lines[k].startswith(last)) + 1]


BROADCAST_OPERANDS = """func.func @broadcast_operands(%x: memref<4x8xf32>, %s: memref<1xf32>, %out: memref<4x8xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %two = arith.constant 2.0 : f32
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %b = memref.load %s[%c0] : memref<1xf32>
      %c = memref.load %x[%i, %c0] : memref<4x8xf32>
      %d = arith.mulf %b, %two : f32
      %e = arith.addf %a, %d : f32
      %f = arith.addf %e, %c : f32
      memref.store %f, %out[%i, %j] : memref<4x8xf32>
    }
  }
  func.return
}
"""


def test_operands_move_out_of_every_loop_they_do_not_depend_on():
    lines = hoisted(BROADCAST_OPERANDS)
    assert lines_between(lines, "%two", "func.return") == [
        "%two = arith.constant 2.000000e+00 : f32",
        "%b = memref.load %s[%c0] : memref<1xf32>",
        "%d = arith.mulf %b, %two : f32",
        "scf.for %i = %c0 to %c4 step %c1 {",
        "%c = memref.load %x[%i, %c0] : memref<4x8xf32>",
        "scf.for %j = %c0 to %c8 step %c1 {",
        "%a = memref.load %x[%i, %j] : memref<4x8xf32>",
        "%e = arith.addf %a, %d : f32",
        "%f = arith.addf %e, %c : f32",
        "memref.store %f, %out[%i, %j] : memref<4x8xf32>",
        "}", "}", "func.return",
    ]


WRITTEN = """func.func private @fill(memref<1xf32>) -> ()
func.func @written(%buf: memref<1xf32>, %tmp: memref<1xf32>, %n: f32) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %a = memref.load %buf[%c0] : memref<1xf32>
    %q = arith.divf %one, %n : f32
    %b = arith.addf %acc, %a : f32
    %c = arith.mulf %b, %q : f32
    memref.store %c, %buf[%c0] : memref<1xf32>
    %t = memref.load %tmp[%c0] : memref<1xf32>
    func.call @fill(%tmp) : (memref<1xf32>) -> ()
    scf.yield %b : f32
  }
  func.return
}
"""


def test_memory_the_loop_writes_is_read_in_the_loop():
    """A store to it or a call taking it keeps its loads in the loop; a
    division by an argument moves (the loop IR guards every operation, so
    running it early is defined), and so do ops of a loop carrying a value."""
    lines = hoisted(WRITTEN)
    assert lines_between(lines, "%q = ", "func.return") == [
        "%q = arith.divf %one, %n : f32",
        "%sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {",
        "%a = memref.load %buf[%c0] : memref<1xf32>",
        "%b = arith.addf %acc, %a : f32",
        "%c = arith.mulf %b, %q : f32",
        "memref.store %c, %buf[%c0] : memref<1xf32>",
        "%t = memref.load %tmp[%c0] : memref<1xf32>",
        "func.call @fill(%tmp) : (memref<1xf32>) -> ()",
        "scf.yield %b : f32",
        "}", "func.return",
    ]


EMPTY = """func.func @empty(%x: memref<0xf32>, %out: memref<1xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c0 step %c1 {
    %a = memref.load %x[%c0] : memref<0xf32>
    memref.store %a, %out[%c0] : memref<1xf32>
  }
  func.return
}
"""


def test_a_loop_that_may_not_run_keeps_its_body():
    """A load moved out of a loop that never runs could read out of bounds."""
    lines = hoisted(EMPTY)
    assert lines_between(lines, "scf.for", "}") == [
        "scf.for %i = %c0 to %c0 step %c1 {",
        "%a = memref.load %x[%c0] : memref<0xf32>",
        "memref.store %a, %out[%c0] : memref<1xf32>",
        "}",
    ]
