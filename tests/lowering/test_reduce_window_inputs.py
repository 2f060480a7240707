"""``reduce_window`` of several inputs and init values, imported from
StableHLO on every backend (docs/stablehlo.md, "Supported ops"): a body
that combines each input on its own is one ``bcast.reduce_window`` per
input; a body that mixes them (an argmax-pooling of (value, index) pairs)
is one ``bcast.reduce_window_body``, which every backend runs as a loop
over window places carrying the accumulators (docs/ir.md), so windows of
any number of places run (a cumulative argmax of 1000), and ``?`` or
bounded dims that no window spans run at every size from one compile.
Values against ``jax.jit`` and an independent Python oracle; the export
runs on XLA; the forms left are refused, located, naming the op."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import rules
from bcast.tests.budget import examples

jax = pytest.importorskip("jax")
jnp = jax.numpy

BACKENDS = ["reference", "numpy", "array-api", "c"]


def larger(a, b):
    """Keep the larger value, the smaller index on a tie (NaN-free inputs)."""
    pick = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]))
    return jnp.where(pick, b[0], a[0]), jnp.where(pick, b[1], a[1])


def argmax_pool(window, strides, padding, base=None, dilation=None):
    def fn(x):
        index = jnp.arange(x.size, dtype=jnp.int32).reshape(x.shape)
        return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(-1)), larger, window, strides, padding,
                                     base_dilation=base, window_dilation=dilation)
    return fn


def oracle(x, window, strides, pads, base, dilation):
    """The argmax pool written out in Python, independent of bcast: the
    input dilated and padded with (-inf, -1), each window folded by
    ``larger``'s rule in row-major order."""
    rank = x.ndim
    index = np.arange(x.size).reshape(x.shape)
    spread = [(n - 1) * b + 1 if n else 0 for n, b in zip(x.shape, base)]
    padded_shape = [lo + s + hi for (lo, hi), s in zip(pads, spread)]
    out = [max((p - ((w - 1) * d + 1)) // s + 1, 0) for p, w, d, s in zip(padded_shape, window, dilation, strides)]

    def element(at):
        q = [a - lo for a, (lo, _) in zip(at, pads)]
        if all(0 <= v < s and v % b == 0 for v, s, b in zip(q, spread, base)):
            src = tuple(v // b for v, b in zip(q, base))
            return float(x[src]), int(index[src])
        return -np.inf, -1

    values, indices = np.zeros(out, np.float32), np.zeros(out, np.int32)
    for o in itertools.product(*map(range, out)):
        best = (-np.inf, -1)
        for k in itertools.product(*map(range, window)):
            v = element([o[i] * strides[i] + k[i] * dilation[i] for i in range(rank)])
            if v[0] > best[0] or (v[0] == best[0] and v[1] < best[1]):
                best = v
        values[o], indices[o] = best
    return values, indices


def sum_and_min(x, y):
    return jax.lax.reduce_window((x, y), (0.0, jnp.inf), lambda a, b: (b[0] + a[0], jnp.minimum(a[1], b[1])),
                                 (3, 2), (2, 1), ((1, 1), (0, 1)))


POOLS = {  # window, strides, padding, base dilation, window dilation
    "valid_2x2": ((2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1), (1, 1)),
    "same_3x3_stride_2": ((3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1), (1, 1)),
    "dilated_window": ((2, 2), (1, 1), ((0, 0), (0, 0)), (1, 1), (2, 1)),
    "base_dilated_padded": ((2, 3), (1, 2), ((1, 0), (2, 1)), (2, 1), (1, 1)),
    "empty_result": ((5, 2), (1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1)),
    "9x9_81_places": ((9, 9), (1, 2), ((4, 4), (4, 4)), (1, 1), (1, 1)),
}


def pool_fn(name):
    window, strides, pads, base, dilation = POOLS[name]
    return argmax_pool(window, strides, pads, base, dilation)


def ties(shape, seed):
    """Small integers as floats: every window has ties."""
    return np.random.default_rng(seed).integers(-2, 3, shape).astype(np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(POOLS))
def test_argmax_pooling_runs_as_jax_and_the_oracle(backend, name):
    fn = pool_fn(name)
    x = ties((4, 7), 0)
    module = bcast.from_jax(fn, x)
    assert "bcast.reduce_window_body" in str(module)
    got = bcast.compile(module, backend=backend)(x)
    for g, e, o in zip(got, jax.jit(fn)(x), oracle(x, *POOLS[name])):
        np.testing.assert_array_equal(g, np.asarray(e))
        np.testing.assert_array_equal(g, o)


@pytest.mark.parametrize("backend", BACKENDS)
def test_independent_reductions_are_one_reduce_window_each(backend):
    x, y = ties((5, 4), 1), ties((5, 4), 2)
    module = bcast.from_jax(sum_and_min, x, y)
    assert str(module).count("bcast.reduce_window") == 2
    got = bcast.compile(module, backend=backend)(x, y)
    for g, e in zip(got, jax.jit(sum_and_min)(x, y)):
        np.testing.assert_array_equal(g, np.asarray(e))


def cumulative_argmax(x):
    """The running argmax JAX writes as a reduce_window of (value, index)
    over a window of the whole dim, padded before it: n window places."""
    n = x.shape[0]
    index = jnp.arange(n, dtype=jnp.int32)
    return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(-1)), larger, (n,), (1,), ((n - 1, 0),))[1]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [100, 1000])
def test_a_cumulative_argmax_of_many_places_runs_as_jax(backend, n):
    """No unrolling cliff: 100 and 1000 window places are one loop (the
    reference, which runs the body per element and place, at 100 only)."""
    if backend == "reference" and n > 100:
        pytest.skip("the reference runs the body 10^6 times at n = 1000")
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    module = bcast.from_jax(cumulative_argmax, x)
    assert "bcast.reduce_window_body" in str(module) and len(str(module)) < 4000  # no unrolled copies
    got = bcast.compile(module, backend=backend)(x)
    expected = np.array([int(np.argmax(x[: i + 1])) for i in range(n)], np.int32)  # NumPy's first maximum
    np.testing.assert_array_equal(got, expected)
    if n <= 100:  # XLA's own compile of the 1000-place variadic window aborted the process once (jaxlib 0.10.2)
        np.testing.assert_array_equal(got, np.asarray(jax.jit(cumulative_argmax)(x)))


@pytest.mark.parametrize("name", ["same_3x3_stride_2", "base_dilated_padded", "9x9_81_places"])
def test_the_export_runs_on_xla_as_jax(name):
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    fn = pool_fn(name)
    x = ties((4, 7), 3)
    exported = emit_text(bcast.from_jax(fn, x))
    assert exported.count("stablehlo.reduce_window") == 1  # written back one to one
    verify_stablehlo(exported)
    got = run_stablehlo(exported, (x,))
    for g, e in zip(got, jax.jit(fn)(x)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))


MIXED = """\
func.func @main(%x: tensor<SHAPExf32BOUNDS>, %i: tensor<SHAPExi32BOUNDS>) -> tensor<OUTxi32BOUNDS> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %zero) <{window_dimensions = array<i64: WINDOW>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) : (tensor<SHAPExf32BOUNDS>, tensor<SHAPExi32BOUNDS>, tensor<f32>, tensor<i32>) -> (tensor<OUTxf32BOUNDS>, tensor<OUTxi32BOUNDS>)
  func.return %r#1 : tensor<OUTxi32BOUNDS>
}
"""


def mixed(shape, out, window, bounds=""):
    return (MIXED.replace("SHAPE", shape).replace("OUT", out).replace("WINDOW", window)
            .replace("BOUNDS", bounds))


def first_max_of_rows(x, width):
    """The written pool's oracle: per row, the index of the first maximum of
    each window of ``width`` (GT keeps the earlier of equal values)."""
    rows, n = x.shape
    i = np.arange(x.size, dtype=np.int32).reshape(x.shape)
    return np.array([[i[r, k + int(np.argmax(x[r, k:k + width]))] for k in range(n - width + 1)]
                     for r in range(rows)], np.int32).reshape(rows, n - width + 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_written_argmax_pool_runs_with_81_places(backend):
    f = bcast.compile(mixed("2x6", "1x4", "2, 3"), backend=backend)
    x = np.array([[1, 5, 2, 2, 0, 9], [7, 5, 3, 1, 8, 9]], np.float32)
    i = np.arange(12, dtype=np.int32).reshape(2, 6)
    np.testing.assert_array_equal(f(x, i), [[6, 1, 10, 5]])
    g = bcast.compile(mixed("9x9", "1x1", "9, 9"), backend=backend)
    x = ties((9, 9), 5)
    i = np.arange(81, dtype=np.int32).reshape(9, 9)
    np.testing.assert_array_equal(g(x, i), [[int(np.argmax(x))]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_dynamic_rows_compile_once_and_run_at_every_size(backend):
    """A ``?`` dim no window spans (window 1 there), at sizes 0, 1 and 5."""
    f = bcast.compile(mixed("?x6", "?x4", "1, 3"), backend=backend)
    for rows in (0, 1, 5):
        x = ties((rows, 6), rows)
        i = np.arange(x.size, dtype=np.int32).reshape(x.shape)
        got = f(x, i)
        assert got.shape == (rows, 4)
        np.testing.assert_array_equal(got, first_max_of_rows(x, 3))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bounded_rows_run_up_to_the_bound_and_fail_located_above_it(backend):
    f = bcast.compile(mixed("?x6", "?x4", "1, 3", ", #stablehlo.bounds<4, ?>"), backend=backend,
                      filename="pool.mlir")
    for rows in (0, 1, 4):
        x = ties((rows, 6), rows)
        i = np.arange(x.size, dtype=np.int32).reshape(x.shape)
        np.testing.assert_array_equal(f(x, i), first_max_of_rows(x, 3))
    x = ties((5, 6), 5)
    with pytest.raises(bcast.BcastError) as info:
        f(x, np.arange(30, dtype=np.int32).reshape(5, 6))
    assert "dimension 0 of argument 0 is 5, above its bound 4" in str(info.value)


def exported(fn, spec):
    from jax import export

    symbols = export.symbolic_shape(spec[0])
    shape = (*symbols, *spec[1:])
    return export.export(jax.jit(fn))(jax.ShapeDtypeStruct(shape, jnp.float32)).mlir_module()


def row_argmax_pool(x):
    index = jnp.broadcast_to(jnp.arange(x.shape[1], dtype=jnp.int32), x.shape)
    return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(-1)), larger, (1, 3), (1, 2), ((0, 0), (1, 1)))[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shape_polymorphic_jax_export_runs_at_three_sizes_as_jax(backend):
    """``jax.export`` with a symbolic batch ``b`` (JAX asserts ``b >= 1``)."""
    text = exported(row_argmax_pool, ("b", 7))
    assert "tensor<?x7xf32>" in text and '"stablehlo.reduce_window"' in text
    f = bcast.compile(text, backend=backend)
    for rows in (1, 2, 5):
        x = ties((rows, 7), rows)
        np.testing.assert_array_equal(f(x), np.asarray(jax.jit(row_argmax_pool)(x)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_windows_over_dynamic_rows_and_columns_run_at_every_size(backend):
    """A window spanning ``?`` dims: the result's sizes are the window
    counts of the run-time sizes (none when the input is smaller than the
    window, or empty), from one compile; bounded dims run up to their bound."""
    for bounds in ("", ", #stablehlo.bounds<4, 8>"):
        f = bcast.compile(mixed("?x?", "?x?", "2, 3", bounds), backend=backend)
        for rows, columns in ((0, 0), (0, 5), (1, 2), (1, 3), (2, 3), (4, 8), (3, 7)):
            x = ties((rows, columns), rows * 10 + columns)
            i = np.arange(x.size, dtype=np.int32).reshape(x.shape)
            want = oracle(x, (2, 3), (1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1))[1]
            got = f(x, i)
            assert got.shape == want.shape, (bounds, rows, columns)
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_inputs_of_two_run_time_shapes_are_a_located_error(backend):
    """The values and the indices of a ``?`` pool must have one shape when
    it runs: another is the verifier's words at the op, on every backend
    (nothing read past an input)."""
    f = bcast.compile(mixed("?x?", "?x?", "2, 3"), backend=backend, filename="pool.mlir")
    with pytest.raises(bcast.BcastError) as info:
        f(np.zeros((3, 5), np.float32), np.zeros((3, 4), np.int32))
    assert str(info.value).splitlines()[0] == ("pool.mlir:4:10: error: 'bcast.reduce_window_body' op expects all "
                                               "inputs to have one shape, got (3, 5) and (3, 4)")


def symbolic_argmax_pool(x):
    index = jnp.broadcast_to(jnp.arange(x.shape[1], dtype=jnp.int32), x.shape)
    return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(-1)), larger, (1, 3), (1, 2), ((0, 0), (1, 1)))[1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_argmax_pool_over_a_symbolic_length_runs_as_jax(backend):
    """``jax.export`` with ``symbolic_shape("b, n")``: the pool's windows span
    ``n``; one compile runs at ``n`` of 1 (smaller than the window), 2, 5, 8."""
    text = exported(symbolic_argmax_pool, ("b, n",))
    assert "tensor<?x?xf32>" in text and '"stablehlo.reduce_window"' in text
    f = bcast.compile(text, backend=backend)
    for n in (1, 2, 5, 8):
        x = ties((3, n), n)
        np.testing.assert_array_equal(f(x), np.asarray(jax.jit(symbolic_argmax_pool)(x)))


REFUSALS = {
    # a body op that is not elementwise
    "reshape in the body": (mixed("2x6", "1x4", "2, 3").replace(
        "%k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>",
        "%s = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>\n"
        "    %k = stablehlo.reshape %s : (tensor<i32>) -> tensor<i32>"),
        "pool.mlir:4:10: error: 'stablehlo.reduce_window' op reduce_window of 2 inputs whose body does not "
        "combine each input on its own is not supported by convert-stablehlo-to-bcast"),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_what_stays_refused_is_a_located_error(name):
    text, first = REFUSALS[name]
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(text, backend="numpy", filename="pool.mlir")
    assert str(info.value).splitlines()[0] == first


def larger_by_select(a, b):
    """``larger`` with ``lax.select``: jaxlib 0.10.2 cannot lower ``jnp.where``
    in the function a symbolic window's body becomes."""
    pick = (b[0] > a[0]) | ((b[0] == a[0]) & (b[1] < a[1]))
    return jax.lax.select(pick, b[0], a[0]), jax.lax.select(pick, b[1], a[1])


def test_a_cumulative_argmax_along_a_symbolic_dim_stays_refused():
    """JAX writes it as ``custom_call @stablehlo.dynamic_reduce_window`` of
    two inputs (window and padding from ``n``): refused, located."""
    def fn(x):
        n = x.shape[0]
        index = jnp.arange(n, dtype=jnp.int32)
        return jax.lax.reduce_window((x, index), (-jnp.inf, jnp.int32(-1)), larger_by_select, (n,), (1,),
                                     ((n - 1, 0),))[1]

    text = exported(fn, ("n",))
    assert "stablehlo.dynamic_reduce_window" in text
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(text, backend="numpy", filename="export.mlir")
    assert ("error: 'stablehlo.custom_call' op with more than one input is not supported by "
            "convert-stablehlo-to-bcast") in str(info.value).splitlines()[0]


def pool_program(shape, window, strides, base, dilation, low, high) -> str:
    """The written argmax pool (``MIXED``'s body) of any rank and window."""
    out = [rules.reduce_window_size(*d) for d in zip(shape, window, strides, base, dilation, low, high)]
    t = lambda s, e: f"tensor<{'x'.join(map(str, s))}{'x' if s else ''}{e}>"  # noqa: E731
    attrs = (f"window_dimensions = array<i64: {', '.join(map(str, window))}>, "
             f"window_strides = array<i64: {', '.join(map(str, strides))}>, "
             f"base_dilations = array<i64: {', '.join(map(str, base))}>, "
             f"window_dilations = array<i64: {', '.join(map(str, dilation))}>, "
             f"padding = dense<{[[lo, hi] for lo, hi in zip(low, high)]}> : tensor<{len(shape)}x2xi64>")
    return f"""func.func @main(%x: {t(shape, 'f32')}, %i: {t(shape, 'i32')}) -> ({t(out, 'f32')}, {t(out, 'i32')}) {{
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %minus1 = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %minus1) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }}) : ({t(shape, 'f32')}, {t(shape, 'i32')}, tensor<f32>, tensor<i32>) -> ({t(out, 'f32')}, {t(out, 'i32')})
  func.return %r#0, %r#1 : {t(out, 'f32')}, {t(out, 'i32')}
}}
"""


@st.composite
def pools(draw):
    """A rank-1 or rank-2 input (sizes 0 to 5, values with ties) and any
    window (1 to 4 places per dim), stride, base and window dilation and
    padding (negative crops), whose result is not empty... or is."""
    rank = draw(st.integers(1, 2))
    shape = [draw(st.integers(0, 5)) for _ in range(rank)]
    window = [draw(st.integers(1, 4)) for _ in range(rank)]
    strides = [draw(st.integers(1, 3)) for _ in range(rank)]
    base = [draw(st.integers(1, 2)) for _ in range(rank)]
    dilation = [draw(st.integers(1, 2)) for _ in range(rank)]
    low = [draw(st.integers(-1, 3)) for _ in range(rank)]
    high = [draw(st.integers(-1, 3)) for _ in range(rank)]
    spread = [(n - 1) * b + 1 if n else 0 for n, b in zip(shape, base)]
    if any(lo + s + hi < 0 for lo, s, hi in zip(low, spread, high)):  # a crop past the padded input: invalid
        low = [max(lo, 0) for lo in low]
        high = [max(hi, 0) for hi in high]
    x = np.array(draw(st.lists(st.integers(-2, 2), min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))),
                 np.float32).reshape(shape)
    return x, window, strides, base, dilation, low, high


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_pools_match_the_oracle(backend):
    """Property: every backend gives the Python oracle's (value, index) for
    random geometries (the reference among them, so the others match it too)."""
    @settings(max_examples=examples(10 if backend == "c" else 40), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(pools())
    def check(case):
        x, window, strides, base, dilation, low, high = case
        text = pool_program(list(x.shape), window, strides, base, dilation, low, high)
        index = np.arange(x.size, dtype=np.int32).reshape(x.shape)
        got = bcast.compile(text, backend=backend)(x, index)
        want = oracle(x, window, strides, list(zip(low, high)), base, dilation)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)

    check()


def running_program(shape, dim: int, init: str = "0xFF800000", reverse: bool = False) -> str:
    """The written argmax pool with a running window along ``dim`` (the
    window of the whole dim padded by its size - 1 before it, or after it
    with ``reverse``), ``init`` the value's init value."""
    n = shape[dim]
    window = [n if d == dim else 1 for d in range(len(shape))]
    pad = [n - 1 if d == dim else 0 for d in range(len(shape))]
    zeros, ones = [0] * len(shape), [1] * len(shape)
    text = pool_program(list(shape), window, ones, ones, ones, zeros if reverse else pad, pad if reverse else zeros)
    return text.replace("dense<0xFF800000> : tensor<f32>", f"dense<{init}> : tensor<f32>")


RUNNING = {
    # name: (shape, dim, the value's init value, reverse)
    "rows": ((37, 3), 0, "0xFF800000", False),
    "columns": ((4, 50), 1, "0xFF800000", False),
    "one_dim": ((64,), 0, "0xFF800000", False),
    "init_above_every_element": ((6, 9), 1, "5.0", False),  # GT keeps (5, -1) against itself: still a scan
    "reversed": ((5, 8), 1, "0xFF800000", True),
}

RUNNING_SUM_FROM_ONE = """
func.func @main(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %one = bcast.constant dense<1.0> : tensor<f32>
  %r = bcast.reduce_window_body (%x) init (%one), window = [1, 8], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 7], high = [0, 0] : (tensor<3x8xf32>, tensor<f32>) -> (tensor<3x8xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = bcast.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    bcast.yield %s : tensor<f32>
  }
  func.return %r : tensor<3x8xf32>
}
"""
"""A running sum from 1: the body changes its init value (1 + 1), so every
element folds the padding's 1s too (element i: 8 - i ones): no scan."""


def test_a_running_window_whose_body_changes_the_init_is_no_scan():
    from bcast.ir import ops as bc
    from bcast.ir.evaluate import running_scan
    from bcast.tools import driver

    module = driver.load(RUNNING_SUM_FROM_ONE, "sum.mlir", None)
    (op,) = [o for o in module.walk() if isinstance(o, bc.ReduceWindowBodyOp)]
    assert running_scan(op) is None
    x = np.arange(24, dtype=np.float32).reshape(3, 8)
    want = np.cumsum(x, axis=1) + (8 - np.arange(8))  # independent: the prefix sum and the padding's ones
    for backend in BACKENDS:
        np.testing.assert_array_equal(bcast.compile(RUNNING_SUM_FROM_ONE, backend=backend)(x), want, err_msg=backend)


@pytest.mark.parametrize("name", sorted(RUNNING))
def test_running_scan_recognises_only_the_windows_a_scan_computes(name):
    """``evaluate.running_scan``: a window of the whole dim padded before it
    whose body folds the init values into themselves; not one padded after
    it (the init values fold after the elements). An init value the body
    keeps (5 against 5 under GT) is still a scan: the body's value decides."""
    from bcast.ir import ops as bc
    from bcast.ir.evaluate import running_scan
    from bcast.tools import driver

    shape, dim, init, reverse = RUNNING[name]
    module = driver.load(running_program(shape, dim, init, reverse), "running.mlir", None,
                         pipeline="convert-stablehlo-to-bcast")
    (op,) = [o for o in module.walk() if isinstance(o, bc.ReduceWindowBodyOp)]
    assert running_scan(op) == (None if reverse else dim)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(RUNNING))
def test_running_windows_fold_as_the_oracle(backend, name):
    """A running argmax (a scan on the numpy and C backends, the window
    elsewhere) gives the oracle's (value, index) pairs, ties and all."""
    shape, dim, init, reverse = RUNNING[name]
    x = ties(shape, len(name))
    index = np.arange(x.size, dtype=np.int32).reshape(shape)
    n = shape[dim]
    window = [n if d == dim else 1 for d in range(len(shape))]
    pads = [(0, n - 1) if reverse else (n - 1, 0) if d == dim else (0, 0) for d in range(len(shape))]
    got = bcast.compile(running_program(shape, dim, init, reverse), backend=backend)(x, index)
    want = running_oracle(x, window, pads, float.fromhex("-inf") if init == "0xFF800000" else float(init))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def running_oracle(x, window, pads, init):
    """``oracle`` with the value's init value ``init``: each window folded
    place by place from (init, -1), padding places holding (init, -1)."""
    rank = x.ndim
    index = np.arange(x.size).reshape(x.shape)
    values, indices = np.zeros(x.shape, np.float32), np.zeros(x.shape, np.int32)
    for o in itertools.product(*map(range, x.shape)):
        best = (init, -1)
        for k in itertools.product(*map(range, window)):
            q = [o[d] + k[d] - pads[d][0] for d in range(rank)]
            v = (float(x[tuple(q)]), int(index[tuple(q)])) if all(0 <= q[d] < x.shape[d] for d in range(rank)) \
                else (init, -1)
            if v[0] > best[0]:  # the written body: GT keeps the earlier of equal values
                best = v
        values[o], indices[o] = best
    return values, indices


def dynamic_pool_program(rank: int, dynamic: Sequence[bool], window, strides, base, dilation, low, high) -> str:
    """``pool_program`` with the dims ``dynamic`` says written ``?`` in the
    input and result types (a static one keeps its size 4)."""
    shape = [4] * rank
    text = pool_program(shape, window, strides, base, dilation, low, high)
    out = [rules.reduce_window_size(*d) for d in zip(shape, window, strides, base, dilation, low, high)]
    t = lambda s, e: f"tensor<{'x'.join(map(str, s))}{'x' if s else ''}{e}>"  # noqa: E731
    for element in ("f32", "i32"):
        text = text.replace(t(shape, element), t(["?" if q else n for q, n in zip(dynamic, shape)], element))
        text = text.replace(t(out, element), t(["?" if q else n for q, n in zip(dynamic, out)], element))
    return text


@functools.cache
def compiled_pool(text: str, backend: str):
    return bcast.compile(text, backend=backend)


@st.composite
def dynamic_pools(draw):
    """A random window geometry (``pools``' ranges) over a rank-1 or rank-2
    input whose dims are ``?`` or 4, and two run-time sizes of the ``?``
    dims (0 to 6: empty, smaller than the window, larger)."""
    rank = draw(st.integers(1, 2))
    dynamic = [draw(st.booleans()) for _ in range(rank)]
    if not any(dynamic):
        dynamic[0] = True
    geometry = [[draw(st.integers(lo, hi)) for _ in range(rank)] for lo, hi in ((1, 4), (1, 3), (1, 2), (1, 2))]
    low = [draw(st.integers(0, 3)) for _ in range(rank)]
    high = [draw(st.integers(0, 3)) for _ in range(rank)]
    sizes = [draw(st.integers(0, 6)) for _ in range(2)]
    return rank, dynamic, (*geometry, low, high), sizes


@pytest.mark.parametrize("backend", BACKENDS)
def test_property_windows_over_dynamic_dims_match_the_reference_and_the_oracle(backend):
    """Property: a program whose ``?`` dims random windows span, compiled
    once, gives at each run-time size the reference's (value, index) pairs
    and the Python oracle's, on every backend."""
    @settings(max_examples=examples(8 if backend == "c" else 30), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(dynamic_pools(), st.integers(0, 2**16))
    def check(case, seed):
        rank, dynamic, geometry, sizes = case
        text = dynamic_pool_program(rank, dynamic, *geometry)
        f, reference = compiled_pool(text, backend), compiled_pool(text, "reference")
        window, strides, base, dilation, low, high = geometry
        for n in sizes:
            shape = tuple(n if q else 4 for q in dynamic)
            x = np.random.default_rng(seed + n).integers(-2, 3, shape).astype(np.float32)
            index = np.arange(x.size, dtype=np.int32).reshape(shape)
            got, want = f(x, index), reference(x, index)
            for g, w, o in zip(got, want, oracle(x, window, strides, list(zip(low, high)), base, dilation)):
                np.testing.assert_array_equal(g, w)
                np.testing.assert_array_equal(g, o)

    check()


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_c_reduce_window_body_is_clean_under_sanitizers(tmp_path):
    """The C target's loops read and write only inside their buffers: a
    padded, base-dilated, strided window, an empty input with padding,
    ``?`` rows at sizes 0, 1 and 3, and ``?`` dims windows span at sizes 0,
    1, 2 and 5."""
    from bcast.lowering import c_runtime
    from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units

    programs = [
        ("padded", pool_program([4, 7], [3, 2], [2, 3], [2, 1], [1, 2], [2, -1], [1, 3]), [{}]),
        ("empty", pool_program([0, 3], [2, 2], [1, 1], [1, 1], [1, 1], [1, 1], [1, 0]), [{}]),
        ("rows", mixed("?x6", "?x4", "1, 3"), [{0: n, 1: n} for n in (0, 1, 3)]),
        ("spanned", dynamic_pool_program(2, [True, True], [2, 3], [1, 2], [2, 1], [1, 2], [1, 0], [0, 2]),
         [{0: n, 1: n} for n in (0, 1, 2, 5)]),
        ("running", running_program((6, 5), 1), [{}]),
    ]
    units, calls, refused, _ = sanitized_units(programs, tmp_path, "wb")
    assert refused == []
    run_sanitized(units, calls, tmp_path, c_runtime.require_compiler())


@pytest.mark.parametrize("library", ["array_api_strict", "jax.numpy", "dask.array"])
def test_array_api_target_pools_on_other_libraries(library):
    """Only standard functions (``array_api_strict``), under ``jax.jit``, and
    lazily on dask arrays."""
    lib = pytest.importorskip(library)
    window, strides, pads, base, dilation = POOLS["base_dilated_padded"]
    low, high = zip(*pads)
    f = bcast.compile(pool_program([4, 7], window, strides, base, dilation, low, high), backend="array-api")
    x = ties((4, 7), 7)
    index = np.arange(28, dtype=np.int32).reshape(4, 7)
    if library == "jax.numpy":
        got = jax.jit(f)(lib.asarray(x), lib.asarray(index))
    else:
        got = f(lib.asarray(x), lib.asarray(index))
    for g, w in zip(got, oracle(x, *POOLS["base_dilated_padded"])):
        np.testing.assert_array_equal(np.asarray(g), w)
