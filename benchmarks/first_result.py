"""Time to first result: compiling a new program and calling it once.

    python benchmarks/first_result.py [--ops 10 1000] [--rounds 5] [--size 64] [--program chain]

The program is a chain of ``--ops`` elementwise ops, binary ones with an
implicit row broadcast (``v = op(v, row)``), on a ``--size`` square f32
``x``: by default add, multiply, subtract, maximum in turn; ``--program``
picks another cycle (``PROGRAMS``). Each measurement is a process of its
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

PROGRAMS = {
    "chain": ["add", "multiply", "subtract", "maximum"],
    "exact": ["divide", "abs", "sqrt", "add", "floor", "minimum"],
    "transcendental": ["add", "tanh", "multiply", "exponential"],
}
"""The ``--program`` kinds, each a cycle of ops (binary ones take the row):
``chain`` is in the first-call rule since it began; ``exact`` only in the
wider rule (division, ``sqrt``, ``floor``: exactly rounded, see
``bcast.tools.first_calls``); ``transcendental`` in none (``tanh`` and
``exp`` round otherwise in NumPy and in C)."""

CHILD = r"""
import json, sys, time
import numpy as np
kind, n_ops, size, cycle = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
UNARY = {"abs": "abs", "sqrt": "sqrt", "floor": "floor", "tanh": "tanh", "exponential": "exp"}
def step(lib, op, v, r):
    if op in UNARY:
        return getattr(lib, UNARY[op])(v)
    return getattr(lib, op)(v, r)
x = np.linspace(-1, 1, size * size, dtype=np.float32).reshape(size, size)
row = np.linspace(0.5, 1.5, size, dtype=np.float32)
expected = x.copy()
with np.errstate(all="ignore"):
    for k in range(n_ops):
        expected = step(np, cycle[k % len(cycle)], expected, row)
start = time.perf_counter()
if kind == "jax":
    import jax, jax.numpy as jnp
    imported = time.perf_counter()
    def f(v, r):
        for k in range(n_ops):
            v = step(jnp, cycle[k % len(cycle)], v, r)
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
        op = cycle[k % len(cycle)]
        if op in UNARY:
            lines.append(f"  %v{k} = bcast.{op} {v} : {t}")
        else:
            lines.append(f"  %v{k} = bcast.{op} {v}, %row : ({t}, tensor<{size}xf32>) -> {t}")
        v = f"%v{k}"
    lines += [f"  func.return {v} : {t}", "}"]
    compiled = bcast.compile("\n".join(lines), backend=kind)
    got = compiled(x, row)
done = time.perf_counter()
if not np.allclose(got, expected, rtol=1e-4, atol=1e-5, equal_nan=True):
    raise SystemExit(f"{kind}: wrong result")
times = {"import": imported - start, "first": done - imported}
if kind != "jax" and hasattr(compiled, "wait"):  # first calls in NumPy: when the library runs them
    compiled.wait()
    times["library"] = time.perf_counter() - imported
print(json.dumps(times))
"""


PYCACHE = tempfile.mkdtemp(prefix="bcast-first-pycache-")


def run_child(kind: str, ops: int, size: int, cache: str, first_calls: bool = True,
              program: str = "chain") -> dict[str, float]:
    env = dict(os.environ, BCAST_CACHE_DIR=cache, PYTHONPYCACHEPREFIX=PYCACHE,
               BCAST_FIRST_CALLS="1" if first_calls else "0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, "-c", CHILD, kind, str(ops), str(size), ",".join(PROGRAMS[program])],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def forget_programs(cache: str) -> None:
    """Keep the remembered probes only (no library, no saved program)."""
    for name in os.listdir(cache):
        if not name.startswith("probes-") and os.path.isfile(os.path.join(cache, name)):
            os.unlink(os.path.join(cache, name))


def measure(ops: int, size: int, rounds: int, program: str = "chain") -> dict[str, tuple[float, float]]:
    """Median (first-result, import) seconds of each variant."""
    samples: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bcast-first-") as cache:  # writes the bytecode
        for kind in ("c", "numpy"):
            run_child(kind, 2, size, cache)
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(prefix="bcast-first-") as cache:
            samples.setdefault("bcast c, fresh machine", []).append(run_child("c", ops, size, cache, program=program))
            forget_programs(cache)
            samples.setdefault("bcast c, new program", []).append(run_child("c", ops, size, cache, program=program))
            forget_programs(cache)
            samples.setdefault("bcast c, new program, BCAST_FIRST_CALLS=0", []).append(
                run_child("c", ops, size, cache, first_calls=False, program=program))
            samples.setdefault("bcast c, cached", []).append(run_child("c", ops, size, cache, program=program))
            samples.setdefault("bcast numpy", []).append(run_child("numpy", ops, size, cache, program=program))
            try:
                import jax  # noqa: F401 - only whether it is installed
            except ImportError:
                continue
            samples.setdefault("jax.jit", []).append(run_child("jax", ops, size, cache, program=program))
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
    parser.add_argument("--program", choices=sorted(PROGRAMS), default="chain",
                        help="the ops of the chain (PROGRAMS)")
    args = parser.parse_args()
    print(f"program {args.program}: {', '.join(PROGRAMS[args.program])}; load average before: "
          f"{' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    print(f"| variant | {' | '.join(f'{n} ops: first result (s)' for n in args.ops)} | import (s) |")
    print(f"|---|{'---|' * len(args.ops)}---|")
    tables = {n: measure(n, args.size, args.rounds, args.program) for n in args.ops}
    for name in tables[args.ops[0]]:
        cells = [f"{tables[n][name][0]:.3f}" for n in args.ops]
        print(f"| {name} | {' | '.join(cells)} | {tables[args.ops[0]][name][1]:.2f} |")
    print(f"load average after: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    shutil.rmtree(PYCACHE, ignore_errors=True)


if __name__ == "__main__":
    main()
