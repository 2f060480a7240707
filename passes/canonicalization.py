"""Canonicalization patterns of the bcast ops, run by xDSL's ``canonicalize``.

Each pattern is one small ``RewritePattern``; ``PATTERNS`` maps an op class
(or a family base class) to its patterns.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern

PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {}


def patterns_for(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    """The patterns registered for ``op_type`` and for its family bases."""
    found: list[RewritePattern] = []
    for klass in op_type.__mro__:
        found.extend(PATTERNS.get(klass, ()))
    return tuple(found)
