"""The custom assembly directives of the ``bcast`` ops: index lists
(``%t[1, %i]``), reduction dims (``dims = [0, 2]``) and slice ranges
(``[1:3, 0:8:2]``, shared with ``stablehlo.slice``), the syntax xDSL's
declarative format cannot say by itself."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerAttr, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from bcast.ir import rules
from bcast.ir.types import dense_i64


@irdl_custom_directive
class IndexList(CustomDirective):
    """``[1, %i, 999]``: literal and SSA (``index``) indices, printed right after
    the indexed operand (``%t[1, %i]``). Dynamic entries are ``DYNAMIC_INDEX``
    in the static list."""

    dynamic: VariadicOperandVariable
    static: AttributeVariable
    OPTIONAL: ClassVar[bool] = False

    def parse(self, parser: Parser, state: ParsingState) -> None:
        dynamic = []
        static: list[int] = []

        def element() -> None:
            value = parser.parse_optional_unresolved_operand()
            if value is not None:
                dynamic.append(value)
                static.append(DYNAMIC_INDEX)
                return
            pos = parser.pos
            index = parser.parse_integer(allow_boolean=False)
            if not -(2**63) < index < 2**63:
                parser.raise_error("index does not fit in 64 bits", pos, parser.pos)
            static.append(index)

        if self.OPTIONAL:
            found = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE, element)
            if found is None:
                self.set_empty(state)
                return
        else:
            parser.parse_comma_separated_list(parser.Delimiter.SQUARE, element)
        self.dynamic.set(state, dynamic)
        self.static.set(state, DenseArrayBase.from_list(i64, static))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        dynamic = list(self.dynamic.get(op))
        static = self.static.get(op)
        values = static.get_values() if isinstance(static, DenseArrayBase) else ()
        if self.OPTIONAL and not values:
            return
        parts = []
        for v in values:
            if v == DYNAMIC_INDEX:
                parts.append(dynamic.pop(0))
            else:
                parts.append(v)
        printer.print_string("[")
        printer.print_list(parts, lambda p: printer.print_operand(p) if isinstance(p, SSAValue) else printer.print_string(str(p)))
        printer.print_string("]")
        state.last_was_punctuation = False
        state.should_emit_space = True

    def set_empty(self, state: ParsingState) -> None:
        self.dynamic.set(state, [])
        self.static.set(state, DenseArrayBase.from_list(i64, []))

    def is_anchorable(self) -> bool:
        return True


@irdl_custom_directive
class OptionalIndexList(IndexList):
    """Like IndexList, but absent when there are no indices (``assign %dst, ...``)."""

    dynamic: VariadicOperandVariable
    static: AttributeVariable

    OPTIONAL: ClassVar[bool] = True


@irdl_custom_directive
class SortedDims(CustomDirective):
    """``[2, 0]``: reduction dims in any order, stored and printed sorted, so
    equal reductions print equally (duplicates are kept for the verifier)."""

    dims: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def dim() -> int:
            pos = parser.pos
            value = parser.parse_integer(allow_boolean=False)
            if not -(2**63) <= value < 2**63:
                parser.raise_error("dim does not fit in 64 bits", pos, parser.pos)
            return value

        values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, dim)
        self.dims.set(state, dense_i64(sorted(values)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        dims = self.dims.get(op)
        values = sorted(dims.get_values()) if isinstance(dims, DenseArrayBase) else []
        if state.should_emit_space:
            printer.print_string(" ")
        printer.print_string(f"[{', '.join(map(str, values))}]")
        state.last_was_punctuation = False
        state.should_emit_space = True


@irdl_custom_directive
class JoinedOperands(CustomDirective):
    """``%a, %b, dim = 0``: concatenate's operands and its dimension, in
    StableHLO's syntax (a comma after a variadic list, which the declarative
    format cannot say)."""

    inputs: VariadicOperandVariable
    dimension: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        inputs = []
        while (value := parser.parse_optional_unresolved_operand()) is not None:
            inputs.append(value)
            parser.parse_punctuation(",")
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        pos = parser.pos
        dimension = parser.parse_integer(allow_boolean=False)
        if not -(2**63) <= dimension < 2**63:
            parser.raise_error("dim does not fit in 64 bits", pos, parser.pos)
        self.inputs.set(state, inputs)
        self.dimension.set(state, IntegerAttr(dimension, i64))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if state.should_emit_space:
            printer.print_string(" ")
        for value in self.inputs.get(op):
            printer.print_operand(value)
            printer.print_string(", ")
        dimension = self.dimension.get(op)
        printer.print_string(f"dim = {dimension.value.data if isinstance(dimension, IntegerAttr) else dimension}")
        state.last_was_punctuation = False
        state.should_emit_space = True

    def is_anchorable(self) -> bool:
        return True


@irdl_custom_directive
class SliceRanges(CustomDirective):
    """``[1:3, 0:8:2]``: ``start:limit`` per dimension, ``:stride`` when the
    stride is not 1 (``[]`` for rank 0), StableHLO's ``custom<SliceRanges>``."""

    start_indices: AttributeVariable
    limit_indices: AttributeVariable
    strides: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        starts: list[int] = []
        limits: list[int] = []
        strides: list[int] = []

        def parse_index() -> int:
            """An i64 entry, refused at its own token when it does not fit
            (it would wrap silently into the ``array<i64>``)."""
            start = parser.pos
            value = parser.parse_integer(allow_boolean=False)
            if not -(2**63) <= value < 2**63:
                parser.raise_error(f"slice index {value} does not fit in int64", start, parser.pos)
            return value

        def parse_range() -> None:
            starts.append(parse_index())
            parser.parse_punctuation(":")
            limits.append(parse_index())
            has_stride = parser.parse_optional_punctuation(":") is not None
            strides.append(parse_index() if has_stride else 1)

        parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_range)
        self.start_indices.set(state, dense_i64(starts))
        self.limit_indices.set(state, dense_i64(limits))
        self.strides.set(state, dense_i64(strides))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        lists = [_array_values(v.get(op)) for v in (self.start_indices, self.limit_indices, self.strides)]
        if len({len(values) for values in lists}) != 1:
            # Invalid IR (in a diagnostic): every list in full, not a misleading zip.
            names = ("start_indices", "limit_indices", "strides")
            printer.print_string("[" + ", ".join(f"{n}: {list(v)}" for n, v in zip(names, lists)) + "]")
            return
        ranges = [f"{s}:{l}" + ("" if st == 1 else f":{st}") for s, l, st in zip(*lists)]
        printer.print_string("[" + ", ".join(ranges) + "]")


def _array_values(attr) -> tuple[int, ...]:
    return attr.get_values() if isinstance(attr, DenseArrayBase) else ()


def _parse_int_list(parser: Parser) -> list[int]:
    pos = parser.pos
    values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))
    if any(not -(2**63) <= v < 2**63 for v in values):
        parser.raise_error("a dimension does not fit in 64 bits", pos, parser.pos)
    return values


def parse_dot_dims(parser: Parser) -> tuple[list[int], list[int], list[int], list[int]]:
    """``[batching_dims = [0] x [0], ]contracting_dims = [2] x [1]``: the
    dimension numbers of a contraction as StableHLO prints them (lhs
    batching, rhs batching, lhs contracting, rhs contracting)."""
    lists: dict[str, tuple[list[int], list[int]]] = {"batching_dims": ([], []), "contracting_dims": ([], [])}
    for keyword in ("batching_dims", "contracting_dims"):
        if keyword == "batching_dims" and parser.parse_optional_keyword(keyword) is None:
            continue
        if keyword == "contracting_dims":
            parser.parse_keyword(keyword)
        parser.parse_punctuation("=")
        lhs = _parse_int_list(parser)
        parser.parse_keyword("x")
        lists[keyword] = (lhs, _parse_int_list(parser))
        if keyword == "batching_dims":
            parser.parse_punctuation(",")
    (lb, rb), (lc, rc) = lists["batching_dims"], lists["contracting_dims"]
    return lb, rb, lc, rc


def print_dot_dims(printer: Printer, lb, rb, lc, rc) -> None:
    """The inverse of ``parse_dot_dims`` (batching dims only when there are
    some, as StableHLO prints them)."""

    def pair(name: str, lhs, rhs) -> str:
        return f"{name} = [{', '.join(map(str, lhs))}] x [{', '.join(map(str, rhs))}]"

    if lb or rb:
        printer.print_string(pair("batching_dims", lb, rb) + ", ")
    printer.print_string(pair("contracting_dims", lc, rc))


@irdl_custom_directive
class DotDims(CustomDirective):
    """``batching_dims = [0] x [0], contracting_dims = [2] x [1]`` into four
    i64 array properties (``parse_dot_dims``)."""

    lhs_batch: AttributeVariable
    rhs_batch: AttributeVariable
    lhs_contract: AttributeVariable
    rhs_contract: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        for variable, values in zip((self.lhs_batch, self.rhs_batch, self.lhs_contract, self.rhs_contract),
                                    parse_dot_dims(parser)):  # fmt: skip
            variable.set(state, dense_i64(values))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if state.should_emit_space:
            printer.print_string(" ")
        values = [v.get(op) for v in (self.lhs_batch, self.rhs_batch, self.lhs_contract, self.rhs_contract)]
        print_dot_dims(printer, *(v.get_values() if isinstance(v, DenseArrayBase) else () for v in values))
        state.last_was_punctuation = False
        state.should_emit_space = True

    def is_anchorable(self) -> bool:
        return True


@irdl_custom_directive
class CheckedShapes(CustomDirective):
    """``[%n, 4] at [0, 1], [%m] at [1]``: a run-time check's operand shapes
    (literal and SSA ``index`` sizes, as ``IndexList`` writes one list) and
    the result dims each operand's dims land on (``broadcast_in_dim``'s
    dims). Stored flat: ``static`` (``DYNAMIC_INDEX`` for SSA sizes),
    ``ranks`` (one per operand) and ``dims``."""

    sizes: VariadicOperandVariable
    static: AttributeVariable
    ranks: AttributeVariable
    dims: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        sizes, static, ranks, dims = [], [], [], []

        def size() -> None:
            value = parser.parse_optional_unresolved_operand()
            if value is not None:
                sizes.append(value)
                static.append(DYNAMIC_INDEX)
            else:
                static.append(parser.parse_integer(allow_boolean=False))

        def shape() -> None:
            rank = len(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, size))
            parser.parse_keyword("at")
            pos = parser.pos
            lands = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))
            if len(lands) != rank:
                parser.raise_error(f"a shape of rank {rank} lands on {len(lands)} dims", pos, parser.pos)
            ranks.append(rank)
            dims.extend(lands)

        parser.parse_comma_separated_list(parser.Delimiter.NONE, shape)
        self.sizes.set(state, sizes)
        self.static.set(state, dense_i64(static))
        self.ranks.set(state, dense_i64(ranks))
        self.dims.set(state, dense_i64(dims))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        sizes = iter(self.sizes.get(op))
        static = iter(self.static.get(op).get_values())
        dims = iter(self.dims.get(op).get_values())
        if state.should_emit_space:
            printer.print_string(" ")
        for k, rank in enumerate(self.ranks.get(op).get_values()):
            if k:
                printer.print_string(", ")
            parts = [next(sizes) if (s := next(static)) == DYNAMIC_INDEX else s for _ in range(rank)]
            printer.print_string("[")
            printer.print_list(parts, lambda p: printer.print_operand(p) if isinstance(p, SSAValue)
                               else printer.print_string(str(p)))  # fmt: skip
            printer.print_string(f"] at [{', '.join(str(next(dims)) for _ in range(rank))}]")
        state.last_was_punctuation = False
        state.should_emit_space = True

    def is_anchorable(self) -> bool:
        return True


@irdl_custom_directive
class SizeList(IndexList):
    """``[%n, 4]``: an ``IndexList`` of sizes standing on its own (after a
    comma), so spaced as any other operand is."""

    dynamic: VariadicOperandVariable
    static: AttributeVariable

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if state.should_emit_space or state.last_was_punctuation:
            printer.print_string(" ")
        super().print(printer, state, op)


# --------------------------------------------------------------------------
# convolution: ``dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` and
# ``window = {stride = [..], pad = [[..], ..], lhs_dilate = [..], rhs_dilate
# = [..], reverse = [..]}``, StableHLO's pretty form, shared with bcast's
# --------------------------------------------------------------------------


def _parse_conv_layout(parser: Parser, letters: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
    """``[b, 0, 1, f]``: the positions of the two letters and of spatial dims
    0, 1, ... (each once)."""
    pos = parser.pos

    def entry() -> str:
        number = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
        return str(number) if number is not None else parser.parse_identifier()

    entries = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
    spatial = [str(k) for k in range(len(entries) - 2)]
    if sorted(entries) != sorted([*letters, *spatial]):
        parser.raise_error(f"expected a layout of '{letters[0]}', '{letters[1]}' and the spatial dimensions "
                           f"0 to {len(entries) - 3}, each once", pos, parser.pos)  # fmt: skip
    return entries.index(letters[0]), entries.index(letters[1]), tuple(entries.index(s) for s in spatial)


def parse_conv_dims(parser: Parser) -> rules.ConvDims:
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``: input, kernel and output
    layouts (``rules.ConvDims.text`` writes it back)."""
    layouts = []
    for k, letters in enumerate(rules.ConvDims.LETTERS):
        if k == 1:
            parser.parse_keyword("x")
        elif k == 2:
            parser.parse_punctuation("->")
        layouts.append(_parse_conv_layout(parser, letters))
    return rules.ConvDims(*(field for layout in layouts for field in layout))


CONV_WINDOW_FIELDS = ("stride", "pad", "lhs_dilate", "rhs_dilate", "reverse")
"""The window fields of the pretty form, in the order they are printed."""


def parse_conv_window(parser: Parser) -> dict[str, list]:
    """``{stride = [2, 2], pad = [[1, 1], [0, 0]], reverse = [false, true]}``:
    the fields written (any of ``CONV_WINDOW_FIELDS``, once each); ``pad``
    as (low, high) pairs, ``reverse`` as booleans (``0``/``1`` accepted)."""
    fields: dict[str, list] = {}

    def field() -> None:
        pos = parser.pos
        name = parser.parse_identifier()
        if name not in CONV_WINDOW_FIELDS or name in fields:
            parser.raise_error(f"expected one of {', '.join(CONV_WINDOW_FIELDS)}, each once", pos, parser.pos)
        parser.parse_punctuation("=")
        if name == "pad":
            fields[name] = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_pair(parser))
        elif name == "reverse":
            fields[name] = [bool(v) for v in parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=True))]
        else:
            fields[name] = _parse_int_list(parser)

    parser.parse_comma_separated_list(parser.Delimiter.BRACES, field)
    return fields


def _parse_pair(parser: Parser) -> tuple[int, int]:
    pos = parser.pos
    values = _parse_int_list(parser)
    if len(values) != 2:
        parser.raise_error(f"expected a [low, high] pair, got {len(values)} values", pos, parser.pos)
    return values[0], values[1]


def conv_window_text(fields: dict[str, list]) -> str:
    """The inverse of ``parse_conv_window`` (the fields given, in order)."""

    def value(name: str, v: list) -> str:
        if name == "pad":
            return "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in v) + "]"
        if name == "reverse":
            return "[" + ", ".join("true" if b else "false" for b in v) + "]"
        return f"[{', '.join(map(str, v))}]"

    return "{" + ", ".join(f"{n} = {value(n, fields[n])}" for n in CONV_WINDOW_FIELDS if n in fields) + "}"
