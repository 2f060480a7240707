"""Diagnostics: errors with notes, and their MLIR-style rendering."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc, UnregisteredOp
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from bcast.ir import rules
from bcast.ir.locations import callers, shown_location


class Diagnostic(VerifyException):
    """A verifier error that carries notes (rendered after the error)."""

    def __init__(self, message: str, notes: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.notes = list(notes)


def incompatible_operands(types: Sequence[Attribute], e: rules.IncompatibleDims,
                          broadcast_dimensions: Sequence[int] | None = None) -> Diagnostic:
    """The NumPy rule's failure, worded with the operand types as written,
    whichever dialect's op broadcasts them; ``broadcast_dimensions``: the
    ones that expanded a lower-rank operand before the rule ran."""
    names = " and ".join(map(str, types)) if len(types) == 2 else ", ".join(map(str, types))
    head = "aligned from the right: "
    if broadcast_dimensions is not None:
        head = "after broadcast_dimensions, aligned from the right: "
    if e.level is not None:
        head = f"nesting level {e.level}, aligned from the right: "
    aligned = head + ("\n" + " " * len(head)).join(rules.aligned_from_the_right(e.shapes))
    sizes = " vs ".join(map(str, e.sizes))
    # Two sizes conflict when neither is 1; with three operands (select) a 1 may
    # be among them, so say what is actually wrong.
    why = "neither is 1" if len(e.sizes) == 2 else "sizes other than 1 differ"
    static = {d for d in e.sizes if isinstance(d, int) and d != 1}
    if len(static) < 2:  # the conflict is a bounded ? that can be neither 1 nor the size
        why = "the bound allows neither 1 nor an equal size"
    where = f"nesting level {e.level}, " if e.level is not None else ""
    notes = [aligned, f"{where}dimension {e.axis}: {sizes} ({why})", *e.notes]
    if broadcast_dimensions is not None:
        notes.append(f"broadcast_dimensions = {list(broadcast_dimensions)}")
    return Diagnostic(f"operands are not broadcast-compatible: {names}", notes)


def incompatible_results(inferred: Sequence[Attribute], declared: Sequence[Attribute]) -> Diagnostic:
    """MLIR's wording when an op's declared result types are not the ones
    its operands imply."""
    return Diagnostic(f"inferred type(s) '{', '.join(map(str, inferred))}' are incompatible with "
                      f"return type(s) of operation '{', '.join(map(str, declared))}'")  # fmt: skip


KIND_WORDS = {
    frozenset({"float"}): "floating-point",
    frozenset({"signed", "unsigned", "float"}): "numeric (integer or floating-point)",
    frozenset({"bool", "signed", "unsigned"}): "boolean or integer",
    frozenset({"signed", "unsigned"}): "integer",
    frozenset({"bool"}): "boolean (i1)",
    frozenset({"unsigned"}): "unsigned integer",
    frozenset({"bool", "unsigned"}): "boolean (i1) or unsigned integer",
    frozenset({"float", "complex"}): "floating-point or complex",
    frozenset({"signed", "unsigned", "float", "complex"}): "numeric (integer, floating-point or complex)",
    frozenset({"bool", "signed", "unsigned", "float", "complex"}): "boolean, numeric or complex",
}
"""How a message names the element kinds (``rules.kind``) a ``bcast`` op takes."""


def check_kinds(elements: Sequence[str], allowed: frozenset[str], note: str | None = None) -> None:
    """Each element type (``f32``, ``i1``...) is of an ``allowed`` kind, or a
    diagnostic names the kinds the op takes."""
    for element in elements:
        if rules.kind(element) not in allowed:
            raise Diagnostic(
                f"operands must be {KIND_WORDS.get(allowed, '/'.join(sorted(allowed)))}, "
                f"got element type {element}",
                [note] if note else [],
            )


@dataclass(frozen=True)
class SourceLoc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    @staticmethod
    def of(loc: FileLineColLoc) -> SourceLoc:
        return SourceLoc(loc.filename.data, loc.line.data, loc.column.data)


def source_loc(loc: Attribute) -> SourceLoc | None:
    """The ``file:line:col`` a diagnostic at location ``loc`` is reported at
    (``bcast.ir.locations.shown_location``: a range's start, a name's or a call
    site's file location, a fused location's first); None if it shows none."""
    shown = shown_location(loc)
    return None if shown is None else SourceLoc.of(shown)


def op_source_loc(op: Operation) -> SourceLoc | None:
    """Where diagnostics about ``op`` are reported: the file location of its
    ``loc(...)`` when the source gave one that shows a file position (a
    JAX user's ``model.py:10:3``), else its place in the input, which the
    parser records (see LocatingParser)."""
    return source_loc(op.location)


class Note(str):
    """A note with a location of its own (MLIR's ``called from`` notes);
    notes that are plain strings are reported at their diagnostic's location."""

    loc: SourceLoc | None

    def __new__(cls, text: str, loc: SourceLoc | None) -> Note:
        note = super().__new__(cls, text)
        note.loc = loc
        return note


def call_notes(op: Operation) -> list[Note]:
    """``called from`` notes for the callers in ``op``'s call-site location,
    innermost first, as MLIR emits them."""
    return [Note("called from", SourceLoc.of(caller)) for caller in callers(op.location)]


@dataclass
class Report:
    """One diagnostic with its severity, location and notes."""

    severity: str
    message: str
    loc: SourceLoc | None
    notes: list[str] = field(default_factory=list)
    op: Operation | None = field(default=None, repr=False, compare=False)
    """The op reported on, if any: where a tool that has no source positions
    (``xdsl-opt``) points at it in the printed IR."""

    def render(self) -> str:
        lines = [_indent(f"{_prefix(self.loc)}{self.severity}: ", self.message)]
        for note in self.notes:
            loc = note.loc if isinstance(note, Note) else self.loc
            lines.append(_indent(f"{_prefix(loc)}note: ", note))
        return "\n".join(lines)


def _prefix(loc: SourceLoc | None) -> str:
    return f"{loc}: " if loc else ""


def _indent(head: str, text: str) -> str:
    """Continuation lines of a multi-line message align under its first line."""
    first, *rest = text.split("\n")
    return "\n".join([head + first] + [" " * len(head) + r for r in rest])


def written_name(op: Operation) -> str:
    """The op's name as the input wrote it: an unregistered op's own name,
    not xDSL's ``builtin.unregistered`` (as MLIR names it)."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


UNKNOWN_DIALECTS = ("stablehlo", "chlo")
"""Dialects bcast holds a subset of, to import them (and to write
StableHLO): their other ops are not misspellings, and one left in a module
(the import kept it) is an op bcast does not know."""


def is_unknown(op: Operation) -> bool:
    """An op bcast does not know (docs/contracts.md, "Ops bcast does not
    know"): unregistered, or a StableHLO/CHLO op the import kept. Rewrites
    keep it, and only a backend that must run it refuses it."""
    return isinstance(op, UnregisteredOp) or op.name.split(".", 1)[0] in UNKNOWN_DIALECTS


def op_report(op: Operation, message: str, notes: Sequence[str] = ()) -> Report:
    """An error about ``op``, MLIR style: ``'bcast.add' op ...`` at its
    location, then the call stack of that location, then ``notes``."""
    return Report("error", f"'{written_name(op)}' op {message}", op_source_loc(op),
                  [*call_notes(op), *notes], op)


def verify_report(op: Operation, error: Exception) -> Report:
    """Turn a verifier exception raised by ``op`` into a located report."""
    if isinstance(error, Diagnostic):
        return op_report(op, error.message, error.notes)
    return op_report(op, str(error))
