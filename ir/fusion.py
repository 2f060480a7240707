"""``bcast.fusion``: a group of elementwise ops computed together.

Design. A fusion has an *iteration shape*: the (flat) shape of all its
results. Its single-block body is ordinary bcast IR on tensors:

- block arguments are the group's inputs (one per operand, same types);
- *view* ops (``broadcast_in_dim``, ``transpose``, ``reshape``) take a block
  argument and produce a value of the iteration shape; they are how inputs of
  other shapes enter the group, and they are never materialized: backends
  turn them into index expressions or strided views;
- elementwise ops (and ``convert``) work on values of the iteration shape
  only (explicit IR: operands already have the result's shape);
- ``bcast.yield`` lists the results.

A ``bcast.reduce`` is not elementwise (its result has another shape), so it
is never part of a fusion for now: the fuse pass treats it as a barrier and
fuses the elementwise ops before and after it into separate groups.

Because every body value has the iteration shape (or is an input), a backend
can evaluate the body on any block of the iteration space, e.g. a slab of
rows, which is what keeps temporaries in cache.

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

VIEW_OPS = (bc.BroadcastInDimOp, bc.TransposeOp, bc.ReshapeOp)
"""Ops that bring an input of another shape into the iteration space."""


def is_elementwise(op) -> bool:
    return isinstance(op, bc.ElementwiseOp | bc.ConvertOp)


def is_explicit(op: Operation) -> bool:
    """The one definition of an explicit elementwise op (what ``bcast-make-explicit``
    produces, what a fusion body holds, what backends compute directly): no
    ``broadcast_dimensions``, every operand of the result's levels, and one
    element type: the result's (``compare``: its operands agree; ``select``:
    the predicate is i1; ``convert``: any)."""
    if not is_elementwise(op) or len(op.results) != 1:
        return False
    if isinstance(op, bc.BinaryOp) and op.broadcast_dimensions is not None:
        return False
    result = op.results[0].type
    try:
        levels = split_type(result)[0]
        if any(split_type(v.type)[0] != levels for v in op.operands):
            return False
    except RuleError:
        return False
    if isinstance(op, bc.CompareOp):
        return op.lhs.type == op.rhs.type
    if isinstance(op, bc.SelectOp):
        return op.on_true.type == op.on_false.type == result
    if isinstance(op, bc.ConvertOp):
        return True
    return all(v.type == result for v in op.operands)


@irdl_op_definition
class YieldOp(IRDLOperation):
    name = "bcast.yield"
    values = var_operand_def(TensorType)
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(FusionOp), Pure()))
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
        return flat_type_shape(self.outputs[0].type)

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
        shape = self.iteration_shape()
        for r in self.outputs:
            if flat_type_shape(r.type) != shape:
                raise Diagnostic(
                    f"all results must have the iteration shape {shape}, got {r.type}"
                )
        args = set(block.args)
        for op in block.ops:
            if op is terminator:
                continue
            if isinstance(op, VIEW_OPS):
                if op.operands[0] not in args:
                    raise Diagnostic(f"'{op.name}' in a fusion must take a block argument")
            elif not is_elementwise(op):
                raise Diagnostic(f"'{op.name}' cannot be part of a fusion")
            elif not is_explicit(op):
                raise Diagnostic(f"'{op.name}' inside a fusion must have explicit operands")
            for r in op.results:
                if flat_type_shape(r.type) != shape:
                    raise Diagnostic(
                        f"'{op.name}' in a fusion must produce the iteration shape "
                        f"{shape}, got {r.type}"
                    )
