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

    return {"canonicalize": canonicalize, "cse": cse, "dce": dce}


DESCRIPTIONS = {
    "canonicalize": "apply every op's canonicalization patterns and folders (xDSL)",
    "cse": "merge identical side-effect-free ops, e.g. duplicate broadcasts (xDSL)",
    "dce": "remove ops whose results are unused (xDSL)",
}
"""One line per pass for ``bcast-opt --help``."""
