"""bcast's own f32 and f64 matrix products, a fixed C source the runtime
builds once (``c_runtime.load``, cached like a module) and points the
generated code's ``bcast_blas_sgemm``/``dgemm`` at (``c_runtime.link_blas``).

Why our own: OpenBLAS picks its kernels by the CPU it detects at load, and
it takes CPUs it does not know (the AMD EPYC with AVX-512 we measure on) for
a Haswell and runs AVX2 kernels, half as fast as the machine; a library
cannot change that once NumPy has loaded OpenBLAS. This kernel is compiled
by the same ``-march=native`` compiler as the generated code, so it uses the
widest vectors the machine has. docs/c-backend.md ("Contractions") and
docs/performance.md give the measurements behind the choice.

Structure (Goto's): C = A B is computed in blocks of KC of the contracted
dim; per block, B's KC x NC part is packed into panels of NR columns
(contiguous, zero-padded) and A's MC x KC part into slivers of MR rows; a
register-blocked micro-kernel then multiplies one sliver by one panel into
an MR x NR tile of accumulators (MR x NR / VL vector registers) and adds
the tile to C. The panel (KC x NR) is reused from L1 by every sliver of
the MC rows, which stream from L2; the packed B block stays in L2/L3. The
vectors are GCC vector extensions, so one source serves AVX-512 (16 f32
lanes), AVX2 (8), SSE (4) and anything else the compiler lowers them to.

``bcast_sgemm``/``bcast_dgemm`` have the CBLAS ``sgemm``/``dgemm`` signature
with 64-bit sizes (order, transposes, sizes, alpha, A, lda, B, ldb, beta,
C, ldc) and run on the calling thread. The generated code splits a large
product into row blocks on OpenMP threads; for one matrix product it packs
all of B once (``bcast_sgemm_pack``, into a buffer the calling thread keeps,
given back with ``bcast_gemm_release``) and each block multiplies its rows
with the packed B (``bcast_sgemm_packed``), the same loops as one call
(``rows_times_block``), so the blocks do not each pack B again.

Decision (issue 22, the dense layer at 1024 against XLA): kept over calling
NumPy's OpenBLAS (``scipy_cblas_sgemm64_``, resolvable from numpy.libs),
which still runs its Haswell kernels here at about half this kernel's speed
per core (1.9x slower at 1024^3 on one thread). The gap to XLA was the
threading around the kernel: the shared packed B, the kept buffer, blocks
sized for L2 and a short OpenMP spin (``c_runtime.OPENMP_SPIN``) brought
the layer from 1.45-1.63x jax.jit's time to about even at 1024 and
0.8x at 4096 (docs/performance.md)."""

from string import Template

from bcast.passes.conv_gemm import NARROW_OUTS

SYMBOLS = ("bcast_sgemm", "bcast_dgemm", "bcast_sgemm_pack", "bcast_dgemm_pack", "bcast_sgemm_packed",
           "bcast_dgemm_packed", "bcast_gemm_release", "bcast_sgemm_pack_buffer", "bcast_dgemm_pack_buffer",
           "bcast_sgemm_pack_rows", "bcast_dgemm_pack_rows", "bcast_sconv_pack", "bcast_dconv_pack",
           "bcast_sconv_packed", "bcast_dconv_packed")
"""The entry points of the library ``SOURCE`` builds: the CBLAS-style
products, the packing of a whole B, and the product of rows of A with a
packed B (f32, f64 each), the release of a packed B, a packed B's
buffer and the packing of some of its rows (f32, f64 each), and the
convolution's kernel packing and rows (f32, f64 each;
``bcast.ir.loops.conv_geometry``);
``c_runtime.BLAS_POINTERS`` names the generated code's pointers to them in
the same order."""


KERNEL = Template(r"""
/* Lanes per vector (the widest the target has), rows per micro-tile
   (MR x 2 accumulator vectors, leaving registers for two B vectors and a
   broadcast A value), columns per micro-tile (two vectors), and the blocks
   of the contracted dim (KC: a KC x NR panel of B is 128 KiB at f32), of
   A's rows (MC) and of B's columns (NC). Picked by sweeps on Zen 5 (48 KiB
   L1d, 1 MiB L2 per core): MR 14 was much slower (register spills); KC
   1024 against 512 cut the CPU time of the dense layer's product at
   4096x1024x1024 by 4-5% (one thread 37.5 -> 35.7 ms, two 41.9 -> 39.9 ms
   per call, medians of interleaved runs; a contracted dim of 1024 is then
   one block, so C is written once instead of read back and added to),
   KC 768 was in between, KC 256 worse; MC 96 and 192 were even. */
#if defined(__AVX512F__)
#define VL (64 / (int)sizeof(${real}))
#define MR 12
#elif defined(__AVX__)
#define VL (32 / (int)sizeof(${real}))
#define MR 6
#else
#define VL (16 / (int)sizeof(${real}))
#define MR 6
#endif
#define NR (2 * VL)
#define KC 1024
#define MC 192
#define NC 3072

typedef ${real} vf_${x} __attribute__((vector_size(VL * sizeof(${real}))));
typedef ${real} vfu_${x} __attribute__((vector_size(VL * sizeof(${real})), aligned(sizeof(${real}))));

/* A's rows i0.. (mc of them) and columns p0.. (kc) into slivers of MR rows:
   sliver s holds element (s*MR + r, p) at s*MR*kc + p*MR + r; rows past mc
   are zero so the micro-kernel needs no row edge. */
static void pack_a_${x}(int ta, const ${real} *a, int64_t lda, int64_t i0, int64_t p0, int64_t mc, int64_t kc,
                   ${real} *restrict out) {
    for (int64_t s = 0; s < mc; s += MR) {
        int64_t rows = mc - s < MR ? mc - s : MR;
        for (int64_t p = 0; p < kc; p++) {
            ${real} *o = out + s * kc + p * MR;
            if (ta) {
                const ${real} *col = a + (p0 + p) * lda + i0 + s;
                for (int64_t r = 0; r < rows; r++) o[r] = col[r];
            } else {
                const ${real} *row = a + (i0 + s) * lda + p0 + p;
                for (int64_t r = 0; r < rows; r++) o[r] = row[r * lda];
            }
            for (int64_t r = rows; r < MR; r++) o[r] = (${real})0;
        }
    }
}

/* B's rows p0.. (kc) and columns j0.. (nc) into panels of NR columns:
   panel t holds element (p, t*NR + c) at t*NR*kc + p*NR + c, columns past
   nc zero; only the block's rows lo..hi (0 <= lo <= hi <= kc) are written,
   so that threads can pack one block's rows between them. Row by row for
   a B stored K x N: each source row is read once, contiguous, into every
   panel (panel by panel read each row's NR columns at a stride of a row,
   which cost a quarter more: 0.82 against 0.54-0.61 ms for 1024 x 1024
   f32 on one core). */
static void pack_b_${x}(int tb, const ${real} *b, int64_t ldb, int64_t p0, int64_t j0, int64_t kc, int64_t nc,
                   int64_t lo, int64_t hi, ${real} *restrict out) {
    int64_t full = tb ? 0 : nc / NR * NR;
    for (int64_t p = lo; p < hi; p++) {
        const ${real} *row = b + (p0 + p) * ldb + j0;
        for (int64_t t = 0; t < full; t += NR) memcpy(out + t * kc + p * NR, row + t, NR * sizeof(${real}));
    }
    for (int64_t t = full; t < nc; t += NR) {
        int64_t cols = nc - t < NR ? nc - t : NR;
        ${real} *panel = out + t * kc;
        if (tb) {
            for (int64_t c = 0; c < cols; c++) {
                const ${real} *row = b + (j0 + t + c) * ldb + p0;
                for (int64_t p = lo; p < hi; p++) panel[p * NR + c] = row[p];
            }
        } else {
            for (int64_t p = lo; p < hi; p++) {
                const ${real} *row = b + (p0 + p) * ldb + j0 + t;
                for (int64_t c = 0; c < cols; c++) panel[p * NR + c] = row[c];
            }
        }
        for (int64_t p = lo; p < hi; p++)
            for (int64_t c = cols; c < NR; c++) panel[p * NR + c] = (${real})0;
    }
}

/* One MR x NR tile: acc = sliver x panel over kc, then C = alpha acc + beta C
   on the first block of the contracted dim (C not read when beta is 0, so
   stale NaNs do not leak in) and C += alpha acc on the others; only the
   rows x cols corner that exists is written. */
static void micro_${x}(int64_t kc, const ${real} *restrict ap, const ${real} *restrict bp, ${real} *c, int64_t ldc,
                  int64_t rows, int64_t cols, ${real} alpha, ${real} beta, int first) {
    vf_${x} acc[MR][2];
    for (int r = 0; r < MR; r++) acc[r][0] = acc[r][1] = (vf_${x}){0};
    for (int64_t p = 0; p < kc; p++) {
        vf_${x} b0 = *(const vf_${x} *)(bp + p * NR), b1 = *(const vf_${x} *)(bp + p * NR + VL);
#pragma GCC unroll 16
        for (int r = 0; r < MR; r++) {
            ${real} a = ap[p * MR + r];  /* a vector op with a scalar broadcasts it */
            acc[r][0] += b0 * a;
            acc[r][1] += b1 * a;
        }
    }
    if (rows == MR && cols == NR) {
#pragma GCC unroll 16
        for (int r = 0; r < MR; r++) {
            vfu_${x} *row = (vfu_${x} *)(c + r * ldc);
            vf_${x} x0 = acc[r][0] * alpha, x1 = acc[r][1] * alpha;
            if (!first) { x0 += row[0]; x1 += row[1]; }
            else if (beta != (${real})0) { x0 += beta * row[0]; x1 += beta * row[1]; }
            row[0] = x0;
            row[1] = x1;
        }
        return;
    }
    ${real} tile[MR][NR] __attribute__((aligned(64)));
    for (int r = 0; r < MR; r++) {
        *(vf_${x} *)&tile[r][0] = acc[r][0];
        *(vf_${x} *)&tile[r][VL] = acc[r][1];
    }
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < cols; j++) {
            ${real} x = alpha * tile[r][j];
            if (!first) x += c[r * ldc + j];
            else if (beta != (${real})0) x += beta * c[r * ldc + j];
            c[r * ldc + j] = x;
        }
}

static void scale_${x}(int64_t m, int64_t n, ${real} beta, ${real} *c, int64_t ldc) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) c[i * ldc + j] = beta == (${real})0 ? (${real})0 : beta * c[i * ldc + j];
}

/* C's rows 0..m (columns j0.., nc of them) += alpha op(A) B for one packed
   block of B (rows p0.., kc of them; panels at bp as pack_b lays them out):
   A's rows are packed MC at a time into ap, and each sliver meets each
   panel in the micro-kernel. first: the block is the first of the
   contracted dim (C = alpha op(A) B + beta C rather than C += ...). */
static void rows_times_block_${x}(int ta, const ${real} *a, int64_t lda, int64_t m, int64_t p0, int64_t kc,
                             const ${real} *bp, int64_t j0, int64_t nc, ${real} alpha, ${real} beta, int first,
                             ${real} *c, int64_t ldc, ${real} *restrict ap) {
    for (int64_t i0 = 0; i0 < m; i0 += MC) {
        int64_t mc = m - i0 < MC ? m - i0 : MC;
        pack_a_${x}(ta, a, lda, i0, p0, mc, kc, ap);
        for (int64_t t = 0; t < nc; t += NR)
            for (int64_t s = 0; s < mc; s += MR)
                micro_${x}(kc, ap + s * kc, bp + t * kc, c + (i0 + s) * ldc + j0 + t, ldc,
                      mc - s < MR ? mc - s : MR, nc - t < NR ? nc - t : NR, alpha, beta, first);
    }
}

/* A buffer of at least n ${real}s at a 64-byte boundary of the malloc'd
   block *base (which the caller frees); NULL when out of memory. */
static ${real} *aligned_${x}(size_t n, void **base) {
    *base = malloc(n * sizeof(${real}) + 64);  /* C99: no aligned_alloc */
    if (!*base) return NULL;
    return (${real} *)((char *)*base + (64 - (uintptr_t)*base % 64) % 64);
}

/* Row-major C (m x n) = alpha op(A) op(B) + beta C. */
static void row_major_${x}(int ta, int tb, int64_t m, int64_t n, int64_t k, ${real} alpha, const ${real} *a,
                      int64_t lda, const ${real} *b, int64_t ldb, ${real} beta, ${real} *c, int64_t ldc) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0 || alpha == (${real})0) {
        scale_${x}(m, n, beta, c, ldc);
        return;
    }
    int64_t kb = k < KC ? k : KC, nb = n < NC ? n : NC, mb = m < MC ? m : MC;
    size_t a_size = ((size_t)((mb + MR - 1) / MR * MR) * kb + 15) / 16 * 16;
    size_t b_size = (size_t)((nb + NR - 1) / NR * NR) * kb;
    void *base;
    ${real} *ap = aligned_${x}(a_size + b_size, &base);
    if (!ap) abort();
    ${real} *bp = ap + a_size;  /* a_size is a multiple of 16 ${real}s: bp is 64-byte aligned too */
    for (int64_t j0 = 0; j0 < n; j0 += NC) {
        int64_t nc = n - j0 < NC ? n - j0 : NC;
        for (int64_t p0 = 0; p0 < k; p0 += KC) {
            int64_t kc = k - p0 < KC ? k - p0 : KC;
            pack_b_${x}(tb, b, ldb, p0, j0, kc, nc, 0, kc, bp);
            rows_times_block_${x}(ta, a, lda, m, p0, kc, bp, j0, nc, alpha, beta, p0 == 0, c, ldc, ap);
        }
    }
    free(base);
}

/* All of op(B) (k x n) packed once, for products of many row blocks of A
   with the same B (the generated code's row blocks on threads): block
   (j0, p0) of pack_b's layout at j0 * k + p0 * ncp (ncp: the block's
   columns rounded up to NR). bcast_${x}gemm_pack_buffer reserves the
   buffer (give it back with bcast_gemm_release; NULL: out of memory, or
   nothing to pack, and the caller then calls bcast_${x}gemm), and
   bcast_${x}gemm_pack_rows packs B's rows lo..hi into it, so that the
   threads of the product pack B between them (one thread packing a
   1024 x 1024 f32 B while the other waited was 0.5-0.8 ms of the dense
   layer's 12-13); bcast_${x}gemm_pack does both on the calling thread. */
void *bcast_${x}gemm_pack_buffer(int64_t n, int64_t k) {
    if (n <= 0 || k <= 0) return NULL;
    return pack_buffer(((size_t)k * (size_t)((n + NR - 1) / NR * NR)) * sizeof(${real}) + 64);
}

void bcast_${x}gemm_pack_rows(int trans_b, int64_t n, int64_t k, const ${real} *b, int64_t ldb, void *base,
                           int64_t lo, int64_t hi) {
    ${real} *packed = (${real} *)((char *)base + (64 - (uintptr_t)base % 64) % 64);
    for (int64_t j0 = 0; j0 < n; j0 += NC) {
        int64_t nc = n - j0 < NC ? n - j0 : NC, ncp = (nc + NR - 1) / NR * NR;
        for (int64_t p0 = 0; p0 < k; p0 += KC) {
            int64_t kc = k - p0 < KC ? k - p0 : KC;
            int64_t from = lo > p0 ? lo - p0 : 0, to = hi < p0 + kc ? hi - p0 : kc;
            if (from < to)
                pack_b_${x}(trans_b != 111, b, ldb, p0, j0, kc, nc, from, to, packed + j0 * k + p0 * ncp);
        }
    }
}

void *bcast_${x}gemm_pack(int trans_b, int64_t n, int64_t k, const ${real} *b, int64_t ldb) {
    void *base = bcast_${x}gemm_pack_buffer(n, k);
    if (base) bcast_${x}gemm_pack_rows(trans_b, n, k, b, ldb, base, 0, k);
    return base;
}

/* Row-major C (m x n) = op(A) B with B packed by bcast_${x}gemm_pack (same
   n and k); runs on the calling thread, reading the packed B only, so row
   blocks of one product can run at once. */
void bcast_${x}gemm_packed(int trans_a, int64_t m, int64_t n, int64_t k, const ${real} *a, int64_t lda,
                        const void *packed_base, ${real} *c, int64_t ldc) {
    if (m <= 0) return;
    const ${real} *packed = (const ${real} *)((const char *)packed_base
                                         + (64 - (uintptr_t)packed_base % 64) % 64);
    int64_t kb = k < KC ? k : KC, mb = m < MC ? m : MC;
    void *base;
    ${real} *ap = aligned_${x}((size_t)((mb + MR - 1) / MR * MR) * kb, &base);
    if (!ap) abort();
    for (int64_t j0 = 0; j0 < n; j0 += NC) {
        int64_t nc = n - j0 < NC ? n - j0 : NC, ncp = (nc + NR - 1) / NR * NR;
        for (int64_t p0 = 0; p0 < k; p0 += KC)
            rows_times_block_${x}(trans_a != 111, a, lda, m, p0, k - p0 < KC ? k - p0 : KC,
                                  packed + j0 * k + p0 * ncp, j0, nc, (${real})1, (${real})0, p0 == 0, c, ldc, ap);
    }
    free(base);
}

/* CBLAS order: 101 row-major, 102 column-major; transposes: 111 no, 112/113
   yes. Column-major C = op(A) op(B) is row-major C^T = op(B)^T op(A)^T. */
void bcast_${x}gemm(int order, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, ${real} alpha,
                 const ${real} *a, int64_t lda, const ${real} *b, int64_t ldb, ${real} beta, ${real} *c, int64_t ldc) {
    int ta = trans_a != 111, tb = trans_b != 111;
    if (order == 101)
        row_major_${x}(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else
        row_major_${x}(tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
}

/* Convolutions (bcast.ir.loops.conv_geometry; docs/c-backend.md,
   "Convolutions"): a convolution is the product of its im2col matrix
   (one row per output place, one column per kernel place and input
   feature) and its kernel as a (places * features) x (out features)
   matrix; neither is materialized. The kernel is packed once per call
   into the GEMM's panels (bcast_${x}conv_pack, read through its strides,
   reversed where asked). With contiguous input features the micro-kernel
   reads the im2col rows in place, through one pointer per row and kernel
   place (conv_rows, micro_conv: a row of zeros where padding or dilation
   puts no element); otherwise they are packed straight from the input
   into the GEMM's slivers (pack_a_conv) for its micro-kernel. */
static int64_t conv_places_${x}(const int64_t *g, int field) {
    int64_t count = 1;
    for (int64_t s = 0; s < g[0]; s++) count *= g[9 + 10 * s + field];
    return count;
}

/* The input element a row of the output reads at one kernel place: from
   the row's image (base), its window origin per spatial dim (origin, in
   the dilated, padded input) plus the place's offset (reach); NULL where
   padding or lhs dilation puts no element. */
static inline const ${real} *conv_at_${x}(const ${real} *base, const int64_t *sp, int64_t nsp,
                                          const int64_t *origin, const int64_t *reach) {
    const ${real} *at = base;
    for (int64_t s = 0; s < nsp; s++) {
        const int64_t *d = sp + 10 * s;
        int64_t q = origin[s] + reach[s];  /* in the dilated input */
        if (d[5] != 1) {
            if (q < 0 || q % d[5]) return NULL;
            q /= d[5];
        }
        if (q < 0 || q >= d[0]) return NULL;
        at += q * d[7];
    }
    return at;
}

/* Output rows i0.. (mc of them) and im2col columns p0.. (kc) of group grp
   into slivers of MR rows, as pack_a lays them out: for an input whose
   features are not contiguous (xc > 1, an NCHW input; contiguous ones are
   read in place through conv_rows). Per kernel place, each row's input
   element is found once and its run of features copied (zeros where
   padding or dilation puts none). */
static void pack_a_conv_${x}(const ${real} *x, const int64_t *g, int64_t grp, int64_t i0, int64_t p0, int64_t mc,
                        int64_t kc, ${real} *restrict out) {
    int64_t nsp = g[0], features = g[1], xc = g[6], per_image = conv_places_${x}(g, 1);
    const int64_t *sp = g + 9;
    const ${real} *xg = x + grp * features * xc;
    for (int64_t s0 = 0; s0 < mc; s0 += MR) {
        int64_t rows = mc - s0 < MR ? mc - s0 : MR;
        const ${real} *base[MR];
        int64_t origin[MR][3];
        for (int64_t r = 0; r < rows; r++) {
            int64_t row = i0 + s0 + r, rest = row % per_image;
            base[r] = xg + (row / per_image) * g[5];
            for (int64_t s = nsp - 1; s >= 0; s--) {
                origin[r][s] = (rest % sp[10 * s + 1]) * sp[10 * s + 3] - sp[10 * s + 6];
                rest /= sp[10 * s + 1];
            }
        }
        ${real} *o = out + s0 * kc;
        for (int64_t p = p0; p < p0 + kc;) {
            int64_t tap = p / features, c0 = p % features;
            int64_t run = features - c0 < p0 + kc - p ? features - c0 : p0 + kc - p;
            int64_t k[3];
            for (int64_t s = nsp - 1; s >= 0; s--) {
                k[s] = tap % sp[10 * s + 2];
                tap /= sp[10 * s + 2];
            }
            int64_t reach[3];
            for (int64_t s = 0; s < nsp; s++) reach[s] = k[s] * sp[10 * s + 4];
            const ${real} *src[MR];
            for (int64_t r = 0; r < MR; r++)
                src[r] = r < rows ? conv_at_${x}(base[r], sp, nsp, origin[r], reach) : NULL;
            ${real} *dst = o + (p - p0) * MR;
            for (int64_t r = 0; r < MR; r++)
                for (int64_t c = 0; c < run; c++) dst[c * MR + r] = src[r] ? src[r][(c0 + c) * xc] : (${real})0;
            p += run;
        }
    }
}

/* The input elements of output rows row0.. (rows of them, up to MR) at
   every kernel place: ptrs[tap * MR + r] is row r's first feature there
   (of group grp), or zeros where padding or dilation puts no element (and
   for the rows past rows); reach[tap * 3 + s]: the place's offset along
   spatial dim s in the dilated input (conv_reach), so no division per
   place. The indirection the micro-kernel reads A
   through when the features are contiguous. */
static void conv_rows_${x}(const ${real} *x, const int64_t *g, int64_t grp, int64_t row0, int64_t rows, int64_t taps,
                      const int64_t *reach, const ${real} *zeros, const ${real} **ptrs) {
    int64_t nsp = g[0], per_image = conv_places_${x}(g, 1);
    const int64_t *sp = g + 9;
    for (int64_t r = 0; r < MR; r++) {
        const ${real} *base = NULL;
        int64_t origin[3] = {0, 0, 0};
        if (r < rows) {
            int64_t row = row0 + r, rest = row % per_image;
            base = x + grp * g[1] * g[6] + (row / per_image) * g[5];
            for (int64_t s = nsp - 1; s >= 0; s--) {
                origin[s] = (rest % sp[10 * s + 1]) * sp[10 * s + 3] - sp[10 * s + 6];
                rest /= sp[10 * s + 1];
            }
        }
        for (int64_t tap = 0; tap < taps; tap++) {
            const ${real} *at = base ? conv_at_${x}(base, sp, nsp, origin, reach + tap * 3) : NULL;
            ptrs[tap * MR + r] = at ? at : zeros;
        }
    }
}

/* Each kernel place's offset along each spatial dim (k * rhs dilation),
   into reach[tap * 3 + s]. */
static void conv_reach_${x}(const int64_t *g, int64_t taps, int64_t *reach) {
    for (int64_t tap = 0; tap < taps; tap++)
        for (int64_t s = g[0] - 1, t = tap; s >= 0; s--) {
            reach[tap * 3 + s] = (t % g[9 + 10 * s + 2]) * g[9 + 10 * s + 4];
            t /= g[9 + 10 * s + 2];
        }
}

/* micro_${x} with A read through conv_rows' pointers instead of a packed
   sliver: columns p0.. (kc) of the im2col rows, each kernel place's run
   of contiguous features after the other. */
static void micro_conv_${x}(int64_t features, int64_t p0, int64_t kc, const ${real} *const *ptrs,
                       const ${real} *restrict bp, ${real} *c, int64_t ldc, int64_t rows, int64_t cols, int first) {
    vf_${x} acc[MR][2];
    for (int r = 0; r < MR; r++) acc[r][0] = acc[r][1] = (vf_${x}){0};
    for (int64_t p = p0; p < p0 + kc;) {
        int64_t tap = p / features, c0 = p % features;
        int64_t run = features - c0 < p0 + kc - p ? features - c0 : p0 + kc - p;
        const ${real} *a[MR];
        for (int r = 0; r < MR; r++) a[r] = ptrs[tap * MR + r] + c0;
        const ${real} *b = bp + (p - p0) * NR;
        for (int64_t q = 0; q < run; q++) {
            vf_${x} b0 = *(const vf_${x} *)(b + q * NR), b1 = *(const vf_${x} *)(b + q * NR + VL);
#pragma GCC unroll 16
            for (int r = 0; r < MR; r++) {
                ${real} v = a[r][q];
                acc[r][0] += b0 * v;
                acc[r][1] += b1 * v;
            }
        }
        p += run;
    }
    if (rows == MR && cols == NR) {
#pragma GCC unroll 16
        for (int r = 0; r < MR; r++) {
            vfu_${x} *row = (vfu_${x} *)(c + r * ldc);
            row[0] = first ? acc[r][0] : row[0] + acc[r][0];
            row[1] = first ? acc[r][1] : row[1] + acc[r][1];
        }
        return;
    }
    ${real} tile[MR][NR] __attribute__((aligned(64)));
    for (int r = 0; r < MR; r++) {
        *(vf_${x} *)&tile[r][0] = acc[r][0];
        *(vf_${x} *)&tile[r][VL] = acc[r][1];
    }
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < cols; j++) c[r * ldc + j] = first ? tile[r][j] : c[r * ldc + j] + tile[r][j];
}

/* Narrow groups (docs/c-backend.md, "Convolutions"): a grouped
   convolution with fewer than NARROW_OUTS output features per group (a
   depthwise one: one input feature per group) would fill the GEMM's
   micro-tile, NR output features wide, mostly with padding
   (passes/conv_gemm.py, NARROW_OUTS). Its kernel is
   packed per kernel place and input feature of the group as one row of
   all the output features (conv_narrow_pack), and each output row is
   summed in place over the kernel places, the output features innermost:
   with one input and one output feature per group and contiguous input
   features, one vector product of the input row at that place and the
   kernel row (conv_narrow_rows). A row whose window lies inside an
   undilated input reads each place at a fixed offset from its origin,
   with no bounds test. */
static int conv_narrow_${x}(const int64_t *g) { return g[3] > 1 && g[2] < ${narrow_outs}; }

/* The kernel element of input feature c (of its group) at kernel place
   tap, for output feature 0 (add the output feature times g[8]). */
static int64_t conv_kernel_at_${x}(const int64_t *g, int64_t tap, int64_t c) {
    int64_t at = c * g[7];
    for (int64_t s = g[0] - 1; s >= 0; s--) {
        const int64_t *d = g + 9 + 10 * s;
        int64_t place = tap % d[2];
        at += (d[9] ? d[2] - 1 - place : place) * d[8];
        tap /= d[2];
    }
    return at;
}

static void conv_narrow_pack_${x}(const ${real} *w, const int64_t *g, ${real} *restrict packed) {
    int64_t features = g[1], ldc = g[4], taps = conv_places_${x}(g, 2);
    for (int64_t tap = 0; tap < taps; tap++)
        for (int64_t c = 0; c < features; c++) {
            int64_t at = conv_kernel_at_${x}(g, tap, c);
            ${real} *row = packed + (tap * features + c) * ldc;
            for (int64_t f = 0; f < ldc; f++) row[f] = w[at + f * g[8]];
        }
}

static void conv_narrow_rows_${x}(const ${real} *x, const int64_t *g, int64_t row0, int64_t m,
                                  const ${real} *restrict packed, ${real} *c) {
    int64_t nsp = g[0], features = g[1], outs = g[2], groups = g[3], ldc = g[4], xc = g[6];
    int64_t per_image = conv_places_${x}(g, 1), taps = conv_places_${x}(g, 2);
    const int64_t *sp = g + 9;
    int64_t *reach = malloc((size_t)(taps * 3) * sizeof *reach);
    if (!reach) abort();
    conv_reach_${x}(g, taps, reach);
    int depthwise = features == 1 && outs == 1 && xc == 1;
    /* Without input dilation, a row whose window lies inside the input
       reads each kernel place at a fixed offset from its origin (offset):
       no bounds test per place. */
    int undilated = 1;
    int64_t *offset = malloc((size_t)taps * sizeof *offset);
    if (!offset) abort();
    for (int64_t s = 0; s < nsp; s++) undilated &= sp[10 * s + 5] == 1;
    for (int64_t tap = 0; tap < taps; tap++) {
        offset[tap] = 0;
        for (int64_t s = 0; s < nsp; s++) offset[tap] += reach[tap * 3 + s] * sp[10 * s + 7];
    }
    for (int64_t i = 0; i < m; i++) {
        int64_t row = row0 + i, rest = row % per_image;
        const ${real} *base = x + (row / per_image) * g[5];
        int64_t origin[3] = {0, 0, 0};
        for (int64_t s = nsp - 1; s >= 0; s--) {
            origin[s] = (rest % sp[10 * s + 1]) * sp[10 * s + 3] - sp[10 * s + 6];
            rest /= sp[10 * s + 1];
        }
        ${real} *restrict out = c + row * ldc;
        for (int64_t f = 0; f < ldc; f++) out[f] = (${real})0;
        int inside = undilated;
        int64_t at0 = 0;
        for (int64_t s = 0; s < nsp && inside; s++) {
            const int64_t *d = sp + 10 * s;
            inside = origin[s] >= 0 && origin[s] + (d[2] - 1) * d[4] < d[0];
            at0 += origin[s] * d[7];
        }
        if (inside && depthwise) {
            for (int64_t tap = 0; tap < taps; tap++) {
                const ${real} *restrict at = base + at0 + offset[tap], *restrict wt = packed + tap * ldc;
                for (int64_t f = 0; f < ldc; f++) out[f] += at[f] * wt[f];
            }
            continue;
        }
        for (int64_t tap = 0; tap < taps; tap++) {
            const ${real} *restrict at = inside ? base + at0 + offset[tap]
                                                : conv_at_${x}(base, sp, nsp, origin, reach + tap * 3);
            if (!at) continue;  /* padding or dilation: no element there */
            const ${real} *restrict wt = packed + tap * features * ldc;
            if (depthwise) {
                for (int64_t f = 0; f < ldc; f++) out[f] += at[f] * wt[f];
                continue;
            }
            for (int64_t grp = 0; grp < groups; grp++)
                for (int64_t ci = 0; ci < features; ci++) {
                    ${real} v = at[(grp * features + ci) * xc];
                    const ${real} *restrict wr = wt + ci * ldc + grp * outs;
                    ${real} *restrict o = out + grp * outs;
                    for (int64_t j = 0; j < outs; j++) o[j] += v * wr[j];
                }
        }
    }
    free(offset);
    free(reach);
}

/* The kernel w of geometry g packed as bcast_${x}gemm_pack packs a
   (places * features) x (out features) B, one such B per feature group
   after the other (narrow groups: conv_narrow_pack). Returns the buffer
   (give it back with bcast_gemm_release), NULL when out of memory. */
void *bcast_${x}conv_pack(const ${real} *w, const int64_t *g) {
    int64_t features = g[1], outs = g[2], groups = g[3], nsp = g[0];
    int64_t k = conv_places_${x}(g, 2) * features, n = outs, per_group = k * ((n + NR - 1) / NR * NR);
    const int64_t *sp = g + 9;
    if (conv_narrow_${x}(g)) per_group = k * outs;
    void *base = pack_buffer((size_t)(groups * per_group) * sizeof(${real}) + 64);
    if (!base) return NULL;
    ${real} *packed = (${real} *)((char *)base + (64 - (uintptr_t)base % 64) % 64);
    if (conv_narrow_${x}(g)) {
        conv_narrow_pack_${x}(w, g, packed);
        return base;
    }
    for (int64_t grp = 0; grp < groups; grp++)
        for (int64_t j0 = 0; j0 < n; j0 += NC) {
            int64_t nc = n - j0 < NC ? n - j0 : NC, ncp = (nc + NR - 1) / NR * NR;
            for (int64_t p0 = 0; p0 < k; p0 += KC) {
                int64_t kc = k - p0 < KC ? k - p0 : KC;
                ${real} *block = packed + grp * per_group + j0 * k + p0 * ncp;
                for (int64_t p = 0; p < kc; p++) {
                    int64_t tap = (p0 + p) / features, c = (p0 + p) % features, at = c * g[7];
                    for (int64_t s = nsp - 1; s >= 0; s--) {
                        const int64_t *d = sp + 10 * s;
                        int64_t place = tap % d[2];
                        at += (d[9] ? d[2] - 1 - place : place) * d[8];
                        tap /= d[2];
                    }
                    for (int64_t t = 0; t < nc; t += NR) {
                        int64_t cols = nc - t < NR ? nc - t : NR;
                        ${real} *row = block + t * kc + p * NR;
                        for (int64_t j = 0; j < cols; j++) row[j] = w[at + (grp * outs + j0 + t + j) * g[8]];
                        for (int64_t j = cols; j < NR; j++) row[j] = (${real})0;
                    }
                }
            }
        }
    return base;
}

/* Output rows row0.. (m of them: batch * output places, row-major) of the
   convolution of x with the kernel packed by bcast_${x}conv_pack, written
   to c (the result, g[4] features per row); runs on the calling thread. */
void bcast_${x}conv_packed(const ${real} *x, const int64_t *g, int64_t row0, int64_t m, const void *packed_base,
                        ${real} *c) {
    if (m <= 0) return;
    int64_t outs = g[2], ldc = g[4], k = conv_places_${x}(g, 2) * g[1], per_group = k * ((outs + NR - 1) / NR * NR);
    const ${real} *packed = (const ${real} *)((const char *)packed_base
                                         + (64 - (uintptr_t)packed_base % 64) % 64);
    if (conv_narrow_${x}(g)) {
        conv_narrow_rows_${x}(x, g, row0, m, packed, c);
        return;
    }
    int64_t kb = k < KC ? k : KC, mb = m < MC ? m : MC;
    void *base;
    ${real} *ap = aligned_${x}((size_t)((mb + MR - 1) / MR * MR) * kb, &base);
    ${real} *zeros = calloc((size_t)g[1], sizeof(${real}));
    int64_t taps = conv_places_${x}(g, 2);
    const ${real} **ptrs = g[6] == 1 ? malloc((size_t)(taps * MR) * sizeof *ptrs) : NULL;
    int64_t *reach = malloc((size_t)(taps * 3) * sizeof *reach);
    if (!ap || !zeros || !reach || (g[6] == 1 && !ptrs)) abort();
    conv_reach_${x}(g, taps, reach);
    for (int64_t grp = 0; grp < g[3]; grp++)
        for (int64_t j0 = 0; j0 < outs; j0 += NC) {
            int64_t nc = outs - j0 < NC ? outs - j0 : NC, ncp = (nc + NR - 1) / NR * NR;
            for (int64_t p0 = 0; p0 < k; p0 += KC) {
                int64_t kc = k - p0 < KC ? k - p0 : KC;
                const ${real} *bp = packed + grp * per_group + j0 * k + p0 * ncp;
                if (ptrs) {  /* contiguous features: A read in place */
                    for (int64_t i0 = 0; i0 < m; i0 += MR) {
                        int64_t rows = m - i0 < MR ? m - i0 : MR;
                        conv_rows_${x}(x, g, grp, row0 + i0, rows, taps, reach, zeros, ptrs);
                        for (int64_t t = 0; t < nc; t += NR)
                            micro_conv_${x}(g[1], p0, kc, ptrs, bp + t * kc, c + (row0 + i0) * ldc + grp * outs + j0 + t,
                                            ldc, rows, nc - t < NR ? nc - t : NR, p0 == 0);
                    }
                    continue;
                }
                for (int64_t i0 = 0; i0 < m; i0 += MC) {
                    int64_t mc = m - i0 < MC ? m - i0 : MC;
                    pack_a_conv_${x}(x, g, grp, row0 + i0, p0, mc, kc, ap);
                    for (int64_t t = 0; t < nc; t += NR)
                        for (int64_t s = 0; s < mc; s += MR)
                            micro_${x}(kc, ap + s * kc, bp + t * kc, c + (row0 + i0 + s) * ldc + grp * outs + j0 + t,
                                       ldc, mc - s < MR ? mc - s : MR, nc - t < NR ? nc - t : NR, (${real})1,
                                       (${real})0, p0 == 0);
                }
            }
        }
    free(reach);
    free(ptrs);
    free(zeros);
    free(base);
}
#undef VL
#undef MR
#undef NR
#undef KC
#undef MC
#undef NC
""")
"""One precision's kernel: ``${real}`` is its C type, ``${x}`` its BLAS letter."""

PRELUDE = r"""
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1  /* posix_memalign and madvise under -std=c99 */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
/* Fused multiply-adds: the library is compiled as ISO C (c_runtime's
   -std=c99), which does not contract a * b + c by default. */
#if defined(__clang__)
#pragma clang fp contract(fast)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=fast")
#endif
#include <pthread.h>
#include <sys/mman.h>

/* The packed B of a product split into row blocks lives in a buffer each
   calling thread keeps (and frees when it exits), grown as needed up to
   PACK_CACHE_BYTES, while no other packed B of the thread holds it; a
   larger one (or a second at once) is malloc'd per product. Why: a fresh
   malloc of megabytes per call is, with the product's own buffer, enough
   for glibc to hand the memory back to the system at each free, and every
   call then faults its pages in again (2,000 page faults and about 3 ms of
   CPU time per call of the 1024x1024 dense layer on two threads). */
#define PACK_CACHE_BYTES ((size_t)64 << 20)
struct pack_cache { void *base; size_t bytes; int busy; };
static pthread_key_t pack_key;
static int pack_key_made;
static pthread_once_t pack_once = PTHREAD_ONCE_INIT;
static void pack_cache_free(void *cache) {
    free(((struct pack_cache *)cache)->base);
    free(cache);
}
static void pack_key_make(void) { pack_key_made = pthread_key_create(&pack_key, pack_cache_free) == 0; }

/* A kept buffer of bytes bytes, NULL when out of memory. From 2 MiB up it
   is whole 2 MiB pages asked to be huge ones (Linux's transparent huge
   pages, where enabled for madvise'd memory): every row block streams the
   whole packed B, and in 4 KiB pages that is 1,024 TLB entries for a
   1024 x 1024 f32 B; with huge pages the dense layer's product at
   4096x1024x1024 took 3-4% less CPU time on one thread and 1-2% less on
   two (interleaved C harness runs). The buffer is kept, so the one-time
   cost of assembling the huge pages is not paid per call. */
#define HUGE_PAGE ((size_t)2 << 20)
static void *kept_buffer(size_t bytes) {
#if defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) {
        void *base;
        size_t whole = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        if (posix_memalign(&base, HUGE_PAGE, whole)) return NULL;
        madvise(base, whole, MADV_HUGEPAGE);  /* advice only: its failure changes nothing */
        return base;
    }
#endif
    return malloc(bytes);
}

/* A buffer of bytes bytes for one packed B, NULL when out of memory. */
static void *pack_buffer(size_t bytes) {
    pthread_once(&pack_once, pack_key_make);
    if (bytes > PACK_CACHE_BYTES || !pack_key_made) return malloc(bytes);
    struct pack_cache *cache = pthread_getspecific(pack_key);
    if (!cache) {
        cache = calloc(1, sizeof *cache);
        if (!cache) return NULL;
        if (pthread_setspecific(pack_key, cache)) {
            free(cache);
            return malloc(bytes);
        }
    }
    if (cache->busy) return malloc(bytes);
    if (cache->bytes < bytes) {
        free(cache->base);
        cache->base = kept_buffer(bytes);
        cache->bytes = cache->base ? bytes : 0;
    }
    cache->busy = cache->base != NULL;
    return cache->base;
}

/* Gives back what a bcast_*gemm_pack returned (NULL: nothing): the
   thread's cached buffer stays for its next product, others are freed. */
void bcast_gemm_release(void *packed) {
    struct pack_cache *cache = pack_key_made ? pthread_getspecific(pack_key) : NULL;
    if (cache && packed && packed == cache->base)
        cache->busy = 0;
    else
        free(packed);
}
"""

SOURCE = PRELUDE + "".join(
    KERNEL.substitute(real=real, x=x, narrow_outs=NARROW_OUTS) for real, x in (("float", "s"), ("double", "d")))
