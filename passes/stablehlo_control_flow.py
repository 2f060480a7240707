"""StableHLO's control flow as the import takes it: ``while`` loops with a
trip count known at compile time are unrolled, ``case``/``if`` that are
sound and cheap to flatten become straight-line code, and the others become
bcast's own ``bcast.while``/``bcast.case`` (docs/stablehlo.md, "Control
flow"; docs/ir.md, "Control flow").

Decisions:

- A ``while`` is unrolled when it is a counted loop, the form
  ``jax.lax.fori_loop``, ``jax.lax.scan`` and ``jax.random``'s threefry
  write: the condition compares one carried value against a constant, that
  value starts at a constant and the body adds a constant to it. The trip
  count is found by stepping the counter at compile time with the
  counter's own integer width; in the unrolled copies the counter is a
  constant, so an index it computes (``scan``'s ``dynamic_slice`` of row
  ``i``) folds to a static one, and the copies fuse. A loop of more than
  ``MAX_ITERATIONS`` iterations or more than ``MAX_UNROLLED_OPS`` copied
  ops, and every other loop (a condition that reads data:
  ``jax.lax.while_loop``), becomes ``bcast.while``.
- A ``case`` (``jax.lax.cond``, ``jax.lax.switch``) or ``if`` with a constant
  index runs its branch. With a run-time index, every branch is computed
  and the results selected (an index out of range picks the last branch,
  as the spec says) when that is sound and small: no branch has a ``?`` or
  bounded dim or a ``shape_assertion`` (a run-time check of a branch not
  taken must not fire) or a ``while`` (which need not end in a branch not
  taken), and the branches hold at most ``MAX_FLATTENED_OPS`` ops together
  (every branch's cost is paid). StableHLO's ops have no side effects, so
  then only the cost differs, and the selected form fuses with its
  neighbours. Every other one becomes ``bcast.case`` (an ``if``: the
  index is 0 when the predicate is true, 1 otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, i1, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from bcast.ir import ops as bcast
from bcast.ir.control_flow import CaseOp, WhileOp
from bcast.ir.fusion import YieldOp
from bcast.ir import stablehlo as hlo
from bcast.ir.parser import op_name
from bcast.ir.types import has_dynamic_types, is_integer_dtype, numpy_dtype
from bcast.passes.errors import PassError
from bcast.passes.rewriting import located

MAX_ITERATIONS = 4096
"""The longest loop unrolled."""

MAX_UNROLLED_OPS = 100_000
"""The most ops one loop's unrolled copies may hold."""

MAX_FLATTENED_OPS = 200
"""The most ops the branches of a ``case``/``if`` flattened to selects may
hold together: each is computed whichever is taken."""

_COMPARISONS = {
    "LT": lambda a, b: a < b, "LE": lambda a, b: a <= b, "GT": lambda a, b: a > b,
    "GE": lambda a, b: a >= b, "NE": lambda a, b: a != b, "EQ": lambda a, b: a == b,
}  # fmt: skip


def _constant(value: SSAValue) -> int | None:
    """The integer a rank-0 constant holds (StableHLO's or bcast's)."""
    owner = value.owner
    if isinstance(owner, hlo.ConstantOp):
        array = np.array(owner.value.get_values())
    elif isinstance(owner, bcast.ConstantOp):
        array = owner.numpy_value()
    else:
        return None
    if array.size != 1 or not (array.dtype.kind in "iub" or is_integer_dtype(array.dtype)):
        return None
    return int(array.reshape(()))


_SCALAR_ARITHMETIC = {
    "stablehlo.add": lambda a, b: a + b, "stablehlo.subtract": lambda a, b: a - b,
    "stablehlo.multiply": lambda a, b: a * b,
}  # fmt: skip


def _evaluate(value: SSAValue, known: dict[SSAValue, int]) -> int | None:
    """``value`` at compile time, when it is a known value, a constant or
    integer arithmetic on them (wrapped to its type, as the program's)."""
    if value in known:
        return known[value]
    if (constant := _constant(value)) is not None:
        return constant
    owner = value.owner
    if not isinstance(owner, Operation) or (apply := _SCALAR_ARITHMETIC.get(op_name(owner))) is None:
        return None
    operands = [_evaluate(v, known) for v in owner.operands]
    if None in operands or not isinstance(value.type, TensorType) or value.type.get_shape() != ():
        return None
    return int(np.array(apply(*operands)).astype(numpy_dtype(value.type)))


def _predicate(cond: Block, known: dict[SSAValue, int]) -> bool | None:
    condition = cond.last_op.operands[0].owner if cond.last_op and cond.last_op.operands else None
    if not isinstance(condition, hlo.CompareOp):
        return None
    lhs, rhs = (_evaluate(v, known) for v in condition.operands)
    if lhs is None or rhs is None:
        return None
    if condition.compare_type is not None and condition.compare_type.data == hlo.ComparisonType.UNSIGNED:
        width = 8 * numpy_dtype(condition.lhs.type).itemsize  # the bit patterns, ordered as unsigned
        lhs, rhs = lhs % (1 << width), rhs % (1 << width)
    return _COMPARISONS[condition.comparison_direction.data](lhs, rhs)


def _iterations(op: Operation) -> list[dict[int, int]] | None:
    """The known carried values at the start of each iteration of a counted
    loop: the scalar integers that start as constants and that the body
    steps by arithmetic on known values and constants (a counter, a limit
    carried unchanged, ``fori_loop``'s second counter), when the condition
    reads known values only; None for any other loop or one past the limit."""
    cond, body = (r.block for r in op.regions)
    returned = body.last_op.operands if body.last_op else ()
    known = {k: c for k, v in enumerate(op.operands) if (c := _constant(v)) is not None}
    while True:  # drop the values the body computes from unknown ones, until none is
        probe = {body.args[k]: c for k, c in known.items()}
        kept = {k: c for k, c in known.items() if _evaluate(returned[k], probe) is not None}
        if kept.keys() == known.keys():
            break
        known = kept
    iterations: list[dict[int, int]] = []
    while (taken := _predicate(cond, {cond.args[k]: c for k, c in known.items()})) is not None and taken:
        iterations.append(known)
        if len(iterations) > MAX_ITERATIONS:
            return None
        step = {body.args[k]: c for k, c in known.items()}
        known = {k: _evaluate(returned[k], step) for k in known}
    return None if taken is None else iterations


def _unroll(op: Operation) -> None:
    """``op``'s body copied once per iteration before it, its known carried
    values constants in each copy; ``op``'s results are the last copy's."""
    iterations = _iterations(op)
    body = op.regions[1].block
    if iterations is None or len(iterations) * len(body.ops) > MAX_UNROLLED_OPS:
        _to_regions(op, WhileOp(list(op.operands), *_detached_regions(op)))
        return
    values: list[SSAValue] = list(op.operands)
    for known in iterations:
        for k, c in known.items():
            t = op.operands[k].type
            values[k] = _insert(op, bcast.ConstantOp(np.array(c, dtype=numpy_dtype(t)), t))
        values = _inline_copy(body, values, op)
    for result, value in zip(op.results, values):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(op)


def _insert(before: Operation, new: Operation) -> SSAValue:
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new.results[0]


def _inline_copy(block: Block, arguments: Sequence[SSAValue], before: Operation) -> list[SSAValue]:
    """A copy of ``block``'s ops before ``before`` with its arguments bound to
    ``arguments``; the values its terminator returns."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, arguments))
    terminator = block.last_op
    for inner in block.ops:
        if inner is terminator:
            break
        copy = inner.clone(value_mapper=mapping)
        Rewriter.insert_op(copy, InsertPoint.before(before))
        mapping.update(zip(inner.results, copy.results))
    return [mapping.get(v, v) for v in terminator.operands]


def _flatten_branches(op: Operation) -> None:
    """``case``/``if`` as straight-line code: the taken branch when the index
    is a constant, else every branch and a select of their results."""
    if op_name(op) == "stablehlo.if":
        branches = [op.regions[0].block, op.regions[1].block]  # true, false: index 0 is the true branch
        predicate = op.operands[0]
        flag = _constant(predicate)
        index, constant = None, (None if flag is None else (0 if flag else 1))
    else:
        branches = [r.block for r in op.regions]
        index = op.operands[0]
        constant = _constant(index)
        if constant is not None and not 0 <= constant < len(branches):
            constant = len(branches) - 1
    if constant is not None:
        results = _inline_copy(branches[constant], [], op)
    elif not _flattenable(op, branches):
        if index is None:
            zero, one = (_insert(op, bcast.ConstantOp(np.array(k, np.int32), TensorType(i32, []))) for k in (0, 1))
            index = _insert(op, hlo.SelectOp(predicate, zero, one))
        regions = _detached_regions(op)
        _to_regions(op, CaseOp(index, [r.type for r in op.results], regions))
        return
    else:
        computed = [_inline_copy(b, [], op) for b in branches]
        results = list(computed[-1])
        for b in reversed(range(len(branches) - 1)):
            if index is None:  # if: branch 0 is taken when the predicate is true
                taken = predicate
            else:
                number = _insert(op, bcast.ConstantOp(np.array(b, dtype=numpy_dtype(index.type)), index.type))
                taken = _insert(op, hlo.CompareOp("EQ", index, number, result_type=TensorType(i1, [])))
            results = [_insert(op, hlo.SelectOp(taken, mine, rest)) for mine, rest in zip(computed[b], results)]
    for result, value in zip(op.results, results):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(op)


def _flattenable(op: Operation, branches: Sequence[Block]) -> bool:
    """Whether selecting over every branch's results is sound and cheap
    (the rule of the module docstring)."""
    inner = [o for b in branches for o in b.walk()]
    if has_dynamic_types(op) or any(has_dynamic_types(o) for o in inner):
        return False
    if any(op_name(o) == "stablehlo.while" or _is_check(o) for o in inner):
        return False
    return len(inner) - len(branches) <= MAX_FLATTENED_OPS  # their terminators aside


def _is_check(op: Operation) -> bool:
    from bcast.passes.stablehlo_to_bcast import is_shape_assertion  # the import's own test

    return is_shape_assertion(op) or isinstance(op, bcast.ShapeAssertionOp | bcast.CheckBroadcastableOp)


def _detached_regions(op: Operation) -> list[Region]:
    """``op``'s regions, taken out of it, each ending with ``bcast.yield``."""
    regions = list(op.regions)
    for region in regions:
        op.detach_region(region)
        terminator = region.block.last_op
        Rewriter.replace_op(terminator, located(YieldOp(list(terminator.operands)), terminator))
    return regions


def _to_regions(op: Operation, new: Operation) -> None:
    """``op`` replaced by bcast's region op ``new``, at its location."""
    Rewriter.replace_op(op, located(new, op))


def _check_branches(op: Operation) -> None:
    """StableHLO's verifier rules for ``case``/``if`` that flattening relies
    on (it is not a registered op, so nothing checked them before): a rank-0
    index or predicate, at least one branch, and branches that take no
    arguments and return the op's result types."""
    expected = TensorType(i1, []) if op_name(op) == "stablehlo.if" else None
    selector = op.operands[0].type if len(op.operands) == 1 else None
    if not isinstance(selector, TensorType) or selector.get_shape() != () or (
            expected is not None and selector != expected):
        raise PassError(op, f"takes one rank-0 {'i1' if expected else 'integer'} tensor operand, got "
                        + ", ".join(str(o.type) for o in op.operands))
    if not op.regions:
        raise PassError(op, "expects at least one branch")
    types = [r.type for r in op.results]
    for k, region in enumerate(op.regions):
        block = region.blocks.first
        if block is None or region.blocks.last is not block or block.args or block.last_op is None:
            raise PassError(op, f"branch {k} must be one block without arguments")
        returned = [v.type for v in block.last_op.operands]
        if len(returned) != len(types) or not all(map(_compatible, returned, types)):
            raise PassError(op, f"branch {k} returns ({', '.join(map(str, returned))}), "
                            f"the op's results are ({', '.join(map(str, types))})")


def _compatible(a, b) -> bool:
    """StableHLO's type compatibility: equal, or tensors of one element type
    and rank whose sizes agree wherever both are static."""
    if not (isinstance(a, TensorType) and isinstance(b, TensorType)):
        return a == b
    return a.element_type == b.element_type and len(a.get_shape()) == len(b.get_shape()) and all(
        x == y or x == DYNAMIC_INDEX or y == DYNAMIC_INDEX for x, y in zip(a.get_shape(), b.get_shape()))


def _outermost(module: ModuleOp, names: tuple[str, ...]) -> Operation | None:
    """The first op named in ``names`` in program order, outer before inner:
    unrolling an outer loop makes the counter an inner loop's limit may
    read a constant in each copy."""
    return next((op for op in module.walk() if op_name(op) in names), None)


def flatten_control_flow(module: ModuleOp) -> None:
    """Every ``while``, ``case`` and ``if`` of ``module`` unrolled,
    flattened, or made ``bcast.while``/``bcast.case``; an invalid
    ``case``/``if`` is bad input (``_check_branches``)."""
    while (op := _outermost(module, ("stablehlo.while", "stablehlo.case", "stablehlo.if"))) is not None:
        if op_name(op) != "stablehlo.while":
            _check_branches(op)
        _unroll(op) if op_name(op) == "stablehlo.while" else _flatten_branches(op)
