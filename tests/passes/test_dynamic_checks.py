"""Fewer run-time checks without another semantics (passes/dynamic_checks.py):
after ``canonicalize`` drops implied checks and hoists the rest to function
entry, a dynamic program gives the results, or the error (NumPy's words at the
op's location), that it gave before, at every size; the earliest op in
program order fails first."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir.ops import ReduceOp
from bcast.tests.budget import examples
from bcast.tests.passes.test_make_explicit_dynamic import BINARY
from bcast.tools import driver

EXPLICIT = "bcast-make-explicit"
CANONICAL = "bcast-make-explicit,canonicalize,cse,canonicalize,cse"


def outcome(compiled, args):
    """The results, or the error's text (its location and words)."""
    try:
        return [np.asarray(r) for r in bcast_tuple(compiled(*args))]
    except bcast.BcastError as e:
        return str(e)


def bcast_tuple(results):
    return results if isinstance(results, tuple) else (results,)


def check_count(compiled) -> int:
    return str(compiled.module).count("bcast.check_broadcastable")


def assert_same_outcome(before, after, args):
    want, got = outcome(before, args), outcome(after, args)
    if isinstance(want, str) or isinstance(got, str):
        assert got == want
        return
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


# --------------------------------------------------------------------------
# Random programs: binary chains with unary ops and keepdims reductions
# between them (a reduction's size is its operand's, so its broadcast back is
# where checks are proven and hoisted over computation).
# --------------------------------------------------------------------------


def parse_type(text: str):
    return driver.load(f"func.func @f(%a: {text}) {{ func.return }}", "t.mlir") \
        .body.block.first_op.function_type.inputs.data[0]  # fmt: skip


def dims_of(type_text: str) -> list[str]:
    """``tensor<?x3xf32, #stablehlo.bounds<3, ?>>`` -> ``["?<=3", "3"]``."""
    body = type_text[len("tensor<"):].split(",")[0].rstrip(">")
    dims = body.split("x")[:-1]
    bounds = type_text.split("bounds<")[1].rstrip(">").split(", ") if "bounds<" in type_text else ["?"] * len(dims)
    return [d if b == "?" else f"?<={b}" for d, b in zip(dims, bounds)]


@st.composite
def sizes(draw, types):
    """Run-time shapes: each ``?`` mostly the program's one size ``n`` (0, 1,
    3 or 5), sometimes 1, 0 or another size, so most draws run the program
    to its end and some fail at some op; a bounded dim stays in its bound."""
    n = draw(st.sampled_from([0, 1, 3, 5]))
    shapes = []
    for t in types:
        shape = []
        for d in dims_of(t):
            if d.startswith("?"):
                bound = int(d[3:]) if d.startswith("?<=") else 9
                shape.append(draw(st.sampled_from([m for m in (n, n, n, n, 1, 0, 3, 5) if m <= bound])))
            else:
                shape.append(int(d))
        shapes.append(tuple(shape))
    return shapes


@st.composite
def arg_type(draw) -> str:
    """A rank-1 or rank-2 f32 tensor type, its dims mostly ``?``, else 1, 3 or ``?<=3``."""
    dims = draw(st.lists(st.sampled_from(["?", "?", "?", "1", "3", "?<=3"]), min_size=1, max_size=2))
    bounds = [d[3:] if d.startswith("?<=") else "?" for d in dims]
    encoding = f", #stablehlo.bounds<{', '.join(bounds)}>" if any(b != "?" for b in bounds) else ""
    return f"tensor<{''.join(d[:1] + 'x' if d.startswith('?') else d + 'x' for d in dims)}f32{encoding}>"


@st.composite
def programs(draw):
    """Two to four arguments, a chain of two to six binary ops over them and
    earlier results (so checks repeat, imply each other or not), an
    exponential or a keepdims ``reduce add`` after some steps, and three sets
    of run-time shapes."""
    types = draw(st.lists(arg_type(), min_size=2, max_size=4))
    steps = draw(st.lists(st.tuples(st.sampled_from(sorted(BINARY)), st.integers(0, 10), st.integers(0, 10)),
                          min_size=2, max_size=6))  # fmt: skip
    extras = draw(st.lists(st.tuples(st.sampled_from(["exponential", "reduce"]), st.integers(0, 10),
                                     st.integers(0, 1)), max_size=len(steps)))  # fmt: skip
    return types, [draw(sizes(types)) for _ in range(3)], steps, extras


def build(types, steps, extras):
    """The program text with every result type inferred by bcast's rules;
    None when a pair is refuted at compile time (no run-time case)."""
    from bcast.ir import rules
    from bcast.ir.types import make_type, split_type

    values = [(f"%a{k}", parse_type(t)) for k, t in enumerate(types)]
    lines = []

    def emit(text, result):
        out = f"%v{len(lines)}"
        lines.append(f"  {out} = {text} -> {result}" if "->" not in text else f"  {out} = {text}")
        values.append((out, result))

    for k, (name, i, j) in enumerate(steps):
        (a, ta), (b, tb) = values[i % len(values)], values[j % len(values)]
        try:
            shape, _ = rules.broadcast_dynamic_shapes(rules.flat_shape(split_type(ta)[0]),
                                                      rules.flat_shape(split_type(tb)[0]), same=a == b)  # fmt: skip
        except rules.IncompatibleDims:
            return None
        emit(f"bcast.{name} {a}, {b} : ({ta}, {tb})", make_type((shape,), "f32"))
        for kind, source, dim in extras[k:k + 1]:
            x, tx = values[source % len(values)]
            rank = len(rules.flat_shape(split_type(tx)[0]))
            if kind == "exponential":
                lines.append(f"  %v{len(lines)} = bcast.exponential {x} : {tx}")
                values.append((f"%v{len(lines) - 1}", tx))
            elif rank:
                result = ReduceOp.infer_type("add", tx, [dim % rank], True, "numpy")
                emit(f"bcast.reduce add {x}, dims = [{dim % rank}] keepdims : ({tx})", result)
    last, last_type = values[-1]
    args = ", ".join(f"%a{k}: {t}" for k, (_, t) in enumerate(values[:len(types)]))
    return f"func.func @main({args}) -> {last_type} {{\n" + "\n".join(lines) + \
        f"\n  func.return {last} : {last_type}\n}}\n"


@settings(max_examples=examples(120), deadline=None)
@given(programs())
def test_canonicalized_checks_keep_results_and_errors(drawn):
    types, shapes, steps, extras = drawn
    text = build(types, steps, extras)
    if text is None:
        return  # a pair refuted at compile time: not a run-time case
    before = bcast.compile(text, backend="reference", pipeline=EXPLICIT, filename="p.mlir")
    after = bcast.compile(text, backend="reference", pipeline=CANONICAL, filename="p.mlir")
    assert check_count(after) <= check_count(before)
    rng = np.random.default_rng(0)
    for run in shapes:
        assert_same_outcome(before, after, [rng.standard_normal(s).astype(np.float32) for s in run])


# --------------------------------------------------------------------------
# Which op reports: the earliest in program order.
# --------------------------------------------------------------------------

TWO_OPS = """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %a = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %e = bcast.exponential %a : tensor<?xf32>
  %b = bcast.multiply %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %c = bcast.subtract %z, %e : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %d = bcast.add %c, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %d : tensor<?xf32>
}
"""


@pytest.fixture(scope="module")
def two_ops():
    after = bcast.compile(TWO_OPS, backend="reference", pipeline=CANONICAL, filename="prog.mlir")
    text = str(after.module)
    # two checks left (x with y, then z with their size), both before any computation
    assert text.count("bcast.check_broadcastable") == 2, text
    assert text.index("bcast.check_broadcastable") < text.index("bcast.add"), text
    return bcast.compile(TWO_OPS, backend="reference", filename="prog.mlir"), after


@pytest.mark.parametrize("sizes, error", [
    ((3, 4, 5), "prog.mlir:2:8: error: operands could not be broadcast together with shapes (3,) (4,)"),
    ((3, 4, 3), "prog.mlir:2:8: error: operands could not be broadcast together with shapes (3,) (4,)"),
    ((3, 1, 5), "prog.mlir:5:8: error: operands could not be broadcast together with shapes (5,) (3,)"),
    ((3, 1, 1), None),
    ((0, 1, 1), None),
    ((1, 1, 0), None),
])  # fmt: skip
def test_the_earliest_op_fails_first(two_ops, sizes, error):
    """(x, y, z) = (3, 4, 5) breaks the first add and the subtract: the check
    of the subtract now runs before the add's computation, yet the add,
    earlier in program order, reports; the implicit program says the same."""
    implicit, after = two_ops
    args = [np.ones(n, np.float32) for n in sizes]
    if error is not None:
        assert outcome(after, args) == error
    assert_same_outcome(implicit, after, args)


def test_a_long_chain_against_one_row_keeps_one_check() -> None:
    """200 ops each broadcasting against one row: every op's output size is
    ``broadcast_size`` of the last one and the row's, which canonicalize
    flattens to one SSA size, so one check is left. Before, the chain of
    sizes was as deep as the program, and the proof of each check recursed
    down it (400 ops: ``input is nested too deeply``); a size key walks at
    most ``KEY_WALK_LIMIT`` steps, which 200 ops stay within."""
    n = 200
    kinds = ["add", "multiply", "subtract", "maximum"]
    lines = ["func.func @main(%x: tensor<?x?xf32>, %row: tensor<?xf32>) -> tensor<?x?xf32> {"]
    value = "%x"
    for k in range(n):
        lines.append(f"  %v{k} = bcast.{kinds[k % 4]} {value}, %row : "
                     "(tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>")
        value = f"%v{k}"
    lines += [f"  func.return {value} : tensor<?x?xf32>", "}"]
    compiled = bcast.compile("\n".join(lines), backend="numpy")
    assert str(compiled.module).count("bcast.check_broadcastable") == 1
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    row = np.linspace(0.5, 1.0, 4, dtype=np.float32)
    expected = x
    for k in range(n):
        expected = getattr(np, kinds[k % 4])(expected, row)
    np.testing.assert_array_equal(compiled(x, row), expected)


def test_canonicalize_keys_a_1000_op_chain_in_linear_work(monkeypatch) -> None:
    """A 1000-op chain against one row: canonicalize asks a size key of
    every op, and each key used to walk the chain back (up to
    ``KEY_WALK_LIMIT`` steps), so the steps grew with the square of the
    chain (and two checks were left past the limit). Keys kept across one
    canonicalize worklist (``KeyedOnce``) take a bounded number of steps
    per op; the bound counts steps, not seconds (the machine is shared)."""
    from bcast.passes import dynamic_checks

    n = 1000
    lines = ["func.func @main(%x: tensor<?x?xf32>, %row: tensor<?xf32>) -> tensor<?x?xf32> {"]
    value = "%x"
    for k in range(n):
        lines.append(f"  %v{k} = bcast.add {value}, %row : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>")
        value = f"%v{k}"
    lines += [f"  func.return {value} : tensor<?x?xf32>", "}"]
    steps = 0
    original = dynamic_checks._size_sources

    def counted(value, dim):
        nonlocal steps
        steps += 1
        return original(value, dim)

    monkeypatch.setattr(dynamic_checks, "_size_sources", counted)
    compiled = bcast.compile("\n".join(lines), backend="numpy")
    assert str(compiled.module).count("bcast.check_broadcastable") == 1
    assert steps <= 10 * n, steps  # 4 per op now; millions before
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(compiled(x, np.ones(3, np.float32)), x + n)



TWO_CHECKS = """func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>, %z: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = bcast.add %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %b = bcast.multiply %a, %x : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %c = bcast.subtract %b, %z : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %c : tensor<?x4xf32>
}"""


PIPELINE = "bcast-make-explicit,canonicalize,cse"


def test_two_threads_canonicalize_with_their_own_size_keys():
    """The size keys a canonicalize keeps (``KeyedOnce``) are per thread:
    programs compiled in two threads at once come out as one thread makes
    them, with their checks."""
    import threading

    alone = str(bcast.compile(TWO_CHECKS, backend="reference", pipeline=PIPELINE).module)
    assert alone.count("bcast.check_broadcastable") == 2
    outputs: list[str] = []
    errors: list[BaseException] = []

    def compile_five() -> None:
        try:
            for _ in range(5):
                outputs.append(str(bcast.compile(TWO_CHECKS, backend="reference", pipeline=PIPELINE).module))
        except BaseException as e:  # reported below, not lost in the thread
            errors.append(e)

    threads = [threading.Thread(target=compile_five) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert outputs == [alone] * 10
