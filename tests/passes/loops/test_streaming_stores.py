"""``bcast-streaming-stores`` on hand-written loop IR: which stores it marks
``nontemporal`` (tests/filecheck/transforms/streaming_stores.mlir shows it
after the lowering)."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import memref

from bcast.passes.loops.streaming_stores import STREAM_BYTES, StreamingStoresPass
from bcast.tests.passes.loops.loop_ir import parse

ROWS = STREAM_BYTES // (4 * 1024)
"""Rows of 1024 f32 in a result of exactly ``STREAM_BYTES``."""

LOOP = f"""
func.func @f(%x: memref<{ROWS}x1024xf32>, %out: memref<{ROWS}x1024xf32>, %small: memref<4x1024xf32>)
    attributes {{llvm.emit_c_interface}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant {ROWS} : index
  %cols = arith.constant 1024 : index
  scf.for %i = %c0 to %rows step %c1 {{
    scf.for %j = %c0 to %cols step %c1 {{
      %a = memref.load %x[%i, %j] : memref<{ROWS}x1024xf32>
      memref.store %a, %out[%i, %j] : memref<{ROWS}x1024xf32>
      memref.store %a, %small[%c0, %j] : memref<4x1024xf32>
    }} {{bcast.parallel}}
  }} {{bcast.parallel}}
  func.return
}}
"""


def streamed(text: str) -> list[str]:
    """The memrefs whose stores are marked, after running the pass twice."""
    module = parse(text)
    for _ in range(2):
        StreamingStoresPass().apply(Context(), module)
    return [s.memref.name_hint for s in module.walk() if isinstance(s, memref.StoreOp) and s.nontemporal.value.data]


def test_a_large_result_stored_at_consecutive_addresses_streams():
    assert streamed(LOOP) == ["out"]


@pytest.mark.parametrize("change", [
    ("}} {{bcast.parallel}}\n  }}", "}}\n  }}"),  # the innermost loop is not parallel
    ("%out[%i, %j] :", "%out[%j, %i] :"),  # not consecutive
    ("%a = memref.load %x[%i, %j]", "%a = memref.load %out[%i, %j]"),  # the loop reads it
])
def test_other_stores_stay_plain(change):
    old, new = (c.replace("{{", "{").replace("}}", "}") for c in change)
    assert old in LOOP
    assert streamed(LOOP.replace(old, new)) == []
