"""Fused reductions on the NumPy backend: blocks of rows, threads, a short
last block, every element kind, and no full-size temporary.

``numpy_emitter.BLOCK_BYTES`` is made small so that small arrays run as many
blocks (over two worker threads) and the tests stay fast."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest

import bcast
from bcast.lowering import numpy_emitter
from bcast.tests.programs import as_tuple

ROWS, COLS = 203, 64
"""With 4 KiB blocks of f32 rows: 16 rows a block, 13 blocks, the last of 11."""


def softmax(t: str, e: str, rows: int = ROWS) -> str:
    return f"""
func.func @main(%x: tensor<{t}x{e}>) -> tensor<{t}x{e}> {{
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{rows}x1x{e}>
  %d = bcast.subtract %x, %m : (tensor<{t}x{e}>, tensor<{rows}x1x{e}>) -> tensor<{t}x{e}>
  %x1 = bcast.exponential %d : tensor<{t}x{e}>
  %s = bcast.reduce add %x1, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{rows}x1x{e}>
  %r = bcast.divide %x1, %s : (tensor<{t}x{e}>, tensor<{rows}x1x{e}>) -> tensor<{t}x{e}>
  func.return %r : tensor<{t}x{e}>
}}
"""


def layernorm(t: str, e: str) -> str:
    return f"""
func.func @main(%x: tensor<{t}x{e}>, %g: tensor<{COLS}x{e}>) -> tensor<{t}x{e}> {{
  %inv = bcast.constant dense<{1 / COLS}> : tensor<{e}>
  %eps = bcast.constant dense<1.0e-3> : tensor<{e}>
  %s = bcast.reduce add %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %mu = bcast.multiply %s, %inv : (tensor<{ROWS}x1x{e}>, tensor<{e}>) -> tensor<{ROWS}x1x{e}>
  %d = bcast.subtract %x, %mu : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %q = bcast.multiply %d, %d : (tensor<{t}x{e}>, tensor<{t}x{e}>) -> tensor<{t}x{e}>
  %v = bcast.reduce add %q, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %w = bcast.multiply %v, %inv : (tensor<{ROWS}x1x{e}>, tensor<{e}>) -> tensor<{ROWS}x1x{e}>
  %we = bcast.add %w, %eps : (tensor<{ROWS}x1x{e}>, tensor<{e}>) -> tensor<{ROWS}x1x{e}>
  %r = bcast.rsqrt %we : tensor<{ROWS}x1x{e}>
  %n = bcast.multiply %d, %r : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %o = bcast.multiply %n, %g : (tensor<{t}x{e}>, tensor<{COLS}x{e}>) -> tensor<{t}x{e}>
  func.return %o : tensor<{t}x{e}>
}}
"""


def logsumexp_xla(t: str, e: str) -> str:
    """No keepdims, a reduced-shape result, broadcast_dimensions."""
    return f"""
module attributes {{bcast.semantics = "xla"}} {{
func.func @main(%x: tensor<{t}x{e}>) -> (tensor<{ROWS}x{e}>, tensor<{ROWS}x{e}>) {{
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<{t}x{e}>) -> tensor<{ROWS}x{e}>
  %d = bcast.subtract %x, %m broadcast_dimensions = [0] : (tensor<{t}x{e}>, tensor<{ROWS}x{e}>) -> tensor<{t}x{e}>
  %x1 = bcast.exponential %d : tensor<{t}x{e}>
  %s = bcast.reduce add %x1, dims = [1] : (tensor<{t}x{e}>) -> tensor<{ROWS}x{e}>
  %l = bcast.log %s : tensor<{ROWS}x{e}>
  %r = bcast.add %l, %m : (tensor<{ROWS}x{e}>, tensor<{ROWS}x{e}>) -> tensor<{ROWS}x{e}>
  func.return %r, %m : tensor<{ROWS}x{e}>, tensor<{ROWS}x{e}>
}}
}}
"""


def integer_rows(t: str, e: str) -> str:
    """Every integer kind of reduction, fused, wrapping."""
    return f"""
func.func @main(%x: tensor<{t}x{e}>) -> tensor<{t}x{e}> {{
  %s = bcast.reduce add %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %p = bcast.reduce multiply %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %a = bcast.reduce and %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %o = bcast.reduce or %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %y = bcast.reduce xor %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %mn = bcast.reduce minimum %x, dims = [1] keepdims : (tensor<{t}x{e}>) -> tensor<{ROWS}x1x{e}>
  %0 = bcast.subtract %x, %s : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %1 = bcast.multiply %0, %p : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %2 = bcast.xor %1, %a : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %3 = bcast.add %2, %o : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %4 = bcast.subtract %3, %y : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  %5 = bcast.maximum %4, %mn : (tensor<{t}x{e}>, tensor<{ROWS}x1x{e}>) -> tensor<{t}x{e}>
  func.return %5 : tensor<{t}x{e}>
}}
"""


CASES = [
    (softmax, "f32"), (softmax, "f16"), (softmax, "f64"),
    (layernorm, "f32"), (layernorm, "f16"),
    (logsumexp_xla, "f32"),
    (integer_rows, "i8"), (integer_rows, "i32"), (integer_rows, "ui16"), (integer_rows, "i64"),
]  # fmt: skip


DTYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8", "i32": "int32",
          "ui16": "uint16", "i64": "int64"}


def inputs(program, element: str, rng: np.random.Generator) -> list[np.ndarray]:
    dtype = np.dtype(DTYPES[element])
    if dtype.kind == "f":
        x = (rng.standard_normal((ROWS, COLS)) * 3).astype(dtype)
        x[5, 7] = np.nan  # one row of NaN through max, exp, sum
        x[9, :] = -np.inf
        args = [x]
    else:
        info = np.iinfo(dtype)
        args = [rng.integers(info.min, info.max, (ROWS, COLS), dtype=dtype, endpoint=True)]
    if program is layernorm:
        args.append(rng.standard_normal(COLS).astype(dtype))
    return args


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(numpy_emitter, "BLOCK_BYTES", 4096)
    monkeypatch.setenv("BCAST_NUM_THREADS", "2")


@pytest.mark.parametrize("program,element", CASES, ids=[f"{p.__name__}-{e}" for p, e in CASES])
def test_blocked_fused_reductions_match_the_reference(program, element, small_blocks):
    src = program(f"{ROWS}x{COLS}", element)
    generated = bcast.compile(src, backend="numpy")
    assert "blocks of" in generated.python_source, "the fusion must run as several blocks"
    assert generated.python_source.count("rt.run_blocks") == 1, "one fusion"
    args = inputs(program, element, np.random.default_rng(7))
    want = as_tuple(bcast.compile(src, backend="reference")(*args))
    got = as_tuple(generated(*args))
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind == "f":
            # the same rows reduced the same way: equal up to the ulps NumPy's
            # SIMD loops may differ by between block and whole-array calls
            np.testing.assert_allclose(g, w, rtol=4 * np.finfo(w.dtype).eps, atol=0, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)


def test_no_full_size_temporary():
    """With out=, a fused softmax allocates nothing of the iteration shape:
    temporaries are block buffers (kept across calls), the reductions write
    into them, and the broadcasts of the reduced values are views. (4 MiB
    over 1 MiB blocks, so Python's own allocations are noise.)"""
    src = softmax("1024x1024", "f32", rows=1024)
    f = bcast.compile(src, backend="numpy")
    x = np.random.default_rng(1).standard_normal((1024, 1024)).astype(np.float32)
    out = np.empty_like(x)
    f(x, out=out)  # first call: block buffers are allocated, then kept
    tracemalloc.start()
    try:
        f(x, out=out)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < x.nbytes / 16, f"peak {peak} bytes for a {x.nbytes}-byte result"


def test_worker_threads_raise_no_numpy_warnings(small_blocks):
    """NumPy's error state is per thread; the workers that run blocks must
    ignore floating-point errors as the generated function does (a NaN row,
    an overflowing exp), or warnings reach the user from every block."""
    src = softmax(f"{ROWS}x{COLS}", "f32")
    (x,) = inputs(softmax, "f32", np.random.default_rng(2))
    x[3, :] = np.inf  # inf - inf
    x[4, 0] = 1e30
    f = bcast.compile(src, backend="numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f(x)


@pytest.mark.parametrize("rows", [3, ROWS])
def test_a_reduction_of_a_broadcast_view_sees_the_stretched_dims(rows) -> None:
    """A broadcast that CSE shares between a reduction and an elementwise op
    stays a view inside the fusion; the reduction must sum the stretched
    rows, not the view's one (found by the property test of the numpy
    backend: ``ValueError: non-broadcastable operand``)."""
    source = f"""
module attributes {{bcast.semantics = "numpy"}} {{
func.func @main(%a: tensor<1x{rows}xf32>) -> tensor<{rows}x{rows}xf32> {{
  %b = bcast.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x{rows}xf32>) -> tensor<{rows}x{rows}xf32>
  %s = bcast.reduce add %b, dims = [1] : (tensor<{rows}x{rows}xf32>) -> tensor<{rows}xf32>
  %r = bcast.add %a, %s broadcast_dimensions = [0] : (tensor<1x{rows}xf32>, tensor<{rows}xf32>) -> tensor<{rows}x{rows}xf32>
  func.return %r : tensor<{rows}x{rows}xf32>
}}
}}
"""
    a = np.linspace(-1, 2, rows, dtype=np.float32).reshape(1, rows)
    expected = a + np.broadcast_to(a, (rows, rows)).sum(axis=1, dtype=np.float32)[:, None]
    for backend in ("numpy", "reference"):
        np.testing.assert_allclose(as_tuple(bcast.compile(source, backend=backend)(a))[0], expected, rtol=1e-5)
