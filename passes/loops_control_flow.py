"""``bcast.while`` and ``bcast.case`` in ``bcast-lower-to-loops`` (the C
backend): static control flow as loop IR (docs/ir.md, "Control flow").

Decisions:

- Each region becomes a private ``func.func`` (``outline_regions``),
  lowered as any function is: its arguments are the region's block
  arguments, then the values of the enclosing function it reads (its
  captures); it returns what the region yields. A region's body is then
  an ordinary function body (fusion, buffers, checks of indices), and a
  nested loop or case is outlined from the outlined function in turn.
- ``bcast.while`` is an ``scf.while`` with no carried SSA values: the
  carried values live in buffers (the results' own buffers where they are
  returned). Each iteration calls the ``cond`` function into a rank-0
  ``i1`` buffer and stops when it holds false; else it calls the ``do``
  function, which writes the next values into a second set of buffers,
  and copies them back. Every buffer is allocated once, before the loop,
  and freed when the function returns: a loop of any trip count allocates
  nothing per iteration.
- ``bcast.case`` is a chain of ``scf.if`` on the index (``== 0``, ``== 1``,
  ...), the last branch in the innermost ``else``: an index out of range
  (negative included) takes the last branch, as the op says. Each branch
  calls its function into the case's result buffers, so only the branch
  taken runs.
- C checks a program's broadcasts and shape assertions before the call
  (lowering/c_sizes.py), so a check inside a region would fire even where
  the branch is not taken or the loop stops before it: a control-flow op
  with such a check in a region, or with a ``?`` dim anywhere in it, is
  refused at its location (the reference, numpy and array-api backends
  run it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType, i1
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.control_flow import CONTROL_FLOW_OPS, CaseOp, WhileOp
from bcast.ir.types import flat_type_shape
from bcast.passes.errors import PassError

REFUSED_NOTE = ("the reference, numpy and array-api backends run control flow with '?' dims or run-time "
                "checks in its regions")


@dataclass(frozen=True)
class Outlined:
    """The functions of one control-flow op's regions (in region order) and
    the enclosing function's values they read, passed after the region's own
    arguments."""

    functions: tuple[str, ...]
    captures: tuple[SSAValue, ...]


def outline_regions(module: ModuleOp) -> dict[Operation, Outlined]:
    """Outline the regions of every control-flow op at the top level of a
    function (those of outlined functions too), after refusing the ones C
    cannot run; the new functions are added to ``module``."""
    names = {f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)}
    outlined: dict[Operation, Outlined] = {}
    pending = [f for f in module.ops if isinstance(f, func.FuncOp)]
    while pending:
        function = pending.pop(0)
        if not function.body.blocks:
            continue
        for op in function.body.block.ops:
            if not isinstance(op, CONTROL_FLOW_OPS):
                continue
            _check_runnable(op)
            captures = _captures(op)
            new = []
            for k, region in enumerate(op.regions):
                name = _fresh(names, f"{function.sym_name.data}_{_region_name(op, k)}")
                new.append(_function(name, region, captures))
            for f in new:
                module.body.block.add_op(f)
            pending.extend(new)
            outlined[op] = Outlined(tuple(f.sym_name.data for f in new), captures)
    return outlined


def _region_name(op: Operation, k: int) -> str:
    if isinstance(op, WhileOp):
        return ("while_cond", "while_do")[k]
    return f"case_branch{k}"


def _fresh(names: set[str], base: str) -> str:
    name, n = base, 0
    while name in names:
        n += 1
        name = f"{base}_{n}"
    names.add(name)
    return name


def _check_runnable(op: Operation) -> None:
    for inner in op.walk():
        if isinstance(inner, bc.CheckBroadcastableOp | bc.ShapeAssertionOp):
            raise PassError(op, "is not supported by bcast-lower-to-loops with a run-time check in a region",
                            [REFUSED_NOTE])
        values = [*inner.operands, *inner.results, *(a for r in inner.regions for blk in r.blocks for a in blk.args)]
        for v in values:
            if not isinstance(v.type, TensorType) or rules.is_dynamic(flat_type_shape(v.type)):
                raise PassError(op, f"is not supported by bcast-lower-to-loops with a value of type {v.type} "
                                "in it", [REFUSED_NOTE])


def _captures(op: Operation) -> tuple[SSAValue, ...]:
    """The values of the enclosing function that ``op``'s regions read, in
    order of first read."""
    inside: set[SSAValue] = set()
    for inner in op.walk():
        inside.update(inner.results)
        for region in inner.regions:
            for blk in region.blocks:
                inside.update(blk.args)
    captures: dict[SSAValue, None] = {}
    for region in op.regions:
        for inner in region.walk():
            for v in inner.operands:
                if v not in inside:
                    captures[v] = None
    return tuple(captures)


def _function(name: str, region: Region, captures: tuple[SSAValue, ...]) -> func.FuncOp:
    """``region`` as a private function of its arguments and ``captures``."""
    old = region.block
    inputs = [a.type for a in old.args] + [v.type for v in captures]
    block = Block(arg_types=inputs)
    mapper: dict[SSAValue, SSAValue] = dict(zip([*old.args, *captures], block.args))
    for arg, new_arg in zip([*old.args, *captures], block.args):
        new_arg.name_hint = arg.name_hint
    yielded = old.last_op
    assert yielded is not None
    for inner in old.ops:
        if inner is yielded:
            break
        block.add_op(inner.clone(mapper))
    block.add_op(func.ReturnOp(*(mapper.get(v, v) for v in yielded.operands)))
    outputs = [v.type for v in yielded.operands]
    f = func.FuncOp(name, FunctionType.from_lists(inputs, outputs), Region(block), visibility="private")
    f.location = region.parent_op().location
    return f


def lower_while(lowering, op: WhileOp, outlined: Outlined) -> None:
    """``op`` as an ``scf.while`` over buffers (module docstring)."""
    b = lowering.b
    cond, body = outlined.functions
    captures = [lowering.call_argument(v) for v in outlined.captures]
    current = []
    for v, r in zip(op.inputs, op.outputs):
        target = lowering.buffer(r)
        lowering.store_nest([v], [target], lowering.shape(v))
        current.append(target)
    following = [_scratch(lowering, r.type) for r in op.outputs]
    flag = _scratch(lowering, TensorType(i1, []))
    before, after = Block(), Block()
    loop = scf.WhileOp([], [], Region(before), Region(after))
    b(loop)
    outer = b.builder.insertion_point
    try:
        b.builder.insertion_point = InsertPoint.at_end(before)
        b(func.CallOp(cond, [*current, *captures, flag], []))
        b(scf.ConditionOp(b(memref.LoadOp.get(flag, []))))
        b.builder.insertion_point = InsertPoint.at_end(after)
        b(func.CallOp(body, [*current, *captures, *following], []))
        for source, target, r in zip(following, current, op.outputs):
            _copy(lowering, source, target, flat_type_shape(r.type))
        b(scf.YieldOp())
    finally:
        b.builder.insertion_point = outer
    for r, target in zip(op.outputs, current):
        lowering.written(r, target)


def lower_case(lowering, op: CaseOp, outlined: Outlined) -> None:
    """``op`` as a chain of ``scf.if`` calling the taken branch's function
    into the results' buffers (module docstring)."""
    b = lowering.b
    captures = [lowering.call_argument(v) for v in outlined.captures]
    index = lowering.value_at(op.index, [])
    targets = [lowering.buffer(r) for r in op.outputs]
    outer = b.builder.insertion_point
    try:
        for k, name in enumerate(outlined.functions):
            call = func.CallOp(name, [*captures, *targets], [])
            if k + 1 == len(outlined.functions):
                b(call)
                break
            taken = b(arith.CmpiOp(index, b.int(k, "i32"), "eq"))
            then, otherwise = Block([call, scf.YieldOp()]), Block([scf.YieldOp()])
            b(scf.IfOp(taken, [], Region(then), Region(otherwise)))
            b.builder.insertion_point = InsertPoint.before(otherwise.last_op)
    finally:
        b.builder.insertion_point = outer
    for r, target in zip(op.outputs, targets):
        lowering.written(r, target)


def _scratch(lowering, t) -> SSAValue:
    """A buffer for a value of tensor type ``t``, freed when the function returns."""
    from bcast.passes.lower_to_loops import memref_of

    target = lowering.b(memref.AllocOp([], [], memref_of(t)))
    lowering.owned.append(target)
    return target


def _copy(lowering, source: SSAValue, target: SSAValue, shape: rules.Shape) -> None:
    with lowering.nest(shape, parallel=True) as ivs:
        lowering.b(memref.StoreOp.get(lowering.b(memref.LoadOp.get(source, list(ivs))), target, list(ivs)))

