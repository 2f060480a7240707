"""``ComposeSliceOfSlice`` and the identity fold against NumPy: random
chains of one to three slices of a 1-D tensor, canonicalized, leave at most
one slice (none when it keeps every element), which verifies and computes
NumPy's ``x[a][b][c]``."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import ops as bc
from bcast.tests.budget import examples
from bcast.tools import driver


@st.composite
def chains(draw):
    """A size and slices (start, limit, stride) each in range of the last result."""
    size = n = draw(st.integers(0, 12))
    ranges = []
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, n))
        limit = draw(st.integers(start, n))
        stride = draw(st.integers(1, 4))
        ranges.append((start, limit, stride))
        n = -(-(limit - start) // stride)
    return size, ranges


def program(size: int, ranges) -> str:
    lines, value, n = [], "%x", size
    for k, (start, limit, stride) in enumerate(ranges):
        m = -(-(limit - start) // stride)
        lines.append(f"  %{k} = bcast.slice {value} [{start}:{limit}:{stride}] : (tensor<{n}xi32>) -> tensor<{m}xi32>")
        value, n = f"%{k}", m
    body = "\n".join(lines)
    return f"func.func @main(%x: tensor<{size}xi32>) -> tensor<{n}xi32> {{\n{body}\n  func.return {value} : tensor<{n}xi32>\n}}\n"


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_slice_chains_canonicalize_to_at_most_one_slice_with_numpys_result(chain):
    size, ranges = chain
    module = driver.load(program(size, ranges), "chain.mlir", pipeline="canonicalize")
    module.verify()
    x = np.arange(size, dtype=np.int32)
    want = x
    for start, limit, stride in ranges:
        want = want[start:limit:stride]
    slices = [op for op in module.walk() if isinstance(op, bc.SliceOp)]
    assert len(slices) == (0 if want.size == size else 1), str(module)
    np.testing.assert_array_equal(bcast.compile(module, backend="reference")(x), want)
