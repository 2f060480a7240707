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
                                        [--rounds 3] [--calls 9] [--threads]
                                        [--subjects "bcast c" numba "jax.jit donated"]

``--subjects`` times numba's kernel and jax.jit donated in the same three
settings as bcast's C call (each the subject of its own children, the
others run before it when shared), so that the table says both whether
bcast keeps its own-process time beside the others and whether it stays
ahead of them there (issue 24, item 3).

``--threads`` prints, per child, each thread's CPU time and involuntary
context switches during the timed calls (``busy_during``), each thread
tagged with the runtime whose first call started it ("before peers":
threads that existed before any peer ran, such as OpenBLAS's, started
when NumPy is imported).

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


OWNER: dict[int, str] = {}
"""Which runtime started each thread (the one whose first call it appeared in)."""


def _tids() -> set[int]:
    return {int(t) for t in os.listdir("/proc/self/task")}


def _peers_just_called(workload: str, n: int, args):
    """A call that runs numba, jax.jit donated and a BLAS product once each."""
    import jax
    import numba

    numba_call = run._numba(numba, workload, n)
    jax_call = run._jax_donated(jax, workload, n).call
    m = np.ones((256, 256), np.float32)
    for owner, first in (("numba", lambda: numba_call(*args)), ("xla", lambda: jax_call(*args)),
                         ("blas", lambda: np.matmul(m, m))):
        known = set(OWNER)
        first()
        OWNER.update({tid: owner for tid in _tids() - known})

    def call():
        numba_call(*args)
        jax_call(*args)
        np.matmul(m, m)
    return call


def thread_cpu() -> dict[tuple[int, str], tuple[int, int]]:
    """Each thread of this process (id, name): its CPU time in ns and its
    involuntary context switches so far (/proc's schedstat and status)."""
    got = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            with open(f"/proc/self/task/{tid}/status") as f:
                switches = next(int(line.split()[1]) for line in f if line.startswith("nonvoluntary_ctxt_switches"))
        except (OSError, StopIteration):  # the thread ended
            continue
        got[int(tid), name] = (ns, switches)
    return got


def busy_during(call) -> tuple[float, dict[str, tuple[float, int]]]:
    """Wall seconds of ``call`` and, by thread, the CPU ms and the
    involuntary switches of this process's threads while it ran: whether
    other runtimes' workers ran (spun) beside bcast's."""
    before = thread_cpu()
    t0 = time.perf_counter()
    call()
    wall = time.perf_counter() - t0
    after = thread_cpu()
    by_thread: dict[str, tuple[float, int]] = {}
    for (tid, name), (ns, sw) in after.items():
        ns0, sw0 = before.get((tid, name), (0, 0))
        key = "main" if tid == os.getpid() else f"{OWNER.get(tid, 'bcast/other')}[{tid}]"
        by_thread[key] = ((ns - ns0) / 1e6, sw - sw0)
    return wall, by_thread


def _subject(subject: str, workload: str, n: int, args):
    """The timed call of ``subject`` (``SUBJECTS``), writing into its own output."""
    if subject == "bcast c":
        fn = bcast.compile(run.PROGRAM[workload](n), backend="c")
        out = np.empty((n, n), np.float32)
        return lambda: fn(*args, out=out)
    if subject == "numba":
        import numba
        kernel = run._numba(numba, workload, n)
        return lambda: kernel(*args)
    import jax
    donated = run._jax_donated(jax, workload, n).call
    return lambda: donated(*args)


SUBJECTS = ("bcast c", "numba", "jax.jit donated")
"""What a child times: bcast's C backend (``out=``, all threads), numba's
``parallel=True`` kernel (preallocated output) and jax.jit donated, each
run.py's."""


def child(setting: str, workload: str, n: int, calls: int, threads: bool = False,
          subject: str = "bcast c") -> float:
    """Median seconds of one call of ``subject``, the peers run before each call if shared."""
    args = run.inputs(workload, n, np.random.default_rng(0))
    call = _subject(subject, workload, n, args)
    before = (lambda: None)
    if setting != "own":
        OWNER.update({tid: "before peers" for tid in _tids()})
        peers = _peers_just_called(workload, n, args)
        before = peers if setting == "shared" else (lambda: (peers(), time.sleep(PAUSE)))
    call()
    flush = run.Flush()
    times = []
    busy: dict[str, tuple[float, int]] = {}  # by thread, summed over the calls
    for _ in range(calls):
        before()
        flush()
        wall, by_thread = busy_during(call)
        times.append(wall)
        for name, (ms, sw) in by_thread.items():
            ms0, sw0 = busy.get(name, (0.0, 0))
            busy[name] = (ms0 + ms, sw0 + sw)
    if threads:
        print(f"{setting}: {calls} calls, {sum(times) * 1e3:.1f} ms wall, "
              f"{sum(ms for ms, _ in busy.values()):.1f} ms CPU in all; CPU ms and involuntary "
              "switches of each thread during them: " + ", ".join(
                  f"{name} {ms:.1f} ms/{sw}" for name, (ms, sw) in sorted(busy.items(), key=lambda kv: -kv[1][0])
                  if ms >= 0.05 or sw), file=sys.stderr)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--workloads", nargs="+", default=run.WORKLOADS, choices=run.WORKLOADS)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--calls", type=int, default=9)
    p.add_argument("--threads", action="store_true",
                   help="print each child's per-thread CPU time during the timed calls (stderr)")
    p.add_argument("--subjects", nargs="+", default=["bcast c"], choices=SUBJECTS,
                   help="what is timed in each setting (default: bcast c; the peers too for item 3's comparison)")
    p.add_argument("--child", choices=["own", "shared", "paused"], help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        print(child(a.child, a.workloads[0], a.size, a.calls, a.threads, a.subjects[0]))
        return 0
    print(f"{a.size}x{a.size} f32, median over {a.rounds} rounds of a child's median of {a.calls} calls (ms);"
          f" OPENBLAS_THREAD_TIMEOUT={os.environ.get('OPENBLAS_THREAD_TIMEOUT', 'unset')}")
    print(f"{'workload':12} {'subject':16} {'own process':>12} {'shared':>8} {'shared/own':>11} "
          f"{'paused':>8} {'paused/own':>11}")
    for workload in a.workloads:
        for subject in a.subjects:
            got: dict[str, list[float]] = {"own": [], "shared": [], "paused": []}
            for _ in range(a.rounds):
                for setting in got:
                    cmd = [sys.executable, os.path.abspath(__file__), "--child", setting, "--workloads",
                           workload, "--size", str(a.size), "--calls", str(a.calls),
                           "--subjects", subject] + (["--threads"] * a.threads)
                    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
                    if a.threads:
                        print(f"  {workload} {subject} {res.stderr.strip().splitlines()[-1]}")
                    got[setting].append(float(res.stdout.split()[-1]))
            own, shared, paused = (statistics.median(got[s]) for s in ("own", "shared", "paused"))
            print(f"{workload:12} {subject:16} {own * 1e3:12.3f} {shared * 1e3:8.3f} {shared / own:11.2f} "
                  f"{paused * 1e3:8.3f} {paused / own:11.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
