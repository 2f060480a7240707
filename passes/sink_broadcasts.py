"""``bcast-sink-broadcasts``: compute elementwise ops on the small shape.

An elementwise op whose operands are all ``broadcast_in_dim`` ops with the
same dims from sources of the same shape (scalar broadcasts, ``dims = []``,
and splat constants allowed alongside) is computed on the sources' shape and
broadcast once, as XLA's algebraic simplifier does:

    add(bcast(x : 3, [1]) : 4x3, bcast(y : 3, [1]) : 4x3)
      -> bcast(add(x, y) : 3, [1]) : 4x3

Only explicit ops are touched: every operand must already have the result's
shape, and binary ops with ``broadcast_dimensions`` are left alone (run
``bcast-make-explicit`` first). Nested types are left alone. Sinking repeats
through chains of elementwise ops. Every new op takes the location of the op
it replaces.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from bcast.ir import rules
from bcast.ir.ops import BinaryOp, BroadcastInDimOp, ConstantOp, ConvertOp, ElementwiseOp
from bcast.ir.rules import Shape
from bcast.ir.types import make_type
from bcast.passes.canonicalization import (
    broadcast_dims,
    element_of,
    flat_shape,
    is_nested,
    located,
    new_broadcast,
)


@dataclass(frozen=True)
class BroadcastKind:
    """What an operand is broadcast from: source shape and dims."""

    shape: Shape
    dims: tuple[int, ...]


def broadcast_kind(value: SSAValue) -> BroadcastKind | None:
    """The kind of a non-scalar broadcast operand, else None."""
    owner = value.owner
    if not isinstance(owner, BroadcastInDimOp) or is_nested(owner.operand):
        return None
    shape = flat_shape(owner.operand)
    if not shape:
        return None
    return BroadcastKind(shape, broadcast_dims(owner))


def is_scalar_broadcast(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, BroadcastInDimOp) and not flat_shape(owner.operand) and not is_nested(
        owner.operand
    )


def is_splat_constant(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, ConstantOp) or is_nested(value):
        return False
    return owner.splat_value() is not None


def common_kind(operands: tuple[SSAValue, ...]) -> BroadcastKind | None:
    """The one kind every operand is broadcast from; scalar broadcasts and
    splat constants fit any kind (rank 0, ``dims = []`` if alone)."""
    kinds = {broadcast_kind(v) for v in operands} - {None}
    if len(kinds) > 1:
        return None
    if not all(
        broadcast_kind(v) is not None or is_scalar_broadcast(v) or is_splat_constant(v)
        for v in operands
    ):
        return None
    if not any(isinstance(v.owner, BroadcastInDimOp) for v in operands):
        return None  # constants only: constant folding's job
    return kinds.pop() if kinds else BroadcastKind((), ())


def small_operand(
    value: SSAValue, kind: BroadcastKind, like: Operation
) -> tuple[list[Operation], SSAValue]:
    """The ops computing ``value`` on the small shape, and the small value."""
    owner = value.owner
    small_type = make_type((kind.shape,), element_of(value))
    if isinstance(owner, ConstantOp):
        splat = DenseIntOrFPElementsAttr.from_list(small_type, owner.value.get_values()[:1])  # type: ignore[arg-type]
        constant = located(ConstantOp(splat), like)
        return [constant], constant.results[0]
    assert isinstance(owner, BroadcastInDimOp)
    if flat_shape(owner.operand) == kind.shape:
        return [], owner.operand
    broadcast = new_broadcast(owner.operand, [], small_type, like)
    return [broadcast], broadcast.result


class SinkBroadcastsThroughElementwise(RewritePattern):
    """``f(bcast(x, D), bcast(y, D))`` -> ``bcast(f(x, y), D)`` for any
    elementwise ``f`` whose operands are all broadcast the same way."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ElementwiseOp, rewriter: PatternRewriter, /):
        if isinstance(op, BinaryOp) and op.broadcast_dimensions is not None:
            return
        result = op.results[0]
        if is_nested(result):
            return
        shape = flat_shape(result)
        if any(is_nested(v) or flat_shape(v) != shape for v in op.operands):
            return
        if (kind := common_kind(op.operands)) is None:
            return
        if rules.element_count(kind.shape) >= rules.element_count(shape):
            return
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        small_of: dict[SSAValue, SSAValue] = {}
        for value in op.operands:
            if value not in small_of:  # one small value per distinct operand
                ops, small_of[value] = small_operand(value, kind, op)
                new_ops += ops
            operands.append(small_of[value])
        small_op = type(op).create(
            operands=operands,
            result_types=[make_type((kind.shape,), element_of(result))],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        located(small_op, op)
        broadcast = new_broadcast(small_op.results[0], kind.dims, result.type, op)
        rewriter.replace(op, (*new_ops, small_op, broadcast))


class SinkBroadcastThroughConvert(RewritePattern):
    """``convert(bcast(x, D))`` -> ``bcast(convert(x), D)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter, /):
        owner = op.operand.owner
        if not isinstance(owner, BroadcastInDimOp) or is_nested(owner.operand) or is_nested(op.result):
            return
        source = owner.operand
        if rules.element_count(flat_shape(source)) >= rules.element_count(flat_shape(op.result)):
            return
        convert = ConvertOp(
            operands=[source],
            result_types=[make_type((flat_shape(source),), element_of(op.result))],
        )
        located(convert, op)
        broadcast = new_broadcast(convert.result, broadcast_dims(owner), op.result.type, op)
        rewriter.replace(op, (convert, broadcast))


@dataclass(frozen=True)
class SinkBroadcastsPass(ModulePass):
    """Compute elementwise ops before broadcasting, on the operands' small shape."""

    name = "bcast-sink-broadcasts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        """Sinking creates small broadcasts and reshapes, some identical to
        each other; after each round that changed something, canonicalize and
        cse tidy up, so the output is canonical and free of duplicates and the
        standard pipeline reaches a fixed point."""
        sink = PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [SinkBroadcastsThroughElementwise(), SinkBroadcastThroughConvert()]
            ),
            apply_recursively=True,
        )
        while sink.rewrite_module(op):
            CanonicalizePass().apply(ctx, op)
            cse(op)
