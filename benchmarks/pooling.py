"""Pooling and cumulative sums on the C backend against ``jax.jit`` and NumPy.

    python benchmarks/pooling.py [--repeats 15] [--cases max_2x2 max_3x3 avg_2x2 avg_3x3 cumsum]

Each JAX function is exported by ``bcast.from_jax`` and compiled once for C;
``jax.jit`` runs the same function, NumPy an eager version of it (a reshape
for the 2x2 pools, a padded ``sliding_window_view`` for the 3x3 SAME ones,
``np.cumsum``): max and average pools, 2x2 stride 2 VALID and 3x3 stride 1
SAME, of an NHWC 16x64x64x32 batch, and a cumsum along the rows of
1024x1024. Results are compared before timing.
Calls are interleaved (the order turns each round) so the machine's noise
falls on all alike; the table gives medians (docs/performance.md,
"Pooling").
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def max_pool_2x2(x):
    import jax

    return jax.lax.reduce_window(x, -np.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def avg_pool_3x3_same(x):
    import jax

    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0


def max_pool_3x3_same(x):
    import jax

    return jax.lax.reduce_window(x, -np.inf, jax.lax.max, (1, 3, 3, 1), (1, 1, 1, 1), "SAME")


def avg_pool_2x2(x):
    import jax

    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0


def cumsum_rows(x):
    import jax.numpy as jnp

    return jnp.cumsum(x, axis=1)


def numpy_max_pool_2x2(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def numpy_avg_pool_3x3_same(x: np.ndarray) -> np.ndarray:
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(p, (3, 3), axis=(1, 2))
    return windows.sum(axis=(-2, -1)) / np.float32(9.0)


def numpy_max_pool_3x3_same(x: np.ndarray) -> np.ndarray:
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    return np.lib.stride_tricks.sliding_window_view(p, (3, 3), axis=(1, 2)).max(axis=(-2, -1))


def numpy_avg_pool_2x2(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).sum(axis=(2, 4)) / np.float32(4.0)


CASES = {
    "max_2x2": (max_pool_2x2, numpy_max_pool_2x2, (16, 64, 64, 32)),
    "max_3x3": (max_pool_3x3_same, numpy_max_pool_3x3_same, (16, 64, 64, 32)),
    "avg_2x2": (avg_pool_2x2, numpy_avg_pool_2x2, (16, 64, 64, 32)),
    "avg_3x3": (avg_pool_3x3_same, numpy_avg_pool_3x3_same, (16, 64, 64, 32)),
    "cumsum": (cumsum_rows, lambda x: np.cumsum(x, axis=1), (1024, 1024)),
}


def measure(name: str, repeats: int) -> dict[str, float]:
    import jax

    import bcast

    fn, eager, shape = CASES[name]
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    variants = {"bcast C": bcast.compile(bcast.from_jax(fn, x), backend="c"), "jax.jit": jax.jit(fn),
                "numpy": eager}  # fmt: skip
    expected = np.asarray(variants["jax.jit"](x))
    for f in variants.values():
        np.testing.assert_allclose(np.asarray(f(x)), expected, rtol=1e-4, atol=1e-3)
    times: dict[str, list[float]] = {v: [] for v in variants}
    order = list(variants.items())
    for round_ in range(repeats):
        for v, f in order[::-1] if round_ % 2 else order:
            start = time.perf_counter()
            r = f(x)
            if v == "jax.jit":
                r.block_until_ready()
            times[v].append(time.perf_counter() - start)
    return {v: statistics.median(t) for v, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    print("| case | shape | bcast C (ms) | jax.jit (ms) | numpy (ms) |")
    print("|---|---|---|---|---|")
    for name in args.cases:
        t = measure(name, args.repeats)
        shape = "x".join(map(str, CASES[name][2]))
        print(f"| {name} | {shape} | {t['bcast C'] * 1e3:.2f} | {t['jax.jit'] * 1e3:.2f} | "
              f"{t['numpy'] * 1e3:.2f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
