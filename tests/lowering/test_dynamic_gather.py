"""``gather`` whose start indices have a ``?`` batch dim (``jnp.take(x, i)``
of a run-time count of indices), StableHLO's ``dynamic_gather`` of whole
``?`` dims (``jnp.take`` along a static axis) and its ``real_dynamic_slice``
of a run-time range (``jnp.roll`` along a ``?`` dim), on every backend
(docs/semantics.md, "Indexing with dynamic dims"): one compile runs at
counts 0, 1 and more to NumPy's values with the spec's clamped starts; a
slice that does not fit a run-time dim is a located error, unless there is
no slice to read; the C code is clean under ASan and UBSan at every size."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.lowering import c_runtime
from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units
from bcast.tools.api import DYNAMIC_BACKENDS

TAKE = """\
func.func @main(%x: tensor<5x4xf32>, %i: tensor<?xi32>) -> tensor<?x4xf32> {
  %0 = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 4] : (tensor<5x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
"""

BOTH = """\
func.func @main(%x: tensor<?x4xf32>, %i: tensor<?x2xi64>) -> tensor<?x2x4xf32> {
  %0 = bcast.gather %x[%i], <offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, sizes = [1, 4] : (tensor<?x4xf32>, tensor<?x2xi64>) -> tensor<?x2x4xf32>
  func.return %0 : tensor<?x2x4xf32>
}
"""

ROLL = """\
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %zeros = stablehlo.constant dense<0> : tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %last = stablehlo.subtract %n, %one : tensor<i32>
  %some = stablehlo.compare GT, %n, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %s = stablehlo.select %some, %last, %zero : tensor<i1>, tensor<i32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %tail_start = stablehlo.concatenate %s1, %zeros, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %tail_limit = stablehlo.concatenate %n1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %tail = stablehlo.real_dynamic_slice %x, %tail_start, %tail_limit, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %head_start = stablehlo.concatenate %zeros, %zeros, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %head_limit = stablehlo.concatenate %s1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %head = stablehlo.real_dynamic_slice %x, %head_start, %head_limit, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %r = stablehlo.concatenate %tail, %head, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
"""
"""``jnp.roll(x, 1, axis=0)`` in the form JAX exports it (its shift computed
from the size; here without JAX's ``b >= 1`` assertion, so that size 0 runs)."""

FROM = """\
func.func @main(%x: tensor<?x4xf32>, %s: tensor<i32>) -> tensor<?x4xf32> {
  %zeros = stablehlo.constant dense<0> : tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %start = stablehlo.concatenate %s1, %zeros, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %limit = stablehlo.concatenate %n1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.real_dynamic_slice %x, %start, %limit, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
"""
"""``x[s:]`` of a run-time ``s``: the range checked at run time."""

TAKE_COLUMNS = """\
func.func @main(%x: tensor<?x4xf32>, %i: tensor<3x1xi32>) -> tensor<?x3xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}
"""
"""``jnp.take(x, i, axis=1)`` of a ``?`` batch in the form JAX exports it:
the slice of dim 0 is the whole dim, its size read at run time."""

SIZES = [0, 1, 3, 7]


def clamped(i: np.ndarray, n: int, size: int = 1) -> np.ndarray:
    """The spec's clamped starts: into ``[0, n - size]``."""
    return np.clip(i, 0, n - size)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_run_time_count_of_indices_takes_rows_as_the_spec(backend):
    """Indices out of range at either end are clamped; a count of 0 gives 0 rows."""
    f = bcast.compile(TAKE, backend=backend)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    for count in SIZES:
        i = rng.integers(-3, 9, count).astype(np.int32)
        got = f(x, i)
        assert got.shape == (count, 4)
        np.testing.assert_array_equal(got, x[clamped(i, 5)])


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_run_time_rows_and_a_run_time_count_of_indices(backend):
    """Both ``?``: a 2-D batch of indices into a run-time number of rows; no
    rows and no indices is an empty result, not an error."""
    f = bcast.compile(BOTH, backend=backend)
    rng = np.random.default_rng(1)
    for n, count in [(1, 3), (3, 1), (7, 7), (5, 0), (0, 0)]:
        x = rng.standard_normal((n, 4)).astype(np.float32)
        i = rng.integers(-2, 10, (count, 2)).astype(np.int64)
        got = f(x, i)
        assert got.shape == (count, 2, 4)
        if n:
            np.testing.assert_array_equal(got, x[clamped(i, n)])


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_slice_that_does_not_fit_the_run_time_rows_is_a_located_error(backend):
    f = bcast.compile(BOTH, backend=backend, filename="prog.mlir")
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((0, 4), np.float32), np.zeros((2, 2), np.int64))
    assert str(info.value).splitlines()[0] == (
        "prog.mlir:2:8: error: gather slice size 1 of dimension 0 is larger than the operand's size 0")


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_the_roll_of_a_run_time_dim_imports_and_runs_as_numpy(backend):
    """JAX's form of ``jnp.roll`` (two ``real_dynamic_slice``s of ranges
    computed from the size, concatenated) at sizes 0, 1, 3 and 7: the roll
    of an empty dim is empty."""
    f = bcast.compile(ROLL, backend=backend)
    rng = np.random.default_rng(2)
    for n in SIZES:
        x = rng.standard_normal((n, 4)).astype(np.float32)
        got = f(x)
        assert got.shape == (n, 4)
        np.testing.assert_array_equal(got, np.roll(x, 1, axis=0))


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_run_time_range_is_checked_at_the_op(backend):
    """``x[s:]``: in range it is NumPy's; ``s`` past the end or negative is
    a located error with the range and the size, and ``out`` is untouched."""
    f = bcast.compile(FROM, backend=backend, filename="prog.mlir")
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    for s in (0, 2, 5):
        np.testing.assert_array_equal(f(x, np.int32(s)), x[s:])
    for s in (6, -1):
        out = np.full((5 - s, 4), 7.0, np.float32) if s < 5 else None
        with pytest.raises(bcast.BcastError) as info:
            f(x, np.int32(s), out=out)
        assert str(info.value).splitlines()[0] == (
            f"prog.mlir:10:8: error: real_dynamic_slice range [{s}, 5) of dimension 0 is out of bounds for its size 5")
        if out is not None:
            assert (out == 7.0).all()


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_dynamic_gather_of_whole_run_time_rows_takes_columns_as_the_spec(backend):
    """Every row, the columns at the clamped indices, at 0, 1 and more rows."""
    f = bcast.compile(TAKE_COLUMNS, backend=backend)
    rng = np.random.default_rng(3)
    i = np.array([[5], [0], [-2]], np.int32)
    for n in SIZES:
        x = rng.standard_normal((n, 4)).astype(np.float32)
        got = f(x, i)
        assert got.shape == (n, 3)
        np.testing.assert_array_equal(got, x[:, clamped(i[:, 0], 4)])


@pytest.mark.slow  # 10 s: ASan/UBSan builds (the thorough run, CI)
def test_dynamic_gathers_and_the_roll_are_clean_under_sanitizers(tmp_path):
    """Called with buffers of exactly their sizes (0 and 1 included) and
    indices of any bits (the harness fills them from a float's bits); the
    sizes the checks refuse are refused by the size plan before any call."""
    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units([
        ("take", TAKE, [{1: n} for n in SIZES]),
        ("both", BOTH, [{0: n, 1: c} for n, c in [(0, 0), (1, 0), (0, 1), (1, 1), (3, 7), (7, 3)]]),
        ("roll", ROLL, [{0: n} for n in SIZES]),
        ("take_columns", TAKE_COLUMNS, [{0: n} for n in SIZES]),
    ], tmp_path, "g")
    assert refused == [("both", {0: 0, 1: 1}, "gather slice size 1 of dimension 0 is larger than the operand's size 0")]
    run_sanitized(units, calls, tmp_path, cc)
