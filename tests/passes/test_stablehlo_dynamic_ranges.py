"""StableHLO's ops that pass sizes, paddings and ranges as tensors
(``dynamic_reshape``, ``dynamic_iota``, ``dynamic_pad``,
``real_dynamic_slice``) under static result types, run on every backend:
constants make the static op; a size computed at run time that contradicts
the result type is a located error on every backend, with nothing written
to ``out=``."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tools.api import BACKENDS, BcastError

RESHAPE = """func.func @main(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<1x4xf32> {
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_time_sizes_that_match_the_result_type_run(backend):
    f = bcast.compile(RESHAPE, backend=backend)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(f(x, np.array([1, 4])), x.reshape(1, 4))


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_time_sizes_that_contradict_the_result_type_are_a_located_error(backend):
    f = bcast.compile(RESHAPE, backend=backend)
    out = np.full((1, 4), 7.0, dtype=np.float32)
    with pytest.raises(BcastError, match=r"<source>:2:8: error: stablehlo.dynamic_reshape: output size 0 is 2 "
                                         r"at run time, but the result type has 1 there"):
        f(np.arange(4, dtype=np.float32), np.array([2, 2]), out=out)
    assert (out == 7.0).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shape_assertion_of_a_static_program_is_checked(backend):
    """Also on C, where only programs with dynamic dims had a size plan,
    so a static program's assertion was dropped."""
    program = """func.func @main(%x: tensor<2xf32>, %n: tensor<1xi64>) -> tensor<2xf32> {
  %0 = bcast.extract %n[0] : (tensor<1xi64>) -> tensor<i64>
  %1 = bcast.constant dense<2> : tensor<i64>
  %2 = bcast.compare EQ, %0, %1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
  bcast.shape_assertion %2, %0 message = "n is {0}, not 2" : tensor<i1>, tensor<i64>
  func.return %x : tensor<2xf32>
}
"""
    f = bcast.compile(program, backend=backend)
    x = np.ones(2, dtype=np.float32)
    np.testing.assert_array_equal(f(x, np.array([2])), x)
    with pytest.raises(BcastError, match=r"<source>:5:3: error: n is 3, not 2"):
        f(x, np.array([3]))


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_paddings_and_ranges_run_as_pad_and_slice(backend):
    program = """func.func @main(%x: tensor<4xf32>, %v: tensor<f32>, %start: tensor<1xi64>)
    -> (tensor<11xf32>, tensor<2xf32>, tensor<2xf32>) {
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %hi = stablehlo.constant dense<1> : tensor<1xi64>
  %in = stablehlo.constant dense<2> : tensor<1xi64>
  %p = stablehlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>
  %l = stablehlo.constant dense<4> : tensor<1xi64>
  %k = stablehlo.constant dense<2> : tensor<1xi64>
  %s = stablehlo.real_dynamic_slice %x, %lo, %l, %k : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  %limit = stablehlo.add %start, %k : tensor<1xi64>
  %one = stablehlo.constant dense<1> : tensor<1xi64>
  %w = stablehlo.real_dynamic_slice %x, %start, %limit, %one : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  return %p, %s, %w : tensor<11xf32>, tensor<2xf32>, tensor<2xf32>
}
"""
    f = bcast.compile(program, backend=backend)
    x = np.array([1, 2, 3, 4], dtype=np.float32)
    padded, strided, window = f(x, np.float32(0), np.array([1]))
    np.testing.assert_array_equal(padded, [1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0])
    np.testing.assert_array_equal(strided, [1, 3])
    np.testing.assert_array_equal(window, [2, 3])
    # The run-time start is clamped into bounds, as dynamic_slice does.
    np.testing.assert_array_equal(f(x, np.float32(0), np.array([9]))[2], [3, 4])
