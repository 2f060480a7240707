"""StableHLO's ``dynamic_conv`` (a ``convolution`` whose padding is an
operand) imported as ``bcast.convolution`` when the padding is a constant,
pretty and generic, on every backend (docs/stablehlo.md, "Convolution"):
StableHLO's interpreter case by its expected value, a padded float
convolution of a ``?`` batch against ``jax.lax.conv_general_dilated``, the
``-t stablehlo`` export run by XLA; a run-time padding is a located
refusal that names the op, and is written back as it is when not run."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import bcast

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
def test_a_run_time_padding_is_a_located_refusal_naming_the_op(backend):
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(RUN_TIME_PADDING, backend=backend, filename="conv.mlir")
    lines = str(info.value).splitlines()
    assert lines[0] == ("conv.mlir:2:8: error: 'stablehlo.dynamic_conv' op with a run-time padding is not "
                        "supported by convert-stablehlo-to-bcast")
    assert lines[1].startswith("conv.mlir:2:8: note: a constant padding makes it a convolution")


def test_bcast_run_refuses_a_run_time_padding_with_exit_1_and_opt_keeps_it(tmp_path):
    source = tmp_path / "conv.mlir"
    source.write_text(RUN_TIME_PADDING)
    run = subprocess.run([sys.executable, "-m", "bcast.tools.run", str(source), "--seed", "0"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "'stablehlo.dynamic_conv' op with a run-time padding" in run.stderr
    kept = subprocess.run([sys.executable, "-m", "bcast.tools.opt", str(source), "-p", "convert-stablehlo-to-bcast",
                           "-t", "stablehlo"], capture_output=True, text=True)
    assert kept.returncode == 0, kept.stderr
    assert "stablehlo.dynamic_conv(%x, %w, %p)" in kept.stdout
