"""The C backend (``bcast-opt -t c``, ``backend="c"``) against the reference.

- random programs of every mode, with reductions, and over every element
  type (f16, i1, unsigned, 64-bit), agree with the oracle;
- every runnable example agrees with the reference evaluator;
- docs/semantics.md's integer edge cases, float -> int conversion of NaN,
  infinities and out-of-range values, f16 and i1;
- the runtime: no compiler is a clear error, builds are cached (once, also
  under concurrent builds), ``backend=None`` picks C when a compiler exists;
- the generated C of every example, built with ``-fsanitize=address,undefined``
  into an executable that calls each function on random bytes, runs clean.
(``out=`` aliasing is in ``test_data_safety.py``, which covers this backend.)
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, Builtin, IndexType, IntegerType, MemRefType, ModuleOp
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.dialects.memref import MemRef
from xdsl.dialects.scf import Scf
from xdsl.parser import Parser

import bcast
from bcast.ir import rules
from bcast.lowering import c_emitter, c_runtime
from bcast.passes.errors import PassError
from bcast.passes.loops import stack_allocs
from bcast.tests.budget import examples, quick_sample
from bcast.tests.lowering.test_backends import INT_EDGES
from bcast.tests.programs import DTYPES, MODES, as_tuple, assert_results, programs
from bcast.tests.test_examples_run import CASES, RUN_TIME_ERRORS
from bcast.tools import api, driver, targets
from bcast.tools.run import main as run_main
from bcast.tools.run import random_inputs

pytestmark = pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")

SETTINGS = settings(max_examples=examples(20), deadline=None, suppress_health_check=list(HealthCheck))
RUNNABLE = [case for case in CASES if case.id not in RUN_TIME_ERRORS]


def refused_on_c(text: str) -> bool:
    """Whether an example holds complex values, which the C backend refuses
    at the first function or op that has them (docs/c-backend.md, "Complex
    numbers")."""
    return any(name in text for name in rules.COMPLEX_PARTS)


def standard_c(text: str, name: str) -> str:
    """The C translation unit of ``text`` after the standard pipeline,
    lowered to loops as the C target lowers it."""
    module = driver.load(text, name, None, pipeline=api.STANDARD_PIPELINE)
    return c_emitter.emit_module(targets.loop_ir(module))[0]


def assert_close(got, want, what: str = "") -> None:
    got, want = as_tuple(got), as_tuple(want)
    assert len(got) == len(want), what
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (what, g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind == "f":
            # absolute error up to 1e-6 of the largest result: a contraction (the GEMM, the convolution's
            # kernel) sums in another order than the reference, and a value that cancels to near 0 keeps
            # the rounding of its larger terms
            finite = np.abs(w[np.isfinite(w)])
            scale = max(1.0, float(finite.max())) if finite.size else 1.0
            np.testing.assert_allclose(g, w, rtol=2e-6 if w.dtype != np.float16 else 1e-3,
                                       atol=1e-6 * scale, equal_nan=True, err_msg=what)
        else:
            np.testing.assert_array_equal(g, w, err_msg=what)


# --------------------------------------------------------------------------
# Random programs
# --------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@SETTINGS
@given(data=st.data())
def test_c_backend_matches_the_oracle(mode, data):
    program = data.draw(programs(mode=mode, max_ops=6, reductions=True))
    got = bcast.compile(program.text, backend="c")(*program.inputs)
    assert_results(program, got)


@SETTINGS
@given(data=st.data())
def test_c_backend_matches_the_oracle_on_every_element_type(data):
    program = data.draw(programs(max_ops=5, dtypes=tuple(DTYPES), reductions=True))
    got = bcast.compile(program.text, backend="c")(*program.inputs)
    assert_results(program, got)


# --------------------------------------------------------------------------
# Examples
# --------------------------------------------------------------------------


@pytest.mark.parametrize("path, index, text, entry", quick_sample(RUNNABLE))  # each builds a library
def test_example_runs_on_the_c_backend(request, path, index, text, entry):
    if refused_on_c(text):
        with pytest.raises(bcast.BcastError, match=r"^<source>:\d+:\d+: error: .* is not supported by "
                                                   r"bcast-lower-to-loops \(the c backend\) \(its element type complex"):
            bcast.compile(text, backend="c", entry=entry)
        return
    reference = bcast.compile(text, backend="reference", entry=entry)
    inputs = random_inputs(reference.function, seed=index)
    got = bcast.compile(text, backend="c", entry=entry)(*inputs)
    assert_close(got, reference(*inputs), f"{path.name}:{index}:@{entry}")


def test_a_call_of_a_declaration_is_the_same_run_time_error():
    for case_id, errors in RUN_TIME_ERRORS.items():
        case = next(c for c in CASES if c.id == case_id)
        path, index, text, entry = case.values
        inputs = random_inputs(bcast.compile(text, backend="reference", entry=entry).function, index)
        with pytest.raises(bcast.BcastError) as info:
            bcast.compile(text, backend="c", entry=entry)(*inputs)
        assert str(info.value) == errors["numpy"]


# --------------------------------------------------------------------------
# Edge cases of docs/semantics.md
# --------------------------------------------------------------------------



def test_integer_edge_cases():
    a = np.array([-7, 7, -2147483648, 5, -1, 3], np.int32)
    b = np.array([2, -2, -1, 0, -3, 2], np.int32)
    u = np.array([7, 0, 255], np.uint8)
    s = np.array([-128, 64, -1, 5], np.int8)
    q, r, uq, sra, srl, sl, p = bcast.compile(INT_EDGES, backend="c")(a, b, u, s)
    assert q.tolist() == [-3, -3, -2147483648, -1, 0, 1]
    assert r.tolist() == [-1, 1, 0, 5, -1, 1]
    assert uq.tolist() == [255, 255, 255]
    assert sra.tolist() == [-1, 32, -1, 0]
    assert srl.tolist() == [0, 32, 0, 0]
    assert sl.tolist() == [0, -128, 0, 40]
    assert p.tolist() == [49, 0, 0, 1, -1, 9]


def binary_program(op: str, t: str, n: int) -> str:
    tt = f"tensor<{n}x{t}>"
    return f"""
func.func @main(%a: {tt}, %b: {tt}) -> {tt} {{
  %r = bcast.{op} %a, %b : ({tt}, {tt}) -> {tt}
  func.return %r : {tt}
}}
"""


INT_TYPES = ["i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"]
INT_OPS = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum",
           "shift_left", "shift_right_logical", "shift_right_arithmetic"]


@pytest.mark.parametrize("t", INT_TYPES)
def test_every_integer_op_on_edge_values(t):
    """Every pair of edge values (0, +-1, MIN, MAX, the width...) through
    every integer op, in one module per type."""
    dtype = DTYPES[t]
    info = np.iinfo(dtype)
    bits = info.bits
    edge = sorted({0, 1, 2, 3, bits - 1, bits, bits + 1, info.max, info.min, info.max - 1, info.min + 1}
                  | ({-1, -2, -bits} if info.min < 0 else set()))
    a = np.array([x for x in edge for _ in edge], dtype)
    b = np.array([y for _ in edge for y in edge], dtype)
    n = a.size
    tt = f"tensor<{n}x{t}>"
    lines = [f"  %r{k} = bcast.{op} %a, %b : ({tt}, {tt}) -> {tt}" for k, op in enumerate(INT_OPS)]
    text = (f"func.func @main(%a: {tt}, %b: {tt}) -> ({', '.join([tt] * len(INT_OPS))}) {{\n"
            + "\n".join(lines) + f"\n  func.return {', '.join(f'%r{k}' for k in range(len(INT_OPS)))} : "
            + ", ".join([tt] * len(INT_OPS)) + "\n}\n")
    want = bcast.compile(text, backend="reference")(a, b)
    got = bcast.compile(text, backend="c")(a, b)
    for op, g, w in zip(INT_OPS, got, want):
        np.testing.assert_array_equal(g, w, err_msg=f"{op} {t}")


@pytest.mark.parametrize("src", ["f16", "f32", "f64"])
def test_float_to_integer_conversion_of_nan_infinities_and_out_of_range_values(src):
    values = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 300.7, -300.7, 2.0**63, -(2.0**63),
                       65504.0, -0.0, 0.99, -0.99, 127.5, -128.5, 255.9], np.float64)
    with np.errstate(over="ignore"):
        x = values.astype(DTYPES[src])
    n = x.size
    outs = ["i1", *INT_TYPES]
    types = [f"tensor<{n}x{t}>" for t in outs]
    lines = [f"  %r{k} = bcast.convert %x : (tensor<{n}x{src}>) -> {tt}" for k, tt in enumerate(types)]
    text = (f"func.func @main(%x: tensor<{n}x{src}>) -> ({', '.join(types)}) {{\n" + "\n".join(lines)
            + f"\n  func.return {', '.join(f'%r{k}' for k in range(len(outs)))} : {', '.join(types)}\n}}\n")
    want = bcast.compile(text, backend="reference")(x)
    got = bcast.compile(text, backend="c")(x)
    for t, g, w in zip(outs, got, want):
        np.testing.assert_array_equal(g, w, err_msg=f"{src} -> {t}")


F16_AND_BOOL = """
func.func @main(%x: tensor<5x7xf16>, %y: tensor<7xf16>, %p: tensor<5x1xi1>, %q: tensor<7xi1>)
    -> (tensor<5x7xf16>, tensor<5xf16>, tensor<5x7xi1>, tensor<5x7xf16>, tensor<5x7xf32>, tensor<5x7xi1>) {
  %s = bcast.add %x, %y : (tensor<5x7xf16>, tensor<7xf16>) -> tensor<5x7xf16>
  %e = bcast.exponential %s : tensor<5x7xf16>
  %m = bcast.reduce add %e, dims = [1] : (tensor<5x7xf16>) -> tensor<5xf16>
  %c = bcast.compare GT, %x, %y : (tensor<5x7xf16>, tensor<7xf16>) -> tensor<5x7xi1>
  %a = bcast.and %p, %q : (tensor<5x1xi1>, tensor<7xi1>) -> tensor<5x7xi1>
  %z = bcast.xor %a, %c : (tensor<5x7xi1>, tensor<5x7xi1>) -> tensor<5x7xi1>
  %sel = bcast.select %z, %x, %e : (tensor<5x7xi1>, tensor<5x7xf16>, tensor<5x7xf16>) -> tensor<5x7xf16>
  %w = bcast.convert %sel : (tensor<5x7xf16>) -> tensor<5x7xf32>
  %mx = bcast.maximum %x, %y : (tensor<5x7xf16>, tensor<7xf16>) -> tensor<5x7xf16>
  func.return %mx, %m, %c, %sel, %w, %z
      : tensor<5x7xf16>, tensor<5xf16>, tensor<5x7xi1>, tensor<5x7xf16>, tensor<5x7xf32>, tensor<5x7xi1>
}
"""


def test_f16_and_i1():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 7)).astype(np.float16)
    x[0, 0], x[1, 2] = np.nan, np.inf
    y = rng.standard_normal(7).astype(np.float16)
    y[3] = np.nan
    p, q = rng.random((5, 1)) < 0.5, rng.random(7) < 0.5
    want = bcast.compile(F16_AND_BOOL, backend="reference")(x, y, p, q)
    got = bcast.compile(F16_AND_BOOL, backend="c")(x, y, p, q)
    assert_close(got, want)
    assert np.isnan(got[0][0, 0]) and np.isnan(got[0][:, 3]).all()  # maximum propagates NaN


# --------------------------------------------------------------------------
# Generated code
# --------------------------------------------------------------------------

SOFTMAX = """
func.func @main(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4096x1024xf32>) -> tensor<4096x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  %e = bcast.exponential %d : tensor<4096x1024xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4096x1024xf32>) -> tensor<4096x1xf32>
  %r = bcast.divide %e, %s : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  func.return %r : tensor<4096x1024xf32>
}
"""


TWO_FUNCTIONS = """\
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = bcast.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
func.func @other(%x: tensor<4xi32>) -> tensor<4xi32> {
  func.return %x : tensor<4xi32>
}
"""


def test_the_c_emitter_prints_loop_ir_only():
    """Lowering is the C target's step (``targets.loop_ir``), not the
    emitter's: IR on tensors, or a module only partly lowered, is refused
    at the first op that is not loop IR."""
    module = driver.load(TWO_FUNCTIONS, "two.mlir", None, pipeline=api.STANDARD_PIPELINE)
    with pytest.raises(PassError) as e:
        c_emitter.emit_module(module)
    assert e.value.report.render() == f"two.mlir:1:1: error: 'func.func' op {c_emitter.NOT_LOOP_IR}"
    assert c_emitter.NOT_LOOP_IR == "the C emitter prints loop IR; run bcast-lower-to-loops first"
    unlowered = next(f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == "other").clone()
    partly = targets.loop_ir(module)
    partly.body.block.add_op(unlowered)
    with pytest.raises(PassError) as e:
        c_emitter.emit_program(partly)
    assert e.value.report.render() == f"two.mlir:5:1: error: 'func.func' op {c_emitter.NOT_LOOP_IR}"
    partly.body.block.erase_op(unlowered)
    assert "void bcast_other(" in c_emitter.emit_program(partly)[0]


def test_softmax_runs_rows_in_parallel_with_private_scratch():
    module = driver.load(SOFTMAX, "softmax", None, pipeline=api.STANDARD_PIPELINE)
    source, names = c_emitter.emit_module(targets.loop_ir(module))
    assert names == {"main": "bcast_main"}
    body = source.split("void bcast_main(const float *restrict x, float *restrict result0) {")[1]
    lines = [line.strip() for line in body.splitlines()]
    region = lines.index("#pragma omp parallel num_threads(bcast_threads())")
    assert lines[region + 1:region + 3] == ["{", "bcast_recount();"]
    loop = lines.index("#pragma omp for schedule(static) nowait")
    assert loop == region + 3 and lines[loop + 1].startswith("for (int64_t i")
    # the per-row scratch (max, sum, the row of exp values) is declared in
    # the parallel loop's body: private to each thread
    assert all(re.fullmatch(r"float v\d+\[1\];", s) for s in lines[loop + 2:loop + 4])
    assert any(re.fullmatch(r"float v\d+\[1024\];", s) for s in lines[loop:])
    assert body.count("expf(") == 1  # exp is computed once, stored in the row buffer
    # 16 MiB: over PREFETCH_BYTES, under STREAM_BYTES: the exp phase
    # prefetches argument rows ahead and the next result row for writing
    assert "BCAST_PREFETCH(x" in body and "BCAST_PREFETCH_WRITE(result0" in body and "bcast_stream(" not in body
    assert "#pragma omp simd reduction(+:" in body  # the sum vectorizes
    assert "#pragma omp simd reduction(max:" in body  # so does the max, with a NaN flag
    x = np.random.default_rng(1).standard_normal((4096, 1024), dtype=np.float32)
    got = bcast.compile(SOFTMAX, backend="c")(x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


# --------------------------------------------------------------------------
# Streaming (non-temporal) stores of large results
# --------------------------------------------------------------------------


def _streamed(shape: tuple[int, ...], t: str, op: str) -> str:
    """``op`` of x and a broadcast row (the last dimension), of element type ``t``."""
    full = f"tensor<{'x'.join(map(str, shape))}x{t}>"
    row = f"tensor<{shape[-1]}x{t}>"
    out = full.replace(f"x{t}>", "xi1>") if op == "compare" else full
    spelled = "compare GT," if op == "compare" else op
    return f"""
func.func @main(%x: {full}, %row: {row}) -> {out} {{
  %r = bcast.{spelled} %x, %row : ({full}, {row}) -> {out}
  func.return %r : {out}
}}
"""


# Each result is just over streaming_stores.STREAM_BYTES; an odd number of columns
# puts row starts at every offset within a cache line, and chunk ends mid-line.
STREAMED = [
    ((2049, 4097), "f32", "multiply"),
    ((4097, 4099), "f16", "add"),
    ((8193, 4097), "i8", "add"),
    ((4099, 8193), "f32", "compare"),  # an i1 result: one byte per element
    ((4194305,), "f64", "subtract"),  # one dimension: the parallel loop is the innermost one
]


@pytest.mark.parametrize("cache", ["machine", "none"])
@pytest.mark.parametrize("shape, t, op", STREAMED, ids=[f"{t}-{op}-{len(s)}d" for s, t, op in STREAMED])
def test_large_results_stream_and_equal_the_numpy_backend(shape, t, op, cache, monkeypatch, tmp_path):
    """Run on the machine's last-level cache (results it holds take the
    plain loop: ``bcast_cache_bytes``) and on none (every one streams)."""
    if cache == "none":
        monkeypatch.setenv("CC", " ".join([*c_runtime.require_compiler(), "-DBCAST_CACHE_BYTES=0"]))
        monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    src = _streamed(shape, t, op)
    source = standard_c(src, "streamed")
    assert "bcast_stream(result0 + " in source and source.count("bcast_stream_fence();") >= 1
    assert "#define BCAST_NO_STREAMS" not in source  # its helpers keep their streaming stores
    dtype = np.dtype({"f32": np.float32, "f16": np.float16, "i8": np.int8, "f64": np.float64}[t])
    rng = np.random.default_rng(3)
    x = (rng.integers(-128, 128, shape) if dtype.kind == "i" else rng.standard_normal(shape)).astype(dtype)
    row = x[(0,) * (len(shape) - 1)][::-1].copy()
    want = bcast.compile(src, backend="numpy")(x, row)
    fn = bcast.compile(src, backend="c")
    np.testing.assert_array_equal(fn(x, row), want)
    # into a caller's buffer that starts 1 element past a cache line boundary
    # (4-byte aligned or not): the partial lines are written correctly too
    buf = np.zeros(want.size + 64, want.dtype)
    start = (-buf.ctypes.data % 64) // want.itemsize + 1
    out = buf[start:start + want.size].reshape(want.shape)
    assert fn(x, row, out=out) is out
    np.testing.assert_array_equal(out, want)
    assert not buf[:start].any() and not buf[start + want.size:].any()


def test_small_results_use_plain_stores():
    source = standard_c(_streamed((1024, 1024), "f32", "multiply"), "small")
    assert "bcast_stream(" not in source.split("static inline void bcast_stream_fence")[1]


def test_a_program_that_never_streams_does_not_parse_immintrin():
    """immintrin.h was most of a small program's compile time (docs/performance.md,
    "Time to first result"); only the streaming helpers need it."""
    cc = c_runtime.require_compiler()
    small = standard_c(_streamed((64, 64), "f32", "multiply"), "small")
    large = standard_c(_streamed((2049, 4097), "f32", "multiply"), "large")

    def headers(source: str) -> str:
        done = subprocess.run([*cc, *c_runtime.flags(cc), "-H", "-fsyntax-only", "-x", "c", "-"],
                              input=source, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stderr

    assert "immintrin.h" not in headers(small)
    assert "immintrin.h" in headers(large) or "__SSE2__" not in subprocess.run(
        [*cc, "-march=native", "-dM", "-E", "-x", "c", "-"], input="", capture_output=True, text=True).stdout


COLLAPSED = """
func.func @main(%x: tensor<2x3x4x5xi32>, %y: tensor<3x4x5xi32>, %z: tensor<2x1x4x5xi32>,
                %w: tensor<5x4x3x2xi32>) -> tensor<2x3x4x5xi32> {
  %a = bcast.add %x, %y : (tensor<2x3x4x5xi32>, tensor<3x4x5xi32>) -> tensor<2x3x4x5xi32>
  %b = bcast.multiply %a, %z : (tensor<2x3x4x5xi32>, tensor<2x1x4x5xi32>) -> tensor<2x3x4x5xi32>
  %t = bcast.transpose %w, dims = [3, 2, 1, 0] : (tensor<5x4x3x2xi32>) -> tensor<2x3x4x5xi32>
  %c = bcast.subtract %b, %t : (tensor<2x3x4x5xi32>, tensor<2x3x4x5xi32>) -> tensor<2x3x4x5xi32>
  %d = bcast.add %x, %y : (tensor<2x3x4x5xi32>, tensor<3x4x5xi32>) -> tensor<2x3x4x5xi32>
  %e = bcast.maximum %c, %d : (tensor<2x3x4x5xi32>, tensor<2x3x4x5xi32>) -> tensor<2x3x4x5xi32>
  func.return %e : tensor<2x3x4x5xi32>
}
"""


def test_collapsed_loops_index_every_operand_right():
    """Loops over dims nothing broadcasts run as one (``collapsible_nest``);
    broadcast, transposed and full operands in one nest keep their indices."""
    rng = np.random.default_rng(5)
    shapes = [(2, 3, 4, 5), (3, 4, 5), (2, 1, 4, 5), (5, 4, 3, 2)]
    args = [rng.integers(-1000, 1000, s, dtype=np.int32) for s in shapes]
    x, y, z, w = args
    want = np.maximum((x + y) * z - w.transpose(3, 2, 1, 0), x + y)
    np.testing.assert_array_equal(bcast.compile(COLLAPSED, backend="c")(*args), want)
    full = COLLAPSED.replace("tensor<2x1x4x5xi32>", "tensor<2x3x4x5xi32>").replace(
        "tensor<5x4x3x2xi32>", "tensor<2x3x4x5xi32>").replace("dims = [3, 2, 1, 0]", "dims = [0, 1, 2, 3]")
    source = standard_c(full, "full")
    # y broadcasts along dim 0: the three trailing dims are one loop, dim 0 its own
    assert re.search(r"for \(int64_t (i\d+) = 0; \1 < 2; .*\n.*\n *for \(int64_t (i\d+) = 0; \2 < 60;", source)
    args[2], args[3] = rng.integers(-9, 9, (2, 3, 4, 5), dtype=np.int32), rng.integers(-9, 9, (2, 3, 4, 5),
                                                                                        dtype=np.int32)
    x, y, z, w = args
    np.testing.assert_array_equal(bcast.compile(full, backend="c")(*args), np.maximum((x + y) * z - w, x + y))


def test_large_softmax_prefetches_and_defers_its_streams_and_stays_exact():
    """At 32 MiB the exp phase prefetches the row two ahead (the last rows
    the last one) and streams out the previous row's tile, the last row
    after the loop: every row arrives, the last ones with NaN and -inf too."""
    src = SOFTMAX.replace("4096x1024", "4096x2048")
    source = standard_c(src, "softmax")
    assert "BCAST_PREFETCH(x + r" in source and re.search(r"if \((p\d+)\) bcast_stream\(\1 \+ b", source)
    x = np.random.default_rng(7).standard_normal((4096, 2048), dtype=np.float32)
    x[-1, :7] = [np.nan, np.inf, -np.inf, 0, 0, 0, 0]
    x[-2] = -np.inf
    got, want = bcast.compile(src, backend="c")(x), bcast.compile(src, backend="numpy")(x)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0, equal_nan=True)


def _batched_softmax(shape: tuple[int, ...], dims: list[int]) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}xf32>"
    kept = "x".join("1" if d in dims else str(n) for d, n in enumerate(shape))
    r = f"tensor<{kept}xf32>"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %m = bcast.reduce maximum %x, dims = {dims} keepdims : ({t}) -> {r}
  %d = bcast.subtract %x, %m : ({t}, {r}) -> {t}
  %e = bcast.exponential %d : {t}
  %s = bcast.reduce add %e, dims = {dims} keepdims : ({t}) -> {r}
  %o = bcast.divide %e, %s : ({t}, {r}) -> {t}
  func.return %o : {t}
}}
"""


def test_batched_softmax_runs_by_row_over_every_leading_dim():
    """A softmax over the last dim of a rank-3 tensor of 32 MiB has 16 x 512
    rows: the row loops collapse into one parallel loop, which prefetches
    and defers its streamed rows as the rank-2 softmax does (not phases over
    whole 512x1024 slices); NaN and -inf rows in the last slice included."""
    src = _batched_softmax((16, 512, 1024), [2])
    source = standard_c(src, "batched")
    assert re.search(r"for \(int64_t (i\d+) = 0; \1 < 8192; \1 \+= 1\)", source)
    assert "BCAST_PREFETCH(x + r" in source and re.search(r"if \((p\d+)\) bcast_stream\(\1 \+ b", source)
    assert not re.search(r"float v\d+\[524288\]", source)  # no slice-sized scratch
    x = np.random.default_rng(8).standard_normal((16, 512, 1024), dtype=np.float32)
    x[-1, -1, :3] = [np.nan, np.inf, -np.inf]
    x[-1, -2] = -np.inf
    got, want = bcast.compile(src, backend="c")(x), bcast.compile(src, backend="numpy")(x)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0, equal_nan=True)


@pytest.mark.parametrize("dims", [[3], [2, 3], [1, 3], [1, 2, 3]])
def test_reductions_over_trailing_and_inner_dims_of_rank_4(dims):
    """Rows are the leading dims no reduction reduces (``FusionOp.row_rank``):
    3, 2, 1 or 1 of them here; each split equals the NumPy backend."""
    src = _batched_softmax((3, 4, 5, 6), dims)
    x = np.random.default_rng(9).standard_normal((3, 4, 5, 6), dtype=np.float32)
    got, want = bcast.compile(src, backend="c")(x), bcast.compile(src, backend="numpy")(x)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0)


@pytest.mark.parametrize("rows", [256, 16])  # parallel, and below plan_parallel.PARALLEL_WORK
def test_row_scratch_too_large_for_the_stack_is_allocated_once_per_thread(rows):
    """A softmax row of 20000 f32 (80 KB, over stack_allocs.STACK_BYTES) keeps
    its exp values in heap scratch: allocated once per thread, before the
    row loop, and freed after it, not per row."""
    src = SOFTMAX.replace("4096x", f"{rows}x").replace("1024", "20000")
    source = standard_c(src, "softmax")
    body = source.split("void bcast_main(const float *restrict x, float *restrict result0) {")[1]
    assert body.count("bcast_alloc(80000)") == 1 and body.count("free(") == 1
    assert body.index("bcast_alloc(") < body.index(f"< {rows}; ") < body.index("free(")
    if rows == 256:
        assert body.index("#pragma omp parallel num_threads(bcast_threads())\n") < body.index("bcast_alloc(") \
            < body.index("#pragma omp for")
    x = np.random.default_rng(2).standard_normal((rows, 20000), dtype=np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(bcast.compile(src, backend="c")(x), e / e.sum(axis=1, keepdims=True), rtol=1e-5)


DYNAMIC = """
func.func private @pick(%x: tensor<4096x64xf32>, %i: index) -> (tensor<64xf32>, index) {
  %r = bcast.extract %x[%i] : (tensor<4096x64xf32>, index) -> tensor<64xf32>
  func.return %r, %i : tensor<64xf32>, index
}
func.func @main(%x: tensor<4096x64xf32>, %i: index, %j: index) -> (tensor<64xf32>, tensor<4096x64xf32>, index) {
  %a, %k = func.call @pick(%x, %i) : (tensor<4096x64xf32>, index) -> (tensor<64xf32>, index)
  %e = bcast.exponential %x : tensor<4096x64xf32>
  %b = bcast.extract %e[%k] : (tensor<4096x64xf32>, index) -> tensor<64xf32>
  %c = bcast.add %a, %b : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %d = bcast.assign %e[%j], %c : (tensor<4096x64xf32>, index, tensor<64xf32>) -> tensor<4096x64xf32>
  func.return %c, %d, %k : tensor<64xf32>, tensor<4096x64xf32>, index
}
"""


def test_dynamic_indices_are_checked_as_on_the_other_backends():
    """SSA indices on dims larger than 1 are bounds-checked in the C code; a
    failure (in a callee too, or after heap buffers were allocated) is the
    error the reference gives, located at the op, and leaves ``out=`` as it
    was; an index result comes back as a 0-d int64 array."""
    x = np.random.default_rng(4).standard_normal((4096, 64), dtype=np.float32)
    ref, c = bcast.compile(DYNAMIC, backend="reference"), bcast.compile(DYNAMIC, backend="c")
    for i, j in [(0, 4095), (4095, 0), (17, 17)]:
        assert_close(c(x, i, j), ref(x, i, j))
    assert c(x, 3, 5)[2].shape == () and c(x, 3, 5)[2].dtype == np.int64
    for i, j in [(4096, 0), (-1, 0), (0, 4096), (0, -(2**63)), (2**63 - 1, 0)]:
        with pytest.raises(bcast.BcastError) as want:
            ref(x, i, j)
        out = (np.full(64, 7, np.float32), np.full((4096, 64), 7, np.float32), np.full((), 7, np.int64))
        with pytest.raises(bcast.BcastError) as got:
            c(x, i, j, out=out)
        assert str(got.value) == str(want.value)
        assert all((o == 7).all() for o in out)


ONE_ROW = """
func.func @main(%x: tensor<1x20000xf32>, %y: tensor<3x4xf32>, %i: index) -> (tensor<1x20000xf32>, tensor<4xf32>) {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<1x20000xf32>) -> tensor<1x1xf32>
  %d = bcast.subtract %x, %m : (tensor<1x20000xf32>, tensor<1x1xf32>) -> tensor<1x20000xf32>
  %e = bcast.exponential %d : tensor<1x20000xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<1x20000xf32>) -> tensor<1x1xf32>
  %r = bcast.divide %e, %s : (tensor<1x20000xf32>, tensor<1x1xf32>) -> tensor<1x20000xf32>
  %k = bcast.extract %y[%i] : (tensor<3x4xf32>, index) -> tensor<4xf32>
  func.return %r, %k : tensor<1x20000xf32>, tensor<4xf32>
}
"""


def test_a_check_failing_after_a_freed_heap_buffer_frees_nothing_twice():
    """A one-row softmax frees its heap row buffer at the top level before
    the extract's check; the failure path must not free it again."""
    x = np.random.default_rng(6).standard_normal((1, 20000), dtype=np.float32)
    y = np.arange(12, dtype=np.float32).reshape(3, 4)
    c, ref = bcast.compile(ONE_ROW, backend="c"), bcast.compile(ONE_ROW, backend="numpy")
    assert_close(c(x, y, 2), ref(x, y, 2))
    for _ in range(3):  # a double free aborts the process (glibc), or fails later
        with pytest.raises(bcast.BcastError, match=r"index 0 \(7\) is out of bounds"):
            c(x, y, 7)
        [np.ones(30000, np.float32) for _ in range(5)]


def test_many_temporaries_stay_within_the_stack_budget():
    """135 materialized 64 KiB temporaries: at most stack_allocs.STACK_TOTAL
    bytes of them are stack arrays, the rest are on the heap."""
    lines = ["func.func @main(%x: tensor<128x128xf32>, %r: tensor<128xf32>) -> tensor<128x128xf32> {"]
    prev = "%x"
    for k in range(135):
        lines.append(f"  %a{k} = bcast.assign {prev}[{k % 128}], %r : (tensor<128x128xf32>, tensor<128xf32>) "
                     "-> tensor<128x128xf32>")
        prev = f"%a{k}"
    src = "\n".join([*lines, f"  func.return {prev} : tensor<128x128xf32>", "}"])
    source = standard_c(src, "chain")
    stack = sum(int(n) * 4 for n in re.findall(r"^ *float v\d+\[(\d+)\];", source, re.M))
    assert 0 < stack <= stack_allocs.STACK_TOTAL and "bcast_alloc(65536)" in source
    x = np.zeros((128, 128), np.float32)
    r = np.arange(128, dtype=np.float32)
    np.testing.assert_array_equal(bcast.compile(src, backend="c")(x, r), bcast.compile(src, backend="numpy")(x, r))


def test_a_failed_check_belongs_to_its_thread():
    x = np.random.default_rng(4).standard_normal((4096, 64), dtype=np.float32)
    c = bcast.compile(DYNAMIC, backend="c")
    want = c(x, 5, 6)

    def call(k: int):
        if k % 2:
            with pytest.raises(bcast.BcastError, match="out of bounds"):
                c(x, 5, 4096 + k)
            return None
        return c(x, 5, 6)

    with ThreadPoolExecutor(max_workers=4) as pool:
        for got in pool.map(call, range(40)):
            if got is not None:
                assert_close(got, want)


def test_threads_follow_omp_num_threads():
    code = ("import numpy as np, bcast, sys; from bcast.tests.lowering.test_c_backend import SOFTMAX; "
            "x = np.ones((4096, 1024), np.float32); f = bcast.compile(SOFTMAX, backend='c'); "
            "import ctypes; f(x); omp = ctypes.CDLL('libgomp.so.1'); print(omp.omp_get_max_threads())")
    for n in ("1", "2"):
        done = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "OMP_NUM_THREADS": n})
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == n


# --------------------------------------------------------------------------
# Runtime: compiler, cache, default backend
# --------------------------------------------------------------------------

DOUBLE = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
"""


def test_no_compiler_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path / "cache"))
    assert not c_runtime.available()
    assert api.default_backend() == "numpy"
    with pytest.raises(bcast.BcastError, match="--backend numpy"):
        bcast.compile(DOUBLE, backend="c")
    source = tmp_path / "p.mlir"
    source.write_text(DOUBLE)
    assert run_main([str(source), "--backend", "c", "--seed", "0"]) == 1
    assert "--backend numpy" in capsys.readouterr().err
    np.testing.assert_array_equal(bcast.compile(DOUBLE)(np.ones(3, np.float32)), [2, 2, 2])  # numpy


def test_the_default_backend_is_c_when_a_compiler_is_present():
    assert api.default_backend() == "c"
    assert bcast.compile(DOUBLE).backend == "c"


def test_a_second_compile_does_not_rebuild(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    text = DOUBLE.replace("add", "multiply")
    bcast.compile(text, backend="c")
    built = list(tmp_path.glob("*.so"))
    assert len(built) == 1
    first = built[0].stat()
    calls = []
    real_run = subprocess.run
    monkeypatch.setattr(c_runtime.subprocess, "run", lambda *a, **k: calls.append(a) or real_run(*a, **k))
    time.sleep(0.01)
    f = bcast.compile(text, backend="c")
    again = built[0].stat()
    assert calls == [] and again.st_ino == first.st_ino  # the same file, not replaced
    assert again.st_mtime_ns > first.st_mtime_ns  # marked used (the cache evicts the least recent)
    np.testing.assert_array_equal(f(np.array([1, 2, 3], np.float32)), [1, 4, 9])


def test_concurrent_builds_give_one_library(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    text = DOUBLE.replace("add", "subtract")
    results, errors = [], []

    def build():
        try:
            results.append(bcast.compile(text, backend="c")(np.array([1, 2, 3], np.float32)))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=build) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [r.tolist() for r in results] == [[0, 0, 0]] * 4
    assert len(list(tmp_path.glob("*.so"))) == 1
    assert len(list(tmp_path.glob("program-*.pickle"))) == 1  # the program entry (api.saved_program_key)
    kept = ("bcast-", ".so"), ("program-", ".pickle"), ("probes-", ".txt")  # (probes: when run alone)
    assert [p for p in tmp_path.iterdir() if (p.name.partition("-")[0] + "-", p.suffix) not in kept] == []


def test_bcast_run_and_bcast_opt_take_the_c_backend(tmp_path, capsys):
    from bcast.tools.opt import main as opt_main

    source = tmp_path / "p.mlir"
    source.write_text(DOUBLE)
    assert run_main([str(source), "--backend", "c", "--seed", "0"]) == 0
    assert "result0: tensor<3xf32>" in capsys.readouterr().out
    assert opt_main([str(source), "-t", "c"]) == 0
    out = capsys.readouterr().out
    assert "void bcast_main(const float *restrict x, float *restrict result0)" in out
    # the compiled function's c_source is the C it runs: what bcast-opt prints
    assert bcast.compile(DOUBLE, backend="c").c_source.rstrip() == out.rstrip()
    assert bcast.compile(DOUBLE, backend="numpy").c_source is None


# --------------------------------------------------------------------------
# Sanitizers
# --------------------------------------------------------------------------

HARNESS_HEAD = r"""#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t state = 88172645463325252ull;
static uint64_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }
/* kind 0: random bytes (every integer, every float including NaN and inf);
   1: booleans; 2: small floats */
static void *input(size_t count, size_t size, int kind) {
    unsigned char *p = malloc(count * size ? count * size : 1);
    for (size_t k = 0; k < count * size; k++) p[k] = (unsigned char)next();
    if (kind == 1) for (size_t k = 0; k < count; k++) p[k] &= 1;
    if (kind == 2 && size == 4) for (size_t k = 0; k < count; k++) { float f = (float)((int)(next() % 2001) - 1000) / 100.0f; memcpy(p + 4 * k, &f, 4); }
    if (kind == 2 && size == 8) for (size_t k = 0; k < count; k++) { double f = (double)((int)(next() % 2001) - 1000) / 100.0; memcpy(p + 8 * k, &f, 8); }
    return p;
}
"""


def harness_call(name: str, function: func.FuncOp, n_inputs: int, kind: int) -> list[str]:
    lines, args, owned = [], [], []
    for k, t in enumerate(function.function_type.inputs.data):
        if isinstance(t, IndexType):
            # -1 fails every dynamic index check; 0 passes them (odd positions pass first)
            args.append("0" if kind == 2 or k % 2 else "-1")
            continue
        assert isinstance(t, MemRefType)
        count = int(np.prod(t.get_shape()))
        size = 1 if c_emitter.c_type(t.element_type) == "uint8_t" else (
            2 if "16" in c_emitter.c_type(t.element_type) else 4 if c_emitter.c_type(t.element_type)
            in ("float", "uint32_t") else 8)
        boolean = isinstance(t.element_type, IntegerType) and c_emitter.width(t.element_type) == 1
        var = f"b{len(owned)}"
        lines.append(f"    void *{var} = input({count}, {size}, {1 if boolean else kind});")
        owned.append(var)
        args.append(var)
    lines.append(f"    {name}({', '.join(args)});")
    lines += [f"    free({v});" for v in owned]
    return ["    {", *lines, "    }"]


@pytest.mark.slow
def test_generated_c_of_the_examples_is_clean_under_sanitizers(tmp_path):
    """Every example function, built with ASan and UBSan (any report aborts),
    called twice on random bytes (every integer value, NaN, inf, huge floats)
    and on small values; with them the programs whose results stream, a
    softmax whose rows stream from the next row's phase, and softmax with
    row scratch on the heap (serial and parallel). Every one of them lowers
    to C (the runnable examples all do, but those of the element types the C
    backend refuses): an error lowering one fails the test."""
    cc = c_runtime.require_compiler()
    units, calls, seen = [], [], set()
    extra = [(Path(f"streamed_{t}_{op}.mlir"), 0, _streamed(shape, t, op)) for shape, t, op in STREAMED]
    extra += [(Path(f"softmax_{rows}x20000.mlir"), 0, SOFTMAX.replace("4096x", f"{rows}x").replace("1024", "20000"))
              for rows in (16, 256)]
    # a result streamed row by row from the next row's exp phase (defer_streams)
    extra.append((Path("softmax_2048x4096.mlir"), 0, SOFTMAX.replace("4096x", "2048x").replace("1024", "4096")))
    extra.append((Path("dynamic.mlir"), 0, DYNAMIC))  # a failed check after a heap buffer: freed
    extra.append((Path("one_row.mlir"), 0, ONE_ROW))  # a failed check after a freed one: not freed again
    for k, (path, index, text) in enumerate([case.values[:3] for case in RUNNABLE] + extra):
        if (path, index) in seen or refused_on_c(text):  # (their refusal: test_example_runs_on_the_c_backend)
            continue
        seen.add((path, index))
        module = driver.load(text, str(path), None, pipeline=api.STANDARD_PIPELINE, import_stablehlo=True)
        loops = targets.loop_ir(module)  # every runnable example lowers: an error fails the test
        source, names = c_emitter.emit_module(loops, prefix=f"e{k}_")
        unit = tmp_path / f"e{k}.c"
        unit.write_text(source)
        units.append(unit)
        for f in loops.ops:
            if isinstance(f, func.FuncOp) and f.body.blocks \
                    and not targets.called_declarations(loops, f.sym_name.data) \
                    and not any(isinstance(o, scf.WhileOp) for o in f.walk()) \
                    and not any(isinstance(t, MemRefType) and DYNAMIC_INDEX in t.get_shape()
                                for t in f.function_type.inputs.data):
                # a loop on data may run ~2**31 steps on the harness's bit patterns (test_c_control_flow
                # runs loops under the sanitizers with their own inputs); the sizes of `?` dims come from
                # the C runtime's size plan, which test_c_dynamic's sanitizer harness follows
                for kind in (0, 0, 2):
                    calls.append(f'    fprintf(stderr, "{path.name}:{index}:@{f.sym_name.data}\\n");')
                    calls += harness_call(names[f.sym_name.data], f, 0, kind)
    prototypes = []
    for unit in units:
        prototypes += [line for line in unit.read_text().splitlines()
                       if line.startswith("void ") and line.endswith(");")]
    main = tmp_path / "main.c"
    main.write_text(HARNESS_HEAD + "\n".join(prototypes) + "\nint main(void) {\n" + "\n".join(calls)
                    + '\n    puts("clean");\n    return 0;\n}\n')
    exe = tmp_path / "harness"
    flags = ["-O1", "-g", "-fsanitize=address,undefined,float-cast-overflow", "-fno-sanitize-recover=all",
             "-fno-omit-frame-pointer"]
    objects = [unit.with_suffix(".o") for unit in [*units, main]]

    def build(unit: Path) -> subprocess.CompletedProcess:
        return subprocess.run([*cc, "-std=c99", *flags, "-fopenmp", "-c", str(unit), "-o",
                               str(unit.with_suffix(".o"))], capture_output=True, text=True)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for done in pool.map(build, [*units, main]):
            assert done.returncode == 0, done.stderr[-3000:]
    done = subprocess.run([*cc, *flags, "-fopenmp", *map(str, objects), "-o", str(exe), "-lm"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "ASAN_OPTIONS": "detect_leaks=1", "OMP_NUM_THREADS": "2"})
    assert run.returncode == 0 and run.stdout.strip() == "clean", run.stderr[-3000:]
    assert "runtime error" not in run.stderr and "AddressSanitizer" not in run.stderr
    assert len(units) == len(seen) > 50


def test_vectorized_max_and_min_reductions_propagate_nan():
    """Float max/min reductions vectorize as a plain max/min plus a "saw a
    NaN" flag: NaN anywhere in a row (first, last, alone, everywhere) gives
    NaN, infinities stay, as the reference's ``np.maximum`` fold does."""
    src = """
func.func @main(%x: tensor<16x300xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<16x300xf32>) -> tensor<16xf32>
  %n = bcast.reduce minimum %x, dims = [1] : (tensor<16x300xf32>) -> tensor<16xf32>
  func.return %m, %n : tensor<16xf32>, tensor<16xf32>
}
"""
    x = np.random.default_rng(0).standard_normal((16, 300)).astype(np.float32)
    x[3, 17] = x[5, :] = x[9, 299] = x[10, 0] = np.nan
    x[7, :] = -np.inf
    x[8, :] = np.inf
    got = bcast.compile(src, backend="c")(x)
    want = bcast.compile(src, backend="reference")(x)
    for g, w in zip(got, want):
        assert np.array_equal(g, w, equal_nan=True), (g, w)
    # over several dims the accumulator carries a NaN from an earlier row
    # into the next vectorized row loop, whose max must keep it
    whole = src.replace("dims = [1] : (tensor<16x300xf32>) -> tensor<16xf32>",
                        "dims = [0, 1] : (tensor<16x300xf32>) -> tensor<f32>").replace(
        "(tensor<16xf32>, tensor<16xf32>)", "(tensor<f32>, tensor<f32>)").replace(
        "tensor<16xf32>, tensor<16xf32>\n}", "tensor<f32>, tensor<f32>\n}")
    y = np.random.default_rng(1).standard_normal((16, 300)).astype(np.float32)
    for row in (0, 7, 15):
        z = y.copy()
        z[row, 5] = np.nan
        for g in bcast.compile(whole, backend="c")(z):
            assert np.isnan(g), (row, g)


DIVISION_CHECK = r"""
/* (after HARNESS_HEAD, for next()) Mismatches of bcast_div_f32/f64 (operands within their range) against
   plain division: every dividend of one binade for each of `divisors`
   divisors (all-ones and near-all-ones significands, then random ones), and
   `pairs` random pairs over the whole range, half of them with dividends
   near b times a rounding midpoint; then whether bcast_div_range_* is within
   BCAST_DIV_SPAN_* exactly for 2^-50 <= |x| < 2^51 (2^-480, 2^481). */
long bcast_check_division(long divisors, long pairs) {
    static float a32[1 << 12], q32[1 << 12], r32[1 << 12];
    static double a64[1 << 12], q64[1 << 12], r64[1 << 12];
    long bad = 0;
    for (long k = 0; k < divisors; k++) {
        uint32_t m = k % 2 == 0 ? 0x7fffffu - (uint32_t)(k * 37 % 512) : (uint32_t)(next() & 0x7fffffu);
        float b = bcast_f32_bits(((uint32_t)(77 + next() % 101) << 23) | m | (uint32_t)(next() & 1) << 31);
        float y = 1.0f / b;
        for (uint32_t hi = 0; hi < (1u << 23); hi += 1u << 12) {
            #pragma omp simd
            for (uint32_t j = 0; j < (1u << 12); j++) {
                float a = bcast_f32_bits((127u << 23) | (hi + j));
                q32[j] = bcast_div_f32(a, b, y);
                r32[j] = a / b;
            }
            bad += memcmp(q32, r32, sizeof q32) != 0;
        }
    }
    for (long k = 0; k < pairs; k += 1 << 12) {
        float b = bcast_f32_bits(((uint32_t)(77 + next() % 101) << 23) | (uint32_t)(next() & 0x807fffffu));
        double b64 = bcast_f64_bits(((uint64_t)(543 + next() % 961) << 52) | (next() & 0x800fffffffffffffull));
        for (int j = 0; j < 1 << 12; j++) {
            a32[j] = bcast_f32_bits(((uint32_t)(77 + next() % 101) << 23) | (uint32_t)(next() & 0x807fffffu));
            a64[j] = bcast_f64_bits(((uint64_t)(543 + next() % 961) << 52) | (next() & 0x800fffffffffffffull));
            if (j % 2) {  /* b * (a float in [1, 2) + half an ulp) */
                double q = 1.0 + (double)(next() & 0x7fffffu) * 0x1p-23 + 0x1p-24;
                float near = (float)((double)b * q);
                if (fabsf(near) >= 0x1p-50f && fabsf(near) < 0x1p51f) a32[j] = near;
                double near64 = b64 * (1.0 + (double)(next() & 0xfffffffffffffull) * 0x1p-52) * (1.0 + 0x1p-53);
                if (fabs(near64) >= 0x1p-480 && fabs(near64) < 0x1p481) a64[j] = near64;
            }
        }
        float y = 1.0f / b;
        double y64 = 1.0 / b64;
        for (int j = 0; j < 1 << 12; j++) {
            q32[j] = bcast_div_f32(a32[j], b, y); r32[j] = a32[j] / b;
            q64[j] = bcast_div_f64(a64[j], b64, y64); r64[j] = a64[j] / b64;
        }
        bad += memcmp(q32, r32, sizeof q32) != 0;
        bad += memcmp(q64, r64, sizeof q64) != 0;
    }
    for (uint32_t e = 0; e < 256; e++) {
        float x = bcast_f32_bits(e << 23 | 0x123456u);
        int inside = fabsf(x) >= 0x1p-50f && fabsf(x) < 0x1p51f;
        bad += (bcast_div_range_f32(x) <= BCAST_DIV_SPAN_F32) != inside;
    }
    for (uint64_t e = 0; e < 2048; e++) {
        double x = bcast_f64_bits(e << 52 | 0x123456789ull);
        int inside = fabs(x) >= 0x1p-480 && fabs(x) < 0x1p481;
        bad += (bcast_div_range_f64(x) <= BCAST_DIV_SPAN_F64) != inside;
    }
    return bad;
}
"""


def parse_loop_ir(text: str) -> ModuleOp:
    """Loop IR written by hand (bcast-opt reads bcast programs only)."""
    ctx = Context()
    for dialect in (Builtin, Func, Arith, MemRef, Scf, Math):
        ctx.load_dialect(dialect)
    return Parser(ctx, text).parse_module()


TRIG_LOOPS = """
func.func @main(%x: memref<5xf32>, %y: memref<5xf64>, %s: memref<5xf32>, %c: memref<5xf64>, %t: memref<5xf32>)
    attributes {llvm.emit_c_interface} {
  %0 = arith.constant 0 : index
  %5 = arith.constant 5 : index
  %1 = arith.constant 1 : index
  scf.for %i = %0 to %5 step %1 {
    %a = memref.load %x[%i] : memref<5xf32>
    %b = memref.load %y[%i] : memref<5xf64>
    %sa = math.sin %a : f32
    %cb = math.cos %b : f64
    %ta = math.tan %a : f32
    memref.store %sa, %s[%i] : memref<5xf32>
    memref.store %cb, %c[%i] : memref<5xf64>
    memref.store %ta, %t[%i] : memref<5xf32>
  }
  func.return
}
"""


def test_a_math_op_is_the_libm_function_of_its_name():
    """``math.sin``/``math.cos``/``math.tan`` (which no bcast op lowered to
    when the C target was written) print as ``sinf``/``cos``/``tanf``
    (``c_emitter.libm_name``: the C name follows the op's, f32 with ``f``)
    and compute what NumPy does."""
    module = parse_loop_ir(TRIG_LOOPS)
    source, names = c_emitter.emit_module(targets.loop_ir(module))
    assert "sinf(" in source and "tanf(" in source and " = cos(" in source
    assert c_emitter.libm_name(next(o for o in module.walk() if o.name == "math.cos")) == "cos"
    library = c_runtime.load(source)
    x = np.array([0.0, 0.5, -1.25, 3.0, 100.0], np.float32)
    y = x.astype(np.float64)
    s, c, t = np.empty_like(x), np.empty_like(y), np.empty_like(x)
    getattr(library, names["main"])(*(a.ctypes.data_as(ctypes.c_void_p) for a in (x, y, s, c, t)))
    np.testing.assert_allclose(s, np.sin(x), rtol=2e-7, atol=1e-7)
    np.testing.assert_allclose(c, np.cos(y), rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(t, np.tan(x), rtol=4e-7)


def test_division_by_an_invariant_divisor_equals_plain_division():
    """``bcast_div_f32/f64`` (a * (1/b) with two FMA corrections), built
    with the C backend's flags, give exactly ``a / b`` for every dividend of
    a binade against 24 divisors (all-ones significands first, where an
    approximate reciprocal is worst), 2^20 random and near-midpoint pairs
    over their range, and their range guards cover exactly that range."""
    library = c_runtime.load(c_emitter.PRELUDE + HARNESS_HEAD + DIVISION_CHECK)
    library.bcast_check_division.restype = ctypes.c_long
    library.bcast_check_division.argtypes = [ctypes.c_long, ctypes.c_long]
    assert library.bcast_check_division(24, 1 << 20) == 0


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_division_by_a_row_value_is_bitwise_numpys_at_the_edges(t):
    """``x / s`` with ``s`` per row: rows of divisors in the fast range, and
    rows whose divisor (0, -0, inf, NaN, subnormal, huge) or some dividend
    (0, -0, subnormal, inf, NaN, huge) is outside it, which take the plain
    division: every element is bitwise NumPy's quotient."""
    dtype = np.float32 if t == "f32" else np.float64
    src = f"""
func.func @main(%x: tensor<12x100x{t}>, %s: tensor<12x1x{t}>) -> tensor<12x100x{t}> {{
  %r = bcast.divide %x, %s : (tensor<12x100x{t}>, tensor<12x1x{t}>) -> tensor<12x100x{t}>
  func.return %r : tensor<12x100x{t}>
}}
"""
    source = standard_c(src, "div")
    assert f"bcast_div_{t}(" in source
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((12, 100)) * 10.0 ** rng.integers(-6, 6, (12, 100))).astype(dtype)
    s = (rng.standard_normal((12, 1)) * 1000).astype(dtype)
    info = np.finfo(dtype)
    s[1:8, 0] = [0.0, -0.0, np.inf, np.nan, info.smallest_subnormal * 3, info.max / 3, info.tiny]
    x[8, :6] = [0.0, -0.0, info.smallest_subnormal, np.inf, np.nan, info.max]
    x[9, 50] = info.tiny * 7
    x[10, 99] = -info.max
    with np.errstate(all="ignore"):
        want = x / s
    got = bcast.compile(src, backend="c")(x, s)
    assert got.dtype == want.dtype and np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_parallel_division_by_a_scalar_is_bitwise_numpys(t):
    """``x / s`` at 2048x2048: in f32 (16 MiB) one ``parallel for simd``
    loop over all elements, whose threads reduce the range guard, so a
    divisor or one dividend outside the fast range (in any thread's share)
    makes the whole loop run again with plain division; in f64 (32 MiB,
    streamed) each chunk decides for itself. Every element is bitwise
    NumPy's."""
    dtype = np.float32 if t == "f32" else np.float64
    src = f"""
func.func @main(%x: tensor<2048x2048x{t}>, %s: tensor<{t}>) -> tensor<2048x2048x{t}> {{
  %r = bcast.divide %x, %s : (tensor<2048x2048x{t}>, tensor<{t}>) -> tensor<2048x2048x{t}>
  func.return %r : tensor<2048x2048x{t}>
}}
"""
    fn = bcast.compile(src, backend="c")
    if t == "f32":
        assert "#pragma omp parallel for simd schedule(static) num_threads(bcast_threads()) reduction(max:" \
            in fn.c_source
    assert f"bcast_div_{t}(" in fn.c_source
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((2048, 2048)) * 10.0 ** rng.integers(-6, 6, (2048, 2048))).astype(dtype)
    info = np.finfo(dtype)
    cases = [(x, d) for d in (3.0, -0.1, 0.0, -0.0, np.inf, np.nan, info.smallest_subnormal * 3, info.max / 3)]
    # an infinite dividend (the fast quotient would be NaN): the first and
    # the last element of the first thread's share (of 2, static), the
    # last element of the second's
    for at, v in ((0, np.inf), (2048 * 1024 - 1, -np.inf), (2048 * 2048 - 1, np.inf)):
        edge = x.copy()
        edge.flat[at] = v
        cases.append((edge, 3.0))
    for xs, d in cases:
        s = np.array(d, dtype)
        with np.errstate(all="ignore"):
            want = xs / s
        got = fn(xs, s)
        assert np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}")), (d, xs is x)


@pytest.mark.parametrize("name", ["count", "threads", "alloc", "stream"])
def test_a_function_named_like_a_runtime_helper_gets_a_symbol_of_its_own(name):
    """``@count`` would be ``bcast_count``, a helper of the C prelude (the C
    compiler refused the library: conflicting types); it is numbered instead."""
    text = (f"func.func @{name}(%x: tensor<4xf32>) -> tensor<4xf32> {{\n"
            "  %0 = bcast.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
            "  func.return %0 : tensor<4xf32>\n}\n")
    f = bcast.compile(text, backend="c", entry=name)
    np.testing.assert_array_equal(f(np.arange(4, dtype=np.float32)), np.arange(4, dtype=np.float32) * 2)
