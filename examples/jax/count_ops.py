"""Op counts of the hand-written JAX equivalents, before and after the pipeline.

For each ``examples/jax/*.mlir`` (bcast-IR mirrors of the JAX StableHLO exports
in ``tests/data/jax_exports``) print: the op count (every op except
``builtin.module``, ``func.func`` and ``func.return``) and the number of
``bcast.broadcast_in_dim`` ops as written, after
``bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse``,
and after adding ``bcast-fuse`` (top-level ops outside fusion bodies, and the
number of ``bcast.fusion`` ops).

Run: ``python examples/jax/count_ops.py`` (from the repository root or anywhere).
"""

from __future__ import annotations

import sys
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from bcast.tools import driver
from bcast.tools.api import EXPLICIT_PIPELINE

HERE = Path(__file__).resolve().parent
EXPLICIT = EXPLICIT_PIPELINE
FUSED = EXPLICIT + ",bcast-fuse"
SKIPPED = {"builtin.module", "func.func", "func.return"}


def counts(module: ModuleOp) -> tuple[int, int]:
    """(ops except module/func/return, broadcast_in_dim ops), nested bodies included."""
    ops = [op for op in module.walk() if op.name not in SKIPPED]
    return len(ops), sum(op.name == "bcast.broadcast_in_dim" for op in ops)


def fused_counts(module: ModuleOp) -> tuple[int, int]:
    """(top-level ops of the function bodies except return, bcast.fusion ops)."""
    top = [
        op
        for f in module.ops
        if isinstance(f, func.FuncOp)
        for op in f.body.walk()
        if op.name not in SKIPPED and op.parent_op() is f
    ]
    return len(top), sum(op.name == "bcast.fusion" for op in top)


def run(path: Path, pipeline: str | None) -> ModuleOp:
    return driver.load(path.read_text(), str(path), pipeline=pipeline)


def main() -> int:
    header = (
        f"{'file':<16}{'ops':>5}{'bcast':>7}  |{'ops':>5}{'bcast':>7}  |"
        f"{'top-level ops':>15}{'fusions':>9}"
    )
    print(f"{'':<16}{'as written':>12}  |{'explicit':>12}  |{'+ bcast-fuse':>24}")
    print(header)
    print("-" * len(header))
    status = 0
    for path in sorted(HERE.glob("*.mlir")):
        try:
            before = counts(run(path, None))
            after = counts(run(path, EXPLICIT))
            fused = fused_counts(run(path, FUSED))
        except Exception as e:  # report and continue with the other files
            print(f"{path.stem:<16}error: {type(e).__name__}: {e}".splitlines()[0])
            status = 1
            continue
        print(
            f"{path.stem:<16}{before[0]:>5}{before[1]:>7}  |{after[0]:>5}{after[1]:>7}  |"
            f"{fused[0]:>15}{fused[1]:>9}"
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
