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

from collections.abc import Callable
from functools import cache
from io import StringIO

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer

from bcast.ir import numerics, rules
from bcast.ir.evaluate import evaluate
from bcast.ir.ops import (
    BroadcastInDimOp,
    ConstantOp,
    ConversionOp,
    DynamicSliceOp,
    ElementwiseOp,
    MultiplyOp,
    NotOp,
    ReduceOp,
    ReshapeOp,
    ReverseOp,
    SelectOp,
    SliceOp,
    TransposeOp,
)
from bcast.ir.parser import LocatingParser, make_context
from bcast.ir.types import NIBBLE_DTYPES, flat_type_shape, is_dynamic_type, is_nested, make_type, numpy_dtype, split_type, finfo, is_float_dtype
from bcast.passes.dynamic_checks import DYNAMIC_PATTERNS, KeyedOnce
from bcast.passes.rewriting import replace

FOLD_LIMIT = 1024
"""Largest number of elements a folded constant may have."""

REDUCE_FOLD_LIMIT = 1 << 20
"""Largest operand (in elements) a ``reduce`` of a constant is folded from: a
splat constant stores one value however large its type, and folding reads
every element."""


def exact_constant(array: np.ndarray, value_type: Attribute) -> ConstantOp | None:
    """A constant of ``array``, or None when its printed attribute would not
    parse back (with bcast's parser) to the same bits: folding must never
    change a value through xDSL's float printing. It lives with the folds,
    not on ``ConstantOp``, because it needs the parser and the parser needs
    the ops."""
    op = ConstantOp(np.asarray(array), value_type)
    text = StringIO()
    Printer(stream=text).print_attribute(op.value)
    try:
        parsed = LocatingParser(make_context(), text.getvalue()).parse_attribute()
    except Exception:  # noqa: BLE001 - any parse failure means "no constant"
        return None
    if not isinstance(parsed, DenseIntOrFPElementsAttr) or parsed.data != op.value.data:
        return None
    return op


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
        if (folded := exact_constant(array, op.result.type)) is None:
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
    """``reshape(reshape(x))`` -> ``reshape(x)``, for bcast's reshape and for
    StableHLO's (the StableHLO target's cleanup): ``reshape`` is the op class,
    built as ``reshape(operand, result_type)``."""

    def __init__(self, reshape: type[Operation] = ReshapeOp):
        self.reshape = reshape

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, self.reshape) or not isinstance(op.operand.owner, self.reshape):
            return
        replace(rewriter, op, self.reshape(op.operand.owner.operand, op.result.type))


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


class TransposeOfUnitDimsToReshape(RewritePattern):
    """A transpose that moves only size-1 dims keeps the elements in memory
    order: ``transpose(x : 4x1x3, [1, 0, 2]) : 1x4x3`` -> ``reshape``, which
    every backend makes without copying and which composes with broadcasts
    and other reshapes (StableHLO's simplifier does the same)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        if is_nested(op.operand.type) or rules.is_identity(op.perm, len(op.perm)):
            return  # an identity transpose folds away
        if rules.moves_only_unit_dims(flat_type_shape(op.operand.type), op.perm):
            replace(rewriter, op, ReshapeOp(op.operand, op.result.type))


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
    def match_and_rewrite(self, op: ElementwiseOp | ConversionOp, rewriter: PatternRewriter, /):
        result = op.results[0]
        if not foldable_result(result) or any(is_nested(v.type) for v in op.operands):
            return
        constants = [v.owner for v in op.operands]
        if not all(isinstance(c, ConstantOp) for c in constants):
            return
        with np.errstate(all="ignore"):
            value = evaluate(op, *(c.numpy_value() for c in constants))
        if (folded := exact_constant(np.asarray(value), result.type)) is None:
            return
        replace(rewriter, op, folded)


# --------------------------------------------------------------------------
# reduce
#
# A float ``add`` reduction starts from +0.0 (``numerics.reduce``), so it
# turns a lone -0.0 into +0.0, where the rewrites below (removal, reshape,
# ``x * count``) keep -0.0. The two compare equal (-0.0 == +0.0), so this is
# within the tolerance of docs/semantics.md (Reductions) for float sums, which are never bit for bit.
# --------------------------------------------------------------------------


def _reduced_count(shape, dims) -> int:
    return rules.element_count(tuple(shape[d] for d in dims))


def _splat(value: np.ndarray, value_type) -> ConstantOp | None:
    """A splat constant of ``value`` (one element) of any size."""
    return exact_constant(np.asarray(value).reshape(1), value_type)


class RemoveReduceWithoutDims(RewritePattern):
    """``reduce`` over no dims reduces nothing: each element is combined with
    the kind's identity only, which gives it back (see -0.0 above), and the
    result type is the operand type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReduceOp, rewriter: PatternRewriter, /):
        if op.reduced_dims or op.operand.type != op.result.type:
            return
        replace(rewriter, op, [], [op.operand])


class ReduceOverUnitDimsToReshape(RewritePattern):
    """``reduce`` over size-1 dims only combines each element with the
    identity alone, which gives it back (``f16`` goes through ``f32`` and
    back exactly; see -0.0 above): a ``reshape`` to the result type, or
    nothing with ``keepdims`` (equal types). Nested types only lose their
    size-1 outer dims with ``keepdims`` (no nested reshape is built)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReduceOp, rewriter: PatternRewriter, /):
        dims = op.reduced_dims
        shape = flat_type_shape(op.operand.type)
        if not dims or any(shape[d] != 1 for d in dims):
            return
        if op.operand.type == op.result.type:
            replace(rewriter, op, [], [op.operand])
        elif not is_nested(op.operand.type):
            replace(rewriter, op, ReshapeOp(op.operand, op.result.type))


class FoldReduceOfZeroElements(RewritePattern):
    """``reduce`` over a size-0 dim reduces nothing: every result element is
    the kind's identity (XLA's ``reduce``), whatever the operand, so the
    result is a splat constant of any size (non-empty, non-nested results)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReduceOp, rewriter: PatternRewriter, /):
        result = op.result
        if is_nested(result.type) or not rules.element_count(flat_type_shape(result.type)):
            return
        if _reduced_count(flat_type_shape(op.operand.type), op.reduced_dims) != 0:
            return
        empty = np.zeros((0,), numpy_dtype(op.operand.type))
        identity = numerics.reduce(op.kind_name, empty, (0,))  # what evaluate gives
        if (folded := _splat(identity, result.type)) is None:
            return
        replace(rewriter, op, folded)


class FoldReduceOfConstant(RewritePattern):
    """``reduce`` of a constant with a small result becomes a constant,
    computed by the op's evaluation hook (bcast's exact reduction: identity
    start, integer wrap, ``f16`` through ``f32``, NaN propagation)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReduceOp, rewriter: PatternRewriter, /):
        constant = op.operand.owner
        if not isinstance(constant, ConstantOp) or not foldable_result(op.result):
            return
        if rules.element_count(flat_type_shape(op.operand.type)) > REDUCE_FOLD_LIMIT:
            return
        value = evaluate(op, constant.numpy_value())
        if (folded := exact_constant(np.asarray(value), op.result.type)) is None:
            return
        replace(rewriter, op, folded)


def _add_count(count: int, dtype: np.dtype) -> np.ndarray | None:
    """The factor an ``add`` of ``count`` equal elements multiplies by, or None
    when ``x * count`` is not the repeated sum: floats need ``count`` exact
    (at most 2**(mantissa bits + 1)); integers wrap, so ``count`` modulo
    2**bits gives the wrapped sum exactly."""
    if is_float_dtype(dtype):
        if count > 2 ** (finfo(dtype).nmant + 1):
            return None
        return np.array(count, dtype)
    if dtype in NIBBLE_DTYPES:  # ml_dtypes' integer cast keeps the low four bits
        return np.array(count % 16).astype(dtype)
    if dtype.kind in "iu":
        wrapped = count % (1 << (8 * dtype.itemsize))
        return np.array(wrapped, np.dtype(f"u{dtype.itemsize}")).view(dtype)
    return None


class ReduceOfBroadcastToElementwise(RewritePattern):
    """``reduce(bcast(x, D), R)`` where the broadcast is constant along every
    reduced dim (created, or expanded from a size-1 operand dim) combines
    ``count`` (the product of the reduced sizes) copies of one element of
    ``x``: ``maximum``, ``minimum``, ``and``, ``or`` give it back, ``add``
    gives ``x * count`` (exact ``count`` only, see ``_add_count``; float
    rounding within the tolerance of docs/semantics.md (Reductions)), ``xor`` gives ``x`` for an odd
    count and zeros for an even one. ``multiply`` is not rewritten:
    ``x ** count`` rounds differently from repeated products. A size-0
    reduced dim is left to FoldReduceOfZeroElements. The result is the
    elementwise op on ``x`` (less its reduced size-1 dims, by a ``reshape``,
    without ``keepdims``) broadcast to the result type. Non-nested types only.

    ``reduce max(bcast(x : 3, [1]) : 4x3, [0])`` -> ``x``;
    ``reduce add(bcast(x : 1x3, [0, 1]) : 4x3, [0])`` ->
    ``reshape(x) * bcast(4)`` : 3."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReduceOp, rewriter: PatternRewriter, /):
        broadcast = op.operand.owner
        reduced = set(op.reduced_dims)
        if not isinstance(broadcast, BroadcastInDimOp) or not reduced or op.kind_name == "multiply":
            return
        if is_nested(op.operand.type) or is_nested(broadcast.operand.type):
            return
        source = broadcast.operand
        x_shape = flat_type_shape(source.type)
        dims = list(broadcast.dims)
        if any(x_shape[k] != 1 for k, d in enumerate(dims) if d in reduced):
            return  # reduces along operand data
        count = _reduced_count(flat_type_shape(op.operand.type), reduced)
        if count == 0:
            return
        element = split_type(source.type)[1]
        new_ops: list[Operation] = []
        if op.kind_name == "xor" and count % 2 == 0:
            zeros = _splat(np.zeros((), numpy_dtype(source.type)), op.result.type)
            if zeros is not None:
                replace(rewriter, op, zeros)
            return
        factor = None
        if op.kind_name == "add":
            if (factor := _add_count(count, numpy_dtype(source.type))) is None:
                return
        if not op.keeps_dims and reduced & set(dims):  # drop the reduced size-1 dims of x
            kept = [k for k, d in enumerate(dims) if d not in reduced]
            shape = tuple(x_shape[k] for k in kept)
            new_ops.append(ReshapeOp(source, make_type((shape,), element)))
            source, x_shape, dims = new_ops[-1].results[0], shape, [dims[k] for k in kept]
        if factor is not None and factor != 1:
            scalar = exact_constant(factor.reshape(1), make_type(((),), element))
            if scalar is None:
                return
            new_ops.append(scalar)
            if x_shape:
                new_ops.append(BroadcastInDimOp(scalar, [], source.type))
            new_ops.append(MultiplyOp(source, new_ops[-1], source.type))
            source = new_ops[-1].results[0]
        if not op.keeps_dims:
            dims = [d - sum(r < d for r in reduced) for d in dims]
        if source.type != op.result.type or not rules.is_identity(dims, len(dims)):
            new_ops.append(BroadcastInDimOp(source, dims, op.result.type))
        if new_ops:
            replace(rewriter, op, new_ops)
        else:
            replace(rewriter, op, [], [source])


# --------------------------------------------------------------------------
# reverse (a reverse of size-1 dims only is the op's fold)
# --------------------------------------------------------------------------


class ComposeReverseOfReverse(RewritePattern):
    """``reverse(reverse(x, A), B)`` -> ``reverse(x, A xor B)``: a dim
    reversed twice is in order again (an empty result folds to ``x``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReverseOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, ReverseOp):
            return
        dims = sorted(set(inner.reversed_dims()) ^ set(op.reversed_dims()))
        replace(rewriter, op, ReverseOp(inner.operand, dims))


class DropUnitReverseDims(RewritePattern):
    """``reverse(x : 1x4, [0, 1])`` -> ``reverse(x, [1])``: reversing a dim
    of size 0 or 1 changes nothing, so only the others are listed."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReverseOp, rewriter: PatternRewriter, /):
        kept = op.reversed_dims()
        if kept and len(kept) != len(op.dims):
            replace(rewriter, op, ReverseOp(op.operand, kept))


# --------------------------------------------------------------------------
# slice (a slice that keeps every element is the op's fold)
# --------------------------------------------------------------------------


class ComposeSliceOfSlice(RewritePattern):
    """``slice(slice(x, s1:l1:t1), s2:l2:t2)`` -> one slice of ``x``: element
    ``i`` is ``x[s1 + (s2 + i * t2) * t1]``, so it starts at ``s1 + s2 * t1``
    with stride ``t1 * t2`` and ends after its last element. A range of one
    element has stride 1; an empty range is written ``s1:s1`` (any empty range
    is the same, and this one is in bounds)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SliceOp, rewriter: PatternRewriter, /):
        inner = op.operand.owner
        if not isinstance(inner, SliceOp):
            return
        starts, limits, strides = [], [], []
        ranges = zip(inner.starts, inner.steps, op.starts, op.steps, flat_type_shape(op.result.type))
        for s1, t1, s2, t2, n in ranges:
            start, stride = (s1 + s2 * t1, t1 * t2 if n > 1 else 1) if n else (s1, 1)
            starts.append(start)
            strides.append(stride)
            limits.append(start + (n - 1) * stride + 1 if n else start)
        replace(rewriter, op, SliceOp(inner.operand, starts, limits, strides))


class DynamicSliceOfConstantStarts(RewritePattern):
    """``dynamic_slice`` whose starts are constants -> ``slice`` of the same
    block: each start clamped into ``[0, dim - size]`` as at run time
    (``rules.clamped_start``), stride 1."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicSliceOp, rewriter: PatternRewriter, /):
        constants = [v.owner for v in op.start_indices]
        if not all(isinstance(c, ConstantOp) for c in constants):
            return
        shape = flat_type_shape(op.operand.type)
        starts = [rules.clamped_start(int(c.numpy_value()), z, n) for c, z, n in zip(constants, op.sizes, shape)]
        replace(rewriter, op, SliceOp(op.operand, starts, [s + z for s, z in zip(starts, op.sizes)]))


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
    TransposeOp: (ComposeTransposeOfTranspose(), FoldTransposeOfBroadcast(), TransposeOfUnitDimsToReshape()),
    SelectOp: (SwapSelectOfNot(),),
    ReverseOp: (ComposeReverseOfReverse(), DropUnitReverseDims()),
    SliceOp: (ComposeSliceOfSlice(),),
    DynamicSliceOp: (DynamicSliceOfConstantStarts(),),
    ElementwiseOp: (FoldElementwiseOfConstants(),),
    ConversionOp: (FoldElementwiseOfConstants(),),
    ReduceOp: (
        RemoveReduceWithoutDims(),
        FoldReduceOfZeroElements(),
        FoldReduceOfConstant(),
        ReduceOverUnitDimsToReshape(),
        ReduceOfBroadcastToElementwise(),
    ),
}


def _stablehlo_reshape_patterns() -> tuple[RewritePattern, ...]:
    from bcast.ir import stablehlo as shlo

    return (ComposeReshapeOfReshape(shlo.ReshapeOp),)


PATTERNS_BY_NAME: dict[str, Callable[[], tuple[RewritePattern, ...]]] = {
    "stablehlo.reshape": _stablehlo_reshape_patterns,
}
"""Patterns of ops whose dialect is loaded only with a program that uses it
(``bcast.ir.parser.make_context``), by op name: made at the op's first
visit, so that canonicalizing a program without StableHLO does not import
it (about 0.03 s of a process's first compile)."""


class StaticShapesOnly(RewritePattern):
    """A pattern written for static shapes, applied only to ops without
    dynamic or bounded dims: canonicalization keeps ops with them as they
    are (docs/semantics.md, "Dynamic and bounded shapes")."""

    def __init__(self, pattern: RewritePattern):
        self.pattern = pattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not any(is_dynamic_type(t) for t in (*op.operand_types, *op.result_types)):
            self.pattern.match_and_rewrite(op, rewriter)


@cache
def patterns_for(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    """The patterns registered for ``op_type`` and for its family bases
    (kept per class: canonicalize asks at every visit of every op)."""
    found: list[RewritePattern] = []
    for klass in op_type.__mro__:
        found.extend(PATTERNS.get(klass, ()))
    if (named := PATTERNS_BY_NAME.get(getattr(op_type, "name", ""))) is not None:
        found.extend(named())
    return (*(StaticShapesOnly(p) for p in found), *(KeyedOnce(p) for p in DYNAMIC_PATTERNS.get(op_type, ())))
