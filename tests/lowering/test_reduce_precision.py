"""``stablehlo.reduce_precision`` (docs/stablehlo.md, "reduce_precision"),
imported as integer ops on the float's bits: on every backend, for every
float type and formats narrower and wider than the type, bit for bit
against the spec's rule restated here on unsigned bits, against the
narrow types NumPy and ml_dtypes round to themselves (``e5m10`` is f16's
rounding, ``e8m7`` bf16's, in the normal range), and against XLA
(``jax.lax.reduce_precision`` under ``jax.jit``)."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.ir.types import NUMPY_DTYPES, finfo
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ("reference", "numpy", "array-api", "c")
ELEMENTS = ("f16", "bf16", "f32", "f64")
FORMATS = ((5, 10), (8, 7), (4, 3), (5, 2), (2, 1), (1, 0), (3, 0), (8, 23), (11, 52), (11, 10), (6, 60))
"""(exponent bits, mantissa bits): IEEE half, bfloat16, the f8 formats,
tiny ones, none kept after the point, the type's own, wider than it."""

UNSIGNED = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def program(element: str, n: int, exponent: int, mantissa: int) -> str:
    t = f"tensor<{n}x{element}>"
    return (f"func.func @main(%x: {t}) -> {t} {{\n"
            f"  %0 = stablehlo.reduce_precision %x, format = e{exponent}m{mantissa} : {t}\n"
            f"  func.return %0 : {t}\n}}\n")


def spec_rule(x: np.ndarray, exponent: int, mantissa: int) -> np.ndarray:
    """The spec's rule on the unsigned bits, in Python integers."""
    info = finfo(x.dtype)
    width, have_e, have_m = info.bits, info.nexp, info.nmant
    out = []
    with np.errstate(invalid="ignore"):
        nans = np.isnan(x.astype(np.float64)).tolist()
    for v, nan in zip(x.view(UNSIGNED[width]).tolist(), nans, strict=True):
        if mantissa < have_m:
            drop = have_m - mantissa
            v = (v + ((v >> drop) & 1) + (1 << (drop - 1)) - 1) & ~((1 << drop) - 1) & ((1 << width) - 1)
        if exponent < have_e:
            mask, bias, narrow = ((1 << have_e) - 1) << have_m, (1 << (have_e - 1)) - 1, (1 << (exponent - 1)) - 1
            sign = v & (1 << (width - 1))
            if v & mask > (bias + narrow) << have_m:
                v = sign | mask
            elif v & mask <= (bias - narrow) << have_m:
                v = sign
        if nan:
            v = None
        out.append(v)
    inf = np.array([np.inf], x.dtype).view(UNSIGNED[width])[0]
    original = x.view(UNSIGNED[width])
    return np.array([original[i] if v is None and mantissa > 0 else inf if v is None else v
                     for i, v in enumerate(out)], UNSIGNED[width]).view(x.dtype)


def operands(element: str, n: int = 512) -> np.ndarray:
    """Random bits (every class: NaNs of both signs, infinities, subnormals),
    values near the f16 and bf16 limits, halfway cases, zeros."""
    dtype = np.dtype(NUMPY_DTYPES[element])
    rng = np.random.default_rng(7)
    width = dtype.itemsize * 8
    bits = rng.integers(0, 1 << width, size=n, dtype=np.uint64).astype(UNSIGNED[width]).view(dtype)
    special = np.array([0.0, -0.0, 1.0, -1.0, 65504.0, 65519.0, 65520.0, -65520.0, 6.1035156e-05, 6.0e-05,
                        3.0e-38, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 0.1, -2.5, 1e30, np.inf, -np.inf, np.nan],
                       np.float64)
    with np.errstate(over="ignore"):
        special = special.astype(dtype)
    with np.errstate(over="ignore"):
        scaled = (rng.standard_normal(n) * np.exp2(rng.integers(-20, 20, n))).astype(dtype)
    return np.concatenate([bits, special, scaled])


def same_bits(got: np.ndarray, want: np.ndarray, message: str = "") -> None:
    unsigned = UNSIGNED[got.dtype.itemsize * 8]
    bad = np.flatnonzero(got.view(unsigned) != want.view(unsigned))
    assert bad.size == 0, f"{message}: {bad.size} differ, first at {bad[0]}: {got[bad[0]]!r} != {want[bad[0]]!r}"


@pytest.mark.parametrize("element", ELEMENTS)
@pytest.mark.parametrize("exponent, mantissa", FORMATS)
def test_every_backend_gives_the_spec_bits(element, exponent, mantissa):
    x = operands(element)
    want = spec_rule(x, exponent, mantissa)
    src = program(element, x.size, exponent, mantissa)
    for backend in BACKENDS:
        same_bits(bcast.compile(src, backend=backend)(x), want, f"{backend}, {element} e{exponent}m{mantissa}")


@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("exponent, mantissa, narrow", [(5, 10, "f16"), (8, 7, "bf16")])
def test_in_the_normal_range_it_is_the_narrow_types_own_rounding(element, exponent, mantissa, narrow):
    """Where the narrow type holds a normal number (it has subnormals, the
    format does not), the result is that type's round to nearest even."""
    x = operands(element)
    narrow_info = finfo(NUMPY_DTYPES[narrow])
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = x.astype(NUMPY_DTYPES[narrow]).astype(x.dtype)
        normal = np.isfinite(rounded) & (np.abs(rounded) >= narrow_info.smallest_normal)
    got = bcast.compile(program(element, x.size, exponent, mantissa), backend="c")(x)
    assert normal.sum() > 100
    same_bits(got[normal], rounded[normal], f"{element} as {narrow}")
    assert np.all(np.isinf(got[np.isinf(rounded) & ~np.isnan(x)]))  # past the largest: infinity


@pytest.mark.parametrize("element", ELEMENTS)
@pytest.mark.parametrize("exponent, mantissa", [(5, 10), (8, 7), (4, 3), (2, 1), (1, 0), (11, 52)])
def test_xla_computes_the_same_bits(element, exponent, mantissa):
    jax = pytest.importorskip("jax")
    x = operands(element)
    with jax.enable_x64(True):  # f64 stays f64 (a scoped setting: other tests in this process see JAX's default)
        want = np.asarray(jax.jit(lambda v: jax.lax.reduce_precision(v, exponent, mantissa))(x))
    got = bcast.compile(program(element, x.size, exponent, mantissa), backend="numpy")(x)
    if mantissa == 0:  # the spec makes a NaN +inf (no mantissa bit left to mark it); XLA keeps the NaN
        with np.errstate(over="ignore"):
            nan = np.isnan(x.astype(np.float32))
        assert np.all(np.isnan(want[nan].astype(np.float32))) and np.all(got[nan] == np.inf)
        got, want = got[~nan], want[~nan]
    if element in ("f16", "bf16"):  # XLA computes these in f32 and may quiet a NaN's payload on the way back
        nan = np.isnan(got.astype(np.float32))
        assert np.array_equal(nan, np.isnan(want.astype(np.float32)))
        got, want = got[~nan], want[~nan]
    same_bits(got, want, f"XLA, {element} e{exponent}m{mantissa}")


def test_jax_export_imports_and_goes_back_to_xla():
    """JAX's pretty form is bcast's own syntax (no jaxlib needed to read
    it); ``-t stablehlo`` writes integer ops XLA runs to the same bits."""
    jax = pytest.importorskip("jax")

    x = operands("f32", 64) / 2
    text = jax.jit(lambda v: jax.lax.reduce_precision(v * 2, 5, 10)).lower(x).as_text()
    assert "stablehlo.reduce_precision %" in text
    want = spec_rule(x * 2, 5, 10)
    same_bits(bcast.compile(text, backend="c")(x), want, "export")
    written = written_back(text, "export.mlir")
    assert "reduce_precision" not in written and "stablehlo.bitcast_convert" in written
    same_bits(run_on_xla(written, [x])[0], want, "written back")


@pytest.mark.parametrize("source, message", [
    ("stablehlo.reduce_precision %x, format = e0m3 : tensor<4xf32>",
     "attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is "
     "positive"),
    ('"stablehlo.reduce_precision"(%x) {exponent_bits = 2 : i32, mantissa_bits = -1 : i32} : '
     "(tensor<4xf32>) -> tensor<4xf32>",
     "attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is "
     "non-negative"),
    ("stablehlo.reduce_precision %x, format = e5m10 : (tensor<4xf32>) -> tensor<4xf16>",
     "all of {operand, output} must have the same type"),
])
def test_the_spec_constraints_are_located_errors(source, message):
    result = source.rsplit(" ", 1)[1]
    src = (f"func.func @main(%x: tensor<4xf32>) -> {result} {{\n  %0 = {source}\n"
           f"  func.return %0 : {result}\n}}\n")
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(src, backend="numpy", filename="in.mlir")
    assert str(info.value).startswith(f"in.mlir:2:8: error: 'stablehlo.reduce_precision' op {message}"), info.value
