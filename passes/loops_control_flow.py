"""``bcast.while`` and ``bcast.case`` in ``bcast-lower-to-loops`` (the C
backend): control flow as loop IR (docs/ir.md, "Control flow").

Decisions:

- Each region becomes a private ``func.func`` (``outline_regions``),
  lowered as any function is: its arguments are the region's block
  arguments, then the values of the enclosing function it reads (its
  captures); it returns what the region yields. A region's body is then
  an ordinary function body (fusion, buffers, checks of indices), and a
  nested loop or case is outlined from the outlined function in turn.
- ``bcast.while`` is an ``scf.while`` with no carried SSA values: the
  carried values live in two sets of buffers taken in turn (the first the
  results' own buffers where they are returned), an ``i1`` buffer saying
  which holds the current values. Each iteration calls the ``cond``
  function on them into a rank-0 ``i1`` buffer and stops when it holds
  false; else it calls the ``do`` function, which writes the next values
  into the other set, and flips the turn: nothing is copied per iteration
  (an odd trip count copies the values into the first set once, after the
  loop). Every buffer is allocated once, before the loop, and freed when
  the function returns (the region functions' own temporaries are
  allocated per call, as any function's).
- ``bcast.case`` is a chain of ``scf.if`` on the index (``== 0``, ``== 1``,
  ...), the last branch in the innermost ``else``: an index out of range
  (negative included) takes the last branch, as the op says. Each branch
  calls its function into the case's result buffers, so only the branch
  taken runs.
- ``?`` dims (docs/c-backend.md, "Control flow"): the C runtime sizes a
  call's results before the call (lowering/c_sizes.py), so a loop's ``do``
  region must yield each carried value at the size it took and a case's
  branches each result at one size read outside it, both proven at compile
  time (``resolved_source``); the buffers are then allocated once, at
  those sizes. Anything else is refused at the op, as is a region op with
  a run-time size rule of its own (``RUN_TIME_RULE_OPS``).
- A run-time check in a region (``REGION_CHECK_OPS``) that those sizes
  prove is dropped; any other is made where its region runs, in the
  region's function (``FunctionLowering.size_check``: a ``cf.assert``
  marked ``SIZE_CHECK_ATTR``), so it fires only when its branch is taken
  or its body runs; the C runtime reports it as the reference does.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, FunctionType, IndexType, ModuleOp, TensorType, i1, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.control_flow import CONTROL_FLOW_OPS, CaseOp, WhileOp
from bcast.ir.diagnostics import Note, op_source_loc
from bcast.ir.types import flat_type_shape, has_dynamic_types
from bcast.passes.errors import PassError
from bcast.passes.size_tensors import refines_operand

REFUSED_NOTE = ("the reference, numpy and array-api backends run control flow with '?' dims or run-time "
                "checks in its regions")
CHANGING_NOTE = ("the C backend sizes a call's results before it runs: a '?' size of control flow is the "
                 "size of a value read before it (docs/c-backend.md, \"Control flow\")")


SAME_SIZES_ATTR = "bcast.same_sizes"
"""On a function outlined from a control-flow region: ``[k, d, k0, d0]``
entries, dim ``d`` of argument ``k`` has the size of dim ``d0`` of argument
``k0`` at every call (proven where the region stood,
passes/loops_control_flow.py), so proofs in the function (a nested case's
result size) keep what the enclosing function knew."""


@dataclass(frozen=True)
class Outlined:
    """The functions of one control-flow op's regions (in region order) and
    the enclosing function's values they read, passed after the region's own
    arguments."""

    functions: tuple[str, ...]
    captures: tuple[SSAValue, ...]


def outline_regions(module: ModuleOp) -> tuple[dict[Operation, Outlined], set[Operation]]:
    """Outline the regions of every control-flow op at the top level of a
    function (those of outlined functions too), after refusing the ones C
    cannot run; the new functions are added to ``module``. Also returns the
    checks of the outlined functions that run where their region runs (the
    ones their sizes do not prove, ``_proven``)."""
    names = {f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)}
    outlined: dict[Operation, Outlined] = {}
    checks: set[Operation] = set()
    pending = [f for f in module.ops if isinstance(f, func.FuncOp)]
    while pending:
        function = pending.pop(0)
        if not function.body.blocks:
            continue
        for op in function.body.block.ops:
            if not isinstance(op, CONTROL_FLOW_OPS):
                continue
            unproven = _check_runnable(op)
            captures, sizes = _captures(op)
            new = []
            for k, region in enumerate(op.regions):
                name = _fresh(names, f"{function.sym_name.data}_{_region_name(op, k)}")
                new.append(_function(name, region, captures, sizes, unproven, checks))
            for f in new:
                module.body.block.add_op(f)
            pending.extend(new)
            outlined[op] = Outlined(tuple(f.sym_name.data for f in new), captures)
    return outlined, checks


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


REGION_CHECK_OPS = (bc.CheckBroadcastableOp, bc.DynamicBroadcastInDimOp, bc.ShapeAssertionOp)
"""The run-time checks C makes where their region runs when the sizes do not
prove them (a ``shape_assertion``'s predicate is data: always made)."""

RUN_TIME_RULE_OPS = (bc.ConcatenateOp, bc.PadOp, bc.SliceOp, bc.ReshapeOp, bc.SortOp, bc.DynamicReshapeOp,
                     bc.SetDimensionSizeOp)
"""Ops whose ``?`` dims carry a run-time rule of their own (checked by the C
runtime before the call, lowering/c_sizes.py), as a transpose that declares
a static size for a ``?`` dim does (``refines_operand``): refused with
``?`` dims in a region, where the rule would have to run when the region
runs."""


def _has_size_rule(op: Operation) -> bool:
    if isinstance(op, bc.TransposeOp):
        return refines_operand(op)
    return isinstance(op, bc.SizeFromTensorOp) or (isinstance(op, RUN_TIME_RULE_OPS) and has_dynamic_types(op))


def _check_runnable(op: Operation) -> set[Operation]:
    """Refuse, at ``op``, what C cannot run: an op with a run-time size rule
    of its own with ``?`` dims in a region, a carried ``?`` size that a loop
    may change, a result size that differs by branch (module docstring).
    Returns the checks of ``op``'s own regions (not of nested control
    flow, decided when that is outlined) that its sizes do not prove."""
    unproven: set[Operation] = set()
    for inner in op.walk():
        if inner is op:
            continue
        if _has_size_rule(inner):
            raise PassError(op, f"is not supported by bcast-lower-to-loops with a run-time rule of "
                            f"'{inner.name}' in a region", [_at(inner), REFUSED_NOTE])
        if isinstance(inner, REGION_CHECK_OPS) and _control_flow_of(inner) is op and (
                isinstance(inner, bc.ShapeAssertionOp) or not _proven(inner)):
            unproven.add(inner)
        values = [*inner.operands, *inner.results, *(a for r in inner.regions for blk in r.blocks for a in blk.args)]
        for v in values:
            if not isinstance(v.type, TensorType | IndexType):
                raise PassError(op, f"is not supported by bcast-lower-to-loops with a value of type {v.type} "
                                "in it", [REFUSED_NOTE])
    _check_sizes(op)
    return unproven


def _control_flow_of(op: Operation) -> Operation | None:
    """The innermost control-flow op whose region holds ``op``."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, CONTROL_FLOW_OPS):
        parent = parent.parent_op()
    return parent


def _at(op: Operation) -> Note:
    """A note located at the op in the region that is refused."""
    return Note(f"'{op.name}' is here", op_source_loc(op))


def _same(a, b) -> bool:
    """Whether two size sources are proven equal whenever both are read."""
    from bcast.passes.lower_to_loops import resolved_source

    return resolved_source(a) == resolved_source(b)


def _source(n: int | SSAValue):
    from bcast.passes.lower_to_loops import index_source

    return n if isinstance(n, int) else index_source(n)


def _proven(op: bc.CheckBroadcastableOp | bc.DynamicBroadcastInDimOp) -> bool:
    """Whether a run-time check in a region always holds where the region
    runs, given the sizes of the values it reads from outside (carried
    sizes never change): each checked group of sizes one resolved source
    (1s aside unless strict), each expansion of an operand dim static 1 or
    of its output size's source (as its facts require)."""
    from bcast.passes.lower_to_loops import resolved_source, size_source

    if isinstance(op, bc.CheckBroadcastableOp):
        shapes, landing = op.shapes(), op.landing_dims()
        for r in op.checked.get_values():
            group = {resolved_source(_source(shapes[i][j])) for i, dims in enumerate(landing)
                     for j, d in enumerate(dims) if d == r}
            if len(group if op.is_strict else group - {1}) > 1:
                return False
        return True
    want = op.mixed_sizes()
    for k, d in enumerate(op.dims):
        got = resolved_source(size_source(op.operand, k))
        stretches, keeps = got == 1, got == resolved_source(_source(want[d]))
        if k not in op.expanding and k not in op.nonexpanding and not stretches and not keeps:
            stretches = keeps = _checked_before(op, got, want[d])
        if not (keeps if k in op.nonexpanding else stretches if k in op.expanding else stretches or keeps):
            return False
    return True


def _checked_before(op: Operation, got, size) -> bool:
    """Whether an operand size ``got`` is 1 or ``size`` because ``size`` is
    a ``bcast.broadcast_size`` of sizes, ``got`` among them, that a
    ``check_broadcastable`` before ``op`` (in its block or an enclosing one)
    checks as one group: a failed check stops the program before ``op``."""
    from bcast.passes.lower_to_loops import resolved_source

    if isinstance(size, int) or not isinstance(size.owner, bc.BroadcastSizeOp):
        return False
    sizes = {resolved_source(_source(s)) for s in size.owner.sizes} - {1}
    if got not in sizes:
        return False
    at: Operation | None = op
    while at is not None and at.parent_block() is not None:
        before = at.prev_op
        while before is not None:
            if isinstance(before, bc.CheckBroadcastableOp) and not before.is_strict:
                shapes, landing = before.shapes(), before.landing_dims()
                for r in before.checked.get_values():
                    group = {resolved_source(_source(shapes[i][j])) for i, dims in enumerate(landing)
                             for j, dim in enumerate(dims) if dim == r}
                    if sizes <= group:
                        return True
            before = before.prev_op
        at = at.parent_op()
    return False


def _check_sizes(op: Operation) -> None:
    """The ``?`` sizes of ``op``'s results are known before it runs (the C
    runtime sizes the call's results before the call, lowering/c_sizes.py):
    a loop's ``do`` region yields each carried value at the size it took,
    every branch of a case yields each result at one size, read outside it."""
    from bcast.passes.lower_to_loops import resolved_source, size_source

    if isinstance(op, WhileOp):
        yielded = op.body.block.last_op.operands
        for k, (v, y) in enumerate(zip(op.inputs, yielded)):
            for d, n in enumerate(flat_type_shape(v.type)):
                if not isinstance(n, int) and not _same(size_source(v, d), size_source(y, d)):
                    raise PassError(op, f"is not supported by bcast-lower-to-loops with carried value {k} "
                                    f"changing its size along dim {d}", [CHANGING_NOTE, REFUSED_NOTE])
        return
    for k, r in enumerate(op.outputs):
        for d, n in enumerate(flat_type_shape(r.type)):
            if isinstance(n, int):
                continue
            sources = {resolved_source(size_source(region.block.last_op.operands[k], d)) for region in op.regions}
            if len(sources) > 1 or _inside(op, sources.pop()):
                raise PassError(op, f"is not supported by bcast-lower-to-loops with result {k} of a size along "
                                f"dim {d} that its branches compute", [CHANGING_NOTE, REFUSED_NOTE])


def _inside(op: Operation, source) -> bool:
    """Whether a size source is defined in ``op``'s regions (unknown outside it)."""
    if isinstance(source, int):
        return False
    if isinstance(source, tuple):
        source = source[0]
    owner = source.op if hasattr(source, "op") and isinstance(source.op, Operation) else source.owner
    while owner is not None:
        if owner is op:
            return True
        owner = owner.parent_op() if isinstance(owner, Block) else owner.parent_block()
    return False


def _captures(op: Operation) -> tuple[tuple[SSAValue, ...], tuple[Operation, ...]]:
    """The values of the enclosing function that ``op``'s regions read, in
    order of first read, and the size ops recomputed in each region's
    function: a ``bcast.dim`` or ``bcast.broadcast_size`` read in a region is
    computed there again from the tensors it reads (captured in its stead),
    so a size keeps its source (a fusion of ``x`` and a broadcast to
    ``dim(x)`` reads both at one size, as bcast-make-explicit proved)."""
    inside: set[SSAValue] = set()
    for inner in op.walk():
        inside.update(inner.results)
        for region in inner.regions:
            for blk in region.blocks:
                inside.update(blk.args)
    read: list[SSAValue] = [v for region in op.regions for inner in region.walk() for v in inner.operands
                            if v not in inside]
    captures: dict[SSAValue, None] = {}
    sizes: dict[Operation, None] = {}
    while read:
        v = read.pop(0)
        if v in captures or v.owner in sizes:
            continue
        if isinstance(v.owner, bc.DimOp | bc.BroadcastSizeOp):
            sizes[v.owner] = None
            read[:0] = list(v.owner.operands)
        else:
            captures[v] = None
    ordered = tuple(inner for inner in op.parent_block().ops if inner in sizes)  # program order
    return tuple(captures), ordered


def _function(name: str, region: Region, captures: tuple[SSAValue, ...], sizes: tuple[Operation, ...],
              unproven: set[Operation], checks: set[Operation]) -> func.FuncOp:
    """``region`` as a private function of its arguments and ``captures``,
    the size ops ``sizes`` computed first; the copies of the ``unproven``
    checks go to ``checks``."""
    old = region.block
    inputs = [a.type for a in old.args] + [v.type for v in captures]
    block = Block(arg_types=inputs)
    mapper: dict[SSAValue, SSAValue] = dict(zip([*old.args, *captures], block.args))
    for arg, new_arg in zip([*old.args, *captures], block.args):
        new_arg.name_hint = arg.name_hint
    for size in sizes:
        block.add_op(size.clone(mapper))
    yielded = old.last_op
    assert yielded is not None
    for inner in old.ops:
        if inner is yielded:
            break
        copy = inner.clone(mapper)
        block.add_op(copy)
        checks.update(c for o, c in zip(inner.walk(), copy.walk()) if o in unproven)
    block.add_op(func.ReturnOp(*(mapper.get(v, v) for v in yielded.operands)))
    outputs = [v.type for v in yielded.operands]
    f = func.FuncOp(name, FunctionType.from_lists(inputs, outputs), Region(block), visibility="private")
    f.location = region.parent_op().location
    same = _same_sizes([*old.args, *captures])
    if same:
        f.attributes[SAME_SIZES_ATTR] = ArrayAttr([DenseArrayBase.from_list(i64, entry) for entry in same])
    return f


def _same_sizes(values: list[SSAValue]) -> list[tuple[int, int, int, int]]:
    """``(k, d, k0, d0)``: dim ``d`` of ``values[k]`` has the size of dim
    ``d0`` of an earlier ``values[k0]`` (one resolved source where the
    region stands), for ``SAME_SIZES_ATTR``."""
    from bcast.passes.lower_to_loops import resolved_source, size_source

    first: dict = {}
    same = []
    for k, v in enumerate(values):
        if not isinstance(v.type, TensorType):
            continue
        for d, n in enumerate(flat_type_shape(v.type)):
            if isinstance(n, int):
                continue
            try:
                source = resolved_source(size_source(v, d))
            except PassError:  # a size the loop lowering does not know: no fact
                continue
            if source in first:
                same.append((k, d, *first[source]))
            else:
                first[source] = (k, d)
    return same


def lower_while(lowering, op: WhileOp, outlined: Outlined) -> None:
    """``op`` as an ``scf.while`` over two sets of buffers taken in turn
    (module docstring)."""
    b = lowering.b
    cond, body = outlined.functions
    captures = [lowering.call_argument(v) for v in outlined.captures]
    first = []
    for v, r in zip(op.inputs, op.outputs):
        target = lowering.buffer(r)
        lowering.store_nest([v], [target], lowering.shape(v))
        first.append(target)
    second = [_scratch(lowering, r.type, lowering.shape(r)) for r in op.outputs]
    flag = _scratch(lowering, TensorType(i1, []), [])
    odd = _scratch(lowering, TensorType(i1, []), [])  # the current values are in ``second``
    false, true = b.int(0, "i1"), b.int(1, "i1")
    b(memref.StoreOp.get(false, odd, []))
    before, after = Block(), Block()
    loop = scf.WhileOp([], [], Region(before), Region(after))
    b(loop)
    outer = b.builder.insertion_point
    try:
        b.builder.insertion_point = InsertPoint.at_end(before)
        in_second = b(memref.LoadOp.get(odd, []))
        _either(b, in_second, func.CallOp(cond, [*second, *captures, flag], []),
                func.CallOp(cond, [*first, *captures, flag], []))
        b(scf.ConditionOp(b(memref.LoadOp.get(flag, []))))
        b.builder.insertion_point = InsertPoint.at_end(after)
        in_second = b(memref.LoadOp.get(odd, []))
        _either(b, in_second, func.CallOp(body, [*second, *captures, *first], []),
                func.CallOp(body, [*first, *captures, *second], []))
        b(memref.StoreOp.get(b(arith.XOrIOp(in_second, true)), odd, []))
        b(scf.YieldOp())
    finally:
        b.builder.insertion_point = outer
    then = Block()  # an odd trip count leaves the values in ``second``: copied once
    b(scf.IfOp(b(memref.LoadOp.get(odd, [])), [], Region(then), Region()))
    try:
        b.builder.insertion_point = InsertPoint.at_end(then)
        for source, target, r in zip(second, first, op.outputs):
            _copy(lowering, source, target, lowering.shape(r))
        b(scf.YieldOp())
    finally:
        b.builder.insertion_point = outer
    for r, target in zip(op.outputs, first):
        lowering.written(r, target)


def _either(b, condition: SSAValue, then: Operation, otherwise: Operation) -> None:
    """``scf.if condition { then } else { otherwise }``."""
    b(scf.IfOp(condition, [], Region(Block([then, scf.YieldOp()])), Region(Block([otherwise, scf.YieldOp()]))))


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


def _scratch(lowering, t, shape) -> SSAValue:
    """A buffer for a value of tensor type ``t`` and run-time ``shape`` (its
    ``?`` sizes computed before the loop), freed when the function returns."""
    from bcast.passes.lower_to_loops import memref_of

    dynamic = [n for n in shape if isinstance(n, SSAValue)]
    target = lowering.b(memref.AllocOp(dynamic, [], memref_of(t)))
    lowering.owned.append(target)
    return target


def _copy(lowering, source: SSAValue, target: SSAValue, shape: rules.Shape) -> None:
    with lowering.nest(shape, parallel=True) as ivs:
        lowering.b(memref.StoreOp.get(lowering.b(memref.LoadOp.get(source, list(ivs))), target, list(ivs)))

