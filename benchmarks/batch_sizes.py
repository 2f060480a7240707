"""One program at ten batch sizes, compilation included: bcast compiles a
program with a dynamic batch dimension once; ``jax.jit`` compiles once per
shape.

    python benchmarks/batch_sizes.py [--backends c numpy] [--width 1024]
                                     [--sizes 1 3 8 17 32 64 100 128 250 256]
                                     [--rounds 3] [--program tanh|exact]

The program is ``tanh(x * scale + bias)`` over ``x: tensor<?xWxf32>`` with
``scale, bias: tensor<Wxf32>`` (a dense layer's epilogue), or with
``--program exact`` ``sqrt(abs(x * scale + bias))``, whose ops are all in
the first-call rule (``bcast.tools.first_calls``: a new program's first
calls run in NumPy while its C library builds); the batch sizes
are called in the order given, one call each. Each round is a fresh process
with an empty bcast cache (``BCAST_CACHE_DIR``) that has imported bcast and
jax already; the table gives the median over rounds of the whole sequence
(compiles and calls) and of the first call alone. Every result is checked
against NumPy.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time
import numpy as np
kind, width, tail = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
sizes = [int(s) for s in sys.argv[4:]]
rng = np.random.default_rng(0)
scale = rng.standard_normal(width).astype(np.float32)
bias = rng.standard_normal(width).astype(np.float32)
xs = [rng.standard_normal((b, width)).astype(np.float32) for b in sizes]
if kind == "jax":
    import jax, jax.numpy as jnp
    def f(x, s, b):
        v = x * s + b
        for op in tail:
            v = getattr(jnp, op)(v)
        return v
    f = jax.jit(f)
    run = lambda x: np.asarray(f(x, scale, bias).block_until_ready())
    start = time.perf_counter()
else:
    import bcast
    bcast.compile
    src = f'''func.func @main(%x: tensor<?x{width}xf32>, %s: tensor<{width}xf32>, %b: tensor<{width}xf32>) -> tensor<?x{width}xf32> {{
  %0 = bcast.multiply %x, %s : (tensor<?x{width}xf32>, tensor<{width}xf32>) -> tensor<?x{width}xf32>
  %1 = bcast.add %0, %b : (tensor<?x{width}xf32>, tensor<{width}xf32>) -> tensor<?x{width}xf32>
  {"".join(f"%{k + 2} = bcast.{op} %{k + 1} : tensor<?x{width}xf32>{chr(10)}  " for k, op in enumerate(tail))}func.return %{len(tail) + 1} : tensor<?x{width}xf32>
}}'''
    start = time.perf_counter()
    f = bcast.compile(src, backend=kind)
    run = lambda x: f(x, scale, bias)
first = None
results = []
for x in xs:
    results.append(run(x))
    if first is None:
        first = time.perf_counter() - start
total = time.perf_counter() - start
for x, got in zip(xs, results):
    expected = x * scale + bias
    for op in tail:
        expected = getattr(np, {"exponential": "exp"}.get(op, op))(expected)
    if not np.allclose(got, expected, rtol=1e-5, atol=1e-5):
        raise SystemExit(f"{kind}: wrong result at batch {x.shape[0]}")
print(json.dumps({"total": total, "first": first}))
"""


PROGRAMS = {"tanh": ["tanh"], "exact": ["abs", "sqrt"]}
"""The ``--program`` kinds: the unary ops applied to ``x * scale + bias``."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backends", nargs="+", default=["c", "numpy"])
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 3, 8, 17, 32, 64, 100, 128, 250, 256])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--program", choices=sorted(PROGRAMS), default="tanh",
                        help="the ops after x * scale + bias (PROGRAMS)")
    args = parser.parse_args()
    kinds = [*args.backends, "jax"]
    samples: dict[str, list[dict[str, float]]] = {k: [] for k in kinds}
    for _ in range(args.rounds):
        for kind in kinds:
            with tempfile.TemporaryDirectory(prefix="bcast-batch-") as cache:
                done = subprocess.run([sys.executable, "-c", CHILD, kind, str(args.width),
                                       ",".join(PROGRAMS[args.program]), *map(str, args.sizes)],
                                      capture_output=True, text=True, env=dict(os.environ, BCAST_CACHE_DIR=cache))
            if done.returncode != 0:
                raise SystemExit(f"{kind} failed:\n{done.stderr[-2000:]}")
            samples[kind].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"program {args.program}; {len(args.sizes)} batch sizes ({' '.join(map(str, args.sizes))}) x {args.width} f32, "
          f"median of {args.rounds} fresh processes (empty cache)")
    print("| variant | compiles | all sizes, compiles included (s) | first size (s) |")
    print("|---|---|---|---|")
    for kind in kinds:
        name = "jax.jit" if kind == "jax" else f"bcast {kind}"
        compiles = len(set(args.sizes)) if kind == "jax" else 1
        total = statistics.median(s["total"] for s in samples[kind])
        first = statistics.median(s["first"] for s in samples[kind])
        print(f"| {name} | {compiles} | {total:.3f} | {first:.3f} |")


if __name__ == "__main__":
    main()
