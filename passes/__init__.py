"""Rewrites on bcast IR. ``available_passes`` is the registry bcast-opt uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Literal, get_args, get_origin, get_type_hints

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec


@dataclass(frozen=True)
class TypedOptionsPass(ModulePass):
    """A pass whose ``Literal[...]`` options reject other values with one clear
    message, whether given in a pipeline (``{degenerate=foo}``) or in Python."""

    @classmethod
    def literal_options(cls) -> dict[str, tuple[str, ...]]:
        hints = get_type_hints(cls)
        return {
            f.name: get_args(hints[f.name])
            for f in fields(cls)
            if get_origin(hints.get(f.name)) is Literal
        }

    @classmethod
    def check_option(cls, name: str, value: object) -> None:
        allowed = cls.literal_options().get(name)
        if allowed is not None and value not in allowed:
            choices = [repr(a) for a in allowed]
            expected = ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else choices[0]
            raise ValueError(
                f"invalid value {str(value)!r} for option {name!r} of {cls.name}: "
                f"expected {expected}"
            )

    @classmethod
    def from_spec(cls, spec: ArgSpec):
        for name, values in spec.normalize_parameter_names().parameters.items():
            if len(values) == 1:
                cls.check_option(name, values[0])
        return super().from_spec(spec)

    def __post_init__(self) -> None:
        for name in self.literal_options():
            self.check_option(name, getattr(self, name))


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> loader, as xDSL's pipeline parser expects."""

    def canonicalize():
        from xdsl.transforms.canonicalize import CanonicalizePass

        return CanonicalizePass

    def cse():
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination,
        )

        return CommonSubexpressionElimination

    def dce():
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    def make_explicit():
        from bcast.passes.make_explicit import MakeExplicitPass

        return MakeExplicitPass

    def sink_broadcasts():
        from bcast.passes.sink_broadcasts import SinkBroadcastsPass

        return SinkBroadcastsPass

    def fuse():
        from bcast.passes.fuse import FusePass

        return FusePass

    def lower_to_loops():
        from bcast.passes.lower_to_loops import LowerToLoopsPass

        return LowerToLoopsPass

    def hoist_invariants():
        from bcast.passes.loops.hoist_invariants import HoistInvariantsPass

        return HoistInvariantsPass

    def plan_parallel():
        from bcast.passes.loops.plan_parallel import PlanParallelPass

        return PlanParallelPass

    def invariant_divisions():
        from bcast.passes.loops.invariant_divisions import InvariantDivisionsPass

        return InvariantDivisionsPass

    def streaming_stores():
        from bcast.passes.loops.streaming_stores import StreamingStoresPass

        return StreamingStoresPass

    def stack_allocs():
        from bcast.passes.loops.stack_allocs import StackAllocsPass

        return StackAllocsPass

    def collapse_nests():
        from bcast.passes.loops.collapse_nests import CollapseNestsPass

        return CollapseNestsPass

    def plan_prefetch():
        from bcast.passes.loops.plan_prefetch import PlanPrefetchPass

        return PlanPrefetchPass

    def scratch_allocs():
        from bcast.passes.loops.scratch_allocs import ScratchAllocsPass

        return ScratchAllocsPass

    def stablehlo_to_bcast():
        from bcast.passes.stablehlo_to_bcast import ConvertStablehloToBcastPass

        return ConvertStablehloToBcastPass

    return {
        "canonicalize": canonicalize,
        "cse": cse,
        "dce": dce,
        "bcast-make-explicit": make_explicit,
        "bcast-sink-broadcasts": sink_broadcasts,
        "bcast-fuse": fuse,
        "bcast-lower-to-loops": lower_to_loops,
        "bcast-hoist-invariants": hoist_invariants,
        "bcast-plan-parallel": plan_parallel,
        "bcast-invariant-divisions": invariant_divisions,
        "bcast-streaming-stores": streaming_stores,
        "bcast-stack-allocs": stack_allocs,
        "bcast-collapse-nests": collapse_nests,
        "bcast-plan-prefetch": plan_prefetch,
        "bcast-scratch-allocs": scratch_allocs,
        "convert-stablehlo-to-bcast": stablehlo_to_bcast,
    }


FUNCTION_PASSES = frozenset({"canonicalize", "cse", "dce", "bcast-make-explicit",
                             "bcast-sink-broadcasts", "bcast-fuse", "bcast-hoist-invariants",
                             "bcast-plan-parallel", "bcast-invariant-divisions", "bcast-streaming-stores",
                             "bcast-stack-allocs", "bcast-collapse-nests",
                             "bcast-plan-prefetch", "bcast-scratch-allocs"})
"""Passes that rewrite each function on its own, never a signature, a call
or another function: running one on the module is running it on every
``func.func``, so a pipeline may nest them in ``func.func(...)`` as mlir-opt
users write. (``bcast-lower-to-loops`` and ``convert-stablehlo-to-bcast``
change signatures and calls: module passes.)"""


LOOP_PASSES = frozenset({"bcast-hoist-invariants", "bcast-plan-parallel", "bcast-invariant-divisions",
                         "bcast-streaming-stores", "bcast-stack-allocs", "bcast-collapse-nests",
                         "bcast-plan-prefetch", "bcast-scratch-allocs"})
"""Passes on the loop IR (``bcast.passes.loops``): they run after
``bcast-lower-to-loops`` (the C target's ``loop_pipeline``)."""


DESCRIPTIONS = {
    "canonicalize": "apply every op's canonicalization patterns and folders (xDSL)",
    "cse": "merge identical side-effect-free ops, e.g. duplicate broadcasts (xDSL)",
    "dce": "remove ops whose results are unused (xDSL)",
    "bcast-make-explicit": "make every implicit broadcast an explicit broadcast_in_dim "
    "(options: degenerate=expand|reshape)",
    "bcast-sink-broadcasts": "compute elementwise ops on the small shape before broadcasting",
    "bcast-fuse": "group elementwise ops and the views feeding them into bcast.fusion ops",
    "bcast-lower-to-loops": "lower fused IR to scf/memref/arith/math loop nests over memrefs "
    "(upstream MLIR; results passed as caller-allocated memrefs)",
    "bcast-hoist-invariants": "loop IR: move arithmetic and loads of memory a loop does not write "
    "out of the loops they do not depend on",
    "bcast-plan-parallel": "loop IR: mark the loop nests that run on threads (enough work) and the innermost "
    "loops that vectorize (options: min_work=N)",
    "bcast-invariant-divisions": "loop IR: mark the float divisions of vectorized loops by values "
    "the loop does not change (a target multiplies by the reciprocal)",
    "bcast-streaming-stores": "loop IR: mark nontemporal the stores of results too large for the caches "
    "(consecutive, in innermost parallel loops)",
    "bcast-stack-allocs": "loop IR: mark the small allocs of each function that live on the stack "
    "(within a total per function)",
    "bcast-collapse-nests": "loop IR: mark the perfectly nested parallel loops that run as one loop "
    "(no access broadcasts or transposes their dims)",
    "bcast-plan-prefetch": "loop IR: mark the rows that phased row loops prefetch ahead and the streamed "
    "results they write out during the next row",
    "bcast-scratch-allocs": "loop IR: mark the heap buffers a loop allocates and frees every iteration "
    "(a target makes them once per loop and thread)",
    "convert-stablehlo-to-bcast": "import StableHLO and CHLO (as JAX prints them) as explicit bcast ops, "
    "keeping the ops it cannot take (option strict=true: report the first one)",
}
"""One line per pass for ``bcast-opt --help``."""
