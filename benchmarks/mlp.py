"""A dense layer: ``gelu(x @ W + b)`` against the bare matmul ``x @ W``.

    python benchmarks/mlp.py [--sizes 1024 4096] [--repeats 15] [--quick] [--clock wall|cpu]

For each size N (x is N x 1024, W 1024 x 1024, b 1024, f32), every variant
computes the layer and the bare matmul; all are timed interleaved (one call
of each per round, in a shuffled order, rounds repeated) so that machine
noise hits them alike; a variant's layer and bare matmul run back to back.
The table gives each variant's median layer time, its median bare-matmul
time, the epilogue overhead (the median over rounds of layer over bare
matmul, minus 1: what the bias add and the activation cost on top of the
contraction, from calls that met the same load) and the median layer time
as a ratio to ``jax.jit``'s.

OpenBLAS picks its kernels by the CPU it detects: on the development VM
(an AMD EPYC with AVX-512 that it takes for a Haswell) it runs AVX2 kernels
unless ``OPENBLAS_CORETYPE=SkylakeX`` is set in the environment; that
moves the OpenBLAS-based variants (bcast numpy, NumPy eager, numba), not
bcast C (its own kernel, ``lowering/c_gemm.py``) or XLA.

GELU is JAX's default (``jax.nn.gelu``, the tanh approximation). The bcast
variants run the module ``bcast.from_jax`` imports from the same JAX
function, so every variant computes the same formula.

Variants:
- bcast C (``backend="c"``): the contraction is bcast's own GEMM kernel
  (``lowering/c_gemm.py``) on row blocks on OpenMP threads, the bias add
  and GELU one fused loop over each block's rows after its product;
- bcast numpy: ``np.matmul``, then the fused epilogue block by block;
- ``jax.jit`` (inputs on the device, ``block_until_ready``);
- NumPy eager (``x @ W + b`` and the GELU formula, one temporary per op);
- numba (if importable): ``np.matmul`` (the same OpenBLAS), then a
  ``@njit(parallel=True)`` loop applying bias and GELU in place.

``--clock cpu`` times each call in the process's CPU time (every thread's,
``time.process_time``) instead of wall time: on a machine other programs
load, what a call costs rather than how long it waited for cores.

Before timing, every variant's result is compared with NumPy eager's
(``allclose``, f32 tolerance); a variant that differs aborts the run.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time

import numpy as np

import bcast

K = 1024
"""The contracted size and W's columns (the brief's 1024x1024 W)."""


def gelu_numpy(h: np.ndarray) -> np.ndarray:
    c = np.float32(math.sqrt(2 / math.pi))
    return np.float32(0.5) * h * (np.float32(1) + np.tanh(c * (h + np.float32(0.044715) * h * h * h)))


def variants(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> dict[str, tuple]:
    """Name -> (layer(), bare matmul()) closures over the inputs."""
    out: dict[str, tuple] = {}
    try:
        import jax
        import jax.numpy as jnp

        def layer(x, w, b):
            return jax.nn.gelu(x @ w + b)

        def bare(x, w):
            return x @ w

        module = bcast.from_jax(layer, x, w, b)
        bare_module = bcast.from_jax(bare, x, w)
        for backend in ("c", "numpy"):
            f, g = bcast.compile(module, backend=backend), bcast.compile(bare_module, backend=backend)
            out[f"bcast {backend}"] = (lambda f=f: f(x, w, b), lambda g=g: g(x, w))
        jl, jb = jax.jit(layer), jax.jit(bare)
        dx, dw, db = (jnp.asarray(a) for a in (x, w, b))
        out["jax.jit"] = (lambda: jl(dx, dw, db).block_until_ready(), lambda: jb(dx, dw).block_until_ready())
    except ImportError as e:  # pragma: no cover - the benchmark's peers
        print(f"jax absent ({e}): the bcast variants need bcast.from_jax", file=sys.stderr)
    out["NumPy eager"] = (lambda: gelu_numpy(x @ w + b), lambda: x @ w)
    try:
        import numba

        @numba.njit(parallel=True, fastmath=False)
        def epilogue(h, b):
            c = np.float32(math.sqrt(2 / math.pi))
            for i in numba.prange(h.shape[0]):
                for j in range(h.shape[1]):
                    v = h[i, j] + b[j]
                    h[i, j] = np.float32(0.5) * v * (np.float32(1) + np.tanh(c * (v + np.float32(0.044715) * v * v * v)))
            return h

        epilogue(np.ones((2, 2), np.float32), np.ones(2, np.float32))
        out["numba"] = (lambda: epilogue(np.matmul(x, w), b), lambda: np.matmul(x, w))
    except ImportError:
        out["numba"] = None
    return out


SETTLE = 0.25
"""Seconds to sleep before each timed call, so that the previous variant's
idle worker threads have stopped spinning: NumPy's OpenBLAS workers spin
for about 2^28 cycles of the time-stamp counter after a call (0.1 s at 2.6
GHz, 0.13 s at 2.1 GHz; measured on the first VM: the process still burns
CPU 60 ms after an ``np.matmul`` of 4096x1024x1024, none after 80-100 ms),
taking a core from whatever runs next; libgomp's (bcast C, numba) spin for
about 50 us (``c_runtime.OPENMP_SPIN``). At 0.12 s, on the 2.1 GHz VM,
bcast C's layer at 1024 ranged 0.97-1.45x jax.jit over three quiet runs
(whichever variant followed an OpenBLAS call lost a core); at 0.25 s,
0.86-0.95x. What a spinning neighbour costs is ``threads_beside.py``'s
subject, not this table's."""


def measure(calls: dict[str, tuple], repeats: int, clock=time.perf_counter) -> dict[str, tuple[float, float, float]]:
    """Per variant: median seconds of the layer and of the bare matmul, and
    the median over rounds of their ratio. Each round runs every variant
    as a pair, layer and bare matmul back to back (which goes first
    alternates), so the ratio compares calls that met the same machine
    load. The variants' order is a fresh (seeded) shuffle each round: with
    a rotation of one fixed order every variant always followed the same
    one (bcast C always came after numba's OpenBLAS call), and whatever
    that predecessor left behind (spinning threads, caches) hit one
    variant only."""
    names = [n for n, c in calls.items() if c is not None]
    times: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in names}
    ratios: dict[str, list[float]] = {n: [] for n in names}
    order = random.Random(0)
    for r in range(repeats):
        for n in order.sample(names, len(names)):
            pair = [0.0, 0.0]
            for k in ((0, 1) if r % 2 == 0 else (1, 0)):
                time.sleep(SETTLE)
                start = clock()
                calls[n][k]()
                pair[k] = clock() - start
                times[n][k].append(pair[k])
            ratios[n].append(pair[0] / pair[1])
    return {n: (statistics.median(times[n][0]), statistics.median(times[n][1]), statistics.median(ratios[n]))
            for n in names}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="5 rounds")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time, or the process's CPU time (all threads)")
    args = parser.parse_args()
    repeats = 5 if args.quick else args.repeats
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"# gelu(x @ W + b), f32, W {K}x{K}; {platform.machine()}, {repeats} rounds, medians, {args.clock} time")
    for n in args.sizes:
        rng = np.random.default_rng(n)
        x = rng.standard_normal((n, K), dtype=np.float32)
        w = (rng.standard_normal((K, K), dtype=np.float32) / np.float32(math.sqrt(K)))
        b = rng.standard_normal(K, dtype=np.float32)
        calls = variants(x, w, b)
        want, want_bare = gelu_numpy(x @ w + b), x @ w
        for name, pair in calls.items():
            if pair is None:
                continue
            got, got_bare = (np.asarray(f()) for f in pair)
            if not (np.allclose(got, want, rtol=1e-4, atol=1e-4) and np.allclose(got_bare, want_bare, rtol=1e-4, atol=1e-4)):
                raise SystemExit(f"{name} differs from NumPy eager at x {n}x{K}")
        result = measure(calls, repeats, clock)
        jax_layer = result["jax.jit"][0] if "jax.jit" in result else math.nan
        print(f"\nx {n}x{K} @ W {K}x{K}")
        print(f"{'variant':<14}{'layer ms':>10}{'matmul ms':>11}{'epilogue':>10}{'vs jax.jit':>12}")
        for name, pair in calls.items():
            if pair is None:
                print(f"{name:<14}{'absent':>10}")
                continue
            layer, bare, ratio = result[name]
            print(f"{name:<14}{layer * 1e3:>10.2f}{bare * 1e3:>11.2f}{ratio - 1:>+10.1%}"
                  f"{layer / jax_layer:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
