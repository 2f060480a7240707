"""The explicit dynamic form on the reference backend (docs/ir.md, "The
explicit dynamic form"): a dynamic program after ``bcast-make-explicit``
computes what the implicit program computes at every size, and fails where it
fails, at the same op with the same NumPy words, writing nothing to ``out``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples

PROGRAM = """func.func @main(%x: tensor<?x4xf32>, %row: tensor<4xf32>, %col: tensor<?x1xf32>, %v: tensor<?xf32>, %b: tensor<?xf32, #stablehlo.bounds<2>>) -> (tensor<?x4xf32>, tensor<?xf32>, tensor<?x4xi1>, tensor<4xf32>) {
  %0 = bcast.subtract %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = bcast.multiply %0, %col : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %2 = bcast.reduce add %1, dims = [1] : (tensor<?x4xf32>) -> tensor<?xf32>
  %3 = bcast.add %2, %v : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %4 = bcast.broadcast_in_dim %3, dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
  %5 = bcast.compare GT, %4, %1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
  %6 = bcast.select %5, %1, %x : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %7 = bcast.maximum %b, %row : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<4xf32>
  func.return %6, %3, %5, %7 : tensor<?x4xf32>, tensor<?xf32>, tensor<?x4xi1>, tensor<4xf32>
}
"""


@pytest.fixture(scope="module")
def both():
    implicit = bcast.compile(PROGRAM, backend="reference", filename="prog.mlir")
    explicit = bcast.compile(PROGRAM, backend="reference", pipeline="bcast-make-explicit", filename="prog.mlir")
    text = str(explicit.module)
    assert "bcast.check_broadcastable" in text and "bcast.dynamic_broadcast_in_dim" in text, text
    return implicit, explicit


def outcome(compiled, args):
    try:
        return [np.asarray(r) for r in compiled(*args)]
    except bcast.BcastError as e:
        return str(e)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("v_size", ["n", 1, 3])
@pytest.mark.parametrize("b_size", [0, 1, 2])
def test_explicit_equals_implicit_at_every_size(both, n, v_size, b_size):
    rng = np.random.default_rng(n)
    shapes = [(n, 4), (4,), (n, 1), (n if v_size == "n" else v_size,), (b_size,)]
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    implicit, explicit = (outcome(c, args) for c in both)
    if isinstance(implicit, str) or isinstance(explicit, str):
        assert implicit == explicit
        assert "operands could not be broadcast together with shapes" in explicit
    else:
        for got, want in zip(explicit, implicit, strict=True):
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


def test_failed_check_is_located_at_the_op_in_numpys_words_and_writes_no_out(both):
    _, explicit = both
    args = [np.ones((3, 4), np.float32), np.ones(4, np.float32), np.ones((3, 1), np.float32),
            np.ones(2, np.float32), np.ones(1, np.float32)]
    outs = (np.full((3, 4), 7, np.float32), np.full(3, 7, np.float32), np.zeros((3, 4), bool),
            np.full(4, 7, np.float32))
    with pytest.raises(bcast.BcastError) as info:
        explicit(*args, out=outs)
    assert str(info.value) == "prog.mlir:5:8: error: operands could not be broadcast together with shapes (3,) (2,)"
    assert (outs[0] == 7).all() and (outs[1] == 7).all() and not outs[2].any() and (outs[3] == 7).all()


def test_a_bounded_size_that_must_stretch_fails_at_its_op(both):
    _, explicit = both
    args = [np.ones((3, 4), np.float32), np.ones(4, np.float32), np.ones((3, 1), np.float32),
            np.ones(3, np.float32), np.ones(2, np.float32)]
    with pytest.raises(bcast.BcastError) as info:
        explicit(*args)
    assert str(info.value) == "prog.mlir:9:8: error: operands could not be broadcast together with shapes (2,) (4,)"


# --------------------------------------------------------------------------
# A property over random dynamic elementwise programs
# --------------------------------------------------------------------------

BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum}


@st.composite
def programs(draw):
    """A chain of binary ops over up to three arguments whose dims are static
    (1 or 3), ``?`` or ``?<=3``, and run-time sizes for every ``?`` (0, 1, 3
    or 5: equal, stretching, empty against 1, and mismatched ones)."""
    n_args = draw(st.integers(2, 3))
    types, shapes = [], []
    for _ in range(n_args):
        rank = draw(st.integers(0, 2))
        dims, bounds, shape = [], [], []
        for _ in range(rank):
            kind = draw(st.sampled_from(["1", "3", "?", "?", "?<=3"]))
            if kind in ("1", "3"):
                dims.append(kind)
                bounds.append("?")
                shape.append(int(kind))
            else:
                dims.append("?")
                bounds.append("3" if kind == "?<=3" else "?")
                shape.append(draw(st.sampled_from([0, 1, 3] if kind == "?<=3" else [0, 1, 3, 5])))
        encoding = f", #stablehlo.bounds<{', '.join(bounds)}>" if any(b != "?" for b in bounds) else ""
        types.append(f"tensor<{''.join(d + 'x' for d in dims)}f32{encoding}>")
        shapes.append(tuple(shape))
    steps = draw(st.lists(st.tuples(st.sampled_from(sorted(BINARY)), st.integers(0, 10), st.integers(0, 10)),
                          min_size=1, max_size=4))
    return types, shapes, steps


def build(types, steps):
    """The program text, each result type inferred by the rules of the 4b
    table (``rules.broadcast_dynamic_shapes``), and the NumPy oracle's plan;
    None when a pair is refuted at compile time (no run-time case)."""
    from bcast.ir import rules
    from bcast.ir.types import make_type, split_type
    from bcast.tools import driver

    ctx_types = []
    for t in types:
        ctx_types.append(driver.load(f"func.func @f(%a: {t}) {{ func.return }}", "t.mlir")
                         .body.block.first_op.function_type.inputs.data[0])  # fmt: skip
    values = [(f"%a{k}", t) for k, t in enumerate(ctx_types)]
    lines, plan = [], []
    for name, i, j in steps:
        (a, ta), (b, tb) = values[i % len(values)], values[j % len(values)]
        try:
            shape, _ = rules.broadcast_dynamic_shapes(rules.flat_shape(split_type(ta)[0]),
                                                      rules.flat_shape(split_type(tb)[0]),
                                                      same=a == b)  # fmt: skip
        except rules.IncompatibleDims:
            return None
        result = make_type((shape,), "f32")
        out = f"%v{len(lines)}"
        lines.append(f"  {out} = bcast.{name} {a}, {b} : ({ta}, {tb}) -> {result}")
        plan.append((name, i % len(values), j % len(values)))
        values.append((out, result))
    args = ", ".join(f"%a{k}: {t}" for k, t in enumerate(ctx_types))
    last, last_type = values[-1]
    text = f"func.func @main({args}) -> {last_type} {{\n" + "\n".join(lines) + \
        f"\n  func.return {last} : {last_type}\n}}\n"
    return text, plan


def numpy_oracle(plan, args):
    values = list(args)
    for name, i, j in plan:
        values.append(BINARY[name](values[i], values[j]))
    return values[-1]


@settings(max_examples=examples(120), deadline=None)
@given(programs())
def test_explicit_form_matches_numpy_on_random_dynamic_programs(drawn):
    types, shapes, steps = drawn
    built = build(types, steps)
    if built is None:
        return  # a pair refuted at compile time: not a run-time case
    text, plan = built
    explicit = bcast.compile(text, backend="reference", pipeline="bcast-make-explicit", filename="p.mlir")
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    try:
        want = numpy_oracle(plan, args)
    except ValueError as e:
        assert "could not be broadcast" in str(e)
        with pytest.raises(bcast.BcastError, match="operands could not be broadcast together with shapes"):
            explicit(*args)
        return
    got = np.asarray(explicit(*args))
    assert got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)


DECLARED_AND_TRANSPOSING = """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %t: tensor<?x3xf32>) -> (tensor<4xf32>, tensor<3x5x4xf32>) {
  %0 = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  %1 = bcast.broadcast_in_dim %t, dims = [2, 0] : (tensor<?x3xf32>) -> tensor<3x5x4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<3x5x4xf32>
}
"""

DECLARED_CASES = [
    # (x, y, t rows): the result, or the reference's error (its first line)
    ((4, 4, 4), None), ((1, 4, 1), None), ((4, 1, 4), None),
    ((1, 1, 4), "prog.mlir:2:8: error: 'bcast.add' op result has shape (1,) at run time, which its type "
                "tensor<4xf32> does not allow"),
    ((3, 3, 4), "prog.mlir:2:8: error: 'bcast.add' op result has shape (3,) at run time, which its type "
                "tensor<4xf32> does not allow"),
    ((3, 2, 4), "prog.mlir:2:8: error: operands could not be broadcast together with shapes (3,) (2,)"),
    ((4, 4, 2), "prog.mlir:3:8: error: operand of shape "),
]


@pytest.mark.parametrize("backend", ["reference", "numpy", "array-api", "c"])
def test_declared_static_result_and_transposing_broadcast_run_on_every_backend(backend):
    """A declared result more static than the inferred one and a transposing
    broadcast of a ``?`` dim, made explicit (docs/semantics.md): NumPy's
    results where the sizes fit; where they do not, the located error of the
    reference (the declared size is a fact checked on the result, not a size
    to stretch 1s into), and nothing written to ``out``."""
    compiled = bcast.compile(DECLARED_AND_TRANSPOSING, backend=backend, filename="prog.mlir")
    reference = bcast.compile(DECLARED_AND_TRANSPOSING, backend="reference", filename="prog.mlir")
    rng = np.random.default_rng(0)
    for (nx, ny, nt), error in DECLARED_CASES:
        x, y = (rng.standard_normal(n).astype(np.float32) for n in (nx, ny))
        t = rng.standard_normal((nt, 3)).astype(np.float32)
        out = (np.full(4, 7, np.float32), np.full((3, 5, 4), 7, np.float32))
        if error is None:
            got = compiled(x, y, t, out=out)
            np.testing.assert_array_equal(got[0], x + y)
            np.testing.assert_array_equal(got[1], np.broadcast_to(t.T[:, None, :], (3, 5, 4)))
            continue
        with pytest.raises(bcast.BcastError) as info:
            compiled(x, y, t, out=out)
        assert str(info.value).startswith(error), (backend, str(info.value))
        if backend != "reference" and "operand of shape" not in error:
            assert str(info.value) == outcome(reference, [x, y, t])
        assert all((o == 7).all() for o in out)


RULE_NOTES = {
    # name: (program, arguments that fail, the reference's note)
    "tml_relational": ("""module attributes {bcast.semantics = "tml"} {
  func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xi1> {
    %0 = bcast.compare LT, %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
    func.return %0 : tensor<?xi1>
  }
}
""", [(3,), (1,)], "relational operations under tml semantics need a scalar operand or identical shapes at every "
                   "nesting level"),
    "xla_broadcast_dimensions": ("""module attributes {bcast.semantics = "xla"} {
  func.func @main(%x: tensor<?x?xf32>, %y: tensor<?x4x?xf32>) -> tensor<?x4x?xf32> {
    %0 = bcast.add %x, %y broadcast_dimensions = [0, 2] : (tensor<?x?xf32>, tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    func.return %0 : tensor<?x4x?xf32>
  }
}
""", [(2, 5), (2, 4, 3)], "broadcast_dimensions maps dimension 1 (size 5) of the lower-rank operand to dimension 2 "
                          "(size 3) of the higher-rank operand: sizes must be equal or one of them 1"),
}


@pytest.mark.parametrize("name", sorted(RULE_NOTES))
def test_a_failed_check_carries_the_rules_note_on_every_backend(name):
    """The explicit check fails with the reference's words and its note (the
    implicit op's rule under tml or xla, with the run-time sizes), located at
    the op, the same on every backend."""
    text, shapes, note = RULE_NOTES[name]
    args = [np.ones(s, np.float32) for s in shapes]
    messages = {}
    for backend in ("reference", "numpy", "array-api", "c"):
        compiled = bcast.compile(text, backend=backend, filename="prog.mlir")
        with pytest.raises(bcast.BcastError) as info:
            compiled(*args)
        messages[backend] = str(info.value)
    assert len(set(messages.values())) == 1, messages
    shown = " ".join("(" + ",".join(map(str, s)) + ("," if len(s) == 1 else "") + ")" for s in shapes)
    assert messages["c"] == (f"prog.mlir:3:10: error: operands could not be broadcast together with shapes {shown}\n"
                             f"prog.mlir:3:10: note: {note}")
