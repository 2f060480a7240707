"""``bcast.reduce_window`` (StableHLO's ``reduce_window`` of one input) on
every backend against an oracle that walks each window place by place as
the spec's formula places it (in the dilated, padded input at ``o *
stride + k * window_dilation - low``; an element there when that is in
range and on a multiple of the base dilation), folding from ``init`` once
(XLA's value, the spec's for an identity ``init``): max and average
pooling with VALID and SAME padding and strides, base and window
dilations, a window larger than its input, negative padding, zero-size
dims, rank 0, booleans, integers that wrap, f16 summed in f32, NaN; JAX's
pooling programs imported and compared with ``jax.jit``; the ``-t
stablehlo`` export on XLA; the Array API module on array_api_strict and
JAX; StableHLO's interpreter cases by their expected values.

Tolerances: the integer, boolean, max and min cases are exact in any
order; float sums fold in another order on each backend (NumPy's pairwise
reduce, the C loop in order, XLA its own), so they agree to a few ulp of
the window's magnitudes (``rtol=1e-5``, ``atol=1e-5`` on values of order
1 with windows of at most 25 elements)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import bcast
from bcast.ir import numerics
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i32": np.int32, "ui8": np.uint8, "i1": np.bool_}


def tensor(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def result_shape(shape, window, strides, base, dilation, low, high) -> tuple[int, ...]:
    """The spec's C15, written out again here (not ``rules``'s)."""
    out = []
    for n, w, s, b, d, lo, hi in zip(shape, window, strides, base, dilation, low, high):
        padded = lo + hi + ((n - 1) * b + 1 if n else 0)
        span = (w - 1) * d + 1
        out.append(0 if padded == 0 or span > padded else (padded - span) // s + 1)
    return tuple(out)


def program(kind, shape, element, window, strides, base, dilation, low, high) -> str:
    t, r = tensor(shape, element), tensor(result_shape(shape, window, strides, base, dilation, low, high), element)
    scalar = tensor((), element)
    return f"""
func.func @main(%x: {t}, %init: {scalar}) -> {r} {{
  %0 = bcast.reduce_window {kind} %x, %init, window = {list(window)}, strides = {list(strides)}, base_dilations = {list(base)}, window_dilations = {list(dilation)}, low = {list(low)}, high = {list(high)} : ({t}, {scalar}) -> {r}
  func.return %0 : {r}
}}
"""


FOLDS = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b, "maximum": np.maximum, "minimum": np.minimum,
         "and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}


def oracle(kind, x: np.ndarray, init, window, strides, base, dilation, low, high) -> np.ndarray:
    """One window place at a time, as the spec places it; folded from
    ``init`` in the element type (f16 in f32), rounded once."""
    acc = np.float32 if x.dtype == np.float16 else x.dtype.type
    shape = result_shape(x.shape, window, strides, base, dilation, low, high)
    out = np.empty(shape, x.dtype)
    with np.errstate(all="ignore"):  # integers wrap
        for o in itertools.product(*map(range, shape)):
            total = acc(init)
            for k in itertools.product(*map(range, window)):
                q = [oi * s + ki * d - lo for oi, s, ki, d, lo in zip(o, strides, k, dilation, low)]
                if all(0 <= qi <= (n - 1) * b and qi % b == 0 for qi, n, b in zip(q, x.shape, base)):
                    total = acc(FOLDS[kind](total, acc(x[tuple(qi // b for qi, b in zip(q, base))])))
            out[o] = total
    return out


CASES = {
    # name: (kind, shape, element, init, window, strides, base dilations, window dilations, low, high)
    "max_pool_valid": ("maximum", (2, 6, 6, 3), "f32", -np.inf, (1, 2, 2, 1), (1, 2, 2, 1), (1,) * 4, (1,) * 4,
                       (0,) * 4, (0,) * 4),
    "max_pool_same_strided": ("maximum", (1, 7, 5, 2), "f32", -np.inf, (1, 3, 3, 1), (1, 2, 2, 1), (1,) * 4,
                              (1,) * 4, (0, 1, 1, 0), (0, 1, 1, 0)),
    "avg_pool_sum": ("add", (2, 5, 4, 1), "f32", 0.0, (1, 2, 2, 1), (1, 1, 2, 1), (1,) * 4, (1,) * 4, (0,) * 4,
                     (0,) * 4),
    "dilated": ("add", (5, 4), "i32", 0, (2, 3), (2, 1), (2, 1), (1, 2), (1, 2), (2, 1)),
    "window_larger_than_input": ("maximum", (3, 2), "i32", -(2**31), (5, 4), (1, 2), (1, 1), (1, 1), (2, 1),
                                 (2, 1)),
    "negative_padding": ("minimum", (6, 5), "f64", np.inf, (2, 2), (1, 2), (1, 1), (1, 1), (-1, 0), (0, -2)),
    "init_not_identity": ("add", (4, 5), "f32", 1.5, (2, 3), (1, 1), (2, 1), (1, 1), (1, 1), (0, 1)),
    "product_wraps": ("multiply", (3, 6), "ui8", 1, (1, 3), (1, 1), (1, 1), (1, 1), (0, 1), (0, 1)),
    "f16_sum": ("add", (4, 9), "f16", 0.0, (2, 4), (1, 2), (1, 1), (1, 1), (0, 1), (0, 1)),
    "boolean_or": ("or", (4, 4), "i1", False, (2, 2), (1, 1), (1, 1), (1, 1), (0, 0), (1, 1)),
    "empty_input": ("add", (0, 4), "f32", 0.0, (1, 2), (1, 1), (1, 1), (1, 1), (0, 0), (0, 0)),
    "empty_input_padded": ("maximum", (0, 3), "f32", -np.inf, (2, 1), (1, 1), (1, 1), (1, 1), (0, 0), (2, 0)),
    "no_window_fits": ("add", (2, 3), "f32", 0.0, (3, 1), (1, 1), (1, 1), (1, 1), (0, 0), (0, 0)),
    "rank_0": ("add", (), "f32", 2.0, (), (), (), (), (), ()),
    # the C target's row layout bounds each window loop and row loop by the
    # places that hold an element: padding, cropping, strides and dilations
    # along the last (row) dim and an outer one
    "row_padded_strided_dilated": ("add", (3, 11), "f32", 0.0, (2, 3), (1, 3), (1, 1), (1, 2), (1, 4), (0, 2)),
    "row_cropped": ("maximum", (4, 9), "i32", -(2**31), (3, 2), (2, 2), (1, 1), (2, 1), (2, -3), (1, 1)),
    "row_window_wider_than_row": ("minimum", (5, 3), "f64", np.inf, (2, 6), (3, 1), (1, 1), (1, 1), (2, 4),
                                  (1, 2)),
}


def sample(shape, element: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np.dtype(DTYPES[element])
    if dtype.kind == "b":
        return rng.random(shape) < 0.3
    if dtype.kind == "f":
        return (rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


def case_args(name: str, seed: int = 0):
    kind, shape, element, init, *window = CASES[name]
    return kind, shape, element, sample(shape, element, seed), np.asarray(init, DTYPES[element]), window


def assert_matches(got, want, element: str, kind: str) -> None:
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if np.dtype(DTYPES[element]).kind == "f" and kind in ("add", "multiply"):
        tolerance = 2e-3 if element == "f16" else 1e-5
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_reduce_window_folds_what_the_spec_places(backend, name):
    kind, shape, element, x, init, window = case_args(name)
    f = bcast.compile(program(kind, shape, element, *window), backend=backend)
    assert_matches(f(x, init), oracle(kind, x, init, *window), element, kind)


def test_oracle_gives_the_values_of_stablehlo_interpreter_cases():
    """StableHLO's two interpreter cases (reduce_window.mlir) by their
    expected values, on the oracle and every backend."""
    x = np.array([[1, 2], [3, 4], [5, 6]], np.int64)
    for window, want in (((2, 1), [[0, 0], [3, 4]]), ((3, 1), [[5, 6]])):
        args = (window, (4, 1), (2, 1), (3, 1), (2, 0), (1, 0))
        np.testing.assert_array_equal(oracle("add", x, np.int64(0), *args), want)
        for backend in BACKENDS:
            f = bcast.compile(program("add", (3, 2), "i64", *args), backend=backend)
            np.testing.assert_array_equal(np.asarray(f(x, np.int64(0))), want, err_msg=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_pool_propagates_nan(backend):
    x = np.array([[1.0, np.nan, 3.0], [-1.0, 2.0, 0.5], [4.0, -np.inf, np.nan]], np.float32)
    args = ((2, 2), (1, 1), (1, 1), (1, 1), (0, 0), (0, 0))
    for kind in ("maximum", "minimum"):
        init = np.float32(numerics.reduction_identity(kind, np.float32))
        got = bcast.compile(program(kind, (3, 3), "f32", *args), backend=backend)(x, init)
        np.testing.assert_array_equal(got, oracle(kind, x, init, *args))
        assert np.isnan(got[0, 0]) and np.isnan(got[1, 1]) and not np.isnan(got[1, 0])


def jax_programs():
    """Pooling as JAX programs write it (``flax.linen.max_pool``/``avg_pool``
    are these ``reduce_window`` calls, the average divided after)."""
    jax = pytest.importorskip("jax")
    lax, jnp = jax.lax, jax.numpy

    return {
        "max_pool_valid": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
                           (2, 6, 6, 3)),
        "max_pool_same": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
                          (2, 7, 5, 3)),
        "avg_pool": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0,
                     (2, 6, 6, 3)),
        "avg_pool_same": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0,
                          (1, 5, 5, 2)),
        "dilated": (lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 2), [(1, 2), (0, 1)], (2, 1), (1, 2)),
                    (5, 6)),
        "window_larger_than_input": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (4, 4), (1, 1),
                                                                 [(2, 2), (3, 1)]), (2, 3)),
        "size_0": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2), (1, 1), "VALID"), (0, 4)),
        "min_pool_int": (lambda x: lax.reduce_window(x.astype(jnp.int32), jnp.iinfo(jnp.int32).max, lax.min,
                                                     (3,), (2,), "SAME"), (9,)),
    }


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["max_pool_valid", "max_pool_same", "avg_pool", "avg_pool_same", "dilated",
                                  "window_larger_than_input", "size_0", "min_pool_int"])
def test_jax_pooling_runs_as_jax_jit(backend, name):
    import jax

    fn, shape = jax_programs()[name]
    x = (np.random.default_rng(5).standard_normal(shape) * 4).astype(np.float32)
    module = bcast.from_jax(fn, x)
    assert "bcast.reduce_window" in str(module)
    got = np.asarray(bcast.compile(module, backend=backend)(x))
    want = np.asarray(jax.jit(fn)(x))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", sorted(CASES))
def test_exported_reduce_window_runs_on_xla_as_the_oracle_says(name):
    """``-t stablehlo`` writes ``reduce_window`` with the same window; XLA
    runs it to the oracle's values (XLA folds ``init`` once too). XLA sums
    f16 windows in f16, bcast in f32 (hence the f16 tolerance)."""
    kind, shape, element, x, init, window = case_args(name, seed=1)
    exported = written_back(program(kind, shape, element, *window))
    want = oracle(kind, x, init, *window)
    if 0 not in want.shape:
        assert '"stablehlo.reduce_window"' in exported, exported
    (got,) = run_on_xla(exported, (x, init))
    assert_matches(got, want, element, kind)


@pytest.mark.parametrize("library", ["array_api_strict", "jax.numpy"])
def test_array_api_target_pools_on_other_libraries(library):
    lib = pytest.importorskip(library)
    for name in ("max_pool_same_strided", "dilated", "boolean_or"):
        kind, shape, element, x, init, window = case_args(name)
        f = bcast.compile(program(kind, shape, element, *window), backend="array-api")
        if library == "jax.numpy":
            import jax

            got = jax.jit(f)(lib.asarray(x), lib.asarray(init))
        else:
            got = f(lib.asarray(x), lib.asarray(init))
        assert_matches(np.asarray(got), oracle(kind, x, init, *window), element, kind)



DYNAMIC_CASES = {
    # name: (a case as CASES, the dims written ?): dims no window spans
    "max_pool_batch": (CASES["max_pool_valid"], (0,)),
    "max_pool_same_batch_and_channels": (CASES["max_pool_same_strided"], (0, 3)),
    # the per-place nest (base dilation, f16 summed in f32) with a ? batch
    "base_dilated_batch": (("add", (3, 5), "i32", 0, (1, 2), (1, 1), (1, 2), (1, 1), (0, 1), (0, 0)), (0,)),
    "f16_sum_batch": (("add", (2, 9), "f16", 0.0, (1, 4), (1, 2), (1, 1), (1, 1), (0, 1), (0, 1)), (0,)),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(DYNAMIC_CASES))
def test_dynamic_dims_no_window_spans_run_at_sizes_0_1_3(backend, name):
    """One compile of a program whose ``?`` dims no window spans (a pool's
    batch) runs at sizes 0, 1 and 3 of them, equal to the oracle (on C: the
    row layout with ``?`` rows and a ``?`` row, and the per-place nest)."""
    (kind, shape, element, init, *window), dynamic = DYNAMIC_CASES[name]
    result = result_shape(shape, *window)
    as_dynamic = lambda s: tensor(["?" if k in dynamic else n for k, n in enumerate(s)], element)  # noqa: E731
    text = program(kind, shape, element, *window)
    text = text.replace(tensor(shape, element), as_dynamic(shape)).replace(tensor(result, element), as_dynamic(result))
    assert "?" in text
    f = bcast.compile(text, backend=backend)
    init = np.asarray(init, DTYPES[element])
    for size in (0, 1, 3):
        x = sample(tuple(size if k in dynamic else n for k, n in enumerate(shape)), element, size)
        assert_matches(f(x, init), oracle(kind, x, init, *window), element, kind)


SPANNED_CASES = {
    # name: (a case as CASES, the dims written ?): dims windows span, their
    # result sizes computed at run time (rules.reduce_window_size)
    "max_pool_rows_and_columns": (CASES["max_pool_same_strided"], (1, 2)),
    "avg_pool_columns": (CASES["avg_pool_sum"], (2,)),
    "dilated_both": (CASES["dilated"], (0, 1)),
    "negative_padding": (CASES["negative_padding"], (0, 1)),
    "row_padded_strided_dilated": (CASES["row_padded_strided_dilated"], (1,)),
    "row_cropped": (CASES["row_cropped"], (0, 1)),
    "window_wider_than_row": (CASES["row_window_wider_than_row"], (1,)),
    "f16_sum_row": (CASES["f16_sum"], (1,)),
    "product_wraps_row": (CASES["product_wraps"], (1,)),
    "init_not_identity": (CASES["init_not_identity"], (0, 1)),
}
SPANNED_SIZES = (0, 1, 2, 3, 7)
"""Sizes of the ``?`` dims: empty, one, smaller than most windows (an
empty result), and larger."""


def spanned_program(case, dynamic) -> str:
    kind, shape, element, _, *window = case
    as_dynamic = lambda s: tensor(["?" if k in dynamic else n for k, n in enumerate(s)], element)  # noqa: E731
    text = program(kind, shape, element, *window)
    result = result_shape(shape, *window)
    return text.replace(tensor(shape, element), as_dynamic(shape)).replace(tensor(result, element), as_dynamic(result))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(SPANNED_CASES))
def test_dims_windows_span_compile_once_and_run_at_every_size(backend, name):
    """One compile of a program whose ``?`` dims windows span (pooling over
    a symbolic length) runs at sizes 0, 1, 2, 3 and 7 of them, equal to the
    oracle: the result's size there is the window count of the run-time
    size (an empty result where no window fits)."""
    case, dynamic = SPANNED_CASES[name]
    kind, shape, element, init, *window = case
    f = bcast.compile(spanned_program(case, dynamic), backend=backend)
    init = np.asarray(init, DTYPES[element])
    for size in SPANNED_SIZES:
        x = sample(tuple(size if k in dynamic else n for k, n in enumerate(shape)), element, size)
        assert_matches(f(x, init), oracle(kind, x, init, *window), element, kind)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_static_declared_size_of_a_spanned_dim_is_checked_at_run_time(backend):
    """A result declared ``3`` where its size is the window count of a ``?``
    input: the size that gives 3 runs; another is a located error in the
    reference's words on every backend, nothing returned."""
    window = ((2,), (2,), (2,), (1,), (1,), (0,))
    text = program("add", (3,), "f32", *window)  # 3 elements dilated by 2 and padded by 1: 3 windows
    assert text.count("tensor<3xf32>") == 5
    text = text.replace("(%x: tensor<3xf32>", "(%x: tensor<?xf32>").replace("(tensor<3xf32>,", "(tensor<?xf32>,")
    f = bcast.compile(text, backend=backend, filename="w.mlir")
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(f(x, np.float32(0)), oracle("add", x, 0.0, *window))
    with pytest.raises(bcast.BcastError) as info:
        f(np.arange(4, dtype=np.float32), np.float32(0))
    assert str(info.value).splitlines()[0] == ("w.mlir:3:8: error: 'bcast.reduce_window' op result has shape (4,) "
                                               "at run time, which its type tensor<3xf32> does not allow")


@pytest.mark.parametrize("name", sorted(SPANNED_CASES))
def test_windows_over_dynamic_dims_written_back_run_on_xla(name):
    """``-t stablehlo`` writes a window over ``?`` dims as ``reduce_window``
    of ``?`` result dims (a non-identity ``init`` folded in by a
    ``dynamic_broadcast_in_dim`` to the sizes ``get_dimension_size`` reads);
    jaxlib's shape refinement and XLA run it at each size to the oracle's
    values (XLA sums f16 in f16: the f16 tolerance)."""
    from bcast.tools.jax_bridge import refined_stablehlo, run_stablehlo

    case, dynamic = SPANNED_CASES[name]
    kind, shape, element, init, *window = case
    exported = written_back(spanned_program(case, dynamic))
    init = np.asarray(init, DTYPES[element])
    for size in (1, 3, 7):
        x = sample(tuple(size if k in dynamic else n for k, n in enumerate(shape)), element, size)
        (got,) = run_stablehlo(refined_stablehlo(exported, [x.shape, init.shape]), (x, init))
        assert_matches(np.asarray(got), oracle(kind, x, init, *window), element, kind)


DECLARED_WIDTH = """
func.func @main(%x: tensor<2x?xf32>) -> tensor<2x3xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %cst) <{window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_imported_static_width_of_a_spanned_dim_is_checked_at_run_time(backend):
    """StableHLO declaring ``2x3`` for a pool over ``2x?``: widths 5 and 6
    give 3 windows (SAME-like padding 1, 1, stride 2), 7 gives 4: an error."""
    f = bcast.compile(DECLARED_WIDTH, backend=backend, filename="w.mlir")
    for width in (5, 6):
        x = sample((2, width), "f32", width)
        want = oracle("maximum", x, np.float32(-np.inf), (1, 3), (1, 2), (1, 1), (1, 1), (0, 1), (0, 1))
        assert_matches(f(x), want, "f32", "maximum")
    with pytest.raises(bcast.BcastError) as info:
        f(sample((2, 7), "f32", 7))
    assert str(info.value).splitlines()[0] == ("w.mlir:4:8: error: 'bcast.reduce_window' op result has shape (2, 4) "
                                               "at run time, which its type tensor<2x3xf32> does not allow")


def symbolic_pools():
    """Pooling over a symbolic length, as ``jax.export`` writes it with
    ``symbolic_shape("b, n")``: static windows, strides and padding on ``?``
    dims (a ``stablehlo.reduce_window`` of ``?`` result dims)."""
    jax = pytest.importorskip("jax")
    lax, jnp = jax.lax, jax.numpy
    return {
        "max_pool_valid": lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3), (1, 2), "VALID"),
        "avg_pool": lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3), (1, 1), "VALID") / 3.0,
        "padded_dilated": lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), ((1, 0), (1, 2)),
                                                      window_dilation=(1, 2)),
        "base_dilated": lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3), (1, 2), ((0, 0), (2, 1)),
                                                    base_dilation=(1, 2)),
    }


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["max_pool_valid", "avg_pool", "padded_dilated", "base_dilated"])
def test_symbolic_jax_pools_compile_once_and_run_as_jax_jit(backend, name):
    """``jax.export`` of a pool over ``(b, n)``, compiled once, at several
    ``n`` (JAX asserts ``n >= 1``) including ones smaller than the window."""
    import jax
    from jax import export

    fn = symbolic_pools()[name]
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, n"), np.float32)
    text = export.export(jax.jit(fn))(spec).mlir_module()
    assert '"stablehlo.reduce_window"' in text and "tensor<?x?xf32>" in text
    f = bcast.compile(text, backend=backend)
    for n in (1, 2, 4, 9):
        x = (np.random.default_rng(n).standard_normal((2, n)) * 4).astype(np.float32)
        got, want = np.asarray(f(x)), np.asarray(jax.jit(fn)(x))
        assert got.shape == want.shape, (n, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_c_reduce_window_is_clean_under_sanitizers(tmp_path):
    """The C target's loops read and write only inside their buffers, given
    exactly their sizes: the padded, cropped, strided and dilated cases
    (whose loop bounds the row layout computes) and the ``?`` ones at sizes
    0, 1 and 3."""
    from bcast.lowering import c_runtime
    from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units

    programs = [(name, program(*CASES[name][:3], *CASES[name][4:]), [{}]) for name in sorted(CASES)]
    for name, ((kind, shape, element, _, *window), dynamic) in sorted(DYNAMIC_CASES.items()):
        as_dynamic = lambda s: tensor(["?" if k in dynamic else n for k, n in enumerate(s)], element)  # noqa: E731
        text = program(kind, shape, element, *window).replace(tensor(shape, element), as_dynamic(shape))
        text = text.replace(tensor(result_shape(shape, *window), element), as_dynamic(result_shape(shape, *window)))
        programs.append((name, text, [{0: n} for n in (0, 1, 3)]))
    for name, (case, dynamic) in sorted(SPANNED_CASES.items()):
        programs.append((f"spanned_{name}", spanned_program(case, dynamic),
                         [{0: n} for n in SPANNED_SIZES]))
    units, calls, refused, _ = sanitized_units(programs, tmp_path, "w")
    assert refused == []
    run_sanitized(units, calls, tmp_path, c_runtime.require_compiler())
