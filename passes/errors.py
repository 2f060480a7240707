"""Errors a pass reports about the input program."""

from __future__ import annotations

from xdsl.ir import Operation

from bcast.ir.diagnostics import Report, op_report


class PassError(Exception):
    """A pass met input it cannot handle; ``report`` is the located
    diagnostic (at the offending op) that the tools print for it."""

    def __init__(self, op: Operation, message: str, notes: list[str] | None = None):
        super().__init__(message)
        self.op = op
        self.message = message
        self.notes = notes or []
        self.report: Report = op_report(op, message, self.notes)
