"""Facts about the loop IR's ``scf.for`` nests that several loop passes and
the C printer read: static trip counts and which loop is innermost."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, SSAValue


def constant(v: SSAValue) -> int | None:
    """The value of an integer ``arith.constant`` (None: not one)."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def trip(op: scf.ForOp) -> int | None:
    """How many times ``op`` runs, when its bounds are constants."""
    lb, ub, step = constant(op.lb), constant(op.ub), constant(op.step)
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -(-(ub - lb) // step))


def innermost(loop: scf.ForOp) -> bool:
    """Whether no loop is nested in ``loop``."""
    return not any(isinstance(o, scf.ForOp) for o in loop.body.walk() if o is not loop)


def phases(loop: scf.ForOp) -> list[scf.ForOp]:
    """The loops directly in ``loop``'s body: a fused row's phases."""
    return [o for o in loop.body.blocks[0].ops if isinstance(o, scf.ForOp)]


def work(op: scf.ForOp, unknown: int) -> int:
    """Innermost iterations the loop runs (1 per op for straight-line code),
    counting ``unknown`` for a loop whose trip count is not static."""
    inner = sum(work(o, unknown) for o in op.body.blocks[0].ops if isinstance(o, scf.ForOp))
    count = trip(op)
    return (count if count is not None else unknown) * max(inner, 1)


def element_bytes(t: Attribute) -> int:
    """Bytes of one element as the loop IR stores it (``i1``: one byte)."""
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, IntegerType):
        return max(t.width.data // 8, 1)
    assert isinstance(t, AnyFloat), t
    return t.bitwidth // 8
