"""``jnp.sort`` and ``jnp.argsort`` of an f32 matrix along its last axis:
bcast's C backend against ``jax.jit`` and NumPy.

    python benchmarks/sort.py [--sizes 1024x1024] [--repeats 11]

Each program is JAX's own export (``jax.export`` of ``jax.jit(fn)``),
imported by ``bcast.compile``. The variants are timed interleaved (one
call of each per round, the order rotating) so that machine noise hits them
alike; the table gives medians in ms and the ratio to ``jax.jit``'s.
Every variant's result is first checked equal to ``jax.jit``'s, bit for
bit (NaNs and ``-0.0`` included: the input has both, and ties).
Variants: bcast c (``bcast.compile(..., backend="c")``), jax.jit (inputs on
the device, ``block_until_ready``), numpy (``np.sort``/``np.argsort``, kind
``stable``: the same order for argsort; NumPy's sort places NaNs last too).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import bcast

PROGRAMS = {"sort": ("jnp.sort", np.sort), "argsort": ("jnp.argsort", np.argsort)}


def inputs(rows: int, cols: int) -> np.ndarray:
    """Normal f32 with some ties, NaNs and -0.0 (the orders' edge cases)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    x[rng.random(x.shape) < 0.01] = np.nan
    x[rng.random(x.shape) < 0.01] = -0.0
    x[rng.random(x.shape) < 0.05] = 1.0
    return x


def variants(name: str, x: np.ndarray) -> dict:
    import jax
    import jax.numpy as jnp

    fn = {"sort": lambda a: jnp.sort(a, axis=-1), "argsort": lambda a: jnp.argsort(a, axis=-1)}[name]
    jitted = jax.jit(fn)
    text = jax.export.export(jitted)(jax.ShapeDtypeStruct(x.shape, x.dtype)).mlir_module()
    compiled = bcast.compile(text, backend="c")
    on_device = jax.device_put(x)
    numpy_fn = PROGRAMS[name][1]
    return {"bcast c": lambda: compiled(x),
            "jax.jit": lambda: jitted(on_device).block_until_ready(),
            "numpy": lambda: numpy_fn(x, axis=-1, kind="stable")}


def measure(name: str, rows: int, cols: int, repeats: int) -> dict[str, float]:
    x = inputs(rows, cols)
    runs = variants(name, x)
    want = np.asarray(runs["jax.jit"]())
    for label, run in runs.items():
        got = np.asarray(run())
        if label == "numpy" and name == "argsort":
            got = got.astype(want.dtype)
        assert got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8)), label
    times: dict[str, list[float]] = {label: [] for label in runs}
    labels = list(runs)
    for r in range(repeats):
        for label in labels[r % len(labels):] + labels[:r % len(labels)]:
            start = time.perf_counter()
            runs[label]()
            times[label].append(time.perf_counter() - start)
    return {label: statistics.median(t) * 1e3 for label, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["1024x1024"])
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    print("| program | size | bcast c (ms) | jax.jit (ms) | numpy (ms) | c / jax.jit |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes:
        rows, cols = map(int, size.split("x"))
        for name in PROGRAMS:
            t = measure(name, rows, cols, args.repeats)
            print(f"| {PROGRAMS[name][0]} | {size} | {t['bcast c']:.1f} | {t['jax.jit']:.1f} | {t['numpy']:.1f} "
                  f"| {t['bcast c'] / t['jax.jit']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
