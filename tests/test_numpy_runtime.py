"""The NumPy target's runtime helpers: alignment, scratch reuse, and the
recycling of results the caller has dropped (never of live ones)."""

from __future__ import annotations

import gc

import numpy as np

import bcast
from bcast.lowering import numpy_runtime as rt


def test_empty_is_aligned():
    for n in (1, 3, 1000):
        a = rt.empty((n, 3), np.float32)
        assert a.ctypes.data % rt.ALIGNMENT == 0 and a.shape == (n, 3)


def test_output_recycles_only_dropped_results():
    a = rt.output((5,), np.float32)
    b = rt.output((5,), np.float32)
    assert a is not b  # both alive: two arrays
    ida = id(a)
    view = a[1:]
    del a
    gc.collect()
    c = rt.output((5,), np.float32)
    assert id(c) != ida  # a view keeps the old result alive
    del view
    gc.collect()
    d = rt.output((5,), np.float32)
    assert id(d) == ida  # dropped with all its views: recycled
    buffer = memoryview(d)
    idd = id(d)
    del d
    assert id(rt.output((5,), np.float32)) != idd  # a memoryview counts too
    del buffer, b, c


def test_results_of_successive_calls_never_alias():
    text = """
func.func @main(%x: tensor<64x64xf32>, %row: tensor<64xf32>) -> tensor<64x64xf32> {
  %0 = bcast.add %x, %row : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}
"""
    f = bcast.compile(text, backend="numpy")
    x = np.ones((64, 64), np.float32)
    first = f(x, np.zeros(64, np.float32))
    second = f(x, np.ones(64, np.float32))
    assert not np.shares_memory(first, second)
    assert (first == 1).all() and (second == 2).all()
    third = f(first, np.ones(64, np.float32))  # a result fed back in
    assert not np.shares_memory(third, first) and (third == 2).all() and (first == 1).all()
