"""The reference semantics of bcast IR on xDSL's interpreter.

``BcastFunctions`` has one implementation per op of the ``bcast`` dialect,
as ``xdsl.interpreters.arith`` has per ``arith`` op; ``func.call`` and
``func.return`` are xDSL's own (``FuncFunctions``) and a ``bcast.fusion``
runs its body as a region. ``bcast.lowering.reference.Evaluator`` puts them
together; that is the oracle every other backend and every pass is tested
against, so each implementation is written for obviousness, not speed: an
elementwise op (or ``convert``, ``reduce``) is evaluated by the hook
constant folding uses too (``bcast.ir.evaluate``: broadcasting by
``bcast.ir.rules``, arithmetic by the op's ``NUMPY_FUNCTION`` from
``bcast.ir.numerics``); views, indexing and assignment are written out here.

Values are NumPy arrays; a nested (TML) value is stored flat (outer dims
then inner dims); ``index`` values are Python ints. Every tensor result is
an array of its type's flat shape and declared dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, TensorType, UnrealizedConversionCastOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation

from bcast.ir import numerics, rules
from bcast.ir import ops as bc
from bcast.ir.diagnostics import Report, call_notes, op_report, op_source_loc
from bcast.ir.evaluate import evaluate
from bcast.ir.control_flow import CaseOp, WhileOp
from bcast.ir.fusion import FusionOp, YieldOp
from bcast.ir.ops import semantics_of
from bcast.ir.types import has_dynamic_types, is_dynamic_type, split_type
from bcast.ir.types import flat_type_shape as flat_shape_of
from bcast.ir.types import numpy_dtype as dtype_of
from bcast.lowering import numpy_runtime as rt


class EvaluationError(Exception):
    """The program failed at run time (e.g. an index out of bounds); located."""

    def __init__(self, op: Operation | None, message: str, notes: Sequence[str] = ()):
        super().__init__(message)
        self.report = (
            op_report(op, message, notes) if op is not None else Report("error", message, None, list(notes))
        )

    def __str__(self) -> str:
        return self.report.render()


@dataclass
class ReferenceInterpreter(Interpreter):
    """xDSL's interpreter with the reference backend's two rules for calls:
    a callee is found by name among ``functions`` (every ``func.func`` of
    the module, nested ones included), and a declaration (a function without
    a body: an external function to xDSL) cannot be called."""

    functions: dict[str, Operation] = field(default_factory=dict)

    def get_op_for_symbol(self, symbol: str | SymbolRefAttr) -> Operation:
        name = symbol if isinstance(symbol, str) else symbol.root_reference.data
        if name in self.functions:
            return self.functions[name]
        return super().get_op_for_symbol(symbol)

    def call_external(self, sym_name: str, op: Operation, inputs: PythonValues = ()) -> PythonValues:
        raise EvaluationError(op, "is a declaration without a body")


def _lapack_results(op: bc.LapackOp, values: Sequence[Any]) -> PythonValues:
    """Every result of a LAPACK factorization (``numerics.lu``,
    ``numerics.cholesky``), each of its declared dtype."""
    return tuple(np.asarray(v).astype(dtype_of(r.type), copy=False) for v, r in zip(values, op.results))


def _typed(op: Operation, value: Any) -> PythonValues:
    """The one result of ``op`` as the evaluator stores it: an array of the
    result type's flat shape, cast to its declared dtype. With dynamic
    dims, the run-time shape must be one the type allows (a declared type
    more static than the inferred one is checked here)."""
    t = op.results[0].type
    if isinstance(t, TensorType):
        value = np.asarray(value)
        want = flat_shape_of(t)
        if rules.is_dynamic(want) or any(is_dynamic_type(v.type) for v in op.operands):
            if not rules.fits(want, value.shape):
                raise EvaluationError(op, bc.RESULT_SHAPE_WORDS.format(shape=value.shape, type=t))
        else:
            assert value.shape == want, (op.name, value.shape, want)
        value = value.astype(dtype_of(t), copy=False)
    return (value,)


class RuntimeShapeFailure(EvaluationError):
    """A run-time shape error, located at the op and worded as NumPy words it
    (``prog.mlir:7:10: error: operands could not be broadcast together with
    shapes (3,) (4,)``): the op's name is not prefixed, as NumPy's message
    stands for itself."""

    def __init__(self, op: Operation, e: bc.RuntimeShapeError):
        super().__init__(op, e.message, e.notes)
        self.report = Report("error", e.message, op_source_loc(op), [*call_notes(op), *e.notes])


def _broadcast_in_dim_shape(op: bc.BroadcastInDimOp, operand: np.ndarray) -> tuple[int, ...]:
    """The result's run-time shape: a static dim as declared, a ``?`` dim the
    size of the operand dim mapped to it (``rules.check_dynamic_result_dims``);
    an operand dim neither 1 nor that size is an error."""
    declared = flat_shape_of(op.result.type)
    source = {d: k for k, d in enumerate(op.dims)}
    shape = tuple(operand.shape[source[d]] if isinstance(n, rules.Dynamic) else n for d, n in enumerate(declared))
    try:
        bc.check_expansion(operand.shape, shape, op.dims)
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None
    return shape


def check_broadcastable(op: bc.CheckBroadcastableOp, shapes: Sequence[tuple[int, ...]]) -> None:
    """``op`` on the operands' run-time ``shapes``, located at the op (the
    reference backend and the C runtime, which checks before its call)."""
    try:
        op.check(shapes)
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None


def check_expansion(op: bc.DynamicBroadcastInDimOp, operand: tuple[int, ...], shape: tuple[int, ...]) -> None:
    """``op``'s expansion of an operand of run-time shape ``operand`` into
    ``shape`` (``bcast.ir.ops.check_expansion``), located at the op."""
    try:
        bc.check_expansion(operand, shape, op.dims, op.expanding, op.nonexpanding)
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None


def _checked(op: Operation, rule, *args):
    """``rule(*args)`` (a run-time rule of ``bcast.ir.ops``), its failure
    located at ``op``."""
    try:
        return rule(*args)
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None


def _index(op: bc.ExtractOp | bc.AssignOp, dynamic: Sequence[int]) -> tuple[tuple[int, ...], rules.IndexPlan]:
    """The op's indices as a NumPy index tuple: the literal ones normalised by
    ``rules.plan_indices``, the dynamic ones (its ``index`` operands) by
    ``rules.runtime_index``, as every backend does (index-access broadcasting
    under tml); out of bounds is located here."""
    semantics = semantics_of(op)
    flat = flat_shape_of(op.indexed.type)
    given = iter(dynamic)
    values = [int(next(given)) if v is None else v for v in op.indices()]
    try:
        plan = op.index_plan()
        index = tuple(
            rules.runtime_index(values[pos], flat[pos], semantics == "tml", pos) if i is None else i
            for pos, i in enumerate(plan.indices)
        )
    except rules.RuleError as e:
        raise EvaluationError(op, e.message, e.notes) from None
    return index, plan


class BcastFunctions(InterpreterFunctions):
    """The ``bcast`` dialect. The elementwise families (binary, compare,
    select, unary) share one implementation, registered below for every op
    of each family: ``bcast.ir.evaluate`` applies the op's ``NUMPY_FUNCTION``
    to the broadcast, promoted operands.
    (``register_impls`` is applied after that loop, which also registers
    ``run_unsupported`` for the ops in ``UNSUPPORTED``.)"""

    def run_elementwise(
        self, interpreter: Interpreter, op: bc.ElementwiseOp, args: PythonValues
    ) -> PythonValues:
        try:
            return _typed(op, evaluate(op, *args))
        except bc.RuntimeShapeError as e:
            raise RuntimeShapeFailure(op, e) from None

    @impl(bc.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: bc.ConstantOp, args: PythonValues) -> PythonValues:
        return _typed(op, op.numpy_value())

    @impl(bc.BroadcastInDimOp)
    def run_broadcast_in_dim(
        self, interpreter: Interpreter, op: bc.BroadcastInDimOp, args: PythonValues
    ) -> PythonValues:
        dims = op.broadcast_dimensions.get_values()
        shape = flat_shape_of(op.result.type)
        if rules.is_dynamic(shape) or rules.is_dynamic(flat_shape_of(op.operand.type)):
            shape = _broadcast_in_dim_shape(op, args[0])
        return _typed(op, rt.broadcast_in_dim(args[0], dims, shape))

    @impl(bc.DimOp)
    def run_dim(self, interpreter: Interpreter, op: bc.DimOp, args: PythonValues) -> PythonValues:
        return (int(args[0].shape[op.dim]),)

    @impl(bc.BroadcastSizeOp)
    def run_broadcast_size(self, interpreter: Interpreter, op: bc.BroadcastSizeOp, args: PythonValues) -> PythonValues:
        return (bc.broadcast_size(args),)

    @impl(bc.CheckBroadcastableOp)
    def run_check_broadcastable(
        self, interpreter: Interpreter, op: bc.CheckBroadcastableOp, args: PythonValues
    ) -> PythonValues:
        check_broadcastable(op, [tuple(int(s) for s in shape) for shape in op.shapes(args)])
        return ()

    @impl(bc.DynamicBroadcastInDimOp)
    def run_dynamic_broadcast_in_dim(
        self, interpreter: Interpreter, op: bc.DynamicBroadcastInDimOp, args: PythonValues
    ) -> PythonValues:
        operand, *sizes = args
        shape = tuple(int(s) for s in op.mixed_sizes(sizes))
        check_expansion(op, operand.shape, shape)
        return _typed(op, rt.broadcast_in_dim(operand, op.dims, shape))

    @impl(bc.SizeFromTensorOp)
    def run_size_from_tensor(self, interpreter: Interpreter, op: bc.SizeFromTensorOp, args: PythonValues) -> PythonValues:
        return (_checked(op, bc.check_size, int(args[0])),)

    @impl(bc.SizeToTensorOp)
    def run_size_to_tensor(self, interpreter: Interpreter, op: bc.SizeToTensorOp, args: PythonValues) -> PythonValues:
        dtype = dtype_of(op.result.type)
        _checked(op, bc.check_size_fits, int(args[0]), dtype, str(op.result.type))
        return _typed(op, np.array(int(args[0]), dtype=dtype))

    @impl(bc.ShapeAssertionOp)
    def run_shape_assertion(self, interpreter: Interpreter, op: bc.ShapeAssertionOp, args: PythonValues) -> PythonValues:
        predicate, *inputs = args
        if not bool(predicate):
            raise RuntimeShapeFailure(op, bc.RuntimeShapeError(op.formatted([int(v) for v in inputs])))
        return ()

    @impl(bc.DynamicReshapeOp)
    def run_dynamic_reshape(self, interpreter: Interpreter, op: bc.DynamicReshapeOp, args: PythonValues) -> PythonValues:
        operand, *sizes = args
        shape = tuple(int(s) for s in op.mixed_sizes(sizes))
        _checked(op, bc.check_reshape, operand.size, shape)
        return _typed(op, np.reshape(operand, shape))

    @impl(bc.DynamicIotaOp)
    def run_dynamic_iota(self, interpreter: Interpreter, op: bc.DynamicIotaOp, args: PythonValues) -> PythonValues:
        shape = tuple(int(s) for s in op.mixed_sizes(args))
        return _typed(op, numerics.iota(shape, op.dim, dtype_of(op.result.type)))

    @impl(bc.SetDimensionSizeOp)
    def run_set_dimension_size(self, interpreter: Interpreter, op: bc.SetDimensionSizeOp, args: PythonValues) -> PythonValues:
        operand, size = args[0], int(args[1])
        _checked(op, bc.check_dimension_size, size, op.dim, operand.shape[op.dim])
        return _typed(op, np.take(operand, np.arange(size), axis=op.dim))

    @impl(bc.TransposeOp)
    def run_transpose(self, interpreter: Interpreter, op: bc.TransposeOp, args: PythonValues) -> PythonValues:
        return _typed(op, np.transpose(args[0], op.permutation.get_values()))

    @impl(bc.ReshapeOp)
    def run_reshape(self, interpreter: Interpreter, op: bc.ReshapeOp, args: PythonValues) -> PythonValues:
        if has_dynamic_types(op):
            return _typed(op, np.reshape(args[0], _checked(op, bc.reshape_sizes, np.size(args[0]),
                                                           op.declared_sizes())))
        return _typed(op, np.reshape(args[0], flat_shape_of(op.result.type)))

    @impl(bc.NarrowOp)
    def run_narrow(self, interpreter: Interpreter, op: bc.NarrowOp, args: PythonValues) -> PythonValues:
        return _typed(op, np.reshape(args[0], flat_shape_of(op.result.type)))

    @impl(bc.ConvertOp)
    def run_convert(self, interpreter: Interpreter, op: bc.ConvertOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.BitcastConvertOp)
    def run_bitcast_convert(self, interpreter: Interpreter, op: bc.BitcastConvertOp,
                            args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.ReduceOp)
    def run_reduce(self, interpreter: Interpreter, op: bc.ReduceOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.IotaOp)
    def run_iota(self, interpreter: Interpreter, op: bc.IotaOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op))

    @impl(bc.ReverseOp)
    def run_reverse(self, interpreter: Interpreter, op: bc.ReverseOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.ConcatenateOp)
    def run_concatenate(self, interpreter: Interpreter, op: bc.ConcatenateOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_concatenate, [np.shape(x) for x in args], op.dim)  # ? dims: sizes at run time
        return _typed(op, evaluate(op, *args))

    @impl(bc.PadOp)
    def run_pad(self, interpreter: Interpreter, op: bc.PadOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_pad, np.shape(args[0]), op.low, op.high, op.interior)
        return _typed(op, evaluate(op, *args))


    @impl(bc.DotGeneralOp)
    def run_dot_general(self, interpreter: Interpreter, op: bc.DotGeneralOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_dot_pairs, args[0].shape, args[1].shape, op.dims)
        return _typed(op, evaluate(op, *args))

    @impl(bc.ConvolutionOp)
    def run_convolution(self, interpreter: Interpreter, op: bc.ConvolutionOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, *args))

    @impl(bc.DynamicConvOp)
    def run_dynamic_conv(self, interpreter: Interpreter, op: bc.DynamicConvOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_dynamic_conv, np.shape(args[0]), np.shape(args[1]), op.conv, args[2], op.declared_sizes())
        return _typed(op, evaluate(op, *args))

    @impl(bc.TriangularSolveOp)
    def run_triangular_solve(self, interpreter: Interpreter, op: bc.TriangularSolveOp,
                             args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, *args))

    @impl(bc.FftOp)
    def run_fft(self, interpreter: Interpreter, op: bc.FftOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, *args))

    @impl(bc.LuOp)
    def run_lu(self, interpreter: Interpreter, op: bc.LuOp, args: PythonValues) -> PythonValues:
        return _lapack_results(op, evaluate(op, *args))

    @impl(bc.CholeskyOp)
    def run_cholesky(self, interpreter: Interpreter, op: bc.CholeskyOp, args: PythonValues) -> PythonValues:
        return _lapack_results(op, evaluate(op, *args))

    @impl(bc.MatmulOp)
    def run_matmul(self, interpreter: Interpreter, op: bc.MatmulOp, args: PythonValues) -> PythonValues:
        """Under xla, the pairs ``dot_general`` would check
        (``check_dot_pairs``: equal batch dims, in JAX's words); under numpy
        and tml, ``np.matmul``'s rule in NumPy's words
        (``check_matmul_shapes``: batch dims broadcast)."""
        lhs, rhs = np.shape(args[0]), np.shape(args[1])
        if semantics_of(op) != "xla":
            _checked(op, bc.check_matmul_shapes, lhs, rhs)
        else:
            dims = op.plan().dims
            if len(lhs) < 3 or len(rhs) < 3:
                dims = rules.DotDims((), (), (len(lhs) - 1,), (0 if len(rhs) == 1 else len(rhs) - 2,))
            _checked(op, bc.check_dot_pairs, lhs, rhs, dims)
        return _typed(op, evaluate(op, *args))

    @impl(bc.ArgmaxOp)
    def run_argmax(self, interpreter: Interpreter, op: bc.ArgmaxOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_arg_reduce_size, op.short_name, np.shape(args[0])[op.dim], op.dim,
                 split_type(op.result.type)[1])
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.ArgminOp)
    def run_argmin(self, interpreter: Interpreter, op: bc.ArgminOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_arg_reduce_size, op.short_name, np.shape(args[0])[op.dim], op.dim,
                 split_type(op.result.type)[1])
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.CumulativeOp)
    def run_cumulative(self, interpreter: Interpreter, op: bc.CumulativeOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.SortOp)
    def run_sort(self, interpreter: Interpreter, op: bc.SortOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_sort, [np.shape(x) for x in args])  # ? dims: one shape at run time
        return _typed(op, evaluate(op, *args))

    @impl(bc.ReduceWindowOp)
    def run_reduce_window(self, interpreter: Interpreter, op: bc.ReduceWindowOp, args: PythonValues) -> PythonValues:
        return _typed(op, evaluate(op, *args))

    @impl(bc.ReduceWindowBodyOp)
    def run_reduce_window_body(self, interpreter: Interpreter, op: bc.ReduceWindowBodyOp,
                               args: PythonValues) -> PythonValues:
        """Written out element by element, for obviousness: each result
        element runs the body on 0-d arrays once per window place, in
        row-major order, the place's element read from the input dilated
        and padded with its init value (``numerics.pad``)."""
        n = len(op.inputs)
        inputs, inits = [np.asarray(x) for x in args[:n]], [np.asarray(v) for v in args[n:]]
        _checked(op, bc.check_window_result, [x.shape for x in inputs], op.window, (), op.name, "")  # one shape
        window, strides, base, dilations, low, high = op.window
        shape = rules.reduce_window_shape(inputs[0].shape, window, strides, base, dilations, low, high)
        padded = [numerics.pad(x, v, low, high, [d - 1 for d in base]) for x, v in zip(inputs, inits)]
        results = [np.full(shape, v, dtype=x.dtype) for x, v in zip(inputs, inits)]
        for out in np.ndindex(*shape):
            carried = tuple(inits)
            for place in np.ndindex(*window):
                at = tuple(o * s + p * d for o, s, p, d in zip(out, strides, place, dilations))
                elements = tuple(np.asarray(x[at]) for x in padded)
                carried = tuple(interpreter.run_ssacfg_region(op.body, (*carried, *elements),
                                                              "bcast.reduce_window_body"))
            for r, v in zip(results, carried):
                r[out] = v
        for r, t in zip(results, op.outputs):
            if not rules.fits(flat_shape_of(t.type), r.shape):
                raise EvaluationError(op, bc.RESULT_SHAPE_WORDS.format(shape=r.shape, type=t.type))
        return tuple(results)

    @impl(bc.SliceOp)
    def run_slice(self, interpreter: Interpreter, op: bc.SliceOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_slice, np.shape(args[0]), op.limits)
        return _typed(op, evaluate(op, args[0]))

    @impl(bc.DynamicSliceOp)
    def run_dynamic_slice(self, interpreter: Interpreter, op: bc.DynamicSliceOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_dynamic_slice_sizes, np.shape(args[0]), op.sizes)
        return _typed(op, evaluate(op, *args))

    @impl(bc.DynamicUpdateSliceOp)
    def run_dynamic_update_slice(self, interpreter: Interpreter, op: bc.DynamicUpdateSliceOp,
                                 args: PythonValues) -> PythonValues:
        _checked(op, bc.check_dynamic_update_sizes, np.shape(args[0]), np.shape(args[-1]))
        return _typed(op, evaluate(op, *args))

    @impl(bc.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: bc.GatherOp, args: PythonValues) -> PythonValues:
        """A gather of no slices (a batch dim of the indices is 0) reads
        nothing, so its slice sizes are not checked against the operand
        (``CheckDynamicSliceSizes``)."""
        indices = np.shape(args[1])
        if 0 not in [indices[k] for k in op.dims.batch_dims(len(indices))]:
            _checked(op, bc.check_dynamic_slice_sizes, np.shape(args[0]), op.sizes, "gather slice")
        return _typed(op, evaluate(op, *args))

    @impl(bc.ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: bc.ScatterOp, args: PythonValues) -> PythonValues:
        _checked(op, bc.check_scatter_sizes, *(np.shape(a) for a in args), op.dims)
        return _typed(op, evaluate(op, *args))

    @impl(bc.ExtractOp)
    def run_extract(self, interpreter: Interpreter, op: bc.ExtractOp, args: PythonValues) -> PythonValues:
        x, *dynamic = args
        index, _ = _index(op, dynamic)
        return _typed(op, np.array(x[index]).reshape(flat_shape_of(op.result.type)))

    @impl(bc.AssignOp)
    def run_assign(self, interpreter: Interpreter, op: bc.AssignOp, args: PythonValues) -> PythonValues:
        dst, *dynamic, src = args
        index, plan = _index(op, dynamic)
        src_levels, _ = split_type(op.source.type)
        src = src.reshape(rules.flat_broadcast_shape(src_levels, plan.result))
        return _typed(op, rt.assign(dst, index, src))

    @impl(FusionOp)
    def run_fusion(self, interpreter: Interpreter, op: FusionOp, args: PythonValues) -> PythonValues:
        return interpreter.run_ssacfg_region(op.body, args, "bcast.fusion")

    @impl(WhileOp)
    def run_while(self, interpreter: Interpreter, op: WhileOp, args: PythonValues) -> PythonValues:
        carried = tuple(args)
        while bool(interpreter.run_ssacfg_region(op.cond, carried, "bcast.while")[0]):
            carried = tuple(interpreter.run_ssacfg_region(op.body, carried, "bcast.while"))
        return carried

    @impl(CaseOp)
    def run_case(self, interpreter: Interpreter, op: CaseOp, args: PythonValues) -> PythonValues:
        branch = op.branches[op.taken(int(args[0]))]
        return tuple(interpreter.run_ssacfg_region(branch, (), "bcast.case"))

    @impl_terminator(YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    def run_unsupported(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        raise EvaluationError(op, "cannot be evaluated by the reference backend")


ELEMENTWISE_FAMILIES = (bc.BinaryOp, bc.TernaryOp, bc.UnaryOp)
"""The elementwise families (``compare`` is a binary op; ``select`` and
``clamp`` are ternary)."""

UNSUPPORTED = (UnrealizedConversionCastOp, ModuleOp, func.FuncOp)
"""Ops of the loaded dialects that may stand in a function body but have no
reference semantics: reaching one is a located error, as any run-time error
of the program is."""

for _op_type in bc.OPS:
    if issubclass(_op_type, ELEMENTWISE_FAMILIES):
        _name = _op_type.name.removeprefix("bcast.")
        setattr(BcastFunctions, f"run_{_name}", impl(_op_type)(BcastFunctions.run_elementwise))
for _op_type in UNSUPPORTED:
    _name = _op_type.name.replace(".", "_")
    setattr(BcastFunctions, f"run_{_name}", impl(_op_type)(BcastFunctions.run_unsupported))
register_impls(BcastFunctions)
