"""``mulhi`` (``chlo.mulhi``): the high half of the exact product on every
integer type and every backend, against Python's unbounded integers, at
the edges of each type; ``-t stablehlo`` (the definition written in
StableHLO ops) run by XLA; CHLO's op imported."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ("reference", "numpy", "array-api", "c")
TYPES = [("i8", np.int8), ("ui8", np.uint8), ("i16", np.int16), ("ui16", np.uint16),
         ("i32", np.int32), ("ui32", np.uint32), ("i64", np.int64), ("ui64", np.uint64)]


def operands(dtype) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of the type's edge values, and random pairs."""
    info = np.iinfo(dtype)
    edges = sorted({info.min, info.min + 1, -1 if info.min else 2, 0, 1, 3, info.max // 2, info.max // 2 + 1,
                    info.max - 1, info.max, info.min // 2})
    rng = np.random.default_rng(0)
    noise = rng.integers(info.min, info.max, (2, 64), dtype=dtype, endpoint=True)
    x = np.concatenate([np.repeat(np.array(edges, dtype), len(edges)), noise[0]])
    y = np.concatenate([np.tile(np.array(edges, dtype), len(edges)), noise[1]])
    return x, y


def expected(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    bits = np.iinfo(x.dtype).bits
    return np.array([(int(a) * int(b)) >> bits for a, b in zip(x, y)], dtype=object).astype(x.dtype)


def program(element: str, n: int) -> str:
    t = f"tensor<{n}x{element}>"
    return (f"func.func @main(%x: {t}, %y: {t}) -> {t} {{\n  %r = bcast.mulhi %x, %y : ({t}, {t}) -> {t}\n"
            f"  func.return %r : {t}\n}}\n")


@pytest.mark.parametrize("element, dtype", TYPES)
def test_mulhi_is_the_high_half_of_the_exact_product_on_every_backend(element, dtype):
    x, y = operands(dtype)
    want = expected(x, y)
    for backend in BACKENDS:
        got = bcast.compile(program(element, len(x)), backend=backend)(x, y)
        np.testing.assert_array_equal(got, want, err_msg=backend)


def test_the_spec_examples():
    """chlo/mulhi.mlir's values: 64 * 4 = 256 has high byte 1, -64 * 4 is -1."""
    src = program("i8", 3)
    got = bcast.compile(src, backend="c")(np.array([64, -64, -64], np.int8), np.array([4, 4, -4], np.int8))
    np.testing.assert_array_equal(got, [1, -1, 1])


def test_mulhi_broadcasts_as_the_other_binary_ops():
    src = """func.func @main(%x: tensor<4x1xui32>, %y: tensor<3xui32>) -> tensor<4x3xui32> {
  %r = bcast.mulhi %x, %y : (tensor<4x1xui32>, tensor<3xui32>) -> tensor<4x3xui32>
  func.return %r : tensor<4x3xui32>
}"""
    x = np.array([[1], [2**31], [2**32 - 1], [7]], np.uint32)
    y = np.array([2**31, 2**32 - 1, 3], np.uint32)
    want = ((x.astype(object) * y.astype(object)) >> 32).astype(np.uint32)
    for backend in BACKENDS:
        np.testing.assert_array_equal(bcast.compile(src, backend=backend)(x, y), want, err_msg=backend)


def test_floats_are_refused():
    with pytest.raises(bcast.BcastError, match="'bcast.mulhi' op operands must be"):
        bcast.compile(program("f32", 2), backend="reference")


@pytest.mark.parametrize("element, dtype", [("i8", np.int8), ("ui16", np.uint16), ("i32", np.int32),
                                            ("i64", np.int64), ("ui64", np.uint64)])
def test_exported_definition_runs_on_xla(element, dtype):
    x, y = operands(dtype)
    (got,) = run_on_xla(written_back(program(element, len(x))), (x, y))
    np.testing.assert_array_equal(got, expected(x, y))


def test_chlo_mulhi_is_imported():
    src = """func.func @main(%x: tensor<3xi64>, %y: tensor<3xi64>) -> tensor<3xi64> {
  %r = "chlo.mulhi"(%x, %y) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  func.return %r : tensor<3xi64>
}"""
    x = np.array([2**62, -(2**63), 12345678901234], np.int64)
    y = np.array([8, -1, -98765432109876], np.int64)
    for backend in BACKENDS:
        np.testing.assert_array_equal(bcast.compile(src, backend=backend)(x, y), expected(x, y), err_msg=backend)
