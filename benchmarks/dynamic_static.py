"""Dynamic against static: workloads (a), (b), softmax and layernorm of
``benchmarks/run.py`` with their leading dims ``?``, on the C backend.

    python benchmarks/dynamic_static.py [--sizes 1024 4096] [--repeats 15] [--clock cpu]

Both programs are compiled once; their calls are interleaved (static,
dynamic, dynamic, static, ...: the order alternates each round) so the
machine's noise falls on both alike, and the table gives each one's median
and the ratio of the medians (docs/performance.md, "Dynamic shapes"). A call
shorter than ``run.MIN_TIMED`` is timed as a batch of back-to-back calls
lasting about that long, the same count for both (at 1024x1024 a call takes
0.1 ms: timed one at a time, 31 rounds measured 6 ms of work in all, and
the ratio moved by 0.2 between runs). ``--clock cpu`` times the process's
CPU time instead of the wall clock: it leaves out the time the process
waits for a core, which on a loaded machine is most of the wall time; with
``OMP_NUM_THREADS=1`` it is the one-thread cost of each program.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bcast  # noqa: E402
from bcast.tools.first_calls import wait_for_builds  # noqa: E402
from run import MIN_TIMED, PROGRAM  # noqa: E402


def dynamic_program(workload: str, n: int) -> str:
    """The static program with every leading dim ``?`` (rows of ``n`` stay)."""
    return PROGRAM[workload](n).replace(f"tensor<{n}x", "tensor<?x")


def arguments(workload: str, n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)).astype(np.float32)
    row = rng.standard_normal(n).astype(np.float32)
    if workload in ("a", "b"):
        return [x, row, rng.standard_normal((n, 1)).astype(np.float32)]
    if workload == "softmax":
        return [x]
    return [x, row, rng.standard_normal(n).astype(np.float32)]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def measure(workload: str, n: int, repeats: int, clock=time.perf_counter) -> tuple[float, float]:
    static = bcast.compile(PROGRAM[workload](n), backend="c")
    dynamic = bcast.compile(dynamic_program(workload, n), backend="c")
    wait_for_builds()  # a static program of the first-calls rule runs NumPy until its library is built
    args = arguments(workload, n)
    np.testing.assert_allclose(dynamic(*args), static(*args), rtol=1e-5, atol=1e-5)
    start = time.perf_counter()
    static(*args)
    batch = max(1, int(MIN_TIMED / max(time.perf_counter() - start, 1e-9)))
    times: dict[str, list[float]] = {"static": [], "dynamic": []}
    variants = [("static", static), ("dynamic", dynamic)]
    for round_ in range(repeats):
        for name, f in variants[::-1] if round_ % 2 else variants:
            start = clock()
            for _ in range(batch):
                f(*args)
            times[name].append((clock() - start) / batch)
    return statistics.median(times["static"]), statistics.median(times["dynamic"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--workloads", nargs="+", default=["a", "b", "softmax", "layernorm"])
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args()
    print("| workload | n | static (ms) | dynamic (ms) | dynamic / static |")
    print("|---|---|---|---|---|")
    for workload in args.workloads:
        for n in args.sizes:
            s, d = measure(workload, n, args.repeats, CLOCKS[args.clock])
            print(f"| {workload} | {n} | {s * 1e3:.2f} | {d * 1e3:.2f} | {d / s:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
