"""The run-time sizes of a dynamic program for the C runtime: what it checks
and allocates before it calls the compiled function.

Decision (docs/c-backend.md, "Dynamic shapes"): the run-time checks of the
explicit dynamic form (``bcast.check_broadcastable``, and the expansion
rule of each ``bcast.dynamic_broadcast_in_dim``) are evaluated here, on the
arguments' shapes, before the C function is called, by the reference
backend's own functions (``interpreter.check_broadcastable``,
``interpreter.check_expansion``): a failure is then exactly the reference's
located error, and nothing has run, so nothing is written to ``out`` and no
size the checks refute ever reaches a loop. The same walk gives the
results' run-time shapes (``size_source``, the loop lowering's own rule),
which the runtime needs to allocate them. The C function reads the sizes
again from its ``int64_t`` size parameters at entry and computes its
broadcasts' steps once there."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType
from xdsl.ir import BlockArgument, Operation, SSAValue

from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.ir.fusion import FusionOp
from bcast.ir.types import flat_type_shape, has_dynamic_types
from bcast.lowering.interpreter import EvaluationError, RuntimeShapeFailure, check_broadcastable, check_expansion
from bcast.lowering.reference import Evaluator
from bcast.passes.lower_to_loops import DerivedSize, SizeSource, index_source, size_source, spans_window
from bcast.passes.size_tensors import refines_operand, size_tensor_ops

Shape = tuple[int, ...]

MEMO_SIZE = 256
"""Argument shapes a ``SizePlan`` that runs ops remembers (then it starts over)."""


class SizePlan:
    """The size ops of a function's top level (``bcast.dim``,
    ``bcast.broadcast_size``, the checks), in program order, and where each
    result dim's size comes from, resolved once (``size_source``) into plain
    data, so a call costs a few microseconds: each check is tested by its
    op's own rule (``CheckBroadcastableOp.failed``: the sizes landing on a
    checked dim, 1s aside unless strict, are one size; an expansion: each
    operand dim 1 or its output size, keeping its facts) on ints, and only a
    failure calls the reference's function, which raises its error."""

    def __init__(self, function: func.FuncOp):
        block = function.body.block
        self.steps: list[tuple] = []
        evaluated, self.values_read = size_tensor_ops(function)
        """The ops of sizes held in tensors (JAX's exports), run at entry by
        the reference's own functions, and the rank-0 arguments they read
        (the runtime passes those arguments' values, not their shapes)."""
        self._interpreters = threading.local()
        self.known: dict[tuple, list[Shape | None]] = {}
        """The results' shapes of the argument shapes (and read values) seen:
        a pure function of them, so a size seen before costs a dict lookup,
        not the walk of the steps (5 us for workload (a), 5% of its call at
        1024x1024, docs/performance.md) nor a run of the reference's
        functions (tens of microseconds each). A failure raises and is never
        stored."""
        for op in [inner for top in block.ops for inner in _with_fused(top)]:
            if op in evaluated:
                self.steps.append(("run", op, [index_source(v) if isinstance(v.type, IndexType) else v
                                               for v in op.operands]))
            elif isinstance(op, bc.DynamicReshapeOp):
                operand = [size_source(op.operand, k) for k in range(len(flat_type_shape(op.operand.type)))]
                result = [s if isinstance(s, int) else index_source(s) for s in op.mixed_sizes()]
                self.steps.append(("reshape", op, operand, result))
            elif isinstance(op, bc.SetDimensionSizeOp):
                self.steps.append(("bound", op, index_source(op.size), size_source(op.operand, op.dim)))
            elif isinstance(op, bc.TransposeOp) and refines_operand(op):
                operand = [size_source(op.operand, k) for k in range(len(op.perm))]
                self.steps.append(("refine", op, [operand[p] for p in op.perm]))
            elif isinstance(op, bc.ConcatenateOp | bc.PadOp | bc.SliceOp | bc.ReshapeOp | bc.SortOp) \
                    and has_dynamic_types(op):
                operands = op.operands if isinstance(op, bc.ConcatenateOp | bc.SortOp) else [op.operands[0]]
                shapes = [[size_source(x, k) for k in range(len(flat_type_shape(x.type)))] for x in operands]
                derived = [(d, source) for d in range(len(flat_type_shape(op.results[0].type)))
                           if isinstance(source := size_source(op.results[0], d), DerivedSize)]
                self.steps.append(("operand sizes", op, shapes, derived))
            elif isinstance(op, bc.ConvolutionOp | bc.DynamicConvOp):
                lhs = [size_source(op.lhs, k) for k in range(len(flat_type_shape(op.lhs.type)))]
                derived = [(d, source) for d in op.conv.dims.output_spatial
                           if isinstance(source := size_source(op.result, d), DerivedSize)]
                if derived or isinstance(op, bc.DynamicConvOp):  # (a dynamic_conv's padding is checked)
                    self.steps.append(("conv", op, lhs, derived))
            elif isinstance(op, bc.ReduceWindowOp | bc.ReduceWindowBodyOp) and (op.run_time_check() is not None or any(
                    isinstance(n, rules.Dynamic) and spans_window(op, d)
                    for d, n in enumerate(flat_type_shape(op.operands[0].type)))):
                inputs = op.inputs if isinstance(op, bc.ReduceWindowBodyOp) else [op.operand]
                shapes = [[size_source(x, k) for k in range(len(flat_type_shape(x.type)))] for x in inputs]
                derived = [(d, source) for d in range(len(shapes[0]))
                           if isinstance(source := size_source(op.results[0], d), DerivedSize)]
                self.steps.append(("window", op, shapes, derived))
            if isinstance(op, bc.DimOp):
                self.steps.append(("dim", op.result, size_source(op.operand, op.dim)))
            elif isinstance(op, bc.BroadcastSizeOp):
                self.steps.append(("size", op.result, list(op.sizes)))
            elif isinstance(op, bc.CheckBroadcastableOp):
                shapes = [[s if isinstance(s, int) else index_source(s) for s in shape] for shape in op.shapes()]
                landing = op.landing_dims()
                groups = [[(i, j) for i, dims in enumerate(landing) for j, d in enumerate(dims) if d == r]
                          for r in op.checked.get_values()]
                self.steps.append(("check", op, shapes, groups, op.is_strict))
            elif isinstance(op, bc.DynamicBroadcastInDimOp):
                operand = [size_source(op.operand, k) for k in range(len(flat_type_shape(op.operand.type)))]
                result = [s if isinstance(s, int) else index_source(s) for s in op.mixed_sizes()]
                facts = [(k, d, k in op.expanding, k in op.nonexpanding) for k, d in enumerate(op.dims)]
                self.steps.append(("expand", op, operand, result, facts))
        returned = block.last_op
        assert isinstance(returned, func.ReturnOp)
        self.results: list[list[SizeSource] | None] = [
            None if not hasattr(v.type, "get_shape") else
            [size_source(v, d) for d in range(len(flat_type_shape(v.type)))]
            for v in returned.arguments
        ]

    def __call__(self, shapes: Sequence[Shape | int]) -> list[Shape | None]:
        """The results' shapes for arguments of ``shapes`` (an ``index``
        argument: its value, which may be a size; an argument of
        ``values_read``: the array); a check that fails raises the
        reference's ``RuntimeShapeFailure``."""
        key = tuple((s.dtype.str, s.tobytes()) if isinstance(s, np.ndarray | np.generic) else s
                    for s in shapes) if self.values_read else tuple(shapes)
        shapes_of = self.known.get(key)
        if shapes_of is None:
            shapes_of = self.compute(shapes)
            if len(self.known) >= MEMO_SIZE:
                self.known.clear()
            self.known[key] = shapes_of
        return shapes_of

    def compute(self, shapes: Sequence[Shape | int]) -> list[Shape | None]:
        sizes: dict[SSAValue, int] = {}
        values: dict[SSAValue, object] = {}

        def size(source: SizeSource) -> int:
            if isinstance(source, int):
                return source
            if isinstance(source, tuple):
                return shapes[source[0].index][source[1]]
            if isinstance(source, BlockArgument):  # an index argument
                return shapes[source.index]
            return sizes[source]

        for step in self.steps:
            kind = step[0]
            if kind == "dim":
                sizes[step[1]] = size(step[2])
            elif kind == "size":
                sizes[step[1]] = next((s for s in (sizes[v] for v in step[2]) if s != 1), 1)
            elif kind == "run":
                _, op, operands = step
                args = [size(v) if not isinstance(v, SSAValue) or isinstance(v.type, IndexType)
                        else self.value(v, shapes, values) for v in operands]
                results = self.run(op, args)
                for r, value in zip(op.results, results):
                    (sizes if isinstance(r.type, IndexType) else values)[r] = value
            elif kind == "reshape":
                _, op, operand, result = step
                count, want = int(np.prod([size(s) for s in operand])), tuple(size(s) for s in result)
                if count != int(np.prod(want)):
                    _fail(op, bc.check_reshape, count, want)
            elif kind == "operand sizes":
                _, op, sources, derived = step
                result = _operand_sizes_rule(op, [tuple(size(s) for s in shape) for shape in sources])
                for d, source in derived:
                    sizes[source] = result[d]
            elif kind == "conv":  # a dynamic_conv's padding checked; the spatial sizes of the input's and its
                _, op, lhs, derived = step
                shape = tuple(size(v) for v in lhs)
                rhs, conv = flat_type_shape(op.rhs.type), op.conv
                try:
                    if isinstance(op, bc.DynamicConvOp):
                        conv = bc.check_dynamic_conv(shape, rhs, conv, self.value(op.d_padding, shapes, values),
                                                     op.declared_sizes())
                except bc.RuntimeShapeError as e:
                    raise RuntimeShapeFailure(op, e) from None
                result = rules.convolution_shape(shape, rhs, conv)
                for d, source in derived:
                    sizes[source] = result[d]
            elif kind == "window":  # the inputs' one shape, the sizes windows span, a static declared one checked
                _, op, sources, derived = step
                got = _window_rule(op, [tuple(size(v) for v in shape) for shape in sources])
                for d, source in derived:
                    sizes[source] = got[d]
            elif kind == "bound":
                _, op, n, bound = step
                if size(n) > size(bound):
                    _fail(op, bc.check_dimension_size, size(n), op.dim, size(bound))
            elif kind == "refine":
                _, op, result = step
                got = tuple(size(s) for s in result)
                if not rules.fits(flat_type_shape(op.result.type), got):
                    raise EvaluationError(op, bc.RESULT_SHAPE_WORDS.format(shape=got, type=op.result.type))
            elif kind == "check":
                _, op, sources, groups, strict = step
                got = [[size(s) for s in shape] for shape in sources]  # (not ``values``: the tensors computed)
                for group in groups:
                    seen = {got[i][j] for i, j in group}
                    if len(seen if strict else seen - {1}) > 1:
                        check_broadcastable(op, [tuple(v) for v in got])
            else:
                _, op, operand, result, facts = step
                got, want = [size(s) for s in operand], [size(s) for s in result]
                if any(n < 0 for n in want):
                    check_expansion(op, tuple(got), tuple(want))
                for k, d, expanding, nonexpanding in facts:
                    n = got[k]
                    if n != 1 and n != want[d] or expanding and n != 1 or nonexpanding and n != want[d]:
                        check_expansion(op, tuple(got), tuple(want))
        return [None if dims is None else tuple(size(s) for s in dims) for dims in self.results]

    def value(self, v: SSAValue, shapes: Sequence, values: dict[SSAValue, object]) -> object:
        """A rank-0 tensor of the size computation: computed by an earlier
        step, or a rank-0 argument's value (``values_read``)."""
        return values[v] if v in values else shapes[v.index]

    def run(self, op: Operation, args: Sequence[object]) -> Sequence[object]:
        """``op`` on ``args`` by the reference backend (its located run-time
        errors included); one interpreter per thread, made once (it costs
        0.2 ms), as xDSL's keeps a run's values in its scopes."""
        interpreter = getattr(self._interpreters, "it", None)
        if interpreter is None:
            interpreter = self._interpreters.it = Evaluator().interpreter()
        with np.errstate(all="ignore"):
            return interpreter.run_op(op, tuple(args))


def _with_fused(op: Operation) -> list[Operation]:
    """``op``, and for a fusion the slices and reshapes in its body, whose
    ``?`` dims are checked here too (``bcast-fuse`` takes them in as views)."""
    if not isinstance(op, FusionOp):
        return [op]
    return [op, *(inner for inner in op.walk() if isinstance(inner, bc.SliceOp | bc.ReshapeOp))]


def _operand_sizes_rule(op: Operation, shapes: list[Shape]) -> Shape:
    """The run-time rule of a ``concatenate``, ``pad``, ``reshape``, ``slice`` or ``sort`` with
    ``?`` dims on its operands' sizes (``bcast.ir.ops``), its failure the
    reference's located error; the result's shape (a slice's: unused)."""
    try:
        if isinstance(op, bc.ConcatenateOp):
            return bc.check_concatenate(shapes, op.dim)
        if isinstance(op, bc.PadOp):
            return bc.check_pad(shapes[0], op.low, op.high, op.interior)
        if isinstance(op, bc.ReshapeOp):
            return bc.reshape_sizes(math.prod(shapes[0]), op.declared_sizes())
        if isinstance(op, bc.SortOp):
            return bc.check_sort(shapes)
        bc.check_slice(shapes[0], op.limits)
        return ()
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None


def _window_rule(op: bc.ReduceWindowOp | bc.ReduceWindowBodyOp, shapes: list[Shape]) -> Shape:
    """``bc.check_window_result`` of a ``reduce_window`` on its inputs' run-time shapes, located at ``op``."""
    declared = tuple(n if isinstance(n, int) else None for n in flat_type_shape(op.results[0].type))
    try:
        return bc.check_window_result(shapes, op.window, declared, op.name, str(op.results[0].type))
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None


def _fail(op: Operation, rule, *args) -> None:
    """``rule(*args)`` (a run-time rule of ``bcast.ir.ops``), raised located at ``op``."""
    try:
        rule(*args)
    except bc.RuntimeShapeError as e:
        raise RuntimeShapeFailure(op, e) from None
