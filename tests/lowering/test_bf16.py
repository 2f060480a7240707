"""bf16 programs on every backend, with ``jax.jit`` as the oracle
(docs/semantics.md, "bf16").

JAX programs in mixed precision hold bf16 values and compute elementwise
ops on them; XLA's CPU backend computes each such op in f32 and rounds the
result to bf16 (round to nearest even), which is what bcast's definition
says, so elementwise results are equal bit for bit. ``jnp.sum`` and
``jnp.mean`` of bf16 convert to f32 before the ``reduce`` (JAX's choice), so
their sums differ only by reassociation of f32 sums, and ``exp``/``log``/
``pow`` by XLA's own f32 approximations: one bf16 ulp at most.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bcast
from bcast.tools import opt
from bcast.tools.targets import STANDARD_PIPELINE

ml_dtypes = pytest.importorskip("ml_dtypes")
jax = pytest.importorskip("jax")
jnp = jax.numpy

from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo  # noqa: E402

BACKENDS = ("reference", "numpy", "array-api", "c")
BF16 = ml_dtypes.bfloat16

_rng = np.random.default_rng(22)
X = (_rng.standard_normal((4, 8)) * 3).astype(BF16)
ROW = (_rng.standard_normal(8) * 3).astype(BF16)
W = _rng.standard_normal((8, 5)).astype(BF16)
INTS = _rng.integers(-300_000_000, 300_000_000, (4, 8)).astype(np.int32)
WIDE = (_rng.standard_normal((4, 8)) * 1e3).astype(np.float32)


def _layernorm(x, g):
    mean = x.mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5) * g


PROGRAMS = {
    # name: (function, arguments, bf16 ulps allowed against XLA)
    "elementwise": (lambda x, r: (x + r) * x - r / x, (X, ROW), 0),
    "broadcast_compare_select": (lambda x, r: jnp.where(x > r, x, -r), (X, ROW), 0),
    "unary": (lambda x, r: jnp.tanh(x) + jnp.sin(r) + jnp.floor(x) + jnp.abs(r), (X, ROW), 0),
    "exp": (lambda x: jnp.exp(x), (X,), 0),
    "pow_log": (lambda x, r: jnp.abs(x) ** r + jnp.log(jnp.abs(x)) + jax.lax.rsqrt(jnp.abs(r)), (X, ROW), 2),
    "remainder_round_atan2": (lambda x, r: jnp.fmod(x, r) + jnp.round(r) + jnp.arctan2(x, r), (X, ROW), 0),
    "sum": (lambda x, r: jnp.sum(x * r, axis=1), (X, ROW), 0),
    "max_min": (lambda x, r: jnp.max(x + r, axis=0) - jnp.min(x, axis=0), (X, ROW), 0),
    "softmax": (lambda x: jax.nn.softmax(x, axis=-1), (X,), 1),
    "layernorm": (_layernorm, (X, ROW), 1),
    "convert_from_f32": (lambda w: (w * 3.3).astype(jnp.bfloat16), (WIDE,), 0),
    "convert_to_f32": (lambda x: x.astype(jnp.float32) * 3.3, (X,), 0),
    "convert_from_i32": (lambda i: i.astype(jnp.bfloat16), (INTS,), 0),
    "convert_to_i32": (lambda x: (x * 100).astype(jnp.int32), (X,), 0),
    "mixed_promotion": (lambda x, w: x.astype(jnp.float32) + w, (X, WIDE), 0),
    "matmul": (lambda x, w: x @ w, (X, W), 1),
    "matmul_bias_gelu": (lambda x, w, b: jax.nn.gelu(x @ w + b), (X, W, W[0]), 1),
}


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """bf16 values apart, on the bits' total order (NaN against NaN: 0)."""
    def ordered(a):
        bits = a.view(np.uint16).astype(np.int32)
        return np.where(bits & 0x8000, 0x8000 - bits, bits)

    apart = np.abs(ordered(got) - ordered(want))
    return np.where(np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32)), 0, apart)


def exact_xla(fn, *args):
    """``jax.jit(fn)(*args)`` rounding every bf16 result: XLA's default
    ``xla_allow_excess_precision`` lets it skip the rounding of a bf16 op
    whose result it converts to f32 (``jnp.sum(x * y)`` multiplies in f32);
    bcast rounds each op, as the StableHLO spec does (docs/semantics.md, "bf16")."""
    return jax.jit(fn).lower(*args).compile({"xla_allow_excess_precision": False})(*args)


@pytest.fixture(scope="module")
def modules():
    return {name: bcast.from_jax(fn, *args) for name, (fn, args, _) in PROGRAMS.items()}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_bf16_program_equals_jax_jit(modules, name: str, backend: str) -> None:
    fn, args, ulps = PROGRAMS[name]
    want = np.asarray(exact_xla(fn, *args))
    got = bcast.compile(modules[name], backend=backend)(*args)
    got = got[0] if isinstance(got, tuple) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype == BF16:
        assert _ulps(got, want).max(initial=0) <= ulps, (got, want)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bf16_rounds_each_op_to_nearest_even_and_keeps_nan(backend: str) -> None:
    """``1 + 2^-8`` is a tie between two bf16 values: it rounds to the even
    one (1.0); ``1 + 3*2^-8`` rounds up; ``inf - inf`` is a NaN, kept."""
    text = """func.func @main(%a: tensor<3xbf16>, %b: tensor<3xbf16>) -> tensor<3xbf16> {
      %0 = bcast.add %a, %b : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
      func.return %0 : tensor<3xbf16>
    }"""
    a = np.array([1.0, 1.0, np.inf], BF16)
    b = np.array([2.0**-8, 3 * 2.0**-8, -np.inf], BF16)
    got = bcast.compile(text, backend=backend)(a, b)
    assert got.dtype == BF16
    assert got[:2].tolist() == [1.0, 1.0 + 2.0**-6]
    assert np.isnan(np.float32(got[2]))
    want = np.asarray(jax.jit(jnp.add)(a, b))
    assert (got.view(np.uint16)[:2] == want.view(np.uint16)[:2]).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_bf16_sum_accumulates_in_f32(backend: str) -> None:
    """A ``reduce add`` written on bf16 sums in f32 and rounds once
    (docs/semantics.md): 256 + 7 ones is 263, 264 in bf16. XLA's raw bf16
    ``reduce`` rounds every partial sum (256: each ``+1`` is a tie to even),
    as its f16 one does; ``jnp.sum`` itself converts to f32 first."""
    text = """func.func @main(%x: tensor<1x8xbf16>) -> tensor<1xbf16> {
      %0 = bcast.reduce add %x, dims = [1] : (tensor<1x8xbf16>) -> tensor<1xbf16>
      func.return %0 : tensor<1xbf16>
    }"""
    x = np.array([[256] + [1] * 7], BF16)
    assert bcast.compile(text, backend=backend)(x).tolist() == [264.0]
    assert np.asarray(jax.jit(jnp.sum)(x)) == 264.0


@pytest.mark.parametrize("name", ["elementwise", "softmax", "convert_from_i32", "matmul_bias_gelu"])
def test_bf16_export_goes_back_to_xla(capsys, tmp_path: Path, name: str) -> None:
    """JAX's export, through bcast's standard pipeline and ``-t stablehlo``:
    jaxlib verifies it and XLA runs it to the values of the original export."""
    fn, args, ulps = PROGRAMS[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(lower_to_stablehlo(fn, *args))
    code = opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert "bf16" in out and "bcast." not in out
    verify_stablehlo(out)
    for got, want in zip(run_stablehlo(out, args), run_stablehlo(path.read_text(), args), strict=True):
        assert got.dtype == want.dtype == BF16
        assert _ulps(got, want).max(initial=0) <= ulps


def test_bf16_without_ml_dtypes_is_a_located_error(tmp_path: Path) -> None:
    """Without ml_dtypes (NumPy has no bfloat16) a bf16 program is refused
    where its first bf16 type is, with the package to install; nothing else
    about bcast changes (f32 programs run)."""
    path = tmp_path / "half.mlir"
    path.write_text("func.func @main(%x: tensor<3xf32>) -> tensor<3xbf16> {\n"
                    "  %0 = bcast.convert %x : (tensor<3xf32>) -> tensor<3xbf16>\n"
                    "  func.return %0 : tensor<3xbf16>\n}\n")
    script = (
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "from bcast.tools import opt\n"
        f"sys.exit(opt.main([{str(path)!r}]))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert "half.mlir:1:1: error: 'func.func' op result 0: element type bf16 is not available" in run.stderr
    assert "ml_dtypes" in run.stderr
