"""The StableHLO subset bcast reads (and writes), as JAX prints it.

xDSL 0.74 has no StableHLO dialect, so the ops bcast imports and the
StableHLO emitter builds are defined here, in the style of xDSL's own
dialects: a family base class carries the operands, the syntax and the
verifier. The unary and binary elementwise ops are generated from bcast's
(each bcast op class names its StableHLO counterpart, ``STABLEHLO``), with
StableHLO's element kinds (``ELEMENT_KINDS``); the others are written out.

The pretty syntax is MLIR's, exactly as jaxlib prints it::

    %0 = stablehlo.add %a, %b : tensor<4xf32>
    %1 = stablehlo.convert %x : (tensor<3xi32>) -> tensor<3xf32>
    %2 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %3 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4x1xf32>
    %4 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %5 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1]
           : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
    %7 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2]
           : (tensor<4x8xf32>, tensor<i64>, tensor<i64>) -> tensor<2x2xf32>
    %8 = stablehlo.dynamic_update_slice %x, %u, %i, %j
           : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i64>, tensor<i64>) -> tensor<4x8xf32>
    %9:2 = stablehlo.optimization_barrier %a, %x : tensor<4xf32>, tensor<4x8xf32>
    %10 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],
            precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>

(xDSL names several results ``%9, %10 =`` where MLIR writes ``%9:2 =``;
both spellings read in bcast and in jaxlib), and every op reads and prints the generic form too
(``"stablehlo.compare"(%a, %b) <{comparison_direction =
#stablehlo<comparison_direction GT>, ...}>``). Verifiers follow upstream
StableHLO for this subset (static shapes only), with located diagnostics.

Builders: ``AddOp(lhs, rhs)``, ``AbsOp(x)``, ``ConvertOp(x, result_type)``,
``CompareOp("GT", lhs, rhs)``, ``SelectOp(pred, t, f)``, ``ClampOp(min, x, max)``,
``BroadcastInDimOp(x, dims, result_type)``, ``ReduceOp([x], [init], dims, AddOp)``,
``ReduceWindowOp([x], [init], window, padding, body)`` (generic form only, as
JAX prints it), ``ConstantOp(dense_attr)``, ``ReturnOp(*values)``: see each docstring. CHLO,
StableHLO's binary ops with implicit broadcasting, is ``bcast.ir.chlo``.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    FunctionType,
    I64,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (Attribute, Block, Dialect, Operation, ParametrizedAttribute, Region,
                     SpacedOpaqueSyntaxAttribute, SSAValue, TypeAttribute)
from xdsl.interfaces import HasFolderInterface
from xdsl.irdl import (
    ParsePropInAttrDict,
    AnyAttr,
    ParamAttrConstraint,
    VarConstraint,
    base,
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, IsTerminator, Pure
from xdsl.utils.str_enum import StrEnum

from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.diagnostics import Diagnostic, incompatible_operands, incompatible_results
from bcast.ir.ops import CanonicalizationPatterns, ComparisonDirection
from bcast.ir.rules import IncompatibleDims, RuleError
from bcast.ir.directives import parse_dot_dims, print_dot_dims
from bcast.ir.types import DYNAMIC_INDEX, BoundsAttr, check_dynamic_supported, dense_i64, dims_tensor_type, tensor_dims, is_float_dtype

# --------------------------------------------------------------------------
# Attributes: #stablehlo<comparison_direction GT>, #stablehlo<comparison_type FLOAT>
# --------------------------------------------------------------------------


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """Prints ``#stablehlo<comparison_direction GT>``, as MLIR does."""

    name = "stablehlo.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.comparison_type"


# --------------------------------------------------------------------------
# Helpers: element kinds, shapes, the "same type" syntax
# --------------------------------------------------------------------------

BOOL, SIGNED, UNSIGNED, FLOAT, COMPLEX = "bool", "signed", "unsigned", "float", "complex"
INTEGER = frozenset({SIGNED, UNSIGNED})
LOGICAL = frozenset({BOOL, SIGNED, UNSIGNED})
NUMERIC = frozenset({SIGNED, UNSIGNED, FLOAT, COMPLEX})
ANY = frozenset({BOOL, SIGNED, UNSIGNED, FLOAT, COMPLEX})
_KIND_WORDS = {BOOL: "boolean", SIGNED: "signed integer", UNSIGNED: "unsigned integer",
               FLOAT: "floating-point", COMPLEX: "complex"}  # fmt: skip


def element_kind(element: Attribute) -> str:
    """``bool`` (i1), ``signed`` (signless or signed integers, as StableHLO
    reads them), ``unsigned``, ``float``, ``complex`` or ``other``."""
    if isinstance(element, IntegerType):
        if element.width.data == 1:
            return BOOL
        return UNSIGNED if element.signedness.data == Signedness.UNSIGNED else SIGNED
    if isinstance(element, AnyFloat):
        return FLOAT
    if isinstance(element, ComplexType):
        return COMPLEX
    return "other"


def _tensor(value: SSAValue | Attribute, what: str) -> TensorType:
    """A ranked tensor type; a ``?`` dim is ``-1`` in its shape (only ops whose
    class says ``DYNAMIC_SHAPES`` get this far with one)."""
    t = value.type if isinstance(value, SSAValue) else value
    if not isinstance(t, TensorType) or any(d < 0 and d != DYNAMIC_INDEX for d in t.get_shape()):
        raise Diagnostic(f"{what} must be a statically shaped ranked tensor, got {t}")
    try:
        rules.check_sizes_fit_int64((tuple(d for d in t.get_shape() if d >= 0),))
    except RuleError as e:
        raise Diagnostic(f"{what}: {e.message}", e.notes) from None
    return t


def shape_of(value: SSAValue | Attribute, what: str = "operand") -> tuple[int, ...]:
    return tuple(_tensor(value, what).get_shape())


def element_of(value: SSAValue | Attribute, what: str = "operand") -> Attribute:
    return _tensor(value, what).get_element_type()


def check_element_kinds(op: Operation, allowed: frozenset[str], values: Sequence[SSAValue]) -> None:
    """StableHLO's element-kind check, worded as StableHLO's own verifier
    words it (its kinds include complex and name no bcast op), so it keeps
    its words here rather than bcast's ``diagnostics.KIND_WORDS``."""
    for i, v in enumerate(values):
        element = element_of(v)
        if element_kind(element) not in allowed:
            words = " or ".join(_KIND_WORDS[k] for k in sorted(allowed))
            raise Diagnostic(f"operand #{i} must be a tensor of {words} values, got element type {element}")


def check_same_types(op: Operation, values: Sequence[SSAValue], what: str) -> None:
    types = [v.type for v in values]
    if any(t != types[0] for t in types):
        raise Diagnostic(f"requires the same type for {what}, got " + ", ".join(map(str, types)))


def type_of(value: SSAValue | Operation) -> Attribute:
    return SSAValue.get(value).type


def tensor_type(shape: Sequence[int], element: Attribute) -> TensorType:
    return TensorType(element, list(shape))


def _parse_operands(parser: Parser, count: int) -> list[UnresolvedOperand]:
    operands = [parser.parse_unresolved_operand()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
    return operands


def _split_attr_dict(cls: type[IRDLOperation], attrs: Mapping[str, Attribute]):
    """Properties written in the attribute dictionary (MLIR allows it) go to
    the properties, the rest stays attributes."""
    props = cls.get_irdl_definition().properties
    return ({k: v for k, v in attrs.items() if k in props},
            {k: v for k, v in attrs.items() if k not in props})  # fmt: skip


def _print_attr_dict(printer: Printer, op: IRDLOperation, shown: Sequence[str] = ()) -> None:
    extra = {k: v for k, v in op.properties.items() if k not in shown}
    printer.print_op_attributes({**op.attributes, **extra})


def _print_functional(printer: Printer, inputs: Sequence[Attribute], outputs: Sequence[Attribute]) -> None:
    printer.print_string("(")
    printer.print_list(inputs, printer.print_attribute)
    printer.print_string(") -> ")
    if len(outputs) == 1:
        printer.print_attribute(outputs[0])
    else:
        printer.print_string("(")
        printer.print_list(outputs, printer.print_attribute)
        printer.print_string(")")


def _same_operands_and_result_type(parser: Parser, count: int,
                                   short: Callable[[Attribute], list[Attribute] | str] | None = None):
    """``: T`` (every operand and the result are T) or ``: (A, B) -> C``:
    MLIR's ``custom<SameOperandsAndResultType>``; returns operand and result
    types. ``short``: the operand types ``: T`` names, or why T has no short
    form (an error at T), where they are not T each."""
    pos = parser.pos
    t = parser.parse_type()
    if isinstance(t, FunctionType):
        inputs, outputs = list(t.inputs.data), list(t.outputs.data)
        if len(inputs) != count or len(outputs) != 1:
            parser.raise_error(f"expected a function type with {count} inputs and one result", pos, parser.pos)
        return inputs, outputs[0]
    inputs = [t] * count if short is None else short(t)
    if isinstance(inputs, str):
        parser.raise_error(inputs, pos, parser.pos)
    return inputs, t


class SameTypeSyntax(IRDLOperation, abc.ABC):
    """``stablehlo.OP %a, %b : T`` when the operands and the result all have
    type T, else ``: (A, B) -> C``."""

    ARITY: ClassVar[int]

    @classmethod
    def short_operand_types(cls, t: Attribute) -> list[Attribute] | str:
        """The operand types the short form ``: T`` names: T each."""
        return [t] * cls.ARITY

    @classmethod
    def parse(cls, parser: Parser):
        operands = _parse_operands(parser, cls.ARITY)
        props, attrs = _split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        inputs, output = _same_operands_and_result_type(parser, cls.ARITY, cls.short_operand_types)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, inputs)]
        return cls.create(operands=values, result_types=[output], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        t, operands = self.results[0].type, [o.type for o in self.operands]
        if len(self.results) == 1 and operands == self.short_operand_types(t):
            printer.print_attribute(t)
        else:
            _print_functional(printer, operands, [r.type for r in self.results])


class StablehloOp(IRDLOperation, abc.ABC):
    """Base of the ops here: a rule violation is a located diagnostic."""

    DYNAMIC_SHAPES: ClassVar[bool] = False
    """Whether the op takes ``?`` and bounded dims: those the import maps
    onto bcast ops that take them (docs/stablehlo.md, "Dynamic programs")."""

    def verify_(self) -> None:
        try:
            check_dynamic_supported(self, self.DYNAMIC_SHAPES)
            self.verify_op()
        except RuleError as e:
            raise Diagnostic(e.message, e.notes) from None
        except IncompatibleDims as e:  # one an op did not word itself
            raise incompatible_operands([o.type for o in self.operands], e) from None

    @abc.abstractmethod
    def verify_op(self) -> None: ...

    @staticmethod
    def flat_shape_of(t: Attribute) -> rules.Shape:
        """The shape a builder of a family shared with bcast (``bc.PadFamily``,
        ...) reads: a ``?`` dim as ``rules.Dynamic`` (its bound kept), as bcast's."""
        return tensor_dims(_tensor(t, "operand"))

    @staticmethod
    def shaped_like(t: Attribute, shape: rules.Shape) -> TensorType:
        """The tensor type of ``shape`` (``?`` and bounds included) with ``t``'s element type."""
        return dims_tensor_type(element_of(t), shape)


# --------------------------------------------------------------------------
# Elementwise ops
# --------------------------------------------------------------------------


class ElementwiseBinaryOp(SameTypeSyntax, StablehloOp, abc.ABC):
    """``OP %lhs, %rhs : T``: operands and result of one type."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    ARITY: ClassVar[int] = 2
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation,
                 result_type: Attribute | None = None):
        """``OP(lhs, rhs, result_type=None)``: the result type defaults to ``lhs``'s."""
        super().__init__(operands=[lhs, rhs], result_types=[result_type or type_of(lhs)])

    def verify_op(self) -> None:
        check_same_types(self, [self.lhs, self.rhs, self.result], "all operands and results")
        check_element_kinds(self, self.ELEMENT_KINDS, [self.lhs, self.rhs])


class ElementwiseUnaryOp(SameTypeSyntax, StablehloOp, abc.ABC):
    """``OP %x : T``: the result has the operand's type."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    ARITY: ClassVar[int] = 1
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({FLOAT, COMPLEX})
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute | None = None):
        """``OP(operand)``: the result has the operand's type (its parts'
        type for a complex operand where ``REAL_OF_COMPLEX``)."""
        if result_type is None:
            result_type = t = type_of(operand)
            if self.REAL_OF_COMPLEX and isinstance(t, TensorType) and isinstance(t.element_type, ComplexType):
                result_type = TensorType(t.element_type.element_type, t.get_shape(), t.encoding)
        super().__init__(operands=[operand], result_types=[result_type])

    REAL_OF_COMPLEX: ClassVar[bool] = False
    """Whether a complex operand has a real result (``abs``: the modulus,
    ``real``, ``imag``: a part, of the complex's element type)."""

    def verify_op(self) -> None:
        element = element_of(self.operand)
        if self.REAL_OF_COMPLEX and isinstance(element, ComplexType):
            real = tensor_type(shape_of(self.operand), element.element_type)
            if self.result.type != real:
                raise Diagnostic(f"requires the result type {real} of a {self.operand.type} operand, "
                                 f"got {self.result.type}")  # fmt: skip
            return
        check_same_types(self, [self.operand, self.result], "all operands and results")
        check_element_kinds(self, self.ELEMENT_KINDS, [self.operand])


class ComplexOfPartsOp(ElementwiseBinaryOp, abc.ABC):
    """``complex %re, %im : tensor<4xcomplex<f32>>``: two ``f32`` (``f64``)
    operands of one type, the result the complex of that part type."""

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation,
                 result_type: Attribute | None = None):
        t = _tensor(type_of(lhs), "lhs")
        super().__init__(lhs, rhs, result_type or tensor_type(t.get_shape(), ComplexType(t.get_element_type())))

    @classmethod
    def short_operand_types(cls, t: Attribute) -> list[Attribute] | str:
        """``: T`` names the complex result; the operands are of its part
        type (MLIR's ``custom<ComplexOpType>``)."""
        element = element_of(t) if isinstance(t, TensorType) else None
        if not isinstance(element, ComplexType):
            return f"expected a tensor of complex values, got {t}"
        return [tensor_type(t.get_shape(), element.element_type)] * cls.ARITY

    def verify_op(self) -> None:
        check_same_types(self, [self.lhs, self.rhs], "all operands")
        part = element_of(self.lhs)
        if not isinstance(part, Float32Type | Float64Type):
            raise Diagnostic(f"operand #0 must be a tensor of 32-bit or 64-bit float values, got element type {part}")
        wanted = tensor_type(shape_of(self.lhs), ComplexType(part))
        if self.result.type != wanted:
            raise Diagnostic(f"requires the result type {wanted} of {self.lhs.type} operands, got {self.result.type}")


def _elementwise(op: type[bc.ElementwiseOp]) -> type[ElementwiseBinaryOp | ElementwiseUnaryOp]:
    """The StableHLO op of a bcast binary or unary op (its ``STABLEHLO``
    name), with StableHLO's element kinds (``ELEMENT_KINDS``)."""
    base = ElementwiseBinaryOp if issubclass(op, bc.BinaryOp) else ElementwiseUnaryOp
    base = ComplexOfPartsOp if op is bc.ComplexOp else base
    cls = type(op.__name__, (base,), {
        "name": op.STABLEHLO, "__module__": __name__,
        "__doc__": f"``{op.STABLEHLO}``: ``{op.name}`` (``bcast.ir.ops.{op.__name__}``).",
        "ELEMENT_KINDS": ELEMENT_KINDS.get(op.STABLEHLO, base.ELEMENT_KINDS),
        "REAL_OF_COMPLEX": issubclass(op, bc.PartUnaryOp),
        "__annotations__": {"ELEMENT_KINDS": ClassVar[frozenset[str]], "REAL_OF_COMPLEX": ClassVar[bool]},
    })  # fmt: skip
    return irdl_op_definition(cls)


ELEMENT_KINDS: dict[str, frozenset[str]] = {
    "stablehlo.add": ANY, "stablehlo.multiply": ANY, "stablehlo.maximum": ANY, "stablehlo.minimum": ANY,
    "stablehlo.atan2": frozenset({FLOAT, COMPLEX}), "stablehlo.and": LOGICAL, "stablehlo.or": LOGICAL,
    "stablehlo.xor": LOGICAL, "stablehlo.not": LOGICAL, "stablehlo.shift_left": INTEGER,
    "stablehlo.shift_right_arithmetic": INTEGER, "stablehlo.shift_right_logical": INTEGER,
    "stablehlo.negate": NUMERIC, "stablehlo.abs": frozenset({SIGNED, FLOAT}),
    "stablehlo.sign": frozenset({SIGNED, FLOAT, COMPLEX}), "stablehlo.floor": frozenset({FLOAT}),
    "stablehlo.ceil": frozenset({FLOAT}), "stablehlo.popcnt": INTEGER,
    "stablehlo.count_leading_zeros": INTEGER,
}  # fmt: skip
"""StableHLO's element kinds of its elementwise ops, where they are not
the family's (binary: numeric; unary: float and complex). ``abs``, ``real``
and ``imag`` take complex too, with a real result (``REAL_OF_COMPLEX``)."""

ELEMENTWISE_OPS: dict[str, type[ElementwiseBinaryOp | ElementwiseUnaryOp]] = {
    op.STABLEHLO: _elementwise(op) for op in bc.OPS
    if issubclass(op, bc.BinaryOp | bc.UnaryOp) and hasattr(op, "SCALAR") and op.STABLEHLO.startswith("stablehlo.")
}  # fmt: skip
"""The StableHLO counterpart of every bcast binary and unary op (compare,
select and convert, which carry more, are written out below), by name.
The ops whose counterpart is CHLO's (``erf``) have theirs in ``bcast.ir.chlo``."""
BINARY_OPS: tuple[type[ElementwiseBinaryOp], ...] = tuple(
    op for op in ELEMENTWISE_OPS.values() if issubclass(op, ElementwiseBinaryOp))
UNARY_OPS: tuple[type[ElementwiseUnaryOp], ...] = tuple(
    op for op in ELEMENTWISE_OPS.values() if issubclass(op, ElementwiseUnaryOp))

AddOp, AbsOp, NegateOp = (ELEMENTWISE_OPS[f"stablehlo.{n}"] for n in ("add", "abs", "negate"))
"""The ones other modules (and the builders' docs above) name; any other is
``ELEMENTWISE_OPS["stablehlo.X"]``."""


@irdl_op_definition
class IsFiniteOp(SameTypeSyntax, StablehloOp):
    """``is_finite %x : (tensor<4xf32>) -> tensor<4xi1>``: false for NaN and
    infinities."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.is_finite"
    ARITY: ClassVar[int] = 1
    x = operand_def(TensorType)
    y = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, x: SSAValue | Operation):
        """``IsFiniteOp(x)``: an i1 tensor of ``x``'s shape."""
        super().__init__(operands=[x], result_types=[tensor_type(shape_of(type_of(x)), i1)])

    def verify_op(self) -> None:
        check_element_kinds(self, frozenset({FLOAT}), [self.x])
        if shape_of(self.y, "result") != shape_of(self.x) or element_of(self.y, "result") != i1:
            raise Diagnostic(f"result must be an i1 tensor of the operand's shape "
                             f"{tensor_type(shape_of(self.x), i1)}, got {self.y.type}")  # fmt: skip


@irdl_op_definition
class ReducePrecisionOp(StablehloOp):
    """``reduce_precision %x, format = e5m10 : tensor<4xf32>``: each float
    rounded (to nearest, ties to even) to ``mantissa_bits`` bits after the
    point and held to ``exponent_bits`` bits of exponent (beyond: signed
    infinity; at or below the smallest normal: signed zero), in its own type
    (``jax.lax.reduce_precision``; docs/stablehlo.md, "reduce_precision").
    ``ReducePrecisionOp(x, exponent_bits, mantissa_bits)``."""

    name = "stablehlo.reduce_precision"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    output = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr)
    mantissa_bits = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    FORMAT: ClassVar = re.compile(r"e(\d+)m(\d+)")
    """The ``format`` keyword: ``e`` exponent bits ``m`` mantissa bits."""

    def __init__(self, x: SSAValue | Operation, exponent_bits: int, mantissa_bits: int):
        super().__init__(operands=[x], result_types=[type_of(x)],
                         properties={"exponent_bits": IntegerAttr(exponent_bits, 32),
                                     "mantissa_bits": IntegerAttr(mantissa_bits, 32)})  # fmt: skip

    @property
    def bits(self) -> tuple[int, int]:
        """(exponent bits, mantissa bits)."""
        return self.exponent_bits.value.data, self.mantissa_bits.value.data

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("format")
        parser.parse_punctuation("=")
        pos = parser.pos
        match = cls.FORMAT.fullmatch(parser.parse_identifier())
        if match is None:
            parser.raise_error("expected a format e<exponent bits>m<mantissa bits>, such as e5m10", pos, parser.pos)
        props, attrs = _split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        inputs, output = _same_operands_and_result_type(parser, 1)
        props |= {"exponent_bits": IntegerAttr(int(match[1]), 32), "mantissa_bits": IntegerAttr(int(match[2]), 32)}
        return cls.create(operands=[parser.resolve_operand(operand, inputs[0])], result_types=[output],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        exponent, mantissa = self.bits
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", format = e{exponent}m{mantissa}")
        _print_attr_dict(printer, self, ("exponent_bits", "mantissa_bits"))
        printer.print_string(" : ")
        if self.operand.type == self.output.type:
            printer.print_attribute(self.output.type)
        else:
            _print_functional(printer, [self.operand.type], [self.output.type])

    def verify_op(self) -> None:
        exponent, mantissa = self.bits
        if exponent < 1:
            raise Diagnostic("attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer "
                             "attribute whose value is positive")
        if mantissa < 0:
            raise Diagnostic("attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless integer "
                             "attribute whose value is non-negative")
        check_element_kinds(self, frozenset({FLOAT}), [self.operand])
        if self.output.type != self.operand.type:
            raise Diagnostic("all of {operand, output} must have the same type")


@irdl_op_definition
class ConvertOp(SameTypeSyntax, StablehloOp):
    """``convert %x : (tensor<3xi32>) -> tensor<3xf32>`` (``: T`` when the
    types are equal)."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.convert"
    ARITY: ClassVar[int] = 1
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute):
        """``ConvertOp(operand, result_type)``: same shape, any element type."""
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_op(self) -> None:
        if shape_of(self.operand) != shape_of(self.result, "result"):
            raise Diagnostic(f"requires the same shape for all operands and results, got "
                             f"{self.operand.type} and {self.result.type}")  # fmt: skip


@irdl_op_definition
class BitcastConvertOp(SameTypeSyntax, StablehloOp):
    """``bitcast_convert %x : (tensor<3xi32>) -> tensor<3xui32>``: the
    operand's bits read as another element type. Between widths, the side
    of the narrower type has one more, last, dimension holding the wider
    element's bits (``tensor<64xi1> -> tensor<i64>``, ``tensor<f64> ->
    tensor<2xi32>``), as StableHLO verifies it; bcast runs none of these (the
    import keeps them), but a pipeline passes them through. The StableHLO
    target reads integers with the other signedness so (``StablehloScalars``).
    ``BitcastConvertOp(operand, result_type)``."""

    name = "stablehlo.bitcast_convert"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    ARITY: ClassVar[int] = 1
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_op(self) -> None:
        shapes = [shape_of(self.operand), shape_of(self.result, "result")]
        elements = [element_of(self.operand), element_of(self.result, "result")]
        widths = [_bit_width(e) for e in elements]
        if None in widths:
            raise Diagnostic(f"requires integer, float or complex element types, got {elements[0]} and {elements[1]}")
        if widths[0] == widths[1]:
            if shapes[0] != shapes[1]:
                raise Diagnostic(f"requires the same shape for the operand and the result, got "
                                 f"{self.operand.type} and {self.result.type}")  # fmt: skip
            return
        narrow, wide = (0, 1) if widths[0] < widths[1] else (1, 0)
        expected = (*shapes[wide], widths[wide] // widths[narrow])
        if widths[wide] % widths[narrow] or tuple(shapes[narrow]) != expected:
            what = ("operand", "result")
            raise Diagnostic(f"requires the {what[narrow]} of the narrower element type ({elements[narrow]}) "
                             f"to have the shape of the {what[wide]} and a last dimension of "
                             f"{widths[wide]}/{widths[narrow]} elements, got {self.operand.type} and "
                             f"{self.result.type}")  # fmt: skip


def _bit_width(element: Attribute) -> int | None:
    if isinstance(element, ComplexType):
        part = _bit_width(element.element_type)
        return None if part is None else 2 * part
    if isinstance(element, IntegerType):
        return element.width.data
    return element.bitwidth if isinstance(element, AnyFloat) else None


def default_compare_type(element: Attribute) -> ComparisonType:
    """The compare type JAX writes for an element type (StableHLO's rule:
    FLOAT for floats, SIGNED for signed integers, UNSIGNED for unsigned and i1)."""
    return {BOOL: ComparisonType.UNSIGNED, SIGNED: ComparisonType.SIGNED,
            UNSIGNED: ComparisonType.UNSIGNED}.get(element_kind(element), ComparisonType.FLOAT)  # fmt: skip


def check_compare_type(compare_type: ComparisonType | None, element: Attribute) -> None:
    """Which ``compare_type`` fits an element type: FLOAT or TOTALORDER for
    floats, UNSIGNED for i1, and SIGNED or UNSIGNED for every integer type.
    The StableHLO specification names one integer type per signedness, but
    StableHLO's verifier, XLA and its simplifier's tests take either on any
    integer (``compare LT, %a, %b, UNSIGNED`` on signless ``i32`` compares
    the bit patterns as unsigned), so bcast reads both."""
    if compare_type is None or compare_type == ComparisonType.NOTYPE:
        return
    kind = element_kind(element)
    allowed = {BOOL: ("UNSIGNED",), SIGNED: ("SIGNED", "UNSIGNED"), UNSIGNED: ("UNSIGNED", "SIGNED"),
               FLOAT: ("FLOAT", "TOTALORDER"), COMPLEX: ("FLOAT", "TOTALORDER")}.get(kind, ())  # fmt: skip
    if compare_type.value not in allowed:
        raise Diagnostic(f"compare type {compare_type.value} does not fit element type {element}",
                         [f"{element} is compared as " + " or ".join(allowed)] if allowed else [])


@irdl_op_definition
class CompareOp(StablehloOp):
    """``compare GT, %a, %b, FLOAT : (A, A) -> tensor<...xi1>``."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.compare"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    traits = traits_def(Pure())
    assembly_format = (
        "$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(self, direction: ComparisonDirection | str, lhs: SSAValue | Operation,
                 rhs: SSAValue | Operation, compare_type: ComparisonType | str | None = None,
                 result_type: Attribute | None = None):
        """``CompareOp("GT", lhs, rhs, compare_type=None)``: ``compare_type``
        defaults to the element type's (FLOAT, SIGNED or UNSIGNED, as JAX
        writes it); the result is i1 of ``lhs``'s shape."""
        t = type_of(lhs)
        if compare_type is None:
            compare_type = default_compare_type(element_of(t))
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type or tensor_type(shape_of(t), i1)],
            properties={"compare_type": ComparisonTypeAttr(ComparisonType(compare_type)),
                        "comparison_direction": ComparisonDirectionAttr(ComparisonDirection(direction))},
        )  # fmt: skip

    @property
    def direction(self) -> str:
        return self.comparison_direction.data.value

    def verify_op(self) -> None:
        if element_of(self.lhs) != element_of(self.rhs) or shape_of(self.lhs) != shape_of(self.rhs):
            raise Diagnostic(f"requires compatible operand types, got {self.lhs.type} and {self.rhs.type}")
        if shape_of(self.result, "result") != shape_of(self.lhs) or element_of(self.result, "result") != i1:
            raise Diagnostic(f"result must be {tensor_type(shape_of(self.lhs), i1)}, got {self.result.type}")
        check_compare_type(None if self.compare_type is None else self.compare_type.data, element_of(self.lhs))


@irdl_op_definition
class SelectOp(StablehloOp):
    """``select %p, %t, %f : tensor<i1>, tensor<4x1xf32>`` (the predicate's type,
    then the type of ``t``, ``f`` and the result), or a functional type."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.select"
    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, pred: SSAValue | Operation, on_true: SSAValue | Operation,
                 on_false: SSAValue | Operation):
        """``SelectOp(pred, on_true, on_false)``: the result has ``on_true``'s type."""
        super().__init__(operands=[pred, on_true, on_false], result_types=[type_of(on_true)])

    @classmethod
    def parse(cls, parser: Parser):
        operands = _parse_operands(parser, 3)
        props, attrs = _split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        pos = parser.pos
        first = parser.parse_type()
        if isinstance(first, FunctionType):
            inputs, outputs = list(first.inputs.data), list(first.outputs.data)
            if len(inputs) != 3 or len(outputs) != 1:
                parser.raise_error("expected a function type with 3 inputs and one result", pos, parser.pos)
            output = outputs[0]
        else:
            parser.parse_punctuation(",")
            output = parser.parse_type()
            inputs = [first, output, output]
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, inputs)]
        return cls.create(operands=values, result_types=[output], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        if self.on_true.type == self.on_false.type == self.result.type:
            printer.print_attribute(self.pred.type)
            printer.print_string(", ")
            printer.print_attribute(self.result.type)
        else:
            _print_functional(printer, [o.type for o in self.operands], [self.result.type])

    def verify_op(self) -> None:
        if element_of(self.pred, "pred") != i1:
            raise Diagnostic(f"pred must be a tensor of i1 values, got {self.pred.type}")
        pred_shape = shape_of(self.pred, "pred")
        if self.on_true.type != self.on_false.type:
            raise Diagnostic(f"requires compatible types for non-predicate operands, got "
                             f"{self.on_true.type} and {self.on_false.type}")  # fmt: skip
        if pred_shape and pred_shape != shape_of(self.on_true):
            raise Diagnostic(f"requires the same shape for all operands, got pred {self.pred.type} "
                             f"and {self.on_true.type}", ["a predicate of rank 0 selects whole tensors"])  # fmt: skip
        if self.result.type != self.on_true.type:
            raise Diagnostic(f"inferred type(s) '{self.on_true.type}' are incompatible with return "
                             f"type(s) of operation '{self.result.type}'")  # fmt: skip


@irdl_op_definition
class ClampOp(SameTypeSyntax, StablehloOp):
    """``clamp %min, %x, %max : tensor<4xf32>``, or ``: (tensor<f32>,
    tensor<4xf32>, tensor<f32>) -> tensor<4xf32>`` with rank-0 bounds:
    ``bcast.clamp`` (``bcast.ir.ops.ClampOp``). ``ClampOp(min, operand, max)``:
    the result has ``operand``'s type."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.clamp"
    ARITY: ClassVar[int] = 3
    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, min: SSAValue | Operation, operand: SSAValue | Operation, max: SSAValue | Operation):
        super().__init__(operands=[min, operand, max], result_types=[type_of(operand)])

    def verify_op(self) -> None:
        check_element_kinds(self, NUMERIC, [self.operand])
        shape = shape_of(self.operand)
        for what, bound in (("min", self.min), ("max", self.max)):
            if element_of(bound, what) != element_of(self.operand):
                raise Diagnostic(f"requires the same element type for all operands, got "
                                 f"{bound.type} and {self.operand.type}")  # fmt: skip
            if shape_of(bound, what) and shape_of(bound) != shape:
                raise Diagnostic(f"{what} {bound.type} is neither rank 0 nor of the operand's shape "
                                 f"{self.operand.type}")  # fmt: skip
        if self.result.type != self.operand.type:
            raise Diagnostic(f"inferred type(s) '{self.operand.type}' are incompatible with return "
                             f"type(s) of operation '{self.result.type}'")  # fmt: skip


# --------------------------------------------------------------------------
# Structural ops
# --------------------------------------------------------------------------


@irdl_op_definition
class BroadcastInDimOp(StablehloOp):
    """``broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>``;
    dims may transpose (StableHLO allows it)."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.broadcast_in_dim"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())
    assembly_format = (
        "$operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, operand: SSAValue | Operation, dims: Sequence[int], result_type: Attribute):
        """``BroadcastInDimOp(operand, dims, result_type)``."""
        super().__init__(operands=[operand], result_types=[result_type],
                         properties={"broadcast_dimensions": dense_i64(dims)})  # fmt: skip

    @property
    def dims(self) -> tuple[int, ...]:
        return self.broadcast_dimensions.get_values()

    def verify_op(self) -> None:
        if element_of(self.operand) != element_of(self.result, "result"):
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        shape_of(self.operand), shape_of(self.result, "result")
        rules.check_broadcast_in_dim(tensor_dims(self.operand.type), tensor_dims(self.result.type),
                                     self.dims, "numpy")


@irdl_op_definition
class ReshapeOp(HasFolderInterface, StablehloOp):
    """``reshape %x : (tensor<2x1xf32>) -> tensor<2xf32>``; canonicalized
    as bcast's reshape is (an identity folds away, one of another composes)."""

    name = "stablehlo.reshape"
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$operand attr-dict `:` functional-type(operands, results)"

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute):
        """``ReshapeOp(operand, result_type)``."""
        super().__init__(operands=[operand], result_types=[result_type])

    def fold(self):
        return (self.operand,) if self.operand.type == self.result.type else None

    def verify_op(self) -> None:
        if element_of(self.operand) != element_of(self.result, "result"):
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        n_in = rules.element_count(shape_of(self.operand))
        n_out = rules.element_count(shape_of(self.result, "result"))
        if n_in != n_out:
            raise Diagnostic(f"number of output elements ({n_out}) doesn't match expected number "
                             f"of elements ({n_in})")  # fmt: skip


@irdl_op_definition
class TransposeOp(StablehloOp):
    """``transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>``."""

    name = "stablehlo.transpose"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    permutation = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())
    assembly_format = "$operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)"

    def __init__(self, operand: SSAValue | Operation, permutation: Sequence[int],
                 result_type: Attribute | None = None):
        """``TransposeOp(operand, permutation, result_type=None)`` (inferred)."""
        if result_type is None:
            shape = rules.check_transpose(shape_of(type_of(operand)), permutation)
            result_type = tensor_type(shape, element_of(type_of(operand)))
        super().__init__(operands=[operand], result_types=[result_type],
                         properties={"permutation": dense_i64(permutation)})  # fmt: skip

    @property
    def perm(self) -> tuple[int, ...]:
        return self.permutation.get_values()

    def verify_op(self) -> None:
        shape = rules.check_transpose(tensor_dims(_tensor(self.operand, "operand")), self.perm)
        result = tensor_dims(_tensor(self.result, "result"))
        if element_of(self.operand) != element_of(self.result) or not rules.compatible_levels((shape,), (result,)):
            expected = tensor_type([shape_of(self.operand)[p] for p in self.perm], element_of(self.operand))
            raise incompatible_results([expected], [self.result.type])


@irdl_op_definition
class IotaOp(bc.IotaFamily, StablehloOp):
    """``iota dim = 0 : tensor<4x5xi32>``: each element its index along
    ``dim``. ``IotaOp(dim, result_type)``; fields, syntax and builder are
    ``bc.IotaFamily``'s (StableHLO's ``output`` is its ``result``)."""

    name = "stablehlo.iota"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # refused by its own rule: check_static_result
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        self.check_static_result()
        element = element_of(self.result, "output")
        if element == i1 or not isinstance(element, IntegerType | AnyFloat | ComplexType):
            raise Diagnostic(f"output must be a tensor of integer, floating-point or complex values, "
                             f"got {self.result.type}")  # fmt: skip
        shape = shape_of(self.result, "output")
        if not shape:
            raise Diagnostic("does not support scalars.")
        if not 0 <= self.dim < len(shape):
            raise Diagnostic("iota dimension cannot go beyond the output rank or be negative.")


@irdl_op_definition
class ReverseOp(StablehloOp):
    """``reverse %x, dims = [1] : tensor<3x4xf32>``. ``ReverseOp(operand, dims)``."""

    name = "stablehlo.reverse"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    T: ClassVar = VarConstraint("T", base(TensorType))
    operand = operand_def(T)
    result = result_def(T)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())
    assembly_format = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)"

    def __init__(self, operand: SSAValue | Operation, dims: Sequence[int]):
        super().__init__(operands=[operand], result_types=[type_of(operand)],
                         properties={"dimensions": dense_i64(dims)})  # fmt: skip

    @property
    def dims(self) -> tuple[int, ...]:
        return self.dimensions.get_values()

    def verify_op(self) -> None:
        dims, rank = list(self.dims), len(shape_of(self.operand))
        if len(set(dims)) != len(dims):
            raise Diagnostic(f"dimensions should be unique. Got: {dims}")
        for d in dims:
            if d < 0:
                raise Diagnostic(f"all dimensions should be non-negative. Got dimension: {d}.")
            if d >= rank:
                raise Diagnostic(f"all dimensions should be between [0, {rank}). Got dimension: {d}.")


@irdl_op_definition
class ConcatenateOp(bc.ConcatenateFamily, StablehloOp):
    """``concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) ->
    tensor<3x3xf32>``. ``ConcatenateOp(inputs, dimension)``; fields, syntax and
    builder are ``bc.ConcatenateFamily``'s."""

    name = "stablehlo.concatenate"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        if not self.inputs:
            raise Diagnostic("expected 1 or more operands, but found 0")
        if self.dim < 0:
            raise Diagnostic(f"dimension {self.dim} is negative")
        shapes = [shape_of(x, f"operand #{i}") for i, x in enumerate(self.inputs)]
        elements = [element_of(x) for x in self.inputs]
        if any(e != elements[0] for e in elements):
            raise Diagnostic("failed to verify that all of {inputs, result} have same element type")
        for i, shape in enumerate(shapes[1:], 1):
            if len(shape) != len(shapes[0]):
                raise Diagnostic(f"operands (0) and ({i}) do not match rank")
        if self.dim >= len(shapes[0]):
            raise Diagnostic(f"dimension {self.dim} is out-of-bounds for input rank {len(shapes[0])}")
        for i, shape in enumerate(shapes[1:], 1):
            for d, (a, b) in enumerate(zip(shapes[0], shape)):
                if d != self.dim and a != b and DYNAMIC_INDEX not in (a, b):
                    raise Diagnostic(f"shapes of operand ({i}) and (0) do not match at non-concat index: "
                                     f"{_shape_text(shape)} != {_shape_text(shapes[0])} at non-concat index {d}")  # fmt: skip
        if any(DYNAMIC_INDEX in shape for shape in shapes):
            flat = [tensor_dims(x.type) for x in self.inputs]
            _check_dynamic_result(self, rules.concatenate_shape(flat, self.dim), elements[0])
            return
        expected = tensor_type([sum(s[self.dim] for s in shapes) if d == self.dim else n
                                for d, n in enumerate(shapes[0])], elements[0])  # fmt: skip
        if expected != self.result.type:
            raise incompatible_results([expected], [self.result.type])


def _shape_text(shape: Sequence[int]) -> str:
    """A shape as a Python tuple prints, a ``?`` dim as ``?`` (StableHLO's own messages)."""
    dims = ["?" if n == DYNAMIC_INDEX else str(n) for n in shape]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _check_dynamic_result(op: Operation, shape: rules.Shape, element: Attribute) -> None:
    """The declared result of an op with ``?`` operand dims is the type bcast's
    rule infers (``?`` and bounds included): its run-time sizes are computed
    from the operands', never refined by a static declaration."""
    expected = dims_tensor_type(element, shape)
    if expected != op.results[0].type:
        raise incompatible_results([expected], [op.results[0].type])


@irdl_op_definition
class PadOp(bc.PadFamily, StablehloOp):
    """``pad %x, %v, low = [1, 0], high = [2, -1], interior = [0, 1] :
    (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>``.
    ``PadOp(operand, value, low, high, interior)``; fields, syntax and builder
    are ``bc.PadFamily``'s."""

    name = "stablehlo.pad"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        shape, value_shape = shape_of(self.operand), shape_of(self.padding_value, "padding value")
        if element_of(self.operand) != element_of(self.padding_value):
            raise Diagnostic("failed to verify that all of {operand, padding_value, result} have same element type")
        if value_shape:
            raise Diagnostic(f"padding value type should be a rank-0 tensor, is rank {len(value_shape)}")
        for name, values in (("edge_padding_low", self.low), ("edge_padding_high", self.high),
                             ("interior_padding", self.interior)):  # fmt: skip
            if len(values) != len(shape):
                raise Diagnostic(f"{name} length ({len(values)}) must match operand rank ({len(shape)})")
        for gap in self.interior:
            if gap < 0:
                raise Diagnostic(f"Interior padding cannot be negative: {gap}")
        for d, (n, lo, hi, gap) in enumerate(zip(shape, self.low, self.high, self.interior)):
            if n != DYNAMIC_INDEX and lo + hi + n + max(n - 1, 0) * gap < 0:
                raise Diagnostic(f"Padding result in negative size for dimension {d}")
        if DYNAMIC_INDEX in shape:
            result = rules.pad_shape(tensor_dims(self.operand.type), self.low, self.high, self.interior)
            _check_dynamic_result(self, result, element_of(self.operand))
            return
        result = rules.pad_shape(shape, self.low, self.high, self.interior)
        expected = tensor_type(result, element_of(self.operand))
        if expected != self.result.type:
            raise incompatible_results([expected], [self.result.type])


@irdl_op_definition
class ConstantOp(StablehloOp):
    """``constant dense<1.0> : tensor<f32>`` (hex floats for NaN and infinities)."""

    name = "stablehlo.constant"
    T: ClassVar = VarConstraint("T", base(TensorType))
    value = prop_def(ParamAttrConstraint(DenseIntOrFPElementsAttr, (T, AnyAttr())))
    output = result_def(T)
    traits = traits_def(Pure(), ConstantLike())
    assembly_format = "attr-dict $value"

    def __init__(self, value: DenseIntOrFPElementsAttr | np.ndarray, value_type: Attribute | None = None):
        """``ConstantOp(dense_attr)``, or ``ConstantOp(array, tensor_type)``
        (the array's values in order)."""
        if isinstance(value, np.ndarray):
            assert value_type is not None, "a constant from an array needs its type"
            flat = value.reshape(-1)
            values = [float(v) for v in flat] if is_float_dtype(flat.dtype) else [int(v) for v in flat]
            value = DenseIntOrFPElementsAttr.from_list(value_type, values)  # type: ignore[arg-type]
        super().__init__(properties={"value": value}, result_types=[value.type])

    def verify_op(self) -> None:
        if self.value.type != self.output.type:
            raise Diagnostic(f"inferred type(s) '{self.value.type}' are incompatible with return "
                             f"type(s) of operation '{self.output.type}'")  # fmt: skip


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """``stablehlo.return %v : tensor<f32>``: the terminator of a reduce body."""

    name = "stablehlo.return"
    results_ = var_operand_def(TensorType)
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict ($results_^ `:` type($results_))?"

    def __init__(self, *values: SSAValue | Operation):
        """``ReturnOp(*values)``."""
        super().__init__(operands=[list(values)])




def reduce_body(op_class: type[ElementwiseBinaryOp], elements: Sequence[Attribute]) -> Region:
    """The body ``^bb0(%a, %b): %r = OP %a, %b; return %r`` of a one-input
    reduction with the binary op ``op_class`` (``elements``: the input's)."""
    (element,) = elements
    scalar = tensor_type((), element)
    block = Block(arg_types=[scalar, scalar])
    combined = op_class(block.args[0], block.args[1])
    block.add_ops([combined, ReturnOp(combined)])
    return Region(block)


def arg_reduce_body(direction: str, value: Attribute, index: Attribute) -> Region:
    """The body JAX's ``argmax`` (``direction`` GT) / ``argmin`` (LT) reduce of
    (values, iota) has, op for op: over ``(%a, %i, %b, %j)`` it keeps ``a``
    when ``a DIRECTION b`` or ``a`` is NaN, and ``i`` also when ``a == b``
    and ``i < j``; so the first NaN, and the smaller index of ties, win
    whatever order XLA combines in. The import recognizes exactly this body
    (``is_arg_reduce_body``) and the StableHLO target writes it."""
    scalar, scalar_index = tensor_type((), value), tensor_type((), index)
    block = Block(arg_types=[scalar, scalar_index, scalar, scalar_index])
    a, i, b, j = block.args
    beyond = CompareOp(direction, a, b)
    nan = CompareOp("NE", a, a)
    keep_value = ELEMENTWISE_OPS["stablehlo.or"](beyond, nan)
    tie = CompareOp("EQ", a, b)
    lower = CompareOp("LT", i, j)
    lower_tie = ELEMENTWISE_OPS["stablehlo.and"](tie, lower)
    keep_index = ELEMENTWISE_OPS["stablehlo.or"](keep_value, lower_tie)
    picked = SelectOp(keep_value, a, b)
    picked_index = SelectOp(keep_index, i, j)
    block.add_ops([beyond, nan, keep_value, tie, lower, lower_tie, keep_index, picked, picked_index,
                   ReturnOp(picked, picked_index)])  # fmt: skip
    return Region(block)


def arg_reduce_direction(body: Region) -> str | None:
    """``GT`` (argmax) or ``LT`` (argmin) when ``body`` is ``arg_reduce_body``'s
    form, op for op; else None."""
    if not body.blocks or len(body.block.args) != 4:
        return None
    value, index = (a.type.get_element_type() for a in body.block.args[:2])
    for direction in ("GT", "LT"):
        if arg_reduce_body(direction, value, index).block.is_structurally_equivalent(body.block):
            return direction
    return None


def body_combiner(body: Region, either_order: bool = False) -> Operation | None:
    """The binary op of a one-input combining region (a reduction's body,
    a scatter's update computation) that is one binary op on its two
    arguments in order (``either_order``: or swapped, which the import
    allows, as every kind it maps to commutes), returned; else None. The
    import maps it to the bcast kind it folds with (``reduce``,
    ``reduce_window``, ``scatter``); the compact ``reduce`` prints it."""
    if not body.blocks:
        return None
    block = body.block
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2:
        return None
    op, ret = ops
    if (not isinstance(op, ElementwiseBinaryOp) or not isinstance(ret, ReturnOp)
            or list(op.operands) not in (list(block.args), list(block.args)[::-1] if either_order else None)
            or list(ret.operands) != [op.results[0]] or op.attributes or op.properties):
        return None  # fmt: skip
    scalar = block.args[0].type
    if not isinstance(scalar, TensorType) or scalar.get_shape() != () or \
            any(a.type != scalar for a in block.args) or op.results[0].type != scalar:
        return None
    return op


def tuple_combiners(body: Region, n: int) -> list[Operation] | None:
    """The binary ops of an ``n``-input combining region (``reduce_window``'s
    of several inputs) that combines each input on its own: its ``2n``
    arguments are the ``n`` accumulators then the ``n`` elements, and its
    ``k``-th result is one binary op of accumulator ``k`` and element ``k``
    (either order: every kind the import maps to commutes), nothing else in
    it; else None (a body that mixes inputs, as an argmax-pooling's
    comparator does)."""
    if not body.blocks:
        return None
    block = body.block
    ops = list(block.ops)
    args = list(block.args)
    if len(args) != 2 * n or len(ops) != n + 1 or not isinstance(ops[-1], ReturnOp):
        return None
    combiners = []
    for k, value in enumerate(ops[-1].operands):
        op = value.owner
        pair = [args[k], args[n + k]]
        if (not isinstance(op, ElementwiseBinaryOp) or op.attributes or op.properties
                or list(op.operands) not in (pair, pair[::-1])):
            return None
        scalar = args[k].type
        if (not isinstance(scalar, TensorType) or scalar.get_shape() != () or args[n + k].type != scalar
                or op.results[0].type != scalar):
            return None
        combiners.append(op)
    return combiners if len(set(map(id, combiners))) == n == len(ops[-1].operands) else None


def is_set_body(body: Region) -> bool:
    """Whether ``body`` is ``set_body``'s form: ``x.at[i].set(u)``'s update
    computation, which returns its second argument."""
    if not body.blocks or len(body.block.args) != 2:
        return False
    ops = list(body.block.ops)
    return len(ops) == 1 and isinstance(ops[0], ReturnOp) and list(ops[0].operands) == [body.block.args[1]]


def is_binary_body(body: Region, op_class: type[ElementwiseBinaryOp], element: Attribute) -> bool:
    """Whether ``body`` is ``reduce_body(op_class, [element])``, op for op."""
    return bool(body.blocks) and reduce_body(op_class, [element]).block.is_structurally_equivalent(body.block)


@irdl_op_definition
class ReduceOp(StablehloOp):
    """``reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (...) -> ...``
    (the compact form, for a body that is one binary op) or the region form::

        stablehlo.reduce(%x init: %c) across dimensions = [1] : (A, tensor<f32>) -> R
         reducer(%a: tensor<f32>, %b: tensor<f32>) {
          ...
          stablehlo.return %r : tensor<f32>
        }
    """

    DYNAMIC_SHAPES: ClassVar[bool] = True

    name = "stablehlo.reduce"
    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    body = region_def("single_block")
    out = var_result_def(TensorType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue | Operation], init_values: Sequence[SSAValue | Operation],
                 dimensions: Sequence[int], body: Region | type[ElementwiseBinaryOp]):
        """``ReduceOp([x], [init], dims, body)``: ``body`` is a Region, or a
        binary op class (``AddOp``) for the body that applies it; the result
        types are inferred (the inputs' shapes without ``dims``)."""
        inputs = [SSAValue.get(v) for v in inputs]
        if isinstance(body, type):
            body = reduce_body(body, [element_of(v) for v in inputs])
        results = [tensor_type([d for i, d in enumerate(shape_of(v)) if i not in dimensions], element_of(v))
                   for v in inputs]  # fmt: skip
        super().__init__(operands=[inputs, list(init_values)], result_types=[results],
                         properties={"dimensions": dense_i64(dimensions)}, regions=[body])  # fmt: skip

    @property
    def dims(self) -> tuple[int, ...]:
        return self.dimensions.get_values()

    def combiner(self) -> Operation | None:
        """``body_combiner`` of a one-input reduce."""
        return body_combiner(self.body) if len(self.inputs) == 1 else None

    @classmethod
    def parse(cls, parser: Parser):
        pairs = []

        def pair():
            parser.parse_punctuation("(")
            x = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            init = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            pairs.append((x, init))

        pair()
        while parser.parse_optional_punctuation(",") is not None:
            pair()
        applies = None
        if parser.parse_optional_keyword("applies") is not None:
            pos = parser.pos
            applies_name = parser.parse_identifier(" (the op a reduction applies)")
            applies = parser.ctx.get_optional_op(applies_name)
            if applies is None or not issubclass(applies, ElementwiseBinaryOp):
                parser.raise_error(f"'{applies_name}' is not a binary op this reduce can apply", pos, parser.pos)
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(False))
        props, attrs = _split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        pos = parser.pos
        ftype = parser.parse_type()
        n = len(pairs)
        if not isinstance(ftype, FunctionType) or len(ftype.inputs.data) != 2 * n:
            parser.raise_error(f"expected a function type with {2 * n} inputs", pos, parser.pos)
        types = list(ftype.inputs.data)
        inputs = [parser.resolve_operand(x, t) for (x, _), t in zip(pairs, types[:n])]
        inits = [parser.resolve_operand(i, t) for (_, i), t in zip(pairs, types[n:])]
        if applies is not None:
            if n != 1:
                parser.raise_error("the compact form 'applies' takes one input", pos, parser.pos)
            element = types[n].get_element_type() if isinstance(types[n], TensorType) else types[n]
            body = reduce_body(applies, [element])
        else:
            parser.parse_keyword("reducer")
            firsts, seconds = [], []
            def argument():
                """``%a: tensor<f32>``, and the location JAX's debug output
                writes after it (dropped: the body's ops carry their own)."""
                arg = parser.parse_argument()
                parser.parse_optional_location()
                return arg

            for _ in range(n):
                parser.parse_punctuation("(")
                firsts.append(argument())
                parser.parse_punctuation(",")
                seconds.append(argument())
                parser.parse_punctuation(")")
            body = parser.parse_region(firsts + seconds)
        return cls.create(operands=[*inputs, *inits], result_types=list(ftype.outputs.data),
                          properties={**props, "dimensions": dense_i64(dims)}, attributes=attrs,
                          regions=[body])  # fmt: skip

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(
            list(zip(self.inputs, self.init_values)),
            lambda p: (printer.print_operand(p[0]), printer.print_string(" init: "), printer.print_operand(p[1])),
            delimiter="), (",
        )
        printer.print_string(")")
        combiner = self.combiner()
        if combiner is not None:
            printer.print_string(f" applies {combiner.name}")
        printer.print_string(f" across dimensions = [{', '.join(map(str, self.dims))}]")
        _print_attr_dict(printer, self, ("dimensions",))
        printer.print_string(" : ")
        _print_functional(printer, [o.type for o in self.operands], [r.type for r in self.results])
        if combiner is not None:
            return
        printer.print_string("\n reducer")
        args = self.body.block.args if self.body.blocks else ()
        n = len(self.inputs)
        for first, second in zip(args[:n], args[n:]):
            printer.print_string("(")
            printer.print_block_argument(first)
            printer.print_string(", ")
            printer.print_block_argument(second)
            printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_op(self) -> None:
        shape = _inputs_shape(self)
        for i, (x, init) in enumerate(zip(self.inputs, self.init_values)):
            if shape_of(init, "init value"):
                raise Diagnostic(f"expects init value #{i} to be a rank-0 tensor, got {init.type}")
            if element_of(init) != element_of(x):
                raise Diagnostic(f"expects init value #{i} to have the element type of input #{i} "
                                 f"({element_of(x)}), got {init.type}")  # fmt: skip
        dims = list(self.dims)
        for d in dims:
            if not 0 <= d < len(shape):
                raise Diagnostic(f"dimensions contains an invalid value {d} for inputs of rank {len(shape)}")
        if len(set(dims)) != len(dims):
            raise Diagnostic(f"dimensions should not have duplicates, got {dims}")
        _check_reduction_body(self)
        kept = [d for i, d in enumerate(shape) if i not in dims]
        expected = [tensor_type(kept, element_of(init)) for init in self.init_values]
        if [r.type for r in self.results] != expected:
            raise incompatible_results(expected, [r.type for r in self.results])



def _inputs_shape(op: ReduceOp | ReduceWindowOp) -> tuple[int, ...]:
    """The one shape of a reduction's inputs (``reduce``, ``reduce_window``):
    as many init values as inputs, at least one, all inputs of one shape."""
    n = len(op.inputs)
    if n == 0 or len(op.init_values) != n:
        raise Diagnostic(f"expects the same number of inputs and init values (at least one), "
                         f"got {n} and {len(op.init_values)}")  # fmt: skip
    shape = shape_of(op.inputs[0], "input")
    for v in op.inputs:
        if shape_of(v, "input") != shape:
            raise Diagnostic(f"expects all inputs to have the same shape, got {shape} and {shape_of(v)}")
    return shape


def _check_reduction_body(op: ReduceOp | ReduceWindowOp) -> None:
    """A reduction's body takes (accumulators, elements) as rank-0 tensors of
    the init values' types and returns the new accumulators."""
    _check_scalar_body(op.body, [element_of(init) for init in op.init_values], "the reduction body")


def _check_scalar_body(region: Region, elements: Sequence[Attribute], what: str) -> None:
    """A combining region (a reduction's body, a scatter's update
    computation): takes two rank-0 tensors of each of ``elements``, returns
    one of each with ``stablehlo.return``."""
    scalars = [tensor_type((), element) for element in elements]
    block = region.block if region.blocks else None
    arg_types = [a.type for a in block.args] if block else []
    if arg_types != scalars + scalars:
        raise Diagnostic(f"{what} must take (" + ", ".join(map(str, scalars + scalars))
                         + ") but takes (" + ", ".join(map(str, arg_types)) + ")")  # fmt: skip
    last = block.last_op if block else None
    if not isinstance(last, ReturnOp) or [v.type for v in last.operands] != scalars:
        raise Diagnostic(f"{what} must end in stablehlo.return of " + ", ".join(map(str, scalars)))


def reduce_window_shape(shape: Sequence[int], window: Sequence[int], strides: Sequence[int],
                        base_dilations: Sequence[int], window_dilations: Sequence[int],
                        padding: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """StableHLO's window count per dim of a static input (``select_and_scatter``'s
    source shape): the number of strided window positions inside the
    dilated, padded input. A ``?`` dim stays ``?`` where the window keeps
    its size (window, strides and dilations 1, no padding); any other ``?``
    dim is refused (``select_and_scatter`` over one is not supported)."""
    out = []
    for n, w, s, bd, wd, (lo, hi) in zip(shape, window, strides, base_dilations, window_dilations, padding):
        if n < 0:  # ``?`` (xDSL's DYNAMIC_INDEX)
            if (w, s, bd, wd, lo, hi) != (1, 1, 1, 1, 0, 0):
                raise RuleError("a window over a dynamic dimension is not supported",
                                ["only a dimension the window keeps whole (size, strides and dilations 1, "
                                 "no padding) may be dynamic"])
            out.append(n)
            continue
        out.append(rules.reduce_window_size(n, w, s, bd, wd, lo, hi))
    return tuple(out)


def _reduce_window_types(x: SSAValue, window: Sequence[int], strides: Sequence[int], base_dilations: Sequence[int],
                         window_dilations: Sequence[int], padding: Sequence[tuple[int, int]],
                         like: Sequence[SSAValue]) -> list[TensorType]:
    """The result types of ``reduce_window`` (``rules.reduce_window_shape``
    of the input's dims) with the element types of ``like``: a ``?`` dim no
    window spans keeps the input's bound; one that windows span is ``?``,
    its bound the count of the input's bound."""
    low, high = ([p[k] for p in padding] for k in (0, 1))
    out = rules.reduce_window_shape(tensor_dims(_tensor(x, "input")), window, strides, base_dilations,
                                    window_dilations, low, high)
    return [dims_tensor_type(element_of(v), out) for v in like]


def _padding_pairs(padding: DenseIntOrFPElementsAttr | None, rank: int) -> tuple[tuple[int, int], ...]:
    """A window op's ``padding`` (a ``tensor<Rx2xi64>``) as (low, high) per dim; none is zeros."""
    if padding is None:
        return ((0, 0),) * rank
    values = [int(v) for v in padding.get_values()]
    return tuple(zip(values[0::2], values[1::2]))


def _check_window(named: dict[str, Sequence[int]], padding: DenseIntOrFPElementsAttr | None, rank: int,
                  whose: str) -> None:
    """The window constraints ``reduce_window`` and ``select_and_scatter``
    share: each of ``named`` (window sizes, strides, dilations) has one
    positive value per dim, and ``padding`` is a ``tensor<{rank}x2xi64>``."""
    for name, values in named.items():
        if len(values) != rank:
            raise Diagnostic(f"{name} has {len(values)} values, {whose} rank {rank}")
        if any(v <= 0 for v in values):
            raise Diagnostic(f"{name} must be positive, got {list(values)}")
    if padding is not None:
        pad_type = padding.get_type()
        if not isinstance(pad_type, TensorType) or tuple(pad_type.get_shape()) != (rank, 2):
            raise Diagnostic(f"padding must be a tensor<{rank}x2xi64>, got {pad_type}")


@irdl_op_definition
class ReduceWindowOp(StablehloOp):
    """``"stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64:
    1, 3>, padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>, ...}> ({body})
    : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>``: each result
    element folds the body over one window of the padded (and dilated)
    inputs. JAX prints it in generic form only, as this op reads and prints
    it; the cumulative forms (``jnp.cumsum``...) are imported as
    ``bcast.cumulative``, the others of one input as ``bcast.reduce_window``.
    ``ReduceWindowOp([x], [init], window, padding, body, strides=None,
    base_dilations=None, window_dilations=None)`` (unit where None)."""

    name = "stablehlo.reduce_window"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase.constr(i64))
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    base_dilations = opt_prop_def(DenseArrayBase.constr(i64))
    window_dilations = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    body = region_def("single_block")
    out = var_result_def(TensorType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue | Operation], init_values: Sequence[SSAValue | Operation],
                 window: Sequence[int], padding: Sequence[tuple[int, int]], body: Region,
                 strides: Sequence[int] | None = None, base_dilations: Sequence[int] | None = None,
                 window_dilations: Sequence[int] | None = None):
        inputs = [SSAValue.get(v) for v in inputs]
        ones = [1] * len(window)
        strides, base_dilations, window_dilations = (ones if v is None else list(v)
                                                     for v in (strides, base_dilations, window_dilations))
        pads = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(window), 2]),
                                                  [p for pair in padding for p in pair])  # fmt: skip
        super().__init__(
            operands=[inputs, list(init_values)], result_types=[_reduce_window_types(inputs[0], window, strides, base_dilations, window_dilations, padding, inputs)],
            properties={"base_dilations": dense_i64(base_dilations), "padding": pads,
                        "window_dilations": dense_i64(window_dilations), "window_dimensions": dense_i64(window),
                        "window_strides": dense_i64(strides)},
            regions=[body],
        )  # fmt: skip

    def _or_ones(self, attr: DenseArrayBase | None) -> tuple[int, ...]:
        return attr.get_values() if attr is not None else (1,) * len(self.window)

    @property
    def window(self) -> tuple[int, ...]:
        return self.window_dimensions.get_values()

    @property
    def strides(self) -> tuple[int, ...]:
        return self._or_ones(self.window_strides)

    @property
    def dilations(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(base dilations, window dilations)."""
        return self._or_ones(self.base_dilations), self._or_ones(self.window_dilations)

    @property
    def pads(self) -> tuple[tuple[int, int], ...]:
        """(low, high) per dim."""
        return _padding_pairs(self.padding, len(self.window))

    def verify_op(self) -> None:
        shape = _inputs_shape(self)
        for i, (x, init) in enumerate(zip(self.inputs, self.init_values)):
            if shape_of(init, "init value") or element_of(init) != element_of(x):
                raise Diagnostic(f"expects init value #{i} to be a rank-0 tensor of the element type of "
                                 f"input #{i} ({element_of(x)}), got {init.type}")  # fmt: skip
        named = {"window_dimensions": self.window, "window_strides": self.strides,
                 "base_dilations": self.dilations[0], "window_dilations": self.dilations[1]}  # fmt: skip
        _check_window(named, self.padding, len(shape), "the inputs have")
        _check_reduction_body(self)
        expected = _reduce_window_types(self.inputs[0], self.window, self.strides, *self.dilations, self.pads,
                                        self.init_values)
        declared = [r.type for r in self.results]
        if declared != expected and not all(  # a static size where a ``?`` is inferred: checked at run time
                element_of(d) == element_of(e) and rules.compatible_levels((tensor_dims(e),), (tensor_dims(d),))
                for d, e in zip(declared, expected, strict=True)):
            raise incompatible_results(expected, [r.type for r in self.results])

# --------------------------------------------------------------------------
# Slices and the optimization barrier: the StableHLO target writes them; the
# importer converts ``slice`` to ``bcast.slice`` and reports the others as not
# supported. ``slice``'s fields, syntax and builder are ``bc.SliceFamily``'s (ir/ops.py).
# --------------------------------------------------------------------------


@irdl_custom_directive
class VariadicOperandWithAttribute(CustomDirective):
    """``%i, %j,``: the operands, each followed by a comma, before the keyword
    of an attribute (``dynamic_slice %x, %i, %j, sizes = [...]``).

    With no operands it prints nothing (``dynamic_slice %x, sizes = []``):
    jaxlib prints ``%x, , sizes = []`` there, which its own parser rejects;
    bcast writes the spelling that parser reads."""

    operands: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        operands: list[UnresolvedOperand] = []
        while (operand := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(operand)
            parser.parse_punctuation(",")
        self.operands.set(state, operands)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        operands = self.operands.get(op)
        if not operands:
            return
        state.print_whitespace(printer)
        printer.print_list(operands, printer.print_operand)
        printer.print_string(",")


@irdl_custom_directive
class PairwiseOpType(CustomDirective):
    """``tensor<4xf32>, tensor<i32>``: the operands' types, which are the
    results' too (StableHLO's ``custom<PairwiseOpType>``)."""

    operand_types: TypeDirective
    result_types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        operands = self.operand_types.inner
        assert isinstance(operands, VariadicOperandVariable)
        count = len(state.operands[operands.index] or ())
        if len(types) != count:  # here, not where xDSL resolves the operands (the next line)
            parser.raise_error(f"expected {count} types, one per operand, got {len(types)}", start, parser.pos)
        self.operand_types.set(state, types)
        self.result_types.set(state, types)

    def set_empty(self, state: ParsingState) -> None:
        self.operand_types.set_empty(state)
        self.result_types.set_empty(state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.operand_types.get(op), printer.print_attribute)


def _check_index_tensor(value: SSAValue, what: str) -> None:
    """``gather``'s, ``dynamic_gather``'s and ``scatter``'s indices: a
    tensor of integers (``i1`` is StableHLO's boolean, not an index)."""
    t = value.type
    if not (isinstance(t, TensorType) and isinstance(t.get_element_type(), IntegerType)
            and t.get_element_type().width.data > 1):
        raise Diagnostic(f"{what} must be a tensor of integers, got {t}")


def _check_start_indices(op: Operation, starts: Sequence[SSAValue], rank: int) -> None:
    if len(starts) != rank:
        raise Diagnostic(f"has {len(starts)} start indices for an operand of rank {rank}")
    for v in starts:
        if not (isinstance(v.type, TensorType) and not v.type.get_shape()
                and isinstance(v.type.get_element_type(), IntegerType)
                and v.type.get_element_type().width.data > 1):  # i1 is StableHLO's boolean
            raise Diagnostic(f"start indices must be rank-0 integer tensors, got {v.type}")
    if len({v.type for v in starts}) > 1:
        raise Diagnostic("start indices must have the same element type, got "
                         + ", ".join(str(v.type) for v in starts))


@irdl_op_definition
class SliceOp(bc.SliceFamily, StablehloOp):
    """``slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>``:
    ``operand[start:limit:stride]`` per dimension.
    ``SliceOp(operand, starts, limits, strides)``; fields, syntax and builder
    are ``bc.SliceFamily``'s."""

    name = "stablehlo.slice"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        shape = shape_of(self.operand)
        starts, limits, strides = self.starts, self.limits, self.steps
        if not len(starts) == len(limits) == len(strides) == len(shape):
            raise Diagnostic("start_indices, limit_indices and strides must have one entry per dimension")
        for d, (s, l, st, n) in enumerate(zip(starts, limits, strides, shape)):
            if st <= 0:
                raise Diagnostic(f"dimension {d}: stride {st} must be positive")
            if not 0 <= s <= l <= (l if n == DYNAMIC_INDEX else n):  # a ? dim: checked at run time
                raise Diagnostic(f"dimension {d}: slice {s}:{l}:{st} is not within size {n}")
        expected = tensor_type([-(-(l - s) // st) for s, l, st in zip(starts, limits, strides)],
                                element_of(self.operand))
        if expected != self.result.type:
            raise Diagnostic(f"inferred type '{expected}' is incompatible with return type '{self.result.type}'")


@irdl_op_definition
class DynamicSliceOp(bc.DynamicSliceFamily[TensorType], StablehloOp):
    """``dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x8xf32>,
    tensor<i64>, tensor<i64>) -> tensor<2x2xf32>``: a ``slice_sizes`` block at
    run-time start indices, which XLA clamps into range.
    ``DynamicSliceOp(operand, starts, slice_sizes)``; fields and builder are
    ``bc.DynamicSliceFamily``'s."""

    name = "stablehlo.dynamic_slice"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(Pure())
    custom_directives = (VariadicOperandWithAttribute,)
    assembly_format = (
        "$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_op(self) -> None:
        shape = tensor_dims(_tensor(self.operand, "operand"))
        _check_start_indices(self, self.start_indices, len(shape))
        sizes = self.sizes  # a ``?`` dim: a size its bound allows, checked at run time
        if len(sizes) != len(shape) or any(z < 0 or not rules.may_be_at_least(n, z) for z, n in zip(sizes, shape)):
            raise Diagnostic(f"slice_sizes {list(sizes)} do not fit operand shape [{', '.join(map(str, shape))}]")
        if tensor_type(sizes, element_of(self.operand)) != self.result.type:
            raise Diagnostic(f"result type must be {tensor_type(sizes, element_of(self.operand))}")


@irdl_op_definition
class DynamicUpdateSliceOp(bc.DynamicUpdateSliceFamily, StablehloOp):
    """``dynamic_update_slice %x, %u, %i, %j : (tensor<4x8xf32>, tensor<2x2xf32>,
    tensor<i64>, tensor<i64>) -> tensor<4x8xf32>``: ``operand`` with ``update``
    written at run-time start indices (clamped).
    ``DynamicUpdateSliceOp(operand, starts, update)``; builder and shape rule
    are ``bc.DynamicUpdateSliceFamily``'s."""

    name = "stablehlo.dynamic_update_slice"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    OPERAND_ORDER: ClassVar[tuple[str, str, str]] = ("operand", "update", "start_indices")
    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"

    def verify_op(self) -> None:
        _check_start_indices(self, self.start_indices, len(shape_of(self.operand)))
        self.check_update_shape()
        if element_of(self.update) != element_of(self.operand) or self.result.type != self.operand.type:
            raise Diagnostic("operand, update and result must have the same element type, "
                             "and the result the operand's type")


@irdl_attr_definition
class GatherDimensionNumbersAttr(bc.GatherDimsFamily):
    """``#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
    start_index_map = [0], index_vector_dim = 1>``, ``gather``'s dimension numbers."""

    name = "stablehlo.gather"


@irdl_op_definition
class GatherOp(bc.GatherFamily, StablehloOp):
    """``"stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<...>,
    indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}>``: slices
    of ``x`` at run-time start indices, clamped into range. Generic form
    only, as StableHLO and JAX print it. ``GatherOp(operand, indices, dims,
    sizes)``; fields and builder are ``bc.GatherFamily``'s."""

    name = "stablehlo.gather"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    DIMS_ATTR: ClassVar[type[bc.GatherDimsFamily]] = GatherDimensionNumbersAttr
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(IntegerAttr.constr(type=i1))
    traits = traits_def(Pure())

    @staticmethod
    def flat_shape_of(t: Attribute) -> tuple[rules.Dim, ...]:
        """The builder reads ``?`` dims as ``rules.Dynamic`` (a ``?`` dim of
        the operand is a slice dim; one of the indices is a batch dim of the
        result, ``rules.gather_shape``)."""
        return tensor_dims(_tensor(t, "operand"))

    def verify_op(self) -> None:
        _check_index_tensor(self.start_indices, "start_indices")
        shape = rules.gather_shape(tensor_dims(_tensor(self.operand, "operand")),
                                   tensor_dims(_tensor(self.start_indices, "start_indices")), self.dims, self.sizes)
        expected = self.shaped_like(self.operand.type, shape)
        if expected != self.result.type:
            raise Diagnostic(f"inferred type(s) '{expected}' are incompatible with return type(s) of operation "
                             f"'{self.result.type}'")


@irdl_attr_definition
class ScatterDimensionNumbersAttr(bc.ScatterDimsFamily):
    """``#stablehlo.scatter<update_window_dims = [1], inserted_window_dims =
    [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>``."""

    name = "stablehlo.scatter"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # ``rules.check_scatter``'s ``?`` dims


def set_body(element: Attribute) -> Region:
    """``^bb0(%old, %new): return %new``, the body of ``x.at[i].set(u)``."""
    scalar = tensor_type((), element)
    block = Block(arg_types=[scalar, scalar])
    block.add_op(ReturnOp(block.args[1]))
    return Region(block)


@irdl_op_definition
class ScatterOp(StablehloOp):
    """``"stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers =
    #stablehlo.scatter<...>, indices_are_sorted = false, unique_indices =
    false}> ({body}) : (...) -> ...``: the inputs with the updates combined in
    by the body at the positions the indices give (out-of-bounds elements
    skipped). Generic form only, as StableHLO and JAX print it.
    ``ScatterOp(operand, indices, updates, dims, body)``, one input."""

    name = "stablehlo.scatter"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # ``rules.check_scatter``'s ``?`` dims
    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(IntegerAttr.constr(type=i1))
    unique_indices = opt_prop_def(IntegerAttr.constr(type=i1))
    update_computation = region_def("single_block")
    out = var_result_def(TensorType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, indices: SSAValue | Operation, updates: SSAValue | Operation,
                 dims: rules.GatherDims, body: Region):
        super().__init__(operands=[[operand], indices, [updates]], result_types=[[type_of(operand)]],
                         properties={"scatter_dimension_numbers": ScatterDimensionNumbersAttr.of(dims)},
                         regions=[body])  # fmt: skip

    @property
    def dims(self) -> rules.GatherDims:
        return self.scatter_dimension_numbers.dims

    def verify_op(self) -> None:
        _check_index_tensor(self.scatter_indices, "scatter_indices")
        if not self.inputs or len({shape_of(v) for v in self.inputs}) > 1 or \
                len({shape_of(v) for v in self.updates}) > 1:
            raise Diagnostic("expects one or more inputs of one shape and updates of one shape")
        for x, u in zip(self.inputs, self.updates):
            if element_of(x) != element_of(u):
                raise Diagnostic(f"expects updates of the inputs' element types, got {u.type} for {x.type}")
        rules.check_scatter(*(tensor_dims(_tensor(v, "operand")) for v in
                              (self.inputs[0], self.scatter_indices, self.updates[0])), self.dims)
        _check_scalar_body(self.update_computation, [element_of(x) for x in self.inputs], "the update computation")
        if [r.type for r in self.out] != [x.type for x in self.inputs]:
            raise incompatible_results([x.type for x in self.inputs], [r.type for r in self.out])


def sort_comparator(elements: Sequence[Attribute], keys: Sequence[tuple[int, str, bool]]) -> Region:
    """The comparator JAX writes for a sort of operands of ``elements`` by
    ``keys``: (operand, direction, total_order) each, the first deciding
    (``num_keys`` of them; JAX writes LT for each, GT is a descending key).
    Over ``(%a0, %b0, %a1, %b1, ...)``: per key, ``compare DIRECTION`` of
    its ``a`` and ``b``; with several, from the last key up, ``or(compare
    DIRECTION, and(compare EQ, the later keys' answer))``. A float key
    compares TOTALORDER; unless ``total_order``, after JAX's
    canonicalization of each side (``x == 0`` -> ``+0.0``, ``x != x`` ->
    the positive quiet NaN), so ``-0.0`` ties ``0.0`` and NaNs tie after
    ``+inf``; the constants are inside the region (JAX writes them in the
    function: the import reads both)."""
    scalars = [tensor_type((), e) for e in elements]
    block = Block(arg_types=[t for t in scalars for _ in range(2)])
    sides: list[tuple[SSAValue, SSAValue, str]] = []
    for key, _, total_order in keys:
        a, b = block.args[2 * key], block.args[2 * key + 1]
        element = elements[key]
        if element_kind(element) == FLOAT:
            compare_type = "TOTALORDER"
            if not total_order:
                nan, zero = (ConstantOp(np.array(v, np.float64), scalars[key]) for v in (np.nan, 0.0))
                block.add_ops([nan, zero])
                canonical = []
                for x in (a, b):
                    is_zero = CompareOp("EQ", x, zero, "FLOAT")
                    zeroed = SelectOp(is_zero, zero, x)
                    is_nan = CompareOp("NE", x, x, "FLOAT")
                    canonical.append(SelectOp(is_nan, nan, zeroed))
                    block.add_ops([is_zero, zeroed, is_nan, canonical[-1]])
                a, b = canonical
        else:
            compare_type = "SIGNED" if element_kind(element) == SIGNED else "UNSIGNED"
        sides.append((a, b, compare_type))
    answer: Operation | None = None
    for (a, b, compare_type), (_, direction, _) in reversed(list(zip(sides, keys))):
        before = CompareOp(direction, a, b, compare_type)
        block.add_op(before)
        if answer is not None:
            equal = CompareOp("EQ", a, b, compare_type)
            tie = ELEMENTWISE_OPS["stablehlo.and"](equal, answer)
            block.add_ops([equal, tie, before := ELEMENTWISE_OPS["stablehlo.or"](before, tie)])
        answer = before
    block.add_op(ReturnOp(answer))
    return Region(block)


@irdl_op_definition
class SortOp(StablehloOp):
    """``"stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}>
    ({comparator}) : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>,
    tensor<3x5xi32>)``: every input permuted along ``dimension`` by one
    sort, the comparator saying whether its first element of each pair goes
    before its second. Generic form only, as JAX and MLIR print it. The
    import takes JAX's comparators (``sort_comparator``).
    ``SortOp(inputs, dimension, comparator)``, stable."""

    name = "stablehlo.sort"
    inputs = var_operand_def(TensorType)
    dimension = opt_prop_def(IntegerAttr.constr(type=I64))
    is_stable = opt_prop_def(BoolAttr)
    comparator = region_def("single_block")
    results_ = var_result_def(TensorType)
    traits = traits_def(Pure())
    DYNAMIC_SHAPES: ClassVar[bool] = True  # inputs of one type; bcast.sort checks their run-time sizes

    def __init__(self, inputs: Sequence[SSAValue | Operation], dimension: int, comparator: Region):
        inputs = [SSAValue.get(v) for v in inputs]
        super().__init__(operands=[inputs], result_types=[[v.type for v in inputs]],
                         properties={"dimension": IntegerAttr(dimension, i64), "is_stable": IntegerAttr(1, i1)},
                         regions=[comparator])  # fmt: skip

    @property
    def dim(self) -> int:
        """The sorted dimension, from 0 (the spec lets ``dimension`` count from the end)."""
        d = self.dimension.value.data if self.dimension is not None else -1
        return d + len(shape_of(self.inputs[0], "input")) if d < 0 else d

    def verify_op(self) -> None:
        if not self.inputs:
            raise Diagnostic("expects at least one input")
        shape = shape_of(self.inputs[0], "input")
        for v in self.inputs:
            if shape_of(v, "input") != shape:
                raise Diagnostic(f"expects all inputs to have the same shape, got {self.inputs[0].type} and {v.type}")
        if [r.type for r in self.results] != [v.type for v in self.inputs]:
            raise incompatible_results([v.type for v in self.inputs], [r.type for r in self.results])
        d = self.dimension.value.data if self.dimension is not None else -1
        if not -len(shape) <= d < len(shape):
            raise Diagnostic(f"dimension {d} is out of range for inputs of rank {len(shape)}",
                             ["the dimension is in [-rank, rank)"])  # fmt: skip
        scalars = [tensor_type((), element_of(v)) for v in self.inputs]
        pairs = [t for t in scalars for _ in range(2)]
        block = self.comparator.block if self.comparator.blocks else None
        arg_types = [a.type for a in block.args] if block else []
        if arg_types != pairs:
            raise Diagnostic("the comparator must take (" + ", ".join(map(str, pairs)) + ") but takes ("
                             + ", ".join(map(str, arg_types)) + ")")  # fmt: skip
        last = block.last_op if block else None
        if not isinstance(last, ReturnOp) or [v.type for v in last.operands] != [tensor_type((), i1)]:
            raise Diagnostic("the comparator must end in stablehlo.return of one tensor<i1>")


@irdl_op_definition
class MapOp(StablehloOp):
    """``"stablehlo.map"(%x, %y) ({^bb0(%a: tensor<f32>, %b: tensor<f32>): ...
    stablehlo.return %r : tensor<f32>}) {dimensions = array<i64: 0, 1>}
    : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>``: the body, a
    computation on rank-0 tensors (one per input), applied at every index.
    Generic form only, as StableHLO prints it. ``dimensions`` must be
    ``0, ..., rank-1`` (StableHLO maps over every dimension; docs/stablehlo.md).
    ``MapOp(inputs, dimensions, body, result_type)``."""

    name = "stablehlo.map"
    inputs = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    computation = region_def("single_block")
    result = result_def(TensorType)
    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())
    DYNAMIC_SHAPES: ClassVar[bool] = True  # inputs of one shape, ``?`` included: the body is elementwise

    def __init__(self, inputs: Sequence[SSAValue | Operation], dimensions: Sequence[int], body: Region,
                 result_type: Attribute):
        super().__init__(operands=[list(inputs)], result_types=[result_type],
                         properties={"dimensions": dense_i64(dimensions)}, regions=[body])  # fmt: skip

    @property
    def dims(self) -> tuple[int, ...]:
        return self.dimensions.get_values()

    def verify_op(self) -> None:
        """StableHLO's rules, in its verifier's order and words: inputs and
        result of one shape, the body's arity, rank-0 arguments of the
        inputs' element types, one rank-0 result, ``dimensions`` = iota(rank)."""
        if not self.inputs:
            raise Diagnostic("expects at least one input")
        shape = tensor_dims(_tensor(self.inputs[0], "input"))
        for v in (*self.inputs, self.result):
            if tensor_dims(_tensor(v, "operand")) != shape:
                raise Diagnostic("requires the same shape for all operands and results")
        block = self.computation.block if self.computation.blocks else None
        args = list(block.args) if block else []
        if len(self.inputs) != len(args):
            raise Diagnostic("expects number of operands to match the arity of map computation, "
                             f"but got: {len(self.inputs)} and {len(args)}")  # fmt: skip
        for i, (arg, x) in enumerate(zip(args, self.inputs)):
            if not isinstance(arg.type, TensorType) or arg.type.get_shape() != ():
                raise Diagnostic(f"computation arguments must be 0-rank tensor, but got: arg #{i} of type '{arg.type}'")
            if arg.type.get_element_type() != element_of(x):
                raise Diagnostic("element type of operands and computation arguments must match, "
                                 f"but got: '{element_of(x)}' and '{arg.type.get_element_type()}'")  # fmt: skip
        last = block.last_op if block else None
        if not isinstance(last, ReturnOp):
            raise Diagnostic("computation must end in stablehlo.return")
        if len(last.operands) != 1:
            raise Diagnostic(f"computation must return single output, but got: {len(last.operands)}")
        out = last.operands[0].type
        if not isinstance(out, TensorType) or out.get_shape() != ():
            raise Diagnostic(f"computation must return 0-rank tensor, but got: '{out}'")
        dims = list(self.dims)
        if any(d != i for i, d in enumerate(dims)):
            raise Diagnostic("requires monotonically increasing dimension numbers, but got: "
                             + ", ".join(map(str, dims)))  # fmt: skip
        if len(dims) != len(shape):
            raise Diagnostic("applied to a subset of dimensions currently not supported: operand dimensions = "
                             f"{len(shape)}, requested map dimensions size = {len(dims)}")  # fmt: skip
        expected = dims_tensor_type(out.get_element_type(), shape)
        if self.result.type != expected:
            raise incompatible_results([expected], [self.result.type])


@irdl_op_definition
class OptimizationBarrierOp(StablehloOp):
    """``optimization_barrier %a, %b : tensor<4xf32>, tensor<i32>``: its
    operands unchanged, which XLA may not look through (so it cannot rewrite
    ``log(exp(x))`` to ``x``). The attribute dictionary comes first, and no
    operands is ``()``, as in StableHLO. ``OptimizationBarrierOp(values)``."""

    name = "stablehlo.optimization_barrier"
    operand = var_operand_def(TensorType)
    result = var_result_def(TensorType)
    traits = traits_def(Pure())
    custom_directives = (PairwiseOpType,)
    assembly_format = (
        "attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?"
    )

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[list(values)], result_types=[[v.type for v in values]])

    def verify_op(self) -> None:
        if [v.type for v in self.operand] != [r.type for r in self.result]:
            raise Diagnostic("results must have the operands' types")


# --------------------------------------------------------------------------
# Contractions: dot_general, dot
# --------------------------------------------------------------------------


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """``#stablehlo<precision DEFAULT>``: how precisely XLA may compute a
    contraction; bcast always computes in full precision of the type."""

    name = "stablehlo.precision"


@irdl_attr_definition
class DotAttr(ParametrizedAttribute):
    """``#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions =
    [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>``
    (empty lists omitted), ``dot_general``'s dimension numbers."""

    name = "stablehlo.dot"
    lhs_batching_dimensions: DenseArrayBase
    rhs_batching_dimensions: DenseArrayBase
    lhs_contracting_dimensions: DenseArrayBase
    rhs_contracting_dimensions: DenseArrayBase

    FIELDS: ClassVar[tuple[str, ...]] = ("lhs_batching_dimensions", "rhs_batching_dimensions",
                                         "lhs_contracting_dimensions", "rhs_contracting_dimensions")  # fmt: skip

    @staticmethod
    def of(dims: rules.DotDims) -> DotAttr:
        return DotAttr(*(dense_i64(v) for v in (dims.lhs_batch, dims.rhs_batch, dims.lhs_contract, dims.rhs_contract)))

    @property
    def dims(self) -> rules.DotDims:
        return rules.DotDims(*(getattr(self, f).get_values() for f in self.FIELDS))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = {f: [] for f in cls.FIELDS}

        def field() -> None:
            pos = parser.pos
            name = parser.parse_identifier()
            if name not in values:
                parser.raise_error(f"unknown dot dimension field '{name}'", pos, parser.pos)
            parser.parse_punctuation("=")
            values[name] = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, field)
        return tuple(dense_i64(values[f]) for f in cls.FIELDS)

    def print_parameters(self, printer: Printer) -> None:
        shown = [(f, getattr(self, f).get_values()) for f in self.FIELDS]
        text = ", ".join(f"{f} = [{', '.join(map(str, v))}]" for f, v in shown if v)
        printer.print_string(f"<{text}>")


@irdl_attr_definition
class DotAlgorithmAttr(ParametrizedAttribute):
    """``#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type
    = tf32, accumulation_type = f32, lhs_component_count = 1,
    rhs_component_count = 1, num_primitive_operations = 1,
    allow_imprecise_accumulation = false>`` (``algorithm = <...>`` in
    ``dot_general``'s custom form): how a backend may compute the product.
    Kept as written; bcast itself computes every product in the operands'
    own type (docs/stablehlo.md), which no algorithm forbids being more
    precise than."""

    name = "stablehlo.dot_algorithm"
    lhs_precision_type: TypeAttribute
    rhs_precision_type: TypeAttribute
    accumulation_type: TypeAttribute
    lhs_component_count: IntAttr
    rhs_component_count: IntAttr
    num_primitive_operations: IntAttr
    allow_imprecise_accumulation: IntAttr

    TYPES: ClassVar[tuple[str, ...]] = ("lhs_precision_type", "rhs_precision_type", "accumulation_type")
    COUNTS: ClassVar[tuple[str, ...]] = ("lhs_component_count", "rhs_component_count", "num_primitive_operations")
    FLAG: ClassVar[str] = "allow_imprecise_accumulation"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, Attribute] = {}

        def field() -> None:
            pos = parser.pos
            name = parser.parse_identifier()
            if name not in (*cls.TYPES, *cls.COUNTS, cls.FLAG) or name in values:
                parser.raise_error(f"unknown or repeated dot algorithm field '{name}'", pos, parser.pos)
            parser.parse_punctuation("=")
            if name in cls.TYPES:
                values[name] = parser.parse_type()
            elif name in cls.COUNTS:
                values[name] = IntAttr(parser.parse_integer(allow_boolean=False))
            else:
                values[name] = IntAttr(int(parser.parse_boolean()))

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, field)
        missing = [f for f in (*cls.TYPES, *cls.COUNTS, cls.FLAG) if f not in values]
        if missing:
            parser.raise_error(f"dot algorithm is missing {', '.join(missing)}")
        return tuple(values[f] for f in (*cls.TYPES, *cls.COUNTS, cls.FLAG))

    def print_parameters(self, printer: Printer) -> None:
        fields = [f"{f} = {getattr(self, f)}" for f in self.TYPES]
        fields += [f"{f} = {getattr(self, f).data}" for f in self.COUNTS]
        fields.append(f"{self.FLAG} = {'true' if self.allow_imprecise_accumulation.data else 'false'}")
        printer.print_string("<" + ", ".join(fields) + ">")


def _dot_result(op: IRDLOperation, dims: rules.DotDims) -> None:
    """StableHLO's ``dot_general`` rules on ``op``'s operands and result:
    ``rules.dot_general_shape`` (C1-C10, C12) and a precision config of 0 or
    2 entries (C11); bcast's subset takes integer, float and complex elements."""
    _tensor(op.lhs, "lhs"), _tensor(op.rhs, "rhs")
    lhs, rhs = tensor_dims(op.lhs.type), tensor_dims(op.rhs.type)
    for what, value in (("lhs", op.lhs), ("rhs", op.rhs), ("result", op.result)):
        if element_kind(element_of(value, what)) not in INTEGER | {FLOAT, COMPLEX}:
            raise Diagnostic(f"{what} must be a tensor of integer, floating-point or complex values, got {value.type}")
    precision = op.precision_config
    if precision is not None and len(precision.data) not in (0, 2):
        raise Diagnostic(f"expects precision config to be empty or have <= 2 elements, got {len(precision.data)}")
    if precision is not None and not all(isinstance(p, PrecisionAttr) for p in precision.data):
        raise Diagnostic(f"'precision_config' must hold #stablehlo<precision ...> values, got {precision}")
    shape = rules.dot_general_shape(lhs, rhs, dims)
    if not rules.compatible_levels((shape,), (tensor_dims(op.result.type),)):
        raise Diagnostic(f"inferred shape '{rules.shape_str(shape)}' is incompatible with return type of "
                         f"operation {op.result.type}")  # fmt: skip


def _parse_precision(parser: Parser) -> ArrayAttr | None:
    """``, precision = [DEFAULT, DEFAULT]`` (after the dims), if present."""
    if parser.parse_optional_keyword("precision") is None:
        return None
    parser.parse_punctuation("=")

    def one() -> PrecisionAttr:
        pos = parser.pos
        word = parser.parse_identifier()
        if word not in Precision.__members__:
            parser.raise_error(f"expected one of {', '.join(Precision.__members__)}", pos, parser.pos)
        return PrecisionAttr(Precision(word))

    return ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one))


def _print_precision(printer: Printer, precision: ArrayAttr | None) -> None:
    if precision is not None and precision.data:
        printer.print_string(", precision = [" + ", ".join(p.data.value for p in precision.data) + "]")


@irdl_op_definition
class DotGeneralOp(bc.DotGeneralFamily, StablehloOp):
    """``dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x
    [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>)
    -> tensor<2x3x5xf32>`` (generic: ``dot_dimension_numbers =
    #stablehlo.dot<...>``). ``DotGeneralOp(lhs, rhs, dims, result_type=None)``
    with ``rules.DotDims``. The result's element type may differ from the
    operands' (JAX's ``preferred_element_type``). Operands, result and
    builder are ``bc.DotGeneralFamily``'s."""

    name = "stablehlo.dot_general"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    dot_dimension_numbers = prop_def(DotAttr)
    precision_config = opt_prop_def(ArrayAttr)
    algorithm = opt_prop_def(DotAlgorithmAttr)
    traits = traits_def(Pure())

    @staticmethod
    def dims_properties(dims: rules.DotDims) -> dict[str, Attribute]:
        return {"dot_dimension_numbers": DotAttr.of(dims)}

    @property
    def dims(self) -> rules.DotDims:
        return self.dot_dimension_numbers.dims

    @classmethod
    def parse(cls, parser: Parser):
        lhs, rhs = _parse_operands(parser, 2)
        parser.parse_punctuation(",")
        props: dict[str, Attribute] = {"dot_dimension_numbers": DotAttr.of(rules.DotDims(*parse_dot_dims(parser)))}
        while parser.parse_optional_punctuation(",") is not None:
            if "precision_config" not in props and (precision := _parse_precision(parser)) is not None:
                props["precision_config"] = precision
            elif "algorithm" not in props and parser.parse_optional_keyword("algorithm") is not None:
                parser.parse_punctuation("=")
                props["algorithm"] = DotAlgorithmAttr.new(DotAlgorithmAttr.parse_parameters(parser))
            else:
                parser.raise_error("expected 'precision' or 'algorithm'")
        more, attrs = _split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        inputs, output = _same_operands_and_result_type(parser, 2)
        values = [parser.resolve_operand(o, t) for o, t in zip((lhs, rhs), inputs)]
        return cls.create(operands=values, result_types=[output], properties={**props, **more}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(", ")
        d = self.dims
        print_dot_dims(printer, d.lhs_batch, d.rhs_batch, d.lhs_contract, d.rhs_contract)
        _print_precision(printer, self.precision_config)
        if self.algorithm is not None:
            printer.print_string(", algorithm = ")
            self.algorithm.print_parameters(printer)
        _print_attr_dict(printer, self, ("dot_dimension_numbers", "precision_config", "algorithm"))
        printer.print_string(" : ")
        _print_functional(printer, [o.type for o in self.operands], [self.result.type])

    def verify_op(self) -> None:
        _dot_result(self, self.dims)


@irdl_op_definition
class DotOp(StablehloOp):
    """``dot %a, %b, precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>,
    tensor<4xf32>) -> tensor<3xf32>``: the vector/matrix product of 1-D or
    2-D operands (``dot_general`` contracting ``lhs``'s last dim with
    ``rhs``'s first: ``dims``)."""

    name = "stablehlo.dot"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    precision_config = opt_prop_def(ArrayAttr)
    traits = traits_def(Pure())

    @property
    def dims(self) -> rules.DotDims:
        return rules.DotDims((), (), (len(shape_of(self.lhs, "lhs")) - 1,), (0,))

    @classmethod
    def parse(cls, parser: Parser):
        lhs, rhs = _parse_operands(parser, 2)
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            precision = _parse_precision(parser)
            if precision is None:
                parser.raise_error("expected 'precision'")
            props["precision_config"] = precision
        more, attrs = _split_attr_dict(cls, parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        inputs, output = _same_operands_and_result_type(parser, 2)
        values = [parser.resolve_operand(o, t) for o, t in zip((lhs, rhs), inputs)]
        return cls.create(operands=values, result_types=[output], properties={**props, **more}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_precision(printer, self.precision_config)
        _print_attr_dict(printer, self, ("precision_config",))
        printer.print_string(" : ")
        _print_functional(printer, [o.type for o in self.operands], [self.result.type])

    def verify_op(self) -> None:
        for what, value in (("lhs", self.lhs), ("rhs", self.rhs)):
            if len(shape_of(value, what)) not in (1, 2):
                raise Diagnostic(f"expected {what} of rank 1 or 2, got {value.type}")
        _dot_result(self, self.dims)


# --------------------------------------------------------------------------
# Dynamic shapes (JAX's shape-polymorphic exports, bounded programs)
# --------------------------------------------------------------------------


def _check_size_scalar(value: SSAValue, what: str) -> None:
    """A size as StableHLO passes one: a rank-0 integer tensor."""
    if shape_of(value, what) or element_kind(element_of(value, what)) not in INTEGER:
        raise Diagnostic(f"{what} must be a rank-0 integer tensor, got {value.type}")


def _check_shape_operand(value: SSAValue, rank: int, what: str = "output_dimensions") -> None:
    """Sizes as StableHLO passes them: a 1-D integer tensor, one per result dim."""
    shape = shape_of(value, what)
    if len(shape) != 1 or element_kind(element_of(value, what)) not in INTEGER:
        raise Diagnostic(f"{what} must be a 1-D integer tensor, got {value.type}")
    if shape[0] != rank:
        raise Diagnostic(f"{what} has {shape[0]} sizes for a result of rank {rank}")


@irdl_op_definition
class GetDimensionSizeOp(StablehloOp):
    """``get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>``:
    the run-time size of one dim."""

    name = "stablehlo.get_dimension_size"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    def verify_op(self) -> None:
        rank = len(shape_of(self.operand))
        if not 0 <= self.dim < rank:
            raise Diagnostic(f"requires dimension attribute in range [0, {rank}); found ({self.dim})")
        if self.result.type != tensor_type((), IntegerType(32)):
            raise Diagnostic(f"result must be tensor<i32>, got {self.result.type}")


@irdl_op_definition
class SetDimensionSizeOp(bc.SetDimensionSizeFamily[TensorType], StablehloOp):
    """``set_dimension_size %x, %n, dim = 0 : (tensor<16xf32>, tensor<i32>) ->
    tensor<?xf32, #stablehlo.bounds<16>>``: the first ``n`` entries along
    ``dim`` (XLA's dynamic padding: ``n`` at most the operand's size).
    ``SetDimensionSizeOp(operand, size, dim, result_type)``; fields and
    builder are ``bc.SetDimensionSizeFamily``'s."""

    name = "stablehlo.set_dimension_size"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(Pure())
    assembly_format = (
        "$operand `,` $size `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"
    )

    def verify_op(self) -> None:
        shape = shape_of(self.operand)
        if not 0 <= self.dim < len(shape):
            raise Diagnostic(f"requires dimension attribute in range [0, {len(shape)}); found ({self.dim})")
        _check_size_scalar(self.size, "size")
        if element_of(self.result, "result") != element_of(self.operand):
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        result = shape_of(self.result, "result")
        expected = list(shape)
        expected[self.dim] = DYNAMIC_INDEX
        if list(result) != expected and list(result) != list(shape):
            raise Diagnostic(f"result {self.result.type} does not match operand {self.operand.type} "
                             f"with dim {self.dim} set")  # fmt: skip


@irdl_op_definition
class DynamicBroadcastInDimOp(bc.DynamicBroadcastInDimFamily, StablehloOp):
    """``dynamic_broadcast_in_dim %x, %sizes, dims = [0, 1] : (tensor<1x4xf32>,
    tensor<2xi32>) -> tensor<?x4xf32>``, with optional
    ``known_expanding_dimensions`` / ``known_nonexpanding_dimensions`` in the
    attribute dictionary (``{known_expanding_dimensions = array<i64: 1>}``),
    where StableHLO prints them. Properties, result and accessors are
    ``bc.DynamicBroadcastInDimFamily``'s."""

    name = "stablehlo.dynamic_broadcast_in_dim"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    output_dimensions = operand_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_op(self) -> None:
        if element_of(self.operand) != element_of(self.result, "result"):
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        _check_shape_operand(self.output_dimensions, len(shape_of(self.result, "result")))
        rules.check_broadcast_in_dim(tensor_dims(self.operand.type), tensor_dims(self.result.type),
                                     self.dims, "numpy", sizes_given=True)
        rank = len(shape_of(self.operand))
        for facts in (self.expanding, self.nonexpanding):
            if any(not 0 <= d < rank for d in facts):
                raise Diagnostic(f"known expansion dims {list(facts)} out of range for an operand "
                                 f"of rank {rank}")  # fmt: skip


@irdl_op_definition
class DynamicReshapeOp(bc.DynamicReshapeFamily, StablehloOp):
    """``dynamic_reshape %x, %sizes : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>``;
    its rule is ``bc.DynamicReshapeFamily``'s."""

    name = "stablehlo.dynamic_reshape"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    output_shape = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$operand `,` $output_shape attr-dict `:` functional-type(operands, results)"

    def verify_op(self) -> None:
        _check_shape_operand(self.output_shape, len(shape_of(self.result, "result")), "output_shape")
        self.check_reshape()


@irdl_op_definition
class DynamicIotaOp(bc.DynamicIotaFamily, StablehloOp):
    """``dynamic_iota %sizes, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>``;
    dimension and result are ``bc.DynamicIotaFamily``'s."""

    name = "stablehlo.dynamic_iota"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    output_shape = operand_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$output_shape `,` `dim` `=` $iota_dimension attr-dict `:` functional-type(operands, results)"

    def verify_op(self) -> None:
        rank = len(shape_of(self.result, "result"))
        _check_shape_operand(self.output_shape, rank, "output_shape")
        if not 0 <= self.dim < rank:
            raise Diagnostic(f"iota dimension {self.dim} out of range for a result of rank {rank}")


def _check_index_vectors(op: Operation, vectors: dict[str, SSAValue]) -> None:
    """One entry per operand dim, as ``dynamic_pad`` and ``real_dynamic_slice``
    take their paddings and ranges: each a 1-D integer tensor of the
    operand's rank entries; the result of that rank."""
    rank = len(shape_of(op.operand))
    for what, value in vectors.items():
        shape = shape_of(value, what)
        if len(shape) != 1 or element_kind(element_of(value, what)) not in INTEGER:
            raise Diagnostic(f"{what} must be a 1-D integer tensor, got {value.type}")
        if shape[0] != rank:
            raise Diagnostic(f"{what} has {shape[0]} entries for an operand of rank {rank}")
    if len(shape_of(op.result, "result")) != rank:
        raise Diagnostic(f"result has rank {len(shape_of(op.result, 'result'))}, the operand {rank}")


@irdl_op_definition
class DynamicPadOp(StablehloOp):
    """``dynamic_pad %x, %v, %low, %high, %interior : (tensor<4xf32>,
    tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>``:
    ``pad`` with its paddings as tensors. The import takes it when they are
    constants (as StableHLO's canonicalize-dynamism does)."""

    name = "stablehlo.dynamic_pad"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = operand_def(TensorType)
    edge_padding_high = operand_def(TensorType)
    interior_padding = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"

    def verify_op(self) -> None:
        element = element_of(self.operand)
        if element_of(self.padding_value, "padding_value") != element or element_of(self.result, "result") != element:
            raise Diagnostic("failed to verify that all of {operand, padding_value, result} have same element type")
        if shape_of(self.padding_value, "padding_value"):
            raise Diagnostic(f"padding_value must be a rank-0 tensor, got {self.padding_value.type}")
        _check_index_vectors(self, {"edge_padding_low": self.edge_padding_low,
                                    "edge_padding_high": self.edge_padding_high,
                                    "interior_padding": self.interior_padding})


@irdl_op_definition
class RealDynamicSliceOp(StablehloOp):
    """``real_dynamic_slice %x, %start, %limit, %strides : (tensor<4xf32>,
    tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>``: ``slice``
    with its ranges as tensors. The import takes constant ranges (a
    ``slice``), a run-time start whose limit is start plus a constant,
    with unit strides (a ``dynamic_slice``), as StableHLO's
    canonicalize-dynamism does, and any other ranges and strides as a
    ``gather`` with located run-time range checks (docs/stablehlo.md,
    "Dynamic shapes")."""

    name = "stablehlo.real_dynamic_slice"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    limit_indices = operand_def(TensorType)
    strides = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"

    def verify_op(self) -> None:
        if element_of(self.operand) != element_of(self.result, "result"):
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        _check_index_vectors(self, {"start_indices": self.start_indices, "limit_indices": self.limit_indices,
                                    "strides": self.strides})


@irdl_op_definition
class DynamicGatherOp(StablehloOp):
    """``"stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers =
    #stablehlo.gather<...>}>``: ``gather`` with its slice sizes as a 1-D
    integer tensor (JAX writes it for ``jnp.take`` along a static axis of an
    array with ``?`` dims: the slice of a ``?`` dim is that whole dim, its
    size read at run time). Generic form only, as StableHLO and JAX print
    it. The import takes constant slice sizes (a ``gather``) and sizes
    computed at run time, whole ``?`` dims or parts of dims
    (docs/stablehlo.md, "Dynamic shapes")."""

    name = "stablehlo.dynamic_gather"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    slice_sizes = operand_def(TensorType)
    result = result_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(IntegerAttr.constr(type=i1))
    traits = traits_def(Pure())

    @property
    def dims(self) -> rules.GatherDims:
        return self.dimension_numbers.dims

    def verify_op(self) -> None:
        _check_index_tensor(self.start_indices, "start_indices")
        sizes = shape_of(self.slice_sizes, "slice_sizes")
        rank = len(shape_of(self.operand))
        if len(sizes) != 1 or element_kind(element_of(self.slice_sizes, "slice_sizes")) not in INTEGER:
            raise Diagnostic(f"slice_sizes must be a 1-D integer tensor, got {self.slice_sizes.type}")
        if sizes[0] != rank:
            raise Diagnostic(f"slice_sizes has {sizes[0]} entries for an operand of rank {rank}")
        if element_of(self.operand) != element_of(self.result, "result"):
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")

# --------------------------------------------------------------------------
# convolution (fields, builder and syntax: bc.ConvolutionFamily)
# --------------------------------------------------------------------------


@irdl_attr_definition
class ConvDimensionNumbersAttr(bc.ConvDimsFamily):
    """``#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>``,
    ``convolution``'s dimension numbers (the generic form's)."""

    name = "stablehlo.conv"


@irdl_op_definition
class ConvolutionOp(bc.ConvolutionFamily, StablehloOp):
    """``stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i,
    o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]],
    lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    precision_config = [...]} : (A, B) -> C`` (generic: the window as
    ``window_strides``, ``padding``, ``lhs_dilation``, ``rhs_dilation``,
    ``window_reversal``, the dims as ``dimension_numbers =
    #stablehlo.conv<...>``). Fields, builder and syntax are
    ``bc.ConvolutionFamily``'s; the result's element type may differ from
    the operands' (as ``dot_general``'s)."""

    name = "stablehlo.convolution"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    DIMS_ATTR: ClassVar[type[bc.ConvDimsFamily]] = ConvDimensionNumbersAttr
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        """StableHLO's C1-C27 on the shapes (``rules.convolution_shape``);
        bcast's subset takes integer and float elements only."""
        for what, value in (("lhs", self.lhs), ("rhs", self.rhs), ("result", self.result)):
            _tensor(value, what)
            if element_kind(element_of(value, what)) not in INTEGER | {FLOAT}:
                raise Diagnostic(f"{what} must be a tensor of integer or floating-point values, got {value.type}")
        self.check_precision_config()
        shape = rules.convolution_shape(tensor_dims(self.lhs.type), tensor_dims(self.rhs.type), self.conv)
        if not rules.compatible_levels((shape,), (tensor_dims(self.result.type),)):
            raise Diagnostic(f"inferred shape '{rules.shape_str(shape)}' is incompatible with return type of "
                             f"operation {self.result.type}")  # fmt: skip


@irdl_op_definition
class DynamicConvOp(bc.ConvolutionFamily, StablehloOp):
    """``stablehlo.dynamic_conv(%x, %w, %padding) dim_numbers = ..., window
    = {stride = [4, 4], lhs_dilate = [2, 2]} {...} : (A, B, tensor<2x2xi64>)
    -> C``: ``convolution`` whose padding is an operand, one (low, high)
    row per spatial dim (the window has no ``pad`` field). The import makes
    it a ``bcast.convolution`` when the padding is a constant, and a
    ``bcast.dynamic_conv`` (its padding read at run time) otherwise."""

    name = "stablehlo.dynamic_conv"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    DIMS_ATTR: ClassVar[type[bc.ConvDimsFamily]] = ConvDimensionNumbersAttr
    lhs = operand_def(TensorType)  # redeclared: the operands in StableHLO's order
    rhs = operand_def(TensorType)
    d_padding = operand_def(TensorType)
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        """StableHLO's constraints on the operands (``ConvolutionOp``'s on the
        element types), the padding an integer ``[N, 2]`` tensor, one row per
        spatial dim, and a window without a ``pad`` field."""
        for what, value in (("lhs", self.lhs), ("rhs", self.rhs), ("result", self.result)):
            _tensor(value, what)
            if element_kind(element_of(value, what)) not in INTEGER | {FLOAT}:
                raise Diagnostic(f"{what} must be a tensor of integer or floating-point values, got {value.type}")
        self.check_precision_config()
        if self.padding is not None:
            raise Diagnostic("takes its padding as an operand, not in its window")
        spatial = len(self.dimension_numbers.dims.input_spatial)
        padding = self.d_padding.type
        if (not isinstance(padding, TensorType) or element_kind(padding.get_element_type()) not in INTEGER
                or tuple(padding.get_shape()) != (spatial, 2)):
            raise Diagnostic(f"padding must be a tensor<{spatial}x2x...> of integers (one (low, high) row per "
                             f"spatial dim), got {padding}")


@irdl_attr_definition
class TransposeAttr(EnumAttribute[bc.Transpose], SpacedOpaqueSyntaxAttribute):
    """Prints ``#stablehlo<transpose TRANSPOSE>``, as MLIR does."""

    name = "stablehlo.transpose"


@irdl_op_definition
class TriangularSolveOp(bc.TriangularSolveFamily, StablehloOp):
    """``"stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true,
    unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}
    : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>``: generic form
    only, as JAX and MLIR print it. Operands, flags, builder and shape rule
    are ``bc.TriangularSolveFamily``'s; StableHLO also takes complex
    elements (which the import refuses)."""

    name = "stablehlo.triangular_solve"
    transpose_a = prop_def(TransposeAttr)
    TRANSPOSE_ATTR: ClassVar[type[EnumAttribute[bc.Transpose]]] = TransposeAttr
    traits = traits_def(Pure())

    def verify_op(self) -> None:
        check_element_kinds(self, frozenset({FLOAT, COMPLEX}), [self.a, self.b])
        if element_of(self.a) != element_of(self.b):
            raise Diagnostic(f"requires the same element type for a and b, got {self.a.type} and {self.b.type}")
        shape = rules.triangular_solve_shape(shape_of(self.a, "a"), shape_of(self.b, "b"), self.flags[0],
                                             str(self.a.type), str(self.b.type))  # fmt: skip
        if self.result.type != tensor_type(shape, element_of(self.b)):
            raise incompatible_results([tensor_type(shape, element_of(self.b))], [self.result.type])


@irdl_op_definition
class SelectAndScatterOp(StablehloOp):
    """``"stablehlo.select_and_scatter"(%operand, %source, %init) ({select},
    {scatter}) {window_dimensions = array<i64: ...>, window_strides = ...,
    padding = dense<...> : tensor<Rx2xi64>} : (tensor<4x2xf32>,
    tensor<2x2xf32>, tensor<f32>) -> tensor<4x2xf32>``: per window of the
    padded operand (one per source element), ``select`` picks one element
    (it keeps its first argument, the element picked so far, while it
    returns true, over the window's elements in order; padding is never
    picked), and the source element is combined by ``scatter`` into that
    place of a result that starts as ``init`` everywhere (JAX's gradient of
    a max pool). Generic form only, as JAX and MLIR print it; the import
    expresses it in bcast ops (``ConvertSelectAndScatter``)."""

    name = "stablehlo.select_and_scatter"
    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    window_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    select = region_def("single_block")
    scatter = region_def("single_block")
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @property
    def window(self) -> tuple[int, ...]:
        rank = len(shape_of(self.operand))
        return self.window_dimensions.get_values() if self.window_dimensions is not None else (1,) * rank

    @property
    def strides(self) -> tuple[int, ...]:
        rank = len(shape_of(self.operand))
        return self.window_strides.get_values() if self.window_strides is not None else (1,) * rank

    @property
    def pads(self) -> tuple[tuple[int, int], ...]:
        """(low, high) per dim."""
        return _padding_pairs(self.padding, len(shape_of(self.operand)))

    def verify_op(self) -> None:
        """StableHLO's constraints C1-C11, in its order."""
        shape, element = shape_of(self.operand), element_of(self.operand)
        rank = len(shape)
        if element_of(self.source, "source") != element:
            raise Diagnostic(f"expects source and operand to have the same element type, got {self.source.type} "
                             f"and {self.operand.type}")  # fmt: skip
        if shape_of(self.init_value, "init value") or element_of(self.init_value, "init value") != element:
            raise Diagnostic(f"expects init value to be a rank-0 tensor of the operand's element type ({element}), "
                             f"got {self.init_value.type}")  # fmt: skip
        _check_window({"window_dimensions": self.window, "window_strides": self.strides}, self.padding, rank,
                      "the operand has")
        windows = reduce_window_shape(shape, self.window, self.strides, (1,) * rank, (1,) * rank, self.pads)
        if shape_of(self.source, "source") != windows:
            raise Diagnostic(f"expects source to have one element per window, shape {_shape_text(windows)}, got "
                             f"{self.source.type}")  # fmt: skip
        scalar = tensor_type((), element)
        block = self.select.block if self.select.blocks else None
        if block is None or [a.type for a in block.args] != [scalar, scalar] or not isinstance(
                block.last_op, ReturnOp) or [v.type for v in block.last_op.operands] != [tensor_type((), i1)]:
            raise Diagnostic(f"the select region must take ({scalar}, {scalar}) and return one tensor<i1>")
        _check_scalar_body(self.scatter, [element], "the scatter region")
        if self.result.type != self.operand.type:
            raise incompatible_results([self.operand.type], [self.result.type])


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[bc.FftType], SpacedOpaqueSyntaxAttribute):
    """Prints ``#stablehlo<fft_type RFFT>``, as MLIR does."""

    name = "stablehlo.fft_type"


@irdl_op_definition
class FftOp(bc.FftFamily, StablehloOp):
    """``stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) ->
    tensor<5xcomplex<f32>>``, or generic ``"stablehlo.fft"(%x) {fft_length
    = array<i64: 8>, fft_type = #stablehlo<fft_type RFFT>}``. Operand,
    attributes, syntax, builder and rule are ``bc.FftFamily``'s
    (docs/stablehlo.md, "fft")."""

    name = "stablehlo.fft"
    fft_type = prop_def(FftTypeAttr)
    FFT_TYPE_ATTR: ClassVar[type[EnumAttribute[bc.FftType]]] = FftTypeAttr
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def verify_op(self) -> None:
        inferred = self.inferred_type(shape_of(self.operand), str(element_of(self.operand)))
        if self.result.type != inferred:
            raise incompatible_results([inferred], [self.result.type])


STABLEHLO_OPS = [
    *BINARY_OPS, *UNARY_OPS, IsFiniteOp, ReducePrecisionOp, ConvertOp, BitcastConvertOp, CompareOp, SelectOp, BroadcastInDimOp,
    ClampOp,
    ReshapeOp, TransposeOp, ConstantOp, ReduceOp, ReturnOp, IotaOp, ReverseOp, ConcatenateOp, PadOp,
    ReduceWindowOp, SliceOp, DynamicSliceOp, DynamicUpdateSliceOp, GatherOp, ScatterOp, OptimizationBarrierOp,
    DotGeneralOp, DotOp,
    GetDimensionSizeOp, SetDimensionSizeOp, DynamicBroadcastInDimOp, DynamicReshapeOp, DynamicIotaOp,
    DynamicPadOp, RealDynamicSliceOp, SortOp, MapOp, DynamicGatherOp,
    ConvolutionOp, DynamicConvOp, TriangularSolveOp, SelectAndScatterOp, FftOp,
]  # fmt: skip

StableHLO = Dialect("stablehlo", STABLEHLO_OPS, [ComparisonDirectionAttr, ComparisonTypeAttr, PrecisionAttr, DotAttr,
                                                DotAlgorithmAttr, BoundsAttr, GatherDimensionNumbersAttr,
                                                ScatterDimensionNumbersAttr, ConvDimensionNumbersAttr, TransposeAttr,
                                                FftTypeAttr])  # fmt: skip
