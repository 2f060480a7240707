"""StableHLO's ``while``, ``case`` and ``if`` through the import
(passes/stablehlo_control_flow.py): run on every backend as the spec says.
A loop it cannot unroll becomes ``bcast.while`` and a branch it cannot
flatten ``bcast.case``: they run on reference, numpy and array-api equal to
``jax.jit``; C runs them with ``?`` dims too where the sizes of their
results are known before the call (a carried size never changes, a case
result has one size in every branch), and refuses the others, located
(docs/c-backend.md, "Control flow")."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tools.api import BACKENDS, BcastError

REGION_BACKENDS = ("reference", "numpy", "array-api")
"""The backends that run ``bcast.case`` whose result size its branches
compute (C refuses those: it sizes a call's results before the call)."""

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


def newton_sqrt(a):
    """Newton's iteration for sqrt(a), to convergence."""
    import jax
    import jax.numpy as jnp

    def step(state):
        x, _ = state
        return 0.5 * (x + a / x), x

    return jax.lax.while_loop(lambda s: jnp.max(jnp.abs(s[0] - s[1])) > 1e-6, step, (a, a + 1.0))[0]


def count_to(n, x):
    """Doubles ``x`` ``n`` times: a loop bounded by an argument."""
    import jax

    return jax.lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * 2.0), (0, x))[1]


def long_fori(x):
    """10,000 iterations, past the unroll limit: sums 0..9999 onto ``x``."""
    import jax

    return jax.lax.fori_loop(0, 10_000, lambda i, v: v + i, x)


def as_jax(fn, *args):
    jax = pytest.importorskip("jax")
    return np.asarray(jax.jit(fn)(*args))


LOOPS = {
    "newton_sqrt": (newton_sqrt, lambda: (np.array([2.0, 9.0, 0.25, 1e4], np.float32),)),
    "count_to": (count_to, lambda: (np.int32(7), np.array([1.0, -0.5, 3.0], np.float32))),
    "long_fori": (long_fori, lambda: (np.array([5, -2], np.int32),)),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", LOOPS)
def test_a_loop_on_data_runs_as_jax_jit(name, backend):
    fn, make_args = LOOPS[name]
    args = make_args()
    module = bcast.from_jax(fn, *args)
    assert any(op.name == "bcast.while" for op in module.walk())
    np.testing.assert_allclose(bcast.compile(module, backend=backend)(*args), as_jax(fn, *args), rtol=2e-6)


def test_a_loop_bounded_by_data_takes_its_bound_at_run_time():
    """One compile, several bounds (0 included: the body never runs)."""
    x = np.array([1.0, -0.5, 3.0], np.float32)
    f = bcast.compile(bcast.from_jax(count_to, np.int32(1), x), backend="numpy")
    for n in (0, 1, 5):
        np.testing.assert_array_equal(f(np.int32(n), x), x * 2.0**n)


def test_c_runs_a_loop_bounded_by_data_with_its_bound_at_run_time():
    """One compile, several bounds (0 included: the body never runs)."""
    x = np.array([1.0, -0.5, 3.0], np.float32)
    f = bcast.compile(bcast.from_jax(count_to, np.int32(1), x), backend="c")
    for n in (0, 1, 5, 40):
        np.testing.assert_array_equal(f(np.int32(n), x), x * np.float32(2.0)**n)


def test_the_default_backend_runs_a_static_loop_on_data_on_c():
    args = LOOPS["newton_sqrt"][1]()
    f = bcast.compile(bcast.from_jax(newton_sqrt, *args))
    assert f.backend == "c"
    np.testing.assert_allclose(f(*args), as_jax(newton_sqrt, *args), rtol=2e-6)


def test_c_refuses_a_case_whose_branches_compute_its_size_at_its_line():
    """Branch 0's result has ``x + y``'s size (x's or y's, whichever is not 1),
    branch 1's x's: known only once a branch has run."""
    with pytest.raises(BcastError, match=r":2:\d+: error: 'bcast.case' op is not supported by bcast-lower-to-loops "
                                         r"with result 0 of a size along dim 0 that its branches compute"):
        bcast.compile(DYNAMIC_CASE, backend="c")
    assert bcast.compile(DYNAMIC_CASE).backend != "c"  # the default takes its fallback


DYNAMIC_CASE = """func.func @main(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = "stablehlo.case"(%k) ({
    %a = chlo.broadcast_add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    stablehlo.return %a : tensor<?xf32>
  }, {
    %b = stablehlo.negate %x : tensor<?xf32>
    stablehlo.return %b : tensor<?xf32>
  }) : (tensor<i32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""


@pytest.mark.parametrize("backend", REGION_BACKENDS)
def test_only_the_taken_branch_checks_its_broadcast(backend):
    """Branch 0 broadcasts ``x`` against ``y`` of 3 elements: at size 7 it fails,
    but only when it is taken; at sizes 1 and 3 it runs."""
    f = bcast.compile(DYNAMIC_CASE, backend=backend)
    y = np.array([1.0, 2.0, 3.0], np.float32)
    for n in (1, 3, 7):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(f(np.int32(1), x, y), -x)
        np.testing.assert_array_equal(f(np.int32(5), x, y), -x)  # out of range: the last branch
        if n == 7:
            with pytest.raises(BcastError, match=r":3:\d+: error: operands could not be broadcast together with "
                                                 r"shapes \(7,\) \(3,\)"):
                f(np.int32(0), x, y)
        else:
            np.testing.assert_array_equal(f(np.int32(0), x, y), x + y)


def test_a_case_with_dynamic_dims_is_bcast_case():
    from bcast.tools import driver

    module = driver.load(DYNAMIC_CASE, "case.mlir", import_stablehlo=True)
    assert [op.name for op in module.walk() if op.name.startswith("bcast.case")] == ["bcast.case"]


def branches(ops_per_branch: int, extra: str = "") -> str:
    """A two-branch case whose branches negate ``x`` ``ops_per_branch`` times;
    ``extra``: more ops of the first branch."""
    def branch(name: str, extra: str = "") -> str:
        lines = [f"    %{name}0 = stablehlo.negate %x : tensor<4xf32>"]
        lines += [f"    %{name}{k} = stablehlo.negate %{name}{k - 1} : tensor<4xf32>" for k in range(1, ops_per_branch)]
        return "\n".join(lines) + f"\n{extra}    stablehlo.return %{name}{ops_per_branch - 1} : tensor<4xf32>\n"
    return (f"""func.func @main(%k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {{
  %r = "stablehlo.case"(%k) ({{\n{branch("a", extra)}  }}, {{\n{branch("b")}  }}) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}}
""")


@pytest.mark.parametrize("ops_per_branch, kept", [(100, False), (101, True)])
def test_branches_of_more_than_200_ops_are_bcast_case(ops_per_branch, kept):
    """Up to 200 ops together the branches are computed and selected (they
    fuse); beyond, only the taken one runs."""
    from bcast.tools import driver

    module = driver.load(branches(ops_per_branch), "case.mlir", import_stablehlo=True)
    assert any(op.name == "bcast.case" for op in module.walk()) == kept
    f = bcast.compile(module, backend="numpy")
    x = np.array([1, -2, 3, 0.5], dtype=np.float32)
    sign = -1.0 if ops_per_branch % 2 else 1.0
    np.testing.assert_array_equal(f(np.int32(0), x), sign * x)


def test_a_branch_with_a_shape_assertion_is_bcast_case():
    """A static program's run-time check in a branch must not fire when the
    other branch is taken."""
    from bcast.tools import driver

    assertion = ('    %ok = stablehlo.constant dense<false> : tensor<i1>\n'
                 '    stablehlo.custom_call @shape_assertion(%ok) {api_version = 2 : i32, error_message = "never", '
                 'has_side_effect = true} : (tensor<i1>) -> ()\n')
    text = branches(1, assertion)
    module = driver.load(text, "case.mlir", import_stablehlo=True)
    assert any(op.name == "bcast.case" for op in module.walk())
    x = np.array([1, -2, 3, 0.5], dtype=np.float32)
    for backend in (*REGION_BACKENDS, "c"):  # C makes the check in the branch's function
        f = bcast.compile(text, backend=backend)
        with pytest.raises(BcastError, match="never"):
            f(np.int32(0), x)
        np.testing.assert_array_equal(f(np.int32(1), x), -x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_case_of_large_branches_runs_only_the_taken_one(backend):
    """``bcast.case`` (branches of 101 ops each): branch 0 negates an odd number
    of times, branch 1 an even number; an index out of range takes branch 1."""
    from bcast.tools import driver

    odd = branches(101)
    even = odd.replace("%b100 = stablehlo.negate %b99", "%b100 = stablehlo.abs %b99")
    module = driver.load(even, "case.mlir", import_stablehlo=True)
    assert any(op.name == "bcast.case" for op in module.walk())
    f = bcast.compile(module, backend=backend)
    x = np.array([1, -2, 3, 0.5], dtype=np.float32)
    for k, expected in ((0, -x), (1, np.abs(x)), (2, np.abs(x)), (-1, np.abs(x))):
        np.testing.assert_array_equal(f(np.int32(k), x), expected)
