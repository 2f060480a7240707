"""Which function signatures bcast runs.

xDSL's ``func.func`` accepts any types, but every backend (the reference
evaluator, the NumPy emitter, ``bcast-run``'s inputs) reads a signature
through ``split_type``: ranked tensors (TML's nested ones too; dims
static, ``?`` or bounded, docs/semantics.md) of bcast's element types, and
``index`` values (the SSA indices of ``extract`` and ``assign``). A tensor of
an element type bcast lacks (``tensor<4xbf16>``, complex: a JAX export whose
ops on them bcast keeps, as it keeps every op it does not know) verifies,
goes through every rewriting pass and is written back by ``-t stablehlo``; a
backend that must run it (and ``bcast-lower-to-loops``) refuses it, located
at the function (``bcast.passes.errors.check_signatures``): docs/contracts.md,
"Ops bcast does not know". Any other type no backend takes (unranked
tensors, scalars, memrefs outside loop IR) is rejected by the verifier, at
the function. (Nested types under numpy or xla semantics are left to the
ops that use them, which say to switch to tml; a function that only passes
them through runs.)
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, TensorType, UnrankedTensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from bcast.ir.loops import is_loop_function
from bcast.ir.diagnostics import Diagnostic
from bcast.ir.rules import RuleError
from bcast.ir.types import element_name, split_type

SUPPORTED = (
    "function arguments and results must be ranked tensors (possibly nested; "
    "dims static, dynamic or bounded) of i1, i4, i8..i64, ui4, ui8..ui64, f16, f32, f64, bf16, complex<f32> or complex<f64>, or index"
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


def foreign_element(t: Attribute) -> bool:
    """A statically shaped (possibly nested) tensor of an element type bcast
    lacks (``tensor<4xbf16>``, ``tensor<2xcomplex<f32>>``): another tool's
    values, which only ops bcast does not know can use."""
    levels = []
    while isinstance(t, TensorType):
        levels.append(t.get_shape())
        t = t.element_type
    return bool(levels) and element_name(t) is None and all(d >= 0 for level in levels for d in level)


def unsupported_signature(func: FuncOp, foreign: bool = True) -> tuple[str, int, Attribute, str] | None:
    """The first argument or result of ``func`` no backend takes, as
    ``("argument", 0, type, why)``, or None; with ``foreign`` False, a
    ``foreign_element`` type is taken. A function in loop form
    (``bcast-lower-to-loops`` output: memrefs only, marked with
    ``bcast.ir.loops.LOOP_FORM_ATTR``) is upstream MLIR, which ``mlir-opt``
    checks; it is left alone."""
    if is_loop_function(func):
        return None
    function_type = func.function_type
    for what, types in (("argument", function_type.inputs), ("result", function_type.outputs)):
        for i, t in enumerate(types.data):
            if (foreign or not foreign_element(t)) and (reason := unsupported_reason(t)) is not None:
                return what, i, t, reason
    return None


def check_signature(func: FuncOp) -> None:
    """The verifier's check: reject a function whose arguments or results
    no backend supports and no other tool would give it (a dynamic or
    unranked tensor, a scalar, a memref); a ``foreign_element`` type is
    left to the backends (``bcast.passes.errors.check_signatures``)."""
    if (problem := unsupported_signature(func, foreign=False)) is not None:
        what, i, _, reason = problem
        raise Diagnostic(f"{what} {i}: {reason}", [SUPPORTED])
