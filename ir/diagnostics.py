"""Diagnostics: errors with notes, and their MLIR-style rendering."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException


class Diagnostic(VerifyException):
    """A verifier error that carries notes (rendered after the error)."""

    def __init__(self, message: str, notes: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.notes = list(notes)


@dataclass(frozen=True)
class SourceLoc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def op_source_loc(op: Operation) -> SourceLoc | None:
    """The `file:line:col` the parser recorded for ``op`` (see LocatingParser)."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return SourceLoc(loc.filename.data, loc.line.data, loc.column.data)
    return None


@dataclass
class Report:
    """One diagnostic with its severity, location and notes."""

    severity: str
    message: str
    loc: SourceLoc | None
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        prefix = f"{self.loc}: " if self.loc else ""
        lines = [_indent(f"{prefix}{self.severity}: ", self.message)]
        for note in self.notes:
            lines.append(_indent(f"{prefix}note: ", note))
        return "\n".join(lines)


def _indent(head: str, text: str) -> str:
    """Continuation lines of a multi-line message align under its first line."""
    first, *rest = text.split("\n")
    return "\n".join([head + first] + [" " * len(head) + r for r in rest])


def op_report(op: Operation, message: str, notes: Sequence[str] = ()) -> Report:
    """An error about ``op``, MLIR style: ``'bcast.add' op ...`` at its location."""
    return Report("error", f"'{op.name}' op {message}", op_source_loc(op), list(notes))


def verify_report(op: Operation, error: Exception) -> Report:
    """Turn a verifier exception raised by ``op`` into a located report."""
    if isinstance(error, Diagnostic):
        return op_report(op, error.message, error.notes)
    return op_report(op, str(error))
