"""The reference evaluator: runs bcast IR op by op with NumPy.

It is the oracle every other backend and every pass is tested against, so
it is written for obviousness, not speed: each op reads the broadcasting
rules from ``bcast.ir.rules`` and its arithmetic from ``bcast.ir.numerics``.
Values are NumPy arrays; a nested (TML) value is stored flat (outer dims
then inner dims); ``index`` values are Python ints.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from bcast.ir import numerics, rules
from bcast.ir import ops as bc
from bcast.ir.fusion import FusionOp, YieldOp
from bcast.ir.diagnostics import Report, op_report
from bcast.ir.ops import semantics_of
from bcast.ir.types import NUMPY_DTYPES, split_type
from bcast.ir.types import flat_type_shape as flat_shape_of
from bcast.ir.types import numpy_dtype as dtype_of
from bcast.lowering import numpy_runtime as rt


class EvaluationError(Exception):
    """The program failed at run time (e.g. an index out of bounds); located."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.report = op_report(op, message) if op is not None else Report("error", message, None)

    def __str__(self) -> str:
        return self.report.render()


# --------------------------------------------------------------------------
# Types and memory
# --------------------------------------------------------------------------


def nbytes_of(t: Attribute) -> int:
    if not isinstance(t, TensorType):
        return 8
    return rules.element_count(flat_shape_of(t)) * dtype_of(t).itemsize


def available_memory() -> int:
    """Bytes the evaluator may use: MemAvailable, else physical memory."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def check_memory(function: func.FuncOp, limit: int | None = None, nested: bool = True) -> None:
    """Refuse, before allocating anything, a function whose tensors (arguments
    and every op result, all alive at once in the evaluator) would not fit.
    ``nested=False`` counts only top-level values, not those inside fusions
    (which generated code computes block by block)."""
    limit = available_memory() if limit is None else limit
    total = sum(nbytes_of(t) for t in function.function_type.inputs.data)
    ops = function.walk() if nested else function.body.block.ops
    for op in ops:
        total += sum(nbytes_of(r.type) for r in op.results)
    if total > limit:
        raise EvaluationError(
            function,
            f"needs {total:,} bytes for its tensors, more than the {limit:,} bytes "
            "of memory available; refusing to run it",
        )


# --------------------------------------------------------------------------
# Broadcasting helpers
# --------------------------------------------------------------------------


def to_levels(x: np.ndarray, levels: rules.Levels, result: rules.Levels) -> np.ndarray:
    """Broadcast a flat value per nesting level to the flat result shape."""
    shaped = x.reshape(rules.flat_broadcast_shape(levels, result))
    return np.broadcast_to(shaped, rules.flat_shape(result))


class Evaluator:
    """Evaluates the functions of one module."""

    def __init__(self, module: ModuleOp | None = None):
        """Without a module it evaluates single ops (e.g. to fold constants)."""
        self.module = module
        self.functions = {
            op.sym_name.data: op for op in (module.walk() if module else ()) if isinstance(op, func.FuncOp)
        }

    def function(self, name: str) -> func.FuncOp:
        if name not in self.functions:
            known = ", ".join(f"@{n}" for n in self.functions) or "none"
            raise EvaluationError(None, f"no function @{name} in the module (functions: {known})")
        return self.functions[name]

    def call(self, name: str, args: Sequence[object]) -> list[object]:
        function = self.function(name)
        if not function.body.blocks:
            raise EvaluationError(function, "is a declaration without a body")
        return self.run_block(function, function.body.blocks[0], args)

    def run_block(self, owner: Operation, block, args: Sequence[object]) -> list[object]:
        """Evaluate a function body or a fusion body up to its terminator."""
        env: dict[SSAValue, object] = dict(zip(block.args, args))
        for op in block.ops:
            if isinstance(op, func.ReturnOp | YieldOp):
                return [env[v] for v in op.operands]
            results = self.evaluate(op, [env[v] for v in op.operands])
            for r, value in zip(op.results, results):
                if isinstance(r.type, TensorType):
                    value = np.asarray(value)
                    want = flat_shape_of(r.type)
                    assert value.shape == want, (op.name, value.shape, want)
                    value = value.astype(dtype_of(r.type), copy=False)
                env[r] = value
        raise EvaluationError(owner, "has no terminator")

    # ------------------------------------------------------------------
    def evaluate(self, op: Operation, args: list) -> list[object]:
        with np.errstate(all="ignore"):
            if isinstance(op, func.CallOp):
                return self.call(op.callee.root_reference.data, args)
            if isinstance(op, FusionOp):
                return self.run_block(op, op.block, args)
            if isinstance(op, bc.ConstantOp):
                return [constant_value(op)]
            if isinstance(op, bc.BinaryOp):
                return [self.binary(op, *args)]
            if isinstance(op, bc.SelectOp):
                return [self.select(op, *args)]
            if isinstance(op, bc.UnaryOp):
                return [op.NUMPY_FUNCTION(args[0])]
            if isinstance(op, bc.BroadcastInDimOp):
                dims = op.broadcast_dimensions.get_values()
                return [rt.broadcast_in_dim(args[0], dims, flat_shape_of(op.result.type))]
            if isinstance(op, bc.TransposeOp):
                return [np.transpose(args[0], op.permutation.get_values())]
            if isinstance(op, bc.ReshapeOp | bc.NarrowOp):
                return [np.reshape(args[0], flat_shape_of(op.result.type))]
            if isinstance(op, bc.ConvertOp):
                return [numerics.convert(args[0], dtype_of(op.result.type))]
            if isinstance(op, bc.ExtractOp):
                return [self.extract(op, args[0], args[1:])]
            if isinstance(op, bc.AssignOp):
                return [self.assign(op, args[0], args[1:-1], args[-1])]
        raise EvaluationError(op, "cannot be evaluated by the reference backend")

    def binary(self, op: bc.BinaryOp, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        (xl, xe), (yl, ye) = split_type(op.lhs.type), split_type(op.rhs.type)
        result_levels, _ = split_type(op.result.type)
        dims = op.broadcast_dimensions
        if dims is not None and len(xl[0]) != len(yl[0]):
            _, xs, ys = rules.in_dim_broadcast(
                xl[0], yl[0], dims.get_values(), semantics_of(op)
            )
            x, y = x.reshape(xs), y.reshape(ys)
            xl, yl = (xs,), (ys,)
        x = to_levels(x, xl, result_levels)
        y = to_levels(y, yl, result_levels)
        common = np.dtype(NUMPY_DTYPES[rules.promote_types(xe, ye)])
        x, y = x.astype(common, copy=False), y.astype(common, copy=False)
        if isinstance(op, bc.CompareOp):
            return op.NUMPY_FUNCTION(op.comparison_direction.data.value, x, y)
        return op.NUMPY_FUNCTION(x, y)

    def select(self, op: bc.SelectOp, p, t, f) -> np.ndarray:
        levels = [split_type(v.type)[0] for v in op.operands]
        result_levels, element = split_type(op.result.type)
        dtype = np.dtype(NUMPY_DTYPES[element])
        p, t, f = (to_levels(v, lv, result_levels) for v, lv in zip((p, t, f), levels))
        return op.NUMPY_FUNCTION(p, t.astype(dtype, copy=False), f.astype(dtype, copy=False))

    def _index(self, op, levels: rules.Levels, static: list[int | None], dynamic: Sequence[int]):
        """Runtime indices -> a NumPy index tuple, with IAB under tml."""
        dynamic = list(dynamic)
        indices = [int(dynamic.pop(0)) if v is None else v for v in static]
        try:
            plan = rules.plan_indices(levels, indices, semantics_of(op), op.name.split(".")[1])
        except rules.RuleError as e:
            raise EvaluationError(op, e.message) from None
        flat = rules.flat_shape(levels)
        return tuple(0 if flat[pos] == 1 else indices[i] for pos, i in plan.consumed), plan

    def extract(self, op: bc.ExtractOp, x: np.ndarray, dynamic) -> np.ndarray:
        levels, _ = split_type(op.operand.type)
        index, _ = self._index(op, levels, op.indices(), dynamic)
        return np.array(x[index]).reshape(flat_shape_of(op.result.type))

    def assign(self, op: bc.AssignOp, dst: np.ndarray, dynamic, src: np.ndarray) -> np.ndarray:
        levels, element = split_type(op.dest.type)
        index, plan = self._index(op, levels, op.indices(), dynamic)
        src_levels, _ = split_type(op.source.type)
        return rt.assign(dst, index, src.reshape(rules.flat_broadcast_shape(src_levels, plan.result)))


def constant_value(op: bc.ConstantOp) -> np.ndarray:
    t = op.result.type
    values = op.value.get_values()
    shape = flat_shape_of(t)
    array = np.array(values, dtype=dtype_of(t))
    if array.size == 1 and rules.element_count(shape) != 1:
        return np.full(shape, array.reshape(()), dtype=array.dtype)
    return array.reshape(shape)


def signature(function: func.FuncOp) -> tuple[list[rt.Spec], list[rt.Spec]]:
    """The arguments and results of ``function`` as the runtime checks them
    (``numpy_runtime.argument``, ``numpy_runtime.Outs``): an argument is
    named ``arg0`` and, when the IR names it, ``arg0 (%x)``."""
    names = [a.name_hint for a in function.body.blocks[0].args] if function.body.blocks else []
    inputs = function.function_type.inputs.data
    arguments = [
        _spec(f"arg{k}" + (f" (%{names[k]})" if k < len(names) and names[k] else ""), t)
        for k, t in enumerate(inputs)
    ]
    results = [_spec(f"result{k}", t) for k, t in enumerate(function.function_type.outputs.data)]
    return arguments, results


def _spec(name: str, t: Attribute) -> rt.Spec:
    if isinstance(t, IndexType):
        return rt.Spec(name, str(t))
    return rt.Spec(name, str(t), flat_shape_of(t), dtype_of(t))


def random_inputs(function: func.FuncOp, seed: int) -> list[object]:
    """Deterministic inputs for ``--seed``: small values, in range for every op."""
    rng = np.random.default_rng(seed)
    inputs: list[object] = []
    for t in function.function_type.inputs.data:
        if isinstance(t, IndexType):
            inputs.append(0)
            continue
        dtype, shape = dtype_of(t), flat_shape_of(t)
        if dtype == np.bool_:
            inputs.append(rng.random(shape) < 0.5)
        elif dtype.kind == "f":
            inputs.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind == "u":
            inputs.append(rng.integers(0, 20, shape).astype(dtype))
        else:
            inputs.append(rng.integers(-10, 10, shape).astype(dtype))
    return inputs
