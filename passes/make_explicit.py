"""``bcast-make-explicit``: every implicit broadcast becomes explicit.

Afterwards every elementwise op's operands have exactly its result's shape
(and one common element type), and all broadcasting is done by
``bcast.broadcast_in_dim``, with ``bcast.reshape``, ``bcast.transpose`` and
``bcast.convert`` where needed:

- NumPy rank promotion, degenerate (size-1) dims, scalars, the outer product;
- XLA ``broadcast_dimensions`` (including non-prefix tuples and the XLA
  "broadcast composition" examples);
- ``select`` and ``clamp`` over their three operands;
- nested (TML) types: per-level broadcasting is one flat ``broadcast_in_dim``;
- type promotion: ``convert`` to the promoted type before broadcasting;
- ``narrow`` becomes ``reshape``;
- index-access broadcasting: ``extract``/``assign`` indices on size-1 dims
  become 0 and surplus indices are dropped;
- ``assign``: the source is converted and broadcast to the indexed
  destination's type;
- ``matmul`` becomes ``dot_general``: operands converted to the promoted
  type and, when both have batch dims, broadcast to the common batch shape
  (``rules.matmul_plan``).

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType, i1, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from bcast.ir import rules
from bcast.ir.ops import (
    AndOp,
    ArgReduceOp,
    AssignOp,
    BinaryOp,
    BroadcastInDimOp,
    BroadcastSizeOp,
    CheckBroadcastableOp,
    CompareOp,
    ConstantOp,
    ConversionOp,
    ConvertOp,
    DimOp,
    DOT_PAIR_WORDS,
    DotGeneralOp,
    DynamicBroadcastInDimOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    ElementwiseOp,
    ExtractOp,
    GatherOp,
    MATMUL_CORE_WORDS,
    MatmulOp,
    NarrowOp,
    OrOp,
    RESULT_SHAPE_WORDS,
    ReshapeOp,
    RuntimeShapeError,
    ScatterOp,
    ShapeAssertionOp,
    SizeToTensorOp,
    TernaryOp,
    TransposeOp,
    matmul_broadcast_words,
    semantics_of,
)
from bcast.ir.rules import Levels, RuleError
from bcast.ir.types import NUMPY_DTYPES, is_dynamic_type, make_type, split_type
from bcast.passes import TypedOptionsPass
from bcast.passes.dynamic_checks import size_key
from bcast.passes.errors import PassError
from bcast.passes.rewriting import insert_before, located, replace

Degenerate = Literal["expand", "reshape"]


# --------------------------------------------------------------------------
# Building explicit broadcasts
# --------------------------------------------------------------------------


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


def convert(rewriter: PatternRewriter, anchor: Operation, value: SSAValue, element: str) -> SSAValue:
    """``value`` converted to ``element`` (inserted before ``anchor``)."""
    levels, own = split_type(value.type)
    if own == element:
        return value
    return insert_before(rewriter, anchor, ConvertOp(value, make_type(levels, element)))


def reshape(rewriter: PatternRewriter, anchor: Operation, value: SSAValue, levels: Levels) -> SSAValue:
    """``value`` with the (same-size) levels ``levels``."""
    target = make_type(levels, split_type(value.type)[1])
    if value.type == target:
        return value
    return insert_before(rewriter, anchor, ReshapeOp(value, target))


def broadcast(
    rewriter: PatternRewriter,
    anchor: Operation,
    value: SSAValue,
    dims: Sequence[int],
    result: Levels,
    degenerate: Degenerate,
) -> SSAValue:
    """``value`` broadcast to the levels ``result`` with its flat dim ``i``
    landing on flat result dim ``dims[i]`` (size 1 or equal, as in
    ``broadcast_in_dim``); nothing is emitted when no work is needed."""
    levels, element = split_type(value.type)
    flat = rules.flat_shape(levels)
    res_flat = rules.flat_shape(result)
    dims = list(dims)
    target = make_type(result, element)
    if value.type == target and rules.is_identity(dims, len(res_flat)):
        return value
    if degenerate == "reshape":
        drop = {i for i, d in enumerate(dims) if flat[i] == 1 and res_flat[d] != 1}
        if drop:
            levels = _drop_dims(levels, drop)
            flat = rules.flat_shape(levels)
            value = reshape(rewriter, anchor, value, levels)
            dims = [d for i, d in enumerate(dims) if i not in drop]
    if not rules.is_sorted(dims):
        # A transposing broadcast: transpose first, then broadcast in order.
        perm, flat, dims = rules.split_transposing_broadcast(flat, dims)
        levels = (flat,)
        value = insert_before(rewriter, anchor, TransposeOp(value, perm, make_type(levels, element)))
    if rules.is_identity(dims, len(res_flat)) and flat == res_flat:
        return reshape(rewriter, anchor, value, result)  # only the nesting differs
    return insert_before(rewriter, anchor, BroadcastInDimOp(value, dims, target))


def _split(op: Operation, value: SSAValue) -> tuple[Levels, str]:
    try:
        return split_type(value.type)
    except RuleError as e:
        raise PassError(op, e.message, e.notes) from None


# --------------------------------------------------------------------------
# Dynamic shapes: sizes, checks and broadcasts into run-time sizes
# (docs/semantics.md, "Dynamic and bounded shapes", "The explicit form")
# --------------------------------------------------------------------------


def is_dynamic_op(op: Operation) -> bool:
    return any(is_dynamic_type(t) for t in (*op.operand_types, *op.result_types))


@dataclass
class Sizes:
    """The run-time sizes of one op's operands as ``index`` values: one
    ``bcast.dim`` per dynamic flat dim of a value, inserted before ``anchor``
    (the same value asked twice gives the same SSA size, which is what
    proves two dims equal)."""

    rewriter: PatternRewriter
    anchor: Operation
    known: dict[tuple[SSAValue, int], SSAValue]

    def of(self, value: SSAValue, dim: int) -> SSAValue:
        while isinstance(value.owner, ConversionOp):  # a conversion keeps its operand's sizes
            value = value.owner.operand
        if (value, dim) not in self.known:
            self.known[(value, dim)] = insert_before(self.rewriter, self.anchor, DimOp(value, dim))
        return self.known[(value, dim)]

    def erase_unused(self) -> None:
        """Sizes read only to find a fact (or an operand used as it is)."""
        for size in self.known.values():
            if not size.uses:
                self.rewriter.erase(size.owner)

    def shape(self, value: SSAValue) -> list[int | SSAValue]:
        """``value``'s flat shape: static sizes as ints, dynamic ones as SSA sizes."""
        flat = rules.flat_shape(split_type(value.type)[0])
        return [self.of(value, k) if isinstance(n, rules.Dynamic) else n for k, n in enumerate(flat)]


def _flat_result_dim(result: Levels, level: int, axis: int) -> int:
    """The flat result dim of ``axis`` (counted from the right) of ``level``."""
    return sum(len(shape) for shape in result[:level]) + len(result[level]) + axis


def emit_checks(op: ElementwiseOp, sizes: Sizes, dims: Sequence[Sequence[int]]) -> None:
    """The checks the 4b table leaves to run time for ``op``'s operands
    (``op.operand_runtime_checks()``), as ``bcast.check_broadcastable`` ops at
    ``op``'s location: one for NumPy's rule, one for tml's equality rule
    (``strict``), each listing every operand's shape for NumPy's message."""
    result, _ = split_type(op.results[0].type)
    by_kind: dict[bool, set[int]] = {}
    for level, axis, check in op.operand_runtime_checks():
        by_kind.setdefault(check == "equal", set()).add(_flat_result_dim(result, level, axis))
    for strict, checked in sorted(by_kind.items()):
        shapes = [sizes.shape(v) for v in op.operands]
        notes = [rule_note(op, dims, r) for r in sorted(checked)]
        check = CheckBroadcastableOp(shapes, dims, sorted(checked), strict, notes=notes)
        sizes.rewriter.insert(located(check, op), InsertPoint.before(op))


SENTINEL = 1_000_000
"""Run-time sizes ``rule_note`` makes up to find a note (7 digits each, so
one never holds another; the smallest such, so that a made-up shape's
element count fits int64 up to rank 3)."""


def rule_note(op: ElementwiseOp, dims: Sequence[Sequence[int]], failing: int) -> str:
    """The note the reference gives when ``op``'s operands fail to broadcast
    at result dim ``failing`` only (``ElementwiseOp.runtime_levels``: the
    op's own rule under tml or xla, such as ``relational operations under
    tml semantics need ...``; none for NumPy's rule), as a template for the
    check (``{s[k][j]}``: dim ``j`` of operand ``k`` at run time). Found by
    running that rule on made-up sizes: each dynamic dim a distinct
    ``SENTINEL`` value where it lands on ``failing``, elsewhere one value
    per result dim (or the static size landing there), so only ``failing``
    breaks; the sentinels in the note become placeholders. One definition of
    the words: the reference's."""
    flats = [rules.flat_shape(split_type(v.type)[0]) for v in op.operands]
    shared: dict[int, int] = {}
    for flat, landing in zip(flats, dims):
        for n, d in zip(flat, landing):
            if isinstance(n, int) and n != 1 and d != failing:
                shared[d] = n
    made: list[list[int]] = []
    places: dict[str, str] = {}
    for k, (flat, landing) in enumerate(zip(flats, dims)):
        sizes: list[int] = []
        for j, (n, d) in enumerate(zip(flat, landing)):
            if isinstance(n, int):
                sizes.append(n)
                continue
            value = SENTINEL + 1000 * k + j if d == failing else shared.setdefault(d, SENTINEL + 900_000 + d)
            places.setdefault(str(value), f"{{s[{k}][{j}]}}")
            sizes.append(value)
        made.append(sizes)
    if any(rules.element_count(sizes) > rules.INT64_MAX for sizes in made):
        return ""  # the made-up sizes would fail int64's count, not the rule: no note rather than that one
    levels = [_levels_like(v, sizes) for v, sizes in zip(op.operands, made)]
    try:
        op.runtime_levels(levels)
    except RuntimeShapeError as e:
        note = e.notes[0].replace("{", "{{").replace("}", "}}") if e.notes else ""
        for value, place in places.items():
            note = note.replace(value, place)
        return note
    return ""


def _levels_like(value: SSAValue, flat: Sequence[int]) -> Levels:
    """``flat`` sizes nested as ``value``'s type nests its dims."""
    sizes = iter(flat)
    return tuple(tuple(next(sizes) for _ in shape) for shape in split_type(value.type)[0])


def result_sizes(values: Sequence[SSAValue], dims: Sequence[Sequence[int]], result: Levels,
                 sizes: Sizes) -> list[int | SSAValue]:
    """The result's flat sizes: static ones as ints; a ``?`` one is the size
    of the dynamic operand dims landing on it (checked broadcastable before),
    one SSA size when they are all the same value, else their
    ``bcast.broadcast_size``."""
    flat = rules.flat_shape(result)
    out: list[int | SSAValue] = []
    for r, n in enumerate(flat):
        if isinstance(n, int):
            out.append(n)
            continue
        landing = [sizes.of(v, k) for v, vd in zip(values, dims) for k, d in enumerate(vd)
                   if d == r and isinstance(rules.flat_shape(split_type(v.type)[0])[k], rules.Dynamic)]
        distinct = list(dict.fromkeys(landing))
        if len(distinct) == 1:
            out.append(distinct[0])
        else:
            out.append(insert_before(sizes.rewriter, sizes.anchor, BroadcastSizeOp(distinct)))
    return out


def expansion_facts(operand: Sequence[rules.Dim], own: Sequence[int | SSAValue], dims: Sequence[int],
                    result: Sequence[rules.Dim], out: Sequence[int | SSAValue]) -> tuple[list[int], list[int]]:
    """``known_expanding_dimensions`` and ``known_nonexpanding_dimensions``
    wherever known: an operand dim that can only be 1 (a static 1, or a
    ``?<=B`` into a static size above B) expands unless its result dim is a
    static 1; one equal to its result dim (the same static size, or the same
    SSA size) does not."""
    expanding, nonexpanding = [], []
    for k, d in enumerate(dims):
        if own[k] is out[d] or (isinstance(operand[k], int) and operand[k] == result[d]):
            nonexpanding.append(k)
        elif operand[k] == 1 or (isinstance(result[d], int) and not rules.may_be(operand[k], result[d])):
            expanding.append(k)
    return expanding, nonexpanding


def dynamic_broadcast(value: SSAValue, dims: Sequence[int], result: Levels, out: Sequence[int | SSAValue],
                      sizes: Sizes, anchor: Operation) -> SSAValue:
    """``value`` broadcast to the flat sizes ``out`` (``dims`` as in
    ``broadcast_in_dim``); nothing is emitted where every dim is proven
    equal to its result dim already."""
    levels, element = split_type(value.type)
    flat, res_flat = rules.flat_shape(levels), rules.flat_shape(result)
    own = sizes.shape(value)
    expanding, nonexpanding = expansion_facts(flat, own, dims, res_flat, out)
    target = make_type(result, element)
    if rules.is_identity(dims, len(res_flat)) and len(nonexpanding) == len(dims):
        return reshape(sizes.rewriter, anchor, value, result)  # only the nesting may differ
    if not rules.is_sorted(dims):  # transpose (its sizes permuted), then broadcast in order
        perm, transposed, dims = rules.split_transposing_broadcast(flat, dims)
        value = insert_before(sizes.rewriter, anchor, TransposeOp(value, perm, make_type((transposed,), element)))
        own = [own[p] for p in perm]  # the same SSA sizes: the facts they prove stay proven
        expanding, nonexpanding = expansion_facts(transposed, own, dims, res_flat, out)
    return insert_before(sizes.rewriter, anchor,
                         DynamicBroadcastInDimOp(value, out, dims, target, expanding, nonexpanding))  # fmt: skip


def emit_result_check(op: ElementwiseOp, sizes: Sizes, values: Sequence[SSAValue],
                      dims: Sequence[Sequence[int]], inferred: Levels) -> None:
    """The facts a declared result type adds to the inferred one (a static
    ``n`` where ``?`` is inferred: the run-time size is ``n``; a bound
    ``?<=B`` where none or a larger one is: it is at most ``B``) as one
    ``bcast.shape_assertion`` at ``op``'s location, on the inferred sizes
    (the broadcast of the operands' own, checked broadcastable before). It
    fails with the reference's words (``RESULT_SHAPE_WORDS``) and the run-time
    shape, so every backend reports what the reference reports; NumPy,
    which would stretch two 1s into a declared ``out`` of 4, has no words
    for it. Decision: a check of its own rather than broadcasting into the
    declared size, which would make 1 and 1 a result of 4."""
    declared = rules.flat_shape(split_type(op.results[0].type)[0])
    got = result_sizes(values, dims, inferred, sizes)
    rewriter, tensor = sizes.rewriter, TensorType(i64, [])
    assert_declared_sizes(rewriter, op, [
        (want, size if isinstance(size, int) else lambda size=size: insert_before(rewriter, op, SizeToTensorOp(size, tensor)),
         True) for want, size in zip(declared, got)],
        "a declared type more static than the inferred one states a fact")  # fmt: skip


def assert_declared_sizes(rewriter: PatternRewriter, op: Operation,
                          sizes: Sequence[tuple[int | rules.Dynamic, int | Callable[[], SSAValue], bool]],
                          fact: str) -> None:
    """One ``bcast.shape_assertion`` before ``op``, at its location, that
    each result dim's run-time size is what ``op``'s declared type says (a
    static ``n``: equal; a bound: at most it), in the reference's words
    (``RESULT_SHAPE_WORDS``). Each entry is the declared dim, the run-time
    size (a static int, shown as it is, or a maker of its ``i64`` tensor,
    called in order) and whether to compare it; ``fact`` is why at least one
    comparison is made."""
    tensor = TensorType(i64, [])
    shown: list[str] = []
    inputs: list[SSAValue] = []
    predicate: SSAValue | None = None
    for want, size, compare in sizes:
        if isinstance(size, int):
            shown.append(str(size))
            continue
        shown.append(f"{{{len(inputs)}}}")
        inputs.append(size())
        limit = want.bound if isinstance(want, rules.Dynamic) else want
        if limit is None or not compare:
            continue
        bound = insert_before(rewriter, op, ConstantOp(np.array(limit, np.int64), tensor))
        fits = insert_before(rewriter, op, CompareOp("LE" if isinstance(want, rules.Dynamic) else "EQ",
                                                     inputs[-1], bound, TensorType(i1, [])))
        predicate = fits if predicate is None else insert_before(rewriter, op, AndOp(predicate, fits))
    assert predicate is not None, fact
    shape = "(" + ", ".join(shown) + ("," if len(shown) == 1 else "") + ")"
    message = f"'{op.name}' op " + RESULT_SHAPE_WORDS.format(shape=shape, type=op.results[0].type)
    rewriter.insert(located(ShapeAssertionOp(predicate, inputs, message), op), InsertPoint.before(op))


def make_dynamic_elementwise_explicit(rewriter: PatternRewriter, op: ElementwiseOp,
                                      values: Sequence[SSAValue], dims: Sequence[Sequence[int]]) -> None:
    """A dynamic elementwise op made explicit: its sizes read, its run-time
    checks emitted, its (converted) operands ``values`` broadcast to the
    result's run-time sizes, in that order. A declared result more static
    than the inferred one has its facts checked after the operands'
    (``emit_result_check``), as the reference checks the result it computed."""
    inferred = op.infer_result_type(semantics_of(op))
    sizes = Sizes(rewriter, op, {})
    emit_checks(op, sizes, dims)
    if inferred != op.results[0].type:
        emit_result_check(op, sizes, values, dims, split_type(inferred)[0])
    result, _ = split_type(op.results[0].type)
    out = result_sizes(values, dims, result, sizes)
    operands = [dynamic_broadcast(v, d, result, out, sizes, op) for v, d in zip(values, dims)]
    sizes.erase_unused()
    if getattr(op, "broadcast_dimensions", None) is None and operands == list(op.operands):
        return
    replace(rewriter, op, op.rebuilt(operands))


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
        if is_dynamic_op(op):
            values = [convert(rewriter, op, v, element) for v in (op.lhs, op.rhs)]
            return make_dynamic_elementwise_explicit(rewriter, op, values, dims)
        operands = [
            broadcast(rewriter, op, convert(rewriter, op, v, element), d, result, self.degenerate)
            for v, d in zip((op.lhs, op.rhs), dims)
        ]
        if bd is None and operands == [op.lhs, op.rhs]:
            return
        replace(rewriter, op, op.rebuilt(operands))


@dataclass
class MakeSelectBroadcastExplicit(RewritePattern):
    """``select %p, %t, %f``, ``clamp %min, %x, %max``: NumPy broadcasting
    over all three operands; the ``PROMOTED`` ones (select's branches, all
    of clamp's) converted to the result's element type."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TernaryOp, rewriter: PatternRewriter) -> None:
        result, element = _split(op, op.results[0])
        if is_dynamic_op(op):
            values = [convert(rewriter, op, v, element) if k in op.PROMOTED else v
                      for k, v in enumerate(op.operands)]
            dims = [rules.flat_broadcast_dims(_split(op, v)[0], result) for v in op.operands]
            return make_dynamic_elementwise_explicit(rewriter, op, values, dims)
        operands = []
        for position, value in enumerate(op.operands):
            levels, _ = _split(op, value)
            if position in op.PROMOTED:  # select's predicate stays i1
                value = convert(rewriter, op, value, element)
            dims = rules.flat_broadcast_dims(levels, result)
            operands.append(broadcast(rewriter, op, value, dims, result, self.degenerate))
        if operands == list(op.operands):
            return
        replace(rewriter, op, op.rebuilt(operands))


@dataclass
class NormalizeBroadcastInDim(RewritePattern):
    """An existing ``broadcast_in_dim`` in the form this pass emits: identity
    removed, unsorted dims as ``transpose`` + sorted broadcast and, with
    ``degenerate=reshape``, expanded size-1 dims dropped by a ``reshape``."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastInDimOp, rewriter: PatternRewriter) -> None:
        (ol, _), (rl, _) = _split(op, op.operand), _split(op, op.result)
        if is_dynamic_op(op):
            if op.is_identity():
                rewriter.replace(op, [], [op.operand])
                return
            sizes = Sizes(rewriter, op, {})
            own, res_flat = sizes.shape(op.operand), rules.flat_shape(rl)
            source = dict(zip(op.dims, own))
            out = [source[d] if isinstance(n, rules.Dynamic) else n for d, n in enumerate(res_flat)]
            rewriter.replace(op, [], [dynamic_broadcast(op.operand, op.dims, rl, out, sizes, op)])
            sizes.erase_unused()
            return
        flat, res_flat = rules.flat_shape(ol), rules.flat_shape(rl)
        expands = any(flat[i] == 1 and res_flat[d] != 1 for i, d in enumerate(op.dims))
        if not (
            op.is_identity()
            or not rules.is_sorted(op.dims)
            or (self.degenerate == "reshape" and expands)
        ):
            return
        value = broadcast(rewriter, op, op.operand, op.dims, rl, self.degenerate)
        rewriter.replace(op, [], [value])


@dataclass
class NarrowToReshape(RewritePattern):
    """``narrow`` is a ``reshape`` (or nothing when no dim is 1)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NarrowOp, rewriter: PatternRewriter) -> None:
        if op.operand.type == op.result.type:
            rewriter.replace(op, [], [op.operand])
            return
        replace(rewriter, op, ReshapeOp(op.operand, op.result.type))


def _explicit_indices(op: ExtractOp | AssignOp) -> list[int | SSAValue] | None:
    """Index-access broadcasting made explicit (``rules.plan_indices``' normalised
    indices): at most one index per dim, 0 on size-1 dims. None when the
    indices are already like that."""
    given = op.mixed_indices()
    try:
        plan = op.index_plan()
    except RuleError as e:
        raise PassError(op, e.message, e.notes) from None
    explicit = [given[pos] if i is None else i for pos, i in enumerate(plan.indices)]
    return None if explicit == given else explicit


@dataclass
class MakeExtractIndicesExplicit(RewritePattern):
    """``extract %t[999, 1, 5] : tensor<1x2xf32>`` -> ``extract %t[0, 1]``;
    an extract left with no index is its operand (re-nested by a ``reshape``
    when only the nesting of the type changes)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExtractOp, rewriter: PatternRewriter) -> None:
        explicit = _explicit_indices(op)
        if explicit is None and op.indices():
            return
        if not explicit:
            result, _ = _split(op, op.result)
            rewriter.replace(op, [], [reshape(rewriter, op, op.operand, result)])
            return
        new = ExtractOp(op.operand, explicit, op.result.type, attributes=dict(op.attributes))
        replace(rewriter, op, new)


@dataclass
class MakeAssignBroadcastExplicit(RewritePattern):
    """``assign %dst[i], %src``: indices made explicit as for ``extract``; the
    source converted to the destination's element type and broadcast to the
    indexed destination's type."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssignOp, rewriter: PatternRewriter) -> None:
        (dl, de), (sl, _) = _split(op, op.dest), _split(op, op.source)
        explicit = _explicit_indices(op)
        indices = explicit if explicit is not None else op.indices()
        try:
            target = rules.plan_indices(dl, [None] * len(indices), semantics_of(op), "assign").result
        except RuleError as e:
            raise PassError(op, e.message, e.notes) from None
        source = convert(rewriter, op, op.source, de)
        dims = rules.flat_broadcast_dims(sl, target)
        source = broadcast(rewriter, op, source, dims, target, self.degenerate)
        if explicit is None and source is op.source:
            return
        if explicit is None:
            explicit = op.mixed_indices()
        replace(rewriter, op, AssignOp(op.dest, explicit, source, attributes=dict(op.attributes)))


def emit_contraction_checks(rewriter: PatternRewriter, op: DotGeneralOp, anchor: Operation) -> None:
    """The run-time checks of a ``dot_general`` with ``?`` dims, before
    ``anchor`` and at its location: each side's batch dims, then its
    contracting dims, equal where a ``?`` leaves them unproven
    (``rules.unproven_dot_pairs``; canonicalize drops the pairs one SSA size
    proves), failing with JAX's words (``DOT_PAIR_WORDS``). A declared
    result more static than the inferred one is refused, as the elementwise
    ops' is (``make_dynamic_elementwise_explicit``)."""
    if not is_dynamic_op(op):
        return
    (lhs,), _ = _split(anchor, op.lhs)
    (rhs,), _ = _split(anchor, op.rhs)
    dims = op.dims
    inferred = rules.dot_general_shape(lhs, rhs, dims)
    if inferred != split_type(op.result.type)[0][0]:
        raise PassError(anchor, f"has a declared result type {op.result.type} more static than the inferred "
                                f"{rules.shape_str(inferred)}, which bcast-make-explicit does not check explicitly "
                                "yet")  # fmt: skip
    sizes = Sizes(rewriter, anchor, {})
    lhs_sizes, rhs_sizes = sizes.shape(op.lhs), sizes.shape(op.rhs)
    for what, unproven, left, right in zip(("batching", "contracting"), rules.unproven_dot_pairs(lhs, rhs, dims),
                                           (dims.lhs_batch, dims.lhs_contract), (dims.rhs_batch, dims.rhs_contract)):
        if unproven:
            landing = list(range(len(left)))
            check = CheckBroadcastableOp([[lhs_sizes[d] for d in left], [rhs_sizes[d] for d in right]],
                                         [landing, landing], unproven, strict=True, message=DOT_PAIR_WORDS[what])
            rewriter.insert(located(check, anchor), InsertPoint.before(anchor))
    sizes.erase_unused()


class CheckDynamicContraction(RewritePattern):
    """``dot_general`` with ``?`` dims: its paired dims checked equal at run
    time (``emit_contraction_checks``); the op itself stays as it is."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DotGeneralOp, rewriter: PatternRewriter) -> None:
        emit_contraction_checks(rewriter, op, op)


def size_tensor(rewriter: PatternRewriter, op: Operation, value: SSAValue, d: int, n: rules.Dim) -> SSAValue:
    """Dim ``d`` of ``value`` (of size ``n``) as a rank-0 ``i64`` tensor
    before ``op``, for a ``shape_assertion``: a constant when ``n`` is
    static, else the run-time size (``bcast.dim``)."""
    i64 = TensorType(IntegerType(64), [])
    if isinstance(n, int):
        return insert_before(rewriter, op, ConstantOp(np.array([n]), i64))
    return insert_before(rewriter, op, SizeToTensorOp(insert_before(rewriter, op, DimOp(value, d)), i64))


class CheckDynamicSliceSizes(RewritePattern):
    """``dynamic_slice`` (``gather``) of an operand with ``?`` dims: each block size of 1
    or more along a ``?`` dim is checked to fit that dim at run time, before
    the op and at its location, as a ``shape_assertion`` of the dim's size
    (``rules.dynamic_slice_too_large``'s words): the clamped start is then
    in bounds, as for static dims. Decision: a gather of no slices (a
    batch dim of its indices is 0 at run time) reads nothing and passes
    (``jnp.take`` of no indices, or the roll of an empty dim, from an empty
    operand is empty in NumPy and JAX)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, DynamicSliceOp | GatherOp):
            return
        what = "dynamic_slice" if isinstance(op, DynamicSliceOp) else "gather slice"
        shape = rules.flat_shape(_split(op, op.operand)[0])
        batch: list[tuple[int, rules.Dim]] = []
        if isinstance(op, GatherOp):
            indices = rules.flat_shape(_split(op, op.start_indices)[0])
            batch = [(k, indices[k]) for k in op.dims.batch_dims(len(indices))]
            if any(n == 0 for _, n in batch):
                return
        i64 = TensorType(IntegerType(64), [])
        for d, (n, size) in enumerate(zip(shape, op.sizes)):
            if not isinstance(n, rules.Dynamic) or size == 0:
                continue
            dim = size_tensor(rewriter, op, op.operand, d, n)
            size_value = size_tensor(rewriter, op, op.operand, d, size)
            fits = insert_before(rewriter, op, CompareOp("LE", size_value, dim))
            for k, m in batch:
                if isinstance(m, rules.Dynamic):  # no slices to read: nothing to check
                    count = size_tensor(rewriter, op, op.start_indices, k, m)
                    zero = insert_before(rewriter, op, ConstantOp(np.array(0, np.int64), i64))
                    empty = insert_before(rewriter, op, CompareOp("EQ", count, zero, TensorType(i1, [])))
                    fits = insert_before(rewriter, op, OrOp(fits, empty))
            assertion = ShapeAssertionOp(fits, [dim], rules.dynamic_slice_too_large(size, d, what))
            rewriter.insert(located(assertion, op), InsertPoint.before(op))


class CheckDynamicUpdateSizes(RewritePattern):
    """``dynamic_update_slice`` with a ``?`` dim on either side: the update's
    size along it is checked to be no larger than the operand's at run time,
    before the op and at its location (``rules.dynamic_update_too_large``'s
    words), so the clamped start keeps the update in bounds, as for static
    dims."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicUpdateSliceOp, rewriter: PatternRewriter) -> None:
        operand, update = (rules.flat_shape(_split(op, v)[0]) for v in (op.operand, op.update))
        for d, (n, u) in enumerate(zip(operand, update)):
            if not (isinstance(n, rules.Dynamic) or isinstance(u, rules.Dynamic)) or u == 0:
                continue
            u_size, n_size = size_tensor(rewriter, op, op.update, d, u), size_tensor(rewriter, op, op.operand, d, n)
            fits = insert_before(rewriter, op, CompareOp("LE", u_size, n_size))
            assertion = ShapeAssertionOp(fits, [u_size, n_size], rules.dynamic_update_too_large(d))
            rewriter.insert(located(assertion, op), InsertPoint.before(op))
        check_declared_result(rewriter, op, op.operand, range(len(operand)))


def check_declared_result(rewriter: PatternRewriter, op: Operation, source: SSAValue, dims: Sequence[int]) -> None:
    """A result type more static than the ``?`` dims it takes from
    ``source`` (result dim ``r`` is ``source``'s dim ``dims[r]``: a scatter's
    or dynamic_update_slice's operand, an argmax's kept dims) checked at run
    time, before the op and at its location, in the reference's words
    (``RESULT_SHAPE_WORDS``), so no backend writes or reads a buffer of the
    declared size that the run-time one is not."""
    declared = rules.flat_shape(split_type(op.results[0].type)[0])
    have = rules.flat_shape(_split(op, source)[0])
    if all(not isinstance(have[d], rules.Dynamic) or want == have[d] for want, d in zip(declared, dims)):
        return
    assert_declared_sizes(rewriter, op, [
        (want, have[d] if not isinstance(have[d], rules.Dynamic)
         else lambda d=d: size_tensor(rewriter, op, source, d, have[d]), want != have[d])
        for want, d in zip(declared, dims)], "a declared type more static than the source's states a fact")  # fmt: skip


class CheckDynamicScatterSizes(RewritePattern):
    """``scatter`` with ``?`` dims: each pair a ``?`` leaves unproven
    (``rules.scatter_size_misfits``: an updates window against its input
    dim, an updates batch dim against its scatter_indices dim) checked at
    run time, before the op and at its location, in
    ``rules.scatter_size_words``' words; canonicalize drops the ones an SSA
    size proves. Out-of-bounds positions need no check: their updates are
    skipped (docs/ir.md, "scatter")."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScatterOp, rewriter: PatternRewriter) -> None:
        if not is_dynamic_op(op):
            return
        operand, indices, updates = (rules.flat_shape(_split(op, v)[0])
                                     for v in (op.operand, op.scatter_indices, op.updates))
        for axis, what, other in rules.scatter_size_misfits(operand, indices, updates, op.dims):
            source, n = (op.operand, operand[other]) if what == "window" else (op.scatter_indices, indices[other])
            u_size = size_tensor(rewriter, op, op.updates, axis, updates[axis])
            n_size = size_tensor(rewriter, op, source, other, n)
            fits = insert_before(rewriter, op, CompareOp("LE" if what == "window" else "EQ", u_size, n_size))
            assertion = ShapeAssertionOp(fits, [u_size, n_size], rules.scatter_size_words(axis, what, other))
            rewriter.insert(located(assertion, op), InsertPoint.before(op))
        check_declared_result(rewriter, op, op.operand, range(len(operand)))


class CheckDynamicArgReduce(RewritePattern):
    """``argmax``/``argmin`` along a ``?`` dim: checked at run time, before
    the op and at its location, to be non-empty (the verifier's words for a
    static empty dim; docs/ir.md, "argmax") and, for an index type narrower
    than ``i64``, to have a last index the type holds."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ArgReduceOp, rewriter: PatternRewriter) -> None:
        (shape,), index = _split(op, op.operand)[0], _split(op, op.result)[1]
        check_declared_result(rewriter, op, op.operand, [d for d in range(len(shape)) if d != op.dim])
        n = shape[op.dim]
        if not isinstance(n, rules.Dynamic):
            return
        what, i64 = op.short_name, TensorType(IntegerType(64), [])
        size = size_tensor(rewriter, op, op.operand, op.dim, n)
        limits = [(1, "GE", rules.arg_reduce_empty_words(what, op.dim))]
        largest = int(np.iinfo(NUMPY_DTYPES[index]).max) + 1
        if largest <= np.iinfo(np.int64).max and (n.bound is None or n.bound > largest):
            limits.append((largest, "LE", rules.arg_reduce_index_words(what, op.dim, index)))
        for limit, direction, words in limits:
            bound = insert_before(rewriter, op, ConstantOp(np.array(limit, np.int64), i64))
            fits = insert_before(rewriter, op, CompareOp(direction, size, bound, TensorType(i1, [])))
            rewriter.insert(located(ShapeAssertionOp(fits, [size], words), op), InsertPoint.before(op))


@dataclass
class MatmulToDotGeneral(RewritePattern):
    """``matmul %a, %b`` -> ``dot_general`` of the converted (and, when both
    have batch dims, broadcast) operands (``rules.matmul_plan``)."""

    degenerate: Degenerate

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        _, element = _split(op, op.result)
        try:
            plan = op.plan()
        except RuleError as e:
            raise PassError(op, e.message, e.notes) from None
        if is_dynamic_op(op) and semantics_of(op) != "xla":
            return make_dynamic_matmul_explicit(rewriter, op, plan, element)
        operands = []
        for value, to in ((op.lhs, plan.lhs_to), (op.rhs, plan.rhs_to)):
            (levels, _) = _split(op, value)
            dims = rules.numpy_broadcast_dims(levels[0], to)
            operands.append(broadcast(rewriter, op, convert(rewriter, op, value, element), dims, (to,),
                                      self.degenerate))  # fmt: skip
        dot = DotGeneralOp(*operands, plan.dims, op.result.type, attributes=dict(op.attributes))
        emit_contraction_checks(rewriter, dot, op)
        replace(rewriter, op, dot)


def make_dynamic_matmul_explicit(rewriter: PatternRewriter, op: MatmulOp, plan: rules.MatmulPlan,
                                 element: str) -> None:
    """A ``matmul`` with ``?`` dims under numpy or tml semantics made
    explicit: ``np.matmul``'s run-time checks (``emit_matmul_checks``), then
    each converted operand broadcast to the common batch sizes by a
    ``dynamic_broadcast_in_dim`` (a ``?`` batch dim that is 1 at run time
    stretches, as in NumPy; the core dims and every dim proven equal are
    ``nonexpanding``, a static 1 into a larger size ``expanding``), then
    one ``dot_general`` with equal batch dims, which needs no check of its
    own. A declared result more static than the inferred one is refused,
    as ``dot_general``'s is."""
    declared = split_type(op.result.type)[0][0]
    if plan.result != declared:
        raise PassError(op, f"has a declared result type {op.result.type} more static than the inferred "
                            f"{rules.shape_str(plan.result)}, which bcast-make-explicit does not check explicitly "
                            "yet")  # fmt: skip
    sizes = Sizes(rewriter, op, {})
    sizes.shape(op.lhs), sizes.shape(op.rhs)
    for where, size in list(sizes.known.items()):  # sizes proven equal (``x @ x.mT``) read as one
        first = next(s for s in sizes.known.values() if size_key(s) == size_key(size))
        if first is not size:
            sizes.known[where] = first
            rewriter.erase(size.owner)
    emit_matmul_checks(op, sizes)
    values = [op.lhs, op.rhs]
    flats = [split_type(v.type)[0][0] for v in values]
    targets = [plan.lhs_to, plan.rhs_to]
    dims = [list(rules.numpy_broadcast_dims(flat, to)) for flat, to in zip(flats, targets)]
    batch = len(plan.dims.lhs_batch)
    if batch:  # only the batch dims land on the common batch sizes
        landing = [[d if d < batch else -1 for d in ds] for ds in dims]
        out = result_sizes(values, landing, (plan.result[:batch],), sizes)
    operands = []
    for value, to, ds in zip(values, targets, dims):
        value = convert(rewriter, op, value, element)
        if batch:
            own = sizes.shape(value)
            value = dynamic_broadcast(value, ds, (to,), [*out, *own[-2:]], sizes, op)
        operands.append(value)
    sizes.erase_unused()
    replace(rewriter, op, DotGeneralOp(*operands, plan.dims, op.result.type, attributes=dict(op.attributes)))


def emit_matmul_checks(op: MatmulOp, sizes: Sizes) -> None:
    """``np.matmul``'s rule where ``?`` dims leave it to run time, as
    ``bcast.shape_assertion``s at ``op``'s location in NumPy's words and
    order (``check_matmul_shapes``, the reference's rule): the contracted
    sizes equal (``MATMUL_CORE_WORDS``), then each aligned pair of batch dims
    equal or one of them 1 (``matmul_broadcast_words``, which lists both
    shapes). A pair one size proves (the same ``size_key``: one SSA size,
    also through a transpose, as in ``x @ x.T``), or with a static 1, is
    not checked; a static pair was checked by the verifier."""
    rewriter = sizes.rewriter
    lhs, rhs = sizes.shape(op.lhs), sizes.shape(op.rhs)
    tensor = TensorType(i64, [])
    tensors: dict[SSAValue, SSAValue] = {}

    def value(size: int | SSAValue) -> SSAValue:
        if isinstance(size, int):
            return insert_before(rewriter, op, ConstantOp(np.array(size, np.int64), tensor))
        if size not in tensors:
            tensors[size] = insert_before(rewriter, op, SizeToTensorOp(size, tensor))
        return tensors[size]

    def equal(a: int | SSAValue, b: int | SSAValue) -> SSAValue:
        return insert_before(rewriter, op, CompareOp("EQ", value(a), value(b), TensorType(i1, [])))

    def assertion(predicate: SSAValue, words: str, inputs: list[SSAValue]) -> None:
        rewriter.insert(located(ShapeAssertionOp(predicate, inputs, words), op), InsertPoint.before(op))

    def shown(inputs: list[SSAValue], size: int | SSAValue) -> str:
        """``size`` in a message: a number, or the placeholder of its tensor in ``inputs``."""
        if isinstance(size, int):
            return str(size)
        if value(size) not in inputs:
            inputs.append(value(size))
        return f"{{{inputs.index(value(size))}}}"

    k_lhs, k_rhs = lhs[-1], rhs[0] if len(rhs) == 1 else rhs[-2]
    if size_key(k_lhs) != size_key(k_rhs) and not (isinstance(k_lhs, int) and isinstance(k_rhs, int)):
        inputs: list[SSAValue] = []
        words = MATMUL_CORE_WORDS.format(rhs=shown(inputs, k_rhs), lhs=shown(inputs, k_lhs))
        assertion(equal(k_lhs, k_rhs), words, inputs)
    if len(lhs) < 2 or len(rhs) < 2:
        return
    predicate: SSAValue | None = None
    for a, b in zip(reversed(lhs[:-2]), reversed(rhs[:-2])):
        if size_key(a) == size_key(b) or 1 in (a, b) or (isinstance(a, int) and isinstance(b, int)):
            continue
        fits = equal(a, b)
        for size in (a, b):
            if not isinstance(size, int):
                fits = insert_before(rewriter, op, OrOp(fits, equal(size, 1)))
        predicate = fits if predicate is None else insert_before(rewriter, op, AndOp(predicate, fits))
    if predicate is not None:
        inputs = []
        words = matmul_broadcast_words([shown(inputs, n) for n in lhs], [shown(inputs, n) for n in rhs])
        assertion(predicate, words, inputs)


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MakeExplicitPass(TypedOptionsPass):
    """Make every implicit broadcast an explicit ``broadcast_in_dim``.

    Options:

    - degenerate: ``expand`` (default) lets ``broadcast_in_dim`` expand size-1
      dims; ``reshape`` drops them with ``reshape`` first (HLO style).
    """

    name = "bcast-make-explicit"

    degenerate: Degenerate = "expand"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        degenerate = self.degenerate
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    MakeBinaryBroadcastExplicit(degenerate),
                    MakeSelectBroadcastExplicit(degenerate),
                    NormalizeBroadcastInDim(degenerate),
                    NarrowToReshape(),
                    MakeExtractIndicesExplicit(),
                    MakeAssignBroadcastExplicit(degenerate),
                    MatmulToDotGeneral(degenerate),
                    CheckDynamicContraction(),
                    CheckDynamicSliceSizes(),
                    CheckDynamicUpdateSizes(),
                    CheckDynamicScatterSizes(),
                    CheckDynamicArgReduce(),
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
            walk_reverse=False,
        ).rewrite_module(op)
