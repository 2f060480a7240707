"""bcast's control flow: ``bcast.while`` and ``bcast.case``, region ops whose
regions end with ``bcast.yield`` (docs/ir.md, "Control flow").

Decisions:

- ``bcast.while`` carries values of fixed types: its ``cond`` region takes
  them and yields a 0-d ``i1`` tensor, its ``do`` region takes them and
  yields the next values; the results are the carried values when ``cond``
  yields false. This is ``stablehlo.while``, so the import and ``-t
  stablehlo`` are one-to-one.
- ``bcast.case`` takes a 0-d ``i32`` index and runs one of its branch
  regions (no arguments, each yielding the results); an index out of range
  runs the last branch, as StableHLO's ``case`` does. An ``if`` is a case
  of two branches whose index is ``0`` for true (``convert`` of the
  negated predicate), so one op serves both.
- The regions are not isolated from above: they read values of the
  enclosing function, as StableHLO's do. Each region is its own block for
  the passes: a run-time check stays in its region (a check of a branch
  not taken must not fire, a check of a loop body runs each iteration),
  fusion fuses inside a region and stops at the op, and nothing moves
  across the region boundary (docs/ir.md says how each pass treats them).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType, i1, i32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import RecursiveMemoryEffect

from bcast.ir.diagnostics import Diagnostic


def _types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


def _check_yield(block: Block, expected: Sequence[Attribute], what: str) -> None:
    """``block`` ends with ``bcast.yield`` of values of ``expected`` types (by
    name: ``bcast.ir.fusion`` defines the op and names these ops its parents)."""
    terminator = block.last_op
    if terminator is None or terminator.name != "bcast.yield":
        raise Diagnostic(f"expects {what} to end with 'bcast.yield'")
    got = [v.type for v in terminator.operands]
    if got != list(expected):
        raise Diagnostic(f"expects {what} to yield values of types {_types(expected)}, but it yields "
                         f"{_types(got)}")


@irdl_op_definition
class WhileOp(IRDLOperation):
    """A loop on data: ``cond`` decides from the carried values whether
    ``do`` runs once more and gives the next ones."""

    name = "bcast.while"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    cond = region_def("single_block")
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())
    assembly_format = "$inputs attr-dict `:` functional-type($inputs, $outputs) `cond` $cond `do` $body"

    def __init__(self, inputs: Sequence[SSAValue], cond: Region, body: Region):
        super().__init__(operands=[inputs], result_types=[[v.type for v in inputs]], regions=[cond, body])

    def verify_(self) -> None:
        carried = [v.type for v in self.inputs]
        if [r.type for r in self.outputs] != carried:
            raise Diagnostic(f"expects the result types {_types([r.type for r in self.outputs])} to equal the "
                             f"carried types {_types(carried)}")
        for region, what in ((self.cond, "the 'cond' region"), (self.body, "the 'do' region")):
            args = [a.type for a in region.block.args]
            if args != carried:
                raise Diagnostic(f"expects {what} to take arguments of the carried types {_types(carried)}, "
                                 f"but it takes {_types(args)}")
        _check_yield(self.cond.block, [TensorType(i1, [])], "the 'cond' region")
        _check_yield(self.body.block, carried, "the 'do' region")


@irdl_op_definition
class CaseOp(IRDLOperation):
    """One branch of several, chosen by a run-time index; only the branch
    taken runs."""

    name = "bcast.case"
    index = operand_def(TensorType)
    outputs = var_result_def(TensorType)
    branches = var_region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())
    assembly_format = "$index attr-dict `:` functional-type($index, $outputs) $branches"

    def __init__(self, index: SSAValue, result_types: Sequence[Attribute], branches: Sequence[Region]):
        super().__init__(operands=[index], result_types=[list(result_types)], regions=[list(branches)])

    def verify_(self) -> None:
        if self.index.type != TensorType(i32, []):
            raise Diagnostic(f"expects the index to be tensor<i32>, but it is {self.index.type}")
        if not self.branches:
            raise Diagnostic("expects at least one branch")
        results = [r.type for r in self.outputs]
        for k, region in enumerate(self.branches):
            if region.block.args:
                raise Diagnostic(f"expects branch {k} to take no arguments")
            _check_yield(region.block, results, f"branch {k}")

    def taken(self, index: int) -> int:
        """The branch an index runs: an index out of range runs the last."""
        return index if 0 <= index < len(self.branches) else len(self.branches) - 1


CONTROL_FLOW_OPS = (WhileOp, CaseOp)
