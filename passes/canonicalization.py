"""Canonicalization patterns of the bcast ops, run by xDSL's ``canonicalize``.

Each pattern is one small ``RewritePattern``; ``PATTERNS`` maps an op class
(or a family base class) to its patterns. Removing an identity broadcast,
reshape, transpose or convert is not a pattern but the op's ``fold``
(``bcast.ir.ops``), which ``canonicalize`` tries first, as for arith.

Index conventions (the ones every composition below is derived from):
- ``broadcast_in_dim(x, dims)``: operand dimension ``k`` is result dimension
  ``dims[k]`` (read at index 0 where the operand dimension is 1).
- ``transpose(x, perm)``: result dimension ``m`` is operand dimension
  ``perm[m]`` (``numpy.transpose``).
So a transpose feeding or fed by a broadcast composes through the *inverse*
permutation; ``tests/passes/test_canonicalization.py`` checks every composition
against NumPy on random chains. The shape algebra lives in ``bcast.ir.rules``.

Every new op takes the location of the op it replaces
(``bcast.passes.rewriting``). Patterns that would need a new intermediate
type work on non-nested tensors only; constant folding is limited to results
of at most ``FOLD_LIMIT`` elements, so that no broadcast is ever materialized
as a large constant.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from bcast.ir import rules
from bcast.ir.ops import (
    BroadcastInDimOp,
    ConstantOp,
    ConvertOp,
    ElementwiseOp,
    NotOp,
    ReshapeOp,
    SelectOp,
    TransposeOp,
)
from bcast.ir.types import flat_type_shape, is_nested, make_type, split_type
from bcast.passes.rewriting import replace

FOLD_LIMIT = 1024
"""Largest number of elements a folded constant may have."""


def foldable_result(value: SSAValue) -> bool:
    """Non-nested, not empty, and small enough to become a constant."""
    return not is_nested(value.type) and 0 < rules.element_count(flat_type_shape(value.type)) <= FOLD_LIMIT


# --------------------------------------------------------------------------
# broadcast_in_dim
# --------------------------------------------------------------------------


class ComposeBroadcastOfBroadcast(RewritePattern):
    """``bcast(bcast(x, A), B)`` -> ``bcast(x, [B[a] for a in A])``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, BroadcastInDimOp):
            return
        dims = [op.dims[a] for a in inner.dims]
        replace(rewriter, op, BroadcastInDimOp(inner.operand, dims, op.result.type))


class BroadcastWithSortedDimsToReshape(RewritePattern):
    """A broadcast with sorted dims that keeps the element count only inserts
    size-1 dims: ``bcast(x : 3x4, [0, 2]) : 3x1x4`` -> ``reshape``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        if op.operand.type == op.result.type or not rules.is_sorted(op.dims):
            return
        operand, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
        if rules.element_count(operand) != rules.element_count(result):
            return
        replace(rewriter, op, ReshapeOp(op.operand, op.result.type))


class BroadcastWithoutExpansionToTranspose(RewritePattern):
    """A same-rank broadcast that expands nothing but has unsorted dims is a
    transpose by the inverse of its dims: ``bcast(x : 2x3, [1, 0]) : 3x2``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        operand, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
        if rules.is_sorted(op.dims) or not rules.is_permuting_broadcast(operand, result, op.dims):
            return
        perm = rules.inverse_permutation(op.dims)
        replace(rewriter, op, TransposeOp(op.operand, perm, op.result.type))


class SplitTransposingBroadcast(RewritePattern):
    """Unsorted dims: transpose the (small) operand, then a sorted broadcast:
    ``bcast(x : 1x3, [2, 1]) : 2x3x2`` -> ``bcast(transpose(x, [1, 0]), [1, 2])``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        if rules.is_sorted(op.dims) or is_nested(op.operand.type):
            return
        operand, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
        if rules.is_permuting_broadcast(operand, result, op.dims):
            return  # BroadcastWithoutExpansionToTranspose
        perm, transposed, dims = rules.split_transposing_broadcast(operand, op.dims)
        element = split_type(op.operand.type)[1]
        transpose = TransposeOp(op.operand, perm, make_type((transposed,), element))
        replace(rewriter, op, (transpose, BroadcastInDimOp(transpose, dims, op.result.type)))


class FoldBroadcastOfSplatConstant(RewritePattern):
    """``bcast(constant dense<c>, dims)`` -> ``constant dense<c>`` of the result
    type (small results only)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        constant = op.operand.owner
        if not isinstance(constant, ConstantOp) or not foldable_result(op.result):
            return
        if constant.splat_value() is None:
            return
        value = constant.numpy_value().reshape(-1)[:1].reshape(())
        array = np.broadcast_to(value, flat_type_shape(op.result.type))
        if (folded := ConstantOp.exactly(array, op.result.type)) is None:
            return
        replace(rewriter, op, folded)


class FoldBroadcastOfUnitDimReshape(RewritePattern):
    """``bcast(reshape(x : 3 -> 1x3), [0, 1]) : 4x3`` -> ``bcast(x, [1]) : 4x3``:
    a reshape that only inserts size-1 dims folds into the broadcast."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        reshape = op.operand.owner
        if not isinstance(reshape, ReshapeOp):
            return
        source = reshape.operand
        positions = rules.unit_dim_embedding(
            flat_type_shape(source.type), flat_type_shape(reshape.result.type)
        )
        if positions is None:
            return
        dims = [op.dims[p] for p in positions]
        replace(rewriter, op, BroadcastInDimOp(source, dims, op.result.type))


# --------------------------------------------------------------------------
# reshape
# --------------------------------------------------------------------------


class ComposeReshapeOfReshape(RewritePattern):
    """``reshape(reshape(x))`` -> ``reshape(x)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, ReshapeOp):
            return
        replace(rewriter, op, ReshapeOp(inner.operand, op.result.type))


class FoldReshapeOfBroadcast(RewritePattern):
    """``reshape(bcast(x : 3, [1]) : 4x3x5) : 4x3x1x5`` -> ``bcast(x, [1])``:
    a reshape that leaves the dims holding operand data alone (it only adds
    or drops size-1 dims, or splits and merges broadcast dims) folds into the
    broadcast."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter, /):
        broadcast = op.operand.owner
        if not isinstance(broadcast, BroadcastInDimOp):
            return
        dims = rules.reshape_of_broadcast_dims(
            flat_type_shape(broadcast.operand.type),
            broadcast.dims,
            flat_type_shape(broadcast.result.type),
            flat_type_shape(op.result.type),
        )
        if dims is None:
            return
        replace(rewriter, op, BroadcastInDimOp(broadcast.operand, dims, op.result.type))


# --------------------------------------------------------------------------
# transpose
# --------------------------------------------------------------------------


class ComposeTransposeOfTranspose(RewritePattern):
    """``transpose(transpose(x, P), Q)`` -> ``transpose(x, [P[q] for q in Q])``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, TransposeOp):
            return
        perm = [inner.perm[q] for q in op.perm]
        replace(rewriter, op, TransposeOp(inner.operand, perm, op.result.type))


class FoldTransposeOfBroadcast(RewritePattern):
    """``transpose(bcast(x, D), P)`` -> ``bcast(x, [P^-1[d] for d in D])``:
    ``transpose(bcast(x : 3, [1]) : 4x3x5, [2, 1, 0])`` -> ``bcast(x, [1]) : 5x3x4``.
    When the transpose also reorders the operand's own dims, the new dims are
    unsorted and SplitTransposingBroadcast then transposes the small operand,
    so the full-size transpose of a broadcast never remains (it would have to
    be materialized)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        broadcast = op.operand.owner
        if not isinstance(broadcast, BroadcastInDimOp):
            return
        inverse = rules.inverse_permutation(op.perm)
        dims = [inverse[d] for d in broadcast.dims]
        replace(rewriter, op, BroadcastInDimOp(broadcast.operand, dims, op.result.type))


# --------------------------------------------------------------------------
# select
# --------------------------------------------------------------------------


def negated_predicate(pred: SSAValue) -> tuple[list[Operation], SSAValue] | None:
    """For ``not p`` or ``bcast(not p)``: the ops computing the positive
    predicate and its value."""
    owner = pred.owner
    if isinstance(owner, NotOp):
        return [], owner.operand
    if isinstance(owner, BroadcastInDimOp) and isinstance(owner.operand.owner, NotOp):
        broadcast = BroadcastInDimOp(owner.operand.owner.operand, owner.dims, pred.type)
        return [broadcast], broadcast.result
    return None


class SwapSelectOfNot(RewritePattern):
    """``select(not p, t, f)`` -> ``select(p, f, t)``, also through a broadcast:
    ``select(bcast(not p), t, f)`` -> ``select(bcast(p), f, t)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectOp, rewriter: PatternRewriter, /):
        if (found := negated_predicate(op.pred)) is None:
            return
        new_ops, positive = found
        select = SelectOp(
            positive, op.on_false, op.on_true, op.result.type, attributes=dict(op.attributes)
        )
        replace(rewriter, op, (*new_ops, select))


# --------------------------------------------------------------------------
# constant folding
# --------------------------------------------------------------------------


class FoldElementwiseOfConstants(RewritePattern):
    """An elementwise op (or convert) on constants with a small result becomes
    a constant, computed by the op's evaluation hook (bcast's exact semantics,
    promotion and broadcasting included)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ElementwiseOp | ConvertOp, rewriter: PatternRewriter, /):
        result = op.results[0]
        if not foldable_result(result) or any(is_nested(v.type) for v in op.operands):
            return
        constants = [v.owner for v in op.operands]
        if not all(isinstance(c, ConstantOp) for c in constants):
            return
        with np.errstate(all="ignore"):
            value = op.evaluate(*(c.numpy_value() for c in constants))
        if (folded := ConstantOp.exactly(np.asarray(value), result.type)) is None:
            return
        replace(rewriter, op, folded)


PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {
    BroadcastInDimOp: (
        ComposeBroadcastOfBroadcast(),
        FoldBroadcastOfSplatConstant(),
        FoldBroadcastOfUnitDimReshape(),
        BroadcastWithSortedDimsToReshape(),
        BroadcastWithoutExpansionToTranspose(),
        SplitTransposingBroadcast(),
    ),
    ReshapeOp: (ComposeReshapeOfReshape(), FoldReshapeOfBroadcast()),
    TransposeOp: (ComposeTransposeOfTranspose(), FoldTransposeOfBroadcast()),
    SelectOp: (SwapSelectOfNot(),),
    ElementwiseOp: (FoldElementwiseOfConstants(),),
    ConvertOp: (FoldElementwiseOfConstants(),),
}


def patterns_for(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    """The patterns registered for ``op_type`` and for its family bases."""
    found: list[RewritePattern] = []
    for klass in op_type.__mro__:
        found.extend(PATTERNS.get(klass, ()))
    return tuple(found)
