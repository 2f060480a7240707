"""bcast's own matrix-product kernels (``lowering/c_gemm.py``): called
directly with the CBLAS arguments the generated code passes (and the others
the signature allows), and through ``bcast.compile`` on the C target, against
NumPy in float64: awkward sizes that are not multiples of the micro-tile or
the cache blocks, transposed operands, both storage orders, alpha/beta,
k = 0, empty dims, batches; results never share memory with the inputs."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

import bcast
from bcast.lowering import c_gemm, c_runtime
from bcast.tests.budget import quick_sample

ROW, COL, NO, TRANS = 101, 102, 111, 112
"""CBLAS's order and transpose codes."""

ELEMENTS = {"f32": (np.float32, ctypes.c_float), "f64": (np.float64, ctypes.c_double)}


def kernel(element: str):
    """The kernel of ``element`` as a ctypes function."""
    _, real = ELEMENTS[element]
    size, pointer = ctypes.c_int64, ctypes.c_void_p
    signature = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_int, ctypes.c_int, size, size, size, real,
                                 pointer, size, pointer, size, real, pointer, size)
    return signature(c_runtime.own_gemm()[0 if element == "f32" else 1])


def tolerance(element: str, k: int) -> float:
    """A sum of k products of unit-size numbers: k rounding errors at most."""
    return 4 * max(k, 1) * float(np.finfo(ELEMENTS[element][0]).eps)


def gemm(element, a, b, trans_a=False, trans_b=False, alpha=1.0, beta=0.0, c=None, order=ROW):
    """C = alpha op(A) op(B) + beta C through the kernel, on row-major arrays
    (column-major: the same arrays read as their transposes' storage)."""
    dtype, _ = ELEMENTS[element]
    op_a, op_b = (a.T if trans_a else a), (b.T if trans_b else b)
    m, k = op_a.shape
    n = op_b.shape[1]
    c = np.full((m, n), np.nan, dtype) if c is None else c
    if order == ROW:
        kernel(element)(ROW, TRANS if trans_a else NO, TRANS if trans_b else NO, m, n, k, alpha,
                        a.ctypes.data, max(a.shape[1], 1), b.ctypes.data, max(b.shape[1], 1), beta,
                        c.ctypes.data, max(n, 1))
    else:  # column-major C^T = op(B)^T op(A)^T on the same storage
        kernel(element)(COL, TRANS if trans_b else NO, TRANS if trans_a else NO, n, m, k, alpha,
                        b.ctypes.data, max(b.shape[1], 1), a.ctypes.data, max(a.shape[1], 1), beta,
                        c.ctypes.data, max(n, 1))
    return c


def operands(element, m, n, k, trans_a, trans_b, seed):
    rng = np.random.default_rng(seed)
    dtype, _ = ELEMENTS[element]
    a = rng.standard_normal((k, m) if trans_a else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if trans_b else (k, n)).astype(dtype)
    return a, b


def reference(a, b, trans_a, trans_b):
    return (a.T if trans_a else a).astype(np.float64) @ (b.T if trans_b else b).astype(np.float64)


SHAPES = [(1, 1, 1), (7, 13, 5), (12, 32, 1), (13, 33, 2), (65, 129, 257), (200, 70, 1030), (20, 70, 2100),
          (3, 3100, 9)]
"""m, n, k: single elements, edges of the 12 x 32 micro-tile on either side,
a contracted dim crossing the 1024 block once (with rows crossing the 192
block) and twice, columns crossing the 3072 block."""


@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("m, n, k", SHAPES)
@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, False), (False, True), (True, True)])
def test_kernel_matches_numpy(element, m, n, k, trans_a, trans_b):
    a, b = operands(element, m, n, k, trans_a, trans_b, seed=m + n + k)
    got = gemm(element, a, b, trans_a, trans_b)
    np.testing.assert_allclose(got, reference(a, b, trans_a, trans_b), rtol=tolerance(element, k),
                               atol=tolerance(element, k) * np.sqrt(k))


@pytest.mark.parametrize("element", ["f32", "f64"])
def test_column_major_order_is_the_transposed_product(element):
    a, b = operands(element, 37, 45, 70, False, True, seed=1)
    got = gemm(element, a, b, False, True, order=COL)
    np.testing.assert_allclose(got, reference(a, b, False, True), rtol=tolerance(element, 70), atol=1e-4)


@pytest.mark.parametrize("k", [5, 1030])
def test_alpha_and_beta_scale_and_accumulate(k):
    """C = 2 AB - 0.5 C, also when k spans several blocks (the later blocks
    add to C, the first one scales it)."""
    a, b = operands("f64", 29, 40, k, False, False, seed=2)
    c = np.random.default_rng(3).standard_normal((29, 40))
    want = 2 * reference(a, b, False, False) - 0.5 * c
    np.testing.assert_allclose(gemm("f64", a, b, alpha=2.0, beta=-0.5, c=c), want, rtol=1e-12, atol=1e-11)


@pytest.mark.parametrize("beta, fill", [(0.0, np.nan), (3.0, 1.0)])
def test_an_empty_contraction_is_beta_c(beta, fill):
    """k = 0: C = beta C, and beta = 0 overwrites C without reading it (a
    NaN in C does not survive, as BLAS specifies)."""
    a, b = np.zeros((4, 0), np.float32), np.zeros((0, 6), np.float32)
    got = gemm("f32", a, b, beta=beta, c=np.full((4, 6), fill, np.float32))
    np.testing.assert_array_equal(got, np.full((4, 6), beta * fill if beta else 0.0, np.float32))


@pytest.mark.parametrize("m, n", [(0, 5), (5, 0)])
def test_an_empty_result_writes_nothing(m, n):
    a, b = operands("f32", m, n, 3, False, False, seed=4)
    sentinel = np.full(8, 7.0, np.float32)
    kernel("f32")(ROW, NO, NO, m, n, 3, 1.0, a.ctypes.data, 3, b.ctypes.data, max(n, 1), 0.0,
                  sentinel.ctypes.data, max(n, 1))
    np.testing.assert_array_equal(sentinel, 7.0)


def test_nan_and_inf_in_the_operands_propagate():
    """No shortcut skips a product: a NaN row of A makes that row of C NaN,
    an inf column of B that column (others finite)."""
    a, b = operands("f32", 20, 40, 30, False, False, seed=5)
    a[3, 7], b[11, 33] = np.nan, np.inf
    got = gemm("f32", a, b)
    assert np.isnan(got[3]).all()
    assert not np.isfinite(np.delete(got, 3, axis=0)[:, 33]).any()
    assert np.isfinite(np.delete(np.delete(got, 3, axis=0), 33, axis=1)).all()


def program(lhs, rhs, dims, element):
    """A ``stablehlo.dot_general`` of lhs x rhs with dimension numbers
    (lhs batch, rhs batch, lhs contracting, rhs contracting)."""
    lb, rb, lc, rc = dims
    out = [lhs[d] for d in lb] + [s for i, s in enumerate(lhs) if i not in lb + lc] \
        + [s for i, s in enumerate(rhs) if i not in rb + rc]
    t = lambda shape: f"tensor<{'x'.join(map(str, shape))}x{element}>"  # noqa: E731
    return f"""
func.func @main(%a: {t(lhs)}, %b: {t(rhs)}) -> {t(out)} {{
  %0 = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = {list(lb)}, rhs_batching_dimensions = {list(rb)}, lhs_contracting_dimensions = {list(lc)}, rhs_contracting_dimensions = {list(rc)}>}} : ({t(lhs)}, {t(rhs)}) -> {t(out)}
  func.return %0 : {t(out)}
}}
"""


COMPILED = [
    ((7, 13), (13, 5), ((), (), (1,), (0,)), "ij,jk->ik"),
    ((65, 257), (129, 257), ((), (), (1,), (1,)), "ij,kj->ik"),  # B transposed
    ((257, 65), (257, 129), ((), (), (0,), (0,)), "ji,jk->ik"),  # A transposed
    ((3, 33, 70), (3, 70, 50), ((0,), (0,), (2,), (1,)), "bij,bjk->bik"),  # a batch
    ((2, 610, 200), (2, 300, 200), ((0,), (0,), (2,), (2,)), "bij,bkj->bik"),  # row blocks on threads
]


@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("lhs, rhs, dims, spec", COMPILED)
def test_compiled_contractions_match_einsum_and_own_their_memory(element, lhs, rhs, dims, spec):
    """Through the C target (the kernel in row blocks per batch): the
    result is einsum's and shares no memory with the operands."""
    dtype, _ = ELEMENTS[element]
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(lhs).astype(dtype), rng.standard_normal(rhs).astype(dtype)
    got = np.asarray(bcast.compile(program(lhs, rhs, dims, element), backend="c")(x, y))
    k = lhs[dims[2][0]]
    assert got.dtype == dtype
    assert not np.shares_memory(got, x) and not np.shares_memory(got, y)
    np.testing.assert_allclose(got, np.einsum(spec, x.astype(np.float64), y.astype(np.float64)),
                               rtol=tolerance(element, k), atol=tolerance(element, k) * np.sqrt(k))


SANITIZED_MAIN = r"""
#include <math.h>
#include <stdio.h>
void bcast_sgemm(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t, const float *, int64_t,
                 float, float *, int64_t);
void bcast_dgemm(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t, const double *,
                 int64_t, double, double *, int64_t);
void *bcast_sgemm_pack(int, int64_t, int64_t, const float *, int64_t);
void *bcast_dgemm_pack(int, int64_t, int64_t, const double *, int64_t);
void bcast_sgemm_packed(int, int64_t, int64_t, int64_t, const float *, int64_t, const void *, float *, int64_t);
void bcast_dgemm_packed(int, int64_t, int64_t, int64_t, const double *, int64_t, const void *, double *, int64_t);
void bcast_gemm_release(void *);
/* Every operand in a buffer of exactly its size (ASan sees any read or
   write past it); the product checked against a plain triple loop. */
static int run(int64_t m, int64_t n, int64_t k, int ta, int tb) {
    float *a = malloc(sizeof(float) * (m * k ? m * k : 1)), *b = malloc(sizeof(float) * (k * n ? k * n : 1));
    float *c = malloc(sizeof(float) * (m * n ? m * n : 1));
    double *ad = malloc(sizeof(double) * (m * k ? m * k : 1)), *bd = malloc(sizeof(double) * (k * n ? k * n : 1));
    double *cd = malloc(sizeof(double) * (m * n ? m * n : 1));
    for (int64_t i = 0; i < m * k; i++) ad[i] = a[i] = (float)((i * 7 % 13) - 6) / 4.0f;
    for (int64_t i = 0; i < k * n; i++) bd[i] = b[i] = (float)((i * 5 % 11) - 5) / 4.0f;
    int64_t lda = ta ? m : k, ldb = tb ? k : n;
    bcast_sgemm(101, ta ? 112 : 111, tb ? 112 : 111, m, n, k, 1.0f, a, lda ? lda : 1, b, ldb ? ldb : 1, 0.0f, c,
                n ? n : 1);
    bcast_dgemm(101, ta ? 112 : 111, tb ? 112 : 111, m, n, k, 1.0, ad, lda ? lda : 1, bd, ldb ? ldb : 1, 0.0, cd,
                n ? n : 1);
    /* The same products again in two row blocks with B packed once (the
       generated code's path for a product split across threads); both
       packed Bs live at once (the second is not the thread's cached one). */
    float *c2 = malloc(sizeof(float) * (m * n ? m * n : 1));
    double *cd2 = malloc(sizeof(double) * (m * n ? m * n : 1));
    void *pb = bcast_sgemm_pack(tb ? 112 : 111, n, k, b, ldb ? ldb : 1);
    void *pbd = bcast_dgemm_pack(tb ? 112 : 111, n, k, bd, ldb ? ldb : 1);
    int packed = pb && pbd;  /* NULL exactly when there is nothing to pack */
    if (packed != (n > 0 && k > 0)) return 1;
    for (int64_t r0 = 0, half = (m + 1) / 2; packed && r0 < m; r0 += half) {
        int64_t rows = m - r0 < half ? m - r0 : half;
        bcast_sgemm_packed(ta ? 112 : 111, rows, n, k, ta ? a + r0 : a + r0 * k, lda, pb, c2 + r0 * n, n);
        bcast_dgemm_packed(ta ? 112 : 111, rows, n, k, ta ? ad + r0 : ad + r0 * k, lda, pbd, cd2 + r0 * n, n);
    }
    bcast_gemm_release(pb); bcast_gemm_release(pbd);
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double want = 0;
            for (int64_t p = 0; p < k; p++)
                want += (ta ? ad[p * m + i] : ad[i * k + p]) * (tb ? bd[j * k + p] : bd[p * n + j]);
            if (fabs(c[i * n + j] - want) > 1e-4 * (k + 1) || fabs(cd[i * n + j] - want) > 1e-9 * (k + 1)) bad = 1;
            if (packed && (c2[i * n + j] != c[i * n + j] || cd2[i * n + j] != cd[i * n + j])) bad = 1;
        }
    free(a); free(b); free(c); free(ad); free(bd); free(cd); free(c2); free(cd2);
    return bad;
}
int main(void) {
    static const int64_t shapes[][3] = {{1, 1, 1}, {7, 13, 5}, {13, 33, 2}, {65, 129, 257}, {200, 70, 1030},
                                        {20, 70, 2100}, {3, 3100, 9}, {3, 1024, 600}, {4, 6, 0}, {0, 5, 3},
                                        {5, 0, 3}};
    for (int s = 0; s < 11; s++)
        for (int t = 0; t < 4; t++)
            if (run(shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t >> 1)) {
                printf("wrong %d %d\n", s, t);
                return 1;
            }
    puts("clean");
    return 0;
}
"""


@pytest.mark.parametrize("isa", quick_sample([pytest.param([], id="native"), pytest.param(["-mno-avx"], id="sse"),
                                              pytest.param(["-mno-avx512f"], id="avx2")], 2))
def test_kernels_are_clean_under_sanitizers(tmp_path, isa):
    """The kernels' source built with ASan and UBSan (any report aborts) and
    run on operands held in buffers of exactly their size, over the edge
    shapes, every transpose, k = 0 and empty results: no read or write
    outside them, no undefined behaviour, and the products right, also
    when computed in two row blocks against a B packed once (bitwise equal
    to the one call: same blocking, same order of sums; a packed f32 B
    of 2.4 MB, 3 x 1024 x 600, takes the kept buffer's huge-page path); for the
    machine's vectors and, with them turned off, the AVX2 (6 x 16 tiles)
    and SSE (6 x 8) variants other machines get."""
    import subprocess

    from bcast.lowering import c_gemm

    cc = c_runtime.require_compiler()
    source = tmp_path / "gemm.c"
    source.write_text(c_gemm.SOURCE + SANITIZED_MAIN)
    exe = tmp_path / "gemm"
    done = subprocess.run([*cc, "-std=c99", "-O1", "-g", "-march=native", *isa, "-fsanitize=address,undefined",
                           "-fno-sanitize-recover=all", str(source), "-o", str(exe), "-lm"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "clean", (run.stdout, run.stderr[-3000:])


def test_the_c_target_links_bcasts_own_kernels():
    """A loaded C module's GEMM pointers are ``c_gemm``'s kernels (not
    NumPy's OpenBLAS, which runs AVX2 kernels on CPUs it does not know)."""
    from bcast.lowering import c_emitter
    from bcast.tools import driver
    from bcast.tools.targets import TARGETS

    module = driver.load(program((7, 13), (13, 5), ((), (), (1,), (0,)), "f32"), "prog.mlir",
                         pipeline=TARGETS["c"].emit_pipeline)
    library = c_runtime.Library(c_emitter.emit_text(module), {}).library
    linked = [ctypes.c_void_p.in_dll(library, name).value for name in c_runtime.BLAS_POINTERS]
    assert linked == list(c_runtime.own_gemm()) and None not in linked


def packed_in_parts(element, a, b, trans_a, trans_b, cuts):
    """op(A) op(B) through a B packed in parts (``*_pack_buffer``, then
    ``*_pack_rows`` on B's rows between consecutive ``cuts``, in reverse
    order, as threads may take them) and the packed product, into a NaN
    filled C."""
    dtype, _ = ELEMENTS[element]
    size, pointer = ctypes.c_int64, ctypes.c_void_p
    kernels = dict(zip(c_gemm.SYMBOLS, c_runtime.own_gemm(), strict=True))
    letter = "s" if element == "f32" else "d"
    buffer = ctypes.CFUNCTYPE(pointer, size, size)(kernels[f"bcast_{letter}gemm_pack_buffer"])
    rows = ctypes.CFUNCTYPE(None, ctypes.c_int, size, size, pointer, size, pointer, size, size)(
        kernels[f"bcast_{letter}gemm_pack_rows"])
    product = ctypes.CFUNCTYPE(None, ctypes.c_int, size, size, size, pointer, size, pointer, pointer, size)(
        kernels[f"bcast_{letter}gemm_packed"])
    release = ctypes.CFUNCTYPE(None, pointer)(kernels["bcast_gemm_release"])
    m, k = (a.shape[1], a.shape[0]) if trans_a else a.shape
    n = b.shape[0] if trans_b else b.shape[1]
    c = np.full((m, n), np.nan, dtype)
    base = buffer(n, k)
    assert base
    try:
        for lo, hi in reversed(list(zip(cuts, cuts[1:]))):
            rows(TRANS if trans_b else NO, n, k, b.ctypes.data, b.shape[1], base, lo, hi)
        product(TRANS if trans_a else NO, m, n, k, a.ctypes.data, a.shape[1], base, c.ctypes.data, n)
    finally:
        release(base)
    return c


@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("m, n, k, cuts", [
    (1, 1, 1, (0, 1)), (7, 13, 5, (0, 2, 2, 5)), (13, 33, 40, (0, 16, 32, 40)),
    (65, 129, 1030, (0, 16, 1000, 1024, 1025, 1030)), (20, 3100, 9, (0, 3, 6, 9)),
])
@pytest.mark.parametrize("trans_a, trans_b", [(False, False), (True, True)])
def test_b_packed_in_parts_by_rows_gives_the_product(element, m, n, k, cuts, trans_a, trans_b):
    """B's rows packed in parts (an empty part, parts inside and across the
    1024-row block, column edges of the 32-wide panels and the 3072 block,
    in any order) then multiplied: op(A) op(B), every element written."""
    a, b = operands(element, m, n, k, trans_a, trans_b, seed=m * 31 + n + k)
    got = packed_in_parts(element, a, b, trans_a, trans_b, cuts)
    np.testing.assert_allclose(got, reference(a, b, trans_a, trans_b), rtol=tolerance(element, k),
                               atol=tolerance(element, k))
