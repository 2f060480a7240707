"""The C backend beside other runtimes' thread pools (ISSUE24 item 3): the
time of one ``out=`` call of bcast's C backend in a process of its own
against the same call in a process where XLA's and numba's pools and NumPy's
BLAS were just used (each timed C call comes right after a jax.jit donated
call, a numba call and a 256x256 ``np.matmul``, so their workers may still
be spinning). A third setting, ``paused``, sleeps ``PAUSE`` between the
peers and the C call: what it gains over ``shared`` is what the peers'
still-spinning workers cost; what remains is lasting (libgomp's settings,
placement). Every setting reads run.py's cache flush before each timed
call: without it the own process found its 4096x4096 arrays in the VM's
480 MiB L3 and the others did not (the peers' arrays had evicted them),
which made the shared setting 1.1-2.2x slower for a reason that is not
threads.

    python benchmarks/threads_beside.py [--size 4096] [--workloads a b softmax layernorm]
                                        [--rounds 3] [--calls 9]

Each round starts one child process per setting (own, shared) in turn, so
machine noise hits both alike; a child prints the median of its ``--calls``
timed calls, and the table gives the median over rounds. The workloads,
inputs and peers are run.py's (imported, not copied).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (benchmarks/run.py: workloads, inputs, peers)

import bcast  # noqa: E402


PAUSE = 0.05
"""Seconds the ``paused`` setting waits: over libgomp's default spin (about
14 ms, lowering/c_runtime.py's OPENMP_SPIN) and XLA's and OpenBLAS's."""


def _peers_just_called(workload: str, n: int, args):
    """A call that runs numba, jax.jit donated and a BLAS product once each."""
    import jax
    import numba

    numba_call = run._numba(numba, workload, n)
    jax_call = run._jax_donated(jax, workload, n).call
    m = np.ones((256, 256), np.float32)

    def call():
        numba_call(*args)
        jax_call(*args)
        np.matmul(m, m)
    return call


def child(setting: str, workload: str, n: int, calls: int) -> float:
    """Median seconds of one C ``out=`` call, the peers run before each call if shared."""
    args = run.inputs(workload, n, np.random.default_rng(0))
    fn = bcast.compile(run.PROGRAM[workload](n), backend="c")
    out = np.empty((n, n), np.float32)
    before = (lambda: None)
    if setting != "own":
        peers = _peers_just_called(workload, n, args)
        before = peers if setting == "shared" else (lambda: (peers(), time.sleep(PAUSE)))
    fn(*args, out=out)
    flush = run.Flush()
    times = []
    for _ in range(calls):
        before()
        flush()
        t0 = time.perf_counter()
        fn(*args, out=out)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--workloads", nargs="+", default=run.WORKLOADS, choices=run.WORKLOADS)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--calls", type=int, default=9)
    p.add_argument("--child", choices=["own", "shared", "paused"], help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        print(child(a.child, a.workloads[0], a.size, a.calls))
        return 0
    print(f"bcast C out=, {a.size}x{a.size} f32, median over {a.rounds} rounds of a child's "
          f"median of {a.calls} calls (ms)")
    print(f"{'workload':12} {'own process':>12} {'shared':>8} {'shared/own':>11} {'paused':>8} {'paused/own':>11}")
    for workload in a.workloads:
        got: dict[str, list[float]] = {"own": [], "shared": [], "paused": []}
        for _ in range(a.rounds):
            for setting in got:
                cmd = [sys.executable, os.path.abspath(__file__), "--child", setting, "--workloads",
                       workload, "--size", str(a.size), "--calls", str(a.calls)]
                res = subprocess.run(cmd, capture_output=True, text=True, check=True)
                got[setting].append(float(res.stdout.split()[-1]))
        own, shared, paused = (statistics.median(got[s]) for s in ("own", "shared", "paused"))
        print(f"{workload:12} {own * 1e3:12.3f} {shared * 1e3:8.3f} {shared / own:11.2f} "
              f"{paused * 1e3:8.3f} {paused / own:11.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
