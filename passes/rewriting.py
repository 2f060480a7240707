"""The one rule for locations in rewrites: a new op takes the location of the
op it replaces (or is built for), so diagnostics after a pass still point
into the source. Every pass inserts and replaces through these."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint


def located(op: Operation, like: Operation) -> Operation:
    """``op`` with the location of ``like``."""
    op.location = like.location
    return op


def replace(
    rewriter: PatternRewriter,
    op: Operation,
    new_ops: Operation | Sequence[Operation],
    new_results: Sequence[SSAValue | None] | None = None,
) -> None:
    """``rewriter.replace``, the new ops located at ``op``."""
    new_ops = [new_ops] if isinstance(new_ops, Operation) else list(new_ops)
    for new in new_ops:
        located(new, op)
    rewriter.replace(op, new_ops, new_results)


def insert_before(rewriter: PatternRewriter, anchor: Operation, op: Operation) -> SSAValue:
    """Insert ``op`` (located at ``anchor``) before ``anchor``; its result."""
    rewriter.insert(located(op, anchor), InsertPoint.before(anchor))
    return op.results[0]
