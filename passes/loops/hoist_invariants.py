"""``bcast-hoist-invariants``: compute once, before a loop, what the loop
does not change.

An op of a loop's body is moved before the loop when it is arithmetic
(``arith``, ``math``) or a ``memref.load`` of memory the loop does not write
(no ``memref.store`` to it inside, no ``func.call`` taking it), and its
operands are all defined outside the loop: a broadcast operand's load and
the arithmetic on it run once per row rather than once per element. Loops
are visited innermost first, so an op moves out of every loop it does not
depend on.

Unlike xDSL's ``licm`` (which moves only side-effect-free, speculatable
ops), loads move, and so do divisions: the loop IR makes every operation
safe before it runs (divisors, shift amounts and float->int operands are
guarded by ``bcast-lower-to-loops``), so computing one speculatively is
defined. Only loops that run at least once (constant bounds) are hoisted
from, so a moved load reads what the loop would have read.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from bcast.passes.loops.nests import trip


def written(loop: scf.ForOp) -> set[SSAValue]:
    """The memrefs ``loop`` may write: stored to, or passed to a call."""
    out: set[SSAValue] = set()
    for o in loop.body.walk():
        if isinstance(o, memref.StoreOp):
            out.add(o.memref)
        elif isinstance(o, func.CallOp):
            out.update(o.arguments)
    return out


def movable(op: Operation, stored: set[SSAValue]) -> bool:
    """Whether ``op`` may run before its loop (operands aside)."""
    if isinstance(op, memref.LoadOp):
        return op.memref not in stored
    return op.dialect_name() in ("arith", "math") and not op.regions


def defined_in(v: SSAValue, block: Block) -> bool:
    """Whether ``v`` is an argument of ``block`` or a result of one of its ops."""
    owner = v.owner
    return owner is block if isinstance(owner, Block) else owner.parent_block() is block


def hoist_invariants(loop: scf.ForOp) -> None:
    """Move ``loop``'s invariant ops before it, in their order (a moved op's
    users may follow it out)."""
    if not (trip(loop) or 0) > 0:
        return
    body = loop.body.blocks[0]
    stored = written(loop)
    for op in list(body.ops):
        if movable(op, stored) and not any(defined_in(v, body) for v in op.operands):
            op.detach()
            loop.parent_block().insert_op_before(op, loop)


@dataclass(frozen=True)
class HoistInvariantsPass(ModulePass):
    """Move loop-invariant arithmetic and loads of unwritten memory out of loops."""

    name = "bcast-hoist-invariants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # walk() yields a loop before the loops in it: reversed, innermost first
        for loop in reversed([o for o in op.walk() if isinstance(o, scf.ForOp)]):
            hoist_invariants(loop)
