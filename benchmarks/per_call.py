"""Per-call cost: what a compiled function costs on arrays so small that the
arithmetic is nothing (docs/contracts.md's argument and ``out=`` checks, the
result allocation and the call into native code are all of it).

    python benchmarks/per_call.py [--sizes 16 1] [--rounds 31] [--calls 2000]
                                  [--clock wall|cpu] [--profile c|numpy [--out]]

The program is ``tanh(x + row)`` on an n x n f32 ``x`` and an n ``row``.
Variants: bcast's C backend (with and without ``out=``), bcast's numpy
backend (with and without ``out=``), ``jax.jit`` (inputs on the device,
``block_until_ready``) and NumPy eager (``np.tanh(x + row)``, and with
``out=`` the ufuncs' own ``out=``: the floor the numpy backend is held to,
its cost plus 3 µs). ``--clock cpu`` times the calling thread's CPU
time (``time.thread_time_ns``), which other processes on a loaded
machine disturb far less than the wall clock. Each round
times ``--calls`` back-to-back calls of every variant in turn (the order
rotates each round, so machine noise hits them alike); the table gives the
median over rounds of the time per call, in microseconds. ``--profile``
runs cProfile over many calls of one bcast backend and prints the
functions the time goes to (``--out``: of its calls with ``out=``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from collections.abc import Callable

import numpy as np

import bcast


def program(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @main(%x: {t}, %row: tensor<{n}xf32>) -> {t} {{
  %0 = bcast.add %x, %row : ({t}, tensor<{n}xf32>) -> {t}
  %1 = bcast.tanh %0 : {t}
  func.return %1 : {t}
}}
"""


def variants(n: int) -> dict[str, Callable[[], object]]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)).astype(np.float32)
    row = rng.standard_normal(n).astype(np.float32)
    expected = np.tanh(x + row)
    out = np.empty_like(x)
    table: dict[str, Callable[[], object]] = {}
    for backend in ("c", "numpy"):
        f = bcast.compile(program(n), backend=backend)
        table[f"bcast {backend}"] = lambda f=f: f(x, row)
        table[f"bcast {backend} out="] = lambda f=f: f(x, row, out=out)
    try:
        import jax
        import jax.numpy as jnp

        jitted = jax.jit(lambda a, b: jnp.tanh(a + b))
        xd, rd = jax.device_put(x), jax.device_put(row)
        jitted(xd, rd).block_until_ready()
        table["jax.jit"] = lambda: jitted(xd, rd).block_until_ready()
    except ImportError:
        pass
    table["numpy eager"] = lambda: np.tanh(x + row)
    table["numpy eager out="] = lambda: np.tanh(np.add(x, row, out=out), out=out)
    for name, call in table.items():
        got = np.asarray(call() if "out=" not in name else (call(), out)[1])
        if not np.allclose(got, expected, rtol=1e-5, atol=1e-6):
            raise SystemExit(f"{name} computed a wrong result")
    return table


def measure(table: dict[str, Callable[[], object]], rounds: int, calls: int,
            clock: Callable[[], int] = time.perf_counter_ns) -> dict[str, float]:
    """Median over rounds of the time per call, in microseconds."""
    names = list(table)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            call = table[name]
            start = clock()
            for _ in range(calls):
                call()
            times[name].append((clock() - start) / calls / 1000)
    return {name: statistics.median(ts) for name, ts in times.items()}


def profile(backend: str, n: int, calls: int, with_out: bool = False) -> None:
    table = variants(n)
    call = table[f"bcast {backend}" + (" out=" if with_out else "")]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        call()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 1])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    parser.add_argument("--profile", choices=["c", "numpy"])
    parser.add_argument("--out", action="store_true", help="with --profile: profile the calls with out=")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, args.sizes[0], args.calls * 10, args.out)
        return 0
    clock = time.thread_time_ns if args.clock == "cpu" else time.perf_counter_ns
    results = {n: measure(variants(n), args.rounds, args.calls, clock) for n in args.sizes}
    names = list(next(iter(results.values())))
    header = "| variant | " + " | ".join(f"{n}x{n} (µs)" for n in args.sizes) + " |"
    print(header)
    print("|---|" + "---|" * len(args.sizes))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{results[n][name]:.2f}" for n in args.sizes) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
