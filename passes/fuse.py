"""``bcast-fuse``: elementwise ops, row reductions and the views feeding them become ``bcast.fusion``s.

Runs on explicit IR (after ``bcast-make-explicit``): an elementwise op whose
operands all have its result's shape iterates over that shape. In every block
(function bodies, not fusion bodies):

- *Grouping.* Fusible ops start in a group of their own: explicit
  elementwise ops (``bcast.ir.ops.ElementwiseOp`` subclasses and ``convert``,
  as ``bcast.ir.fusion.is_explicit`` defines it: no ``broadcast_dimensions``,
  every operand of the result's shape and element type), reductions that
  keep dimension 0, and *inner broadcasts* (a ``broadcast_in_dim`` of a
  fusible op's value that maps rows to rows, as ``x - max(x)`` needs). In
  block order, each op is merged (union-find) with the group of every
  fusible producer of its operands (which has the same rows), unless the
  merge would create a cycle. Sibling ops that only share an input are not
  merged. A group with nothing elementwise (a lone reduction) stays as it
  is; a reduction over dimension 0 is never fusible (``bcast.ir.fusion``).
- *Cycle guard.* Two groups are not merged when a path leaves one of them
  through a non-member op (``extract``, a ``func.call``, a view of a member
  value, another group...) and reaches the other one: the merged group would
  have to run both before and after that op. The check walks the graph with
  groups contracted to single nodes, so the contracted graph stays acyclic.
- *Views.* A ``broadcast_in_dim``/``transpose``/``reshape`` used by a group
  member is cloned into every group that uses it (its operand becomes a group
  input); the original stays only if a non-member still uses it. A view never
  takes a member value (that path would leave the group, see above), so in
  the body every view takes a block argument, as ``bcast.fusion`` requires.
- *Results.* A member value used outside its group (by a non-member op, a
  terminator, another group, a nested region) is a result of the fusion,
  computed once; an inner broadcast used outside is not a result: its
  operand is, and the broadcast is cloned where it is read. Inputs are the
  outside values the members and cloned views read, in order of first use;
  nothing unused is added.
- *Splat constants.* A splat ``bcast.constant`` of more than one element
  read by a member enters as a rank-0 constant and a ``broadcast_in_dim
  dims = []`` in the body, so it is not materialized either (the original
  constant is dropped when nothing else reads it).
- *Order.* The block is rebuilt by a stable topological sort of the groups
  and the remaining ops (Kahn's algorithm, ready units taken in original
  order), so every value dominates its uses and unrelated code keeps its
  order.

The fusion op gets the location of its first member; cloned ops
keep their locations. Ops that are not explicit, constants, ``extract``,
``assign``, calls and ops with regions are left alone (they are inputs or
users of the groups).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.fusion import (
    BROADCAST_OPS, VIEW_OPS, FusionOp, YieldOp, is_elementwise, is_explicit, keeps_rows, maps_rows,
    stretches_in_place,
)
from bcast.ir.rules import Shape
from bcast.ir.types import flat_type_shape
from bcast.passes.rewriting import located


def iteration_shape(op: Operation) -> Shape | None:
    """The flat shape an elementwise op iterates over; None if it must not
    fuse (not an explicit elementwise op: ``bcast.ir.fusion.is_explicit``)."""
    if not is_explicit(op):
        return None
    return flat_type_shape(op.results[0].type)


def fusible_ops(ops: list[Operation]) -> set[Operation]:
    """The ops of a block that may join a group: explicit elementwise ops,
    reductions that keep dimension 0, and broadcasts of a fusible op's value
    that map rows to rows (``bcast.ir.fusion.keeps_rows``, ``maps_rows``)."""
    found: set[Operation] = set()
    for op in ops:
        if (
            iteration_shape(op) is not None
            or (isinstance(op, bc.ReduceOp) and keeps_rows(op))
            or (isinstance(op, BROADCAST_OPS) and op.operand.owner in found and maps_rows(op))
            or (stretches_in_place(op) and op.operand.owner in found and not isinstance(op.operand.owner, bc.ReduceOp))
        ):
            found.add(op)
    return found


class _BlockFusion:
    """Fusion of the ops of one block."""

    def __init__(self, block: Block):
        self.block = block
        self.ops = list(block.ops)
        self.index = {op: i for i, op in enumerate(self.ops)}
        self.fusible = fusible_ops(self.ops)
        self.parent: dict[Operation, Operation] = {op: op for op in self.fusible}
        self.members: dict[Operation, list[Operation]] = {op: [op] for op in self.fusible}
        self.successors = {op: self._users(op) for op in self.ops}
        self.frontier = {op: set(self.successors[op]) for op in self.fusible}
        """Group leader -> the ops outside the group that use its members."""
        self.kinds = {op: {"reduce"} if isinstance(op, bc.ReduceOp) else
                      {"stretch"} if stretches_in_place(op) and not maps_rows(op) else set() for op in self.fusible}
        """Group leader -> whether it holds reductions, stretching broadcasts:
        a group never holds both (``bcast.ir.fusion.stretches_in_place``)."""

    # -- graph helpers ---------------------------------------------------

    def _in_block(self, op: Operation | None) -> Operation | None:
        """``op`` or its ancestor that stands in this block."""
        return None if op is None else self.block.find_ancestor_op_in_block(op)

    def _producer(self, value: SSAValue) -> Operation | None:
        owner = value.owner
        return self._in_block(owner) if isinstance(owner, Operation) else None

    def _users(self, op: Operation) -> list[Operation]:
        users: dict[Operation, None] = {}
        for result in op.results:
            for use in result.uses:
                user = self._in_block(use.operation)
                if user is not None and user is not op:
                    users[user] = None
        return list(users)

    def find(self, op: Operation) -> Operation:
        while self.parent[op] is not op:
            self.parent[op] = self.parent[self.parent[op]]
            op = self.parent[op]
        return op

    def unit(self, op: Operation) -> Operation:
        """The node ``op`` belongs to: its group's leader, or itself."""
        return self.find(op) if op in self.parent else op

    def unit_ops(self, unit: Operation) -> list[Operation]:
        return self.members[unit] if unit in self.members else [unit]

    # -- grouping --------------------------------------------------------

    def creates_cycle(self, a: Operation, b: Operation, limit: int) -> bool:
        """Whether some path from group ``a`` or ``b`` leaves both groups and
        comes back to one of them (groups contracted to single nodes).

        Groups only hold ops up to index ``limit`` (the op being grouped), and
        ops after it are still alone and only reach later ops, so the search
        never goes past ``limit``."""
        stack = [
            w
            for g in (a, b)
            for u in self.frontier[g]
            if self.index[u] <= limit and (w := self.unit(u)) is not a and w is not b
        ]
        seen = set(stack)
        while stack:
            for user in self.users_of_unit(stack.pop()):
                if self.index[user] > limit:
                    continue
                w = self.unit(user)
                if w is a or w is b:
                    return True
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        return False

    def users_of_unit(self, unit: Operation):
        return self.frontier[unit] if unit in self.frontier else self.successors[unit]

    def merge(self, a: Operation, b: Operation) -> None:
        """Union by size; members are sorted once grouping is done."""
        if len(self.members[a]) < len(self.members[b]):
            a, b = b, a
        self.parent[b] = a
        self.kinds[a] |= self.kinds.pop(b)
        moved = self.members.pop(b)
        self.members[a].extend(moved)
        frontier, other = self.frontier[a], self.frontier.pop(b)
        frontier.difference_update(moved)
        frontier.update(u for u in other if self.unit(u) is not a)

    def group(self) -> None:
        for op in self.ops:
            if op not in self.fusible:
                continue
            for operand in op.operands:
                # a fusible producer of a fusible op's operand has the same
                # rows (explicit operands; reductions keep dimension 0)
                producer = self._producer(operand)
                if producer is None or producer not in self.fusible:
                    continue
                a, b = self.find(op), self.find(producer)
                if a is not b and len(self.kinds[a] | self.kinds[b]) < 2 and not self.creates_cycle(a, b, self.index[op]):
                    self.merge(a, b)
        for members in self.members.values():
            members.sort(key=self.index.__getitem__)
        self.dissolved = {
            leader for leader, members in self.members.items()
            if not any(is_elementwise(m) for m in members)
        }  # fmt: skip
        """Groups with nothing elementwise (a lone reduction): left as they are."""

    def in_fusion(self, op: Operation) -> bool:
        """Whether ``op`` becomes part of a fusion op."""
        return op in self.fusible and self.find(op) not in self.dissolved

    # -- views -----------------------------------------------------------

    def absorbed_views(self) -> tuple[dict[Operation, list[Operation]], set[Operation]]:
        """View -> the groups that clone it; and the views no one else uses.

        An inner broadcast (a member view) is cloned into the other groups
        that read it too, as a view of its operand, which its own group
        then yields."""
        into: dict[Operation, list[Operation]] = {}
        removed: set[Operation] = set()
        for op in self.ops:
            if not isinstance(op, VIEW_OPS):
                continue
            own = self.find(op) if self.in_fusion(op) else None
            groups: dict[Operation, None] = {}
            other_users = False
            for use in op.results[0].uses:
                if not self.in_fusion(use.operation):
                    other_users = True
                elif (group := self.find(use.operation)) is not own:
                    groups[group] = None
            if not groups:
                continue
            producer = self._producer(op.operands[0])
            assert producer is None or self.unit(producer) not in groups, (
                "a view of a member value feeds its own group"
            )
            into[op] = list(groups)
            if not other_users and own is None:
                removed.add(op)
        return into, removed

    # -- order -----------------------------------------------------------

    def schedule(self, into: dict[Operation, list[Operation]], removed: set[Operation]) -> list[Operation]:
        """Units (group leaders and remaining ops) in a stable topological order."""
        units = list(dict.fromkeys(self.unit(op) for op in self.ops if op not in removed))
        preds: dict[Operation, set[Operation]] = {u: set() for u in units}

        def sources(op: Operation) -> Iterator[SSAValue]:
            for nested in op.walk():
                yield from nested.operands

        for unit in units:
            for op in self.unit_ops(unit):
                for value in sources(op):
                    producer = self._producer(value)
                    if producer is None or producer is op:
                        continue
                    if producer in into and unit in into[producer]:
                        # a view cloned into this group: it reads the view's
                        # operands (a dynamic broadcast's sizes too)
                        for read in producer.operands:
                            if (p := self._producer(read)) is not None and (pred := self.unit(p)) is not unit:
                                preds[unit].add(pred)
                        continue
                    pred = self.unit(producer)
                    if pred is not unit:
                        preds[unit].add(pred)
        succs: dict[Operation, list[Operation]] = {u: [] for u in units}
        for unit, ps in preds.items():
            for p in ps:
                succs[p].append(unit)
        waiting = {u: len(ps) for u, ps in preds.items()}
        position = {u: i for i, u in enumerate(units)}
        first = {u: self.index[self.unit_ops(u)[0]] for u in units}
        ready = [(first[u], position[u], u) for u in units if not waiting[u]]
        heapq.heapify(ready)
        order: list[Operation] = []
        while ready:
            _, _, unit = heapq.heappop(ready)
            order.append(unit)
            for s in succs[unit]:
                waiting[s] -= 1
                if not waiting[s]:
                    heapq.heappush(ready, (first[s], position[s], s))
        assert len(order) == len(units), "fusion groups form a cycle"
        return order

    # -- rewriting -------------------------------------------------------

    def scalar_constant(self, op: Operation | SSAValue) -> bc.ConstantOp | None:
        """For a splat constant of more than one element, its rank-0 version
        (created once, placed before the first fusion that reads it)."""
        if not isinstance(op, bc.ConstantOp) or self.count(op) <= 1:
            return None
        value = op.splat_value()
        if value is None:
            return None
        if op not in self.scalars:
            element = op.result.type.get_element_type()
            scalar = bc.ConstantOp(
                DenseIntOrFPElementsAttr.from_list(TensorType(element, []), [value])
            )
            located(scalar, op)
            scalar.result.name_hint = op.result.name_hint
            self.scalars[op] = scalar
            self.pending.append(scalar)
        return self.scalars[op]

    @staticmethod
    def count(op: bc.ConstantOp) -> int:
        return rules.element_count(flat_type_shape(op.result.type))

    def build(self, leader: Operation, into: dict[Operation, list[Operation]]) -> FusionOp:
        """The fusion op of one group (not inserted; uses not yet replaced)."""
        members = self.members[leader]
        member_set = set(members)
        body = Block()
        inputs: list[SSAValue] = []
        mapper: dict[SSAValue, SSAValue] = {}

        args: dict[SSAValue, SSAValue] = {}

        def cloned_here(value: SSAValue) -> bool:
            """Whether ``value`` is a view that this group clones."""
            producer = value.owner
            return isinstance(producer, Operation) and leader in into.get(producer, ())

        def input_for(value: SSAValue) -> SSAValue:
            """The block argument for an outside value (views read only these,
            even when the value is itself a view cloned into this group; the
            members then still read the clone, never the materialized view)."""
            if value not in args:
                arg = body.insert_arg(value.type, len(body.args))
                arg.name_hint = value.name_hint
                args[value] = arg
                inputs.append(value)
            if not cloned_here(value):
                mapper.setdefault(value, args[value])
            return args[value]

        for op in members:
            for value in op.operands:
                if value in mapper or not isinstance(value.type, TensorType):
                    continue  # a dynamic broadcast's sizes stay the function's values
                producer = value.owner
                if cloned_here(value):
                    source = producer.operands[0]
                    view = producer.clone(value_mapper={source: input_for(source)})
                    body.add_op(view)
                    mapper[value] = view.results[0]
                elif (scalar := self.scalar_constant(producer)) is not None:
                    # a splat constant enters as a rank-0 input and a broadcast
                    spread = bc.BroadcastInDimOp(input_for(scalar.result), [], value.type)
                    body.add_op(located(spread, scalar))
                    mapper[value] = spread.result
                else:
                    input_for(value)
            body.add_op(op.clone(value_mapper=mapper))

        # A member value used outside is a result. An inner broadcast used
        # outside is not materialized: the fusion yields its operand, the
        # groups that read it clone it (``absorbed_views``), and for any other
        # user a copy of it after the fusion reads that result.
        outputs: list[SSAValue] = []
        spread_outside: list[SSAValue] = []
        for op in members:
            for r in op.results:
                users = [u.operation for u in r.uses if u.operation not in member_set]
                if not users:
                    continue
                if isinstance(op, BROADCAST_OPS):
                    outputs.append(op.operand)
                    if any(not self.in_fusion(u) or self.find(u) not in into.get(op, ()) for u in users):
                        spread_outside.append(r)
                else:
                    outputs.append(r)
        outputs = list(dict.fromkeys(outputs))
        if not outputs:  # dead group: keep its last computed value as the result
            last = next(op for op in reversed(members) if not isinstance(op, BROADCAST_OPS))
            outputs = list(last.results)
        body.add_op(located(YieldOp([mapper[r] for r in outputs]), members[-1]))
        fusion = located(FusionOp(inputs, [r.type for r in outputs], Region(body)), members[0])
        for old, new in zip(outputs, fusion.outputs):
            new.name_hint = old.name_hint
        self.replacements.extend(zip(outputs, fusion.outputs, [member_set] * len(outputs)))
        for r in spread_outside:
            spread = r.owner
            outside = spread.clone(value_mapper={spread.operand: fusion.outputs[outputs.index(spread.operand)]})
            outside.results[0].name_hint = r.name_hint
            self.pending_after.append(outside)
            self.replacements.append((r, outside.results[0], member_set))
        return fusion

    def run(self) -> None:
        if not self.fusible:
            return
        self.group()
        into, removed = self.absorbed_views()
        order = self.schedule(into, removed)
        self.replacements: list[tuple[SSAValue, SSAValue, set[Operation]]] = []
        self.scalars: dict[Operation, bc.ConstantOp] = {}
        self.pending: list[Operation] = []
        self.pending_after: list[Operation] = []
        new_order: list[Operation] = []
        for unit in order:
            if unit in self.dissolved:
                new_order.extend(self.members[unit])
                continue
            if unit in self.members:
                fusion = self.build(unit, into)
                new_order.extend(self.pending)
                new_order.append(fusion)
                new_order.extend(self.pending_after)
                self.pending.clear()
                self.pending_after.clear()
                continue
            new_order.append(unit)
        for old, new, member_set in self.replacements:
            old.replace_uses_with_if(new, lambda use: use.operation not in member_set)
        for op in self.ops:
            self.block.detach_op(op)
        for op in reversed(self.ops):
            if self.in_fusion(op) or op in removed:
                op.erase(safe_erase=False)
        own = set(self.ops)
        for op in self.scalars:  # splat constants only the fusions read
            if not op.result.uses:
                if op in own:
                    new_order.remove(op)
                else:  # defined in an enclosing block (read by a loop body or branch)
                    op.detach()
                op.erase()
        self.block.add_ops(new_order)


def _blocks(op: Operation) -> Iterator[Block]:
    """Every block under ``op``, except fusion bodies."""
    for region in op.regions:
        for block in region.blocks:
            yield block
            for nested in block.ops:
                if not isinstance(nested, FusionOp | bc.ReduceWindowBodyOp):  # a window body is scalar code
                    yield from _blocks(nested)


@dataclass(frozen=True)
class FusePass(ModulePass):
    """Group elementwise ops (and the views feeding them) into ``bcast.fusion``s."""

    name = "bcast-fuse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for block in list(_blocks(op)):
            _BlockFusion(block).run()
