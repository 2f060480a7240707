"""``bcast-sink-broadcasts``: compute elementwise ops on the small shape.

An elementwise op whose operands are all ``broadcast_in_dim`` ops with the
same dims from sources of the same shape (scalar broadcasts, ``dims = []``,
and splat constants allowed alongside) is computed on the sources' shape and
broadcast once, as XLA's algebraic simplifier does:

    add(bcast(x : 3, [1]) : 4x3, bcast(y : 3, [1]) : 4x3)
      -> bcast(add(x, y) : 3, [1]) : 4x3

Only explicit ops are touched (``bcast.ir.fusion.is_explicit``: every operand
of the result's shape and element type, no ``broadcast_dimensions``; run
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
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from bcast.ir import rules
from bcast.ir.fusion import is_explicit
from bcast.ir.ops import BroadcastInDimOp, ConstantOp, ConversionOp, DynamicBroadcastInDimOp, ElementwiseOp
from bcast.ir.rules import Shape
from bcast.ir.types import flat_type_shape, is_nested, make_type, split_type
from bcast.passes.rewriting import replace
from bcast.passes.errors import first_dynamic


def _small_type(kind: BroadcastKind, value: SSAValue):
    return make_type((kind.shape,), split_type(value.type)[1])


@dataclass(frozen=True)
class BroadcastKind:
    """What an operand is broadcast from: source shape and dims."""

    shape: Shape
    dims: tuple[int, ...]


def broadcast_kind(value: SSAValue) -> BroadcastKind | None:
    """The kind of a non-scalar broadcast operand, else None."""
    owner = value.owner
    if not isinstance(owner, BroadcastInDimOp) or is_nested(owner.operand.type):
        return None
    shape = flat_type_shape(owner.operand.type)
    if not shape:
        return None
    return BroadcastKind(shape, owner.dims)


def is_scalar_broadcast(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, BroadcastInDimOp)
        and not flat_type_shape(owner.operand.type)
        and not is_nested(owner.operand.type)
    )


def is_splat_constant(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, ConstantOp) or is_nested(value.type):
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


def small_operand(value: SSAValue, kind: BroadcastKind) -> tuple[list[Operation], SSAValue]:
    """The ops computing ``value`` on the small shape, and the small value."""
    owner = value.owner
    small_type = _small_type(kind, value)
    if isinstance(owner, ConstantOp):
        splat = DenseIntOrFPElementsAttr.from_list(small_type, owner.value.get_values()[:1])  # type: ignore[arg-type]
        constant = ConstantOp(splat)
        return [constant], constant.result
    assert isinstance(owner, BroadcastInDimOp)
    if flat_type_shape(owner.operand.type) == kind.shape:
        return [], owner.operand
    broadcast = BroadcastInDimOp(owner.operand, [], small_type)
    return [broadcast], broadcast.result


class SinkBroadcastsThroughElementwise(RewritePattern):
    """``f(bcast(x, D), bcast(y, D))`` -> ``bcast(f(x, y), D)`` for any
    elementwise ``f`` whose operands are all broadcast the same way."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ElementwiseOp, rewriter: PatternRewriter, /):
        result = op.results[0]
        if not is_explicit(op) or is_nested(result.type):
            return
        if (kind := common_kind(op.operands)) is None:
            return
        if rules.element_count(kind.shape) >= rules.element_count(flat_type_shape(result.type)):
            return
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        small_of: dict[SSAValue, SSAValue] = {}
        for value in op.operands:
            if value not in small_of:  # one small value per distinct operand
                ops, small_of[value] = small_operand(value, kind)
                new_ops += ops
            operands.append(small_of[value])
        small_op = op.rebuilt(operands, _small_type(kind, result))
        broadcast = BroadcastInDimOp(small_op.results[0], kind.dims, result.type)
        replace(rewriter, op, (*new_ops, small_op, broadcast))


def _static_source_broadcast(value: SSAValue) -> DynamicBroadcastInDimOp | None:
    owner = value.owner
    if not isinstance(owner, DynamicBroadcastInDimOp) or is_nested(owner.operand.type):
        return None
    return owner if not rules.is_dynamic(flat_type_shape(owner.operand.type)) else None


class SinkDynamicBroadcastsThroughElementwise(RewritePattern):
    """``f(dbcast(x, S, D), dbcast(y, S, D))`` -> ``dbcast(f(x, y), S, D)``
    in a dynamic function, where the static rule's facts are known: every
    operand a ``dynamic_broadcast_in_dim`` of a static source of one shape,
    with the same dims and the very same output sizes (SSA values or
    literals). The expansion facts kept are those every operand had."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ElementwiseOp, rewriter: PatternRewriter, /):
        result = op.results[0]
        if not is_explicit(op) or is_nested(result.type):
            return
        owners = [_static_source_broadcast(v) for v in op.operands]
        if any(o is None for o in owners):
            return
        first = owners[0]
        shape = flat_type_shape(first.operand.type)
        if any(flat_type_shape(o.operand.type) != shape or o.dims != first.dims
               or list(o.mixed_sizes()) != list(first.mixed_sizes()) for o in owners):
            return
        small_op = op.rebuilt([o.operand for o in owners], make_type((shape,), split_type(result.type)[1]))
        expanding = sorted(set.intersection(*(set(o.expanding) for o in owners)))
        nonexpanding = sorted(set.intersection(*(set(o.nonexpanding) for o in owners)))
        broadcast = DynamicBroadcastInDimOp(small_op.results[0], first.mixed_sizes(), first.dims, result.type,
                                            expanding, nonexpanding)
        replace(rewriter, op, (small_op, broadcast))
        _erase_if_unused(rewriter, *dict.fromkeys(owners))


class SinkBroadcastThroughConvert(RewritePattern):
    """``convert(bcast(x, D))`` -> ``bcast(convert(x), D)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConversionOp, rewriter: PatternRewriter, /):
        owner = op.operand.owner
        if not isinstance(owner, BroadcastInDimOp):
            return
        source = owner.operand
        if is_nested(source.type) or is_nested(op.result.type):
            return
        shape = flat_type_shape(source.type)
        if rules.element_count(shape) >= rules.element_count(flat_type_shape(op.result.type)):
            return
        convert = type(op)(source, make_type((shape,), split_type(op.result.type)[1]))  # a bitcast stays one
        broadcast = BroadcastInDimOp(convert, owner.dims, op.result.type)
        replace(rewriter, op, (convert, broadcast))
        _erase_if_unused(rewriter, owner)


def _erase_if_unused(rewriter: PatternRewriter, *broadcasts: Operation) -> None:
    """The broadcasts a sinking left unused: the sunk broadcast has their
    operand shape, dims and sizes, so it checks what they checked, and
    dead-code elimination, which keeps an unused op's run-time check
    (docs/semantics.md, "Run-time checks of unused ops"), need not."""
    for broadcast in broadcasts:
        if all(r.first_use is None for r in broadcast.results):
            rewriter.erase(broadcast)


@dataclass(frozen=True)
class SinkBroadcastsPass(ModulePass):
    """Compute elementwise ops before broadcasting, on the operands' small shape."""

    name = "bcast-sink-broadcasts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        """Sinking alone: the copies of small broadcasts and ops it makes are
        merged and simplified by the ``canonicalize,cse`` that every pipeline
        runs after it (``bcast.tools.api.EXPLICIT_PIPELINE``)."""
        walker = PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [SinkBroadcastsThroughElementwise(), SinkBroadcastThroughConvert()]
            ),
            apply_recursively=True,
        )
        dynamic_walker = PatternRewriteWalker(SinkDynamicBroadcastsThroughElementwise(), apply_recursively=True)
        for function in list(op.ops):
            # Decision: a function with dynamic dims sinks only dynamic
            # broadcasts of static sources to one set of output sizes (the
            # static patterns compare element counts of static shapes)
            for region in function.regions:
                (walker if first_dynamic(function) is None else dynamic_walker).rewrite_region(region)
