"""``bcast-collapse-nests``: which loop nests run as one loop.

Marks ``bcast.collapse = n`` (``COLLAPSE_ATTR``) on the outermost loop of
``n >= 2`` perfectly nested ``bcast.parallel`` loops that can run as one
loop over the product of their trip counts (``collapsible_nest``): one
loop the C target splits among threads and vectorizes, where a nest would
split only its outer loop (few rows) or vectorize only a short inner one.
Loops are visited from the outside in, as a target emits them: the loops
of a marked nest are not marked again, those inside its innermost loop
are. Old marks are cleared, so a second run decides afresh.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from bcast.ir.loops import COLLAPSE_ATTR, PARALLEL_ATTR
from bcast.passes.errors import PassError
from bcast.passes.loops.nests import constant, trip


def counted(op: scf.ForOp) -> bool:
    """A parallel loop from 0 by 1 a static number of times, carrying nothing."""
    return (PARALLEL_ATTR in op.attributes and not op.iter_args and trip(op) is not None
            and constant(op.lb) == 0 and constant(op.step) == 1)


def collapsible_nest(op: scf.ForOp) -> list[scf.ForOp]:
    """``op`` and the loops perfectly nested in it, down to the innermost or
    to a loop whose body runs several ops (a fused row's phases), when they
    can run as one loop over the product of their trips; else ``[op]``.

    They can when their variables are used only as memref indices, and each
    access indexes either none of them, or all of them at consecutive
    positions in nesting order over dims of their full size (but the
    outermost): no access broadcasts or transposes these dims, so the
    linear index of every access steps by its innermost stride."""
    nest = [op]
    while counted(nest[-1]):
        body = [o for o in nest[-1].body.blocks[0].ops if not isinstance(o, scf.YieldOp)]
        if len(body) == 1 and isinstance(body[0], scf.ForOp):
            nest.append(body[0])
        else:
            break
    if len(nest) < 2 or not counted(nest[-1]):
        return [op]
    ivs = [loop.body.blocks[0].args[0] for loop in nest]
    trips = [trip(loop) for loop in nest]
    for iv in ivs:
        for use in iv.uses:
            user = use.operation
            if not (isinstance(user, memref.LoadOp | memref.StoreOp) and any(v is iv for v in user.indices)
                    and not (isinstance(user, memref.StoreOp) and user.value is iv)):
                return [op]
    for o in nest[-1].body.walk():
        if not isinstance(o, memref.LoadOp | memref.StoreOp):
            continue
        indices = list(o.indices)
        used = [k for k, v in enumerate(indices) if any(v is iv for iv in ivs)]
        if not used:
            continue
        q, shape = used[0], o.memref.type.get_shape()
        if (len(used) != len(ivs) or any(a is not b for a, b in zip(indices[q:q + len(ivs)], ivs))
                or any(shape[q + t] != trips[t] for t in range(1, len(ivs)))):
            return [op]
    return nest


def collapsed_nest(op: scf.ForOp) -> list[scf.ForOp]:
    """The loops a ``bcast.collapse`` mark on ``op`` covers (``[op]``
    unmarked): ``op`` and the loops nested one in the other's body."""
    mark = op.attributes.get(COLLAPSE_ATTR)
    nest = [op]
    for _ in range(mark.value.data - 1 if isinstance(mark, IntegerAttr) else 0):
        body = [o for o in nest[-1].body.blocks[0].ops if not isinstance(o, scf.YieldOp)]
        if len(body) != 1 or not isinstance(body[0], scf.ForOp):
            raise PassError(op, f"has {COLLAPSE_ATTR} = {mark.value.data} but is not a loop nest that deep")
        nest.append(body[0])
    return nest


def mark(op: Operation) -> None:
    """Mark the nests in ``op``'s regions, from the outside in."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if isinstance(inner, scf.ForOp):
                    nest = collapsible_nest(inner)
                    if len(nest) > 1:
                        inner.attributes[COLLAPSE_ATTR] = IntegerAttr(len(nest), 64)
                    mark(nest[-1])
                else:
                    mark(inner)


@dataclass(frozen=True)
class CollapseNestsPass(ModulePass):
    """Mark the perfectly nested parallel loops that run as one loop."""

    name = "bcast-collapse-nests"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for loop in op.walk():
            if isinstance(loop, scf.ForOp):
                loop.attributes.pop(COLLAPSE_ATTR, None)
        mark(op)
