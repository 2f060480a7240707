"""The hand-written bcast-IR equivalents of the JAX StableHLO exports.

``examples/jax/NAME.mlir`` mirrors ``tests/data/jax_exports/NAME.mlir``
op for op (two-step rank adds, rank-0 constants broadcast with ``dims = []``,
duplicated broadcasts, ``jnp.where`` through a private function and
``func.call``, ``convert``, ``compare``). For each file:

- it parses and verifies, and its signature matches the manifest (when the
  exports are present);
- the reference evaluator, on random inputs drawn from the function type,
  equals a NumPy implementation of the JAX expression;
- after ``bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize``
  the results are bit-identical, the number of ``broadcast_in_dim`` ops does
  not grow, no broadcast feeds another (two-step broadcasts are composed) and
  no two broadcasts are identical (duplicates merged);
- adding ``bcast-fuse`` keeps the results, and every elementwise op ends up
  inside a fusion;
- the NumPy backend (with its standard pipeline) agrees with the reference.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import bcast
from bcast.tests.programs import assert_identical
from bcast.tools.api import EXPLICIT_PIPELINE
from bcast.ir.parser import make_context
from bcast.ir.types import numpy_dtype as dtype_of
from bcast.lowering.reference import Evaluator
from bcast.tools.run import random_inputs
from bcast.tools import driver
from bcast.tools.driver import parse_pipeline

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "jax"
JAX_EXPORTS = Path(__file__).resolve().parent / "data" / "jax_exports"
"""Copies of the StableHLO modules JAX exported (real client input)."""
MANIFEST = JAX_EXPORTS / "manifest.json"
EXPLICIT = EXPLICIT_PIPELINE
FUSED = EXPLICIT + ",bcast-fuse"
SEEDS = (0, 1, 2)


def _chain5(x, row, col, s, m):
    return np.maximum((x + row) * col - s, m) / (x + np.float32(1.0))


# What each export computes, written with NumPy (read off the export text).
EXPECTED: dict[str, Callable[..., np.ndarray]] = {
    "add_row": lambda x, v: x + v,
    "mul_4d": lambda a, b: a * b,
    "cmp_gt": lambda a, b: a > b,
    "where": lambda c, x, y: np.where(c, x, y),
    "scalar_tensor": lambda s, x: s + x * np.float32(2.0),
    "int_ops": lambda a, b: (a + b) * np.int32(3) - (a & b),
    "bool_ops": lambda p, q, a: (p & ~q) | (a < np.int32(2)),
    "mixed_dtype": lambda x, i: x * i.astype(np.float32),
    "chain5": _chain5,
    "bench_fused": lambda x, row, col: (x + row[None, :]) * col[:, None] - np.float32(0.5) * x,
}

# Files whose JAX structure has a two-step (broadcast of a broadcast) rank add.
TWO_STEP = {"add_row", "mul_4d", "cmp_gt", "int_ops", "bool_ops", "mixed_dtype", "chain5",
            "bench_fused"}
# Files with duplicated identical broadcasts.
DUPLICATED = {"int_ops"}

NAMES = sorted(EXPECTED)


def test_every_example_is_covered():
    assert sorted(p.stem for p in EXAMPLES.glob("*.mlir")) == NAMES


def load(name: str, pipeline: str | None = None) -> ModuleOp:
    path = EXAMPLES / f"{name}.mlir"
    return driver.load(path.read_text(), str(path), pipeline=pipeline)


def inputs(module: ModuleOp, seed: int) -> list[np.ndarray]:
    return random_inputs(Evaluator(module).function("main"), seed)


def run(module: ModuleOp, args) -> np.ndarray:
    (result,) = Evaluator(module).call("main", list(args))
    return np.asarray(result)


def broadcasts(module: ModuleOp) -> list:
    return [op for op in module.walk() if op.name == "bcast.broadcast_in_dim"]


def broadcast_key(op) -> tuple:
    return (op.operand, str(op.properties), str(op.result.type))


@pytest.mark.parametrize("name", NAMES)
def test_verifies_and_matches_the_manifest(name):
    module = load(name)
    text = (EXAMPLES / f"{name}.mlir").read_text()
    assert text.startswith(f"// Mirrors the JAX export tests/data/jax_exports/{name}.mlir")
    assert module.attributes["bcast.semantics"].data == "xla"
    case = json.loads(MANIFEST.read_text())["cases"][name]
    function_type = Evaluator(module).function("main").function_type
    args = inputs(module, 0)
    assert [list(a.shape) for a in args] == [i["shape"] for i in case["inputs"]]
    assert [str(a.dtype) for a in args] == [i["dtype"] for i in case["inputs"]]
    outs = [dtype_of(t) for t in function_type.outputs.data]
    assert [str(d) for d in outs] == [o["dtype"] for o in case["outputs"]]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", NAMES)
def test_reference_equals_numpy_expression(name, seed):
    module = load(name)
    args = inputs(module, seed)
    want = np.asarray(EXPECTED[name](*args))
    assert_identical(run(module, args), want)


@pytest.mark.parametrize("name", NAMES)
def test_pipeline_preserves_results_and_does_not_grow_broadcasts(name):
    before = load(name)
    after = load(name, EXPLICIT)
    for seed in SEEDS:
        args = inputs(before, seed)
        assert_identical(run(after, args), run(before, args))

    n_before, n_after = len(broadcasts(before)), len(broadcasts(after))
    assert n_after <= n_before
    if name in TWO_STEP or name in DUPLICATED:
        assert n_after < n_before
    for op in broadcasts(after):
        assert getattr(op.operand.owner, "name", None) != "bcast.broadcast_in_dim", (
            "two-step broadcast left"
        )
    keys = [broadcast_key(op) for op in broadcasts(after)]
    assert len(keys) == len(set(keys)), "identical broadcasts not merged"


@pytest.mark.parametrize("name", NAMES)
def test_pipeline_is_a_fixed_point(name):
    ctx = make_context()
    module = load(name, EXPLICIT)
    once = str(module)
    parse_pipeline(EXPLICIT).apply(ctx, module)
    assert str(module) == once


@pytest.mark.parametrize("name", NAMES)
def test_fusion_preserves_results(name):
    before = load(name)
    fused = load(name, FUSED)
    assert any(op.name == "bcast.fusion" for op in fused.walk())
    for op in fused.walk():
        if op.name in ("bcast.add", "bcast.multiply", "bcast.select", "bcast.compare"):
            assert op.parent_op().name == "bcast.fusion", f"{op.name} left outside a fusion"
    for seed in SEEDS:
        args = inputs(before, seed)
        assert_identical(run(fused, args), run(before, args))


@pytest.mark.parametrize("name", NAMES)
def test_numpy_backend_agrees_with_reference(name):
    text = (EXAMPLES / f"{name}.mlir").read_text()
    reference = bcast.compile(text, backend="reference")
    numpy_backend = bcast.compile(text, backend="numpy")
    for seed in SEEDS:
        args = inputs(load(name), seed)
        assert_identical(np.asarray(numpy_backend(*args)), np.asarray(reference(*args)))
