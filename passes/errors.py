"""Errors a pass reports about the input program, and running a pipeline."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import PassPipeline

from bcast.ir.diagnostics import op_report


class PassError(Exception):
    """A pass met input it cannot handle; located at the offending op."""

    def __init__(self, op: Operation, message: str, notes: list[str] | None = None):
        super().__init__(message)
        self.op = op
        self.message = message
        self.notes = notes or []

    def input_error(self):
        """The located input error that bcast-opt prints for this."""
        from bcast.tools.driver import InputError

        return InputError([op_report(self.op, self.message, self.notes)])


def run_pipeline(pipeline: PassPipeline, ctx: Context, module: ModuleOp) -> None:
    """Apply ``pipeline``; a PassError becomes a located input error."""
    try:
        pipeline.apply(ctx, module)
    except PassError as e:
        raise e.input_error() from None
