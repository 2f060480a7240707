"""``dot_general`` and ``matmul`` with ``?`` dims on every backend
(docs/semantics.md, "Dynamic and bounded shapes"): one compile runs at
run-time sizes 0, 1 and more to NumPy's values; a paired dim that differs at
run time is a located error in JAX's words, the same on every backend,
before anything is written; the C target calls its GEMM with the run-time
M/N/K and runs a dense layer's bias and activation in the GEMM's row blocks,
as for static sizes; ``matmul``'s ``?`` batch dims broadcast at run time as
``np.matmul``'s do (a 1 stretches), its failures in NumPy's words; its C is clean under ASan and UBSan at every size, the
GEMM kernels linked."""

from __future__ import annotations

import contextlib
import ctypes
import math
import re

import numpy as np
import pytest

import bcast
from bcast.lowering import c_emitter, c_gemm, c_runtime
from bcast.tests.lowering.test_c_dynamic import built_libraries, run_sanitized, sanitized_units
from bcast.tools import api, driver, targets
from bcast.tools.api import DYNAMIC_BACKENDS

DENSE = """\
func.func @main(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = bcast.matmul %x, %w : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %1 = bcast.add %0, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = bcast.tanh %1 : tensor<?x3xf32>
  func.return %2 : tensor<?x3xf32>
}
"""

CONTRACTED = """\
func.func @main(%x: tensor<3x?xf64>, %y: tensor<?x5xf64>) -> tensor<3x5xf64> {
  %0 = bcast.matmul %x, %y : (tensor<3x?xf64>, tensor<?x5xf64>) -> tensor<3x5xf64>
  func.return %0 : tensor<3x5xf64>
}
"""

BATCHED = """\
func.func @main(%a: tensor<?x2x?xf32>, %b: tensor<?x?x4xf32>) -> tensor<?x2x4xf32> {
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x2x?xf32>, tensor<?x?x4xf32>) -> tensor<?x2x4xf32>
  func.return %0 : tensor<?x2x4xf32>
}
"""

SCORES = """\
func.func @main(%q: tensor<?x4xf32>, %k: tensor<?x4xf32>) -> tensor<?x?xf32> {
  %kt = bcast.transpose %k, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %0 = bcast.matmul %q, %kt : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}
"""

ONE_AGAINST_FIVE = """\
func.func @main(%a: tensor<?x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<?x5x3x6xf32> {
  %0 = bcast.matmul %a, %b : (tensor<?x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<?x5x3x6xf32>
  func.return %0 : tensor<?x5x3x6xf32>
}
"""

TWO_BATCHES = """\
func.func @main(%a: tensor<?x3x4xf32>, %b: tensor<?x4x?xf64>) -> tensor<?x3x?xf64> {
  %0 = bcast.matmul %a, %b : (tensor<?x3x4xf32>, tensor<?x4x?xf64>) -> tensor<?x3x?xf64>
  func.return %0 : tensor<?x3x?xf64>
}
"""

CORE_AND_BATCH = """\
func.func @main(%a: tensor<?x3x?xf32>, %b: tensor<5x4x6xf64>) -> tensor<5x3x6xf64> {
  %0 = bcast.matmul %a, %b : (tensor<?x3x?xf32>, tensor<5x4x6xf64>) -> tensor<5x3x6xf64>
  func.return %0 : tensor<5x3x6xf64>
}
"""

SIZES = [0, 1, 3, 7]


def values(shape, rng, dtype=np.float32) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_dense_layer_with_a_run_time_batch_runs_as_numpy(backend):
    f = bcast.compile(DENSE, backend=backend)
    rng = np.random.default_rng(0)
    w, b = values((4, 3), rng), values(3, rng)
    for n in SIZES:
        x = values((n, 4), rng)
        got = f(x, w, b)
        assert got.shape == (n, 3)
        np.testing.assert_allclose(got, np.tanh(x @ w + b), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_run_time_contracted_dim_runs_as_numpy(backend):
    """``k`` = 0 included: the product of an empty contraction is zeros."""
    f = bcast.compile(CONTRACTED, backend=backend)
    rng = np.random.default_rng(1)
    for k in SIZES:
        x, y = values((3, k), rng, np.float64), values((k, 5), rng, np.float64)
        np.testing.assert_allclose(f(x, y), x @ y, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_run_time_batch_and_contracted_dims_run_as_numpy(backend):
    f = bcast.compile(BATCHED, backend=backend)
    rng = np.random.default_rng(2)
    for n, k in [(0, 2), (1, 1), (3, 0), (2, 5), (7, 3)]:
        a, b = values((n, 2, k), rng), values((n, k, 4), rng)
        np.testing.assert_allclose(f(a, b), a @ b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_attention_scores_of_two_run_time_lengths_run_as_numpy(backend):
    f = bcast.compile(SCORES, backend=backend)
    rng = np.random.default_rng(3)
    for s, t in [(0, 3), (1, 1), (3, 0), (5, 2)]:
        q, k = values((s, 4), rng), values((t, 4), rng)
        np.testing.assert_allclose(f(q, k), q @ k.T, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize(("program", "args", "message"), [
    (CONTRACTED, [(3, 4), (5, 5)],
     "prog.mlir:2:8: error: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
     "(n?,k),(k,m?)->(n?,m?) (size 5 is different from 4)"),
    (BATCHED, [(3, 2, 2), (4, 2, 4)],
     "prog.mlir:2:8: error: dot_general requires lhs batch dimensions and rhs batch dimensions to have the same "
     "shape, got (3,) (4,)"),
    (BATCHED, [(1, 2, 0), (1, 1, 4)],
     "prog.mlir:2:8: error: dot_general requires contracting dimensions to have the same shape, got (0,) (1,)"),
])
def test_paired_dims_that_differ_at_run_time_are_a_located_error(backend, program, args, message):
    """The same words and location on every backend, and ``out`` untouched."""
    f = bcast.compile(program, backend=backend, filename="prog.mlir")
    dtype = np.float64 if "f64" in program else np.float32
    arrays = [np.ones(shape, dtype) for shape in args]
    out = np.full((3, 5), 7.0, dtype) if program is CONTRACTED else None  # the static result
    with pytest.raises(bcast.BcastError) as info:
        f(*arrays, out=out)
    assert str(info.value).splitlines()[0] == message
    if out is not None:
        assert (out == 7.0).all()


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_run_time_batch_against_a_static_batch_broadcasts_as_numpy(backend):
    """``(?,1,3,4) @ (5,4,6)``: the 1 stretches to 5 and the ``?`` batch is
    the result's, at every size, 0 and 1 included."""
    f = bcast.compile(ONE_AGAINST_FIVE, backend=backend)
    rng = np.random.default_rng(5)
    b = values((5, 4, 6), rng)
    for n in SIZES:
        a = values((n, 1, 3, 4), rng)
        got = f(a, b)
        assert got.shape == (n, 5, 3, 6)
        np.testing.assert_allclose(got, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_two_run_time_batches_broadcast_as_numpy_when_either_is_one(backend):
    """``(?,3,4) @ (?,4,?)``: equal batches, either one 1 (it stretches, also
    against 0), a run-time ``m`` of 0; f32 promoted to f64 first."""
    f = bcast.compile(TWO_BATCHES, backend=backend)
    rng = np.random.default_rng(6)
    for p, q, m in [(3, 3, 2), (1, 3, 2), (3, 1, 5), (1, 1, 1), (0, 1, 2), (1, 0, 2), (0, 0, 3), (7, 7, 0)]:
        a, b = values((p, 3, 4), rng), values((q, 4, m), rng, np.float64)
        got, want = f(a, b), a.astype(np.float64) @ b
        assert got.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def numpy_error(*shapes) -> str:
    """NumPy's own words for ``np.matmul`` of operands of ``shapes``."""
    with pytest.raises(ValueError) as info:
        np.matmul(*(np.ones(shape) for shape in shapes))
    return str(info.value)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
@pytest.mark.parametrize(("program", "shapes", "dtypes"), [
    (TWO_BATCHES, [(2, 3, 4), (3, 4, 5)], (np.float32, np.float64)),
    (TWO_BATCHES, [(0, 3, 4), (2, 4, 5)], (np.float32, np.float64)),
    (CORE_AND_BATCH, [(2, 3, 3), (5, 4, 6)], (np.float32, np.float64)),  # both wrong: the core dim is reported
    (CORE_AND_BATCH, [(2, 3, 4), (5, 4, 6)], (np.float32, np.float64)),
    (CONTRACTED, [(3, 0), (1, 5)], (np.float64, np.float64)),
])
def test_matmul_shapes_that_numpy_refuses_are_a_located_error_in_numpy_words(backend, program, shapes, dtypes):
    """The message is ``np.matmul``'s own, character for character (the
    batch dims' remapped shapes, or the core dimension's mismatch), located
    at the matmul, on every backend; ``out`` is untouched."""
    f = bcast.compile(program, backend=backend, filename="prog.mlir")
    arrays = [np.ones(shape, dtype) for shape, dtype in zip(shapes, dtypes)]
    out = {CONTRACTED: np.full((3, 5), 7.0), CORE_AND_BATCH: np.full((5, 3, 6), 7.0)}.get(program)
    with pytest.raises(bcast.BcastError) as info:
        f(*arrays, out=out)
    assert str(info.value).splitlines()[0] == "prog.mlir:2:8: error: " + numpy_error(*shapes)
    if out is not None:
        assert (out == 7.0).all()


def test_a_broadcast_batch_is_a_stride_of_zero_in_the_c_nest():
    """The C nest reads a batch dim that may be 1 at a step of 0 or 1 chosen
    once at entry: no copy of the stretched operand."""
    source = c_source(TWO_BATCHES)
    body = source[source.index("void bcast_main(const float *restrict a, int64_t a_d0"):]
    assert re.search(r"a_d0 == 1;\n\s*int64_t (v\d+) = v\d+ \? 0 : 1;", body)
    assert "malloc" not in body


def c_source(text: str) -> str:
    module = driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
    return c_emitter.emit_module(targets.loop_ir(module))[0]


def test_the_c_gemm_takes_run_time_sizes_and_runs_the_epilogue_in_its_row_blocks():
    """With a ``?`` batch, the dense layer calls the GEMM with ``M`` read at
    entry (skipped when it is 0) and runs the bias add and ``tanh`` on each
    row block right after its GEMM call, as the static layer does: one
    pass over the product, no materialized broadcast of the bias."""
    source = c_source(DENSE)
    body = source[source.index("void bcast_main(const float *restrict x, int64_t x_d0"):]
    assert "if (bcast_blas_sgemm && x_d0 > 0) {" in body
    assert re.search(r"bcast_blas_sgemm\(101, 111, 111, n\d+, 3, 4, 1\.0f, x \+", body)
    gemm_loop = body[body.index("bcast_blas_sgemm_packed(111"):body.index("bcast_blas_gemm_release(p")]
    assert "tanhf(" in gemm_loop  # the epilogue, inside the row-block loop
    assert body.count("tanhf(") == 2  # and in the nest run without a GEMM, nowhere else
    assert "bcast_stream(" not in gemm_loop


def test_one_c_build_serves_every_batch_size(tmp_path, monkeypatch):
    """After the first call nothing more is built: the calls at four more
    batch sizes run the same library (and the same GEMM kernels)."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    f = bcast.compile(DENSE, backend="c")
    rng = np.random.default_rng(4)
    w, b = values((4, 3), rng), values(3, rng)
    built = None
    for n in (2, 5, 1, 90, 0):
        x = values((n, 4), rng)
        np.testing.assert_allclose(f(x, w, b), np.tanh(x @ w + b), rtol=1e-5, atol=1e-6)
        built = built or built_libraries(tmp_path)
    assert built and built_libraries(tmp_path) == built


SANITIZED = [
    ("dense", DENSE, [{0: n} for n in (0, 1, 3, 40)]),
    ("contracted", CONTRACTED, [{0: k, 1: k} for k in (0, 1, 3)] + [{0: 2, 1: 3}]),
    ("batched", BATCHED, [{0: n, 1: n} for n in (0, 1, 3)] + [{0: 2, 1: 3}]),
    ("scores", SCORES, [{0: a, 1: b} for a, b in [(0, 3), (1, 1), (3, 0), (5, 2)]]),
    ("one_against_five", ONE_AGAINST_FIVE, [{0: n} for n in (0, 1, 3)]),
    ("two_batches", TWO_BATCHES, [{0: p, 1: q} for p, q in [(0, 1), (1, 0), (1, 3), (3, 1), (3, 3), (0, 0)]]
     + [{0: 2, 1: 3}]),
]
"""(name, program, run-time sizes of each argument's ``?`` dims per call)."""

LINK_GEMM = """
/* the harness's GEMM: bcast's own kernels, as c_runtime.link_blas points the generated code at them */
"""


@pytest.mark.slow  # 10 s: ASan/UBSan builds (the thorough run, CI)
def test_dynamic_contractions_are_clean_under_sanitizers_with_the_gemm_linked(tmp_path):
    """Each program's C and bcast's GEMM kernels, built with ASan and UBSan,
    called with buffers of exactly their sizes (0 and 1 included) with the
    GEMM pointers set (the run-time M/N/K reach the kernels); the sizes the
    checks refuse are refused by the size plan before any call."""
    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units(SANITIZED, tmp_path, "g")
    gemm = tmp_path / "gemm.c"
    pointers = "".join(f"extern __typeof__(&{symbol}) {pointer};\n"
                       for symbol, pointer in zip(c_gemm.SYMBOLS, c_runtime.BLAS_POINTERS, strict=True))
    setting = "".join(f"    {pointer} = {symbol};\n"
                      for symbol, pointer in zip(c_gemm.SYMBOLS, c_runtime.BLAS_POINTERS, strict=True))
    gemm.write_text(c_gemm.SOURCE + LINK_GEMM + pointers + "void link_gemm(void) {\n" + setting + "}\n")
    units.append(gemm)
    assert refused == [
        ("contracted", {0: 2, 1: 3}, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                     "signature (n?,k),(k,m?)->(n?,m?) (size 3 is different from 2)"),
        ("batched", {0: 2, 1: 3},
         "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same shape, got (2,) (3,)"),
        ("two_batches", {0: 2, 1: 3}, numpy_error((2, 3, 4), (3, 4, 3))),
    ]
    run_sanitized(units, ["    void link_gemm(void);", "    link_gemm();", *calls], tmp_path, cc)


@pytest.mark.parametrize(("p", "q", "m"), [(3, 3, 2), (1, 3, 2), (3, 1, 5), (1, 1, 0)])
def test_matmul_batches_that_stretch_export_to_xla(p, q, m):
    """``-t stablehlo`` of the broadcasting matmul: XLA, after jaxlib's
    shape refinement at each size, stretches a batch of 1 as NumPy does."""
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import refined_stablehlo, run_stablehlo

    module = driver.load(TWO_BATCHES, "prog.mlir")
    driver.run_pipeline(driver.parse_pipeline(driver.EXPLICIT_PIPELINE), driver.make_context(), module)
    exported = emit_text(module)
    rng = np.random.default_rng(7)
    a, b = values((p, 3, 4), rng), values((q, 4, m), rng, np.float64)
    (got,) = run_stablehlo(refined_stablehlo(exported, [a.shape, b.shape]), [a, b])
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-12, atol=1e-12)


STRETCHED = """\
func.func @main(%a: tensor<?x1x3x4xf32>, %b: tensor<?x4x6xf32>) -> tensor<?x?x3x6xf32> {
  %0 = bcast.matmul %a, %b : (tensor<?x1x3x4xf32>, tensor<?x4x6xf32>) -> tensor<?x?x3x6xf32>
  func.return %0 : tensor<?x?x3x6xf32>
}
"""


@contextlib.contextmanager
def counted_gemm_calls_in(library, name: str):
    """The (M, N, K) of each call of the library's GEMM pointer ``name``
    (through a ctypes wrapper of the real kernel) while inside; restored
    after."""
    pointer = ctypes.c_void_p.in_dll(library.library, name)
    real = pointer.value
    size, address = ctypes.c_int64, ctypes.c_void_p
    element = ctypes.c_float if name == "bcast_blas_sgemm" else ctypes.c_double
    signature = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_int, ctypes.c_int, size, size, size, element,
                                 address, size, address, size, element, address, size)
    calls = []
    wrapper = signature(lambda *args: calls.append(args[3:6]) or signature(real)(*args))
    pointer.value = ctypes.cast(wrapper, ctypes.c_void_p).value
    try:
        yield calls
    finally:
        pointer.value = real


def library_of(program: str):
    """The loaded C library ``bcast.compile(program, backend="c")`` runs."""
    return c_runtime.Library(c_emitter.emit_module(targets.loop_ir(
        driver.load(program, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)))[0], {})


@pytest.mark.parametrize(("program", "sizes", "name"), [
    (ONE_AGAINST_FIVE, [((n, 1, 3, 4), (5, 4, 6)) for n in (0, 1, 3)], "bcast_blas_sgemm"),
    (STRETCHED, [((p, 1, 3, 4), (q, 4, 6)) for p, q in [(3, 1), (1, 3), (3, 3), (1, 1), (0, 1), (1, 0), (2, 2)]],
     "bcast_blas_sgemm"),
    (TWO_BATCHES, [((p, 3, 4), (q, 4, 5)) for p, q in [(1, 3), (3, 1), (3, 3), (1, 1), (0, 1)]], "bcast_blas_dgemm"),
])
def test_batch_dims_that_stretch_at_run_time_are_one_gemm_call_per_batch_element(program, sizes, name):
    """matmul's ``?`` batch dims that may be 1 or n at run time run on the C
    target as one GEMM call per batch element of the result (the operands'
    offsets computed from strides of 0 where a batch dim is 1), not the loop
    nest: ``np.matmul``'s values at sizes 0, 1 and more, into a fresh
    result and into ``out=``; a size 0 calls nothing."""
    source = c_source(program)
    body = source[source.index("void bcast_main("):]
    assert f"if ({name} && " in body and "== 1 ? 0 : " in body[body.index(f"if ({name} && "):]
    f = bcast.compile(program, backend="c")
    library = library_of(program)  # the same source: the same loaded library, the same pointers
    rng = np.random.default_rng(8)
    dtype = np.float64 if name == "bcast_blas_dgemm" else np.float32
    with counted_gemm_calls_in(library, name) as calls:
        for shape_a, shape_b in sizes:
            a, b = values(shape_a, rng), values(shape_b, rng, dtype)
            want = a.astype(dtype) @ b
            before = len(calls)
            got = f(a, b)
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
            assert len(calls) - before == math.prod(want.shape[:-2])
            out = np.full(want.shape, np.nan, dtype)
            f(a, b, out=out)
            np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
