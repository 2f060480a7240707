"""Canonicalization patterns of the bcast ops, run by xDSL's ``canonicalize``.

Each pattern is one small ``RewritePattern``; ``PATTERNS`` maps an op class
(or a family base class) to its patterns.

Index conventions (the ones every composition below is derived from):
- ``broadcast_in_dim(x, dims)``: operand dimension ``k`` is result dimension
  ``dims[k]`` (read at index 0 where the operand dimension is 1).
- ``transpose(x, perm)``: result dimension ``m`` is operand dimension
  ``perm[m]`` (``numpy.transpose``).
So a transpose feeding or fed by a broadcast composes through the *inverse*
permutation; ``tests/test_canonicalization.py`` checks every composition
against NumPy on random chains.

Every new op takes the location of the op it replaces. Patterns that would
need a new intermediate type work on non-nested tensors only; constant
folding is limited to results of at most ``FOLD_LIMIT`` elements, so that no
broadcast is ever materialized as a large constant.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import StringIO

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer

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
from bcast.ir.rules import RuleError, Shape
from bcast.ir.parser import LocatingParser, make_context
from bcast.ir.types import make_type, split_type
from bcast.lowering.reference import Evaluator, constant_value

FOLD_LIMIT = 1024
"""Largest number of elements a folded constant may have."""

# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def flat_shape(value: SSAValue | Attribute) -> Shape:
    """The shape every backend stores ``value`` with (nested levels flattened)."""
    t = value.type if isinstance(value, SSAValue) else value
    return rules.flat_shape(split_type(t)[0])


def element_of(value: SSAValue | Attribute) -> str:
    t = value.type if isinstance(value, SSAValue) else value
    return split_type(t)[1]


def is_nested(value: SSAValue) -> bool:
    return len(split_type(value.type)[0]) > 1


def is_sorted(dims: Sequence[int]) -> bool:
    return all(a < b for a, b in zip(dims, dims[1:]))


def inverse_permutation(perm: Sequence[int]) -> list[int]:
    inverse = [0] * len(perm)
    for m, p in enumerate(perm):
        inverse[p] = m
    return inverse


def broadcast_dims(op: BroadcastInDimOp) -> tuple[int, ...]:
    return op.broadcast_dimensions.get_values()


def permutation(op: TransposeOp) -> tuple[int, ...]:
    return op.permutation.get_values()


def located(op: Operation, like: Operation) -> Operation:
    op.location = like.location
    return op


def new_broadcast(
    operand: SSAValue, dims: Sequence[int], result_type: Attribute, like: Operation
) -> BroadcastInDimOp:
    op = BroadcastInDimOp(
        operands=[operand],
        result_types=[result_type],
        properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, list(dims))},
    )
    located(op, like)
    return op


def new_transpose(
    operand: SSAValue, perm: Sequence[int], result_type: Attribute, like: Operation
) -> TransposeOp:
    op = TransposeOp(
        operands=[operand],
        result_types=[result_type],
        properties={"permutation": DenseArrayBase.from_list(i64, list(perm))},
    )
    located(op, like)
    return op


def new_reshape(operand: SSAValue, result_type: Attribute, like: Operation) -> ReshapeOp:
    op = ReshapeOp(operands=[operand], result_types=[result_type])
    located(op, like)
    return op


def dense_attr(array: np.ndarray, result_type: Attribute) -> DenseIntOrFPElementsAttr | None:
    """``array`` as a dense attribute of ``result_type``, or None when the
    printed attribute would not parse back to the same bits (a safety net
    around xDSL's float printing)."""
    flat = np.asarray(array).reshape(-1)
    values: list = [float(v) for v in flat] if flat.dtype.kind == "f" else [int(v) for v in flat]
    attr = DenseIntOrFPElementsAttr.from_list(result_type, values)  # type: ignore[arg-type]
    text = StringIO()
    Printer(stream=text).print_attribute(attr)
    try:
        parsed = LocatingParser(make_context(), text.getvalue()).parse_attribute()
    except Exception:  # noqa: BLE001 - any parse failure means "do not fold"
        return None
    if not isinstance(parsed, DenseIntOrFPElementsAttr) or parsed.data != attr.data:
        return None
    return attr


def new_constant(array: np.ndarray, result_type: Attribute, like: Operation) -> ConstantOp | None:
    attr = dense_attr(array, result_type)
    if attr is None:
        return None
    op = ConstantOp(attr)
    located(op, like)
    return op


def foldable_result(value: SSAValue) -> bool:
    """Non-nested, not empty, and small enough to become a constant."""
    return not is_nested(value) and 0 < rules.element_count(flat_shape(value)) <= FOLD_LIMIT


def splat_value(op: ConstantOp) -> np.ndarray | None:
    """The single value of a splat constant (0-d array), or None."""
    if op.splat_value() is None:
        return None
    return constant_value(op).reshape(-1)[:1].reshape(())


# --------------------------------------------------------------------------
# broadcast_in_dim
# --------------------------------------------------------------------------


class RemoveIdentityBroadcast(RewritePattern):
    """``broadcast_in_dim %x, dims = [0, 1, ...] : T -> T`` is ``%x``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        if op.operand.type != op.result.type:
            return
        if list(broadcast_dims(op)) != list(range(len(flat_shape(op.result)))):
            return
        rewriter.replace(op, (), (op.operand,))


class ComposeBroadcastOfBroadcast(RewritePattern):
    """``bcast(bcast(x, A), B)`` -> ``bcast(x, [B[a] for a in A])``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, BroadcastInDimOp):
            return
        outer_dims = broadcast_dims(op)
        dims = [outer_dims[a] for a in broadcast_dims(inner)]
        rewriter.replace(op, new_broadcast(inner.operand, dims, op.result.type, op))


class BroadcastWithSortedDimsToReshape(RewritePattern):
    """A broadcast with sorted dims that keeps the element count only inserts
    size-1 dims: ``bcast(x : 3x4, [0, 2]) : 3x1x4`` -> ``reshape``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        if op.operand.type == op.result.type:
            return
        if not is_sorted(broadcast_dims(op)):
            return
        operand, result = flat_shape(op.operand), flat_shape(op.result)
        if rules.element_count(operand) != rules.element_count(result):
            return
        rewriter.replace(op, new_reshape(op.operand, op.result.type, op))


class BroadcastWithoutExpansionToTranspose(RewritePattern):
    """A same-rank broadcast that expands nothing but has unsorted dims is a
    transpose by the inverse of its dims: ``bcast(x : 2x3, [1, 0]) : 3x2``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        dims = broadcast_dims(op)
        if is_sorted(dims):
            return
        operand, result = flat_shape(op.operand), flat_shape(op.result)
        if len(operand) != len(result):
            return
        if any(operand[k] != result[d] for k, d in enumerate(dims)):
            return
        perm = inverse_permutation(dims)
        rewriter.replace(op, new_transpose(op.operand, perm, op.result.type, op))


class SplitTransposingBroadcast(RewritePattern):
    """Unsorted dims: transpose the (small) operand, then a sorted broadcast:
    ``bcast(x : 1x3, [2, 1]) : 2x3x2`` -> ``bcast(transpose(x, [1, 0]), [1, 2])``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        dims = broadcast_dims(op)
        if is_sorted(dims) or is_nested(op.operand):
            return
        operand, result = flat_shape(op.operand), flat_shape(op.result)
        if len(operand) == len(result) and all(operand[k] == result[d] for k, d in enumerate(dims)):
            return  # BroadcastWithoutExpansionToTranspose
        order = sorted(range(len(dims)), key=lambda k: dims[k])
        transposed_type = make_type(
            (tuple(operand[k] for k in order),), element_of(op.operand)
        )
        transpose = new_transpose(op.operand, order, transposed_type, op)
        broadcast = new_broadcast(transpose.result, sorted(dims), op.result.type, op)
        rewriter.replace(op, (transpose, broadcast))


class FoldBroadcastOfSplatConstant(RewritePattern):
    """``bcast(constant dense<c>, dims)`` -> ``constant dense<c>`` of the result
    type (small results only)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        constant = op.operand.owner
        if not isinstance(constant, ConstantOp) or not foldable_result(op.result):
            return
        if (value := splat_value(constant)) is None:
            return
        array = np.broadcast_to(value, flat_shape(op.result))
        if (folded := new_constant(array, op.result.type, op)) is None:
            return
        rewriter.replace(op, folded)


def unit_dim_embedding(small: Shape, large: Shape) -> list[int] | None:
    """Where each dim of ``small`` stands in ``large`` when ``large`` is
    ``small`` with size-1 dims inserted; None otherwise."""
    positions: list[int] = []
    k = 0
    for p, size in enumerate(large):
        if k < len(small) and small[k] == size:
            positions.append(p)
            k += 1
        elif size != 1:
            return None
    return positions if k == len(small) else None


class FoldBroadcastOfUnitDimReshape(RewritePattern):
    """``bcast(reshape(x : 3 -> 1x3), [0, 1]) : 4x3`` -> ``bcast(x, [1]) : 4x3``:
    a reshape that only inserts size-1 dims folds into the broadcast."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter, /):
        reshape = op.operand.owner
        if not isinstance(reshape, ReshapeOp):
            return
        source = reshape.operand
        positions = unit_dim_embedding(flat_shape(source), flat_shape(reshape.result))
        if positions is None:
            return
        outer = broadcast_dims(op)
        dims = [outer[p] for p in positions]
        rewriter.replace(op, new_broadcast(source, dims, op.result.type, op))


# --------------------------------------------------------------------------
# reshape
# --------------------------------------------------------------------------


class RemoveIdentityReshape(RewritePattern):
    """``reshape %x : T -> T`` is ``%x``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter, /):
        if op.operand.type != op.result.type:
            return
        rewriter.replace(op, (), (op.operand,))


class ComposeReshapeOfReshape(RewritePattern):
    """``reshape(reshape(x))`` -> ``reshape(x)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReshapeOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, ReshapeOp):
            return
        rewriter.replace(op, new_reshape(inner.operand, op.result.type, op))


def reshape_segments(before: Shape, after: Shape) -> list[tuple[list[int], list[int]]] | None:
    """The smallest groups of non-1 dims of ``before`` and ``after`` with
    equal products (a reshape splits or merges within each group); None for
    empty shapes."""
    if 0 in before or 0 in after:
        return None
    a = [i for i, s in enumerate(before) if s != 1]
    b = [j for j, s in enumerate(after) if s != 1]
    segments: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        group_a, group_b = [a[i]], [b[j]]
        size_a, size_b = before[a[i]], after[b[j]]
        i, j = i + 1, j + 1
        while size_a != size_b:
            if size_a < size_b:
                if i == len(a):
                    return None
                group_a.append(a[i])
                size_a *= before[a[i]]
                i += 1
            else:
                if j == len(b):
                    return None
                group_b.append(b[j])
                size_b *= after[b[j]]
                j += 1
        segments.append((group_a, group_b))
    if i != len(a) or j != len(b):
        return None
    return segments


def reshape_of_broadcast_dims(
    operand: Shape, dims: Sequence[int], before: Shape, after: Shape
) -> list[int] | None:
    """Dims of one broadcast equal to ``reshape(bcast(x, dims) : before) : after``,
    or None. Each dim carrying operand data must stay a dim of its own; the
    expanded dims may be split, merged or dropped freely."""
    if not is_sorted(dims):
        return None
    segments = reshape_segments(before, after)
    if segments is None:
        return None
    owner = {dims[k]: k for k in range(len(operand)) if operand[k] != 1}
    new_dims: dict[int, int] = {}
    for group_before, group_after in segments:
        carried = [owner[d] for d in group_before if d in owner]
        if not carried:
            continue
        if len(group_before) != 1 or len(group_after) != 1:
            return None
        new_dims[carried[0]] = group_after[0]
    # size-1 operand dims may go to any free result dim that keeps the order
    taken = set(new_dims.values())
    result: list[int] = []
    for k in range(len(operand)):
        low = result[-1] + 1 if result else 0
        if k in new_dims:
            target = new_dims[k]
        else:
            target = next((j for j in range(low, len(after)) if j not in taken), len(after))
        if target < low or target >= len(after):
            return None
        result.append(target)
    try:
        rules.check_broadcast_in_dim(operand, after, result, "xla")
    except RuleError:
        return None
    return result


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
        dims = reshape_of_broadcast_dims(
            flat_shape(broadcast.operand),
            broadcast_dims(broadcast),
            flat_shape(broadcast.result),
            flat_shape(op.result),
        )
        if dims is None:
            return
        rewriter.replace(op, new_broadcast(broadcast.operand, dims, op.result.type, op))


# --------------------------------------------------------------------------
# transpose
# --------------------------------------------------------------------------


class RemoveIdentityTranspose(RewritePattern):
    """``transpose %x, dims = [0, 1, ...]`` is ``%x``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        if list(permutation(op)) != list(range(len(permutation(op)))):
            return
        if op.operand.type != op.result.type:
            return
        rewriter.replace(op, (), (op.operand,))


class ComposeTransposeOfTranspose(RewritePattern):
    """``transpose(transpose(x, P), Q)`` -> ``transpose(x, [P[q] for q in Q])``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, TransposeOp):
            return
        first = permutation(inner)
        perm = [first[q] for q in permutation(op)]
        rewriter.replace(op, new_transpose(inner.operand, perm, op.result.type, op))


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
        inverse = inverse_permutation(permutation(op))
        dims = [inverse[d] for d in broadcast_dims(broadcast)]
        rewriter.replace(op, new_broadcast(broadcast.operand, dims, op.result.type, op))


# --------------------------------------------------------------------------
# select
# --------------------------------------------------------------------------


def negated_predicate(pred: SSAValue, like: Operation) -> tuple[list[Operation], SSAValue] | None:
    """For ``not p`` or ``bcast(not p)``: the ops computing the positive
    predicate and its value."""
    owner = pred.owner
    if isinstance(owner, NotOp):
        return [], owner.operand
    if isinstance(owner, BroadcastInDimOp) and isinstance(owner.operand.owner, NotOp):
        positive = owner.operand.owner.operand
        broadcast = new_broadcast(positive, broadcast_dims(owner), pred.type, like)
        return [broadcast], broadcast.result
    return None


class SwapSelectOfNot(RewritePattern):
    """``select(not p, t, f)`` -> ``select(p, f, t)``, also through a broadcast:
    ``select(bcast(not p), t, f)`` -> ``select(bcast(p), f, t)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectOp, rewriter: PatternRewriter, /):
        if (found := negated_predicate(op.pred, op)) is None:
            return
        new_ops, positive = found
        select = SelectOp(
            operands=[positive, op.on_false, op.on_true],
            result_types=[op.result.type],
            attributes=dict(op.attributes),
        )
        located(select, op)
        rewriter.replace(op, (*new_ops, select))


# --------------------------------------------------------------------------
# constant folding
# --------------------------------------------------------------------------


class FoldElementwiseOfConstants(RewritePattern):
    """An elementwise op (or convert) on constants with a small result becomes
    a constant, computed by the reference evaluator (bcast's exact semantics,
    promotion and broadcasting included)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ElementwiseOp | ConvertOp, rewriter: PatternRewriter, /):
        result = op.results[0]
        if not foldable_result(result) or any(is_nested(v) for v in op.operands):
            return
        constants = [v.owner for v in op.operands]
        if not all(isinstance(c, ConstantOp) for c in constants):
            return
        (value,) = Evaluator().evaluate(op, [constant_value(c) for c in constants])
        if (folded := new_constant(np.asarray(value), result.type, op)) is None:
            return
        rewriter.replace(op, folded)


class RemoveIdentityConvert(RewritePattern):
    """``convert %x : T -> T`` is ``%x``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter, /):
        if op.operand.type != op.result.type:
            return
        rewriter.replace(op, (), (op.operand,))


PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {
    BroadcastInDimOp: (
        RemoveIdentityBroadcast(),
        ComposeBroadcastOfBroadcast(),
        FoldBroadcastOfSplatConstant(),
        FoldBroadcastOfUnitDimReshape(),
        BroadcastWithSortedDimsToReshape(),
        BroadcastWithoutExpansionToTranspose(),
        SplitTransposingBroadcast(),
    ),
    ReshapeOp: (
        RemoveIdentityReshape(),
        ComposeReshapeOfReshape(),
        FoldReshapeOfBroadcast(),
    ),
    TransposeOp: (
        RemoveIdentityTranspose(),
        ComposeTransposeOfTranspose(),
        FoldTransposeOfBroadcast(),
    ),
    SelectOp: (SwapSelectOfNot(),),
    ElementwiseOp: (FoldElementwiseOfConstants(),),
    ConvertOp: (RemoveIdentityConvert(), FoldElementwiseOfConstants()),
}


def patterns_for(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    """The patterns registered for ``op_type`` and for its family bases."""
    found: list[RewritePattern] = []
    for klass in op_type.__mro__:
        found.extend(PATTERNS.get(klass, ()))
    return tuple(found)
