"""Where two threads pay off (ISSUE24 items 3 and 4): the C backend's
program for each of run.py's workloads, built with its outermost parallel
loop on threads whatever its size (``bcast-plan-parallel`` told so), timed
on one thread (``omp_set_num_threads(1)``, the same library) and on all,
interleaved as run.py times its variants (rounds in turn, ``run.PAUSE``
apart, a call shorter than ``run.MIN_TIMED`` timed as a batch), at each size.

    python benchmarks/threads_threshold.py [--sizes 128 256 512 1024 2048 4096]
                                           [--workloads a b softmax layernorm]
                                           [--repeats 9] [--settings own shared]

``own``: a child process that loads only bcast; ``shared``: a child that
also times numba's and jax's variants (run.GROUPS) in the same rotation,
so their thread pools are loaded and used between bcast's calls, as in
run.py's shared process (and, as there, numba loads libgomp first, with
libgomp's own default spin). Each (workload, size, setting) is a fresh child
with an empty bcast cache (``BCAST_CACHE_DIR``), so no saved program built
with the real threshold is reused. The table gives the medians and the
median over rounds of the paired ratio (all threads / one thread): below 1,
threads pay off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (benchmarks/run.py: workloads, inputs, peers, timing)

import bcast  # noqa: E402


def threads_everywhere() -> None:
    """Make ``bcast-plan-parallel`` put every parallel nest on threads (its
    ``min_work`` 0), and the run-time size test of nests with ``?`` bounds
    pass, for this process's compiles."""
    from bcast.passes.loops import plan_parallel

    plan = plan_parallel.plan

    def on_threads(op, min_work, threaded):
        return plan(op, 0, threaded)

    plan_parallel.plan = on_threads


def child(setting: str, workload: str, n: int, repeats: int) -> None:
    threads_everywhere()
    args = run.inputs(workload, n, np.random.default_rng(0))
    peers = []  # first, as in run.py, whose numba loads libgomp before bcast does
    if setting == "shared":
        peers = [v for group in ("numba", "jax") for v in run.GROUPS[group](workload, n, args) if v.call is not None]
        for v in peers:
            v.call(*args)
    before = run._mapped_files()
    fn = bcast.compile(run.PROGRAM[workload](n), backend="c")
    fn(*args)
    if "#pragma omp parallel" not in fn.c_source:
        raise SystemExit(f"{workload} {n}: no parallel region even with min_work 0")
    omp = run._find_openmp(run._mapped_files() - before)
    if omp is None or omp.every < 2:
        raise SystemExit("no OpenMP runtime with more than one thread in the library")
    out = np.empty((n, n), np.float32)
    into = lambda *a: fn(*a, out=out)  # noqa: E731
    variants = [run.Variant(f"{omp.every}t", into), run.Variant("1t", omp.one_thread(into)), *peers]
    flush = run.Flush() if n * n * 4 >= run.COLD_BYTES else None
    times = run.time_variants(variants, args, repeats, flush)
    ratios = [t / o for t, o in zip(times[f"{omp.every}t"], times["1t"])]
    print(json.dumps({"all": statistics.median(times[f"{omp.every}t"]), "one": statistics.median(times["1t"]),
                      "ratio": statistics.median(ratios), "threads": omp.every,
                      "peers": {v.name: statistics.median(times[v.name]) for v in variants[2:]}}))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[128, 256, 512, 1024, 2048, 4096])
    p.add_argument("--workloads", nargs="+", default=run.WORKLOADS, choices=run.WORKLOADS)
    p.add_argument("--repeats", type=int, default=9)
    p.add_argument("--settings", nargs="+", default=["own", "shared"], choices=["own", "shared"])
    p.add_argument("--child", nargs=4, metavar=("SETTING", "WORKLOAD", "N", "REPEATS"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        setting, workload, n, repeats = args.child
        child(setting, workload, int(n), int(repeats))
        return 0
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
          f"medians of {args.repeats} rounds, ms; ratio: median of paired (all threads / one thread)")
    print(f"{'workload':10} {'n':>5} {'setting':7} {'1t':>9} {'all':>9} {'ratio':>6}  peers")
    for workload in args.workloads:
        for n in args.sizes:
            for setting in args.settings:
                with tempfile.TemporaryDirectory() as cache:
                    done = subprocess.run([sys.executable, __file__, "--child", setting, workload, str(n),
                                           str(args.repeats)], capture_output=True, text=True,
                                          env={**os.environ, "BCAST_CACHE_DIR": cache})
                if done.returncode != 0:
                    print(f"{workload:10} {n:5} {setting:7} failed: {done.stderr.strip()[-300:]}")
                    continue
                got = json.loads(done.stdout.strip().splitlines()[-1])
                peers = ", ".join(f"{name} {t * 1e3:.4g}" for name, t in got["peers"].items())
                print(f"{workload:10} {n:5} {setting:7} {got['one'] * 1e3:9.4g} {got['all'] * 1e3:9.4g} "
                      f"{got['ratio']:6.2f}  {peers}", flush=True)
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
