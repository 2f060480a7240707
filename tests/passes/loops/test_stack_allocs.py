"""``bcast-stack-allocs`` on hand-written loop IR: the per-buffer and the
per-function limits (tests/filecheck/transforms/stack_allocs.mlir shows it
after the lowering)."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import memref

from bcast.ir.loops import STACK_ATTR
from bcast.passes.loops.stack_allocs import STACK_BYTES, STACK_TOTAL, StackAllocsPass
from bcast.tests.passes.loops.loop_ir import parse


def function(name: str, shapes: list[str]) -> str:
    allocs = "\n".join(f"  %a{k} = memref.alloc() : memref<{shape}>\n  memref.dealloc %a{k} : memref<{shape}>"
                       for k, shape in enumerate(shapes))
    return f"func.func @{name}() attributes {{llvm.emit_c_interface}} {{\n{allocs}\n  func.return\n}}\n"


def on_stack(text: str) -> list[str]:
    """The allocs marked (by function and number), after running the pass twice."""
    module = parse(text)
    for _ in range(2):
        StackAllocsPass().apply(Context(), module)
    return [f"{a.parent_op().sym_name.data}.{a.memref.name_hint}" for a in module.walk()
            if isinstance(a, memref.AllocOp) and STACK_ATTR in a.attributes]


def test_each_function_stacks_small_buffers_in_order_up_to_its_total():
    """64 KiB of f32 fits, one byte more does not; 3 x 64 + 48 KiB fit in
    256 KiB, 64 KiB more would not (heap), a later small one still does;
    each function has its own total. i1 is one byte, f16 two."""
    assert STACK_BYTES == 65536 and STACK_TOTAL == 4 * STACK_BYTES
    words = STACK_BYTES // 4
    text = (function("f", [f"{words}xf32"] * 3 + [f"{words * 3 // 4}xf32", f"{words}xf32", "4xf16"])
            + function("g", [f"{words}xf32", f"{STACK_BYTES + 1}xi1"])
            + function("h", [f"{STACK_BYTES // 2}xf16", f"{STACK_BYTES // 2 + 1}xf16"]))
    assert on_stack(text) == ["f.a0", "f.a1", "f.a2", "f.a3", "f.a5", "g.a0", "h.a0"]


def test_a_stale_mark_goes():
    big = f"{STACK_BYTES}xf32"
    text = function("f", [big]).replace("memref.alloc() :", "memref.alloc() {bcast.stack} :")
    assert on_stack(text) == []
