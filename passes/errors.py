"""Errors a pass reports about the input program."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Attribute, Operation

from bcast.ir.diagnostics import Report, is_unknown, op_report
from bcast.ir.signature import SUPPORTED, unsupported_signature
from bcast.ir.types import is_dynamic_type


class PassError(Exception):
    """A pass met input it cannot handle; ``report`` is the located
    diagnostic (at the offending op) that the tools print for it."""

    def __init__(self, op: Operation, message: str, notes: list[str] | None = None):
        super().__init__(message)
        self.op = op
        self.message = message
        self.notes = notes or []
        self.report: Report = op_report(op, message, self.notes)


def check_one_block_functions(module: Operation, runner: str) -> None:
    """Backends run a function as one straight-line block (bcast registers no
    branch ops); a function of several blocks (ops of other dialects, kept
    with ``--allow-unregistered-dialect``) is refused where a backend must
    run it, located at the function, not met later as an internal error."""
    from xdsl.dialects import func

    for op in module.walk():
        if isinstance(op, func.FuncOp) and len(op.body.blocks) > 1:
            raise PassError(op, f"has {len(op.body.blocks)} blocks; {runner} runs functions of one block")


def check_runnable(ops: Operation, runner: str) -> None:
    """The first op bcast does not know (``is_unknown``) under ``ops``, in
    program order, is an error where ``runner`` (a backend) must run it:
    the rewriting passes keep such ops, a backend cannot."""
    for op in ops.walk():
        if is_unknown(op):
            raise PassError(op, f"is not supported by {runner}")
    check_signatures(ops, runner)


def check_signatures(ops: Operation, runner: str) -> None:
    """The first function under ``ops`` with an argument or result type no
    backend takes (``tensor<4xbf16>``) is an error where ``runner`` must run
    it: the verifier and the rewriting passes let it through."""
    for op in ops.walk():
        if isinstance(op, func.FuncOp) and (problem := unsupported_signature(op)) is not None:
            what, i, t, why = problem
            raise PassError(op, f"{what} {i} of type {t} is not supported by {runner}: {why}", [SUPPORTED])


def check_static(ops: Operation, runner: str) -> None:
    """The first op under ``ops`` (program order) with a dynamic or bounded
    dim is an error where ``runner`` (a pass or a backend that handles only
    static shapes so far) meets it, located and naming ``runner``, rather
    than an internal error inside it (docs/semantics.md, "Dynamic and
    bounded shapes": the reference, numpy and array-api backends run them)."""
    found = first_dynamic(ops)
    if found is not None:
        op, dynamic = found
        raise PassError(op, f"has dynamic dimensions ({dynamic}), which {runner} does not support yet",
                        ["the reference, numpy and array-api backends run dynamic and bounded shapes"])


def first_dynamic(ops: Operation) -> tuple[Operation, Attribute] | None:
    """The first op under ``ops`` (program order) with a dynamic or bounded
    dim, and that dim's type; None for a static program."""
    for op in ops.walk():
        types = [*op.operand_types, *op.result_types]
        if isinstance(op, func.FuncOp):
            types += [*op.function_type.inputs.data, *op.function_type.outputs.data]
        dynamic = next((t for t in types if is_dynamic_type(t)), None)
        if dynamic is not None:
            return op, dynamic
    return None


def check_element_types(function: func.FuncOp, refused: tuple[str, ...], runner: str, notes: list[str]) -> None:
    """The first value of ``function`` whose element type is in ``refused``
    is an error where ``runner`` does not compute that type: located at the
    function for an argument or result (its signature), else at the first
    op that makes such a value (docs/array-api.md: ``i4``/``ui4``)."""
    from xdsl.dialects.builtin import TensorType

    from bcast.ir.types import element_name

    def refused_in(t: Attribute) -> str | None:
        while isinstance(t, TensorType):
            t = t.element_type
        name = element_name(t)
        return name if name in refused else None

    function_type = function.function_type
    for what, types in (("argument", function_type.inputs), ("result", function_type.outputs)):
        for i, t in enumerate(types.data):
            if (name := refused_in(t)) is not None:
                raise PassError(function, f"{what} {i} of type {t} is not supported by {runner} (its element type {name})", notes)
    for op in function.walk():
        for t in op.result_types:
            if (name := refused_in(t)) is not None:
                raise PassError(op, f"result of type {t} is not supported by {runner} (its element type {name})", notes)
