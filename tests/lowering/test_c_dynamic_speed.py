"""What makes a dynamic program on the C backend cost what the static one
costs (docs/performance.md, "Dynamic shapes"): the size plan's work is a
lookup at a size seen before, and the inner loops are the static program's."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.lowering.c_sizes import SizePlan
from bcast.tests.lowering.test_c_dynamic import ROWS


def test_the_size_plan_walks_its_steps_once_per_size(monkeypatch):
    """A call at argument shapes seen before takes the results' shapes from
    ``SizePlan.known``; a new size walks the steps again, and a size whose
    check fails walks them at every call (a failure is never remembered),
    with the reference's error each time."""
    walks = []
    compute = SizePlan.compute
    monkeypatch.setattr(SizePlan, "compute", lambda self, shapes: walks.append(shapes) or compute(self, shapes))
    f = bcast.compile(ROWS, backend="c", filename="prog.mlir")
    row = np.arange(4, dtype=np.float32)
    for n in (3, 3, 5, 3, 5):
        x, col = np.ones((n, 4), np.float32), np.full((n, 1), 2, np.float32)
        np.testing.assert_allclose(f(x, row, col), np.tanh((x + row) * col), rtol=1e-6)
    assert [shapes[0] for shapes in walks] == [(3, 4), (5, 4)]
    for _ in range(2):
        with pytest.raises(bcast.BcastError, match=r"prog.mlir:3:8: error: .*shapes \(3,4\) \(2,1\)"):
            f(np.ones((3, 4), np.float32), row, np.ones((2, 1), np.float32))
    assert len([shapes for shapes in walks if shapes[2] == (2, 1)]) >= 2
