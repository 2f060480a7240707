"""``bcast-stack-allocs``: which buffers live on the stack.

A small ``memref.alloc`` (``STACK_BYTES``) is better on the stack than on
the heap: no ``malloc``/``free``, and memory a thread already has in cache.
Marks ``bcast.stack`` (``STACK_ATTR``) on each alloc of at most
``STACK_BYTES``, in the order of the function's ops, while the marked ones
of the function stay within ``STACK_TOTAL``; other marks are cleared. (The
C target declares a marked alloc as an array, inside a parallel loop's body
so that every thread has its own.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from bcast.ir.loops import STACK_ATTR
from bcast.passes.loops.nests import element_bytes

STACK_BYTES = 65536
"""An ``alloc`` of at most this many bytes is a stack array (OpenMP's and
Python's threads have megabytes of stack), while the function's stack
arrays stay within ``STACK_TOTAL``."""
STACK_TOTAL = 1 << 18
"""Bytes of stack arrays (allocs) one function may declare: 256 KiB (the C
target adds at most a few 16 KiB streaming tiles), far below the 2 MiB that
glibc gives a thread at least."""


def alloc_bytes(op: memref.AllocOp) -> int:
    """Bytes of the buffer (a rank-0 or empty one counts one element)."""
    t = op.memref.type
    return max(math.prod(t.get_shape()), 1) * element_bytes(t.element_type)


@dataclass(frozen=True)
class StackAllocsPass(ModulePass):
    """Mark ``bcast.stack`` the small allocs of each function, within a total."""

    name = "bcast-stack-allocs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.ops:
            if not isinstance(f, func.FuncOp):
                continue
            stack = 0
            for alloc in f.walk():
                if not isinstance(alloc, memref.AllocOp):
                    continue
                alloc.attributes.pop(STACK_ATTR, None)
                if alloc.dynamic_sizes:  # sized at run time: on the heap
                    continue
                if (size := alloc_bytes(alloc)) <= STACK_BYTES and stack + size <= STACK_TOTAL:
                    stack += size
                    alloc.attributes[STACK_ATTR] = UnitAttr()
