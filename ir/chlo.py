"""The CHLO subset bcast reads, as JAX prints it: StableHLO's binary ops
with implicit broadcasting, ``chlo.broadcast_compare``,
``chlo.broadcast_select``, ``chlo.square`` and the float functions StableHLO
lacks (``chlo.erf``, ``chlo.erfc``, ``chlo.sinh``, ``chlo.lgamma``,
``chlo.next_after``, ...: one per bcast op whose ``STABLEHLO`` names it).

Each ``chlo.broadcast_X`` takes its element kinds from ``stablehlo.X``
(``bcast.ir.stablehlo``); without ``broadcast_dimensions`` the operands
broadcast as in NumPy, with them as in XLA::

    %6 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
    %7 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>}
           : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>

Builders: ``BroadcastAddOp(lhs, rhs, broadcast_dimensions=[1])``,
``BroadcastCompareOp("GT", lhs, rhs)``, ``SquareOp(x)``: see each docstring.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, I64, DenseArrayBase, IntegerAttr, TensorType, i1, i32, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.diagnostics import Diagnostic, incompatible_operands, incompatible_results
from bcast.ir.ops import ComparisonDirection
from bcast.ir.rules import IncompatibleDims, RuleError
from bcast.ir.stablehlo import (
    BINARY_OPS,
    FLOAT,
    INTEGER,
    NUMERIC,
    AddOp,
    ComparisonType,
    ElementwiseBinaryOp,
    StablehloOp,
    check_compare_type,
    check_element_kinds,
    check_same_types,
    element_of,
    shape_of,
    type_of,
)
from bcast.ir.types import dense_i64, dims_tensor_type, tensor_dims


def dims_of(value: SSAValue | Attribute) -> rules.Shape:
    """``shape_of`` with a ``rules.Dynamic`` (and its bound) for each ``?``:
    the CHLO broadcasting ops take dynamic operands (docs/stablehlo.md,
    "Dynamic programs"), and NumPy's rule decides each pair as it does for
    bcast's own ops."""
    shape_of(value)  # a ranked tensor, or the located refusal
    return tensor_dims(value.type if isinstance(value, SSAValue) else value)


def check_result(inferred: rules.Shape, element: Attribute, declared: Attribute) -> None:
    """The declared result of a broadcasting op: exactly the inferred type
    when that is static; with a dynamic dim, the same element type and rank
    and every dim compatible (a declared size more static than the inferred
    ``?`` is a fact the run time checks)."""
    expected = dims_tensor_type(element, inferred)
    if expected == declared:
        return
    if not rules.is_dynamic(inferred) or element_of(declared) != element \
            or len(dims_of(declared)) != len(inferred) \
            or not all(rules.compatible_dims(i, d) for i, d in zip(inferred, dims_of(declared))):
        raise incompatible_results([expected], [declared])


# --------------------------------------------------------------------------
# Attributes: CHLO has its own #chlo<comparison_direction GT>, #chlo<comparison_type FLOAT>
# --------------------------------------------------------------------------


@irdl_attr_definition
class ChloComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    """CHLO has its own: ``#chlo<comparison_direction GT>``."""

    name = "chlo.comparison_direction"


@irdl_attr_definition
class ChloComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    name = "chlo.comparison_type"


# --------------------------------------------------------------------------
# Ops: implicit (NumPy) or broadcast_dimensions (XLA) broadcasting
# --------------------------------------------------------------------------


def chlo_broadcast_shape(lhs: Sequence[int], rhs: Sequence[int], dims: Sequence[int] | None):
    """``(result, lhs_dims, rhs_dims)``: the result shape of a CHLO broadcasting
    op and where each operand's dims land in it. Without ``broadcast_dimensions``
    the operands align from the right (NumPy); with them the lower-rank operand
    maps onto those dims of the higher-rank one (XLA), degenerate dims then
    broadcast. A failure of the rule shows the shapes as written (aligned from
    the right) or, with ``broadcast_dimensions``, as they map."""
    lhs, rhs = tuple(lhs), tuple(rhs)
    rank = max(len(lhs), len(rhs))
    if dims is None or len(lhs) == len(rhs):
        if dims is not None and list(dims) not in ([], list(range(rank))):
            raise RuleError("broadcast_dimensions must either be absent or be the identity on "
                            "operands of the same rank")  # fmt: skip
        return (rules.broadcast_shapes(lhs, rhs), tuple(range(rank - len(lhs), rank)),
                tuple(range(rank - len(rhs), rank)))
    low, high = (lhs, rhs) if len(lhs) < len(rhs) else (rhs, lhs)
    expanded = rules.expand_with_broadcast_dimensions(low, high, dims)
    mapped, identity = tuple(dims), tuple(range(rank))
    if low is lhs:
        return rules.broadcast_shapes(expanded, high), mapped, identity
    return rules.broadcast_shapes(high, expanded), identity, mapped


class ChloBroadcastBinaryOp(StablehloOp, abc.ABC):
    """``chlo.broadcast_OP %a, %b {broadcast_dimensions = array<i64: ...>} :
    (A, B) -> C``: the StableHLO op with implicit broadcasting."""

    DYNAMIC_SHAPES: ClassVar[bool] = True
    STABLEHLO: ClassVar[type[ElementwiseBinaryOp]]
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)"

    RESULT_ELEMENT: ClassVar[Attribute | None] = None
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation,
                 result_type: Attribute | None = None, broadcast_dimensions: Sequence[int] | None = None,
                 *, properties: Mapping[str, Attribute] | None = None):
        """``BroadcastAddOp(lhs, rhs, result_type=None, broadcast_dimensions=None)``
        (the result type is inferred)."""
        if result_type is None:
            shape, _, _ = chlo_broadcast_shape(dims_of(type_of(lhs)), dims_of(type_of(rhs)), broadcast_dimensions)
            result_type = dims_tensor_type(self.RESULT_ELEMENT or element_of(type_of(lhs)), shape)
        props = dict(properties or {})
        if broadcast_dimensions is not None:
            props["broadcast_dimensions"] = dense_i64(broadcast_dimensions)
        super().__init__(operands=[lhs, rhs], result_types=[result_type], properties=props)

    @property
    def dims(self) -> tuple[int, ...] | None:
        return None if self.broadcast_dimensions is None else self.broadcast_dimensions.get_values()

    def verify_op(self) -> None:
        if element_of(self.lhs) != element_of(self.rhs):
            raise Diagnostic(f"requires the same element type for all operands, got "
                             f"{self.lhs.type} and {self.rhs.type}")  # fmt: skip
        check_element_kinds(self, self.STABLEHLO.ELEMENT_KINDS, [self.lhs, self.rhs])
        lhs, rhs = dims_of(self.lhs), dims_of(self.rhs)
        try:
            shape, _, _ = chlo_broadcast_shape(lhs, rhs, self.dims)
        except IncompatibleDims as e:
            expanded = self.dims if self.dims is not None and len(lhs) != len(rhs) else None
            raise incompatible_operands((self.lhs.type, self.rhs.type), e, expanded) from None
        check_result(shape, self.RESULT_ELEMENT or element_of(self.lhs), self.result.type)


def _chlo(stablehlo: type[ElementwiseBinaryOp]) -> type[ChloBroadcastBinaryOp]:
    """``chlo.broadcast_X`` for ``stablehlo.X``."""
    short = stablehlo.name.split(".", 1)[1]
    cls = type(f"Broadcast{stablehlo.__name__}", (ChloBroadcastBinaryOp,),
               {"name": f"chlo.broadcast_{short}", "STABLEHLO": stablehlo, "__module__": __name__,
                "__doc__": f"``chlo.broadcast_{short}``: ``stablehlo.{short}`` with broadcasting.",
                "__annotations__": {"STABLEHLO": ClassVar[type[ElementwiseBinaryOp]]}})  # fmt: skip
    return irdl_op_definition(cls)


CHLO_BINARY_OPS: tuple[type[ChloBroadcastBinaryOp], ...] = tuple(_chlo(op) for op in BINARY_OPS)
"""``chlo.broadcast_X`` for every StableHLO binary op of ``bcast.ir.stablehlo``
(CHLO has one for each)."""


@irdl_op_definition
class BroadcastCompareOp(ChloBroadcastBinaryOp):
    """``chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GT>}
    : (A, B) -> C``."""

    name = "chlo.broadcast_compare"
    STABLEHLO: ClassVar[type[ElementwiseBinaryOp]] = AddOp  # any element kind
    RESULT_ELEMENT: ClassVar[Attribute | None] = i1
    comparison_direction = prop_def(ChloComparisonDirectionAttr)
    compare_type = opt_prop_def(ChloComparisonTypeAttr)

    def __init__(self, direction: ComparisonDirection | str, lhs: SSAValue | Operation,
                 rhs: SSAValue | Operation, compare_type: ComparisonType | str | None = None,
                 result_type: Attribute | None = None, broadcast_dimensions: Sequence[int] | None = None):
        """``BroadcastCompareOp("GT", lhs, rhs, compare_type=None, result_type=None,
        broadcast_dimensions=None)``."""
        props: dict[str, Attribute] = {}
        if compare_type is not None:
            props["compare_type"] = ChloComparisonTypeAttr(ComparisonType(compare_type))
        props["comparison_direction"] = ChloComparisonDirectionAttr(ComparisonDirection(direction))
        super().__init__(lhs, rhs, result_type, broadcast_dimensions, properties=props)

    @property
    def direction(self) -> str:
        return self.comparison_direction.data.value

    def verify_op(self) -> None:
        super().verify_op()
        check_compare_type(None if self.compare_type is None else self.compare_type.data, element_of(self.lhs))


@irdl_op_definition
class SquareOp(StablehloOp):
    """``chlo.square %x : tensor<4xf32> -> tensor<4xf32>``: ``x * x``."""

    name = "chlo.square"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue | Operation):
        """``SquareOp(operand)``: the result has the operand's type."""
        super().__init__(operands=[operand], result_types=[type_of(operand)])

    def verify_op(self) -> None:
        check_same_types(self, [self.operand, self.result], "all operands and results")
        check_element_kinds(self, NUMERIC, [self.operand])


@irdl_op_definition
class BroadcastSelectOp(StablehloOp):
    """``chlo.broadcast_select %p, %t, %f : (tensor<4x1xi1>, tensor<3xf32>,
    tensor<f32>) -> tensor<4x3xf32>``: ``stablehlo.select`` with NumPy
    broadcasting over its three operands (right-aligned; CHLO's select has
    no ``broadcast_dimensions``). ``BroadcastSelectOp(pred, on_true, on_false)``:
    the result type is inferred."""

    name = "chlo.broadcast_select"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$pred `,` $on_true `,` $on_false attr-dict `:` functional-type(operands, results)"

    def __init__(self, pred: SSAValue | Operation, on_true: SSAValue | Operation,
                 on_false: SSAValue | Operation):
        shape = rules.broadcast_shapes(*(dims_of(type_of(v)) for v in (pred, on_true, on_false)))
        super().__init__(operands=[pred, on_true, on_false],
                         result_types=[dims_tensor_type(element_of(type_of(on_true)), shape)])

    def verify_op(self) -> None:
        if element_of(self.pred, "pred") != i1:
            raise Diagnostic(f"pred must be a tensor of i1 values, got {self.pred.type}")
        if element_of(self.on_true) != element_of(self.on_false):
            raise Diagnostic(f"requires the same element type for on_true and on_false, got "
                             f"{self.on_true.type} and {self.on_false.type}")  # fmt: skip
        types = [v.type for v in self.operands]
        try:
            shape = rules.broadcast_shapes(*(dims_of(v) for v in self.operands))
        except IncompatibleDims as e:
            raise incompatible_operands(types, e) from None
        check_result(shape, element_of(self.on_true), self.result.type)


class ChloUnaryOp(StablehloOp, abc.ABC):
    """``chlo.OP %x : tensor<4xf32> -> tensor<4xf32>``: a float function,
    the result of the operand's type (``chlo.erf``, ``chlo.erfc``)."""

    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute | None = None):
        """``OP(operand)``: the result has the operand's type."""
        super().__init__(operands=[operand], result_types=[result_type or type_of(operand)])

    def verify_op(self) -> None:
        check_same_types(self, [self.operand, self.result], "all operands and results")
        check_element_kinds(self, frozenset({FLOAT}), [self.operand])


def _chlo_unary(op: type[bc.UnaryOp]) -> type[ChloUnaryOp]:
    """The CHLO op of a bcast unary op whose ``STABLEHLO`` is a ``chlo.`` name."""
    cls = type(op.__name__, (ChloUnaryOp,), {
        "name": op.STABLEHLO, "__module__": __name__,
        "__doc__": f"``{op.STABLEHLO}``: ``{op.name}`` (``bcast.ir.ops.{op.__name__}``).",
    })  # fmt: skip
    return irdl_op_definition(cls)


CHLO_UNARY_OPS: dict[str, type[ChloUnaryOp]] = {
    op.STABLEHLO: _chlo_unary(op) for op in bc.OPS
    if issubclass(op, bc.UnaryOp) and hasattr(op, "SCALAR") and op.STABLEHLO.startswith("chlo.")
}  # fmt: skip
"""The CHLO counterpart of the bcast unary ops StableHLO has none for, by
name (``stablehlo.ELEMENTWISE_OPS`` has the others)."""
ErfOp, ErfcOp = CHLO_UNARY_OPS["chlo.erf"], CHLO_UNARY_OPS["chlo.erfc"]

class ChloBinaryOp(StablehloOp, abc.ABC):
    """``"chlo.OP"(%a, %b) : (T, T) -> T``: an integer op of two operands
    and a result of one type, no broadcasting (``chlo.mulhi``); generic
    form only, as StableHLO's tests write it."""

    DYNAMIC_SHAPES: ClassVar[bool] = True
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, result_type: Attribute | None = None):
        """``OP(lhs, rhs)``: the result has ``lhs``'s type."""
        super().__init__(operands=[lhs, rhs], result_types=[result_type or type_of(lhs)])

    def verify_op(self) -> None:
        check_element_kinds(self, INTEGER, [self.lhs, self.rhs])
        check_same_types(self, [self.lhs, self.rhs, self.result], "all operands and results")


class ChloFloatBinaryOp(ChloBinaryOp, abc.ABC):
    """``chlo.OP %x, %y : T, T -> T``: a float function of two operands of
    one type, no broadcasting (``chlo.next_after``), pretty as JAX prints it."""

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"

    def verify_op(self) -> None:
        check_element_kinds(self, frozenset({FLOAT}), [self.lhs, self.rhs])
        check_same_types(self, [self.lhs, self.rhs, self.result], "all operands and results")


def _chlo_binary(op: type[bc.BinaryOp]) -> type[ChloBinaryOp]:
    """The CHLO op of a bcast binary op whose ``STABLEHLO`` is a ``chlo.`` name:
    a float one has JAX's pretty form, an integer one (``mulhi``) the generic."""
    base = ChloFloatBinaryOp if op.ELEMENT_KINDS == frozenset({"float"}) else ChloBinaryOp
    cls = type(op.__name__, (base,), {
        "name": op.STABLEHLO, "__module__": __name__,
        "__doc__": f"``{op.STABLEHLO}``: ``{op.name}`` (``bcast.ir.ops.{op.__name__}``).",
    })  # fmt: skip
    return irdl_op_definition(cls)


CHLO_SAME_TYPE_BINARY_OPS: dict[str, type[ChloBinaryOp]] = {
    op.STABLEHLO: _chlo_binary(op) for op in bc.OPS
    if issubclass(op, bc.BinaryOp) and hasattr(op, "SCALAR") and op.STABLEHLO.startswith("chlo.")
}  # fmt: skip
"""The CHLO counterpart of the bcast binary ops StableHLO has none for
(``chlo.mulhi``, ``chlo.next_after``), by name."""


@irdl_op_definition
class TopKOp(StablehloOp):
    """``chlo.top_k(%x, k = 4) : tensor<2x10xf32> -> (tensor<2x4xf32>,
    tensor<2x4xi32>)`` (what ``jax.jit(...).lower`` writes for
    ``jax.lax.top_k``): the ``k`` largest elements along the last dim, from
    the largest, and their indices; equal elements in index order. The
    import writes it as the decomposition ``jax.export`` writes
    (``stablehlo.sort`` by ``compare GT, TOTALORDER`` of (x, iota), sliced)."""

    name = "chlo.top_k"
    operand = operand_def(TensorType)
    k = prop_def(IntegerAttr.constr(type=I64))
    values = result_def(TensorType)
    indices = result_def(TensorType)
    traits = traits_def(Pure())
    DYNAMIC_SHAPES: ClassVar[bool] = True  # ? dims but the last (verify_op)
    assembly_format = (
        "`(` $operand `,` `k` `=` $k `)` attr-dict `:` type($operand) `->` `(` type($values) `,` type($indices) `)`"
    )

    @property
    def count(self) -> int:
        return self.k.value.data

    def verify_op(self) -> None:
        shape = shape_of(self.operand)
        if not shape:
            raise Diagnostic("operand's rank must be at least 1")
        if shape[-1] == DYNAMIC_INDEX:
            raise Diagnostic("the last dim must be static: k must fit it",
                             ["jax.lax.top_k refuses a symbolic last dim too"])  # fmt: skip
        if not 0 <= self.count <= shape[-1]:
            raise Diagnostic(f"k ({self.count}) must be in [0, {shape[-1]}], the size of the last dim")
        kept = (*shape[:-1], self.count)
        if shape_of(self.values, "values") != kept or element_of(self.values, "values") != element_of(self.operand):
            raise Diagnostic(f"values must be {TensorType(element_of(self.operand), kept)}, got {self.values.type}")
        if shape_of(self.indices, "indices") != kept or element_of(self.indices, "indices") != i32:
            raise Diagnostic(f"indices must be {TensorType(i32, kept)}, got {self.indices.type}")


CHLO_OPS = [*CHLO_BINARY_OPS, BroadcastCompareOp, BroadcastSelectOp, SquareOp, *CHLO_UNARY_OPS.values(), TopKOp,
            *CHLO_SAME_TYPE_BINARY_OPS.values()]

CHLO = Dialect("chlo", CHLO_OPS, [ChloComparisonDirectionAttr, ChloComparisonTypeAttr])
