"""The matrix product alone: bcast's C backend against OpenBLAS and XLA.

    python benchmarks/gemm.py [--sizes 64x64x64 256x256x256 1024x1024x1024 4096x1024x1024] [--repeats 15]

For each m x n x k (f32, row-major, A m x k times B k x n) the variants are
timed interleaved (one call of each per round, the order rotating) so that
machine noise hits them alike; the table gives medians in ms and the ratio
to ``jax.jit``'s. Threads follow ``OMP_NUM_THREADS`` (bcast),
``OPENBLAS_NUM_THREADS`` (NumPy) and XLA's own flags; for one thread run
``taskset -c 0`` with ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1``.

Variants:
- bcast c: ``bcast.compile`` of a ``stablehlo.dot_general`` (the C backend:
  bcast's own kernel, ``lowering/c_gemm.py``, in row blocks on OpenMP threads);
- bcast kernel: that kernel called directly on the calling thread (ctypes);
- OpenBLAS: ``np.matmul`` (NumPy's bundled OpenBLAS, as it detects the CPU);
- jax.jit: ``jnp.matmul`` (inputs on the device, ``block_until_ready``).
Every variant's result is compared with NumPy's first (f32 tolerance).
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import time

import numpy as np

import bcast
from bcast.lowering import c_gemm, c_runtime


def program(m: int, n: int, k: int) -> str:
    return f"""
func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %0 = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
  func.return %0 : tensor<{m}x{n}xf32>
}}
"""


def kernel():
    """bcast's sgemm as a ctypes function of (a, b) -> a @ b."""
    sizes = [ctypes.c_int64] * 3
    f = ctypes.CFUNCTYPE(None, *[ctypes.c_int] * 3, *sizes, ctypes.c_float, ctypes.c_void_p, ctypes.c_int64,
                         ctypes.c_void_p, ctypes.c_int64, ctypes.c_float, ctypes.c_void_p,
                         ctypes.c_int64)(c_runtime.own_gemm()[0])

    def call(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        (m, k), n = a.shape, b.shape[1]
        c = np.empty((m, n), np.float32)
        f(101, 111, 111, m, n, k, 1.0, a.ctypes.data, k, b.ctypes.data, n, 0.0, c.ctypes.data, n)
        return c
    return call


def variants(a: np.ndarray, b: np.ndarray) -> dict:
    out = {"bcast c": (lambda f=bcast.compile(program(a.shape[0], b.shape[1], a.shape[1]), backend="c"): f(a, b)),
           "bcast kernel": (lambda f=kernel(): f(a, b)),
           "OpenBLAS": lambda: np.matmul(a, b)}
    try:
        import jax
        import jax.numpy as jnp
        da, db, mm = jnp.asarray(a), jnp.asarray(b), jax.jit(jnp.matmul)
        out["jax.jit"] = lambda: mm(da, db).block_until_ready()
    except ImportError:  # pragma: no cover - jax is optional
        pass
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["64x64x64", "256x256x256", "1024x1024x1024", "4096x1024x1024"])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for size in args.sizes:
        m, n, k = (int(s) for s in size.split("x"))
        a, b = rng.standard_normal((m, k), np.float32), rng.standard_normal((k, n), np.float32)
        fs = variants(a, b)
        want = a @ b
        for name, f in fs.items():
            np.testing.assert_allclose(np.asarray(f()), want, rtol=1e-3, atol=1e-3 * np.sqrt(k), err_msg=name)
        rounds = max(args.repeats, int(2e9 / (2 * m * n * k)) if m * n * k < 1e8 else args.repeats)
        times: dict[str, list[float]] = {name: [] for name in fs}
        names = list(fs)
        for r in range(rounds):
            for name in names[r % len(names):] + names[:r % len(names)]:
                t = time.perf_counter()
                fs[name]()
                times[name].append(time.perf_counter() - t)
        base = statistics.median(times["jax.jit"]) if "jax.jit" in times else None
        print(f"\n{m}x{n}x{k} f32, {rounds} rounds, medians")
        for name in names:
            med = statistics.median(times[name])
            ratio = f"{med / base:6.2f}x" if base else ""
            print(f"{name:14s} {1e3 * med:9.3f} ms  {2 * m * n * k / med / 1e9:7.1f} GFLOP/s  {ratio}")


if __name__ == "__main__":
    main()
