"""The ``bcast`` ops evaluated on NumPy arrays: the hook of constant folding
(``passes.canonicalization``) and of the reference evaluator
(``lowering.interpreter``).

Each op's exact semantics is its ``NUMPY_FUNCTION`` (``bcast.ir.numerics``);
what this module adds is the op's broadcasting and promotion around it, so
the ops themselves only say what they compute. Values are flat: a nested
(tml) value is stored with its outer dims first.
"""

from __future__ import annotations

from functools import singledispatch

import numpy as np
from xdsl.ir import Operation

from bcast.ir import numerics, rules
from bcast.ir.ops import (ArgReduceOp, BinaryOp, BroadcastInDimOp, ConstantOp, ReduceWindowBodyOp, BitcastConvertOp, ClampOp, CompareOp, ConcatenateOp, ConvertOp, ConvolutionOp, CumulativeOp, DotGeneralOp, DynamicConvOp,
                          check_dynamic_conv,
                          DynamicSliceOp, DynamicUpdateSliceOp, GatherOp, IotaOp, MatmulOp, PadOp, ReduceOp,
                          ReduceWindowOp, ReverseOp, ScatterOp, SelectOp, SliceOp, SortOp, TriangularSolveOp, UnaryOp, LuOp, CholeskyOp,
                          FftOp)
from bcast.ir.rules import Levels
from bcast.ir.types import NUMPY_DTYPES, numpy_dtype, split_type


def levels_of(t, x: np.ndarray) -> Levels:
    """The levels of value ``x`` of type ``t``: the type's own, or with
    dynamic dims, the sizes ``x`` has at run time (``x`` is flat)."""
    levels, _ = split_type(t)
    if not rules.levels_dynamic(levels):
        return levels
    shape, concrete, k = np.shape(x), [], 0
    for level in levels:
        concrete.append(tuple(shape[k : k + len(level)]))
        k += len(level)
    return tuple(concrete)


def result_levels(op: Operation, args) -> Levels:
    """The levels of ``op``'s result: its type's, or (dynamic dims) the ones
    ``op.runtime_levels`` computes from the operands' run-time sizes."""
    levels, _ = split_type(op.results[0].type)
    if not rules.levels_dynamic(levels) and not any(rules.levels_dynamic(split_type(v.type)[0]) for v in op.operands):
        return levels
    return op.runtime_levels([levels_of(v.type, x) for v, x in zip(op.operands, args)])


def to_levels(x: np.ndarray, levels: Levels, result: Levels) -> np.ndarray:
    """Broadcast a flat value per nesting level to the flat result shape."""
    shaped = np.reshape(x, rules.flat_broadcast_shape(levels, result))
    return np.broadcast_to(shaped, rules.flat_shape(result))


@singledispatch
def evaluate(op: Operation, *args: np.ndarray) -> np.ndarray:
    """``op``'s result on flat NumPy operands of the operand types
    (broadcasting and promotion included). Defined for the elementwise ops,
    ``convert``, ``reduce``, ``iota``, ``reverse``, ``slice`` and the dynamic slices."""
    raise TypeError(f"'{op.name}' has no evaluation hook")


def _broadcast_and_promote(op: BinaryOp, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    (_, xe), (_, ye) = split_type(op.lhs.type), split_type(op.rhs.type)
    xl, yl = levels_of(op.lhs.type, x), levels_of(op.rhs.type, y)
    result = result_levels(op, (x, y))
    dims = op.broadcast_dimensions
    if dims is not None and len(xl[0]) != len(yl[0]):
        _, xs, ys = rules.in_dim_broadcast(xl[0], yl[0], dims.get_values(), "numpy")
        x, y = np.reshape(x, xs), np.reshape(y, ys)
        xl, yl = (xs,), (ys,)
    common = np.dtype(NUMPY_DTYPES[rules.promote_types(xe, ye)])
    x = to_levels(x, xl, result).astype(common, copy=False)
    y = to_levels(y, yl, result).astype(common, copy=False)
    return x, y


@evaluate.register(BinaryOp)
def _binary(op: BinaryOp, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return op.NUMPY_FUNCTION(*_broadcast_and_promote(op, x, y))


@evaluate.register(CompareOp)
def _compare(op: CompareOp, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return op.NUMPY_FUNCTION(op.comparison_direction.data.value, *_broadcast_and_promote(op, x, y),
                             total_order=op.is_total_order)


@evaluate.register(SelectOp)
def _select(op: SelectOp, p: np.ndarray, t: np.ndarray, f: np.ndarray) -> np.ndarray:
    result = result_levels(op, (p, t, f))
    dtype = numpy_dtype(op.result.type)
    p, t, f = (
        to_levels(x, levels_of(v.type, x), result)
        for x, v in zip((p, t, f), op.operands)
    )
    return op.NUMPY_FUNCTION(p, t.astype(dtype, copy=False), f.astype(dtype, copy=False))


@evaluate.register(ClampOp)
def _clamp(op: ClampOp, *xs: np.ndarray) -> np.ndarray:
    """The three operands broadcast to the result and converted to its
    element type (docs/semantics.md)."""
    result = result_levels(op, xs)
    dtype = numpy_dtype(op.result.type)
    return op.NUMPY_FUNCTION(*(
        to_levels(x, levels_of(v.type, x), result).astype(dtype, copy=False)
        for x, v in zip(xs, op.operands)
    ))


@evaluate.register(UnaryOp)
def _unary(op: UnaryOp, x: np.ndarray) -> np.ndarray:
    return op.NUMPY_FUNCTION(x)


@evaluate.register(ConvertOp)
def _convert(op: ConvertOp, x: np.ndarray) -> np.ndarray:
    return numerics.convert(x, numpy_dtype(op.result.type))


@evaluate.register(BitcastConvertOp)
def _bitcast_convert(op: BitcastConvertOp, x: np.ndarray) -> np.ndarray:
    return np.asarray(x).view(numpy_dtype(op.result.type))


@evaluate.register(ReduceOp)
def _reduce(op: ReduceOp, x: np.ndarray) -> np.ndarray:
    """The dims index the flat operand too: outer dims come first in a flat
    nested value."""
    return numerics.reduce(op.kind_name, x, op.reduced_dims, op.keeps_dims)


@evaluate.register(IotaOp)
def _iota(op: IotaOp) -> np.ndarray:
    return numerics.iota(split_type(op.result.type)[0][0], op.dim, numpy_dtype(op.result.type))


@evaluate.register(ReverseOp)
def _reverse(op: ReverseOp, x: np.ndarray) -> np.ndarray:
    """The dims index the flat operand (a nested value's outer dims first)."""
    return np.flip(x, op.dims)


@evaluate.register(ConcatenateOp)
def _concatenate(op: ConcatenateOp, *xs: np.ndarray) -> np.ndarray:
    return np.concatenate(xs, op.dim)


@evaluate.register(PadOp)
def _pad(op: PadOp, x: np.ndarray, value: np.ndarray) -> np.ndarray:
    return numerics.pad(x, value, op.low, op.high, op.interior)


@evaluate.register(SliceOp)
def _slice(op: SliceOp, x: np.ndarray) -> np.ndarray:
    """A copy: the result never shares the operand's memory."""
    return np.array(x[op.ranges()])


@evaluate.register(DotGeneralOp)
def _dot_general(op: DotGeneralOp, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return numerics.dot_general(x, y, op.dims)


@evaluate.register(ConvolutionOp)
def _convolution(op: ConvolutionOp, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return numerics.convolution(x, w, op.conv)


@evaluate.register(DynamicConvOp)
def _dynamic_conv(op: DynamicConvOp, x: np.ndarray, w: np.ndarray, padding: np.ndarray) -> np.ndarray:
    """The padding read here (``check_dynamic_conv`` raises its run-time error)."""
    return numerics.convolution(x, w, check_dynamic_conv(np.shape(x), np.shape(w), op.conv, padding,
                                                         op.declared_sizes()))


@evaluate.register(MatmulOp)
def _matmul(op: MatmulOp, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Both operands promoted to the result's element type first."""
    dtype = numpy_dtype(op.result.type)
    return numerics.matmul(x.astype(dtype, copy=False), y.astype(dtype, copy=False))


@evaluate.register(DynamicSliceOp)
def _dynamic_slice(op: DynamicSliceOp, x: np.ndarray, *starts: np.ndarray) -> np.ndarray:
    """A copy: the result never shares the operand's memory."""
    return np.array(numerics.dynamic_slice(x, starts, op.sizes))


@evaluate.register(DynamicUpdateSliceOp)
def _dynamic_update_slice(op: DynamicUpdateSliceOp, x: np.ndarray, *rest: np.ndarray) -> np.ndarray:
    *starts, update = rest
    return numerics.dynamic_update_slice(x, starts, update)


@evaluate.register(GatherOp)
def _gather(op: GatherOp, x: np.ndarray, indices: np.ndarray) -> np.ndarray:
    return numerics.gather(x, indices, op.dims, op.sizes)


@evaluate.register(ScatterOp)
def _scatter(op: ScatterOp, x: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
    return numerics.scatter(op.kind_name, x, indices, updates, op.dims)


@evaluate.register(ArgReduceOp)
def _arg_reduce(op: ArgReduceOp, x: np.ndarray) -> np.ndarray:
    return numerics.arg_reduce(op.short_name, x, op.dim, numpy_dtype(op.result.type))


@evaluate.register(CumulativeOp)
def _cumulative(op: CumulativeOp, x: np.ndarray) -> np.ndarray:
    return numerics.cumulative(op.kind_name, x, op.dim, op.is_reverse)


@evaluate.register(SortOp)
def _sort(op: SortOp, values: np.ndarray, *keys: np.ndarray) -> np.ndarray:
    return numerics.sort(values, keys, op.dim, op.orders)
@evaluate.register(FftOp)
def _fft(op: FftOp, x: np.ndarray) -> np.ndarray:
    return numerics.fft(x, op.kind, op.lengths)


@evaluate.register(TriangularSolveOp)
def _triangular_solve(op: TriangularSolveOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return numerics.triangular_solve(a, b, *op.flags)


@evaluate.register(LuOp)
def _lu(op: LuOp, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return numerics.lu(a)


@evaluate.register(CholeskyOp)
def _cholesky(op: CholeskyOp, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return numerics.cholesky(a, op.is_lower)


@evaluate.register(ReduceWindowOp)
def _reduce_window(op: ReduceWindowOp, x: np.ndarray, init: np.ndarray) -> np.ndarray:
    return numerics.reduce_window(op.kind_name, x, init, *op.window)


def running_scan(op: ReduceWindowBodyOp) -> int | None:
    """The dim along which ``op`` is a running window (docs/ir.md,
    "reduce_window"): along one static dim ``d`` of size ``n`` a window of
    ``n`` places padded by ``n - 1`` before, stride 1, no dilation, and a
    window of 1, unpadded, on every other dim (JAX's cumulative argmax), so
    result element ``i`` folds the init values ``n - 1 - i`` times and then
    elements ``0..i`` in order. That fold is a scan (one pass along ``d``
    carrying the accumulators, in the same order) when the body folds the
    init values into themselves unchanged, bit for bit (checked here on
    constant init values: an argmax's ``(-inf, -1)`` does, a sum from 1 does
    not). None otherwise, the window then folded place by place. (Padding
    after, the reversed form, folds the init values after the elements:
    not a scan of an arbitrary body.)"""
    shape = split_type(op.inputs[0].type)[0][0]
    window, strides, base, dilations, low, high = op.window
    windowed = [d for d, w in enumerate(window) if w != 1 or low[d] or high[d]]
    if len(windowed) != 1 or set(strides) | set(base) | set(dilations) != {1}:
        return None
    (d,) = windowed
    n = shape[d]
    if not isinstance(n, int) or n < 2 or (window[d], low[d], high[d]) != (n, n - 1, 0):
        return None
    inits = [v.owner.numpy_value() if isinstance(v.owner, ConstantOp) else None for v in op.init_values]
    if any(v is None for v in inits):
        return None
    folded = fold_body(op, inits, inits)
    if any(np.asarray(a).tobytes() != np.asarray(b, dtype=np.asarray(a).dtype).tobytes()
           for a, b in zip(inits, folded)):
        return None
    return d


def fold_body(op: ReduceWindowBodyOp, accumulators, elements) -> list[np.ndarray]:
    """``op``'s body evaluated op by op (``evaluate``) on rank-0 values."""
    block = op.body.block
    values = dict(zip(block.args, [*accumulators, *elements]))
    for inner in block.ops:
        if inner is block.last_op:
            return [values[v] for v in inner.operands]
        if isinstance(inner, ConstantOp):
            values[inner.results[0]] = inner.numpy_value()
        elif isinstance(inner, BroadcastInDimOp):  # rank 0 to rank 0
            values[inner.results[0]] = values[inner.operands[0]]
        else:
            values[inner.results[0]] = np.asarray(evaluate(inner, *(values[v] for v in inner.operands)))
    raise AssertionError("a verified body ends with bcast.yield")
