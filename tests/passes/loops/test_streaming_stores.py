"""``bcast-streaming-stores`` on hand-written loop IR: which stores it marks
``nontemporal`` (tests/filecheck/transforms/streaming_stores.mlir shows it
after the lowering)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import memref

import bcast
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


def test_a_result_with_dynamic_dims_is_marked_for_a_run_time_decision():
    dynamic = LOOP.replace(f"%out: memref<{ROWS}x1024xf32>", "%out: memref<?x1024xf32>").replace(
        f"%out[%i, %j] : memref<{ROWS}x1024xf32>", "%out[%i, %j] : memref<?x1024xf32>")
    assert "memref<?x1024xf32>" in dynamic
    assert streamed(dynamic) == ["out"]


DYNAMIC_PROGRAM = """
func.func @main(%x: tensor<?x4096xf32>, %row: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %0 = bcast.add %x, %row : (tensor<?x4096xf32>, tensor<4096xf32>) -> tensor<?x4096xf32>
  func.return %0 : tensor<?x4096xf32>
}
"""


def test_the_c_target_streams_a_dynamic_result_only_when_it_is_large():
    """Rows of 4096 f32: ``STREAM_BYTES`` is 2048 of them; the C program
    copies its tiles with plain stores below that and streams at and above,
    with NumPy's results at 0, 1, 3 and 2048 rows."""
    f = bcast.compile(DYNAMIC_PROGRAM, backend="c")
    assert f"* 4 >= {STREAM_BYTES})) {{" in f.c_source and "bcast_stream(result0" in f.c_source
    assert "} else {" in f.c_source
    rng = np.random.default_rng(0)
    row = rng.standard_normal(4096).astype(np.float32)
    for rows in (0, 1, 3, STREAM_BYTES // (4 * 4096)):
        x = rng.standard_normal((rows, 4096)).astype(np.float32)
        np.testing.assert_array_equal(f(x, row), x + row)
