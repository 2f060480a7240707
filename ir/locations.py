"""Source locations: the kinds xDSL 0.74 lacks, and where a diagnostic shows.

MLIR prints a location range as ``loc("f.py":4:7 to :67)`` (JAX does, for
every op it exports); xDSL 0.74 has no such attribute. Its location classes
are final, so ``FileLineColRange`` is a class of its own that registers as a
virtual subclass of ``FileLineColLoc``: it has the same ``filename``,
``line`` and ``column`` (the start, as in MLIR, where a file location *is* a
one-point range), so it nests in name, call-site and fused locations (their
parameter constraints check ``isinstance``) and every reader of a file
location reads its start.

``InputFallbackLoc`` keeps what the source wrote (``loc(unknown)``,
``loc("name")``) together with where the op stands in the input, so the op
still reports at its line while the written location prints back unchanged.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    BuiltinAttribute,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.printer import Printer


@irdl_attr_definition
class FileLineColRange(ParametrizedAttribute, BuiltinAttribute):
    """``"f.py":4:7 to :67`` (end on the start line) or ``"f.py":4:7 to 5:2``."""

    name = "bcast.file_line_col_range"

    filename: StringAttr = param_def()
    line: IntAttr = param_def()
    column: IntAttr = param_def()
    end_line: IntAttr = param_def()
    end_column: IntAttr = param_def()

    def print_builtin(self, printer: Printer) -> None:
        """MLIR's spelling: the end line is left out when it is the start line."""
        with printer.in_location():
            printer.print_string_literal(self.filename.data)
            printer.print_string(f":{self.line.data}:{self.column.data} to ")
            if self.end_line.data != self.line.data:
                printer.print_int(self.end_line.data)
            printer.print_string(f":{self.end_column.data}")


FileLineColLoc.register(FileLineColRange)


def file_range(filename: str, line: int, column: int, end_line: int, end_column: int) -> Attribute:
    """A range, or a plain file location when it is one point (as MLIR prints it)."""
    if (end_line, end_column) == (line, column):
        return FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(column))
    return FileLineColRange(
        StringAttr(filename), IntAttr(line), IntAttr(column), IntAttr(end_line), IntAttr(end_column)
    )


@irdl_attr_definition
class InputFallbackLoc(ParametrizedAttribute, BuiltinAttribute):
    """A written location that shows no file position, fused with the op's
    position in the input (``locations = [written, input]``).

    It registers as a ``FusedLoc``: MLIR shows the first file location among
    a fused location's parts, which is the input position here. It prints as
    the written location alone, so ``--print-debuginfo`` gives back the text."""

    name = "bcast.input_fallback_loc"

    locations: ArrayAttr[Attribute] = param_def()
    metadata: Attribute = param_def()

    def __init__(self, written: Attribute, position: FileLineColLoc):
        super().__init__(ArrayAttr([written, position]), NoneAttr())

    @property
    def written(self) -> Attribute:
        return self.locations.data[0]

    def print_builtin(self, printer: Printer) -> None:
        with printer.in_location():
            printer.print_attribute(self.written)


FusedLoc.register(InputFallbackLoc)


def shown_location(loc: Attribute) -> FileLineColLoc | None:
    """The file location a diagnostic at ``loc`` is reported at, as MLIR's
    SourceMgrDiagnosticHandler chooses it: a call site shows its callee (the
    callers become notes), a name its child, a fused location its first part
    that shows one; unknown locations show nothing."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, CallSiteLoc):
        return shown_location(loc.callee)
    if isinstance(loc, NameLoc):
        return shown_location(loc.location)
    if isinstance(loc, FusedLoc):
        for part in loc.locations.data:
            if (shown := shown_location(part)) is not None:
                return shown
    return None


def call_site(loc: Attribute) -> CallSiteLoc | None:
    """The call site ``loc`` stands for, looking through names and fused parts."""
    if isinstance(loc, CallSiteLoc):
        return loc
    if isinstance(loc, NameLoc):
        return call_site(loc.location)
    if isinstance(loc, FusedLoc):
        for part in loc.locations.data:
            if (site := call_site(part)) is not None:
                return site
    return None


CALL_STACK_LIMIT = 10
"""MLIR's SourceMgrDiagnosticHandler shows at most this many callers."""


def callers(loc: Attribute) -> list[FileLineColLoc]:
    """The shown locations of the callers of a call-site location, innermost
    first, each a ``called from`` note in MLIR."""
    shown: list[FileLineColLoc] = []
    site = call_site(loc)
    for _ in range(CALL_STACK_LIMIT):
        if site is None:
            break
        if (caller := shown_location(site.caller)) is not None:
            shown.append(caller)
        site = call_site(site.caller)
    return shown

