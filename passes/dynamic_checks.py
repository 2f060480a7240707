"""Canonicalization of the explicit dynamic form: fewer run-time checks
(docs/ir.md, "The explicit dynamic form"; the count against CHLO's
legalization is in docs/performance.md, "Run-time checks").

Sizes are compared by *key* (``size_key``): a literal, or the SSA value a
size reduces to once ``dim`` is seen through the ops that keep a size
(a ``dynamic_broadcast_in_dim``'s output sizes, unary ops, conversions,
reductions, and elementwise ops whose operands have one size).
Two sizes with the same key are equal at run time. On that footing:

- a checked dim whose sizes have one key (1s aside unless ``strict``) is
  proven and dropped (``RemoveProvenChecks``);
- a checked dim whose sizes an earlier, dominating check already checked
  together is implied and dropped (``RemoveImpliedChecks``): a later check
  on the same sizes is thereby *merged* into the earliest one, which is
  the one that reports, as the earliest op in program order fails first;
- size ops (``dim``, ``broadcast_size``) rise to just after what they read,
  and a check rises over every op that cannot fail at run time
  (``HoistSizeOp``, ``HoistCheck``), so checks of argument sizes end at
  function entry, before any computation, and fusion finds none between
  the ops it fuses.

A check never moves over an op that can fail (another check, a
``dynamic_broadcast_in_dim`` not proven by the checks before it, an
implicit broadcast of ``?`` dims, an index access, a region): so the first
failure of a program, its message and its location, are those of the
program as written. Checks move within their block only.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Hashable

import numpy as np

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from bcast.ir import rules
from bcast.ir.ops import (
    BinaryOp,
    BroadcastInDimOp,
    BroadcastSizeOp,
    CheckBroadcastableOp,
    ConstantOp,
    ConversionOp,
    DimOp,
    DotGeneralOp,
    DynamicBroadcastInDimOp,
    DynamicIotaOp,
    DynamicReshapeOp,
    IotaOp,
    ReduceOp,
    ReshapeOp,
    ShapeAssertionOp,
    SizeFromTensorOp,
    SortOp,
    SizeToTensorOp,
    SIZED_BY_OPERANDS,
    TernaryOp,
    TransposeOp,
    UnaryOp,
)
from bcast.ir.types import dense_i64, flat_type_shape, is_dynamic_type, is_nested, numpy_dtype
from bcast.passes.rewriting import replace

SizeKey = Hashable
"""A literal size as ``("literal", n)``, else an SSA value or ``("dim", value, d)``."""

ONE = ("literal", 1)


# --------------------------------------------------------------------------
# Size keys
# --------------------------------------------------------------------------


def _size_sources(value: SSAValue, dim: int) -> list[tuple[SSAValue, int]] | None:
    """The tensor dims whose sizes equal ``value``'s dim ``dim`` when they
    are one size, for the ops that keep sizes: a unary op's or reduction's
    operand, an elementwise op's operands of its rank (equal only if their
    keys agree), the operand dim a ``dot_general``'s result dim has or a
    transpose moves, a sort's values and keys; None for other ops and for nested types, whose flat dims
    these rules do not follow."""
    op = value.owner
    if not isinstance(op, Operation) or is_nested(value.type):
        return None
    if isinstance(op, UnaryOp | ConversionOp):
        return [(op.operands[0], dim)]
    if isinstance(op, ReduceOp) and not is_nested(op.operand.type):
        reduced = op.reduced_dims
        if op.keeps_dims:
            return None if dim in reduced else [(op.operand, dim)]
        kept = [d for d in range(len(flat_type_shape(op.operand.type))) if d not in reduced]
        return [(op.operand, kept[dim])]
    if isinstance(op, DotGeneralOp):
        return [op.result_source(dim)]
    if isinstance(op, TransposeOp):
        return [(op.operand, op.perm[dim])]
    if isinstance(op, SortOp):  # values and keys have one run-time shape (check_sort)
        return [(v, dim) for v in op.operands]
    if isinstance(op, BinaryOp | TernaryOp):
        rank = len(flat_type_shape(value.type))
        if any(is_nested(v.type) or len(flat_type_shape(v.type)) != rank for v in op.operands):
            return None
        return [(v, dim) for v in op.operands]
    return None


def tensor_dim_key(value: SSAValue, dim: int) -> SizeKey:
    """The key of the run-time size of ``value``'s flat dim ``dim``: a
    literal, the size of the broadcast that made it, or the one size of the
    dims it keeps. Iterative and keyed once per (tensor, dim): a chain of
    elementwise ops is as deep as the program, and each op reads every
    operand's key (recursing twice per op was exponential). Inside a
    canonicalize pattern the keys are kept across calls (``KeyedOnce``), so
    asking of every op of a chain walks it once, not once per op."""
    cache = getattr(_caches, "active", None)
    keys: dict[tuple[SSAValue, int], SizeKey] = cache.keys if cache is not None else {}
    pending = [(value, dim)]
    for _ in range(KEY_WALK_LIMIT):
        if not pending:
            break
        v, d = pending[-1]
        if (v, d) in keys:
            pending.pop()
            continue
        shape = flat_type_shape(v.type)
        if isinstance(shape[d], int):
            _found(keys, cache, (v, d), ("literal", shape[d]), ())
            pending.pop()
            continue
        if isinstance(v.owner, SIZED_BY_OPERANDS):
            size = v.owner.mixed_sizes()[d]
            if isinstance(size, SSAValue) and isinstance(size.owner, DimOp):
                source = (size.owner.operand, size.owner.dim)
                if source not in keys:
                    pending.append(source)
                    continue
                _found(keys, cache, (v, d), keys[source], (source[0], size))
            else:
                _found(keys, cache, (v, d), size_key(size), ())
            pending.pop()
            continue
        sources = _size_sources(v, d) or []
        missing = [s for s in sources if s not in keys]
        if missing:
            pending.extend(missing)
            continue
        found = {keys[s] for s in sources}
        _found(keys, cache, (v, d), found.pop() if len(found) == 1 else ("dim", v, d), [s for s, _ in sources])
        pending.pop()
    return keys.get((value, dim), ("dim", value, dim))  # past the limit: a key of its own (sound, proves less)


def _found(keys: dict, cache: KeyCache | None, entry: tuple[SSAValue, int], key: SizeKey,
           read: Sequence[SSAValue]) -> None:
    """Record ``entry``'s key and, when kept across calls, the values it was read from."""
    keys[entry] = key
    if cache is not None:
        for source in (entry[0], *read):
            cache.dependents.setdefault(source, set()).add(entry)


class KeyCache:
    """The size keys found during one canonicalize worklist (one rewriter).
    A key read from an op is dropped when the rewriter reports that op
    modified, replaced or erased, and so is every key read from its results,
    down the chain: the others still describe the IR as it is."""

    def __init__(self, rewriter: PatternRewriter):
        self.keys: dict[tuple[SSAValue, int], SizeKey] = {}
        self.dependents: dict[SSAValue, set[tuple[SSAValue, int]]] = {}
        rewriter.operation_modification_handler.append(self.forget)
        rewriter.operation_removal_handler.append(self.forget)
        rewriter.operation_replacement_handler.append(lambda op, _new: self.forget(op))

    def forget(self, op: Operation) -> None:
        pending = list(op.results)
        while pending:
            for entry in self.dependents.pop(pending.pop(), ()):
                if self.keys.pop(entry, None) is not None:
                    pending.append(entry[0])


_caches = threading.local()
"""Per thread (two threads may canonicalize two modules at once):
``active``, the cache of the pattern running now (absent outside
canonicalize: other passes and the lowerings ask of an IR they do not
change meanwhile), and ``last``, the last rewriter seen with its cache,
reused by the next pattern call with that rewriter."""


class KeyedOnce(RewritePattern):
    """Runs ``pattern`` with size keys kept across the calls made with one
    rewriter (canonicalize's worklist reuses one rewriter until it is empty)."""

    def __init__(self, pattern: RewritePattern):
        self.pattern = pattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        last = getattr(_caches, "last", None)
        if last is None or last[0] is not rewriter:
            last = _caches.last = (rewriter, KeyCache(rewriter))
        previous = getattr(_caches, "active", None)
        _caches.active = last[1]
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        finally:
            _caches.active = previous


KEY_WALK_LIMIT = 1024
"""At most this many (tensor, dim) steps per key: a key is asked of every
op, so an unbounded walk down a long elementwise chain is quadratic."""


def size_key(size: int | SSAValue) -> SizeKey:
    """The key of a literal or SSA size (``dim`` seen through)."""
    if isinstance(size, int):
        return ("literal", size)
    if isinstance(size.owner, SizeFromTensorOp) and (source := size_of_size_tensor(size.owner)) is not None:
        return size_key(source)
    if isinstance(size.owner, DimOp):
        return tensor_dim_key(size.owner.operand, size.owner.dim)
    return size


def size_of_size_tensor(op: SizeFromTensorOp) -> SSAValue | None:
    """The size ``%n`` that ``size_from_tensor`` of ``size_to_tensor %n``
    gives back; None for any other operand, and for a tensor type too narrow
    for a size (its run-time error is kept)."""
    source = op.operand.owner
    if isinstance(source, SizeToTensorOp) and numpy_dtype(source.result.type).itemsize >= 4:
        return source.size
    return None


def _landing_keys(op: CheckBroadcastableOp, dim: int) -> set[SizeKey]:
    """The keys of the sizes landing on result dim ``dim``, 1s aside unless strict."""
    keys = {size_key(s) for shape, dims in zip(op.shapes(), op.landing_dims()) for s, d in zip(shape, dims) if d == dim}
    return keys if op.is_strict else keys - {ONE}


# --------------------------------------------------------------------------
# Proven and implied checks
# --------------------------------------------------------------------------


def _proven(op: CheckBroadcastableOp, dim: int) -> bool:
    """The sizes landing on ``dim`` pass whatever their run-time values:
    one key (1s aside unless strict)."""
    return len(_landing_keys(op, dim)) <= 1


class RemoveProvenChecks(RewritePattern):
    """A checked dim whose sizes are proven to pass (constants, the same SSA
    size) is no longer checked; a check left with nothing to check is removed."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CheckBroadcastableOp, rewriter: PatternRewriter, /):
        _drop_checked(op, rewriter, lambda d: _proven(op, d))


def _drop_checked(op: CheckBroadcastableOp, rewriter: PatternRewriter, passes) -> None:
    """Stop checking the dims for which ``passes(dim)``; erase a check left empty."""
    checked = op.checked.get_values()
    kept = [d for d in checked if not passes(d)]
    if not kept:
        rewriter.erase(op)
    elif len(kept) < len(checked):
        if op.notes is not None:  # one note per checked dim
            notes = [n for d, n in zip(checked, op.notes.data) if d in kept]
            op.notes = ArrayAttr(notes) if any(n.data for n in notes) else None
        op.checked = dense_i64(kept)
        rewriter.handle_operation_modification(op)


def earlier_ops(op: Operation) -> Iterator[Operation]:
    """The ops that dominate ``op``: those before it in its block, then those
    before its parent op, and so on (bcast's regions have one block)."""
    while op is not None:
        earlier = op.prev_op
        while earlier is not None:
            yield earlier
            earlier = earlier.prev_op
        op = op.parent_op()


def _within(key: SizeKey, checked: set[SizeKey]) -> bool:
    """Whether ``key`` is one of the sizes a passed check found broadcastable
    together, or a ``broadcast_size`` of such sizes (which is their common
    size or 1, so broadcastable with them too). Iterative: a long chain of
    ``broadcast_size`` must not recurse once per link."""
    pending, seen = [key], set()
    while pending:
        key = pending.pop()
        if key in checked or key == ONE or key in seen:
            continue
        seen.add(key)
        owner = key.owner if isinstance(key, SSAValue) else None
        if not isinstance(owner, BroadcastSizeOp):
            return False
        pending.extend(size_key(s) for s in owner.operands)
    return True


def _checked_together(check: CheckBroadcastableOp, dim: int, expand: bool, memo: dict | None = None) -> set[SizeKey]:
    """The sizes ``check`` proves broadcastable together at ``dim`` when it
    passes: those landing there and, with ``expand``, the sizes of each
    ``broadcast_size`` among them whose own sizes an earlier check found
    broadcastable directly (each is 1 or that broadcast size, so broadcastable
    with the rest; not equal to it, so never for a strict proof). ``memo``
    keeps the sets found during one rewrite (each check asks of every
    earlier one, which asks of theirs)."""
    if memo is not None and (found := memo.get((check, dim, expand))) is not None:
        return found
    keys = _landing_keys(check, dim)
    if not expand:
        return keys
    before = [e for e in earlier_ops(check) if isinstance(e, CheckBroadcastableOp)]
    pending = list(keys)
    while pending:
        key = pending.pop()
        owner = key.owner if isinstance(key, SSAValue) else None
        if isinstance(owner, BroadcastSizeOp) and _broadcastable_given(owner.operands, before, False, memo):
            new = {size_key(s) for s in owner.operands} - keys - {ONE}
            keys |= new
            pending.extend(new)
    if memo is not None:
        memo[check, dim, expand] = keys
    return keys


def _reachable(keys: set[SizeKey]) -> set[SizeKey]:
    """``keys`` and the sizes of the ``broadcast_size`` among them, again and
    again: what ``_checked_together`` can add at most (a cheap filter before
    its proofs)."""
    found, pending = set(keys), list(keys)
    while pending:
        key = pending.pop()
        if isinstance(key, SSAValue) and isinstance(key.owner, BroadcastSizeOp):
            new = {size_key(s) for s in key.owner.operands} - found
            found |= new
            pending.extend(new)
    return found


def _implies(earlier: CheckBroadcastableOp, keys: set[SizeKey], strict: bool, expand: bool = True,
             memo: dict | None = None) -> bool:
    """Whether ``earlier`` passing proves ``keys`` broadcastable (equal when
    ``strict``): at some dim ``earlier`` checks, they are among its sizes.
    A non-strict check does not prove a strict one (a 1 passes it)."""
    if strict and not earlier.is_strict:
        return False
    for d in earlier.checked.get_values():
        direct = _landing_keys(earlier, d)
        if all(_within(k, direct) for k in keys):
            return True
        if expand and not strict and all(_within(k, _reachable(direct)) for k in keys) \
                and all(_within(k, _checked_together(earlier, d, True, memo)) for k in keys):
            return True
    return False


class RemoveImpliedChecks(RewritePattern):
    """A checked dim whose sizes an earlier dominating check already checked
    together (the same sizes, a subset, or their ``broadcast_size``) cannot
    fail: the earlier check would have failed first. This merges checks on
    the same sizes into the earliest, whose op is the one NumPy reports."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CheckBroadcastableOp, rewriter: PatternRewriter, /):
        earlier = [e for e in earlier_ops(op) if isinstance(e, CheckBroadcastableOp)]
        memo: dict = {}
        if earlier:
            _drop_checked(op, rewriter, lambda d: any(
                _implies(e, _landing_keys(op, d), op.is_strict, memo=memo) for e in earlier))


# --------------------------------------------------------------------------
# dim of a known size
# --------------------------------------------------------------------------


class DimOfKnownSize(RewritePattern):
    """``dim`` of a ``dynamic_broadcast_in_dim`` (``dynamic_reshape``,
    ``dynamic_iota``: ``SIZED_BY_OPERANDS``) is its SSA output size; ``dim``
    of an op that keeps sizes (convert, unary, reduce, an
    elementwise op whose operands have one size) is that of its source: so
    later checks see the same SSA size where the size is the same."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DimOp, rewriter: PatternRewriter, /):
        source = op.operand.owner
        if isinstance(source, SIZED_BY_OPERANDS):
            size = source.mixed_sizes()[op.dim]
            if isinstance(size, SSAValue):
                replace(rewriter, op, [], [size])
            return
        # the end of the chain of ops that keep this size, in one step (one
        # link at a time would walk the chain once per link)
        key = tensor_dim_key(op.operand, op.dim)
        if isinstance(key, SSAValue):
            replace(rewriter, op, [], [key])
        elif isinstance(key, tuple) and key[0] == "dim" and (key[1], key[2]) != (op.operand, op.dim):
            replace(rewriter, op, DimOp(key[1], key[2]))


class BroadcastSizeOfOneSize(RewritePattern):
    """``broadcast_size`` of sizes with one key (1s aside) is that size:
    ``broadcast_size %n, %n`` -> ``%n``; repeated sizes are listed once."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastSizeOp, rewriter: PatternRewriter, /):
        first: dict[SizeKey, SSAValue] = {}
        for s in op.operands:
            first.setdefault(size_key(s), s)
        others = [s for k, s in first.items() if k != ONE]
        if len(others) == 1:
            replace(rewriter, op, [], [others[0]])
        elif len(first) < len(op.operands):
            replace(rewriter, op, BroadcastSizeOp(list(first.values())))


class FlattenBroadcastSize(RewritePattern):
    """A ``broadcast_size`` among the sizes of a ``broadcast_size`` is its own
    sizes in its place: the first size that is not 1 is the same either way.
    When that adds nothing (``broadcast_size (broadcast_size %a, %b), %b``,
    what a chain of ops broadcasting against one row gives), the inner one
    is the result, so the chain's sizes become one SSA value and its checks
    prove one another."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastSizeOp, rewriter: PatternRewriter, /):
        if not any(isinstance(s.owner, BroadcastSizeOp) for s in op.operands):
            return
        flat: dict[SSAValue, None] = {}
        for s in op.operands:
            flat.update(dict.fromkeys(s.owner.operands if isinstance(s.owner, BroadcastSizeOp) else [s]))
        inner = next((s for s in op.operands if isinstance(s.owner, BroadcastSizeOp)
                      and list(flat) == list(dict.fromkeys(s.owner.operands))), None)
        if inner is not None:
            replace(rewriter, op, [], [inner])
        else:
            replace(rewriter, op, BroadcastSizeOp(list(flat)))


class ReuseEarlierBroadcastSize(RewritePattern):
    """A ``broadcast_size`` of the same sizes as an earlier one in its block
    is that one (a local CSE): the checks and broadcasts that read it see
    one SSA size within a single canonicalization."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastSizeOp, rewriter: PatternRewriter, /):
        sizes = list(op.operands)
        for use in sizes[0].uses:
            other = use.operation
            if other is not op and isinstance(other, BroadcastSizeOp) and other.parent is op.parent \
                    and list(other.operands) == sizes and other.is_before_in_block(op):
                replace(rewriter, op, [], [other.result])
                return


class StaticDynamicBroadcastToBroadcast(RewritePattern):
    """A ``dynamic_broadcast_in_dim`` whose operand and output sizes are all
    literals is a ``broadcast_in_dim`` (the verifier already checked that
    each operand dim fits; StableHLO's canonicalize-dynamism does the same)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicBroadcastInDimOp, rewriter: PatternRewriter, /):
        if op.output_sizes or not _static(op) or is_nested(op.operand.type):
            return
        replace(rewriter, op, BroadcastInDimOp(op.operand, op.dims, op.result.type))


class StaticDynamicReshapeToReshape(RewritePattern):
    """A ``dynamic_reshape`` between static types is a ``reshape``: its sizes
    are then all literals, the result type's (StableHLO's
    canonicalize-dynamism does the same)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicReshapeOp, rewriter: PatternRewriter, /):
        if op.output_sizes or not _static(op) or is_nested(op.operand.type):
            return
        replace(rewriter, op, ReshapeOp(op.operand, op.result.type))


class StaticDynamicIotaToIota(RewritePattern):
    """A ``dynamic_iota`` of a static type is an ``iota``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicIotaOp, rewriter: PatternRewriter, /):
        if op.output_sizes or not _static(op) or is_nested(op.result.type):
            return
        replace(rewriter, op, IotaOp(op.dim, op.result.type))
class FoldDynamicBroadcastOfUnitDimReshape(RewritePattern):
    """``dynamic_broadcast_in_dim(reshape(x : 3 -> 1x3), [%n, 3], [0, 1])`` ->
    ``dynamic_broadcast_in_dim(x, [%n, 3], [1])``, as
    ``FoldBroadcastOfUnitDimReshape`` for static broadcasts: a reshape that
    only inserts size-1 dims folds into the broadcast (JAX writes a bias as
    that reshape; folded, the bias is read in place by the fusion, not
    copied first). The kept dims keep their known facts."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicBroadcastInDimOp, rewriter: PatternRewriter, /):
        reshape = op.operand.owner
        if not isinstance(reshape, ReshapeOp) or is_nested(reshape.operand.type) or is_nested(op.result.type):
            return
        source = reshape.operand
        positions = rules.unit_dim_embedding(flat_type_shape(source.type), flat_type_shape(reshape.result.type))
        if positions is None:
            return
        kept = {p: k for k, p in enumerate(positions)}
        replace(rewriter, op, DynamicBroadcastInDimOp(
            source, op.mixed_sizes(), [op.dims[p] for p in positions], op.result.type,
            [kept[k] for k in op.expanding if k in kept], [kept[k] for k in op.nonexpanding if k in kept]))


class FillNonexpandingFacts(RewritePattern):
    """An operand dim whose size has the key of its output size (one source
    at run time) is known nonexpanding: the fact bcast-fuse reads to keep a
    row in place (``bcast.ir.fusion.maps_rows``) and the loop lowering reads
    to index it with no run-time step."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicBroadcastInDimOp, rewriter: PatternRewriter, /):
        if is_nested(op.operand.type):
            return
        sizes, known = op.mixed_sizes(), set(op.expanding) | set(op.nonexpanding)
        operand = flat_type_shape(op.operand.type)
        found = [k for k, d in enumerate(op.dims) if k not in known and not isinstance(operand[k], int)
                 and tensor_dim_key(op.operand, k) == size_key(sizes[d])]
        if not found:
            return
        replace(rewriter, op, DynamicBroadcastInDimOp(op.operand, sizes, op.dims, op.result.type, op.expanding,
                                                      sorted({*op.nonexpanding, *found})))


# --------------------------------------------------------------------------
# Hoisting
# --------------------------------------------------------------------------


def _broadcastable_given(sizes: Sequence[int | SSAValue], checks: Sequence[CheckBroadcastableOp],
                         expand: bool = True, memo: dict | None = None) -> bool:
    """Whether ``sizes`` are broadcastable together once ``checks`` passed."""
    keys = {size_key(s) for s in sizes} - {ONE}
    return len(keys) <= 1 or any(_implies(c, keys, False, expand, memo) for c in checks)


def _fits(operand: SizeKey, output: SizeKey, checks: Sequence[CheckBroadcastableOp]) -> bool:
    """Whether an operand dim of size ``operand`` is 1 or ``output``: the same
    key, a 1, or one of the sizes of a checked ``broadcast_size``."""
    if operand in (ONE, output):
        return True
    owner = output.owner if isinstance(output, SSAValue) else None
    return isinstance(owner, BroadcastSizeOp) and operand in {size_key(s) for s in owner.operands} \
        and _broadcastable_given(owner.operands, checks)


def _dbid_proven(op: DynamicBroadcastInDimOp, checks: Sequence[CheckBroadcastableOp]) -> bool:
    """Whether every operand dim of ``op`` is proven 1 or its output size,
    keeping its known facts, given that ``checks`` (before it) passed."""
    sizes = op.mixed_sizes()
    for k, d in enumerate(op.dims):
        operand, output = tensor_dim_key(op.operand, k), size_key(sizes[d])
        if k in op.expanding:
            ok = operand == ONE
        elif k in op.nonexpanding:
            ok = operand == output
        else:
            ok = _fits(operand, output, checks)
        if not ok:
            return False
    return True


def _operands_of_one_size(op: Operation) -> bool:
    """Whether an elementwise op's operands have the result's rank and, dim
    by dim, one size key (so its implicit broadcasting cannot fail)."""
    result = op.results[0]
    if any(is_nested(v.type) for v in (*op.operands, result)):
        return False
    rank = len(flat_type_shape(result.type))
    if any(len(flat_type_shape(v.type)) != rank for v in op.operands):
        return False
    return all(len({tensor_dim_key(v, d) for v in op.operands}) == 1 for d in range(rank))


def _static(op: Operation) -> bool:
    return not any(is_dynamic_type(t) for t in (*op.operand_types, *op.result_types))


def cannot_fail(op: Operation, checks: Sequence[CheckBroadcastableOp] | None = None) -> bool:
    """Whether ``op`` can never fail at run time (given the checks before
    it passed), so a check may move above it without changing which
    failure a program reports first. ``checks`` are the checks before
    ``op`` when the caller knows them (walking the block again for every op
    made hoisting quadratic)."""
    if isinstance(op, DimOp | BroadcastSizeOp | ConstantOp | arith.ConstantOp):
        return True
    if isinstance(op, CheckBroadcastableOp) or op.regions or not op.name.startswith("bcast."):
        return False
    if isinstance(op, UnaryOp | ConversionOp | ReduceOp):
        return True
    if isinstance(op, TransposeOp | BroadcastInDimOp):
        return _static(op)
    if isinstance(op, DynamicBroadcastInDimOp):
        if checks is None:
            checks = [e for e in earlier_ops(op) if isinstance(e, CheckBroadcastableOp)]
        return _dbid_proven(op, checks)
    if isinstance(op, BinaryOp | TernaryOp):
        return _static(op) or _operands_of_one_size(op)
    return False


def _definers(op: Operation) -> set[Operation]:
    """The ops defining ``op``'s operands (asked once per hoist, not per op passed)."""
    return {v.owner for v in op.operands if isinstance(v.owner, Operation)}


def _move_before(op: Operation, target: Operation, rewriter: PatternRewriter) -> None:
    op.detach()
    rewriter.insert(op, InsertPoint.before(target))


class HoistSizeOp(RewritePattern):
    """``dim`` and ``broadcast_size`` (pure, they cannot fail) move up to just
    after what they read, over anything but other size ops (so size ops keep
    their order and the rewriting ends)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, DimOp | BroadcastSizeOp):
            return
        target, earlier, definers = None, op.prev_op, _definers(op)
        while earlier is not None and earlier not in definers \
                and not isinstance(earlier, DimOp | BroadcastSizeOp):
            target, earlier = earlier, earlier.prev_op
        if target is not None:
            _move_before(op, target, rewriter)


class HoistCheck(RewritePattern):
    """A check moves up over the ops that cannot fail (``cannot_fail``) and do
    not define its sizes; it stops at a size op, so size ops (which rise over
    checks) end above it. Checks of argument sizes so end at function entry."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CheckBroadcastableOp, rewriter: PatternRewriter, /):
        # checks stop the walk, so the ops it passes have op's earlier checks
        checks = [e for e in earlier_ops(op) if isinstance(e, CheckBroadcastableOp)]
        target, earlier, definers = None, op.prev_op, _definers(op)
        while earlier is not None and earlier not in definers \
                and not isinstance(earlier, DimOp | BroadcastSizeOp) and cannot_fail(earlier, checks):
            target, earlier = earlier, earlier.prev_op
        if target is not None:
            _move_before(op, target, rewriter)


# --------------------------------------------------------------------------
# Sizes as tensors (JAX's shape-polymorphic exports) and assertions
# --------------------------------------------------------------------------


class SizeOfSizeTensor(RewritePattern):
    """``size_from_tensor`` of ``size_to_tensor %n`` is ``%n`` (JAX passes a
    dimension variable as a tensor read by ``get_dimension_size``; this makes
    the sizes it gives the ``dim`` they came from, the same SSA value as the
    argument's own). A tensor type too narrow for a size is not seen through:
    its run-time error is kept (``size_of_size_tensor``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SizeFromTensorOp, rewriter: PatternRewriter, /):
        if (source := size_of_size_tensor(op)) is not None:
            rewriter.replace_all_uses_with(op.results[0], source)
            rewriter.erase(op)


class RemoveIdentityDynamicBroadcast(RewritePattern):
    """A ``dynamic_broadcast_in_dim`` onto its operand's own type, dims in
    order, whose every SSA size is the operand's own size there (its ``dim``,
    or the same size of the ``dynamic_broadcast_in_dim`` that made it),
    changes nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicBroadcastInDimOp, rewriter: PatternRewriter, /):
        if op.operand.type != op.result.type or list(op.dims) != list(range(len(op.dims))):
            return
        source = op.operand.owner
        known = source.mixed_sizes() if isinstance(source, DynamicBroadcastInDimOp) else None
        for d, size in enumerate(op.mixed_sizes()):
            own = isinstance(size.owner, DimOp) and size.owner.operand == op.operand and size.owner.dim == d \
                if isinstance(size, SSAValue) else True
            if not own and not (known is not None and known[d] is size) and d not in op.nonexpanding:
                return
        rewriter.replace_all_uses_with(op.results[0], op.operand)
        rewriter.erase(op)


class RemoveTrueShapeAssertion(RewritePattern):
    """A ``shape_assertion`` whose predicate is a true constant is proven."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ShapeAssertionOp, rewriter: PatternRewriter, /):
        constant = op.predicate.owner
        if isinstance(constant, ConstantOp) and bool(np.all(constant.numpy_value())):
            rewriter.erase(op)


DYNAMIC_PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {
    DimOp: (DimOfKnownSize(), HoistSizeOp()),
    BroadcastSizeOp: (BroadcastSizeOfOneSize(), FlattenBroadcastSize(), ReuseEarlierBroadcastSize(), HoistSizeOp()),
    CheckBroadcastableOp: (RemoveProvenChecks(), RemoveImpliedChecks(), HoistCheck()),
    DynamicBroadcastInDimOp: (StaticDynamicBroadcastToBroadcast(), FoldDynamicBroadcastOfUnitDimReshape(),
                              FillNonexpandingFacts(),
                              RemoveIdentityDynamicBroadcast()),
    SizeFromTensorOp: (SizeOfSizeTensor(),),
    DynamicReshapeOp: (StaticDynamicReshapeToReshape(),),
    DynamicIotaOp: (StaticDynamicIotaToIota(),),
    ShapeAssertionOp: (RemoveTrueShapeAssertion(),),
}
"""Patterns written for the explicit dynamic form (not limited to static shapes)."""
