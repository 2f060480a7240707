"""``bcast.fusion``: a group of ops computed together, block by block.

Design. A fusion's single-block body is ordinary bcast IR on tensors:

- block arguments are the group's inputs (one per operand, same types);
- *input views* (``broadcast_in_dim``, ``transpose``, ``reshape``, ``reverse``, ``slice`` of a block
  argument) are how inputs of other shapes enter the group; they are never
  materialized: backends turn them into index expressions or strided views;
- elementwise ops (and ``convert``) on explicit operands (operands of the
  result's shape);
- reductions (``bcast.reduce``) that keep dimension 0, and *inner
  broadcasts* (``broadcast_in_dim`` of a value computed in the body that maps
  dimension 0 to dimension 0), which bring a reduced value back to the rows
  it was reduced from, as ``x - max(x, 1)`` does;
- ``bcast.yield`` lists the results.

Shapes. Either every body value (and result, and block argument read by a
computing op) has one shape, the *iteration shape*; or, in a fusion with
reductions or inner broadcasts, they all have rank >= 1 and one leading
dimension, the *rows*. Both kinds are evaluated the same way:

Block evaluation. Every body value's dimension 0 is the same rows, and no op
in the body mixes rows: elementwise ops work row by row, a reduction keeps
dimension 0 (so it reduces within each row), and an inner broadcast maps
row ``i`` to row ``i``. So a backend may evaluate the whole body on any block
of rows ``[i, j)``, one block after another, with results written to rows
``[i, j)`` of the outputs. With blocks small enough that every temporary of
a block stays in cache, softmax (``max``, ``subtract``, ``exp``, ``add``
reduce, ``divide``) reads each row of its input from memory once and writes
each row of its output once: the passes over a row (max, then exp and sum,
then divide) all hit the cache. Reductions over dimension 0 do not fit this
scheme (every block would need every row) and stay outside fusions.

```
%r = bcast.fusion %x, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32> {
^bb0(%a: tensor<4x3xf32>, %b: tensor<3xf32>):
  %0 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.add %a, %0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  bcast.yield %1 : tensor<4x3xf32>
}
```
"""
from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect

from bcast.ir import ops as bc
from bcast.ir.diagnostics import Diagnostic
from bcast.ir.rules import RuleError
from bcast.ir.types import flat_type_shape, split_type

VIEW_OPS = (bc.BroadcastInDimOp, bc.DynamicBroadcastInDimOp, bc.TransposeOp, bc.ReshapeOp, bc.ReverseOp,
            bc.SliceOp)
"""Ops that bring an input of another shape (or order) into the iteration space
(a ``dynamic_broadcast_in_dim`` as a view whose stretched dims step 0 at run
time: the loop lowering computes each dim's step before the fusion's nest)."""

BROADCAST_OPS = (bc.BroadcastInDimOp, bc.DynamicBroadcastInDimOp)
"""The broadcasts that may be *inner broadcasts* of a fusion (``maps_rows``)."""


def is_elementwise(op) -> bool:
    return isinstance(op, bc.ElementwiseOp | bc.ConversionOp)


def is_explicit(op: Operation) -> bool:
    """The one definition of an explicit elementwise op (what ``bcast-make-explicit``
    produces, what a fusion body holds, what backends compute directly): no
    ``broadcast_dimensions``, every operand of the result's levels, and one
    element type: the result's (``compare`` and ``complex``: its operands
    agree; ``select``: the predicate is i1; ``convert``, ``abs``, ``real``,
    ``imag``: any)."""
    if not is_elementwise(op) or len(op.results) != 1:
        return False
    if isinstance(op, bc.BinaryOp) and op.broadcast_dimensions is not None:
        return False
    result = op.results[0].type
    try:
        levels = split_type(result)[0]
        # an operand of the result's very type has its levels (the common
        # case, and much cheaper to see than to split: fuse and the fusion
        # verifier ask for every op)
        if any(v.type != result and split_type(v.type)[0] != levels for v in op.operands):
            return False
    except RuleError:
        return False
    if isinstance(op, bc.CompareOp):
        return op.lhs.type == op.rhs.type
    if isinstance(op, bc.SelectOp):
        return op.on_true.type == op.on_false.type == result
    if isinstance(op, bc.ConversionOp | bc.PartUnaryOp):
        return True
    if isinstance(op, bc.ComplexOp):  # two parts of one type make the complex result
        return op.lhs.type == op.rhs.type
    return all(v.type == result for v in op.operands)


def keeps_rows(op: bc.ReduceOp) -> bool:
    """A reduction that can stand in a fusion: it keeps dimension 0, so it
    reduces within each row (see the module docstring)."""
    return len(flat_type_shape(op.operand.type)) >= 1 and 0 not in op.reduced_dims


def keeps_dim(op: bc.BroadcastInDimOp | bc.DynamicBroadcastInDimOp, k: int) -> bool:
    """Whether the broadcast maps operand dim ``k`` to result dim ``k`` with
    its size unchanged. A ``broadcast_in_dim``'s ``?`` dim is its operand's;
    a ``dynamic_broadcast_in_dim``'s only where the sizes are static and
    equal or the op knows the dim nonexpanding (two ``?`` may differ at run
    time: canonicalization fills the fact in where the sizes have one source)."""
    src, dst = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
    if k >= len(src) or op.dims[k] != k or src[k] != dst[k]:
        return False
    if isinstance(op, bc.DynamicBroadcastInDimOp):
        return isinstance(src[k], int) or k in op.nonexpanding
    return True


def stretches_in_place(op: Operation) -> bool:
    """A ``dynamic_broadcast_in_dim`` that keeps every dim in place, each
    either its output size or 1 (stretched) at run time, as make-explicit
    leaves ``x + col`` of two ``?`` rows. In a fusion without reductions the
    loop lowering computes its operand at the stepped index (step 0 where the
    dim stretches), so elementwise chains through it stay one nest; a fusion
    with reductions keeps rows in place and takes none of these."""
    if not isinstance(op, bc.DynamicBroadcastInDimOp):
        return False
    rank = len(flat_type_shape(op.result.type))
    # the same declared shape: a static 1 stretched into a ``?`` would give
    # the fusion values of two iteration shapes
    return flat_type_shape(op.operand.type) == flat_type_shape(op.result.type) and op.dims == tuple(range(rank))


def maps_rows(op: bc.BroadcastInDimOp | bc.DynamicBroadcastInDimOp) -> bool:
    """A broadcast that maps operand row ``i`` to result row ``i``: dimension 0
    goes to dimension 0 with its size unchanged (an *inner broadcast* when its
    operand is computed in the fusion)."""
    return keeps_dim(op, 0)


def _control_flow_ops() -> tuple:
    """``bcast.while`` and ``bcast.case``, whose regions end with ``bcast.yield`` too."""
    from bcast.ir.control_flow import CONTROL_FLOW_OPS

    return CONTROL_FLOW_OPS


@irdl_op_definition
class YieldOp(IRDLOperation):
    name = "bcast.yield"
    values = var_operand_def(TensorType)
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(FusionOp, bc.ReduceWindowBodyOp,
                                                                      *_control_flow_ops()), Pure()))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: list[SSAValue]):
        super().__init__(operands=[values])


@irdl_op_definition
class FusionOp(IRDLOperation):
    name = "bcast.fusion"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())
    assembly_format = "$inputs attr-dict `:` functional-type($inputs, $outputs) $body"

    def __init__(self, inputs: list[SSAValue], result_types: list, body: Region):
        super().__init__(operands=[inputs], result_types=[result_types], regions=[body])

    @property
    def block(self) -> Block:
        return self.body.block

    def iteration_shape(self) -> tuple[int, ...]:
        """The shape of the first result; in a fusion without reductions or
        inner broadcasts, the shape of every body value."""
        return flat_type_shape(self.outputs[0].type)

    def value_shapes(self) -> list[tuple[int, ...]]:
        """The flat shapes the body computes on: its results, every op's
        result, and the block arguments read by ops other than input views."""
        block = self.block
        shapes = [flat_type_shape(r.type) for r in self.outputs]
        for op in block.ops:
            if isinstance(op, YieldOp):
                continue
            if not (isinstance(op, VIEW_OPS) and op.operands[0] in block.args):
                shapes += [flat_type_shape(v.type) for v in op.operands if v in block.args]
            shapes += [flat_type_shape(r.type) for r in op.results]
        return shapes

    def rows(self) -> int | None:
        """The size of the dimension that blocks split (None at rank 0)."""
        shape = self.iteration_shape()
        return shape[0] if shape else None

    def row_rank(self) -> int:
        """How many leading dims act as rows (0 at rank 0): 1, or in a fusion
        with reductions, every leading dim that all body values share, no
        reduction reduces and every inner broadcast maps to itself. Each row
        (a 4x1024x4096 softmax over its last dim has 4x1024) is independent,
        so the loop lowering nests over all of them, with the phases over one
        row inside: a row's passes then run on a row, not a 1024x4096 slice."""
        shapes = self.value_shapes()
        if not shapes[0]:
            return 0
        reductions = [op for op in self.block.ops if isinstance(op, bc.ReduceOp)]
        if not reductions:
            return 1
        rank = min(len(s) for s in shapes)
        for s in shapes:
            rank = min(rank, next((k for k in range(rank) if s[k] != shapes[0][k]), rank))
        for op in reductions:
            rank = min([rank, *op.reduced_dims])
        args = set(self.block.args)
        for op in self.block.ops:
            if isinstance(op, BROADCAST_OPS) and op.operand not in args:
                src = flat_type_shape(op.operand.type)
                same = 0
                while same < min(rank, len(src)) and keeps_dim(op, same) and src[same] == shapes[0][same]:
                    same += 1
                rank = min(rank, same)
        return max(rank, 1)

    def verify_(self) -> None:
        block = self.block
        if [a.type for a in block.args] != [v.type for v in self.inputs]:
            raise Diagnostic("block argument types must equal the input types")
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            raise Diagnostic("body must end with bcast.yield")
        if [v.type for v in terminator.values] != [r.type for r in self.outputs]:
            raise Diagnostic("yielded types must equal the result types")
        if not self.outputs:
            raise Diagnostic("must have at least one result")
        args = set(block.args)
        for op in block.ops:
            if op is terminator:
                continue
            if isinstance(op, BROADCAST_OPS) and op.operand not in args:
                if stretches_in_place(op) and not any(isinstance(o, bc.ReduceOp) for o in block.ops):
                    continue
                if not maps_rows(op):
                    raise Diagnostic(
                        "'bcast.broadcast_in_dim' of a value computed in a fusion must map "
                        "dimension 0 to dimension 0 of the same size"
                    )
            elif isinstance(op, VIEW_OPS):
                if op.operands[0] not in args:
                    raise Diagnostic(f"'{op.name}' in a fusion must take a block argument")
            elif isinstance(op, bc.ReduceOp):
                if not keeps_rows(op):
                    raise Diagnostic("'bcast.reduce' in a fusion must keep dimension 0")
            elif not is_elementwise(op):
                raise Diagnostic(f"'{op.name}' cannot be part of a fusion")
            elif not is_explicit(op):
                raise Diagnostic(f"'{op.name}' inside a fusion must have explicit operands")
        shapes = self.value_shapes()
        if any(s != shapes[0] for s in shapes):
            for s in shapes:
                if not s or not shapes[0] or s[0] != shapes[0][0]:
                    raise Diagnostic(
                        f"every value in a fusion must have the iteration shape {shapes[0]}, "
                        f"or all must share one leading dimension; got shape {s}"
                    )
