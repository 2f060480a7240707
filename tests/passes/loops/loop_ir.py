"""What the loop-pass tests share: reading hand-written loop IR (bcast-opt
reads bcast programs only, so these tests parse the loop dialects
themselves)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.parser import Parser


def parse(text: str) -> ModuleOp:
    """A module of the dialects the loop lowering writes."""
    ctx = Context()
    for dialect in (Builtin, Func, Arith, MemRef, Scf, Math):
        ctx.load_dialect(dialect)
    return Parser(ctx, text).parse_module()
