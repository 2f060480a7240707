"""Compile speed: how long reading, checking and rewriting bcast IR takes.

    python benchmarks/compile.py [--sizes 1000 10000] [--repeats 3] [--large]

Generates modules of about 1k and 10k ops (``--large`` adds 100k, which
takes several minutes per round) whose functions take the ``xla``, ``numpy``
and ``tml`` semantics in turn: chains of elementwise ops with implicit row
(``1xN``), column (``Nx1``), scalar and rank-changing vector broadcasts,
``compare`` and ``select``, and a reduction broadcast back against its
input, most values used twice; ``--function-ops`` ops per function. For each
module every variant runs as a subprocess, the variants interleaved in
rotating order each round so that machine noise hits them alike.

The ratio to ``xdsl-opt``'s own parse+verify+print of the same file is taken
on CPU time (user + system of the child, from ``os.wait4``'s rusage), not on
wall time: on a shared machine wall time mostly measures the other
processes, CPU time what the compiler did. The table gives the median CPU
and wall seconds, CPU time per op, both ratios, and the peak resident memory
of the process (``ru_maxrss``).

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
SEMANTICS = ("xla", "numpy", "tml")
UNIT_OPS = 9


def unit(k: int, v: str, semantics: str) -> tuple[list[str], str]:
    """Nine ops continuing the chain from ``%v`` under ``semantics``: implicit
    broadcasts of a row, a column and a scalar, a reduction whose result is
    broadcast back, ``compare`` and ``select``; returns them and the last value."""
    a, b, c, d, e, f, g, r, h = (f"%{n}{k}" for n in "abcdefgrh")
    if semantics == "xla":  # rank-changing broadcasts need broadcast_dimensions
        vector = f"{d} = bcast.add {c}, %vrow broadcast_dimensions = [1] : ({T}, {VROW}) -> {T}"
        reduce = [f"{r} = bcast.reduce maximum {g}, dims = [1] : ({T}) -> {VCOL}",
                  f"{h} = bcast.subtract {g}, {r} broadcast_dimensions = [0] : ({T}, {VCOL}) -> {T}"]
    else:  # numpy and tml: trailing alignment, keepdims for the column
        vector = f"{d} = bcast.add {c}, %vrow : ({T}, {VROW}) -> {T}"
        reduce = [f"{r} = bcast.reduce add {g}, dims = [1] keepdims : ({T}) -> {COL}",
                  f"{h} = bcast.divide {g}, {r} : ({T}, {COL}) -> {T}"]
    # tml compares and selects only operands of one shape (or a scalar)
    compare = f"{f} = bcast.compare GT, {e}, {a} : ({T}, {T}) -> {B}"
    return [
        f"{a} = bcast.add {v}, %row : ({T}, {ROW}) -> {T}",
        f"{b} = bcast.multiply {a}, %col : ({T}, {COL}) -> {T}",
        f"{c} = bcast.subtract {b}, %s : ({T}, {SCALAR}) -> {T}",
        vector,
        f"{e} = bcast.maximum {d}, %col : ({T}, {COL}) -> {T}",
        compare,
        f"{g} = bcast.select {f}, {e}, {b} : ({B}, {T}, {T}) -> {T}",
        *reduce,
    ], h


def module(ops: int, function_ops: int) -> tuple[str, int]:
    """A module of about ``ops`` ops, and its exact op count (module,
    functions and returns included). Functions take the three semantics in
    turn (a ``bcast.semantics`` attribute on each)."""
    units_per_function = max(1, (function_ops - 2) // UNIT_OPS)
    units = max(1, round(ops / UNIT_OPS))
    lines = ["builtin.module {"]
    count, k, fn = 1, 0, 0
    while k < units:
        n = min(units_per_function, units - k)
        semantics = SEMANTICS[fn % len(SEMANTICS)]
        lines.append(f"  func.func @f{fn}(%x: {T}, %row: {ROW}, %col: {COL}, %s: {SCALAR}, "
                     f"%vrow: {VROW}) -> {T} attributes {{bcast.semantics = \"{semantics}\"}} {{")
        v = "%x"
        for _ in range(n):
            body, v = unit(k, v, semantics)
            lines.extend("    " + line for line in body)
            k += 1
        lines.append(f"    func.return {v} : {T}")
        lines.append("  }")
        count += 2 + n * UNIT_OPS
        fn += 1
    lines.append("}")
    return "\n".join(lines) + "\n", count


def run_once(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (bytes) of one subprocess."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err[-2000:]}")
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return elapsed, usage.ru_utime + usage.ru_stime, rss


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
        startup = {name: statistics.median(run_once(argv)[1] for _ in range(repeats))
                   for name, argv in variants(empty, with_xdsl_pipeline)}
        print("start-up CPU (an empty module): " + ", ".join(f"{name} {t:.2f} s" for name, t in startup.items()))
        for size in sizes:
            text, count = module(size, function_ops)
            path = os.path.join(tmp, f"m{size}.mlir")
            with open(path, "w") as f:
                f.write(text)
            runs = variants(path, with_xdsl_pipeline)
            walls: dict[str, list[float]] = {name: [] for name, _ in runs}
            cpus: dict[str, list[float]] = {name: [] for name, _ in runs}
            peaks: dict[str, int] = {name: 0 for name, _ in runs}
            for round_ in range(repeats):
                k = round_ % len(runs)
                for name, argv in runs[k:] + runs[:k]:
                    wall, cpu, rss = run_once(argv)
                    walls[name].append(wall)
                    cpus[name].append(cpu)
                    peaks[name] = max(peaks[name], rss)
            base_cpu = statistics.median(cpus["xdsl-opt"])
            base_wall = statistics.median(walls["xdsl-opt"])
            print(f"\n{count} ops ({function_ops} per function), {len(text) / 1e6:.1f} MB of text, "
                  f"median of {repeats} interleaved rounds; ratios to xdsl-opt by CPU time (user+sys)")
            print(f"{'variant':20} {'CPU s':>7} {'wall s':>7} {'CPU us/op':>10} {'x xdsl-opt':>11} "
                  f"{'(wall x)':>9} {'peak RSS MB':>12}")
            for name, _ in runs:
                cpu, wall = statistics.median(cpus[name]), statistics.median(walls[name])
                per_op.setdefault(name, {})[count] = (cpu - startup[name]) / count
                print(f"{name:20} {cpu:7.2f} {wall:7.2f} {cpu / count * 1e6:10.1f} {cpu / base_cpu:11.2f} "
                      f"{wall / base_wall:9.2f} {peaks[name] / 2**20:12.0f}")
    counts = sorted({c for d in per_op.values() for c in d})
    if len(counts) > 1:
        ref = min(counts, key=lambda c: abs(c - 10000))
        print(f"\nper-op CPU time without start-up, relative to the {ref}-op module (1.00 = linear)")
        for name, by_count in per_op.items():
            ratios = "  ".join(f"{c}: {by_count[c] / by_count[ref]:.2f}" for c in counts)
            print(f"{name:20} {ratios}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    p.add_argument("--large", action="store_true", help="add the 100k-op module (minutes per round)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--function-ops", type=int, default=300,
                   help="ops per function (default 300: a 1k-op module has all three semantics)")
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
