"""Dynamic and bounded dims at run time (docs/semantics.md, "Dynamic and
bounded shapes"): one compiled function runs at every size, with NumPy's
results or NumPy's error located at the op, nothing written to ``out``;
sizes above a bound are argument errors; backends that do not run dynamic
dims yet refuse them, located and naming the backend. Every test runs on
each backend of ``BACKENDS``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tools import api
from bcast.tools import run as bcast_run

BACKENDS = ["reference", "numpy", "array-api", "c"]
"""The backends that run dynamic programs (the C backend joins by being
added here); each gives the reference's results and its errors, word for
word."""

PROGRAM = """func.func @main(%x: tensor<?x4xf32>, %row: tensor<4xf32>, %col: tensor<?x1xf32>, %v: tensor<?xf32>) -> (tensor<?x4xf32>, tensor<?xf32>, tensor<?x4xi1>) {
  %0 = bcast.subtract %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = bcast.multiply %0, %col : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %2 = bcast.reduce add %1, dims = [1] : (tensor<?x4xf32>) -> tensor<?xf32>
  %3 = bcast.add %2, %v : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %4 = bcast.broadcast_in_dim %3, dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
  %5 = bcast.compare GT, %4, %1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xi1>
  %6 = bcast.select %5, %1, %x : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %6, %3, %5 : tensor<?x4xf32>, tensor<?xf32>, tensor<?x4xi1>
}
"""


def expected(x, row, col, v):
    p1 = (x - row) * col
    p3 = p1.sum(axis=1) + v
    p5 = p3[:, None] > p1
    return np.where(p5, p1, x), p3, p5


@pytest.fixture(scope="module", params=BACKENDS)
def compiled(request):
    return bcast.compile(PROGRAM, backend=request.param, filename="prog.mlir")


@pytest.mark.parametrize("n", [0, 1, 2, 5, 300])
@pytest.mark.parametrize("v_size", ["n", 1])
def test_one_compiled_function_runs_at_every_size(compiled, n, v_size):
    rng = np.random.default_rng(n)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    row = rng.standard_normal(4).astype(np.float32)
    col = rng.standard_normal((n, 1)).astype(np.float32)
    v = rng.standard_normal(n if v_size == "n" else 1).astype(np.float32)
    results = compiled(x, row, col, v)
    for got, want in zip(results, expected(x, row, col, v), strict=True):
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_run_time_broadcast_error_is_numpys_located_and_writes_no_out(compiled):
    x, col = np.ones((3, 4), np.float32), np.ones((3, 1), np.float32)
    outs = (np.full((3, 4), 7, np.float32), np.full(3, 7, np.float32), np.zeros((3, 4), bool))
    with pytest.raises(bcast.BcastError) as info:
        compiled(x, np.ones(4, np.float32), col, np.ones(2, np.float32), out=outs)
    assert str(info.value) == "prog.mlir:5:8: error: operands could not be broadcast together with shapes (3,) (2,)"
    assert (outs[0] == 7).all() and (outs[1] == 7).all() and not outs[2].any()
    with pytest.raises(ValueError, match=r"shapes \(3,\) \(2,\)"):  # NumPy's own words
        np.ones(3) + np.ones(2)


def test_out_must_have_the_run_time_shape(compiled):
    x = np.ones((3, 4), np.float32)
    outs = (np.zeros((2, 4), np.float32), np.zeros(2, np.float32), np.zeros((2, 4), bool))
    with pytest.raises(bcast.BcastError, match=r"out= for result0: the result has shape \(3, 4\) at run time"):
        compiled(x, np.ones(4, np.float32), np.ones((3, 1), np.float32), np.ones(3, np.float32), out=outs)
    assert not outs[0].any()


def test_static_dims_of_a_dynamic_argument_are_checked(compiled):
    with pytest.raises(bcast.BcastError, match=r"arg0 \(%x\): expected tensor<\?x4xf32>, a flat array of shape "
                                               r"\(\?, 4\), got shape \(3, 5\)"):
        compiled(np.ones((3, 5), np.float32), np.ones(4, np.float32), np.ones((3, 1), np.float32), np.ones(3))


EXPLICIT = """func.func @main(%x: tensor<?xf32>, %y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %n = bcast.dim %y, 0 : tensor<?x3xf32>
  %b = bcast.dynamic_broadcast_in_dim %x, [%n, 3], dims = [0] nonexpanding = [0] : (tensor<?xf32>) -> tensor<?x3xf32>
  %r = bcast.add %b, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_explicit_form_checks_each_broadcast_in_the_same_words(backend):
    """Hand-written explicit IR (no pipeline): ``dynamic_broadcast_in_dim``
    checks its operand against the run-time sizes and its known facts, at
    its location, in the reference's words (``ops.check_expansion``)."""
    f = bcast.compile(EXPLICIT, backend=backend, pipeline="", filename="prog.mlir")
    y = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(f(np.array([1, 2], np.float32), y), y + [[1], [2]])
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones(4, np.float32), y)
    assert str(info.value) == (
        "prog.mlir:3:8: error: operand of shape (4,) could not be broadcast to shape (2, 3)\n"
        "prog.mlir:3:8: note: size of operand dimension 0 (4) is not equal to 1 or size of result dimension 0 (2)")
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones(1, np.float32), y)  # 1 would stretch, but the dim is known nonexpanding
    assert str(info.value) == (
        "prog.mlir:3:8: error: operand of shape (1,) could not be broadcast to shape (2, 3)\n"
        "prog.mlir:3:8: note: size of operand dimension 0 (1) is known nonexpanding, and size of result "
        "dimension 0 is 2")


CALLS = """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = bcast.negate %x : tensor<?xf32>
  %1 = func.call @pair(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0, %1 : tensor<?xf32>, tensor<?xf32>
}
func.func @pair(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = bcast.multiply %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_check_in_a_callee_fails_there_and_writes_no_out(backend):
    if backend == "c":  # calls of dynamic shapes are not lowered to loops yet: refused, located
        with pytest.raises(bcast.BcastError, match=r"^prog.mlir:3:8: error: 'func.call' op has dynamic dimensions "
                                                   "that bcast-lower-to-loops does not lower yet"):
            bcast.compile(CALLS, backend=backend, filename="prog.mlir")
        return
    f = bcast.compile(CALLS, backend=backend, filename="prog.mlir")
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(f(x, np.full(1, 2, np.float32))[1], 2 * x)
    outs = (np.full(3, 7, np.float32), np.full(3, 7, np.float32))
    with pytest.raises(bcast.BcastError) as info:
        f(x, np.ones(2, np.float32), out=outs)
    assert str(info.value) == "prog.mlir:7:8: error: operands could not be broadcast together with shapes (3,) (2,)"
    assert (outs[0] == 7).all() and (outs[1] == 7).all()


@pytest.mark.parametrize("library", ["array_api_strict", "jax.numpy"])
def test_the_array_api_backend_runs_dynamic_programs_on_other_libraries(library):
    """Sizes are read from the arrays of any Array API library, so one
    compiled function runs on each at every size (under ``jax.jit`` too,
    where the sizes are known when it traces) and fails as on NumPy."""
    import importlib

    import jax

    xp = importlib.import_module(library)
    f = bcast.compile(PROGRAM, backend="array-api", filename="prog.mlir")
    for n in (0, 1, 3):
        rng = np.random.default_rng(n)
        args = [rng.standard_normal(s).astype(np.float32) for s in ((n, 4), (4,), (n, 1), (n,))]
        for run in (f, jax.jit(f)) if library == "jax.numpy" else (f,):
            results = run(*[xp.asarray(a) for a in args])
            for got, want in zip(results, expected(*args), strict=True):
                np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    bad = [xp.asarray(np.ones(s, np.float32)) for s in ((3, 4), (4,), (3, 1), (2,))]
    with pytest.raises(bcast.BcastError) as info:
        f(*bad)
    assert str(info.value) == "prog.mlir:5:8: error: operands could not be broadcast together with shapes (3,) (2,)"


def test_an_unknown_size_is_an_argument_error():
    import dask.array as da

    f = bcast.compile(CALLS, backend="array-api", filename="prog.mlir")
    x = da.ones(4, dtype="float32")
    np.testing.assert_array_equal(f(x, x)[1].compute(), np.ones(4))
    with pytest.raises(bcast.BcastError) as info:
        f(x[x > 0], x)
    assert str(info.value) == ("error: @main: arg0 (%x): the size of dimension 0 is not known (nan); bcast needs "
                               "every size (dask: compute_chunk_sizes() first)")


BOUNDED = """func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<16, ?>>, %y: tensor<4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<16, ?>> {
  %0 = bcast.add %x, %y : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>, tensor<4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<16, ?>>
  func.return %0 : tensor<?x4xf32, #stablehlo.bounds<16, ?>>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_sizes_up_to_the_bound_run_and_above_it_are_refused(backend):
    f = bcast.compile(BOUNDED, backend=backend, filename="prog.mlir")
    y = np.arange(4, dtype=np.float32)
    for n in (0, 1, 16):
        x = np.ones((n, 4), np.float32)
        np.testing.assert_array_equal(f(x, y), x + y)
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((17, 4), np.float32), y)
    assert str(info.value) == "error: @main: arg0 (%x): dimension 0 of argument 0 is 17, above its bound 16"


BOUND_BELOW = """func.func @main(%x: tensor<?xf32, #stablehlo.bounds<2>>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = bcast.add %x, %y : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bound_below_the_other_size_stretches_only_from_1(backend):
    f = bcast.compile(BOUND_BELOW, backend=backend, filename="prog.mlir")
    y = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(f(np.array([5], np.float32), y), 5 + y)
    with pytest.raises(bcast.BcastError, match=r"^prog.mlir:2:8: error: operands could not be broadcast together "
                                               r"with shapes \(2,\) \(4,\)$"):
        f(np.ones(2, np.float32), y)


MORE_STATIC = """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<4xf32> {
  %0 = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def test_a_declared_type_more_static_than_inferred_is_checked_at_run_time():
    f = bcast.compile(MORE_STATIC, backend="reference", filename="prog.mlir")
    np.testing.assert_array_equal(f(np.ones(4, np.float32), np.ones(1, np.float32)), np.full(4, 2, np.float32))
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones(3, np.float32), np.ones(3, np.float32))
    assert str(info.value) == ("prog.mlir:2:8: error: 'bcast.add' op result has shape (3,) at run time, "
                               "which its type tensor<4xf32> does not allow")


TML_STRICT = """module attributes {bcast.semantics = "tml"} {
func.func @main(%p: tensor<?xi1>, %q: tensor<4xi1>) -> tensor<4xi1> {
  %0 = bcast.and %p, %q : (tensor<?xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_tml_logical_ops_check_equality_and_never_stretch(backend):
    f = bcast.compile(TML_STRICT, backend=backend, filename="prog.mlir")
    q = np.array([True, False, True, True])
    np.testing.assert_array_equal(f(np.ones(4, bool), q), q)
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones(1, bool), q)  # NumPy would stretch the 1; tml does not
    lines = str(info.value).splitlines()
    assert lines[0] == "prog.mlir:3:8: error: operands could not be broadcast together with shapes (1,) (4,)"
    # the explicit form's check carries the rule's note too (check_broadcastable's notes)
    assert lines[1:] == ["prog.mlir:3:8: note: logical operations under tml semantics need a scalar operand or "
                         "identical shapes at every nesting level"]


XLA = """module attributes {bcast.semantics = "xla"} {
func.func @main(%m: tensor<?x4xf32>, %c: tensor<?xf32>) -> tensor<?x4xf32> {
  %0 = bcast.add %m, %c broadcast_dimensions = [0] : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_xla_broadcast_dimensions_at_run_time(backend):
    f = bcast.compile(XLA, backend=backend, filename="prog.mlir")
    m, c = np.ones((3, 4), np.float32), np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(f(m, c), m + c[:, None])
    np.testing.assert_array_equal(f(m, c[:1]), m + c[0])
    with pytest.raises(bcast.BcastError, match="^prog.mlir:3:8: error: operands could not be broadcast together "
                                               r"with shapes \(3,4\) \(2,\)"):
        f(m, c[:2])


@pytest.mark.parametrize("backend", BACKENDS)
def test_broadcast_in_dim_into_a_static_dim_checks_the_operand(backend):
    src = """func.func @main(%v: tensor<?xf32>) -> tensor<2x3xf32> {
  %0 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<?xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""
    f = bcast.compile(src, backend=backend, filename="prog.mlir")
    np.testing.assert_array_equal(f(np.array([1, 2, 3], np.float32)), np.tile([1, 2, 3], (2, 1)))
    np.testing.assert_array_equal(f(np.array([5], np.float32)), np.full((2, 3), 5))
    with pytest.raises(bcast.BcastError, match=r"^prog.mlir:2:8: error: operand of shape \(2,\) could not be "
                                               r"broadcast to shape \(2, 3\)"):
        f(np.ones(2, np.float32))


def test_the_backends_that_run_dynamic_programs():
    assert api.DYNAMIC_BACKENDS == ("reference", "array-api", "numpy", "c")


def test_the_default_backend_runs_dynamic_programs():
    """Every backend runs them now, so the default (C) does; the refusal of
    a target that does not is in tests/filecheck/transforms/dynamic_not_yet.mlir."""
    f = bcast.compile(BOUND_BELOW, filename="prog.mlir")
    assert f.backend == "c"  # the test machine has a C compiler (tests/README.md)
    np.testing.assert_array_equal(f(np.array([5], np.float32), np.zeros(4, np.float32)), np.full(4, 5))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bcast_run_exits_1_with_the_located_error(tmp_path, capsys, backend):
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    np.savez(tmp_path / "in.npz", arg0=np.ones((3, 4), np.float32), arg1=np.ones(4, np.float32),
             arg2=np.ones((3, 1), np.float32), arg3=np.ones(4, np.float32))
    code = bcast_run.main([str(path), "--inputs", str(tmp_path / "in.npz"), "--backend", backend])
    err = capsys.readouterr().err
    assert code == 1
    assert err == f"{path}:5:8: error: operands could not be broadcast together with shapes (3,) (4,)\n"


# --------------------------------------------------------------------------
# Property: random elementwise programs over static, ? and bounded dims
# --------------------------------------------------------------------------

OPS = ["add", "subtract", "multiply", "maximum"]


@st.composite
def programs(draw):
    """A chain of binary ops over 2-3 arguments of rank <= 2, each dim
    static, ``?`` or bounded, with run-time sizes (0 and 1 included) that
    fit the types; NumPy decides whether they broadcast."""
    n_args = draw(st.integers(2, 3))
    sizes = st.sampled_from([0, 1, 2, 3])
    arg_types, arrays = [], []
    for _ in range(n_args):
        rank = draw(st.integers(0, 2))
        dims, shape = [], []
        for _ in range(rank):
            n = draw(sizes)
            kind = draw(st.sampled_from(["static", "?", "bounded"]))
            bound = draw(st.integers(n, 3)) if kind == "bounded" else None
            dims.append((kind, n, bound))
            shape.append(n)
        arg_types.append(dims)
        arrays.append(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 1)
    ops = [draw(st.sampled_from(OPS)) for _ in range(n_args - 1)]
    return arg_types, arrays, ops


def type_text(dims) -> str:
    shape = "x".join("?" if kind != "static" else str(n) for kind, n, _ in dims)
    text = f"tensor<{shape + 'x' if shape else ''}f32"
    if any(kind == "bounded" for kind, _, _ in dims):
        text += ", #stablehlo.bounds<" + ", ".join(str(b) if kind == "bounded" else "?" for kind, _, b in dims) + ">"
    return text + ">"


def result_type(a, b) -> str:
    """The table's result dims (the bound of ``?`` and ``?`` left out: a
    declared ``?`` is as static as a bounded one), static where NumPy's
    would be."""
    rank = max(len(a), len(b))
    a, b = [("static", 1, None)] * (rank - len(a)) + a, [("static", 1, None)] * (rank - len(b)) + b
    dims = []
    for (ka, na, _), (kb, nb, _) in zip(a, b):
        if ka == kb == "static":
            dims.append(str(nb if na == 1 else na))
        elif ka == "static" or kb == "static":
            n = na if ka == "static" else nb
            dims.append("?" if n == 1 else str(n))
        else:
            dims.append("?")
    return "tensor<" + "".join(d + "x" for d in dims) + "f32>"


@settings(max_examples=examples(100), deadline=None)
@given(programs())
def test_random_dynamic_programs_agree_with_numpy(case):
    """Each op takes two arguments, so every pair of typed dims meets the
    table; each result is declared with the table's result dims."""
    arg_types, arrays, ops = case
    types = [type_text(d) for d in arg_types]
    body, results, wants, numpy_error = [], [], [], False
    for k, op in enumerate(ops, 1):
        result = result_type(arg_types[k - 1], arg_types[k])
        body.append(f"  %r{k} = bcast.{op} %a{k - 1}, %a{k} : ({types[k - 1]}, {types[k]}) -> {result}")
        results.append((f"%r{k}", result))
        try:
            wants.append(getattr(np, op)(arrays[k - 1], arrays[k]))
        except ValueError:
            numpy_error = True
    params = ", ".join(f"%a{k}: {t}" for k, t in enumerate(types))
    src = (f"func.func @main({params}) -> ({', '.join(t for _, t in results)}) {{\n" + "\n".join(body)
           + f"\n  func.return {', '.join(r for r, _ in results)} : {', '.join(t for _, t in results)}\n}}\n")
    try:
        f = bcast.compile(src, backend="reference", filename="p.mlir")
    except bcast.BcastError as e:  # refuted at compile time: NumPy fails at these sizes too
        assert numpy_error, (src, str(e))
        assert "not broadcast-compatible" in str(e)
        return
    if numpy_error:
        with pytest.raises(bcast.BcastError, match=r"error: operands could not be broadcast together"):
            f(*arrays)
    else:
        got = f(*arrays)
        for g, w in zip(got if isinstance(got, tuple) else (got,), wants, strict=True):
            np.testing.assert_array_equal(g, w)


TML_NESTED = """module attributes {bcast.semantics = "tml"} {
func.func @main(%n: tensor<?xtensor<3xf32>>, %one: tensor<1xtensor<?xf32>>) -> tensor<?xtensor<3xf32>> {
  %0 = bcast.add %n, %one : (tensor<?xtensor<3xf32>>, tensor<1xtensor<?xf32>>) -> tensor<?xtensor<3xf32>>
  func.return %0 : tensor<?xtensor<3xf32>>
}
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_tml_arithmetic_per_nesting_level_at_run_time(backend):
    """Values are flat (outer dims, then inner); the error shows flat shapes."""
    f = bcast.compile(TML_NESTED, backend=backend, filename="prog.mlir")
    n = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(f(n, np.array([[10, 20, 30]], np.float32)), n + [10, 20, 30])
    np.testing.assert_array_equal(f(n, np.array([[5]], np.float32)), n + 5)
    np.testing.assert_array_equal(f(n[:0], np.array([[5]], np.float32)), n[:0])
    with pytest.raises(bcast.BcastError, match=r"^prog.mlir:3:8: error: operands could not be broadcast together "
                                               r"with shapes \(2,3\) \(1,2\)$"):
        f(n, np.array([[1, 2]], np.float32))


# --------------------------------------------------------------------------
# Property: random elementwise, broadcast and reduce programs over static, ?
# and bounded dims, one compiled function per backend run at several sizes
# --------------------------------------------------------------------------

SIZES = [0, 1, 2, 3]


@st.composite
def dim_types(draw):
    """One typed dim: ``("static", n, None)`` or ``("?", None, bound)``
    (bound None: unbounded; else at least 1, so that no pair is refuted by
    a bound alone)."""
    if draw(st.booleans()):
        return ("static", draw(st.sampled_from(SIZES)), None)
    return ("?", None, draw(st.none() | st.integers(1, 3)))


def typed_text(dims) -> str:
    """The MLIR type of typed dims (the bounds as ``#stablehlo.bounds``)."""
    shape = "".join(("?" if kind == "?" else str(n)) + "x" for kind, n, _ in dims)
    bounds = [b for _, _, b in dims]
    encoding = ""
    if any(b is not None for b in bounds):
        encoding = ", #stablehlo.bounds<" + ", ".join("?" if b is None else str(b) for b in bounds) + ">"
    return f"tensor<{shape}f32{encoding}>"


def binary_result(a, b, same: bool):
    """The typed dims of a binary op's result by the table of docs/semantics.md
    (the inferred type, bounds included; ``same``: one SSA value twice), or
    None for a pair of static dims NumPy's rule refutes."""
    if same:
        return list(a)
    rank = max(len(a), len(b))
    one = ("static", 1, None)
    a, b = [one] * (rank - len(a)) + list(a), [one] * (rank - len(b)) + list(b)
    out = []
    for x, y in zip(a, b):
        if x[0] == y[0] == "static":
            if x[1] != y[1] and 1 not in (x[1], y[1]):
                return None
            out.append(("static", y[1] if x[1] == 1 else x[1], None))
        elif x[0] == "static" or y[0] == "static":
            (_, n, _), dynamic = (x, y) if x[0] == "static" else (y, x)
            out.append(dynamic if n == 1 else ("static", n, None))
        else:
            bound = max(x[2], y[2]) if x[2] is not None and y[2] is not None else None
            out.append(("?", None, bound))
    return out


@st.composite
def dynamic_programs(draw):
    """A function over 2-3 arguments of rank 1-2 with 1-4 ops, each a binary
    elementwise op of two earlier values (maybe the same one), a ``reduce
    add`` over one dim, a ``broadcast_in_dim`` adding a leading static dim
    or a ``transpose`` of a rank-2 value;
    every value is returned. Returns (source, argument types, ops) where each
    op is (kind, operands, detail, line); None types mark a static pair NumPy
    refutes, which the compiler must refuse."""
    values = [draw(st.lists(dim_types(), min_size=1, max_size=2)) for _ in range(draw(st.integers(2, 3)))]
    params = ", ".join(f"%a{k}: {typed_text(t)}" for k, t in enumerate(values))
    names = [f"%a{k}" for k in range(len(values))]
    lines, ops, refuted = [], [], False
    for k in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["binary", "binary", "binary", "reduce", "broadcast", "transpose"]))
        i = draw(st.integers(0, len(values) - 1))
        t = values[i]
        if kind == "transpose" and len(t) == 2:
            result = t[::-1]
            text = f"bcast.transpose {names[i]}, dims = [1, 0] : ({typed_text(t)}) -> {typed_text(result)}"
            ops.append(("transpose", (i,), None))
        elif kind == "reduce" and t:
            axis = draw(st.integers(0, len(t) - 1))
            result = t[:axis] + t[axis + 1:]
            text = f"bcast.reduce add {names[i]}, dims = [{axis}] : ({typed_text(t)}) -> {typed_text(result)}"
            ops.append(("reduce", (i,), axis))
        elif kind == "broadcast":
            lead = draw(st.sampled_from([1, 2]))
            result = [("static", lead, None), *t]
            dims = list(range(1, len(t) + 1))
            text = f"bcast.broadcast_in_dim {names[i]}, dims = {dims} : ({typed_text(t)}) -> {typed_text(result)}"
            ops.append(("broadcast", (i,), lead))
        else:
            j = draw(st.integers(0, len(values) - 1))
            op = draw(st.sampled_from(OPS))
            result = binary_result(t, values[j], i == j)
            if result is None:
                refuted, result = True, [("?", None, None)] * max(len(t), len(values[j]))
            text = (f"bcast.{op} {names[i]}, {names[j]} : ({typed_text(t)}, {typed_text(values[j])}) "
                    f"-> {typed_text(result)}")
            ops.append((op, (i, j), None))
        names.append(f"%r{k}")
        values.append(result)
        lines.append(f"  %r{k} = {text}")
    results = values[-len(ops):]
    signature = ", ".join(typed_text(t) for t in results)
    source = (f"func.func @main({params}) -> ({signature}) {{\n" + "\n".join(lines)
              + f"\n  func.return {', '.join(names[-len(ops):])} : {signature}\n}}\n")
    arg_types = values[:len(values) - len(ops)]
    runs = [[np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) % 7 + 1
             for shape in [[n if kind == "static" else draw(st.sampled_from(SIZES if b is None else SIZES[:b + 1]))
                            for kind, n, b in t] for t in arg_types]]
            for _ in range(2)]
    return source, ops, refuted, runs


def numpy_outcome(source: str, ops, arrays) -> list[np.ndarray] | str:
    """What NumPy computes for the program, or its error for the first op
    that fails, located as bcast locates it (``p.mlir:LINE:COL``)."""
    values = list(arrays)
    lines = source.splitlines()
    for k, (kind, operands, detail) in enumerate(ops):
        args = [values[i] for i in operands]
        if kind == "reduce":
            values.append(np.add.reduce(args[0], axis=detail))
        elif kind == "broadcast":
            values.append(np.broadcast_to(args[0][None], (detail, *args[0].shape)).copy())
        elif kind == "transpose":
            values.append(np.transpose(args[0]).copy())
        else:
            try:
                values.append(getattr(np, kind)(*args))
            except ValueError as e:
                line = lines[k + 1]
                return f"p.mlir:{k + 2}:{line.index('bcast.') + 1}: error: {str(e).strip()}"
    return values[-len(ops):]


@settings(max_examples=examples(200), deadline=None)
@given(dynamic_programs())
def test_random_dynamic_programs_agree_with_numpy_on_every_backend(case):
    """Each backend of ``BACKENDS`` compiles the program once and runs it at
    two draws of run-time sizes: the results are NumPy's, or the error is
    NumPy's for the first op that fails, located there, word for word the
    same on every backend (the reference's). A static pair NumPy refutes is
    a compile-time error on every backend."""
    source, ops, refuted, runs = case
    if any(kind == "transpose" for kind, _, _ in ops):
        event("with a transpose")
    compiled = {}
    for backend in BACKENDS:
        try:
            compiled[backend] = bcast.compile(source, backend=backend, filename="p.mlir")
        except bcast.BcastError as e:
            assert refuted, (backend, source, str(e))
            assert "not broadcast-compatible" in str(e), (backend, str(e))
    if refuted:
        assert not compiled, source
        event("refuted at compile time")
        return
    for arrays in runs:
        want = numpy_outcome(source, ops, arrays)
        event("NumPy's error" if isinstance(want, str) else "results")
        for backend, function in compiled.items():
            try:
                got = function(*arrays)
            except bcast.BcastError as e:
                assert str(e) == want, (backend, source, [a.shape for a in arrays])
                continue
            assert not isinstance(want, str), (backend, source, [a.shape for a in arrays], want)
            got = got if isinstance(got, tuple) else (got,)
            for g, w in zip(got, want, strict=True):
                assert g.dtype == w.dtype and g.shape == w.shape, (backend, source)
                np.testing.assert_array_equal(g, w, err_msg=backend)


SIZE_FROM_INDEX = """func.func @main(%x: tensor<4xf32>, %n: index) -> tensor<?x4xf32> {
  %0 = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [1] : (tensor<4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_size_from_an_index_argument_may_be_0_but_not_negative(backend):
    f = bcast.compile(SIZE_FROM_INDEX, backend=backend, filename="prog.mlir")
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(f(x, 2), np.broadcast_to(x, (2, 4)))
    assert f(x, 0).shape == (0, 4)
    with pytest.raises(bcast.BcastError) as info:
        f(x, -1)
    assert str(info.value) == ("prog.mlir:2:8: error: operand of shape (4,) could not be broadcast to shape (-1, 4)\n"
                               "prog.mlir:2:8: note: size of result dimension 0 is -1, which is negative")
