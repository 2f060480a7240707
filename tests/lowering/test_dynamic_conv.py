"""StableHLO's ``dynamic_conv`` (a ``convolution`` whose padding is an
operand), on every backend (docs/stablehlo.md, "Convolution"): a constant
padding imported as ``bcast.convolution`` (StableHLO's interpreter case by
its expected value, a padded float convolution of a ``?`` batch against
``jax.lax.conv_general_dilated``, the ``-t stablehlo`` export run by XLA);
a run-time padding as ``bcast.dynamic_conv``, its padding read when it
runs (against a loop-by-loop NumPy oracle and ``jax.jit`` with the same
padding made static, the interpreter case with its padding an argument, a
padding computed from an argument, a located run-time error for a padding
that makes a padded dim negative); what stays refused is located."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples

BACKENDS = ["reference", "numpy", "array-api", "c"]

INTERPRETER_CASE = """\
func.func @main(%lhs: tensor<1x4x4x1xi64>) -> tensor<1x2x2x1xi64> {
  %rhs = stablehlo.constant dense<1> : tensor<3x3x1x1xi64>
  %padding = stablehlo.constant dense<0> : tensor<2x2xi64>
  %r = stablehlo.dynamic_conv(%lhs, %rhs, %padding)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [4, 4], lhs_dilate = [2, 2]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
     precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}
    : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>, tensor<2x2xi64>) -> tensor<1x2x2x1xi64>
  func.return %r : tensor<1x2x2x1xi64>
}
"""
"""``dynamic_conv_op_test_si64`` of StableHLO's interpreter tests."""

PADDED = """\
func.func @main(%x: tensor<BATCHx6x5x2xf32>, %w: tensor<3x2x2x3xf32>) -> tensor<BATCHx4x5x3xf32> {
  %padding = stablehlo.constant dense<[[1, 2], [0, 2]]> : tensor<2x2xi64>
  %r = "stablehlo.dynamic_conv"(%x, %w, %padding) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 2>}> : (tensor<BATCHx6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<BATCHx4x5x3xf32>
  func.return %r : tensor<BATCHx4x5x3xf32>
}
"""
"""Generic form: strides (2, 1), kernel dilation (1, 2), padding ((1, 2), (0, 2))."""

RUN_TIME_PADDING = """\
func.func @main(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) -> tensor<1x4x4x1xf32> {
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
  func.return %r : tensor<1x4x4x1xf32>
}
"""
"""A run-time padding whose result declares static spatial sizes: checked when it runs."""

DYNAMIC = """\
func.func @main(%x: tensor<?x6x5x2xT>, %w: tensor<3x2x2x3xT>, %p: tensor<2x2xP>) -> tensor<?x?x?x3xT> {
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 1>, lhs_dilation = array<i64: 1, 2>, rhs_dilation = array<i64: 1, 2>}> : (tensor<?x6x5x2xT>, tensor<3x2x2x3xT>, tensor<2x2xP>) -> tensor<?x?x?x3xT>
  func.return %r : tensor<?x?x?x3xT>
}
"""
"""A run-time padding, generic form: strides (2, 1), input dilation (1, 2),
kernel dilation (1, 2), a ``?`` batch; T the element type, P the padding's."""

GROUPED = """\
func.func @main(%x: tensor<2x4x9xf32>, %w: tensor<8x1x3xf32>, %p: tensor<1x2xi32>) -> tensor<2x8x?xf32> {
  %one = stablehlo.constant dense<[[1, -1]]> : tensor<1x2xi32>
  %q = stablehlo.add %p, %one : tensor<1x2xi32>
  %r = stablehlo.dynamic_conv(%x, %w, %q) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x4x9xf32>, tensor<8x1x3xf32>, tensor<1x2xi32>) -> tensor<2x8x?xf32>
  func.return %r : tensor<2x8x?xf32>
}
"""
"""A depthwise 1-D NCW convolution (2 outputs per input feature), its
kernel reversed, of a padding computed from an argument (``p + [1, -1]``)."""


def oracle(x, w, padding, strides, lhs_dilation, rhs_dilation, groups=1, reverse=(), acc=np.float64):
    """NHWC x HWIO -> NHWC (or NCW x OIW -> NCW for 1-D), one output element
    at a time, as the spec words it: the input dilated, padded (negative
    crops; a crop past the whole padded dim leaves it empty, StableHLO's
    empty window), every window times the dilated kernel, summed."""
    n = len(strides)
    x = np.asarray(x, acc)
    w = np.asarray(w, acc)
    if n == 1:  # NCW, OIW -> NHWC-like order for the loops below
        x, w = np.moveaxis(x, 1, -1), np.moveaxis(np.moveaxis(w, 0, -1), 0, -2)
    for s in reverse:
        w = np.flip(w, s)
    batch, sizes, features = x.shape[0], x.shape[1:-1], x.shape[-1]
    kernel, outs = w.shape[:-2], w.shape[-1]
    dilated = np.zeros((batch, *((k - 1) * d + 1 if k else 0 for k, d in zip(sizes, lhs_dilation)), features), acc)
    dilated[(slice(None), *(slice(None, None, d) for d in lhs_dilation))] = x
    for s, (lo, hi) in enumerate(padding):  # zeros added first, then the crops: a crop may reach into them
        axis = 1 + s
        zeros = [np.zeros((*dilated.shape[:axis], max(n, 0), *dilated.shape[axis + 1:]), acc) for n in (lo, hi)]
        dilated = np.concatenate([zeros[0], dilated, zeros[1]], axis)
        size = dilated.shape[axis]
        cropped = {*range(min(max(-lo, 0), size)), *range(max(size - max(-hi, 0), 0), size)}
        dilated = np.delete(dilated, sorted(cropped), axis)
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, rhs_dilation)]
    out_sizes = [0 if span > m else (m - span) // st + 1 for m, span, st in zip(dilated.shape[1:-1], spans, strides)]
    result = np.zeros((batch, *out_sizes, outs), acc)
    per_group_in, per_group_out = features // groups, outs // groups
    for b in range(batch):
        for place in np.ndindex(*out_sizes):
            for o in range(outs):
                g = o // per_group_out
                total = 0 if acc is object else 0.0
                for k in np.ndindex(*kernel):
                    at = tuple(p * st + kk * d for p, st, kk, d in zip(place, strides, k, rhs_dilation))
                    for c in range(per_group_in):
                        total += dilated[(b, *at, g * per_group_in + c)] * w[(*k, c, o)]
                result[(b, *place, o)] = total
    return np.moveaxis(result, -1, 1) if n == 1 else result


def expected_padded(x, w):
    import jax

    return np.asarray(jax.lax.conv_general_dilated(
        x, w, (2, 1), ((1, 2), (0, 2)), rhs_dilation=(1, 2), dimension_numbers=("NHWC", "HWIO", "NHWC")))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_interpreter_case_gives_its_expected_value(backend):
    x = np.array([[1, 2, 5, 6], [3, 4, 7, 8], [10, 11, 14, 15], [12, 13, 16, 17]], np.int64).reshape(1, 4, 4, 1)
    got = bcast.compile(INTERPRETER_CASE, backend=backend)(x)
    np.testing.assert_array_equal(got.reshape(2, 2), [[10, 26], [46, 62]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_constant_padding_of_a_run_time_batch_convolves_as_jax(backend):
    pytest.importorskip("jax")
    f = bcast.compile(PADDED.replace("BATCH", "?"), backend=backend)
    rng = np.random.default_rng(0)
    w = rng.standard_normal((3, 2, 2, 3)).astype(np.float32)
    for n in (0, 1, 3):
        x = rng.standard_normal((n, 6, 5, 2)).astype(np.float32)
        np.testing.assert_allclose(f(x, w), expected_padded(x, w), rtol=2e-5, atol=2e-5)


def test_the_import_is_a_convolution_with_that_padding():
    from bcast.tools import driver

    module = driver.load(PADDED.replace("BATCH", "2"), "conv.mlir", import_stablehlo=True)
    text = str(module)
    assert "stablehlo.dynamic_conv" not in text
    assert "bcast.convolution(%x, %w)" in text
    assert "stride = [2, 1], pad = [[1, 2], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]" in text


def test_the_export_runs_on_xla_as_jax():
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    exported = emit_text(driver.load(PADDED.replace("BATCH", "2"), "conv.mlir", import_stablehlo=True))
    assert "stablehlo.convolution" in exported and "dynamic_conv" not in exported
    verify_stablehlo(exported)
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((2, 6, 5, 2)).astype(np.float32), rng.standard_normal((3, 2, 2, 3)).astype(np.float32)
    (got,) = run_stablehlo(exported, (x, w))
    np.testing.assert_allclose(np.asarray(got), expected_padded(x, w), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("padding", [[[1, 2], [0, 2]], [[0, 0], [0, 0]], [[-1, 3], [2, -3]], [[-6, 0], [1, 1]],
                                     [[4, 5], [-5, 0]]])
def test_a_run_time_padding_convolves_as_the_oracle(backend, padding):
    """Positive, zero and negative (cropping) paddings, one that leaves the
    padded input shorter than the kernel (no window: 0 rows), of a ``?``
    batch of 0, 1 and 3, one compiled function for every padding."""
    f = bcast.compile(DYNAMIC.replace("T", "f32").replace("P", "i64"), backend=backend)
    rng = np.random.default_rng(2)
    w = rng.standard_normal((3, 2, 2, 3)).astype(np.float32)
    for n in (0, 1, 3):
        x = rng.standard_normal((n, 6, 5, 2)).astype(np.float32)
        got = f(x, w, np.array(padding, np.int64))
        want = oracle(x, w, padding, (2, 1), (1, 2), (1, 2))
        assert got.shape == want.shape and got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_integer_run_time_padding_convolution_is_exact_and_wraps(backend):
    """``i32`` elements (sums wrap), an ``i32`` padding."""
    f = bcast.compile(DYNAMIC.replace("T", "i32").replace("P", "i32"), backend=backend)
    rng = np.random.default_rng(3)
    x = rng.integers(-2**31, 2**31, (2, 6, 5, 2), dtype=np.int32)
    w = rng.integers(-2**31, 2**31, (3, 2, 2, 3), dtype=np.int32)
    padding = [[2, -1], [1, 3]]
    want = oracle(x.astype(object), w.astype(object), padding, (2, 1), (1, 2), (1, 2), acc=object)
    want = np.array([int(v) % 2**32 for v in want.reshape(-1)], np.uint64).astype(np.uint32).view(np.int32)
    np.testing.assert_array_equal(f(x, w, np.array(padding, np.int32)).reshape(-1), want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_time_padding_is_jax_with_that_padding_static(backend):
    jax = pytest.importorskip("jax")
    f = bcast.compile(DYNAMIC.replace("T", "f32").replace("P", "i64"), backend=backend)
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((2, 6, 5, 2)).astype(np.float32), rng.standard_normal((3, 2, 2, 3)).astype(np.float32)
    for padding in ([[1, 2], [0, 2]], [[-1, 3], [2, -3]], [[3, 3], [0, 0]]):
        conv = jax.jit(lambda x, w, p=tuple(map(tuple, padding)): jax.lax.conv_general_dilated(
            x, w, (2, 1), p, lhs_dilation=(1, 2), rhs_dilation=(1, 2), dimension_numbers=("NHWC", "HWIO", "NHWC")))
        np.testing.assert_allclose(f(x, w, np.array(padding)), np.asarray(conv(x, w)), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_interpreter_case_with_its_padding_an_argument(backend):
    """``dynamic_conv_op_test_si64`` with its (zero) padding passed at run
    time: the spec's value; a padding of 2 per edge gives 3x3 windows."""
    source = INTERPRETER_CASE.replace("%padding = stablehlo.constant dense<0> : tensor<2x2xi64>\n", "").replace(
        "(%lhs: tensor<1x4x4x1xi64>)", "(%lhs: tensor<1x4x4x1xi64>, %padding: tensor<2x2xi64>)").replace(
        "tensor<1x2x2x1xi64>", "tensor<1x?x?x1xi64>")
    f = bcast.compile(source, backend=backend)
    x = np.array([[1, 2, 5, 6], [3, 4, 7, 8], [10, 11, 14, 15], [12, 13, 16, 17]], np.int64).reshape(1, 4, 4, 1)
    np.testing.assert_array_equal(f(x, np.zeros((2, 2), np.int64)).reshape(2, 2), [[10, 26], [46, 62]])
    got = f(x, np.full((2, 2), 2, np.int64))
    want = bcast.compile(INTERPRETER_CASE.replace("dense<0>", "dense<2>").replace("1x2x2x1", "1x3x3x1"),
                         backend="reference")(x)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_computed_padding_of_a_grouped_reversed_convolution(backend):
    f = bcast.compile(GROUPED, backend=backend)
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((2, 4, 9)).astype(np.float32), rng.standard_normal((8, 1, 3)).astype(np.float32)
    for p in ([[0, 0]], [[2, 4]], [[-3, 1]]):
        padding = [[p[0][0] + 1, p[0][1] - 1]]
        want = oracle(x, w, padding, (2,), (1,), (1,), groups=4, reverse=(0,))
        np.testing.assert_allclose(f(x, w, np.array(p, np.int32)), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_padding_that_makes_a_padded_dim_negative_is_a_located_run_time_error(backend):
    f = bcast.compile(DYNAMIC.replace("T", "f32").replace("P", "i64"), backend=backend, filename="conv.mlir")
    x, w = np.ones((2, 6, 5, 2), np.float32), np.ones((3, 2, 2, 3), np.float32)
    out = np.full((2, 1, 1, 3), 7.0, np.float32)
    with pytest.raises(bcast.BcastError) as info:
        f(x, w, np.array([[-4, -3], [0, 0]]), out=out)
    assert str(info.value).splitlines() == [
        "conv.mlir:2:8: error: dynamic_conv padding makes spatial dimension 0 of the padded input of size -1",
        "conv.mlir:2:8: note: low -4 and high -3 crop more than the 6 elements of the dilated input dimension"]
    assert (out == 7.0).all()
    with pytest.raises(bcast.BcastError, match="spatial dimension 1 of the padded input of size -2"):
        f(x, w, np.array([[0, 0], [-5, -6]]))  # the dilated input dim is 9


def test_the_run_time_padding_export_is_a_generic_dynamic_conv_jaxlib_verifies():
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import verify_stablehlo

    exported = emit_text(driver.load(DYNAMIC.replace("T", "f32").replace("P", "i64"), "conv.mlir",
                                     import_stablehlo=True))
    assert '"stablehlo.dynamic_conv"(%x, %w, %p)' in exported and "window_strides = array<i64: 2, 1>" in exported
    assert "padding" not in exported.split("dynamic_conv", 1)[1].split("->")[0]
    verify_stablehlo(exported)
    again = driver.load(exported, "again.mlir", import_stablehlo=True)
    assert "bcast.dynamic_conv(%x, %w, %p)" in str(again)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_time_padding_with_static_spatial_sizes_is_checked_when_it_runs(backend):
    """The declared 4x4 (JAX declares the sizes it knows of a padding it
    computes): a padding that makes them runs (the oracle's values); one
    that makes others is the reference's located error on every backend,
    nothing written to ``out``."""
    f = bcast.compile(RUN_TIME_PADDING, backend=backend, filename="conv.mlir")
    if backend == "c":  # the direct kernel, its low paddings read at run time
        assert "bcast_blas_sconv_packed(" in f.c_source
    rng = np.random.default_rng(6)
    x, w = rng.standard_normal((1, 4, 4, 1)).astype(np.float32), rng.standard_normal((3, 3, 1, 1)).astype(np.float32)
    for padding in ([[1, 1], [1, 1]], [[2, 0], [0, 2]], [[3, -1], [-2, 4]]):
        want = oracle(x, w, padding, (1, 1), (1, 1), (1, 1))
        np.testing.assert_allclose(f(x, w, np.array(padding, np.int64)), want, rtol=1e-5, atol=1e-5)
    out = np.full((1, 4, 4, 1), 7.0, np.float32)
    with pytest.raises(bcast.BcastError) as info:
        f(x, w, np.array([[1, 1], [0, 1]], np.int64), out=out)
    assert str(info.value).splitlines() == [
        "conv.mlir:2:8: error: dynamic_conv padding makes result dimension 2 of size 3, but its type declares 4",
        "conv.mlir:2:8: note: the padding is [[1, 1], [0, 1]]; the result's shape is (1, 4, 3, 1)"]
    assert (out == 7.0).all()


def test_bcast_run_reports_a_size_other_than_declared_with_exit_1_and_opt_keeps_it(tmp_path):
    source = tmp_path / "conv.mlir"
    source.write_text(RUN_TIME_PADDING)
    inputs = tmp_path / "inputs.npz"
    np.savez(inputs, arg0=np.ones((1, 4, 4, 1), np.float32), arg1=np.ones((3, 3, 1, 1), np.float32),
             arg2=np.array([[0, 0], [1, 1]], np.int64))
    run = subprocess.run([sys.executable, "-m", "bcast.tools.run", str(source), "--inputs", str(inputs)],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "dynamic_conv padding makes result dimension 1 of size 2, but its type declares 4" in run.stderr
    kept = subprocess.run([sys.executable, "-m", "bcast.tools.opt", str(source), "-p", "convert-stablehlo-to-bcast",
                           "-t", "stablehlo"], capture_output=True, text=True)
    assert kept.returncode == 0, kept.stderr
    assert "stablehlo.dynamic_conv" in kept.stdout and "-> tensor<1x4x4x1xf32>" in kept.stdout


_COMPILED: dict[str, object] = {}


def compiled(backend: str):
    """``DYNAMIC`` (f32, an i64 padding) compiled once per backend for the property."""
    if backend not in _COMPILED:
        _COMPILED[backend] = bcast.compile(DYNAMIC.replace("T", "f32").replace("P", "i64"), backend=backend,
                                           filename="conv.mlir")
    return _COMPILED[backend]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=4, max_size=4), st.sampled_from([0, 1, 2]), st.integers(0, 2**32 - 1))
@example(padding=[-7, 1, 0, 0], batch=0, seed=0)  # a crop past the input, into the high padding: size 0
def test_any_run_time_padding_is_the_oracle_or_the_located_error_on_every_backend(padding, batch, seed):
    """Paddings from -9 to 9 per edge (crops, empty results, negative
    padded sizes), batches of 0 to 2, one compiled function per backend:
    each gives the loop-by-loop oracle's values, or (where a padded input
    dim ends negative, which the oracle cannot build) every backend fails
    with the reference's located error, word for word."""
    rows = [padding[:2], padding[2:]]
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, 6, 5, 2)).astype(np.float32)
    w = rng.standard_normal((3, 2, 2, 3)).astype(np.float32)
    dilated = (6, 9)  # (n - 1) * lhs_dilation + 1 per spatial dim
    negative = any(d + lo + hi < 0 for d, (lo, hi) in zip(dilated, rows))
    event("negative padded size" if negative else "runs")
    errors = set()
    for backend in BACKENDS:
        try:
            got = compiled(backend)(x, w, np.array(rows, np.int64))
        except bcast.BcastError as e:
            assert negative, (backend, str(e))
            errors.add(str(e))
            continue
        assert not negative, backend
        np.testing.assert_allclose(got, oracle(x, w, rows, (2, 1), (1, 2), (1, 2)), rtol=1e-5, atol=1e-5)
    if negative:
        assert len(errors) == 1 and next(iter(errors)).startswith("conv.mlir:2:8: error: dynamic_conv padding makes")
