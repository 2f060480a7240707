"""The ``bcast.reduce`` canonicalization patterns preserve results.

Random programs reduce an argument, a broadcast of an argument (created dims,
size-1 dims expanded, unsorted dims, size-0 and size-1 dims) or a constant,
with every kind, with and without ``keepdims``, over every element type
(integer wrap, ``f16``, ``i1``, NaN / inf / -0.0 inputs). Each runs on the
reference evaluator before and after ``canonicalize``; results are identical
(NaN equal to NaN, and -0.0 equal to +0.0: see ``bcast.passes.canonicalization``)
except float ``add``, which is within the tolerance of docs/semantics.md (Reductions) (``x * count``
against a repeated sum). Each program also says whether a pattern must
apply: then no ``reduce`` is left.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bcast.ir.ops import ReduceOp
from bcast.passes.canonicalization import FOLD_LIMIT
from bcast.tests.budget import examples
from bcast.tests.passes.test_canonicalization import assert_located, locations, parse, run
from bcast.tools.api import Compiled

DTYPES = {
    "i1": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i32": np.dtype(np.int32),
    "ui8": np.dtype(np.uint8), "ui64": np.dtype(np.uint64), "i64": np.dtype(np.int64),
    "f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
}  # fmt: skip

KINDS = {
    "bool": ("and", "or", "xor"),
    "int": ("add", "multiply", "maximum", "minimum", "and", "or", "xor"),
    "float": ("add", "multiply", "maximum", "minimum"),
}
TOLERANCE = {2: (2e-3, 1e-3), 4: (1e-5, 1e-6), 8: (1e-12, 1e-13)}  # tests/programs.py's


def kinds_of(element: str) -> tuple[str, ...]:
    dtype = DTYPES[element]
    return KINDS["bool" if dtype == np.bool_ else "float" if dtype.kind == "f" else "int"]


def tensor(shape, element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def random_input(rng: np.random.Generator, shape, element: str) -> np.ndarray:
    """Ordinary values mixed with edge values: NaN, inf, -0.0, the float
    maximum, integer min / max (wrap)."""
    dtype = DTYPES[element]
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        small = rng.integers(max(info.min, -9), min(info.max, 9) + 1, size=shape).astype(dtype)
        wide = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
        return np.where(rng.random(shape) < 0.6, small, wide).astype(dtype)
    big = float(np.finfo(dtype).max)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, big, -big, 1.0], dtype=np.float64)
    values = rng.standard_normal(shape) * 3
    with np.errstate(over="ignore"):
        return np.where(rng.random(shape) < 0.8, values, rng.choice(special, size=shape)).astype(dtype)


def dense_literal(values: np.ndarray) -> str:
    """The ``dense<...>`` body of ``values`` (nested lists, MLIR spellings)."""

    def one(v) -> str:
        if values.dtype == np.bool_:
            return "true" if v else "false"
        if values.dtype.kind == "f":
            if np.isfinite(v):
                return repr(float(v))
            bits = np.array(v, values.dtype).view(f"u{values.dtype.itemsize}")
            return f"0x{int(bits):0{2 * values.dtype.itemsize}X}"  # inf and NaN
        return str(int(v))

    def nested(a: np.ndarray) -> str:
        return one(a[()]) if a.ndim == 0 else "[" + ", ".join(nested(b) for b in a) + "]"

    return nested(values)


def add_count_exact(count: int, dtype: np.dtype) -> bool:
    return dtype.kind != "f" or count <= 2 ** (np.finfo(dtype).nmant + 1)


# --------------------------------------------------------------------------
# Random programs
# --------------------------------------------------------------------------


@dataclass
class ReduceProgram:
    text: str
    arg_shapes: list[tuple[int, ...]]
    element: str
    kind: str
    must_rewrite: bool


SIZES = st.sampled_from([0, 1, 1, 2, 3, 4])


@st.composite
def reduce_programs(draw) -> ReduceProgram:
    element = draw(st.sampled_from(sorted(DTYPES)))
    kind = draw(st.sampled_from(kinds_of(element)))
    keepdims = draw(st.booleans())
    source = tuple(draw(st.lists(SIZES, min_size=0, max_size=3)))
    lines: list[str] = []
    args = [f"%x: {tensor(source, element)}"]
    arg_shapes = [source]
    how = draw(st.sampled_from(["argument", "broadcast", "broadcast", "constant"]))
    if how == "constant":
        source = tuple(d if d else 1 for d in source)  # a constant is never empty here
        values = random_input(np.random.default_rng(draw(st.integers(0, 2**16))), source, element)
        literal = dense_literal(values)
        lines.append(f"%c = bcast.constant dense<{literal}> : {tensor(source, element)}")
        operand, shape = "%c", source
    elif how == "broadcast":
        rank = len(source) + draw(st.integers(0, 2))
        positions = draw(st.permutations(range(rank)))[: len(source)]
        if draw(st.booleans()):
            positions = sorted(positions)
        shape = tuple(
            (draw(SIZES) if source[positions.index(d)] == 1 else source[positions.index(d)])
            if d in positions else draw(SIZES)
            for d in range(rank)
        )  # fmt: skip
        lines.append(f"%b = bcast.broadcast_in_dim %x, dims = {list(positions)} : "
                     f"({tensor(source, element)}) -> {tensor(shape, element)}")  # fmt: skip
        operand = "%b"
    else:
        operand, shape = "%x", source
    dims = sorted(draw(st.sets(st.integers(0, max(len(shape) - 1, 0)), max_size=len(shape))))
    dims = [d for d in dims if d < len(shape)]
    result = tuple(1 if i in dims else n for i, n in enumerate(shape)) if keepdims else tuple(
        n for i, n in enumerate(shape) if i not in dims
    )
    keep = " keepdims" if keepdims else ""
    lines.append(f"%r = bcast.reduce {kind} {operand}, dims = {dims}{keep} : "
                 f"({tensor(shape, element)}) -> {tensor(result, element)}")  # fmt: skip
    text = (
        f"func.func @main({', '.join(args)}) -> {tensor(result, element)} {{\n"
        + "".join(f"  {line}\n" for line in lines)
        + f"  func.return %r : {tensor(result, element)}\n}}\n"
    )
    # which pattern must apply
    count = int(np.prod([shape[d] for d in dims], dtype=np.int64))
    result_size = int(np.prod(result, dtype=np.int64))
    must = not dims or all(shape[d] == 1 for d in dims) or (count == 0 and result_size > 0)
    if how == "constant":
        must = must or 0 < result_size <= FOLD_LIMIT
    # (an empty broadcast may become a reshape first: it moves no data)
    if how == "broadcast" and result_size > 0 and count > 0 and kind != "multiply":
        constant_along = all(source[positions.index(d)] == 1 for d in dims if d in positions)
        if constant_along and (kind != "add" or add_count_exact(count, DTYPES[element])):
            must = True
    return ReduceProgram(text, arg_shapes, element, kind, must)


def compare(program: ReduceProgram, got, want) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want)
    dtype = want.dtype
    if dtype.kind == "f" and program.kind == "add":
        rtol, atol = TOLERANCE[dtype.itemsize]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def check(program: ReduceProgram, seed: int) -> None:
    rng = np.random.default_rng(seed)
    args = [random_input(rng, s, program.element) for s in program.arg_shapes]
    before = Compiled(parse(program.text), "main", "reference", "before.mlir")(*args)
    module = parse(program.text)
    where = locations(module)
    run(module, "canonicalize")
    after = Compiled(module, "main", "reference", "after.mlir")(*args)
    text = f"{program.text}\n{module}"
    try:
        compare(program, after, before)
    except AssertionError as e:
        raise AssertionError(f"{e}\n{text}\nargs: {args}") from None
    assert_located(where, module)
    if program.must_rewrite:
        assert not any(isinstance(op, ReduceOp) for op in module.walk()), text


@settings(max_examples=examples(600), deadline=None, suppress_health_check=list(HealthCheck))
@given(program=reduce_programs(), seed=st.integers(0, 2**16))
def test_canonicalize_reduce_preserves_results(program: ReduceProgram, seed: int) -> None:
    check(program, seed)


# --------------------------------------------------------------------------
# Cases by hand: wrap, f16 limits, i1, NaN / inf, zero-size dims, keepdims
# --------------------------------------------------------------------------


def program(lines: list[str], args: list[tuple[str, tuple[int, ...]]], result: str, element: str,
            kind: str, must_rewrite: bool = True) -> ReduceProgram:  # fmt: skip
    arg_text = ", ".join(f"{name}: {tensor(shape, element)}" for name, shape in args)
    body = "".join(f"  {line}\n" for line in lines)
    text = f"func.func @main({arg_text}) -> {result} {{\n{body}  func.return %r : {result}\n}}\n"
    return ReduceProgram(text, [shape for _, shape in args], element, kind, must_rewrite)


def reduce_of_broadcast(kind: str, element: str, source, dims, shape, reduced,
                        keepdims=False) -> ReduceProgram:  # fmt: skip
    result = (tuple(1 if i in reduced else n for i, n in enumerate(shape)) if keepdims
              else tuple(n for i, n in enumerate(shape) if i not in reduced))  # fmt: skip
    keep = " keepdims" if keepdims else ""
    lines = [
        f"%b = bcast.broadcast_in_dim %x, dims = {list(dims)} : "
        f"({tensor(source, element)}) -> {tensor(shape, element)}",
        f"%r = bcast.reduce {kind} %b, dims = {list(reduced)}{keep} : "
        f"({tensor(shape, element)}) -> {tensor(result, element)}",
    ]
    count = int(np.prod([shape[d] for d in reduced], dtype=np.int64))
    must = kind != "multiply" and (kind != "add" or add_count_exact(count, DTYPES[element]))
    return program(lines, [("%x", tuple(source))], tensor(result, element), element, kind, must)


HAND = {
    # integer add wraps: x * (count mod 2**bits)
    "i8_add_1000": reduce_of_broadcast("add", "i8", (3,), [2], (200, 5, 3), [0, 1]),
    "ui8_add_256": reduce_of_broadcast("add", "ui8", (3,), [1], (256, 3), [0]),
    "i64_add_keepdims": reduce_of_broadcast("add", "i64", (1, 3), [0, 2], (7, 5, 3), [0, 1], True),
    "ui64_add_scalar": reduce_of_broadcast("add", "ui64", (), [], (6, 7), [0, 1]),
    # f16: 2048 is the largest exact count; inputs near 65504 overflow alike
    "f16_add_2048": reduce_of_broadcast("add", "f16", (3,), [1], (2048, 3), [0]),
    "f16_add_2049_kept": reduce_of_broadcast("add", "f16", (3,), [1], (2049, 3), [0]),
    "f32_add_expanded": reduce_of_broadcast("add", "f32", (1, 4), [0, 2], (6, 5, 4), [0]),
    "f64_max_transposing": reduce_of_broadcast("maximum", "f64", (2, 3), [2, 0], (3, 4, 2), [1]),
    "f32_min_keepdims": reduce_of_broadcast("minimum", "f32", (3,), [1], (4, 3, 5), [0, 2], True),
    "f16_multiply_kept": reduce_of_broadcast("multiply", "f16", (3,), [1], (4, 3), [0]),
    # i1: and / or / xor (odd and even counts)
    "i1_and": reduce_of_broadcast("and", "i1", (3,), [1], (4, 3), [0]),
    "i1_or_keepdims": reduce_of_broadcast("or", "i1", (1, 3), [0, 1], (4, 3), [0], True),
    "i1_xor_odd": reduce_of_broadcast("xor", "i1", (3,), [1], (3, 3), [0]),
    "i1_xor_even": reduce_of_broadcast("xor", "i1", (3,), [1], (2, 3), [0]),
    "ui8_xor_even_keepdims": reduce_of_broadcast("xor", "ui8", (3,), [1], (4, 3), [0], True),
    # zero-size reduced dims give the identity (a splat)
    "f16_max_zero": reduce_of_broadcast("maximum", "f16", (3,), [1], (0, 3), [0]),
    "i32_multiply_zero": reduce_of_broadcast("multiply", "i32", (3,), [1], (0, 3), [0]),
    "ui8_min_zero": program(
        ["%r = bcast.reduce minimum %x, dims = [1] : (tensor<5x0x4xui8>) -> tensor<5x4xui8>"],
        [("%x", (5, 0, 4))], "tensor<5x4xui8>", "ui8", "minimum"),
    "i1_and_zero_keepdims": program(
        ["%r = bcast.reduce and %x, dims = [0] keepdims : (tensor<0x2xi1>) -> tensor<1x2xi1>"],
        [("%x", (0, 2))], "tensor<1x2xi1>", "i1", "and"),
    # size-1 dims only, and no dims
    "f16_add_unit_dims": program(
        ["%r = bcast.reduce add %x, dims = [1, 3] : (tensor<2x1x3x1xf16>) -> tensor<2x3xf16>"],
        [("%x", (2, 1, 3, 1))], "tensor<2x3xf16>", "f16", "add"),
    "f32_multiply_unit_keepdims": program(
        ["%r = bcast.reduce multiply %x, dims = [0] keepdims : (tensor<1x3xf32>) -> tensor<1x3xf32>"],
        [("%x", (1, 3))], "tensor<1x3xf32>", "f32", "multiply"),
    "f32_add_no_dims": program(
        ["%r = bcast.reduce add %x, dims = [] : (tensor<2x3xf32>) -> tensor<2x3xf32>"],
        [("%x", (2, 3))], "tensor<2x3xf32>", "f32", "add"),
}  # fmt: skip
HAND["f16_add_2049_kept"].must_rewrite = False


@pytest.mark.parametrize("name", sorted(HAND))
@pytest.mark.parametrize("seed", range(5))
def test_hand_written_reductions(name: str, seed: int) -> None:
    check(HAND[name], seed)


def test_f16_add_overflows_alike() -> None:
    """``x * 2048`` in f16 and the f32 sum rounded once overflow together."""
    prog = HAND["f16_add_2048"]
    x = np.array([31.98, 32.0, 40.0], dtype=np.float16)  # 65495, 65536 -> inf, 81920 -> inf
    before = Compiled(parse(prog.text), "main", "reference", "before.mlir")(x)
    module = parse(prog.text)
    run(module, "canonicalize")
    after = Compiled(module, "main", "reference", "after.mlir")(x)
    np.testing.assert_array_equal(after, before)
    assert np.isinf(after[1:]).all() and np.isfinite(after[0])


def test_integer_add_wraps_exactly() -> None:
    prog = HAND["i8_add_1000"]
    x = np.array([-128, 127, 3], dtype=np.int8)
    module = parse(prog.text)
    run(module, "canonicalize")
    got = Compiled(module, "main", "reference", "after.mlir")(x)
    want = ((x.astype(np.int64) * 1000 + 128) % 256 - 128).astype(np.int8)
    np.testing.assert_array_equal(got, want)
