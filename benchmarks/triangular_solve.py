"""``triangular_solve`` on bcast's NumPy and C backends against ``jax.jit``
(LAPACK's ``strsm`` on a CPU): median CPU and wall time of interleaved calls.

    python benchmarks/triangular_solve.py [--n 512] [--rhs 512] [--repeats 7]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import bcast


def program(n: int, rhs: int) -> str:
    a, b = f"tensor<{n}x{n}xf32>", f"tensor<{n}x{rhs}xf32>"
    return (f"func.func @main(%a: {a}, %b: {b}) -> {b} {{\n"
            f"  %x = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, "
            f"transpose_a = NO_TRANSPOSE : ({a}, {b}) -> {b}\n  func.return %x : {b}\n}}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=512)
    parser.add_argument("--rhs", type=int, default=512)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((args.n, args.n)) + args.n * np.eye(args.n)).astype(np.float32)
    b = rng.standard_normal((args.n, args.rhs)).astype(np.float32)
    calls = {backend: bcast.compile(program(args.n, args.rhs), backend=backend) for backend in ("numpy", "c")}
    try:
        import jax

        solve = jax.jit(lambda a, b: jax.lax.linalg.triangular_solve(a, b, left_side=True, lower=True))
        calls["jax.jit"] = lambda a, b: np.asarray(solve(a, b).block_until_ready())
    except ImportError:
        pass
    want = np.linalg.solve(np.tril(a).astype(np.float64), b.astype(np.float64))
    for name, call in calls.items():
        np.testing.assert_allclose(call(a, b), want, rtol=1e-3, atol=1e-4, err_msg=name)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in calls}
    for _ in range(args.repeats):
        for name, call in calls.items():
            cpu, wall = time.process_time(), time.perf_counter()
            call(a, b)
            times[name].append((time.process_time() - cpu, time.perf_counter() - wall))
    print(f"triangular_solve {args.n}x{args.n}, {args.rhs} right-hand sides, f32 (median of {args.repeats})")
    for name, samples in times.items():
        cpu, wall = (float(np.median([s[k] for s in samples])) for k in (0, 1))
        print(f"{name:10s} CPU {cpu * 1e3:8.2f} ms   wall {wall * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
