"""Time to first result: compiling a new program and calling it once.

    python benchmarks/first_result.py [--ops 10 1000] [--rounds 5] [--size 64]

The program is a chain of ``--ops`` elementwise ops, each with an implicit
row broadcast (``v = op(v, row)``: add, multiply, subtract, maximum in
turn) on a ``--size`` square f32 ``x``. Each measurement is a process of its
own that has already imported its library (``import bcast``, or ``jax``
and ``jax.numpy``; importing is a cost a user pays once per process, not
per program, and is reported in its own column), and then times
``bcast.compile(...)`` plus the first call, or ``jax.jit(f)`` plus the
first call with ``block_until_ready``. The first call's result is checked
against NumPy.

bcast's C backend is measured in three states of its cache directory
(``BCAST_CACHE_DIR``, a new temporary one per process):

- ``fresh machine``: empty: the compiler probes run, then the build;
- ``new program``: the probes remembered (a machine that has built any
  program before), the program's library not: a program of the first-call
  rule (``bcast.tools.first_calls``, which this one is) returns at once and
  its first call runs in NumPy while the library builds; the row ``library
  ready`` is when the library runs the calls (after the first result);
  ``BCAST_FIRST_CALLS=0`` waits for the library, as every new program did
  before;
- ``cached``: the program compiled before: its saved entry and library
  are loaded, without parsing (docs/c-backend.md, "Build and cache").

jax.jit has its persistent compilation cache off (its default), so every
process compiles. The table gives the median over ``--rounds`` processes.

Every child finds its modules' bytecode compiled, as an installed package
does (the children write it to a pycache directory of this run, whatever
``PYTHONDONTWRITEBYTECODE`` says, and a warm-up child of each kind runs
first): compiling bcast's ``.py`` files is an installation cost, about
0.13 s on this machine, not a cost of a program.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time
import numpy as np
kind, n_ops, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ops = ["add", "multiply", "subtract", "maximum"]
x = np.linspace(-1, 1, size * size, dtype=np.float32).reshape(size, size)
row = np.linspace(0.5, 1.5, size, dtype=np.float32)
expected = x.copy()
for k in range(n_ops):
    expected = getattr(np, ops[k % 4])(expected, row)
start = time.perf_counter()
if kind == "jax":
    import jax, jax.numpy as jnp
    imported = time.perf_counter()
    def f(v, r):
        for k in range(n_ops):
            v = getattr(jnp, ops[k % 4])(v, r)
        return v
    got = np.asarray(jax.jit(f)(x, row).block_until_ready())
else:
    import bcast
    bcast.compile  # the lazy import of the API
    imported = time.perf_counter()
    t = f"tensor<{size}x{size}xf32>"
    lines = [f"func.func @main(%x: {t}, %row: tensor<{size}xf32>) -> {t} {{"]
    v = "%x"
    for k in range(n_ops):
        lines.append(f"  %v{k} = bcast.{ops[k % 4]} {v}, %row : ({t}, tensor<{size}xf32>) -> {t}")
        v = f"%v{k}"
    lines += [f"  func.return {v} : {t}", "}"]
    compiled = bcast.compile("\n".join(lines), backend=kind)
    got = compiled(x, row)
done = time.perf_counter()
if not np.allclose(got, expected, rtol=1e-5, atol=1e-5):
    raise SystemExit(f"{kind}: wrong result")
times = {"import": imported - start, "first": done - imported}
if kind != "jax" and hasattr(compiled, "wait"):  # first calls in NumPy: when the library runs them
    compiled.wait()
    times["library"] = time.perf_counter() - imported
print(json.dumps(times))
"""


PYCACHE = tempfile.mkdtemp(prefix="bcast-first-pycache-")


def run_child(kind: str, ops: int, size: int, cache: str, first_calls: bool = True) -> dict[str, float]:
    env = dict(os.environ, BCAST_CACHE_DIR=cache, PYTHONPYCACHEPREFIX=PYCACHE,
               BCAST_FIRST_CALLS="1" if first_calls else "0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", CHILD, kind, str(ops), str(size)],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def forget_programs(cache: str) -> None:
    """Keep the remembered probes only (no library, no saved program)."""
    for name in os.listdir(cache):
        if not name.startswith("probes-") and os.path.isfile(os.path.join(cache, name)):
            os.unlink(os.path.join(cache, name))


def measure(ops: int, size: int, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (first-result, import) seconds of each variant."""
    samples: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bcast-first-") as cache:  # writes the bytecode
        for kind in ("c", "numpy"):
            run_child(kind, 2, size, cache)
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(prefix="bcast-first-") as cache:
            samples.setdefault("bcast c, fresh machine", []).append(run_child("c", ops, size, cache))
            forget_programs(cache)
            samples.setdefault("bcast c, new program", []).append(run_child("c", ops, size, cache))
            forget_programs(cache)
            samples.setdefault("bcast c, new program, BCAST_FIRST_CALLS=0", []).append(
                run_child("c", ops, size, cache, first_calls=False))
            samples.setdefault("bcast c, cached", []).append(run_child("c", ops, size, cache))
            samples.setdefault("bcast numpy", []).append(run_child("numpy", ops, size, cache))
            try:
                import jax  # noqa: F401 - only whether it is installed
            except ImportError:
                continue
            samples.setdefault("jax.jit", []).append(run_child("jax", ops, size, cache))
    table = {name: (statistics.median(s["first"] for s in runs), statistics.median(s["import"] for s in runs))
             for name, runs in samples.items()}
    for name, runs in samples.items():  # first calls in NumPy: when the library took over
        if all("library" in s for s in runs):
            table[f"{name}: library ready"] = (statistics.median(s["library"] for s in runs), table[name][1])
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=64)
    args = parser.parse_args()
    print(f"| variant | {' | '.join(f'{n} ops: first result (s)' for n in args.ops)} | import (s) |")
    print(f"|---|{'---|' * len(args.ops)}---|")
    tables = {n: measure(n, args.size, args.rounds) for n in args.ops}
    for name in tables[args.ops[0]]:
        cells = [f"{tables[n][name][0]:.3f}" for n in args.ops]
        print(f"| {name} | {' | '.join(cells)} | {tables[args.ops[0]][name][1]:.2f} |")
    shutil.rmtree(PYCACHE, ignore_errors=True)


if __name__ == "__main__":
    main()
