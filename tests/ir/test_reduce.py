"""``bcast.reduce`` (issue 9, first step): ``numerics.reduce`` against an
independent oracle (Python scalars, one output element at a time), the op's
builder, and both backends on normalization programs."""

from __future__ import annotations

import functools
import math
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.ir import Block

import bcast
from bcast.ir import numerics
from bcast.ir import ops as bc
from bcast.ir.types import NUMPY_DTYPES, make_type
from bcast.tests.budget import examples
from bcast.tests.programs import type_text

KINDS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")
INTS = ("i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64")
FLOATS = ("f16", "f32", "f64")


def allowed(kind: str) -> tuple[str, ...]:
    """Element types each kind takes (as the binary op it folds with)."""
    return ("i1", *INTS) if kind in ("and", "or", "xor") else INTS + FLOATS


# --------------------------------------------------------------------------
# The oracle: each output element from the Python scalars it reduces.
# --------------------------------------------------------------------------


def combine(kind: str, values: list, dtype: np.dtype):
    if dtype == np.bool_:
        return {"and": all, "or": any, "xor": lambda v: sum(v) % 2 == 1}[kind](values)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if kind in ("maximum", "minimum"):
            pick = max if kind == "maximum" else min
            return pick(values, default=info.min if kind == "maximum" else info.max)
        start = {"add": 0, "multiply": 1, "and": -1, "or": 0, "xor": 0}[kind]
        op = {"add": operator.add, "multiply": operator.mul, "and": operator.and_,
              "or": operator.or_, "xor": operator.xor}[kind]  # fmt: skip
        exact = functools.reduce(op, values, start) % 2**info.bits  # wrap
        return exact - 2**info.bits if exact > info.max else exact
    if kind in ("maximum", "minimum"):
        if any(math.isnan(v) for v in values):
            return math.nan
        pick = max if kind == "maximum" else min
        return pick(values, default=-math.inf if kind == "maximum" else math.inf)
    return math.fsum(values) if kind == "add" else math.prod(values)


def oracle(kind: str, x: np.ndarray, dims, keepdims: bool) -> np.ndarray:
    dims = sorted(dims)
    kept = [d for d in range(x.ndim) if d not in dims]
    count = math.prod(x.shape[d] for d in dims)
    rows = np.transpose(x, kept + dims).reshape([x.shape[d] for d in kept] + [count])
    out = np.empty(rows.shape[:-1], x.dtype)
    with np.errstate(over="ignore"):
        for index in np.ndindex(out.shape):
            out[index] = combine(kind, rows[index].tolist(), x.dtype)
    if keepdims:
        out = out.reshape([1 if d in dims else n for d, n in enumerate(x.shape)])
    return out


def assert_reduced(got, want, kind: str, x: np.ndarray, dims) -> None:
    """Integers and booleans exactly; floats exactly for maximum/minimum and
    within a tolerance growing with the reduced size for add/multiply (the
    the rule of docs/semantics.md: backends may reassociate float sums)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got, want)
    if x.dtype.kind != "f" or kind in ("maximum", "minimum"):
        np.testing.assert_array_equal(got, want)
        return
    n = max(1, math.prod(x.shape[d] for d in dims))
    eps = np.finfo(x.dtype).eps
    g, w = got.astype(np.float64), want.astype(np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    scale = np.abs(oracle("add" if kind == "add" else "multiply",
                          np.abs(x.astype(np.float64)), dims, got.ndim == x.ndim))  # fmt: skip
    assert np.all(same | (np.abs(g - w) <= 4 * n * eps * scale.reshape(g.shape) + eps)), (got, want)


def sample(element: str, shape, rng: np.random.Generator) -> np.ndarray:
    dtype = np.dtype(NUMPY_DTYPES[element])
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.standard_normal(shape).astype(dtype)


# --------------------------------------------------------------------------
# numerics.reduce
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_every_kind_and_type_matches_the_oracle(kind: str, keepdims: bool) -> None:
    rng = np.random.default_rng(9)
    for element in allowed(kind):
        x = sample(element, (3, 4, 5), rng)
        for dims in [(1,), (2, 0), (0, 1, 2), ()]:
            got = numerics.reduce(kind, x, dims, keepdims)
            assert_reduced(got, oracle(kind, x, dims, keepdims), kind, x, dims)


def test_integer_sums_and_products_wrap_without_warnings() -> None:
    x = np.array([[100, 100, 100], [-128, -1, 1]], np.int8)
    with np.errstate(all="raise"):
        assert numerics.reduce("add", x, (1,)).tolist() == [44, -128]
        assert numerics.reduce("multiply", x, (1,)).tolist() == [64, -128]
    big = np.full(4, np.iinfo(np.uint64).max, np.uint64)
    assert numerics.reduce("add", big, (0,)) == np.uint64(2**64 - 4)
    assert numerics.reduce("add", x, (1,)).dtype == np.int8  # not NumPy's widened sum


@pytest.mark.parametrize("element", ["i1", "i8", "ui16", "i64", "f16", "f32"])
def test_zero_size_dims_give_the_identity(element: str) -> None:
    dtype = np.dtype(NUMPY_DTYPES[element])
    x = np.zeros((2, 0, 3), dtype)
    for kind in KINDS:
        if element not in allowed(kind):
            continue
        got = numerics.reduce(kind, x, (1,))
        assert got.shape == (2, 3) and got.dtype == dtype
        np.testing.assert_array_equal(got, oracle(kind, x, (1,), False))
    if dtype.kind == "f":
        assert numerics.reduce("maximum", x, (1,))[0, 0] == -np.inf
        assert numerics.reduce("minimum", x, (1,))[0, 0] == np.inf
    elif dtype.kind in "iu":
        assert numerics.reduce("maximum", x, (1,))[0, 0] == np.iinfo(dtype).min
        assert numerics.reduce("and", x, (1,))[0, 0] == np.invert(dtype.type(0))
    # keepdims keeps the zero-size dim as size 1
    assert numerics.reduce("or" if dtype.kind != "f" else "add", x, (1,), True).shape == (2, 1, 3)


@pytest.mark.parametrize("kind", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_maximum_and_minimum_propagate_nan(kind: str, dtype) -> None:
    x = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan], [-1.0, -np.inf, 2.0]], dtype)
    got = numerics.reduce(kind, x, (1,))
    assert np.isnan(got[0]) and np.isnan(got[1]) and not np.isnan(got[2])
    assert np.isnan(numerics.reduce(kind, x, (0, 1)))


def test_f16_accumulates_in_f32_and_rounds_once() -> None:
    # 4096 ones: an f16 accumulator stops at 2048 (2048 + 1 rounds to 2048).
    ones = np.ones(4096, np.float16)
    assert numerics.reduce("add", ones, (0,)) == np.float16(4096)
    rng = np.random.default_rng(16)
    x = rng.uniform(0, 2, (7, 3000)).astype(np.float16)
    for kind in ("add", "multiply"):
        y = x[:, :40] if kind == "multiply" else x
        want = getattr(np, kind).reduce(y.astype(np.float32), axis=1).astype(np.float16)
        got = numerics.reduce(kind, y, (1,))
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got, want)


def test_keepdims_result_broadcasts_back() -> None:
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    kept = numerics.reduce("maximum", x, (2, 0), keepdims=True)
    assert kept.shape == (1, 3, 1)
    np.testing.assert_array_equal(x - kept, x - x.max(axis=(0, 2), keepdims=True))


# --------------------------------------------------------------------------
# The op
# --------------------------------------------------------------------------


def test_builder_infers_the_type_and_sorts_dims() -> None:
    block = Block(arg_types=[make_type(((2, 3, 4),), "f32"), make_type(((3, 4), (2, 2)), "f32")])
    x, nested = block.args
    op = bc.ReduceOp("add", x, [2, 0])
    assert op.reduced_dims == (0, 2) and not op.keeps_dims
    assert op.result.type == make_type(((3,),), "f32")
    kept = bc.ReduceOp(bc.ReductionKind.MAXIMUM, x, [1], keepdims=True)
    assert kept.result.type == make_type(((2, 1, 4),), "f32")
    assert kept.kind_name == "maximum"
    # nested: the outer level only (the builder infers under tml)
    assert bc.ReduceOp("add", nested, [1]).result.type == make_type(((3,), (2, 2)), "f32")
    assert bc.ReduceOp("add", nested, [0, 1]).result.type == make_type(((), (2, 2)), "f32")
    op.verify()
    kept.verify()


def test_nested_reduction_reduces_the_outer_level() -> None:
    src = """
module attributes {bcast.semantics = "tml"} {
  func.func @main(%x: tensor<3x4xtensor<2xf32>>) -> tensor<3xtensor<2xf32>> {
    %0 = bcast.reduce add %x, dims = [1] : (tensor<3x4xtensor<2xf32>>) -> tensor<3xtensor<2xf32>>
    func.return %0 : tensor<3xtensor<2xf32>>
  }
}
"""
    x = np.arange(24, dtype=np.float32).reshape(3, 4, 2)
    got = bcast.compile(src, backend="reference")(x)
    np.testing.assert_array_equal(np.asarray(got), x.sum(axis=1))


# --------------------------------------------------------------------------
# Both backends on normalization programs (numpy semantics: a keepdims
# result broadcasts back)
# --------------------------------------------------------------------------

SUBTRACT_MAX = """
func.func @main(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %r = bcast.subtract %x, %m : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  func.return %r : tensor<5x7xf32>
}
"""

SOFTMAX = """
func.func @main(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %d = bcast.subtract %x, %m : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  %e = bcast.exponential %d : tensor<5x7xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %r = bcast.divide %e, %s : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  func.return %r : tensor<5x7xf32>
}
"""

CENTER_COLUMNS = """
func.func @main(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %n = bcast.constant dense<5.0> : tensor<f32>
  %s = bcast.reduce add %x, dims = [0] : (tensor<5x7xf32>) -> tensor<7xf32>
  %mean = bcast.divide %s, %n : (tensor<7xf32>, tensor<f32>) -> tensor<7xf32>
  %r = bcast.subtract %x, %mean : (tensor<5x7xf32>, tensor<7xf32>) -> tensor<5x7xf32>
  func.return %r : tensor<5x7xf32>
}
"""

LOGSUMEXP = """
func.func @main(%x: tensor<5x7xf32>) -> tensor<5xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %d = bcast.subtract %x, %m : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  %e = bcast.exponential %d : tensor<5x7xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %l = bcast.log %s : tensor<5x1xf32>
  %t = bcast.add %l, %m : (tensor<5x1xf32>, tensor<5x1xf32>) -> tensor<5x1xf32>
  %r = bcast.reshape %t : (tensor<5x1xf32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}
"""


def _softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


PROGRAMS = {
    "subtract_max": (SUBTRACT_MAX, lambda x: x - x.max(axis=1, keepdims=True)),
    "softmax": (SOFTMAX, _softmax),
    "center_columns": (CENTER_COLUMNS, lambda x: x - x.sum(axis=0) / np.float32(5)),
    "logsumexp": (LOGSUMEXP, lambda x: np.log(np.exp(x - x.max(1, keepdims=True)).sum(1))
                  + x.max(1)),
}  # fmt: skip


@pytest.mark.parametrize("backend", ["reference", "numpy"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_normalization_programs_on_both_backends(name: str, backend: str) -> None:
    src, numpy_version = PROGRAMS[name]
    x = (np.random.default_rng(3).standard_normal((5, 7)) * 4).astype(np.float32)
    got = np.asarray(bcast.compile(src, backend=backend)(x))
    np.testing.assert_allclose(got, numpy_version(x), rtol=1e-5, atol=1e-5)


def test_softmax_becomes_one_fusion() -> None:
    """bcast-fuse puts both reductions of softmax in the fusion with the
    elementwise ops around them (``bcast.ir.fusion``)."""
    from bcast.tools.driver import STANDARD_PIPELINE, load

    module = load(SOFTMAX, "softmax.mlir", pipeline=STANDARD_PIPELINE)
    top = [op.name for op in module.body.block.first_op.body.block.ops]
    assert top == ["bcast.fusion", "func.return"]


def test_integer_wrapping_on_both_backends() -> None:
    src = """
func.func @main(%x: tensor<2x3xi8>) -> tensor<2xi8> {
  %0 = bcast.reduce add %x, dims = [1] : (tensor<2x3xi8>) -> tensor<2xi8>
  func.return %0 : tensor<2xi8>
}
"""
    x = np.array([[100, 100, 100], [-128, -1, 1]], np.int8)
    for backend in ("reference", "numpy"):
        assert np.asarray(bcast.compile(src, backend=backend)(x)).tolist() == [44, -128]


# --------------------------------------------------------------------------
# Property: random reductions, reference (and numpy backend) vs the oracle
# --------------------------------------------------------------------------


@st.composite
def reductions(draw):
    shape = tuple(draw(st.lists(st.sampled_from([0, 1, 2, 3, 5]), min_size=0, max_size=3)))
    kind = draw(st.sampled_from(KINDS))
    element = draw(st.sampled_from(allowed(kind)))
    dims = draw(st.permutations(range(len(shape))))
    dims = dims[: draw(st.integers(0, len(shape)))]
    return shape, kind, element, list(dims), draw(st.booleans()), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reductions())
def test_random_reductions_match_the_oracle(case) -> None:
    shape, kind, element, dims, keepdims, seed = case
    x = sample(element, shape, np.random.default_rng(seed))
    if x.dtype.kind == "f" and x.size and seed % 4 == 0:
        x.reshape(-1)[seed % x.size] = np.nan
    want = oracle(kind, x, dims, keepdims)
    operand = type_text((shape,), element)
    result = type_text((want.shape,), element)
    src = f"""
func.func @main(%x: {operand}) -> {result} {{
  %0 = bcast.reduce {kind} %x, dims = {dims}{' keepdims' if keepdims else ''} : ({operand}) -> {result}
  func.return %0 : {result}
}}
"""
    reference = np.asarray(bcast.compile(src, backend="reference")(x))
    assert_reduced(reference, want, kind, x, dims)
    generated = np.asarray(bcast.compile(src, backend="numpy")(x))
    assert_reduced(generated, reference, kind, x, dims)
