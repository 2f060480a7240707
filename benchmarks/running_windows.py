"""Running (cumulative) windows: bcast's scans against their window form, jax.jit and NumPy.

    python benchmarks/running_windows.py [--repeats 9] [--clock wall|cpu] [--no-jax-argmax]

Two programs (docs/performance.md, "Running windows"):

- ``cumsum``: ``jnp.cumsum(x, axis=1)`` of a 4096x4096 f32 (imported as
  ``bcast.cumulative``, one pass per row on C, ``np.add.accumulate`` on the
  numpy backend), against ``jax.jit`` and ``np.cumsum``.
- ``argmax``: the running argmax of 1000 places JAX writes as a two-input
  ``reduce_window`` (window 1000, padding 999 before it). bcast runs it as a
  scan (``evaluate.running_scan``); its window form, ``n * n`` body steps,
  is timed on the same build by passing the init values as arguments (a
  scan needs constant ones), which is the code bcast ran before the scan.
  NumPy's peer is a running maximum and the index of its last rise;
  ``jax.jit`` runs in a child process (XLA's compile of this window once
  aborted the process, tests/lowering/test_stablehlo_target.py).

Calls are interleaved (the order turns each round); medians; with ``--clock
cpu`` the process's CPU time (the C backend and XLA may use both cores, so
CPU time is the fairer count on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ARGMAX_N = 1000

WINDOW_FORM = """
func.func @main(%x: tensor<1000xf32>, %i: tensor<1000xi32>, %ninf: tensor<f32>, %minus1: tensor<i32>) -> tensor<1000xi32> {
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %minus1), window = [1000], strides = [1], base_dilations = [1], window_dilations = [1], low = [999], high = [0] : (tensor<1000xf32>, tensor<1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<1000xf32>, tensor<1000xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<1000xi32>
}
"""
"""The running argmax with its init values as arguments: no scan (the window form)."""

SCAN_FORM = WINDOW_FORM.replace(", %ninf: tensor<f32>, %minus1: tensor<i32>", "").replace(
    "  %r:2 =", "  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>\n"
    "  %minus1 = bcast.constant dense<-1> : tensor<i32>\n  %r:2 =")
"""The same program with constant init values: a scan."""


def cumsum_rows(x):
    import jax.numpy as jnp

    return jnp.cumsum(x, axis=1)


def numpy_running_argmax(x: np.ndarray) -> np.ndarray:
    """The first index of the running maximum: where the running maximum
    rises, carried forward (GT keeps the earlier of equal values)."""
    best = np.maximum.accumulate(x)
    rises = np.empty(x.shape, bool)
    rises[0] = True
    rises[1:] = x[1:] > best[:-1]
    return np.maximum.accumulate(np.where(rises, np.arange(x.size), 0)).astype(np.int32)


JAX_CHILD = """
import json, sys, time, statistics
import numpy as np
import jax, jax.numpy as jnp
clock = time.process_time if sys.argv[1] == "cpu" else time.perf_counter
repeats = int(sys.argv[2])
def larger(a, b):
    pick = b[0] > a[0]
    return jnp.where(pick, b[0], a[0]), jnp.where(pick, b[1], a[1])
def running_argmax(x):
    n = x.shape[0]
    return jax.lax.reduce_window((x, jnp.arange(n, dtype=jnp.int32)), (-jnp.inf, jnp.int32(-1)), larger,
                                 (n,), (1,), ((n - 1, 0),))[1]
x = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
f = jax.jit(running_argmax)
got = np.asarray(f(x))
times = []
for _ in range(repeats):
    start = clock(); f(x).block_until_ready(); times.append(clock() - start)
print(json.dumps({"median": statistics.median(times), "result": got.tolist()}))
"""


def main() -> None:
    import bcast

    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--no-jax-argmax", action="store_true")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"# {args.repeats} rounds, medians, {args.clock} time, load {os.getloadavg()[0]:.2f}")

    import jax

    x = np.random.default_rng(1).standard_normal((4096, 4096)).astype(np.float32)
    module = bcast.from_jax(cumsum_rows, x)
    jitted = jax.jit(cumsum_rows)
    runs = {"bcast c": bcast.compile(module, backend="c"), "bcast numpy": bcast.compile(module, backend="numpy"),
            "jax.jit": lambda a: jitted(a).block_until_ready(), "numpy": lambda a: np.cumsum(a, axis=1)}
    want = np.cumsum(x.astype(np.float64), axis=1)
    for name, f in runs.items():
        np.testing.assert_allclose(np.asarray(f(x), np.float64), want, rtol=1e-3, atol=1e-2, err_msg=name)
    report("cumsum 4096x4096 f32 along rows", runs, (x,), args.repeats, clock)

    v = np.random.default_rng(0).standard_normal(ARGMAX_N).astype(np.float32)
    index = np.arange(ARGMAX_N, dtype=np.int32)
    init = (np.float32(-np.inf), np.int32(-1))
    scan_c, scan_np = (bcast.compile(SCAN_FORM, backend=b) for b in ("c", "numpy"))
    window_c, window_np = (bcast.compile(WINDOW_FORM, backend=b) for b in ("c", "numpy"))
    runs = {"bcast c scan": lambda: scan_c(v, index), "bcast c window (before)": lambda: window_c(v, index, *init),
            "bcast numpy scan": lambda: scan_np(v, index),
            "bcast numpy window (before)": lambda: window_np(v, index, *init),
            "numpy": lambda: numpy_running_argmax(v)}
    want = numpy_running_argmax(v)
    for name, f in runs.items():
        np.testing.assert_array_equal(f(), want, err_msg=name)
    times = report(f"running argmax of {ARGMAX_N} places", runs, (), args.repeats, clock)
    if not args.no_jax_argmax:
        child = subprocess.run([sys.executable, "-c", JAX_CHILD, args.clock, str(args.repeats)],
                               capture_output=True, text=True, timeout=900)
        if child.returncode != 0:
            print(f"  jax.jit: the child process failed (exit {child.returncode}): {child.stderr.strip()[-200:]}")
        else:
            out = json.loads(child.stdout.strip().splitlines()[-1])
            assert out["result"] == want.tolist()
            print(f"  {'jax.jit (child process)':28s} {out['median'] * 1e3:9.3f} ms  "
                  f"{out['median'] / times['bcast c scan']:7.1f}x bcast c scan")
    print(f"# load after: {os.getloadavg()[0]:.2f}")


def report(title: str, runs: dict, args: tuple, repeats: int, clock) -> dict[str, float]:
    """Each of ``runs`` timed ``repeats`` times, interleaved, the order
    turning each round; prints and returns the medians (seconds)."""
    names = list(runs)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(repeats):
        for name in names[r % len(names):] + names[: r % len(names)]:
            start = clock()
            runs[name](*args)
            times[name].append(clock() - start)
    medians = {name: statistics.median(t) for name, t in times.items()}
    first = names[0]
    print(title)
    for name in names:
        print(f"  {name:28s} {medians[name] * 1e3:9.3f} ms  {medians[name] / medians[first]:7.1f}x {first}")
    return medians


if __name__ == "__main__":
    main()
