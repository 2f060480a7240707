"""The C target (``bcast-opt -t c``): C99 from ``bcast-lower-to-loops`` output.

Each op of the loop IR is translated structurally:

- ``func.func @f`` -> ``void bcast_f(const T *restrict a0, ..., int64_t i,
  ..., T *restrict r0, ...)``: a pointer to each memref's contiguous
  row-major data (``const`` when the function never writes it), ``index``
  arguments as ``int64_t``, result buffers last, filled by the function
  (the loop IR's destination-passing convention). Every function is
  exported under ``bcast_`` + its name (``c_names``), so ``@main`` does not
  clash with C's ``main``.
- ``memref.load``/``store`` -> ``p[linear index]`` with the constant strides
  of the static shape; ``memref.alloc`` -> a stack array when marked
  ``bcast.stack`` (``bcast-stack-allocs``), else ``malloc``/``free``, once
  per loop (and thread) rather than per iteration when marked
  ``bcast.scratch`` (``bcast-scratch-allocs``); an alloc
  inside a parallel loop is declared in its body, so every OpenMP thread
  has its own;
  ``memref.global`` -> a ``static const`` array (floats as their bits).
- ``scf.while`` without carried values -> ``for (;;)`` with a ``break``;
  ``scf.if`` without results -> ``if``/``else`` (the forms
  ``passes/loops_control_flow.py`` writes for ``bcast.while``/``bcast.case``).
- ``scf.for`` -> ``for`` (``iter_args`` are local accumulators); a loop
  marked ``bcast.threads`` (``bcast.ir.loops.THREADS_ATTR``, set by
  ``bcast-plan-parallel``) gets ``#pragma omp parallel for``, one marked
  ``bcast.vectorize`` ``#pragma omp simd``: with ``reduction(+)`` for a float
  sum, ``reduction(max)`` and a separate NaN flag for a float max/min (NaN
  propagation does not vectorize; the flag restores it after the loop).
  Loop-invariant values are already before their loops
  (``bcast-hoist-invariants``, in the C target's loop pipeline,
  ``bcast.tools.targets.C_LOOP_PIPELINE``). Perfectly nested parallel loops
  over dims that no access broadcasts or transposes run as one loop when
  marked ``bcast.collapse`` (``bcast-collapse-nests``). An innermost loop whose stores are marked
  ``nontemporal`` (``bcast-streaming-stores``) fills a small tile per chunk
  and streams it to memory with non-temporal stores (``bcast_stream``).
  Where the streamed results (or a phase's prefetched arrays) all have ``?``
  dims, a size test at run time chooses that loop or the plain one, at the
  byte thresholds the passes apply to static sizes.
- Integers (signless in the IR) are held in ``uintN_t``; ``+ - * <<`` run in
  unsigned arithmetic at least as wide as ``unsigned int`` (no signed
  overflow, no promotion to ``int``), signed ops (``divsi remsi shrsi cmpi s*
  sitofp extsi maxsi minsi``) cast to ``intN_t``. The loop IR makes
  divisors, shift amounts and float->int operands safe *before* the
  operation (``lower_to_loops.scalar_op``), so every statement is defined
  in C's order of evaluation. ``i1`` is one byte holding 0 or 1.
- Floats: ``f16`` is ``_Float16`` (storage and ``+ - * /``, each rounded to
  half); transcendental functions arrive in ``f32`` from the loop IR.
  ``maximumf``/``minimumf`` propagate NaN as ``np.maximum`` does (not
  ``fmaxf``, which drops it). An ``f32``/``f64`` division marked
  ``bcast.invariant_divisor`` (``bcast-invariant-divisions``) is a multiply
  by its divisor's reciprocal with two FMA corrections, exact
  (``bcast_div_f32``).
- Phased row loops (fusions with reductions) prefetch rows ahead in blocks
  (``bcast.prefetch_block``, ``bcast.prefetch_ahead``) and stream their
  results out during the next row's work (``bcast.deferred_stream``), as
  ``bcast-plan-prefetch`` marked them.
- A contraction's nest marked ``bcast.gemm`` (``GEMM_ATTR``) is a call of
  ``bcast_blas_sgemm``/``dgemm`` per batch (per block of rows of a large
  one, on OpenMP threads, ``bcast_gemm_rows``, multiplying a B packed once
  when there is no batch) when the runtime has set that pointer
  (``c_runtime.link_blas``: bcast's own kernels, ``lowering/c_gemm.py``),
  else the nest; its threads are ``bcast_threads``' count and pack B
  between them; operands read through broadcasts of batch dims are offset
  per batch element (``batch_offsets``).
- A convolution's nest marked ``bcast.conv`` (``CONV_ATTR``) packs its
  kernel once (``bcast_blas_sconv_pack``) and computes blocks of the
  nest's outer loop (images, or one image's output rows) on OpenMP
  threads (``bcast_blas_sconv_packed``, ``bcast_conv_images``), each
  followed by the epilogue on its rows;
  the nest when the pointers are not set (docs/c-backend.md,
  "Convolutions").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from xdsl.dialects import arith, cf, func, memref, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    DYNAMIC_INDEX,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from bcast.ir.loops import (
    BOUNDS_CHECK_ATTR,
    BURST_ATTR,
    COLLAPSE_ATTR,
    DEFERRED_STREAM_ATTR,
    CONV_ATTR,
    CONV_SIZES_ATTR,
    GEMM_ATTR,
    INVARIANT_DIVISOR_ATTR,
    PREFETCH_AHEAD_ATTR,
    PREFETCH_BLOCK_ATTR,
    REDUCTION_ATTR,
    SCRATCH_ATTR,
    SIZE_CHECK_ATTR,
    STACK_ATTR,
    THREADS_ATTR,
    VECTORIZE_ATTR,
    RemFOp,
    first_non_loop_op,
)
from bcast.lowering import c_gemm
from bcast.passes.errors import PassError
from bcast.passes.loops import nests
from bcast.passes.loops.plan_parallel import PARALLEL_WORK
from bcast.passes.loops.collapse_nests import collapsed_nest
from bcast.passes.loops.plan_prefetch import PREFETCH_BYTES
from bcast.passes.loops.streaming_stores import STREAM_BYTES, STREAM_TILE_BYTES, nontemporal

PARALLEL = "#pragma omp parallel for"
"""The pragma of a loop that starts threads (``emit_loop``)."""
PARALLEL_SIMD = "#pragma omp parallel for simd"
"""The pragma of an innermost loop that starts threads and vectorizes."""
THREADS_CLAUSE = " num_threads(bcast_threads())"
"""How many threads a nest on threads starts: those whose cores are free
when it starts (``bcast_threads`` in the prelude)."""

BURST = "bcast_in_burst"
"""The local of a function with a nest on threads only in bursts: whether
it was called back to back (``bcast_burst`` in the prelude)."""
SIMD = "#pragma omp simd"
"""The pragma of an innermost loop that neither starts threads nor reduces
(``for_loop`` speeds up its invariant divisions there and in
``PARALLEL_SIMD`` loops)."""
C_KEYWORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if inline "
    "int long register restrict return short signed sizeof static struct switch typedef union unsigned "
    "void volatile while main".split()
)

PRELUDE = r"""#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(BCAST_VECTOR_MATH) && !defined(__FAST_MATH__)
/* glibc's math.h declares its libmvec vector variants (expf over 8 lanes...)
   only under __FAST_MATH__; the code itself keeps IEEE semantics. */
#define __FAST_MATH__ 1
#include <math.h>
#undef __FAST_MATH__
#else
#include <math.h>
#endif

static inline float bcast_f32_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline double bcast_f64_bits(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
static inline _Float16 bcast_f16_bits(uint16_t b) { _Float16 f; memcpy(&f, &b, 2); return f; }
static inline uint32_t bcast_bits_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline uint64_t bcast_bits_f64(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }
static inline uint16_t bcast_bits_f16(_Float16 f) { uint16_t b; memcpy(&b, &f, 2); return b; }
/* bf16 is held in uint16_t (its bits: an f32's high half) and computed in
   float. To bf16: round to nearest even; a NaN stays a NaN of its sign and
   high payload, made quiet. From f64: rounded to odd in f32 first (the
   sticky bit keeps what float's rounding would drop), so one rounding. */
static inline float bcast_bf16_f32(uint16_t b) { return bcast_f32_bits((uint32_t)b << 16); }
static inline uint16_t bcast_f32_bf16(float f) {
    uint32_t b = bcast_bits_f32(f);
    if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((b >> 16) | 0x40u);
    return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
static inline uint16_t bcast_f64_bf16(double d) {
    float f = (float)d;
    if (d == d && (double)f != d && fabs(d) <= 3.4028234663852886e38) {
        if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
        f = bcast_f32_bits(bcast_bits_f32(f) | 1u);
    }
    return bcast_f32_bf16(f);
}
/* i4 and ui4 are held in uint8_t as their four bits (the value modulo 16,
   upper bits zero: ml_dtypes' int4/uint4 bytes); an op computes in a wider
   type and keeps the low four bits (bcast_nibble). A signed reading
   sign-extends the nibble (bcast_sext4). */
static inline uint8_t bcast_nibble(uint32_t x) { return (uint8_t)(x & 15u); }
static inline int bcast_sext4(uint32_t x) { return (int)((x & 15u) ^ 8u) - 8; }
static void *bcast_alloc(size_t n) { void *p = malloc(n ? n : 1); if (!p) abort(); return p; }
/* immintrin.h is most of the compile time of a small program (parsing it
   takes about 0.1 s), and only bcast_stream uses it: header() defines
   BCAST_NO_STREAMS when the program never streams, and bcast_stream and
   its fence are then plain memcpy and nothing. */
#if defined(__SSE2__) && !defined(BCAST_NO_STREAMS)
#define BCAST_NT_STORES 1
#include <immintrin.h>
#endif

#if defined(BCAST_NT_STORES) && defined(__linux__)
#include <unistd.h>
#endif
/* Bytes of a result that the machine's last-level cache holds well: three
   quarters of it (sysconf; 0 where unknown). A static result marked
   streaming (bcast-streaming-stores) that is smaller is written by the
   loop's plain stores (c_emitter.large_at_run_time): the cache takes the
   lines and writes them back later, and the next reader finds them there.
   Measured on the 2-core development VM (300 MiB L3), at 4096x4096 f32
   (64 MiB): plain stores took 0.89-0.90x the streaming time on (b),
   0.96-0.99x on (a) (docs/performance.md, "Streaming stores and the
   last-level cache"). Phased rows (softmax's) still stream: theirs go out
   during the next row (defer_streams), not decided here.
   Read once; a race on the first reads stores the same value.
   BCAST_CACHE_BYTES, when defined, is the size instead (a test's). */
static size_t bcast_cache_bytes_seen;
static int bcast_cache_bytes_known;
static inline size_t bcast_cache_bytes(void) {
#if defined(BCAST_CACHE_BYTES)
    return (size_t)(BCAST_CACHE_BYTES);
#endif
    if (!__atomic_load_n(&bcast_cache_bytes_known, __ATOMIC_ACQUIRE)) {
        long got = 0;
#if defined(BCAST_NT_STORES) && defined(__linux__) && defined(_SC_LEVEL3_CACHE_SIZE)
        got = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
        bcast_cache_bytes_seen = got > 0 ? (size_t)got / 4 * 3 : 0;
        __atomic_store_n(&bcast_cache_bytes_known, 1, __ATOMIC_RELEASE);
    }
    return bcast_cache_bytes_seen;
}
/* Copy a tile to its place in a large result with non-temporal stores: the
   destination lines go to memory without first being read into the cache
   (a plain store reads each line it writes). Whole 64-byte lines are streamed;
   the partial lines at either end are streamed 4 bytes at a time when
   aligned to 4 (mixing plain and streaming stores on one line is slow), else
   copied. The caller issues bcast_stream_fence() before other threads (or
   the caller of the function) read the result. */
static inline void bcast_stream(void *restrict dst, const void *restrict src, size_t n) {
#if defined(BCAST_NT_STORES)
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t head = (size_t)(-(uintptr_t)d) & 63;
    int words = ((uintptr_t)d & 3) == 0 && (n & 3) == 0;
    if (head > n) head = n;
    for (size_t k = 0; words && k < head; k += 4) { int w; memcpy(&w, s + k, 4); _mm_stream_si32((int *)(void *)(d + k), w); }
    if (!words) memcpy(d, s, head);
    d += head; s += head; n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
#if defined(__AVX512F__)
        _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
#elif defined(__AVX__)
        _mm256_stream_si256((__m256i *)(void *)d, _mm256_loadu_si256((const __m256i *)(const void *)s));
        _mm256_stream_si256((__m256i *)(void *)(d + 32), _mm256_loadu_si256((const __m256i *)(const void *)(s + 32)));
#else
        for (int q = 0; q < 64; q += 16)
            _mm_stream_si128((__m128i *)(void *)(d + q), _mm_loadu_si128((const __m128i *)(const void *)(s + q)));
#endif
    }
    for (size_t k = 0; words && k < n; k += 4) { int w; memcpy(&w, s + k, 4); _mm_stream_si32((int *)(void *)(d + k), w); }
    if (!words) memcpy(d, s, n);
#else
    memcpy(dst, src, n);
#endif
}
#if defined(__GNUC__)
#define BCAST_PREFETCH(p) __builtin_prefetch((p), 0, 2)
#define BCAST_PREFETCH_WRITE(p) __builtin_prefetch((p), 1, 3)
#else
#define BCAST_PREFETCH(p) ((void)(p))
#define BCAST_PREFETCH_WRITE(p) ((void)(p))
#endif
/* Matrix products (bcast.ir.loops.GEMM_ATTR): functions with the CBLAS
   sgemm/dgemm signature (64-bit sizes), set by the runtime when it loads
   the library (c_runtime.link_blas: bcast's own kernels, lowering/c_gemm.py);
   while NULL, the contraction's loop nest runs instead. Weak, so several
   generated units link into one program (sharing the pointers). */
typedef void (*bcast_sgemm_t)(int, int, int, int64_t, int64_t, int64_t, float, const float *, int64_t,
                              const float *, int64_t, float, float *, int64_t);
typedef void (*bcast_dgemm_t)(int, int, int, int64_t, int64_t, int64_t, double, const double *, int64_t,
                              const double *, int64_t, double, double *, int64_t);
__attribute__((weak)) bcast_sgemm_t bcast_blas_sgemm = 0;
__attribute__((weak)) bcast_dgemm_t bcast_blas_dgemm = 0;
/* B packed once for all the row blocks of a product (NULL: not packed, the
   blocks call bcast_blas_sgemm), one block's rows times that packed B
   (C = op(A) B), and the packed B given back: lowering/c_gemm.py's
   bcast_sgemm_pack, bcast_sgemm_packed and bcast_gemm_release. */
typedef void *(*bcast_spack_t)(int, int64_t, int64_t, const float *, int64_t);
typedef void *(*bcast_dpack_t)(int, int64_t, int64_t, const double *, int64_t);
typedef void (*bcast_sgemm_packed_t)(int, int64_t, int64_t, int64_t, const float *, int64_t, const void *,
                                     float *, int64_t);
typedef void (*bcast_dgemm_packed_t)(int, int64_t, int64_t, int64_t, const double *, int64_t, const void *,
                                     double *, int64_t);
__attribute__((weak)) bcast_spack_t bcast_blas_sgemm_pack = 0;
__attribute__((weak)) bcast_dpack_t bcast_blas_dgemm_pack = 0;
__attribute__((weak)) bcast_sgemm_packed_t bcast_blas_sgemm_packed = 0;
__attribute__((weak)) bcast_dgemm_packed_t bcast_blas_dgemm_packed = 0;
__attribute__((weak)) void (*bcast_blas_gemm_release)(void *) = 0;
/* A packed B's buffer, and B's rows lo..hi packed into it, so that the
   product's threads pack B between them: bcast_sgemm_pack_buffer and
   bcast_sgemm_pack_rows (lowering/c_gemm.py). */
__attribute__((weak)) void *(*bcast_blas_sgemm_pack_buffer)(int64_t, int64_t) = 0;
__attribute__((weak)) void *(*bcast_blas_dgemm_pack_buffer)(int64_t, int64_t) = 0;
__attribute__((weak)) void (*bcast_blas_sgemm_pack_rows)(int, int64_t, int64_t, const float *, int64_t, void *,
                                                         int64_t, int64_t) = 0;
__attribute__((weak)) void (*bcast_blas_dgemm_pack_rows)(int, int64_t, int64_t, const double *, int64_t, void *,
                                                         int64_t, int64_t) = 0;
/* Parts B's rows are packed in by a product's threads (each at least
   BCAST_PACK_ROWS rows): several per thread, taken as they come free. */
#define BCAST_PACK_PARTS 16
#define BCAST_PACK_ROWS 16
/* Convolutions (bcast.ir.loops.CONV_ATTR): the kernel packed once per call
   from its geometry (an int64_t array, lowering/c_gemm.py's conv_geometry)
   and rows of the result computed from the input and that packed kernel,
   given back with bcast_blas_gemm_release: lowering/c_gemm.py's
   bcast_sconv_pack and bcast_sconv_packed. */
typedef void *(*bcast_sconv_pack_t)(const float *, const int64_t *);
typedef void *(*bcast_dconv_pack_t)(const double *, const int64_t *);
typedef void (*bcast_sconv_packed_t)(const float *, const int64_t *, int64_t, int64_t, const void *, float *);
typedef void (*bcast_dconv_packed_t)(const double *, const int64_t *, int64_t, int64_t, const void *, double *);
__attribute__((weak)) bcast_sconv_pack_t bcast_blas_sconv_pack = 0;
__attribute__((weak)) bcast_dconv_pack_t bcast_blas_dconv_pack = 0;
__attribute__((weak)) bcast_sconv_packed_t bcast_blas_sconv_packed = 0;
__attribute__((weak)) bcast_dconv_packed_t bcast_blas_dconv_packed = 0;
#if defined(_OPENMP)
#include <omp.h>
#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif
/* Threads for a loop nest on threads (c_emitter.THREADS_CLAUSE): the cores
   (omp_get_num_procs) that the machine's other runnable threads leave, at
   least 1 and at most OpenMP's count (omp_get_max_threads). A second
   thread that has to wait for a core delays the whole region at its
   closing barrier (docs/performance.md, "Where two threads pay"). Linux
   counts the runnable threads of the machine in /proc/loadavg's fourth
   field (BCAST_LOADAVG names the file: a test's own; where it cannot be
   read no others are counted).
   The count is taken at the start of a region that bcast_threads sized
   (bcast_recount, by its first thread), where the region's whole team is
   runnable and is subtracted; only before a process's first region is it
   taken at the call (the caller alone). Taken at the call, it would count
   the workers of bcast's own pool, which spin for a while after each
   region (c_runtime.OPENMP_SPIN), as other programs' threads: between
   back-to-back calls it saw one and ran the next BCAST_BUSY_SECONDS of
   calls on one thread (docs/performance.md, "Dynamic shapes").
   The count is re-taken at most every BCAST_BUSY_SECONDS, and is one for
   the process: c_runtime (share_load) points every library's bcast_load
   at the first one's, so a count one library took serves the next. */
#define BCAST_BUSY_SECONDS 0.01
#ifndef BCAST_LOADAVG
#define BCAST_LOADAVG "/proc/loadavg"
#endif
struct bcast_load { double due; int others; };
static struct bcast_load bcast_own_load;  /* due 0: never counted */
__attribute__((weak)) struct bcast_load *bcast_load = &bcast_own_load;
static int bcast_running(void) {
    int running = 0;
#if defined(__linux__)
    char text[128];
    int fd = open(BCAST_LOADAVG, O_RDONLY);
    ssize_t got = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0) close(fd);
    if (got > 0) {
        text[got] = 0;
        const char *field = text;
        for (int k = 0; k < 3 && field; k++) {
            field = strchr(field, ' ');
            if (field) field++;
        }
        if (field) running = (int)strtol(field, NULL, 10);
    }
#endif
    return running;
}
static void bcast_count(int team) {
    int running = bcast_running();
    double due = omp_get_wtime() + BCAST_BUSY_SECONDS;
    __atomic_store_n(&bcast_load->others, running > team ? running - team : 0, __ATOMIC_RELAXED);
    __atomic_store(&bcast_load->due, &due, __ATOMIC_RELAXED);
}
static int bcast_threads(void) {
    int every = omp_get_max_threads();
    if (every <= 1) return 1;
    double due;
    __atomic_load(&bcast_load->due, &due, __ATOMIC_RELAXED);
    if (due == 0) bcast_count(1);
    int free_cores = omp_get_num_procs() - __atomic_load_n(&bcast_load->others, __ATOMIC_RELAXED);
    return free_cores < 1 ? 1 : free_cores < every ? free_cores : every;
}
static void bcast_recount(void) {
    double due;
    __atomic_load(&bcast_load->due, &due, __ATOMIC_RELAXED);
    if (omp_get_thread_num() == 0 && omp_get_wtime() >= due) bcast_count(omp_get_num_threads());
}
/* Whether a function that has a nest on threads only in bursts
   (bcast.ir.loops.BURST_ATTR) is entered less than BCAST_BURST_SECONDS
   after such a function of this library returned (bcast_left): called
   back to back, the worker the previous call woke still spins (for
   c_runtime.OPENMP_SPIN pauses, 46-67 us) and joins a region at once; a
   call on its own stays on one thread rather than wait for a sleeping
   worker. */
#define BCAST_BURST_SECONDS 4e-5
static double bcast_last_exit = -1.0;
static int bcast_burst(void) {
    double last;
    __atomic_load(&bcast_last_exit, &last, __ATOMIC_RELAXED);
    return last >= 0 && omp_get_wtime() - last < BCAST_BURST_SECONDS;
}
static void bcast_left(void) {
    double now = omp_get_wtime();
    __atomic_store(&bcast_last_exit, &now, __ATOMIC_RELAXED);
}
#endif
/* Threads for a GEMM's row blocks and a convolution's image blocks: all
   of OpenMP's. Unlike the static row regions (bcast_threads), these take
   their blocks as threads come free (schedule(dynamic)), so a thread that
   shares its core with another runtime's spinning worker delays a block,
   not the product: on the quiet machine beside OpenBLAS's spinning worker
   (benchmarks/mlp.py), the dense layer took 20.3 ms at 1024 and 84.0 ms
   at 4096 on the free-core count, 11.3 and 41.1 on both threads
   (docs/performance.md, "A dense layer"). */
static inline int bcast_gemm_threads(void) {
#if defined(_OPENMP)
    return omp_get_max_threads();
#else
    return 1;
#endif
}
/* Rows per GEMM call: a large product is split into row blocks, at least
   twice as many as there are threads, which threads take as they come
   free, each calling the (one-thread) kernel (schedule(dynamic)): a thread
   the machine deschedules then delays one block, not the whole product.
   A block is also at most BCAST_GEMM_BLOCK_BYTES of the result (row_bytes
   each), so that the epilogue run on it right after finds it in L2; but
   at least 64 rows, over which each packed panel of B is reused. A small
   product is one call on the calling thread. threads: the region's
   thread count, bcast_gemm_threads(). */
#define BCAST_GEMM_BLOCK_BYTES (512 * 1024)
#define BCAST_GEMM_THREADED_FLOPS 1e8
static inline int64_t bcast_gemm_rows(int64_t m, double flops, int64_t row_bytes, int threads) {
    if (threads <= 1 || flops < BCAST_GEMM_THREADED_FLOPS) return m;
    int64_t rows = (m + 2 * threads - 1) / (2 * threads);
    int64_t fit = BCAST_GEMM_BLOCK_BYTES / (row_bytes > 0 ? row_bytes : 1);
    if (rows > fit) rows = fit;
    return rows < 64 ? (m < 64 ? m : 64) : rows;
}

/* Iterations of a convolution nest's outer loop (images, or output rows of
   one image) per call (bcast.ir.loops.CONV_ATTR): blocks of them, at least
   twice as many as threads when the convolution is large (as
   bcast_gemm_rows), so that the epilogue runs on each block right after
   it; a small one is one call. threads: bcast_gemm_threads(), as for a
   GEMM's row blocks. */
static inline int64_t bcast_conv_images(int64_t images, double flops, int threads) {
    if (threads <= 1 || flops < BCAST_GEMM_THREADED_FLOPS || images < 2) return images > 0 ? images : 1;
    int64_t per = (images + 2 * threads - 1) / (2 * threads);
    return per > 0 ? per : 1;
}

static inline void bcast_stream_fence(void) {
#if defined(BCAST_NT_STORES)
    _mm_sfence();
#endif
}

/* Division by a divisor b fixed across a loop, with its reciprocal y = 1/b
   (correctly rounded) computed once: q = a*y, then two corrections
   q += (a - b*q) * y, each one fused multiply-add. The first brings q
   within one ulp of a/b; the second then gives exactly a/b rounded to
   nearest (Markstein's theorem, IBM J. Res. Dev. 34(1), 1990), as long as
   nothing overflows or underflows: bcast_div_range_* is at most
   BCAST_DIV_SPAN_* when 2^-50 <= |x| < 2^51 (f32; 2^-480 <= |x| < 2^481 for
   f64), and a loop whose dividend or divisor falls outside (zero, infinity,
   NaN, tiny or huge) runs again with a plain division. Without a fast FMA
   the helpers are that plain division and never ask for the second run. */
#define BCAST_DIV_SPAN_F32 100u
#define BCAST_DIV_SPAN_F64 960u
#if defined(FP_FAST_FMAF)
static inline float bcast_div_f32(float a, float b, float y) {
    float q = a * y;
    q = fmaf(fmaf(-q, b, a), y, q);
    return fmaf(fmaf(-q, b, a), y, q);
}
static inline uint32_t bcast_div_range_f32(float x) { return ((bcast_bits_f32(x) >> 23) & 255u) - (127u - 50u); }
#else
static inline float bcast_div_f32(float a, float b, float y) { (void)y; return a / b; }
static inline uint32_t bcast_div_range_f32(float x) { (void)x; return 0; }
#endif
#if defined(FP_FAST_FMA)
static inline double bcast_div_f64(double a, double b, double y) {
    double q = a * y;
    q = fma(fma(-q, b, a), y, q);
    return fma(fma(-q, b, a), y, q);
}
static inline uint32_t bcast_div_range_f64(double x) { return (uint32_t)((bcast_bits_f64(x) >> 52) & 2047u) - (1023u - 480u); }
#else
static inline double bcast_div_f64(double a, double b, double y) { (void)y; return a / b; }
static inline uint32_t bcast_div_range_f64(double x) { (void)x; return 0; }
#endif
"""

PRELUDE_SYMBOLS = frozenset(re.findall(r"\bbcast_\w+", PRELUDE + c_gemm.SOURCE))
"""Every ``bcast_`` identifier of the runtime helpers (``PRELUDE`` and the
GEMM's source, linked into the same library): no function's symbol
(``c_names``)."""


# --------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------


def width(t: Attribute) -> int:
    assert isinstance(t, IntegerType), t
    return t.width.data


def c_type(t: Attribute) -> str:
    """The C type holding a scalar (integers unsigned: signless)."""
    if isinstance(t, IndexType):
        return "int64_t"
    if isinstance(t, IntegerType):
        return "uint8_t" if width(t) in (1, 4) else f"uint{width(t)}_t"  # i4: its nibble (``nibble_scalar``)
    if isinstance(t, Float16Type):
        return "_Float16"
    if isinstance(t, BFloat16Type):
        return "uint16_t"  # its bits; computed in float (``CFunction.bf16_scalar``)
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float64Type):
        return "double"
    raise ValueError(f"no C type for {t}")


C_BYTES = {"uint8_t": 1, "uint16_t": 2, "_Float16": 2, "uint32_t": 4, "float": 4,
           "uint64_t": 8, "double": 8, "int64_t": 8}


def _bytes(t: Attribute) -> int:
    """Bytes of one element as the C target stores it (``i1``: one byte)."""
    return C_BYTES[c_type(t)]


def wide_unsigned(bits: int) -> str:
    """Unsigned arithmetic type for ``+ - * <<`` on ``bits``-bit values:
    never narrower than ``unsigned int``, so nothing promotes to ``int``."""
    return "uint64_t" if bits > 32 else "uint32_t"


def signed_type(bits: int) -> str:
    return "int8_t" if bits == 1 else f"int{bits}_t"


def strides(shape: Iterable[int]) -> list[int]:
    out, stride = [], 1
    for size in reversed(list(shape)):
        out.append(stride)
        stride *= max(size, 1)
    return out[::-1]


def element_count(shape: Iterable[int]) -> int:
    return math.prod(shape)


def sanitize(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return name if name and not name[0].isdigit() else "_" + name


def float_literal(value: float, t: Attribute) -> str:
    if isinstance(t, BFloat16Type):  # its bits, rounded as xDSL encodes bf16 constants
        return f"((uint16_t)0x{int.from_bytes(t.pack([value]), 'little'):04x})"
    if math.isnan(value):
        text = "NAN"
    elif math.isinf(value):
        text = "INFINITY" if value > 0 else "-INFINITY"
    else:
        text = value.hex()
        if isinstance(t, Float32Type | Float16Type):
            text += "f"
    if isinstance(t, Float16Type):
        return f"((_Float16){text})"
    if isinstance(t, Float64Type) and (math.isnan(value) or math.isinf(value)):
        return f"((double){text})"
    return text


def int_literal(value: int, bits: int) -> str:
    value %= 1 << bits
    if value < 1 << 31:
        return str(value)
    return f"UINT{64 if bits > 32 else 32}_C({value})"


# --------------------------------------------------------------------------
# The emitter
# --------------------------------------------------------------------------


FAULT_FUNCTION = "take_fault"
"""Exported (``prefix`` + this) by a module with bounds checks:
``void f(int64_t fault[2])`` moves the calling thread's last failure (the
check's number, from 1 in ``bounds_checks`` order, and the index) into
``fault`` and clears it; ``{0, 0}``: none."""


def bounds_checks(module: ModuleOp) -> list[cf.AssertOp]:
    """The module's dynamic index checks and size checks of control-flow
    regions, numbered from 1 in this order."""
    return [op for op in module.walk() if isinstance(op, cf.AssertOp)
            and (BOUNDS_CHECK_ATTR in op.attributes or SIZE_CHECK_ATTR in op.attributes)]


def c_names(module: ModuleOp, prefix: str = "bcast_") -> dict[str, str]:
    """The exported C symbol of each function: ``prefix`` + its name, with a
    number added when that is taken: by another function, the fault
    handler, or a name the runtime helpers use (``@count`` would be
    ``bcast_count``, a helper of ``PRELUDE``'s; ``PRELUDE_SYMBOLS``)."""
    names: dict[str, str] = {}
    used: set[str] = {prefix + FAULT_FUNCTION, *PRELUDE_SYMBOLS}
    for f in module.ops:
        if isinstance(f, func.FuncOp):
            base = prefix + sanitize(f.sym_name.data)
            name, n = base, 0
            while name in used:
                n += 1
                name = f"{base}_{n}"
            used.add(name)
            names[f.sym_name.data] = name
    return names


class FunctionEmitter:
    def __init__(self, f: func.FuncOp, names: dict[str, str], globals_: dict[str, str], openmp: bool,
                 checks: dict[Operation, int] | None = None):
        self.f = f
        self.checks = checks or {}
        """Bounds check -> its number (the module's, ``bounds_checks``)."""
        self.predeclared: set[memref.AllocOp] = set()
        """Heap buffers declared (NULL) at the top, so the failure path frees them."""
        self.fails = False
        self.bursts = False
        self.deferred: dict[memref.StoreOp, tuple[str, str]] = {}
        """A last phase's streamed store -> (its row tile, the pointer to the
        row it is pending for) (``defer_streams``)."""
        self.draining: dict[scf.ForOp, list[tuple[str, str]]] = {}
        """A prefetching phase loop -> the (tile, pending row) pairs its blocks stream out."""
        self.on_stack: set[memref.AllocOp] = set()
        """Allocs made as stack arrays (marked ``bcast.stack``, ``bcast-stack-allocs``)."""
        self.names = names
        self.globals = globals_
        self.openmp = openmp
        self.lines: list[str] = []
        self.indent = 1
        self.expr: dict[SSAValue, str] = {}
        self.sizes: dict[SSAValue, list[str]] = {}
        """A memref with dynamic dims -> its sizes as C expressions (an
        argument's are ``int64_t`` parameters after its pointer, an alloc's its
        ``index`` operands)."""
        self.counter = 0
        self.heap: set[SSAValue] = set()
        self.in_parallel = 0
        self.used_names: set[str] = set()
        self.nan_flags: dict[SSAValue, str] = {}
        """Accumulator of a vectorized float max/min reduction -> its NaN flag."""
        self.tiles: dict[memref.StoreOp, tuple[str, str]] = {}
        self.prefetch_decided: set[scf.ForOp] = set()
        """Prefetching phases whose run-time size test is being emitted."""
        """A streamed store -> (its tile, the first index of the chunk being filled)."""
        self.streams = False
        """Whether the function streams a result (it then fences before returning)."""
        self.scoped: set[memref.AllocOp] = set()
        """Allocs made once before the loop that frees them every iteration."""
        self.merged: set[scf.ForOp] = set()
        self.hoisted: set[Operation] = set()  # emitted before a product's call, for its fused epilogue
        """Epilogue nests emitted inside the GEMM row-block loop before them (``gemm_call``)."""
        self.divisions: dict[Operation, tuple[str, str, str]] = {}
        """A division by a loop-invariant value -> (f32/f64, the reciprocal, the
        loop's guard) while its loop is emitted (``prepare_divisions``)."""

    # -- naming ------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def arg_name(self, v: SSAValue, k: int) -> str:
        hint = v.name_hint
        name = sanitize(hint) if hint else f"arg{k}"
        if name in C_KEYWORDS or re.fullmatch(r"(v|i|t|b|n|r|q|g|y|p|nan|tile)\d+|arg\d+|bcast_.*|INFINITY|NAN", name) \
                or name in self.used_names:
            name = f"{name}_{k}"
        self.used_names.add(name)
        return name

    def out(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def e(self, v: SSAValue) -> str:
        return self.expr[v]

    def define(self, v: SSAValue, expr: str) -> None:
        name = self.fresh("v")
        self.out(f"{c_type(v.type)} {name} = {expr};")
        self.expr[v] = name

    # -- functions -----------------------------------------------------------
    def signature(self) -> str:
        params = []
        block = self.f.body.blocks[0] if self.f.body.blocks else None
        written = self.written_args() if block is not None else set()
        for k, t in enumerate(self.f.function_type.inputs.data):
            name = self.arg_name(block.args[k], k) if block is not None else f"arg{k}"
            if block is not None:
                self.expr[block.args[k]] = name
            if isinstance(t, MemRefType):
                const = "" if block is None or block.args[k] in written else "const "
                params.append(f"{const}{c_type(t.element_type)} *restrict {name}")
                sizes = [str(n) if n != DYNAMIC_INDEX else f"{name}_d{d}" for d, n in enumerate(t.get_shape())]
                params += [f"int64_t {n}" for n in sizes if not n.isdigit()]
                if block is not None:
                    self.sizes[block.args[k]] = sizes
            else:
                params.append(f"{c_type(t)} {name}")
        return f"void {self.names[self.f.sym_name.data]}({', '.join(params) or 'void'})"

    def written_args(self) -> set[SSAValue]:
        written = set()
        for op in self.f.walk():
            if isinstance(op, memref.StoreOp):
                written.add(op.memref)
            elif isinstance(op, func.CallOp):
                written.update(op.arguments)
        return written

    def emit(self) -> list[str]:
        head = self.signature()
        if not self.f.body.blocks:
            # a declaration: calling it is a run-time error (bcast.compile
            # reports it before calling; a C caller of this file stops)
            return [head + " {", "    abort();", "}"]
        block = self.f.body.blocks[0]
        self.on_stack = {op for op in self.f.walk()
                         if isinstance(op, memref.AllocOp) and STACK_ATTR in op.attributes}
        if self.checks:
            # No failure is pending when a function starts (a caller that
            # did not take one would otherwise see it after its next call).
            self.out("bcast_fault_state[0] = 0;")
            # a check or a call may fail: heap buffers are freed on the way out
            for op in block.ops:
                if isinstance(op, memref.AllocOp) and op not in self.on_stack:
                    name = self.fresh("v")
                    self.out(f"{c_type(op.memref.type.element_type)} *{name} = NULL;")
                    self.expr[op.memref] = name
                    self.predeclared.add(op)
        self.bursts = self.openmp and any(BURST_ATTR in op.attributes for op in self.f.walk())
        if self.bursts:
            self.out(f"const int {BURST} = bcast_burst();")
        for op in block.ops:
            self.op(op)
        if self.fails:
            self.lines.append("bcast_fail:")
            for op in self.predeclared:
                self.out(f"free({self.e(op.memref)});")
            if self.streams:
                self.out("bcast_stream_fence();")
            self.leave()
        return [head + " {", *self.lines, "}"]

    def leave(self) -> None:
        """Return (a function with nests on threads in bursts first notes
        when: ``bcast_left``)."""
        if self.bursts:
            self.out("bcast_left();")
        self.out("return;")

    def bounds_check(self, op: cf.AssertOp) -> None:
        """A failed check records its number and the index, and leaves the function."""
        compare = op.arg.owner
        if op.parent_op() is self.f and SIZE_CHECK_ATTR in op.attributes:
            self.fails = True  # the runtime reports it from the check's number alone
            self.out(f"if (!{self.e(op.arg)}) {{ bcast_fault_state[0] = {self.checks[op]}; "
                     "bcast_fault_state[1] = 0; goto bcast_fail; }")
            return
        if not isinstance(compare, arith.CmpiOp) or op.parent_op() is not self.f:
            raise PassError(op, "is supported by the C target only as a top-level dynamic index check")
        self.fails = True
        self.out(f"if (!{self.e(op.arg)}) {{ bcast_fault_state[0] = {self.checks[op]}; "
                 f"bcast_fault_state[1] = (int64_t){self.e(compare.lhs)}; goto bcast_fail; }}")

    # -- ops -----------------------------------------------------------------
    def block(self, block: Block) -> None:
        for op in block.ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        if op in self.hoisted:
            return
        if isinstance(op, arith.ConstantOp):
            self.constant(op)
        elif isinstance(op, scf.ForOp):
            if op not in self.merged:
                self.loop(op)
        elif isinstance(op, scf.YieldOp | scf.ConditionOp):
            pass  # handled by the loop or the branch
        elif isinstance(op, scf.WhileOp):
            self.while_loop(op)
        elif isinstance(op, scf.IfOp):
            self.branches(op)
        elif isinstance(op, memref.LoadOp) and _is_nibble(op.res.type):  # its nibble, whatever the upper bits hold
            self.define(op.res, f"bcast_nibble({self.e(op.memref)}[{self.index(op.memref, op.indices)}])")
        elif isinstance(op, memref.LoadOp):
            self.define(op.res, f"{self.e(op.memref)}[{self.index(op.memref, op.indices)}]")
        elif isinstance(op, memref.StoreOp) and op in self.tiles:
            tile, first = self.tiles[op]
            self.out(f"{tile}[{self.e(op.indices[-1])} - {first}] = {self.e(op.value)};")
        elif isinstance(op, memref.StoreOp):
            self.out(f"{self.e(op.memref)}[{self.index(op.memref, op.indices)}] = {self.e(op.value)};")
        elif isinstance(op, memref.AllocOp):
            if op not in self.scoped:
                self.alloc(op)
        elif isinstance(op, memref.DeallocOp):
            if op.memref in self.heap and op.memref.owner not in self.scoped:
                self.out(f"free({self.e(op.memref)});")
                if op.memref.owner in self.predeclared:  # the failure path frees it too
                    self.out(f"{self.e(op.memref)} = NULL;")
        elif isinstance(op, memref.DimOp):
            d = nests.constant(op.index)
            if d is None:
                raise PassError(op, "is supported by the C target only with a constant dim")
            self.expr[op.result] = self.dims(op.source)[d]
        elif isinstance(op, memref.GetGlobalOp):
            self.expr[op.memref] = self.globals[op.name_.string_value()]
        elif isinstance(op, func.CallOp):
            args = []
            for a in op.arguments:
                args.append(f"({c_type(a.type.element_type)} *){self.e(a)}"
                            if isinstance(a.type, MemRefType) else self.e(a))
                if isinstance(a.type, MemRefType):
                    args += [n for n, s in zip(self.dims(a), a.type.get_shape()) if s == DYNAMIC_INDEX]
            self.out(f"{self.names[op.callee.string_value()]}({', '.join(args)});")
            if self.checks:
                self.fails = True
                self.out("if (bcast_fault_state[0]) goto bcast_fail;")
        elif isinstance(op, cf.AssertOp):
            self.bounds_check(op)
        elif isinstance(op, func.ReturnOp):
            if self.streams:
                self.out("bcast_stream_fence();")
            self.leave()
        else:
            expr = self.scalar(op)
            if expr is None:
                raise PassError(op, "is not supported by the C target")
            self.define(op.results[0], expr)
            if op in self.divisions:
                kind, _, guard = self.divisions[op]
                self.guard(kind, self.e(op.operands[0]), guard)

    def constant(self, op: arith.ConstantOp) -> None:
        value, t = op.value, op.result.type
        if isinstance(t, IndexType):
            assert isinstance(value, IntegerAttr)
            self.expr[op.result] = str(value.value.data)
        elif isinstance(t, IntegerType):
            assert isinstance(value, IntegerAttr)
            self.expr[op.result] = int_literal(value.value.data, width(t))
        elif isinstance(value, FloatAttr):
            self.expr[op.result] = float_literal(value.value.data, t)
        else:
            raise PassError(op, "is not supported by the C target")

    def dims(self, m: SSAValue) -> list[str]:
        """The sizes of memref ``m`` as C expressions."""
        return self.sizes.get(m) or [str(n) for n in m.type.get_shape()]

    def index(self, m: SSAValue, indices) -> str:
        shape = m.type.get_shape()
        if DYNAMIC_INDEX in shape:
            return self.dynamic_index(m, indices)
        terms = []
        for i, stride in zip(indices, strides(shape)):
            text = self.e(i)
            if text == "0":
                continue
            terms.append(text if stride == 1 else f"{text} * {stride}")
        return " + ".join(terms) or "0"

    def dynamic_index(self, m: SSAValue, indices) -> str:
        """The linear index in a memref with dynamic dims: each index times
        its stride, the product of the sizes after it (a literal where they
        are all static: ``memref<?x4xf32>`` indexes as ``memref<8x4xf32>``)."""
        shape, dims = m.type.get_shape(), self.dims(m)
        terms = []
        for k, i in enumerate(indices):
            text = self.e(i)
            if text == "0":
                continue
            after = shape[k + 1:]
            if DYNAMIC_INDEX not in after:
                stride = element_count(after)
                terms.append(text if stride == 1 else f"{text} * {stride}")
            else:
                terms.append(" * ".join([text, *(d for d, n in zip(dims[k + 1:], after) if n != 1)]))
        return " + ".join(terms) or "0"

    @staticmethod
    def alloc_bytes(op: memref.AllocOp) -> int:
        t = op.memref.type
        return max(element_count(t.get_shape()), 1) * _bytes(t.element_type)

    def alloc(self, op: memref.AllocOp) -> None:
        t = op.memref.type
        ct = c_type(t.element_type)
        n = max(element_count(t.get_shape()), 1)
        name = self.fresh("v")
        if op.dynamic_sizes:
            sizes, given = [], iter(op.dynamic_sizes)
            for d in t.get_shape():
                sizes.append(str(d) if d != DYNAMIC_INDEX else self.e(next(given)))
            self.sizes[op.memref] = sizes
        # (bcast_alloc takes 0 bytes too)
        size = self.alloc_bytes(op) if not op.dynamic_sizes else self.memref_bytes(op.memref)
        if op in self.predeclared:
            self.out(f"{self.e(op.memref)} = bcast_alloc({size});")
            self.heap.add(op.memref)
            return
        if op in self.on_stack:
            self.out(f"{ct} {name}[{n}];")
        else:
            self.out(f"{ct} *{name} = bcast_alloc({size});")
            self.heap.add(op.memref)
        self.expr[op.memref] = name

    # -- control flow (passes/loops_control_flow.py) --------------------------
    def while_loop(self, op: scf.WhileOp) -> None:
        """An ``scf.while`` without carried values: ``for (;;)``, the
        ``before`` block, a ``break`` where its condition is false, then the
        ``after`` block."""
        if op.arguments or op.res:
            raise PassError(op, "is supported by the C target only without carried values")
        self.out("for (;;) {")
        self.indent += 1
        self.block(op.before_region.block)
        condition = op.before_region.block.last_op
        assert isinstance(condition, scf.ConditionOp)
        self.out(f"if (!{self.e(condition.condition)}) break;")
        self.block(op.after_region.block)
        self.indent -= 1
        self.out("}")

    def branches(self, op: scf.IfOp) -> None:
        """An ``scf.if`` without results: ``if``/``else``."""
        if op.output:
            raise PassError(op, "is supported by the C target only without results")
        self.out(f"if ({self.e(op.cond)}) {{")
        self.indent += 1
        self.block(op.true_region.block)
        self.indent -= 1
        if op.false_region.blocks and len(op.false_region.block.ops) > 1:
            self.out("} else {")
            self.indent += 1
            self.block(op.false_region.block)
            self.indent -= 1
        self.out("}")

    # -- loops ---------------------------------------------------------------
    def loop(self, op: scf.ForOp) -> None:
        if GEMM_ATTR in op.attributes or CONV_ATTR in op.attributes:
            # the arith right after the nest (an epilogue's sizes, stretch strides) runs before it: the
            # epilogue test compares the next nest's trip count, which may be one of them, by its C name
            between = op.next_op
            while between is not None and between.dialect_name() == "arith" and not between.regions:
                self.op(between)
                self.hoisted.add(between)
                between = between.next_op
        call = (self.gemm_call(op) if GEMM_ATTR in op.attributes
                else self.conv_call(op) if CONV_ATTR in op.attributes else None)  # fmt: skip
        if call is None:
            self.loop_nest(op)
            return
        condition, lines, epilogue, rows, closing = call
        self.out(f"if ({condition}) {{")
        self.indent += 1
        for line in lines:
            self.out(line)
        if epilogue is not None:  # the epilogue's rows of this block, while the block is in cache
            self.merged.add(epilogue)
            self.indent += 1
            self.in_parallel += 1
            self.emit_loop(epilogue, rows[0], f"{rows[0]} + {rows[1]}", None, False)
            self.in_parallel -= 1
            self.indent -= 1
        self.out("}")
        for line in closing:
            self.out(line)
        self.indent -= 1
        self.out("} else {")
        self.indent += 1
        self.loop_nest(op)
        if epilogue is not None:
            self.loop_nest(epilogue)
        self.indent -= 1
        self.out("}")

    def gemm_call(self, op: scf.ForOp) -> tuple[str, list[str], scf.ForOp | None, tuple[str, str], list[str]] | None:
        """The BLAS call a contraction's nest marked ``GEMM_ATTR`` is: the
        condition under which it runs instead of the nest (the pointer set
        and, for run-time sizes, none of them 0), the lines opening the loop
        over row blocks (per batch) that calls it, the epilogue nest to run
        in that loop on each block's rows (``epilogue``), the names of a
        block's first row and row count, and the lines after the loop; None
        when the nest does not read and write as the attribute says.

        A product of one batch in several row blocks packs B once before
        the loop (``bcast_blas_sgemm_pack``) and each block multiplies its
        rows with the packed B (``..._packed``): the blocks then cost no
        more than one call, however many there are (``bcast_gemm_rows``);
        when B is not packed (no pointer, no memory) each block is a plain
        call, which packs B itself. Sizes read at run time (``?`` dims:
        the trip counts of the nest's loops the attribute lists) are C
        expressions in the same places (``gemm_sizes``)."""
        found = product_accesses(op)
        if found is None:
            return None
        loads, stores, element = found
        (batch, m, n, k), dynamic, g = self.gemm_sizes(op)
        a, b, c = self.e(loads[0].memref), self.e(loads[1].memref), self.e(stores[0].memref)
        function, t = ("bcast_blas_sgemm", "f") if isinstance(element, Float32Type) else ("bcast_blas_dgemm", "")
        lda, ldb = (m if g["trans_a"] else k), (k if g["trans_b"] else n)
        order = ("112" if g["trans_a"] else "111", "112" if g["trans_b"] else "111")
        rows, blocks, q, first, count, packed, threads = (self.fresh(p) for p in ("n", "n", "q", "r", "n", "p", "n"))
        at_row = first if g["trans_a"] else f"{first} * {k}"
        a_at, b_at, offsets = f"({q} / {blocks}) * {_product(m, k)}", f"({q} / {blocks}) * {_product(k, n)}", []
        if "lhs_batch" in g:  # operands read through broadcasts of their batch dims
            a_at, b_at = self.fresh("o"), self.fresh("o")
            offsets = self.batch_offsets(stores[0].memref, [(loads[0].memref, g["lhs_batch"], a_at),
                                                            (loads[1].memref, g["rhs_batch"], b_at)],
                                         f"{q} / {blocks}")
        a_rows = f"{a} + {a_at} + {at_row}"
        c_rows = f"{c} + ({q} / {blocks}) * {_product(m, n)} + {first} * {n}"
        call = (f"{function}(101, {order[0]}, {order[1]}, {count}, {n}, {k}, 1.0{t}, {a_rows}, {lda}, "
                f"{b} + {b_at}, {ldb}, 0.0{t}, {c_rows}, {n});")
        flops = _product("2.0", batch, m, n, k) if dynamic else f"{2.0 * int(batch) * int(m) * int(n) * int(k):.1f}"
        lines = [f"int {threads} = bcast_gemm_threads();",
                 f"int64_t {rows} = bcast_gemm_rows({m}, {flops}, {_product(n, '4' if t else '8')}, {threads});",
                 f"int64_t {blocks} = ({m} + {rows} - 1) / {rows};"]
        closing = []
        pack = []
        if batch == "1":
            lines.append(f"void *{packed} = {blocks} > 1 && {function}_pack_buffer && {function}_pack_rows "
                         f"&& {function}_packed && bcast_blas_gemm_release ? {function}_pack_buffer({n}, {k}) : 0;")
            call = (f"if ({packed}) {function}_packed({order[0]}, {count}, {n}, {k}, {a_rows}, {lda}, {packed}, "
                    f"{c_rows}, {n}); else {call}")
            closing.append(f"if ({packed}) bcast_blas_gemm_release({packed});")
            # B packed by the product's threads between them, BCAST_PACK_PARTS parts
            part, size = self.fresh("q"), self.fresh("n")
            pack = [f"if ({packed}) {{",
                    f"    int64_t {size} = ({k} + BCAST_PACK_PARTS - 1) / BCAST_PACK_PARTS;",
                    f"    if ({size} < BCAST_PACK_ROWS) {size} = BCAST_PACK_ROWS;",
                    *(["    #pragma omp for schedule(dynamic, 1)"] if self.openmp else []),
                    f"    for (int64_t {part} = 0; {part} < {k}; {part} += {size})",
                    f"        {function}_pack_rows({order[1]}, {n}, {k}, {b}, {ldb}, {packed}, {part}, "
                    f"{k} - {part} < {size} ? {k} : {part} + {size});",
                    "}"]
        if self.openmp:  # bcast_threads' count, re-taken at the region's start (bcast_recount)
            # (a batch of products each one block: on threads too when the whole is large)
            many = f"{blocks} > 1" if batch == "1" else f"({batch} * {blocks} > 1 && {flops} >= BCAST_GEMM_THREADED_FLOPS)"
            lines += [f"#pragma omp parallel if ({many}) num_threads({threads})", "{",
                      f"if ({many}) bcast_recount();", *pack, "#pragma omp for schedule(dynamic, 1) nowait"]
            closing.insert(0, "}")
        else:
            lines += pack
        lines += [f"for (int64_t {q} = 0; {q} < {batch} * {blocks}; {q}++) {{",
                  f"    int64_t {first} = ({q} % {blocks}) * {rows};",
                  f"    int64_t {count} = {m} - {first} < {rows} ? {m} - {first} : {rows};",
                  *(f"    {line}" for line in offsets),
                  f"    {call}"]
        epilogue = self.epilogue(op, stores[0].memref, (loads[0].memref, loads[1].memref), m) if batch == "1" else None
        condition = " && ".join([function, *(f"{size} > 0" for size in dynamic)])
        return condition, lines, epilogue, (first, count), closing

    def batch_offsets(self, result: SSAValue, operands: list[tuple[SSAValue, tuple[int, ...], str]],
                      at: str) -> list[str]:
        """Lines defining, for the result's batch element ``at`` (a C
        expression), each operand's offset into its memory: the sum over the
        result's batch dims of the element's index along the dim times the
        operand's stride there, 0 where the dim is not the operand's or its
        size is 1 (static, or ``?`` and 1 at run time: a broadcast batch
        dim, read again for every index; ``GEMM_ATTR``'s ``lhs_batch``)."""
        sizes, nb = self.dims(result), len(operands[0][1])
        rest = self.fresh("n")
        lines = [f"int64_t {rest} = {at}, {', '.join(f'{name} = 0' for _, _, name in operands)};"]
        for r in reversed(range(nb)):
            if sizes[r] == "1":
                continue
            index = self.fresh("n")
            lines.append(f"int64_t {index} = {rest} % {sizes[r]}; {rest} /= {sizes[r]};")
            for memory, dims, name in operands:
                d = dims[r]
                own = self.dims(memory)
                if d < 0 or own[d] == "1":
                    continue
                stride = _product(*own[d + 1:]) if d + 1 < len(own) else "1"
                step = stride if own[d].isdigit() else f"({own[d]} == 1 ? 0 : {stride})"
                lines.append(f"{name} += {index} * {step};")
        return lines

    def conv_call(self, op: scf.ForOp) -> tuple[str, list[str], scf.ForOp | None, tuple[str, str], list[str]] | None:
        """What ``gemm_call`` gives, for a convolution's nest marked
        ``CONV_ATTR``: the geometry (a static array, or with run-time
        entries a local one filled from the ``CONV_SIZES_ATTR`` buffer), the
        kernel packed once (``bcast_blas_sconv_pack``, declared before the
        condition, which is that it was packed), then blocks of iterations
        of the nest's outer loop (whole images, or output rows of one
        image; ``bcast_conv_images``) on OpenMP threads, each computing its
        rows (``..._packed``) and then running the epilogue on them while
        they are in cache. None when the nest does not read and write as
        the attribute says."""
        found = product_accesses(op)
        if found is None:
            return None
        loads, stores, element = found
        attribute = op.attributes[CONV_ATTR].data  # type: ignore[attr-defined]
        geometry = [str(v) for v in attribute["geometry"].get_values()]
        x, w, c = self.e(loads[0].memref), self.e(loads[1].memref), self.e(stores[0].memref)
        letter = "s" if isinstance(element, Float32Type) else "d"
        pack, rows_of = f"bcast_blas_{letter}conv_pack", f"bcast_blas_{letter}conv_packed"
        g, packed, per, blocks, q, first, count, threads = (
            self.fresh(p) for p in ("g", "p", "n", "n", "q", "r", "n", "t"))
        if "run_time" in attribute:  # entries read at run time, from the buffer the lowering filled
            sizes = self.conv_sizes(op, attribute["sizes"].value.data)
            for j, k in enumerate(attribute["run_time"].get_values()):
                geometry[k] = f"(int64_t){sizes}[{j}]"
            self.out(f"int64_t {g}[] = {{{', '.join(geometry)}}};")
        else:
            self.out(f"static const int64_t {g}[] = {{{', '.join(geometry)}}};")
        nsp, features, ldc = (int(geometry[k]) for k in (0, 1, 4))
        taps = math.prod(int(geometry[9 + 10 * k + 2]) for k in range(nsp))
        shape = stores[0].memref.type.get_shape()  # type: ignore[attr-defined]
        row = next((k for k, size in enumerate(shape) if size != 1), 0)  # the nest's outer loop's dim
        # without units, the result's size at that dim: the nest's own trip count is 0 where the input is empty
        # at run time (its zeros' nest wrote the result), but the kernel reads no element of an empty input
        # (every place is padding: zeros), so it runs them all, and the epilogue after it with them
        batch = str(attribute["units"].value.data) if "units" in attribute else self.dims(stores[0].memref)[row]
        per_image = (str(attribute["rows"].value.data) if "rows" in attribute  # else output sizes after it
                     else _product(*(f"{g}[{9 + 10 * s + 1}]" for s in range(nsp) if 1 + s > row)))  # fmt: skip
        self.out(f"void *{packed} = {pack} && {rows_of} && bcast_blas_gemm_release ? {pack}({w}, {g}) : 0;")
        flops = f"{float(2 * ldc * taps * features):.1f} * {per_image}"
        lines = [f"int {threads} = bcast_gemm_threads();",
                 f"int64_t {per} = bcast_conv_images({batch}, {flops} * {batch}, {threads});",
                 f"int64_t {blocks} = ({batch} + {per} - 1) / {per};"]
        if self.openmp:  # bcast_threads' count, as a GEMM's row blocks
            lines.append(f"#pragma omp parallel for schedule(dynamic, 1) if ({blocks} > 1) num_threads({threads})")
        lines += [f"for (int64_t {q} = 0; {q} < {blocks}; {q}++) {{",
                  f"    int64_t {first} = {q} * {per};",
                  f"    int64_t {count} = {batch} - {first} < {per} ? {batch} - {first} : {per};",
                  f"    {rows_of}({x}, {g}, {first} * {per_image}, {count} * {per_image}, {packed}, {c});"]
        epilogue = self.epilogue(op, stores[0].memref, (loads[0].memref, loads[1].memref), batch, row)
        return packed, lines, epilogue, (first, count), [f"bcast_blas_gemm_release({packed});"]

    def conv_sizes(self, op: scf.ForOp, number: int) -> str:
        """The C name of the run-time geometry buffer that ``op``'s
        ``CONV_ATTR`` names (``sizes``): the alloc of its function marked
        ``CONV_SIZES_ATTR`` with that number, emitted before the nest."""
        for o in self.f.walk():
            mark = o.attributes.get(CONV_SIZES_ATTR) if isinstance(o, memref.AllocOp) else None
            if isinstance(mark, IntegerAttr) and mark.value.data == number:
                return self.e(o.memref)
        raise PassError(op, f"names the convolution sizes {number}, which its function does not allocate")

    def gemm_sizes(self, op: scf.ForOp) -> tuple[tuple[str, str, str, str], list[str], dict]:
        """``GEMM_ATTR``'s batch, M, N and K as C expressions (a static size
        as its digits; one with ``?`` factors times the trip counts of the
        nest's loops it lists, read at run time), the run-time ones among
        them, and the attribute's entries."""
        g = {}
        for key, v in op.attributes[GEMM_ATTR].data.items():
            g[key] = (v.value.data if isinstance(v, IntegerAttr) else tuple(v.get_values())
                      if isinstance(v, DenseArrayBase) else bool(v.value.data))  # fmt: skip
        nest = [op]
        while inner := [o for o in nest[-1].body.blocks[0].ops if isinstance(o, scf.ForOp)]:
            nest.append(inner[0])
        sizes, dynamic = [], []
        for name in ("batch", "m", "n", "k"):
            factors = [self.e(nest[d].ub) for d in g.get(f"{name}_loops", ())]
            size = _product(*([str(g[name])] if g[name] != 1 or not factors else []), *factors)
            sizes.append(size)
            if factors:
                dynamic.append(size)
        return tuple(sizes), dynamic, g  # type: ignore[return-value]

    def epilogue(self, gemm: scf.ForOp, product: SSAValue, operands: tuple[SSAValue, ...], m: str,
                 at: int = 0) -> scf.ForOp | None:
        """The nest right after a GEMM's (``arith`` ops between them, the
        epilogue's sizes and strides, aside) that runs over the product's ``m``
        rows (a C expression: its digits, or the run-time size) and reads
        only its own row of it (a fused bias add and activation), so each
        row block can run it right after its GEMM call: plain loops (no
        collapsed row loop, no streamed or prefetched nest, no allocation,
        call or check),
        writing neither the product nor the GEMM's operands (loops inside
        the row loop may run collapsed: they stay within the row). None
        when there is no such nest. ``at``: the product's index that is the row
        (a convolution's result may have size-1 dims before it).

        Decision: a nest whose result has ``?`` dims, which streams only
        when large at run time (``large_at_run_time``), is taken too, and
        its stores are made plain (``bcast-streaming-stores``' mark
        dropped): its rows were just written by the GEMM and are in cache,
        which is what fusing them is for; a static result that streams is
        left as it is."""
        after = gemm.next_op
        while after is not None and after.dialect_name() == "arith" and not after.regions:
            after = after.next_op  # sizes and strides for the epilogue: computed before the call (``loop``)
        if (not isinstance(after, scf.ForOp) or after.iter_args
                or nests.constant(after.lb) != 0 or nests.constant(after.step) != 1):
            return None
        trip = nests.trip(after)
        if (str(trip) if trip is not None else self.e(after.ub)) != m:
            return None
        streamed = [o for o in after.walk() if isinstance(o, memref.StoreOp) and o.nontemporal.value.data]
        if streamed and self.large_at_run_time(streamed) is None:
            return None
        row = after.body.blocks[0].args[0]
        for o in after.walk():
            if isinstance(o, memref.AllocOp | func.CallOp | cf.AssertOp | memref.DeallocOp):
                return None
            if isinstance(o, scf.ForOp) and (COLLAPSE_ATTR in o.attributes and o is after
                                             or PREFETCH_BLOCK_ATTR in o.attributes):
                return None
            if isinstance(o, memref.StoreOp) and o.memref in (product, *operands):
                return None
            if isinstance(o, memref.LoadOp) and o.memref == product and (len(o.indices) <= at or o.indices[at] != row):
                return None
        for store in streamed:
            store.properties.pop("nontemporal", None)
        return after

    def loop_nest(self, op: scf.ForOp) -> None:
        nest = collapsed_nest(op)
        threads = THREADS_ATTR in op.attributes
        if len(nest) == 1:
            self.emit_loop(op, self.e(op.lb), self.e(op.ub), nests.trip(op), threads)
            return
        # One loop over the nest's product: the innermost loop's variable
        # stands for the position within the collapsed dims, the others are
        # 0, so every access's linear index (``index``) is the collapsed one.
        for outer in nest[:-1]:
            self.expr[outer.body.blocks[0].args[0]] = "0"
        count = math.prod(nests.trip(loop) or 0 for loop in nest)
        self.emit_loop(nest[-1], "0", str(count), count, threads)

    def emit_loop(self, op: scf.ForOp, lb: str, ub: str, trip: int | None, threads: bool) -> None:
        """``op`` over ``lb`` to ``ub`` (``trip`` iterations when static) on
        threads when its nest is marked so (``bcast-plan-parallel``)."""
        body = op.body.blocks[0]
        iv, *carried = body.args
        names = []
        for init, arg, result in zip(op.iter_args, carried, op.results):
            name = self.fresh("v")
            self.out(f"{c_type(arg.type)} {name} = {self.e(init)};")
            self.expr[arg] = self.expr[result] = name
            names.append(name)
        innermost = nests.innermost(op)
        vectorize = VECTORIZE_ATTR in op.attributes
        pragma = None
        streamed = nontemporal(op) if innermost else []
        if threads and self.openmp:
            # (the loop over chunks, when the innermost loop streams)
            pragma = f"{PARALLEL_SIMD if vectorize and not streamed else PARALLEL} schedule(static)"
        elif vectorize and not carried:
            pragma = SIMD
        elif vectorize and _reduction_kind(op) == "add":
            pragma = f"#pragma omp simd reduction(+:{names[0]})"
        elif vectorize:
            # A NaN-propagating max does not vectorize; a plain max with a
            # separate "saw a NaN" flag does, and gives the same value.
            flag = self.fresh("nan")
            # (a NaN carried in from an outer loop is seen too: the simd max
            # combines its partial results with it in no defined NaN order)
            self.out(f"unsigned char {flag} = {names[0]} != {names[0]};")
            self.nan_flags[carried[0]] = flag
            fold = "max" if _reduction_kind(op) == "maximum" else "min"
            pragma = f"#pragma omp simd reduction({fold}:{names[0]}) reduction(|:{flag})"
        entered = pragma is not None and "parallel" in pragma
        when = self.run_time_work(op) if entered and trip is None else None
        if entered and BURST_ATTR in op.attributes:  # (a static nest: plan_parallel.BURST_WORK)
            when = BURST if when is None else f"({when}) || {BURST}"
        clause = "" if when is None else f" if ({when})"
        # threads fence their streaming stores before the region's barrier;
        # a serial nest fences once after it (a later parallel loop may read)
        streams = bool(streamed) if innermost else self.streaming(op)
        fenced = streams and (entered or (op.parent_op() is self.f and not self.in_parallel))
        scoped = self.per_iteration_allocs(op)
        self.scoped.update(scoped)
        # a parallel region around the loop: each thread allocates its
        # scratch once, fences its streaming stores before the barrier, and
        # the first takes the machine's count (bcast_recount in the prelude)
        # unless the nest stayed on one thread; a loop whose invariant
        # divisions guard across threads stays one construct (``for_loop``)
        region = entered and bool(fenced or scoped or not (pragma.startswith(PARALLEL_SIMD)
                                                           and self.invariant_divisions(op)))
        if entered:
            clause += THREADS_CLAUSE
        if region:
            self.out("#pragma omp parallel" + clause)
            self.out("{")
            self.indent += 1
            self.out("bcast_recount();" if when is None else f"if ({when}) bcast_recount();")
            pragma = pragma.replace(PARALLEL, "#pragma omp for") + " nowait"
        elif entered:
            pragma += clause
        for a in scoped:
            self.alloc(a)
        deferred = self.defer_streams(op)
        large = self.large_at_run_time(streamed)
        if streamed and large is not None:
            # results marked streaming whose size the run decides (? dims,
            # or the machine's cache): streamed when large, else plain stores
            self.streams = True
            self.out(f"if ({large}) {{")
            self.indent += 1
            self.chunked_loop(op, lb, ub, pragma, streamed)
            self.indent -= 1
            self.out("} else {")
            self.indent += 1
            plain = pragma.replace(" for ", " for simd ", 1) if threads and self.openmp and vectorize else pragma
            self.plain_loop(op, lb, ub, plain, names, entered)
            self.indent -= 1
            self.out("}")
        elif streamed:
            self.streams = True
            self.chunked_loop(op, lb, ub, pragma, streamed)
        else:
            self.plain_loop(op, lb, ub, pragma, names, entered)
        for store in deferred:
            tile, pending = self.deferred.pop(store)
            self.out(f"if ({pending}) bcast_stream({pending}, {tile}, sizeof {tile});")
        for a in scoped:
            self.out(f"free({self.e(a.memref)});")
        if fenced:
            self.out("bcast_stream_fence();")
        if region:
            self.indent -= 1
            self.out("}")

    def run_time_work(self, op: scf.ForOp) -> str | None:
        """For a nest on threads whose trip counts are run-time sizes: the C
        condition that it runs at least ``PARALLEL_WORK`` innermost
        iterations (the trips of the loop and of the first loop nested in
        each body, where known before the nest; a body whose loops all have
        static trip counts counts all of them, as ``nests.work`` does for a
        static nest: a softmax row's three passes), so a small call stays on
        one thread as a small static nest does (``bcast-plan-parallel``)."""
        factors, loop = [], op
        while loop is not None:
            trip = nests.trip(loop)
            if trip is not None:
                factors.append(str(trip))
            elif nests.constant(loop.lb) == 0 and nests.constant(loop.step) == 1 and loop.ub in self.expr:
                factors.append(f"(double){self.e(loop.ub)}")
            else:
                break
            inner = [o for o in loop.body.blocks[0].ops if isinstance(o, scf.ForOp)]
            if inner and all(nests.work(o, 0) == nests.work(o, 1) for o in inner):  # all static
                factors.append(str(sum(nests.work(o, 1) for o in inner)))
                break
            loop = inner[0] if inner else None
        return f"{' * '.join(factors)} >= {PARALLEL_WORK}" if factors else None

    def plain_loop(self, op: scf.ForOp, lb: str, ub: str, pragma: str | None, names: list[str],
                   entered: bool) -> None:
        body = op.body.blocks[0]
        iv, *carried = body.args
        i = self.fresh("i")
        self.expr[iv] = i
        prefetched = self.prefetched_rows(op)
        large = self.prefetch_at_run_time(op, prefetched)
        if large is not None:
            # bcast-plan-prefetch marked arrays with ? dims: prefetch when one is large
            pending = [p for _, p in self.draining.get(op, [])]
            if pending:
                # a row waits only while the result streams: that branch alone
                # drains it (the drain's code in the loop costs the others 6%,
                # layernorm at 1024x1024), the second is the static program's
                self.out(f"if ({' || '.join(pending)}) {{")
                self.indent += 1
                self.plain_loop(op, lb, ub, pragma, names, entered)
                self.expr[iv] = i
                self.indent -= 1
                self.out(f"}} else if ({large}) {{")
            else:
                self.out(f"if ({large}) {{")
            self.indent += 1
            self.plain_loop(op, lb, ub, pragma, names, entered)
            self.prefetch_decided.discard(op)
            self.expr[iv] = i
            self.indent -= 1
            self.out("} else {")
            self.indent += 1
            self.for_loop(op, f"int64_t {i} = {lb}; {i} < {ub}; {i} += {self.e(op.step)}", pragma, names, entered)
            self.indent -= 1
            self.out("}")
            for arg, name in zip(carried, names):
                if arg in self.nan_flags:
                    self.out(f"if ({self.nan_flags.pop(arg)}) {name} = NAN;")
            return
        if prefetched:
            # blocks of ``block`` iterations, each first prefetching the
            # lines of the rows ahead that the block's positions will access
            row, block, lines = prefetched
            cols = nests.trip(op)
            first = self.fresh("b")
            ahead: dict[tuple[int, int], str] = {}  # (rows ahead, of rows) -> the row
            targets = []
            for _, rows, rows_ahead, _, write in lines:
                key = (rows_ahead, rows)
                if key not in ahead:
                    ahead[key] = name = self.fresh("r")
                    later = f"{self.e(row)} + {key[0]}"
                    self.out(f"int64_t {name} = {later} < {rows} ? {later} : {rows} - 1;")
                targets.append(ahead[key])
            self.out(f"for (int64_t {first} = {lb}; {first} < {ub}; {first} += {block}) {{")
            self.indent += 1
            for (m, _, _, per_line, write), target in zip(lines, targets):
                q = self.fresh("q")
                # a result with ? dims that streams when large: prefetched only when it does not
                unless = f"if (!({self.stream_bytes(m)})) " if write == "unless streamed" else ""
                self.out(f"{unless}for (int64_t {q} = 0; {q} < {block} && {first} + {q} < {ub}; {q} += {per_line}) "
                         f"BCAST_PREFETCH{'_WRITE' if write else ''}({self.e(m)} + {target} * {cols} + {first} + {q});")
            last = f"({ub} - {first} < {block} ? {ub} : {first} + {block})"
            for tile, pending in self.draining.pop(op, []):
                self.out(f"if ({pending}) bcast_stream({pending} + {first}, {tile} + {first}, "
                         f"(size_t)({last} - {first}) * sizeof {tile}[0]);")
            lb, ub = first, last
        self.for_loop(op, f"int64_t {i} = {lb}; {i} < {ub}; {i} += {self.e(op.step)}", pragma, names, entered)
        if prefetched:
            self.indent -= 1
            self.out("}")
        for arg, name in zip(carried, names):
            if arg in self.nan_flags:
                self.out(f"if ({self.nan_flags.pop(arg)}) {name} = NAN;")

    def for_loop(self, op: scf.ForOp, header: str, pragma: str | None, names: Iterable[str] = (),
                 entered: bool = False) -> None:
        """``for (header)`` over ``op``'s body, then the updates of its
        carried values (``names``). A simd loop's divisions marked
        ``bcast.invariant_divisor`` (``bcast-invariant-divisions``) divide
        with ``bcast_div_*``, and the loop runs a second time with plain
        division only when an operand was outside the range where those are
        exact. A parallel simd loop does so too (its threads reduce the
        guard), but not one inside a parallel region (``omp for ... nowait``:
        no barrier before the guard is read)."""
        fast = pragma == SIMD or (pragma or "").startswith(PARALLEL_SIMD)
        divisions = self.invariant_divisions(op) if fast else []
        guards = self.prepare_divisions(divisions)
        plain = pragma
        if guards:
            pragma = f"{pragma} reduction(max:{', '.join(guards.values())})"
        self.loop_body(op, header, pragma, names, entered)
        if guards:
            for d in divisions:
                del self.divisions[d]
            outside = " || ".join(f"{g} > BCAST_DIV_SPAN_{t.upper()}" for t, g in guards.items())
            self.out(f"if ({outside}) {{")
            self.indent += 1
            self.loop_body(op, header, plain, names, entered)
            self.indent -= 1
            self.out("}")

    def loop_body(self, op: scf.ForOp, header: str, pragma: str | None, names: Iterable[str],
                  entered: bool) -> None:
        body = op.body.blocks[0]
        carried = body.args[1:]
        if pragma:
            self.out(pragma)
        self.out(f"for ({header}) {{")
        self.indent += 1
        self.in_parallel += entered
        for inner in body.ops:
            self.op(inner)
        if carried:
            yielded = body.last_op
            assert isinstance(yielded, scf.YieldOp)
            temps = []
            for v, arg in zip(yielded.operands, carried):
                t = self.fresh("t")
                self.out(f"{c_type(arg.type)} {t} = {self.e(v)};")
                temps.append(t)
            for name, t in zip(names, temps):
                self.out(f"{name} = {t};")
        self.in_parallel -= entered
        self.indent -= 1
        self.out("}")

    @staticmethod
    def invariant_divisions(op: scf.ForOp) -> list[arith.DivfOp]:
        """The divisions of ``op``'s body marked ``bcast.invariant_divisor``."""
        return [o for o in op.body.blocks[0].ops if isinstance(o, arith.DivfOp) and INVARIANT_DIVISOR_ATTR in o.attributes]

    def prepare_divisions(self, divisions: list[arith.DivfOp]) -> dict[str, str]:
        """Before the loop: each divisor's reciprocal, and per float type a
        guard (the largest ``bcast_div_range_*`` of the divisors, then of the
        dividends) that the loop reduces with max. Returns type -> guard."""
        guards: dict[str, str] = {}
        reciprocals: dict[SSAValue, str] = {}
        for d in divisions:
            kind = "f32" if isinstance(d.result.type, Float32Type) else "f64"
            if kind not in guards:
                guards[kind] = self.fresh("g")
                self.out(f"uint32_t {guards[kind]} = 0;")
            guard = guards[kind]
            if d.rhs not in reciprocals:
                ct, b = c_type(d.result.type), self.e(d.rhs)
                reciprocals[d.rhs] = self.fresh("y")
                self.out(f"{ct} {reciprocals[d.rhs]} = ({ct})1 / {b};")
                self.guard(kind, b, guard)
            self.divisions[d] = (kind, reciprocals[d.rhs], guard)
        return guards

    def guard(self, kind: str, x: str, guard: str) -> None:
        distance = self.fresh("t")
        self.out(f"uint32_t {distance} = bcast_div_range_{kind}({x});")
        self.out(f"{guard} = {distance} > {guard} ? {distance} : {guard};")

    def prefetch_at_run_time(self, op: scf.ForOp, prefetched) -> str | None:
        """For a prefetching phase whose arrays all have ? dims: the C
        condition that one has at least ``PREFETCH_BYTES`` (None: it always
        prefetches). Consumes nothing: the prefetching branch asks again,
        then with the marks only."""
        if not prefetched or op in self.prefetch_decided:
            return None
        arrays = [m for m, *_ in prefetched[2]]
        if any(DYNAMIC_INDEX not in m.type.get_shape() for m in arrays):
            return None
        self.prefetch_decided.add(op)
        return " || ".join(f"({self.memref_bytes(m)} >= {PREFETCH_BYTES})" for m in arrays)

    def prefetched_rows(self, op: scf.ForOp) -> tuple[SSAValue, int, list[tuple]] | None:
        """For a phase marked ``bcast.prefetch_block`` (``bcast-plan-prefetch``):
        its row loop's variable, its block size, and per array an access of
        the row marks ``bcast.prefetch_ahead``: (memref, its rows, rows
        ahead, elements per cache line, for writing: False, True, or
        ``"unless streamed"`` for a ``nontemporal`` store to a result with
        ? dims). None when unmarked."""
        block = op.attributes.get(PREFETCH_BLOCK_ATTR)
        if not isinstance(block, IntegerAttr):
            return None
        if nests.trip(op) is None or not isinstance(op.parent_op(), scf.ForOp):
            raise PassError(op, f"has {PREFETCH_BLOCK_ATTR} but is not a phase of a row loop with a static trip count")
        row = op.parent_block().args[0]
        lines = {}
        for o in op.parent_block().walk():
            ahead = o.attributes.get(PREFETCH_AHEAD_ATTR)
            # (not a deeper row loop's marks: those index rows of their own)
            if isinstance(o, memref.LoadOp | memref.StoreOp) and isinstance(ahead, IntegerAttr) \
                    and len(o.indices) >= 2 and o.indices[-2] is row:
                t = o.memref.type
                rows = " * ".join(self.dims(o.memref)[:-1]) if DYNAMIC_INDEX in t.get_shape() \
                    else element_count(t.get_shape()[:-1])
                write = isinstance(o, memref.StoreOp) and (
                    "unless streamed" if o.nontemporal.value.data and DYNAMIC_INDEX in t.get_shape() else True)
                lines[o.memref] = (o.memref, rows, ahead.value.data, max(64 // _bytes(t.element_type), 1), write)
        return row, block.value.data, list(lines.values())

    def defer_streams(self, loop: scf.ForOp) -> list[memref.StoreOp]:
        """The stores of ``loop``'s last phase marked ``bcast.deferred_stream``
        (``bcast-plan-prefetch``): each fills one row tile, which the next
        row's prefetching phase streams out a block at a time. Declares the
        tiles and pending-row pointers before the loop (per thread); the
        caller streams the last row's tiles after it."""
        phases = nests.phases(loop)
        if len(phases) < 3:
            return []
        streamed = [o for o in phases[-1].body.walk()
                    if isinstance(o, memref.StoreOp) and DEFERRED_STREAM_ATTR in o.attributes]
        draining = next((p for p in phases if PREFETCH_BLOCK_ATTR in p.attributes), None)
        if streamed and draining is None:
            raise PassError(streamed[0], f"has {DEFERRED_STREAM_ATTR} but no phase of its row is marked "
                            f"{PREFETCH_BLOCK_ATTR}")
        for store in streamed:
            tile, pending = self.fresh("tile"), self.fresh("p")
            ct = c_type(store.value.type)
            self.out(f"{ct} {tile}[{nests.trip(phases[-1])}];")
            self.out(f"{ct} *{pending} = NULL;")
            self.deferred[store] = (tile, pending)
            self.draining.setdefault(draining, []).append((tile, pending))
        return streamed

    def per_iteration_allocs(self, loop: scf.ForOp) -> list[memref.AllocOp]:
        """The allocs of ``loop``'s body marked ``bcast.scratch``
        (``bcast-scratch-allocs``): made once before the loop (once per
        thread in a parallel loop) and freed after it."""
        scoped = [o for o in loop.body.blocks[0].ops if isinstance(o, memref.AllocOp) and SCRATCH_ATTR in o.attributes]
        for o in scoped:
            if o in self.on_stack:
                raise PassError(o, f"has both {SCRATCH_ATTR} and {STACK_ATTR}")
        return scoped

    def memref_bytes(self, m: SSAValue) -> str:
        """The C expression of memref ``m``'s size in bytes (its sizes: ``dims``)."""
        return " * ".join([*(f"(size_t){d}" for d in self.dims(m)), str(_bytes(m.type.element_type))])

    def stream_bytes(self, m: SSAValue) -> str:
        """The C condition that memref ``m`` (with ? dims) has at least
        ``STREAM_BYTES``, the size from which stores go around the cache."""
        return f"{self.memref_bytes(m)} >= {STREAM_BYTES}"

    def large_at_run_time(self, streamed: list[memref.StoreOp]) -> str | None:
        """The C condition that the loop streams ``streamed``: one of them,
        all results with ? dims, is large; or, all static and none deferred
        to the next row (``defer_streams``), one is too large for the
        machine's last-level cache (``bcast_cache_bytes`` in the prelude).
        None: the loop streams (``chunked_loop`` then decides for each
        result with ? dims)."""
        shapes = [s.memref.type.get_shape() for s in streamed]
        if all(DYNAMIC_INDEX in shape for shape in shapes):
            return " || ".join(f"({self.stream_bytes(s.memref)})" for s in streamed)
        if any(DYNAMIC_INDEX in shape for shape in shapes) or any(s in self.deferred for s in streamed):
            return None
        return " || ".join(f"({self.memref_bytes(s.memref)} >= bcast_cache_bytes())" for s in streamed)

    def streaming(self, loop: scf.ForOp) -> bool:
        """Whether a loop nest streams a result (then its threads fence)."""
        return any(isinstance(o, scf.ForOp) and nests.innermost(o) and nontemporal(o) for o in loop.walk())

    def chunked_loop(self, op: scf.ForOp, lb: str, ub: str, pragma: str | None,
                     streamed: list[memref.StoreOp]) -> None:
        """An innermost loop whose ``streamed`` stores fill per-chunk tiles,
        each copied to its result with ``bcast_stream`` after the chunk: the
        loop runs in chunks of ``STREAM_TILE_BYTES`` (the widest stored type);
        ``pragma`` (a parallel for, when the innermost loop is the parallel
        one) goes on the chunk loop, ``omp simd`` on the chunk."""
        iv = op.body.blocks[0].args[0]
        chunk = STREAM_TILE_BYTES // max(_bytes(s.value.type) for s in streamed)
        first, count, i = self.fresh("b"), self.fresh("n"), self.fresh("i")
        entered = pragma is not None and "omp simd" not in pragma  # a parallel loop's pragma
        if entered:
            self.out(pragma)
        self.out(f"for (int64_t {first} = {lb}; {first} < {ub}; {first} += {chunk}) {{")
        self.indent += 1
        self.in_parallel += entered
        self.out(f"int64_t {count} = {ub} - {first} < {chunk} ? {ub} - {first} : {chunk};")
        for store in streamed:
            if store in self.deferred:
                self.tiles[store] = (self.deferred[store][0], first)
                continue
            tile = self.fresh("tile")
            self.out(f"{c_type(store.value.type)} {tile}[{chunk}];")
            self.tiles[store] = (tile, first)
        self.expr[iv] = i
        self.for_loop(op, f"int64_t {i} = {first}; {i} < {first} + {count}; {i} += 1", SIMD)
        self.expr[iv] = first
        for store in streamed:
            tile, _ = self.tiles.pop(store)
            place = f"{self.e(store.memref)} + {self.index(store.memref, store.indices)}"
            if store in self.deferred:  # streamed by the next row's prefetching phase
                self.out(f"{self.deferred[store][1]} = {place};")
            else:
                copy = f"({place}, {tile}, (size_t){count} * sizeof {tile}[0]);"
                if DYNAMIC_INDEX in store.memref.type.get_shape() and len(streamed) > 1:
                    self.out(f"if ({self.stream_bytes(store.memref)}) bcast_stream{copy}")
                    self.out(f"else memcpy{copy}")
                else:
                    self.out(f"bcast_stream{copy}")
        self.in_parallel -= entered
        self.indent -= 1
        self.out("}")

    # -- scalars -------------------------------------------------------------
    def scalar(self, op: Operation) -> str | None:
        """The C expression of an arith or math op (None: not one)."""
        if any(isinstance(v.type, BFloat16Type) for v in (*op.operands, *op.results)):
            return self.bf16_scalar(op)
        if any(_is_nibble(v.type) for v in (*op.operands, *op.results)):
            return self.nibble_scalar(op)
        return self.typed_scalar(op, [self.e(v) for v in op.operands], op.results[0].type if op.results else None)

    def bf16_scalar(self, op: Operation) -> str | None:
        """An op on bf16 (held in ``uint16_t``): computed in float, its
        operands widened exactly and a bf16 result rounded to nearest even,
        as XLA's CPU backend computes bf16 (docs/c-backend.md). Selects and
        bitcasts move the bits; conversions round once."""
        name = op.name
        operands = [self.e(v) for v in op.operands]
        t = op.results[0].type if op.results else None
        if name == "arith.select" or name == "arith.bitcast":
            return self.typed_scalar(op, operands, t)
        if name == "arith.extf" and isinstance(op.operands[0].type, BFloat16Type):
            return f"(({c_type(t)})bcast_bf16_f32({operands[0]}))"
        if name == "arith.truncf" and isinstance(t, BFloat16Type):
            source = "f64" if isinstance(op.operands[0].type, Float64Type) else "f32"
            return f"bcast_{source}_bf16({operands[0]})"
        wide = [f"bcast_bf16_f32({x})" if isinstance(v.type, BFloat16Type) else x
                for x, v in zip(operands, op.operands)]  # fmt: skip
        if not isinstance(t, BFloat16Type):
            return self.typed_scalar(op, wide, t, Float32Type())
        if name in ("arith.sitofp", "arith.uitofp"):  # an integer rounds once: through double (exact to 2^53)
            via = self.typed_scalar(op, wide, Float64Type())
            return None if via is None else f"bcast_f64_bf16({via})"
        computed = self.typed_scalar(op, wide, Float32Type(), Float32Type())
        return None if computed is None else f"bcast_f32_bf16({computed})"

    def nibble_scalar(self, op: Operation) -> str | None:
        """An op on ``i4`` (held in ``uint8_t`` as its nibble: the value
        modulo 16): computed in ``uint32_t`` or ``int`` and wrapped back to
        the low four bits (``bcast_nibble``), a signed reading sign-extended
        (``bcast_sext4``); what keeps a nibble (bitwise, unsigned division,
        unsigned order, a logical shift) runs as on ``uint8_t``
        (docs/c-backend.md, "i4 and ui4")."""
        name = op.name
        operands = [self.e(v) for v in op.operands]
        t = op.results[0].type if op.results else None
        sext = [f"bcast_sext4({x})" for x in operands]
        if name in _WRAPPING or name == "arith.shli":
            symbol = _WRAPPING.get(name, "<<")
            return f"bcast_nibble((uint32_t){operands[0]} {symbol} (uint32_t){operands[1]})"
        if name in ("arith.divsi", "arith.remsi"):
            return f"bcast_nibble((uint32_t)({sext[0]} {'/' if name == 'arith.divsi' else '%'} {sext[1]}))"
        if name == "arith.shrsi":
            return f"bcast_nibble((uint32_t)({sext[0]} >> {operands[1]}))"
        if name in ("arith.maxsi", "arith.minsi"):
            return f"{sext[0]} {'>' if name == 'arith.maxsi' else '<'} {sext[1]} ? {operands[0]} : {operands[1]}"
        if isinstance(op, arith.CmpiOp) and (predicate := arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data])[0] == "s":
            return f"{sext[0]} {_RELATIONS[predicate[1:]]} {sext[1]}"
        return self.typed_scalar(op, operands, t)  # casts: ``cast``

    def typed_scalar(self, op: Operation, operands: list[str], t: Attribute | None,
                     src: Attribute | None = None) -> str | None:
        """``scalar`` of ``op`` on the C expressions ``operands``, its result
        of type ``t`` and its operands (where a cast reads it) of ``src``."""
        name = op.name
        if name == "arith.select":
            return f"{operands[0]} ? {operands[1]} : {operands[2]}"
        if name in ("arith.cmpi", "arith.cmpf"):
            return self.compare(op, *operands)
        if isinstance(t, IndexType) or (op.operands and isinstance(op.operands[0].type, IndexType)):
            return self.index_op(op, operands)
        if isinstance(t, IntegerType) and name in _INT_BINARY:
            return self.int_binary(name, width(t), *operands)
        if op in self.divisions:
            kind, reciprocal, _ = self.divisions[op]
            return f"bcast_div_{kind}({operands[0]}, {operands[1]}, {reciprocal})"
        if name in _FLOAT_BINARY:
            a, b = operands
            ct = c_type(t)
            return f"({ct})({a} {_FLOAT_BINARY[name]} {b})"
        if name in ("arith.maximumf", "arith.minimumf"):
            a, b = operands
            rel = ">" if name == "arith.maximumf" else "<"
            flagged = [k for k, v in enumerate(op.operands) if v in self.nan_flags]
            if flagged:  # in a vectorized reduction: the flag carries NaN
                acc, x = (a, b) if flagged[0] == 0 else (b, a)
                flag = self.nan_flags[op.operands[flagged[0]]]
                return f"(({flag} |= ({x} != {x})), ({x} {rel} {acc} ? {x} : {acc}))"
            return f"({a} {rel} {b} || {a} != {a}) ? {a} : {b}"
        if name == "arith.negf":
            return f"-{operands[0]}"
        if name == RemFOp.name:
            return self.libm("fmod", t, operands)
        if (fn := libm_name(op)) is not None:
            return self.libm(fn, t, operands)
        if name == "math.ctpop":  # integers are held unsigned: no sign bits to mask
            return f"({c_type(t)})__builtin_popcountll({operands[0]})"
        if name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp", "arith.uitofp",
                    "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf", "arith.bitcast",
                    "arith.index_cast", "arith.index_castui"):
            return self.cast(name, src or op.operands[0].type, t, operands[0])
        return None

    def libm(self, fn: str, t: Attribute, operands: list[str]) -> str:
        if isinstance(t, Float64Type):
            return f"{fn}({', '.join(operands)})"
        call = f"{fn}f({', '.join(operands)})"
        return f"(_Float16){call}" if isinstance(t, Float16Type) else call

    def int_binary(self, name: str, bits: int, a: str, b: str) -> str:
        ct = c_type(IntegerType(bits))
        w = wide_unsigned(bits)
        s = signed_type(bits)
        if name in _WRAPPING:
            return f"({ct})(({w}){a} {_WRAPPING[name]} ({w}){b})"
        if name == "arith.shli":
            return f"({ct})(({w}){a} << {b})"
        if name == "arith.shrui":
            return f"({ct})({a} >> {b})"
        if name == "arith.shrsi":
            return f"({ct})(({s}){a} >> {b})"
        if name in ("arith.andi", "arith.ori", "arith.xori"):
            return f"({ct})({a} {_BITWISE[name]} {b})"
        if name == "arith.divui":
            return f"({ct})({a} / {b})"
        if name == "arith.remui":
            return f"({ct})({a} % {b})"
        if name == "arith.divsi":
            return f"({ct})(({s}){a} / ({s}){b})"
        if name == "arith.remsi":
            return f"({ct})(({s}){a} % ({s}){b})"
        if name in ("arith.maxsi", "arith.minsi"):
            rel = ">" if name == "arith.maxsi" else "<"
            return f"({s}){a} {rel} ({s}){b} ? {a} : {b}"
        if name in ("arith.maxui", "arith.minui"):
            rel = ">" if name == "arith.maxui" else "<"
            return f"{a} {rel} {b} ? {a} : {b}"
        raise AssertionError(name)

    def index_op(self, op: Operation, operands: list[str]) -> str | None:
        symbol = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divui": "/",
                  "arith.remui": "%", "arith.divsi": "/", "arith.remsi": "%"}.get(op.name)
        if symbol:
            return f"{operands[0]} {symbol} {operands[1]}"
        if op.name in ("arith.index_cast", "arith.index_castui"):
            return self.cast(op.name, op.operands[0].type, op.results[0].type, operands[0])
        return None

    def compare(self, op: Operation, a: str, b: str) -> str:
        if isinstance(op, arith.CmpiOp):
            predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            t = op.lhs.type
            rel = _RELATIONS[predicate.lstrip("su")]
            if predicate[0] == "s" and isinstance(t, IntegerType):
                s = signed_type(width(t))
                if width(t) == 1:
                    a, b = f"-(int)({a})", f"-(int)({b})"
                    return f"{a} {rel} {b}"
                return f"({s}){a} {rel} ({s}){b}"
            if predicate[0] == "u" and isinstance(t, IndexType):  # index is held in int64_t
                return f"(uint64_t){a} {rel} (uint64_t){b}"
            return f"{a} {rel} {b}"
        predicate = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        ordered = {"oeq": "==", "ogt": ">", "oge": ">=", "olt": "<", "ole": "<="}
        if predicate in ordered:
            return f"{a} {ordered[predicate]} {b}"
        if predicate == "une":
            return f"{a} != {b}"
        if predicate == "one":
            return f"({a} < {b} || {a} > {b})"
        if predicate == "ord":
            return f"({a} == {a} && {b} == {b})"
        if predicate == "uno":
            return f"({a} != {a} || {b} != {b})"
        if predicate == "ueq":
            return f"!({a} < {b} || {a} > {b})"
        if predicate in ("ugt", "uge", "ult", "ule"):
            opposite = {"ugt": "<=", "uge": "<", "ult": ">=", "ule": ">"}[predicate]
            return f"!({a} {opposite} {b})"
        return "1" if predicate == "true" else "0"

    def cast(self, name: str, src: Attribute, dst: Attribute, x: str) -> str:
        dt = c_type(dst)
        if name == "arith.bitcast" and BFloat16Type() in (src, dst):  # bf16 is held as its bits
            other = dst if isinstance(src, BFloat16Type) else src
            if isinstance(other, Float16Type):
                return f"bcast_bits_f16({x})" if other is src else f"bcast_f16_bits({x})"
            return x
        if name == "arith.bitcast":
            if isinstance(dst, IntegerType):
                return f"bcast_bits_f{_float_bits(src)}({x})"
            return f"bcast_f{_float_bits(dst)}_bits({x})"
        if _is_nibble(dst) and name in ("arith.trunci", "arith.fptoui", "arith.fptosi"):  # the low four bits
            return f"bcast_nibble((uint32_t){'(int)' if name == 'arith.fptosi' else ''}{x})"
        if name in ("arith.extsi", "arith.sitofp", "arith.index_cast") and isinstance(src, IntegerType):
            sb = width(src)
            signed = (f"(-(int8_t)({x}))" if sb == 1 else f"bcast_sext4({x})" if sb == 4
                      else f"({signed_type(sb)}){x}")
            if name == "arith.extsi" or isinstance(dst, IntegerType | IndexType):
                return f"({dt})({wide_signed(dst)}){signed}"
            return f"({dt}){signed}"
        if name == "arith.trunci" and width(dst) == 1:
            return f"({dt})({x} & 1)"
        if name in ("arith.fptosi",):
            db = width(dst)
            return f"({dt})({signed_type(db)}){x}"
        if isinstance(dst, IntegerType) and isinstance(src, IndexType):
            return f"({dt}){x}"
        return f"({dt}){x}"


def _is_nibble(t: Attribute | None) -> bool:
    """An ``i4`` (the loop IR's ``i4`` and ``ui4``: signless)."""
    return isinstance(t, IntegerType) and t.width.data == 4


def wide_signed(t: Attribute) -> str:
    if isinstance(t, IndexType):
        return "int64_t"
    return signed_type(width(t))


def _float_bits(t: Attribute) -> int:
    return {Float16Type: 16, Float32Type: 32, Float64Type: 64}[type(t)]


def product_accesses(op: scf.ForOp) -> tuple[list[memref.LoadOp], list[memref.StoreOp], Attribute] | None:
    """The two loads, the one store and the float element type of a
    product's nest (a GEMM's or a convolution's: ``gemm_call``,
    ``conv_call``), which the kernels' calls replace; None when the nest
    reads or writes otherwise, or its element type is not f32 or f64."""
    loads = [o for o in op.walk() if isinstance(o, memref.LoadOp)]
    stores = [o for o in op.walk() if isinstance(o, memref.StoreOp)]
    if len(loads) != 2 or len(stores) != 1:
        return None
    element = stores[0].memref.type.element_type
    if not isinstance(element, Float32Type | Float64Type):
        return None
    return loads, stores, element


def _product(*factors: str) -> str:
    """C source of a product of sizes: its value when every factor is
    digits (as the static program prints it), else the factors multiplied
    at run time in ``int64_t``, parenthesized."""
    if all(f.isdigit() for f in factors):
        return str(math.prod(int(f) for f in factors))
    return factors[0] if len(factors) == 1 else "(" + " * ".join(factors) + ")"


def _reduction_kind(op: scf.ForOp) -> str | None:
    attr = op.attributes.get(REDUCTION_ATTR)
    return attr.data if isinstance(attr, StringAttr) else None


_WRAPPING = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*"}
_BITWISE = {"arith.andi": "&", "arith.ori": "|", "arith.xori": "^"}
_INT_BINARY = {*_WRAPPING, *_BITWISE, "arith.shli", "arith.shrui", "arith.shrsi", "arith.divui",
               "arith.remui", "arith.divsi", "arith.remsi", "arith.maxsi", "arith.minsi",
               "arith.maxui", "arith.minui"}
_RELATIONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
"""``arith.cmpi``'s predicates (without ``s``/``u``) as C's relations."""
_FLOAT_BINARY = {"arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/"}
LIBM_RENAMED = {"math.absf": "fabs", "math.powf": "pow", "math.roundeven": "nearbyint"}
"""The ``math`` ops whose C99 ``<math.h>`` function is not named as the op."""
NOT_LIBM = frozenset({"math.rsqrt", "math.fpowi"})
"""Float ``math`` ops with no C99 ``<math.h>`` function of their name and
operands (``rsqrt``; ``fpowi`` takes an integer exponent). ``roundeven`` is
C23; C99's ``nearbyint`` is the same in the default rounding mode, which
generated code never changes."""


def libm_name(op: Operation) -> str | None:
    """The ``double`` C99 function computing a float ``math`` op: its own name
    (``math.sin`` -> ``sin``, ``sinf`` in f32) but for ``LIBM_RENAMED``, so a
    new ``math`` op the loop IR uses needs no change here. None: the op is
    not a float ``math`` op with a libm function."""
    if op.dialect_name() != "math" or op.name in NOT_LIBM or not op.results \
            or not isinstance(op.results[0].type, Float16Type | Float32Type | Float64Type | BFloat16Type):
        return None
    return LIBM_RENAMED.get(op.name, op.name.removeprefix("math."))


# --------------------------------------------------------------------------
# Module
# --------------------------------------------------------------------------


NOT_LOOP_IR = "the C emitter prints loop IR; run bcast-lower-to-loops first"


def check_loop_ir(module: ModuleOp) -> None:
    """Refuse a module that is not loop IR, located at the first op that
    is not: lowering is the C target's step (``bcast.tools.targets``), so
    that one place decides when a program lowers to loops."""
    if (op := first_non_loop_op(module)) is not None:
        raise PassError(op, NOT_LOOP_IR)


def global_array(op: memref.GlobalOp, name: str) -> str:
    t = op.type
    ct = c_type(t.element_type)
    bits = 8 if width(t.element_type) == 1 else width(t.element_type)
    value = op.initial_value
    assert isinstance(value, DenseIntOrFPElementsAttr)
    values = [int_literal(int(x), bits) for x in value.get_values()]
    n = max(len(values), 1)
    lines = []
    text = f"static const {ct} {name}[{n}] = {{"
    chunk: list[str] = []
    for v in values or ["0"]:
        chunk.append(v)
        if len(chunk) == 16:
            lines.append("    " + ", ".join(chunk) + ",")
            chunk = []
    if chunk:
        lines.append("    " + ", ".join(chunk) + ",")
    return "\n".join([text, *lines, "};"])


def header(streams: bool = True) -> str:
    """What every C output starts with, once however many programs follow:
    the banner and the runtime helpers (``PRELUDE``). Without ``streams``
    (no program calls ``bcast_stream``: ``streams(program)``) it
    defines ``BCAST_NO_STREAMS``: the helpers then skip immintrin.h, which
    a small program's compile spends most of its time parsing
    (docs/performance.md, "Time to first result")."""
    switch = "" if streams else "#define BCAST_NO_STREAMS 1\n"
    return "/* Generated by bcast (C target). */\n" + switch + PRELUDE + "\n"


def emit_program(module: ModuleOp, openmp: bool = True, prefix: str = "bcast_") -> tuple[str, dict[str, str]]:
    """The C of ``module`` (loop IR, ``check_loop_ir``) without the helpers
    of ``header``, and the C symbol of each function (``prefix`` + its name)."""
    check_loop_ir(module)
    names = c_names(module, prefix)
    globals_: dict[str, str] = {}
    parts = []
    for op in module.ops:
        if isinstance(op, memref.GlobalOp):
            name = "bcast_" + sanitize(op.sym_name.data.lstrip("_"))
            globals_[op.sym_name.data] = name
            parts.append(global_array(op, name) + "\n")
    functions = [f for f in module.ops if isinstance(f, func.FuncOp)]
    checks = {op: k for k, op in enumerate(bounds_checks(module), 1)}
    if checks:
        parts.append("static __thread int64_t bcast_fault_state[2];\n"
                     f"void {prefix}{FAULT_FUNCTION}(int64_t *fault) {{\n"
                     "    fault[0] = bcast_fault_state[0]; fault[1] = bcast_fault_state[1];\n"
                     "    bcast_fault_state[0] = bcast_fault_state[1] = 0;\n}\n")
    prototypes = [FunctionEmitter(f, names, globals_, openmp).signature() + ";" for f in functions]
    parts.append("\n".join(prototypes) + "\n")
    for f in functions:
        parts.append("\n".join(FunctionEmitter(f, names, globals_, openmp, checks).emit()) + "\n")
    return "\n".join(parts), names


def emit_module(module: ModuleOp, openmp: bool = True, prefix: str = "bcast_") -> tuple[str, dict[str, str]]:
    """A whole C translation unit for ``module``: the helpers, then
    ``emit_program``'s code; and the C symbol of each function."""
    program, names = emit_program(module, openmp, prefix)
    return header(streams(program)) + program, names


def streams(program: str) -> bool:
    """Whether ``emit_program``'s C calls ``bcast_stream`` (no other C it
    emits names it): ``header``'s argument."""
    return "bcast_stream" in program


def emit_text(module: ModuleOp) -> str:
    return emit_module(module)[0]
