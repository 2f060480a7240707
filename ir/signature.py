"""Which function signatures bcast runs.

xDSL's ``func.func`` accepts any types, but every backend (the reference
evaluator, the NumPy emitter, ``bcast-run``'s inputs) reads a signature
through ``split_type``: ranked tensors (TML's nested ones too; dims
static, ``?`` or bounded, docs/semantics.md) of bcast's element types, and ``index`` values (the SSA indices of
``extract`` and ``assign``). Anything else verified and then failed inside a
backend; it is rejected here, at the function. (Nested types under numpy or
xla semantics are left to the ops that use them, which say to switch to
tml; a function that only passes them through runs.)
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, TensorType, UnrankedTensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from bcast.ir.diagnostics import Diagnostic
from bcast.ir.loops import is_loop_function
from bcast.ir.rules import RuleError
from bcast.ir.types import split_type

SUPPORTED = (
    "function arguments and results must be ranked tensors (possibly nested; "
    "dims static, dynamic or bounded) of i1, i8..i64, ui8..ui64, f16, f32 or f64, or index"
)


def unsupported_reason(t: Attribute) -> str | None:
    """Why no backend can take or return a value of type ``t`` (None if one can)."""
    if isinstance(t, IndexType):
        return None
    if isinstance(t, UnrankedTensorType):
        return f"unranked tensors are not supported: {t}"
    if not isinstance(t, TensorType):
        return f"expected a tensor or index type, got {t}"
    try:
        split_type(t)
    except RuleError as e:
        return e.message
    return None


def check_signature(func: FuncOp) -> None:
    """Reject a function whose arguments or results no backend supports.
    A function in loop form (``bcast-lower-to-loops`` output: memrefs only,
    marked with ``bcast.ir.loops.LOOP_FORM_ATTR``) is upstream MLIR, which
    ``mlir-opt`` checks; it is left alone."""
    if is_loop_function(func):
        return
    function_type = func.function_type
    for what, types in (("argument", function_type.inputs), ("result", function_type.outputs)):
        for i, t in enumerate(types.data):
            if (reason := unsupported_reason(t)) is not None:
                raise Diagnostic(f"{what} {i}: {reason}", [SUPPORTED])
