"""``bcast-plan-parallel``: which loops run on threads and which vectorize.

Marks, on the loop IR, the decisions a target's printer then only maps to
its syntax (the C target: OpenMP pragmas):

- ``bcast.threads`` (``THREADS_ATTR``) on the outermost ``bcast.parallel``
  loop of a nest (carrying nothing) that runs at least ``min_work``
  innermost iterations, and on no loop inside it; a nest under
  ``min_work`` but of at least ``BURST_WORK`` iterations gets it too, with
  ``bcast.threads_in_bursts`` (``BURST_ATTR``): on threads only when its
  function is called back to back;
- ``bcast.vectorize`` (``VECTORIZE_ATTR``) on every innermost loop that is
  ``bcast.parallel`` and carries nothing, or that folds one float value
  with a reduction docs/semantics.md lets a target reassociate: ``add``
  (f16, f32, f64), ``maximum``/``minimum`` (f32, f64; the C target keeps
  NaN propagation with a flag beside the vector max).

A loop's old marks are replaced, so running the pass again, or with
another ``min_work``, decides afresh.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from bcast.ir.loops import BURST_ATTR, PARALLEL_ATTR, REDUCTION_ATTR, THREADS_ATTR, VECTORIZE_ATTR
from bcast.passes.loops.nests import innermost, work

PARALLEL_WORK = 1 << 20
"""A parallel loop nest runs on threads only when it runs at least this many
innermost iterations (1M: a 1024x1024 array in one pass; the three passes
over each row of softmax and layernorm reach it at 592x592).

Decision, from ``benchmarks/threads_threshold.py`` on the 2-core
development VM (docs/performance.md, "Where two threads pay"): starting a
parallel region whose worker sleeps costs 15-60 us there, so a second
thread pays once one thread takes about twice that: 1M iterations take
60-160 us (0.06 ns each in layernorm's passes, 0.1 in an elementwise
chain, 0.14-0.16 in softmax's with ``exp``), 256K iterations 15-40 us.
When other threads hold the cores, the region starts fewer threads (the C
target's ``bcast_threads``), so this threshold is set for free cores: on a
loaded machine a second thread that had to wait for a core made 1024x1024
calls 1.5-7x slower than one thread. A loop whose trip count is not static
counts as this many, and the C target tests its work at run time."""

BURST_WORK = 1 << 16
"""A parallel nest of at least this many innermost iterations (64K: a
256x256 array in one pass) but under ``PARALLEL_WORK`` runs on threads when
its function is called in a burst (``BURST_ATTR``): back to back, the
worker the previous call woke is still spinning (``c_runtime.OPENMP_SPIN``)
and joins at once, so the second thread pays from here; a call on its own
would wait for a sleeping worker, and stays on one thread.

Decision, from the quiet sweep of docs/performance.md ("The sweep"): on
(a) and (b) at 256x256, numba's two-thread kernels, called back to back
in libgomp with bcast's spin, took 0.012-0.015 ms against 0.020-0.023 for
its and bcast's one-thread kernels."""

VECTOR_REDUCTIONS = {"add": (Float16Type, Float32Type, Float64Type),
                     "maximum": (Float32Type, Float64Type), "minimum": (Float32Type, Float64Type)}
"""Reduction kind -> the float types whose reduction loops vectorize."""


def parallel(loop: scf.ForOp) -> bool:
    return PARALLEL_ATTR in loop.attributes and not loop.iter_args


def vectorizes(loop: scf.ForOp) -> bool:
    """Whether an innermost loop vectorizes (see the module docstring)."""
    if not innermost(loop):
        return False
    if parallel(loop):
        return True
    kind = loop.attributes.get(REDUCTION_ATTR)
    return (isinstance(kind, StringAttr) and len(loop.iter_args) == 1
            and isinstance(loop.iter_args[0].type, VECTOR_REDUCTIONS.get(kind.data, ())))


def plan(op: Operation, min_work: int, threaded: bool) -> None:
    """Mark the loops in ``op``'s regions (``threaded``: inside a loop on threads)."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                inside = threaded
                if isinstance(inner, scf.ForOp):
                    for name in (THREADS_ATTR, BURST_ATTR, VECTORIZE_ATTR):
                        inner.attributes.pop(name, None)
                    done = work(inner, PARALLEL_WORK) if not threaded and parallel(inner) else -1
                    if done >= min(min_work, BURST_WORK):
                        inner.attributes[THREADS_ATTR] = UnitAttr()
                        inside = True
                    if BURST_WORK <= done < min_work:
                        inner.attributes[BURST_ATTR] = UnitAttr()
                    if vectorizes(inner):
                        inner.attributes[VECTORIZE_ATTR] = UnitAttr()
                plan(inner, min_work, inside)


@dataclass(frozen=True)
class PlanParallelPass(ModulePass):
    """Mark the loops that run on threads and the loops that vectorize."""

    name = "bcast-plan-parallel"

    min_work: int = PARALLEL_WORK
    """Innermost iterations a loop nest needs to run on threads."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plan(op, self.min_work, False)
