"""Ordinary JAX functions, exported static and shape-polymorphic, run by bcast.

    python benchmarks/jax_probe.py [NAME ...] [--backends numpy c] [--sizes 1 3 8]

A probe from outside the corpus (``tests/jax_corpus.py`` holds the programs
the tests check; these are one-liners a JAX user writes without thinking of
bcast: ``jnp.linalg.norm``, ``jnp.tile``, ``jax.nn.gelu``, a CNN layer...).
Each function is exported twice with ``jax.export``: with static shapes, and
with its leading dim symbolic (``symbolic_shape("b, ...")``). Each export is
compiled once per backend and run (the static one at its size, the symbolic
one at every ``--sizes`` batch size) against ``jax.jit`` of the same function
on the same inputs. A row says per backend ``ok``, ``WRONG`` (a value
differs), ``refused: <the error's last words>`` (a located error: bcast does
not run it yet) or ``CRASH`` (anything else: a bug). The last lines count
exports that run on every backend, and the refusals by cause.
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Callable

import numpy as np

import bcast

try:
    import jax
    import jax.numpy as jnp
    from jax import export
except ImportError:  # pragma: no cover - the benchmark extra installs it
    sys.exit("benchmarks/jax_probe.py needs jax (pip install -e '.[jax]')")


def _conv(x):
    kernel = jnp.full((3, 3, 4, 4), 0.1, jnp.float32)
    return jax.lax.conv_general_dilated(x, kernel, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _while_to_tolerance(x):
    def step(state):
        v, k = state
        return 0.5 * (v + x / v), k + 1
    return jax.lax.while_loop(lambda s: (s[1] < 20) & (jnp.max(jnp.abs(s[0] * s[0] - x)) > 1e-5),
                              step, (x + 1.0, 0))[0]


ROW = (8, 4)
FUNCTIONS: dict[str, tuple[Callable, tuple[int, ...], Callable[[np.ndarray], np.ndarray] | None]] = {
    # name: (function, input shape, a map of the random input, or None)
    "where_clip": (lambda x: jnp.where(x > 0, jnp.clip(x, 0.1, 2.0), -x), ROW, None),
    "logsumexp": (lambda x: jax.nn.logsumexp(x, axis=-1), ROW, None),
    "var_std": (lambda x: jnp.var(x, axis=0) + jnp.std(x, axis=0), ROW, None),
    "norm": (lambda x: jnp.linalg.norm(x, axis=-1), ROW, None),
    "triu_gram": (lambda x: jnp.triu(x @ x.T), ROW, None),
    "eye": (lambda x: x @ (jnp.eye(4) * 2), ROW, None),
    "tile_repeat": (lambda x: jnp.tile(x, (2, 1)) + jnp.repeat(x, 2, axis=0), ROW, None),
    "stack_split": (lambda x: jnp.stack(jnp.split(x, 2, axis=1)).sum(0), ROW, None),
    "any_all": (lambda x: jnp.any(x > 1, axis=1) & jnp.all(x > -3, axis=1), ROW, None),
    "round_floor_sign": (lambda x: jnp.round(x) + jnp.floor(x) + jnp.sign(x) + jnp.ceil(x), ROW, None),
    "power_atan2": (lambda x: jnp.power(jnp.abs(x), 1.5) + jnp.arctan2(x, 1.0 + x * x), ROW, None),
    "remainder_floordiv": (lambda x: jnp.remainder(x, 0.7) + jnp.floor_divide(x, 0.3), ROW, None),
    "int_ops": (lambda x: ((x * 10).astype(jnp.int32) // 3 % 5 << 1 >> 1 ^ 3) | 1, ROW, None),
    "activations": (lambda x: jax.nn.silu(x) + jax.nn.softplus(x) + jax.nn.gelu(x, approximate=False)
                    + jax.nn.elu(x) + jax.nn.leaky_relu(x), ROW, None),
    "random_normal": (lambda x: x + jax.random.normal(jax.random.key(0), x.shape), ROW, None),
    "conv_same": (_conv, (2, 8, 8, 4), None),
    "max_pool": (lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2), (1, 2), "VALID"), ROW, None),
    "sort_rows": (lambda x: jnp.sort(x, axis=-1), ROW, None),
    "argsort_rows": (lambda x: jnp.argsort(x, axis=-1), ROW, None),
    "top_k": (lambda x: jax.lax.top_k(x, 2)[0], ROW, None),
    "fori_loop": (lambda x: jax.lax.fori_loop(0, 3, lambda i, v: v * 2 + i, x), ROW, None),
    "scan_rows": (lambda x: jax.lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(4), x)[1], ROW, None),
    "cond_on_data": (lambda x: jax.lax.cond(x.sum() > 0, lambda v: v * 2, lambda v: v - 1, x), ROW, None),
    "while_to_tolerance": (_while_to_tolerance, ROW, np.abs),
    "vmap_dot": (lambda x: jax.vmap(jnp.dot)(x, x), ROW, None),
    "grad_mse": (lambda x: jax.grad(lambda w: jnp.mean((x @ w - 1.0) ** 2))(jnp.ones(4)), ROW, None),
    "softmax_xent": (lambda x: -jnp.sum(jax.nn.log_softmax(x) * jax.nn.one_hot(jnp.argmax(x, -1), 4), -1),
                     ROW, None),
    "attention": (lambda x: jax.nn.softmax(x @ x.T / 2.0, axis=-1) @ x, ROW, None),
    "einsum": (lambda x: jnp.einsum("ij,kj->ik", x, x), ROW, None),
    "roll_rows": (lambda x: jnp.roll(x, 1, axis=0), ROW, None),
    "pad": (lambda x: jnp.pad(x, ((1, 1), (0, 2))), ROW, None),
    "take_columns": (lambda x: jnp.take(x, jnp.array([0, 2]), axis=1), ROW, None),
    "flip_cumsum": (lambda x: jnp.cumsum(jnp.flip(x, 0), axis=0), ROW, None),
    "nan_to_num_log": (lambda x: jnp.nan_to_num(jnp.log(x)), ROW, None),
    "outer_rows": (lambda x: jnp.outer(x[0], x[-1]), ROW, None),
    "expm1_log1p": (lambda x: jnp.expm1(x) + jnp.log1p(jnp.abs(x)), ROW, None),
    "median": (lambda x: jnp.median(x, axis=-1), ROW, None),
    "batched_matmul": (lambda x: jnp.matmul(x.reshape(x.shape[0], 2, 2), jnp.ones((2, 3))), ROW, None),
}


def exported(fn: Callable, shape: tuple[int, ...], symbolic: bool) -> str:
    dims = export.symbolic_shape("b, " + ", ".join(map(str, shape[1:]))) if symbolic else shape
    return export.export(jax.jit(fn))(jax.ShapeDtypeStruct(dims, jnp.float32)).mlir_module()


def outcome(text: str, fn: Callable, backend: str, inputs: list[np.ndarray]) -> str:
    """``ok``, ``WRONG``, ``refused: ...`` or ``CRASH ...`` of one export on one backend."""
    try:
        f = bcast.compile(text, backend=backend)
        for x in inputs:
            got = f(x)
            got = got[0] if isinstance(got, tuple) and len(got) == 1 else got
            want = np.asarray(jax.jit(fn)(x))
            if not (np.shape(got) == want.shape and
                    np.allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5, equal_nan=True)):
                return "WRONG"
        return "ok"
    except bcast.BcastError as e:
        return "refused: " + str(e).splitlines()[0].split("error: ", 1)[-1][:90]
    except Exception as e:  # a bug: say what
        return f"CRASH {type(e).__name__}: {str(e)[:80]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="functions to probe (default: all)")
    parser.add_argument("--backends", nargs="+", default=["numpy", "c"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1, 3, 8],
                        help="batch sizes the symbolic exports run at")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    runs, every, causes = 0, 0, collections.Counter()
    for name in args.names or FUNCTIONS:
        fn, shape, prepare = FUNCTIONS[name]
        for symbolic in (False, True):
            sizes = args.sizes if symbolic else [shape[0]]
            inputs = [rng.standard_normal((n, *shape[1:])).astype(np.float32) for n in sizes]
            inputs = [prepare(x) if prepare else x for x in inputs]
            try:
                text = exported(fn, shape, symbolic)
            except Exception as e:  # JAX itself cannot export it
                print(f"{name:20s} {'b' if symbolic else 'static':6s} jax cannot export: {str(e).splitlines()[0][:80]}")
                continue
            results = {b: outcome(text, fn, b, inputs) for b in args.backends}
            runs += 1
            every += all(r == "ok" for r in results.values())
            causes.update(r for r in results.values() if r != "ok")
            print(f"{name:20s} {'b' if symbolic else 'static':6s} "
                  + "  ".join(f"{b}: {r}" for b, r in results.items()), flush=True)
    print(f"\n{every} of {runs} exports run on {', '.join(args.backends)} to jax.jit's values"
          f" (symbolic ones at batch sizes {', '.join(map(str, args.sizes))})")
    for cause, count in causes.most_common():
        print(f"  {count} x {cause}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
