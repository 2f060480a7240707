"""The StableHLO target: explicit bcast IR -> StableHLO that jaxlib's MLIR
parses and verifies and XLA compiles (``bcast-opt -t stablehlo``).

Input: a module after ``bcast-make-explicit`` (``bcast-opt -t stablehlo``
runs ``EXPLICIT_PIPELINE``: make-explicit, canonicalize, cse, sink-broadcasts;
a ``bcast.fusion`` left by ``bcast-fuse`` is emitted inline, op by op, as
XLA fuses on its own). An elementwise op that still broadcasts implicitly is
a located error, as in the NumPy target.

Output: a new ``builtin.module`` of ``func.func``s whose bodies are StableHLO
ops built with ``bcast.ir.stablehlo``'s builders and printed by xDSL in
MLIR's syntax, as JAX prints it: every op in StableHLO's pretty form
(``stablehlo.compare GT, %a, %b, FLOAT``, ``stablehlo.slice %x [1:3, 0:8:2]``,
the compact ``reduce ... applies`` form or the region form). Constants are ``stablehlo.constant dense<...>``
holding the value's exact bytes, and :class:`ExactPrinter` spells each float
element as MLIR does, but from those bytes: ``1.500000e+00`` when that
6-digit form reads back to the same bits, else the fewest digits that do
(``3.3333334e-01``), and hex bits (``0x7FC00001``) only for infinities and
NaNs, so -0.0, every f16/f32/f64 value and NaN payloads survive (xDSL's
printer goes through Python floats, which lose signalling NaNs, and falls
back to hex for ``123456792.0``). As in xDSL and MLIR, a constant of more
than ``HEX_LIMIT`` elements is one hex blob.
The module is cleaned up as it would be written by hand: ``canonicalize``
(``reshape(reshape(x))`` is one reshape, an identity reshape none: the
pattern bcast's own reshape has) then ``cse`` (identical constants and
broadcasts of them are one), xDSL's passes.

Mapping (``bcast`` op -> StableHLO):

- nested (TML) types -> their flat builtin tensor type (outer dims then inner
  dims, as every backend stores them); ``index`` arguments -> ``tensor<i64>``;
- an elementwise op -> its StableHLO op (the op class's ``STABLEHLO``; for
  ``erf`` CHLO's ``chlo.erf``, which XLA expands itself) on
  the element kinds where that op computes the op's definition
  (``STABLEHLO_NATIVE_KINDS``), else the definition (``SCALAR``,
  ``bcast.ir.scalar``) expanded in StableHLO ops (``StablehloScalars``):
  integer ``divide``, ``remainder`` and ``power``, unsigned ``abs`` and
  ``sign`` (StableHLO's take no unsigned integers), ``erfc`` (XLA's
  ``chlo.erfc`` is hundreds of ulps off in the tail: the composition of
  ``bcast.ir.special``, in f64); ``compare`` with
  ``compare_type`` FLOAT, SIGNED or UNSIGNED (``i1`` compares UNSIGNED),
  ``select``, integer ``clamp`` and ``convert`` (XLA's is the definition: truncate, saturate,
  NaN -> 0, ``x != 0`` for ``i1``) are their StableHLO op (float ``clamp`` is its
  definition: XLA's drops a NaN ``x`` or ``max``); float
  ``maximum``/``minimum`` get a NaN guard (below);
- ``broadcast_in_dim``, ``transpose``, ``reshape``, ``constant`` -> the same op;
  ``narrow`` -> ``reshape``; a ``broadcast_in_dim`` of a ``transpose`` (or of
  a reshape that only moves size-1 dims) -> one ``broadcast_in_dim`` with
  unsorted dims (``through_relayout``);
- ``reduce KIND`` -> ``stablehlo.reduce`` whose body applies KIND, from the
  kind's identity (``numerics.reduction_identity``); ``f16`` converts to
  ``f32`` first and back after (it accumulates in f32, as
  ``numerics.reduce``); ``keepdims`` -> a ``reshape`` after;
- ``extract`` -> ``slice`` + ``reshape`` with literal indices, ``dynamic_slice``
  + ``reshape`` with SSA ones; ``assign`` -> ``reshape`` of the source +
  ``dynamic_update_slice`` (the source itself when there is no index);
- ``func.call``/``func.return`` -> the same, on the flat types; a fusion's body
  inline;
- an op bcast does not know (another dialect's, or a StableHLO op the import
  kept: docs/contracts.md, "Ops bcast does not know") -> itself, on the
  emitted operands, so a module with a ``dot_general`` passes through bcast
  as a broadcast simplifier.

Where XLA (jax 0.10.2, CPU, measured) differs from docs/semantics.md:

- float ``maximum``/``minimum`` do not propagate a NaN in the second operand
  (``max(1, nan) = 1``): every float max/min (also in a reduction body) is
  ``select(x != x, x, select(y != y, y, max(x, y)))``;
- XLA's algebraic simplifier rewrites a few compositions into forms with
  other results at overflow and special values (``log(exp(a)) -> a`` and
  others, ``OPAQUE_OPERANDS``): the operand passes through
  ``stablehlo.optimization_barrier`` there; so does every boolean converted
  to a float (``convert(b) * y -> select(b, y, 0)``, reached also from
  divisions: :meth:`FunctionEmitter.convert_op`);
- XLA computes integer ``power`` from the low 6 bits of the exponent only
  (``x ** 641735758`` wrong): integer ``power`` is its definition, square
  and multiply over every bit of the exponent (unrolled);
- an SSA index out of bounds cannot be reported: XLA clamps the start of a
  ``dynamic_slice``/``dynamic_update_slice`` into range. The StableHLO target
  therefore clamps where the other backends raise (a documented difference;
  literal indices are checked by the verifier, and index-access broadcasting
  is made explicit before, so only an out-of-range SSA index differs);
- XLA's CPU runtime flushes f32/f16 subnormals to zero in every op (inputs
  and results), so ``floor(-1e-40)`` is ``-0.0`` there, not ``-1.0``: a
  property of the runtime, not of the StableHLO text, which follows the spec.
Not a difference of semantics but a crash: jaxlib's StableHLO folder divides
integer constants without checking the divisor, and the process dies of
SIGFPE compiling ``(a - a) / (a - a)``. Integer ``divide``/``remainder`` are
therefore their definitions, which divide by a divisor made safe first
(``select(y == 0, 1, y)``, which never folds to 0) and select the result by
0 (-1, ``x``). ``INT_MIN / -1``, shifts by >= the bit width (the arithmetic
shift filling with the sign bit, also on unsigned operands) are XLA's
already: the shifts are their StableHLO op (``tests/test_op_matrix.py``
checks every ``STABLEHLO_NATIVE_KINDS`` against XLA).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from io import StringIO
from typing import ClassVar

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnregisteredOp,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.printer import Printer

from bcast.ir import chlo, numerics, rules, scalar, special
from bcast.ir import ops as bc
from bcast.ir import stablehlo as shlo
from bcast.ir.rules import RuleError
from bcast.ir.stablehlo import SIGNED, UNSIGNED
from bcast.ir.control_flow import CaseOp, WhileOp
from bcast.ir.fusion import FusionOp, YieldOp, is_elementwise, is_explicit
from bcast.ir.types import (NUMPY_DTYPES, dense_i64, flat_type_shape, make_type, split_type, is_complex_dtype, is_float_dtype,
                              is_integer_dtype)
from bcast.passes.errors import PassError, check_one_block_functions

# --------------------------------------------------------------------------
# Building and printing StableHLO ops
# --------------------------------------------------------------------------

OPAQUE_OPERANDS: dict[str, tuple[str, ...]] = {
    "log": ("exponential", "power"),
    "multiply": ("exponential",),
}
"""Float operands XLA's algebraic simplifier must not see the producer of,
because its rewrite changes IEEE results (measured, jax 0.10.2 CPU):
``log(exp(a)) -> a`` (not ``inf`` when ``exp`` overflows), ``log(pow(a, b))
-> b * log(|a|)`` (not NaN for a negative ``a``), ``exp(a) * exp(b) ->
exp(a + b)`` (not NaN for ``inf * 0``). Such an operand passes through
``stablehlo.optimization_barrier``. (A float convert of booleans always
does: ``FunctionEmitter.convert_op``.)"""


def producer(value: SSAValue) -> str | None:
    """The name of the StableHLO op that produced ``value`` (``exponential``)."""
    owner = value.owner
    return owner.name.split(".", 1)[1] if isinstance(owner, Operation) else None


HEX_LIMIT = 100
"""Constants with more elements print as one ``dense<"0x...">`` blob of
their bytes (xDSL's and MLIR's threshold)."""


def float_literal(value: np.floating) -> str:
    """MLIR's spelling of one float element, exact: the 6-digit scientific
    form if reading it back (as MLIR does: decimal to f64, then rounded to
    the element type) gives the same bits, else the fewest digits that do;
    an infinity or NaN as its bits in hex."""
    if np.isfinite(value):
        for digits in range(6, 17):
            text = f"{float(value):.{digits}e}"
            if _bits(value.dtype.type(float(text))) == _bits(value):
                return text
    return f"0x{_bits(value):0{2 * value.itemsize}X}"


def _bits(value: np.floating) -> int:
    return int(np.array(value).view(f"u{value.itemsize}"))


def dense_text(attr: DenseIntOrFPElementsAttr) -> str:
    """``dense<...>`` of a float or complex attribute from its exact bytes
    (the type not included): one element for a splat, nested lists by
    shape, a complex element as ``(re, im)``, a hex blob above
    ``HEX_LIMIT`` elements."""
    element = attr.get_element_type()
    part = element.element_type if isinstance(element, ComplexType) else element
    dtype = np.dtype(f"<f{part.bitwidth // 8}")
    flat = np.frombuffer(attr.data.data, dtype).reshape(-1, 2 if isinstance(element, ComplexType) else 1)
    raw = flat.view(f"u{dtype.itemsize}")
    if flat.size == 0:
        return "dense<>"

    def literal(value: np.ndarray) -> str:
        texts = [float_literal(v) for v in value]
        return texts[0] if len(texts) == 1 else f"({texts[0]}, {texts[1]})"

    if (raw == raw[0]).all():
        return f"dense<{literal(flat[0])}>"
    if len(flat) > HEX_LIMIT:
        return f'dense<"0x{attr.data.data.hex().upper()}">'

    def nested(values: np.ndarray) -> str:
        if values.ndim == 2:
            return "[" + ", ".join(literal(v) for v in values) + "]"
        return "[" + ", ".join(nested(v) for v in values) + "]"

    return f"dense<{nested(flat.reshape(*attr.get_shape(), flat.shape[1]))}>"


NUMPY_FLOATS = (Float16Type, Float32Type, Float64Type)
"""The float types whose bytes NumPy reads as IEEE halves, singles and
doubles; any other (bf16, the f8/f6/f4 formats) is left to xDSL's printer
(reading bf16's two bytes as an f16 would print other values)."""


class ExactPrinter(Printer):
    """xDSL's printer, with float ``dense`` attributes spelled exactly from
    their bytes (``float_literal``); xDSL's own prints each element from a
    Python float."""

    GENERIC: ClassVar[tuple[type[Operation], ...]] = (shlo.DynamicConvOp,)
    """Ops jaxlib's MLIR has no custom form of: printed generic."""

    def print_op(self, op: Operation) -> None:
        if isinstance(op, self.GENERIC) and not self.print_generic_format:
            self.print_generic_format = True
            try:
                super().print_op(op)
            finally:
                self.print_generic_format = False
            return
        super().print_op(op)

    def print_attribute(self, attribute: Attribute) -> None:
        element = attribute.get_element_type() if isinstance(attribute, DenseIntOrFPElementsAttr) else None
        if isinstance(element, ComplexType):
            element = element.element_type  # a complex of two NumPy floats: its bytes too
        if isinstance(element, NUMPY_FLOATS):
            self.print_string(dense_text(attribute) + " : ")
            self.print_attribute(attribute.get_type())
            return
        super().print_attribute(attribute)


def dense_value(array: np.ndarray, t: TensorType) -> DenseIntOrFPElementsAttr:
    """A constant's value: for floats the exact little-endian bytes (one
    element for a splat), for integers and booleans their values."""
    if is_float_dtype(array.dtype) or is_complex_dtype(array.dtype):
        flat = array.reshape(-1).astype(array.dtype.newbyteorder("<"))
        raw = flat.view(f"u{flat.itemsize // 2 if is_complex_dtype(array.dtype) else flat.itemsize}")
        raw = raw.reshape(flat.size, -1) if flat.size else raw
        if flat.size and (raw == raw[0]).all():
            flat = flat[:1]  # a splat: one element
        return DenseIntOrFPElementsAttr(t, BytesAttr(flat.tobytes()))
    values = [bool(v) if array.dtype == np.bool_ else int(v) for v in array.reshape(-1)]
    return DenseIntOrFPElementsAttr.from_list(t, values)  # type: ignore[arg-type]


def flat_type(t: Attribute) -> Attribute:
    """The type other tools see: nested tensors flat, ``index`` as
    ``tensor<i64>``; a type bcast does not represent (``tensor<4xbf16>``,
    complex: only ops bcast does not know use such values) as it is."""
    if isinstance(t, IndexType):
        return TensorType(i64, [])
    try:
        levels, element = split_type(t)
    except RuleError:
        return t
    return make_type((rules.flat_shape(levels),), element)


def _element(t: Attribute) -> str:
    return split_type(t)[1]


# --------------------------------------------------------------------------
# The emitter
# --------------------------------------------------------------------------


def through_relayout(x: SSAValue, dims: Sequence[int]) -> tuple[SSAValue, list[int]]:
    """The operand and dims of ``broadcast_in_dim(x, dims)`` with the
    transpose (or the reshape that only moves size-1 dims, which bcast's
    ``canonicalize`` makes of a transpose of size-1 dims) producing ``x``
    composed in: StableHLO's ``broadcast_in_dim`` may transpose, so bcast's
    ``transpose`` + sorted broadcast is written back as the one broadcast
    with unsorted dims that JAX and StableHLO's simplifier write. The
    relayout, left without users, is removed by ``clean_up``."""
    owner = x.owner
    where: list[int] | None = None  # where each dim of the relayout's operand stands in x
    if isinstance(owner, shlo.TransposeOp):
        where = rules.inverse_permutation(owner.perm)
    elif isinstance(owner, shlo.ReshapeOp):
        where = rules.unit_dim_reshape_permutation(flat_type_shape(owner.operand.type), flat_type_shape(x.type))
    if where is None:
        return x, list(dims)
    return owner.operands[0], [dims[m] for m in where]



def _largest(n: rules.Dim) -> int:
    """The largest run-time size of a dim: its size, its bound, or int64's
    largest (``?``), which start indices must be able to clamp to."""
    return n if isinstance(n, int) else rules.INT64_MAX if n.bound is None else n.bound


class FunctionEmitter:
    """One ``func.func``: bcast values map to StableHLO values in ``values``."""

    def __init__(self, function: func.FuncOp, names: dict[str, str], reducers: Reducers | None = None):
        self.function = function
        self.names = names
        """Symbol renames (the entry becomes ``@main``, which XLA runs)."""
        self.reducers = reducers if reducers is not None else Reducers(set())
        """The functions a ``dynamic_reduce_window`` calls, shared by the module's emitters."""
        inputs = [flat_type(t) for t in function.function_type.inputs.data]
        outputs = [flat_type(t) for t in function.function_type.outputs.data]
        self.block = Block(arg_types=inputs)
        self.values: dict[SSAValue, SSAValue] = {}
        self.blocks: dict[Block, Block] = {}
        """The blocks of kept ops' regions, for the successors of the ops in them."""
        if function.body.blocks:
            for old, new in zip(function.body.block.args, self.block.args):
                self.values[old] = new
                new.name_hint = old.name_hint
        name = function.sym_name.data
        self.result = func.FuncOp(
            names.get(name, name), (inputs, outputs),
            Region(self.block) if function.body.blocks else Region(),
            visibility=None if names.get(name) == "main" else function.sym_visibility,
        )  # fmt: skip

    # -- building -------------------------------------------------------
    def add(self, op: Operation, block: Block | None = None) -> SSAValue:
        (block or self.block).add_op(op)
        return op.results[0]

    def constant(self, array: np.ndarray, t: TensorType, block: Block | None = None) -> SSAValue:
        return self.add(shlo.ConstantOp(dense_value(np.asarray(array), t)), block)

    def scalar(self, value, element: str) -> SSAValue:
        """A rank-0 constant; an integer wraps to the element type (-1 is all
        ones unsigned), a float beyond the type's range is an infinity (a
        saturation bound of ``scalar.convert`` in f16)."""
        t = make_type(((),), element)
        dtype = np.dtype(NUMPY_DTYPES[element])
        with np.errstate(over="ignore"):
            array = np.array(value).astype(dtype) if is_integer_dtype(dtype) else np.array(value, dtype)
        return self.constant(array, t)

    def reshape(self, x: SSAValue, shape: Sequence[int]) -> SSAValue:
        t = make_type((tuple(shape),), _element(x.type))
        return x if x.type == t else self.add(shlo.ReshapeOp(x, t))

    def convert(self, x: SSAValue, element: str) -> SSAValue:
        levels, own = split_type(x.type)
        return x if own == element else self.add(shlo.ConvertOp(x, make_type(levels, element)))

    def elementwise(self, name: str, args: Sequence[SSAValue], block: Block | None = None) -> SSAValue:
        """The StableHLO elementwise op ``name`` (``stablehlo.add``) on
        ``args``, with the emitter's guards for XLA: an operand XLA would
        rewrite with its producer is opaque (``opaque``), and a float
        maximum/minimum propagates NaN (XLA's ignores a NaN ``y``):
        ``select(x != x, x, select(y != y, y, r))``."""
        short = name.split(".", 1)[1]
        args = [self.opaque(short, v, block) for v in args]
        r = self.add((shlo.ELEMENTWISE_OPS.get(name) or chlo.CHLO_UNARY_OPS[name])(*args), block)
        if short in ("maximum", "minimum") and rules.kind(_element(args[0].type)) == "float":
            for v in reversed(args):  # x's NaN wins over y's, as in NumPy
                nan = self.add(shlo.CompareOp("NE", v, v, "FLOAT"), block)
                r = self.add(shlo.SelectOp(nan, v, r), block)
        return r

    def scalar_op(self, op: type[bc.ElementwiseOp], args: list[SSAValue]) -> SSAValue:
        """``op`` on ``args``: its StableHLO op on the element kinds where
        that computes ``op.SCALAR`` (``STABLEHLO_NATIVE_KINDS``), else
        ``op.SCALAR`` expanded on ``StablehloScalars``."""
        element = _element(args[0].type)
        if rules.kind(element) in op.STABLEHLO_NATIVE_KINDS:
            return self.elementwise(op.STABLEHLO, args)
        return op.SCALAR(StablehloScalars(self, flat_type_shape(args[0].type)), element, *args)

    def splat(self, value: int | float, t: Attribute) -> SSAValue:
        scalar = self.scalar(value, _element(t))
        return self.add(shlo.BroadcastInDimOp(scalar, [], t))

    def opaque(self, user: str, value: SSAValue, block: Block | None = None) -> SSAValue:
        """``value`` as an operand of ``stablehlo.USER``: behind an
        ``optimization_barrier`` if XLA would rewrite the pair (``OPAQUE_OPERANDS``)."""
        if rules.kind(_element(value.type)) != "float" or producer(value) not in OPAQUE_OPERANDS.get(user, ()):
            return value
        return self.add(shlo.OptimizationBarrierOp([value]), block)

    # -- ops ------------------------------------------------------------
    def emit(self) -> func.FuncOp:
        if self.function.body.blocks:
            for op in self.function.body.block.ops:
                self.emit_op(op)
        return self.result

    def emit_op(self, op: Operation) -> None:
        v = self.values
        if isinstance(op, func.ReturnOp):
            self.block.add_op(func.ReturnOp(*[v[a] for a in op.arguments]))
            return
        if isinstance(op, func.CallOp):
            callee = op.callee.root_reference.data
            call = func.CallOp(self.names.get(callee, callee), [v[a] for a in op.arguments],
                               [flat_type(r.type) for r in op.results])
            self.block.add_op(call)
            v.update(zip(op.results, call.results))
            return
        if isinstance(op, FusionOp):  # inline: XLA fuses by itself
            v.update(zip(op.block.args, (v[a] for a in op.inputs)))
            for inner in op.block.ops:
                if isinstance(inner, YieldOp):
                    v.update(zip(op.results, (v[a] for a in inner.operands)))
                else:
                    self.emit_op(inner)
            return
        if isinstance(op, WhileOp | CaseOp):
            self.emit_control_flow(op)
            return
        if isinstance(op, bc.ReduceWindowBodyOp):
            self.emit_reduce_window_body(op)
            return
        if not isinstance(op, bc.BcastOp):  # an op bcast does not know: written back as it is
            self.emit_unknown(op)
            return
        if isinstance(op, bc.CheckBroadcastableOp | bc.ShapeAssertionOp):  # no result
            self.emit_check(op, [v[a] for a in op.operands])
            return
        if isinstance(op, bc.LapackOp):  # several results
            self.emit_lapack(op, v[op.a])
            return
        result = self.emit_bcast(op, [v[a] for a in op.operands])
        if result.name_hint is None:  # (not an operand passed through)
            result.name_hint = op.results[0].name_hint
        v[op.results[0]] = result

    def emit_region(self, old: Block) -> Region:
        """A region of one block, ``old``'s ops emitted in turn into it, its
        arguments flat-typed, its last op (a ``bcast.yield``) a
        ``stablehlo.return``; the block being emitted into stays as it was."""
        outer = self.block
        self.block = Block(arg_types=[flat_type(a.type) for a in old.args])
        for arg, new in zip(old.args, self.block.args):
            self.values[arg] = new
            new.name_hint = arg.name_hint
        for inner in old.ops:
            if inner is old.last_op:
                self.block.add_op(shlo.ReturnOp(*[self.values[v] for v in inner.operands]))
            else:
                self.emit_op(inner)
        region = Region(self.block)
        self.block = outer
        return region

    def emit_control_flow(self, op: WhileOp | CaseOp) -> None:
        """``bcast.while`` -> ``stablehlo.while``, ``bcast.case`` ->
        ``stablehlo.case``, in the generic form JAX prints (bcast registers
        neither as an op); each region's ops emitted in turn, its
        ``bcast.yield`` a ``stablehlo.return``."""
        if isinstance(op, WhileOp):
            name, operands, regions = "stablehlo.while", list(op.inputs), [op.cond, op.body]
        else:
            name, operands, regions = "stablehlo.case", [op.index], list(op.branches)
        emitted = [self.emit_region(region.block) for region in regions]
        new_op = UnregisteredOp.with_name(name).create(
            operands=[self.values[v] for v in operands],
            result_types=[flat_type(r.type) for r in op.results], regions=emitted)
        self.block.add_op(new_op)
        for old_result, result in zip(op.results, new_op.results):
            result.name_hint = old_result.name_hint
            self.values[old_result] = result

    def emit_reduce_window_body(self, op: bc.ReduceWindowBodyOp) -> None:
        """StableHLO's ``reduce_window`` of several inputs, one to one: the
        same window, strides, dilations, padding and init values, the body's
        ops emitted in turn into its region (rank-0 StableHLO ops), its
        ``bcast.yield`` a ``stablehlo.return``."""
        body = self.emit_region(op.block)
        window, strides, base_dilations, window_dilations, low, high = op.window
        new_op = shlo.ReduceWindowOp([self.values[v] for v in op.inputs], [self.values[v] for v in op.init_values],
                                     window, list(zip(low, high)), body, strides, base_dilations, window_dilations)
        self.block.add_op(new_op)
        for old_result, result in zip(op.outputs, new_op.results):
            result.name_hint = old_result.name_hint
            self.values[old_result] = result

    def emit_lapack(self, op: bc.LapackOp, a: SSAValue) -> None:
        """``lu`` and ``cholesky`` as the ``custom_call`` JAX writes for a CPU
        and XLA runs (StableHLO has no LU, and its ``cholesky`` returns no
        ``info``): ``@lapack_sgetrf_ffi`` / ``@lapack_spotrf_ffi`` (``d`` for
        f64), the batch count in ``mhlo.frontend_attributes``, ``uplo`` in
        ``mhlo.backend_config``, the matrices column-major (``operand_layouts``),
        the pivots and ``info`` row-major (docs/ir.md, "lu").

        An empty matrix (a size-0 dim) calls no routine: its factors are
        itself, its pivots empty and its ``info`` 0, as LAPACK's; XLA's CPU
        runtime dies of SIGFPE running these calls on a 0x0 matrix whose
        ``info`` is read (JAX's own exports read it only over empty results,
        which XLA removes)."""
        shape = flat_type_shape(op.a.type)
        rank = len(shape)
        if 0 in shape:
            self.values[op.results[0]] = a
            for old in op.results[1:]:
                t = flat_type(old.type)
                self.values[old] = self.constant(np.zeros(t.get_shape(), NUMPY_DTYPES[_element(t)]), t)
            return
        routine = "getrf" if isinstance(op, bc.LuOp) else "potrf"
        target = f"lapack_{'s' if _element(op.a.type) == 'f32' else 'd'}{routine}_ffi"
        config = {} if routine == "getrf" else {
            "uplo": IntegerAttr(76 if op.is_lower else 85, IntegerType(8, Signedness.UNSIGNED))}

        def layout(minor_to_major: Sequence[int]) -> DenseIntOrFPElementsAttr:
            return DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(minor_to_major)]),
                                                      list(minor_to_major))

        matrix = layout([rank - 2, rank - 1, *range(rank - 3, -1, -1)])
        results = [matrix, *(layout(range(len(flat_type_shape(r.type)) - 1, -1, -1)) for r in op.results[1:])]
        call = UnregisteredOp.with_name("stablehlo.custom_call").create(
            operands=[a], result_types=[flat_type(r.type) for r in op.results],
            properties={"call_target_name": StringAttr(target), "api_version": IntegerAttr(1, IntegerType(32)),
                        "operand_layouts": ArrayAttr([matrix]), "result_layouts": ArrayAttr(results)},
            attributes={"mhlo.backend_config": DictionaryAttr(config),
                        "mhlo.frontend_attributes": DictionaryAttr({"num_batch_dims": StringAttr(str(rank - 2))})})
        self.block.add_op(call)
        for old, new in zip(op.results, call.results):
            new.name_hint = old.name_hint
            self.values[old] = new

    def emit_unknown(self, op: Operation) -> None:
        """An op bcast does not know, on the emitted operands, with its
        regions' ops emitted in turn (a kept ``stablehlo.while``'s body holds
        the bcast ops the import made of its StableHLO); its own types, and
        those of its blocks' arguments, stay as they are."""
        blocks = {block: Block(arg_types=block.arg_types) for region in op.regions for block in region.blocks}
        self.blocks.update(blocks)
        for old, new in blocks.items():
            for arg, copied in zip(old.args, new.args):
                self.values[arg] = copied
                copied.name_hint = arg.name_hint
        copy = op.clone_without_regions(self.values, self.blocks)  # maps its results into self.values
        self.block.add_op(copy)
        outer = self.block
        for region, copied in zip(op.regions, copy.regions):
            for block in region.blocks:
                self.block = blocks[block]
                copied.add_block(self.block)
                for inner in block.ops:
                    self.emit_op(inner)
        self.block = outer

    def emit_bcast(self, op: bc.BcastOp, args: list[SSAValue]) -> SSAValue:
        t = flat_type(op.results[0].type)
        if isinstance(op, bc.ConstantOp):
            return self.constant(op.numpy_value(), t)
        if is_elementwise(op):
            if not is_explicit(op):
                raise PassError(op, "the stablehlo target needs explicit IR; run the "
                                "bcast-make-explicit pass first")
            if isinstance(op, bc.CompareOp):  # compare_type: FLOAT (or TOTALORDER), SIGNED, UNSIGNED (i1)
                return self.add(shlo.CompareOp(op.comparison_direction.data.value, *args,
                                               "TOTALORDER" if op.is_total_order else None))
            if isinstance(op, bc.BitcastConvertOp):
                return self.add(shlo.BitcastConvertOp(args[0], t))
            if isinstance(op, bc.ConvertOp):
                return self.convert_op(args[0], t)
            if isinstance(op, bc.SelectOp):
                return self.add(shlo.SelectOp(*args))
            if isinstance(op, bc.ClampOp) and rules.kind(_element(t)) in op.STABLEHLO_NATIVE_KINDS:
                return self.add(shlo.ClampOp(*args))
            return self.scalar_op(type(op), args)
        if isinstance(op, bc.BroadcastInDimOp):
            return self.add(shlo.BroadcastInDimOp(*through_relayout(args[0], op.dims), t))
        if isinstance(op, bc.TransposeOp):
            return self.add(shlo.TransposeOp(args[0], op.perm, t))
        if isinstance(op, bc.ReshapeOp | bc.NarrowOp):
            return self.reshape(args[0], flat_type_shape(op.results[0].type))
        if isinstance(op, bc.ReverseOp):  # dims index the flat shape, as emitted
            return self.add(shlo.ReverseOp(args[0], op.dims))
        if isinstance(op, bc.IotaOp):
            return self.add(shlo.IotaOp(op.dim, t))
        if isinstance(op, bc.ConcatenateOp):
            return self.add(shlo.ConcatenateOp(args, op.dim))
        if isinstance(op, bc.PadOp):
            return self.add(shlo.PadOp(args[0], args[1], op.low, op.high, op.interior))
        if isinstance(op, bc.SliceOp):
            return self.add(shlo.SliceOp(args[0], op.starts, op.limits, op.steps))
        if isinstance(op, bc.DotGeneralOp):
            return self.add(shlo.DotGeneralOp(args[0], args[1], op.dims, t))
        if isinstance(op, bc.ConvolutionOp):
            return self.add(shlo.ConvolutionOp(args[0], args[1], op.conv, t, precision_config=op.precision_config))
        if isinstance(op, bc.DynamicConvOp):
            props = shlo.DynamicConvOp.conv_properties(op.conv, op.precision_config, padded=False)
            return self.add(shlo.DynamicConvOp.create(operands=args[:3], result_types=[t], properties=props))
        if isinstance(op, bc.TriangularSolveOp):
            left, lower, unit, transpose = op.flags
            return self.add(shlo.TriangularSolveOp(args[0], args[1], left_side=left, lower=lower, unit_diagonal=unit,
                                                   transpose_a=transpose))
        if isinstance(op, bc.FftOp):
            return self.add(shlo.FftOp(args[0], op.kind, op.lengths, t))
        if isinstance(op, bc.DynamicSliceOp):
            starts = self.wide_starts(args[1:], flat_type_shape(op.operand.type), op.sizes)
            return self.add(shlo.DynamicSliceOp(args[0], starts, op.sizes))
        if isinstance(op, bc.DynamicUpdateSliceOp):
            update = flat_type_shape(op.update.type)
            starts = self.wide_starts(args[1:-1], flat_type_shape(op.operand.type), update)
            return self.add(shlo.DynamicUpdateSliceOp(args[0], starts, args[-1]))
        if isinstance(op, bc.GatherOp):
            return self.add(shlo.GatherOp(args[0], self.wide_indices(op, args[1]), op.dims, op.sizes))
        if isinstance(op, bc.ScatterOp):  # the update computation JAX writes for .at[i].set / .add / .max ...
            body = (shlo.set_body(args[0].type.get_element_type()) if op.kind_name == "set"
                    else self.kind_body(op.kind_name, _element(args[0].type)))
            return self.add(shlo.ScatterOp(args[0], args[1], args[2], op.dims, body))
        if isinstance(op, bc.ReduceOp):
            return self.emit_reduce(op, args[0])
        if isinstance(op, bc.ArgReduceOp):
            return self.emit_arg_reduce(op, args[0])
        if isinstance(op, bc.CumulativeOp):
            return self.emit_cumulative(op, args[0])
        if isinstance(op, bc.SortOp):
            return self.emit_sort(op, *args)
        if isinstance(op, bc.ReduceWindowOp):
            return self.emit_reduce_window(op, *args)
        if isinstance(op, bc.DimOp | bc.BroadcastSizeOp | bc.SizeFromTensorOp | bc.SizeToTensorOp
                      | bc.DynamicBroadcastInDimOp | bc.DynamicReshapeOp | bc.DynamicIotaOp | bc.SetDimensionSizeOp):
            return self.emit_dynamic(op, args)
        if isinstance(op, bc.ExtractOp):
            return self.emit_extract(op, args)
        if isinstance(op, bc.AssignOp):
            return self.emit_assign(op, args)
        raise PassError(op, "is not supported by the stablehlo target")

    # -- dynamic shapes: the form JAX exports (docs/stablehlo.md, "Dynamic programs")
    def size(self, size: int | SSAValue) -> SSAValue:
        """A size as the emitter holds one: a ``tensor<i64>`` (``index``)."""
        return self.scalar(size, "i64") if isinstance(size, int) else size

    def shape_tensor(self, sizes: Sequence[int | SSAValue]) -> SSAValue:
        """``concatenate`` of the sizes reshaped to ``tensor<1xi64>``, as JAX
        builds an output shape."""
        parts = [self.reshape(self.size(s), [1]) for s in sizes]
        return parts[0] if len(parts) == 1 else self.add(shlo.ConcatenateOp(parts, 0))

    def dim_size(self, value: SSAValue, dim: int) -> SSAValue:
        """``get_dimension_size`` of ``value``'s ``dim``, as a size."""
        size = self.add(shlo.GetDimensionSizeOp.create(
            operands=[value], result_types=[TensorType(IntegerType(32), [])],
            properties={"dimension": IntegerAttr(dim, i64)}))
        return self.convert(size, "i64")

    def emit_dynamic(self, op: bc.BcastOp, args: list[SSAValue]) -> SSAValue:
        if isinstance(op, bc.DimOp):
            return self.dim_size(args[0], op.dim)
        if isinstance(op, bc.BroadcastSizeOp):  # the first size that is not 1, else 1
            result = args[-1]
            for s in reversed(args[:-1]):
                not_one = self.add(shlo.CompareOp("NE", s, self.scalar(1, "i64")))
                result = self.add(shlo.SelectOp(not_one, s, result))
            return result
        if isinstance(op, bc.SizeFromTensorOp):
            return self.convert(args[0], "i64")
        if isinstance(op, bc.SizeToTensorOp):
            return self.convert(args[0], _element(op.result.type))
        t = flat_type(op.results[0].type)
        if isinstance(op, bc.DynamicReshapeOp):
            shape = self.shape_tensor(op.mixed_sizes(args[1:]))
            return self.add(shlo.DynamicReshapeOp.create(operands=[args[0], shape], result_types=[t]))
        if isinstance(op, bc.DynamicIotaOp):
            return self.add(shlo.DynamicIotaOp.create(
                operands=[self.shape_tensor(op.mixed_sizes(args))], result_types=[t],
                properties={"iota_dimension": IntegerAttr(op.dim, i64)}))
        if isinstance(op, bc.SetDimensionSizeOp):
            return self.add(shlo.SetDimensionSizeOp(args[0], self.convert(args[1], "i32"), op.dim, t))
        assert isinstance(op, bc.DynamicBroadcastInDimOp)
        shape = self.shape_tensor(op.mixed_sizes(args[1:]))
        facts = {name: dense_i64(values) for name, values in (("known_expanding_dimensions", op.expanding),
                                                              ("known_nonexpanding_dimensions", op.nonexpanding))
                 if values}  # fmt: skip
        return self.add(shlo.DynamicBroadcastInDimOp.create(
            operands=[args[0], shape], result_types=[flat_type(op.result.type)],
            properties={"broadcast_dimensions": dense_i64(op.dims), **facts}))

    def emit_check(self, op: bc.CheckBroadcastableOp | bc.ShapeAssertionOp, args: list[SSAValue]) -> None:
        """A run-time check as JAX writes one: ``custom_call @shape_assertion``
        of a ``tensor<i1>`` predicate, the message's ``{k}`` the values after
        it. jaxlib's shape refinement proves it at concrete sizes (or fails
        there, with the message)."""
        if isinstance(op, bc.ShapeAssertionOp):
            predicate, inputs, message = args[0], args[1:], op.message.data
        else:
            predicate, inputs, message = self.broadcastable(op, args)
        self.block.add_op(UnregisteredOp.with_name("stablehlo.custom_call").create(
            operands=[predicate, *inputs],
            properties={"call_target_name": StringAttr("shape_assertion"),
                        "has_side_effect": BoolAttr.from_bool(True),
                        "api_version": IntegerAttr(2, IntegerType(32))},
            attributes={"error_message": StringAttr(message)}))  # fmt: skip

    def broadcastable(self, op: bc.CheckBroadcastableOp, args: list[SSAValue]):
        """The check's predicate (at each checked dim every size landing there is
        1 or the size they broadcast to; with ``strict``, equal to the
        first), the SSA sizes for the message, and NumPy's message with a
        ``{k}`` for each."""
        shapes = op.shapes(args)
        ok: SSAValue | None = None
        for r in op.checked.get_values():
            sizes = [self.size(s) for shape, dims in zip(shapes, op.landing_dims()) for s, d in zip(shape, dims)
                     if d == r]  # fmt: skip
            target = sizes[0]
            if not op.is_strict:
                target = sizes[-1]
                for s in reversed(sizes[:-1]):
                    not_one = self.add(shlo.CompareOp("NE", s, self.scalar(1, "i64")))
                    target = self.add(shlo.SelectOp(not_one, s, target))
            for s in sizes:
                fits = self.add(shlo.CompareOp("EQ", s, target))
                if not op.is_strict:
                    one = self.add(shlo.CompareOp("EQ", s, self.scalar(1, "i64")))
                    fits = self.add(shlo.ELEMENTWISE_OPS["stablehlo.or"](fits, one))
                ok = fits if ok is None else self.add(shlo.ELEMENTWISE_OPS["stablehlo.and"](ok, fits))
        assert ok is not None
        inputs: list[SSAValue] = []
        words = []
        for shape in shapes:
            entries = []
            for s in shape:
                if isinstance(s, int):
                    entries.append(str(s))
                else:
                    entries.append(f"{{{len(inputs)}}}")
                    inputs.append(s)
            words.append("(" + ", ".join(entries) + ("," if len(entries) == 1 else "") + ")")
        return ok, inputs, f"{op.message.data} {' '.join(words)}"

    def convert_op(self, x: SSAValue, t: Attribute) -> SSAValue:
        """``convert``; booleans converted to floats pass through an
        ``optimization_barrier``: XLA's simplifier makes ``convert(p) * y``
        ``select(p, y, 0)``, also where it first turned a division into that
        product (``convert(p) / 0``, ``convert(p) / sqrt(y)``), which is 0,
        not NaN, for a false ``p`` and an infinite or NaN ``y``."""
        r = self.add(shlo.ConvertOp(x, t))
        if _element(x.type) == "i1" and rules.kind(_element(t)) == "float":
            r = self.add(shlo.OptimizationBarrierOp([r]))
        return r

    def emit_reduce(self, op: bc.ReduceOp, x: SSAValue) -> SSAValue:
        element = _element(op.operand.type)
        acc = rules.accumulator(element)  # as numerics.reduce accumulates
        x = self.convert(x, acc)
        dims = sorted(op.reduced_dims)
        scalar = make_type(((),), acc)
        body = Block(arg_types=[scalar, scalar])
        combiner = bc.REDUCTION_COMBINERS[op.kind_name].STABLEHLO
        combined = self.elementwise(combiner, body.args, block=body)
        body.add_op(shlo.ReturnOp(combined))
        init = self.constant(numerics.reduction_identity(op.kind_name, NUMPY_DTYPES[acc]), scalar)
        r = self.add(shlo.ReduceOp([x], [init], dims, Region(body)))
        r = self.convert(r, element)
        return self.reshape(r, flat_type_shape(op.result.type))

    def wide_starts(self, starts: Sequence[SSAValue], shape: Sequence[rules.Dim],
                    sizes: Sequence[rules.Dim]) -> list[SSAValue]:
        """The start indices of a dynamic slice, converted to ``i64`` when
        their type cannot hold some ``dim - size``: XLA clamps in the index
        type, so an ``i8`` start into 200 elements would clamp to ``200 - 3``
        wrapped (and write nothing), where bcast clamps exactly (docs/ir.md).
        Both signednesses widen by value, so the clamp is unchanged otherwise
        (a ``?`` dim: ``_largest``; a ``?`` update size may be 0)."""
        if not starts:
            return list(starts)
        element = _element(starts[0].type)
        high = max(_largest(n) - (z if isinstance(z, int) else 0) for n, z in zip(shape, sizes))
        if high <= scalar.integer_range(element)[1]:
            return list(starts)
        return [self.add(shlo.ConvertOp(s, make_type(((),), "i64"))) for s in starts]

    def wide_indices(self, op: bc.GatherOp, indices: SSAValue) -> SSAValue:
        """``gather``'s start indices, converted to ``i64`` when their type
        cannot hold some ``dim - slice size`` (as ``wide_starts``)."""
        shape, element = flat_type_shape(op.operand.type), _element(indices.type)
        high = max((_largest(shape[d]) - op.sizes[d] for d in op.dims.start_index_map), default=0)
        if high <= scalar.integer_range(element)[1]:
            return indices
        return self.add(shlo.ConvertOp(indices, make_type((flat_type_shape(indices.type),), "i64")))

    def emit_sort(self, op: bc.SortOp, values: SSAValue, *keys: SSAValue) -> SSAValue:
        """``sort`` of (keys..., values) with JAX's comparator on the keys
        (``shlo.sort_comparator``: ``jax.lax.sort``'s ``num_keys``), its
        last result (``jnp.argsort``'s form); of the keys alone when the
        values are one of them (``jnp.sort``'s), that key's result."""
        inputs = list(dict.fromkeys(keys))
        if values not in inputs:
            inputs.append(values)
        elements = [v.type.get_element_type() for v in inputs]
        order = [(inputs.index(key), "GT" if descending else "LT", total_order)
                 for key, (descending, total_order) in zip(keys, op.orders)]
        self.add(sort := shlo.SortOp(inputs, op.dim, shlo.sort_comparator(elements, order)))
        return sort.results[inputs.index(values)]

    def emit_arg_reduce(self, op: bc.ArgReduceOp, x: SSAValue) -> SSAValue:
        """JAX's form: a reduce of (x, iota along dim) from (the kind's
        identity, 0) with ``arg_reduce_body``, its index result."""
        shape = flat_type_shape(op.operand.type)
        element, index = _element(op.operand.type), _element(op.result.type)
        iota_type = make_type((tuple(shape),), index)
        if rules.is_dynamic(shape):  # JAX's dynamic_iota, sized by the operand's run-time dims
            sizes = [n if isinstance(n, int) else self.dim_size(x, d) for d, n in enumerate(shape)]
            iota = self.add(shlo.DynamicIotaOp.create(
                operands=[self.shape_tensor(sizes)], result_types=[iota_type],
                properties={"iota_dimension": IntegerAttr(op.dim, i64)}))
        else:
            iota = self.add(shlo.IotaOp(op.dim, iota_type))
        inits = [self.scalar(numerics.reduction_identity(op.START_KIND, NUMPY_DTYPES[element]), element),
                 self.scalar(0, index)]  # fmt: skip
        body = shlo.arg_reduce_body(op.STABLEHLO_DIRECTION, x.type.get_element_type(),
                                    iota.type.get_element_type())  # fmt: skip
        reduce = shlo.ReduceOp([x, iota], inits, [op.dim], body)
        self.block.add_op(reduce)
        return reduce.results[1]

    def emit_cumulative(self, op: bc.CumulativeOp, x: SSAValue) -> SSAValue:
        """JAX's form: a ``reduce_window`` over the whole dim, padded by its
        size - 1 before it (after it: ``reverse``), from the kind's identity;
        f16 runs in f32 as bcast accumulates, and the body's max/min keep
        NaN (``elementwise``). An empty dim (StableHLO has no window of
        size 0) is the operand itself, with no elements."""
        shape = flat_type_shape(op.operand.type)
        n = shape[op.dim]
        if n == 0:
            return x
        element = _element(op.operand.type)
        acc = rules.accumulator(element)
        x = self.convert(x, acc)
        if not isinstance(n, int):
            return self.convert(self.dynamic_cumulative(op, x, acc), element)
        window = [n if d == op.dim else 1 for d in range(len(shape))]
        edge = (0, n - 1) if op.is_reverse else (n - 1, 0)
        padding = [edge if d == op.dim else (0, 0) for d in range(len(shape))]
        init = self.scalar(numerics.reduction_identity(op.kind_name, NUMPY_DTYPES[acc]), acc)
        r = self.add(shlo.ReduceWindowOp([x], [init], window, padding, self.kind_body(op.kind_name, acc)))
        return self.convert(r, element)

    def dynamic_cumulative(self, op: bc.CumulativeOp, x: SSAValue, acc: str) -> SSAValue:
        """Along a ``?`` dim, JAX's form: ``custom_call
        @stablehlo.dynamic_reduce_window`` whose window and padding are size
        tensors and whose body is a function (``Reducers``), which jaxlib's
        shape refinement turns into the static ``reduce_window``. The window
        is ``w = maximum(n, 1)``, padded by ``w - 1``, not JAX's ``n`` and
        ``n - 1``: StableHLO has no window of size 0, and JAX never meets one
        (its dimension variables are at least 1); at ``n = 0`` the window of
        1, unpadded, gives the empty result."""
        shape = flat_type_shape(op.operand.type)
        rank, d = len(shape), op.dim
        w = self.add(shlo.ELEMENTWISE_OPS["stablehlo.maximum"](self.dim_size(x, d), self.scalar(1, "i64")))
        edge = self.elementwise("stablehlo.add", [w, self.scalar(-1, "i64")])
        window = self.shape_tensor([w if k == d else 1 for k in range(rank)])
        ones = self.shape_tensor([1] * rank)
        pairs = [self.reshape(self.shape_tensor([0, 0] if k != d else ([0, edge] if op.is_reverse else [edge, 0])),
                              [1, 2]) for k in range(rank)]  # fmt: skip
        padding = pairs[0] if rank == 1 else self.add(shlo.ConcatenateOp(pairs, 0))
        init = self.scalar(numerics.reduction_identity(op.kind_name, NUMPY_DTYPES[acc]), acc)
        reducer = self.reducers.symbol(op.kind_name, x.type.get_element_type(), self)
        return self.add(UnregisteredOp.with_name("stablehlo.custom_call").create(
            operands=[x, init, window, ones, ones, ones, padding], result_types=[x.type],
            properties={"call_target_name": StringAttr("stablehlo.dynamic_reduce_window"),
                        "api_version": IntegerAttr(2, IntegerType(32)),
                        "called_computations": ArrayAttr([SymbolRefAttr(reducer)])}))  # fmt: skip

    def emit_reduce_window(self, op: bc.ReduceWindowOp, x: SSAValue, init: SSAValue) -> SSAValue:
        """StableHLO's ``reduce_window`` with the same window, strides,
        dilations and padding from the kind's identity, its body the kind's
        binary op (max/min keep NaN: ``elementwise``), then ``init`` folded
        in once by that op, unless it is a constant equal to the identity
        (XLA folds another ``init`` once per window, but not at all where its
        simplifier drops a window of one element); f16 runs in f32 as bcast
        accumulates."""
        element = _element(op.operand.type)
        acc = rules.accumulator(element)
        identity = numerics.reduction_identity(op.kind_name, NUMPY_DTYPES[acc])
        window, strides, base_dilations, window_dilations, low, high = op.window
        r = self.add(shlo.ReduceWindowOp([self.convert(x, acc)], [self.scalar(identity, acc)], window,
                                         list(zip(low, high)), self.kind_body(op.kind_name, acc), strides,
                                         base_dilations, window_dilations))  # fmt: skip
        constant = op.init.owner.splat_value() if isinstance(op.init.owner, bc.ConstantOp) else None
        if constant is None or np.array(constant, identity.dtype).tobytes() != identity.tobytes():
            r = self.elementwise(bc.REDUCTION_COMBINERS[op.kind_name].STABLEHLO, [r, self.spread(init, acc, r)])
        return self.convert(r, element)

    def spread(self, scalar: SSAValue, element: str, like: SSAValue) -> SSAValue:
        """Rank-0 ``scalar`` (as ``element``) broadcast to ``like``'s shape:
        ``broadcast_in_dim``, or with ``?`` dims (a window count known only at
        run time) ``dynamic_broadcast_in_dim`` to ``like``'s sizes read by
        ``get_dimension_size``, as JAX writes it."""
        value, t = self.convert(scalar, element), like.type
        shape = flat_type_shape(t)
        if not any(isinstance(n, rules.Dynamic) for n in shape):
            return self.add(shlo.BroadcastInDimOp(value, [], t))
        sizes = [n if isinstance(n, int) else self.dim_size(like, d) for d, n in enumerate(shape)]
        return self.add(shlo.DynamicBroadcastInDimOp.create(
            operands=[value, self.shape_tensor(sizes)], result_types=[t],
            properties={"broadcast_dimensions": dense_i64([])}))

    def kind_body(self, kind: str, element: str) -> Region:
        """The combining region of a reduction ``kind`` on ``element``s: its
        binary op on the two arguments (max/min keep NaN: ``elementwise``)."""
        scalar = make_type(((),), element)
        body = Block(arg_types=[scalar, scalar])
        combined = self.elementwise(bc.REDUCTION_COMBINERS[kind].STABLEHLO, body.args, block=body)
        body.add_op(shlo.ReturnOp(combined))
        return Region(body)

    def index_plan(self, op: bc.ExtractOp | bc.AssignOp, args: list[SSAValue]):
        """The indexed value's flat shape and one start index per flat dim
        (an int, or a ``tensor<i64>`` for an SSA index)."""
        shape = flat_type_shape(op.indexed.type)
        dynamic = iter(args[1:1 + len(op.index_values)])
        plan = op.index_plan()
        starts: list[int | SSAValue] = []
        for pos, index in enumerate(op.indices()):
            value_index = next(dynamic) if index is None else None
            if pos < len(plan.indices):
                starts.append(value_index if plan.indices[pos] is None else plan.indices[pos])
        return shape, starts

    def start_values(self, starts: list[int | SSAValue], rank: int) -> list[SSAValue]:
        full = starts + [0] * (rank - len(starts))
        return [s if isinstance(s, SSAValue) else self.scalar(s, "i64") for s in full]

    def emit_extract(self, op: bc.ExtractOp, args: list[SSAValue]) -> SSAValue:
        shape, starts = self.index_plan(op, args)
        k = len(starts)
        sizes = [1] * k + list(shape[k:])
        if all(isinstance(s, int) for s in starts):
            begin = list(starts) + [0] * (len(shape) - k)
            limits = [b + s for b, s in zip(begin, sizes)]
            sliced = self.add(shlo.SliceOp(args[0], begin, limits, [1] * len(shape)))
        else:
            sliced = self.add(shlo.DynamicSliceOp(args[0], self.start_values(starts, len(shape)), sizes))
        return self.reshape(sliced, flat_type_shape(op.result.type))

    def emit_assign(self, op: bc.AssignOp, args: list[SSAValue]) -> SSAValue:
        shape, starts = self.index_plan(op, args)
        source = args[-1]
        if rules.element_count(flat_type_shape(op.source.type)) != rules.element_count(shape[len(starts):]) \
                or _element(op.source.type) != _element(op.dest.type):
            raise PassError(op, "the stablehlo target needs explicit IR (the source of the "
                            "indexed destination's type); run the bcast-make-explicit pass first")
        if not starts:
            return self.reshape(source, shape)
        k = len(starts)
        update = self.reshape(source, [1] * k + list(shape[k:]))
        return self.add(shlo.DynamicUpdateSliceOp(args[0], self.start_values(starts, len(shape)), update))


# --------------------------------------------------------------------------
# bcast.ir.scalar's primitives on StableHLO tensors
# --------------------------------------------------------------------------

PRIMITIVES: dict[str, tuple[str, str | None]] = {
    "arith.addf": ("add", None), "arith.addi": ("add", None), "arith.subf": ("subtract", None),
    "arith.subi": ("subtract", None), "arith.mulf": ("multiply", None), "arith.muli": ("multiply", None),
    "arith.divf": ("divide", None), "arith.remf": ("remainder", None), "arith.negf": ("negate", None),
    "arith.maximumf": ("maximum", None), "arith.minimumf": ("minimum", None),
    "arith.maxsi": ("maximum", SIGNED), "arith.maxui": ("maximum", UNSIGNED),
    "arith.minsi": ("minimum", SIGNED), "arith.minui": ("minimum", UNSIGNED),
    "arith.divsi": ("divide", SIGNED), "arith.divui": ("divide", UNSIGNED),
    "arith.remsi": ("remainder", SIGNED), "arith.remui": ("remainder", UNSIGNED),
    "arith.andi": ("and", None), "arith.ori": ("or", None), "arith.xori": ("xor", None),
    "arith.shli": ("shift_left", None), "arith.shrui": ("shift_right_logical", None),
    "arith.shrsi": ("shift_right_arithmetic", SIGNED),
    "math.absf": ("abs", None), "math.exp": ("exponential", None), "math.log": ("log", None),
    "math.sqrt": ("sqrt", None), "math.tanh": ("tanh", None), "math.floor": ("floor", None),
    "math.ceil": ("ceil", None), "math.sin": ("sine", None), "math.cos": ("cosine", None),
    "math.atan2": ("atan2", None), "math.powf": ("power", None), "math.log1p": ("log_plus_one", None),
    "math.expm1": ("exponential_minus_one", None),
    **{f"complex.{name}": (op, None) for name, op in (
        ("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("div", "divide"), ("neg", "negate"),
        ("exp", "exponential"), ("expm1", "exponential_minus_one"), ("log", "log"), ("log1p", "log_plus_one"),
        ("sqrt", "sqrt"), ("sin", "sine"), ("cos", "cosine"), ("tan", "tan"), ("tanh", "tanh"), ("abs", "abs"),
        ("pow", "power"), ("re", "real"), ("im", "imag"), ("create", "complex"))},
}  # fmt: skip
"""Each ``arith``/``math`` primitive's StableHLO op, and the signedness it
reads integers with where StableHLO's op reads the element type's
(``divsi`` is ``divide`` on signed integers)."""

_CMPF_DIRECTIONS = {"oeq": "EQ", "une": "NE", "olt": "LT", "ole": "LE", "ogt": "GT", "oge": "GE"}
"""StableHLO's FLOAT compare is ordered but for NE, which is true on NaN."""


def _with_kind(element: str, kind: str | None) -> str:
    """``element`` with the signedness ``kind`` (``i8`` and ``ui8``); other
    elements (and ``kind`` None) as they are."""
    if kind is None or rules.kind(element) not in (SIGNED, UNSIGNED):
        return element
    return element.removeprefix("u") if kind == SIGNED else "u" + element.removeprefix("u")


class StablehloScalars:
    """``bcast.ir.scalar``'s primitives as StableHLO ops on tensors of one
    shape, in a ``FunctionEmitter``'s block: the StableHLO target of an op
    whose StableHLO op does not compute its definition is the definition
    on these. A constant is a splat (``broadcast_in_dim`` of a rank-0
    one); a signless primitive that StableHLO computes by the element
    type's signedness reads the other signedness through
    ``bitcast_convert``; a loop is unrolled (its trip count is static).
    ``arith.divsi``/``remsi`` are StableHLO's ``divide``/``remainder``: the
    definitions only divide by a divisor that is never 0, so jaxlib's folder
    (which divides integer constants unchecked) never sees one."""

    def __init__(self, emitter: FunctionEmitter, shape: Sequence[int]):
        self.emitter = emitter
        self.shape = tuple(shape)

    def type(self, element: str) -> TensorType:
        return make_type((self.shape,), element)

    def read_as(self, x: SSAValue, kind: str | None) -> SSAValue:
        """``x``'s bits as ``kind`` (signed or unsigned) integers."""
        element = _element(x.type)
        target = _with_kind(element, kind)
        return x if target == element else self.emitter.add(shlo.BitcastConvertOp(x, self.type(target)))

    def const(self, value: int | float, element: str) -> SSAValue:
        return self.emitter.splat(value, self.type(element))

    def apply(self, name: str, *xs: SSAValue) -> SSAValue:
        expansion = special.EXPANSIONS.get(name) or special.STABLEHLO_EXPANSIONS.get(name)
        if expansion is not None:  # erfc, sinh, cosh, atanh: composed of the other primitives
            return expansion(self, _element(xs[0].type), *xs)
        if name in ("complex.eq", "complex.neq"):
            return self.emitter.add(shlo.CompareOp("EQ" if name == "complex.eq" else "NE", *xs))
        op, kind = PRIMITIVES[name]
        element = _element(xs[0].type)
        r = self.emitter.elementwise(f"stablehlo.{op}", [self.read_as(x, kind) for x in xs])
        return self.read_as(r, rules.kind(element)) if rules.kind(element) in (SIGNED, UNSIGNED) else r

    def cmpi(self, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        order = predicate.lstrip("su")
        kind = {"s": SIGNED, "u": UNSIGNED}.get(predicate[0]) if order != predicate else None
        assert not (kind == SIGNED and _element(x.type) == "i1"), "i1 compares unsigned"
        x, y = self.read_as(x, kind), self.read_as(y, kind)
        return self.emitter.add(shlo.CompareOp(order.upper(), x, y))

    def cmpf(self, predicate: str, x: SSAValue, y: SSAValue) -> SSAValue:
        if predicate == "uno":
            return self.apply("arith.ori", self.cmpf("une", x, x), self.cmpf("une", y, y))
        return self.emitter.add(shlo.CompareOp(_CMPF_DIRECTIONS[predicate], x, y, "FLOAT"))

    def select(self, condition: SSAValue, if_true: SSAValue, if_false: SSAValue) -> SSAValue:
        return self.emitter.add(shlo.SelectOp(condition, if_true, if_false))

    def cast(self, name: str, x: SSAValue, element: str) -> SSAValue:
        """``trunci`` to ``i1`` keeps the low bit (StableHLO's ``convert``
        to ``i1`` is ``x != 0``); the others are ``convert`` of ``x`` read
        with the cast's signedness, to the target of that signedness."""
        if name == "arith.bitcast":
            return self.emitter.add(shlo.BitcastConvertOp(x, self.type(element)))
        if name == "arith.trunci" and element == "i1":
            return self.cmpi("ne", self.apply("arith.andi", x, self.const(1, _element(x.type))),
                             self.const(0, _element(x.type)))
        kind = {"arith.sitofp": SIGNED, "arith.extsi": SIGNED, "arith.fptosi": SIGNED,
                "arith.uitofp": UNSIGNED, "arith.extui": UNSIGNED, "arith.fptoui": UNSIGNED}.get(name)  # fmt: skip
        x = self.read_as(x, kind)
        r = self.emitter.add(shlo.ConvertOp(x, self.type(_with_kind(element, kind))))
        return self.read_as(r, rules.kind(element) if rules.kind(element) in (SIGNED, UNSIGNED) else None)

    def loop(self, trips: int, inits: Sequence[SSAValue],
             body: Callable[[list[SSAValue]], list[SSAValue]]) -> list[SSAValue]:
        carried = list(inits)
        for _ in range(trips):
            carried = body(carried)
        return carried


class Reducers:
    """The body functions of a module's ``dynamic_reduce_window``s (JAX's
    ``reduce_window_float32_reducer``): one per kind and element type,
    named apart from the module's own functions (``taken``), each the
    kind's binary op (max/min with the emitter's NaN guard) and
    ``func.return``."""

    def __init__(self, taken: set[str]):
        self.taken = taken
        self.functions: dict[tuple[str, Attribute], func.FuncOp] = {}

    def symbol(self, kind: str, element: Attribute, emitter: FunctionEmitter) -> str:
        key = (kind, element)
        if key not in self.functions:
            name, n = f"cumulative_{kind}_{element}_reducer", 0
            while name in self.taken:
                n += 1
                name = f"cumulative_{kind}_{element}_reducer_{n}"
            self.taken.add(name)
            scalar = TensorType(element, [])
            body = Block(arg_types=[scalar, scalar])
            combined = emitter.elementwise(bc.REDUCTION_COMBINERS[kind].STABLEHLO, list(body.args), block=body)
            body.add_op(func.ReturnOp(combined))
            self.functions[key] = func.FuncOp(name, ([scalar, scalar], [scalar]), Region(body))
        return self.functions[key].sym_name.data


def entry_names(functions: dict[str, func.FuncOp], entry: str | None) -> dict[str, str]:
    """Renames that make ``@entry`` the module's ``@main`` (what XLA compiles
    and runs); a function already named ``main`` gets a fresh name."""
    if entry is None or entry == "main":
        return {}
    fresh, n = "main_0", 0
    while fresh in functions:
        n += 1
        fresh = f"main_{n}"
    return {entry: "main", "main": fresh}


def reachable(functions: dict[str, func.FuncOp], roots: list[str]) -> list[func.FuncOp]:
    """The functions ``roots`` call, transitively, in module order; a
    declaration among them is a located error (XLA cannot compile a call
    of it: jaxlib 0.10.2 crashes on one)."""
    seen, todo = set(roots), list(roots)
    while todo:
        f = functions[todo.pop()]
        if not f.body.blocks:
            raise PassError(f, "is a declaration without a body; the stablehlo target "
                            "cannot export a call of it")
        for call in f.walk():
            if isinstance(call, func.CallOp) and call.callee.root_reference.data not in seen:
                seen.add(call.callee.root_reference.data)
                todo.append(call.callee.root_reference.data)
    return [f for name, f in functions.items() if name in seen]


def emit_module(module: ModuleOp, entry: str | None = None) -> ModuleOp:
    """The StableHLO module of an explicit bcast module: every function with a
    body and what it calls (unused declarations are dropped) or, given an
    ``entry``, that function as ``@main`` and what it calls."""
    check_one_block_functions(module, "the stablehlo target")
    functions = {f.sym_name.data: f for f in module.walk() if isinstance(f, func.FuncOp)}
    if entry is not None and entry not in functions:
        raise PassError(module, f"no function @{entry} in the module")
    roots = [entry] if entry is not None else [n for n, f in functions.items() if f.body.blocks]
    names = entry_names(functions, entry)
    reducers = Reducers(set(functions) | set(names.values()))
    emitted = [FunctionEmitter(f, names, reducers).emit() for f in reachable(functions, roots)]
    result = ModuleOp(emitted + list(reducers.functions.values()))
    clean_up(result)
    return result


def clean_up(module: ModuleOp) -> None:
    """xDSL's ``canonicalize`` then ``cse``: the reshapes the emitter adds
    around slices and reductions compose with the program's own, and the
    constants it builds per use (splats, start indices, identities) are
    one each, so the output reads as written by hand."""
    from xdsl.transforms.canonicalize import CanonicalizePass
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    context = Context()
    CanonicalizePass().apply(context, module)
    CommonSubexpressionElimination().apply(context, module)


def emit_text(module: ModuleOp, entry: str | None = None) -> str:
    """``emit_module`` printed as MLIR text that jaxlib's MLIR parses."""
    out = StringIO()
    ExactPrinter(stream=out).print_op(emit_module(module, entry))
    return out.getvalue() + "\n"
