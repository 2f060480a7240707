"""Benchmarks: bcast's backends against their peers and the memory floors.

    python benchmarks/run.py [--sizes 1024 4096] [--repeats 15] [--quick]
                             [--workloads a b softmax layernorm]
                             [--json FILE] [--plot FILE.png]
                             [--own-process] [--per-call] [--first-result]

``--sizes 16 64 256 1024 4096`` sweeps the sizes; ``--own-process`` times
each peer group (``GROUPS``: the variants of one runtime) again at each
size in a subprocess that loads only that runtime, so a peer's time beside
the others' thread pools pairs with its time alone; ``--per-call`` and
``--first-result`` add per_call.py's and first_result.py's measurements; ``--json`` writes every
median, ``--plot`` draws each workload's time per element against the size,
one curve per variant, on log-log axes (needs matplotlib, in the ``bench``
extra). A call shorter than ``MIN_TIMED`` seconds is timed as a batch of
back-to-back calls that lasts about that long (its time divided by the
count), so microsecond calls are not measured at the timer's resolution.

For each workload and size, every variant is timed interleaved (one call of
each variant per round, rounds repeated) so that machine noise hits them
alike; the table gives the median time and its ratio to two memory floors,
the copy of the output's bytes from ``x``:

- ``x floor(1t)``: the faster (by median) of ``np.copyto`` and bcast's C
  backend copying ``x`` (the identity program), on one thread;
- ``x floor(all)``: a parallel copy on all threads, the fastest of threads
  each copying a slab of rows with ``np.copyto`` (NumPy releases the GIL),
  a numba ``prange`` copy, and the C backend's copy.

The copies differ in their stores. ``np.copyto`` (glibc ``memcpy`` below its
non-temporal threshold, which follows the last-level cache: 480 MiB on the
development VM) and numba use plain stores, which read each destination line
before writing it: 3 bytes of memory traffic per 2 copied. The C backend
writes results of 32 MiB and more with non-temporal stores (2 per 2), so
at 4096x4096 its copy is the real floor, and an elementwise program can run
faster than the plain-store copies.

Sizes whose output is 32 MiB or more (4096x4096 f32) are timed from a cold
cache: before each timed call the harness reads a buffer twice the largest
CPU cache (at most 1 GiB), so every variant finds its arrays in memory. The
development VM reports a 480 MiB L3 (shared with other tenants); without
the flush, a variant's time depended on which variants ran before it (2-3x).
Smaller sizes run in a warm cache, as a loop calling them would.

The order of the variants rotates every round and calls are 20 ms apart, so
that a peer's lingering worker threads (XLA and OpenMP spin after returning)
do not slow the next variant. ``--quick`` runs 5 rounds (smoke runs).

Peak memory is measured separately with ``tracemalloc`` (NumPy reports its
buffers to it): the bytes allocated during one call beyond the inputs, as a
multiple of the output. XLA and numba allocate outside tracemalloc's view,
so their peak is shown as "n/a"; for the C backend the column shows what
NumPy allocates for it (its result arrays), not C-side ``malloc``. bcast's
NumPy backend recycles result buffers the caller has dropped and keeps its
block scratch buffers across calls (``bcast.lowering.numpy_runtime``
``output``/``scratch``), so its steady-state column excludes memory it holds
between calls; NumPy eager allocates its result afresh every call.

Before timing, every variant's result is compared with NumPy eager's
(``allclose`` with the workload's tolerance); a variant that differs aborts
the run, naming itself. The exception is the C backend, which may be under
construction: when ``bcast.compile(..., backend="c")`` is not there, its
rows say "absent (...)"; when it raises, or its result differs, they say
"failed: <reason>" and it is not timed. A peer that is not installed
(numexpr, numba, jax) is shown as "absent" in the table.

Variants:
- bcast numpy backend (with and without ``out=``);
- bcast C backend (``backend="c"``), with and without ``out=``, on all
  threads and on one thread. The C library's threads follow OpenMP: the
  harness finds the library the compile mapped into the process
  (``/proc/self/maps``), resolves ``omp_set_num_threads`` through that
  library's own handle (so it is the OpenMP runtime the library links, even
  when numba has loaded another) and sets one thread around each one-thread
  call, all threads (``omp_get_max_threads()`` at start, i.e.
  ``OMP_NUM_THREADS`` or the cores) after it; the one-thread and all-thread
  calls are thus interleaved in the same table. A note under the table gives
  each C (and numba) variant's process CPU time over wall time across 5
  back-to-back calls, about the number of threads it really used (less when
  other work takes the cores). A library without OpenMP runs on one thread: its one-thread
  rows say so; so does a program whose loops are below
  ``plan_parallel.PARALLEL_WORK`` iterations (256x256: no parallel region);
  a parallel region starts only as many threads as have a free core
  (``bcast_threads`` in the C prelude), so under load the all-thread rows
  may run on one;
- NumPy eager, NumPy with ``out=`` (hand-written, preallocated temporaries);
- numexpr (for the row reductions, which numexpr lacks, NumPy with
  preallocated outputs; numexpr for the elementwise parts);
- numba: hand-written ``@njit(parallel=True, fastmath=False)`` loops (prange
  over rows, inner loops over columns; softmax and layernorm in per-row
  passes, sums accumulated in float64), writing into a preallocated output;
  compiled before timing; on all of numba's threads and on one
  (``numba.set_num_threads(1)`` around the call);
- ``jax.jit`` (inputs already on the device, ``block_until_ready``), and
  ``jax.jit`` donated: the jitted function takes one more argument, of the
  output's shape, donated (``donate_argnums``, ``keep_unused=True``); XLA
  aliases it to the output and writes the result into it. Each call's result
  is the next call's donated buffer (the ``out=`` of XLA). A note under the
  table says whether XLA really reused the buffer (same address) in every
  timed call. The donated buffer must be an XLA-owned buffer: one made from a
  NumPy array by ``device_put`` (zero-copy on CPU) or an eager ``jnp.zeros``
  is not donated (silently copied), so the first buffer comes from a jitted
  ``zeros``;
- the copy floors (one thread, all threads).

Workloads (f32, default: a b):
  (a) out = (x + row) * col - 0.5 * x
  (b) an 8-op chain with row, column and scalar broadcasts:
      out = (((((x * col + row) * 0.5 - x) max 0) + row) * col) - 1.5
  softmax over rows (axis 1) of an n x n matrix:
      e = exp(x - max(x, axis=1, keepdims)); out = e / sum(e, axis=1, keepdims)
  layernorm over rows, WITH the affine parameters gamma and beta (rows of n):
      mu = mean(x, axis=1, keepdims); d = x - mu
      var = mean(d * d, axis=1, keepdims)
      out = d * rsqrt(var + 1e-5) * gamma + beta
  The bcast programs for softmax and layernorm are written in numpy
  semantics with ``bcast.reduce ... keepdims``; mean is ``reduce add``
  times the constant 1/n. The hand-written NumPy ``out=`` variants
  use ``np.max/np.sum(..., out=)`` into a preallocated (n, 1) buffer, take
  the reciprocal of the row sum/std once and multiply, and compute
  sum(d * d) with ``np.einsum('ij,ij->i')``, which needs no n x n temporary.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import importlib
import os
import platform
import shutil
import statistics
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import numpy as np

import bcast

HERE = os.path.dirname(os.path.abspath(__file__))
PAUSE = 0.02
"""Seconds between timed calls (not timed)."""
MIN_TIMED = 0.002
"""The shortest stretch of time measured at once (see the docstring)."""
OWN = " (own process)"
"""The suffix of a median measured in a process of the variant's own."""
BEHIND = 1.02
"""bcast C over the fastest peer above this ratio counts as behind (``standing_table``)."""


def program_a(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @main(%x: {t}, %row: tensor<{n}xf32>, %col: tensor<{n}x1xf32>) -> {t} {{
  %half = bcast.constant dense<0.5> : tensor<f32>
  %0 = bcast.add %x, %row : ({t}, tensor<{n}xf32>) -> {t}
  %1 = bcast.multiply %0, %col : ({t}, tensor<{n}x1xf32>) -> {t}
  %2 = bcast.multiply %half, %x : (tensor<f32>, {t}) -> {t}
  %3 = bcast.subtract %1, %2 : ({t}, {t}) -> {t}
  func.return %3 : {t}
}}
"""


def program_b(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    r, c, s = f"tensor<{n}xf32>", f"tensor<{n}x1xf32>", "tensor<f32>"
    return f"""
func.func @main(%x: {t}, %row: {r}, %col: {c}) -> {t} {{
  %half = bcast.constant dense<0.5> : {s}
  %zero = bcast.constant dense<0.0> : {s}
  %shift = bcast.constant dense<1.5> : {s}
  %0 = bcast.multiply %x, %col : ({t}, {c}) -> {t}
  %1 = bcast.add %0, %row : ({t}, {r}) -> {t}
  %2 = bcast.multiply %1, %half : ({t}, {s}) -> {t}
  %3 = bcast.subtract %2, %x : ({t}, {t}) -> {t}
  %4 = bcast.maximum %3, %zero : ({t}, {s}) -> {t}
  %5 = bcast.add %4, %row : ({t}, {r}) -> {t}
  %6 = bcast.multiply %5, %col : ({t}, {c}) -> {t}
  %7 = bcast.subtract %6, %shift : ({t}, {s}) -> {t}
  func.return %7 : {t}
}}
"""


def numpy_a(x, row, col):
    return (x + row) * col - np.float32(0.5) * x


def numpy_a_out(x, row, col, out, tmp):
    np.add(x, row, out=out)
    np.multiply(out, col, out=out)
    np.multiply(np.float32(0.5), x, out=tmp)
    np.subtract(out, tmp, out=out)
    return out


def numpy_b(x, row, col):
    return (np.maximum((x * col + row) * np.float32(0.5) - x, np.float32(0)) + row) * col - np.float32(1.5)


def numpy_b_out(x, row, col, out, tmp):
    np.multiply(x, col, out=out)
    np.add(out, row, out=out)
    np.multiply(out, np.float32(0.5), out=out)
    np.subtract(out, x, out=out)
    np.maximum(out, np.float32(0), out=out)
    np.add(out, row, out=out)
    np.multiply(out, col, out=out)
    np.subtract(out, np.float32(1.5), out=out)
    return out


def _const(v: float) -> str:
    """A float literal the IR parser reads back exactly (f32 rounding aside)."""
    return f"{v:.9e}"


def program_softmax(n: int) -> str:
    t, k = f"tensor<{n}x{n}xf32>", f"tensor<{n}x1xf32>"
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %m = bcast.reduce maximum %x, dims = [1] keepdims : ({t}) -> {k}
  %0 = bcast.subtract %x, %m : ({t}, {k}) -> {t}
  %e = bcast.exponential %0 : {t}
  %s = bcast.reduce add %e, dims = [1] keepdims : ({t}) -> {k}
  %1 = bcast.divide %e, %s : ({t}, {k}) -> {t}
  func.return %1 : {t}
}}
"""


def program_layernorm(n: int) -> str:
    t, k, r, s = f"tensor<{n}x{n}xf32>", f"tensor<{n}x1xf32>", f"tensor<{n}xf32>", "tensor<f32>"
    return f"""
func.func @main(%x: {t}, %gamma: {r}, %beta: {r}) -> {t} {{
  %inv_n = bcast.constant dense<{_const(1.0 / n)}> : {s}
  %eps = bcast.constant dense<{_const(EPS)}> : {s}
  %0 = bcast.reduce add %x, dims = [1] keepdims : ({t}) -> {k}
  %mu = bcast.multiply %0, %inv_n : ({k}, {s}) -> {k}
  %d = bcast.subtract %x, %mu : ({t}, {k}) -> {t}
  %1 = bcast.multiply %d, %d : ({t}, {t}) -> {t}
  %2 = bcast.reduce add %1, dims = [1] keepdims : ({t}) -> {k}
  %var = bcast.multiply %2, %inv_n : ({k}, {s}) -> {k}
  %3 = bcast.add %var, %eps : ({k}, {s}) -> {k}
  %rstd = bcast.rsqrt %3 : {k}
  %4 = bcast.multiply %d, %rstd : ({t}, {k}) -> {t}
  %5 = bcast.multiply %4, %gamma : ({t}, {r}) -> {t}
  %6 = bcast.add %5, %beta : ({t}, {r}) -> {t}
  func.return %6 : {t}
}}
"""


EPS = 1e-5
"""Layernorm's epsilon."""


def numpy_softmax(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def numpy_softmax_out(x, out, red):
    np.max(x, axis=1, keepdims=True, out=red)
    np.subtract(x, red, out=out)
    np.exp(out, out=out)
    np.sum(out, axis=1, keepdims=True, out=red)
    np.reciprocal(red, out=red)
    np.multiply(out, red, out=out)
    return out


def numpy_layernorm(x, gamma, beta):
    mu = np.mean(x, axis=1, keepdims=True)
    d = x - mu
    var = np.mean(d * d, axis=1, keepdims=True)
    return d / np.sqrt(var + np.float32(EPS)) * gamma + beta


def numpy_layernorm_out(x, gamma, beta, out, red):
    inv_n = np.float32(1.0 / x.shape[1])
    np.sum(x, axis=1, keepdims=True, out=red)
    np.multiply(red, inv_n, out=red)                 # mu
    np.subtract(x, red, out=out)                     # d
    np.einsum("ij,ij->i", out, out, out=red[:, 0])   # sum(d * d), no n x n temporary
    np.multiply(red, inv_n, out=red)                 # var
    np.add(red, np.float32(EPS), out=red)
    np.sqrt(red, out=red)
    np.reciprocal(red, out=red)                      # rstd
    np.multiply(out, red, out=out)
    np.multiply(out, gamma, out=out)
    np.add(out, beta, out=out)
    return out


NUMEXPR = {
    "a": "(x + row) * col - 0.5 * x",
    "b": "(where((x * col + row) * 0.5 - x > 0, (x * col + row) * 0.5 - x, 0) + row) * col - 1.5",
}


def _optional(module: str):
    """The module, or None when the peer is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def inputs(workload: str, n: int, rng) -> tuple:
    x = rng.standard_normal((n, n), dtype=np.float32)
    if workload in ("a", "b"):
        row = rng.standard_normal(n, dtype=np.float32)
        col = rng.standard_normal((n, 1), dtype=np.float32)
        return (x, row, col)
    if workload == "softmax":
        return (x,)
    gamma = rng.standard_normal(n, dtype=np.float32)
    beta = rng.standard_normal(n, dtype=np.float32)
    return (x, gamma, beta)


PROGRAM = {"a": program_a, "b": program_b, "softmax": program_softmax, "layernorm": program_layernorm}
EAGER = {"a": numpy_a, "b": numpy_b, "softmax": numpy_softmax, "layernorm": numpy_layernorm}
TOLERANCE = {  # (rtol, atol) against NumPy eager
    "a": (1e-5, 1e-5),
    "b": (1e-5, 1e-5),
    "softmax": (1e-4, 1e-6),
    "layernorm": (1e-4, 1e-4),
}
TITLE = {
    "a": "workload (a)",
    "b": "workload (b)",
    "softmax": "softmax over rows",
    "layernorm": "layernorm over rows (gamma, beta)",
}


FLOOR_1T = "copy floor 1t (copyto)"
FLOOR_STREAM_1T = "copy floor 1t (bcast c)"
FLOOR_SLABS = "copy floor all (copyto slabs)"
FLOOR_NUMBA = "copy floor all (numba)"
FLOOR_STREAM_ALL = "copy floor all (bcast c)"
FLOORS_1T = (FLOOR_1T, FLOOR_STREAM_1T)
FLOORS_ALL = (FLOOR_SLABS, FLOOR_NUMBA, FLOOR_STREAM_ALL)
FLOORS = (*FLOORS_1T, *FLOORS_ALL)
COLD_BYTES = 1 << 25
"""Sizes whose output has at least this many bytes are timed from a cold
cache (``Flush``); smaller ones in cache, as a loop calling them runs."""
QUICK_REPEATS = 5


@dataclass
class Variant:
    name: str
    call: Callable | None
    status: str = ""
    """Why ``call`` is None: "absent (...)" or "failed: ...")."""
    traced: bool = True
    """Whether tracemalloc sees its allocations."""
    soft: bool = False
    """A failure in verification marks the row failed instead of aborting."""
    note: Callable[[], str] | None = None
    """A line printed under the table (e.g. whether donation took effect)."""
    cpu: str = ""
    """CPU time over wall time of one call, measured at warm-up, when asked."""
    measure_cpu: bool = False


def _numpy_out(workload: str, n: int):
    out = np.empty((n, n), np.float32)
    if workload in ("a", "b"):
        tmp = np.empty((n, n), np.float32)
        pre = numpy_a_out if workload == "a" else numpy_b_out
        return lambda *args: pre(*args, out, tmp)
    red = np.empty((n, 1), np.float32)
    pre = numpy_softmax_out if workload == "softmax" else numpy_layernorm_out
    return lambda *args: pre(*args, out, red)


def _numexpr(ne, workload: str, n: int):
    """numexpr for the elementwise parts; NumPy (preallocated) for row reductions."""
    out = np.empty((n, n), np.float32)
    if workload in ("a", "b"):
        expr = NUMEXPR[workload]
        return lambda x, r, c: ne.evaluate(expr, local_dict={"x": x, "row": r, "col": c}, out=out)
    red = np.empty((n, 1), np.float32)
    if workload == "softmax":
        def softmax(x):
            np.max(x, axis=1, keepdims=True, out=red)
            ne.evaluate("exp(x - m)", local_dict={"x": x, "m": red}, out=out)
            np.sum(out, axis=1, keepdims=True, out=red)
            ne.evaluate("e / s", local_dict={"e": out, "s": red}, out=out)
            return out
        return softmax
    inv_n = np.float32(1.0 / n)

    def layernorm(x, gamma, beta):
        np.sum(x, axis=1, keepdims=True, out=red)
        np.multiply(red, inv_n, out=red)
        ne.evaluate("x - mu", local_dict={"x": x, "mu": red}, out=out)
        np.einsum("ij,ij->i", out, out, out=red[:, 0])
        ne.evaluate("d / sqrt(ss * inv_n + eps) * gamma + beta", local_dict={
            "d": out, "ss": red, "inv_n": inv_n, "eps": np.float32(EPS),
            "gamma": gamma, "beta": beta}, out=out)
        return out
    return layernorm


# ---------------------------------------------------------------- numba

_NUMBA_KERNELS: dict | None = None


def _numba_kernels(numba) -> dict:
    """Hand-written parallel loops, as an array programmer writes them for numba."""
    global _NUMBA_KERNELS
    if _NUMBA_KERNELS is not None:
        return _NUMBA_KERNELS
    prange = numba.prange
    jit = numba.njit(parallel=True, fastmath=False)
    half, shift, zero, eps = np.float32(0.5), np.float32(1.5), np.float32(0.0), EPS

    @jit
    def a(x, row, col, out):
        n, m = x.shape
        for i in prange(n):
            c = col[i, 0]
            for j in range(m):
                v = x[i, j]
                out[i, j] = (v + row[j]) * c - half * v
        return out

    @jit
    def b(x, row, col, out):
        n, m = x.shape
        for i in prange(n):
            c = col[i, 0]
            for j in range(m):
                v = x[i, j]
                t = max((v * c + row[j]) * half - v, zero)
                out[i, j] = (t + row[j]) * c - shift
        return out

    @jit
    def softmax(x, out):
        n, m = x.shape
        for i in prange(n):
            mx = x[i, 0]
            for j in range(1, m):
                if x[i, j] > mx:
                    mx = x[i, j]
            s = 0.0
            for j in range(m):
                e = np.exp(x[i, j] - mx)
                out[i, j] = e
                s += e
            inv = np.float32(1.0 / s)
            for j in range(m):
                out[i, j] *= inv
        return out

    @jit
    def layernorm(x, gamma, beta, out):
        n, m = x.shape
        inv_n = 1.0 / m
        for i in prange(n):
            s = 0.0
            for j in range(m):
                s += x[i, j]
            mu = np.float32(s * inv_n)
            ss = 0.0
            for j in range(m):
                d = x[i, j] - mu
                out[i, j] = d
                ss += d * d
            rstd = np.float32(1.0 / np.sqrt(ss * inv_n + eps))
            for j in range(m):
                out[i, j] = out[i, j] * rstd * gamma[j] + beta[j]
        return out

    @jit
    def copy(x, out):
        n, m = x.shape
        for i in prange(n):
            for j in range(m):
                out[i, j] = x[i, j]
        return out

    _NUMBA_KERNELS = {"a": a, "b": b, "softmax": softmax, "layernorm": layernorm, "copy": copy}
    return _NUMBA_KERNELS


def _numba(numba, workload: str, n: int, one_thread: bool = False):
    kernel = _numba_kernels(numba)[workload]
    out = np.empty((n, n), np.float32)
    if not one_thread:
        return lambda *args: kernel(*args, out)
    every = numba.config.NUMBA_NUM_THREADS

    def call(*args):
        numba.set_num_threads(1)
        try:
            return kernel(*args, out)
        finally:
            numba.set_num_threads(every)
    return call


# ---------------------------------------------------------------- jax

def _jax_function(jax, workload: str):
    jnp = jax.numpy

    def jax_a(x, r, c):
        return (x + r) * c - jnp.float32(0.5) * x

    def jax_b(x, r, c):
        return (jnp.maximum((x * c + r) * jnp.float32(0.5) - x, 0) + r) * c - jnp.float32(1.5)

    def jax_softmax(x):
        e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
        return e / jnp.sum(e, axis=1, keepdims=True)

    def jax_layernorm(x, gamma, beta):
        mu = jnp.mean(x, axis=1, keepdims=True)
        d = x - mu
        var = jnp.mean(d * d, axis=1, keepdims=True)
        return d * jax.lax.rsqrt(var + jnp.float32(EPS)) * gamma + beta

    return {"a": jax_a, "b": jax_b, "softmax": jax_softmax, "layernorm": jax_layernorm}[workload]


def _on_device(jax):
    device: dict[int, object] = {}

    def on_device(a):  # inputs live on the device, as in a jax program
        if id(a) not in device:
            device[id(a)] = jax.device_put(a)
        return device[id(a)]
    return on_device


def _jax(jax, workload: str):
    jitted = jax.jit(_jax_function(jax, workload))
    on_device = _on_device(jax)
    return lambda *args: jitted(*map(on_device, args)).block_until_ready()


def _jax_donated(jax, workload: str, n: int) -> Variant:
    """The result written into a donated buffer; each result is the next call's buffer."""
    f = _jax_function(jax, workload)
    jitted = jax.jit(lambda *a: f(*a[:-1]), donate_argnums=(ARITY[workload],), keep_unused=True)
    # An XLA-owned first buffer: a device_put NumPy array (zero-copy on CPU)
    # or an eager jnp.zeros is not donatable and would be copied silently.
    state = {"buf": jax.jit(lambda: jax.numpy.zeros((n, n), jax.numpy.float32))(), "calls": 0, "aliased": 0}
    on_device = _on_device(jax)

    def call(*args):
        buf = state["buf"]
        before = buf.unsafe_buffer_pointer()
        out = jitted(*map(on_device, args), buf).block_until_ready()
        state["buf"] = out
        state["calls"] += 1
        state["aliased"] += out.unsafe_buffer_pointer() == before
        return out

    def note() -> str:
        c, k = state["calls"], state["aliased"]
        verdict = "donation took effect" if c == k else "DONATION DID NOT ALWAYS TAKE EFFECT"
        return f"jax.jit donated: XLA wrote into the donated buffer in {k} of {c} calls ({verdict})"
    return Variant("jax.jit donated", call, traced=False, note=note)


ARITY = {"a": 3, "b": 3, "softmax": 1, "layernorm": 3}


# ---------------------------------------------------------------- C backend

def _mapped_files() -> set[str]:
    try:
        with open("/proc/self/maps") as maps:
            return {parts[5].strip() for line in maps if len(parts := line.split(None, 5)) == 6
                    and parts[5].startswith("/")}
    except OSError:
        return set()


class OpenMP:
    """``omp_set_num_threads`` of the OpenMP runtime a loaded library links."""

    def __init__(self, library: ctypes.CDLL, path: str):
        self.path = path
        self._set = library.omp_set_num_threads  # dlsym on the library's handle: its own dependencies
        self._set.argtypes, self._set.restype = [ctypes.c_int], None
        self._get = library.omp_get_max_threads
        self._get.argtypes, self._get.restype = [], ctypes.c_int
        self.every = self._get()
        self._set(1)
        took = self._get() == 1
        self._set(self.every)
        if not took:
            raise AttributeError("omp_set_num_threads(1) did not take effect")

    def threads(self) -> int:
        return self._get()

    def one_thread(self, call):
        def run(*args, **kwargs):
            self._set(1)
            try:
                return call(*args, **kwargs)
            finally:
                self._set(self.every)
        return run


def _find_openmp(new_files: set[str]) -> OpenMP | None:
    """The OpenMP control of the C library among the files a compile mapped."""
    try:
        from bcast.lowering import c_runtime
        cache = str(c_runtime.cache_dir())
    except Exception:  # noqa: BLE001 - layout may change while the backend is built
        cache = None
    candidates = sorted(new_files, key=lambda p: (not (cache and p.startswith(cache)), "bcast" not in
                                                   os.path.basename(p)))
    for path in candidates:
        name = os.path.basename(path)
        if ".so" not in name or name.startswith(("libgomp", "libomp", "libiomp")):
            continue
        if not ((cache and path.startswith(cache)) or "bcast" in name):
            continue
        try:
            return OpenMP(ctypes.CDLL(path), path)
        except (OSError, AttributeError):
            continue
    return None


def _c_backend(workload: str, n: int, args) -> list[Variant]:
    names = ["bcast c (all threads)", "bcast c out= (all threads)", "bcast c (1t)", "bcast c out= (1t)"]
    before = _mapped_files()
    try:
        fn = bcast.compile(PROGRAM[workload](n), backend="c")
    except ValueError as e:
        if "unknown backend" in str(e):
            return [Variant(name, None, "absent (bcast.compile has no backend 'c' yet)") for name in names]
        return [Variant(name, None, f"failed: compile: {_short(e)}") for name in names]
    except Exception as e:  # noqa: BLE001 - reported in the table
        status = (f"absent ({_short(e)})" if type(e).__name__ == "CompilerMissing"
                  else f"failed: compile: {type(e).__name__}: {_short(e)}")
        return [Variant(name, None, status) for name in names]
    try:
        # The first calls of a new program may run before its library is
        # built (tools/first_calls.py): c_source waits for the library, and
        # the call after it runs (and maps) that library.
        source = fn.c_source
        fn(*args)
    except Exception as e:  # noqa: BLE001
        return [Variant(name, None, f"failed: call: {type(e).__name__}: {_short(e)}") for name in names]
    after = _mapped_files()
    out = np.empty((n, n), np.float32)
    if "#pragma omp parallel" not in source:  # the C the compile built
        why = "n/a (one thread below plan_parallel.PARALLEL_WORK iterations: see the 1t rows)"
        return [Variant(names[0], None, why), Variant(names[1], None, why),
                Variant(names[2], lambda *a: fn(*a), soft=True, measure_cpu=True),
                Variant(names[3], lambda *a: fn(*a, out=out), soft=True, measure_cpu=True)]
    # The compile's own library; else (already loaded: same source) any bcast library mapped.
    omp = _find_openmp(after - before) or _find_openmp(after)
    plain = lambda *a: fn(*a)  # noqa: E731
    into = lambda *a: fn(*a, out=out)  # noqa: E731
    if omp is not None:
        def note() -> str:
            return (f"C backend: OpenMP reached through {os.path.basename(omp.path)}; "
                    f"all threads = {omp.every}, one thread set by omp_set_num_threads(1)")
    else:
        def note() -> str:
            return "C backend: no OpenMP runtime found in its library (serial build): it runs on one thread"
    if omp is None or omp.every == 1:
        why = "no OpenMP in the library" if omp is None else "OpenMP has one thread"
        return [Variant("bcast c (all threads)", None, f"n/a ({why}: see the 1t rows)"),
                Variant("bcast c out= (all threads)", None, f"n/a ({why}: see the 1t rows)"),
                Variant("bcast c (1t)", plain, soft=True, note=note, measure_cpu=True),
                Variant("bcast c out= (1t)", into, soft=True, measure_cpu=True)]
    variants = [Variant(f"bcast c ({omp.every}t)", plain, soft=True, note=note, measure_cpu=True),
                Variant(f"bcast c out= ({omp.every}t)", into, soft=True, measure_cpu=True),
                Variant("bcast c (1t)", omp.one_thread(plain), soft=True, measure_cpu=True),
                Variant("bcast c out= (1t)", omp.one_thread(into), soft=True, measure_cpu=True)]
    return variants


def _short(e: BaseException, limit: int = 160) -> str:
    text = " ".join(str(e).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ---------------------------------------------------------------- floors

_POOL: ThreadPoolExecutor | None = None


def _slab_copy(n: int, threads: int):
    """All threads each copying a slab of rows with np.copyto (NumPy releases the GIL)."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=threads)
    out = np.empty((n, n), np.float32)
    bounds = [(k * n // threads, (k + 1) * n // threads) for k in range(threads)]

    def copy(x, *_):
        list(_POOL.map(lambda lo_hi: np.copyto(out[lo_hi[0]:lo_hi[1]], x[lo_hi[0]:lo_hi[1]]), bounds))
        return out
    return copy


def program_copy(n: int) -> str:
    """The identity: the C backend copies ``x`` into the result."""
    t = f"tensor<{n}x{n}xf32>"
    return f"func.func @main(%x: {t}) -> {t} {{\n  func.return %x : {t}\n}}\n"


def _stream_copy(n: int) -> list[Variant]:
    """bcast's C backend copying ``x``: at sizes of ``streaming_stores.STREAM_BYTES``
    (32 MiB) and more it writes with non-temporal stores, which do not read the
    destination first (``np.copyto`` and the other floors do: their stores
    move 3 bytes of memory traffic per 2 copied; glibc's ``memcpy`` streams
    only above a threshold set by the last-level cache size, 480 MiB on the
    development VM)."""
    names = (FLOOR_STREAM_1T, FLOOR_STREAM_ALL)
    try:
        fn = bcast.compile(program_copy(n), backend="c")
        out = np.empty((n, n), np.float32)
        fn(out, out=np.empty((n, n), np.float32))
    except Exception as e:  # noqa: BLE001 - reported in the table
        return [Variant(name, None, f"absent ({type(e).__name__}: {_short(e)})") for name in names]
    omp = _find_openmp(_mapped_files())
    copy = lambda x, *_: fn(x, out=out)  # noqa: E731
    if "#pragma omp parallel" not in fn.c_source:
        return [Variant(FLOOR_STREAM_1T, copy), Variant(FLOOR_STREAM_ALL, None, "n/a (one thread at this size)")]
    if omp is None or omp.every == 1:
        return [Variant(FLOOR_STREAM_1T, copy), Variant(FLOOR_STREAM_ALL, None, "n/a (one thread)")]
    return [Variant(FLOOR_STREAM_1T, omp.one_thread(copy)), Variant(FLOOR_STREAM_ALL, copy)]


def _floors(n: int, numba) -> list[Variant]:
    out = np.empty((n, n), np.float32)
    floors = [Variant(FLOOR_1T, lambda x, *_: (np.copyto(out, x), out)[1]),
              Variant(FLOOR_SLABS, _slab_copy(n, os.cpu_count() or 1))]
    if numba is None:
        floors.append(Variant(FLOOR_NUMBA, None, "absent (numba not installed)"))
    else:
        copy, out2 = _numba_kernels(numba)["copy"], np.empty((n, n), np.float32)
        floors.append(Variant(FLOOR_NUMBA, lambda x, *_: copy(x, out2), traced=False))
    return floors + _stream_copy(n)


def _largest_cache() -> int:
    """Bytes of the largest CPU cache Linux reports (0: unknown)."""
    sizes = []
    for path in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*/size"):
        try:
            text = open(path).read().strip()
        except OSError:
            continue
        unit = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
        digits = text.rstrip("KMG")
        if digits.isdigit():
            sizes.append(int(digits) * unit)
    return max(sizes, default=0)


class Flush:
    """Reads a buffer twice the last-level cache (at most 1 GiB), so that
    the next call finds its arrays in memory, not in cache."""

    def __init__(self):
        size = min(2 * max(_largest_cache(), 32 << 20), 1 << 30)
        self.buffer = np.ones(size // 8)
        self.bytes = size

    def __call__(self) -> None:
        self.buffer.sum()


# ---------------------------------------------------------------- variants

def _numpy_group(workload: str, n: int, args) -> list[Variant]:
    return [Variant("numpy eager", EAGER[workload]), Variant("numpy out=", _numpy_out(workload, n))]


def _numexpr_group(workload: str, n: int, args) -> list[Variant]:
    ne = _optional("numexpr")
    return [Variant("numexpr", _numexpr(ne, workload, n)) if ne is not None
            else Variant("numexpr", None, "absent (not installed)")]


def _numba_group(workload: str, n: int, args) -> list[Variant]:
    numba = _optional("numba")
    if numba is None:
        return [Variant(name, None, "absent (not installed)") for name in ("numba", "numba (1t)")]
    return [Variant(f"numba ({numba.config.NUMBA_NUM_THREADS}t)", _numba(numba, workload, n),
                    traced=False, measure_cpu=True),
            Variant("numba (1t)", _numba(numba, workload, n, one_thread=True),
                    traced=False, measure_cpu=True)]


def _jax_group(workload: str, n: int, args) -> list[Variant]:
    jax = _optional("jax")
    if jax is None:
        return [Variant(name, None, "absent (not installed)") for name in ("jax.jit", "jax.jit donated")]
    return [Variant("jax.jit", _jax(jax, workload), traced=False), _jax_donated(jax, workload, n)]


def _bcast_numpy_group(workload: str, n: int, args) -> list[Variant]:
    fn = bcast.compile(PROGRAM[workload](n), backend="numpy")
    out = np.empty((n, n), np.float32)
    return [Variant("bcast numpy", lambda *a: fn(*a)), Variant("bcast numpy out=", lambda *a: fn(*a, out=out))]


GROUPS: dict[str, Callable[[str, int, tuple], list[Variant]]] = {
    "numpy": _numpy_group,
    "numexpr": _numexpr_group,
    "numba": _numba_group,
    "jax": _jax_group,
    "bcast numpy": _bcast_numpy_group,
    "bcast c": _c_backend,
}
"""The peers by the runtime they load: ``--own-process`` runs each group in a
process of its own (so no other runtime's threads or libraries are there)."""


def peers(workload: str, n: int, args) -> list[Variant]:
    """Every variant for one workload and size (None calls: absent or failed)."""
    variants = [v for build in GROUPS.values() for v in build(workload, n, args)]
    return variants + _floors(n, _optional("numba"))


def peak_bytes(call, args) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    call(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return max(0, peak - base)


def check(variants: list[Variant], workload: str, args) -> None:
    """Every variant's result against NumPy eager's; abort naming the first that
    differs (a ``soft`` variant is marked failed instead, and not timed)."""
    want = EAGER[workload](*args)
    assert want.dtype == np.float32, want.dtype
    rtol, atol = TOLERANCE[workload]
    for v in variants:
        if v.call is None or v.name in FLOORS:
            continue
        problem = None
        try:
            got = np.array(v.call(*args))  # a copy: a jax result stays donatable
        except Exception as e:  # noqa: BLE001
            if not v.soft:
                raise
            problem = f"{type(e).__name__}: {_short(e)}"
        if problem is None and (got.shape != want.shape or got.dtype != want.dtype):
            problem = f"returns {got.dtype}{got.shape}, NumPy eager {want.dtype}{want.shape}"
        if problem is None and not np.allclose(got, want, rtol=rtol, atol=atol):
            err = np.max(np.abs(got.astype(np.float64) - want))
            problem = f"differs from NumPy eager (max abs error {err:.3g}; rtol={rtol}, atol={atol})"
        if problem is not None:
            if not v.soft:
                raise SystemExit(f"{workload}, {want.shape}: variant {v.name!r} {problem}; benchmark aborted")
            v.call, v.status = None, f"failed: {problem}"
    for name in FLOORS:  # the floors copy x
        for v in variants:
            if v.name == name and v.call is not None and not np.array_equal(v.call(*args), args[0]):
                raise SystemExit(f"{workload}: {name!r} does not copy x; benchmark aborted")


def _cpu_over_wall(call, args, calls: int = 5) -> str:
    """Process CPU time over wall time across a few back-to-back calls: about the
    number of threads that really ran (less when other work on the machine
    takes the cores; spinning OpenMP workers count too)."""
    time.sleep(PAUSE)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(calls):
        call(*args)
    return f"{(time.process_time() - c0) / (time.perf_counter() - w0):.2f}"


def time_variants(present: list[Variant], args, repeats: int, flush) -> dict[str, list[float]]:
    """Seconds per call of each variant, one sample per round (``flush``:
    called before each timed call, or None for a warm cache)."""
    times: dict[str, list[float]] = {v.name: [] for v in present}
    batch: dict[str, int] = {}
    for v in present:  # warm up (jit compiles, pages fault in)
        v.call(*args)
        t0 = time.perf_counter()
        v.call(*args)
        batch[v.name] = max(1, min(10_000, int(MIN_TIMED / max(time.perf_counter() - t0, 1e-9))))
    for v in present:
        if v.measure_cpu:
            v.cpu = _cpu_over_wall(v.call, args)
    for round_ in range(repeats):
        # Rotate the order each round, and pause between calls: some
        # peers (XLA's and OpenMP's thread pools) spin after returning
        # and would slow down whichever variant runs next. From a
        # cold cache, every variant finds its arrays in memory.
        k = round_ % len(present)
        for v in present[k:] + present[:k]:
            time.sleep(PAUSE)
            if flush is not None:
                flush()
            calls = batch[v.name]
            t0 = time.perf_counter()
            for _ in range(calls):
                v.call(*args)
            times[v.name].append((time.perf_counter() - t0) / calls)
    return times


def run(sizes: list[int], repeats: int, workloads: list[str]) -> dict[str, dict[int, dict[str, float]]]:
    """Print the tables; return every median in seconds per call, by
    workload, size and variant."""
    medians: dict[str, dict[int, dict[str, float]]] = {}
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or '?'}; "
          f"python {platform.python_version()}, numpy {np.__version__}; "
          f"bcast threads: {os.environ.get('BCAST_NUM_THREADS', os.cpu_count())}; "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}")
    versions = []
    for module in ("numexpr", "numba", "jax"):
        mod = _optional(module)
        text = f"{module} {mod.__version__ if mod is not None else 'absent'}"
        if module == "numexpr" and mod is not None:
            text += f" ({mod.get_num_threads()} threads)"
        if module == "numba" and mod is not None:
            _numba_kernels(mod)["copy"](np.zeros((2, 2), np.float32), np.empty((2, 2), np.float32))
            text += f" ({mod.get_num_threads()} threads, {mod.threading_layer()} threading layer)"
        versions.append(text)
    print("peers: " + ", ".join(versions))
    if hasattr(os, "getloadavg"):  # other work on the machine distorts all-thread timings
        print("load average before the run: " + " ".join(f"{v:.2f}" for v in os.getloadavg()))
    rng = np.random.default_rng(0)
    flush = None
    for workload in workloads:
        for n in sizes:
            args = inputs(workload, n, rng)
            variants = peers(workload, n, args)
            check(variants, workload, args)
            present = [v for v in variants if v.call is not None]
            cold = n * n * 4 >= COLD_BYTES
            if cold and flush is None:
                flush = Flush()
            times = time_variants(present, args, repeats, flush if cold else None)
            median = {name: statistics.median(ts) for name, ts in times.items()}
            medians.setdefault(workload, {})[n] = median
            floor_1t = min(median[name] for name in FLOORS_1T if name in median)
            floor_all = min(median[name] for name in FLOORS_ALL if name in median)
            out_bytes = n * n * 4
            cache = (f"cold cache (a {flush.bytes >> 20} MiB read before each call)" if cold
                     else "warm cache")
            print(f"\n{TITLE[workload]}, {n}x{n} f32, median of {repeats} interleaved rounds, {cache}")
            print(f"{'variant':30} {'median ms':>10} {'x floor(1t)':>12} {'x floor(all)':>13} "
                  f"{'x eager':>8} {'peak alloc':>11}")
            eager_t = median["numpy eager"]
            for v in variants:
                if v.call is None:
                    print(f"{v.name:30} {v.status}")
                    continue
                t = median[v.name]
                peak = f"{peak_bytes(v.call, args) / out_bytes:10.2f}x" if v.traced else f"{'n/a':>11}"
                print(f"{v.name:30} {t * 1e3:10.4g} {t / floor_1t:12.2f} {t / floor_all:13.2f} "
                      f"{eager_t / t:8.2f} {peak}")
            print(f"floors: 1t {floor_1t * 1e3:.4g} ms, all threads {floor_all * 1e3:.4g} ms "
                  f"({out_bytes / floor_1t / 1e9:.1f} and {out_bytes / floor_all / 1e9:.1f} GB/s written)")
            cpu = [f"{v.name} {v.cpu}" for v in present if v.cpu]
            if cpu:
                print("cpu time / wall time over 5 calls: " + ", ".join(cpu))
            for v in variants:
                if v.note is not None:
                    print(v.note())
    return medians


def plot(medians: dict[str, dict[int, dict[str, float]]], path: str) -> None:
    """Time per output element against the size, one panel per workload,
    one colour per variant (log-log); a variant's own-process curve is
    dotted, in its colour; one legend for all panels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(name.removesuffix(OWN) for by_size in medians.values()
                               for by_name in by_size.values() for name in by_name))
    colour = {name: plt.cm.tab20.colors[i % 20] for i, name in enumerate(names)}
    cols = min(2, len(medians))
    rows = -(-len(medians) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 4.5 * rows), squeeze=False)
    for ax, (workload, by_size) in zip(axes.flat, medians.items()):
        sizes = sorted(by_size)
        for name in list(dict.fromkeys(name for n in sizes for name in by_size[n])):
            base = name.removesuffix(OWN)
            points = [(n, by_size[n][name] / (n * n) * 1e9) for n in sizes if name in by_size[n]]
            style = ":" if name.endswith(OWN) else "-" if base.startswith("bcast") else "--"
            ax.plot(*zip(*points), style, marker="o", markersize=3, color=colour[base],
                    label=base if not name.endswith(OWN) else None,
                    linewidth=2 if base.startswith("bcast c") else 1)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes, [f"{n}x{n}" for n in sizes])
        ax.set_xlabel("size (f32)")
        ax.set_ylabel("ns per output element (median)")
        ax.set_title(TITLE.get(workload, workload))
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axes.flat)[len(medians):]:
        ax.set_visible(False)
    handles = {label: h for ax in axes.flat for h, label in zip(*ax.get_legend_handles_labels())}
    fig.legend(handles.values(), handles.keys(), loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8,
               title="solid: bcast, dashed: peers,\ndotted: own process", title_fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)


def plot_if_possible(medians: dict[str, dict[int, dict[str, float]]], path: str) -> str:
    """Draw the plot, or say why not: matplotlib is optional (the ``bench``
    extra), and the tables printed without it are the results."""
    try:
        plot(medians, path)
    except ImportError:
        return f"--plot {path}: not drawn, matplotlib is not installed (pip install 'bcast[bench]')"
    return f"plot: {path}"


WORKLOADS = ["a", "b", "softmax", "layernorm"]


def own_process_child(group: str, workload: str, n: int, repeats: int) -> None:
    """Time one group's variants in this process, which loads no other peer;
    print their medians (seconds per call) as one JSON line."""
    import json

    args = inputs(workload, n, np.random.default_rng(0))
    variants = GROUPS[group](workload, n, args)
    check(variants, workload, args)
    present = [v for v in variants if v.call is not None]
    flush = Flush() if n * n * 4 >= COLD_BYTES else None
    times = time_variants(present, args, repeats, flush) if present else {}
    print(json.dumps({name: statistics.median(ts) for name, ts in times.items()}))


def own_process(sizes: list[int], repeats: int, workloads: list[str],
                shared: dict[str, dict[int, dict[str, float]]]) -> dict[str, dict[int, dict[str, float]]]:
    """Each peer group at each size in a subprocess of its own; print its
    medians beside the shared-process ones; return them like ``run``."""
    import json
    import subprocess

    medians: dict[str, dict[int, dict[str, float]]] = {}
    for workload in workloads:
        for n in sizes:
            here = medians.setdefault(workload, {}).setdefault(n, {})
            for group in GROUPS:
                done = subprocess.run([sys.executable, __file__, "--child", group, workload, str(n), str(repeats)],
                                      capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"{workload} {n}x{n} {group}: own process failed: {done.stderr.strip()[-300:]}")
                    continue
                here.update(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"\n{TITLE[workload]}: each peer in a process of its own vs all in one process "
              f"(median ms; ratio shared/own)")
        print(f"{'variant':30} " + " ".join(f"{f'{n}x{n}':>24}" for n in sizes))
        names = list(dict.fromkeys(name for n in sizes for name in medians[workload][n]))
        for name in names:
            cells = []
            for n in sizes:
                own, sh = medians[workload][n].get(name), shared.get(workload, {}).get(n, {}).get(name)
                cells.append(f"{'-' if own is None else f'{own * 1e3:.4g}':>9} / "
                             f"{'-' if sh is None else f'{sh * 1e3:.4g}':>8} "
                             f"{'' if own is None or sh is None else f'{sh / own:.2f}x':>5}")
            print(f"{name:30} " + " ".join(f"{c:>24}" for c in cells))
    return medians


def standing(times: dict[str, float]) -> tuple[str, float, str, float] | None:
    """bcast C's fastest variant and the fastest peer among ``times`` (one
    size, one setting: variant -> seconds): (name, time, name, time), or
    None when either is missing. Peers are the variants that are neither
    bcast's nor a copy floor."""
    c = {k: t for k, t in times.items() if k.startswith("bcast c")}
    rivals = {k: t for k, t in times.items() if not k.startswith(("bcast", "copy floor"))}
    if not c or not rivals:
        return None
    best_c, best_peer = min(c, key=c.get), min(rivals, key=rivals.get)
    return best_c, c[best_c], best_peer, rivals[best_peer]


def standing_table(medians: dict[str, dict[int, dict[str, float]]]) -> int:
    """Print, per workload and size, bcast C's fastest variant against the
    fastest peer, in the shared process and (when measured) in processes
    of their own; return how many cells bcast C is more than 2% behind
    (marked ``**``)."""
    behind = 0
    print("\nbcast C's fastest variant against the fastest peer (median ms; ratio; ** more than 2% behind)")
    print(f"{'workload':10} {'size':>9}  {'shared process':58}  own processes")
    for workload, by_size in medians.items():
        for n, times in by_size.items():
            cells = []
            for own in (False, True):
                picked = {k[: -len(OWN)] if own else k: t for k, t in times.items() if k.endswith(OWN) == own}
                got = standing(picked)
                if got is None:
                    cells.append(f"{'-':58}")
                    continue
                c_name, c, peer, p = got
                late = c / p > BEHIND
                behind += late
                cells.append(f"{'**' if late else '  '}{c / p:5.2f}  {c * 1e3:.4g} {c_name[8:]} "
                             f"vs {p * 1e3:.4g} {peer}".ljust(58))
            print(f"{workload:10} {f'{n}x{n}':>9}  {cells[0]}  {cells[1].rstrip()}")
    print(f"bcast C more than 2% behind the fastest peer in {behind} cells")
    return behind


def per_call_table(rounds: int, calls: int) -> None:
    """benchmarks/per_call.py's measurement (``tanh(x + row)``, 16x16 and 1x1)."""
    import per_call

    print("\nper-call cost (benchmarks/per_call.py: tanh(x + row), median µs per call)")
    for n in (16, 1):
        got = per_call.measure(per_call.variants(n), rounds, calls)
        print(f"  {n}x{n}: " + ", ".join(f"{name} {us:.2f}" for name, us in got.items()))


def first_result_table(ops: list[int], rounds: int) -> None:
    """benchmarks/first_result.py's measurement: compile plus first call, empty cache."""
    import first_result

    print("\ntime to first result (benchmarks/first_result.py: compile + first call, 64x64; "
          "median s; import time in brackets)")
    for n in ops:
        got = first_result.measure(n, 64, rounds)
        print(f"  {n} ops: " + ", ".join(f"{name} {first:.3f} ({imp:.2f})" for name, (first, imp) in got.items()))
    shutil.rmtree(first_result.PYCACHE, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    p.add_argument("--repeats", type=int, default=None, help="rounds (default 15; 5 with --quick)")
    p.add_argument("--quick", action="store_true", help=f"{QUICK_REPEATS} rounds: a smoke run")
    p.add_argument("--workloads", nargs="+", default=["a", "b"], choices=WORKLOADS,
                   help="workloads to run (default: a b)")
    p.add_argument("--json", help="write every median (seconds per call) to this file")
    p.add_argument("--plot", help="draw time per element against size into this PNG (needs matplotlib)")
    p.add_argument("--own-process", action="store_true",
                   help="also run each peer group at each size in a process of its own")
    p.add_argument("--per-call", action="store_true", help="also run benchmarks/per_call.py's measurement")
    p.add_argument("--first-result", action="store_true",
                   help="also run benchmarks/first_result.py's measurement (10 ops; 10 and 1000 without --quick)")
    p.add_argument("--child", nargs=4, metavar=("GROUP", "WORKLOAD", "N", "REPEATS"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        group, workload, n, child_repeats = args.child
        own_process_child(group, workload, int(n), int(child_repeats))
        return 0
    repeats = args.repeats if args.repeats is not None else (QUICK_REPEATS if args.quick else 15)
    medians = run(args.sizes, repeats, args.workloads)
    if args.own_process:
        own = own_process(args.sizes, repeats, args.workloads, medians)
        for workload, by_size in own.items():  # the plot's dashed "(own)" curves
            for n, by_name in by_size.items():
                medians[workload][n].update({f"{name}{OWN}": t for name, t in by_name.items()})
    standing_table(medians)
    if args.per_call:
        per_call_table(*((5, 500) if args.quick else (31, 2000)))
    if args.first_result:
        first_result_table(*(([10], 1) if args.quick else ([10, 1000], 5)))
    if args.json:
        import json

        with open(args.json, "w") as f:
            json.dump(medians, f, indent=1)
    if args.plot:
        print(plot_if_possible(medians, args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
