"""``bcast-make-explicit``: every implicit broadcast becomes explicit.

Afterwards every elementwise op's operands have exactly its result's shape
(and one common element type), and all broadcasting is done by
``bcast.broadcast_in_dim``, with ``bcast.reshape``, ``bcast.transpose`` and
``bcast.convert`` where needed:

- NumPy rank promotion, degenerate (size-1) dims, scalars, the outer product;
- XLA ``broadcast_dimensions`` (including non-prefix tuples and the XLA
  "broadcast composition" examples);
- ``select`` over its three operands;
- nested (TML) types: per-level broadcasting is one flat ``broadcast_in_dim``;
- type promotion: ``convert`` to the promoted type before broadcasting;
- ``narrow`` becomes ``reshape``;
- index-access broadcasting: ``extract``/``assign`` indices on size-1 dims
  become 0 and surplus indices are dropped;
- ``assign``: the source is converted and broadcast to the indexed
  destination's type.

Option ``degenerate``:

- ``expand`` (default): a ``broadcast_in_dim`` may expand size-1 dims itself
  (``4x1 -> 4x3`` with dims ``[0, 1]``);
- ``reshape``: HLO style; size-1 dims that get broadcast are first dropped
  with ``reshape``, so every operand dim of a ``broadcast_in_dim`` equals the
  result dim it maps to.

Either way the output verifies under ``xla`` semantics: ``broadcast_in_dim``
dims are strictly increasing (a transposing broadcast gets a ``transpose``
first). Operands that already have the wanted type are left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.passes import ModulePass

from bcast.ir import rules
from bcast.ir.ops import (
    AssignOp,
    BinaryOp,
    BroadcastInDimOp,
    ConvertOp,
    ExtractOp,
    NarrowOp,
    ReshapeOp,
    SelectOp,
    TransposeOp,
)
from bcast.ir.rules import Levels, RuleError
from bcast.ir.types import make_type, split_type
from bcast.passes.errors import PassError

Degenerate = Literal["expand", "reshape"]
DEGENERATE_MODES: tuple[Degenerate, ...] = ("expand", "reshape")


# --------------------------------------------------------------------------
# Building explicit broadcasts
# --------------------------------------------------------------------------


def _dense(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def _drop_dims(levels: Levels, drop: set[int]) -> Levels:
    """``levels`` without the flat dims in ``drop``; emptied levels vanish
    (a rank-0 level adds nothing to the flat value)."""
    kept: list[list[int]] = [[] for _ in levels]
    for flat_index, (level, size) in enumerate(
        (lv, d) for lv, shape in enumerate(levels) for d in shape
    ):
        if flat_index not in drop:
            kept[level].append(size)
    out = tuple(tuple(k) for k in kept if k)
    return out or ((),)


class Builder:
    """Inserts explicit ops before ``anchor``, each carrying its location."""

    def __init__(self, rewriter: PatternRewriter, anchor: Operation, degenerate: Degenerate):
        self.rewriter = rewriter
        self.anchor = anchor
        self.degenerate = degenerate

    def _insert(self, op: Operation) -> SSAValue:
        op.location = self.anchor.location
        self.rewriter.insert(op, InsertPoint.before(self.anchor))
        return op.results[0]

    def convert(self, value: SSAValue, element: str) -> SSAValue:
        levels, own = split_type(value.type)
        if own == element:
            return value
        return self._insert(
            ConvertOp.create(operands=[value], result_types=[make_type(levels, element)])
        )

    def reshape(self, value: SSAValue, levels: Levels) -> SSAValue:
        target = make_type(levels, split_type(value.type)[1])
        if value.type == target:
            return value
        return self._insert(ReshapeOp.create(operands=[value], result_types=[target]))

    def broadcast(self, value: SSAValue, dims: Sequence[int], result: Levels) -> SSAValue:
        """``value`` broadcast to the levels ``result`` with its flat dim ``i``
        landing on flat result dim ``dims[i]`` (size 1 or equal, as in
        ``broadcast_in_dim``); nothing is emitted when no work is needed."""
        levels, element = split_type(value.type)
        flat = rules.flat_shape(levels)
        res_flat = rules.flat_shape(result)
        dims = list(dims)
        target = make_type(result, element)
        if value.type == target and dims == list(range(len(res_flat))):
            return value
        if self.degenerate == "reshape":
            drop = {i for i, d in enumerate(dims) if flat[i] == 1 and res_flat[d] != 1}
            if drop:
                levels = _drop_dims(levels, drop)
                flat = rules.flat_shape(levels)
                value = self.reshape(value, levels)
                dims = [d for i, d in enumerate(dims) if i not in drop]
        if any(b <= a for a, b in zip(dims, dims[1:])):
            # A transposing broadcast: transpose first, then broadcast in order.
            perm = sorted(range(len(dims)), key=dims.__getitem__)
            flat = tuple(flat[p] for p in perm)
            levels = (flat,)
            value = self._insert(
                TransposeOp.create(
                    operands=[value],
                    result_types=[make_type(levels, element)],
                    properties={"permutation": _dense(perm)},
                )
            )
            dims = sorted(dims)
        if dims == list(range(len(res_flat))) and rules.flat_shape(levels) == res_flat:
            return self.reshape(value, result)  # only the nesting differs
        return self._insert(
            BroadcastInDimOp.create(
                operands=[value],
                result_types=[target],
                properties={"broadcast_dimensions": _dense(dims)},
            )
        )


def _replace(rewriter: PatternRewriter, op: Operation, new: Operation) -> None:
    new.location = op.location
    rewriter.replace(op, new)


def _rebuild(op: Operation, operands: Sequence[SSAValue], drop_props: Sequence[str] = ()) -> Operation:
    """A copy of ``op`` with new operands and without the properties ``drop_props``."""
    return type(op).create(
        operands=list(operands),
        result_types=[r.type for r in op.results],
        properties={k: v for k, v in op.properties.items() if k not in drop_props},
        attributes=dict(op.attributes),
    )


def _split(op: Operation, value: SSAValue) -> tuple[Levels, str]:
    try:
        return split_type(value.type)
    except RuleError as e:
        raise PassError(op, e.message, e.notes) from None


# --------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------


@dataclass
class MakeBinaryBroadcastExplicit(RewritePattern):
    """``add %a, %b`` (and every binary op and ``compare``): both operands
    converted to the promoted element type and broadcast to the result shape;
    ``broadcast_dimensions`` become the low-rank operand's broadcast dims."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BinaryOp, rewriter: PatternRewriter) -> None:
        (ll, le), (rl, re) = _split(op, op.lhs), _split(op, op.rhs)
        result, _ = _split(op, op.result)
        try:
            element = rules.promote_types(le, re)
        except RuleError as e:
            raise PassError(op, e.message, e.notes) from None
        dims = [rules.flat_broadcast_dims(ll, result), rules.flat_broadcast_dims(rl, result)]
        bd = op.broadcast_dimensions
        if bd is not None and len(ll) == 1 and len(rl) == 1:
            ranks = (len(ll[0]), len(rl[0]))
            if ranks[0] != ranks[1]:
                low = 0 if ranks[0] < ranks[1] else 1
                dims[low] = list(bd.get_values())
                dims[1 - low] = list(range(len(result[0])))
        b = Builder(rewriter, op, self.degenerate)
        operands = [
            b.broadcast(b.convert(v, element), d, result)
            for v, d in zip((op.lhs, op.rhs), dims)
        ]
        if bd is None and operands == [op.lhs, op.rhs]:
            return
        _replace(rewriter, op, _rebuild(op, operands, ("broadcast_dimensions",)))


@dataclass
class MakeSelectBroadcastExplicit(RewritePattern):
    """``select %p, %t, %f``: NumPy broadcasting over all three operands;
    the branches converted to the result's element type."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SelectOp, rewriter: PatternRewriter) -> None:
        result, element = _split(op, op.result)
        b = Builder(rewriter, op, self.degenerate)
        operands = []
        for position, value in enumerate((op.pred, op.on_true, op.on_false)):
            levels, _ = _split(op, value)
            if position:  # the branches; the predicate stays i1
                value = b.convert(value, element)
            operands.append(b.broadcast(value, rules.flat_broadcast_dims(levels, result), result))
        if operands == [op.pred, op.on_true, op.on_false]:
            return
        _replace(rewriter, op, _rebuild(op, operands))


@dataclass
class NormalizeBroadcastInDim(RewritePattern):
    """An existing ``broadcast_in_dim`` in the form this pass emits: identity
    removed, unsorted dims as ``transpose`` + sorted broadcast and, with
    ``degenerate=reshape``, expanded size-1 dims dropped by a ``reshape``."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter) -> None:
        (ol, _), (rl, _) = _split(op, op.operand), _split(op, op.result)
        dims = list(op.broadcast_dimensions.get_values())
        flat, res_flat = rules.flat_shape(ol), rules.flat_shape(rl)
        identity = op.operand.type == op.result.type and dims == list(range(len(res_flat)))
        unsorted = any(b <= a for a, b in zip(dims, dims[1:]))
        expands = any(flat[i] == 1 and res_flat[d] != 1 for i, d in enumerate(dims))
        if not (identity or unsorted or (self.degenerate == "reshape" and expands)):
            return
        value = Builder(rewriter, op, self.degenerate).broadcast(op.operand, dims, rl)
        rewriter.replace(op, [], [value])


@dataclass
class NarrowToReshape(RewritePattern):
    """``narrow`` is a ``reshape`` (or nothing when no dim is 1)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NarrowOp, rewriter: PatternRewriter) -> None:
        if op.operand.type == op.result.type:
            rewriter.replace(op, [], [op.operand])
            return
        _replace(
            rewriter, op, ReshapeOp.create(operands=[op.operand], result_types=[op.result.type])
        )


def _explicit_indices(
    levels: Levels, static: Sequence[int], dynamic: Sequence[SSAValue]
) -> tuple[list[int], list[SSAValue]] | None:
    """Index-access broadcasting made explicit: at most one index per dim, 0 on
    size-1 dims. None when the indices are already like that."""
    flat = rules.flat_shape(levels)
    new_static: list[int] = []
    new_dynamic: list[SSAValue] = []
    pending = list(dynamic)
    for pos, index in enumerate(static):
        value = pending.pop(0) if index == DYNAMIC_INDEX else None
        if pos >= len(flat):
            continue
        if flat[pos] == 1:
            new_static.append(0)
            continue
        new_static.append(index)
        if value is not None:
            new_dynamic.append(value)
    if new_static == list(static) and new_dynamic == list(dynamic):
        return None
    return new_static, new_dynamic


@dataclass
class MakeExtractIndicesExplicit(RewritePattern):
    """``extract %t[999, 1, 5] : tensor<1x2xf32>`` -> ``extract %t[0, 1]``;
    an extract left with no index is its operand (re-nested by a ``reshape``
    when only the nesting of the type changes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExtractOp, rewriter: PatternRewriter) -> None:
        levels, _ = _split(op, op.operand)
        static = list(op.static_indices.get_values())
        explicit = _explicit_indices(levels, static, list(op.index_values))
        if explicit is None and static:
            return
        new_static, new_dynamic = explicit or ([], [])
        if not new_static:
            result, _ = _split(op, op.result)
            value = Builder(rewriter, op, "expand").reshape(op.operand, result)
            rewriter.replace(op, [], [value])
            return
        new = ExtractOp.create(
            operands=[op.operand, *new_dynamic],
            result_types=[op.result.type],
            properties={**op.properties, "static_indices": _dense(new_static)},
            attributes=dict(op.attributes),
        )
        _replace(rewriter, op, new)


@dataclass
class MakeAssignBroadcastExplicit(RewritePattern):
    """``assign %dst[i], %src``: indices made explicit as for ``extract``; the
    source converted to the destination's element type and broadcast to the
    indexed destination's type."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssignOp, rewriter: PatternRewriter) -> None:
        (dl, de), (sl, _) = _split(op, op.dest), _split(op, op.source)
        static = list(op.static_indices.get_values())
        dynamic = list(op.index_values)
        explicit = _explicit_indices(dl, static, dynamic)
        if explicit is not None:
            static, dynamic = explicit
        try:
            target = rules.plan_indices(dl, [None] * len(static), "tml", "assign").result
        except RuleError as e:
            raise PassError(op, e.message, e.notes) from None
        b = Builder(rewriter, op, self.degenerate)
        source = b.broadcast(b.convert(op.source, de), rules.flat_broadcast_dims(sl, target), target)
        if explicit is None and source is op.source:
            return
        new = AssignOp.create(
            operands=[op.dest, *dynamic, source],
            result_types=[op.result.type],
            properties={**op.properties, "static_indices": _dense(static)},
            attributes=dict(op.attributes),
        )
        _replace(rewriter, op, new)


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MakeExplicitPass(ModulePass):
    """Make every implicit broadcast an explicit ``broadcast_in_dim``.

    Options:

    - degenerate: ``expand`` (default) lets ``broadcast_in_dim`` expand size-1
      dims; ``reshape`` drops them with ``reshape`` first (HLO style).
    """

    name = "bcast-make-explicit"

    degenerate: str = "expand"

    def __post_init__(self) -> None:
        if self.degenerate not in DEGENERATE_MODES:
            raise ValueError(
                f"invalid value '{self.degenerate}' for option 'degenerate' of "
                "bcast-make-explicit: expected 'expand' or 'reshape'"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        degenerate: Degenerate = self.degenerate  # type: ignore[assignment]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    MakeBinaryBroadcastExplicit(degenerate),
                    MakeSelectBroadcastExplicit(degenerate),
                    NormalizeBroadcastInDim(degenerate),
                    NarrowToReshape(),
                    MakeExtractIndicesExplicit(),
                    MakeAssignBroadcastExplicit(degenerate),
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
            walk_reverse=False,
        ).rewrite_module(op)
