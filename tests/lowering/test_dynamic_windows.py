"""``real_dynamic_slice`` with run-time starts, limits and strides on several
dims, and ``dynamic_gather`` windows of run-time or partial sizes, imported
from StableHLO and run on every backend that runs ``?`` dims
(docs/stablehlo.md, "Dynamic shapes"): one compile runs at sizes 0, 1 and
more to NumPy's slicing and the spec's clamped starts; a range or a window
that does not fit is a located run-time error, and ``out`` is untouched."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tools.api import DYNAMIC_BACKENDS

RANGES = """\
func.func @main(%x: tensor<?x?xf32>, %s: tensor<2xi32>, %l: tensor<2xi32>, %k: tensor<2xi32>) -> tensor<?x?xf32> {
  %r = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<?x?xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}
"""
"""``x[s0:l0:k0, s1:l1:k1]``, every entry an argument."""

SPLIT = """\
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %zero = stablehlo.constant dense<0> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s0 = stablehlo.concatenate %zero, %zero, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %l0 = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %a = stablehlo.real_dynamic_slice %x, %s0, %l0, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  %s1 = stablehlo.concatenate %zero, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %l1 = stablehlo.concatenate %n1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.real_dynamic_slice %x, %s1, %l1, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  %r = stablehlo.subtract %a, %b : tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}
"""
"""``a, b = jnp.split(x, 2, axis=1); a - b`` of a ``b``-shaped ``x`` in the
form JAX exports it: the ``?`` dim taken whole (its limit the run-time size),
the static one in halves."""

COLUMN_WINDOWS = """\
func.func @main(%x: tensor<?x8xf32>, %i: tensor<3x1xi32>) -> tensor<3x?x2xf32> {
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x8xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x?x2xf32>
  func.return %r : tensor<3x?x2xf32>
}
"""
"""Three windows of 2 columns (a part of the static dim) over every row of
the ``?`` dim (its whole run-time size), at three starts."""

SIZED_WINDOW = """\
func.func @main(%x: tensor<?x8xf32>, %i: tensor<2xi32>, %k: tensor<i32>) -> tensor<?x3xf32> {
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %k1 = stablehlo.reshape %k : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %k1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>}> : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}
"""
"""A window of ``k`` rows (a run-time size) and 3 columns at ``i``: JAX's
``lax.dynamic_slice`` with a run-time size."""


def _slice(x, s, l, k):
    return x[s[0]:l[0]:k[0], s[1]:l[1]:k[1]]


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_run_time_ranges_and_strides_on_two_dims_slice_as_numpy(backend):
    f = bcast.compile(RANGES, backend=backend)
    rng = np.random.default_rng(0)
    cases = [((0, 0), (0, 0), (0, 0), (1, 1)), ((1, 1), (0, 0), (1, 1), (1, 1)), ((5, 7), (1, 2), (5, 7), (2, 3)),
             ((5, 7), (0, 0), (5, 7), (1, 1)), ((5, 7), (4, 6), (4, 6), (1, 5)), ((6, 3), (2, 0), (6, 3), (5, 1)),
             ((3, 0), (1, 0), (3, 0), (1, 2))]
    for shape, s, l, k in cases:
        x = rng.standard_normal(shape).astype(np.float32)
        args = [np.array(v, np.int32) for v in (s, l, k)]
        got = f(x, *args)
        expected = _slice(x, s, l, k)
        assert got.shape == expected.shape, (shape, s, l, k)
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_range_or_stride_that_does_not_fit_is_a_located_error(backend):
    f = bcast.compile(RANGES, backend=backend, filename="prog.mlir")
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    cases = [((0, -1), (4, 5), (1, 1), "range [-1, 5) of dimension 1 is out of bounds for its size 5"),
             ((0, 0), (5, 5), (1, 1), "range [0, 5) of dimension 0 is out of bounds for its size 4"),
             ((3, 0), (2, 5), (1, 1), "range [3, 2) of dimension 0 is out of bounds for its size 4"),
             ((0, 0), (4, 5), (1, 0), "stride 0 of dimension 1 is not positive"),
             ((0, 0), (4, 5), (-2, 1), "stride -2 of dimension 0 is not positive")]
    for s, l, k, words in cases:
        with pytest.raises(bcast.BcastError) as info:
            f(x, *(np.array(v, np.int32) for v in (s, l, k)))
        assert str(info.value).splitlines()[0] == f"prog.mlir:2:8: error: real_dynamic_slice {words}"


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_the_split_of_a_run_time_dim_array_imports_and_runs_as_numpy(backend):
    f = bcast.compile(SPLIT, backend=backend)
    rng = np.random.default_rng(1)
    for n in (0, 1, 3, 7):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        a, b = np.split(x, 2, axis=1)
        np.testing.assert_array_equal(f(x), a - b)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_partial_windows_beside_a_whole_run_time_dim_take_clamped_columns(backend):
    f = bcast.compile(COLUMN_WINDOWS, backend=backend)
    rng = np.random.default_rng(2)
    i = np.array([[7], [-3], [2]], np.int32)
    for n in (0, 1, 3, 7):
        x = rng.standard_normal((n, 8)).astype(np.float32)
        starts = np.clip(i[:, 0], 0, 8 - 2)
        expected = np.stack([x[:, s:s + 2] for s in starts])
        got = f(x, i)
        assert got.shape == (3, n, 2)
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_window_of_a_run_time_size_is_the_clamped_dynamic_slice(backend):
    f = bcast.compile(SIZED_WINDOW, backend=backend, filename="prog.mlir")
    rng = np.random.default_rng(3)
    for n, k, i in [(5, 2, (1, 4)), (5, 5, (3, 9)), (5, 0, (2, 2)), (1, 1, (-4, -1)), (0, 0, (0, 0)), (7, 3, (6, 1))]:
        x = rng.standard_normal((n, 8)).astype(np.float32)
        s0, s1 = min(max(i[0], 0), n - k), min(max(i[1], 0), 8 - 3)
        got = f(x, np.array(i, np.int32), np.int32(k))
        assert got.shape == (k, 3)
        np.testing.assert_array_equal(got, x[s0:s0 + k, s1:s1 + 3])
    out = np.full((6, 3), 7.0, np.float32)
    for k in (6, -1):
        with pytest.raises(bcast.BcastError) as info:
            f(np.zeros((5, 8), np.float32), np.zeros(2, np.int32), np.int32(k), out=out if k == 6 else None)
        assert str(info.value).splitlines()[0] == (
            f"prog.mlir:5:8: error: dynamic_gather slice size {k} of dimension 0 is out of bounds for its size 5")
    assert (out == 7.0).all()


@functools.cache
def _compiled(text: str, backend: str):
    return bcast.compile(text, backend=backend)


@st.composite
def ranges_and_windows(draw):
    """A ``(n, m)`` array, a valid range and stride per dim, and a window
    (its size and an unclamped start) per dim."""
    shape = (draw(st.integers(0, 6)), draw(st.integers(0, 9)))
    ranges = []
    for n in shape:
        limit = draw(st.integers(0, n))
        ranges.append((draw(st.integers(0, limit)), limit, draw(st.integers(1, 4))))
    k = draw(st.integers(0, shape[0]))
    starts = (draw(st.integers(-3, 9)), draw(st.integers(-3, 12)))
    return shape, ranges, k, starts


@settings(max_examples=examples(80), deadline=None)
@given(case=ranges_and_windows(), backend=st.sampled_from(DYNAMIC_BACKENDS), seed=st.integers(0, 2**16))
def test_property_run_time_ranges_and_windows_are_numpys(case, backend, seed):
    """Any valid run-time ranges and strides slice as NumPy does; any window
    of a fitting run-time size reads NumPy's slice at the spec's clamped
    start; on every dynamic backend, sizes 0 included."""
    (n, m), ranges, k, (i, j) = case
    x = np.random.default_rng(seed).standard_normal((n, m)).astype(np.float32)
    s, l, stride = (np.array(v, np.int32) for v in zip(*ranges))
    np.testing.assert_array_equal(_compiled(RANGES, backend)(x, s, l, stride), _slice(x, s, l, stride))
    if m >= 8:
        x = x[:, :8]
        got = _compiled(SIZED_WINDOW, backend)(x, np.array([i, j], np.int32), np.int32(k))
        s0, s1 = min(max(i, 0), n - k), min(max(j, 0), 8 - 3)
        np.testing.assert_array_equal(got, x[s0:s0 + k, s1:s1 + 3])
