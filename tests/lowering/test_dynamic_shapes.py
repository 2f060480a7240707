"""Dynamic and bounded dims at run time (docs/semantics.md, "Dynamic and
bounded shapes"): one compiled function runs at every size, with NumPy's
results or NumPy's error located at the op, nothing written to ``out``;
sizes above a bound are argument errors; backends that do not run dynamic
dims yet refuse them, located and naming the backend."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tools import run as bcast_run

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


@pytest.fixture(scope="module")
def compiled():
    return bcast.compile(PROGRAM, backend="reference", filename="prog.mlir")


@pytest.mark.parametrize("n", [0, 1, 2, 5])
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


BOUNDED = """func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<16, ?>>, %y: tensor<4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<16, ?>> {
  %0 = bcast.add %x, %y : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>, tensor<4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<16, ?>>
  func.return %0 : tensor<?x4xf32, #stablehlo.bounds<16, ?>>
}
"""


def test_sizes_up_to_the_bound_run_and_above_it_are_refused():
    f = bcast.compile(BOUNDED, backend="reference", filename="prog.mlir")
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


def test_a_bound_below_the_other_size_stretches_only_from_1():
    f = bcast.compile(BOUND_BELOW, backend="reference", filename="prog.mlir")
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


def test_tml_logical_ops_check_equality_and_never_stretch():
    f = bcast.compile(TML_STRICT, backend="reference", filename="prog.mlir")
    q = np.array([True, False, True, True])
    np.testing.assert_array_equal(f(np.ones(4, bool), q), q)
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones(1, bool), q)  # NumPy would stretch the 1; tml does not
    lines = str(info.value).splitlines()
    assert lines[0] == "prog.mlir:3:8: error: operands could not be broadcast together with shapes (1,) (4,)"
    assert lines[1].startswith("prog.mlir:3:8: note: logical operations under tml semantics need a scalar operand")


XLA = """module attributes {bcast.semantics = "xla"} {
func.func @main(%m: tensor<?x4xf32>, %c: tensor<?xf32>) -> tensor<?x4xf32> {
  %0 = bcast.add %m, %c broadcast_dimensions = [0] : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
}
"""


def test_xla_broadcast_dimensions_at_run_time():
    f = bcast.compile(XLA, backend="reference", filename="prog.mlir")
    m, c = np.ones((3, 4), np.float32), np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(f(m, c), m + c[:, None])
    np.testing.assert_array_equal(f(m, c[:1]), m + c[0])
    with pytest.raises(bcast.BcastError, match="^prog.mlir:3:8: error: operands could not be broadcast together "
                                               r"with shapes \(3, 4\) \(2,\)"):
        f(m, c[:2])


def test_broadcast_in_dim_into_a_static_dim_checks_the_operand():
    src = """func.func @main(%v: tensor<?xf32>) -> tensor<2x3xf32> {
  %0 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<?xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""
    f = bcast.compile(src, backend="reference", filename="prog.mlir")
    np.testing.assert_array_equal(f(np.array([1, 2, 3], np.float32)), np.tile([1, 2, 3], (2, 1)))
    np.testing.assert_array_equal(f(np.array([5], np.float32)), np.full((2, 3), 5))
    with pytest.raises(bcast.BcastError, match=r"^prog.mlir:2:8: error: operand of shape \(2,\) could not be "
                                               r"broadcast to shape \(2, 3\)"):
        f(np.ones(2, np.float32))


@pytest.mark.parametrize("backend", ["numpy", "array-api"])
def test_backends_without_dynamic_dims_refuse_them_located(backend):
    if backend not in bcast.tools.api.BACKENDS:
        pytest.fail(f"backend {backend} is not available in this build")
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(PROGRAM, backend=backend, filename="prog.mlir")
    assert str(info.value).splitlines()[0] == (
        f"prog.mlir:1:1: error: 'func.func' op has dynamic dimensions (tensor<?x4xf32>), which the {backend} "
        "backend does not support yet")


def test_the_default_backend_runs_dynamic_programs():
    f = bcast.compile(BOUND_BELOW, filename="prog.mlir")
    assert f.backend == "c"  # the test machine has a C compiler (tests/README.md)
    np.testing.assert_array_equal(f(np.array([5], np.float32), np.zeros(4, np.float32)), np.full(4, 5))


def test_bcast_run_exits_1_with_the_located_error(tmp_path, capsys):
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    np.savez(tmp_path / "in.npz", arg0=np.ones((3, 4), np.float32), arg1=np.ones(4, np.float32),
             arg2=np.ones((3, 1), np.float32), arg3=np.ones(4, np.float32))
    code = bcast_run.main([str(path), "--inputs", str(tmp_path / "in.npz")])
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


def test_tml_arithmetic_per_nesting_level_at_run_time():
    """Values are flat (outer dims, then inner); the error shows flat shapes."""
    f = bcast.compile(TML_NESTED, backend="reference", filename="prog.mlir")
    n = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(f(n, np.array([[10, 20, 30]], np.float32)), n + [10, 20, 30])
    np.testing.assert_array_equal(f(n, np.array([[5]], np.float32)), n + 5)
    np.testing.assert_array_equal(f(n[:0], np.array([[5]], np.float32)), n[:0])
    with pytest.raises(bcast.BcastError, match=r"^prog.mlir:3:8: error: operands could not be broadcast together "
                                               r"with shapes \(2, 3\) \(1, 2\)$"):
        f(n, np.array([[1, 2]], np.float32))
