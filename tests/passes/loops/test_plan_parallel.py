"""``bcast-plan-parallel`` on hand-written loop IR: which loops it marks
(tests/filecheck/transforms/plan_parallel.mlir shows it after the lowering)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import scf

from bcast.ir.loops import THREADS_ATTR, VECTORIZE_ATTR
from bcast.passes.loops.plan_parallel import PARALLEL_WORK, PlanParallelPass
from bcast.tests.passes.loops.loop_ir import parse

NEST = """
func.func @f(%x: memref<8x16xf32>, %h: memref<8x16xf16>, %k: memref<8x16xi32>, %out: memref<8x16xf32>)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %zf = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %zi = arith.constant 0 : i32
  scf.for %s = %c0 to %c8 step %c1 {
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %a = memref.load %x[%i, %j] : memref<8x16xf32>
        memref.store %a, %out[%i, %j] : memref<8x16xf32>
      } {bcast.parallel}
      %m = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zf) -> (f32) {
        %a = memref.load %x[%i, %j] : memref<8x16xf32>
        %b = arith.maximumf %acc, %a : f32
        scf.yield %b : f32
      } {bcast.reduction = "maximum"}
      %mh = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zh) -> (f16) {
        %a = memref.load %h[%i, %j] : memref<8x16xf16>
        %b = arith.maximumf %acc, %a : f16
        scf.yield %b : f16
      } {bcast.reduction = "maximum"}
      %si = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zi) -> (i32) {
        %a = memref.load %k[%i, %j] : memref<8x16xi32>
        %b = arith.addi %acc, %a : i32
        scf.yield %b : i32
      } {bcast.reduction = "add"}
    } {bcast.parallel}
  }
  func.return
}
"""


def marks(min_work: int, module=None) -> list[tuple[str, ...]]:
    """Per loop, in order, which of the pass's marks it has."""
    module = module or parse(NEST)
    PlanParallelPass(min_work=min_work).apply(Context(), module)
    return [tuple(name for name in (THREADS_ATTR, VECTORIZE_ATTR) if name in loop.attributes)
            for loop in module.walk() if isinstance(loop, scf.ForOp)]


def test_the_outermost_parallel_loop_with_enough_work_runs_on_threads():
    """The sequential outer loop (not bcast.parallel) never does; the row
    loop inside it runs 8 x 4 x 16 = 512 innermost iterations; f32 max
    vectorizes, f16 max and integer sums do not."""
    assert marks(512) == [(), (THREADS_ATTR,), (VECTORIZE_ATTR,), (VECTORIZE_ATTR,), (), ()]
    assert marks(513) == [(), (), (VECTORIZE_ATTR,), (VECTORIZE_ATTR,), (), ()]
    assert PARALLEL_WORK == 1 << 20 and marks(PARALLEL_WORK)[1] == ()


def test_no_loop_inside_a_threaded_loop_runs_on_threads():
    """A parallel loop inside one on threads stays serial, whatever its work."""
    module = parse(NEST.replace("    } {bcast.parallel}\n  }\n", "    } {bcast.parallel}\n  } {bcast.parallel}\n"))
    assert marks(16, module) == [(THREADS_ATTR,), (), (VECTORIZE_ATTR,), (VECTORIZE_ATTR,), (), ()]


def test_a_second_run_decides_afresh():
    module = parse(NEST)
    assert marks(16, module)[1] == (THREADS_ATTR,)
    assert marks(1 << 20, module)[1] == ()
