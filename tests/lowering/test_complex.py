"""complex<f32> and complex<f64> on every backend (docs/semantics.md,
"Complex numbers").

A program mixing broadcasting, promotion with floats, the parts ops,
converts, a reduction and a contraction runs on every backend that computes
complex values and is compared with an oracle written here on Python's
``complex`` and ``cmath`` (one element at a time: it shares no code with
NumPy's vectorized loops). A Hypothesis property runs random chains of ops
on random complex arrays, with infinite, NaN and zero parts, on every
backend against the reference; the C backend refuses complex values,
located. JAX's ``jnp`` complex programs, exported, run on every backend to
``jax.jit``'s values and go back to XLA through ``-t stablehlo``.
"""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast

BACKENDS = ("reference", "numpy", "array-api")
"""The backends that compute complex values; C refuses them (``test_c_refuses_complex_located``)."""

PROGRAM = """func.func @main(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>, %f: tensor<3xf64>,
                  %m: tensor<3x2xcomplex<f32>>) -> (tensor<2x3xcomplex<f64>>, tensor<2x3xf32>, tensor<2xcomplex<f32>>,
                  tensor<2x2xcomplex<f32>>, tensor<2x3xi1>, tensor<3xcomplex<f32>>, tensor<3xi32>) {
  %0 = bcast.multiply %a, %b : (tensor<2x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  %1 = bcast.subtract %0, %f : (tensor<2x3xcomplex<f32>>, tensor<3xf64>) -> tensor<2x3xcomplex<f64>>
  %2 = bcast.abs %a : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  %3 = bcast.reduce add %a, dims = [1] : (tensor<2x3xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %4 = bcast.dot_general %a, %m, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %5 = bcast.compare NE, %0, %a : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xi1>
  %re = bcast.real %b : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %im = bcast.imag %b : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %6 = bcast.complex %im, %re : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  %7 = bcast.exponential %6 : tensor<3xcomplex<f32>>
  %8 = bcast.convert %b : (tensor<3xcomplex<f32>>) -> tensor<3xi32>
  func.return %1, %2, %3, %4, %5, %7, %8 : tensor<2x3xcomplex<f64>>, tensor<2x3xf32>, tensor<2xcomplex<f32>>,
                  tensor<2x2xcomplex<f32>>, tensor<2x3xi1>, tensor<3xcomplex<f32>>, tensor<3xi32>
}
"""


def _complex(rng: np.random.Generator, shape, dtype=np.complex64) -> np.ndarray:
    return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    b = np.array([1.5 - 2j, -3.25 + 0.5j, 7e9 + 1j], np.complex64)
    return [_complex(rng, (2, 3)), b, rng.normal(size=3), _complex(rng, (3, 2))]


def _oracle(a, b, f, m) -> list[np.ndarray]:
    """The program on Python complex numbers, element by element."""
    a_, b_, f_, m_ = (x.tolist() for x in (a, b, f, m))
    prod = [[complex(np.complex64(a_[i][j] * b_[j])) for j in range(3)] for i in range(2)]  # rounded to complex64
    sub = [[prod[i][j] - f_[j] for j in range(3)] for i in range(2)]
    mag = [[abs(a_[i][j]) for j in range(3)] for i in range(2)]
    sums = [sum(a_[i]) for i in range(2)]
    dot = [[sum(a_[i][k] * m_[k][j] for k in range(3)) for j in range(2)] for i in range(2)]
    ne = [[prod[i][j] != a_[i][j] for j in range(3)] for i in range(2)]
    swapped = [cmath.exp(complex(z.imag, z.real)) for z in b_]
    to_int = [max(min(math.trunc(z.real), 2**31 - 1), -(2**31)) for z in b_]
    return [np.array(sub, np.complex128), np.array(mag, np.float32), np.array(sums, np.complex64),
            np.array(dot, np.complex64), np.array(ne), np.array(swapped, np.complex64), np.array(to_int, np.int32)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_program_equals_the_python_complex_oracle(backend: str) -> None:
    args = _inputs()
    got = bcast.compile(PROGRAM, backend=backend)(*args)
    for g, w in zip(got, _oracle(*args), strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)
        else:
            assert g.tolist() == w.tolist()


@pytest.mark.parametrize("namespace", ["array_api_strict", "dask", "jax"])
def test_array_api_target_runs_complex_on_each_namespace(namespace: str) -> None:
    """array_api_strict, dask (chunked) and JAX run the program to the reference's values."""
    args = _inputs()
    if namespace == "array_api_strict":
        xp = pytest.importorskip("array_api_strict")
        given_args = [xp.asarray(x) for x in args]
    elif namespace == "dask":
        da = pytest.importorskip("dask.array")
        given_args = [da.from_array(x, chunks=1) for x in args]
    else:
        jnp = pytest.importorskip("jax.numpy")
        import jax

        with jax.enable_x64(True):  # f64 stays f64 (scoped: other tests see JAX's default)
            given_args = [jnp.asarray(x) for x in args]
            got = bcast.compile(PROGRAM, backend="array-api")(*given_args)
            got = [np.asarray(g) for g in got]
        return _agree(got, args)
    got = bcast.compile(PROGRAM, backend="array-api")(*given_args)
    got = [np.asarray(g.compute() if hasattr(g, "compute") else g) for g in got]
    _agree(got, args)


def _agree(got, args) -> None:
    want = bcast.compile(PROGRAM, backend="reference")(*args)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6)


def test_c_refuses_complex_located() -> None:
    """The C backend refuses a complex argument at the function, a complex
    value made inside at the op that makes it; without a backend given,
    ``compile`` runs the program on the numpy backend."""
    with pytest.raises(bcast.BcastError, match=r"<source>:1:1: error: 'func.func' op argument 0 of type "
                       r"tensor<2x3xcomplex<f32>> is not supported by bcast-lower-to-loops \(the c backend\)"):
        bcast.compile(PROGRAM, backend="c")
    inside = ("func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
              "  %c = bcast.complex %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>\n"
              "  %r = bcast.abs %c : (tensor<3xcomplex<f32>>) -> tensor<3xf32>\n"
              "  func.return %r : tensor<3xf32>\n}\n")
    with pytest.raises(bcast.BcastError, match=r"<source>:2:8: error: 'bcast.complex' op result of type "
                       r"tensor<3xcomplex<f32>> is not supported by bcast-lower-to-loops"):
        bcast.compile(inside, backend="c")
    x = np.array([3.0, -4.0, 0.0], np.float32)
    assert bcast.compile(inside)(x).tolist() == pytest.approx([3 * 2**0.5, 4 * 2**0.5, 0.0])


def test_arguments_follow_the_argument_rule() -> None:
    """float32 arrays and Python complex numbers convert to complex<f32>
    without loss; complex128 does not (a BcastError naming the argument)."""
    text = ("func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {\n"
            "  %0 = bcast.negate %a : tensor<2xcomplex<f32>>\n  func.return %0 : tensor<2xcomplex<f32>>\n}\n")
    f = bcast.compile(text, backend="numpy")
    assert f(np.array([1.0, 2.0], np.float32)).tolist() == [-1, -2]
    assert f([1 + 2j, -1j]).tolist() == [-1 - 2j, 1j]
    with pytest.raises(bcast.BcastError, match=r"arg0 \(%a\): an array of complex128"):
        f(np.array([1j, 2j]))
    out = np.empty(2, np.complex64)
    assert f(np.array([1j, 2], np.complex64), out=out) is out and out.tolist() == [-1j, -2]


# --------------------------------------------------------------------------
# The property: random chains of ops on random complex arrays
# --------------------------------------------------------------------------

CHAIN_BINARY = ("add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "atan2")
CHAIN_UNARY = ("negate", "sign", "exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt",
               "rsqrt", "sine", "cosine", "tan", "tanh", "logistic", "cbrt")
PARTS = (0.0, -0.0, 1.0, -2.5, 0.5, 3e9, -1e-30, math.inf, -math.inf, math.nan)
"""Parts the random arrays draw from, besides random normals: zeros of each
sign, infinities, NaN, a large and a tiny value."""


@st.composite
def chains(draw):
    t = draw(st.sampled_from(["complex<f32>", "complex<f64>"]))
    shape = draw(st.sampled_from([(4,), (2, 3), (3, 1), (0, 2)]))
    steps = draw(st.lists(st.one_of(st.tuples(st.just("binary"), st.sampled_from(CHAIN_BINARY),
                                              st.integers(0, 2), st.integers(0, 2)),
                                    st.tuples(st.just("unary"), st.sampled_from(CHAIN_UNARY),
                                              st.integers(0, 2), st.just(0))),
                          min_size=1, max_size=5))
    seed = draw(st.integers(0, 2**16))
    return t, shape, steps, seed


def _random(rng: np.random.Generator, shape, dtype) -> np.ndarray:
    x = (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)
    special = rng.random(shape) < 0.3
    re, im = rng.choice(PARTS, shape), rng.choice(PARTS, shape)
    x.real = np.where(special & (rng.random(shape) < 0.7), re, x.real)
    x.imag = np.where(special & (rng.random(shape) < 0.7), im, x.imag)
    return x


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal parts (NaN against NaN), finite parts within a relative 1e-5
    (the backends' libraries round functions differently)."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        with np.errstate(invalid="ignore", over="ignore"):
            ok = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.isfinite(g) & np.isfinite(w)
                                                          & (np.abs(g - w) <= 1e-5 * np.maximum(np.abs(w), 1e-30)))
        if not ok.all():
            return False
    return True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_random_chains_agree_on_every_backend(chain) -> None:
    """Each step applies an op to earlier values; numpy and array-api (on
    NumPy and on array_api_strict) give the reference's values, NaN where it
    has NaN; C refuses, located."""
    t, shape, steps, seed = chain
    ty = f"tensor<{'x'.join(map(str, shape))}x{t}>"
    names, lines = ["%x", "%y", "%z"], []
    for k, (arity, op, i, j) in enumerate(steps):
        i, j = i % len(names), j % len(names)
        r = f"%s{k}"
        if arity == "binary":
            lines.append(f"{r} = bcast.{op} {names[i]}, {names[j]} : ({ty}, {ty}) -> {ty}")
        else:
            lines.append(f"{r} = bcast.{op} {names[i]} : {ty}")
        names.append(r)
    text = (f"func.func @main(%x: {ty}, %y: {ty}, %z: {ty}) -> {ty} {{\n  " + "\n  ".join(lines)
            + f"\n  func.return {names[-1]} : {ty}\n}}\n")
    rng = np.random.default_rng(seed)
    dtype = np.complex64 if t == "complex<f32>" else np.complex128
    args = [_random(rng, shape, dtype) for _ in range(3)]
    with np.errstate(all="ignore"):
        want = bcast.compile(text, backend="reference")(*args)
        for backend in ("numpy", "array-api"):
            assert _same(bcast.compile(text, backend=backend)(*args), want), backend
        xp = pytest.importorskip("array_api_strict")
        strict = bcast.compile(text, backend="array-api")(*[xp.asarray(a) for a in args])
        assert _same(np.asarray(strict), want), "array_api_strict"
    with pytest.raises(bcast.BcastError, match=r"not supported by bcast-lower-to-loops \(the c backend\)"):
        bcast.compile(text, backend="c")


# --------------------------------------------------------------------------
# JAX: jnp complex programs, exported, run by bcast to XLA's values
# --------------------------------------------------------------------------


def _jax():
    return pytest.importorskip("jax")


def _jnp():
    return _jax().numpy


JAX_PROGRAMS = {
    "arithmetic": lambda a, b: (a + b) * a - b / (a + 2),
    "with_floats": lambda a, b: a * a.real + b.imag * 1j,
    "functions": lambda a, b: _jnp().exp(a) + _jnp().sqrt(b) - _jnp().tanh(a) * _jnp().log1p(b),
    "abs_sign_conj": lambda a, b: _jnp().abs(a) + _jnp().sign(b) * _jnp().conj(a),
    "complex_of_parts": lambda a, b: _jax().lax.complex(a.real, b.imag) - _jnp().angle(a),
    "compare_select": lambda a, b: _jnp().where(a == b, a, b * 2),
    "matmul_sum": lambda a, b: (a @ b.T).sum(axis=0),
    "broadcast_rows": lambda a, b: a[:, :1] * b + _jnp().mean(b, axis=1, keepdims=True),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", JAX_PROGRAMS)
def test_jnp_complex_programs_equal_xla(name: str, backend: str) -> None:
    jax = _jax()
    fn = JAX_PROGRAMS[name]
    rng = np.random.default_rng(len(name))
    a, b = _complex(rng, (3, 4)), _complex(rng, (3, 4))
    want = np.asarray(jax.jit(fn)(a, b))
    got = bcast.compile(bcast.from_jax(fn, a, b), backend=backend)(a, b)
    got = got[0] if isinstance(got, tuple) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["arithmetic", "functions", "abs_sign_conj", "complex_of_parts", "matmul_sum"])
def test_jnp_complex_export_goes_back_to_xla(capsys, tmp_path, name: str) -> None:
    """JAX's export of a complex program, through bcast's standard pipeline
    and ``-t stablehlo``: jaxlib verifies it and XLA runs it to the values
    of the original export."""
    _jax()
    from bcast.tools import opt
    from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo
    from bcast.tools.targets import STANDARD_PIPELINE

    fn = JAX_PROGRAMS[name]
    rng = np.random.default_rng(len(name) + 1)
    args = [_complex(rng, (3, 4)) for _ in range(2)]
    path = tmp_path / f"{name}.mlir"
    path.write_text(lower_to_stablehlo(fn, *args))
    code = opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert "complex<f32>" in out and "bcast." not in out
    verify_stablehlo(out)
    for got, want in zip(run_stablehlo(out, args), run_stablehlo(path.read_text(), args), strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
