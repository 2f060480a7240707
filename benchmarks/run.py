"""Benchmarks: bcast's NumPy backend against its peers and the memory floor.

    python benchmarks/run.py [--sizes 1024 4096] [--repeats 15]
                             [--workloads a b softmax layernorm]

For each workload and size, every variant is timed interleaved (one call of
each variant per round, rounds repeated) so that machine noise hits them
alike; the table gives the median time and its ratio to the memory floor
(``np.copyto`` of the output's bytes, one thread). The order of the variants
rotates every round and calls are 20 ms apart, so that a peer's lingering
worker threads (XLA spins after returning) do not slow the next variant. Peak memory is measured
separately with ``tracemalloc`` (NumPy reports its buffers to it): the bytes
allocated during one call beyond the inputs, as a multiple of the output.
XLA allocates outside tracemalloc's view, so jax's peak is shown as "n/a".
bcast's NumPy backend recycles result buffers the caller has dropped and
keeps its block scratch buffers across calls (``bcast.lowering.numpy_runtime``
``output``/``scratch``), so its steady-state column excludes memory it holds
between calls; NumPy eager allocates its result afresh every call.

Before timing, every variant's result is compared with NumPy eager's
(``allclose`` with the workload's tolerance); a variant that differs aborts
the run, naming itself. A peer that is not installed (numexpr, jax) is shown
as "absent" in the table.

Variants: bcast numpy backend (with and without ``out=``), NumPy eager, NumPy
with ``out=`` (hand-written, preallocated temporaries), numexpr (for the row
reductions, which numexpr lacks, NumPy with preallocated outputs; numexpr for
the elementwise parts), ``jax.jit`` (inputs already on the device,
``block_until_ready``), and the memory floor.

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
import importlib
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
FLOOR = "memory floor (copyto)"
UNTRACED = {"jax.jit"}
"""Variants whose allocations tracemalloc cannot see."""


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


def _jax(jax, workload: str):
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

    jitted = jax.jit({"a": jax_a, "b": jax_b, "softmax": jax_softmax, "layernorm": jax_layernorm}[workload])
    device: dict[int, object] = {}

    def on_device(a):  # inputs live on the device, as in a jax program
        if id(a) not in device:
            device[id(a)] = jax.device_put(a)
        return device[id(a)]

    return lambda *args: jitted(*map(on_device, args)).block_until_ready()


def peers(workload: str, n: int):
    """(name, callable or None if not installed) pairs for one workload; inputs bound later."""
    eager = EAGER[workload]
    fn = bcast.compile(PROGRAM[workload](n), backend="numpy")
    variants = [
        ("numpy eager", eager),
        ("numpy out=", _numpy_out(workload, n)),
    ]
    ne = _optional("numexpr")
    variants.append(("numexpr", _numexpr(ne, workload, n) if ne is not None else None))
    jax = _optional("jax")
    variants.append(("jax.jit", _jax(jax, workload) if jax is not None else None))
    out2 = np.empty((n, n), np.float32)
    variants += [
        ("bcast numpy", lambda *args: fn(*args)),
        ("bcast numpy out=", lambda *args: fn(*args, out=out2)),
    ]
    floor_out = np.empty((n, n), np.float32)
    variants.append((FLOOR, lambda x, *_: np.copyto(floor_out, x)))
    return variants, fn


def peak_bytes(call, args) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    call(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return max(0, peak - base)


def check(variants, workload: str, args) -> None:
    """Every variant's result against NumPy eager's; abort naming the first that differs."""
    want = EAGER[workload](*args)
    assert want.dtype == np.float32, want.dtype
    rtol, atol = TOLERANCE[workload]
    for name, call in variants:
        if call is None or name == FLOOR:
            continue
        got = np.asarray(call(*args))
        if got.shape != want.shape or got.dtype != want.dtype:
            raise SystemExit(f"{workload}, {want.shape}: variant {name!r} returns {got.dtype}{got.shape}, "
                             f"NumPy eager {want.dtype}{want.shape}; benchmark aborted")
        if not np.allclose(got, want, rtol=rtol, atol=atol):
            err = np.max(np.abs(got.astype(np.float64) - want))
            raise SystemExit(f"{workload}, {want.shape}: variant {name!r} differs from NumPy eager "
                             f"(max abs error {err:.3g}; rtol={rtol}, atol={atol}); benchmark aborted")


def run(sizes: list[int], repeats: int, workloads: list[str]) -> None:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.processor() or '?'}; "
          f"python {platform.python_version()}, numpy {np.__version__}; "
          f"bcast threads: {os.environ.get('BCAST_NUM_THREADS', os.cpu_count())}")
    versions = []
    for module in ("numexpr", "jax"):
        mod = _optional(module)
        versions.append(f"{module} {mod.__version__ if mod is not None else 'absent'}")
    ne = _optional("numexpr")
    if ne is not None:
        versions[0] += f" ({ne.get_num_threads()} threads)"
    print("peers: " + ", ".join(versions))
    rng = np.random.default_rng(0)
    for workload in workloads:
        for n in sizes:
            args = inputs(workload, n, rng)
            variants, _ = peers(workload, n)
            check(variants, workload, args)
            present = [(name, call) for name, call in variants if call is not None]
            times: dict[str, list[float]] = {name: [] for name, _ in present}
            for _, call in present:  # warm up (jit compiles, pages fault in)
                call(*args)
            for round_ in range(repeats):
                # Rotate the order each round, and pause between calls: some
                # peers (XLA's thread pool) spin after returning and would slow
                # down whichever variant runs next.
                k = round_ % len(present)
                for name, call in present[k:] + present[:k]:
                    time.sleep(PAUSE)
                    t0 = time.perf_counter()
                    call(*args)
                    times[name].append(time.perf_counter() - t0)
            floor = statistics.median(times[FLOOR])
            out_bytes = n * n * 4
            print(f"\n{TITLE[workload]}, {n}x{n} f32, median of {repeats} interleaved rounds")
            print(f"{'variant':24} {'median ms':>10} {'x floor':>8} {'x eager':>8} {'peak alloc':>12}")
            eager_t = statistics.median(times["numpy eager"])
            for name, call in variants:
                if call is None:
                    print(f"{name:24} {'absent (not installed)':>28}")
                    continue
                t = statistics.median(times[name])
                if name in UNTRACED:
                    peak = f"{'n/a':>11}"
                else:
                    peak = f"{peak_bytes(call, args) / out_bytes:10.2f}x"
                print(f"{name:24} {t * 1e3:10.2f} {t / floor:8.2f} {eager_t / t:8.2f} {peak}")


WORKLOADS = ["a", "b", "softmax", "layernorm"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--workloads", nargs="+", default=["a", "b"], choices=WORKLOADS,
                   help="workloads to run (default: a b)")
    args = p.parse_args(argv)
    run(args.sizes, args.repeats, args.workloads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
