"""Parsing with source locations, and the context holding bcast's dialects."""

from __future__ import annotations

import math
import struct
import re

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, FileLineColLoc, IntAttr, StringAttr
from xdsl.dialects.func import Func
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer

from bcast.ir.dialect import Bcast


def make_context() -> Context:
    """A context with the builtin, func and bcast dialects."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    ctx.load_dialect(Bcast)
    return ctx


class HexBits(int):
    """A hex integer literal in a dense literal: as a float it is a bit
    pattern, as in MLIR (``0x7FC00000`` is an f32 NaN). xDSL prints NaN and
    infinities this way but reads them back as integers; the literal's digit
    count gives the float width (4, 8 or 16 hex digits)."""

    def __float__(self) -> float:
        digits = len(self.text) - 2
        code = {4: "<e", 8: "<f", 16: "<d"}.get(digits)
        if code is None:
            return float(int(self))
        return float(struct.unpack(code, int(self).to_bytes(digits // 2, "little"))[0])

    text: str = ""


MAX_CONSTANT_ELEMENTS = 1 << 22
"""xDSL stores every element of a dense literal, even a splat."""


class _LinearLexer(MLIRLexer):
    """xDSL's lexer with a string-literal regex that cannot backtrack
    exponentially. xDSL 0.74 nests quantifiers (``(?:[^"...]+|...)*``), so an
    unterminated string such as ``"bcast.add(%a, %b) : ...`` takes time
    exponential in the rest of the line; this one accepts the same strings
    one character per step."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


class LocatingParser(Parser):
    """A Parser that records each op's ``file:line:col`` in ``op.location``.

    xDSL gives verifier errors no location; recording where each op's name
    stands in the source (as MLIR does) lets every diagnostic, even after a
    pass, point into the file. ``line_offset`` shifts lines for split inputs."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(_LinearLexer(Input(text, name)))
        self._line_offset = line_offset
        self._name_positions: list[Span] = []

    def _parse_op_result_list(self):
        results = super()._parse_op_result_list()
        self._name_positions.append(self._current_token.span)
        return results

    def _parse_optional_bool_int_or_float(self):
        parsed = super()._parse_optional_bool_int_or_float()
        if parsed is not None and type(parsed[0]) is int and parsed[1].text.lower().startswith("0x"):
            bits = HexBits(parsed[0])
            bits.text = parsed[1].text
            return bits, parsed[1]
        return parsed

    def _parse_dense_literal_type(self):
        """Refuse huge dense literals before xDSL expands them element by element."""
        pos = self.pos
        t = super()._parse_dense_literal_type()
        count = math.prod(t.get_shape())
        if count > MAX_CONSTANT_ELEMENTS:
            self.raise_error(
                f"dense constant of {count} elements is too large (the limit is "
                f"{MAX_CONSTANT_ELEMENTS}); broadcast a smaller constant instead",
                pos,
                self.pos,
            )
        return t

    def parse_operation(self) -> Operation:
        depth = len(self._name_positions)
        op = super().parse_operation()
        span = self._name_positions[depth]
        del self._name_positions[depth:]
        loc = span.get_location()
        op.location = FileLineColLoc(
            StringAttr(self.lexer.input.name), IntAttr(loc.line + self._line_offset), IntAttr(loc.col)
        )
        return op
