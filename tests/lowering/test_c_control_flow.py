"""``bcast.while`` and ``bcast.case`` on the C backend
(passes/loops_control_flow.py): each region an outlined private function,
the loop an ``scf.while`` over buffers allocated once, the case a chain of
``scf.if``; nested control flow, captured values, results returned directly
and through the caller's buffers; upstream-valid loop IR; clean under ASan
and UBSan (no leak)."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from xdsl.dialects import memref, scf

from bcast.lowering import memref_abi
from bcast.tools import api, driver, targets

LOOP_WITH_CASE = """func.func @main(%x: tensor<4xf32>, %n: tensor<i32>, %k: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %z = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.while %x, %z : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<4xf32>, %i: tensor<i32>):
    %p = bcast.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<4xf32>, %i: tensor<i32>):
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %b = bcast.case %k : (tensor<i32>) -> tensor<4xf32> {
      %s = bcast.add %a, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      bcast.yield %s : tensor<4xf32>
    } {
      %h = bcast.constant dense<0.5> : tensor<4xf32>
      %s = bcast.multiply %a, %h : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      bcast.yield %s : tensor<4xf32>
    }
    bcast.yield %b, %j : tensor<4xf32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<i32>
}
"""


def loop_with_case(x, n, k):
    a, i = x.copy(), 0
    while i < n:
        a = a + x if k == 0 else a * np.float32(0.5)
        i += 1
    return a, np.int32(i)


CASE_WITH_LOOP = """func.func @main(%k: tensor<i32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<2x3xf32> {
    bcast.yield %x : tensor<2x3xf32>
  } {
    %z = bcast.constant dense<0> : tensor<i32>
    %w:2 = bcast.while %z, %x : (tensor<i32>, tensor<2x3xf32>) -> (tensor<i32>, tensor<2x3xf32>) cond {
    ^bb0(%i: tensor<i32>, %a: tensor<2x3xf32>):
      %p = bcast.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      bcast.yield %p : tensor<i1>
    } do {
    ^bb0(%i: tensor<i32>, %a: tensor<2x3xf32>):
      %one = bcast.constant dense<1> : tensor<i32>
      %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %t = bcast.constant dense<3.0> : tensor<2x3xf32>
      %b = bcast.subtract %a, %t : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      bcast.yield %j, %b : tensor<i32>, tensor<2x3xf32>
    }
    %e = bcast.exponential %w#1 : tensor<2x3xf32>
    bcast.yield %e : tensor<2x3xf32>
  }
  %y = bcast.add %r, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
"""


def case_with_loop(k, x):
    if k == 0:
        return x + x
    return np.exp(x - np.float32(3.0) * np.float32(max(int(k), 0))) + x


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_loop_with_a_case_in_its_body_runs_as_written(backend):
    f = bcast.compile(LOOP_WITH_CASE, backend=backend)
    x = np.array([1.0, -2.0, 0.25, 3.0], np.float32)
    for n in (0, 1, 5, 30):
        for k in (0, 1, 7, -3):
            got = f(x, np.int32(n), np.int32(k))
            want = loop_with_case(x, n, k)
            np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
            assert got[1] == want[1]


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_case_with_a_loop_in_a_branch_runs_as_written(backend):
    """Branch 0 yields an argument as it is; branch 1 (also every index out
    of range) loops ``k`` times: a negative ``k`` never enters the loop."""
    f = bcast.compile(CASE_WITH_LOOP, backend=backend)
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    for k in (0, 1, 2, 5, -1):
        np.testing.assert_allclose(f(np.int32(k), x), case_with_loop(k, x), rtol=1e-6)


@pytest.mark.skipif(not memref_abi.tools_available(), reason="mlir-opt-19 not installed")
@pytest.mark.parametrize("text", [LOOP_WITH_CASE, CASE_WITH_LOOP], ids=["loop_with_case", "case_with_loop"])
def test_control_flow_loop_ir_is_upstream_mlir_and_allocates_before_the_loop(text):
    module = driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
    loops = targets.loop_ir(module)
    whiles = [op for op in loops.walk() if isinstance(op, scf.WhileOp)]
    assert whiles and any(isinstance(op, scf.IfOp) for op in loops.walk())
    assert not [op for w in whiles for op in w.walk() if isinstance(op, memref.AllocOp)], "allocations per iteration"
    assert "func.func @main" in memref_abi.verify(str(loops))


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_control_flow_is_clean_under_sanitizers(tmp_path) -> None:
    """A loop with a case in its body and a case with a loop in a branch,
    called with the harness's small values: no leak, no out-of-bounds access."""
    from bcast.lowering import c_runtime
    from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units

    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units([
        ("loop_with_case", LOOP_WITH_CASE, [{}]),
        ("case_with_loop", CASE_WITH_LOOP, [{}]),
    ], tmp_path, "cf")
    assert refused == []
    run_sanitized(units, calls, tmp_path, cc)
