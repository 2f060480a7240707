"""Programs as deep as they are long: nothing recurses on the depth of a
program (use-def chains of thousands of ops), and nothing is exponential in
a diamond (every value used twice).

- a 10,000-op chain (``%v{i} = add %v{i-1}, %x``) and a 10,000-op diamond
  (``%v{i} = multiply %v{i-1}, %v{i-1}``) on every backend, through every
  pass alone and every ``bcast-opt`` target, against NumPy computing the
  same steps directly;
- a 10,000-op broadcasting program (an implicit row broadcast, a scalar
  constant, a transpose, a negate and a transpose back, repeated: 4,000
  fusions) on every backend, and the structure that keeps the NumPy
  target's code linear in it (no function nested in another);
- a 100,000-op module through parse, verify, the standard pipeline and print;
- the one recursion left, the parser's on regions nested hundreds deep, is
  a located error.

The quick run builds the chains, diamonds and broadcasting programs at
2,000 ops (``DEPTH``, ``bcast.tests.budget.quick_size``): still twice
Python's recursion limit, so a recursion on the depth fails there too; the
thorough run at 10,000.
"""

from __future__ import annotations

import ast
import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import bcast
from bcast.ir.parser import make_context
from bcast.lowering import c_runtime
from bcast.lowering.reference import Evaluator
from bcast.passes import LOOP_PASSES, available_passes
from bcast.tools import api, driver, opt
from bcast.tests.budget import quick_size
from bcast.tools.run import main as run_main

DEPTH = quick_size(10_000, 2_000)
"""The programs' op count (the module docstring)."""
X = np.array([0.25, -1.0, 1.0, 3.0], dtype=np.float32)
STEPS = {"chain": lambda v, x: v + x, "diamond": lambda v, x: v * v}
"""Each program's step on its previous value ``v`` and the argument ``x``."""


def program(kind: str, n: int) -> str:
    """``n`` ops of ``kind``: ``chain`` adds ``%x`` to the previous value,
    ``diamond`` multiplies the previous value by itself (two uses each)."""
    op, other = ("add", "%x") if kind == "chain" else ("multiply", None)
    lines = ["func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {",
             f"  %v0 = bcast.{op} %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>"]
    lines += [f"  %v{i} = bcast.{op} %v{i - 1}, {other or f'%v{i - 1}'} : (tensor<4xf32>, tensor<4xf32>) "
              "-> tensor<4xf32>" for i in range(1, n)]
    lines += [f"  func.return %v{n - 1} : tensor<4xf32>", "}"]
    return "\n".join(lines) + "\n"


def expected(kind: str, n: int = DEPTH) -> np.ndarray:
    """The program's result, step by step in float32 with NumPy."""
    with np.errstate(over="ignore"):
        v = STEPS[kind](X, X) if kind == "chain" else X * X
        for _ in range(1, n):
            v = STEPS[kind](v, X)
    return v


def assert_result(got, kind: str) -> None:
    got = np.asarray(got)
    assert got.dtype == np.float32 and got.shape == (4,)
    np.testing.assert_allclose(got, expected(kind), rtol=1e-6)


KINDS = ["chain", "diamond"]


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    return {kind: program(kind, DEPTH) for kind in KINDS}


@pytest.fixture(scope="module")
def parsed(sources) -> dict[str, ModuleOp]:
    return {kind: driver.load(text, f"{kind}.mlir") for kind, text in sources.items()}


def test_expected_values_are_not_trivial():
    """The comparisons can fail: the chain's values are distinct sums; the
    diamond's squares go to 0, keep 1 (from -1 and from 1: a sign or an
    operand wrong shows) and overflow to inf."""
    chain = expected("chain")
    assert len(set(chain.tolist())) == 4 and np.all(np.isfinite(chain))
    np.testing.assert_array_equal(expected("diamond"), [0.0, 1.0, 1.0, np.inf])
    assert expected("chain", 100)[0] != chain[0]


# --------------------------------------------------------------------------
# Every backend
# --------------------------------------------------------------------------

C = pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")


SLOW_C = {"diamond": pytest.mark.slow}
"""GCC at -O3 takes ~10 s of CPU on the diamond's 10,000 ``v * v`` statements
(its value hashing, in CSE after register allocation and dead store
elimination, is quadratic on a chain of ``x op x`` in one basic block; the
chain compiles in ~2 s): ~30 s on a loaded machine."""


@pytest.mark.parametrize("backend, kind", [
    pytest.param(b, k, marks=[C, SLOW_C.get(k, C)] if b == "c" else []) for b in api.BACKENDS for k in KINDS])
def test_every_backend(sources, kind, backend):
    compiled = bcast.compile(sources[kind], backend=backend)
    assert compiled.backend == backend
    assert_result(compiled(X), kind)


@C
def test_bcast_run_default_backend(tmp_path, capsys):
    """The reported failure: ``bcast-run FILE --seed 0`` on a deep chain
    printed ``error: input is nested too deeply`` and exited 1."""
    path = tmp_path / "chain.mlir"
    path.write_text(program("chain", DEPTH))
    out = tmp_path / "out.npz"
    np.savez(tmp_path / "in.npz", arg0=X)
    assert run_main([str(path), "--inputs", str(tmp_path / "in.npz"), "--output", str(out)]) == 0
    assert capsys.readouterr().err == ""
    assert_result(np.load(out)["result0"], "chain")


# --------------------------------------------------------------------------
# Broadcasting: thousands of fusions in one function
# --------------------------------------------------------------------------

M = np.array([[1.0, 2.5, -3.0, 0.125], [7.0, -0.5, 1e-3, 4.0], [-2.0, 3.25, 0.75, -1.0]], dtype=np.float32)
"""The broadcasting program's ``%x`` (its ``%row`` is ``X``)."""


def broadcast_program(n: int) -> str:
    """``n // 5`` steps of 5 ops on a 3x4 value: add the row vector (an
    implicit broadcast), multiply by the scalar constant -1, transpose,
    negate, transpose back: ``v + row`` exactly, in two fusions per step."""
    t, r = "tensor<3x4xf32>", "tensor<4x3xf32>"
    lines = [f"func.func @main(%x: {t}, %row: tensor<4xf32>) -> {t} {{",
             "  %c = bcast.constant dense<-1.0> : tensor<f32>"]
    v = "%x"
    for i in range(n // 5):
        lines += [f"  %a{i} = bcast.add {v}, %row : ({t}, tensor<4xf32>) -> {t}",
                  f"  %m{i} = bcast.multiply %a{i}, %c : ({t}, tensor<f32>) -> {t}",
                  f"  %t{i} = bcast.transpose %m{i}, dims = [1, 0] : ({t}) -> {r}",
                  f"  %n{i} = bcast.negate %t{i} : {r}",
                  f"  %u{i} = bcast.transpose %n{i}, dims = [1, 0] : ({r}) -> {t}"]
        v = f"%u{i}"
    return "\n".join([*lines, f"  func.return {v} : {t}", "}"]) + "\n"


def broadcast_expected(n: int = DEPTH) -> np.ndarray:
    v = M.copy()
    for _ in range(n // 5):
        v = -np.transpose(np.transpose((v + X) * np.float32(-1)))
    return v


SLOW_BROADCAST = {"c": pytest.mark.slow}
"""GCC takes ~30 s of CPU on the C function's 4,000 loop nests (its PRE,
post-reload CSE and alias walking grow faster than linearly in one
function's size); the Python backends take 2 to 10 s."""


@pytest.mark.parametrize("backend", [
    pytest.param(b, marks=[C, SLOW_BROADCAST["c"]] if b == "c" else []) for b in api.BACKENDS])
def test_broadcasting_every_backend(backend):
    compiled = bcast.compile(broadcast_program(DEPTH), backend=backend)
    got = np.asarray(compiled(M, X))
    assert got.dtype == np.float32 and got.shape == (3, 4)
    np.testing.assert_array_equal(got, broadcast_expected())


def test_broadcasting_expected_values_count_the_steps():
    np.testing.assert_allclose(broadcast_expected(), M + (DEPTH // 5) * X, rtol=1e-4)
    assert not np.array_equal(broadcast_expected(DEPTH - 5), broadcast_expected())


@pytest.mark.parametrize("backend", ["numpy", "array-api"])
def test_generated_python_is_flat(backend):
    """CPython's compile() is quadratic in the number of functions nested in
    one function (6,700 fusions as nested functions of ``main``: 55 s), so
    every generated function is at module level: one block function and one
    buffer function per fusion too large to run inline (the NumPy target;
    these 3x4 ones run inline in ``main``), none inside another."""
    n = 1000
    source = bcast.compile(broadcast_program(n), backend=backend).python_source
    tree = ast.parse(source)
    module_level = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    nested = [inner.name for f in module_level for inner in ast.walk(f)
              if inner is not f and isinstance(inner, ast.FunctionDef | ast.Lambda)]
    assert nested == []
    assert len(module_level) == 1
    assert source.count("rt.run_blocks(") == 0
    assert source.count(", inline\n") == (2 * (n // 5) if backend == "numpy" else 0)


# --------------------------------------------------------------------------
# Every pass alone, and every bcast-opt target
# --------------------------------------------------------------------------

BEFORE = {"bcast-lower-to-loops": driver.STANDARD_PIPELINE + ",",
          **{name: driver.STANDARD_PIPELINE + ",bcast-lower-to-loops," for name in LOOP_PASSES}}
"""What a pass needs to have run first (the loop lowering takes fused IR,
the loop passes loop IR)."""
PASSES = sorted(set(available_passes()) - {"convert-stablehlo-to-bcast"})
"""The import is tested on the StableHLO target's output (``test_every_target``)."""


def with_kinds(names: list[str], heavy) -> list:
    """Each of ``names`` with each of ``KINDS``; the diamond slow where
    ``heavy(name)``, each case costing the whole pipeline (its chain case
    runs in the quick run, both in the thorough one)."""
    return [pytest.param(name, kind, id=f"{name}-{kind}",
                         marks=[pytest.mark.slow] if heavy(name) and kind == "diamond" else [])
            for name in names for kind in KINDS]


@pytest.mark.parametrize("name, kind", with_kinds(PASSES, lambda name: name in BEFORE))
def test_every_pass(parsed, kind, name):
    module = parsed[kind].clone()
    ctx = make_context()
    driver.run_pipeline(driver.parse_pipeline(BEFORE.get(name, "") + name), ctx, module)
    driver.verify(module)
    text = opt.print_module(module)
    if name == "bcast-lower-to-loops" or name in LOOP_PASSES:
        assert all(op.dialect_name() != "bcast" for op in module.walk()) and text.count("scf.for") == 1
        return
    assert_result(Evaluator(module).call("main", [X])[0], kind)


@pytest.mark.parametrize("target, kind", with_kinds(list(opt.TARGETS), lambda target: target != "mlir"))
def test_every_target(sources, tmp_path, kind, target):
    """``bcast-opt -t TARGET`` (each with its standard pipeline); the Python
    modules run as printed, the StableHLO output is imported back
    (``convert-stablehlo-to-bcast``) and run."""
    path = tmp_path / f"{kind}.mlir"
    path.write_text(sources[kind])
    out = tmp_path / "out.txt"
    assert opt.main([str(path), "-t", target, "-o", str(out)]) == 0
    text = out.read_text()
    if target == "stablehlo":
        assert text.count("stablehlo.") == DEPTH
        assert_result(bcast.compile(text, backend="reference")(X), kind)
    elif target == "mlir":
        assert text.count("bcast.") == DEPTH
    elif target in ("numpy", "array-api"):  # the printed module runs
        namespace: dict = {}
        exec(compile(text, str(out), "exec"), namespace)
        assert_result(namespace["FUNCTIONS"]["main"](X), kind)
    else:  # C: the one fused loop holds every op (the C backend runs it above)
        assert "bcast_main" in text and text.count(" * ") + text.count(" + ") >= DEPTH


# --------------------------------------------------------------------------
# 100,000 ops; nested regions
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_hundred_thousand_ops(tmp_path):
    """Parse, verify, the standard pipeline (into one fusion), verify and print."""
    n = 100_000
    module = driver.load(program("chain", n), "big.mlir", pipeline=driver.STANDARD_PIPELINE)
    text = opt.print_module(module)
    assert text.count("bcast.fusion") == 1 and text.count("bcast.add") == n


def test_nested_regions_are_a_located_error(tmp_path, capsys):
    """Regions nested hundreds deep are the one input the parser (xDSL's,
    recursive on nesting) refuses: a located error, exit status 1."""
    n = 300
    path = tmp_path / "nested.mlir"
    path.write_text("func.func @main() {\n" + '"u.op"() ({\n' * n + "}) : () -> ()\n" * n
                    + "  func.return\n}\n")
    assert opt.main([str(path), "--allow-unregistered-dialect"]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: error: input is nested too deeply\n", err), err
