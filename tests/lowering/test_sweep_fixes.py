"""Programs of StableHLO's own test files that crashed a backend (found by
``benchmarks/stablehlo_sweep.py``), each now run to NumPy's values or
refused with a located ``BcastError``, on every backend."""

from __future__ import annotations

import numpy as np
import pytest

import bcast

BACKENDS = ["reference", "numpy", "array-api", "c"]

SCATTER_INTO_A_SCALAR = """\
func.func @f(%x: tensor<f64>, %i: tensor<4x0xi32>, %u: tensor<4xf64>) -> tensor<f64> {
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %1 = "stablehlo.COMBINE"(%a, %b) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%1) : (tensor<f64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [], inserted_window_dims = [],
                                                   scatter_dims_to_operand_dims = [], index_vector_dim = 1>
  } : (tensor<f64>, tensor<4x0xi32>, tensor<4xf64>) -> tensor<f64>
  func.return %0 : tensor<f64>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("combine, expected", [("add", 6.0), ("multiply", -6.0), ("maximum", 4.0)])
def test_a_scatter_into_a_rank0_operand_combines_every_update(backend, combine, expected, monkeypatch, tmp_path):
    """Rank-0 operand, empty index vectors: all four updates go to the one
    element (the reference backend raised NumPy's broadcasting ValueError)."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    program = bcast.compile(SCATTER_INTO_A_SCALAR.replace("COMBINE", combine), backend=backend, entry="f")
    result = program(np.float64(0.5), np.zeros((4, 0), np.int32), np.array([1.0, 2.0, -1.5, 4.0]))
    assert float(np.asarray(result)) == expected


STATIC_OPERAND_DYNAMIC_RESULT = """\
func.func @f(%x: tensor<4xf32>, %shape: tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%x, %shape) {broadcast_dimensions = array<i64: 2>}
       : (tensor<4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_static_operand_dim_broadcast_to_a_dynamic_result(backend, monkeypatch, tmp_path):
    """A static operand size other than 1 never expands: C built no step for
    it (an internal error while lowering before); a run-time size that
    differs is NumPy's error, located."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    program = bcast.compile(STATIC_OPERAND_DYNAMIC_RESULT, backend=backend, entry="f", filename="prog.mlir")
    x = np.array([1.0, -2.0, 3.5, 0.0], np.float32)
    np.testing.assert_array_equal(np.asarray(program(x, np.array([2, 3, 4]))), np.broadcast_to(x, (2, 3, 4)))
    for wrong in (5, 1):
        with pytest.raises(bcast.BcastError, match=r"prog\.mlir:2:8: error: operand of shape \(4,\) could not be "):
            program(x, np.array([2, 3, wrong]))
