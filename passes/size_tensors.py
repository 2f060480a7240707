"""Sizes held in tensors (JAX's shape-polymorphic exports: a
dimension variable passed through ``bcast.size_to_tensor``, arithmetic on it
as ordinary tensor ops, ``bcast.size_from_tensor`` back to an ``index``, and
``bcast.shape_assertion`` on it).

Decision (docs/c-backend.md, "Dynamic shapes"): a backend that computes its
sizes and runs its checks at function entry, before any loop (the C
runtime's ``c_sizes.SizePlan``), runs these ops there too: they are integer
arithmetic on sizes, a few scalars. This module finds them: the size ops
and every op their tensor operands are computed by, which must be
elementwise computations and ``extract``s of constants, sizes and small
static arguments (shape tensors, read by value: at most
``MAX_READ_ELEMENTS`` elements), and small rearrangements of them
(``SMALL_STRUCTURAL_OPS``). A size computed otherwise (a sum of an
array argument, say, or from a tensor of dynamic shape) is refused, located
at the op that reads it: it would be a run of the program before the
program.
"""

from __future__ import annotations

import math

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType
from xdsl.ir import BlockArgument, Operation, SSAValue

from bcast.ir import ops as bc
from bcast.ir.fusion import FusionOp
from bcast.ir.types import flat_type_shape
from bcast.passes.errors import PassError

SIZE_TENSOR_OPS = (bc.SizeToTensorOp, bc.SizeFromTensorOp, bc.ShapeAssertionOp)
"""The ops that read or write sizes through tensors."""

SCALAR_OPS = (bc.ConstantOp, bc.ElementwiseOp, bc.ConversionOp, FusionOp, bc.SizeToTensorOp, bc.ExtractOp)
"""The ops a size's tensor may be computed by."""

SMALL_STRUCTURAL_OPS = (bc.ReshapeOp, bc.ConcatenateOp, bc.BroadcastInDimOp, bc.SliceOp, bc.TransposeOp)
"""Ops that rearrange a few size values, taken when their result has at
most ``MAX_READ_ELEMENTS`` elements: JAX builds a ``dynamic_conv``'s
padding (SAME with strides on a symbolic size) by reshaping and
concatenating sizes it computed."""

MAX_READ_ELEMENTS = 64
"""The largest argument a size is read from (a shape tensor); the runtime
passes it by value at every call."""


def size_tensor_ops(function: func.FuncOp) -> tuple[set[Operation], set[int]]:
    """The top-level ops of ``function`` that compute sizes through tensors
    (``SIZE_TENSOR_OPS`` and the ops their tensor operands come from), and
    the indices of the arguments they read."""
    found: set[Operation] = set()
    arguments: set[int] = set()
    for op in function.body.block.ops:
        if isinstance(op, SIZE_TENSOR_OPS):
            found.add(op)
            _add_sources(op, op, found, arguments)
        elif isinstance(op, bc.DynamicConvOp):  # its padding's values are its result's sizes
            _add_sources(op, op, found, arguments, [op.d_padding])
    return found, arguments


def _add_sources(op: Operation, reader: Operation, found: set[Operation], arguments: set[int],
                 values: list[SSAValue] | None = None) -> None:
    """The tensor operands of ``op`` (or ``values``), and theirs in turn, into
    ``found`` (an explicit stack: a chain of size arithmetic is as long as
    the program)."""
    stack: list[SSAValue] = values if values is not None else [
        v for v in op.operands if not isinstance(v.type, IndexType)]
    while stack:
        v = stack.pop()
        shape = flat_type_shape(v.type)
        if not all(isinstance(n, int) for n in shape) or (
                isinstance(v, BlockArgument) and math.prod(shape) > MAX_READ_ELEMENTS):
            raise PassError(reader, "reads a size computed from a tensor of dynamic or large shape, which the C "
                            "backend does not compute at entry",
                            [f"the size comes from a value of type {v.type}"])
        if isinstance(v, BlockArgument):
            arguments.add(v.index)
            continue
        source = v.owner
        small = isinstance(source, SMALL_STRUCTURAL_OPS) and math.prod(shape) <= MAX_READ_ELEMENTS
        if not (isinstance(source, SCALAR_OPS) or small):
            raise PassError(reader, f"reads a size computed by '{source.name}', which the C backend does not "
                            "compute at entry", ["sizes in tensors are computed from constants, sizes and "
                                                 "small arguments by elementwise ops and extract, and "
                                                 "rearranged by reshape, concatenate, broadcast_in_dim, "
                                                 "slice and transpose of at most "
                                                 f"{MAX_READ_ELEMENTS} elements"])
        if source not in found:
            found.add(source)
            stack += [u for u in source.operands if not isinstance(u.type, IndexType)]


def refines_operand(op: bc.TransposeOp) -> bool:
    """Whether a transpose declares a static size for a ``?`` dim of its
    operand (a type more static than inferred, which the reference checks
    at run time): a backend that reads the operand to the declared size
    checks it first (the C runtime) or refuses it (the Python targets)."""
    operand, result = flat_type_shape(op.operand.type), flat_type_shape(op.result.type)
    return any(not isinstance(operand[p], int) and isinstance(result[k], int) for k, p in enumerate(op.perm))
