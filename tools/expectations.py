"""``--verify-diagnostics``: check MLIR-style ``expected-*`` annotations.

An annotation ``// expected-error @+1 {{text}}`` expects a diagnostic of that
severity on the line it designates whose message contains ``text``.
Designators: none (the annotation's own line), ``@+N``, ``@-N``, ``@above``,
``@below``. Every diagnostic must be expected and every expectation met;
as in mlir-opt 19 that includes notes, so an unannotated note is an
``unexpected note``. A diagnostic located in another file (an op's
``loc("model.py":10:3)``) can match no annotation of the input, as in MLIR.

Failures are reported MLIR style at ``file:line:col``: the diagnostic's own
position for an unexpected one, the annotation's for an unmet expectation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bcast.ir.diagnostics import Report, SourceLoc

ANNOTATION = re.compile(
    r"//\s*(?P<start>expected-)(?P<severity>error|note|warning|remark)"
    r"(?:\s*@(?P<where>[+-]\d+|above|below))?\s*\{\{(?P<text>.*?)\}\}\s*$"
)


@dataclass
class Expectation:
    """An annotation: ``line`` is the line it designates; ``source`` is where
    the annotation itself stands, to report it if it is never met."""

    severity: str
    line: int
    text: str
    source: SourceLoc
    matched: bool = False


def collect(text: str, line_offset: int, file: str) -> list[Expectation]:
    """The annotations of a chunk, with lines of the whole file."""
    expectations = []
    for i, line in enumerate(text.split("\n"), start=1 + line_offset):
        m = ANNOTATION.search(line)
        if m is None:
            continue
        where = m.group("where")
        if where is None:
            target = i
        elif where == "above":
            target = i - 1
        elif where == "below":
            target = i + 1
        else:
            target = i + int(where)
        source = SourceLoc(file, i, m.start("start") + 1)
        expectations.append(Expectation(m.group("severity"), target, m.group("text"), source))
    return expectations


def produced(reports: list[Report]) -> list[Report]:
    """Every diagnostic on its own, notes included: mlir-opt checks notes like
    any other diagnostic. A note is at its error's location unless it carries
    its own (``Note.loc``, e.g. a ``called from`` note)."""
    flat = []
    for r in reports:
        flat.append(Report(r.severity, r.message, r.loc))
        flat.extend(Report("note", str(n), getattr(n, "loc", r.loc)) for n in r.notes)
    return flat


def check(expectations: list[Expectation], reports: list[Report], file: str) -> list[str]:
    """Match reports (and their notes) against expectations; return failures."""
    failures = []
    for r in produced(reports):
        match = next((e for e in expectations if not e.matched and _matches(e, r, file)), None)
        if match is not None:
            match.matched = True
            continue
        failures.append(_failure(r.loc or file, f"unexpected {r.severity}: {r.message}"))
    for e in expectations:
        if not e.matched:
            message = f'expected {e.severity} "{e.text}" was not produced'
            failures.append(_failure(e.source, message))
    return failures


def _failure(where: SourceLoc | str, message: str) -> str:
    """One MLIR-style error line; a multi-line message keeps its alignment."""
    head = f"{where}: error: "
    first, *rest = message.split("\n")
    return "\n".join([head + first, *(" " * len(head) + line for line in rest)])


def _matches(e: Expectation, r: Report, file: str) -> bool:
    return (r.loc is not None and r.loc.file == file and r.loc.line == e.line
            and e.severity == r.severity and e.text in r.message)
