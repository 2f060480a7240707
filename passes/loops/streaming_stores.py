"""``bcast-streaming-stores``: which stores go around the cache.

A result too large for the caches (``STREAM_BYTES``) is written with
non-temporal stores: a plain store reads every line before writing it, a
third of the memory traffic of an elementwise op. Marks upstream's
``nontemporal = true`` on each ``memref.store`` of an innermost
``bcast.parallel`` loop (by 1, carrying nothing) to a function argument of
at least ``STREAM_BYTES`` that the loop stores only there and does not read,
at consecutive addresses: the last index is the loop's variable, the others
are fixed in the loop. A result with ``?`` dims is marked too: its size is
known only at run time, so the target decides there (the C target streams
when the result has at least ``STREAM_BYTES``, else copies the tile with
plain stores; ``large_enough``). (The C target fills a small tile per chunk of the
loop and streams it out, ``bcast_stream``.) Other stores' marks are cleared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, BoolAttr, MemRefType, ModuleOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

from bcast.ir.loops import PARALLEL_ATTR
from bcast.passes.loops.nests import constant, element_bytes, innermost

STREAM_BYTES = 1 << 25
"""A result of at least this many bytes (32 MiB: 2896x2896 f32) is written
with non-temporal stores: it does not fit the caches of the machines we
target. Measured on the 2-core development VM, ``(x + row) * col - 0.5 * x``
at 4096x4096 f32: 10.3 -> 7.1 ms on one thread and 5.5 -> 3.9 ms on two from
a cold cache, 8.1 -> 6.0 ms and 3.8 -> 3.0 ms warm; at 2048x2048 (16 MiB)
streaming lost 5-10% warm, so smaller results keep plain stores."""
STREAM_TILE_BYTES = 16384
"""Bytes of the tile a target fills with a streamed loop's values before
streaming them out (per chunk of the loop and thread; stays in L1; the C
target's ``bcast_stream``). At 4096x4096 f32 from a cold cache, 4, 8 and 16
KiB tiles copied in 10.4, 9.0 and 8.1 ms on one thread."""


def large_enough(t: MemRefType) -> bool:
    """Whether stores to ``t`` may go around the cache: a static result of
    at least ``STREAM_BYTES``, or one with ``?`` dims (decided at run time)."""
    shape = t.get_shape()
    return DYNAMIC_INDEX in shape or math.prod(shape) * element_bytes(t.element_type) >= STREAM_BYTES


def nontemporal(loop: scf.ForOp) -> list[memref.StoreOp]:
    """The stores of ``loop`` marked ``nontemporal`` (what this pass decided)."""
    return [o for o in loop.body.walk() if isinstance(o, memref.StoreOp) and o.nontemporal.value.data]


def streamed_stores(loop: scf.ForOp) -> list[memref.StoreOp]:
    """The stores of ``loop`` to mark (see the module docstring)."""
    body = loop.body.blocks[0]
    if not innermost(loop) or PARALLEL_ATTR not in loop.attributes or loop.iter_args or constant(loop.step) != 1:
        return []
    function = loop.parent_op()
    while function is not None and not isinstance(function, func.FuncOp):
        function = function.parent_op()
    if function is None:
        return []
    arguments = function.body.blocks[0]
    inside = set(body.walk())
    stores: dict[SSAValue, list[memref.StoreOp]] = {}
    read = set()
    for o in body.walk():
        if isinstance(o, memref.StoreOp):
            stores.setdefault(o.memref, []).append(o)
        elif isinstance(o, memref.LoadOp):
            read.add(o.memref)
    streamed = []
    for m, found in stores.items():
        t = m.type
        if not (isinstance(m, BlockArgument) and m.owner is arguments and isinstance(t, MemRefType)
                and len(found) == 1 and m not in read
                and large_enough(t)):
            continue
        *fixed, last = found[0].indices
        if last is body.args[0] and all(i.owner not in inside and i is not body.args[0] for i in fixed):
            streamed.append(found[0])
    return streamed


@dataclass(frozen=True)
class StreamingStoresPass(ModulePass):
    """Mark ``nontemporal`` the stores of large results that go around the cache."""

    name = "bcast-streaming-stores"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        marked = {store for loop in op.walk() if isinstance(loop, scf.ForOp) for store in streamed_stores(loop)}
        for store in op.walk():
            if isinstance(store, memref.StoreOp):
                store.properties.pop("nontemporal", None)
                if store in marked:
                    store.properties["nontemporal"] = BoolAttr.from_bool(True)
