"""``--verify-diagnostics``: check MLIR-style ``expected-*`` annotations.

An annotation ``// expected-error @+1 {{text}}`` expects a diagnostic of that
severity on the line it designates whose message contains ``text``.
Designators: none (the annotation's own line), ``@+N``, ``@-N``, ``@above``,
``@below``. Every diagnostic must be expected and every expectation met.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bcast.ir.diagnostics import Report

ANNOTATION = re.compile(
    r"//\s*expected-(?P<severity>error|note|warning|remark)"
    r"(?:\s*@(?P<where>[+-]\d+|above|below))?\s*\{\{(?P<text>.*?)\}\}\s*$"
)


@dataclass
class Expectation:
    severity: str
    line: int
    text: str
    source_line: int
    matched: bool = False


def collect(text: str, line_offset: int) -> list[Expectation]:
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
        expectations.append(Expectation(m.group("severity"), target, m.group("text"), i))
    return expectations


def check(expectations: list[Expectation], reports: list[Report], file: str) -> list[str]:
    """Match reports (and their notes) against expectations; return failures."""
    produced: list[tuple[str, int | None, str]] = []
    for r in reports:
        line = r.loc.line if r.loc else None
        produced.append((r.severity, line, r.message))
        produced.extend(("note", line, n) for n in r.notes)
    failures = []
    for severity, line, message in produced:
        for e in expectations:
            if not e.matched and e.severity == severity and e.line == line and e.text in message:
                e.matched = True
                break
        else:
            if severity == "note":
                continue  # notes need not be expected (MLIR checks them only when annotated)
            where = f"{file}:{line}" if line else file
            failures.append(f"{where}: error: unexpected {severity}: {message}")
    for e in expectations:
        if not e.matched:
            failures.append(
                f"{file}:{e.source_line}: error: expected {e.severity} "
                f'"{e.text}" was not produced'
            )
    return failures
