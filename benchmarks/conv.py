"""Convolutions of a CNN layer on the C backend against ``jax.jit`` and NumPy.

    python benchmarks/conv.py [--repeats 15] [--cases conv3x3 conv1x1 ...] [--clock wall|cpu]

Each case is a JAX function on an NHWC batch with an HWIO kernel; bcast
runs the module ``bcast.from_jax`` imports from it (the ``*_dyn`` cases:
``jax.export`` with a symbolic batch ``b``, compiled once, so the batch
dim is ``?``), on the C and the NumPy backend; ``jax.jit`` runs the
function itself (inputs on the device, ``block_until_ready``); "numpy"
is an eager reference: the padded input's windows
(``sliding_window_view``) contracted with the kernel by ``np.einsum``
(``optimize=True``, a BLAS product), then bias and relu.

Cases (x 8x32x32x32 f32):
- conv3x3: 3x3 SAME -> 64 features, + bias, relu (the CNN layer);
- conv1x1: 1x1 -> 64 features, + bias, relu;
- strided: 3x3 stride 2 SAME -> 64 features, + bias, relu;
- depthwise: 3x3 SAME, one group per input feature (32 -> 32);
- conv3x3_dyn, depthwise_dyn: the same with the batch ``?``;
- conv3x3_dyn_h: the CNN layer with a symbolic batch and height;
- cnn64 (x 8x64x64x16): 3x3 SAME -> 32 features, relu, no bias (the layer
  of docs/c-backend.md's "Convolutions over ``?`` spatial dims");
- cnn64_h: the same exported with a symbolic batch and height (``b, h``:
  ``?`` batch and height, a ``convolution``);
- cnn64_stride2, cnn64_h_stride2: 3x3 stride 2 SAME, static and with
  ``b, h`` symbolic (JAX's ``dynamic_conv``, its padding computed from
  ``h`` at run time).

Results are compared with jax.jit's before timing. Calls are interleaved
(the order reverses each round) so that the machine's noise falls on all
alike; the table gives medians in ms and bcast C's time over jax.jit's
(docs/performance.md, "Convolution on C"). ``--clock cpu`` times the
process's CPU time (``time.process_time``) instead of the wall clock: on
a machine shared with other work it is disturbed less, but it counts
every thread of the process, so another runtime's idle threads spinning
after its call (XLA's pool) land on whichever variant runs next:
``--variants`` times some alone (one process per variant for CPU time).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

BATCH = 8
SHAPE = (BATCH, 32, 32, 32)
OUT = 64
NHWC = ("NHWC", "HWIO", "NHWC")


def conv_layer(stride: int):
    def f(x, w, b):
        import jax

        y = jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME", dimension_numbers=NHWC)
        return jax.nn.relu(y + b)

    return f


def relu_layer(stride: int):
    def f(x, w):
        import jax

        return jax.nn.relu(jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME", dimension_numbers=NHWC))

    return f


def depthwise(x, w):
    import jax

    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=NHWC,
                                        feature_group_count=x.shape[-1])  # fmt: skip


def numpy_conv(x: np.ndarray, w: np.ndarray, stride: int, groups: int = 1) -> np.ndarray:
    """The SAME convolution as windows times the kernel (XLA's SAME: the
    extra padding at the high end)."""
    kh, kw, _, out = w.shape
    pads = []
    for size, k in zip(x.shape[1:3], (kh, kw)):
        total = max((-(-size // stride) - 1) * stride + k - size, 0)
        pads.append((total // 2, total - total // 2))
    p = np.pad(x, ((0, 0), *pads, (0, 0)))
    win = np.lib.stride_tricks.sliding_window_view(p, (kh, kw), axis=(1, 2))[:, ::stride, ::stride]
    if groups == 1:
        return np.einsum("nhwcij,ijco->nhwo", win, w, optimize=True)
    return np.einsum("nhwcij,ijc->nhwc", win, w[:, :, 0, :], optimize=True)


def numpy_layer(stride: int):
    return lambda x, w, b: np.maximum(numpy_conv(x, w, stride) + b, np.float32(0))


CNN64 = (8, 64, 64, 16)

CASES = {
    # name: (jax function, numpy function, argument shapes, symbolic dims of the first argument ("" or "b" or "b, h"))
    "conv3x3": (conv_layer(1), numpy_layer(1), [SHAPE, (3, 3, 32, OUT), (OUT,)], ""),
    "conv1x1": (conv_layer(1), numpy_layer(1), [SHAPE, (1, 1, 32, OUT), (OUT,)], ""),
    "strided": (conv_layer(2), numpy_layer(2), [SHAPE, (3, 3, 32, OUT), (OUT,)], ""),
    "depthwise": (depthwise, lambda x, w: numpy_conv(x, w, 1, groups=32), [SHAPE, (3, 3, 1, 32)], ""),
    "conv3x3_dyn": (conv_layer(1), numpy_layer(1), [SHAPE, (3, 3, 32, OUT), (OUT,)], "b"),
    "conv3x3_dyn_h": (conv_layer(1), numpy_layer(1), [SHAPE, (3, 3, 32, OUT), (OUT,)], "b, h"),
    "depthwise_dyn": (depthwise, lambda x, w: numpy_conv(x, w, 1, groups=32), [SHAPE, (3, 3, 1, 32)], "b"),
    "cnn64": (relu_layer(1), lambda x, w: np.maximum(numpy_conv(x, w, 1), np.float32(0)), [CNN64, (3, 3, 16, 32)], ""),
    "cnn64_h": (relu_layer(1), lambda x, w: np.maximum(numpy_conv(x, w, 1), np.float32(0)), [CNN64, (3, 3, 16, 32)],
                "b, h"),
    "cnn64_stride2": (relu_layer(2), lambda x, w: np.maximum(numpy_conv(x, w, 2), np.float32(0)),
                      [CNN64, (3, 3, 16, 32)], ""),
    "cnn64_h_stride2": (relu_layer(2), lambda x, w: np.maximum(numpy_conv(x, w, 2), np.float32(0)),
                        [CNN64, (3, 3, 16, 32)], "b, h"),
}


def module_of(fn, args: list[np.ndarray], dynamic: str):
    """What bcast compiles: the imported module, or with symbolic dims
    (``dynamic``: the first argument's leading dims, ``"b"`` or ``"b, h"``)
    the text of a shape-polymorphic export."""
    import bcast

    if not dynamic:
        return bcast.from_jax(fn, *args)
    import jax
    from jax import export

    dims = export.symbolic_shape(dynamic)
    specs = [jax.ShapeDtypeStruct((*dims, *a.shape[len(dims):]) if k == 0 else a.shape, a.dtype)
             for k, a in enumerate(args)]
    return export.export(jax.jit(fn))(*specs).mlir_module()


VARIANTS = ("bcast C", "bcast numpy", "jax.jit", "numpy")


def measure(name: str, repeats: int, clock, chosen: list[str]) -> dict[str, float]:
    import jax

    import bcast

    fn, eager, shapes, dynamic = CASES[name]
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    source = module_of(fn, args, dynamic)
    jitted = jax.jit(fn)
    device = [jax.device_put(a) for a in args]
    variants = {"bcast C": bcast.compile(source, backend="c"), "bcast numpy": bcast.compile(source, backend="numpy"),
                "jax.jit": lambda *_: jitted(*device).block_until_ready(), "numpy": eager}  # fmt: skip
    variants = {v: f for v, f in variants.items() if v in chosen}
    expected = np.asarray(jitted(*device))
    for v, f in variants.items():
        got = np.asarray(f(*args))
        if not np.allclose(got, expected, rtol=1e-4, atol=1e-3):
            raise SystemExit(f"{name}: {v} differs from jax.jit by {np.abs(got - expected).max()}")
    times: dict[str, list[float]] = {v: [] for v in variants}
    order = list(variants.items())
    for round_ in range(repeats):
        for v, f in order[::-1] if round_ % 2 else order:
            start = clock()
            f(*args)
            times[v].append(clock() - start)
    return {v: statistics.median(t) for v, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS,
                        help="the variants to time (one alone, with --clock cpu, keeps others' idle threads out)")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    print("| case | " + " | ".join(f"{v} (ms)" for v in args.variants) + " | C / jax.jit |  " + f"({args.clock} time)")
    print("|---|" + "---|" * (len(args.variants) + 1))
    for name in args.cases:
        t = measure(name, args.repeats, clock, args.variants)
        ratio = f"{t['bcast C'] / t['jax.jit']:.2f}x" if "bcast C" in t and "jax.jit" in t else "-"
        print(f"| {name} | " + " | ".join(f"{t[v] * 1e3:.2f}" for v in args.variants) + f" | {ratio} |", flush=True)

if __name__ == "__main__":
    main()
