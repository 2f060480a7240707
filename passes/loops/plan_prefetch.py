"""``bcast-plan-prefetch``: which rows a phased row loop prefetches, and
which streamed results wait for the next row.

In a loop over rows whose body runs phases (a fusion with reductions), the
first phase reads argument rows from memory while the later ones compute
on them in cache. Marks, on the loop IR:

- ``bcast.prefetch_block = n`` (``PREFETCH_BLOCK_ATTR``) on the second
  phase (innermost, static trip count, no ``nontemporal`` store): it runs
  in blocks of ``n`` iterations (``PREFETCH_BLOCK``), each first
  prefetching the lines of the rows ahead that the block's positions will
  access;
- ``bcast.prefetch_ahead = k`` (``PREFETCH_AHEAD_ATTR``) on each load of
  the first phase that reads an argument's row whole (``PREFETCH_ROWS``
  ahead, into L2), and on each plain store of the last phase (of three or
  more) that writes a result's row whole (the next row, for writing; a
  ``nontemporal`` store to a result with ``?`` dims too, which the target
  then prefetches only when it does not stream at run time): the
  arrays of at least ``PREFETCH_BYTES`` whose last dim is as long as the
  phases and whose other dims are the rows (one row loop, or the loops of
  a ``bcast.collapse`` nest it ends);
- ``bcast.deferred_stream`` (``DEFERRED_STREAM_ATTR``) on the
  ``nontemporal`` stores of the last phase, when the second phase
  prefetches, the last one runs as many iterations, its row fits one tile
  (``STREAM_TILE_BYTES``) per store and nothing else in the row touches
  those results: the row's tile is streamed out a block at a time by the
  *next* row's second phase rather than all at once (a burst of 16 KiB of
  streaming stores stalls the core until memory takes them, while spread
  over the ``exp`` of the next row they overlap it; the last row goes out
  after the loop). A result with ``?`` dims streams only when it is large,
  which the target decides at run time (the same way on every row): it is
  deferred when it is the row's one streamed store, so that one size test
  decides both its stream and its tile (the target then drains pending
  rows whatever the size of the prefetched arrays).

Measured on one thread, from a cold cache and warm: softmax at 4096x4096
f32 17.9 -> 12.1 ms (prefetching and deferring; deferring alone 13.6 ->
12.1, and 7.2 -> 6.4 on two threads), at 1024x1024 1.05 -> 0.75 ms cold
and 0.59 -> 0.55 warm; layernorm at 4096 10.8 -> 10.1 ms, at 1024 0.81 ->
0.72 cold but 0.33 -> 0.35 warm (its phases compute little, so the
prefetches cost more than they hide when the rows are in cache). An array
with ``?`` dims is marked too: whether it has ``PREFETCH_BYTES`` is known only
at run time, where the target decides (the C target runs the phase without
prefetches below that size). Old marks are cleared, so a second run decides
afresh.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, ModuleOp, UnitAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from bcast.ir.loops import COLLAPSE_ATTR, DEFERRED_STREAM_ATTR, PREFETCH_AHEAD_ATTR, PREFETCH_BLOCK_ATTR
from bcast.passes.loops.collapse_nests import collapsed_nest
from bcast.passes.loops.nests import element_bytes, innermost, phases, trip
from bcast.passes.loops.streaming_stores import STREAM_TILE_BYTES, nontemporal

PREFETCH_BLOCK = 128
"""Iterations of a phase loop per block of row prefetches."""
PREFETCH_BYTES = 1 << 22
"""Arrays of at least this many bytes (4 MiB, twice the L2 of a core of the
development VM) are prefetched row by row in phased loops: smaller ones are
likely in a private cache already."""
PREFETCH_ROWS = 2
"""How many rows ahead a phase loop prefetches an argument: into L2, which
softmax at 4096x4096 f32 ran fastest with (12.0-12.2 ms on one thread
against 12.3 one row ahead and 13.4 into L1)."""


def collapsed_ivs(loop: scf.ForOp) -> set[SSAValue]:
    """The variables of the outer loops of the ``bcast.collapse`` nests
    around ``loop`` (a target counts only their innermost loop)."""
    ivs: set[SSAValue] = set()
    parent = loop.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp) and COLLAPSE_ATTR in parent.attributes:
            ivs.update(outer.body.blocks[0].args[0] for outer in collapsed_nest(parent)[:-1])
        parent = parent.parent_op()
    return ivs


def whole_rows(loop: scf.ForOp, phase: scf.ForOp, kind: type[memref.LoadOp | memref.StoreOp],
               cols: int) -> list[Operation]:
    """The accesses of ``phase`` (a phase of the row loop ``loop``) to a
    large argument's rows of ``cols`` elements, whole (see the module docstring)."""
    function = loop.parent_op()
    while not isinstance(function, func.FuncOp):
        function = function.parent_op()
    entry, row, iv = function.body.blocks[0], loop.body.blocks[0].args[0], phase.body.blocks[0].args[0]
    collapsed = collapsed_ivs(loop)
    found = []
    for o in phase.body.walk():
        if not isinstance(o, kind) or not isinstance(o.memref, BlockArgument) or o.memref.owner is not entry:
            continue
        shape, indices = o.memref.type.get_shape(), list(o.indices)
        if (len(shape) >= 2 and len(indices) == len(shape) and indices[-2] is row and indices[-1] is iv
                and all(i in collapsed for i in indices[:-2]) and trip(phase) == shape[-1] == cols
                and (DYNAMIC_INDEX in shape
                     or math.prod(shape) * element_bytes(o.memref.type.element_type) >= PREFETCH_BYTES)):
            found.append(o)
    return found


def plan(loop: scf.ForOp) -> None:
    """Mark ``loop``'s phases and accesses when it is a phased row loop."""
    rows = phases(loop)
    if len(rows) < 2 or not innermost(rows[1]) or (cols := trip(rows[1])) is None or nontemporal(rows[1]):
        return
    ahead = {o: PREFETCH_ROWS for o in whole_rows(loop, rows[0], memref.LoadOp, cols)}
    last = rows[-1]
    if len(rows) > 2 and innermost(last):
        # (a streamed result with ? dims is a plain store when small at run time)
        ahead.update((o, 1) for o in whole_rows(loop, last, memref.StoreOp, cols)
                     if not o.nontemporal.value.data or DYNAMIC_INDEX in o.memref.type.get_shape())
    if not ahead:
        return
    rows[1].attributes[PREFETCH_BLOCK_ATTR] = IntegerAttr(PREFETCH_BLOCK, 64)
    for o, k in ahead.items():
        o.attributes[PREFETCH_AHEAD_ATTR] = IntegerAttr(k, 64)
    streamed = nontemporal(last) if len(rows) > 2 and innermost(last) else []
    if not streamed or (len(streamed) > 1 and any(DYNAMIC_INDEX in st.memref.type.get_shape() for st in streamed)) \
            or trip(last) != trip(rows[1]) \
            or trip(last) * max(element_bytes(st.value.type) for st in streamed) > STREAM_TILE_BYTES:
        return
    # nothing else in the row reads or writes the streamed results
    results = {st.memref for st in streamed}
    if any(isinstance(o, memref.LoadOp | memref.StoreOp) and o not in streamed and o.memref in results
           for o in loop.body.walk()):
        return
    for store in streamed:
        store.attributes[DEFERRED_STREAM_ATTR] = UnitAttr()


@dataclass(frozen=True)
class PlanPrefetchPass(ModulePass):
    """Mark what phased row loops prefetch and which streams they defer."""

    name = "bcast-plan-prefetch"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        loops = [o for o in op.walk() if isinstance(o, scf.ForOp)]
        for o in op.walk():
            for name in (PREFETCH_BLOCK_ATTR, PREFETCH_AHEAD_ATTR, DEFERRED_STREAM_ATTR):
                o.attributes.pop(name, None)
        for loop in loops:
            plan(loop)
