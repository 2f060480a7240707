"""Ops beyond elementwise ops, broadcasts and reductions with dynamic dims on
the C backend (docs/c-backend.md, "Dynamic shapes"): ``transpose`` and the
size ops of the StableHLO import (``dynamic_reshape``, ``dynamic_iota``,
``set_dimension_size``, sizes held in rank-0 tensors), equal to the
reference and NumPy at run-time sizes 0, 1 and more, and their C clean
under ASan and UBSan at those sizes, a mismatch refused before the call."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func

import bcast
from bcast.lowering import c_runtime
from bcast.lowering.c_sizes import SizePlan
from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units
from bcast.tools import api, driver
from bcast.tools.api import DYNAMIC_BACKENDS

TRANSPOSE = """\
func.func @main(%x: tensor<?x4xf32>, %y: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = bcast.transpose %x, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %1 = bcast.add %0, %y : (tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  %2 = bcast.exponential %1 : tensor<4x?xf32>
  func.return %2 : tensor<4x?xf32>
}
"""

TRANSPOSE_3D = """\
func.func @main(%x: tensor<?x3x?xf64>) -> tensor<?x?x3xf64> {
  %0 = bcast.transpose %x, dims = [2, 0, 1] : (tensor<?x3x?xf64>) -> tensor<?x?x3xf64>
  func.return %0 : tensor<?x?x3xf64>
}
"""

REFINING = """\
func.func @main(%x: tensor<?x4xf32>) -> tensor<4x3xf32> {
  %0 = bcast.transpose %x, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
"""

RESHAPES = """\
func.func @main(%x: tensor<?x6xf32>) -> (tensor<?x2x3xf32>, tensor<?xf32>, tensor<?x1x6xf32>, tensor<?x6xi32>) {
  %n = bcast.dim %x, 0 : tensor<?x6xf32>
  %nt = bcast.size_to_tensor %n : tensor<i32>
  %six = bcast.constant dense<6> : tensor<i32>
  %all = bcast.multiply %nt, %six : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %m = bcast.size_from_tensor %all : tensor<i32>
  %split = bcast.dynamic_reshape %x, [%n, 2, 3] : (tensor<?x6xf32>) -> tensor<?x2x3xf32>
  %flat = bcast.dynamic_reshape %x, [%m] : (tensor<?x6xf32>) -> tensor<?xf32>
  %unit = bcast.dynamic_reshape %x, [%n, 1, 6] : (tensor<?x6xf32>) -> tensor<?x1x6xf32>
  %iota = bcast.dynamic_iota [%n, 6], dim = 0 : tensor<?x6xi32>
  func.return %split, %flat, %unit, %iota : tensor<?x2x3xf32>, tensor<?xf32>, tensor<?x1x6xf32>, tensor<?x6xi32>
}
"""

REVERSE = """\
func.func @main(%x: tensor<?x3x?xf32>) -> (tensor<?x3x?xf32>, tensor<?x3x?xf32>) {
  %0 = bcast.reverse %x, dims = [0, 2] : tensor<?x3x?xf32>
  %1 = bcast.reverse %x, dims = [1] : tensor<?x3x?xf32>
  %2 = bcast.exponential %0 : tensor<?x3x?xf32>
  func.return %2, %1 : tensor<?x3x?xf32>, tensor<?x3x?xf32>
}
"""

CUMULATIVE = """\
func.func @main(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %0 = bcast.cumulative add %x, dim = 0 : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = bcast.cumulative maximum %x, dim = 1 reverse : (tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %0, %1 : tensor<?x3xf32>, tensor<?x3xf32>
}
"""

SIZES = [0, 1, 3]


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("stretched", [False, True])
def test_a_dynamic_transpose_runs_as_numpy(backend, n, stretched):
    x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) / 10
    y = np.linspace(-1, 1, 4 * (1 if stretched else n), dtype=np.float32).reshape(4, -1)
    got = bcast.compile(TRANSPOSE, backend=backend)(x, y)
    np.testing.assert_allclose(got, np.exp(x.T + y), rtol=1e-6)
    np.testing.assert_allclose(got, bcast.compile(TRANSPOSE, backend="reference")(x, y), rtol=1e-6)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_rank_3_dynamic_transpose_runs_as_numpy(backend):
    f = bcast.compile(TRANSPOSE_3D, backend=backend)
    for a, b in [(0, 2), (1, 1), (2, 0), (3, 5)]:
        x = np.arange(a * 3 * b, dtype=np.float64).reshape(a, 3, b)
        got = f(x)
        assert got.shape == (b, a, 3)
        np.testing.assert_array_equal(got, np.transpose(x, (2, 0, 1)))


def test_a_transpose_declaring_a_static_size_is_checked_on_c_as_the_reference_checks_it():
    """``tensor<?x4xf32>`` transposed to ``tensor<4x3xf32>``: the C runtime
    checks the 3 before the call (the loops read 3 rows), with the
    reference's located words; the Python targets refuse it, located."""
    x = np.ones((3, 4), np.float32)
    for backend in ("reference", "c"):
        np.testing.assert_array_equal(bcast.compile(REFINING, backend=backend)(x), x.T)
    errors = []
    for backend in ("reference", "c"):
        with pytest.raises(bcast.BcastError) as info:
            bcast.compile(REFINING, backend=backend, filename="prog.mlir")(np.ones((5, 4), np.float32))
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert errors[1].startswith("prog.mlir:2:8: error: 'bcast.transpose' op result has shape (4, 5) at run time, "
                                "which its type tensor<4x3xf32> does not allow")
    with pytest.raises(bcast.BcastError, match=r"^prog\.mlir:2:8: error: 'bcast\.transpose' op has dynamic "
                                               r"dimensions .* which the numpy target takes only"):
        bcast.compile(REFINING, backend="numpy", filename="prog.mlir")


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize("n", SIZES)
def test_reshapes_and_iota_of_run_time_sizes_run_as_numpy(backend, n):
    x = np.arange(n * 6, dtype=np.float32).reshape(n, 6)
    split, flat, unit, iota = bcast.compile(RESHAPES, backend=backend)(x)
    np.testing.assert_array_equal(split, x.reshape(n, 2, 3))
    np.testing.assert_array_equal(flat, x.reshape(-1))
    np.testing.assert_array_equal(unit, x.reshape(n, 1, 6))
    np.testing.assert_array_equal(iota, np.broadcast_to(np.arange(n, dtype=np.int32)[:, None], (n, 6)))


# --------------------------------------------------------------------------
# Sanitizers
@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_reverse_of_run_time_sizes_runs_as_numpy(backend):
    """``reverse`` along ``?`` dims reads ``n - 1 - i`` of the run-time ``n``
    (0 and 1 included), along a static dim as before."""
    f = bcast.compile(REVERSE, backend=backend)
    for a, b in [(0, 2), (1, 1), (2, 0), (3, 5)]:
        x = np.arange(a * 3 * b, dtype=np.float32).reshape(a, 3, b) / 10
        flipped, rows = f(x)
        np.testing.assert_allclose(flipped, np.exp(np.flip(x, (0, 2))), rtol=1e-6)
        np.testing.assert_array_equal(rows, np.flip(x, 1))


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_cumulative_of_run_time_sizes_runs_as_numpy(backend):
    """``cumulative`` along a ``?`` dim runs ``n`` steps of the run-time
    ``n``; along a static dim of a ``?``-row array, once per row."""
    f = bcast.compile(CUMULATIVE, backend=backend)
    for n in (0, 1, 3, 6):
        x = np.linspace(-1, 1, n * 3, dtype=np.float32).reshape(n, 3)
        total, running_max = f(x)
        np.testing.assert_allclose(total, np.cumsum(x, 0), rtol=1e-6)
        np.testing.assert_array_equal(running_max, np.flip(np.maximum.accumulate(np.flip(x, 1), 1), 1))


# --------------------------------------------------------------------------

MISMATCHED = """\
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?xf32>) -> tensor<?x2x2xf32> {
  %n = bcast.dim %y, 0 : tensor<?xf32>
  %r = bcast.dynamic_reshape %x, [%n, 2, 2] : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  func.return %r : tensor<?x2x2xf32>
}
"""

PROGRAMS = [
    ("transpose", TRANSPOSE, [{0: a, 1: b} for a, b in [(0, 0), (1, 1), (3, 3), (3, 1), (1, 3), (0, 1), (3, 2)]]),
    ("transpose_3d", TRANSPOSE_3D, [{0: a} for a in (0, 1, 3)]),
    ("refining", REFINING, [{0: a} for a in (3, 1, 0)]),
    ("reshapes", RESHAPES, [{0: a} for a in (0, 1, 3)]),
    ("reverse", REVERSE, [{0: a} for a in (0, 1, 3)]),
    ("cumulative", CUMULATIVE, [{0: a} for a in (0, 1, 3)]),
    ("mismatched", MISMATCHED, [{0: a, 1: b} for a, b in [(0, 0), (1, 1), (3, 3), (3, 2), (0, 1)]]),
]
"""(name, program, run-time sizes of each argument's ``?`` dims per call)."""


@pytest.mark.slow  # 10 s: ASan/UBSan builds (the thorough run, CI)
def test_dynamic_ops_are_clean_under_sanitizers_at_every_size(tmp_path):
    """Each program's C, built with ASan and UBSan, called with buffers of
    exactly its sizes (0 and 1 included); the sizes the checks refuse
    (a reshape of another element count, a transpose of another declared
    size) are refused by the size plan before any call, as NumPy refuses
    them."""
    cc = c_runtime.require_compiler()
    units, calls, refused, plans = sanitized_units(PROGRAMS, tmp_path, "d")
    assert not any(plan.values_read for plan in plans)  # every size comes from the arguments' shapes
    assert refused == [
        ("transpose", {0: 3, 1: 2}, "operands could not be broadcast together with shapes (4,3) (4,2)"),
        *(("refining", {0: n}, f"'bcast.transpose' op result has shape (4, {n}) at run time, which its type "
                                "tensor<4x3xf32> does not allow") for n in (1, 0)),
        ("mismatched", {0: 3, 1: 2}, "cannot reshape array of size 12 into shape (2, 2, 2)"),
        ("mismatched", {0: 0, 1: 1}, "cannot reshape array of size 0 into shape (1, 2, 2)"),
    ]
    run_sanitized(units, calls, tmp_path, cc)


ASSERTED = """\
func.func @main(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %n = bcast.dim %x, 0 : tensor<?x4xf32>
  %nt = bcast.size_to_tensor %n : tensor<i32>
  %one = bcast.constant dense<1> : tensor<i32>
  %ok = bcast.compare GE, %nt, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
  bcast.shape_assertion %ok, %nt message = "b = {0} is below 1" : tensor<i1>, tensor<i32>
  %four = bcast.constant dense<4> : tensor<i32>
  %all = bcast.multiply %nt, %four : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %m = bcast.size_from_tensor %all : tensor<i32>
  %flat = bcast.dynamic_reshape %x, [%m] : (tensor<?x4xf32>) -> tensor<?xf32>
  func.return %flat : tensor<?xf32>
}
"""


def test_the_size_plan_remembers_sizes_that_pass_and_checks_every_failure_again():
    """A plan that runs size ops at entry remembers each argument shape's
    results (a pure function of them); a failing size raises every time."""
    module = driver.load(ASSERTED, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
    plan = SizePlan(next(f for f in module.ops if isinstance(f, func.FuncOp)))
    for _ in range(2):
        assert plan([(3, 4)]) == [(12,)] and plan([(1, 4)]) == [(4,)]
        with pytest.raises(Exception, match="b = 0 is below 1"):
            plan([(0, 4)])
    assert sorted(plan.known) == [((1, 4),), ((3, 4),)]
    f = bcast.compile(ASSERTED, backend="c", filename="prog.mlir")
    for n in (2, 0, 2, 0):
        x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        if n:
            np.testing.assert_array_equal(f(x), x.reshape(-1))
        else:
            with pytest.raises(bcast.BcastError, match=r"^prog\.mlir:6:3: error: b = 0 is below 1$"):
                f(x)
