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

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.ir import BlockArgument, SSAValue

from bcast.ir import ops as bc
from bcast.ir.types import flat_type_shape
from bcast.lowering.interpreter import check_broadcastable, check_expansion
from bcast.passes.lower_to_loops import SizeSource, size_source

Shape = tuple[int, ...]


class SizePlan:
    """The size ops of a function's top level (``bcast.dim``,
    ``bcast.broadcast_size``, the checks), in program order, and where each
    result dim's size comes from."""

    def __init__(self, function: func.FuncOp):
        block = function.body.block
        self.steps = [op for op in block.ops if isinstance(
            op, bc.DimOp | bc.BroadcastSizeOp | bc.CheckBroadcastableOp | bc.DynamicBroadcastInDimOp)]
        returned = block.last_op
        assert isinstance(returned, func.ReturnOp)
        self.results: list[list[SizeSource] | None] = [
            None if not hasattr(v.type, "get_shape") else
            [size_source(v, d) for d in range(len(flat_type_shape(v.type)))]
            for v in returned.arguments
        ]

    def __call__(self, shapes: Sequence[Shape | None]) -> list[Shape | None]:
        """The results' shapes for arguments of ``shapes`` (None: an ``index``);
        a check that fails raises the reference's ``RuntimeShapeFailure``."""
        sizes: dict[SSAValue, int] = {}

        def size(source: SizeSource) -> int:
            if isinstance(source, int):
                return source
            if isinstance(source, tuple):
                arg, d = source
                assert isinstance(arg, BlockArgument)
                return shapes[arg.index][d]
            return sizes[source]

        def shape_of(v: SSAValue) -> Shape:
            return tuple(size(size_source(v, d)) for d in range(len(flat_type_shape(v.type))))

        for op in self.steps:
            if isinstance(op, bc.DimOp):
                sizes[op.result] = size(size_source(op.operand, op.dim))
            elif isinstance(op, bc.BroadcastSizeOp):
                sizes[op.result] = next((s for s in (sizes[v] for v in op.sizes) if s != 1), 1)
            elif isinstance(op, bc.CheckBroadcastableOp):
                check_broadcastable(op, [tuple(size(s) for s in shape) for shape in op.shapes()])
            else:
                check_expansion(op, shape_of(op.operand), tuple(size(s) for s in op.mixed_sizes()))
        return [None if dims is None else tuple(size(s) for s in dims) for dims in self.results]
