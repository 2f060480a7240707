"""Benchmarks: bcast's NumPy backend against its peers and the memory floor.

    python benchmarks/run.py [--sizes 1024 4096] [--repeats 15]

For each workload and size, every variant is timed interleaved (one call of
each variant per round, rounds repeated) so that machine noise hits them
alike; the table gives the median time and its ratio to the memory floor
(``np.copyto`` of the output's bytes, one thread). The order of the variants
rotates every round and calls are 20 ms apart, so that a peer's lingering
worker threads (XLA spins after returning) do not slow the next variant. Peak memory is measured
separately with ``tracemalloc`` (NumPy reports its buffers to it): the bytes
allocated during one call beyond the inputs, as a multiple of the output.

Workloads (f32):
  (a) out = (x + row) * col - 0.5 * x
  (b) an 8-op chain with row, column and scalar broadcasts:
      out = (((((x * col + row) * 0.5 - x) max 0) + row) * col) - 1.5
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import tracemalloc

import numpy as np

import bcast

HERE = os.path.dirname(os.path.abspath(__file__))
PAUSE = 0.02
"""Seconds between timed calls (not timed)."""


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


NUMEXPR = {
    "a": "(x + row) * col - 0.5 * x",
    "b": "(where((x * col + row) * 0.5 - x > 0, (x * col + row) * 0.5 - x, 0) + row) * col - 1.5",
}


def peers(workload: str, n: int):
    """(name, callable) pairs for one workload; inputs bound later."""
    eager = numpy_a if workload == "a" else numpy_b
    pre = numpy_a_out if workload == "a" else numpy_b_out
    program = (program_a if workload == "a" else program_b)(n)
    fn = bcast.compile(program, backend="numpy")
    out = np.empty((n, n), np.float32)
    tmp = np.empty((n, n), np.float32)
    variants = [
        ("numpy eager", lambda x, r, c: eager(x, r, c)),
        ("numpy out=", lambda x, r, c: pre(x, r, c, out, tmp)),
    ]
    try:
        import numexpr

        expr = NUMEXPR[workload]
        variants.append(("numexpr", lambda x, r, c: numexpr.evaluate(
            expr, local_dict={"x": x, "row": r, "col": c}, out=out)))
    except ImportError:
        pass
    try:
        import jax
        import jax.numpy as jnp

        def jax_a(x, r, c):
            return (x + r) * c - jnp.float32(0.5) * x

        def jax_b(x, r, c):
            return (jnp.maximum((x * c + r) * jnp.float32(0.5) - x, 0) + r) * c - jnp.float32(1.5)

        jitted = jax.jit(jax_a if workload == "a" else jax_b)
        device: dict[int, object] = {}

        def on_device(a):  # inputs live on the device, as in a jax program
            if id(a) not in device:
                device[id(a)] = jax.device_put(a)
            return device[id(a)]

        variants.append(("jax.jit", lambda x, r, c: jitted(
            on_device(x), on_device(r), on_device(c)).block_until_ready()))
    except ImportError:
        pass
    out2 = np.empty((n, n), np.float32)
    variants += [
        ("bcast numpy", lambda x, r, c: fn(x, r, c)),
        ("bcast numpy out=", lambda x, r, c: fn(x, r, c, out=out2)),
    ]
    floor_out = np.empty((n, n), np.float32)
    variants.append(("memory floor (copyto)", lambda x, r, c: np.copyto(floor_out, x)))
    return variants, fn


def peak_bytes(call, args) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    call(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return max(0, peak - base)


def check(fn, eager, args) -> None:
    got, want = fn(*args), eager(*args)
    if not np.allclose(got, want, rtol=1e-5, atol=1e-5):
        raise SystemExit("bcast result differs from NumPy's; benchmark aborted")


def run(sizes: list[int], repeats: int, workloads: list[str]) -> None:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or '?'}; "
          f"python {platform.python_version()}, numpy {np.__version__}; "
          f"bcast threads: {os.environ.get('BCAST_NUM_THREADS', os.cpu_count())}")
    rng = np.random.default_rng(0)
    for workload in workloads:
        for n in sizes:
            x = rng.standard_normal((n, n), dtype=np.float32)
            row = rng.standard_normal(n, dtype=np.float32)
            col = rng.standard_normal((n, 1), dtype=np.float32)
            args = (x, row, col)
            variants, fn = peers(workload, n)
            check(fn, numpy_a if workload == "a" else numpy_b, args)
            times: dict[str, list[float]] = {name: [] for name, _ in variants}
            for _, call in variants:  # warm up (jit compiles, pages fault in)
                call(*args)
            for round_ in range(repeats):
                # Rotate the order each round, and pause between calls: some
                # peers (XLA's thread pool) spin after returning and would slow
                # down whichever variant runs next.
                k = round_ % len(variants)
                for name, call in variants[k:] + variants[:k]:
                    time.sleep(PAUSE)
                    t0 = time.perf_counter()
                    call(*args)
                    times[name].append(time.perf_counter() - t0)
            floor = statistics.median(times["memory floor (copyto)"])
            out_bytes = n * n * 4
            print(f"\nworkload ({workload}), {n}x{n} f32, median of {repeats} interleaved rounds")
            print(f"{'variant':24} {'median ms':>10} {'x floor':>8} {'x eager':>8} {'peak alloc':>12}")
            eager_t = statistics.median(times["numpy eager"])
            for name, call in variants:
                t = statistics.median(times[name])
                peak = peak_bytes(call, args)
                print(f"{name:24} {t * 1e3:10.2f} {t / floor:8.2f} {eager_t / t:8.2f} "
                      f"{peak / out_bytes:10.2f}x")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--workloads", nargs="+", default=["a", "b"], choices=["a", "b"])
    args = p.parse_args(argv)
    run(args.sizes, args.repeats, args.workloads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
