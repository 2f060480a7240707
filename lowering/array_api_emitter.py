"""The Array API target: explicit bcast IR -> a Python module whose functions
take and return arrays of any Array API library.

One Python function per ``func.func``. The namespace comes from the
arguments (``array_api_compat.array_namespace``), so a function called with
dask arrays builds a lazy dask graph (nothing is computed, nothing converted
to NumPy), with JAX arrays works under ``jax.jit``, with ``array_api_strict``
arrays proves that only the standard is used. Input: IR after
``bcast-make-explicit`` and the simplifications (``tools.driver``'s explicit
pipeline), not fused: fusion is how the NumPy backend keeps temporaries in
cache, while these libraries schedule (dask) or fuse (XLA) themselves.

Every op is one standard function or one function of
``bcast.lowering.array_api_runtime``: an elementwise op is ``xp.<function>``
where its definition (``bcast.ir.scalar``) is one standard function on its
element type, else the definition run on standard functions
(``ar.divide``); reductions, broadcasts and indexing are runtime functions. Constants are kept at module
level as exact NumPy values and made into the caller's library on each call.
Dynamic indices of ``extract``/``assign`` must be Python integers (they are
checked as the NumPy backend checks them), so under ``jax.jit`` they are
static arguments. ``bcast.while``/``bcast.case`` are a Python ``while``
and ``if`` on ``bool()``/``int()`` of a 0-d array (docs/ir.md, "Control
flow"): eager arrays of any library run them, a JAX tracer under
``jax.jit`` cannot (bcast does not trace). ``f16`` runs where the library has ``float16`` (NumPy,
dask, JAX; the standard itself has no ``float16``).
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation

from bcast.ir import ops as bc
from bcast.ir import rules, scalar
from bcast.ir.fusion import FusionOp, is_elementwise, is_explicit
from bcast.ir.types import has_dynamic_types, split_type
from bcast.lowering import array_api_runtime
from bcast.lowering.numpy_emitter import (
    Expression,
    PythonFunctionEmitter,
    check_static_or_explicit,
    PythonModuleEmitter,
    dot_dims_expr,
    results_target,
    dtype_name,
    dtype_source,
    expression_for,
    python_tuple,
    result_shape,
    slice_index,
    sliced_operand,
    site,
    starts_source,
)
from bcast.passes.errors import PassError, check_element_types

NIBBLES_REFUSED = ["the Array API standard has no 4-bit integers; the reference, numpy and c backends "
                   "compute i4 and ui4 (or convert them to i8/ui8 first)"]
"""Why the array-api target refuses ``i4``/``ui4`` on every namespace
(docs/array-api.md): the standard has no 4-bit integers, array_api_strict
and dask none at all, NumPy's namespace functions do not take ml_dtypes'
int4, and JAX refuses some ops on its own."""


class FunctionEmitter(PythonFunctionEmitter):
    """One function: every op one standard or ``array_api_runtime`` call."""

    def emit(self) -> None:
        f, out, n = self.function, self.out, self.names
        check_element_types(f, rules.NIBBLES, "the array-api target", NIBBLES_REFUSED)
        block = f.body.blocks[0]
        params, argument_specs, result_specs = self.begin_function()
        tensors = [n[a] for a in block.args if not isinstance(a.type, IndexType)]
        out(f"xp = ar.namespace({', '.join(tensors)})")
        for i, name in enumerate(params):
            out(f"{name} = ar.argument(xp, {name}, {argument_specs}[{i}])")
        ret = block.last_op
        assert isinstance(ret, func.ReturnOp)
        out("with np.errstate(all='ignore'):  # NumPy-backed namespaces warn otherwise")
        out.depth += 1
        for op in block.ops:
            if op is ret:
                break
            self.emit_op(op)
        if op is block.first_op:
            out("pass")
        out.depth -= 1
        values = python_tuple([n[v] for v in ret.arguments])
        out(f"return ar.deliver(xp, {values}, out, {result_specs}, {python_tuple(tensors)})")
        out.depth -= 1

    def emit_op(self, op: Operation) -> None:
        out, n = self.out, self.names
        if isinstance(op, func.CallOp):
            call = f"{self.python_names[op.callee.root_reference.data]}({', '.join(n[a] for a in op.arguments)})"
            if len(op.results) == 1:
                out(f"{n[op.results[0]]} = {call}")
            elif op.results:
                out(f"{', '.join(n[r] for r in op.results)} = {call}")
            else:
                out(call)
            return
        if self.emit_control_flow(op):
            return
        if isinstance(op, FusionOp):
            raise PassError(op, "the array-api target takes unfused IR (run it without bcast-fuse)")
        if self.emit_size_op(op):
            return
        if isinstance(op, bc.ReduceWindowOp | bc.ReduceWindowBodyOp) \
                and (declared := op.run_time_check()) is not None:  # sizes only known when it runs
            inputs = op.inputs if isinstance(op, bc.ReduceWindowBodyOp) else [op.operand]
            out(f"rt.window_result({site(op)!r}, {python_tuple([f'{n[v]}.shape' for v in inputs])}, {op.window!r}, "
                f"{declared!r}, {op.name!r}, {str(op.results[0].type)!r})")
        if isinstance(op, bc.ReduceWindowBodyOp):
            fn = self.window_body_function(op)
            out(f"{python_tuple([n[r] for r in op.outputs])} = ar.reduce_window_body(xp, {fn}, "
                f"{python_tuple([n[v] for v in op.inputs])}, {python_tuple([n[v] for v in op.init_values])}, "
                f"{op.window!r})")
            return
        check_static_or_explicit(op, "the array-api target")
        r = op.results[0]
        x = n[op.operands[0]] if op.operands else ""
        if isinstance(op, bc.ConstantOp):
            array = op.numpy_value()
            if op.splat_value() is not None:
                array = array.reshape(-1)[:1]
            name = self.module_name(f"_{self.function.sym_name.data}_{n[r]}")
            self.constants.append(
                f"{name} = rt.constant({array.tobytes().hex()!r}, {dtype_source(array.dtype.name)}, {tuple(array.shape) if array.size != 1 else ()})"
            )
            out(f"{n[r]} = ar.constant(xp, {name}, {dtype_name(r.type)!r}, {result_shape(op)})")
        elif (expression := expression_for(EXPRESSIONS, op)) is not None:
            out(f"{results_target(n, op)} = {expression(self, op, x)}")
        elif is_elementwise(op):
            if not is_explicit(op):
                raise PassError(op, "the array-api target needs explicit IR; run the "
                                "bcast-make-explicit pass first")
            out(f"{n[r]} = {self.elementwise(op)}")
        else:
            raise PassError(op, "is not supported by the array-api target")

    WINDOW_BODY_PARAMS = "xp, "

    def window_constant(self, name: str, op: bc.ConstantOp) -> str:
        return f"ar.constant(xp, {name}, {dtype_name(op.result.type)!r}, ())"

    def window_body_code(self, op: Operation) -> list[str]:
        """An elementwise op of a window body: its standard function (they broadcast)."""
        return [f"{self.names[op.results[0]]} = {self.elementwise(op)}"]

    def elementwise(self, op: Operation) -> str:
        """The expression computing an explicit elementwise op: the standard
        function its definition is on the operands' element type, if one is
        (``array_api_runtime.standard_function``), else the definition run
        on the primitives (``ar.<definition>``, ``ar.compare``, ``ar.convert``)."""
        args = ", ".join(self.names[v] for v in op.operands)
        element = split_type(op.operands[0].type)[1]
        if isinstance(op, bc.BitcastConvertOp):
            return f"ar.bitcast(xp, {args}, {dtype_name(op.results[0].type)!r})"
        if isinstance(op, bc.ConvertOp):
            return f"ar.convert(xp, {args}, {dtype_name(op.results[0].type)!r})"
        if isinstance(op, bc.SelectOp):
            return f"xp.where({args})"
        if isinstance(op, bc.CompareOp):
            direction = op.comparison_direction.data.value
            if op.is_total_order:
                return f"ar.compare(xp, {direction!r}, {args}, total_order=True)"
            standard = array_api_runtime.standard_comparison(element, direction)
            return f"xp.{standard}({args})" if standard else f"ar.compare(xp, {direction!r}, {args})"
        standard = array_api_runtime.standard_function(op.SCALAR, element, len(op.operands))
        if standard is not None:
            return f"xp.{standard}({args})"
        return f"ar.{scalar.name_of(op.SCALAR)}(xp, {args})"

    def index_expr(self, op: bc.ExtractOp | bc.AssignOp) -> str:
        """``index_parts``, each followed by a comma (the caller adds ``...``)."""
        return "".join(p + ", " for p in self.index_parts(op))


EXPRESSIONS: dict[type[Operation], Expression] = {
    # the explicit dynamic form's arrays
    bc.DynamicBroadcastInDimOp: lambda e, op, x: (
        f"ar.dynamic_broadcast_in_dim(xp, {x}, {e.dynamic_broadcast_args(op)})"),
    bc.SizeToTensorOp: lambda e, op, x: (
        f"ar.size_to_tensor(xp, {x}, {dtype_name(op.result.type)!r}, {str(op.result.type)!r}, {site(op)!r})"),
    bc.DynamicReshapeOp: lambda e, op, x: (
        f"ar.dynamic_reshape(xp, {x}, {e.sizes_source(op.mixed_sizes())}, {site(op)!r})"),
    bc.DynamicIotaOp: lambda e, op, x: (
        f"ar.iota(xp, {e.sizes_source(op.mixed_sizes())}, {op.dim}, {dtype_name(op.result.type)!r})"),
    bc.SetDimensionSizeOp: lambda e, op, x: (
        f"ar.set_dimension_size(xp, {x}, {op.dim}, {e.names[op.size]}, {site(op)!r})"),
    # static shapes
    bc.BroadcastInDimOp: lambda e, op, x: f"ar.broadcast_in_dim(xp, {x}, {list(op.dims)}, {result_shape(op)})",
    bc.TransposeOp: lambda e, op, x: f"xp.permute_dims({x}, {tuple(op.permutation.get_values())})",
    bc.ReverseOp: lambda e, op, x: f"xp.flip({x}, axis={tuple(op.dims)})" if op.dims else x,
    bc.SliceOp: lambda e, op, x: f"{sliced_operand(op, x)}[{slice_index(op)}]",
    bc.IotaOp: lambda e, op, x: f"ar.iota(xp, {result_shape(op)}, {op.dim}, {dtype_name(op.result.type)!r})",
    bc.ConcatenateOp: lambda e, op, x: (
        f"ar.concatenate(xp, [{', '.join(e.names[v] for v in op.inputs)}], {op.dim}, {site(op)!r})"
        if has_dynamic_types(op) else f"xp.concat([{', '.join(e.names[v] for v in op.inputs)}], axis={op.dim})"),
    bc.PadOp: lambda e, op, x: (
        f"ar.{'checked_pad' if has_dynamic_types(op) else 'pad'}(xp, {x}, {e.names[op.padding_value]}, "
        f"{list(op.low)}, {list(op.high)}, {list(op.interior)}{f', {site(op)!r}' if has_dynamic_types(op) else ''})"),
    bc.DotGeneralOp: lambda e, op, x: (
        f"ar.dot_general(xp, {x}, {e.names[op.rhs]}, {dot_dims_expr(op)}, {dtype_name(op.result.type)!r})"),
    bc.DynamicSliceOp: lambda e, op, x: f"ar.dynamic_slice(xp, {x}, {starts_source(e, op)}, {list(op.sizes)})",
    bc.DynamicUpdateSliceOp: lambda e, op, x: (
        f"ar.dynamic_update_slice(xp, {x}, {starts_source(e, op)}, {e.names[op.update]})"),
    bc.ScatterOp: lambda e, op, x: (
        f"ar.scatter(xp, {op.kind_name!r}, {x}, {e.names[op.scatter_indices]}, {e.names[op.updates]}, {op.dims!r}, "
        f"{dtype_name(op.result.type)!r})"),
    bc.GatherOp: lambda e, op, x: (
        f"ar.gather(xp, {x}, {e.names[op.start_indices]}, {op.dims!r}, {list(op.sizes)})"),
    bc.ReshapeOp: lambda e, op, x: (
        f"ar.checked_reshape(xp, {x}, {op.declared_sizes()}, {site(op)!r})" if has_dynamic_types(op)
        else f"ar.reshape(xp, {x}, {result_shape(op)})"),
    bc.NarrowOp: lambda e, op, x: f"ar.reshape(xp, {x}, {result_shape(op)})",
    bc.ReduceOp: lambda e, op, x: (
        f"ar.reduce(xp, {op.kind_name!r}, {x}, {op.reduced_dims}, {op.keeps_dims}, "
        f"{dtype_name(op.operand.type)!r})"),
    bc.ArgReduceOp: lambda e, op, x: (
        f"ar.arg_reduce(xp, {op.short_name!r}, {x}, {op.dim}, {dtype_name(op.result.type)!r})"),
    bc.CumulativeOp: lambda e, op, x: (
        f"ar.cumulative(xp, {op.kind_name!r}, {x}, {op.dim}, {op.is_reverse}, {dtype_name(op.result.type)!r})"),
    bc.SortOp: lambda e, op, x: (
        f"ar.sort(xp, {x}, [{', '.join(e.names[k] for k in op.keys)}], {op.dim}, {op.orders!r}"
        f"{f', {site(op)!r}' if has_dynamic_types(op) else ''})"),
    bc.ReduceWindowOp: lambda e, op, x: (
        f"ar.reduce_window(xp, {op.kind_name!r}, {x}, {e.names[op.init]}, {op.window!r}, "
        f"{dtype_name(op.result.type)!r})"),
    bc.ConvolutionOp: lambda e, op, x: (
        f"ar.convolution(xp, {x}, {e.names[op.rhs]}, {op.conv!r}, {dtype_name(op.result.type)!r})"),
    bc.DynamicConvOp: lambda e, op, x: (
        f"ar.dynamic_conv(xp, {x}, {e.names[op.rhs]}, {e.names[op.d_padding]}, {op.conv!r}, "
        f"{dtype_name(op.result.type)!r}, {site(op)!r}, {op.declared_sizes()!r})"),
    bc.TriangularSolveOp: lambda e, op, x: f"ar.triangular_solve(xp, {x}, {e.names[op.b]}, *{op.flags!r})",
    bc.FftOp: lambda e, op, x: (
        f"ar.fft(xp, {x}, {op.kind!r}, {op.lengths!r}, {result_shape(op)}, {dtype_name(op.result.type)!r}, "
        f"{site(op)!r})"),
    bc.LuOp: lambda e, op, x: f"ar.lu(xp, {x})",
    bc.CholeskyOp: lambda e, op, x: f"ar.cholesky(xp, {x}, {op.is_lower})",
    bc.ExtractOp: lambda e, op, x: f"ar.reshape(xp, {x}[{e.index_expr(op)}...], {result_shape(op)})",
    bc.AssignOp: lambda e, op, x: (
        f"ar.assign(xp, {x}, ({e.index_expr(op)}), ar.reshape(xp, {e.names[op.source]}, "
        f"{rules.flat_broadcast_shape(split_type(op.source.type)[0], e.assign_levels(op))}))"),
}
"""The Array API target's ops that are one call (or one index), by op class."""


class ArrayApiEmitter(PythonModuleEmitter):
    TARGET = "Array API"
    IMPORTS = ("import numpy as np", "", "from bcast.ir.rules import ConvDims, Convolution, DotDims, GatherDims",
               "from bcast.lowering import array_api_runtime as ar",
               "from bcast.lowering import numpy_runtime as rt")
    OWN_NAMES = frozenset({"ar", "xp"})
    function_emitter = FunctionEmitter


def emit_module(module: ModuleOp, source_name: str = "<source>") -> str:
    return ArrayApiEmitter(source_name).emit(module)
