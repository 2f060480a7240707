"""``convert-stablehlo-to-bcast``: StableHLO and CHLO (as JAX prints them) into bcast.

Every op becomes bcast ops located where it was (``passes.rewriting``), so
diagnostics after the import still point at the export's locations (the
Python source line, for a JAX export with debug info).

- ``func.call`` to functions of the module (JAX's private helpers, such as
  ``_where``) are inlined, then the private functions are removed. An inlined
  op whose own written location shows no file position (JAX writes
  ``loc("broadcast_in_dim")`` inside helpers) takes the call's location.
  A ``stablehlo.composite`` (``jax.lax.composite``; JAX's ``top_k``) is
  inlined the same way from its ``decomposition`` function: it means exactly
  that function, so it runs wherever the decomposition's ops run.
- The result is explicit IR (every elementwise op's operands have its result
  type, no ``broadcast_dimensions``, sorted ``broadcast_in_dim`` dims), so it
  is valid under every semantics; the pass sets no ``bcast.semantics``.
  Module, argument and result attributes (``jax.result_info``) are kept.
- ``add``/``multiply``/``maximum``/``minimum`` on i1 are ``or``/``and``/``or``/
  ``and`` (the StableHLO spec); ``compare`` with ``compare_type`` UNSIGNED on
  a signed integer (or SIGNED on an unsigned one) compares the operands
  converted to the other signedness (the same bits), TOTALORDER is
  ``bcast.compare ..., TOTALORDER``; ``chlo.square x`` is ``multiply x, x``;
  ``chlo.erf``/``chlo.erfc`` are ``bcast.erf``/``bcast.erfc``;
  ``optimization_barrier`` is its operands;
  ``is_finite x`` is ``compare LT, abs(x), inf`` (false for NaN and inf).
- A transposing ``broadcast_in_dim`` becomes ``transpose`` then a sorted
  broadcast; a rank-0 ``select`` predicate, rank-0 ``clamp`` bounds are broadcast
  to the operands' shape;
  ``chlo.broadcast_*`` broadcast each operand to the result shape (NumPy
  alignment, or ``broadcast_dimensions``), then apply the op
  (``chlo.broadcast_select`` becomes ``bcast.select``).
- ``dynamic_slice`` and ``dynamic_update_slice`` become bcast's ops of the
  same names, start indices unchanged (both clamp them into range);
  ``gather`` becomes ``bcast.gather`` with the same dimension numbers
  (``indices_are_sorted``, a promise bcast does not use, is dropped).
- ``reduce`` with one input and a body that is one binary op becomes
  ``bcast.reduce KIND``; an init value that is not a constant equal to the
  kind's identity is combined in with the binary op after the reduction.
  JAX's ``argmax``/``argmin`` (a reduce of (x, iota) with
  ``hlo.arg_reduce_body``) becomes ``bcast.argmax``/``argmin``; JAX's
  cumulative ``reduce_window`` forms become ``bcast.cumulative``, its other
  one-input forms ``bcast.reduce_window``; ``scatter``'s update
  computations ``set``, ``add``, ``multiply``, ``maximum``, ``minimum``
  become ``bcast.scatter`` of that kind.
- ``sort`` with one of JAX's comparators (``sort_comparator_form``: one
  key or several compared lexicographically, each ascending or descending,
  JAX's float canonicalization or IEEE total order) becomes one ``bcast.sort`` per used result; ``chlo.top_k`` becomes
  its decomposition (a descending total-order sort of the operand and of an
  ``i32`` iota, sliced).
- ``map`` is its body applied to the whole inputs (``maps_as_elementwise``):
  a body of elementwise ops, rank-0 constants and rank-0 no-op
  ``broadcast_in_dim``/``reshape``; any other body is refused or kept
  whole (docs/stablehlo.md, "map").
- Anything else (another op, a variadic reduce, another body or
  comparator, an element type bcast lacks) is kept as it is, with its
  operands and results (docs/contracts.md, "Ops bcast does not know"): the
  later passes treat its results as opaque values, ``-t stablehlo`` writes
  it back, and a backend that must run it refuses it, located. With
  ``strict`` (what ``bcast-run``, ``bcast.compile``, ``bcast.from_jax`` and
  the running targets of ``bcast-opt -t`` use, as the program will run),
  each of these is instead a located error saying why; an op the pass does
  not know has a note listing the ops it supports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import dataclasses
from dataclasses import dataclass
import itertools
import math

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from bcast.ir import chlo
from bcast.ir import ops as bcast
from bcast.ir import rules
from bcast.ir import stablehlo as hlo
from bcast.ir.locations import InputFallbackLoc
from bcast.ir.parser import has_stablehlo, is_stablehlo, op_name  # noqa: F401 (has_stablehlo re-exported)
from bcast.ir.rules import RuleError
from bcast.ir import numerics
from bcast.ir.types import (
    NUMPY_DTYPES, finfo, flat_type_shape, has_dynamic_types, is_dynamic_type, make_type, numpy_dtype, split_type,
)
from bcast.passes.dynamic_checks import size_key, tensor_dim_key
from bcast.ir.fusion import YieldOp
from bcast.passes.errors import PassError
from bcast.passes.stablehlo_control_flow import flatten_control_flow
from bcast.passes.rewriting import located, replace

BINARY: dict[type[Operation], type[bcast.BinaryOp]] = {
    {**hlo.ELEMENTWISE_OPS, **chlo.CHLO_SAME_TYPE_BINARY_OPS}[op.STABLEHLO]: op for op in bcast.OPS
    if issubclass(op, bcast.BinaryOp)
    and (op.STABLEHLO in hlo.ELEMENTWISE_OPS or op.STABLEHLO in chlo.CHLO_SAME_TYPE_BINARY_OPS)
}  # fmt: skip
"""Each StableHLO binary op's bcast op (its ``STABLEHLO`` counterpart;
CHLO's ``broadcast_X`` uses X's)."""

ON_I1: dict[type[bcast.BinaryOp], type[bcast.BinaryOp]] = {
    op: logic for op in BINARY.values() for logic in bcast.OPS if logic.name == op.STABLEHLO_ON_I1
}  # fmt: skip
"""StableHLO defines these on i1 as logic; bcast's arithmetic rejects i1."""

_COUNTERPARTS = {**hlo.ELEMENTWISE_OPS, **chlo.CHLO_UNARY_OPS}
UNARY: dict[type[Operation], type[bcast.UnaryOp]] = {
    _COUNTERPARTS[op.STABLEHLO]: op for op in bcast.OPS
    if issubclass(op, bcast.UnaryOp) and op.STABLEHLO in _COUNTERPARTS
}  # fmt: skip
"""Each StableHLO (or CHLO: ``chlo.erf``) unary op's bcast op."""

REDUCTION_KINDS: dict[type[bcast.BinaryOp], str] = {op: kind for kind, op in bcast.REDUCTION_COMBINERS.items()}

OTHER = (hlo.IsFiniteOp, hlo.ReducePrecisionOp, hlo.ConvertOp, hlo.BitcastConvertOp, hlo.CompareOp, hlo.SelectOp, hlo.ClampOp, hlo.BroadcastInDimOp,
         hlo.ReshapeOp, hlo.TransposeOp, hlo.ConstantOp, hlo.ReduceOp, hlo.ReturnOp,
         hlo.IotaOp, hlo.ReverseOp, hlo.SliceOp, hlo.ConcatenateOp, hlo.PadOp, hlo.ReduceWindowOp, hlo.DotGeneralOp,
         hlo.DotOp, chlo.BroadcastCompareOp, chlo.BroadcastSelectOp, chlo.SquareOp, hlo.DynamicSliceOp,
         hlo.DynamicUpdateSliceOp, hlo.GatherOp, hlo.ScatterOp, hlo.OptimizationBarrierOp, hlo.GetDimensionSizeOp,
         hlo.DynamicBroadcastInDimOp, hlo.DynamicReshapeOp, hlo.DynamicIotaOp, hlo.SetDimensionSizeOp,
         hlo.DynamicPadOp, hlo.RealDynamicSliceOp, hlo.SortOp, hlo.MapOp, chlo.TopKOp, hlo.DynamicGatherOp,
         hlo.ConvolutionOp, hlo.DynamicConvOp, hlo.TriangularSolveOp, hlo.SelectAndScatterOp, hlo.FftOp)  # fmt: skip
SUPPORTED_OPS: tuple[str, ...] = tuple(sorted(
    [op.name for op in (*BINARY, *UNARY, *OTHER, *chlo.CHLO_BINARY_OPS)] + ["func.call", "stablehlo.composite"]
))  # fmt: skip
"""Every op the import takes (``stablehlo.return`` only in a reduce body)."""


def supported_note() -> str:
    return "supported ops: " + ", ".join(SUPPORTED_OPS)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _bcast_type(op: Operation, value: SSAValue):
    try:
        return split_type(value.type)
    except RuleError as e:
        raise PassError(op, f"cannot be imported: {e.message}", e.notes) from None


def _binary(op: Operation, cls: type[bcast.BinaryOp], lhs: SSAValue, rhs: SSAValue,
            result_type: Attribute | None = None) -> bcast.BinaryOp:
    """``cls`` on two operands (of one type, unless ``result_type`` is the
    broadcast of theirs), with StableHLO's i1 logic."""
    _bcast_type(op, lhs)
    if str(lhs.type.get_element_type()) == "i1":
        cls = ON_I1.get(cls, cls)
    if result_type is None and cls is bcast.ComplexOp:  # two parts make a complex
        return cls(lhs, rhs)
    return cls(lhs, rhs, result_type or lhs.type)


def _broadcast_to(value: SSAValue, dims, result_type: TensorType, new: list[Operation],
                  like: SSAValue | None = None) -> SSAValue:
    """``value`` broadcast to ``result_type`` (dims increasing), or itself when
    it already has that type. Into a dynamic type, ``like`` (a value of that
    shape) gives the run-time sizes of a ``dynamic_broadcast_in_dim``."""
    if value.type == result_type:
        return value
    if like is not None and is_dynamic_type(result_type):
        sizes: list[int | SSAValue] = []
        for d, n in enumerate(flat_type_shape(result_type)):
            if isinstance(n, int):
                sizes.append(n)
            else:
                new.append(dim := bcast.DimOp(like, d))
                sizes.append(dim.results[0])
        op = bcast.DynamicBroadcastInDimOp(value, sizes, list(dims), result_type)
        new.append(op)
        return op.results[0]
    op = bcast.BroadcastInDimOp(value, list(dims), result_type)
    new.append(op)
    return op.results[0]


def _identity(kind: str, element: str) -> float | int | bool:
    """The kind's identity in ``element`` (one definition: ``numerics``);
    on ``i1``, ``maximum``/``minimum`` are ``or``/``and``."""
    if element == "i1":
        kind = {"maximum": "or", "minimum": "and"}.get(kind, kind)
    return numerics.reduction_identity(kind, NUMPY_DTYPES[element]).item()


def _constant_value(value: SSAValue) -> float | int | None:
    """The one value of a splat constant (StableHLO's or bcast's), else None."""
    owner = value.owner
    if not isinstance(owner, (hlo.ConstantOp, bcast.ConstantOp)):
        return None
    attr = owner.value
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    values = attr.get_values()
    if not values or any(v != values[0] for v in values):
        return None
    return complex(*values[0]) if isinstance(values[0], tuple) else values[0]  # (a complex value: a pair)


# --------------------------------------------------------------------------
# Patterns, one per op family
# --------------------------------------------------------------------------


def in_reduce_body(op: Operation) -> bool:
    """Ops in a reduce body (or a scatter's update computation) go with
    their op; never convert them alone."""
    return isinstance(op.parent_op(), hlo.ReduceOp | hlo.ReduceWindowOp | hlo.ScatterOp | hlo.SortOp
                      | hlo.SelectAndScatterOp | hlo.MapOp)


class ConvertBinary(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        cls = BINARY.get(type(op))
        if cls is None or in_reduce_body(op):
            return
        replace(rewriter, op, _binary(op, cls, op.operands[0], op.operands[1]))


class ConvertUnary(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        cls = UNARY.get(type(op))
        if cls is None or in_reduce_body(op):
            return
        _bcast_type(op, op.operands[0])
        replace(rewriter, op, cls(op.operands[0]))


class ConvertSquare(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.SquareOp, rewriter: PatternRewriter) -> None:
        replace(rewriter, op, _binary(op, bcast.MultiplyOp, op.operand, op.operand))


class ConvertIsFinite(RewritePattern):
    """``is_finite x`` -> ``compare LT, abs(x), broadcast(inf)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.IsFiniteOp, rewriter: PatternRewriter) -> None:
        _, element = _bcast_type(op, op.x)
        x_type = op.x.type
        scalar = TensorType(x_type.get_element_type(), [])
        inf = bcast.ConstantOp(np.array([np.inf], dtype=NUMPY_DTYPES[element]), scalar)
        new: list[Operation] = [inf]
        limit = _broadcast_to(inf.results[0], [], x_type, new, op.x)
        magnitude = bcast.AbsOp(op.x)
        compare = bcast.CompareOp("LT", magnitude, limit, op.y.type)
        replace(rewriter, op, [*new, magnitude, compare])


class ConvertReducePrecision(RewritePattern):
    """``reduce_precision x, format = eEmM`` on the float's bits, as the
    StableHLO spec computes it (docs/stablehlo.md, "reduce_precision"): the
    bits as a signed integer of the float's width; with fewer mantissa bits
    than the type's, ``(bits + bias) & mask`` rounds to nearest even (the
    bias is half the dropped place less one, plus the lowest kept bit); with
    fewer exponent bits, an exponent above the narrow format's largest is
    the signed infinity and one at or below its smallest normal the signed
    zero. A NaN stays the operand's NaN, or is +inf when no mantissa bit is
    kept. The integer ops wrap, so the sign bit carries as unsigned
    arithmetic would; only NaNs can carry past it, and they are replaced."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.ReducePrecisionOp, rewriter: PatternRewriter) -> None:
        if in_reduce_body(op):
            return
        _, element = _bcast_type(op, op.operand)
        x, x_type = op.operand, op.operand.type
        info = finfo(NUMPY_DTYPES[element])
        width, have_exponent, have_mantissa = info.bits, info.nexp, info.nmant
        exponent_bits, mantissa_bits = op.bits
        if exponent_bits >= have_exponent and mantissa_bits >= have_mantissa:  # the type's own format or wider
            replace(rewriter, op, [], [x])
            return
        int_element = IntegerType(width)
        int_type = TensorType(int_element, x_type.get_shape(), x_type.encoding)
        int_dtype = NUMPY_DTYPES[f"i{width}"]
        pred_type = TensorType(i1, x_type.get_shape(), x_type.encoding)
        new: list[Operation] = []

        def splat(value: int | float, like_type: TensorType) -> SSAValue:
            element_type = like_type.get_element_type()
            dtype = int_dtype if element_type == int_element else NUMPY_DTYPES[element]
            # the Python int as the two's complement of the width (a mask with the sign bit set)
            raw = np.array([value], dtype=np.uint64 if isinstance(value, int) else np.float64)
            constant = bcast.ConstantOp(raw.view(np.int64).astype(dtype) if isinstance(value, int) else raw.astype(dtype),
                                        TensorType(element_type, []))
            new.append(constant)
            return _broadcast_to(constant.results[0], [], like_type, new, x)

        def emit(operation: Operation) -> SSAValue:
            new.append(operation)
            return operation.results[0]

        bits = emit(bcast.BitcastConvertOp(x, int_type))
        if mantissa_bits < have_mantissa:
            dropped = have_mantissa - mantissa_bits
            lowest_kept = emit(bcast.AndOp(emit(bcast.ShiftRightLogicalOp(bits, splat(dropped, int_type), int_type)),
                                           splat(1, int_type), int_type))
            bias = emit(bcast.AddOp(lowest_kept, splat((1 << (dropped - 1)) - 1, int_type), int_type))
            rounded = emit(bcast.AddOp(bits, bias, int_type))
            bits = emit(bcast.AndOp(rounded, splat(~((1 << dropped) - 1) & ((1 << width) - 1), int_type), int_type))
        if exponent_bits < have_exponent:
            exponent_mask = ((1 << have_exponent) - 1) << have_mantissa
            bias, narrow_bias = (1 << (have_exponent - 1)) - 1, (1 << (exponent_bits - 1)) - 1
            exponent = emit(bcast.AndOp(bits, splat(exponent_mask, int_type), int_type))
            overflows = emit(bcast.CompareOp("GT", exponent, splat((bias + narrow_bias) << have_mantissa, int_type),
                                             pred_type))
            underflows = emit(bcast.CompareOp("LE", exponent, splat((bias - narrow_bias) << have_mantissa, int_type),
                                              pred_type))
            signed_zero = emit(bcast.AndOp(bits, splat(1 << (width - 1), int_type), int_type))
            signed_inf = emit(bcast.OrOp(signed_zero, splat(exponent_mask, int_type), int_type))
            bits = emit(bcast.SelectOp(overflows, signed_inf, bits, int_type))
            bits = emit(bcast.SelectOp(underflows, signed_zero, bits, int_type))
        result = emit(bcast.BitcastConvertOp(bits, x_type))
        is_nan = emit(bcast.CompareOp("NE", x, x, pred_type))
        kept = x if mantissa_bits > 0 else splat(float("inf"), x_type)
        emit(bcast.SelectOp(is_nan, kept, result, x_type))
        replace(rewriter, op, new)


class ConvertOptimizationBarrier(RewritePattern):
    """``optimization_barrier`` is its operands: it only keeps XLA from
    rewriting across it (the StableHLO target writes one where XLA's
    simplifier would change IEEE results, as in ``erfc``'s composition)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.OptimizationBarrierOp, rewriter: PatternRewriter) -> None:
        if in_reduce_body(op):
            return
        for v in op.operand:
            _bcast_type(op, v)
        replace(rewriter, op, [], list(op.operand))


class ConvertStructural(RewritePattern):
    """constant, convert, reshape, transpose, broadcast_in_dim (a transposing
    one becomes transpose + sorted broadcast), iota, reverse, slice,
    dynamic_slice, dynamic_update_slice, gather, concatenate, pad."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_reduce_body(op):
            return
        new: list[Operation]
        if isinstance(op, hlo.ConstantOp):
            _bcast_type(op, op.output)
            new = [bcast.ConstantOp(op.value)]
        elif isinstance(op, hlo.ConvertOp):
            _bcast_type(op, op.operand), _bcast_type(op, op.result)
            new = [bcast.ConvertOp(op.operand, op.result.type)]
        elif isinstance(op, hlo.BitcastConvertOp):
            _bcast_type(op, op.operand), _bcast_type(op, op.result)
            elements = [str(op.operand.type.get_element_type()), str(op.result.type.get_element_type())]
            if flat_type_shape(op.operand.type) != flat_type_shape(op.result.type) or "i1" in elements \
                    or any(e.startswith("complex") for e in elements):
                raise PassError(op, "between element types of other widths (or i1, or complex) is not supported by "
                                "convert-stablehlo-to-bcast")
            new = [bcast.BitcastConvertOp(op.operand, op.result.type)]
        elif isinstance(op, hlo.ReshapeOp):
            _bcast_type(op, op.operand)
            new = [bcast.ReshapeOp(op.operand, op.result.type)]
        elif isinstance(op, hlo.TransposeOp):
            _bcast_type(op, op.operand)
            new = [bcast.TransposeOp(op.operand, op.perm, op.result.type)]
        elif isinstance(op, hlo.BroadcastInDimOp):
            _bcast_type(op, op.operand)
            new = self.broadcast(op)
        elif isinstance(op, hlo.IotaOp):
            _bcast_type(op, op.result)
            new = [bcast.IotaOp(op.dim, op.result.type)]
        elif isinstance(op, hlo.ReverseOp):
            _bcast_type(op, op.operand)
            new = [bcast.ReverseOp(op.operand, op.dims)]
        elif isinstance(op, hlo.ConcatenateOp):
            for x in op.inputs:
                _bcast_type(op, x)
            new = [bcast.ConcatenateOp(op.inputs, op.dim)]
        elif isinstance(op, hlo.PadOp):
            _bcast_type(op, op.operand)
            new = [bcast.PadOp(op.operand, op.padding_value, op.low, op.high, op.interior)]
        elif isinstance(op, hlo.SliceOp):
            _bcast_type(op, op.operand)
            ranges = (op.start_indices, op.limit_indices, op.strides)
            new = [bcast.SliceOp(op.operand, *(r.get_values() for r in ranges))]
        elif isinstance(op, hlo.DynamicSliceOp):
            _bcast_type(op, op.operand)
            for start in op.start_indices:
                _bcast_type(op, start)
            new = [bcast.DynamicSliceOp(op.operand, op.start_indices, op.slice_sizes.get_values())]
        elif isinstance(op, hlo.DynamicUpdateSliceOp):
            _bcast_type(op, op.operand)
            for start in op.start_indices:
                _bcast_type(op, start)
            new = [bcast.DynamicUpdateSliceOp(op.operand, op.start_indices, op.update)]
        elif isinstance(op, hlo.GatherOp):
            _bcast_type(op, op.operand), _bcast_type(op, op.start_indices)
            new = [bcast.GatherOp(op.operand, op.start_indices, op.dims, op.sizes)]
        else:
            return
        replace(rewriter, op, new)

    @staticmethod
    def broadcast(op: hlo.BroadcastInDimOp) -> list[Operation]:
        dims, operand = list(op.dims), op.operand
        if rules.is_sorted(dims):
            return [bcast.BroadcastInDimOp(operand, dims, op.result.type)]
        perm, _, sorted_dims = rules.split_transposing_broadcast(op.operand.type.get_shape(), dims)
        transpose = bcast.TransposeOp(operand, perm)
        return [transpose, bcast.BroadcastInDimOp(transpose, sorted_dims, op.result.type)]


SIGNEDNESS_OF_COMPARE = {hlo.ComparisonType.SIGNED: "signed", hlo.ComparisonType.UNSIGNED: "unsigned"}


def _compared(compare_type, direction: str, value: SSAValue, new: list[Operation]) -> SSAValue:
    """``value`` as ``compare_type`` compares it: an integer of the other
    signedness (``UNSIGNED`` on ``i32``, ``SIGNED`` on ``ui32``) converted to
    the same width with that signedness (integer conversion keeps the bits,
    docs/semantics.md), so bcast's compare, which follows the element type,
    orders the bit patterns as asked. ``EQ``/``NE`` need no conversion."""
    levels, element = split_type(value.type)
    wanted = None if compare_type is None else SIGNEDNESS_OF_COMPARE.get(compare_type.data)
    if wanted is None or direction in ("EQ", "NE") or rules.kind(element) not in ("signed", "unsigned") \
            or rules.kind(element) == wanted:
        return value
    width = element.removeprefix("u").removeprefix("i")
    convert = bcast.ConvertOp(value, make_type(levels, ("u" if wanted == "unsigned" else "") + "i" + width))
    new.append(convert)
    return convert.results[0]


def _compare(op: Operation, compare_type, direction: str, lhs: SSAValue, rhs: SSAValue, result_type,
             new: list[Operation]) -> bcast.CompareOp:
    """bcast's compare of ``lhs`` and ``rhs`` as StableHLO's ``compare_type``
    says (TOTALORDER, which StableHLO allows on floats only, is bcast's)."""
    lhs, rhs = (_compared(compare_type, direction, v, new) for v in (lhs, rhs))
    total_order = compare_type is not None and compare_type.data == hlo.ComparisonType.TOTALORDER
    return bcast.CompareOp(direction, lhs, rhs, result_type, total_order=total_order)


class ConvertCompare(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.CompareOp, rewriter: PatternRewriter) -> None:
        if in_reduce_body(op):
            return
        _bcast_type(op, op.lhs)
        new: list[Operation] = []
        compare = _compare(op, op.compare_type, op.direction, op.lhs, op.rhs, op.result.type, new)
        replace(rewriter, op, [*new, compare])


class ConvertSelect(RewritePattern):
    """A rank-0 predicate selects whole tensors: broadcast it first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.SelectOp, rewriter: PatternRewriter) -> None:
        if in_reduce_body(op):
            return
        _bcast_type(op, op.on_true)
        new: list[Operation] = []
        shape = op.on_true.type.get_shape()
        pred_type = TensorType(op.pred.type.get_element_type(), shape, op.on_true.type.encoding)
        pred = _broadcast_to(op.pred, [], pred_type, new, op.on_true)
        replace(rewriter, op, [*new, bcast.SelectOp(pred, op.on_true, op.on_false, op.result.type)])


class ConvertClamp(RewritePattern):
    """Rank-0 bounds clamp every element: broadcast them first."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.ClampOp, rewriter: PatternRewriter) -> None:
        if in_reduce_body(op):
            return
        _bcast_type(op, op.operand)
        new: list[Operation] = []
        low, high = (_broadcast_to(v, [], op.operand.type, new, op.operand) for v in (op.min, op.max))
        replace(rewriter, op, [*new, bcast.ClampOp(low, op.operand, high, op.result.type)])


class ConvertChloBroadcastSelect(RewritePattern):
    """``chlo.broadcast_select p, t, f`` -> each operand broadcast to the
    result shape (NumPy alignment: trailing dims), then ``select``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.BroadcastSelectOp, rewriter: PatternRewriter) -> None:
        for v in (*op.operands, op.result):
            _bcast_type(op, v)
        if has_dynamic_types(op):  # implicit: bcast-make-explicit decides each pair (see ConvertChloBroadcast)
            replace(rewriter, op, [bcast.SelectOp(*op.operands, op.result.type)])
            return
        shape = op.result.type.get_shape()
        new: list[Operation] = []
        pred, on_true, on_false = (
            _broadcast_to(v, range(len(shape) - len(v.type.get_shape()), len(shape)),
                          TensorType(v.type.get_element_type(), shape), new)
            for v in op.operands
        )
        replace(rewriter, op, [*new, bcast.SelectOp(pred, on_true, on_false, op.result.type)])


def _with_unit_dims(value: SSAValue, dims: Sequence[int], rank: int, new: list[Operation]) -> SSAValue:
    """``value`` (of a lower rank) with its dims at ``dims`` of ``rank`` and
    1 elsewhere: XLA's ``broadcast_dimensions`` as a broadcast that stretches
    nothing, so that NumPy's rule on operands of one rank does the rest."""
    levels, element = split_type(value.type)
    placed: list[int | SSAValue] = [1] * rank
    shape: list[rules.Dim] = [1] * rank
    for i, (d, n) in enumerate(zip(dims, levels[0])):
        shape[d] = n
        if isinstance(n, int):
            placed[d] = n
        else:
            new.append(size := bcast.DimOp(value, i))
            placed[d] = size.results[0]
    result_type = make_type((tuple(shape),), element)
    if not is_dynamic_type(result_type):
        new.append(expanded := bcast.BroadcastInDimOp(value, list(dims), result_type))
    else:
        new.append(expanded := bcast.DynamicBroadcastInDimOp(value, placed, list(dims), result_type))
    return expanded.results[0]


class ConvertChloBroadcast(RewritePattern):
    """``chlo.broadcast_X a, b`` -> each operand broadcast to the result
    shape, then X. With a ``?`` dim, X is written with implicit (NumPy)
    broadcasting instead, for ``bcast-make-explicit`` to decide each pair
    and leave the run-time checks that only the sizes can settle
    (docs/stablehlo.md, "Dynamic programs")."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.ChloBroadcastBinaryOp, rewriter: PatternRewriter) -> None:
        _bcast_type(op, op.lhs), _bcast_type(op, op.rhs), _bcast_type(op, op.result)
        shape, lhs_dims, rhs_dims = chlo.chlo_broadcast_shape(chlo.dims_of(op.lhs), chlo.dims_of(op.rhs), op.dims)
        new: list[Operation] = []
        if has_dynamic_types(op):
            lhs, rhs = (_with_unit_dims(v, dims, len(shape), new) if op.dims is not None and len(dims) < len(shape)
                        else v for v, dims in ((op.lhs, lhs_dims), (op.rhs, rhs_dims)))
            result_type = op.result.type
        else:
            operand_type = TensorType(op.lhs.type.get_element_type(), shape)
            lhs = _broadcast_to(op.lhs, lhs_dims, operand_type, new)
            rhs = _broadcast_to(op.rhs, rhs_dims, operand_type, new)
            result_type = operand_type
        if isinstance(op, chlo.BroadcastCompareOp):
            result = _compare(op, op.compare_type, op.direction, lhs, rhs, op.result.type, new)
        else:
            result = _binary(op, BINARY[op.STABLEHLO], lhs, rhs, result_type)
        replace(rewriter, op, [*new, result])


REDUCTION_BODY_NOTE = ("the body must apply one of stablehlo.add, multiply, maximum, minimum, and, or, xor "
                       "to its two arguments")


def _reduction_kind(combiner: Operation | None, element: str) -> tuple[str | None, type[bcast.BinaryOp] | None]:
    """The bcast reduction kind a body whose one binary op is ``combiner``
    (``hlo.body_combiner``) folds ``element``s with, and its bcast op
    (StableHLO's ``add``... on ``i1`` are logic: ``ON_I1``); (None, None)
    when it is no reduction kind. ``reduce``, ``reduce_window`` and
    ``scatter`` recognise their bodies by it."""
    cls = None if combiner is None else BINARY.get(type(combiner))
    if cls is not None and element == "i1":
        cls = ON_I1.get(cls, cls)
    kind = None if cls is None else REDUCTION_KINDS.get(cls)
    return (kind, cls) if kind is not None else (None, None)


def _body_words(combiner: Operation | None) -> str:
    return "a " + combiner.name if combiner is not None else "a body that is not one binary op"


class ConvertReduce(RewritePattern):
    """``reduce`` of one input whose body is one binary op -> ``bcast.reduce``,
    then the init value combined in unless it is the kind's identity; JAX's
    argmax/argmin reduce of two inputs -> ``bcast.argmax``/``argmin``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.ReduceOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) == 2:
            new = _arg_reduce(op)
            replace(rewriter, op, new, [None, new[-1].results[0]])
            return
        if len(op.inputs) != 1:
            raise PassError(op, f"reduce of {len(op.inputs)} inputs (variadic) is not supported by "
                            "convert-stablehlo-to-bcast",
                            ["only reduce with one input, and JAX's argmax/argmin, are imported"])  # fmt: skip
        combiner = op.combiner()
        (x,), (init,) = op.inputs, op.init_values
        _, element = _bcast_type(op, x)
        kind, cls = _reduction_kind(combiner, element)
        if kind is None or cls is None:
            raise PassError(op, f"reduce with {_body_words(combiner)} is not supported by "
                            "convert-stablehlo-to-bcast", [REDUCTION_BODY_NOTE])  # fmt: skip
        reduce = bcast.ReduceOp(kind, x, list(op.dims))
        new: list[Operation] = [reduce]
        result = reduce.results[0]
        init_value = _constant_value(init)
        if init_value is None or init_value != _identity(kind, element):
            init_b = _broadcast_to(init, [], result.type, new, result)
            combined = cls(result, init_b, result.type)
            new.append(combined)
            result = combined.results[0]
        replace(rewriter, op, new, [result])


class ConvertScatter(RewritePattern):
    """``scatter`` of one input whose update computation returns the update
    (``x.at[i].set(u)``) or applies ``add``, ``multiply``, ``maximum`` or
    ``minimum`` to the old value and the update (``x.at[i].add(u)``,
    ``.multiply``, ``.max``, ``.min``; recognised as ``reduce`` bodies are,
    ``_reduction_kind``) -> ``bcast.scatter`` of that kind, dimension
    numbers unchanged; ``indices_are_sorted`` and ``unique_indices``
    (promises bcast does not need) dropped. On ``i1`` only ``set``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.ScatterOp, rewriter: PatternRewriter) -> None:
        kind = None
        if len(op.inputs) == 1:
            element = _bcast_type(op, op.inputs[0])[1]
            body = op.update_computation
            kind = "set" if hlo.is_set_body(body) else _reduction_kind(hlo.body_combiner(body, True), element)[0]
        if kind not in bcast.SCATTER_KINDS:
            raise PassError(op, "scatter with this update computation is not supported by "
                            "convert-stablehlo-to-bcast",
                            ["one input whose update computation returns the update (x.at[i].set) or "
                             "applies stablehlo.add, multiply, maximum or minimum to its arguments "
                             "(x.at[i].add, .multiply, .max, .min; not on i1)"])  # fmt: skip
        _bcast_type(op, op.scatter_indices), _bcast_type(op, op.updates[0])
        replace(rewriter, op, [bcast.ScatterOp(kind, op.inputs[0], op.scatter_indices, op.updates[0], op.dims)])


def _converted_to_result_element(op: Operation) -> tuple[list[Operation], list[SSAValue]]:
    """A contraction's ``lhs`` and ``rhs`` in its result's element type
    (StableHLO's ``preferred_element_type``; bcast's contractions compute
    in their operands' type): the ``convert`` ops made, and the operands."""
    _, element = _bcast_type(op, op.results[0])
    new: list[Operation] = []
    operands = []
    for value in (op.lhs, op.rhs):
        levels, own = _bcast_type(op, value)
        if own != element:
            new.append(bcast.ConvertOp(value, make_type(levels, element)))
            value = new[-1].results[0]
        operands.append(value)
    return new, operands


class ConvertDot(RewritePattern):
    """``dot_general``/``dot`` -> ``bcast.dot_general``. The precision config
    and an ``algorithm`` are dropped (bcast computes every contraction in its type's full
    precision); a result element type other than the operands' (JAX's
    ``preferred_element_type``) converts the operands to it first."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, hlo.DotGeneralOp | hlo.DotOp):
            return
        new, operands = _converted_to_result_element(op)
        replace(rewriter, op, [*new, bcast.DotGeneralOp(*operands, op.dims)])


class ConvertConvolution(RewritePattern):
    """``convolution`` -> ``bcast.convolution`` with the same dimension
    numbers, window, groups and precision config; a result element type
    other than the operands' converts the operands to it first (as
    ``ConvertDot``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.ConvolutionOp, rewriter: PatternRewriter) -> None:
        new, operands = _converted_to_result_element(op)
        replace(rewriter, op, [*new, bcast.ConvolutionOp(*operands, op.conv, op.result.type,
                                                         precision_config=op.precision_config)])


class ConvertTriangularSolve(RewritePattern):
    """``triangular_solve`` -> ``bcast.triangular_solve`` with the same flags
    (complex elements are refused: bcast has none)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.TriangularSolveOp, rewriter: PatternRewriter) -> None:
        _bcast_type(op, op.a), _bcast_type(op, op.b)
        left, lower, unit, transpose = op.flags
        replace(rewriter, op, [bcast.TriangularSolveOp(op.a, op.b, left_side=left, lower=lower, unit_diagonal=unit,
                                                       transpose_a=transpose)])


class ConvertFft(RewritePattern):
    """``fft`` -> ``bcast.fft`` with the same type and lengths (one op, one
    rule: ``bc.FftFamily``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.FftOp, rewriter: PatternRewriter) -> None:
        _bcast_type(op, op.operand), _bcast_type(op, op.result)
        replace(rewriter, op, [bcast.FftOp(op.operand, op.kind, op.lengths, op.result.type)])


def _select_direction(region: Region) -> str | None:
    """The direction of a ``select_and_scatter`` select region that is one
    ``compare DIR, %arg0, %arg1`` of its element type's default comparison
    (JAX's ``GE`` of a max pool's gradient), returned; else None."""
    block = region.block if region.blocks else None
    ops = list(block.ops) if block else []
    if len(ops) != 2 or not isinstance(ops[0], hlo.CompareOp) or list(ops[0].operands) != list(block.args) \
            or list(ops[1].operands) != [ops[0].results[0]]:
        return None
    compare = ops[0]
    default = hlo.default_compare_type(hlo.element_of(block.args[0]))
    if compare.compare_type is not None and compare.compare_type.data != default:
        return None
    return compare.comparison_direction.data.value


class ConvertSelectAndScatter(RewritePattern):
    """``select_and_scatter`` (``jax.grad`` of a max pool) -> bcast ops that
    follow StableHLO's definition, unrolled over the K places of the window
    (static): the padded operand's element at window place ``k`` of every
    window is a strided ``slice``; the place picked so far in each window
    (its value and its number, ``i32``) is replaced by place ``k`` where the
    select region, on (picked, place k), is false, or where nothing valid was
    picked yet (which places are padding is known at compile time: constant
    masks); then the source element goes to the picked place: for each
    ``k``, a ``select`` of the source where the pick is ``k`` (the scatter
    kind's identity elsewhere), placed on the operand's grid by one ``pad``
    (interior ``stride - 1``, edges from ``k`` and the padding, negative
    ones cropping), and combined into ``init`` by the scatter region's kind.
    The select region must be one ``compare`` of its arguments (any
    direction, the element type's comparison); the scatter region one
    binary op that is a reduction kind (``add``, JAX's)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.SelectAndScatterOp, rewriter: PatternRewriter) -> None:
        (levels,), element = _bcast_type(op, op.operand)
        _bcast_type(op, op.source)
        direction = _select_direction(op.select)
        kind, combine = _reduction_kind(hlo.body_combiner(op.scatter, True), element)
        if direction is None or kind is None:
            raise PassError(op, "select_and_scatter with these regions is not supported by "
                            "convert-stablehlo-to-bcast",
                            ["a select region that is one stablehlo.compare of its arguments (GE: a max pool's "
                             "gradient) and a scatter region that is one stablehlo.add, multiply, maximum or "
                             "minimum of its arguments"])  # fmt: skip
        shape, windows = tuple(levels), hlo.shape_of(op.source)
        rank, dtype = len(shape), NUMPY_DTYPES[element]
        lows, highs = [lo for lo, _ in op.pads], [hi for _, hi in op.pads]
        new: list[Operation] = []

        def add(o: Operation) -> SSAValue:
            new.append(o)
            return o.results[0]

        def constant(values: np.ndarray, el: str) -> SSAValue:
            t = make_type((values.shape,), el)
            if values.size and (values == values.flat[0]).all():
                scalar = add(bcast.ConstantOp(np.array([values.flat[0]], NUMPY_DTYPES[el]), make_type(((),), el)))
                return _broadcast_to(scalar, [], t, new)
            return add(bcast.ConstantOp(values.astype(NUMPY_DTYPES[el]).reshape(-1), t))

        identity = _identity(kind, element)
        result = _broadcast_to(op.init_value, [], op.operand.type, new)
        if 0 in windows:
            replace(rewriter, op, new, [result])
            return
        padded = op.operand
        if any(lows) or any(highs):
            zero = add(bcast.ConstantOp(np.zeros(1, dtype), make_type(((),), element)))
            padded = add(bcast.PadOp(op.operand, zero, lows, highs, [0] * rank))
        grid = np.indices(windows).reshape(rank, -1).T if rank else np.zeros((1, 0), int)
        picked = number = None
        seen = np.zeros(windows, bool)  # whether a valid place was picked before place k
        places = list(itertools.product(*(range(w) for w in op.window)))
        for k, place in enumerate(places):
            at = np.array(place) + grid * np.array(op.strides)  # padded coordinates, one row per window
            valid = ((at >= lows) & (at < np.array(lows) + shape)).all(axis=1).reshape(windows)
            limits = [p + (n - 1) * s + 1 for p, n, s in zip(place, windows, op.strides)]
            value = add(bcast.SliceOp(padded, list(place), limits, list(op.strides)))
            first, later = valid & ~seen, valid & seen  # take unconditionally; where select says replace
            if picked is None:  # place 0: picked wherever it is valid
                picked, number = value, constant(np.where(first, 0, -1), "i32")
                seen |= valid
                continue
            if not later.any():
                take = constant(first, "i1")
            else:
                keeps = add(bcast.CompareOp(direction, picked, value))
                replaces = add(bcast.NotOp(keeps))
                if not later.all():
                    replaces = add(bcast.AndOp(replaces, constant(later, "i1")))
                take = replaces if not first.any() else add(bcast.OrOp(replaces, constant(first, "i1")))
            k_value = constant(np.full(windows, k), "i32")
            picked = add(bcast.SelectOp(take, value, picked))
            number = add(bcast.SelectOp(take, k_value, number))
            seen |= valid
        fill = constant(np.full(windows, identity), element)
        fill_scalar = add(bcast.ConstantOp(np.array([identity], dtype), make_type(((),), element)))
        for k, place in enumerate(places):
            chosen = add(bcast.CompareOp("EQ", number, constant(np.full(windows, k), "i32")))
            contribution = add(bcast.SelectOp(chosen, op.source, fill))
            low = [p - lo for p, lo in zip(place, lows)]
            high = [n - lo_ - ((w - 1) * s + 1) for n, lo_, w, s in zip(shape, low, windows, op.strides)]
            placed = add(bcast.PadOp(contribution, fill_scalar, low, high, [s - 1 for s in op.strides]))
            result = add(combine(result, placed, op.operand.type))
        replace(rewriter, op, new, [result])


class ConvertDynamicConv(RewritePattern):
    """``dynamic_conv`` with a constant padding -> ``bcast.convolution`` with
    that padding (as ``ConvertConvolution``); a run-time padding ->
    ``bcast.dynamic_conv`` (``_run_time_padding_conv``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.DynamicConvOp, rewriter: PatternRewriter) -> None:
        owner = op.d_padding.owner
        padding = _dense_values(owner.value if isinstance(owner, hlo.ConstantOp) else
                                owner.properties["value"] if isinstance(owner, bcast.ConstantOp) else None)
        if padding is None:
            replace(rewriter, op, _run_time_padding_conv(op))
            return
        conv = dataclasses.replace(op.conv, low=tuple(int(v) for v in padding[:, 0]),
                                   high=tuple(int(v) for v in padding[:, 1]))
        try:
            shape = rules.convolution_shape(flat_type_shape(op.lhs.type), flat_type_shape(op.rhs.type), conv)
        except RuleError as e:
            raise PassError(op, e.message, e.notes) from None
        if not rules.compatible_levels((shape,), (flat_type_shape(op.result.type),)):
            raise PassError(op, f"inferred shape '{rules.shape_str(shape)}' is incompatible with return type of "
                            f"operation {op.result.type}")
        new, operands = _converted_to_result_element(op)
        replace(rewriter, op, [*new, bcast.ConvolutionOp(*operands, conv, op.result.type,
                                                         precision_config=op.precision_config)])


def _run_time_padding_conv(op: hlo.DynamicConvOp) -> list[Operation]:
    """A run-time padding: ``bcast.dynamic_conv`` (its padding read when it
    runs, its spatial sizes ``?``, or static as declared, which it checks
    when it runs: JAX declares the sizes it knows of a padding it computes
    from a symbolic size). What ``bcast.convolution`` refuses is refused."""
    _bcast_type(op, op.d_padding)
    new, operands = _converted_to_result_element(op)
    try:
        inferred = bcast.DynamicConvOp(*operands, op.d_padding, op.conv, precision_config=op.precision_config)
    except RuleError as e:
        raise PassError(op, e.message, e.notes) from None
    if not rules.compatible_levels((flat_type_shape(inferred.result.type),), (flat_type_shape(op.result.type),)):
        raise PassError(op, f"declares {op.result.type}, but a run-time padding makes {inferred.result.type}")
    conv = bcast.DynamicConvOp(*operands, op.d_padding, op.conv, op.result.type, precision_config=op.precision_config)
    return [*new, conv]


def _scalar_constant(value: SSAValue) -> float | int | None:
    """``_constant_value`` through rank-0 ``broadcast_in_dim``s (JAX writes
    one around a scan's init value)."""
    owner = value.owner
    while isinstance(owner, hlo.BroadcastInDimOp | bcast.BroadcastInDimOp) and owner.operand.type == value.type:
        value = owner.operand
        owner = value.owner
    return _constant_value(value)


def _is_identity(init: SSAValue, kind: str, element: str) -> bool:
    """Whether ``init`` is a constant equal to ``kind``'s identity (an ``i1``
    by truth: a signless ``true`` reads back as -1)."""
    value = _scalar_constant(init)
    if value is None:
        return False
    identity = _identity(kind, element)
    return bool(value) == bool(identity) if element == "i1" else value == identity


def _arg_reduce(op: hlo.ReduceOp) -> list[Operation]:
    """JAX's ``argmax``/``argmin``: a reduce of (values, iota along the one
    reduced dim) from (the kind's identity, 0) with ``hlo.arg_reduce_body``,
    whose value result is unused, as ``bcast.argmax``/``argmin`` (the last
    op). Booleans (``jnp.argmax`` of a mask: False < True, as ``i1``
    compares UNSIGNED) are converted to ``ui8`` first, since bcast's
    argmax takes numbers."""
    direction = hlo.arg_reduce_direction(op.body)
    (x, iota), (init, init_index), dims = op.inputs, op.init_values, list(op.dims)
    notes = ["a reduce of two inputs is imported when it is JAX's argmax or argmin form: "
             "(values, iota along the one reduced dim) from (-inf or the type's minimum (argmin: "
             "+inf or maximum), 0), with JAX's body, and its value result unused"]
    if direction is None:
        raise PassError(op, "reduce of 2 inputs with a body that is not JAX's argmax or argmin is not "
                        "supported by convert-stablehlo-to-bcast", notes)  # fmt: skip
    cls = bcast.ArgmaxOp if direction == "GT" else bcast.ArgminOp
    _, element = _bcast_type(op, x)
    _, index = _bcast_type(op, iota)
    shape = flat_type_shape(x.type)
    iotas = hlo.IotaOp | bcast.IotaOp | hlo.DynamicIotaOp | bcast.DynamicIotaOp
    counts = iota.owner if isinstance(iota.owner, iotas) else None
    if (len(dims) != 1 or counts is None or counts.dim != dims[0] or op.results[0].uses
            or rules.kind(element) not in cls.ELEMENT_KINDS | {"bool"} or rules.kind(index) not in cls.INDEX_KINDS
            or not _is_identity(init, cls.START_KIND, element) or _scalar_constant(init_index) != 0):
        raise PassError(op, f"reduce of 2 inputs is not supported by convert-stablehlo-to-bcast "
                        f"unless it is JAX's {cls.name.removeprefix('bcast.')}", notes)  # fmt: skip
    if shape[dims[0]] == 0 or (isinstance(shape[dims[0]], int)
                               and shape[dims[0]] - 1 > np.iinfo(NUMPY_DTYPES[index]).max):
        raise PassError(op, f"{cls.name} of dim {dims[0]} of size {shape[dims[0]]} with index type "
                        f"{index} is not supported", ["the dim must be non-empty and its indices fit the type "
                                                      "(a ? dim is checked at run time: docs/ir.md, argmax)"])
    new: list[Operation] = []
    if element == "i1":
        new.append(bcast.ConvertOp(x, make_type((shape,), "ui8")))
        x = new[-1].results[0]
    return [*new, cls(x, dims[0], index)]


class ConvertReduceWindow(RewritePattern):
    """``reduce_window`` of one input whose body is one binary op (as
    ``reduce``'s, ``_reduction_kind``): the cumulative forms JAX writes for
    ``cumsum``/``cumprod``/``cummax``/``cummin`` -> ``bcast.cumulative``
    (one scan, not a window per element); any other ->
    ``bcast.reduce_window`` with the same window, strides, dilations and
    padding and the init value as its operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.ReduceWindowOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) == 1:
            replace(rewriter, op, [_one_reduce_window(op, op.inputs[0], op.init_values[0], hlo.body_combiner(op.body))])
            return
        combiners = hlo.tuple_combiners(op.body, len(op.inputs))
        if combiners is None:  # a bcast.reduce_window_body before the walk where it can be
            raise _mixed_body_refusal(op)
        new = [_one_reduce_window(op, x, init, combiner)
               for x, init, combiner in zip(op.inputs, op.init_values, combiners)]  # fmt: skip
        replace(rewriter, op, new, [n.results[0] for n in new])


ELEMENTWISE_BODY_OPS = (hlo.ElementwiseBinaryOp, hlo.ElementwiseUnaryOp, hlo.IsFiniteOp, hlo.ConvertOp, hlo.CompareOp,
                        hlo.SelectOp, hlo.ClampOp)  # fmt: skip
"""The ops a mixing ``reduce_window`` body may hold (with rank-0 constants
and JAX's rank-0 ``broadcast_in_dim`` of a rank-0 value): the walk converts
each to the bcast op that ``bcast.reduce_window_body``'s body takes."""


def mixed_reduce_windows_as_bodies(module: ModuleOp, strict: bool) -> None:
    """Each ``reduce_window`` whose body is more than one binary op per
    input (an argmax-pooling's comparator of (value, index) pairs mixes its
    inputs; ``lax.cumlogsumexp``'s one input is combined by ``logaddexp``'s
    ops) as one ``bcast.reduce_window_body`` holding that body, before the
    walk (which then converts the body's ops, as any op's); one it cannot
    take is kept for ``ConvertReduceWindow`` to refuse (at once when
    ``strict``)."""
    for op in [o for o in module.walk() if isinstance(o, hlo.ReduceWindowOp)]:
        if in_reduce_body(op) or (hlo.tuple_combiners(op.body, len(op.inputs)) is not None if len(op.inputs) > 1
                                  else hlo.body_combiner(op.body) is not None):
            continue
        try:
            new = _reduce_window_body(op)
        except PassError:
            if strict:
                raise
            continue
        located(new, op)
        Rewriter.replace_op(op, new)


MAP_BODY_OPS = (*BINARY, *UNARY, *chlo.CHLO_BINARY_OPS, hlo.IsFiniteOp, hlo.ReducePrecisionOp, hlo.ConvertOp, hlo.BitcastConvertOp,
                hlo.CompareOp, hlo.SelectOp, hlo.ClampOp, chlo.SquareOp, chlo.BroadcastCompareOp,
                chlo.BroadcastSelectOp, hlo.OptimizationBarrierOp)  # fmt: skip
"""The ops a ``map`` body may hold besides rank-0 constants, rank-0
``broadcast_in_dim``/``reshape`` (no-ops) and its ``return``: the
elementwise ops the import converts, which mean the same on whole tensors
as on rank-0 ones."""

MAP_BODY_NOTE = ("a map is imported when its body is made of elementwise ops the import converts, rank-0 "
                 "constants and rank-0 broadcast_in_dim or reshape: the body is then applied to the whole inputs")


def maps_as_elementwise(module: ModuleOp, strict: bool) -> None:
    """Each ``map`` as its body applied to the whole inputs, before the walk
    (which then converts those ops as any others): the body is elementwise
    on rank-0 tensors, so each op of it, given the inputs in place of the
    arguments and its rank-0 result types widened to the inputs' shape,
    computes the map at every index at once. A rank-0 constant (or value of
    the function the body reads) is broadcast to that shape. A map whose
    body holds another op is kept for the open world, or refused, located
    at the map and naming the op, when ``strict``."""
    for op in [o for o in module.walk() if isinstance(o, hlo.MapOp)]:
        if in_reduce_body(op) or op.parent is None:
            continue
        try:
            new, result = _map_as_elementwise(op)
        except PassError:
            if strict:
                raise
            continue
        Rewriter.replace_op(op, new, [result])


def _map_body_refusal(op: hlo.MapOp, inner: Operation, why: str = "") -> PassError:
    return PassError(op, f"with '{op_name(inner)}'{why} in its body is not supported by convert-stablehlo-to-bcast",
                     [MAP_BODY_NOTE])


def _map_as_elementwise(op: hlo.MapOp) -> tuple[list[Operation], SSAValue]:
    """The ops of ``op``'s body on its whole inputs, and the value that is
    the map's result; refused (``_map_body_refusal``) before anything is
    built when the body holds an op or a type the import does not take."""
    block = op.computation.block
    for v in (*op.inputs, op.result):
        _bcast_type(op, v)
    for inner in block.ops:
        if isinstance(inner, hlo.ReturnOp):
            continue
        identity = isinstance(inner, hlo.BroadcastInDimOp | hlo.ReshapeOp) and \
            inner.results[0].type == inner.operands[0].type
        if inner.regions or not (isinstance(inner, (*MAP_BODY_OPS, hlo.ConstantOp)) or identity):
            raise _map_body_refusal(op, inner)
        for v in (*inner.operands, *inner.results):
            if not isinstance(v.type, TensorType) or v.type.get_shape() != ():
                raise _map_body_refusal(op, inner, f" on {v.type} (not a rank-0 tensor)")
            _bcast_type(op, v)
    like = op.inputs[0]
    shape = hlo.StablehloOp.flat_shape_of(like.type)
    new: list[Operation] = []
    values: dict[SSAValue, SSAValue] = dict(zip(block.args, op.inputs))
    own: set[int] = set()  # the body's ops, which keep their own locations; the broadcasts take the map's

    def widened(v: SSAValue) -> SSAValue:
        """``v``'s value at every index: a body value's own, else (a value
        of the function the body reads, rank-0) broadcast."""
        if v not in values:
            values[v] = _broadcast_to(v, [], hlo.StablehloOp.shaped_like(v.type, shape), new, like)
        return values[v]

    for inner in block.ops:
        if isinstance(inner, hlo.ReturnOp):
            result = widened(inner.operands[0])
            return [n if id(n) in own else located(n, op) for n in new], result
        if isinstance(inner, hlo.BroadcastInDimOp | hlo.ReshapeOp):
            values[inner.results[0]] = widened(inner.operands[0])
        elif isinstance(inner, hlo.ConstantOp):
            constant = inner.clone()
            constant.location = _inlined_location(inner, op)
            new.append(constant)
            own.add(id(constant))
            values[inner.results[0]] = _broadcast_to(
                constant.results[0], [], hlo.StablehloOp.shaped_like(constant.results[0].type, shape), new, like)
        else:
            properties = dict(inner.properties)
            if isinstance(inner, chlo.ChloBroadcastBinaryOp):
                properties.pop("broadcast_dimensions", None)  # rank 0: none to map
            whole = type(inner).create(operands=[widened(v) for v in inner.operands],
                                       result_types=[hlo.StablehloOp.shaped_like(r.type, shape) for r in inner.results],
                                       properties=properties, attributes=dict(inner.attributes))  # fmt: skip
            whole.location = _inlined_location(inner, op)
            new.append(whole)
            own.add(id(whole))
            values.update(zip(inner.results, whole.results))
    raise _map_body_refusal(op, op)  # (the verifier requires the return)


def _mixed_body_refusal(op: hlo.ReduceWindowOp) -> PassError:
    return PassError(op, f"reduce_window of {len(op.inputs)} inputs whose body does not combine each input on "
                     "its own is not supported by convert-stablehlo-to-bcast",
                     ["such a body is imported (as bcast.reduce_window_body) when it is made of elementwise ops, "
                      "rank-0 constants and rank-0 broadcast_in_dim, and reads no other value of the function"])


def _reduce_window_body(op: hlo.ReduceWindowOp) -> Operation:
    """``bcast.reduce_window_body`` with ``op``'s inputs, init values,
    window, strides, dilations, padding and result types, and its body
    moved in: ``stablehlo.return`` becomes ``bcast.yield``, a rank-0
    ``broadcast_in_dim`` of a rank-0 value is that value; refused,
    located, when the body holds another op."""
    block = op.body.block if op.body.blocks else None
    if block is None or any(not isinstance(o, (*ELEMENTWISE_BODY_OPS, hlo.ConstantOp, hlo.ReturnOp,
                                               hlo.BroadcastInDimOp))
                            or o.regions or (isinstance(o, hlo.BroadcastInDimOp)
                                             and o.results[0].type != o.operands[0].type)
                            for o in block.ops):  # fmt: skip
        raise _mixed_body_refusal(op)
    for x in (*op.inputs, *op.init_values):
        _bcast_type(op, x)
    base, dilation = op.dilations
    low, high = zip(*op.pads) if op.pads else ((), ())
    inside = {v for o in block.ops for v in o.results} | set(block.args)
    captured = {v for o in block.ops for v in o.operands if v not in inside}
    if any(not isinstance(v.owner, hlo.ConstantOp | bcast.ConstantOp) or flat_type_shape(v.type) != ()
           for v in captured):
        raise _mixed_body_refusal(op)
    body = op.detach_region(op.body)
    block = body.block
    for v in captured:  # a rank-0 constant of the function (JAX hoists them): copied into the body
        copy = v.owner.clone()
        block.insert_op_before(copy, block.first_op)
        for use in list(v.uses):
            if use.operation.parent_block() is block:
                use.operation.operands[use.index] = copy.results[0]
    for inner in list(block.ops):
        if isinstance(inner, hlo.BroadcastInDimOp):
            inner.results[0].replace_all_uses_with(inner.operands[0])
            Rewriter.erase_op(inner)
        elif isinstance(inner, hlo.ReturnOp):
            Rewriter.replace_op(inner, YieldOp(list(inner.operands)))
    return bcast.ReduceWindowBodyOp(list(op.inputs), list(op.init_values), op.window, op.strides, base, dilation,
                                    low, high, body, [r.type for r in op.out])


def _one_reduce_window(op: hlo.ReduceWindowOp, x: SSAValue, init: SSAValue, combiner: Operation | None) -> Operation:
    """The bcast op of ``op``'s window reduction of ``x`` from ``init`` by
    ``combiner``: ``bcast.cumulative`` for JAX's cumulative forms,
    ``bcast.reduce_window`` otherwise; refused, located, when ``combiner``
    is no reduction kind."""
    _, element = _bcast_type(op, x)
    kind, _ = _reduction_kind(combiner, element)
    if kind is None:
        raise PassError(op, f"reduce_window with {_body_words(combiner)} is not supported by "
                        "convert-stablehlo-to-bcast", [REDUCTION_BODY_NOTE])  # fmt: skip
    form = _cumulative_form(op, kind, element, init)
    if form is not None:
        dim, reverse = form
        return bcast.CumulativeOp(kind, x, dim, reverse)
    (low, high) = zip(*op.pads) if op.pads else ((), ())
    # (a ``?`` dim windows span keeps a static size the export declares: checked at run time)
    return bcast.ReduceWindowOp(kind, x, init, op.window, op.strides, *op.dilations, low, high,
                                result_type=op.out[list(op.inputs).index(x)].type)


def _cumulative_form(op: hlo.ReduceWindowOp, kind: str, element: str, init: SSAValue) -> tuple[int, bool] | None:
    """(dim, reverse) of a cumulative ``reduce_window`` (``bcast.cumulative``'s
    kinds and elements, the kind's identity as init, a window of the whole
    dim ``d`` (size ``n``) and 1 elsewhere, unit strides and dilations,
    padding ``(n-1, 0)`` along ``d`` (``(0, n-1)``: ``reverse``) and 0
    elsewhere) of ``init``, else None."""
    levels, _ = split_type(op.inputs[0].type)
    if len(levels) != 1 or rules.kind(element) not in ("signed", "unsigned", "float") \
            or kind not in bcast.CUMULATIVE_KINDS:
        return None
    shape = levels[0]
    dims = [d for d, w in enumerate(op.window) if w != 1]
    if (len(dims) != 1 or set(op.strides) != {1} or set(op.dilations[0]) != {1}
            or set(op.dilations[1]) != {1} or not _is_identity(init, kind, element)):
        return None
    (dim,), n = dims, shape[dims[0]]
    if op.window[dim] != n or any(p != (0, 0) for d, p in enumerate(op.pads) if d != dim):
        return None
    if op.pads[dim] not in ((n - 1, 0), (0, n - 1)):
        return None
    return dim, op.pads[dim] == (0, n - 1)


# --------------------------------------------------------------------------
# Dynamic shapes: JAX's shape-polymorphic exports, bounded programs
# --------------------------------------------------------------------------


def _shape_entries(value: SSAValue) -> list[int | SSAValue] | None:
    """The entries of a 1-D size tensor as JAX builds it (``concatenate`` of
    ``reshape``s of rank-0 sizes and constants, StableHLO's or already
    imported): an int for a constant entry, a rank-0 tensor for a computed
    one; ``None`` for any other form."""
    owner = value.owner
    if isinstance(owner, hlo.ConstantOp | bcast.ConstantOp):
        values = owner.value if isinstance(owner, hlo.ConstantOp) else owner.properties["value"]
        array = _dense_values(values)
        return None if array is None or array.ndim != 1 else [int(v) for v in array]
    if isinstance(owner, hlo.ReshapeOp | bcast.ReshapeOp):
        operand = owner.operands[0]
        if flat_type_shape(operand.type) == () and flat_type_shape(value.type) == (1,):
            return [operand]
        return _shape_entries(operand) if len(flat_type_shape(operand.type)) == 1 else None
    if isinstance(owner, hlo.ConcatenateOp | bcast.ConcatenateOp):
        parts = [_shape_entries(v) for v in owner.operands]
        return None if any(p is None for p in parts) else [e for p in parts for e in p]
    return None


def _dense_values(attr) -> np.ndarray | None:
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    return np.array(attr.get_values()).reshape(attr.get_shape())


def _index_sizes(op: Operation, shape_value: SSAValue, result_type, new: list[Operation]) -> list[int | SSAValue]:
    """The output sizes of ``op`` (StableHLO's 1-D size tensor) as bcast's
    literal-and-SSA ``index`` list: a static result dim as its size, a ``?``
    one as the ``index`` of its entry (``size_from_tensor``; an entry of any
    other form of size tensor is extracted first)."""
    shape = flat_type_shape(result_type)
    entries = _shape_entries(shape_value)
    sizes: list[int | SSAValue] = []
    for d, dim in enumerate(shape):
        entry = entries[d] if entries is not None else None
        if entry is None:
            extract = bcast.ExtractOp(shape_value, [d], TensorType(shape_value.type.get_element_type(), []))
            new.append(extract)
            entry = extract.results[0]
        if isinstance(dim, int):
            _check_static_entry(op, d, dim, entry, new)
            sizes.append(dim)
            continue
        if isinstance(entry, int):
            constant = bcast.ConstantOp(np.array(entry, dtype=np.int64), TensorType(i64, []))
            new.append(constant)
            entry = constant.results[0]
        size = bcast.SizeFromTensorOp(entry)
        new.append(size)
        sizes.append(size.results[0])
    return sizes


def _check_static_entry(op: Operation, d: int, dim: int, entry: int | SSAValue, new: list[Operation]) -> None:
    """A static result dim whose size the program also passes: a constant
    that disagrees is refused here; a computed one is checked at run time
    (a ``shape_assertion`` at ``op``), since StableHLO leaves a size that
    contradicts the result type undefined and bcast never runs one."""
    if isinstance(entry, int):
        if entry != dim:
            raise PassError(op, f"output size {d} is {entry}, but the result type has {dim} there")
        return
    expected = bcast.ConstantOp(np.array(dim, dtype=numpy_dtype(entry.type)), entry.type)
    same = bcast.CompareOp("EQ", entry, expected, TensorType(i1, []))
    new += [expected, same, bcast.ShapeAssertionOp(
        same, [entry], f"{op_name(op)}: output size {d} is {{0}} at run time, but the result type has {dim} there")]


class ConvertDynamicShapes(RewritePattern):
    """``get_dimension_size`` is ``bcast.dim`` as a ``tensor<i32>``
    (``size_to_tensor``); ``dynamic_broadcast_in_dim``, ``dynamic_reshape``,
    ``dynamic_iota`` and ``set_dimension_size`` are bcast's ops of those
    names (sizes read from the size tensor, facts kept); ``custom_call
    @shape_assertion`` is ``bcast.shape_assertion`` (a located run-time
    check that ``canonicalize`` removes when its predicate folds to true)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        new: list[Operation]
        if isinstance(op, hlo.GetDimensionSizeOp):
            _bcast_type(op, op.operand)
            dim = bcast.DimOp(op.operand, op.dim)
            new = [dim, bcast.SizeToTensorOp(dim, op.result.type)]
        elif isinstance(op, hlo.DynamicBroadcastInDimOp):
            _bcast_type(op, op.operand)
            if not rules.is_sorted(op.dims):
                raise PassError(op, "with transposing dims is not supported by convert-stablehlo-to-bcast")
            new = []
            sizes = _index_sizes(op, op.output_dimensions, op.result.type, new)
            new.append(bcast.DynamicBroadcastInDimOp(
                op.operand, sizes, op.dims, op.result.type, op.expanding, op.nonexpanding))
        elif isinstance(op, hlo.DynamicReshapeOp):
            _bcast_type(op, op.operand)
            new = []
            sizes = _index_sizes(op, op.output_shape, op.result.type, new)
            new.append(bcast.DynamicReshapeOp(op.operand, sizes, op.result.type))
        elif isinstance(op, hlo.DynamicIotaOp):
            _bcast_type(op, op.result)
            new = []
            sizes = _index_sizes(op, op.output_shape, op.result.type, new)
            new.append(bcast.DynamicIotaOp(sizes, op.dim, op.result.type))
        elif isinstance(op, hlo.SetDimensionSizeOp):
            _bcast_type(op, op.operand)
            size = bcast.SizeFromTensorOp(op.size)
            new = [size, bcast.SetDimensionSizeOp(op.operand, size, op.dim, op.result.type)]
        elif is_shape_assertion(op):
            if not op.operands:
                raise PassError(op, "has no predicate")
            message = op.attributes.get("error_message")
            text = message.data if isinstance(message, StringAttr) else "shape assertion failed"
            new = [bcast.ShapeAssertionOp(op.operands[0], op.operands[1:], text)]
        else:
            return
        replace(rewriter, op, new)


def _constant_vector(value: SSAValue) -> list[int] | None:
    """The entries of a 1-D index tensor when all are constants."""
    entries = _shape_entries(value)
    return entries if entries is not None and all(isinstance(e, int) for e in entries) else None


def _start_plus_constant(start: SSAValue, limit: SSAValue) -> list[int] | None:
    """The sizes ``limit - start`` when ``limit`` is ``start`` plus a constant
    vector (the form a run-time window of fixed size takes)."""
    owner = limit.owner
    if not isinstance(owner, hlo.AddOp | bcast.AddOp) or start not in owner.operands:
        return None
    other = owner.operands[1] if owner.operands[0] is start else owner.operands[0]
    return _constant_vector(other)


def _declared(op: Operation, new: Operation) -> list[Operation]:
    """``new`` when its inferred type is ``op``'s declared one; a declared
    type less static than the inferred one is refused (bcast has no op that
    forgets a static size)."""
    if new.results[0].type != op.results[0].type:
        raise PassError(op, f"declares {op.results[0].type}, but its sizes make {new.results[0].type}")
    return [new]


class ConvertDynamicRanges(RewritePattern):
    """``dynamic_pad`` and ``real_dynamic_slice`` whose paddings or ranges are
    constants are ``pad`` and ``slice``; a ``real_dynamic_slice`` from a
    run-time start to start plus a constant, with unit strides, is a
    ``dynamic_slice`` (which clamps the start into bounds, as upstream's
    rewrite to it does: a start out of range has no other meaning there).
    Any other form is refused (kept, outside ``strict``)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, hlo.DynamicPadOp):
            _bcast_type(op, op.operand)
            paddings = [_constant_vector(v) for v in (op.edge_padding_low, op.edge_padding_high, op.interior_padding)]
            if any(p is None for p in paddings):
                raise PassError(op, "with run-time paddings is not supported by convert-stablehlo-to-bcast",
                                ["constant paddings make it a pad"])
            if any(k < 0 for k in paddings[2]):
                raise PassError(op, f"interior padding {paddings[2]} has a negative entry")
            new = _declared(op, bcast.PadOp(op.operand, op.padding_value, *paddings))
        elif isinstance(op, hlo.RealDynamicSliceOp):
            _bcast_type(op, op.operand)
            ranges = [_constant_vector(v) for v in (op.start_indices, op.limit_indices, op.strides)]
            if all(r is not None for r in ranges):
                new = _declared(op, bcast.SliceOp(op.operand, *ranges))
            elif (sizes := _start_plus_constant(op.start_indices, op.limit_indices)) is not None \
                    and ranges[2] is not None and all(k == 1 for k in ranges[2]):
                index = TensorType(op.start_indices.type.get_element_type(), [])
                new = [bcast.ExtractOp(op.start_indices, [d], index) for d in range(len(sizes))]
                new += _declared(op, bcast.DynamicSliceOp(op.operand, [e.results[0] for e in new], sizes))
            else:
                new = _run_time_range_slice(op)
        else:
            return
        replace(rewriter, op, new)
def _run_time_range_slice(op: hlo.RealDynamicSliceOp) -> list[Operation]:
    """A ``real_dynamic_slice`` whose ranges or strides are computed at run
    time, on any number of dims (JAX's ``jnp.roll`` along a ``?`` dim,
    ``jnp.split`` beside one, ``lax.dynamic_slice`` of a window that spans
    a ``?`` dim): a ``gather`` of the elements ``start + stride * iota``
    along every dim that is not a static dim taken whole (those stay
    windows). Each such dim's range is checked, at the op, to be
    ``0 <= start <= limit <= n`` with a positive stride (StableHLO's
    constraints), at compile time where all of it is constant and at run
    time otherwise; its count is ``ceil((limit - start) / stride)``; a
    static result dim whose count is computed is checked against it at run
    time. Static ranges of unit stride beside ``?`` dims taken whole
    (``jnp.split``) are a ``pad`` whose negative edges crop instead: no
    index tensor. A limit written as the start plus sizes (JAX's ``dynamic_slice``
    of a ``?`` operand) is a window of that size whose start is clamped into
    ``[0, n - size]``, as ``dynamic_slice`` clamps (its size checked to fit
    the dim; the start is data and not checked). The gather then reads in
    bounds, and nothing for an empty range, also of an empty dim
    (docs/stablehlo.md, "Dynamic shapes")."""
    shape = flat_type_shape(op.operand.type)
    declared = flat_type_shape(op.result.type)
    element = op.start_indices.type.get_element_type()
    scalar = TensorType(element, [])
    new: list[Operation] = []

    def entries(value: SSAValue) -> list[int | SSAValue]:
        return [e if isinstance(e, int) or e.type.get_element_type() == element
                else _appended(new, bcast.ConvertOp(e, scalar)) for e in _index_entries(value, new)]

    def tensor(value: int | SSAValue) -> SSAValue:
        if isinstance(value, int):
            return _appended(new, bcast.ConstantOp(np.array(value, dtype=numpy_dtype(scalar)), scalar))
        return value

    def operand_size(d: int) -> SSAValue:
        n = shape[d]
        return tensor(n) if isinstance(n, int) else _appended(new, bcast.SizeToTensorOp(
            _appended(new, bcast.DimOp(op.operand, d)), scalar))

    def whole(d: int, size: int | SSAValue) -> bool:
        return size == shape[d] or _affine(size) == (frozenset({(tensor_dim_key(op.operand, d), 1)}), 0)

    def assert_that(predicates: list[Operation], values: list[SSAValue], message: str) -> None:
        new.extend(predicates)
        ok = predicates[0].results[0]
        for p in predicates[1:]:
            ok = _appended(new, bcast.AndOp(ok, p.results[0]))
        new.append(bcast.ShapeAssertionOp(ok, values, message))

    starts, limits, strides = (entries(v) for v in (op.start_indices, op.limit_indices, op.strides))
    added = op.limit_indices.owner
    sizes = None  # the limit as the start plus these sizes
    if isinstance(added, hlo.AddOp | bcast.AddOp) and op.start_indices in added.operands:
        sizes = entries(added.operands[1] if added.operands[0] is op.start_indices else added.operands[0])
    indexed: list[int] = []
    counts: list[int | SSAValue] = []
    origins: list[int | SSAValue] = []
    steps: list[int | SSAValue] = []
    for d, n in enumerate(shape):
        start, limit, stride = starts[d], limits[d], strides[d]
        if sizes is not None and stride == 1:  # a window of sizes[d] at a clamped start
            start, limit = 0, sizes[d]
            if not whole(d, sizes[d]):
                count = sizes[d]
                if isinstance(count, int) and isinstance(n, int):
                    if not 0 <= count <= n:
                        raise PassError(op, f"window size {count} of dimension {d} is out of bounds "
                                        f"for its size {n}")
                else:
                    k, size, zero = tensor(count), operand_size(d), tensor(0)
                    assert_that([bcast.CompareOp("LE", zero, k), bcast.CompareOp("LE", k, size)], [k, size],
                                f"real_dynamic_slice window size {{0}} of dimension {d} is out of bounds "
                                f"for its size {{1}}")
                largest = _appended(new, bcast.SubtractOp(operand_size(d), tensor(count)))
                indexed.append(d)
                origins.append(_appended(new, bcast.ClampOp(tensor(0), tensor(starts[d]), largest)))
                steps.append(1)
                if isinstance(count, int) or not isinstance(declared[d], int):
                    counts.append(count if isinstance(count, int) else _appended(new, bcast.SizeFromTensorOp(count)))
                else:
                    _check_static_entry(op, d, declared[d], count, new)
                    counts.append(declared[d])
                continue
        if isinstance(n, int) and (start, limit, stride) == (0, n, 1):
            continue  # a static dim taken whole: a window of the gather
        indexed.append(d)
        origins.append(start)
        steps.append(stride)
        if (start, stride) == (0, 1) and whole(d, limit):
            counts.append(_appended(new, bcast.DimOp(op.operand, d)))  # a ? dim taken whole
            continue
        constant = all(isinstance(e, int) for e in (start, limit, stride))
        if constant:
            if not 0 <= start <= limit <= (n if isinstance(n, int) else limit):
                raise PassError(op, f"range [{start}, {limit}) of dimension {d} is out of bounds for its size {n}")
            if stride < 1:
                raise PassError(op, f"stride {stride} of dimension {d} is not positive")
        if not (constant and isinstance(n, int)):
            first, last = tensor(start), tensor(limit)
            size, zero = operand_size(d), tensor(0)
            assert_that([bcast.CompareOp("LE", zero, first), bcast.CompareOp("LE", first, last),
                         bcast.CompareOp("LE", last, size)], [first, last, size],
                        f"real_dynamic_slice range [{{0}}, {{1}}) of dimension {d} is out of bounds for its size {{2}}")
            if stride != 1:
                step = tensor(stride)
                assert_that([bcast.CompareOp("GE", step, tensor(1))], [step],
                            f"real_dynamic_slice stride {{0}} of dimension {d} is not positive")
        if constant:
            counts.append(-(-(limit - start) // stride))
            if isinstance(declared[d], int) and counts[-1] != declared[d]:
                raise PassError(op, f"declares {op.results[0].type}, but its range makes {counts[-1]} elements "
                                f"along dimension {d}")
            continue
        count = _appended(new, bcast.SubtractOp(tensor(limit), tensor(start)))
        if stride != 1:  # ceil((limit - start) / stride) of a non-negative difference and a positive stride
            step = tensor(stride)
            count = _appended(new, bcast.AddOp(count, _appended(new, bcast.SubtractOp(step, tensor(1)))))
            count = _appended(new, bcast.DivideOp(count, step))
        if isinstance(declared[d], int):
            _check_static_entry(op, d, declared[d], count, new)
            counts.append(declared[d])
        else:
            counts.append(_appended(new, bcast.SizeFromTensorOp(count)))
    if not indexed:
        return _declared(op, bcast.SliceOp(op.operand, [0] * len(shape), list(shape), [1] * len(shape)))
    if all((isinstance(shape[d], int) and isinstance(origins[r], int) and isinstance(counts[r], int)
            and steps[r] == 1) or _is_whole_count(op.operand, d, counts[r], origins[r], steps[r])
           for r, d in enumerate(indexed)):  # fmt: skip
        # static ranges of unit stride beside whole ? dims (jnp.split): a pad whose negative edges crop
        low = [0] * len(shape)
        high = [0] * len(shape)
        for r, d in enumerate(indexed):
            if isinstance(shape[d], int):
                low[d], high[d] = -origins[r], -(shape[d] - origins[r] - counts[r])
        element = TensorType(op.operand.type.get_element_type(), [])
        value = _appended(new, bcast.ConstantOp(np.zeros((), dtype=numpy_dtype(element)), element))
        return new + _declared(op, bcast.PadOp(op.operand, value, low, high, [0] * len(shape)))
    batch = [DYNAMIC_INDEX if not isinstance(c, int) else c for c in counts]

    def placed(index: SSAValue, r: int) -> SSAValue:
        if steps[r] != 1:
            index = _appended(new, bcast.MultiplyOp(index, tensor(steps[r])))
        return index if origins[r] == 0 else _appended(new, bcast.AddOp(index, tensor(origins[r])))

    if len(indexed) == 1:  # one index per element of the one indexed dim
        index = placed(_appended(new, bcast.DynamicIotaOp(counts, 0, TensorType(element, batch))), 0)
    else:  # an index vector per element, one entry per indexed dim
        column = TensorType(element, [*batch, 1])
        index = _appended(new, bcast.ConcatenateOp(
            [placed(_appended(new, bcast.DynamicIotaOp([*counts, 1], r, column)), r) for r in range(len(indexed))],
            len(indexed)))
    windows = [d for d in range(len(shape)) if d not in indexed]
    dims = rules.GatherDims(offset_dims=tuple(windows), collapsed_slice_dims=tuple(indexed),
                            start_index_map=tuple(indexed), index_vector_dim=1 if len(indexed) == 1 else len(indexed))
    return new + _declared(op, bcast.GatherOp(op.operand, index, dims, [1 if d in indexed else n
                                                                       for d, n in enumerate(shape)]))


def _is_whole_count(operand: SSAValue, d: int, count: int | SSAValue, origin: int | SSAValue,
                    step: int | SSAValue) -> bool:
    """Whether an indexed dim of ``_run_time_range_slice`` is its ``?``
    operand dim taken whole (its count that dim's ``bcast.dim``)."""
    owner = count.owner if isinstance(count, SSAValue) else None
    return (origin, step) == (0, 1) and isinstance(owner, bcast.DimOp) and owner.operand is operand \
        and owner.dim == d


def _index_entries(value: SSAValue, new: list[Operation]) -> list[int | SSAValue]:
    """The entries of a 1-D index tensor of any form: ``_shape_entries``'
    constants and rank-0 tensors where it finds them, each part of a
    ``concatenate`` read alone, and any other entry ``extract``ed (appended
    to ``new``)."""
    found = _shape_entries(value)
    if found is not None:
        return found
    if isinstance(value.owner, hlo.ConcatenateOp | bcast.ConcatenateOp):
        return [e for part in value.owner.operands for e in _index_entries(part, new)]
    element_type = TensorType(value.type.get_element_type(), [])
    return [_appended(new, bcast.ExtractOp(value, [d], element_type)) for d in range(flat_type_shape(value.type)[0])]


def _appended(new: list[Operation], op: Operation) -> SSAValue:
    """``op``'s result, ``op`` appended to ``new``."""
    new.append(op)
    return op.results[0]


DYNAMIC_GATHER_FORMS = ("constant slice sizes make it a gather; slice sizes computed at run time (the whole of a "
                        "? operand dim, as jnp.take along another axis, or a part of a dim) are read through "
                        "iotas; a collapsed dim's slice size must be 1")


class ConvertDynamicGather(RewritePattern):
    """``dynamic_gather`` -> ``gather``. Constant slice sizes: the gather of
    those sizes. Slice sizes computed at run time (the whole of a ``?``
    operand dim, as JAX's ``jnp.take`` and ``jnp.median`` along a static
    axis of an array with ``?`` dims write it, or part of a dim):
    ``_run_time_windows_gather``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.DynamicGatherOp, rewriter: PatternRewriter) -> None:
        _bcast_type(op, op.operand), _bcast_type(op, op.start_indices)
        read: list[Operation] = []
        entries = _index_entries(op.slice_sizes, read)
        if all(isinstance(e, int) for e in entries):
            new = _declared(op, bcast.GatherOp(op.operand, op.start_indices, op.dims, entries))
        else:
            new = read + _run_time_windows_gather(op, entries)
        replace(rewriter, op, new)


def _run_time_windows_gather(op: hlo.DynamicGatherOp, entries: list[int | SSAValue]) -> list[Operation]:
    """A ``dynamic_gather`` whose window sizes are computed at run time: whole
    operand dims (``jnp.take`` or ``jnp.median`` along a static axis of an
    array with ``?`` dims) or parts of dims (a window of a run-time size, or
    a constant one in a ``?`` dim), as a ``gather`` of slices of size 1 at
    full index vectors: for each result element, its window positions are
    ``dynamic_iota``s along the result dims the windows land on, plus the
    window's start, clamped into ``[0, n - size]`` as the spec clamps it
    (a whole dim's start is 0); a collapsed dim's start is the given index,
    which the gather clamps into the dim. A window size is checked, at the
    op, to be ``0 <= size <= n`` (at compile time where both are constants,
    at run time otherwise); a static result dim of a run-time size is
    checked against it. Refused, located, otherwise."""
    dims = op.dims
    shape = flat_type_shape(op.operand.type)
    declared = flat_type_shape(op.result.type)
    indices = flat_type_shape(op.start_indices.type)
    ivd, rank = dims.index_vector_dim, len(shape)
    windows = dims.window_dims(rank)
    whole = {d for d, e in enumerate(entries)
             if e == shape[d] or _affine(e) == (frozenset({(tensor_dim_key(op.operand, d), 1)}), 0)}
    vector = indices[ivd] if ivd < len(indices) else 1
    if (dims.operand_batching_dims or any(e != 1 for d, e in enumerate(entries) if d not in windows)
            or (vector > 1 and rules.is_dynamic(indices))):
        raise PassError(op, "with slice sizes of this form is not supported by convert-stablehlo-to-bcast",
                        [DYNAMIC_GATHER_FORMS])
    result = flat_type_shape(op.result.type)
    batch_at = [r for r in range(len(result)) if r not in dims.offset_dims]
    element = op.start_indices.type.get_element_type()
    scalar = TensorType(element, [])
    new: list[Operation] = []

    def size(value: SSAValue, d: int) -> int | SSAValue:
        n = flat_type_shape(value.type)[d]
        return n if isinstance(n, int) else _appended(new, bcast.DimOp(value, d))

    def tensor(value: int | SSAValue) -> SSAValue:
        if isinstance(value, int):
            return _appended(new, bcast.ConstantOp(np.array(value, dtype=numpy_dtype(scalar)), scalar))
        if value.type.get_element_type() != element:
            return _appended(new, bcast.ConvertOp(value, scalar))
        return value

    def operand_size(d: int) -> SSAValue:
        n = size(op.operand, d)
        return tensor(n) if isinstance(n, int) else _appended(new, bcast.SizeToTensorOp(n, scalar))

    sizes: list[int | SSAValue] = [0] * len(result)
    limits: dict[int, SSAValue] = {}  # a partial window's largest start, n - size
    for r, d in zip(dims.offset_dims, windows):
        e = entries[d]
        if d in whole:
            sizes[r] = size(op.operand, d)
            continue
        if isinstance(e, int) and isinstance(shape[d], int):
            if not 0 <= e <= shape[d]:
                raise PassError(op, f"slice size {e} of dimension {d} is out of bounds for its size {shape[d]}")
        else:
            n, k, zero = operand_size(d), tensor(e), tensor(0)
            fits = [bcast.CompareOp("LE", zero, k), bcast.CompareOp("LE", k, n)]
            new += fits
            new.append(bcast.ShapeAssertionOp(
                _appended(new, bcast.AndOp(fits[0].results[0], fits[1].results[0])), [k, n],
                f"dynamic_gather slice size {{0}} of dimension {d} is out of bounds for its size {{1}}"))
        limits[d] = _appended(new, bcast.SubtractOp(operand_size(d), tensor(e)))
        if isinstance(e, int):
            sizes[r] = e
        elif isinstance(declared[r], int):
            _check_static_entry(op, d, declared[r], e, new)
            sizes[r] = declared[r]
        else:
            sizes[r] = _appended(new, bcast.SizeFromTensorOp(e))
    for r, k in zip(batch_at, dims.batch_dims(len(indices))):
        sizes[r] = size(op.start_indices, k)
    out = [*sizes, 1]
    column = TensorType(element, [DYNAMIC_INDEX if not isinstance(n, int) else n for n in out])
    components: dict[int, SSAValue] = {}
    for r, d in zip(dims.offset_dims, windows):
        components[d] = _appended(new, bcast.DynamicIotaOp(out, r, column))
    index = op.start_indices
    if ivd < len(indices) and ivd != len(indices) - 1:  # the index vector last
        perm = [k for k in range(len(indices)) if k != ivd] + [ivd]
        index = _appended(new, bcast.TransposeOp(index, perm))
    placed = [*batch_at, len(result)] if ivd < len(indices) else batch_at
    for c, d in enumerate(dims.start_index_map):
        if d in whole and d in windows:
            continue  # the start of a whole dim is clamped to 0
        part = index
        if vector > 1:
            starts = [0] * (len(indices) - 1) + [c]
            part = _appended(new, bcast.SliceOp(index, starts, [*flat_type_shape(index.type)[:-1], c + 1]))
        if d in limits:
            part = _appended(new, bcast.ClampOp(tensor(0), part, limits[d]))
        start = _appended(new, bcast.DynamicBroadcastInDimOp(part, out, placed, column))
        components[d] = _appended(new, bcast.AddOp(components[d], start)) if d in components else start
    order = sorted(components)
    full = components[order[0]]
    if len(order) > 1:
        full = _appended(new, bcast.ConcatenateOp([components[d] for d in order], len(result)))
    collapsed = tuple(sorted({*dims.collapsed_slice_dims, *windows}))
    gather_dims = rules.GatherDims(collapsed_slice_dims=collapsed, start_index_map=tuple(order),
                                   index_vector_dim=len(result))
    return new + _declared(op, bcast.GatherOp(op.operand, full, gather_dims, [1] * rank))


SORT_COMPARATORS_NOTE = (
    "the comparators JAX writes are imported: compare LT (ascending) or GT (descending) of "
    "the two elements of one operand, the key; on a float key TOTALORDER, of the elements as they are "
    "(jax.lax.top_k) or after JAX's canonicalization (select(x != x, NaN, select(x == 0, 0.0, x)): "
    "jnp.sort); on an integer key SIGNED (signed) or UNSIGNED (unsigned, i1); for several keys "
    "(num_keys > 1), or(compare LT/GT, and(compare EQ of the same pair, the next keys' comparator))"
)


class ConvertSort(RewritePattern):
    """A ``sort`` with one of JAX's comparators (``sort_comparator_form``)
    -> one ``bcast.sort %operand by %key`` per used result (an unused one,
    as the values of ``argsort``, costs nothing). ``is_stable`` false is
    imported as stable: a stable order is one of the orders it allows."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hlo.SortOp, rewriter: PatternRewriter) -> None:
        for v in op.inputs:
            _bcast_type(op, v)
        form = sort_comparator_form(op.comparator, list(op.inputs))
        if form is None:
            raise PassError(op, "with this comparator is not supported by convert-stablehlo-to-bcast",
                            [SORT_COMPARATORS_NOTE])  # fmt: skip
        keys = [op.inputs[key] for key, _, _ in form]
        descending, total_order = [direction == "GT" for _, direction, _ in form], [t for _, _, t in form]
        new: list[Operation] = []
        results: list[SSAValue | None] = []
        for value, result in zip(op.inputs, op.results):
            if not result.uses:
                results.append(None)
                continue
            new.append(bcast.SortOp(value, keys, op.dim, descending, total_order))
            results.append(new[-1].results[0])
        replace(rewriter, op, new, results)


class ConvertTopK(RewritePattern):
    """``chlo.top_k`` -> what its decomposition (``jax.export``'s
    ``chlo.top_k.impl``) does: ``bcast.sort`` along the last dim,
    descending in IEEE total order, of the operand (the values) and of an
    ``i32`` iota (the indices), each cut to the first ``k``; only the used
    results are made. With ``?`` dims (the last dim static: ``k`` must fit
    it, and JAX refuses a ``?`` one too) the iota is a ``dynamic_iota`` of
    the operand's sizes and the cut a ``pad`` whose negative high padding
    crops the last dim (``slice`` makes static dims only)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: chlo.TopKOp, rewriter: PatternRewriter) -> None:
        shape, element = _bcast_type(op, op.operand)
        (shape,) = shape
        last = len(shape) - 1  # static (chlo.TopKOp.verify_op)
        total_order = rules.kind(element) == "float"
        dynamic = rules.is_dynamic(shape)
        new: list[Operation] = []
        results: list[SSAValue | None] = []
        for result in (op.values, op.indices):
            if not result.uses:
                results.append(None)
                continue
            values = op.operand
            if result is op.indices:
                sizes: list[int | SSAValue] = []
                for d, n in enumerate(shape):
                    if not isinstance(n, int):
                        new.append(bcast.DimOp(op.operand, d))
                    sizes.append(n if isinstance(n, int) else new[-1].results[0])
                iota_type = make_type((shape,), "i32")
                new.append(bcast.DynamicIotaOp(sizes, last, iota_type) if dynamic else bcast.IotaOp(last, iota_type))
                values = new[-1].results[0]
            new.append(bcast.SortOp(values, op.operand, last, True, total_order))
            if dynamic:
                scalar = TensorType(result.type.get_element_type(), [])
                new.append(zero := bcast.ConstantOp(np.zeros((), dtype=numpy_dtype(scalar)), scalar))
                rank = len(shape)
                new.append(bcast.PadOp(new[-2].results[0], zero.results[0], [0] * rank,
                                       [0] * last + [op.count - shape[last]], [0] * rank))
            else:
                new.append(bcast.SliceOp(new[-1].results[0], [0] * len(shape), [*shape[:-1], op.count],
                                         [1] * len(shape)))
            results.append(new[-1].results[0])
        replace(rewriter, op, new, results)


def top_k_composites_as_chlo(module: ModuleOp) -> None:
    """JAX's ``stablehlo.composite "chlo.top_k"`` (``jax.export``'s
    ``top_k``) -> ``chlo.top_k`` of its ``k``, before calls are inlined: the
    composite means its decomposition, which is exactly ``chlo.top_k``
    (``ConvertTopK`` writes what it does), and the decomposition's
    ``real_dynamic_slice`` to a run-time size has no bcast form with ``?``
    dims. Another composite is inlined."""
    for op in list(module.walk()):
        if op_name(op) != "stablehlo.composite" or len(op.operands) != 1 or len(op.results) != 2:
            continue
        name = op.properties.get("name", op.attributes.get("name"))
        attributes = op.properties.get("composite_attributes", op.attributes.get("composite_attributes"))
        k = attributes.data.get("k") if isinstance(attributes, DictionaryAttr) else None
        if not (isinstance(name, StringAttr) and name.data == "chlo.top_k" and isinstance(k, IntegerAttr)):
            continue
        top_k = chlo.TopKOp.create(operands=[op.operands[0]], result_types=[r.type for r in op.results],
                                   properties={"k": IntegerAttr(k.value.data, i64)})
        top_k.location = op.location
        Rewriter.replace_op(op, top_k)


def sort_comparator_form(comparator: Region, inputs: Sequence[SSAValue]) -> list[tuple[int, str, bool]] | None:
    """The keys, (operand, LT or GT, total_order) each, the first deciding,
    when ``comparator`` is one of JAX's (``hlo.sort_comparator``): it
    returns ``compare DIRECTION, a, b`` of one key's pair of arguments, or
    for several keys ``or(compare DIRECTION, and(compare EQ, the later
    keys' comparator))`` on one key's pair (either operand order of ``or``
    and ``and``); each pair both as they are or both canonicalized
    (``_canonicalized``); constants may be in the region or outside it.
    Dead ops in the region do not count. Else None."""
    block = comparator.block if comparator.blocks else None
    ret = block.last_op if block is not None else None
    if not isinstance(ret, hlo.ReturnOp) or len(ret.operands) != 1:
        return None
    return _lexicographic_form(ret.operands[0], block, inputs)


def _lexicographic_form(value: SSAValue, block: Block, inputs: Sequence[SSAValue]) -> list[tuple[int, str, bool]] | None:
    """``sort_comparator_form`` of the comparator's answer ``value``."""
    owner = value.owner
    if isinstance(owner, hlo.CompareOp):
        key = _key_compare(owner, ("LT", "GT"), block, inputs)
        return None if key is None else [key]
    if not (isinstance(owner, Operation) and owner.name == "stablehlo.or" and len(owner.operands) == 2):
        return None
    for before, tie in (owner.operands, owner.operands[::-1]):
        first = before.owner
        if not isinstance(first, hlo.CompareOp) or (key := _key_compare(first, ("LT", "GT"), block, inputs)) is None:
            continue
        tie_op = tie.owner
        if not (isinstance(tie_op, Operation) and tie_op.name == "stablehlo.and" and len(tie_op.operands) == 2):
            continue
        for equal, rest in (tie_op.operands, tie_op.operands[::-1]):
            eq = equal.owner
            if (isinstance(eq, hlo.CompareOp) and _key_compare(eq, ("EQ",), block, inputs) == (key[0], "EQ", key[2])
                    and _canonicalized(eq.lhs) == _canonicalized(first.lhs)
                    and _canonicalized(eq.rhs) == _canonicalized(first.rhs)
                    and (later := _lexicographic_form(rest, block, inputs)) is not None):
                return [key, *later]  # fmt: skip
    return None


def _key_compare(compare: hlo.CompareOp, directions: tuple[str, ...], block: Block,
                 inputs: Sequence[SSAValue]) -> tuple[int, str, bool] | None:
    """(key operand, direction, total_order) when ``compare`` is one of
    ``directions`` of the two arguments of one operand (``a``, then ``b``),
    both as they are or both canonicalized, with the key's compare type
    (TOTALORDER on floats, SIGNED, UNSIGNED otherwise); else None."""
    if compare.direction not in directions:
        return None
    (a, canonical_a), (b, canonical_b) = _canonicalized(compare.lhs), _canonicalized(compare.rhs)
    if not (isinstance(a, BlockArgument) and isinstance(b, BlockArgument) and a.owner is block
            and b.owner is block and a.index % 2 == 0 and b.index == a.index + 1 and canonical_a == canonical_b):
        return None  # fmt: skip
    key = a.index // 2
    kind = rules.kind(_bcast_type(compare, inputs[key])[1])
    given = None if compare.compare_type is None else compare.compare_type.data
    if given is None or given == hlo.ComparisonType.NOTYPE:  # the element type's own (the spec's default)
        given = hlo.default_compare_type(compare.lhs.type.get_element_type())
    compare_type = given.value
    expected = {"float": "TOTALORDER", "signed": "SIGNED"}.get(kind, "UNSIGNED")
    if compare_type != expected or (canonical_a and kind != "float"):
        return None
    return key, compare.direction, kind == "float" and not canonical_a


def _canonicalized(value: SSAValue) -> tuple[SSAValue, bool]:
    """(x, True) when ``value`` is JAX's canonicalization of a float ``x``
    for sorting: ``select(compare NE x x, NaN, select(compare EQ x 0.0,
    0.0, x))`` with a positive NaN (so every NaN sorts after ``+inf``);
    else (value, False)."""
    outer = value.owner
    if not isinstance(outer, hlo.SelectOp) or not isinstance(inner := outer.on_false.owner, hlo.SelectOp):
        return value, False
    x = inner.on_false
    is_nan, is_zero = outer.pred.owner, inner.pred.owner
    if (isinstance(is_nan, hlo.CompareOp) and is_nan.direction == "NE" and is_nan.lhs is x and is_nan.rhs is x
            and isinstance(is_zero, hlo.CompareOp) and is_zero.direction == "EQ" and is_zero.lhs is x
            and _constant_value(is_zero.rhs) == 0 and _constant_value(inner.on_true) == 0
            and _is_positive_nan(outer.on_true)):
        return x, True  # fmt: skip
    return value, False


def _is_positive_nan(value: SSAValue) -> bool:
    """Whether ``value`` is a constant of NaNs without their sign bit
    (``_constant_value`` cannot say: a NaN equals nothing)."""
    owner = value.owner
    if not isinstance(owner, (hlo.ConstantOp, bcast.ConstantOp)):
        return False
    values = owner.value.get_values()
    return bool(values) and all(isinstance(v, float) and math.isnan(v) and math.copysign(1.0, v) > 0
                                for v in values)  # fmt: skip


def is_shape_assertion(op: Operation) -> bool:
    """JAX's ``custom_call @shape_assertion`` (read in generic form)."""
    target = getattr(op, "properties", {}).get("call_target_name") or op.attributes.get("call_target_name")
    return op_name(op) == "stablehlo.custom_call" and isinstance(target, StringAttr) \
        and target.data == "shape_assertion"


DYNAMIC_REDUCE_WINDOW = "stablehlo.dynamic_reduce_window"
"""The ``custom_call`` target JAX writes for a ``reduce_window`` whose window
or padding holds a dimension variable (``jnp.cumsum`` along a ``?`` dim)."""

CUMULATIVE_WINDOW_WORDS = "the window of a cumulative stablehlo.dynamic_reduce_window is not its dim's size:"
"""The run-time check's words (the window and dim sizes follow, as NumPy's shapes)."""


def _custom_call_attr(op: Operation, name: str) -> Attribute | None:
    """A ``custom_call``'s attribute, as a property (generic form) or not."""
    return getattr(op, "properties", {}).get(name) or op.attributes.get(name)


LAPACK_TRSM = ("lapack_strsm_ffi", "lapack_dtrsm_ffi")
"""The ``custom_call`` targets JAX writes on a CPU for ``triangular_solve``
(LAPACK's ``?trsm`` on f32 and f64), which XLA runs in place of the op."""

TRSM_FLAGS = {"side": {76: True, 82: False}, "uplo": {76: True, 85: False},
              "diag": {85: True, 78: False}, "trans_x": {78: "NO_TRANSPOSE", 84: "TRANSPOSE", 67: "ADJOINT"}}
"""LAPACK's flag characters (``ord("L")``...) in JAX's ``mhlo.backend_config``,
as bcast's flags: left side, lower, unit diagonal, transpose."""


def is_lapack_trsm(op: Operation) -> bool:
    """JAX's ``custom_call @lapack_strsm_ffi`` (or ``dtrsm``)."""
    target = _custom_call_attr(op, "call_target_name")
    return op_name(op) == "stablehlo.custom_call" and isinstance(target, StringAttr) and target.data in LAPACK_TRSM


class ConvertLapackTrsm(RewritePattern):
    """JAX's CPU form of ``triangular_solve`` (``custom_call
    @lapack_strsm_ffi(%a, %b)``, flags as LAPACK's characters in
    ``mhlo.backend_config``) -> ``bcast.triangular_solve``. The custom
    call's layouts are the memory order LAPACK reads (column-major); the
    values are the op's, so they are not needed."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_lapack_trsm(op):
            return
        config = _custom_call_attr(op, "mhlo.backend_config")
        flags = {}
        if isinstance(config, DictionaryAttr):
            for name, values in TRSM_FLAGS.items():
                value = config.data.get(name)
                if isinstance(value, IntegerAttr) and value.value.data in values:
                    flags[name] = values[value.value.data]
        if len(op.operands) != 2 or len(op.results) != 1 or len(flags) != len(TRSM_FLAGS):
            raise PassError(op, "is a LAPACK trsm call bcast does not read",
                            ["two operands, one result, and side, uplo, diag and trans_x in mhlo.backend_config"])
        _bcast_type(op, op.operands[0]), _bcast_type(op, op.operands[1])
        replace(rewriter, op, [bcast.TriangularSolveOp(
            *op.operands, left_side=flags["side"], lower=flags["uplo"], unit_diagonal=flags["diag"],
            transpose_a=flags["trans_x"], result_type=op.results[0].type)])


LAPACK_FACTORIZATIONS = {f"lapack_{t}{routine}_ffi": routine for routine in ("getrf", "potrf") for t in "sdcz"}
"""The ``custom_call`` targets JAX writes on a CPU for ``lu`` (LAPACK's
``?getrf``) and ``cholesky`` (``?potrf``): ``s``/``d`` become ``bcast.lu``
and ``bcast.cholesky``, ``c``/``z`` (complex) are refused, located."""

POTRF_UPLO = {76: True, 85: False}
"""``potrf``'s ``uplo`` character (``ord("L")``, ``ord("U")``) in JAX's
``mhlo.backend_config``: whether the factor is lower triangular."""


def lapack_factorization(op: Operation) -> str | None:
    """``getrf`` or ``potrf`` for JAX's ``custom_call @lapack_?getrf_ffi``
    (``?potrf``), else None."""
    target = _custom_call_attr(op, "call_target_name")
    if op_name(op) != "stablehlo.custom_call" or not isinstance(target, StringAttr):
        return None
    return LAPACK_FACTORIZATIONS.get(target.data)


class ConvertLapackFactorization(RewritePattern):
    """JAX's CPU forms of ``lu`` and ``cholesky`` (``custom_call
    @lapack_sgetrf_ffi(%a)`` -> (factors, pivots, info); ``custom_call
    @lapack_spotrf_ffi(%a)`` -> (factor, info), ``uplo`` as LAPACK's
    character in ``mhlo.backend_config``) -> ``bcast.lu`` and
    ``bcast.cholesky`` with the same results. As for trsm, the layouts are
    the memory order LAPACK reads and the batch dims are the leading ones,
    which the types say (docs/ir.md, "lu")."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        routine = lapack_factorization(op)
        if routine is None:
            return
        target = _custom_call_attr(op, "call_target_name").data
        if target[len("lapack_")] in "cz":
            raise PassError(op, f"is LAPACK's {routine} on complex numbers, which bcast has no type for")
        results = 3 if routine == "getrf" else 2
        config = _custom_call_attr(op, "mhlo.backend_config")
        uplo = config.data.get("uplo") if isinstance(config, DictionaryAttr) else None
        lower = POTRF_UPLO.get(uplo.value.data) if isinstance(uplo, IntegerAttr) else None
        if len(op.operands) != 1 or len(op.results) != results or (routine == "potrf" and lower is None):
            raise PassError(op, f"is a LAPACK {routine} call bcast does not read",
                            [f"one operand and {results} results"
                             + (", and uplo (76 or 85) in mhlo.backend_config" if routine == "potrf" else "")])
        _bcast_type(op, op.operands[0])
        types = [r.type for r in op.results]
        new = (bcast.LuOp(op.operands[0], types) if routine == "getrf"
               else bcast.CholeskyOp(op.operands[0], lower=lower, result_types=types))
        replace(rewriter, op, [new])


def is_dynamic_reduce_window(op: Operation) -> bool:
    """JAX's ``custom_call @stablehlo.dynamic_reduce_window``."""
    target = _custom_call_attr(op, "call_target_name")
    return op_name(op) == "stablehlo.custom_call" and isinstance(target, StringAttr) \
        and target.data == DYNAMIC_REDUCE_WINDOW


Affine = tuple[frozenset[tuple[object, int]], int]
"""A size expression as ``({(atom, coefficient), ...}, constant)``: an atom is
a size key (``dynamic_checks.size_key``) or an SSA value the form does not
see into (a ``maximum``)."""


def _ops(name: str) -> tuple[type[Operation], type[Operation]]:
    """StableHLO's op ``stablehlo.NAME`` and bcast's, which the import makes of it."""
    stablehlo = hlo.ELEMENTWISE_OPS[f"stablehlo.{name}"]
    return stablehlo, BINARY[stablehlo]


def _affine(value: int | SSAValue) -> Affine:
    """The affine form of a rank-0 integer size tensor as JAX computes
    dimension expressions (constants, ``convert``, ``add``, ``subtract``,
    ``multiply`` by a constant, ``get_dimension_size``; StableHLO's or already
    imported); any other producer is an atom of its own."""
    terms: dict[object, int] = {}
    constant = 0

    def walk(v: int | SSAValue, scale: int) -> None:
        nonlocal constant
        if isinstance(v, int):
            constant += scale * v
            return
        owner = v.owner
        if (c := _constant_value(v)) is not None and flat_type_shape(v.type) == ():
            constant += scale * int(c)
        elif isinstance(owner, hlo.ConvertOp | bcast.ConvertOp):
            walk(owner.operands[0], scale)
        elif isinstance(owner, _ops("add") + _ops("subtract")):
            walk(owner.operands[0], scale)
            walk(owner.operands[1], -scale if isinstance(owner, _ops("subtract")) else scale)
        elif isinstance(owner, _ops("multiply")) \
                and (c := next((_constant_value(x) for x in owner.operands if _constant_value(x) is not None),
                               None)) is not None:  # fmt: skip
            other = owner.operands[1] if _constant_value(owner.operands[0]) is not None else owner.operands[0]
            walk(other, scale * int(c))
        elif isinstance(owner, bcast.SizeToTensorOp):
            key = size_key(owner.size)
            terms[key] = terms.get(key, 0) + scale
        elif isinstance(owner, hlo.GetDimensionSizeOp):
            key = tensor_dim_key(owner.operand, owner.dim)
            terms[key] = terms.get(key, 0) + scale
        else:
            terms[v] = terms.get(v, 0) + scale

    walk(value, 1)
    return frozenset((k, c) for k, c in terms.items() if c), constant


def _shifted(form: Affine, by: int) -> Affine:
    return form[0], form[1] + by


def _at_least_one_of(window: int | SSAValue) -> Affine | None:
    """``e`` when ``window`` is ``maximum(e, 1)`` (bcast's own export, which
    keeps a window of an empty dim valid), else None."""
    owner = window.owner if isinstance(window, SSAValue) else None
    if not isinstance(owner, _ops("maximum")):
        return None
    a, b = owner.operands
    if _constant_value(b) == 1:
        return _affine(a)
    return _affine(b) if _constant_value(a) == 1 else None


def _reducer_kind(op: Operation, element: Attribute) -> str | None:
    """The cumulative kind of the function a ``dynamic_reduce_window`` calls,
    when its body is one binary op of its two arguments (StableHLO's or
    already imported), else None."""
    callees = _custom_call_attr(op, "called_computations")
    module = op.get_toplevel_object()
    if not isinstance(callees, ArrayAttr) or len(callees.data) != 1 or not isinstance(module, ModuleOp):
        return None
    name = callees.data[0].string_value()
    body = next((f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name), None)
    if body is None or len(body.body.blocks) != 1:
        return None
    block = body.body.block
    ops = list(block.ops)
    scalar = TensorType(element, [])
    if len(ops) != 2 or list(block.arg_types) != [scalar, scalar] or not isinstance(ops[1], func.ReturnOp) \
            or list(ops[1].operands) != [ops[0].results[0]] or list(ops[0].operands) != list(block.args):
        return None
    for kind in sorted(bcast.CUMULATIVE_KINDS):
        combiner = bcast.REDUCTION_COMBINERS[kind]
        if isinstance(ops[0], (hlo.ELEMENTWISE_OPS[combiner.STABLEHLO], combiner)):
            return kind
    return None


class ConvertDynamicReduceWindow(RewritePattern):
    """JAX's ``custom_call @stablehlo.dynamic_reduce_window`` in its
    cumulative form (``jnp.cumsum``/``cumprod``/``cummax``/``cummin`` along a
    ``?`` dim) -> ``bcast.cumulative``, as the static ``reduce_window``
    (``ConvertReduceWindow``): one input from the kind's identity, a called
    function of one binary op, unit strides and dilations, a window of 1
    but along one dim ``d``, where it is ``w`` with padding ``(w - 1, 0)``
    (``(0, w - 1)``: ``reverse``), and no padding elsewhere. The window and
    padding are size tensors JAX computes (``_affine`` reads them).

    ``w`` must be the size of dim ``d``: where the sizes' forms show it
    (``w`` is the dim's size, or ``maximum`` of it and 1, as bcast's own
    export writes it), nothing is left; otherwise a strict
    ``check_broadcastable`` of ``w`` against the dim's size, located at the
    op, which ``canonicalize`` removes once the sizes are seen to be one
    (a dimension variable read through ``size_to_tensor``), and which fails
    at run time, located, when they differ (the op would then be a sliding
    window, which bcast does not import)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_dynamic_reduce_window(op):
            return
        if len(op.operands) != 7 or len(op.results) != 1:
            raise PassError(op, "with more than one input is not supported by convert-stablehlo-to-bcast")
        x, init, window, strides, base, dilations, padding = op.operands
        levels, element = _bcast_type(op, x)
        kind = _reducer_kind(op, x.type.get_element_type()) if rules.kind(element) in (
            "signed", "unsigned", "float") else None  # fmt: skip
        shape = levels[0] if len(levels) == 1 else None
        windows, pads = _literal_entries(_shape_entries(window)), _pad_entries(padding)
        fixed = [_literal_entries(_shape_entries(v)) for v in (strides, base, dilations)]
        if kind is None or shape is None or windows is None or pads is None or any(
                f is None or any(e != 1 for e in f) for f in fixed) or not _is_identity(init, kind, element):
            raise PassError(op, "is not supported by convert-stablehlo-to-bcast unless it is a cumulative "
                            "form (jnp.cumsum, cumprod, cummax, cummin)", CUMULATIVE_NOTES)  # fmt: skip
        dims = [d for d, w in enumerate(windows) if w != 1]
        others = [p for d, p in enumerate(pads) if d not in dims]
        if len(dims) != 1 or any(_affine(e) != _affine(0) for p in others for e in p):
            raise PassError(op, "is not supported by convert-stablehlo-to-bcast unless its window is 1 and "
                            "unpadded but along one dim", CUMULATIVE_NOTES)  # fmt: skip
        (dim,), w = dims, windows[dims[0]]
        form, (low, high) = _affine(w), (_affine(e) for e in pads[dim])
        reverse = high == _shifted(form, -1) and low == _affine(0)
        if not reverse and not (low == _shifted(form, -1) and high == _affine(0)):
            raise PassError(op, f"is not supported by convert-stablehlo-to-bcast unless the padding along dim "
                            f"{dim} is its window - 1 on one side and 0 on the other", CUMULATIVE_NOTES)
        new: list[Operation] = []
        size = shape[dim] if isinstance(shape[dim], int) else None
        own = _affine(size) if size is not None else (frozenset({(tensor_dim_key(x, dim), 1)}), 0)
        if form != own and _at_least_one_of(w) != own:
            new += self.window_check(op, x, dim, w)
        new.append(bcast.CumulativeOp(kind, x, dim, reverse))
        replace(rewriter, op, new)

    @staticmethod
    def window_check(op: Operation, x: SSAValue, dim: int, w: int | SSAValue) -> list[Operation]:
        """A strict check, at ``op``'s location, that window ``w`` is the size of ``x``'s ``dim``."""
        new: list[Operation] = []
        if isinstance(w, SSAValue):
            new.append(window_size := bcast.SizeFromTensorOp(w))
            w = window_size.results[0]
        new.append(size := bcast.DimOp(x, dim))
        new.append(bcast.CheckBroadcastableOp([[w], [size.results[0]]], [[0], [0]], [0], strict=True,
                                              message=CUMULATIVE_WINDOW_WORDS))
        return new


CUMULATIVE_NOTES = ["one input from the kind's identity, a called function of one add, multiply, maximum or "
                    "minimum, a window of a whole dim padded by its size - 1 on one side, unit strides and "
                    "dilations"]


def _literal_entries(entries: list[int | SSAValue] | None) -> list[int | SSAValue] | None:
    """Size entries with each constant one as its int (bcast's own export
    writes a literal size as a reshaped rank-0 constant)."""
    if entries is None:
        return None
    return [e if isinstance(e, int) or (c := _constant_value(e)) is None else int(c) for e in entries]


def _pad_entries(value: SSAValue) -> list[tuple[int | SSAValue, int | SSAValue]] | None:
    """A ``rank x 2`` padding tensor's (low, high) entries: JAX writes it as
    the ``concatenate`` of ``reshape``s of one ``[low, high]`` size tensor per
    dim (or a constant)."""
    owner = value.owner
    if isinstance(owner, hlo.ConstantOp | bcast.ConstantOp):
        array = _dense_values(owner.value if isinstance(owner, hlo.ConstantOp) else owner.properties["value"])
        if array is None or array.ndim != 2 or array.shape[1] != 2:
            return None
        return [(int(lo), int(hi)) for lo, hi in array]
    if isinstance(owner, hlo.ReshapeOp | bcast.ReshapeOp) and flat_type_shape(value.type) == (1, 2):
        pair = _shape_entries(owner.operands[0])
        return [(pair[0], pair[1])] if pair is not None and len(pair) == 2 else None
    if isinstance(owner, hlo.ConcatenateOp | bcast.ConcatenateOp) and flat_type_shape(value.type)[1:] == (2,):
        parts = [_pad_entries(v) for v in owner.operands]
        return None if any(p is None for p in parts) else [e for p in parts for e in p]
    return None


PATTERNS: tuple[Callable[[], RewritePattern], ...] = (
    ConvertBinary, ConvertUnary, ConvertSquare, ConvertIsFinite, ConvertReducePrecision, ConvertOptimizationBarrier, ConvertStructural,
    ConvertCompare, ConvertSelect, ConvertClamp, ConvertChloBroadcast, ConvertChloBroadcastSelect,
    ConvertReduce, ConvertDot, ConvertReduceWindow, ConvertDynamicShapes, ConvertScatter, ConvertDynamicRanges,
    ConvertSort, ConvertTopK, ConvertDynamicReduceWindow, ConvertDynamicGather, ConvertConvolution, ConvertDynamicConv,
    ConvertTriangularSolve, ConvertSelectAndScatter, ConvertLapackTrsm, ConvertLapackFactorization, ConvertFft,
)  # fmt: skip


# --------------------------------------------------------------------------
# Calls
# --------------------------------------------------------------------------

MAX_INLINE_DEPTH = 100


def _inlined_location(op: Operation, call: Operation):
    """An inlined op keeps a written file location; one that shows none
    (JAX's ``loc("broadcast_in_dim")``) takes the call's."""
    return call.location if isinstance(op.location, InputFallbackLoc) else op.location


def callee_name(op: Operation) -> str | None:
    """The function ``op`` runs: a ``func.call``'s callee, or a
    ``stablehlo.composite``'s ``decomposition`` (a composite means exactly
    its decomposition, so it is inlined like a call; JAX's ``top_k``)."""
    if isinstance(op, func.CallOp):
        return op.callee.string_value()
    if op_name(op) == "stablehlo.composite":
        decomposition = op.properties.get("decomposition", op.attributes.get("decomposition"))
        if isinstance(decomposition, SymbolRefAttr):
            return decomposition.string_value()
    return None


def inline_calls(module: ModuleOp, strict: bool = True) -> None:
    """Inline every ``func.call`` and ``stablehlo.composite`` to a function of
    the module, then remove the private functions. A call of a function with
    no body here is an error when ``strict``, else kept (with the declaration
    it calls)."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    kept: set[str] = set()
    for _ in range(MAX_INLINE_DEPTH):
        calls = [op for op in module.walk() if (name := callee_name(op)) is not None and name not in kept]
        if not calls:
            break
        for call in calls:
            name = callee_name(call)
            assert name is not None
            callee = functions.get(name)
            if (callee is None or not callee.body.blocks) and not strict:
                kept.add(name)
                continue
            if callee is None or not callee.body.blocks:
                raise PassError(call, f"calls @{name}, which has no body in the module")
            body = callee.body.clone()
            block = body.block
            for op in block.walk():
                op.location = _inlined_location(op, call)
            ret = block.last_op
            assert ret is not None
            arguments = dict(zip(block.args, call.operands))  # a function may return its argument as it is
            returned = [arguments.get(v, v) for v in ret.operands]
            Rewriter.erase_op(ret)
            Rewriter.inline_block(block, InsertPoint.before(call), list(call.operands))
            for result, value in zip(call.results, returned):
                result.replace_all_uses_with(value)
            Rewriter.erase_op(call)
    else:
        raise PassError(calls[0], "calls nest too deeply to inline (recursion?)")
    for name, f in functions.items():
        if f.sym_visibility is not None and f.sym_visibility.data == "private" and name not in kept:
            Rewriter.erase_op(f)


def check_supported(module: ModuleOp) -> None:
    """The first op the import cannot take, in program order, is an error."""
    known = set(SUPPORTED_OPS)
    for op in module.walk():
        name = op_name(op)
        if is_stablehlo(op) and name not in known and not is_shape_assertion(op) \
                and not is_dynamic_reduce_window(op) and not is_lapack_trsm(op) \
                and lapack_factorization(op) is None:
            raise PassError(op, "is not supported by convert-stablehlo-to-bcast", [supported_note()])
        if isinstance(op, hlo.ReturnOp) and not in_reduce_body(op):
            raise PassError(op, "stablehlo.return outside a reduce body is not supported")


def _reducer_names(module: ModuleOp) -> set[str]:
    """The functions ``dynamic_reduce_window``s call (their body)."""
    return {ref.string_value() for op in module.walk() if is_dynamic_reduce_window(op)
            and isinstance(refs := _custom_call_attr(op, "called_computations"), ArrayAttr)
            for ref in refs.data if isinstance(ref, SymbolRefAttr)}  # fmt: skip


def _erase_unused_functions(module: ModuleOp, names: set[str]) -> None:
    """Erase the functions ``names`` no op refers to any more: a
    ``dynamic_reduce_window``'s body, once the op is ``bcast.cumulative``."""
    if not names:
        return
    used = {ref.string_value() for op in module.walk()
            for attr in (*getattr(op, "properties", {}).values(), *op.attributes.values())
            for ref in (attr.data if isinstance(attr, ArrayAttr) else (attr,)) if isinstance(ref, SymbolRefAttr)}
    for f in list(module.ops):
        if isinstance(f, func.FuncOp) and f.sym_name.data in names - used:
            Rewriter.erase_op(f)


def in_kept_map(op: Operation) -> bool:
    """Whether ``op`` is in the body of a ``map`` (one left after
    ``maps_as_elementwise`` is kept whole: none of its ops converted)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, hlo.MapOp):
            return True
        parent = parent.parent_op()
    return False


@dataclass
class RulesAtTheOp(RewritePattern):
    """``pattern``, with a rule a builder of bcast's ops finds broken (a
    ``RuleError``: StableHLO's verifier lets some ``?`` forms through that
    bcast's rules refuse, such as a ``dynamic_gather`` whose index vector
    dim is ``?``) reported as the import's error at the op, located, never
    as an internal error. Builders raise before anything is rewritten."""

    pattern: RewritePattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        except RuleError as e:
            raise PassError(op, e.message, e.notes) from None


@dataclass
class KeepWhatFails(RewritePattern):
    """``pattern``, except that an op it refuses (a ``PassError``, raised
    before anything is rewritten) is kept as it is: the open world."""

    pattern: RewritePattern

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_kept_map(op):
            return
        try:
            self.pattern.match_and_rewrite(op, rewriter)
        except PassError:
            pass


@dataclass(frozen=True)
class ConvertStablehloToBcastPass(ModulePass):
    """StableHLO and CHLO as JAX prints them -> explicit bcast IR.

    Options:

    - strict: ``false`` (default) keeps every op the import cannot take;
      ``true`` reports the first one, located, as the program is to run.
    """

    name = "convert-stablehlo-to-bcast"

    strict: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        top_k_composites_as_chlo(op)
        inline_calls(op, self.strict)  # first: an op of a called function is reported where it is called
        flatten_control_flow(op)  # loop bodies and branches are then ordinary ops
        mixed_reduce_windows_as_bodies(op, self.strict)
        maps_as_elementwise(op, self.strict)
        reducers = _reducer_names(op)
        patterns = [RulesAtTheOp(p()) for p in PATTERNS]
        if self.strict:
            check_supported(op)
        else:
            patterns = [KeepWhatFails(p) for p in patterns]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns), apply_recursively=False
        ).rewrite_module(op)
        _erase_unused_functions(op, reducers)
        if not self.strict:
            return
        for left in op.walk():
            if is_stablehlo(left):  # a pattern declined it
                raise PassError(left, f"'{op_name(left)}' could not be converted by convert-stablehlo-to-bcast",
                                [supported_note()])  # fmt: skip
