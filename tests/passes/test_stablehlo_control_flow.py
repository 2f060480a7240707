"""StableHLO's ``while``, ``case`` and ``if`` through the import
(passes/stablehlo_control_flow.py): run on every backend as the spec says,
and the loops it cannot unroll refused at the user's line."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tools.api import BACKENDS, BcastError

CASE = """func.func @main(%k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.case"(%k) ({
    %a = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %b = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %b : tensor<4xf32>
  }, {
    %c = stablehlo.add %x, %x : tensor<4xf32>
    stablehlo.return %c : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_case_with_a_run_time_index_takes_its_branch_and_the_last_out_of_range(backend):
    f = bcast.compile(CASE, backend=backend)
    x = np.array([1, -2, 3, 0.5], dtype=np.float32)
    for k, expected in ((0, -x), (1, x * x), (2, x + x), (3, x + x), (-1, x + x), (2**31 - 1, x + x)):
        np.testing.assert_array_equal(f(np.int32(k), x), expected)


UNSIGNED_LOOP = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %start = stablehlo.constant dense<-3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %limit = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.while"(%start, %x) ({
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %p = stablehlo.compare NE, %i, %limit, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %w = stablehlo.add %v, %v : tensor<4xf32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_counted_loop_runs_its_trip_count(backend):
    """-3, -2, -1: three iterations before the counter reaches 0."""
    x = np.array([1, 2, 3, 4], dtype=np.float32)
    np.testing.assert_array_equal(bcast.compile(UNSIGNED_LOOP, backend=backend)(x), x * 8)


def test_a_loop_whose_condition_reads_data_is_refused_at_the_users_line():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    def doubling(x):
        return jax.lax.while_loop(lambda v: jnp.sum(v) < 100.0, lambda v: v * 2.0, x)

    line = doubling.__code__.co_firstlineno + 1
    with pytest.raises(BcastError, match=rf"test_stablehlo_control_flow.py:{line}:\d+: error: 'stablehlo.while' op is "
                                         r"supported by convert-stablehlo-to-bcast as a counted loop only"):
        bcast.from_jax(doubling, np.ones(4, np.float32))


def test_a_loop_past_the_unroll_limit_is_refused():
    jax = pytest.importorskip("jax")

    def long_loop(x):
        return jax.lax.fori_loop(0, 5000, lambda i, v: v * 0.5, x)

    with pytest.raises(BcastError, match=r"at most 4096 iterations are unrolled"):
        bcast.from_jax(long_loop, np.ones(4, np.float32))
