"""matmul with batch dims that stretch at run time, on the C target: the
GEMM per batch element against the loop nest it replaced.

    python benchmarks/batched_matmul.py [--repeats 15] [--clock wall|cpu]

The program is ``tensor<?x1xMxK> @ tensor<BxKxN>`` (f32): the ``?`` batch
is the result's, the 1 stretches to B. Since the C target calls its GEMM
for it (one call per batch element, the operands' offsets computed from
strides of 0 where a batch dim is 1), the loop nest stays the fallback the
generated code runs while the GEMM pointer is NULL; this benchmark times
the same compiled function both ways, interleaved (the pointer set, then
cleared, per round), and prints the medians and their ratio, with NumPy's
``np.matmul`` (OpenBLAS, per batch element) as a peer.
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time

import numpy as np

import bcast
from bcast.lowering import c_emitter, c_runtime
from bcast.tools import api, driver, targets

CASES = [(16, 8, 64, 64, 64), (8, 4, 256, 256, 256), (4, 2, 3, 4, 6)]
"""(run-time batch, static batch B, M, K, N)."""


def program(b: int, m: int, k: int, n: int) -> str:
    a_t, b_t, r_t = f"tensor<?x1x{m}x{k}xf32>", f"tensor<{b}x{k}x{n}xf32>", f"tensor<?x{b}x{m}x{n}xf32>"
    return (f"func.func @main(%a: {a_t}, %b: {b_t}) -> {r_t} {{\n"
            f"  %0 = bcast.matmul %a, %b : ({a_t}, {b_t}) -> {r_t}\n  func.return %0 : {r_t}\n}}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"# (?,1,M,K) @ (B,K,N) f32 on C, {args.repeats} rounds, medians, {args.clock} time")
    print(f"{'? x B, M x K x N':<24}{'loop nest ms':>13}{'GEMM ms':>10}{'ratio':>8}{'np.matmul ms':>14}")
    for p, b, m, k, n in CASES:
        text = program(b, m, k, n)
        f = bcast.compile(text, backend="c")
        library = c_runtime.Library(c_emitter.emit_module(targets.loop_ir(
            driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)))[0], {})
        pointer = ctypes.c_void_p.in_dll(library.library, "bcast_blas_sgemm")
        gemm = pointer.value
        rng = np.random.default_rng(p)
        x, y = rng.standard_normal((p, 1, m, k), np.float32), rng.standard_normal((b, k, n), np.float32)
        want = x @ y
        out = np.empty_like(want)
        times: dict[str, list[float]] = {"nest": [], "gemm": [], "numpy": []}
        try:
            for _ in range(args.repeats):
                for name, value in (("gemm", gemm), ("nest", None)):
                    pointer.value = value
                    f(x, y, out=out)  # one untimed call: the same cache state for both
                    start = clock()
                    f(x, y, out=out)
                    times[name].append(clock() - start)
                    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
                start = clock()
                np.matmul(x, y, out=out)
                times["numpy"].append(clock() - start)
        finally:
            pointer.value = gemm
        nest, fast, ref = (statistics.median(times[key]) * 1e3 for key in ("nest", "gemm", "numpy"))
        print(f"{f'{p} x {b}, {m} x {k} x {n}':<24}{nest:>13.3f}{fast:>10.3f}{nest / fast:>7.1f}x{ref:>14.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
