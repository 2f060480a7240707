"""``bcast-scratch-allocs``: which heap buffers a loop makes once.

A ``memref.alloc`` in a loop's body that the same body deallocates (a
fused row's scratch) is, as the loop IR says it, a ``malloc`` and a
``free`` per iteration, which can cost more than the row's arithmetic
(glibc may return the memory to the system on free and fault it back in on
the next malloc). Marks ``bcast.scratch`` (``SCRATCH_ATTR``) on each such
alloc that is not a stack array (``bcast.stack``, so this pass runs after
``bcast-stack-allocs``): a target makes it once before the loop (once per
thread when the loop runs on threads) and frees it after. Other marks are
cleared.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from bcast.ir.loops import SCRATCH_ATTR, STACK_ATTR


def scratch(loop: scf.ForOp) -> list[memref.AllocOp]:
    """The heap allocs that ``loop``'s body makes and frees every iteration."""
    body = loop.body.blocks[0]
    return [o for o in body.ops
            if isinstance(o, memref.AllocOp) and STACK_ATTR not in o.attributes
            and any(isinstance(u.operation, memref.DeallocOp) and u.operation.parent_block() is body
                    for u in o.memref.uses)]


@dataclass(frozen=True)
class ScratchAllocsPass(ModulePass):
    """Mark the per-iteration heap buffers a loop makes once."""

    name = "bcast-scratch-allocs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        marked = {a for loop in op.walk() if isinstance(loop, scf.ForOp) for a in scratch(loop)}
        for a in op.walk():
            if isinstance(a, memref.AllocOp):
                a.attributes.pop(SCRATCH_ATTR, None)
                if a in marked:
                    a.attributes[SCRATCH_ATTR] = UnitAttr()
