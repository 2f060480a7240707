"""``fft`` (docs/ir.md, "fft"): ``jnp.fft`` programs exported by JAX at
test time, imported and run on the reference, numpy and array-api
backends to ``jax.jit``'s values; the C backend refuses complex values,
located; ``-t stablehlo`` written back and run by XLA; the reference
against NumPy's transforms in double precision; a Hypothesis property:
every backend is the reference and each inverse undoes its transform."""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tests.xla import run_on_xla, written_back

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

BACKENDS = ("reference", "numpy", "array-api")

PROGRAMS = {
    "fft": (lambda x: jnp.fft.fft(x), "c"),
    "ifft": (lambda x: jnp.fft.ifft(x), "c"),
    "rfft": (lambda x: jnp.fft.rfft(x), "r"),
    "irfft": (lambda x: jnp.fft.irfft(x), "c"),
    "fft2": (lambda x: jnp.fft.fft2(x), "c"),
    "rfftn": (lambda x: jnp.fft.rfftn(x, axes=(-3, -2, -1)), "r"),
    "irfft2": (lambda x: jnp.fft.irfft2(x), "c"),
    "fft_axis0": (lambda x: jnp.fft.fft(x, axis=0), "c"),
}
"""Each program and the kind of its argument (real f32 or complex64)."""

SIZES = (1, 2, 7, 8, 64)


def tolerance(want: np.ndarray, n: int) -> dict:
    """How close to ``jax.jit``'s f32 transform (XLA's, in single precision)
    a result must be: bcast's reference rounds the double-precision
    transform once, so the difference is XLA's rounding, which grows with
    ``log2(n)`` and the spectrum's largest magnitude."""
    scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
    return dict(rtol=1e-5, atol=2e-7 * (1 + np.log2(max(n, 2))) * scale)


def argument(rng, shape, kind: str) -> np.ndarray:
    x = rng.standard_normal(shape)
    if kind == "c":
        x = x + 1j * rng.standard_normal(shape)
        return x.astype(np.complex64)
    return x.astype(np.float32)


def shapes(name: str, n: int) -> list[tuple[int, ...]]:
    """A single transform and a batched one of size ``n`` (2-d and 3-d
    programs transform ``n`` along the last dim, 2 or 3 along the others)."""
    if name == "fft2":
        return [(3, n), (2, 3, n)]
    if name == "rfftn":
        return [(2, 3, n), (2, 2, 3, n)]
    if name in ("irfft", "irfft2"):  # m input frequencies, the output length 2 * (m - 1)
        m = n if n > 1 else 2
        return [(m,), (4, m)] if name == "irfft" else [(3, m), (2, 3, m)]
    if name == "fft_axis0":  # the transformed axis first (JAX transposes it last, and back)
        return [(n, 3), (n, 2, 3)]
    return [(n,), (4, n)]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_jnp_fft_runs_on_every_backend_as_jax_jit(name: str, n: int) -> None:
    from bcast.tools.jax_bridge import lower_to_stablehlo

    fn, kind = PROGRAMS[name]
    rng = np.random.default_rng(n)
    for shape in shapes(name, n):
        x = argument(rng, shape, kind)
        want = np.asarray(jax.jit(fn)(x))
        texts = {"pretty": jax.jit(fn).lower(x).as_text(), "generic": lower_to_stablehlo(fn, x, located=True)}
        assert "fft" in texts["pretty"]
        for form, text in texts.items():
            for backend in BACKENDS:
                got = np.asarray(bcast.compile(text, backend=backend)(x))
                assert (got.dtype, got.shape) == (want.dtype, want.shape), (backend, form, shape)
                np.testing.assert_allclose(got, want, err_msg=f"{backend} {form} {shape}",
                                           **tolerance(want, max(shape)))


@pytest.mark.parametrize("kind, lengths, shape, element, dtype", [
    ("FFT", [8], (3, 8), "complex<f32>", np.complex64),
    ("IFFT", [4, 7], (2, 4, 7), "complex<f64>", np.complex128),
    ("RFFT", [2, 3, 9], (2, 2, 3, 9), "f64", np.float64),
    ("RFFT", [8], (5, 8), "f32", np.float32),
    ("IRFFT", [3, 9], (2, 3, 5), "complex<f32>", np.complex64),
    ("IRFFT", [8], (5,), "complex<f64>", np.complex128),
])
def test_the_reference_is_numpys_transform_in_double_rounded_once(kind, lengths, shape, element, dtype):
    """Every backend's values are NumPy's n-dimensional transform over the
    trailing dims, computed in complex128 and rounded once: f64 exactly,
    f32 to within one rounding of each part."""
    rng = np.random.default_rng(7)
    x = argument(rng, shape, "c" if "complex" in element else "r").astype(dtype)
    fn = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn, "IRFFT": np.fft.irfftn}[kind]
    exact = fn(x.astype(np.complex128 if kind != "RFFT" else np.float64), s=lengths,
               axes=tuple(range(-len(lengths), 0)))
    src = bcast_program(kind, lengths, shape, element)
    single = dtype in (np.float32, np.complex64)
    rounded = exact.astype({True: np.complex64, False: np.complex128}[single] if kind != "IRFFT"
                           else {True: np.float32, False: np.float64}[single])
    for backend in ("reference", "numpy"):
        got = bcast.compile(src, backend=backend)(x)
        assert got.dtype == rounded.dtype and got.shape == rounded.shape
        np.testing.assert_array_equal(got, rounded, err_msg=backend)
    got = bcast.compile(src, backend="array-api")(x)  # NumPy's own precision: within a few roundings
    np.testing.assert_allclose(got, rounded, rtol=1e-5 if single else 1e-12, atol=1e-5 if single else 1e-12)


def bcast_program(kind: str, lengths, shape, element: str) -> str:
    def tensor(s, e):
        return f"tensor<{'x'.join(map(str, s))}x{e}>"

    out = list(shape)
    result_element = element
    if kind == "RFFT":
        out[-1], result_element = lengths[-1] // 2 + 1, f"complex<{element}>"
    elif kind == "IRFFT":
        out[-1], result_element = lengths[-1], element[len("complex<"):-1]
    t, r = tensor(shape, element), tensor(out, result_element)
    return (f"func.func @main(%x: {t}) -> {r} {{\n"
            f"  %0 = bcast.fft %x, type = {kind}, length = [{', '.join(map(str, lengths))}] : ({t}) -> {r}\n"
            f"  func.return %0 : {r}\n}}\n")


def test_a_zero_length_gives_an_empty_result() -> None:
    src = bcast_program("FFT", [0], (3, 0), "complex<f32>")
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(np.zeros((3, 0), np.complex64))
        assert got.shape == (3, 0) and got.dtype == np.complex64


def test_array_api_computes_with_the_namespaces_fft_extension() -> None:
    """jax.numpy and array_api_strict arrays are transformed by their own
    namespace's ``fft`` (its result type is theirs)."""
    strict = pytest.importorskip("array_api_strict")
    src = bcast_program("RFFT", [8], (3, 8), "f32")
    x = np.random.default_rng(1).standard_normal((3, 8)).astype(np.float32)
    want = np.fft.rfft(x.astype(np.float64))
    run = bcast.compile(src, backend="array-api")
    for arg in (jnp.asarray(x), strict.asarray(x)):
        got = run(arg)
        assert type(got).__module__.split(".")[0] == type(arg).__module__.split(".")[0]
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_a_namespace_without_fft_is_refused_at_the_op() -> None:
    from bcast.lowering import array_api_runtime as ar
    from bcast.lowering import numpy_runtime as rt

    xp = types.SimpleNamespace(__name__="nofft")
    with pytest.raises(rt.ProgramError) as e:
        ar.fft(xp, np.zeros(4, np.complex64), "FFT", (4,), (4,), "complex64", ("prog.mlir", 3, 8, "bcast.fft"))
    assert "nofft has no fft extension" in str(e.value) and e.value.site == ("prog.mlir", 3, 8, "bcast.fft")


def test_c_refuses_an_rfft_of_real_input_located() -> None:
    """An f32 RFFT's complex result is what the C backend lacks: the op is
    named at its line, nothing is compiled."""
    src = bcast_program("RFFT", [8], (3, 8), "f32")
    src = src.replace("-> tensor<3x5xcomplex<f32>> {", "-> tensor<3x8xf32> {").replace(
        "  func.return %0 : tensor<3x5xcomplex<f32>>",
        "  %1 = bcast.fft %0, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>\n"
        "  func.return %1 : tensor<3x8xf32>")
    with pytest.raises(bcast.BcastError) as e:
        bcast.compile(src, backend="c")
    assert ("<source>:2:8: error: 'bcast.fft' op result of type tensor<3x5xcomplex<f32>> is not supported by "
            "bcast-lower-to-loops (the c backend)") in str(e.value)
    assert 'docs/c-backend.md, "Complex numbers"' in str(e.value)


@pytest.mark.parametrize("kind, lengths, shape, element", [
    ("RFFT", [8], (3, 8), "f32"),
    ("IRFFT", [3, 8], (2, 3, 5), "complex<f32>"),
    ("FFT", [2, 3, 4], (2, 3, 4), "complex<f32>"),
    ("IFFT", [7], (4, 7), "complex<f32>"),
])
def test_exported_with_t_stablehlo_runs_on_xla(kind, lengths, shape, element) -> None:
    """``-t stablehlo`` writes ``stablehlo.fft`` with the same type and
    lengths: jaxlib's verifier takes it and XLA computes the reference's
    values."""
    src = bcast_program(kind, lengths, shape, element)
    exported = written_back(src)
    assert f"stablehlo.fft %x, type = {kind}, length = [{', '.join(map(str, lengths))}]" in exported
    x = argument(np.random.default_rng(5), shape, "c" if "complex" in element else "r")
    (got,) = run_on_xla(exported, (x,))
    want = bcast.compile(src, backend="reference")(x)
    np.testing.assert_allclose(got, want, **tolerance(want, shape[-1]))


@pytest.mark.parametrize("lengths, shape, words", [
    ([8, 8, 8, 8], (8, 8, 8, 8), "rank must be between 1 and 3, but got 4."),
    ([9], (3, 8), "RFFT requires innermost dimensions to be compatible with fft_length. Got: 3, 8 but wanted 9."),
])
def test_the_rules_are_stablehlos_located(lengths, shape, words) -> None:
    src = bcast_program("RFFT", lengths, shape, "f32")
    with pytest.raises(bcast.BcastError) as e:
        bcast.compile(src, backend="reference")
    assert f"<source>:2:8: error: 'bcast.fft' op {words}" in str(e.value)


# -- properties ---------------------------------------------------------------------------------


@st.composite
def transforms(draw):
    """A random transform: its kind, 1 to 3 lengths of 1 to 9, up to 2 batch
    dims, f32 or f64 (and the operand's shape and element type)."""
    kind = draw(st.sampled_from(["FFT", "IFFT", "RFFT", "IRFFT"]))
    lengths = draw(st.lists(st.integers(1, 9), min_size=1, max_size=3))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    part = draw(st.sampled_from(["f32", "f64"]))
    shape = [*batch, *lengths]
    if kind == "IRFFT":
        shape[-1] = lengths[-1] // 2 + 1
    element = part if kind == "RFFT" else f"complex<{part}>"
    return kind, lengths, tuple(shape), element


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(transforms(), st.integers(0, 2**32 - 1))
def test_every_backend_is_the_reference_and_the_inverse_undoes_the_transform(transform, seed) -> None:
    """The numpy backend gives the reference's values bit for bit, the
    array-api backend (NumPy's fft in the operand's precision) within a few
    roundings; IFFT after FFT and IRFFT after RFFT give the operand back."""
    kind, lengths, shape, element = transform
    single = "f32" in element
    dtype = {("f32", False): np.float32, ("f64", False): np.float64,
             ("f32", True): np.complex64, ("f64", True): np.complex128}[("f32" if single else "f64",
                                                                          "complex" in element)]
    x = argument(np.random.default_rng(seed), shape, "c" if "complex" in element else "r").astype(dtype)
    src = bcast_program(kind, lengths, shape, element)
    want = bcast.compile(src, backend="reference")(x)
    np.testing.assert_array_equal(bcast.compile(src, backend="numpy")(x), want)
    close = dict(rtol=1e-4, atol=1e-5 * max(1.0, float(np.max(np.abs(want))))) if single else dict(rtol=1e-10,
                                                                                                    atol=1e-10)
    np.testing.assert_allclose(bcast.compile(src, backend="array-api")(x), want, **close)
    if kind in ("FFT", "RFFT"):
        back_kind = "IFFT" if kind == "FFT" else "IRFFT"
        back = bcast.compile(bcast_program(back_kind, lengths, want.shape, str_element(want.dtype)),
                             backend="reference")(want)
        np.testing.assert_allclose(back, x, rtol=1e-4 if single else 1e-10, atol=1e-5 if single else 1e-10)


def str_element(dtype: np.dtype) -> str:
    return {np.dtype(np.complex64): "complex<f32>", np.dtype(np.complex128): "complex<f64>"}[np.dtype(dtype)]
