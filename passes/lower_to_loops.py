"""``bcast-lower-to-loops``: bcast IR on tensors -> loop nests on memrefs.

Input: explicit, fused IR (``bcast.tools.targets.STANDARD_PIPELINE``).
Output: loop IR, whose ops, calling convention and attributes
(``REDUCTION_ATTR``, ``PARALLEL_ATTR``, ``BOUNDS_CHECK_ATTR``) are stated in
``bcast.ir.loops``; this docstring says how bcast ops become loops.

Loops
-----
- A ``bcast.fusion`` with iteration shape of rank >= 1 is a nest of
  ``scf.for`` over its rows (dimension 0, see ``bcast.ir.fusion``; with
  reductions, every leading dim no reduction reduces,
  ``FusionOp.row_rank``: a softmax over the last dim of 4x1024x4096 has
  4x1024 rows), and inside it one loop nest per *phase*: each reduction
  first (in body order; it accumulates into a per-row scratch ``memref``
  initialised with the kind's identity,
  ``bcast.ir.numerics.reduction_identity``; ``f16`` accumulates in ``f32``),
  then one nest per result shape that computes and stores the results. A
  rank-0 fusion is straight-line code. Elementwise values are not stored:
  each phase recomputes the ones it reads (at most once per element within
  a nest), except that a reduction's operand that later phases read too
  and that is expensive (``exp`` in softmax) is kept in a row buffer by
  the reduction's phase and loaded by the later ones (``row_cache``).
- Broadcasts, transposes and reshapes are index expressions: a
  ``broadcast_in_dim`` reads index 0 on size-1 operand dims and
  ``idx[dims[k]]`` otherwise; a transpose permutes indices; a reshape that only
  inserts or removes size-1 dims maps indices directly, any other reshape
  linearises the result index and delinearises it over the operand shape.
- Ops outside fusions (reductions over dimension 0, extract, assign, views,
  converts, calls) each get their own nest into a ``memref.alloc``'d buffer
  (or straight into the caller's result buffer when the value is returned),
  freed with ``memref.dealloc`` before the function returns. Splat
  constants are ``arith.constant`` scalars; others are ``memref.global``s
  (floats stored as their bit patterns and bitcast on load, so every value
  survives printing exactly).
- Scalar semantics (``scalar_op``) are docs/semantics.md's, guarded with
  ``arith.select`` so no undefined behaviour or poison remains (divide by
  zero, ``INT_MIN / -1``, shifts >= the bit width, float -> int conversion
  out of range or NaN). Integer ``power`` is a loop over the exponent's bits.
  f16 transcendental functions (exp, log, sqrt, tanh, atan2, pow) run in
  f32 and round once, as NumPy's half loops do (upstream lowers math to
  libm only for f32/f64); f16 ``+ - * /`` stay f16 ops. Float ``remainder``
  is upstream's ``arith.remf`` (``fmod``, ``bcast.ir.loops.RemFOp``).

Dynamic indices
---------------
An ``extract``/``assign`` index that is an SSA value is bounds-checked where
the op is lowered, at the function's top level: ``arith.cmpi ult`` against
the dim's size (a negative index fails too) and ``cf.assert`` with
``BOUNDS_CHECK_ATTR``; upstream lowers a failed assert to ``abort``, the C
target to an error the runtime reports as the other backends do. An
``index`` result is a rank-0 ``i64`` buffer; a call's ``index`` result is
loaded from one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.builder import Builder
from xdsl.dialects import arith, cf, func, memref, scf
from xdsl.dialects import math as mathd
from xdsl.dialects.builtin import (
    BoolAttr,
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from bcast.ir import numerics, rules, scalar, special
from bcast.ir import ops as bc
from bcast.ir.control_flow import CaseOp, WhileOp
from bcast.ir.fusion import FusionOp, is_explicit
from bcast.ir.ops import semantics_of
from bcast.ir.evaluate import running_scan
from bcast.ir.loops import (BOUNDS_CHECK_ATTR, CONV_ATTR, CONV_SIZES_ATTR, GEMM_ATTR, LOOP_FORM_ATTR, PARALLEL_ATTR,
                             REDUCTION_ATTR, SIZE_CHECK_ATTR, SPATIAL_FIELDS, RemFOp)
from bcast.ir.types import NUMPY_DTYPES, dense_i64, element_of, flat_type_shape, has_dynamic_types, split_type
from bcast.passes.conv_gemm import convolutions_as_gemm, direct_geometry
from bcast.passes.errors import PassError, check_element_types, check_one_block_functions, check_signatures
from bcast.passes.loops_control_flow import SAME_SIZES_ATTR, lower_case, lower_while, outline_regions

Index = list[SSAValue]

# --------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------


def storage_type(element: str) -> Attribute:
    """The signless MLIR type that holds an element (``ui8`` -> ``i8``)."""
    if rules.kind(element) == "float":
        return {"f16": Float16Type, "f32": Float32Type, "f64": Float64Type, "bf16": BFloat16Type}[element]()
    return IntegerType(rules.bit_width(element))


RADIX_SORT_MIN = 256
"""A static sorted dim at least this long sorts by radix (``radix_passes``:
4 passes over an f32 lane, each a count and a move, where a merge sort of
1024 makes 10 branch-free merges); a shorter one by merges, which need no
256-entry count per pass."""


def radix_key_type(element: str) -> IntegerType:
    """The unsigned integer (signless, at least a byte) ``radix_key`` makes
    of a sort key of ``element``."""
    return IntegerType(max(8, rules.bit_width(scalar.sort_key_element(element))))


def memref_shape(shape: rules.Shape) -> list[int]:
    """A flat shape as a memref's: a ``?`` (or bounded) dim is MLIR's dynamic size."""
    return [DYNAMIC_INDEX if isinstance(n, rules.Dynamic) else n for n in shape]


def memref_of(t: Attribute) -> Attribute:
    """The calling convention's type for an argument of type ``t``
    (``memref<?x4xf32>`` for a dynamic one: its sizes travel with it)."""
    if isinstance(t, TensorType):
        return MemRefType(storage_type(element_of(t)), memref_shape(flat_type_shape(t)))
    return t


def result_memref_of(t: Attribute) -> Attribute:
    """The calling convention's buffer for a result of type ``t`` (an
    ``index`` result is a rank-0 ``i64`` buffer)."""
    return MemRefType(IntegerType(64), []) if isinstance(t, IndexType) else memref_of(t)


def accumulator(element: str) -> str:
    """The element type a reduction accumulates in (f16 and bf16 in f32, docs/semantics.md)."""
    return rules.accumulator(element)


# --------------------------------------------------------------------------
# A builder with the scalar helpers every mapping uses
# --------------------------------------------------------------------------


def signed(value: int, bits: int) -> int:
    """``value`` wrapped to ``bits`` bits, as the signless constant printing
    wants it (i1 stays 0 or 1)."""
    value %= 1 << bits
    return value - (1 << bits) if bits > 1 and value >= 1 << (bits - 1) else value


class Scalars:
    """Inserts ops at a movable point and builds constants and the few
    compound forms (guards, f16 math in f32) the scalar mappings share."""

    def __init__(self, block: Block):
        self.builder = Builder(InsertPoint.at_end(block))
        self.entry = block
        self.constants: dict[tuple, SSAValue] = {}
        self.last_constant: Operation | None = None

    def __call__(self, op: Operation) -> SSAValue:
        """Insert ``op``; its (first) result."""
        self.builder.insert(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    # -- constants ---------------------------------------------------------
    def constant(self, key: tuple, make: Callable[[], Operation]) -> SSAValue:
        """A constant made once per function, at its entry (so it dominates
        every loop and reads as a list of named values)."""
        if key not in self.constants:
            op = make()
            point = (InsertPoint.after(self.last_constant) if self.last_constant is not None
                     else InsertPoint.at_start(self.entry))
            Builder(point).insert(op)
            self.last_constant = op
            self.constants[key] = op.results[0]
        return self.constants[key]

    def index(self, n: int) -> SSAValue:
        return self.constant(("index", n), lambda: arith.ConstantOp(IntegerAttr(n, IndexType())))

    def int(self, value: int, element: str) -> SSAValue:
        """An integer constant of ``element``'s width, ``value`` wrapped to it."""
        bits = rules.bit_width(element)
        value = signed(value, bits)
        return self.constant(("int", bits, value),
                             lambda: arith.ConstantOp.from_int_and_width(value, IntegerType(bits)))

    def float(self, value: float, element: str) -> SSAValue:
        """A float constant, exactly: values xDSL prints with too few digits
        to read back bit for bit are written as integer bits and bitcast."""
        t = storage_type(element)
        with np.errstate(over="ignore"):  # a bound beyond f16's range is inf, as wanted
            array = np.array(value, dtype=NUMPY_DTYPES[element])
        rounded = float(array)
        bits = int(array.view(f"u{array.itemsize}"))
        if not math.isfinite(rounded) or float(f"{rounded:.6e}") == rounded:
            return self.constant(("float", element, bits), lambda: arith.ConstantOp(FloatAttr(rounded, t)))
        raw = self.int(bits, f"i{rules.bit_width(element)}")
        return self.constant(("float", element, bits), lambda: arith.BitcastOp(raw, t))

    def const(self, value, element: str) -> SSAValue:
        if rules.kind(element) == "float":
            return self.float(float(value), element)
        return self.int(int(value), element)

    # -- compound forms ----------------------------------------------------
    def cmpi(self, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return self(arith.CmpiOp(x, y, predicate))

    def cmpf(self, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return self(arith.CmpfOp(x, y, predicate))

    def select(self, c: SSAValue, t: SSAValue, f: SSAValue) -> SSAValue:
        return self(arith.SelectOp(c, t, f))

    # -- bcast.ir.scalar's primitives -------------------------------------
    def apply(self, name: str, *operands: SSAValue) -> SSAValue:
        if name.startswith("math.") and any(isinstance(v.type, BFloat16Type) for v in operands):
            # no bf16 math in LLVM on x86 (it calls __truncsfbf2): in f32, exact for a bf16 value
            wide = [self.cast("arith.extf", v, "f32") if isinstance(v.type, BFloat16Type) else v for v in operands]
            result = self.apply(name, *wide)
            return self.cast("arith.truncf", result, "bf16") if isinstance(result.type, Float32Type) else result
        if name in UPSTREAM_LACKS:
            return UPSTREAM_LACKS[name](self, f"f{operands[0].type.bitwidth}", *operands)
        return self(PRIMITIVES[name](*operands))

    def cast(self, name: str, x: SSAValue, element: str) -> SSAValue:
        return self(PRIMITIVES[name](x, storage_type(element)))

    def loop(self, trips: int, inits: Sequence[SSAValue],
             body: Callable[[list[SSAValue]], list[SSAValue]]) -> list[SSAValue]:
        return self.for_loop(trips, inits, lambda _, carried: body(carried))

    def for_loop(
        self, upper: int | SSAValue, inits: Sequence[SSAValue], body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]]
    ) -> list[SSAValue]:
        """``scf.for %i = 0 to upper`` carrying ``inits``; ``body(i, carried)``
        returns the next carried values."""
        block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
        lb, ub, step = self.index(0), upper if isinstance(upper, SSAValue) else self.index(upper), self.index(1)
        loop = scf.ForOp(lb, ub, step, list(inits), Region(block))
        self.builder.insert(loop)
        outer = self.builder.insertion_point
        self.builder.insertion_point = InsertPoint.at_end(block)
        results = body(block.args[0], list(block.args[1:]))
        self(scf.YieldOp(*results))
        self.builder.insertion_point = outer
        return list(loop.results)


# --------------------------------------------------------------------------
# Scalar semantics: each op's definition (bcast.ir.scalar) on arith and math
# --------------------------------------------------------------------------

PRIMITIVES: dict[str, type[Operation]] = {
    op.name: op for op in (*arith.Arith.operations, *mathd.Math.operations, RemFOp)
}
"""The ops ``bcast.ir.scalar`` names (``arith.remf`` is bcast's own, upstream's spelling)."""

UPSTREAM_LACKS = {"math.erfc": special.erfc}
"""Primitives that are no op of upstream MLIR 19 (``math.erfc`` came in 20),
so the loop IR holds their composition of the other primitives
(``bcast.ir.special``, as NumPy computes them); ``math.erf`` is upstream's
(C's ``erf``)."""


def scalar_op(op: Operation, b: Scalars, args: Sequence[SSAValue]) -> SSAValue:
    """The value of the elementwise ``op`` (explicit, ``bcast.ir.fusion.
    is_explicit``) on scalar ``args``: its definition, built from arith and
    math ops."""
    if isinstance(op, bc.BitcastConvertOp):
        return scalar.bitcast(b, element_of(op.operand.type), element_of(op.result.type), args[0])
    if isinstance(op, bc.ConvertOp):
        return scalar.convert(b, element_of(op.operand.type), element_of(op.result.type), args[0])
    if isinstance(op, bc.CompareOp):
        return scalar.compare(b, element_of(op.lhs.type), op.comparison_direction.data.value, *args,
                              total_order=op.is_total_order)
    if isinstance(op, bc.SelectOp):
        return b.select(*args)
    if isinstance(op, bc.ElementwiseOp):
        return op.SCALAR(b, element_of(op.results[0].type), *args)
    raise PassError(op, "has no scalar lowering")


def combine(b: Scalars, kind: str, element: str, acc: SSAValue, x: SSAValue) -> SSAValue:
    """One step of a reduction: the binary op the kind folds with
    (``bc.REDUCTION_COMBINERS``) on the accumulator's ``element``."""
    return bc.REDUCTION_COMBINERS[kind].SCALAR(b, element, acc, x)


def arg_replaces(b: Scalars, element: str, direction: str, x: SSAValue, best: SSAValue) -> SSAValue:
    """Whether ``x``, met after ``best`` along an argmax (``direction`` GT)
    or argmin (LT) scan, replaces it: strictly beyond it, or the first NaN
    (``x`` NaN and ``best`` not), so ties and later NaNs keep the earlier
    index (``numerics.arg_reduce``)."""
    beyond = scalar.compare(b, element, direction, x, best)
    if rules.kind(element) != "float":
        return beyond
    first_nan = b.apply("arith.andi", b.cmpf("uno", x, x), b.cmpf("ord", best, best))
    return b.apply("arith.ori", beyond, first_nan)


# --------------------------------------------------------------------------
# Index expressions
# --------------------------------------------------------------------------


def broadcast_index(b: Scalars, operand: rules.Shape, dims: Sequence[int], idx: Index) -> Index:
    """The operand index of a ``broadcast_in_dim`` read at result index ``idx``:
    0 on size-1 operand dims, ``idx[dims[k]]`` otherwise (dims absent from
    ``dims`` are not indexed; unsorted dims transpose)."""
    return [b.index(0) if size == 1 else idx[d] for size, d in zip(operand, dims)]


def transpose_index(perm: Sequence[int], idx: Index) -> Index:
    """Result dim ``k`` is operand dim ``perm[k]``."""
    out: list[SSAValue] = [None] * len(perm)  # type: ignore[list-item]
    for k, p in enumerate(perm):
        out[p] = idx[k]
    return out


def reverse_index(b: Scalars, operand: Sequence[int | SSAValue], dims: Sequence[int], idx: Index) -> Index:
    """The operand index of a ``reverse`` read at result index ``idx``:
    ``n - 1 - i`` on each reversed dim of size ``n`` > 1 (the others as
    read); a run-time size ``n`` (an ``index`` value) is read as it is."""
    out = list(idx)
    for d in dims:
        n = operand[d]
        if isinstance(n, int):
            if n > 1:
                out[d] = b(arith.SubiOp(b.index(n - 1), idx[d]))
        else:
            out[d] = b(arith.SubiOp(b(arith.SubiOp(n, b.index(1))), idx[d]))
    return out


def slice_index(b: Scalars, starts: Sequence[int], strides: Sequence[int], idx: Index) -> Index:
    """The operand index of a ``slice`` read at result index ``idx``:
    ``start + i * stride`` per dim (a constant 0 start or 1 stride adds nothing)."""
    out = []
    for start, stride, i in zip(starts, strides, idx):
        if stride != 1:
            i = b(arith.MuliOp(i, b.index(stride)))
        out.append(b(arith.AddiOp(i, b.index(start))) if start else i)
    return out


def offset_index(b: Scalars, starts: Index, idx: Index) -> Index:
    """``start + i`` per dim (a constant 0 start adds nothing)."""
    zero = b.index(0)
    return [i if start is zero else b(arith.AddiOp(i, start)) for start, i in zip(starts, idx)]


def clamped_index(b: Scalars, x: SSAValue, element: str, high: int | SSAValue) -> SSAValue:
    """A start index ``x`` of integer type ``element`` clamped into ``[0,
    high]`` as an ``index`` (``dynamic_slice``'s, ``gather``'s, docs/ir.md):
    extended to ``i64`` by its signedness, then ``maxsi`` 0 and ``minsi``
    ``high`` (a ``ui64`` index: ``minui`` alone, which reads it unsigned).
    A run-time ``high`` (an ``index`` value) is not negative."""
    bound = b.int(high, "i64") if isinstance(high, int) else b(arith.IndexCastOp(high, IntegerType(64)))
    if element == "ui64":
        x = b.apply("arith.minui", x, bound)
    else:
        if rules.bit_width(element) < 64:
            x = b.cast("arith.extsi" if rules.kind(element) == "signed" else "arith.extui", x, "i64")
        x = b.apply("arith.minsi", b.apply("arith.maxsi", x, b.int(0, "i64")), bound)
    return b(arith.IndexCastOp(x, IndexType()))


def bounded_i64(b: Scalars, x: SSAValue, element: str, n: int | SSAValue) -> SSAValue:
    """A ``scatter`` start of integer type ``element`` as ``i64``, moved
    into ``[-(n + 1), n]`` (``numerics.bounded_starts``): every position
    ``start + offset`` (``0 <= offset < n``) stays in or out of ``[0, n)``
    as it was, and none wraps (a ``ui64`` above ``2**63``). A run-time
    ``n`` is an ``i64`` value."""
    high = b.int(n, "i64") if isinstance(n, int) else n
    if element == "ui64":
        return b.apply("arith.minui", x, high)
    if rules.bit_width(element) < 64:
        x = b.cast("arith.extsi" if rules.kind(element) == "signed" else "arith.extui", x, "i64")
    low = b.int(-(n + 1), "i64") if isinstance(n, int) else b(arith.SubiOp(b.int(-1, "i64"), n))
    return b.apply("arith.minsi", b.apply("arith.maxsi", x, low), high)


def iota_at(b: Scalars, dim: int, element: str, idx: Index) -> SSAValue:
    """An ``iota`` element: the loop index along ``dim`` as ``i64``
    (``index_cast``), converted to ``element`` as ``bcast.convert`` does."""
    count = b(arith.IndexCastOp(idx[dim], IntegerType(64)))
    return scalar.convert(b, "i64", element, count)


def pad_kept(n: int, low: int, interior: int, size: int) -> tuple[int, int]:
    """The operand indices ``[start, stop)`` along one dim of ``pad`` whose
    place ``low + i * (interior + 1)`` is inside the result (``0 <= place <
    size``): negative edges crop the others."""
    step = interior + 1
    start = pad_kept_start(low, interior)
    stop = min(n, (size - 1 - low) // step + 1) if size > 0 else 0
    return start, max(stop, start)


def pad_kept_start(low: int, interior: int) -> int:
    """The first operand index along a dim of ``pad`` whose place ``low + i *
    (interior + 1)`` is not cropped by a negative ``low``."""
    return max(-(low // (interior + 1)), 0)


def pad_kept_count(b: Scalars, n: SSAValue, start: int, high: int, interior: int) -> SSAValue:
    """How many operand indices from ``start`` land in the result along a
    ``?`` dim of run-time size ``n``: those before ``n + min(0, floor(high /
    (interior + 1)))`` (the first index whose place is past the result's
    last), never fewer than 0."""
    stop = min(0, high // (interior + 1))
    return at_least_zero(b, b(arith.AddiOp(n, b.index(stop - start))))


def add_sizes(b: Scalars, a: int | SSAValue, n: int | SSAValue) -> int | SSAValue:
    """``a + n`` of sizes: an int while both are, else an ``index`` value (no add of a 0)."""
    if isinstance(a, int) and isinstance(n, int):
        return a + n
    if isinstance(a, int) and a == 0:
        return n
    return b(arith.AddiOp(b.index(a) if isinstance(a, int) else a, b.index(n) if isinstance(n, int) else n))


def at_least_zero(b: Scalars, n: SSAValue) -> SSAValue:
    """``max(n, 0)`` of an ``index`` value (a compare and a select, as the C
    target writes index arithmetic)."""
    zero = b.index(0)
    return b.select(b.cmpi("slt", n, zero), zero, n)


def unit_dim_index(b: Scalars, operand: Sequence, result: Sequence, idx: Index) -> Index | None:
    """The operand index of a reshape that only inserts or removes size-1
    dims (the other dims equal in order: sizes, or size sources), read at
    result index ``idx``; None for any other reshape."""
    inserted = rules.unit_dim_embedding(operand, result)
    if inserted is not None:
        return [idx[p] for p in inserted]
    removed = rules.unit_dim_embedding(result, operand)
    if removed is None:
        return None
    out = [b.index(0)] * len(operand)
    for k, p in enumerate(removed):
        out[p] = idx[k]
    return out


def reshape_index(b: Scalars, operand: rules.Shape, result: rules.Shape, idx: Index) -> Index:
    """The operand index of a reshape read at result index ``idx``: direct
    when the reshape only inserts or removes size-1 dims, else through the
    row-major linear position."""
    direct = unit_dim_index(b, operand, result, idx)
    if direct is not None:
        return direct
    linear = idx[0] if idx else b.index(0)
    for size, i in zip(result[1:], idx[1:]):
        linear = b(arith.AddiOp(b(arith.MuliOp(linear, b.index(size))), i))
    out = []
    stride = rules.element_count(operand)
    for size in operand:
        stride //= max(size, 1)
        out.append(b(arith.RemUIOp(b(arith.DivUIOp(linear, b.index(stride))), b.index(size))))
    return out


@dataclass(frozen=True, eq=False)
class DerivedSize:
    """A ``?`` result dim computed from its op's operands' run-time sizes by
    the op's own rule: ``concatenate`` along a ``?`` dim (the sum), ``pad``
    of one (``rules.padded_size``), ``reshape``'s ``?`` (the element count
    over the result's static sizes, ``ops.reshape_sizes``), a convolution's
    ``?`` spatial dim (``rules.conv_window_count`` of its input's size and,
    for ``dynamic_conv``, its padding's values), a ``reduce_window``'s
    ``?`` dim its windows span (``rules.reduce_window_size`` of the
    input's size). Computed once, where
    the op is lowered, and by the C runtime before the call
    (lowering/c_sizes.py), which checks the op's run-time rule there.

    Two are equal when their ops are alike (name, properties, result type)
    on operands of equal sizes: ``bcast-fuse`` copies a reshape into the
    group that reads it, and the copy's size is the original's."""

    op: Operation
    dim: int

    @functools.cached_property
    def _key(self) -> tuple:
        properties = tuple(sorted(self.op.properties.items()))
        return (self.op.name, self.dim, self.op.results[0].type, properties, tuple(self.operand_sources()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DerivedSize) and (self.op is other.op and self.dim == other.dim
                                                   or self._key == other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def operand_sources(self) -> list[SizeSource]:
        """The sizes the dim is computed from: each concatenated operand's
        size along the dim, the padded operand's, or every dim of the
        reshaped operand (its element count)."""
        if isinstance(self.op, bc.ConcatenateOp):
            return [size_source(x, self.dim) for x in self.op.inputs]
        if isinstance(self.op, bc.ReshapeOp):
            operand = self.op.operand
            return [size_source(operand, k) for k in range(len(flat_type_shape(operand.type)))]
        if isinstance(self.op, bc.ConvolutionOp | bc.DynamicConvOp):  # the input's spatial size (and the padding)
            d = self.op.conv.dims
            spatial = size_source(self.op.lhs, d.input_spatial[d.output_spatial.index(self.dim)])
            return [spatial, self.op.d_padding] if isinstance(self.op, bc.DynamicConvOp) else [spatial]
        return [size_source(self.op.operands[0], self.dim)]


SizeSource = int | SSAValue | tuple[BlockArgument, int] | DerivedSize


def spans_window(op: bc.ReduceWindowOp | bc.ReduceWindowBodyOp, d: int) -> bool:
    """Whether ``op``'s windows span dim ``d`` (its result size there is
    ``rules.reduce_window_size`` of the input's, not the input's)."""
    return tuple(values[d] for values in op.window) != (1, 1, 1, 1, 0, 0)




def size_source(v: SSAValue, d: int) -> SizeSource:
    """Where the run-time size of flat dim ``d`` of tensor ``v`` (explicit
    IR) comes from: a static size, an ``index`` value of the program (a
    ``dynamic_broadcast_in_dim``'s output size, ``bcast.dim`` followed to
    its operand) or ``(argument, dim)``, a size the caller's array has. The one definition the loop lowering and
    the C runtime (which computes result shapes before a call) both read:
    an elementwise op or convert has its (explicit) operands' shape, a
    reduce its operand's without the reduced dims, a ``broadcast_in_dim``'s
    ``?`` dim its operand dim's."""
    while True:
        n = flat_type_shape(v.type)[d]
        if not isinstance(n, rules.Dynamic):
            return n
        if isinstance(v, BlockArgument):
            fusion = v.owner.parent_op()
            if not isinstance(fusion, FusionOp):
                return v, d
            v = fusion.inputs[v.index]  # a fusion's block argument is its input
            continue
        op = v.owner
        if isinstance(op, FusionOp):
            v = op.block.last_op.operands[v.index]  # a fusion's result is what it yields
            continue
        if isinstance(op, bc.SIZED_BY_OPERANDS):
            size = op.mixed_sizes()[d]
            return size if isinstance(size, int) else index_source(size)
        if isinstance(op, bc.SetDimensionSizeOp):
            if d == op.dim:
                return index_source(op.size)
            v = op.operand
            continue
        if isinstance(op, bc.ConcatenateOp | bc.PadOp | bc.ReshapeOp):
            if isinstance(op, bc.PadOp | bc.ReshapeOp) or d == op.dim:
                return DerivedSize(op, d)
            v = op.inputs[0]  # the operands' sizes are equal but along dim (checked at run time)
            continue
        if isinstance(op, bc.ElementwiseOp | bc.ConversionOp) and is_explicit(op):
            v = op.operands[1] if isinstance(op, bc.SelectOp) else op.operands[0]
        elif isinstance(op, bc.ReduceOp) and not op.keeps_dims:
            kept = [k for k in range(len(flat_type_shape(op.operand.type))) if k not in op.reduced_dims]
            v, d = op.operand, kept[d]
        elif isinstance(op, bc.ReduceOp):
            v = op.operand
        elif isinstance(op, bc.ArgReduceOp):
            kept = [k for k in range(len(flat_type_shape(op.operand.type))) if k != op.dim]
            v, d = op.operand, kept[d]
        elif isinstance(op, bc.BroadcastInDimOp):
            v, d = op.operand, op.dims.index(d)
        elif isinstance(op, bc.TransposeOp):
            v, d = op.operand, op.perm[d]
        elif isinstance(op, bc.ReduceWindowOp | bc.ReduceWindowBodyOp):  # a dim no window spans: the input's
            if spans_window(op, d):
                return DerivedSize(op, d)
            v = op.operands[0]
        elif isinstance(op, bc.ReverseOp | bc.CumulativeOp | bc.DynamicUpdateSliceOp | bc.ScatterOp):
            v = op.operand
        elif isinstance(op, bc.SortOp):
            v = op.values  # the keys' sizes are the values' (checked at run time)
        elif isinstance(op, bc.DotGeneralOp):
            v, d = op.result_source(d)
        elif isinstance(op, bc.GatherOp):  # a ``?`` result dim is a batch dim of the indices (slices are static)
            batch = [r for r in range(len(flat_type_shape(v.type))) if r not in op.dims.offset_dims]
            v, d = op.start_indices, op.dims.batch_dims(len(flat_type_shape(op.start_indices.type)))[batch.index(d)]
        elif isinstance(op, bc.ConvolutionOp | bc.DynamicConvOp):  # the batch's, or a spatial dim's own count
            if d != op.conv.dims.output_batch:
                return DerivedSize(op, d)
            v, d = op.lhs, op.conv.dims.input_batch
        elif isinstance(op, WhileOp):  # a carried size never changes (proven: loops_control_flow)
            v = op.inputs[v.index]
        elif isinstance(op, CaseOp):  # every branch yields it (proven: loops_control_flow)
            return resolved_source(size_source(op.branches[0].block.last_op.operands[v.index], d))
        else:
            raise PassError(op, "has dynamic dimensions that bcast-lower-to-loops does not lower yet",
                            ["it lowers elementwise ops, broadcasts, reductions, transposes, reverses, "
                             "contractions, gathers, scatters, concatenates, pads and the size ops "
                             "(dynamic_reshape, dynamic_iota, set_dimension_size) of dynamic shapes"])


def index_source(size: SSAValue) -> SizeSource:
    """``size_source`` of an ``index`` size: ``bcast.dim`` is its operand's
    dim's source, a ``bcast.broadcast_size`` of sizes that all have one
    source is that source (the first size that is not 1 of equal sizes is
    any of them); any other is itself."""
    owner = size.owner
    if isinstance(owner, bc.DimOp):
        return size_source(owner.operand, owner.dim)
    if isinstance(owner, bc.BroadcastSizeOp):
        sources = [index_source(s) for s in owner.sizes]
        if all(source == sources[0] for source in sources):
            return sources[0]
    return size


def resolved_source(source: SizeSource) -> SizeSource:
    """``source`` seen through region boundaries (docs/c-backend.md,
    "Control flow"): a size of a ``bcast.while`` region's argument is its
    carried input's (carried sizes never change: the C backend refuses a
    loop where that is not proven), a ``bcast.dim`` its operand dim's
    source, and a ``bcast.broadcast_size`` whose sizes resolve to one source
    (static 1s aside: the first size that is not 1, else 1) that source;
    an outlined function's argument size the one ``SAME_SIZES_ATTR`` names.
    Two sizes with one resolved source are equal whenever both are read."""
    while True:
        if isinstance(source, tuple):
            arg, d = source
            parent = arg.owner.parent_op() if isinstance(arg.owner, Block) else None
            if isinstance(parent, func.FuncOp) and SAME_SIZES_ATTR in parent.attributes:
                for k, dim, k0, d0 in (entry.get_values() for entry in parent.attributes[SAME_SIZES_ATTR].data):
                    if (k, dim) == (arg.index, d):
                        return parent.body.block.args[k0], d0
            if not isinstance(parent, WhileOp):
                return source
            source = size_source(parent.inputs[arg.index], d)
        elif isinstance(source, SSAValue) and isinstance(source.owner, bc.DimOp):
            source = size_source(source.owner.operand, source.owner.dim)
        elif isinstance(source, SSAValue) and isinstance(source.owner, bc.BroadcastSizeOp):
            parts = {resolved_source(index_source(s)) for s in source.owner.sizes} - {1}
            if len(parts) > 1:
                return source
            return parts.pop() if parts else 1
        else:
            return source


def same_sizes(op: Operation) -> bool:
    """Whether the operands of an explicit elementwise op have the same
    run-time sizes: the same ``size_source`` on every ``?`` dim (as
    bcast-make-explicit leaves them: broadcasts to one SSA size). Two
    operands of type ``tensor<?xf32>`` with other sources may differ at
    run time; read at one index, one would be read out of bounds."""
    operands = [v for v in op.operands if isinstance(v.type, TensorType)]
    shape = flat_type_shape(operands[0].type)
    return all(size_source(v, d) == size_source(operands[0], d)
               for d, n in enumerate(shape) if isinstance(n, rules.Dynamic) for v in operands[1:])


def reads_as_view(op: Operation) -> bool:
    """A ``broadcast_in_dim`` (or transpose, reshape) read only by
    contractions is not stored: each contraction reads its operand through
    it, as a fusion reads its inputs (make-explicit broadcasts ``matmul``'s
    batch dims this way; a materialized broadcast would copy an operand
    once per batch)."""
    return (isinstance(op, bc.BroadcastInDimOp | bc.TransposeOp | bc.ReshapeOp)
            and bool(op.results[0].uses)
            and all(isinstance(use.operation, bc.DotGeneralOp) for use in op.results[0].uses))  # fmt: skip


# --------------------------------------------------------------------------
# The lowering of one function
# --------------------------------------------------------------------------


@dataclass
class Stored:
    """A value held in memory. ``rows_dropped``: a per-row scratch, indexed
    without that many leading (row) dims; ``wide``: an f16 value held in its f32 accumulator;
    ``bits``: a float held as integer bits (a constant global)."""

    memref: SSAValue
    rows_dropped: int = 0
    wide: bool = False
    bits: Attribute | None = None


class FunctionLowering:
    """Lowers one ``func.func``; globals for its constants go to ``module``."""

    def __init__(self, lowering: ModuleLowering, old: func.FuncOp):
        self.lowering = lowering
        self.old = old
        block = old.body.block if old.body.blocks else None
        inputs = [memref_of(t) for t in old.function_type.inputs.data]
        outputs = [result_memref_of(t) for t in old.function_type.outputs.data]
        new_block = Block(arg_types=inputs + outputs)
        body = Region(new_block) if block is not None else Region()
        self.new = func.FuncOp(old.sym_name.data, (inputs + outputs, []), body, visibility=old.sym_visibility)
        self.new.attributes[LOOP_FORM_ATTR] = UnitAttr()
        self.new.location = old.location
        self.stored: dict[SSAValue, Stored] = {}
        self.splat: dict[SSAValue, object] = {}
        self.alias: dict[SSAValue, SSAValue] = {}
        self.scopes: list[dict] = [{}]
        self.owned: list[SSAValue] = []
        self.conv_count = 0  # CONV_SIZES_ATTR's numbers
        self.destination: dict[SSAValue, SSAValue] = {}
        self.checked: dict[Operation, Index] = {}
        """The indices of each extract/assign, their dynamic ones checked, and
        the clamped starts of each dynamic slice."""
        self.arg_sizes: dict[tuple[BlockArgument, int], SSAValue] = {}
        """Each dynamic size of an argument, read once at entry (``memref.dim``)."""
        self.derived: dict[DerivedSize, SSAValue] = {}
        """Each ``DerivedSize`` of the function, computed where its op is lowered."""
        self.derived_for: set[Operation] = set()
        """The ops of ``?`` dims whose sizes ``derive_sizes`` has computed (a
        reshape among them is read through its run-time sizes)."""
        self.steps: dict[tuple[Operation, int], SSAValue] = {}
        """A ``dynamic_broadcast_in_dim`` operand dim that may be 1 at run time ->
        its index step: 0 where its size is 1 (it stretches), else 1."""
        if block is None:
            return
        self.b = Scalars(new_block)
        for old_arg, new_arg in zip(block.args, new_block.args):
            if isinstance(old_arg.type, TensorType):
                self.stored[old_arg] = Stored(new_arg)
                for d, n in enumerate(flat_type_shape(old_arg.type)):
                    if isinstance(n, rules.Dynamic):
                        self.arg_sizes[old_arg, d] = self.b(memref.DimOp(new_arg, self.b.index(d)))
            else:
                self.alias[old_arg] = new_arg
            new_arg.name_hint = old_arg.name_hint
        self.outs = list(new_block.args[len(inputs):])
        for k, out in enumerate(self.outs):
            out.name_hint = f"result{k}"
        ret = block.last_op
        assert isinstance(ret, func.ReturnOp)
        for k, v in enumerate(ret.arguments):
            owner = v.owner
            if (isinstance(owner, Operation) and v not in self.destination and not isinstance(owner, bc.ConstantOp)
                    and isinstance(v.type, TensorType)):
                self.destination[v] = self.outs[k]
        for op in list(block.ops):
            self.lower_op(op)

    # -- run-time sizes --------------------------------------------------------
    def size(self, source: SizeSource) -> int | SSAValue:
        """A ``size_source`` as a loop-IR size: an int, or an ``index`` value
        computed at the function's top level (an argument's size read at
        entry, or a size op's result)."""
        if isinstance(source, int):
            return source
        if isinstance(source, tuple):
            return self.arg_sizes[source]
        if isinstance(source, DerivedSize):
            return self.derived[source]
        return self.alias[source]

    def derive_sizes(self, op: bc.ConcatenateOp | bc.PadOp | bc.ReshapeOp) -> None:
        """The ``?`` result dims of ``op`` computed from its operands' sizes
        (``DerivedSize``), here at the function's top level, before its nests
        (the C runtime has checked them: no size is negative)."""
        b = self.b
        for d in range(len(flat_type_shape(op.results[0].type))):
            source = size_source(op.results[0], d)
            if not isinstance(source, DerivedSize) or source in self.derived:
                continue
            if isinstance(op, bc.ConvolutionOp | bc.DynamicConvOp):
                self.derived[source] = self.conv_size(op, op.conv.dims.output_spatial.index(d))
                continue
            if isinstance(op, bc.ReduceWindowOp | bc.ReduceWindowBodyOp):
                window, strides, base, dilations, low, high = (values[d] for values in op.window)
                n = self.size(size_source(op.operands[0], d))
                dilated = b.int((n - 1) * base + 1 if n else 0, "i64") if isinstance(n, int) \
                    else self.dilated_size(n, base)
                self.derived[source] = self.window_count(dilated, b.int(low + high, "i64"),
                                                         (window - 1) * dilations + 1, strides)
                continue
            sizes = [self.size(s) for s in source.operand_sources()]
            if isinstance(op, bc.ConcatenateOp):
                total = 0
                for n in sizes:
                    total = add_sizes(b, total, n)
            elif isinstance(op, bc.ReshapeOp):  # the static sizes multiplied once, then the run-time ones
                count = b.index(math.prod(n for n in sizes if isinstance(n, int)))
                for n in sizes:
                    if not isinstance(n, int):
                        count = b(arith.MuliOp(count, n))
                known = math.prod(n for n in op.declared_sizes() if n is not None)
                total = count if known == 1 else b(arith.DivUIOp(count, b.index(known)))
            else:
                n, lo, hi, gap = self.as_index(sizes[0]), op.low[d], op.high[d], op.interior[d]
                total = b(arith.AddiOp(n, b.index(lo + hi)))
                if gap:
                    gaps = at_least_zero(b, b(arith.SubiOp(n, b.index(1))))
                    total = b(arith.AddiOp(total, gaps if gap == 1 else b(arith.MuliOp(gaps, b.index(gap)))))
            self.derived[source] = total
        self.derived_for.add(op)

    def padding_entry(self, op: bc.DynamicConvOp, s: int, edge: int) -> SSAValue:
        """Padding ``edge`` (0 low, 1 high) of spatial dim ``s`` of a
        ``dynamic_conv``, an ``i64`` read from its padding tensor."""
        b = self.b
        value = self.value_at(op.d_padding, [b.index(s), b.index(edge)])
        element = element_of(op.d_padding.type)
        return value if element == "i64" else scalar.convert(b, element, "i64", value)

    def conv_size(self, op: bc.ConvolutionOp | bc.DynamicConvOp, s: int) -> SSAValue:
        """The run-time output size of spatial dim ``s`` of a convolution
        (``rules.conv_window_count``, in ``i64``): the input's size (static,
        or read at run time), dilated (0 when empty); the padding (static, or
        a ``dynamic_conv``'s values); 0 when the padded input is shorter than
        the dilated kernel, else the strided positions (the C runtime has
        checked that no ``dynamic_conv`` padded size is negative)."""
        b, conv = self.b, op.conv
        d = conv.dims
        n = self.size(size_source(op.lhs, d.input_spatial[s]))
        k = flat_type_shape(op.rhs.type)[d.kernel_spatial[s]]
        span = (k - 1) * conv.rhs_dilation[s] + 1
        if isinstance(n, int):
            dilated = b.int((n - 1) * conv.lhs_dilation[s] + 1 if n else 0, "i64")
        else:
            dilated = self.dilated_size(n, conv.lhs_dilation[s])
        if isinstance(op, bc.DynamicConvOp):
            padded = b(arith.AddiOp(self.padding_entry(op, s, 0), self.padding_entry(op, s, 1)))
            padded = b(arith.AddiOp(padded, dilated))
        else:
            padded = b(arith.AddiOp(dilated, b.int(conv.low[s] + conv.high[s], "i64")))
        return self.window_count(dilated, padded, span, conv.strides[s], padded=True)

    def window_count(self, dilated: SSAValue, padding: SSAValue, span: int, stride: int,
                     padded: bool = False) -> SSAValue:
        """``rules.reduce_window_size`` in the loop IR (``index``): the strided
        positions of a window of ``span`` places in a dilated input of size
        ``dilated`` padded by ``padding`` (both ``i64``; ``padded``: ``padding``
        is already the padded size), 0 where the window does not fit."""
        b = self.b
        size = padding if padded else b(arith.AddiOp(dilated, padding))
        room = b(arith.SubiOp(size, b.int(span, "i64")))  # padded input - dilated window
        count = b(arith.AddiOp(b(arith.DivSIOp(room, b.int(stride, "i64"))), b.int(1, "i64")))
        count = b.select(b(arith.CmpiOp(room, b.int(0, "i64"), "slt")), b.int(0, "i64"), count)
        return b(arith.IndexCastOp(count, IndexType()))

    def dilated_size(self, n: SSAValue, dilation: int) -> SSAValue:
        """``(n - 1) * dilation + 1`` of a run-time ``index`` size, 0 when
        ``n`` is 0, in ``i64``."""
        b = self.b
        wide = b(arith.IndexCastOp(n, IntegerType(64)))
        if dilation == 1:
            return wide
        gaps = b(arith.MuliOp(b(arith.SubiOp(wide, b.int(1, "i64"))), b.int(dilation, "i64")))
        dilated = b(arith.AddiOp(gaps, b.int(1, "i64")))
        return b.select(b(arith.CmpiOp(wide, b.int(0, "i64"), "eq")), b.int(0, "i64"), dilated)

    def shape(self, v: SSAValue) -> list[int | SSAValue]:
        """The run-time flat shape of tensor ``v``."""
        return [self.size(size_source(v, d)) for d in range(len(flat_type_shape(v.type)))]

    def as_index(self, n: int | SSAValue) -> SSAValue:
        return self.b.index(n) if isinstance(n, int) else n

    def lower_broadcast_size(self, op: bc.BroadcastSizeOp) -> None:
        """The first size that is not 1, else 1 (docs/ir.md): selects from the last size back."""
        b, one = self.b, self.b.index(1)
        source = index_source(op.result)
        if source is not op.result:  # sizes of one source
            self.alias[op.result] = self.as_index(self.size(source))
            return
        sizes = [self.alias[s] for s in op.sizes]
        result = sizes[-1]
        for s in reversed(sizes[:-1]):
            result = b.select(b.cmpi("ne", s, one), s, result)
        self.alias[op.result] = result

    def broadcast_steps(self, op: bc.DynamicBroadcastInDimOp) -> None:
        """Each operand dim that may be 1 or its output size at run time gets
        its index step (``steps``), computed once here, at the function's top
        level: reading ``idx * step`` is a stride of 0 where the size is 1, so
        the loops over the result are the static program's. Dims known
        expanding (or static 1) read index 0, dims known nonexpanding (or
        equal static sizes) the result's index, with no step."""
        operand, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
        for k, d in enumerate(op.dims):
            if self.steps_needed(op, operand, result, k, d):
                n = self.shape(op.operand)[k]
                is_one = self.b.cmpi("eq", n, self.b.index(1))
                self.steps[op, k] = self.b.select(is_one, self.b.index(0), self.b.index(1))

    @staticmethod
    def steps_needed(op: bc.DynamicBroadcastInDimOp, operand: rules.Shape, result: rules.Shape,
                     k: int, d: int) -> bool:
        """Whether operand dim ``k`` may be 1 or ``result[d]`` at run time: not
        when a fact, a static size, or one source of both sizes decides it."""
        if k in op.expanding or k in op.nonexpanding or isinstance(operand[k], int):
            return False  # a static size other than 1 never expands: the run-time check says it is the result's
        return size_source(op.operand, k) != size_source(op.result, d)

    def dynamic_broadcast_index(self, op: bc.DynamicBroadcastInDimOp, idx: Index) -> Index:
        operand, b = flat_type_shape(op.operand.type), self.b
        out = []
        for k, d in enumerate(op.dims):
            if k in op.expanding or operand[k] == 1:
                out.append(b.index(0))
            elif (op, k) in self.steps:
                out.append(b(arith.MuliOp(idx[d], self.steps[op, k])))
            else:
                out.append(idx[d])
        return out

    def size_from_tensor(self, op: bc.SizeFromTensorOp) -> SSAValue:
        """The ``index`` a rank-0 integer tensor holds, widened by its
        signedness; the C runtime has checked it is not negative
        (lowering/c_sizes.py), as it computes it at entry too."""
        element = element_of(op.operand.type)
        x = self.value_at(op.operand, [])
        if rules.bit_width(element) < 64:
            x = self.b.cast("arith.extsi" if rules.kind(element) == "signed" else "arith.extui", x, "i64")
        return self.b(arith.IndexCastOp(x, IndexType()))

    def dynamic_reshape_index(self, operand: SSAValue, result: SSAValue, idx: Index) -> Index:
        """``reshape_index`` on run-time sizes: direct where the reshape only
        inserts or removes dims of static size 1 (the other dims of one size
        source each), else through the row-major linear position, divided by
        each operand size (at least 1: a size 0 has no element to read, and
        no division by 0 is ever computed)."""
        b = self.b
        src = [size_source(operand, d) for d in range(len(flat_type_shape(operand.type)))]
        dst = [size_source(result, d) for d in range(len(flat_type_shape(result.type)))]
        direct = unit_dim_index(b, src, dst, idx)
        if direct is not None:
            return direct
        linear = idx[0] if idx else b.index(0)
        for size, i in zip(dst[1:], idx[1:]):
            linear = b(arith.AddiOp(b(arith.MuliOp(linear, self.as_index(self.size(size)))), i))
        out = []
        for size in reversed(src[1:]):
            n = self.size(size)
            n = b.index(max(n, 1)) if isinstance(n, int) else b.select(b.cmpi("eq", n, b.index(0)), b.index(1), n)
            out.append(b(arith.RemUIOp(linear, n)))
            linear = b(arith.DivUIOp(linear, n))
        return ([linear] if src else []) + out[::-1]

    def computed_inline(self, op: Operation) -> bool:
        """An unfused elementwise op of a dynamic function (a pipeline without
        bcast-fuse; bcast-fuse fuses dynamic functions too) read once per element by its only user, another elementwise
        op or a reduce, is computed in that user's nest rather than stored:
        chains such as ``tanh(x + row)`` run as one loop nest, as fused."""
        if not isinstance(op, bc.ElementwiseOp | bc.ConversionOp) or not rules.is_dynamic(
                flat_type_shape(op.results[0].type)):
            return False
        return self.read_once(op.results[0])

    def read_once(self, v: SSAValue) -> bool:
        """Whether ``v`` (not returned) is read once per element of its only
        user (sizes read by ``bcast.dim`` aside): an elementwise op, a
        reduce, or a ``dynamic_broadcast_in_dim`` that keeps every dim in
        place (a row of it stretches only when it is the only row) whose
        result is read once in turn."""
        uses = [use.operation for use in v.uses if not isinstance(use.operation, bc.DimOp)]
        if len(uses) != 1 or v in self.destination:
            return False
        user = uses[0]
        if isinstance(user, bc.DynamicBroadcastInDimOp):
            return user.dims == tuple(range(len(flat_type_shape(user.result.type)))) and self.read_once(user.result)
        return isinstance(user, bc.ElementwiseOp | bc.ConversionOp | bc.ReduceOp)

    # -- buffers -------------------------------------------------------------
    def buffer(self, v: SSAValue, element: str | None = None) -> SSAValue:
        """Where ``v`` is written: the caller's result buffer when ``v`` is
        returned, else a new allocation freed at the end. (Reads of ``v``
        load it only after :meth:`written`.)"""
        if v in self.destination and element is None:
            target = self.destination[v]
        else:
            t = memref_of(v.type)
            if element is not None:
                t = MemRefType(storage_type(element), memref_shape(flat_type_shape(v.type)))
            dynamic = [n for n in self.shape(v) if isinstance(n, SSAValue)]
            target = self.b(memref.AllocOp(dynamic, [], t))
            self.owned.append(target)
        return target

    def written(self, v: SSAValue, target: SSAValue, wide: bool = False) -> None:
        """From now on ``v`` is read from ``target``."""
        self.stored[v] = Stored(target, wide=wide)

    # -- loops ---------------------------------------------------------------
    @contextmanager
    def nest(self, shape: Sequence[int], parallel: bool | Sequence[bool] = False) -> Iterator[Index]:
        """A loop nest over ``shape`` (none for rank 0); inside it values are
        computed once per element (a fresh memo scope). Loops whose
        iterations write disjoint data (``parallel``, one flag per dim or one
        for all) carry ``PARALLEL_ATTR``."""
        outer = self.b.builder.insertion_point
        ivs: Index = []
        first = None
        flags = [parallel] * len(shape) if isinstance(parallel, bool) else list(parallel)
        for size, is_parallel in zip(shape, flags):
            if size == 1:  # no loop: the only index is 0
                ivs.append(self.b.index(0))
                continue
            block = Block(arg_types=[IndexType()])
            loop = scf.ForOp(self.b.index(0), self.as_index(size), self.b.index(1), [], Region(block))
            if is_parallel:
                loop.attributes[PARALLEL_ATTR] = UnitAttr()
            self.b.builder.insert(loop)
            first = first or loop
            block.add_op(scf.YieldOp())
            self.b.builder.insertion_point = InsertPoint.before(block.last_op)
            ivs.append(block.args[0])
        self.scopes.append({})
        try:
            yield ivs
        finally:
            self.scopes.pop()
            if first is not None:
                self.b.builder.insertion_point = outer

    # -- values at an index --------------------------------------------------
    def value_at(self, v: SSAValue, idx: Index) -> SSAValue:
        """The scalar value of ``v`` at ``idx`` (a load, a constant, or the
        computation of its defining op on its operands' values).

        Chains of ops are as deep as the program, so this does not recurse:
        each op's computation (``compute_at``) is a generator that yields the
        (value, index) pairs it reads and is sent their values, driven from an
        explicit stack in the order a recursive walk would take (the loop IR
        is the same)."""
        stack: list[tuple[Generator, tuple]] = []
        request: tuple[SSAValue, Index] | None = (v, idx)
        value: SSAValue | None = None
        while True:
            if request is not None:  # a value is needed: known, or computed now
                key = (self.alias.get(request[0], request[0]), tuple(request[1]))
                value = self.computed(key)
                if value is None:
                    stack.append((self.compute_at(key[0], request[1]), key))
                elif not stack:
                    return value
            computation, key = stack[-1]
            try:
                request = computation.send(value)
                value = None
            except StopIteration as finished:
                stack.pop()
                self.scopes[-1][key] = finished.value
                if not stack:
                    return finished.value
                request, value = None, finished.value

    def computed(self, key: tuple) -> SSAValue | None:
        """The value of ``key`` (a value and an index) already computed in an
        enclosing scope: a nest computes each value once per element."""
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        return None

    def compute_at(self, v: SSAValue, idx: Index) -> Generator[tuple[SSAValue, Index], SSAValue, SSAValue]:
        """The ops computing ``v`` at ``idx``; yields each (operand, index)
        whose value it needs (``value_at`` sends it back)."""
        b = self.b
        if v in self.stored:
            s = self.stored[v]
            x = b(memref.LoadOp.get(s.memref, idx[s.rows_dropped:]))
            if s.bits is not None:
                x = b(arith.BitcastOp(x, s.bits))
            return b(arith.TruncFOp(x, storage_type(element_of(v.type)))) if s.wide else x
        if v in self.splat:
            return b.const(self.splat[v], element_of(v.type))
        op = v.owner
        assert isinstance(op, Operation), f"no value for block argument {v}"
        if isinstance(op, bc.BroadcastInDimOp):
            return (yield op.operand, broadcast_index(b, flat_type_shape(op.operand.type), op.dims, idx))
        if isinstance(op, bc.DynamicBroadcastInDimOp):
            return (yield op.operand, self.dynamic_broadcast_index(op, idx))
        if isinstance(op, bc.TransposeOp):
            return (yield op.operand, transpose_index(op.perm, idx))
        if isinstance(op, bc.ReverseOp):
            return (yield op.operand, reverse_index(b, self.shape(op.operand), op.dims, idx))
        if isinstance(op, bc.SliceOp):
            return (yield op.operand, slice_index(b, op.starts, op.steps, idx))
        if isinstance(op, bc.IotaOp | bc.DynamicIotaOp):
            return iota_at(b, op.dim, element_of(op.result.type), idx)
        if isinstance(op, bc.DynamicReshapeOp):
            return (yield op.operand, self.dynamic_reshape_index(op.operand, op.result, idx))
        if isinstance(op, bc.SetDimensionSizeOp):
            return (yield op.operand, idx)  # the first entries along its dim, at their own index
        if isinstance(op, bc.SizeToTensorOp):
            return b(arith.IndexCastOp(self.alias[op.size], storage_type(element_of(op.result.type))))
        if isinstance(op, bc.ReshapeOp) and op in self.derived_for:
            return (yield op.operand, self.dynamic_reshape_index(op.operand, op.result, idx))
        if isinstance(op, bc.ReshapeOp | bc.NarrowOp):
            src = flat_type_shape(op.operand.type)
            return (yield op.operand, reshape_index(b, src, flat_type_shape(op.result.type), idx))
        if isinstance(op, bc.ExtractOp):
            return (yield op.operand, self.indices(op) + idx)
        if isinstance(op, bc.DynamicSliceOp):
            return (yield op.operand, offset_index(b, self.dynamic_starts(op, op.sizes), idx))
        if isinstance(op, bc.GatherOp):
            at = yield from self.gather_index(op, idx)
            return (yield op.operand, at)
        if isinstance(op, bc.ElementwiseOp | bc.ConversionOp):
            args = []
            for o in op.operands:
                args.append((yield o, idx))
            return scalar_op(op, b, args)
        raise PassError(op, "cannot be lowered to an index expression")

    def indices(self, op: bc.IndexingOp) -> Index:
        """The indices of ``op`` as ``index`` values: ``rules.plan_indices``'
        normalised literal ones as constants, and each dynamic one after a
        bounds check (``cf.assert`` marked ``BOUNDS_CHECK_ATTR``). The checks
        are made the first time, where the op is lowered: at the function's
        top level, before any loop that reads the indices."""
        if op in self.checked:
            return self.checked[op]
        shape = flat_type_shape(op.indexed.type)
        semantics = semantics_of(op)
        plan = op.index_plan()
        given = op.mixed_indices()
        indices = []
        for dim, index in enumerate(plan.indices):
            if index is not None:
                indices.append(self.b.index(index))
                continue
            i = self.alias.get(given[dim], given[dim])
            ok = self.b(arith.CmpiOp(i, self.b.index(shape[dim]), "ult"))
            check = cf.AssertOp(ok, f"{op.name}: index {dim} out of bounds for dimension {dim} of size "
                                    f"{shape[dim]}")
            check.attributes[BOUNDS_CHECK_ATTR] = DictionaryAttr({
                "op": StringAttr(op.name), "dim": IntegerAttr(dim, 64), "size": IntegerAttr(shape[dim], 64),
                "iab": BoolAttr(semantics == "tml", IntegerType(1))})
            check.location = op.location
            self.b(check)
            indices.append(i)
        self.checked[op] = indices
        return indices

    def dynamic_starts(self, op: bc.DynamicSliceOp | bc.DynamicUpdateSliceOp,
                       sizes: Sequence[int | SSAValue]) -> Index:
        """The start indices of a dynamic slice as ``index`` values, clamped
        into ``[0, dim - size]`` (docs/ir.md): extended to ``i64`` by the
        index's signedness, then ``maxsi`` 0 and ``minsi`` ``dim - size``
        (a ``ui64`` index: ``minui`` alone, which reads it unsigned), so no
        index value reads or writes out of bounds. Computed once, where the
        op is lowered (at the function's top level, before its nests); a
        block as large as its dim starts at constant 0."""
        if op in self.checked:
            return self.checked[op]
        b, starts, clamped = self.b, [], {}
        for v, size, n in zip(op.start_indices, sizes, self.shape(op.operand)):
            if size == n:
                starts.append(b.index(0))
                continue
            # a run-time size is at least ``size`` (checked before: make-explicit's shape_assertion)
            if isinstance(n, int) and isinstance(size, int):
                high = n - size
            else:
                high = b(arith.SubiOp(self.as_index(n), self.as_index(size))) if size != 0 else n
            if (v, high) in clamped:  # one start for several dims of one bound
                starts.append(clamped[v, high])
                continue
            starts.append(clamped_index(b, self.value_at(v, []), element_of(v.type), high))
            clamped[v, high] = starts[-1]
        self.checked[op] = starts
        return starts

    def gather_index(self, op: bc.GatherOp, idx: Index) -> Generator[tuple[SSAValue, Index], SSAValue, Index]:
        """The operand index ``gather`` reads at result index ``idx``
        (StableHLO's spec; ``numerics.gather_positions`` vectorised): per
        start dim the index vector's component read at the batch index,
        clamped (``clamped_index``), plus the offset index on a kept dim or
        the batch index on a batching dim. The starts are read per element:
        the loop over the slice reloads them, which a C compiler hoists."""
        b, dims = self.b, op.dims
        shape, sizes = self.shape(op.operand), op.sizes
        vector_dim, rank = dims.index_vector_dim, len(flat_type_shape(op.start_indices.type))
        batch = [i for a, i in enumerate(idx) if a not in dims.offset_dims]
        at: Index = [b.index(0)] * len(shape)
        for k, d in enumerate(dims.start_index_map):
            if sizes[d] == shape[d]:
                continue  # the start clamps to 0
            vector_at = [*batch[:vector_dim], b.index(k), *batch[vector_dim:]] if vector_dim < rank else batch
            start = yield op.start_indices, vector_at
            # a run-time size is at least the slice's (checked before: make-explicit's shape_assertion)
            high = shape[d] - sizes[d] if isinstance(shape[d], int) else b(arith.SubiOp(shape[d], b.index(sizes[d])))
            at[d] = clamped_index(b, start, element_of(op.start_indices.type), high)
        for d, axis in zip(dims.window_dims(len(shape)), dims.offset_dims):
            at[d] = idx[axis] if d not in dims.start_index_map else b(arith.AddiOp(at[d], idx[axis]))
        for d, index_dim in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
            at[d] = batch[index_dim - (index_dim > vector_dim)]
        return at

    def store_nest(self, values: Sequence[SSAValue], targets: Sequence[SSAValue], shape, lead: Index = ()) -> None:
        """One nest over ``shape`` storing each value (read at ``lead + idx``)
        into its target."""
        with self.nest(shape, parallel=True) as ivs:
            idx = [*lead, *ivs]
            for v, target in zip(values, targets):
                self.b(memref.StoreOp.get(self.value_at(v, idx), target, idx))

    def materialize(self, v: SSAValue) -> None:
        target = self.buffer(v)
        self.store_nest([v], [target], self.shape(v))
        self.written(v, target)  # later reads load it: the op is computed once

    # -- ops -----------------------------------------------------------------
    def lower_op(self, op: Operation) -> None:
        for inner in op.walk() if isinstance(op, FusionOp) else [op]:
            if inner in self.lowering.region_checks:
                self.size_check(inner)
        if isinstance(op, bc.ReshapeOp) and has_dynamic_types(op):
            self.derive_sizes(op)  # here, at the top level, even for a reshape read as a view
        if isinstance(op, func.ReturnOp):
            self.lower_return(op)
        elif isinstance(op, FusionOp):
            self.lower_fusion(op)
        elif isinstance(op, bc.ConstantOp):
            self.lower_constant(op)
        elif isinstance(op, bc.ReduceOp):
            self.lower_reduce(op)
        elif isinstance(op, bc.ConcatenateOp):
            self.lower_concatenate(op)
        elif isinstance(op, bc.PadOp):
            self.lower_pad(op)
        elif isinstance(op, bc.ArgReduceOp):
            self.lower_arg_reduce(op)
        elif isinstance(op, bc.CumulativeOp):
            self.lower_cumulative(op)
        elif isinstance(op, bc.SortOp):
            self.lower_sort(op)
        elif isinstance(op, bc.ReduceWindowOp):
            self.derive_sizes(op)  # the ``?`` dims its windows span
            self.lower_reduce_window(op)
        elif isinstance(op, bc.ReduceWindowBodyOp):
            self.derive_sizes(op)
            self.lower_reduce_window_body(op)
        elif isinstance(op, bc.DotGeneralOp):
            self.lower_dot_general(op)
        elif isinstance(op, bc.ConvolutionOp | bc.DynamicConvOp):
            self.derive_sizes(op)  # its ``?`` spatial sizes (none: nothing)
            self.lower_convolution(op)
        elif isinstance(op, bc.TriangularSolveOp):
            self.lower_triangular_solve(op)
        elif isinstance(op, bc.LuOp):
            self.lower_lu(op)
        elif isinstance(op, bc.CholeskyOp):
            self.lower_cholesky(op)
        elif reads_as_view(op):
            return  # its contraction reads it through its index expression
        elif isinstance(op, bc.AssignOp):
            self.lower_assign(op)
        elif isinstance(op, bc.DynamicUpdateSliceOp):
            self.lower_dynamic_update_slice(op)
        elif isinstance(op, bc.DynamicSliceOp):
            self.dynamic_starts(op, op.sizes)  # clamped here, before the nest
            self.materialize(op.result)
        elif isinstance(op, bc.ScatterOp):
            self.lower_scatter(op)
        elif isinstance(op, bc.GatherOp):  # a fusion boundary: its starts are read per element
            self.materialize(op.result)
        elif isinstance(op, func.CallOp):
            self.lower_call(op)
        elif isinstance(op, bc.DimOp):
            self.alias[op.result] = self.as_index(self.shape(op.operand)[op.dim])
        elif isinstance(op, bc.BroadcastSizeOp):
            self.lower_broadcast_size(op)
        elif isinstance(op, bc.CheckBroadcastableOp | bc.ShapeAssertionOp):
            return  # the C runtime checks it before the call (lowering/c_sizes.py)
        elif isinstance(op, bc.SizeFromTensorOp):
            self.alias[op.result] = self.size_from_tensor(op)
        elif isinstance(op, bc.DynamicBroadcastInDimOp):
            self.broadcast_steps(op)
            if op.result in self.destination:
                self.materialize(op.result)
        elif self.computed_inline(op):
            if not is_explicit(op) or not same_sizes(op):
                raise PassError(op, "bcast-lower-to-loops needs explicit IR; run bcast-make-explicit first")
        elif isinstance(op, bc.ElementwiseOp | bc.ConversionOp | bc.ExtractOp | bc.BroadcastInDimOp
                        | bc.TransposeOp | bc.ReshapeOp | bc.NarrowOp | bc.ReverseOp | bc.IotaOp
                        | bc.SliceOp | bc.SizeToTensorOp | bc.DynamicReshapeOp | bc.DynamicIotaOp
                        | bc.SetDimensionSizeOp):
            if isinstance(op, bc.ElementwiseOp | bc.ConversionOp):
                if not is_explicit(op) or not same_sizes(op):
                    raise PassError(op, "bcast-lower-to-loops needs explicit IR; run "
                                    "bcast-make-explicit first")
            if isinstance(op, bc.ExtractOp):
                self.indices(op)  # checked here, before the nest
            self.materialize(op.results[0])
        elif isinstance(op, WhileOp):
            lower_while(self, op, self.lowering.outlined[op])
        elif isinstance(op, CaseOp):
            lower_case(self, op, self.lowering.outlined[op])
        else:
            raise PassError(op, "is not supported by bcast-lower-to-loops")

    def size_check(self, op: bc.CheckBroadcastableOp | bc.DynamicBroadcastInDimOp | bc.ShapeAssertionOp) -> None:
        """A check of a control-flow region that its sizes do not prove
        (passes/loops_control_flow.py), made here, where the region's
        function runs, before any nest: ``cf.assert`` marked
        ``SIZE_CHECK_ATTR`` on the op's rule (a ``shape_assertion``: its
        predicate; ``CheckBroadcastableOp.check``:
        the sizes landing on a checked dim are one size, 1s aside unless
        strict; an expansion: each operand dim 1 or its output size, as its
        facts require)."""
        b = self.b
        one = b.index(1)
        oks: list[SSAValue] = []
        if isinstance(op, bc.ShapeAssertionOp):
            oks.append(self.value_at(op.predicate, []))
        elif isinstance(op, bc.CheckBroadcastableOp):
            shapes = [[self.as_index(n) if isinstance(n, int) else self.alias[n] for n in shape]
                      for shape in op.shapes()]
            landing = op.landing_dims()
            for r in op.checked.get_values():
                group = [shapes[i][j] for i, dims in enumerate(landing) for j, d in enumerate(dims) if d == r]
                size = group[0] if op.is_strict else group[-1]
                if not op.is_strict:  # the first size that is not 1, else 1
                    for n in reversed(group[:-1]):
                        size = b.select(b.cmpi("ne", n, one), n, size)
                for n in group:
                    same = b.cmpi("eq", n, size)
                    oks.append(same if op.is_strict else b(arith.OrIOp(b.cmpi("eq", n, one), same)))
        else:
            for k, d in enumerate(op.dims):
                n = self.as_index(self.shape(op.operand)[k])
                want = self.as_index(self.size(size_source(op.result, d)))
                stretches, keeps = b.cmpi("eq", n, one), b.cmpi("eq", n, want)
                oks.append(keeps if k in op.nonexpanding else stretches if k in op.expanding
                           else b(arith.OrIOp(stretches, keeps)))
        if not oks:
            return
        ok = oks[0]
        for other in oks[1:]:
            ok = b(arith.AndIOp(ok, other))
        check = cf.AssertOp(ok, f"{op.name}: run-time sizes break its rule")
        check.attributes[SIZE_CHECK_ATTR] = DictionaryAttr({"op": StringAttr(op.name)})
        check.location = op.location
        b(check)

    def lower_concatenate(self, op: bc.ConcatenateOp) -> None:
        """A fusion boundary: one nest per operand, each writing its operand
        into its part of the result buffer (offset along ``dim`` by the sizes
        of the operands before it, run-time sizes added at the top level);
        nothing is read out of bounds."""
        self.derive_sizes(op)
        b, target, offset = self.b, self.buffer(op.result), 0
        for k, x in enumerate(op.inputs):
            shape = self.shape(x)
            if isinstance(offset, int) and offset == 0:
                self.store_nest([x], [target], shape)
            else:
                start = self.as_index(offset)
                with self.nest(shape, parallel=True) as ivs:
                    at = list(ivs)
                    at[op.dim] = b(arith.AddiOp(ivs[op.dim], start))
                    self.b(memref.StoreOp.get(self.value_at(x, list(ivs)), target, at))
            if k + 1 < len(op.inputs):
                offset = add_sizes(b, offset, shape[op.dim])
        self.written(op.result, target)

    def lower_pad(self, op: bc.PadOp) -> None:
        """A fusion boundary: a nest filling the result with the padding
        value, then one over the operand elements that land in the result
        (those a negative edge crops are not visited), each written at
        ``low + i * (interior + 1)``; on a ``?`` dim the count of those is
        computed at the top level (``pad_kept_count``)."""
        self.derive_sizes(op)
        b, target = self.b, self.buffer(op.result)
        with self.nest(self.shape(op.result), parallel=True) as ivs:
            self.b(memref.StoreOp.get(self.value_at(op.padding_value, []), target, list(ivs)))
        starts, counts = [], []
        for n, lo, hi, gap, size in zip(self.shape(op.operand), op.low, op.high, op.interior,
                                        flat_type_shape(op.result.type)):
            if isinstance(n, int):
                start, stop = pad_kept(n, lo, gap, size)
                starts.append(start)
                counts.append(stop - start)
            else:
                starts.append(pad_kept_start(lo, gap))
                counts.append(pad_kept_count(b, n, starts[-1], hi, gap))
        with self.nest(counts, parallel=True) as ivs:
            src, dst = [], []
            for iv, start, lo, gap in zip(ivs, starts, op.low, op.interior):
                src.append(b(arith.AddiOp(iv, b.index(start))) if start else iv)
                scaled = b(arith.MuliOp(iv, b.index(gap + 1))) if gap else iv
                first = lo + start * (gap + 1)
                dst.append(b(arith.AddiOp(scaled, b.index(first))) if first else scaled)
            self.b(memref.StoreOp.get(self.value_at(op.operand, src), target, dst))
        self.written(op.result, target)

    def lower_dot_general(self, op: bc.DotGeneralOp) -> None:
        """A fusion boundary: a parallel nest over the result (batch dims, then
        ``lhs``'s free dims, then ``rhs``'s) and, inside it, one ``scf.for``
        per contracting dim carrying the sum (``REDUCTION_ATTR``), which
        starts at 0 and adds each product; the operands are read through
        their index expressions, so a broadcast operand is a view
        (``reads_as_view``). ``f16`` multiplies and sums in ``f32`` and
        rounds once; integers wrap."""
        b, dims = self.b, op.dims
        lhs, rhs = self.shape(op.lhs), self.shape(op.rhs)
        element = element_of(op.result.type)
        acc = accumulator(element)
        lhs_free, rhs_free = dims.free(len(lhs), "lhs"), dims.free(len(rhs), "rhs")
        # a ``?`` paired with a static size is that size (checked equal before)
        contracted = [lhs[a] if isinstance(lhs[a], int) else rhs[c] for a, c in zip(dims.lhs_contract, dims.rhs_contract)]
        target = self.buffer(op.result)

        def operand_at(value: SSAValue, rank: int, parts) -> SSAValue:
            idx: Index = [None] * rank  # type: ignore[list-item]
            for positions, ivs in parts:
                for d, i in zip(positions, ivs):
                    idx[d] = i
            x = self.value_at(value, idx)
            return b(arith.ExtFOp(x, storage_type(acc))) if acc != element else x

        gemm = self.gemm_shape(op)
        block = self.b.builder.insertion_point.block
        before = set(block.ops)
        with self.nest(self.shape(op.result), parallel=True) as ivs:
            nb, nl = len(dims.lhs_batch), len(lhs_free)
            batch, left, right = ivs[:nb], ivs[nb:nb + nl], ivs[nb + nl:]

            def accumulate(ks: Index, level: int, current: SSAValue) -> SSAValue:
                if level == len(contracted):
                    x = operand_at(op.lhs, len(lhs), ((dims.lhs_batch, batch), (lhs_free, left),
                                                      (dims.lhs_contract, ks)))  # fmt: skip
                    y = operand_at(op.rhs, len(rhs), ((dims.rhs_batch, batch), (rhs_free, right),
                                                      (dims.rhs_contract, ks)))  # fmt: skip
                    return combine(b, "add", acc, current, bc.MultiplyOp.SCALAR(b, acc, x, y))
                if contracted[level] == 1:
                    return accumulate([*ks, b.index(0)], level + 1, current)

                def body(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    self.scopes.append({})
                    try:
                        return [accumulate([*ks, k], level + 1, carried[0])]
                    finally:
                        self.scopes.pop()

                (total,) = b.for_loop(contracted[level], [current], body)
                total.owner.attributes[REDUCTION_ATTR] = StringAttr("add")
                return total

            total = accumulate([], 0, b.const(0, acc))
            if acc != element:
                total = b(arith.TruncFOp(total, storage_type(element)))
            b(memref.StoreOp.get(total, target, ivs))
        nest = [o for o in block.ops if o not in before and isinstance(o, scf.ForOp)]
        if gemm is not None and len(nest) == 1:
            nest[0].attributes[GEMM_ATTR] = DictionaryAttr(
                {k: (BoolAttr(v, IntegerType(1)) if isinstance(v, bool) else dense_i64(v) if isinstance(v, tuple)
                     else IntegerAttr(v, 64)) for k, v in gemm.items()})  # fmt: skip
        self.written(op.result, target)

    def gemm_shape(self, op: bc.DotGeneralOp) -> dict[str, int | bool] | None:
        """``GEMM_ATTR``'s entries when the contraction is a batch of BLAS
        matrix products: f32/f64 operands held in memory as they are (not
        views, not constants stored as bits), leading batch dims in order
        on both sides, one contracted dim at either end of each operand's
        matrix part (the free dims of a side together make its M or N),
        and no empty dim (BLAS would leave an empty contraction's result
        unwritten); else None.

        ``batch``, ``m``, ``n`` and ``k`` are the products of their static
        sizes; the ``?`` ones are the trip counts of the nest's loops listed
        in ``batch_loops``, ... (depths, outermost 0), present only then:
        the target multiplies them in at run time and runs the nest itself
        when one is 0 (``GEMM_ATTR``)."""
        dims = op.dims
        lhs, rhs = flat_type_shape(op.lhs.type), flat_type_shape(op.rhs.type)
        if element_of(op.result.type) not in ("f32", "f64") or 0 in lhs or 0 in rhs:
            return None
        nb = len(dims.lhs_batch)
        batches = [self.gemm_batch(v, nb) for v in (op.lhs, op.rhs)]
        if any(batch is None for batch in batches):
            return None
        if dims.lhs_batch != tuple(range(nb)) or dims.rhs_batch != dims.lhs_batch or len(dims.lhs_contract) != 1:
            return None
        (lc,), (rc,) = dims.lhs_contract, dims.rhs_contract
        if lc == len(lhs) - 1:
            trans_a = False
        elif lc == nb and len(lhs) == nb + 2:
            trans_a = True
        else:
            return None
        if rc == nb:
            trans_b = False
        elif rc == len(rhs) - 1 and len(rhs) == nb + 2:
            trans_b = True
        else:
            return None
        result = flat_type_shape(op.result.type)
        nl = len(dims.free(len(lhs), "lhs"))
        k = lhs[lc] if isinstance(lhs[lc], int) else rhs[rc]
        depth = {r: n for n, r in enumerate(r for r, size in enumerate(result) if size != 1)}
        gemm: dict[str, int | bool | tuple[int, ...]] = {}
        loops: dict[str, tuple[int, ...]] = {}
        for name, positions in (("batch", range(nb)), ("m", range(nb, nb + nl)), ("n", range(nb + nl, len(result))),
                                ("k", (None,))):  # fmt: skip
            sizes = [(k, len(depth)) if r is None else (result[r], depth.get(r)) for r in positions]
            gemm[name] = rules.element_count(tuple(s for s, _ in sizes if isinstance(s, int)))
            if any(isinstance(s, rules.Dynamic) for s, _ in sizes):
                loops[f"{name}_loops"] = tuple(at for s, at in sizes if isinstance(s, rules.Dynamic))
        views = {}
        if any(view for _, view in batches):  # the dims of each operand's memory its batch dims read, -1: none
            views = {"lhs_batch": batches[0][0], "rhs_batch": batches[1][0]}
        return {**gemm, "trans_a": trans_a, "trans_b": trans_b, **loops, **views}

    def gemm_batch(self, v: SSAValue, nb: int) -> tuple[tuple[int, ...], bool] | None:
        """For a contraction operand ``v`` whose first ``nb`` dims are batch
        dims: the dim of the memory it is read from that each batch dim
        reads (-1: none, the batch broadcasts it) and whether ``v`` is a
        view (its batch dims may then stretch), when that memory holds
        ``v``'s matrix part contiguous, row-major: ``v`` itself stored
        (``range(nb)``), or a broadcast of a stored value (matmul's batch
        dims, ``reads_as_view``) that stretches only batch dims, its matrix
        dims its operand's as they are (docs/c-backend.md, "Contractions":
        a batch dim of size 1, or ``?`` and 1 at run time, is a stride of
        0). None otherwise."""
        def plain(value: SSAValue) -> bool:
            stored = self.stored.get(self.alias.get(value, value))
            return not (stored is None or stored.rows_dropped or stored.wide or stored.bits is not None)

        if plain(v):
            return tuple(range(nb)), False
        view = v.owner
        if not isinstance(view, bc.BroadcastInDimOp | bc.DynamicBroadcastInDimOp) or not plain(view.operand):
            return None
        source, shape = flat_type_shape(view.operand.type), flat_type_shape(v.type)
        matrix = len(shape) - nb
        lead = len(source) - matrix
        if lead < 0 or any(d >= nb for d in view.dims[:lead]):
            return None
        expanding = view.expanding if isinstance(view, bc.DynamicBroadcastInDimOp) else ()
        for k in range(lead, len(source)):
            d = view.dims[k]
            if (d != nb + k - lead or k in expanding or (view, k) in self.steps
                    or (isinstance(source[k], int) and source[k] != shape[d])):
                return None
        batch = [-1] * nb
        for k in range(lead):
            batch[view.dims[k]] = k
        return tuple(batch), True

    def lower_arg_reduce(self, op: bc.ArgReduceOp) -> None:
        """A fusion boundary: a parallel nest over the result, and in it an
        ``scf.for`` along ``dim`` carrying (best value, its index), started
        from the kind's identity and index 0. An element replaces the best
        when strictly beyond it (so the first of ties stays), or when it is
        the first NaN (``arg_replaces``); the index is cast to the result's
        type once, at the end."""
        b, target = self.b, self.buffer(op.result)
        shape = self.shape(op.operand)  # any dim may be ``?`` (a ? reduced one was checked not empty)
        element, index = element_of(op.operand.type), element_of(op.result.type)
        start = b.const(numerics.reduction_identity(op.START_KIND, NUMPY_DTYPES[element])[()].item(), element)
        kept = [n for d, n in enumerate(shape) if d != op.dim]
        with self.nest(kept, parallel=True) as ivs:
            def step(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                best, best_at = carried
                x = self.value_at(op.operand, [*ivs[:op.dim], i, *ivs[op.dim:]])
                take = arg_replaces(b, element, op.STABLEHLO_DIRECTION, x, best)
                return [b.select(take, x, best), b.select(take, i, best_at)]

            self.scopes.append({})
            try:
                _, at = b.for_loop(shape[op.dim], [start, b.index(0)], step)
            finally:
                self.scopes.pop()
            cast = b(arith.IndexCastOp(at, storage_type(index)))
            b(memref.StoreOp.get(cast, target, list(ivs)))
        self.written(op.result, target)

    def lower_cumulative(self, op: bc.CumulativeOp) -> None:
        """A fusion boundary: a parallel nest over the other dims, and in it
        an ``scf.for`` along ``dim`` (backwards with ``reverse``) carrying
        the running fold in the accumulator type (f16 in f32, as ``reduce``),
        storing each step's value converted back to the element type."""
        b, target = self.b, self.buffer(op.result)
        shape = self.shape(op.operand)
        element = element_of(op.operand.type)
        acc = accumulator(element)
        n = shape[op.dim]
        identity = b.const(numerics.reduction_identity(op.kind_name, NUMPY_DTYPES[acc])[()].item(), acc)
        others = [m for d, m in enumerate(shape) if d != op.dim]
        with self.nest(others, parallel=True) as ivs:
            def step(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                last = b.index(n - 1) if isinstance(n, int) else b(arith.SubiOp(n, b.index(1)))
                at = b(arith.SubiOp(last, i)) if op.is_reverse else i
                idx = [*ivs[:op.dim], at, *ivs[op.dim:]]
                x = self.value_at(op.operand, idx)
                x = scalar.convert(b, element, acc, x)
                total = combine(b, op.kind_name, acc, carried[0], x)
                b(memref.StoreOp.get(scalar.convert(b, acc, element, total), target, idx))
                return [total]

            self.scopes.append({})
            try:
                b.for_loop(n, [identity], step)
            finally:
                self.scopes.pop()
        self.written(op.result, target)

    def lower_triangular_solve(self, op: bc.TriangularSolveOp) -> None:
        """A fusion boundary, ``numerics.triangular_solve``'s scheme as loops
        (a right solve is a left solve with ``a`` transposed): a parallel
        nest over the batch dims; in it an ``scf.for`` over the rows in
        substitution order, and per row: ``b``'s row copied, one loop over
        the rows solved before it (row ``j``'s terms subtracted across the
        right-hand sides: contiguous, so it vectorizes, for a left solve),
        then a division by the diagonal (none with ``unit_diagonal``).
        ``f16`` is computed and held in ``f32`` (a wide buffer, rounded once
        by its readers), as ``reduce`` holds its sums."""
        b = self.b
        element = element_of(op.b.type)
        acc = accumulator(element)
        wide = acc != element
        target = self.buffer(op.result, acc if wide else None)
        left, lower, unit, transpose = op.flags
        flip = (transpose != "NO_TRANSPOSE") != (not left)
        forward = lower != flip
        shape = self.shape(op.b)
        n, cols = (shape[-2], shape[-1]) if left else (shape[-1], shape[-2])
        last = b.index(n - 1)

        def load(v: SSAValue, idx: Index) -> SSAValue:
            return scalar.convert(b, element, acc, self.value_at(v, idx))

        def scoped(body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]]):
            def run(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                self.scopes.append({})  # values read in a loop body stay in it
                try:
                    return body(k, carried)
                finally:
                    self.scopes.pop()
            return run

        with self.nest(shape[:-2], parallel=True) as ivs:
            batch = list(ivs)
            at = (lambda i, c: [*batch, i, c]) if left else (lambda i, c: [*batch, c, i])  # noqa: E731
            m_at = (lambda i, j: [*batch, j, i]) if flip else (lambda i, j: [*batch, i, j])  # noqa: E731
            in_order = (lambda k: k) if forward else (lambda k: b(arith.SubiOp(last, k)))  # noqa: E731

            @scoped
            def row(k: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
                i = in_order(k)
                with self.nest([cols]) as (c,):
                    b(memref.StoreOp.get(load(op.b, at(i, c)), target, at(i, c)))

                @scoped
                def term(t: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
                    j = in_order(t)  # the k rows solved before row i
                    coefficient = load(op.a, m_at(i, j))
                    with self.nest([cols]) as (c,):
                        x = b(memref.LoadOp.get(target, at(j, c)))
                        current = b(memref.LoadOp.get(target, at(i, c)))
                        product = b.apply("arith.mulf", coefficient, x)
                        b(memref.StoreOp.get(b.apply("arith.subf", current, product), target, at(i, c)))
                    return []

                b.for_loop(k, [], term)
                if not unit:
                    diagonal = load(op.a, m_at(i, i))
                    with self.nest([cols]) as (c,):
                        current = b(memref.LoadOp.get(target, at(i, c)))
                        b(memref.StoreOp.get(b.apply("arith.divf", current, diagonal), target, at(i, c)))
                return []

            self.scopes.append({})
            try:
                b.for_loop(n, [], row)
            finally:
                self.scopes.pop()
        self.written(op.result, target, wide)

    def scoped_body(self, body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]]):
        """``body`` of an ``scf.for`` run in a memo scope of its own (values
        read in a loop body stay in it)."""
        def run(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            self.scopes.append({})
            try:
                return body(k, carried)
            finally:
                self.scopes.pop()
        return run

    def after(self, j: SSAValue, t: SSAValue) -> SSAValue:
        """The index ``j + 1 + t``: a loop from 0 over what follows ``j``."""
        b = self.b
        return b(arith.AddiOp(b(arith.AddiOp(j, b.index(1))), t))

    def lower_lu(self, op: bc.LuOp) -> None:
        """A fusion boundary, ``numerics.lu``'s steps as loops: a parallel
        nest over the batch dims; in it the matrix copied into the factors'
        buffer, then an ``scf.for`` over the ``min(m, n)`` steps carrying
        ``info``. Step ``j``: a loop down column ``j`` carrying (largest
        ``|x|``, its row), replaced only by a strictly larger one (the first
        of ties stays; a NaN never replaces, as LAPACK's reference
        ``i?amax``); the pivot stored 1-based; rows ``j`` and the pivot's
        swapped; then per row below, its multiplier (divided by the pivot,
        unless it is zero) and the row update along the contiguous row,
        which the C compiler vectorizes."""
        b = self.b
        element = element_of(op.a.type)
        factors, pivots, info = (self.buffer(r) for r in op.results)
        shape = self.shape(op.a)
        m, n = shape[-2], shape[-1]
        i32 = IntegerType(32)
        with self.nest(shape[:-2], parallel=True) as ivs:
            batch = list(ivs)

            def load(i: SSAValue, c: SSAValue) -> SSAValue:
                return b(memref.LoadOp.get(factors, [*batch, i, c]))

            def store(x: SSAValue, i: SSAValue, c: SSAValue) -> None:
                b(memref.StoreOp.get(x, factors, [*batch, i, c]))

            with self.nest([m, n]) as (i, c):
                store(self.value_at(op.a, [*batch, i, c]), i, c)

            def step(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                below = b(arith.SubiOp(b.index(m - 1), j))

                def scan(t: SSAValue, best: list[SSAValue]) -> list[SSAValue]:
                    i = self.after(j, t)
                    size = b.apply("math.absf", load(i, j))
                    beyond = b.cmpf("ogt", size, best[0])
                    return [b.select(beyond, size, best[0]), b.select(beyond, i, best[1])]

                _, p = b.for_loop(below, [b.apply("math.absf", load(j, j)), j], self.scoped_body(scan))
                one_based = b(arith.IndexCastOp(b(arith.AddiOp(p, b.index(1))), i32))
                b(memref.StoreOp.get(one_based, pivots, [*batch, j]))
                with self.nest([n]) as (c,):
                    x, y = load(j, c), load(p, c)
                    store(y, j, c)
                    store(x, p, c)
                pivot = load(j, j)
                zero = b.cmpf("oeq", pivot, b.float(0.0, element))
                first = b.apply("arith.andi", zero, b.cmpi("eq", carried[0], b.int(0, "i32")))
                place = b(arith.IndexCastOp(b(arith.AddiOp(j, b.index(1))), i32))

                def row(t: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
                    i = self.after(j, t)
                    x = load(i, j)
                    multiplier = b.select(zero, x, b.apply("arith.divf", x, pivot))
                    store(multiplier, i, j)

                    def update(u: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
                        c = self.after(j, u)
                        store(b.apply("arith.subf", load(i, c), b.apply("arith.mulf", multiplier, load(j, c))), i, c)
                        return []

                    b.for_loop(b(arith.SubiOp(b.index(n - 1), j)), [], self.scoped_body(update))
                    return []

                b.for_loop(below, [], self.scoped_body(row))
                return [b.select(first, place, carried[0])]

            self.scopes.append({})
            try:
                (status,) = b.for_loop(min(m, n), [b.int(0, "i32")], step)
            finally:
                self.scopes.pop()
            b(memref.StoreOp.get(status, info, batch))
        for r, target in zip(op.results, (factors, pivots, info)):
            self.written(r, target)

    def lower_cholesky(self, op: bc.CholeskyOp) -> None:
        """A fusion boundary, ``numerics.cholesky``'s columns as loops (the
        upper factor is the lower one with the two indices swapped): a
        parallel nest over the batch dims; in it the matrix copied into the
        factor's buffer, then an ``scf.for`` over the columns carrying
        ``info``. Column ``j``: the sum of squares of row ``j`` so far
        subtracted from the diagonal; if that is not positive (or NaN, or a
        column before failed) nothing changes but the diagonal of the
        failing column and ``info``, by selects (the loop IR has no branch);
        else the diagonal's square root, and per row below a loop
        subtracting the products of the rows so far, then the division."""
        b = self.b
        element = element_of(op.a.type)
        factor, info = (self.buffer(r) for r in op.results)
        shape = self.shape(op.a)
        n = shape[-1]
        i32 = IntegerType(32)
        lower = op.is_lower
        with self.nest(shape[:-2], parallel=True) as ivs:
            batch = list(ivs)
            with self.nest([n, n]) as (i, c):
                b(memref.StoreOp.get(self.value_at(op.a, [*batch, i, c]), factor, [*batch, i, c]))
            at = (lambda i, c: [*batch, i, c]) if lower else (lambda i, c: [*batch, c, i])  # noqa: E731

            def load(i: SSAValue, c: SSAValue) -> SSAValue:
                return b(memref.LoadOp.get(factor, at(i, c)))

            def store(x: SSAValue, i: SSAValue, c: SSAValue) -> None:
                b(memref.StoreOp.get(x, factor, at(i, c)))

            def column(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                def square(t: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                    x = load(j, t)
                    return [b.apply("arith.addf", acc[0], b.apply("arith.mulf", x, x))]

                (squares,) = b.for_loop(j, [b.float(0.0, element)], self.scoped_body(square))
                diagonal = load(j, j)
                d = b.apply("arith.subf", diagonal, squares)
                running = b.cmpi("eq", carried[0], b.int(0, "i32"))
                good = b.apply("arith.andi", running, b.cmpf("ogt", d, b.float(0.0, element)))
                fails = b.apply("arith.andi", running, b.cmpf("ule", d, b.float(0.0, element)))
                root = b.apply("math.sqrt", b.select(good, d, b.float(1.0, element)))
                store(b.select(good, root, b.select(fails, d, diagonal)), j, j)

                def row(t: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
                    i = self.after(j, t)

                    def term(u: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                        return [b.apply("arith.subf", acc[0], b.apply("arith.mulf", load(i, u), load(j, u)))]

                    x = load(i, j)
                    (v,) = b.for_loop(j, [x], self.scoped_body(term))
                    store(b.select(good, b.apply("arith.divf", v, root), x), i, j)
                    return []

                b.for_loop(b(arith.SubiOp(b.index(n - 1), j)), [], self.scoped_body(row))
                place = b(arith.IndexCastOp(b(arith.AddiOp(j, b.index(1))), i32))
                return [b.select(fails, place, carried[0])]

            self.scopes.append({})
            try:
                (status,) = b.for_loop(n, [b.int(0, "i32")], column)
            finally:
                self.scopes.pop()
            b(memref.StoreOp.get(status, info, batch))
        self.written(op.results[0], factor)
        self.written(op.results[1], info)

    def lower_sort(self, op: bc.SortOp) -> None:
        """A fusion boundary: a parallel nest over the other dims, and per
        row a stable bottom-up merge sort of the positions ``0..n-1`` (as
        ``i64`` in two scratch rows, merged from one into the other, pass by
        pass: ``ceil(log2 n)`` passes, unrolled where ``n`` is static,
        ``run_time_merge_passes`` where it is ``?``) by the row's keys
        (``scalar.sort_key`` of each key, computed once per element into a
        row of its own, so a comparison is integer compares), then the
        values read at the sorted positions (``merge_pass`` says how a pass
        merges)."""
        b, target = self.b, self.buffer(op.result)
        shape = self.shape(op.values)
        n = shape[op.dim]
        self.written(op.result, target)
        if 0 in shape:
            return
        elements = [element_of(key.type) for key in op.keys]
        radix = isinstance(n, int) and n >= RADIX_SORT_MIN
        key_types = [radix_key_type(e) if radix else storage_type(scalar.sort_key_element(e)) for e in elements]
        i64 = IntegerType(64)
        others = [m for d, m in enumerate(shape) if d != op.dim]
        with self.nest(others, parallel=True) as ivs:
            at = lambda k: [*ivs[:op.dim], k, *ivs[op.dim:]]  # noqa: E731
            sizes, row = ([n], [DYNAMIC_INDEX]) if isinstance(n, SSAValue) else ([], [n])
            rows = [b(memref.AllocOp(sizes, [], MemRefType(i64, row))) for _ in range(2)]
            keys = [b(memref.AllocOp(sizes, [], MemRefType(t, row))) for t in key_types]

            def start(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                for key, row, element, order in zip(op.keys, keys, elements, op.orders):
                    value = scalar.sort_key(b, element, self.value_at(key, at(k)), order[1])
                    if radix:
                        value = self.radix_key(value, scalar.sort_key_element(element), order[0])
                    b(memref.StoreOp.get(value, row, [k]))
                b(memref.StoreOp.get(b(arith.IndexCastOp(k, i64)), rows[0], [k]))
                return []

            self.in_loop(n, start)
            if isinstance(n, SSAValue):
                self.run_time_merge_passes(op, elements, keys, rows, b(arith.IndexCastOp(n, i64)))
            if radix:
                self.radix_passes(keys, rows, n)
            width = 1
            while isinstance(n, int) and not radix and width < n:
                self.merge_pass(op, elements, keys, rows[0], rows[1], n, width)
                rows.reverse()
                width *= 2

            def finish(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                position = b(arith.IndexCastOp(b(memref.LoadOp.get(rows[0], [k])), IndexType()))
                b(memref.StoreOp.get(self.value_at(op.values, at(position)), target, at(k)))
                return []

            self.in_loop(n, finish)
            for scratch in (*rows, *keys):
                b(memref.DeallocOp.get(scratch))

    def in_loop(self, trips: int | SSAValue, body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]],
                inits: Sequence[SSAValue] = ()) -> list[SSAValue]:
        """``Scalars.for_loop`` with a memo scope of its own: a value computed
        in the body is not reused after it."""
        self.scopes.append({})
        try:
            return self.b.for_loop(trips, list(inits), body)
        finally:
            self.scopes.pop()

    def radix_key(self, key: SSAValue, element: str, descending: bool) -> SSAValue:
        """A sort key (``scalar.sort_key``, of ``element``) as an unsigned
        integer of ``radix_key_type``'s width that orders the same way: a
        boolean widened to a byte, a signed key's sign bit flipped; all its
        bits flipped when ``descending`` (the order reversed, ties kept)."""
        b = self.b
        width = radix_key_type(element).width.data
        if rules.kind(element) == "bool":
            key = b.cast("arith.extui", key, f"i{width}")
        elif rules.kind(element) == "signed":
            key = b.apply("arith.xori", key, b.int(1 << (width - 1), f"i{width}"))
        if descending:
            key = b.apply("arith.xori", key, b.int(-1, f"i{width}"))
        return key

    def radix_passes(self, keys: Sequence[SSAValue], rows: list[SSAValue], n: int) -> None:
        """A stable least-significant-digit radix sort of the positions in
        ``rows[0]`` by the ``radix_key`` rows ``keys`` (the last key first,
        each from its lowest byte up, so the first key's highest byte
        decides last: the lexicographic order, and ties keep their order as
        each pass is stable). A pass counts the byte values (``count``, 256
        entries; in the keys' own order, which the counts do not depend
        on), turns the counts into starts, then moves each position to
        its byte's next place; ``rows`` end swapped by the number of passes,
        so ``rows[0]`` holds the sorted positions."""
        b = self.b
        i64 = IntegerType(64)
        count = b(memref.AllocOp([], [], MemRefType(i64, [256])))
        zero, one = b.int(0, "i64"), b.int(1, "i64")
        for key in reversed(keys):
            width = key.type.element_type.width.data
            for shift in range(0, width, 8):
                source, dest = rows

                def digit(place: SSAValue, key: SSAValue = key, width: int = width, shift: int = shift) -> SSAValue:
                    """The byte of the key of the element at ``place`` (an index)."""
                    value = b(memref.LoadOp.get(key, [place]))
                    byte = b.apply("arith.andi", b.apply("arith.shrui", value, b.int(shift, f"i{width}")),
                                   b.int(255, f"i{width}"))
                    wide = byte if width == 64 else b.cast("arith.extui", byte, "i64")
                    return b(arith.IndexCastOp(wide, IndexType()))

                def clear(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    b(memref.StoreOp.get(zero, count, [k]))
                    return []

                def histogram(k: SSAValue, carried: list[SSAValue], digit=digit) -> list[SSAValue]:
                    d = digit(k)  # counts do not depend on the order: the keys in place
                    b(memref.StoreOp.get(b(arith.AddiOp(b(memref.LoadOp.get(count, [d])), one)), count, [d]))
                    return []

                def starts(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    c = b(memref.LoadOp.get(count, [k]))
                    b(memref.StoreOp.get(carried[0], count, [k]))
                    return [b(arith.AddiOp(carried[0], c))]

                def scatter(k: SSAValue, carried: list[SSAValue], source: SSAValue = source, dest: SSAValue = dest,
                            digit=digit) -> list[SSAValue]:
                    position = b(memref.LoadOp.get(source, [k]))
                    d = digit(b(arith.IndexCastOp(position, IndexType())))
                    place = b(memref.LoadOp.get(count, [d]))
                    b(memref.StoreOp.get(position, dest, [b(arith.IndexCastOp(place, IndexType()))]))
                    b(memref.StoreOp.get(b(arith.AddiOp(place, one)), count, [d]))
                    return []

                self.in_loop(256, clear)
                self.in_loop(n, histogram)
                self.in_loop(256, starts, [zero])
                self.in_loop(n, scatter)
                rows.reverse()
        b(memref.DeallocOp.get(count))

    def run_time_merge_passes(self, op: bc.SortOp, elements: Sequence[str], keys: Sequence[SSAValue],
                              rows: Sequence[SSAValue], n: SSAValue) -> None:
        """The merge passes of a ``?`` sorted dim of ``n`` (``i64``) places:
        their count ``ceil(log2 n)`` counted at run time (the ``k < 63``
        with ``2**k < n``), then a loop of pass pairs, widths ``4**p`` from
        ``rows[0]`` into ``rows[1]`` and twice that back, so the sorted
        positions end in ``rows[0]``; an odd count's last pass has a width
        of at least ``n``, one run: a copy."""
        b = self.b
        i64 = IntegerType(64)
        one, zero = b.int(1, "i64"), b.int(0, "i64")

        def count(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            below = b.cmpi("ult", b.apply("arith.shli", one, b(arith.IndexCastOp(k, i64))), n)
            return [b(arith.AddiOp(carried[0], b.select(below, one, zero)))]

        (passes,) = self.in_loop(63, count, [zero])
        pairs = b(arith.IndexCastOp(b.apply("arith.shrui", b(arith.AddiOp(passes, one)), one), IndexType()))

        def pair_of_passes(p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            width = b.apply("arith.shli", one, b(arith.MuliOp(b(arith.IndexCastOp(p, i64)), b.int(2, "i64"))))
            self.merge_pass(op, elements, keys, rows[0], rows[1], n, width)
            self.merge_pass(op, elements, keys, rows[1], rows[0], n, b.apply("arith.shli", width, one))
            return []

        self.in_loop(pairs, pair_of_passes)

    def merge_pass(self, op: bc.SortOp, elements: Sequence[str], keys: Sequence[SSAValue], source: SSAValue,
                   dest: SSAValue, n: int | SSAValue, width: int | SSAValue) -> None:
        """One pass of the merge sort: each pair of sorted runs ``[lo, mid)``,
        ``[mid, hi)`` of ``width`` positions in ``source`` merged into
        ``dest`` (``n`` and ``width`` constants, or ``i64`` values at run
        time). The loop IR has no branch: the merge steps ``hi - lo`` times
        carrying the two read points, reading each clamped into its run, and
        takes the left one unless the left run is used up or the right key
        goes strictly before the left (``goes_first``: a tie takes the left,
        so the sort is stable)."""
        b = self.b
        i64 = IntegerType(64)
        index = lambda v: b(arith.IndexCastOp(v, IndexType()))  # noqa: E731

        def goes_first(x: SSAValue, y: SSAValue) -> SSAValue:
            """Whether position ``x`` sorts strictly before ``y``: the
            lexicographic compare of their keys, from the last key up (JAX's
            comparator: ``lt_k or (eq_k and the later keys' answer)``)."""
            answer = None
            for row, element, (descending, _) in reversed(list(zip(keys, elements, op.orders))):
                kx, ky = (b(memref.LoadOp.get(row, [index(p)])) for p in (x, y))
                key_element = scalar.sort_key_element(element)
                before = scalar.compare(b, key_element, "GT" if descending else "LT", kx, ky)
                answer = before if answer is None else b.apply("arith.ori", before, b.apply(
                    "arith.andi", scalar.compare(b, key_element, "EQ", kx, ky), answer))
            return answer

        value = lambda v: b.int(v, "i64") if isinstance(v, int) else v  # noqa: E731
        double = 2 * width if isinstance(width, int) else b.apply("arith.shli", width, b.int(1, "i64"))

        def pair(p: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            lo = b(arith.MuliOp(b(arith.IndexCastOp(p, i64)), value(double)))
            mid = b.apply("arith.minui", b(arith.AddiOp(lo, value(width))), value(n))
            hi = b.apply("arith.minui", b(arith.AddiOp(lo, value(double))), value(n))
            last_left, last_right = b(arith.SubiOp(mid, b.int(1, "i64"))), b(arith.SubiOp(hi, b.int(1, "i64")))

            def step(k: SSAValue, read: list[SSAValue]) -> list[SSAValue]:
                i, j = read
                left = b(memref.LoadOp.get(source, [index(b.apply("arith.minui", i, last_left))]))
                right = b(memref.LoadOp.get(source, [index(b.apply("arith.minui", j, last_right))]))
                right_first = goes_first(right, left)
                left_open, right_open = b.cmpi("ult", i, mid), b.cmpi("ult", j, hi)
                take_right = b.apply("arith.andi", right_open, b.apply("arith.ori", b.apply(
                    "arith.xori", left_open, b.const(1, "i1")), right_first))
                at = index(b(arith.AddiOp(lo, b(arith.IndexCastOp(k, i64)))))
                b(memref.StoreOp.get(b.select(take_right, right, left), dest, [at]))
                one, zero = b.int(1, "i64"), b.int(0, "i64")
                return [b(arith.AddiOp(i, b.select(take_right, zero, one))),
                        b(arith.AddiOp(j, b.select(take_right, one, zero)))]

            self.in_loop(index(b(arith.SubiOp(hi, lo))), step, [lo, mid])
            return []

        if isinstance(n, int) and isinstance(width, int):
            trips: int | SSAValue = -(-n // (2 * width))
        else:  # (n + 2 width - 1) / (2 width), in index
            last = b(arith.SubiOp(b(arith.AddiOp(value(n), value(double))), b.int(1, "i64")))
            trips = b(arith.IndexCastOp(b.apply("arith.divui", last, value(double)), IndexType()))
        self.in_loop(trips, pair)

    def window_place(self, x: SSAValue, result: Sequence[rules.Dim], window: Sequence[Sequence[int]],
                     ivs: Sequence[SSAValue]) -> Callable[[int, SSAValue], tuple[SSAValue, SSAValue | None]]:
        """For the result element at ``ivs`` of a ``reduce_window`` (or
        ``reduce_window_body``) of an input of ``shape``: the function of
        (dim ``d``, window place ``k``) giving the input index there,
        clamped into range, and whether an element is there (None: always,
        a dim whose windows all lie inside the input). Place ``k`` is ``o *
        stride + k * window_dilation - low`` in the dilated, padded input;
        it holds an element when that is in ``[0, (n - 1) * base_dilation]``
        and a multiple of the base dilation. The input ``x``'s size is its
        run-time one on a ``?`` dim (a windowed one is checked at every
        place; the caller runs no place of an empty input)."""
        b = self.b
        shape, sizes = flat_type_shape(x.type), self.shape(x)
        _, strides, base_dilations, window_dilations, low, _ = window
        spanned = [tuple(values[d] for values in window) != (1, 1, 1, 1, 0, 0) for d in range(len(shape))]
        checked = [spanned[d] if isinstance(n, rules.Dynamic) else lo != 0 or bd != 1 or (m - 1) * s + (w - 1) * wd >= n
                   for d, (n, m, w, s, bd, wd, lo) in enumerate(zip(shape, result, *window[:5]))]  # fmt: skip
        wide = lambda n: b.int(n, "i64") if isinstance(n, int) else b(arith.IndexCastOp(n, IntegerType(64)))  # noqa: E731
        dilated = [wide((n - 1) * bd + 1) if isinstance(n, int) else self.dilated_size(n, bd) if c else None
                   for n, bd, c in zip(sizes, base_dilations, checked)]  # fmt: skip
        last = [wide(n - 1) if isinstance(n, int) else b(arith.SubiOp(wide(n), b.int(1, "i64"))) if c else None
                for n, c in zip(sizes, checked)]  # fmt: skip

        def place(d: int, k: SSAValue) -> tuple[SSAValue, SSAValue | None]:
            at = b(arith.AddiOp(b(arith.MuliOp(ivs[d], b.index(strides[d]))),
                                b(arith.MuliOp(k, b.index(window_dilations[d])))))  # fmt: skip
            if not checked[d]:
                return at, None
            q = b(arith.SubiOp(b(arith.IndexCastOp(at, IntegerType(64))), b.int(low[d], "i64")))
            inside = b(arith.CmpiOp(q, dilated[d], "ult"))
            if base_dilations[d] != 1:
                on_element = b(arith.CmpiOp(b.apply("arith.remui", q, b.int(base_dilations[d], "i64")),
                                            b.int(0, "i64"), "eq"))  # fmt: skip
                inside = b.apply("arith.andi", inside, on_element)
                q = b.apply("arith.divui", q, b.int(base_dilations[d], "i64"))
            clamped = b.apply("arith.minui", q, last[d])
            return b(arith.IndexCastOp(clamped, IndexType())), inside

        return place

    def empty_input_split(self, x: SSAValue, shape: list[int | SSAValue],
                          windowed: Sequence[int]) -> tuple[list[int | SSAValue], list[int | SSAValue]] | None:
        """For a window op whose input ``x`` has ``?`` dims ``windowed``
        (its windows span them), the result's nest shape for an input empty
        at run time and for one that is not: the outer trip count is the
        result's in one and 0 in the other (the loop IR has no branch), so
        no place of an empty input is read. None when no such dim exists."""
        b = self.b
        empty = None
        for d in windowed:
            n = self.size(size_source(x, d))
            if not isinstance(n, int):
                zero = b(arith.CmpiOp(n, b.index(0), "eq"))
                empty = zero if empty is None else b.apply("arith.ori", empty, zero)
        if empty is None:
            return None
        outer = self.as_index(shape[0])
        return ([b.select(empty, outer, b.index(0)), *shape[1:]], [b.select(empty, b.index(0), outer), *shape[1:]])

    def lower_reduce_window(self, op: bc.ReduceWindowOp) -> None:
        """A fusion boundary: a parallel nest over the result, and in it one
        ``scf.for`` per window dim carrying the fold (``init`` first, in the
        accumulator type, f16 in f32 as ``reduce``). Window place ``k`` of
        result index ``o`` is, in the dilated, padded input, ``o * stride +
        k * window_dilation - low``; it holds an element when that is in
        ``[0, (n - 1) * base_dilation]`` and a multiple of the base dilation
        (element ``q / base_dilation``), else the fold skips it
        (``numerics.reduce_window``). The loop IR has no branch, so the
        element is loaded at the place clamped into range and the step
        selects the fold with it or without it. A dim whose windows always
        lie inside the input (no low padding or base dilation, the last
        window ends before ``n``) needs no test. This per-element nest
        serves a base-dilated dim; any other ``reduce_window`` is laid out
        by rows (``reduce_window_by_rows``), to the same values."""
        target = self.buffer(op.result)
        shape, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
        _, _, base_dilations, *_ = op.window
        if 0 in result:
            self.written(op.result, target)
            return
        if result and set(base_dilations) == {1}:
            self.reduce_window_by_rows(op, target)
            self.written(op.result, target)
            return
        nests = [(self.shape(op.result), 0 in shape)]
        split = self.empty_input_split(op.operand, nests[0][0], [d for d in range(len(shape)) if spans_window(op, d)])
        if split is not None:
            nests = [(split[0], True), (split[1], False)]
        for nest_shape, empty in nests:
            self.window_nest(op, target, nest_shape, empty)
        self.written(op.result, target)

    def window_nest(self, op: bc.ReduceWindowOp, target: SSAValue, nest_shape: list[int | SSAValue],
                    empty: bool) -> None:
        """``lower_reduce_window``'s per-element nest over ``nest_shape``;
        ``empty``: the input has no element (only ``init`` is stored)."""
        b = self.b
        element = element_of(op.operand.type)
        acc = accumulator(element)
        shape, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
        window = op.window[0]
        with self.nest(nest_shape, parallel=True) as ivs:
            init = scalar.convert(b, element, acc, self.value_at(op.init, []))
            place = self.window_place(op.operand, result, op.window, ivs)

            def fold(d: int, at: list[SSAValue], inside: SSAValue | None, carried: SSAValue) -> SSAValue:
                if d == len(shape):
                    x = scalar.convert(b, element, acc, self.value_at(op.operand, at))
                    step = combine(b, op.kind_name, acc, carried, x)
                    return step if inside is None else b.select(inside, step, carried)

                def body(k: SSAValue, values: list[SSAValue]) -> list[SSAValue]:
                    index, ok = place(d, k)
                    both = ok if inside is None else inside if ok is None else b.apply("arith.andi", inside, ok)
                    return [fold(d + 1, [*at, index], both, values[0])]

                self.scopes.append({})
                try:
                    return b.for_loop(window[d], [carried], body)[0]
                finally:
                    self.scopes.pop()

            total = init if empty else fold(0, [], None, init)  # no element: only init
            b(memref.StoreOp.get(scalar.convert(b, acc, element, total), target, list(ivs)))

    def lower_reduce_window_body(self, op: bc.ReduceWindowBodyOp) -> None:
        """A fusion boundary: a parallel nest over the result, and in it one
        ``scf.for`` per window dim carrying the accumulators (the init
        values first), innermost the body's ops as scalar ops
        (``window_body_step``). Window places are ``lower_reduce_window``'s
        (``o * stride + k * window_dilation - low`` in the dilated, padded
        input); a place that holds no element reads the init values, as the
        input padded with them does (``numerics.reduce_window_body``), so
        every place is folded. The element is loaded at the place clamped
        into range and selected against the init value: the loop IR has no
        branch. A dim whose windows always lie inside the input needs no
        test; a ``?`` dim windows span tests every place against its
        run-time size, and an input empty at run time is read nowhere
        (``empty_input_split``). A running window (``running_scan``) is a
        scan instead (``window_scan``)."""
        targets = [self.buffer(r) if r.uses else None for r in op.outputs]  # an unused result is not stored
        shape, result = flat_type_shape(op.inputs[0].type), flat_type_shape(op.outputs[0].type)
        if (dim := running_scan(op)) is not None and 0 not in result:
            self.window_scan(op, dim, targets)
            return
        if 0 in result:
            for r, target in zip(op.outputs, targets):
                if target is not None:
                    self.written(r, target)
            return
        nests = [(self.shape(op.outputs[0]), 0 in shape)]
        split = self.empty_input_split(op.inputs[0], nests[0][0],
                                       [d for d in range(len(shape)) if spans_window(op, d)])  # fmt: skip
        if split is not None:
            nests = [(split[0], True), (split[1], False)]
        for nest_shape, empty in nests:
            self.window_body_nest(op, targets, nest_shape, empty)
        for r, target in zip(op.outputs, targets):
            if target is not None:
                self.written(r, target)

    def window_scan(self, op: bc.ReduceWindowBodyOp, dim: int, targets: list[SSAValue | None]) -> None:
        """A running window (``running_scan``: each result element folds the
        elements up to its own along ``dim``, in order) as a scan: a parallel
        nest over the other dims, in it one ``scf.for`` along ``dim``
        carrying the accumulators from the init values, each step the body
        on the element there (``window_body_step``) and its value stored.
        ``n`` body steps per row where the window nest takes ``n * n``, to
        the same values: each element folds the same places in the same
        order, the init values the scan leaves out folding into themselves."""
        b = self.b
        shape = self.shape(op.inputs[0])
        others = [m for k, m in enumerate(shape) if k != dim]
        with self.nest(others, parallel=True) as ivs:
            inits = [self.value_at(v, []) for v in op.init_values]

            def step(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                at = [*ivs[:dim], i, *ivs[dim:]]
                folded = self.window_body_step(op, carried, [self.value_at(x, at) for x in op.inputs])
                for value, target in zip(folded, targets):
                    if target is not None:
                        b(memref.StoreOp.get(value, target, at))
                return folded

            self.scopes.append({})
            try:
                b.for_loop(shape[dim], inits, step)
            finally:
                self.scopes.pop()
        for r, target in zip(op.outputs, targets):
            if target is not None:
                self.written(r, target)

    def window_body_nest(self, op: bc.ReduceWindowBodyOp, targets: list[SSAValue | None],
                         nest_shape: list[int | SSAValue], empty: bool) -> None:
        """``lower_reduce_window_body``'s nest over ``nest_shape``; ``empty``:
        the inputs have no element (every place folds the init values)."""
        b = self.b
        shape, result = flat_type_shape(op.inputs[0].type), flat_type_shape(op.outputs[0].type)
        window = op.window[0]
        with self.nest(nest_shape, parallel=True) as ivs:
            inits = [self.value_at(v, []) for v in op.init_values]
            place = self.window_place(op.inputs[0], result, op.window, ivs)

            def fold(d: int, at: list[SSAValue], inside: SSAValue | None, carried: list[SSAValue]) -> list[SSAValue]:
                if d == len(shape):
                    if empty:  # no element: every place is padding
                        xs = list(inits)
                    else:
                        xs = [self.value_at(x, at) for x in op.inputs]
                        if inside is not None:
                            xs = [b.select(inside, x, init) for x, init in zip(xs, inits)]
                    return self.window_body_step(op, carried, xs)

                def body(k: SSAValue, values: list[SSAValue]) -> list[SSAValue]:
                    if empty:
                        return fold(d + 1, [*at, k], None, values)
                    index, ok = place(d, k)
                    both = ok if inside is None else inside if ok is None else b.apply("arith.andi", inside, ok)
                    return fold(d + 1, [*at, index], both, values)

                self.scopes.append({})
                try:
                    return b.for_loop(window[d], carried, body)
                finally:
                    self.scopes.pop()

            for total, target in zip(fold(0, [], None, inits), targets):
                if target is not None:
                    b(memref.StoreOp.get(total, target, list(ivs)))

    def window_body_step(self, op: bc.ReduceWindowBodyOp, carried: list[SSAValue],
                         elements: list[SSAValue]) -> list[SSAValue]:
        """The next accumulators: ``op``'s body on scalars (``scalar_op``
        per op; a constant is its value, a rank-0 broadcast its operand)."""
        values: dict[SSAValue, SSAValue] = dict(zip(op.block.args, [*carried, *elements]))
        for inner in op.block.ops:
            if inner is op.block.last_op:
                return [values[v] for v in inner.operands]
            if isinstance(inner, bc.ConstantOp):
                values[inner.result] = self.b.const(inner.numpy_value().item(), element_of(inner.result.type))
            elif isinstance(inner, bc.BroadcastInDimOp):
                values[inner.result] = values[inner.operand]
            else:
                values[inner.results[0]] = scalar_op(inner, self.b, [values[v] for v in inner.operands])
        raise AssertionError("a verified body ends with bcast.yield")

    def reduce_window_by_rows(self, op: bc.ReduceWindowOp, target: SSAValue) -> None:
        """``lower_reduce_window``'s nest laid out for speed, when no dim is
        base-dilated: a parallel nest over the result's rows (every dim but
        the last), and per row: a scratch row in the accumulator type (f16
        in f32) set to ``init`` (loaded once, before the nest), then one
        loop per window dim (in order), and innermost a loop along the row
        that folds each result element with its element at that window
        place; last, the row converted to the element type and stored in
        ``target``. The innermost loops walk the contiguous dim carrying
        nothing, so they vectorize; the row stays in L1, and only its final
        copy may stream to memory (``bcast-streaming-stores``).
        Padding is split off by loop bounds, not tests: each window loop
        and each row loop runs over exactly the places that hold an element
        (``valid_span``), so the loops hold no bounds test or select. Each
        result element still folds ``init`` and then its window's elements
        in the window's row-major order, so the values equal the per-element
        nest's bit for bit."""
        b = self.b
        element = element_of(op.operand.type)
        acc = accumulator(element)
        shape, result = self.shape(op.operand), self.shape(op.result)
        window, strides, _, window_dilations, low, high = op.window
        last = len(result) - 1
        init = scalar.convert(b, element, acc, self.value_at(op.init, []))

        def span(d: int, base: SSAValue, step: int, trips: int | SSAValue) -> tuple[int | SSAValue, int | SSAValue]:
            """``valid_span``, or all of ``[0, trips)`` when dim ``d``'s windows always lie inside the input."""
            static = all(isinstance(v, int) for v in (shape[d], result[d]))
            inside = (window[d], strides[d], window_dilations[d], low[d], high[d]) == (1, 1, 1, 0, 0) or static and \
                low[d] == 0 and (result[d] - 1) * strides[d] + (window[d] - 1) * window_dilations[d] < shape[d]
            return (0, trips) if inside else self.valid_span(base, step, trips, shape[d])

        with self.nest(result[:last], parallel=True) as ivs:
            length = [] if isinstance(result[last], int) else [result[last]]
            row_type = MemRefType(storage_type(acc), [DYNAMIC_INDEX if length else result[last]])
            scratch = b(memref.AllocOp(length, [], row_type))

            def set_init(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                b(memref.StoreOp.get(init, scratch, [j]))
                return []

            self.span_loop(0, result[last], set_init, parallel=True)

            def places(d: int, at: Index) -> None:
                """The window loops from dim ``d`` in, ``at`` the input indices before it."""
                if d < last:
                    base = b(arith.SubiOp(b(arith.MuliOp(ivs[d], b.index(strides[d]))), b.index(low[d])))

                    def place(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                        places(d + 1, [*at, b(arith.AddiOp(base, b(arith.MuliOp(k, b.index(window_dilations[d])))))])
                        return []

                    self.span_loop(*span(d, base, window_dilations[d], window[d]), place)
                    return

                def row(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    base = b(arith.SubiOp(b(arith.MuliOp(k, b.index(window_dilations[d]))), b.index(low[d])))

                    def fold(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                        x = self.value_at(op.operand, [*at, b(arith.AddiOp(base, b(arith.MuliOp(j, b.index(strides[d])))))])
                        x = scalar.convert(b, element, acc, x)
                        b(memref.StoreOp.get(combine(b, op.kind_name, acc, b(memref.LoadOp.get(scratch, [j])), x), scratch, [j]))
                        return []

                    self.span_loop(*span(d, base, strides[d], result[d]), fold, parallel=True)
                    return []

                self.span_loop(0, window[d], row)

            places(0, [])

            def store(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                value = scalar.convert(b, acc, element, b(memref.LoadOp.get(scratch, [j])))
                b(memref.StoreOp.get(value, target, [*ivs, j]))
                return []

            self.span_loop(0, result[last], store, parallel=True)
            b(memref.DeallocOp.get(scratch))

    def valid_span(self, base: SSAValue, step: int, trips: int | SSAValue,
                   n: int | SSAValue) -> tuple[SSAValue, SSAValue]:
        """The ``[first, end)`` of the ``t`` in ``[0, trips)`` whose input
        index ``base + t * step`` (``step`` > 0) lies in ``[0, n)``:
        ``first = ceil(max(-base, 0) / step)``, ``end = min(trips,
        max(n - 1 - base + step, 0) / step)`` (``floor((n - 1 - base) /
        step) + 1`` without a negative division). An empty span may have
        ``end < first``: the loop then runs no step."""
        b = self.b
        zero, step_ = b.index(0), b.index(step)

        def at_least_zero(v: SSAValue) -> SSAValue:
            return b.select(b.cmpi("sgt", v, zero), v, zero)

        first = b(arith.DivUIOp(b(arith.AddiOp(at_least_zero(b(arith.SubiOp(zero, base))), b.index(step - 1))),
                                step_))  # fmt: skip
        above = b(arith.AddiOp(b(arith.SubiOp(self.as_index(n), base)), b.index(step - 1)))
        end = b(arith.DivUIOp(at_least_zero(above), step_))
        trips_ = self.as_index(trips)
        return first, b.select(b.cmpi("slt", end, trips_), end, trips_)

    def span_loop(self, first: int | SSAValue, end: int | SSAValue,
                  body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]], parallel: bool = False) -> None:
        """``scf.for %t = first to end`` carrying nothing, with a memo scope
        of its own (none for the one step ``0 to 1``); ``parallel``: its
        steps write disjoint data (``PARALLEL_ATTR``)."""
        if (first, end) == (0, 1):
            self.scopes.append({})
            try:
                body(self.b.index(0), [])
            finally:
                self.scopes.pop()
            return
        block = Block(arg_types=[IndexType()])
        loop = scf.ForOp(self.as_index(first), self.as_index(end), self.b.index(1), [], Region(block))
        if parallel:
            loop.attributes[PARALLEL_ATTR] = UnitAttr()
        self.b.builder.insert(loop)
        outer = self.b.builder.insertion_point
        self.b.builder.insertion_point = InsertPoint.at_end(block)
        self.scopes.append({})
        try:
            body(block.args[0], [])
        finally:
            self.scopes.pop()
        self.b(scf.YieldOp())
        self.b.builder.insertion_point = outer
    def lower_convolution(self, op: bc.ConvolutionOp | bc.DynamicConvOp) -> None:
        """A fusion boundary: a parallel nest over the result and, inside it,
        one ``scf.for`` over the input features of the output feature's
        group and one per kernel spatial dim, carrying the sum (in the
        accumulator type: f16 in f32; integers wrap). Kernel place ``k`` of
        output place ``o`` is ``o * stride + k * rhs_dilation - low`` in the
        dilated, padded input, an element where ``lower_reduce_window``'s
        test says so (else the product is skipped by a select); a reversed
        kernel dim reads the kernel at ``size - 1 - k``. A feature group ``g
        = f / (out features / groups)`` reads input features ``g *
        kernel in features + c``; a batch group ``g = f / (out features /
        batch groups)`` reads input batch ``g * result batch + b``. The nest
        is marked ``CONV_ATTR`` when a target may run a kernel instead
        (``direct_convolution``; its run-time geometry entries stored before
        the nest, ``conv_run_time``). A ``dynamic_conv`` reads its low paddings
        before the nest and checks every place (its sizes: ``derive_sizes``);
        a ``?`` input spatial dim checks every place against its run-time
        size. An empty input (a static or run-time size 0) has no element to
        read: the result is zeros (every window holds only padding), a
        run-time emptiness choosing between the zeros' nest and the sum's by
        their outer loop's trip count (0 for the one not taken; the outer
        loop is the first dim not of static size 1, as ``CONV_ATTR`` says)."""
        b, target = self.b, self.buffer(op.result)
        conv = op.conv
        d, n = conv.dims, len(conv.dims.input_spatial)
        element = element_of(op.result.type)
        acc = accumulator(element)
        lhs, rhs = flat_type_shape(op.lhs.type), flat_type_shape(op.rhs.type)
        result = flat_type_shape(op.result.type)
        shape = self.shape(op.result)
        if any(m == 0 for m in result) or 0 in lhs:  # nothing to sum: zeros
            with self.nest(shape, parallel=True) as ivs:
                b(memref.StoreOp.get(b.const(0, element), target, list(ivs)))
            self.written(op.result, target)
            return
        in_features, out_features = rhs[d.kernel_input_feature], rhs[d.kernel_output_feature]
        kernel = [rhs[k] for k in d.kernel_spatial]
        sizes = [self.size(size_source(op.lhs, i)) for i in d.input_spatial]  # an int, or read at run time
        outs = [result[o] for o in d.output_spatial]
        # the nest's outer loop: the first dim not of static size 1 (a static 1 has no loop)
        first = next((k for k, size in enumerate(result) if size != 1), len(result) - 1)
        selected = any(not isinstance(size, int) for size in sizes)
        if selected:  # empty at run time: zeros, the sum's nest runs none (its outer loop's trip count is 0)
            empty = None
            for size in sizes:
                if not isinstance(size, int):
                    zero = b(arith.CmpiOp(size, b.index(0), "eq"))
                    empty = zero if empty is None else b.apply("arith.ori", empty, zero)
            outer = self.as_index(shape[first])
            with self.nest([*shape[:first], b.select(empty, outer, b.index(0)), *shape[first + 1:]],
                           parallel=True) as ivs:  # fmt: skip
                b(memref.StoreOp.get(b.const(0, element), target, list(ivs)))
            shape = [*shape[:first], b.select(empty, b.index(0), outer), *shape[first + 1:]]
        dynamic = isinstance(op, bc.DynamicConvOp)  # its padding read at run time: every place checked
        checked = [dynamic or not isinstance(size, int) or lo != 0 or ld != 1 or (m - 1) * st + (k - 1) * rd >= size
                   for size, m, k, st, ld, rd, lo in zip(sizes, outs, kernel, conv.strides, conv.lhs_dilation,
                                                         conv.rhs_dilation, conv.low)]  # fmt: skip
        lows = ([self.padding_entry(op, s, 0) for s in range(n)] if dynamic
                else [b.int(lo, "i64") for lo in conv.low])  # fmt: skip
        wide = lambda i: b(arith.IndexCastOp(i, IntegerType(64)))  # noqa: E731
        # the dilated input's size and its last element's index (the input is not empty here)
        dilated = [b.int((size - 1) * ld + 1, "i64") if isinstance(size, int) else self.dilated_size(size, ld)
                   for size, ld in zip(sizes, conv.lhs_dilation)]  # fmt: skip
        last = [b.int(size - 1, "i64") if isinstance(size, int) else b(arith.SubiOp(wide(size), b.int(1, "i64")))
                for size in sizes]  # fmt: skip
        # (a result of one element has no loop to mark)
        geometry = self.direct_convolution(op) if any(size != 1 for size in shape) else None
        run_time = self.conv_run_time(op, geometry, lows) if geometry is not None else None
        block = self.b.builder.insertion_point.block
        before = set(block.ops)
        with self.nest(shape, parallel=True) as ivs:
            feature, batch = ivs[d.output_feature], ivs[d.output_batch]
            group_batch = batch
            feature_base = b.index(0)
            if conv.feature_group_count > 1:
                g = b.apply("arith.divui", feature, b.index(out_features // conv.feature_group_count))
                feature_base = b(arith.MuliOp(g, b.index(in_features)))
            if conv.batch_group_count > 1:
                g = b.apply("arith.divui", feature, b.index(out_features // conv.batch_group_count))
                group_batch = b(arith.AddiOp(b(arith.MuliOp(g, b.index(result[d.output_batch]))), batch))

            def place(s: int, k: SSAValue) -> tuple[SSAValue, SSAValue | None]:
                """The input index along spatial dim ``s`` of kernel place
                ``k`` (clamped into range) and whether an element is there."""
                at = b(arith.AddiOp(b(arith.MuliOp(ivs[d.output_spatial[s]], b.index(conv.strides[s]))),
                                    b(arith.MuliOp(k, b.index(conv.rhs_dilation[s])))))  # fmt: skip
                if not checked[s]:
                    return at, None
                q = b(arith.SubiOp(wide(at), lows[s]))
                inside = b(arith.CmpiOp(q, dilated[s], "ult"))
                if conv.lhs_dilation[s] != 1:
                    on_element = b(arith.CmpiOp(b.apply("arith.remui", q, b.int(conv.lhs_dilation[s], "i64")),
                                                b.int(0, "i64"), "eq"))  # fmt: skip
                    inside = b.apply("arith.andi", inside, on_element)
                    q = b.apply("arith.divui", q, b.int(conv.lhs_dilation[s], "i64"))
                clamped = b.apply("arith.minui", q, last[s])
                return b(arith.IndexCastOp(clamped, IndexType())), inside

            def product(c: SSAValue, places: list[SSAValue], ks: list[SSAValue]) -> SSAValue:
                x_at: Index = [None] * len(lhs)  # type: ignore[list-item]
                x_at[d.input_batch], x_at[d.input_feature] = group_batch, b(arith.AddiOp(feature_base, c))
                w_at: Index = [None] * len(rhs)  # type: ignore[list-item]
                w_at[d.kernel_input_feature], w_at[d.kernel_output_feature] = c, feature
                for s in range(n):
                    x_at[d.input_spatial[s]] = places[s]
                    w_at[d.kernel_spatial[s]] = (b(arith.SubiOp(b.index(kernel[s] - 1), ks[s])) if conv.reversal[s]
                                                 else ks[s])  # fmt: skip
                x = scalar.convert(b, element, acc, self.value_at(op.lhs, x_at))
                y = scalar.convert(b, element, acc, self.value_at(op.rhs, w_at))
                return bc.MultiplyOp.SCALAR(b, acc, x, y)

            def accumulate(level: int, c: SSAValue, places: list[SSAValue], ks: list[SSAValue],
                           inside: SSAValue | None, carried: SSAValue) -> SSAValue:
                if level == n:
                    step = combine(b, "add", acc, carried, product(c, places, ks))
                    return step if inside is None else b.select(inside, step, carried)

                def body(k: SSAValue, values: list[SSAValue]) -> list[SSAValue]:
                    index, ok = place(level, k)
                    both = ok if inside is None else inside if ok is None else b.apply("arith.andi", inside, ok)
                    return [accumulate(level + 1, c, [*places, index], [*ks, k], both, values[0])]

                return self.scoped_loop(kernel[level], carried, body)

            def features(c: SSAValue, values: list[SSAValue]) -> list[SSAValue]:
                return [accumulate(0, c, [], [], None, values[0])]

            total = self.scoped_loop(in_features, b.const(0, acc), features)
            b(memref.StoreOp.get(scalar.convert(b, acc, element, total), target, list(ivs)))
        nest = [o for o in block.ops if o not in before and isinstance(o, scf.ForOp)]
        if geometry is not None and len(nest) == 1:
            # the nest has no loop of a size-1 dim: its outer loop is the first other dim of the result
            after = result[first + 1:-1] if first < len(result) - 1 else ()
            entries: dict[str, Attribute] = {"geometry": dense_i64([0 if g is None else g for g in geometry])}
            if all(isinstance(size, int) for size in after):
                entries["rows"] = IntegerAttr(math.prod(after), 64)
            if isinstance(result[first], int) and not selected:
                entries["units"] = IntegerAttr(result[first] if first < len(result) - 1 else 1, 64)
            if run_time is not None:
                entries["run_time"] = dense_i64([k for k, g in enumerate(geometry) if g is None])
                entries["sizes"] = run_time.owner.attributes[CONV_SIZES_ATTR]
            nest[0].attributes[CONV_ATTR] = DictionaryAttr(entries)
        self.written(op.result, target)

    def conv_run_time(self, op: bc.ConvolutionOp | bc.DynamicConvOp, geometry: tuple[int | None, ...],
                      lows: list[SSAValue]) -> SSAValue | None:
        """The entries of ``geometry`` known only at run time (``None``:
        ``CONV_ATTR``'s ``run_time``) stored in order into an ``i64``
        buffer marked ``CONV_SIZES_ATTR`` (freed at return): a ``?`` size
        of the input or the result, an input stride (the product of the
        input's sizes after its dim), a ``dynamic_conv``'s low padding
        (``lows``). None when every entry is static."""
        missing = [k for k, g in enumerate(geometry) if g is None]
        if not missing:
            return None
        b, d = self.b, op.conv.dims
        i64 = IntegerType(64)
        x, out = self.shape(op.lhs), self.shape(op.result)

        def wide(n: int | SSAValue) -> SSAValue:
            return b.int(n, "i64") if isinstance(n, int) else b(arith.IndexCastOp(n, i64))

        def stride(dim: int) -> SSAValue:  # the input's elements per step of dim
            count: int | SSAValue = math.prod(n for n in x[dim + 1:] if isinstance(n, int))
            for n in x[dim + 1:]:
                if not isinstance(n, int):
                    count = n if count == 1 else b(arith.MuliOp(self.as_index(count), n))
            return wide(count)

        fields = len(SPATIAL_FIELDS)
        buffer = b(memref.AllocOp([], [], MemRefType(i64, [len(missing)])))
        buffer.owner.attributes[CONV_SIZES_ATTR] = IntegerAttr(self.conv_count, 64)
        self.conv_count += 1
        self.owned.append(buffer)
        for j, k in enumerate(missing):
            if k == 5:
                value = stride(d.input_batch)
            elif k == 6:
                value = stride(d.input_feature)
            else:
                s, field = divmod(k - 9, fields)
                name = SPATIAL_FIELDS[field]
                value = (wide(x[d.input_spatial[s]]) if name == "size" else wide(out[d.output_spatial[s]])
                         if name == "out" else lows[s] if name == "low" else stride(d.input_spatial[s]))  # fmt: skip
            b(memref.StoreOp.get(value, buffer, [b.index(j)]))
        return buffer

    def direct_convolution(self, op: bc.ConvolutionOp | bc.DynamicConvOp) -> tuple[int | None, ...] | None:
        """``CONV_ATTR``'s geometry when a target may run ``op`` on its
        convolution kernel (``conv_gemm.direct_geometry``) and both
        operands are held in memory as they are (not views, not constants
        stored as bits), which the kernel reads through their strides."""
        for v in (op.lhs, op.rhs):
            stored = self.stored.get(self.alias.get(v, v))
            if stored is None or stored.rows_dropped or stored.wide or stored.bits is not None:
                return None
        return direct_geometry(op)

    def scoped_loop(self, trips: int, init: SSAValue,
                    body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]]) -> SSAValue:
        """One ``scf.for`` carrying a sum (``REDUCTION_ATTR``), its values
        scoped to its body."""
        self.scopes.append({})
        try:
            (total,) = self.b.for_loop(trips, [init], body)
        finally:
            self.scopes.pop()
        total.owner.attributes[REDUCTION_ATTR] = StringAttr("add")
        return total

    def lower_constant(self, op: bc.ConstantOp) -> None:
        """Splats are scalar constants; other constants are globals."""
        value = op.splat_value()
        element = element_of(op.result.type)
        if value is not None:
            self.splat[op.result] = value
            return
        array = op.numpy_value().reshape(-1)
        bits = None
        if rules.kind(element) == "float":
            bits = storage_type(element)
            element = f"i{rules.bit_width(element)}"
            array = array.view(f"u{array.dtype.itemsize}")
        shape = flat_type_shape(op.result.type)
        t = storage_type(element)
        values = [signed(int(x), rules.bit_width(element)) for x in array]
        name = self.lowering.global_name(self.old.sym_name.data)
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(t, shape), values)
        global_op = memref.GlobalOp.get(StringAttr(name), MemRefType(t, shape), attr, constant=UnitAttr())
        self.lowering.globals.append(global_op)
        ref = self.b(memref.GetGlobalOp(name, MemRefType(t, shape)))
        self.stored[op.result] = Stored(ref, bits=bits)

    def reduce(self, op: bc.ReduceOp, target: SSAValue, lead: Index,
               keep: tuple[SSAValue, SSAValue] | None = None) -> None:
        """Accumulate ``op`` into ``target`` (indexed without the ``lead``
        dims): identity first, then one step per operand element. When the
        reduced dims are the innermost ones, each result element is
        accumulated in a register (an ``scf.for`` carrying it, marked
        ``REDUCTION_ATTR``) and stored once. ``keep = (value, row buffer)``
        also stores ``value`` (read at the operand's index) into the row
        buffer, for the phases after this one."""
        b = self.b
        shape = self.shape(op.operand)
        result = self.shape(op.result)
        element = element_of(op.operand.type)
        acc = accumulator(element)
        identity = numerics.reduction_identity(op.kind_name, NUMPY_DTYPES[acc])[()]
        dims = set(op.reduced_dims)
        inner = shape[len(lead):]
        kept = [d not in dims for d in range(len(lead), len(shape))]
        n_kept = sum(kept)

        def element_at(idx: Index) -> SSAValue:
            x = self.value_at(op.operand, idx)
            if keep is not None:
                b(memref.StoreOp.get(self.value_at(keep[0], idx), keep[1], idx[len(lead):]))
            return b(arith.ExtFOp(x, storage_type(acc))) if acc != element else x

        def step(idx: Index, current: SSAValue) -> SSAValue:
            return combine(b, op.kind_name, acc, current, element_at(idx))

        def out_index(idx: Index) -> Index:
            out = []
            for d, i in enumerate(idx):
                if d not in dims:
                    out.append(i)
                elif op.keeps_dims:
                    out.append(b.index(0))
            return out[len(lead):]

        if all(kept[:n_kept]):
            with self.nest(inner[:n_kept], parallel=True) as outer_ivs:
                def accumulate(ivs: Index, level: int, current: SSAValue) -> SSAValue:
                    if level == len(inner):
                        return step([*lead, *ivs], current)
                    if inner[level] == 1:
                        return accumulate([*ivs, b.index(0)], level + 1, current)

                    def body(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                        self.scopes.append({})
                        try:
                            return [accumulate([*ivs, i], level + 1, carried[0])]
                        finally:
                            self.scopes.pop()

                    loop_results = b.for_loop(inner[level], [current], body)
                    loop = loop_results[0].owner
                    loop.attributes[REDUCTION_ATTR] = StringAttr(op.kind_name)
                    return loop_results[0]

                total = accumulate(list(outer_ivs), n_kept, b.const(identity.item(), acc))
                b(memref.StoreOp.get(total, target, out_index([*lead, *outer_ivs, *[b.index(0)] * (len(inner) - n_kept)])))
            return
        with self.nest(result[len(lead):], parallel=True) as ivs:
            b(memref.StoreOp.get(b.const(identity.item(), acc), target, ivs))
        with self.nest(inner, parallel=kept) as ivs:
            idx = [*lead, *ivs]
            out = out_index(idx)
            x = element_at(idx)
            current = b(memref.LoadOp.get(target, out))
            b(memref.StoreOp.get(combine(b, op.kind_name, acc, current, x), target, out))

    def lower_reduce(self, op: bc.ReduceOp) -> None:
        element = element_of(op.operand.type)
        wide = accumulator(element) != element
        target = self.buffer(op.result, accumulator(element) if wide else None)
        self.reduce(op, target, [])
        self.written(op.result, target, wide)

    def lower_fusion(self, op: FusionOp) -> None:
        """Rows outside (``FusionOp.row_rank`` leading dims), one nest per
        phase inside (module docstring)."""
        block = op.block
        for arg, value in zip(block.args, op.inputs):
            self.alias[arg] = self.alias.get(value, value)
        for inner in block.ops:  # run-time strides, computed once, before the nest
            if isinstance(inner, bc.DynamicBroadcastInDimOp):
                self.broadcast_steps(inner)
            elif isinstance(inner, bc.ReshapeOp) and has_dynamic_types(inner):
                self.derive_sizes(inner)
            elif isinstance(inner, bc.ElementwiseOp | bc.ConversionOp) and not same_sizes(inner):
                raise PassError(inner, "bcast-lower-to-loops needs explicit IR; run bcast-make-explicit first")
        targets = [self.buffer(r) for r in op.outputs]
        yielded = list(block.last_op.operands)
        lead = op.row_rank()
        rows = self.shape(op.outputs[0])[:lead]
        reductions = [o for o in block.ops if isinstance(o, bc.ReduceOp)]
        with self.nest(rows, parallel=True) as ivs:
            # Per-row scratch is allocated in the row loop, so each iteration
            # (each thread of a parallel loop) has its own.
            scratch = []
            for red in reductions:
                acc = accumulator(element_of(red.result.type))
                buf = self.row_alloc(red.result, lead, storage_type(acc))
                scratch.append(buf)
                self.stored[red.result] = Stored(buf, rows_dropped=lead,
                                                 wide=acc != element_of(red.result.type))
            for red, buf in zip(reductions, scratch):
                keep = self.row_cache(red, rows)
                self.reduce(red, buf, ivs, keep)
                if keep is not None:  # later phases load it instead of recomputing it
                    self.stored[keep[0]] = Stored(keep[1], rows_dropped=lead)
                    scratch.append(keep[1])
            by_shape: dict[tuple[int | SSAValue, ...], list[int]] = {}
            for k, v in enumerate(yielded):
                by_shape.setdefault(tuple(self.shape(v)[lead:]), []).append(k)
            for shape, ks in by_shape.items():
                self.store_nest([yielded[k] for k in ks], [targets[k] for k in ks], shape, ivs)
            for buf in scratch:
                self.b(memref.DeallocOp.get(buf))
        for r, target in zip(op.outputs, targets):
            self.written(r, target)

    def row_alloc(self, v: SSAValue, lead: int, element: Attribute) -> SSAValue:
        """A per-row buffer for ``v`` (its dims after the ``lead`` row dims),
        sized at run time where they are ``?``."""
        sizes = self.shape(v)[lead:]
        t = MemRefType(element, memref_shape(flat_type_shape(v.type)[lead:]))
        return self.b(memref.AllocOp([n for n in sizes if isinstance(n, SSAValue)], [], t))

    def row_cache(self, red: bc.ReduceOp, rows: Sequence[int | SSAValue]) -> tuple[SSAValue, SSAValue] | None:
        """A row buffer for the reduction's operand when later phases read it
        too and it is expensive (a transcendental function): the reduction's
        nest stores it and the later phases load it ("reductions keep a row
        block in cache across their passes": softmax computes ``exp`` once)."""
        v = self.alias.get(red.operand, red.operand)
        if v in self.stored or v in self.splat or tuple(self.shape(v)[:len(rows)]) != tuple(rows):
            return None
        if not isinstance(v.owner, Operation) or len(list(v.uses)) < 2 or not _expensive(v):
            return None
        return v, self.row_alloc(v, len(rows), storage_type(element_of(v.type)))

    def lower_assign(self, op: bc.AssignOp) -> None:
        """A copy of ``dest`` with the indexed part overwritten by ``source``
        broadcast to it (``rules.flat_broadcast_shape``)."""
        lead = self.indices(op)
        target = self.buffer(op.result)
        shape = flat_type_shape(op.dest.type)
        self.store_nest([op.dest], [target], shape)
        plan = op.index_plan()
        sub = rules.flat_shape(plan.result)
        src_levels, src_element = split_type(op.source.type)
        expanded = rules.flat_broadcast_shape(src_levels, plan.result)
        src_shape = rules.flat_shape(src_levels)
        with self.nest(sub) as ivs:
            e_idx = [self.b.index(0) if size == 1 else i for size, i in zip(expanded, ivs)]
            x = self.value_at(op.source, reshape_index(self.b, src_shape, expanded, e_idx))
            x = scalar.convert(self.b, src_element, element_of(op.dest.type), x)
            self.b(memref.StoreOp.get(x, target, [*lead, *ivs]))
        self.written(op.result, target)

    def lower_dynamic_update_slice(self, op: bc.DynamicUpdateSliceOp) -> None:
        """A fusion boundary: a copy of the operand into a buffer of its own
        (the result never aliases it), then a nest over the update writing
        element ``i`` at ``start + i`` (starts clamped: ``dynamic_starts``)."""
        update = self.shape(op.update)
        starts = self.dynamic_starts(op, update)
        target = self.buffer(op.result)
        self.store_nest([op.operand], [target], self.shape(op.operand))
        with self.nest(update, parallel=True) as ivs:
            self.b(memref.StoreOp.get(self.value_at(op.update, list(ivs)), target, offset_index(self.b, starts, ivs)))
        self.written(op.result, target)

    def lower_scatter(self, op: bc.ScatterOp) -> None:
        """A fusion boundary: a copy of the operand into a buffer of its own,
        then one sequential nest over the updates (so ``add``, ``multiply``,
        ``maximum``, ``minimum`` fold in every duplicate and ``set`` keeps
        the last, as ``numerics.scatter``): each
        element's position, its start unclamped (``bounded_i64``) plus the
        window or batch index, is inside when ``pos ult n`` on every dim
        (a negative one is huge unsigned); the loop IR has no branch, so it
        loads and stores at the position clamped to ``n - 1`` the value
        ``select(inside, new, old)``, which leaves a skipped element's
        place as it was. Run-time sizes (``?``): an operand that may be
        empty runs the nest inside one more loop of 1 iteration, or of none
        when it is empty at run time (no element to load or store)."""
        b, dims = self.b, op.dims
        shape, updates = self.shape(op.operand), self.shape(op.updates)
        element, index = element_of(op.operand.type), element_of(op.scatter_indices.type)
        vector_dim, rank = dims.index_vector_dim, len(flat_type_shape(op.scatter_indices.type))
        target = self.buffer(op.result)
        self.store_nest([op.operand], [target], shape)
        self.written(op.result, target)
        if 0 in shape:
            return  # no element to write: every update is out of bounds
        wide = lambda i: b(arith.IndexCastOp(i, IntegerType(64)))  # noqa: E731
        sizes = [b.int(n, "i64") if isinstance(n, int) else wide(n) for n in shape]
        run_time = [n for n in shape if not isinstance(n, int)]
        loops = list(updates)
        if run_time:
            empty = b.cmpi("eq", run_time[0], b.index(0))
            for n in run_time[1:]:
                empty = b.apply("arith.ori", empty, b.cmpi("eq", n, b.index(0)))
            loops = [b.select(empty, b.index(0), b.index(1)), *loops]
        with self.nest(loops) as all_ivs:
            ivs = all_ivs[1:] if run_time else all_ivs
            batch = [i for a, i in enumerate(ivs) if a not in dims.offset_dims]
            pos = [b.int(0, "i64")] * len(shape)
            for k, d in enumerate(dims.start_index_map):
                at = [*batch[:vector_dim], b.index(k), *batch[vector_dim:]] if vector_dim < rank else batch
                pos[d] = bounded_i64(b, self.value_at(op.scatter_indices, at), index, sizes[d])
            for d, axis in zip(dims.window_dims(len(shape)), dims.offset_dims):
                pos[d] = b(arith.AddiOp(pos[d], wide(ivs[axis])))
            for d, index_dim in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
                pos[d] = wide(batch[index_dim - (index_dim > vector_dim)])
            inside, at = None, []
            for p, n, n64 in zip(pos, shape, sizes):
                ok = b(arith.CmpiOp(p, n64, "ult"))
                inside = ok if inside is None else b.apply("arith.andi", inside, ok)
                last = b.int(n - 1, "i64") if isinstance(n, int) else b(arith.SubiOp(n64, b.int(1, "i64")))
                at.append(b(arith.IndexCastOp(b.apply("arith.minui", p, last), IndexType())))
            old = b(memref.LoadOp.get(target, at))
            new = self.value_at(op.updates, list(ivs))
            if op.kind_name != "set":
                acc = accumulator(element)
                total = combine(b, op.kind_name, acc, scalar.convert(b, element, acc, old),
                                scalar.convert(b, element, acc, new))
                new = scalar.convert(b, acc, element, total)
            if inside is not None:
                new = b(arith.SelectOp(inside, new, old))
            b(memref.StoreOp.get(new, target, at))

    def call_argument(self, a: SSAValue) -> SSAValue:
        """``a`` as a call passes it: its buffer (stored first if it is not
        held as its own type), or the scalar itself."""
        a = self.alias.get(a, a)
        if a in self.stored and not self.stored[a].rows_dropped and not self.stored[a].wide \
                and self.stored[a].bits is None:
            return self.stored[a].memref
        if isinstance(a.type, TensorType):
            self.materialize(a)
            return self.stored[a].memref
        return a

    def lower_call(self, op: func.CallOp) -> None:
        args = [self.call_argument(a) for a in op.arguments]
        outs = []
        for r in op.results:
            if isinstance(r.type, IndexType):
                outs.append(self.b(memref.AllocOp([], [], result_memref_of(r.type))))
                self.owned.append(outs[-1])
            else:
                outs.append(self.buffer(r))
        self.b(func.CallOp(op.callee, args + outs, []))
        for r, target in zip(op.results, outs):
            if isinstance(r.type, IndexType):
                loaded = self.b(memref.LoadOp.get(target, []))
                self.alias[r] = self.b(arith.IndexCastOp(loaded, IndexType()))
            else:
                self.written(r, target)

    def lower_return(self, op: func.ReturnOp) -> None:
        for v, out in zip(op.arguments, self.outs):
            if isinstance(v.type, IndexType):
                wide = self.b(arith.IndexCastOp(self.alias.get(v, v), IntegerType(64)))
                self.b(memref.StoreOp.get(wide, out, []))
                continue
            s = self.stored.get(self.alias.get(v, v))
            if s is not None and s.memref is out:
                continue
            self.store_nest([v], [out], self.shape(v))
        for buf in self.owned:
            self.b(memref.DeallocOp.get(buf))
        self.b(func.ReturnOp())


_CHEAP_MATH = frozenset({"math.floor", "math.ceil", "math.absf"})


@functools.cache
def _costs_more_than_a_load(op_class: type[bc.ElementwiseOp], element: str, arity: int) -> bool:
    """Whether an op's definition divides, loops or calls a math function
    other than floor, ceil and abs."""
    used = scalar.primitives_of(op_class.SCALAR, element, arity)
    return any(name.startswith(("arith.div", "arith.rem", "scf.")) or
               (name.startswith("math.") and name not in _CHEAP_MATH) for name in used)


def _expensive_op(op: Operation) -> bool:
    if not isinstance(op, bc.ElementwiseOp) or not hasattr(type(op), "SCALAR"):
        return False
    return _costs_more_than_a_load(type(op), element_of(op.results[0].type), len(op.operands))


def _expensive(v: SSAValue, depth: int = 16) -> bool:
    """Whether computing ``v`` (through the elementwise and view ops that
    define it, at most ``depth`` ops up) costs more than a load: it calls a
    transcendental function or divides. A breadth-first walk that visits
    each value once (a diamond of shared values is not walked per path)."""
    level, seen = [v], {v}
    for _ in range(depth + 1):
        following = []
        for value in level:
            op = value.owner
            if _expensive_op(op):
                return True
            if isinstance(op, bc.ElementwiseOp | bc.ConversionOp | bc.BroadcastInDimOp | bc.TransposeOp
                          | bc.ReshapeOp | bc.NarrowOp):
                for operand in op.operands:
                    if operand not in seen:
                        seen.add(operand)
                        following.append(operand)
        level = following
    return False


class ModuleLowering:
    """The new module: one lowered function per function, then the globals."""

    def __init__(self, module: ModuleOp):
        self.globals: list[Operation] = []
        self.outlined, self.region_checks = outline_regions(module)
        self.names: set[str] = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}
        self.functions = [FunctionLowering(self, f).new for f in module.ops if isinstance(f, func.FuncOp)]
        for op in module.ops:
            if not isinstance(op, func.FuncOp):
                raise PassError(op, "is not supported by bcast-lower-to-loops at module level")

    def global_name(self, function: str) -> str:
        n = 0
        while f"__constant_{function}_{n}" in self.names:
            n += 1
        name = f"__constant_{function}_{n}"
        self.names.add(name)
        return name


COMPLEX_REFUSED = ["the loop IR and the c backend have no complex values; the reference, numpy and "
                   "array-api backends compute complex<f32> and complex<f64> (docs/c-backend.md, \"Complex numbers\")"]
"""Why ``bcast-lower-to-loops`` refuses complex element types (docs/c-backend.md)."""


@dataclass(frozen=True)
class LowerToLoopsPass(ModulePass):
    """``bcast-lower-to-loops`` (module docstring)."""

    name = "bcast-lower-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_one_block_functions(op, "bcast-lower-to-loops")
        check_signatures(op, "bcast-lower-to-loops")
        for function in op.walk():
            if isinstance(function, func.FuncOp):
                check_element_types(function, tuple(rules.COMPLEX_PARTS), "bcast-lower-to-loops (the c backend)",
                                    COMPLEX_REFUSED)
        convolutions_as_gemm(op)
        lowering = ModuleLowering(op)
        for old in list(op.ops):
            old.detach()
            old.erase(safe_erase=False)
        for new in [*lowering.globals, *lowering.functions]:
            op.body.block.add_op(new)
        op.attributes.pop("bcast.semantics", None)
