"""The size ops of the StableHLO import (docs/ir.md) run on every backend
that runs them (``SIZE_OP_BACKENDS``) with the reference's values, and a bad
size (negative, too large for its type, a reshape that changes the element
count, a size above its bound, a false assertion) is the same located
run-time error on each, with exact integer sizes."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tools.api import DYNAMIC_BACKENDS

SIZE_OP_BACKENDS = DYNAMIC_BACKENDS
"""Every backend that runs dynamic programs, the C backend included (lowering/c_sizes.py)."""

PROGRAM = """\
func.func @main(%x: tensor<?x4xf32>, %y: tensor<16xf32>, %t: tensor<i64>)
    -> (tensor<?x2x2xf32>, tensor<?x4xi32>, tensor<?xf32, #stablehlo.bounds<16>>, tensor<i8>) {
  %k = bcast.size_from_tensor %t : tensor<i64>
  %n = bcast.dim %x, 0 : tensor<?x4xf32>
  %nt = bcast.size_to_tensor %n : tensor<i8>
  %ok = bcast.constant dense<true> : tensor<i1>
  bcast.shape_assertion %ok, %nt message = "b = {0}" : tensor<i1>, tensor<i8>
  %r = bcast.dynamic_reshape %x, [%k, 2, 2] : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %i = bcast.dynamic_iota [%k, 4], dim = 1 : tensor<?x4xi32>
  %s = bcast.set_dimension_size %y, %k, dim = 0 : (tensor<16xf32>) -> tensor<?xf32, #stablehlo.bounds<16>>
  func.return %r, %i, %s, %nt : tensor<?x2x2xf32>, tensor<?x4xi32>, tensor<?xf32, #stablehlo.bounds<16>>, tensor<i8>
}
"""

ASSERTION = """\
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %nt = bcast.size_to_tensor %n : tensor<i32>
  %zero = bcast.constant dense<0> : tensor<i32>
  %p = bcast.compare GT, %nt, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  bcast.shape_assertion %p, %nt message = "b must be positive, got {0}" : tensor<i1>, tensor<i32>
  func.return %x : tensor<?xf32>
}
"""


def run(backend, program, *args):
    return bcast.compile(program, backend=backend)(*args)


@pytest.mark.parametrize("backend", SIZE_OP_BACKENDS)
@pytest.mark.parametrize("n", [0, 1, 3])
def test_size_ops_run_as_the_reference(backend, n):
    x = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
    y = np.arange(16, dtype=np.float32)
    got = run(backend, PROGRAM, x, y, np.int64(n))
    want = run("reference", PROGRAM, x, y, np.int64(n))
    assert got[0].shape == (n, 2, 2) and got[2].shape == (n,) and int(got[3]) == n
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


BAD = [
    # (x rows, t, error)
    (2, -1, r"a size is negative \(-1\)"),
    (2, 3, r"cannot reshape array of size 8 into shape \(3, 2, 2\)"),
    (200, 200, r"size 200 does not fit tensor<i8>"),
    (17, 17, r"size 17 of dimension 0 is above its bound 16"),
]


@pytest.mark.parametrize("backend", SIZE_OP_BACKENDS)
@pytest.mark.parametrize("rows, t, error", BAD)
def test_a_bad_size_is_the_same_located_error(backend, rows, t, error):
    x = np.zeros((rows, 4), np.float32)
    with pytest.raises(bcast.BcastError) as reference:
        run("reference", PROGRAM, x, np.zeros(16, np.float32), np.int64(t))
    with pytest.raises(bcast.BcastError, match=rf"^<source>:\d+:\d+: error: .*{error}") as got:
        run(backend, PROGRAM, x, np.zeros(16, np.float32), np.int64(t))
    assert str(got.value) == str(reference.value)


@pytest.mark.parametrize("backend", SIZE_OP_BACKENDS)
def test_a_false_shape_assertion_is_a_located_error(backend):
    np.testing.assert_array_equal(run(backend, ASSERTION, np.ones(2, np.float32)), np.ones(2, np.float32))
    with pytest.raises(bcast.BcastError, match=r"^<source>:6:3: error: b must be positive, got 0$"):
        run(backend, ASSERTION, np.ones(0, np.float32))


RESHAPE = """\
func.func @main(%x: tensor<?xf32>, %t: tensor<i64>) -> tensor<?x2xf32> {
  %k = bcast.size_from_tensor %t : tensor<i64>
  %r = bcast.dynamic_reshape %x, [%k, 2] : (tensor<?xf32>) -> tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}
"""


@pytest.mark.parametrize("backend", SIZE_OP_BACKENDS)
def test_a_failed_size_check_writes_nothing_to_out(backend):
    """The size a tensor holds is read and checked before anything runs (on
    C: at entry, lowering/c_sizes.py), so ``out=`` keeps its contents."""
    compiled = bcast.compile(RESHAPE, backend=backend)
    x = np.arange(6, dtype=np.float32)
    out = np.full((3, 2), 7, np.float32)
    np.testing.assert_array_equal(compiled(x, np.int64(3), out=out), x.reshape(3, 2))
    out = np.full((4, 2), 7, np.float32)
    with pytest.raises(bcast.BcastError, match=r"^<source>:3:8: error: cannot reshape array of size 6 into shape "
                                               r"\(4, 2\)$"):
        compiled(x, np.int64(4), out=out)
    assert (out == 7).all()


GIVEN_SHAPE = """\
func.func @main(%x: tensor<4xf32>, %shape: tensor<2xi64>) -> tensor<?x4xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
"""


@pytest.mark.parametrize("backend", SIZE_OP_BACKENDS)
def test_a_size_read_from_a_shape_tensor_argument_runs_as_the_reference(backend):
    """StableHLO's output sizes as an argument (``tensor<2xi64>``): read
    entry by entry (``extract``); on C at entry, the argument passed by value."""
    compiled = bcast.compile(GIVEN_SHAPE, backend=backend)
    x = np.arange(4, dtype=np.float32)
    for n in (0, 1, 3, 1):
        np.testing.assert_array_equal(compiled(x, np.array([n, 4], np.int64)), np.broadcast_to(x, (n, 4)))
    with pytest.raises(bcast.BcastError, match=r"^<source>:2:8: error: a size is negative \(-1\)$"):
        compiled(x, np.array([-1, 4], np.int64))
