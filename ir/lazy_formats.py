"""Declarative assembly formats parsed when first used, not when an op class
is defined.

xDSL parses an op's ``assembly_format`` string into a ``FormatProgram`` in
``irdl_op_definition``, as the class is created. A process that imports
bcast defines a few hundred ops (bcast's own, ``arith``, ``memref``,
``math``, ``scf``, ``cf``...) and parses or prints few of them: a compile
on the C backend builds its loop IR in Python and prints none. Parsing the
formats of ops that are never parsed or printed was about 15% of importing
``bcast.compile`` and a quarter of importing the C backend's modules
(docs/performance.md, "Time to first result").

``install`` makes ``FormatProgram.from_str`` return a ``LazyFormat``,
which runs xDSL's own format parser at the op's first parse or print and
then xDSL's own ``FormatProgram`` for every parse and print. The one thing
that changes is when a malformed format is reported: at that first use,
not at class definition (``tests/ir/test_lazy_formats.py`` parses every
registered op's format, so a bad one in bcast still fails a test).
"""

from __future__ import annotations

import threading
from typing import Any

from xdsl.irdl import declarative_assembly_format as formats

_original = formats.FormatProgram.from_str
_lock = threading.Lock()


class LazyFormat:
    """A format string and its op definition; the ``FormatProgram`` made
    from them at the first ``parse`` or ``print`` (once, under a lock)."""

    __slots__ = ("op_def", "program", "text")

    def __init__(self, text: str, op_def: Any):
        self.text, self.op_def = text, op_def
        self.program: formats.FormatProgram | None = None

    def force(self) -> formats.FormatProgram:
        """The ``FormatProgram`` (xDSL's, made now if not yet)."""
        program = self.program
        if program is None:
            with _lock:
                if self.program is None:
                    self.program = _original(self.text, self.op_def)
                program = self.program
        return program

    def parse(self, parser, op_type):
        return self.force().parse(parser, op_type)

    def print(self, printer, op) -> None:
        return self.force().print(printer, op)

    def __getattr__(self, name: str):
        """Anything else xDSL (or a user's code) reads of a ``FormatProgram``
        is the made program's."""
        return getattr(self.force(), name)


MADE: list[LazyFormat] = []
"""Every ``LazyFormat`` made (one per op class with a format), for the test
that forces them all."""


def _lazy_from_str(input: str, op_def: Any) -> LazyFormat:  # noqa: A002 - xDSL's parameter name
    made = LazyFormat(input, op_def)
    MADE.append(made)
    return made


def install() -> None:
    """Op classes defined from now on parse their format at first use."""
    formats.FormatProgram.from_str = staticmethod(_lazy_from_str)  # type: ignore[method-assign]
