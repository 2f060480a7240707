"""Parsing with source locations, and the context holding bcast's dialects."""

from __future__ import annotations

import bisect
import math
import re
import struct

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    Builtin,
    ComplexType,
    BuiltinAttribute,
    BytesAttr,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    UnknownLoc,
    UnregisteredOp,
)
from xdsl.dialects.func import Func
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from bcast.ir import rules
from bcast.ir.dialect import Bcast
from bcast.ir.locations import InputFallbackLoc, file_range, shown_location


def make_context() -> Context:
    """A context with the builtin, func and bcast dialects, and the StableHLO
    and CHLO subset bcast imports (``bcast.ir.stablehlo``, ``bcast.ir.chlo``).

    It allows unregistered ops (xDSL's ``UnregisteredOp``): bcast works in an
    open world (docs/contracts.md, "Ops bcast does not know"), so an op of
    any other dialect, or a StableHLO op bcast does not import, in generic
    form, is read and kept by every rewriting pass; only a backend that must
    run it refuses it. (A generic op of a dialect bcast owns, ``"bcast.ad"``,
    is still a misspelling: ``tools.driver.check_no_unknown_ops``.)

    StableHLO and CHLO are registered, not loaded: xDSL loads (and bcast
    imports) them at their first op or attribute, so a program without
    them does not pay a tenth of a second for them."""
    ctx = Context(allow_unregistered=True)
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    ctx.load_dialect(Bcast)
    ctx.register_dialect("stablehlo", _stablehlo)
    ctx.register_dialect("chlo", _chlo)
    return ctx


def op_name(op: Operation) -> str:
    """The name as written (an unregistered op's own name)."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def is_stablehlo(op: Operation) -> bool:
    return op_name(op).split(".", 1)[0] in ("stablehlo", "chlo")


def has_stablehlo(module: Operation) -> bool:
    """Whether ``module`` holds StableHLO or CHLO ops (the import is needed).
    Here, beside the dialects' lazy registration, so that asking does not
    import the import pass and its dialects (about 0.05 s a process)."""
    return any(is_stablehlo(op) for op in module.walk())


def _stablehlo() -> Dialect:
    from bcast.ir.stablehlo import StableHLO

    return StableHLO


def _chlo() -> Dialect:
    from bcast.ir.chlo import CHLO

    return CHLO


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


_NEWLINE = re.compile("\n")
_SIMPLE_TENSOR = re.compile(r"tensor<(?:(?:[0-9]+|\?)x)*[a-z][a-z0-9]*>")
"""A ranked tensor type of a plain element type, written without spaces."""

MAX_CONSTANT_ELEMENTS = 1 << 22
"""xDSL stores every element of a dense literal, even a splat."""


class _LinearLexer(MLIRLexer):
    """xDSL's lexer with a string-literal regex that cannot backtrack
    exponentially. xDSL 0.74 nests quantifiers (``(?:[^"...]+|...)*``), so an
    unterminated string such as ``"bcast.add(%a, %b) : ...`` takes time
    exponential in the rest of the line; this one accepts the same strings
    one character per step."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


@irdl_attr_definition
class _AliasUse(ParametrizedAttribute, BuiltinAttribute):
    """``loc(#loc3)`` before ``#loc3 = loc(...)`` is read: a placeholder,
    replaced once the whole input is read. It registers as an ``UnknownLoc``
    (a location not known yet) so that it can nest in name, call-site and
    fused locations, whose parameters must be locations."""

    name = "bcast.alias_use"

    alias: StringAttr = param_def()

    def print_builtin(self, printer: Printer) -> None:
        with printer.in_location():
            printer.print_string(self.alias.data)


UnknownLoc.register(_AliasUse)


class LocatingParser(Parser):
    """xDSL's Parser, extended for located diagnostics and JAX's text.

    - Each op without ``loc(...)`` gets its ``file:line:col`` (at the op name,
      as MLIR does) in ``op.location``: xDSL gives verifier errors no
      location, and rewrites copy the location of the op they replace, so
      diagnostics after a pass still point into the file. ``line_offset``
      shifts lines for split inputs.
    - An op's own ``loc(...)`` is kept (reports then show that file position,
      as MLIR's do); one that shows none (``loc(unknown)``) keeps the input
      position too (``InputFallbackLoc``).
    - Locations may be ranges (``"f.py":4:7 to :67``) and may use ``#loc``
      aliases defined after the module, as JAX prints them.
    - An undefined SSA value is reported at its first use, not at the end of
      the input; errors xDSL finds in a dense literal only after its type are
      reported at the literal (or the type), not at the next token."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0):
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(_LinearLexer(Input(text, name)))
        self._line_offset = line_offset
        self._name_positions: list[Span] = []
        self._location_end: int | None = None
        self._written: list[tuple[Operation, FileLineColLoc]] = []
        self._alias_uses: dict[str, Span] = {}
        self._first_uses: dict[str, Span] = {}
        self._literal_depth = 0
        self._literal: tuple[Span, list[Parser._TensorLiteralElement]] | None = None
        self._dense_type: tuple[Attribute, int] | None = None
        self._newlines: list[int] | None = None
        self._types: dict[str, Attribute] = {}

    # -- op positions and written locations ---------------------------------

    def _parse_op_result_list(self):
        results = super()._parse_op_result_list()
        self._name_positions.append(self._current_token.span)
        return results

    def _line_col(self, position: int) -> tuple[int, int]:
        """Line and column (from 1) of ``position`` in the input, as xDSL's
        ``Span.get_location`` gives them. That one counts the newlines from
        the start of the input on every call, so locating every op took time
        quadratic in the input (2 s of a 7 s run at 10k ops); this one looks the
        line up among the newline offsets, found once."""
        if self._newlines is None:
            self._newlines = [m.start() for m in _NEWLINE.finditer(self.lexer.input.content)]
        line = bisect.bisect_left(self._newlines, position)
        line_start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, position - line_start + 1

    def parse_optional_location(self):
        """Also notes where a location ended: an op whose text ends there
        wrote its own ``loc(...)``."""
        loc = super().parse_optional_location()
        if loc is not None:
            self._location_end = self.pos
        return loc

    def parse_operation(self) -> Operation:
        depth = len(self._name_positions)
        op = super().parse_operation()
        span = self._name_positions[depth]
        del self._name_positions[depth:]
        line, col = self._line_col(span.start)
        position = FileLineColLoc(StringAttr(self.lexer.input.name), IntAttr(line + self._line_offset), IntAttr(col))
        if self._location_end == self.pos:
            self._written.append((op, position))
        else:
            op.location = position
        if depth == 0 or op.has_trait(IsolatedFromAbove):
            self._check_declared(span.start)
        return op

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """After the whole input (aliases may follow the module), resolve
        ``#loc`` aliases and give written locations that show no file
        position their input position."""
        module = super().parse_module(allow_implicit_module)
        if self._alias_uses:
            resolved: dict[str, Attribute] = {}
            for op in module.walk():
                op.location = self._resolve(op.location, resolved)
                for region in op.regions:
                    for block in region.blocks:
                        for arg in block.args:
                            arg.location = self._resolve(arg.location, resolved)
        for op, position in self._written:
            if shown_location(op.location) is None:
                op.location = InputFallbackLoc(op.location, position)
        return module

    # -- locations: ranges and aliases used before their definition -----------

    def _parse_location(self) -> LocationAttr:
        token = self._current_token
        if token.kind == MLIRTokenKind.HASH_IDENT and token.text not in self.attribute_aliases:
            self._consume_token()
            self._alias_uses.setdefault(token.text, token.span)
            return _AliasUse(StringAttr(token.text))
        if self.parse_optional_keyword("fused"):
            return self._parse_fused()
        loc = super()._parse_location()
        if isinstance(loc, FileLineColLoc) and self.parse_optional_keyword("to"):
            return self._parse_range_end(loc)
        return loc

    def _parse_fused(self) -> LocationAttr:
        """``fused[...]`` with MLIR's optional metadata, ``fused<"m">[...]``
        (xDSL prints the metadata but does not read it)."""
        metadata: Attribute = NoneAttr()
        if self.parse_optional_punctuation("<") is not None:
            metadata = self.parse_attribute()
            self.parse_punctuation(">", " after fused location metadata")
        parts = self.parse_comma_separated_list(self.Delimiter.SQUARE, self._parse_location)
        return FusedLoc(tuple(parts), metadata)

    def _parse_range_end(self, start: FileLineColLoc) -> LocationAttr:
        """The end of a range: ``to :col`` (same line) or ``to line:col``."""
        end_line = start.line.data
        if self.parse_optional_punctuation(":") is None:
            end_line = self.parse_integer(False, False, " for the end line of a location range")
            self.parse_punctuation(":", " in a location range")
        end_col = self.parse_integer(False, False, " for the end column of a location range")
        return file_range(start.filename.data, start.line.data, start.column.data, end_line, end_col)

    def _resolve(self, loc: Attribute, resolved: dict[str, Attribute], seen: tuple[str, ...] = ()) -> Attribute:
        """``loc`` with every alias placeholder replaced by its definition."""
        if isinstance(loc, _AliasUse):
            alias = loc.alias.data
            if alias not in resolved:
                use = self._alias_uses[alias]
                if alias in seen:
                    self.raise_error(f"location alias '{alias}' refers to itself", use)
                if alias not in self.attribute_aliases:
                    self.raise_error(f"undefined symbol alias '{alias}'", use)
                value = self.attribute_aliases[alias]
                if not isa(value, LocationAttr):
                    self.raise_error(f"'{alias}' is not a location: {value}", use)
                resolved[alias] = self._resolve(value, resolved, (*seen, alias))
            return resolved[alias]
        if isinstance(loc, NameLoc):
            return NameLoc(loc.desc, self._resolve(loc.location, resolved, seen))
        if isinstance(loc, CallSiteLoc):
            return CallSiteLoc(self._resolve(loc.callee, resolved, seen), self._resolve(loc.caller, resolved, seen))
        if isinstance(loc, FusedLoc):
            parts = tuple(self._resolve(part, resolved, seen) for part in loc.locations.data)
            return FusedLoc(parts, loc.metadata)
        return loc

    # -- SSA values used but never defined ------------------------------------

    def resolve_operand(self, operand, type):
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.forward_ssa_references:
            self._first_uses[name] = operand.span
        return super().resolve_operand(operand, type)

    def _check_declared(self, start: int) -> None:
        """Values used in an op that isolates its regions (a function, the
        module) must be defined in it: report the first use of one that is not,
        as MLIR does at the end of the region (xDSL: at the end of the input)."""
        pending = [self._first_uses[name] for name in self.forward_ssa_references
                   if name in self._first_uses and self._first_uses[name].start >= start]
        if pending:
            self.raise_error("use of undeclared SSA value name", min(pending, key=lambda s: s.start))

    # -- types ---------------------------------------------------------------

    def _parse_optional_builtin_parametrized_type(self):
        """Each distinct tensor type text (``tensor<8x16xf32>``) is parsed
        once per input: a bcast op names three or more tensor types, and
        xDSL's parsing of them (a dozen tokens, an attribute built and
        verified) was nearly half of parsing. Types are immutable, so the ops
        share the one object, as xDSL's own uniquing would have them."""
        token = self._current_token
        if token.kind != MLIRTokenKind.BARE_IDENT or token.text != "tensor":
            return super()._parse_optional_builtin_parametrized_type()
        match = _SIMPLE_TENSOR.match(self.lexer.input.content, token.span.start)
        if match is None:
            return self._parse_checked_tensor_type()
        text = match.group()
        cached = self._types.get(text)
        if cached is not None:
            self._resume_from(match.end())
            return cached
        parsed = self._parse_checked_tensor_type()
        # cache only what was read as exactly that text (no comment after it)
        rest = self.lexer.input.content[match.end() : self.pos]
        if parsed is not None and self.pos >= match.end() and not rest.strip():
            self._types[text] = parsed
        return parsed

    def _parse_checked_tensor_type(self):
        """A tensor type whose sizes fit int64 (``rules.check_sizes_fit_int64``;
        dynamic dims aside), reported at the type: xDSL keeps any Python int,
        and a backend would print it into code. A nested type's inner type
        is checked first, on its own."""
        start = self.pos
        parsed = super()._parse_optional_builtin_parametrized_type()
        levels, inner = [], parsed
        while isinstance(inner, TensorType):
            levels.append(tuple(d for d in inner.get_shape() if d >= 0))
            inner = inner.element_type
        try:
            rules.check_sizes_fit_int64(tuple(levels))
        except rules.RuleError as e:
            self.raise_error(f"{parsed}: {e.message}", self._span_to_here(start))
        return parsed

    # -- dense literals ------------------------------------------------------

    def _parse_optional_bool_int_or_float(self):
        parsed = super()._parse_optional_bool_int_or_float()
        if parsed is not None and type(parsed[0]) is int and parsed[1].text.lower().startswith("0x"):
            bits = HexBits(parsed[0])
            bits.text = parsed[1].text
            return bits, parsed[1]
        return parsed

    def _parse_optional_complex(self):
        """``(re, im)``: as xDSL reads it, but a hex part is a float's bits
        (``(0x7F800000, 1.0)`` is ``inf + 1j``, as MLIR reads it and as
        bcast prints infinities and NaN), and an integer beside a float is
        that float (MLIR reads parts by the element type)."""
        if self._current_token.kind != MLIRTokenKind.L_PAREN:
            return None
        start = self._consume_token(MLIRTokenKind.L_PAREN).span
        real, _ = self._parse_bool_int_or_float()
        self.parse_punctuation(",")
        imag, _ = self._parse_bool_int_or_float()
        end = self._consume_token(MLIRTokenKind.R_PAREN).span
        parts = (real, imag)
        if any(isinstance(p, float) or isinstance(p, HexBits) for p in parts) and not all(
                isinstance(p, int) and not isinstance(p, HexBits) for p in parts):
            parts = tuple(p if isinstance(p, HexBits | float) else float(p) for p in parts)
        return parts, Span(start.start, end.end, start.input)

    def parse_dense_int_or_fp_elements_attr(self, type):
        """xDSL checks the literal against its type only once the type is
        read, and reports at the token after it (often the next line); report
        at the literal instead, and a value that does not fit the element type
        at that value (xDSL raises a ValueError with no position)."""
        start = self.pos
        self._literal, self._dense_type = None, None
        try:
            return self._exact_hex_floats(super().parse_dense_int_or_fp_elements_attr(type))
        except ParseError as e:
            if self._dense_type is None or e.span.start < self._dense_type[1]:
                raise
            self.raise_error(e.msg, self._literal[0] if self._literal else Span(start, start + 1, self.lexer.input))
        except (VerifyException, ValueError, OverflowError, struct.error) as e:
            self.raise_error(str(e).strip() or e.__class__.__name__, self._misfit_element(start))

    def _exact_hex_floats(self, attr):
        """A hex literal of a float's width is that float's bit pattern
        (MLIR's rule). xDSL stores it through a Python float, which keeps
        neither a NaN's payload nor a signalling NaN (``0x7E01`` became
        ``0x7E00``); write those bits into the constant as they are."""
        element_type = attr.get_element_type()
        if isinstance(element_type, ComplexType) and isinstance(element_type.element_type, AnyFloat):
            part_type = element_type.element_type  # (a complex element: its two parts)
        elif isinstance(element_type, AnyFloat):
            part_type = None
        else:
            return attr
        if self._literal is None:
            return attr
        width = (part_type or element_type).compile_time_size
        elements = self._literal[1]

        def bits(value) -> bytes | None:
            if isinstance(value, HexBits) and len(value.text) - 2 == 2 * width and value >= 0:
                return int(value).to_bytes(width, "little")
            return None

        def packed(value) -> bytes:
            if part_type is None:
                return bits(value) or element_type.pack([float(value)])
            return b"".join(bits(p) or part_type.pack([float(p)]) for p in value)

        parts = [p for e in elements for p in (e.value if part_type is not None else (e.value,))]
        if not any(bits(p) is not None for p in parts):
            return attr
        width = element_type.compile_time_size
        data = b"".join(packed(e.value) for e in elements)
        if len(elements) == 1:  # a splat: xDSL stores every element
            data *= len(attr.data.data) // width
        if len(data) != len(attr.data.data):
            return attr
        return DenseIntOrFPElementsAttr(attr.type, BytesAttr(data))

    def _misfit_element(self, start: int) -> Span:
        """The first literal value its element type cannot hold (else the
        whole literal)."""
        if self._literal is None or self._dense_type is None:
            return Span(start, start + 1, self.lexer.input)
        span, elements = self._literal
        element_type = self._dense_type[0].get_element_type()
        for element in elements:
            try:
                if isinstance(element_type, IntegerType):
                    element_type.get_normalized_value(int(element.value))
                else:
                    element_type.pack([element.value])
            except (VerifyException, OverflowError, struct.error, TypeError, ValueError):
                return element.span
        return span

    def _parse_tensor_literal(self):
        """Notes the span and values of the outermost literal, for errors
        about it that xDSL finds only after the type."""
        start = self.pos
        self._literal_depth += 1
        try:
            elements, shape = super()._parse_tensor_literal()
        finally:
            self._literal_depth -= 1
        if self._literal_depth == 0:
            self._literal = (self._span_to_here(start), elements)
        return elements, shape

    def _span_to_here(self, start: int) -> Span:
        """From ``start`` to the end of the last token read (no trailing space)."""
        text = self.lexer.input.content[start : self.pos]
        return Span(start, start + len(text.rstrip()), self.lexer.input)

    def _parse_dense_literal_type(self):
        """Refuse huge dense literals before xDSL expands them element by
        element, and report a type xDSL rejects (unranked, dynamic) at the
        type rather than at the token after it."""
        start = self.pos
        try:
            t = super()._parse_dense_literal_type()
        except ParseError as e:
            self._resume_from(start)
            if self.parse_optional_type() is not None and self.pos == e.span.start:
                self.raise_error(e.msg, self._span_to_here(start))
            raise e from None
        self._dense_type = (t, self.pos)
        count = math.prod(t.get_shape())
        if count > MAX_CONSTANT_ELEMENTS:
            self.raise_error(
                f"dense constant of {count} elements is too large (the limit is "
                f"{MAX_CONSTANT_ELEMENTS}); broadcast a smaller constant instead",
                self._span_to_here(start),
            )
        return t
