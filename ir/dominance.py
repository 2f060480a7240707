"""Uses of values before their definition.

xDSL's parser accepts a forward reference once the value is defined anywhere
in the function (``%0 = bcast.negate %1`` before ``%1 = ...``), and its
verifier checks no dominance; the backends evaluate ops in order and fail on
such a use with an internal error. MLIR rejects it at the use: ``operand #0
does not dominate this use``.

bcast's own regions have one block each (no branch ops are registered): a
value is visible to the ops after it in its block and to the regions nested
in those ops. A region of another dialect's ops (kept with
``--allow-unregistered-dialect``) may have several blocks: the entry block
dominates every block of its region, so its values stay visible in the later
blocks; a value of a later block is visible only in that block (without the
branches' graph, a use across later blocks cannot be proven dominated).
"""

from __future__ import annotations

from xdsl.ir import Operation, OpResult, Region, SSAValue

from bcast.ir.diagnostics import Diagnostic, Note, op_source_loc


def undominated_uses(root: Operation) -> dict[Operation, tuple[int, SSAValue]]:
    """Each op inside ``root`` that uses a value not defined before it, with
    its first such operand (index and value). One pass over the IR, with one
    set of the values in scope: a block adds its arguments and results while
    it is visited and removes them after (copying the scope into every nested
    region made a function of many fusions quadratic)."""
    found: dict[Operation, tuple[int, SSAValue]] = {}
    scope: set[SSAValue] = set()

    def visit(region: Region) -> None:
        entry: list[SSAValue] = []
        for block in region.blocks:
            added: list[SSAValue] = list(block.args)
            scope.update(added)
            for op in block.ops:
                for index, value in enumerate(op.operands):
                    if value not in scope:
                        found.setdefault(op, (index, value))
                for nested in op.regions:
                    visit(nested)
                scope.update(op.results)
                added.extend(op.results)
            if block is region.first_block:
                entry = added  # dominates the region's other blocks
            else:
                scope.difference_update(added)
        scope.difference_update(entry)

    for region in root.regions:
        visit(region)
    return found


def use_before_definition(index: int, value: SSAValue) -> Diagnostic:
    """MLIR's error for such a use, with a note at the definition."""
    notes: list[str] = []
    if isinstance(value, OpResult) and (loc := op_source_loc(value.op)) is not None:
        notes.append(Note("operand defined here", loc))
    return Diagnostic(f"operand #{index} does not dominate this use", notes)
