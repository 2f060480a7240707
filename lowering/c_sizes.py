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
from bcast.passes.lower_to_loops import SizeSource, index_source, size_source

Shape = tuple[int, ...]


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
        for op in block.ops:
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
        argument: its value, which may be a size); a check that fails raises
        the reference's ``RuntimeShapeFailure``."""
        sizes: dict[SSAValue, int] = {}

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
            elif kind == "check":
                _, op, sources, groups, strict = step
                values = [[size(s) for s in shape] for shape in sources]
                for group in groups:
                    seen = {values[i][j] for i, j in group}
                    if len(seen if strict else seen - {1}) > 1:
                        check_broadcastable(op, [tuple(v) for v in values])
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
