"""Compile speed: how long reading, checking and rewriting bcast IR takes.

    python benchmarks/compile.py [--sizes 1000 10000] [--repeats 3] [--large]

Generates modules of about 1k and 10k ops (``--large`` adds 100k, which
takes several minutes per round) under ``xla`` semantics: chains of
elementwise ops with implicit row (``1xN``), column (``Nx1``) and scalar
broadcasts, ``broadcast_dimensions`` (a vector as a row and as a column),
``compare`` and ``select``, most values used twice; ``--function-ops`` ops
per function. For each module every variant runs as a subprocess, the
variants interleaved in rotating order each round so that machine noise hits
them alike; the table gives the median wall time, the time per op, the ratio
to ``xdsl-opt``'s own parse+verify+print of the same file, and the peak
resident memory of the process (``ru_maxrss`` from ``os.wait4``).

Variants:
  xdsl-opt            xdsl-opt FILE (parse, verify, print; bcast through the plugin)
  bcast-opt           bcast-opt FILE (parse with locations, verify, print)
  bcast-opt standard  bcast-opt FILE -p <standard pipeline>
  xdsl-opt standard   xdsl-opt FILE -p <standard pipeline> (--with-xdsl-pipeline)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from bcast.tools.api import STANDARD_PIPELINE

BIN = os.path.dirname(sys.executable)
R, C = 8, 16
T = f"tensor<{R}x{C}xf32>"
B = f"tensor<{R}x{C}xi1>"
ROW, COL, SCALAR = f"tensor<1x{C}xf32>", f"tensor<{R}x1xf32>", "tensor<f32>"
VROW, VCOL = f"tensor<{C}xf32>", f"tensor<{R}xf32>"
UNIT_OPS = 7


def unit(k: int, v: str) -> tuple[list[str], str]:
    """Seven ops continuing the chain from ``%v``; returns them and the last value."""
    a, b, c, d, e, f, g = (f"%{n}{k}" for n in "abcdefg")
    return [
        f"{a} = bcast.add {v}, %row : ({T}, {ROW}) -> {T}",
        f"{b} = bcast.multiply {a}, %col : ({T}, {COL}) -> {T}",
        f"{c} = bcast.subtract {b}, %s : ({T}, {SCALAR}) -> {T}",
        f"{d} = bcast.add {c}, %vrow broadcast_dimensions = [1] : ({T}, {VROW}) -> {T}",
        f"{e} = bcast.maximum {d}, %vcol broadcast_dimensions = [0] : ({T}, {VCOL}) -> {T}",
        f"{f} = bcast.compare GT, {e}, {a} : ({T}, {T}) -> {B}",
        f"{g} = bcast.select {f}, {e}, {b} : ({B}, {T}, {T}) -> {T}",
    ], g


def module(ops: int, function_ops: int) -> tuple[str, int]:
    """A module of about ``ops`` ops, and its exact op count (module,
    functions and returns included)."""
    units_per_function = max(1, (function_ops - 2) // UNIT_OPS)
    units = max(1, round(ops / UNIT_OPS))
    lines = ['builtin.module attributes {bcast.semantics = "xla"} {']
    count, k, fn = 1, 0, 0
    while k < units:
        n = min(units_per_function, units - k)
        lines.append(f"  func.func @f{fn}(%x: {T}, %row: {ROW}, %col: {COL}, %s: {SCALAR}, "
                     f"%vrow: {VROW}, %vcol: {VCOL}) -> {T} {{")
        v = "%x"
        for _ in range(n):
            body, v = unit(k, v)
            lines.extend("    " + line for line in body)
            k += 1
        lines.append(f"    func.return {v} : {T}")
        lines.append("  }")
        count += 2 + n * UNIT_OPS
        fn += 1
    lines.append("}")
    return "\n".join(lines) + "\n", count


def run_once(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one subprocess."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err[-2000:]}")
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return elapsed, rss


def variants(path: str, with_xdsl_pipeline: bool) -> list[tuple[str, list[str]]]:
    xdsl_opt, bcast_opt = os.path.join(BIN, "xdsl-opt"), os.path.join(BIN, "bcast-opt")
    out = [
        ("xdsl-opt", [xdsl_opt, path]),
        ("bcast-opt", [bcast_opt, path]),
        ("bcast-opt standard", [bcast_opt, path, "-p", STANDARD_PIPELINE]),
    ]
    if with_xdsl_pipeline:
        out.append(("xdsl-opt standard", [xdsl_opt, path, "-p", STANDARD_PIPELINE]))
    return out


def run(sizes: list[int], repeats: int, function_ops: int, with_xdsl_pipeline: bool) -> None:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; python {platform.python_version()}; "
          f"standard pipeline: {STANDARD_PIPELINE}")
    per_op: dict[str, dict[int, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bcast-compile-") as tmp:
        empty = os.path.join(tmp, "empty.mlir")
        with open(empty, "w") as f:
            f.write("builtin.module {}\n")
        startup = {name: statistics.median(run_once(argv)[0] for _ in range(repeats))
                   for name, argv in variants(empty, with_xdsl_pipeline)}
        print("start-up (an empty module): " + ", ".join(f"{name} {t:.2f} s" for name, t in startup.items()))
        for size in sizes:
            text, count = module(size, function_ops)
            path = os.path.join(tmp, f"m{size}.mlir")
            with open(path, "w") as f:
                f.write(text)
            runs = variants(path, with_xdsl_pipeline)
            times: dict[str, list[float]] = {name: [] for name, _ in runs}
            peaks: dict[str, int] = {name: 0 for name, _ in runs}
            for round_ in range(repeats):
                k = round_ % len(runs)
                for name, argv in runs[k:] + runs[:k]:
                    seconds, rss = run_once(argv)
                    times[name].append(seconds)
                    peaks[name] = max(peaks[name], rss)
            base = statistics.median(times["xdsl-opt"])
            print(f"\n{count} ops ({function_ops} per function), {len(text) / 1e6:.1f} MB of text, "
                  f"median of {repeats} interleaved rounds")
            print(f"{'variant':20} {'median s':>9} {'us/op':>8} {'x xdsl-opt':>11} {'peak RSS MB':>12}")
            for name, _ in runs:
                t = statistics.median(times[name])
                per_op.setdefault(name, {})[count] = (t - startup[name]) / count
                print(f"{name:20} {t:9.2f} {t / count * 1e6:8.1f} {t / base:11.2f} {peaks[name] / 2**20:12.0f}")
    counts = sorted({c for d in per_op.values() for c in d})
    if len(counts) > 1:
        ref = min(counts, key=lambda c: abs(c - 10000))
        print(f"\nper-op time without start-up, relative to the {ref}-op module (1.00 = linear)")
        for name, by_count in per_op.items():
            ratios = "  ".join(f"{c}: {by_count[c] / by_count[ref]:.2f}" for c in counts)
            print(f"{name:20} {ratios}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    p.add_argument("--large", action="store_true", help="add the 100k-op module (minutes per round)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--function-ops", type=int, default=1000, help="ops per function (default 1000)")
    p.add_argument("--with-xdsl-pipeline", action="store_true",
                   help="also time the standard pipeline through xdsl-opt")
    p.add_argument("--emit", type=int, metavar="OPS", help="print a module of about OPS ops and stop")
    args = p.parse_args(argv)
    if args.emit:
        sys.stdout.write(module(args.emit, args.function_ops)[0])
        return 0
    sizes = args.sizes + ([100000] if args.large and 100000 not in args.sizes else [])
    run(sizes, args.repeats, args.function_ops, args.with_xdsl_pipeline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
