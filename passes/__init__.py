"""Rewrites on bcast IR. ``available_passes`` is the registry bcast-opt uses."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


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

    return {
        "canonicalize": canonicalize,
        "cse": cse,
        "dce": dce,
        "bcast-make-explicit": make_explicit,
        "bcast-sink-broadcasts": sink_broadcasts,
        "bcast-fuse": fuse,
    }


DESCRIPTIONS = {
    "canonicalize": "apply every op's canonicalization patterns and folders (xDSL)",
    "cse": "merge identical side-effect-free ops, e.g. duplicate broadcasts (xDSL)",
    "dce": "remove ops whose results are unused (xDSL)",
    "bcast-make-explicit": "make every implicit broadcast an explicit broadcast_in_dim "
    "(options: degenerate=expand|reshape)",
    "bcast-sink-broadcasts": "compute elementwise ops on the small shape before broadcasting",
    "bcast-fuse": "group elementwise ops and the views feeding them into bcast.fusion ops",
}
"""One line per pass for ``bcast-opt --help``."""
