"""``bcast.convolution`` (StableHLO's ``convolution``,
``jax.lax.conv_general_dilated``) on every backend: against an oracle that
walks the spec's formula output place by output place (the kernel place
``k`` of output ``o`` at ``o * stride + k * rhs_dilation - low`` in the
input dilated by ``lhs_dilation``; an element there when in range and on a
multiple of the dilation), with reversal, groups, batch groups, integers
that wrap and f16 summed in f32; JAX's convolutions (SAME/VALID, strides,
transposed, atrous, depthwise, the kernel gradient of a grouped
convolution, 1-D, 3-D, NCHW, a size-0 batch) imported and compared with
``jax.jit``, and written back by ``-t stablehlo`` and run by XLA; a ``?``
batch at several sizes; the Array API module on array_api_strict;
StableHLO's interpreter case by its expected value.

Tolerances: integer cases are exact (wrapping sums are the same in any
order); float sums run in another order on each backend (im2col with
BLAS, the C loop in order, XLA its own): ``rtol=atol=2e-5`` on values of
order 1 with at most a few hundred products per output (f32)."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import numerics, rules
from bcast.ir import ops as bc
from bcast.tests.budget import examples, quick_sample

BACKENDS = ["reference", "numpy", "array-api", "c"]


def tensor(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def nhwc(n: int) -> rules.ConvDims:
    """``[b, 0, .., f]x[0, .., i, o]->[b, 0, .., f]`` of ``n`` spatial dims."""
    spatial = tuple(range(1, n + 1))
    return rules.ConvDims(0, n + 1, spatial, n, n + 1, tuple(range(n)), 0, n + 1, spatial)


def oracle(x: np.ndarray, w: np.ndarray, conv: rules.Convolution) -> np.ndarray:
    """The spec's sum, one output element at a time, for the NHWC/HWIO
    layout (``nhwc``): each feature group pairs its block of input features
    with its block of output features, each batch group its block of the
    batch with its block of output features."""
    acc = np.float32 if x.dtype == np.float16 else x.dtype.type
    batch, *sizes, features = x.shape
    *kernel, in_features, out_features = w.shape
    groups, batch_groups = conv.feature_group_count, conv.batch_group_count
    outs = []
    for n, k, s, lo, hi, ld, rd in zip(sizes, kernel, conv.strides, conv.low, conv.high, conv.lhs_dilation,
                                       conv.rhs_dilation):  # fmt: skip
        padded, span = lo + hi + ((n - 1) * ld + 1 if n else 0), (k - 1) * rd + 1
        outs.append(0 if span > padded else (padded - span) // s + 1)
    result = np.zeros((batch // batch_groups, *outs, out_features), x.dtype)
    per_group = out_features // (groups * batch_groups)
    with np.errstate(all="ignore"):
        for b, *o, f in itertools.product(*map(range, result.shape)):
            group = f // per_group
            base_feature = group * in_features if groups > 1 else 0
            in_batch = group * result.shape[0] + b if batch_groups > 1 else b
            total = acc(0)
            for c, *k in itertools.product(range(in_features), *map(range, kernel)):
                q = [oi * s + ki * rd - lo for oi, s, ki, rd, lo in zip(o, conv.strides, k, conv.rhs_dilation,
                                                                         conv.low)]  # fmt: skip
                if all(0 <= qi <= (n - 1) * ld and qi % ld == 0 for qi, n, ld in zip(q, sizes, conv.lhs_dilation)):
                    kk = [ks - 1 - ki if r else ki for ki, ks, r in zip(k, kernel, conv.reversal)]
                    xi = x[(in_batch, *(qi // ld for qi, ld in zip(q, conv.lhs_dilation)), base_feature + c)]
                    total = acc(total + acc(xi) * acc(w[(*kk, c, f)]))
            result[(b, *o, f)] = total
    return result


CASES = {
    # name: (input shape, kernel shape, element, window fields, groups, batch groups)
    "valid": ((2, 5, 5, 3), (3, 3, 3, 4), "f32", {}, 1, 1),
    "same_strided": ((2, 6, 7, 2), (3, 2, 2, 3), "f32", {"strides": (2, 3), "low": (1, 0), "high": (1, 1)}, 1, 1),
    "crop": ((1, 6, 6, 2), (2, 2, 2, 2), "f64", {"low": (-1, 2), "high": (1, -2)}, 1, 1),
    "transposed": ((1, 3, 4, 2), (3, 3, 2, 2), "f32", {"lhs_dilation": (2, 3), "low": (2, 2), "high": (2, 1)}, 1, 1),
    "atrous": ((2, 7, 7, 1), (3, 2, 1, 2), "f32", {"rhs_dilation": (2, 3), "low": (2, 1), "high": (2, 2)}, 1, 1),
    "reversed": ((1, 5, 4, 2), (3, 2, 2, 3), "f32", {"reversal": (True, False), "low": (1, 0), "high": (0, 1)},
                 1, 1),
    "depthwise": ((2, 5, 5, 4), (3, 3, 1, 8), "f32", {"low": (1, 1), "high": (1, 1)}, 4, 1),
    "feature_groups": ((1, 4, 4, 6), (2, 2, 2, 6), "f32", {}, 3, 1),
    "batch_groups": ((4, 4, 4, 2), (2, 2, 2, 6), "f32", {"strides": (2, 1)}, 1, 2),
    "wrapping_i8": ((1, 4, 4, 3), (2, 2, 3, 2), "i8", {"lhs_dilation": (2, 1)}, 1, 1),
    "f16": ((1, 4, 5, 3), (2, 3, 3, 2), "f16", {"low": (0, 1), "high": (1, 0)}, 1, 1),
    "one_d": ((2, 9, 3), (3, 3, 4), "f32", {"strides": (2,), "low": (1,), "high": (2,), "rhs_dilation": (2,)}, 1, 1),
    "three_d": ((1, 3, 4, 3, 2), (2, 2, 2, 2, 3), "f32", {"strides": (1, 2, 1), "low": (0, 1, 1)}, 1, 1),
    # the direct C kernel's paths (docs/c-backend.md, "Convolutions"): two feature groups of 16 outputs;
    # odd sizes, more outputs than one f64 panel (16), both dilations, reversal, crops, one image
    "grouped_wide": ((2, 5, 6, 4), (3, 3, 2, 32), "f32", {"low": (1, 1), "high": (1, 1)}, 2, 1),
    "odd_f64": ((3, 7, 5, 5), (2, 3, 5, 17), "f64", {"strides": (2, 1), "low": (1, 2), "high": (0, 1),
                                                    "rhs_dilation": (1, 2)}, 1, 1),
    "dilated_reversed": ((2, 4, 5, 3), (3, 2, 3, 5), "f32", {"lhs_dilation": (2, 2), "rhs_dilation": (2, 1),
                                                             "low": (1, -1), "high": (2, 0),
                                                             "reversal": (True, True)}, 1, 1),
    "one_image": ((1, 6, 6, 3), (3, 3, 3, 8), "f32", {"low": (1, 1), "high": (1, 1)}, 1, 1),
    "empty_batch": ((0, 4, 4, 3), (3, 3, 3, 4), "f32", {}, 1, 1),
    "window_larger_than_input": ((1, 2, 2, 1), (3, 3, 1, 1), "f32", {}, 1, 1),
    # narrow groups on the direct C kernel (fewer than 16 outputs per group): depthwise of odd sizes, a channel
    # multiplier of 3, both dilations with reversal and a crop, two inputs and three outputs per group, 1-D, a batch
    # of 0 and of 1
    "depthwise_odd": ((3, 7, 5, 5), (3, 3, 1, 5), "f32", {"low": (1, 1), "high": (1, 1)}, 5, 1),
    "depthwise_multiplier": ((2, 6, 7, 3), (3, 2, 1, 9), "f64", {"strides": (2, 1), "low": (1, 0), "high": (2, 1)},
                             3, 1),
    "depthwise_dilated": ((2, 5, 6, 4), (3, 3, 1, 4), "f32", {"lhs_dilation": (2, 1), "rhs_dilation": (1, 2),
                                                              "low": (2, -1), "high": (1, 2),
                                                              "reversal": (True, False)}, 4, 1),
    "narrow_groups": ((1, 5, 5, 6), (2, 2, 2, 9), "f32", {"strides": (1, 2)}, 3, 1),
    "depthwise_one_d": ((2, 11, 6), (5, 1, 6), "f32", {"strides": (2,), "low": (2,), "high": (2,)}, 6, 1),
    "depthwise_empty_batch": ((0, 4, 4, 3), (3, 3, 1, 3), "f32", {"low": (1, 1), "high": (1, 1)}, 3, 1),
}
DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i8": np.int8}


def case(name: str, seed: int = 0):
    xs, ws, element, window, groups, batch_groups = CASES[name]
    rng = np.random.default_rng(seed)
    dtype = DTYPES[element]
    if element.startswith("i"):
        x, w = (rng.integers(-128, 128, s).astype(dtype) for s in (xs, ws))
    else:
        x, w = (rng.standard_normal(s).astype(dtype) for s in (xs, ws))
    conv = rules.Convolution.plain(nhwc(len(xs) - 2), feature_group_count=groups, batch_group_count=batch_groups,
                                   **window)  # fmt: skip
    return x, w, conv, element


def program(x, w, conv: rules.Convolution, element: str, batch: str | None = None) -> str:
    """``@main`` of one ``bcast.convolution`` in the NHWC/HWIO layout with
    every window field written; ``batch="?"`` makes the batch dim ``?``."""
    lhs = (rules.Dynamic(),) + x.shape[1:] if batch == "?" else x.shape
    out = rules.convolution_shape(lhs, w.shape, conv)
    t, k, r = (tensor(["?" if isinstance(n, rules.Dynamic) else n for n in s], element) for s in (lhs, w.shape, out))
    window = (f"stride = {list(conv.strides)}, pad = {[list(p) for p in zip(conv.low, conv.high)]}, "
              f"lhs_dilate = {list(conv.lhs_dilation)}, rhs_dilate = {list(conv.rhs_dilation)}, "
              f"reverse = [{', '.join('true' if v else 'false' for v in conv.reversal)}]")
    return f"""
func.func @main(%x: {t}, %w: {k}) -> {r} {{
  %0 = bcast.convolution(%x, %w) dim_numbers = {conv.dims.text()}, window = {{{window}}} {{batch_group_count = {conv.batch_group_count} : i64, feature_group_count = {conv.feature_group_count} : i64}} : ({t}, {k}) -> {r}
  func.return %0 : {r}
}}
"""


def assert_close(got, want, element):
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if element.startswith("i"):
        np.testing.assert_array_equal(got, want)
    else:
        tol = 2e-3 if element == "f16" else 2e-5
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_sums_what_the_spec_places(name):
    x, w, conv, element = case(name)
    assert_close(numerics.convolution(x, w, conv), oracle(x, w, conv), element)


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_backends_sum_what_the_spec_places(backend, name):
    x, w, conv, element = case(name, seed=1)
    got = np.asarray(bcast.compile(program(x, w, conv, element), backend=backend)(x, w))
    assert_close(got, oracle(x, w, conv), element)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["same_strided", "depthwise_multiplier", "depthwise_odd"])
def test_a_dynamic_batch_runs_at_every_size(backend, name):
    """JAX's batch-polymorphic CNN: ``?`` batch, the rest static, sizes 0, 1, 3
    (also depthwise ones: the direct C kernel's narrow groups)."""
    x, w, conv, element = case(name)
    f = bcast.compile(program(x, w, conv, element, batch="?"), backend=backend)
    for n in (0, 1, 3):
        xs = np.random.default_rng(n).standard_normal((n, *x.shape[1:])).astype(x.dtype)
        assert_close(np.asarray(f(xs, w)), oracle(xs, w, conv), element)


def test_stablehlo_interpreter_case_gives_its_expected_value():
    """``convolution_op_test_si64`` of StableHLO's interpreter tests: a 4x4
    input dilated by 2, strided by 4, a 3x3 kernel of ones."""
    x = np.array([[1, 2, 5, 6], [3, 4, 7, 8], [10, 11, 14, 15], [12, 13, 16, 17]], np.int64).reshape(1, 4, 4, 1)
    conv = rules.Convolution.plain(nhwc(2), strides=(4, 4), lhs_dilation=(2, 2))
    got = numerics.convolution(x, np.ones((3, 3, 1, 1), np.int64), conv)
    np.testing.assert_array_equal(got.reshape(2, 2), [[10, 26], [46, 62]])


def jax_programs():
    """Convolutions as JAX programs write them (flax's ``nn.Conv`` is
    ``conv_general_dilated`` with NHWC/HWIO)."""
    jax = pytest.importorskip("jax")
    lax = jax.lax
    nhwc_dims = ("NHWC", "HWIO", "NHWC")

    def conv(x, w, strides=(1, 1), padding="SAME", **kw):
        return lax.conv_general_dilated(x, w, strides, padding, dimension_numbers=kw.pop("dims", nhwc_dims), **kw)

    return {
        "same": (lambda x, w: conv(x, w), (2, 8, 8, 3), (3, 3, 3, 4)),
        "valid_strided": (lambda x, w: conv(x, w, (2, 3), "VALID"), (2, 9, 10, 3), (3, 2, 3, 4)),
        "transposed": (lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=nhwc_dims),
                       (2, 5, 5, 3), (3, 3, 3, 4)),
        "atrous_nchw": (lambda x, w: conv(x, w, rhs_dilation=(2, 2), dims=("NCHW", "OIHW", "NCHW")),
                        (2, 3, 9, 9), (4, 3, 3, 3)),
        "depthwise": (lambda x, w: conv(x, w, feature_group_count=6), (2, 8, 8, 6), (3, 3, 1, 12)),
        "grouped_kernel_gradient": (
            lambda x, w: jax.grad(lambda w: (conv(x, w, feature_group_count=3) ** 2).sum())(w),
            (2, 6, 6, 6), (3, 3, 2, 6)),
        "input_gradient": (lambda x, w: jax.grad(lambda x: (conv(x, w, (2, 2)) ** 2).sum())(x),
                           (2, 6, 6, 3), (3, 3, 3, 4)),
        "one_d": (lambda x, w: conv(x, w, (2,), ((1, 2),), dims=("NWC", "WIO", "NWC")), (2, 11, 3), (3, 3, 5)),
        "three_d": (lambda x, w: conv(x, w, (1, 2, 1), dims=("NDHWC", "DHWIO", "NDHWC")),
                    (2, 4, 5, 6, 3), (2, 3, 3, 3, 4)),
        "size_0_batch": (lambda x, w: conv(x, w), (0, 8, 8, 3), (3, 3, 3, 4)),
        # an NCHW input and OIHW kernel into an NHWC result: the direct C kernel reads both through their strides
        "nchw_to_nhwc": (lambda x, w: conv(x, w, (1, 2), dims=("NCHW", "OIHW", "NHWC")), (2, 3, 7, 8), (5, 3, 3, 2)),
    }


JAX_NAMES = ["same", "valid_strided", "transposed", "atrous_nchw", "depthwise", "grouped_kernel_gradient",
             "input_gradient", "one_d", "three_d", "size_0_batch", "nchw_to_nhwc"]


def jax_case(name):
    fn, xs, ws = jax_programs()[name]
    rng = np.random.default_rng(3)
    return fn, rng.standard_normal(xs).astype(np.float32), rng.standard_normal(ws).astype(np.float32)


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", JAX_NAMES)
def test_jax_convolutions_run_as_jax_jit(backend, name):
    import jax

    fn, x, w = jax_case(name)
    module = bcast.from_jax(fn, x, w)
    assert "bcast.convolution" in str(module)
    got = np.asarray(bcast.compile(module, backend=backend)(x, w))
    assert_close(got, np.asarray(jax.jit(fn)(x, w)), "f32")


@pytest.mark.parametrize("name", JAX_NAMES)
def test_exported_convolution_runs_on_xla_as_jax_jit(name):
    """``-t stablehlo`` writes the imported convolution back; XLA runs it
    to jax.jit's values."""
    import jax
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    fn, x, w = jax_case(name)
    exported = emit_text(bcast.from_jax(fn, x, w))
    assert "stablehlo.convolution" in exported
    verify_stablehlo(exported)
    (got,) = run_stablehlo(exported, (x, w))
    assert_close(np.asarray(got), np.asarray(jax.jit(fn)(x, w)), "f32")


def test_array_api_target_convolves_on_array_api_strict():
    xp = pytest.importorskip("array_api_strict")
    for name in ("depthwise", "batch_groups", "transposed", "reversed"):
        x, w, conv, element = case(name)
        f = bcast.compile(program(x, w, conv, element), backend="array-api")
        assert_close(np.asarray(f(xp.asarray(x), xp.asarray(w))), oracle(x, w, conv), element)


def lowered(source) -> str:
    """``source`` (text or a module) through the C target's standard
    pipeline and the loop lowering, printed."""
    from bcast.tools import driver
    from bcast.tools.targets import STANDARD_PIPELINE

    return str(driver.load(source if isinstance(source, str) else str(source), "conv.mlir",
                           pipeline=STANDARD_PIPELINE + ",bcast-lower-to-loops"))


@pytest.mark.parametrize("name, direct", [("same_strided", True), ("transposed", True), ("reversed", True),
                                          ("three_d", True), ("crop", True), ("one_d", True),
                                          ("grouped_wide", True), ("depthwise", True), ("f16", False),
                                          ("wrapping_i8", False), ("batch_groups", False),
                                          ("depthwise_odd", True), ("depthwise_multiplier", True),
                                          ("narrow_groups", True), ("depthwise_one_d", True)])
def test_c_marks_a_float_convolution_for_the_direct_kernel(name, direct):
    """The loop lowering marks the nest of an f32/f64 convolution without
    batch groups (any feature groups: depthwise ones run as narrow groups)
    ``bcast.conv`` (``CONV_ATTR``): the C target runs it on the direct
    kernel, no im2col materialized (``passes/conv_gemm.py``,
    ``direct_geometry``); f16, integer and batch-grouped ones keep the
    loop nest. Both give the oracle's values
    (``test_backends_sum_what_the_spec_places``)."""
    x, w, conv, element = case(name)
    text = lowered(program(x, w, conv, element))
    assert ("bcast.conv" in text) == direct
    assert "bcast.gemm" not in text


def test_c_computes_a_convolution_with_another_result_layout_as_one_gemm():
    """An NCHW result is not the direct kernel's row-major (batch, places,
    features): the convolution is an im2col and one GEMM-marked product."""
    fn, x, w = jax_case("atrous_nchw")
    text = lowered(bcast.from_jax(fn, x, w))
    assert "bcast.gemm" in text and "bcast.conv" not in text


def cnn_layer(x, w, b):
    """flax's ``nn.Conv`` (3x3 SAME, NHWC/HWIO) with its bias, then relu."""
    import jax

    y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.relu(y + b)


@pytest.mark.parametrize("xs, ws, stride", [((3, 15, 13, 130), (3, 3, 130, 20), 1),  # K = 1170: two blocks of K
                                            ((4, 24, 24, 16), (3, 3, 16, 40), 2),  # rows past one block of 192
                                            ((4, 32, 32, 32), (3, 3, 32, 64), 1),  # 1.2e8 flops: images on threads
                                            ((1, 64, 64, 32), (3, 3, 32, 64), 1)])  # one image: its rows on threads
def test_c_direct_convolution_of_layer_sizes_is_jax_jit(xs, ws, stride):
    """Sizes past the kernel's blocks (``KC`` of the contracted places *
    features, ``MC`` rows) and a layer large enough to split its images
    over threads, with the bias and relu fused after it: jax.jit's values."""
    import jax

    rng = np.random.default_rng(7)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in (xs, ws, ws[-1:]))
    fn = (lambda x, w, b: cnn_layer(x, w, b)) if stride == 1 else (lambda x, w, b: jax.nn.relu(
        jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")) + b))
    f = bcast.compile(bcast.from_jax(fn, x, w, b), backend="c")
    assert "bcast_blas_sconv_packed(" in f.c_source
    np.testing.assert_allclose(f(x, w, b), np.asarray(jax.jit(fn)(x, w, b)), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("batch", [2, 1])
def test_c_fuses_the_bias_and_relu_into_the_convolution_blocks(batch):
    """The epilogue after the convolution runs inside the loop over blocks
    of images (of output rows for one image), right after each block's
    call (as after a GEMM), not as a second pass over the result."""
    rng = np.random.default_rng(8)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((batch, 6, 6, 3), (3, 3, 3, 8), (8,)))
    f = bcast.compile(bcast.from_jax(cnn_layer, x, w, b), backend="c")
    fast = f.c_source.split("bcast_blas_sconv_packed(", 1)[1].split("bcast_blas_gemm_release(")[0]
    assert "? " in fast and "arg3" in fast  # relu's select and the bias, in the block loop
    np.testing.assert_allclose(f(x, w, b), np.maximum(numerics.convolution(
        x, w, rules.Convolution.plain(nhwc(2), low=(1, 1), high=(1, 1))) + b, 0), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_dynamic_batch_cnn_layer_compiled_once_runs_at_every_size(backend):
    """JAX's batch-polymorphic CNN layer (``?`` batch, bias, relu), compiled
    once: sizes 1, 2 and 5 equal jax.jit's (JAX asserts ``b >= 1``; size 0
    runs in ``test_a_dynamic_batch_runs_at_every_size``); on C it is the
    direct kernel with the batch read at entry."""
    import jax
    from jax import export

    rng = np.random.default_rng(9)
    w, b = rng.standard_normal((3, 3, 4, 24)).astype(np.float32), rng.standard_normal(24).astype(np.float32)
    (n,) = export.symbolic_shape("b")
    text = export.export(jax.jit(cnn_layer))(jax.ShapeDtypeStruct((n, 7, 6, 4), np.float32), w, b).mlir_module()
    f = bcast.compile(text, backend=backend)
    if backend == "c":
        assert "bcast_blas_sconv_packed(" in f.c_source
    for size in (1, 2, 5):
        x = rng.standard_normal((size, 7, 6, 4)).astype(np.float32)
        np.testing.assert_allclose(f(x, w, b), np.asarray(jax.jit(cnn_layer)(x, w, b)), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("name", ["grouped_wide", "odd_f64", "dilated_reversed", "one_d", "three_d",
                                  "depthwise_dilated", "depthwise_multiplier"])
def test_c_convolution_nest_without_the_kernel_gives_the_same(name, monkeypatch):
    """With the kernel pointers left NULL (no ``c_gemm`` library) the marked
    nest runs instead (the attribute's definition); with them set, the
    kernel: both give the oracle's values."""
    from bcast.lowering import c_runtime

    x, w, conv, element = case(name, seed=2)
    for kernels in ((None,) * len(c_runtime.BLAS_POINTERS), c_runtime.own_gemm()):  # ends linked
        monkeypatch.setattr(c_runtime, "own_gemm", lambda found=kernels: found)
        f = bcast.compile(program(x, w, conv, element), backend="c")
        assert "bcast_blas_" + ("s" if element == "f32" else "d") + "conv_packed(" in f.c_source
        assert_close(np.asarray(f(x, w)), oracle(x, w, conv), element)


CONV_HARNESS = r"""
#include <stdio.h>
/* argv: geometry file, rows, f64?, x file, x count, w file, w count, out file; exact-size buffers */
static void *slurp(const char *path, size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    FILE *f = fopen(path, "rb");
    if (!p || !f || fread(p, 1, bytes, f) != bytes) abort();
    fclose(f);
    return p;
}
int main(int argc, char **argv) {
    (void)argc;
    long n = atol(argv[2]), doubles = atol(argv[3]), xs = atol(argv[5]), ws = atol(argv[7]), gs = atol(argv[9]);
    size_t e = doubles ? 8 : 4;
    int64_t *g = slurp(argv[1], (size_t)gs * 8);
    void *x = slurp(argv[4], (size_t)xs * e), *w = slurp(argv[6], (size_t)ws * e);
    size_t out = (size_t)n * (size_t)g[4];
    void *c = malloc(out * e ? out * e : 1);
    /* in two calls (rows split unevenly), as two blocks of a threaded call */
    long half = n / 3;
    void *p = doubles ? bcast_dconv_pack(w, g) : bcast_sconv_pack(w, g);
    if (doubles) { bcast_dconv_packed(x, g, 0, half, p, c); bcast_dconv_packed(x, g, half, n - half, p, c); }
    else { bcast_sconv_packed(x, g, 0, half, p, c); bcast_sconv_packed(x, g, half, n - half, p, c); }
    bcast_gemm_release(p);
    FILE *f = fopen(argv[8], "wb");
    if (!f || fwrite(c, e, out, f) != out) abort();
    fclose(f);
    free(c); free(x); free(w); free(g);
    return 0;
}
"""


@pytest.mark.parametrize("isa", quick_sample([pytest.param([], id="native"),
                                              pytest.param(["-mno-avx512f"], id="avx2")], 2))
def test_c_convolution_kernels_are_clean_under_sanitizers(tmp_path, isa):
    """``bcast_*conv_pack``/``_packed`` built with ASan and UBSan (any report
    aborts), run on operands in buffers of exactly their size, the rows in
    two uneven calls: the direct cases (padding, crops, both dilations,
    reversal, two groups, 1-D and 3-D, f64, one image, an NCHW input read
    through the packing; narrow groups: depthwise, a channel multiplier,
    several inputs per group, an NCHW depthwise input) give the oracle's values, for the machine's
    vectors and AVX2's (6-row tiles)."""
    import subprocess

    from bcast.lowering import c_gemm, c_runtime
    from bcast.passes.conv_gemm import direct_geometry
    from bcast.tools import driver

    cc = c_runtime.require_compiler()
    source = tmp_path / "conv.c"
    source.write_text(c_gemm.SOURCE + CONV_HARNESS)
    exe = tmp_path / "conv"
    done = subprocess.run([*cc, "-std=c99", "-O1", "-g", "-march=native", *isa, "-fsanitize=address,undefined",
                           "-fno-sanitize-recover=all", str(source), "-o", str(exe), "-lm"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    names = ["valid", "same_strided", "crop", "transposed", "atrous", "reversed", "one_d", "three_d",
             "grouped_wide", "odd_f64", "dilated_reversed", "one_image", "nchw",
             "depthwise", "depthwise_odd", "depthwise_multiplier", "depthwise_dilated", "narrow_groups",
             "depthwise_one_d", "depthwise_nchw"]
    for name in names:
        x, w, conv, element = case({"nchw": "valid", "depthwise_nchw": "depthwise"}.get(name, name), seed=4)
        source_text = program(x, w, conv, element)
        if name.endswith("nchw"):  # the same convolution of the input stored NCHW
            x_nchw = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
            source_text = source_text.replace("[b, 0, 1, f]x", "[b, f, 0, 1]x").replace(
                tensor(x.shape, element), tensor(x_nchw.shape, element))
        module = driver.load(source_text, "conv.mlir")
        (op,) = [o for o in module.walk() if isinstance(o, bc.ConvolutionOp)]
        geometry = direct_geometry(op)
        assert geometry is not None, name
        want = oracle(x, w, conv)
        operand = x_nchw if name.endswith("nchw") else x
        files = {k: tmp_path / f"{name}.{k}" for k in ("g", "x", "w", "out")}
        files["g"].write_bytes(np.asarray(geometry, np.int64).tobytes())
        files["x"].write_bytes(operand.tobytes())
        files["w"].write_bytes(w.tobytes())
        rows = int(np.prod(want.shape[:-1]))
        run = subprocess.run([str(exe), str(files["g"]), str(rows), str(int(element == "f64")), str(files["x"]),
                              str(operand.size), str(files["w"]), str(w.size), str(files["out"]), str(len(geometry))],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, (name, run.stderr[-3000:])
        got = np.frombuffer(files["out"].read_bytes(), x.dtype).reshape(want.shape)
        assert_close(got, want, element)


@st.composite
def narrow_group_convolutions(draw):
    """A grouped NHWC convolution of fewer than 16 outputs per group (the C
    kernel's narrow groups): 1 or 2 spatial dims of sizes 1 to 7, 1 to 5
    groups of 1 or 2 input features and 1 to 3 outputs, strides, both
    dilations, paddings from -1 to 2, reversal, a batch of 0 to 2, f32 or
    f64."""
    n = draw(st.integers(1, 2))
    groups, per_in, per_out = draw(st.integers(1, 5)), draw(st.integers(1, 2)), draw(st.integers(1, 3))
    groups = max(groups, 2)  # one group is the GEMM path
    sizes = draw(st.lists(st.integers(1, 7), min_size=n, max_size=n))
    kernel = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    window = {name: tuple(draw(st.lists(values, min_size=n, max_size=n)))
              for name, values in (("strides", st.integers(1, 2)), ("lhs_dilation", st.integers(1, 2)),
                                   ("rhs_dilation", st.integers(1, 2)), ("low", st.integers(-1, 2)),
                                   ("high", st.integers(-1, 2)), ("reversal", st.booleans()))}
    conv = rules.Convolution.plain(nhwc(n), feature_group_count=groups, **window)
    xs, ws = (draw(st.integers(0, 2)), *sizes, groups * per_in), (*kernel, per_in, groups * per_out)
    element = draw(st.sampled_from(["f32", "f64"]))
    if 0 in rules.convolution_shape(xs, ws, conv)[1:]:
        conv = dataclasses.replace(conv, low=(2,) * n, high=(2,) * n)  # the direct kernel takes no empty dims
    return xs, ws, conv, element, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=examples(40), deadline=None)
@given(narrow_group_convolutions())
def test_narrow_groups_on_the_c_kernel_sum_what_the_spec_places(case):
    """Random narrow-group convolutions: the C target runs them on the
    direct kernel (``bcast_blas_*conv_packed``; an empty batch: zeros) and
    gives the oracle's values, as the reference does."""
    xs, ws, conv, element, seed = case
    rng = np.random.default_rng(seed)
    x, w = (rng.standard_normal(s).astype(DTYPES[element]) for s in (xs, ws))
    want = oracle(x, w, conv)
    f = bcast.compile(program(x, w, conv, element), backend="c")
    if xs[0]:  # (an empty static result is a nest of zeros)
        assert f"bcast_blas_{'d' if element == 'f64' else 's'}conv_packed(" in f.c_source
    assert_close(np.asarray(f(x, w)), want, element)
    assert_close(numerics.convolution(x, w, conv), want, element)
