"""``bcast.while`` and ``bcast.case`` on the C backend
(passes/loops_control_flow.py): each region an outlined private function,
the loop an ``scf.while`` over buffers allocated once, the case a chain of
``scf.if``; nested control flow, captured values, results returned directly
and through the caller's buffers; ``?`` dims (carried sizes proven fixed,
case result sizes proven one source, anything else refused, located); a
check in a region that the sizes do not prove fires only where its region
runs, as the reference's error, with nothing written to ``out=``;
upstream-valid loop IR; clean under ASan and UBSan (no leak), sizes 0 and
1 and failing checks included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from xdsl.dialects import cf, memref, scf

from bcast.ir.loops import SIZE_CHECK_ATTR
from bcast.lowering import memref_abi
from bcast.passes.errors import PassError
from bcast.tests.budget import examples
from bcast.tools import api, driver, targets

LOOP_WITH_CASE = """func.func @main(%x: tensor<4xf32>, %n: tensor<i32>, %k: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %z = bcast.constant dense<0> : tensor<i32>
  %cap = bcast.constant dense<40> : tensor<i32>
  %lim = bcast.minimum %n, %cap : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %r:2 = bcast.while %x, %z : (tensor<4xf32>, tensor<i32>) -> (tensor<4xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<4xf32>, %i: tensor<i32>):
    %p = bcast.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
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


LOOP_CAP = 40
"""The trip count's bound in the loops above and below: the sanitizer
harness passes float bit patterns as counts (a billion iterations)."""


def loop_with_case(x, n, k):
    a, i = x.copy(), 0
    while i < min(n, LOOP_CAP):
        a = a + x if k == 0 else a * np.float32(0.5)
        i += 1
    return a, np.int32(i)


CASE_WITH_LOOP = """func.func @main(%k: tensor<i32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<2x3xf32> {
    bcast.yield %x : tensor<2x3xf32>
  } {
    %z = bcast.constant dense<0> : tensor<i32>
    %cap = bcast.constant dense<40> : tensor<i32>
    %lim = bcast.minimum %k, %cap : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %w:2 = bcast.while %z, %x : (tensor<i32>, tensor<2x3xf32>) -> (tensor<i32>, tensor<2x3xf32>) cond {
    ^bb0(%i: tensor<i32>, %a: tensor<2x3xf32>):
      %p = bcast.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
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
    return np.exp(x - np.float32(3.0) * np.float32(min(max(int(k), 0), LOOP_CAP))) + x


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_loop_with_a_case_in_its_body_runs_as_written(backend):
    f = bcast.compile(LOOP_WITH_CASE, backend=backend)
    x = np.array([1.0, -2.0, 0.25, 3.0], np.float32)
    for n in (0, 1, 5, 30, 1000):
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
    for k in (0, 1, 2, 5, -1, 1000):
        np.testing.assert_allclose(f(np.int32(k), x), case_with_loop(k, x), rtol=1e-6)


DYNAMIC_CASE = """func.func @main(%k: tensor<i32>, %x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>) {
  %r:2 = bcast.case %k : (tensor<i32>) -> (tensor<?x3xf32>, tensor<3xf32>) {
    %t = bcast.tanh %x : tensor<?x3xf32>
    %s = bcast.reduce add %x, dims = [0] : (tensor<?x3xf32>) -> tensor<3xf32>
    bcast.yield %t, %s : tensor<?x3xf32>, tensor<3xf32>
  } {
    %s = bcast.add %x, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %m = bcast.reduce maximum %s, dims = [0] : (tensor<?x3xf32>) -> tensor<3xf32>
    %h = bcast.multiply %x, %m : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
    bcast.yield %h, %m : tensor<?x3xf32>, tensor<3xf32>
  }
  func.return %r#0, %r#1 : tensor<?x3xf32>, tensor<3xf32>
}
"""
"""Result 0 has ``x``'s rows in both branches; branch 1 (and every index
out of range) checks ``x + y`` (line 7): the check fires only there."""


def dynamic_case(k, x, y):
    if k == 0:
        return np.tanh(x), x.sum(0)
    m = (x + y).max(0) if (x + y).shape[0] else np.full(3, -np.inf, np.float32)
    return x * m, m


DYNAMIC_LOOP = """func.func @main(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %n: tensor<i32>) -> (tensor<?x3xf32>, tensor<i32>) {
  %z = bcast.constant dense<0> : tensor<i32>
  %cap = bcast.constant dense<3> : tensor<i32>
  %lim = bcast.minimum %n, %cap : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %r:2 = bcast.while %x, %z : (tensor<?x3xf32>, tensor<i32>) -> (tensor<?x3xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<?x3xf32>, %i: tensor<i32>):
    %p = bcast.compare LT, %i, %lim : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?x3xf32>, %i: tensor<i32>):
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %s = bcast.add %x, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %m = bcast.reduce add %s, dims = [0] keepdims : (tensor<?x3xf32>) -> tensor<1x3xf32>
    %h = bcast.constant dense<0.5> : tensor<f32>
    %b = bcast.multiply %a, %h : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
    %c = bcast.add %b, %m : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
    %d = bcast.add %c, %x : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    bcast.yield %d, %j : tensor<?x3xf32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<?x3xf32>, tensor<i32>
}
"""
"""The carried ``a`` keeps ``x``'s rows (``a * 0.5 + m + x``: proven, no
check); ``x + y`` (line 13) is checked each iteration, so only a loop that
runs fails on sizes that do not broadcast."""


def dynamic_loop(x, y, n):
    a, i = x.copy(), 0
    while i < min(int(n), 3):
        a = a * np.float32(0.5) + (x + y).sum(0, keepdims=True) + x
        i += 1
    return a, np.int32(i)


SIZES = [(0, 0), (0, 1), (1, 1), (1, 4), (3, 1), (4, 4)]
"""(rows of x, rows of y) that broadcast, sizes 0 and 1 included."""


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_case_on_dynamic_rows_runs_each_branch_at_every_size(backend):
    f = bcast.compile(DYNAMIC_CASE, backend=backend)
    rng = np.random.default_rng(0)
    for n, m in SIZES:
        x, y = rng.standard_normal((n, 3)).astype(np.float32), rng.standard_normal((m, 3)).astype(np.float32)
        for k in (0, 1, 9, -1):
            got, want = f(np.int32(k), x, y), dynamic_case(k, x, y)
            assert got[0].shape == (n, 3)
            np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
            np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_loop_carrying_dynamic_rows_runs_at_every_size(backend):
    f = bcast.compile(DYNAMIC_LOOP, backend=backend)
    rng = np.random.default_rng(1)
    for n, m in SIZES:
        x, y = rng.standard_normal((n, 3)).astype(np.float32), rng.standard_normal((m, 3)).astype(np.float32)
        for count in (-2, 0, 1, 2, 7):
            got, want = f(x, y, np.int32(count)), dynamic_loop(x, y, count)
            np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)
            assert got[1] == want[1]


def test_c_chooses_itself_for_dynamic_control_flow():
    """Without a backend, dynamic control flow runs on C (it used to fall back to NumPy)."""
    assert bcast.compile(DYNAMIC_CASE).backend == "c"
    assert bcast.compile(DYNAMIC_LOOP).backend == "c"


def test_a_check_in_a_branch_fires_only_when_the_branch_runs_and_writes_no_out():
    """3 and 4 rows do not broadcast: branch 0 runs; branch 1 (index 1 and
    out of range) fails with the reference's located error, and the
    caller's ``out`` arrays keep what they held."""
    c = bcast.compile(DYNAMIC_CASE, backend="c", filename="case.mlir")
    reference = bcast.compile(DYNAMIC_CASE, backend="reference", filename="case.mlir")
    x, y = np.ones((3, 3), np.float32), np.ones((4, 3), np.float32)
    np.testing.assert_allclose(c(np.int32(0), x, y)[0], np.tanh(x))
    for k in (1, 5):
        out = (np.full((3, 3), 7, np.float32), np.full(3, 7, np.float32))
        with pytest.raises(bcast.BcastError) as got:
            c(np.int32(k), x, y, out=out)
        with pytest.raises(bcast.BcastError) as want:
            reference(np.int32(k), x, y)
        assert str(got.value) == str(want.value)
        assert str(got.value).startswith("case.mlir:7:10: error: operands could not be broadcast together with "
                                         "shapes (3,3) (4,3)")
        assert (out[0] == 7).all() and (out[1] == 7).all()
    got = c(np.int32(1), x, np.ones((1, 3), np.float32))  # the same function runs again after a failure
    np.testing.assert_allclose(got[1], dynamic_case(1, x, np.ones((1, 3), np.float32))[1])


def test_a_check_in_a_loop_body_fires_only_when_the_body_runs():
    c = bcast.compile(DYNAMIC_LOOP, backend="c", filename="loop.mlir")
    x, y = np.ones((3, 3), np.float32), np.ones((4, 3), np.float32)
    got = c(x, y, np.int32(0))  # the body never runs: no check
    np.testing.assert_array_equal(got[0], x)
    out = (np.full((3, 3), 7, np.float32), np.full((), 7, np.int32))
    with pytest.raises(bcast.BcastError, match=r"^loop\.mlir:13:10: error: operands could not be broadcast "
                                               r"together with shapes \(3,3\) \(4,3\)"):
        c(x, y, np.int32(2), out=out)
    assert (out[0] == 7).all() and out[1] == 7


DYNAMIC_NESTED = """func.func @main(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>, %k: tensor<i32>) -> (tensor<?x3xf32>, tensor<i32>) {
  %z = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.while %x, %z : (tensor<?x3xf32>, tensor<i32>) -> (tensor<?x3xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<?x3xf32>, %i: tensor<i32>):
    %three = bcast.constant dense<3> : tensor<i32>
    %p = bcast.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?x3xf32>, %i: tensor<i32>):
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %b = bcast.case %k : (tensor<i32>) -> tensor<?x3xf32> {
      %s = bcast.add %a, %x : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
      bcast.yield %s : tensor<?x3xf32>
    } {
      %t = bcast.add %x, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
      %m = bcast.reduce add %t, dims = [0] keepdims : (tensor<?x3xf32>) -> tensor<1x3xf32>
      %s = bcast.multiply %a, %m : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
      bcast.yield %s : tensor<?x3xf32>
    }
    bcast.yield %b, %j : tensor<?x3xf32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<?x3xf32>, tensor<i32>
}
"""
"""A case on ``?`` rows in a loop body: branch 0 (``a + x``) is proven in
the body's function by what the loop knew (``a`` keeps ``x``'s rows:
``SAME_SIZES_ATTR``), branch 1 checks ``x + y`` (line 16) when it runs."""


def test_a_case_in_a_dynamic_loop_body_keeps_what_the_loop_proved():
    c = bcast.compile(DYNAMIC_NESTED, backend="c", filename="nested.mlir")
    reference = bcast.compile(DYNAMIC_NESTED, backend="reference", filename="nested.mlir")
    for k in (0, 1, 4):
        for n, m in [*SIZES, (3, 4)]:
            x = np.arange(n * 3, dtype=np.float32).reshape(n, 3) / 7
            y = np.ones((m, 3), np.float32)
            got, want = _outcome(c, x, y, np.int32(k)), _outcome(reference, x, y, np.int32(k))
            if isinstance(want, str):
                assert got == want and (k, n, m) in ((1, 3, 4), (4, 3, 4))
                assert want.startswith("nested.mlir:16:12: error: operands could not be broadcast together")
                continue
            for g, w in zip(got, want, strict=True):
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


TRANSPOSED_CASE = """func.func @main(%k: tensor<i32>, %x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<3x?xf32> {
    %t = bcast.transpose %x, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>
    bcast.yield %t : tensor<3x?xf32>
  } {
    %t = bcast.transpose %x, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>
    %n = bcast.negate %t : tensor<3x?xf32>
    bcast.yield %n : tensor<3x?xf32>
  }
  func.return %r : tensor<3x?xf32>
}
"""


def test_a_transpose_of_dynamic_rows_in_a_branch_runs_on_c():
    """A transpose has no size rule of its own unless it declares a static
    size for a ``?`` dim: in a branch, C runs it."""
    f = bcast.compile(TRANSPOSED_CASE, backend="c")
    for n in (0, 1, 4):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        np.testing.assert_array_equal(f(np.int32(0), x), x.T)
        np.testing.assert_array_equal(f(np.int32(1), x), -x.T)


def _outcome(f, *args):
    """Results, or the error's text."""
    try:
        return f(*args)
    except bcast.BcastError as e:
        return str(e)


@pytest.mark.parametrize("text", [DYNAMIC_CASE, DYNAMIC_LOOP], ids=["dynamic_case", "dynamic_loop"])
def test_random_sizes_and_choices_give_the_reference_outcome_on_c(text):
    """Property: at any row counts (0 and 1 included, broadcasting or not)
    and any index or trip count, C returns the reference's results (and
    NumPy's) or raises the reference's very error."""
    c = bcast.compile(text, backend="c", filename="prog.mlir")
    reference = bcast.compile(text, backend="reference", filename="prog.mlir")
    model = dynamic_case if text is DYNAMIC_CASE else dynamic_loop

    @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 5), st.integers(0, 5), st.integers(-3, 5), st.integers(0, 2**32 - 1))
    def check(n, m, choice, seed):
        rng = np.random.default_rng(seed)
        x, y = rng.standard_normal((n, 3)).astype(np.float32), rng.standard_normal((m, 3)).astype(np.float32)
        args = (np.int32(choice), x, y) if text is DYNAMIC_CASE else (x, y, np.int32(choice))
        got, want = _outcome(c, *args), _outcome(reference, *args)
        assert type(got) is type(want), (got, want)
        if isinstance(want, str):
            assert got == want
            with pytest.raises(ValueError):  # NumPy refuses the same sizes
                model(*args)
            return
        for g, w, expected in zip(got, want, model(*args)):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-5)

    check()


CHANGING_LOOP = """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = bcast.while %x : (tensor<?xf32>) -> tensor<?xf32> cond {
  ^bb0(%a: tensor<?xf32>):
    %s = bcast.reduce add %a, dims = [0] : (tensor<?xf32>) -> tensor<f32>
    %z = bcast.constant dense<0.0> : tensor<f32>
    %p = bcast.compare GT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?xf32>):
    bcast.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""

BRANCH_SIZES = """func.func @main(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<?xf32> {
    bcast.yield %x : tensor<?xf32>
  } {
    bcast.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""

CONCATENATING_LOOP = """func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = bcast.while %x : (tensor<?xf32>) -> tensor<?xf32> cond {
  ^bb0(%a: tensor<?xf32>):
    %s = bcast.reduce add %a, dims = [0] : (tensor<?xf32>) -> tensor<f32>
    %z = bcast.constant dense<100.0> : tensor<f32>
    %p = bcast.compare LT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?xf32>):
    %c = bcast.concatenate %a, %x, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    bcast.yield %c : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
"""


@pytest.mark.parametrize("text, message", [
    (CHANGING_LOOP, r"prog\.mlir:2:8: error: 'bcast\.while' op is not supported by bcast-lower-to-loops with "
                    r"carried value 0 changing its size along dim 0"),
    (BRANCH_SIZES, r"prog\.mlir:2:8: error: 'bcast\.case' op is not supported by bcast-lower-to-loops with "
                   r"result 0 of a size along dim 0 that its branches compute"),
    (CONCATENATING_LOOP, r"prog\.mlir:2:8: error: 'bcast\.while' op is not supported by bcast-lower-to-loops "
                         r"with a run-time rule of 'bcast\.concatenate' in a region"),
], ids=["changing_size", "branch_sizes", "concatenate"])
def test_c_refuses_sizes_it_cannot_know_before_the_call_located(text, message):
    """A loop whose carried size may change, a case whose result size its
    branches decide, a size rule of its own in a region: refused at the op;
    the other backends run them, and ``backend=None`` falls back to one."""
    with pytest.raises(bcast.BcastError, match=message):
        bcast.compile(text, backend="c", filename="prog.mlir")
    fallback = bcast.compile(text, filename="prog.mlir")
    assert fallback.backend != "c"
    x = np.array([1.0, 2.0], np.float32)
    if text is BRANCH_SIZES:
        np.testing.assert_array_equal(fallback(np.int32(1), x, np.ones(5, np.float32)), np.ones(5))
    elif text is CHANGING_LOOP:
        np.testing.assert_array_equal(fallback(x, np.zeros(3, np.float32)), np.zeros(3))
    else:
        assert fallback(x).shape == (68,)  # 34 copies of x: the first sum of at least 100


def test_the_refusal_notes_where_the_rule_stands():
    with pytest.raises(PassError) as info:
        driver_module = driver.load(CONCATENATING_LOOP, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
        targets.loop_ir(driver_module)
    notes = [(str(n), getattr(n, "loc", None)) for n in info.value.notes]
    assert notes[0][0] == "'bcast.concatenate' is here" and notes[0][1].line == 10


@pytest.mark.skipif(not memref_abi.tools_available(), reason="mlir-opt-19 not installed")
@pytest.mark.parametrize("text", [LOOP_WITH_CASE, CASE_WITH_LOOP, DYNAMIC_CASE, DYNAMIC_LOOP],
                         ids=["loop_with_case", "case_with_loop", "dynamic_case", "dynamic_loop"])
def test_control_flow_loop_ir_is_upstream_mlir_and_allocates_before_the_loop(text):
    module = driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
    loops = targets.loop_ir(module)
    whiles = [op for op in loops.walk() if isinstance(op, scf.WhileOp)]
    assert whiles or any(isinstance(op, scf.IfOp) for op in loops.walk())
    assert not [op for w in whiles for op in w.walk() if isinstance(op, memref.AllocOp)], "allocations per iteration"
    size_checks = [op for op in loops.walk() if isinstance(op, cf.AssertOp) and SIZE_CHECK_ATTR in op.attributes]
    assert len(size_checks) == (1 if text in (DYNAMIC_CASE, DYNAMIC_LOOP) else 0)  # only x + y: the rest is proven
    assert "func.func @main" in memref_abi.verify(str(loops))


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_control_flow_is_clean_under_sanitizers(tmp_path) -> None:
    """A loop with a case in its body and a case with a loop in a branch,
    called with the harness's small values, and the dynamic case and loop
    at sizes 0 and 1 and at sizes whose check in a region fails (the C code
    leaves through its failure path): no leak, no out-of-bounds access."""
    from bcast.lowering import c_runtime
    from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units

    cc = c_runtime.require_compiler()
    dynamic = [{1: n, 2: m} for n, m in SIZES] + [{1: 3, 2: 4}]  # (3, 4): branch 1 fails, freeing what it holds
    units, calls, refused, _ = sanitized_units([
        ("loop_with_case", LOOP_WITH_CASE, [{}]),
        ("case_with_loop", CASE_WITH_LOOP, [{}]),
        ("dynamic_case", DYNAMIC_CASE, dynamic),
        ("dynamic_loop", DYNAMIC_LOOP, [{0: n, 1: m} for n, m in SIZES] + [{0: 3, 1: 4}]),
        ("dynamic_nested", DYNAMIC_NESTED, [{0: n, 1: m} for n, m in SIZES] + [{0: 3, 1: 4}]),
    ], tmp_path, "cf")
    assert refused == []
    run_sanitized(units, calls, tmp_path, cc)
