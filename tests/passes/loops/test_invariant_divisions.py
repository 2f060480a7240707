"""``bcast-invariant-divisions`` on hand-written loop IR: which divisions it
marks (tests/filecheck/transforms/invariant_divisions.mlir shows it after
the lowering)."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects import arith

from bcast.ir.loops import INVARIANT_DIVISOR_ATTR
from bcast.passes.loops.invariant_divisions import InvariantDivisionsPass
from bcast.tests.passes.loops.loop_ir import parse

LOOP = """
func.func @f(%x: memref<16xf32>, %h: memref<16xf16>, %b: f32, %bh: f16, %out: memref<16xf32>, %oh: memref<16xf16>)
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %j = %c0 to %c16 step %c1 {
    %a = memref.load %x[%j] : memref<16xf32>
    %q = arith.divf %a, %b : f32
    %r = arith.divf %q, %a : f32
    %ah = memref.load %h[%j] : memref<16xf16>
    %qh = arith.divf %ah, %bh : f16
    memref.store %r, %out[%j] : memref<16xf32>
    memref.store %qh, %oh[%j] : memref<16xf16>
  } {bcast.parallel, bcast.vectorize}
  func.return
}
"""


def marked(text: str) -> list[str]:
    """The marked divisions' results, after running the pass (twice: the
    second run decides the same)."""
    module = parse(text)
    for _ in range(2):
        InvariantDivisionsPass().apply(Context(), module)
    return [d.result.name_hint for d in module.walk()
            if isinstance(d, arith.DivfOp) and INVARIANT_DIVISOR_ATTR in d.attributes]


def test_an_f32_division_by_a_value_defined_outside_the_loop_is_marked():
    """Not the division by the loaded element, nor the f16 one."""
    assert marked(LOOP) == ["q"]


@pytest.mark.parametrize("change", [
    ("{bcast.parallel, bcast.vectorize}", "{bcast.parallel}"),  # not vectorized
    ("memref.load %x[%j]", "memref.load %out[%j]"),  # reads memory it writes: cannot run twice
])
def test_a_loop_that_is_not_vectorized_or_cannot_run_twice_keeps_its_divisions(change):
    text = LOOP.replace(*change)
    assert marked(text) == []


def test_a_stale_mark_goes():
    module = parse(LOOP.replace("arith.divf %q, %a : f32", "arith.divf %q, %a {bcast.invariant_divisor} : f32")
                   .replace("{bcast.parallel, bcast.vectorize}", "{bcast.parallel}"))
    InvariantDivisionsPass().apply(Context(), module)
    assert not any(INVARIANT_DIVISOR_ATTR in d.attributes for d in module.walk() if isinstance(d, arith.DivfOp))
