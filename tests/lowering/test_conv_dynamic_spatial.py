"""A convolution whose input has a ``?`` spatial dim (a JAX shape-polymorphic
CNN, its image height symbolic), on every backend (docs/stablehlo.md,
"Dynamic programs"; docs/ir.md, "convolution"): the output spatial size is
``rules.conv_window_count`` of the run-time input size. On C, an NHWC
result runs on the direct kernel with its sizes read at run time
(docs/c-backend.md, "Convolutions"), which the C source's kernel call
shows. ``jax.export``
programs of several geometries (strides, both dilations, SAME and VALID
padding, feature groups, an empty result where the input is shorter than
the window) against ``jax.jit`` at concrete shapes; a property over random
geometries against the reference and the loop-by-loop NumPy oracle of
``test_dynamic_conv``; the ``-t stablehlo`` export run by XLA; the refusal
of a static result dim declared where the size is a run-time one."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tests.lowering.test_dynamic_conv import BACKENDS, oracle

HEIGHTS = (1, 2, 3, 7, 33)

GEOMETRIES = {
    # name: (conv_general_dilated keywords, input features, kernel (H, W, I, O))
    "same": (dict(window_strides=(1, 1), padding="SAME"), 3, (3, 3, 3, 4)),
    "same_stride_2": (dict(window_strides=(2, 2), padding="SAME"), 3, (3, 3, 3, 4)),
    "valid": (dict(window_strides=(1, 1), padding="VALID"), 3, (3, 3, 3, 4)),
    "valid_rhs_dilated": (dict(window_strides=(1, 1), padding="VALID", rhs_dilation=(2, 1)), 2, (3, 2, 2, 3)),
    "lhs_dilated_strided": (dict(window_strides=(3, 1), padding=((1, 2), (0, 0)), lhs_dilation=(2, 1)), 2,
                            (2, 3, 2, 3)),
    "depthwise": (dict(window_strides=(2, 1), padding="SAME", feature_group_count=4), 4, (3, 3, 1, 8)),
}
"""NHWC x HWIO convolutions of an input of width 8 (a ``stablehlo.convolution``,
or for SAME with strides a ``stablehlo.dynamic_conv`` whose padding JAX
computes from the height at run time); ``valid`` and
``valid_rhs_dilated`` have no window at heights 1 and 2 (resp. up to 4):
an empty result."""


def conv_function(geometry: str):
    import jax

    keywords = GEOMETRIES[geometry][0]

    def f(x, w):
        y = jax.lax.conv_general_dilated(x, w, dimension_numbers=("NHWC", "HWIO", "NHWC"), **keywords)
        return jax.nn.relu(y)

    return f


_EXPORTED: dict[str, str] = {}


def exported(geometry: str) -> str:
    """``jax.export`` of ``geometry`` with a symbolic batch and height
    (``b, h``), its StableHLO text (made once)."""
    if geometry not in _EXPORTED:
        import jax
        import jax.numpy as jnp
        from jax import export

        _, features, kernel = GEOMETRIES[geometry]
        b, h = export.symbolic_shape("b, h")
        exp = export.export(jax.jit(conv_function(geometry)))(
            jax.ShapeDtypeStruct((b, h, 8, features), jnp.float32), jax.ShapeDtypeStruct(kernel, jnp.float32))
        _EXPORTED[geometry] = exp.mlir_module()
    return _EXPORTED[geometry]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("geometry", list(GEOMETRIES))
def test_a_symbolic_height_convolves_as_xla_at_every_height(backend, geometry):
    """One compiled function per geometry and backend, run at heights 1, 2,
    3, 7 and 33 (batches of 2 and 1; JAX's export asserts b >= 1): XLA's
    values (``jax.jit`` at the concrete shape) and shape, empty results
    included."""
    jax = pytest.importorskip("jax")
    text = exported(geometry)
    # (JAX writes SAME with strides as a dynamic_conv whose padding it computes from h)
    assert ("stablehlo.convolution" in text or "stablehlo.dynamic_conv" in text) and "tensor<?x?x8x" in text
    f = bcast.compile(text, backend=backend)
    if backend == "c":  # the direct kernel, its geometry's sizes read at run time (docs/c-backend.md)
        assert "bcast_blas_sconv_packed(" in f.c_source
    _, features, kernel = GEOMETRIES[geometry]
    rng = np.random.default_rng(sum(map(ord, geometry)))
    w = rng.standard_normal(kernel).astype(np.float32)
    xla = jax.jit(conv_function(geometry))
    for batch, h in [(2, h) for h in HEIGHTS] + [(1, 4)]:
        x = rng.standard_normal((batch, h, 8, features)).astype(np.float32)
        want = np.asarray(xla(x, w))
        got = f(x, w)
        assert got.shape == want.shape and got.dtype == np.float32, (h, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_the_empty_cases_are_empty():
    """The geometries' result heights at the heights tested (XLA's, above):
    VALID windows of height 3 (and 5, dilated) find no place in an input of
    height 1 or 2 (up to 4)."""
    pytest.importorskip("jax")
    f = bcast.compile(exported("valid_rhs_dilated"), backend="reference")
    w = np.ones((3, 2, 2, 3), np.float32)
    heights = [f(np.ones((1, h, 8, 2), np.float32), w).shape[1] for h in (1, 2, 3, 4, 5, 7, 33)]
    assert heights == [0, 0, 0, 0, 1, 3, 29]


def test_the_import_keeps_the_height_run_time():
    """SAME at stride 1 is a ``bcast.convolution`` of a ``?`` height; at
    stride 2 JAX computes the padding from the height: a
    ``bcast.dynamic_conv`` whose static width (4) is as JAX declares it,
    checked when it runs."""
    pytest.importorskip("jax")
    from bcast.tools import driver

    text = str(driver.load(exported("same"), "conv.mlir", import_stablehlo=True))
    assert "stablehlo.convolution" not in text
    assert "bcast.convolution" in text and "(tensor<?x?x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32>" in text
    text = str(driver.load(exported("same_stride_2"), "conv.mlir", import_stablehlo=True))
    assert "stablehlo.dynamic_conv" not in text
    assert "bcast.dynamic_conv" in text and "tensor<2x2xi32>) -> tensor<?x?x4x4xf32>" in text


def test_the_export_runs_on_xla_at_every_height():
    """``-t stablehlo`` writes the ``?`` height back; jaxlib verifies it and
    XLA runs it (refined to each concrete shape) to ``jax.jit``'s values."""
    jax = pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import refined_stablehlo, run_stablehlo, verify_stablehlo

    exported_again = emit_text(driver.load(exported("lhs_dilated_strided"), "conv.mlir", import_stablehlo=True))
    assert "stablehlo.convolution" in exported_again
    verify_stablehlo(exported_again)
    rng = np.random.default_rng(7)
    w = rng.standard_normal((2, 3, 2, 3)).astype(np.float32)
    xla = jax.jit(conv_function("lhs_dilated_strided"))
    for h in (1, 3, 7):
        x = rng.standard_normal((2, h, 8, 2)).astype(np.float32)
        (got,) = run_stablehlo(refined_stablehlo(exported_again, [x.shape, w.shape]), (x, w))
        np.testing.assert_allclose(np.asarray(got), np.asarray(xla(x, w)), rtol=2e-5, atol=2e-5)


STATIC_RESULT = """\
func.func @main(%x: tensor<1x?x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32>
  func.return %r : tensor<1x4x2x1xf32>
}
"""
"""A static result height declared where a ``?`` input height makes it a
run-time size (StableHLO's verifier accepts it): refused, never trusted."""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_static_result_of_a_run_time_height_is_a_located_refusal(backend):
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(STATIC_RESULT, backend=backend, filename="conv.mlir")
    assert str(info.value).splitlines() == [
        "conv.mlir:2:8: error: 'bcast.convolution' op result dimension 1 is declared 4, a size known only at run time",
        "conv.mlir:2:8: note: declare it ? (the inferred type is tensor<1x?x2x1xf32>)"]


def test_bcast_run_refuses_it_with_exit_1(tmp_path):
    source = tmp_path / "conv.mlir"
    source.write_text(STATIC_RESULT)
    run = subprocess.run([sys.executable, "-m", "bcast.tools.run", str(source), "--seed", "0"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "result dimension 1 is declared 4, a size known only at run time" in run.stderr


# --------------------------------------------------------------------------
# Random geometries against the loop-by-loop oracle
# --------------------------------------------------------------------------


def window_count(n: int, k: int, stride: int, low: int, high: int, lhs_dilation: int, rhs_dilation: int) -> int:
    """The oracle's own count (StableHLO's C25, written here again on purpose:
    the static result dims of the generated programs must not come from the
    rule under test)."""
    padded = (n - 1) * lhs_dilation + 1 + low + high if n else low + high
    span = (k - 1) * rhs_dilation + 1
    return 0 if padded < span else (padded - span) // stride + 1


@st.composite
def geometries(draw):
    """A 1-D (NCW x OIW) or 2-D (NHWC x HWIO) convolution: kernel 1 to 3,
    strides and dilations 1 to 3, paddings -2 to 3, one or two feature
    groups, reversals; each spatial dim ``?`` or static (at least one ``?``),
    the run-time sizes 0 to 7."""
    rank = draw(st.sampled_from([1, 2]))
    spatial = st.lists(st.integers(1, 3), min_size=rank, max_size=rank)
    kernel, strides, lhs_dilation, rhs_dilation = (draw(spatial) for _ in range(4))
    padding = [draw(st.lists(st.integers(-2, 3), min_size=2, max_size=2)) for _ in range(rank)]
    dynamic = draw(st.lists(st.booleans(), min_size=rank, max_size=rank).filter(any))
    sizes = draw(st.lists(st.integers(0, 7), min_size=rank, max_size=rank))
    groups = draw(st.sampled_from([1, 2]))
    reverse = tuple(s for s in range(rank) if draw(st.booleans()))
    batch = draw(st.integers(0, 2))
    return dict(rank=rank, kernel=kernel, strides=strides, lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                padding=padding, dynamic=dynamic, sizes=sizes, groups=groups, reverse=reverse, batch=batch)


def program(g: dict) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """``bcast.convolution`` of geometry ``g`` (2 input features per group,
    3 outputs per group), and its run-time input and kernel shapes."""
    rank, groups = g["rank"], g["groups"]
    features, outs = 2 * groups, 3 * groups
    counts = [window_count(n, k, *args) for n, k, *args in zip(
        g["sizes"], g["kernel"], g["strides"], [lo for lo, _ in g["padding"]], [hi for _, hi in g["padding"]],
        g["lhs_dilation"], g["rhs_dilation"])]
    declared = ["?" if d else str(n) for d, n in zip(g["dynamic"], g["sizes"])]
    result = ["?" if d else str(n) for d, n in zip(g["dynamic"], counts)]
    if rank == 1:
        x_type, w_type, r_type = (f"?x{features}x{declared[0]}", f"{outs}x2x{g['kernel'][0]}",
                                  f"?x{outs}x{result[0]}")  # fmt: skip
        dims = "[b, f, 0]x[o, i, 0]->[b, f, 0]"
        x_shape, w_shape = (g["batch"], features, g["sizes"][0]), (outs, 2, g["kernel"][0])
    else:
        x_type, w_type = f"?x{'x'.join(declared)}x{features}", f"{'x'.join(map(str, g['kernel']))}x2x{outs}"
        r_type = f"?x{'x'.join(result)}x{outs}"
        dims = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
        x_shape, w_shape = (g["batch"], *g["sizes"], features), (*g["kernel"], 2, outs)
    listed = lambda values: "[" + ", ".join(map(str, values)) + "]"  # noqa: E731
    window = (f"stride = {listed(g['strides'])}, pad = {listed([listed(p) for p in g['padding']])}, "
              f"lhs_dilate = {listed(g['lhs_dilation'])}, rhs_dilate = {listed(g['rhs_dilation'])}, "
              f"reverse = {listed(['true' if s in g['reverse'] else 'false' for s in range(rank)])}")
    text = (f"func.func @main(%x: tensor<{x_type}xf32>, %w: tensor<{w_type}xf32>) -> tensor<{r_type}xf32> {{\n"
            f"  %r = bcast.convolution(%x, %w) dim_numbers = {dims}, window = {{{window}}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}} : "
            f"(tensor<{x_type}xf32>, tensor<{w_type}xf32>) -> tensor<{r_type}xf32>\n"
            f"  func.return %r : tensor<{r_type}xf32>\n}}\n")
    return text, x_shape, w_shape


@settings(max_examples=examples(40), deadline=None)
@given(geometries(), st.integers(0, 2**32 - 1))
@example(g=dict(rank=2, kernel=[3, 1], strides=[1, 1], lhs_dilation=[1, 1], rhs_dilation=[1, 1],
                padding=[[0, 0], [0, 0]], dynamic=[True, False], sizes=[2, 3], groups=1, reverse=(), batch=1),
         seed=0)  # VALID, the input shorter than the window: an empty result
@example(g=dict(rank=1, kernel=[2], strides=[2], lhs_dilation=[2], rhs_dilation=[1], padding=[[2, 1]],
                dynamic=[True], sizes=[0], groups=2, reverse=(0,), batch=2), seed=0)  # an empty input: only padding
@example(g=dict(rank=1, kernel=[1], strides=[1], lhs_dilation=[1], rhs_dilation=[1], padding=[[-2, -2]],
                dynamic=[True], sizes=[1], groups=1, reverse=(), batch=1), seed=0)  # crops past the input: empty
def test_any_geometry_with_a_run_time_spatial_dim_is_the_oracle_on_every_backend(g, seed):
    """Each backend's result is the oracle's (values and shape) and the
    reference's; the same compiled function then runs one more size (the
    sizes plus 3), so a size is read at run time, not folded in."""
    text, x_shape, w_shape = program(g)
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(w_shape).astype(np.float32)
    spatial = (2,) if g["rank"] == 1 else (1, 2)  # the input's spatial dims (NCW, NHWC)
    bigger = list(x_shape)
    for s, d in enumerate(spatial):
        if g["dynamic"][s]:
            bigger[d] += 3
    inputs = [rng.standard_normal(x_shape).astype(np.float32), rng.standard_normal(bigger).astype(np.float32)]
    wants = [oracle(x, w, g["padding"], g["strides"], g["lhs_dilation"], g["rhs_dilation"], groups=g["groups"],
                    reverse=g["reverse"]) for x in inputs]
    event("empty result" if 0 in wants[0].shape else "non-empty result")
    references = [bcast.compile(text, backend="reference")(x, w) for x in inputs]
    static_empty = any(not dyn and 0 in (n, want_n) for dyn, n, want_n in zip(
        g["dynamic"], g["sizes"], wants[0].shape[1:-1] if g["rank"] == 2 else wants[0].shape[2:]))
    for backend in BACKENDS:
        f = bcast.compile(text, backend=backend)
        if backend == "c":  # an NHWC result runs on the direct kernel (NCW is not its layout; a static
            # empty dim is zeros)
            assert ("bcast_blas_sconv_packed(" in f.c_source) == (g["rank"] == 2 and not static_empty)
        for x, want, reference in zip(inputs, wants, references):
            got = f(x, w)
            assert got.shape == want.shape == reference.shape, (backend, got.shape, want.shape)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
            np.testing.assert_allclose(got, reference, rtol=1e-5, atol=1e-5)


BOUNDED = """\
func.func @main(%x: tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, %w: tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>>
  func.return %r : tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>>
}
"""
"""A bounded height (at most 9): its result's bound is the count of 9."""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bounded_height_runs_up_to_its_bound(backend):
    f = bcast.compile(BOUNDED, backend=backend, filename="conv.mlir")
    rng = np.random.default_rng(8)
    w = rng.standard_normal((3, 3, 1, 1)).astype(np.float32)
    for h in (0, 2, 3, 9):
        x = rng.standard_normal((1, h, 4, 1)).astype(np.float32)
        want = oracle(x, w, [[0, 0], [0, 0]], (1, 1), (1, 1), (1, 1))
        assert want.shape[1] == max(h - 2, 0)
        np.testing.assert_allclose(f(x, w), want, rtol=1e-5, atol=1e-5)
    with pytest.raises(bcast.BcastError, match="dimension 1 of argument 0 is 10, above its bound 9"):
        f(np.zeros((1, 10, 4, 1), np.float32), w)


# --------------------------------------------------------------------------
# The C target's direct kernel with run-time sizes
# --------------------------------------------------------------------------


@st.composite
def kernel_geometries(draw):
    """A convolution the C target's direct kernel takes, with run-time
    sizes: 1 to 3 spatial dims, the result (batch, spatial..., feature), the
    input the same or features first (NCHW: its feature stride then depends
    on the spatial sizes), kernel 1 to 3, strides and dilations 1 or 2,
    paddings -1 to 2, feature groups 1, 2 or one per input feature
    (depthwise: the narrow groups), reversals, f32 or f64; the batch and
    each spatial dim ``?`` or static (at least one ``?``), sizes 0 to 5
    (batch 0 to 2; 0 only at run time); a ``convolution`` or a ``dynamic_conv`` (its
    padding an argument); the result through a relu or not."""
    rank = draw(st.integers(1, 3))
    pair = st.lists(st.integers(1, 2), min_size=rank, max_size=rank)
    kernel = draw(st.lists(st.integers(1, 3), min_size=rank, max_size=rank))
    strides, lhs_dilation, rhs_dilation = (draw(pair) for _ in range(3))
    padding = [draw(st.lists(st.integers(-1, 2), min_size=2, max_size=2)) for _ in range(rank)]
    dynamic = draw(st.lists(st.booleans(), min_size=rank + 1, max_size=rank + 1).filter(any))
    sizes = [draw(st.integers(0, 2))] + draw(st.lists(st.integers(0, 5), min_size=rank, max_size=rank))
    sizes = [n if dyn else max(n, 1) for dyn, n in zip(dynamic, sizes)]  # a static empty dim: zeros, no kernel
    groups = draw(st.sampled_from(["1", "2", "depthwise"]))
    return dict(rank=rank, kernel=kernel, strides=strides, lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                padding=padding, dynamic=dynamic, sizes=sizes, groups=groups,
                reverse=[draw(st.booleans()) for _ in range(rank)], element=draw(st.sampled_from(["f32", "f64"])),
                channels_first=draw(st.booleans()), padding_argument=draw(st.booleans()), relu=draw(st.booleans()))


def kernel_program(g: dict) -> tuple[str, tuple[int, ...], tuple[int, ...], bool]:
    """The program of ``kernel_geometries``' ``g`` (2 input features per
    group but for depthwise, 2 outputs per group, or 16 for one group), its
    input shape in the input's layout at the drawn sizes, its kernel's, and
    whether the kernel runs it (not when a static result dim is 0: zeros)."""
    rank, e = g["rank"], g["element"]
    groups = {"1": 1, "2": 2, "depthwise": 3}[g["groups"]]
    per_group = 1 if g["groups"] == "depthwise" else 2
    features, outs = per_group * groups, 16 if groups == 1 else 2 * groups
    dims = "".join(f"{d}, " for d in range(rank))
    spatial_x = [("?" if dyn else str(n)) for dyn, n in zip(g["dynamic"][1:], g["sizes"][1:])]
    batch = "?" if g["dynamic"][0] else str(g["sizes"][0])
    if g["channels_first"]:
        x_dims, x_type = f"[b, f, {dims[:-2]}]", [batch, str(features), *spatial_x]
    else:
        x_dims, x_type = f"[b, {dims}f]", [batch, *spatial_x, str(features)]
    counts = [window_count(n, k, st_, lo, hi, ld, rd) for n, k, st_, (lo, hi), ld, rd in zip(
        g["sizes"][1:], g["kernel"], g["strides"], g["padding"], g["lhs_dilation"], g["rhs_dilation"])]
    spatial_r = ["?" if dyn or g["padding_argument"] else str(c) for dyn, c in zip(g["dynamic"][1:], counts)]
    t = lambda shape: f"tensor<{'x'.join([*shape, e])}>"  # noqa: E731
    x_t, w_t, r_t = t(x_type), t([*map(str, g["kernel"]), str(per_group), str(outs)]), t([batch, *spatial_r, str(outs)])
    listed = lambda values: "[" + ", ".join(map(str, values)) + "]"  # noqa: E731
    window = (f"stride = {listed(g['strides'])}, lhs_dilate = {listed(g['lhs_dilation'])}, "
              f"rhs_dilate = {listed(g['rhs_dilation'])}, reverse = {listed(str(r).lower() for r in g['reverse'])}")
    numbers = f"dim_numbers = {x_dims}x[{dims}i, o]->[b, {dims}f]"
    attributes = f"{{batch_group_count = 1 : i64, feature_group_count = {groups} : i64}}"
    if g["padding_argument"]:
        head = f"func.func @main(%x: {x_t}, %w: {w_t}, %p: tensor<{rank}x2xi64>) -> {r_t} {{"
        conv = (f"  %y = bcast.dynamic_conv(%x, %w, %p) {numbers}, window = {{{window}}} {attributes} : "
                f"({x_t}, {w_t}, tensor<{rank}x2xi64>) -> {r_t}")
    else:
        head = f"func.func @main(%x: {x_t}, %w: {w_t}) -> {r_t} {{"
        window = f"{window}, pad = {listed(listed(p) for p in g['padding'])}"
        conv = f"  %y = bcast.convolution(%x, %w) {numbers}, window = {{{window}}} {attributes} : ({x_t}, {w_t}) -> {r_t}"
    lines = [head, conv]
    if g["relu"]:
        lines += [f"  %z = bcast.constant dense<0.0> : tensor<{e}>",
                  f"  %r = bcast.maximum %y, %z : ({r_t}, tensor<{e}>) -> {r_t}", f"  func.return %r : {r_t}", "}"]
    else:
        lines += [f"  func.return %y : {r_t}", "}"]
    x_shape = (g["sizes"][0], features, *g["sizes"][1:]) if g["channels_first"] else (*g["sizes"], features)
    static_empty = "0" in spatial_r
    return "\n".join(lines) + "\n", x_shape, (*g["kernel"], per_group, outs), not static_empty


@settings(max_examples=examples(40), deadline=None)
@given(kernel_geometries(), st.integers(0, 2**32 - 1))
@example(g=dict(rank=2, kernel=[3, 3], strides=[1, 1], lhs_dilation=[1, 1], rhs_dilation=[1, 1],
                padding=[[1, 1], [1, 1]], dynamic=[True, True, False], sizes=[2, 0, 4], groups="1",
                reverse=[False, False], element="f32", channels_first=False, padding_argument=False, relu=True),
         seed=0)  # an empty height under SAME padding: the zeros, the input never read
@example(g=dict(rank=2, kernel=[3, 3], strides=[2, 2], lhs_dilation=[1, 1], rhs_dilation=[1, 1],
                padding=[[0, 1], [0, 1]], dynamic=[True, True, False], sizes=[2, 5, 4], groups="depthwise",
                reverse=[False, False], element="f32", channels_first=False, padding_argument=True, relu=True),
         seed=0)  # JAX's SAME with stride 2 on a symbolic height: a dynamic_conv, depthwise
@example(g=dict(rank=1, kernel=[2], strides=[1], lhs_dilation=[1], rhs_dilation=[1], padding=[[2, 1]],
                dynamic=[False, True], sizes=[2, 0], groups="1", reverse=[True], element="f32", channels_first=False,
                padding_argument=False, relu=False), seed=0)  # an empty input whose padding has windows: zeros
def test_the_c_kernel_with_run_time_sizes_is_the_reference(g, seed):
    """Each geometry on C runs the direct kernel (its call in the C source;
    not for a static empty result) and gives the reference's values and shape, or where a run-time
    padding crops a padded dim below 0 the reference's error (``out=``
    untouched then: ``test_dynamic_conv``); the same compiled function then runs its ``?``
    dims 2 larger, so every size is read at run time."""
    text, x_shape, w_shape, direct = kernel_program(g)
    rng = np.random.default_rng(seed)
    dtype = np.float32 if g["element"] == "f32" else np.float64
    w = rng.standard_normal(w_shape).astype(dtype)
    f, reference = bcast.compile(text, backend="c"), bcast.compile(text, backend="reference")
    assert (f"bcast_blas_{'s' if g['element'] == 'f32' else 'd'}conv_packed(" in f.c_source) == direct
    spatial = range(2, 2 + g["rank"]) if g["channels_first"] else range(1, 1 + g["rank"])
    bigger = list(x_shape)
    for dyn, d in zip(g["dynamic"], [0, *spatial]):
        bigger[d] += 2 if dyn else 0
    for shape in (x_shape, tuple(bigger)):
        args = [rng.standard_normal(shape).astype(dtype), w]
        if g["padding_argument"]:
            args.append(np.array(g["padding"], np.int64))
        try:
            want = reference(*args)
        except bcast.BcastError as refused:
            with pytest.raises(bcast.BcastError) as info:
                f(*args)
            assert str(info.value) == str(refused)
            continue
        event("empty result" if want.size == 0 else "non-empty result")
        got = f(*args)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_a_jax_cnn_layer_of_a_symbolic_batch_and_height_fuses_its_epilogue_on_c():
    """``relu(conv(x, w) + b)`` exported with ``b, h`` symbolic, on C: the
    kernel's blocks each run the bias add and relu on their rows (the
    epilogue fused, its sizes and stretch strides computed before the
    call), compiled once and equal to ``jax.jit`` at several sizes."""
    jax = pytest.importorskip("jax")
    from jax import export

    from bcast.tests.lowering.test_convolution import cnn_layer

    rng = np.random.default_rng(10)
    w, bias = rng.standard_normal((3, 3, 4, 24)).astype(np.float32), rng.standard_normal(24).astype(np.float32)
    n, h = export.symbolic_shape("b, h")
    text = export.export(jax.jit(cnn_layer))(jax.ShapeDtypeStruct((n, h, 6, 4), np.float32), w, bias).mlir_module()
    f = bcast.compile(text, backend="c")
    fast = f.c_source.split("bcast_blas_sconv_packed(", 1)[1].split("bcast_blas_gemm_release(")[0]
    assert "? " in fast and "arg10" in fast  # relu's select and the bias, in the block loop
    for batch, height in [(1, 1), (2, 5), (3, 17)]:
        x = rng.standard_normal((batch, height, 6, 4)).astype(np.float32)
        np.testing.assert_allclose(f(x, w, bias), np.asarray(jax.jit(cnn_layer)(x, w, bias)), rtol=2e-5, atol=2e-5)
