"""The reverse patterns (``ComposeReverseOfReverse``, ``DropUnitReverseDims``,
the identity fold) against NumPy: every pair of dim lists on a shape with
dims of size 1 and more, canonicalized, computes ``flip(flip(x, A), B)``
and leaves at most one reverse, listing only dims of size > 1."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import bcast
from bcast.ir import ops as bc
from bcast.tools import driver

SHAPE = (2, 1, 3)
T = "tensor<2x1x3xf32>"
SUBSETS = [list(c) for k in range(4) for c in itertools.combinations(range(3), k)]


def program(a: list[int], b: list[int]) -> str:
    return f"""
func.func @main(%x: {T}) -> {T} {{
  %0 = bcast.reverse %x, dims = {a[::-1]} : {T}
  %1 = bcast.reverse %0, dims = {b} : {T}
  func.return %1 : {T}
}}
"""


@pytest.mark.parametrize("a", SUBSETS, ids=str)
@pytest.mark.parametrize("b", SUBSETS, ids=str)
def test_reverse_chains_canonicalize_to_one_reverse_with_numpys_result(a, b):
    module = driver.load(program(a, b), "chain.mlir", pipeline="canonicalize")
    reverses = [op for op in module.walk() if isinstance(op, bc.ReverseOp)]
    expected_dims = sorted((set(a) ^ set(b)) - {1})  # dim 1 has size 1
    assert [sorted(op.dims) for op in reverses] == ([expected_dims] if expected_dims else []), str(module)
    x = np.arange(6, dtype=np.float32).reshape(SHAPE)
    got = bcast.compile(module, backend="reference")(x)
    np.testing.assert_array_equal(got, np.flip(np.flip(x, tuple(a)), tuple(b)))
