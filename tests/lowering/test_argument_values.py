"""The argument rule judged on what the caller passed (docs/contracts.md):
Python ints exactly (NumPy would read ints beyond int64 as floats), arrays
inside lists by the array rule, masked elements never silently unmasked,
and every odd object a ``BcastError`` rather than a stray exception."""

from __future__ import annotations

import numpy as np
import pytest

import bcast

BACKENDS = ("reference", "numpy")


def identity(t: str, backend: str):
    return bcast.compile(f"func.func @main(%x: {t}) -> {t} {{\n  func.return %x : {t}\n}}\n", backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_ints_in_the_uint64_range_are_exact(backend: str) -> None:
    got = identity("tensor<3xui64>", backend)([2**64 - 1, 0, 1])
    assert got.dtype == np.uint64 and got.tolist() == [2**64 - 1, 0, 1]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t, values", [
    ("tensor<3xf64>", [2**64 - 1, 0, 1]),
    ("tensor<3xf64>", [2**63 + 1, 0, 1]),
    ("tensor<3xf32>", [16777217, 0.5, 1]),  # an int among floats is still an int
    ("tensor<3xi1>", [True, False, 1]),
    ("tensor<3xf16>", [1e10, 0.0, 1.0]),
    ("tensor<3xi64>", [2**63, 0, 1]),
])
def test_python_values_that_do_not_fit_are_refused(backend: str, t: str, values) -> None:
    with pytest.raises(bcast.BcastError, match=r"arg0 \(%x\): the Python value .* does not fit"):
        identity(t, backend)(values)


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_values_that_fit(backend: str) -> None:
    assert identity("tensor<3xf32>", backend)([1.0, 2, 3]).tolist() == [1.0, 2.0, 3.0]
    assert identity("tensor<3xi8>", backend)([True, 2, -3]).tolist() == [1, 2, -3]
    assert identity("tensor<0xf16>", backend)([]).shape == (0,)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("wrap", [list, tuple])
def test_an_array_inside_a_list_follows_the_array_rule(backend: str, wrap) -> None:
    x64 = np.array([0.1, 1e-50, 16777217.0])
    with pytest.raises(bcast.BcastError, match="an array of float64 does not convert"):
        identity("tensor<1x3xf32>", backend)(wrap([x64]))
    got = identity("tensor<1x3xf64>", backend)(wrap([x64.astype(np.float32)]))
    assert got.dtype == np.float64


@pytest.mark.parametrize("backend", BACKENDS)
def test_masked_elements_are_refused(backend: str) -> None:
    f = identity("tensor<3xf32>", backend)
    masked = np.ma.masked_array(np.arange(3, dtype=np.float32), mask=[0, 1, 0])
    with pytest.raises(bcast.BcastError, match="masked"):
        f(masked)
    assert f(np.ma.masked_array(np.arange(3, dtype=np.float32))).tolist() == [0, 1, 2]


class Unreadable:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("no")


@pytest.mark.parametrize("backend", BACKENDS)
def test_odd_objects_are_argument_errors(backend: str) -> None:
    with pytest.raises(bcast.BcastError, match="cannot read the Unreadable"):
        identity("tensor<3xf32>", backend)(Unreadable())
    f = bcast.compile("""func.func @main(%x: tensor<3xf32>, %i: index) -> tensor<f32> {
  %e = bcast.extract %x[%i] : (tensor<3xf32>, index) -> tensor<f32>
  func.return %e : tensor<f32>
}""", backend=backend)
    with pytest.raises(bcast.BcastError, match="expected an integer"):
        f(np.ones(3, np.float32), np.timedelta64(1, "D"))


@pytest.mark.parametrize("backend", ["reference", "numpy", "array-api", "c"])
@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 2**64 + 1])
def test_index_arguments_beyond_64_bits_are_refused(backend: str, value: int) -> None:
    """``index`` is 64 bits wide (the C backend passes it as int64_t): a wider
    Python int is an argument error on every backend, not a wrapped value."""
    fn = bcast.compile("func.func @main(%i: index) -> index {\n  func.return %i : index\n}\n", backend=backend)
    with pytest.raises(bcast.BcastError, match=r"arg0 \(%i\): -?\d+ does not fit index"):
        fn(value)
    assert int(fn(2**63 - 1)) == 2**63 - 1 and int(fn(-(2**63))) == -(2**63)
