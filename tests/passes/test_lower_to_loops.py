"""``bcast-lower-to-loops``: the loop IR is upstream MLIR, and compiled by
upstream MLIR/LLVM it computes what the reference evaluator computes.

For each program below (the examples, normalizations, integer edge cases,
f16, i1, ui8, nested tml, reductions over dim 0, extract/assign, calls,
constants): the standard pipeline then ``bcast-lower-to-loops`` runs; the
output must hold only builtin/func/scf/memref/arith/math ops; ``mlir-opt``
19 must verify it; and the shared object built by
``bcast.lowering.memref_abi`` (mlir-opt -> mlir-translate -> llc -> cc),
called through the memref descriptors, must give the reference's results
(integers and booleans exactly, floats within a tolerance). Tests that need
the LLVM 19 tools skip, visibly, when they are absent.
"""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from xdsl.dialects import arith, cf, func, scf
from xdsl.dialects.builtin import TensorType
from xdsl.printer import Printer

import bcast
from bcast.ir import loops
from bcast.ir.types import flat_type_shape, numpy_dtype
from bcast.lowering import memref_abi
from bcast.tests import paths
from bcast.tests.budget import examples
from bcast.tests.programs import assert_results, programs
from bcast.tools import driver

PIPELINE = driver.STANDARD_PIPELINE + ",bcast-lower-to-loops"
LOOP_DIALECTS = {"builtin", "func", "scf", "memref", "arith", "math", "cf"}

needs_llvm = pytest.mark.skipif(
    not memref_abi.tools_available(), reason="mlir-opt-19 not installed (apt-get install mlir-19-tools llvm-19)"
)


def lower(src: str) -> str:
    module = driver.load(src, "<test>", pipeline=PIPELINE)
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def signature(src: str, entry: str = "main"):
    module = driver.load(src, "<test>")
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == entry)
    t = f.function_type
    return ([(flat_type_shape(a), numpy_dtype(a)) if isinstance(a, TensorType) else None
             for a in t.inputs.data],
            [(flat_type_shape(r), numpy_dtype(r)) if isinstance(r, TensorType) else ((), np.dtype(np.int64))
             for r in t.outputs.data])  # an index result: a rank-0 i64 buffer


EDGE_INTS = {
    "i": lambda info: [0, -1, 1, info.min, info.max, 2, -2, 7, -7, 3],
    "u": lambda info: [0, 1, info.max, 2, 7, 3, info.max - 1, 8],
}
EDGE_FLOATS = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.5, 3.0e9, -3.0e9, 0.49]


def make_input(rng: np.random.Generator, shape, dtype: np.dtype, edges: bool) -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.bool_:
        flat = rng.random(n) < 0.5
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        flat = rng.integers(max(info.min, -9), min(info.max, 9) + 1, size=n).astype(dtype)
        if edges:
            pool = np.array(EDGE_INTS[dtype.kind](info), dtype=dtype)
            pick = rng.random(n) < 0.5
            flat = np.where(pick, rng.choice(pool, size=n), flat).astype(dtype)
    else:
        flat = rng.normal(0.0, 2.0, size=n).astype(dtype)
        if edges:
            pool = np.array(EDGE_FLOATS, dtype=np.float64).astype(dtype)
            pick = rng.random(n) < 0.4
            flat = np.where(pick, rng.choice(pool, size=n), flat).astype(dtype)
    return flat.reshape(shape)


def read(path: Path) -> str:
    return path.read_text()


# name -> (source, edge values in the inputs)
PROGRAMS: dict[str, tuple[str, bool]] = {}


def program(name: str, src: str, edges: bool = False) -> None:
    PROGRAMS[name] = (src, edges)


for path in sorted(paths.EXAMPLES.glob("*.mlir")) + sorted((paths.EXAMPLES / "jax").glob("*.mlir")):
    program(f"example_{path.stem}", read(path))

program("dynamic_index", """
func.func @main(%x: tensor<7x3xf32>, %v: tensor<3xf32>, %i: index) -> (tensor<3xf32>, tensor<7x3xf32>, index) {
  %r = bcast.extract %x[%i] : (tensor<7x3xf32>, index) -> tensor<3xf32>
  %a = bcast.assign %x[%i], %v : (tensor<7x3xf32>, index, tensor<3xf32>) -> tensor<7x3xf32>
  func.return %r, %a, %i : tensor<3xf32>, tensor<7x3xf32>, index
}""")

program("dynamic_slices", """
func.func @main(%x: tensor<7x3xf32>, %i: tensor<i8>, %j: tensor<ui64>, %k: tensor<i32>, %u: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<7x3xf32>, tensor<1x3xf32>) {
  %s = bcast.dynamic_slice %x[%i, %i], sizes = [2, 2] : (tensor<7x3xf32>, tensor<i8>, tensor<i8>) -> tensor<2x2xf32>
  %a = bcast.dynamic_update_slice %x[%j, %j], %u : (tensor<7x3xf32>, tensor<ui64>, tensor<ui64>, tensor<2x2xf32>) -> tensor<7x3xf32>
  %r = bcast.dynamic_slice %a[%k, %k], sizes = [1, 3] : (tensor<7x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
  func.return %s, %a, %r : tensor<2x2xf32>, tensor<7x3xf32>, tensor<1x3xf32>
}""", edges=True)

program("total_order", """
func.func @main(%a: tensor<6x5xf16>, %b: tensor<5xf16>, %x: tensor<7xf64>, %y: tensor<7xf64>) -> (tensor<6x5xi1>, tensor<7xi1>, tensor<7xi1>) {
  %0 = bcast.compare LT, %a, %b, TOTALORDER : (tensor<6x5xf16>, tensor<5xf16>) -> tensor<6x5xi1>
  %1 = bcast.compare EQ, %x, %y, TOTALORDER : (tensor<7xf64>, tensor<7xf64>) -> tensor<7xi1>
  %2 = bcast.compare GE, %x, %y, TOTALORDER : (tensor<7xf64>, tensor<7xf64>) -> tensor<7xi1>
  func.return %0, %1, %2 : tensor<6x5xi1>, tensor<7xi1>, tensor<7xi1>
}""", edges=True)

program("argmax_cumulative", """
func.func @main(%x: tensor<5x7xf32>, %h: tensor<4x3xf16>, %u: tensor<6x2xui8>) -> (tensor<5xi32>, tensor<3xi64>, tensor<2xi32>, tensor<5x7xf32>, tensor<4x3xf16>, tensor<6x2xui8>) {
  %e = bcast.exponential %x : tensor<5x7xf32>
  %a = bcast.argmax %e, dim = 1 : (tensor<5x7xf32>) -> tensor<5xi32>
  %b = bcast.argmin %h, dim = 0 : (tensor<4x3xf16>) -> tensor<3xi64>
  %c = bcast.argmax %u, dim = 0 : (tensor<6x2xui8>) -> tensor<2xi32>
  %s = bcast.cumulative add %e, dim = 1 : (tensor<5x7xf32>) -> tensor<5x7xf32>
  %m = bcast.cumulative maximum %h, dim = 0 reverse : (tensor<4x3xf16>) -> tensor<4x3xf16>
  %p = bcast.cumulative multiply %u, dim = 0 : (tensor<6x2xui8>) -> tensor<6x2xui8>
  func.return %a, %b, %c, %s, %m, %p : tensor<5xi32>, tensor<3xi64>, tensor<2xi32>, tensor<5x7xf32>, tensor<4x3xf16>, tensor<6x2xui8>
}""", edges=True)

program("sort", """
func.func @main(%x: tensor<5x7xf32>, %h: tensor<9xf16>, %u: tensor<6x2xui8>, %i: tensor<5x7xi32>) -> (tensor<5x7xf32>, tensor<5x7xi32>, tensor<9xf16>, tensor<6x2xui8>) {
  %e = bcast.exponential %x : tensor<5x7xf32>
  %s = bcast.sort %e by %e, dim = 1 : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xf32>
  %a = bcast.sort %i by %x descending, dim = 0 : (tensor<5x7xi32>, tensor<5x7xf32>) -> tensor<5x7xi32>
  %t = bcast.sort %h by %h descending total_order, dim = 0 : (tensor<9xf16>, tensor<9xf16>) -> tensor<9xf16>
  %v = bcast.sort %u by %u, dim = 0 : (tensor<6x2xui8>, tensor<6x2xui8>) -> tensor<6x2xui8>
  func.return %s, %a, %t, %v : tensor<5x7xf32>, tensor<5x7xi32>, tensor<9xf16>, tensor<6x2xui8>
}""", edges=True)

program("softmax", """
func.func @main(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %d = bcast.subtract %x, %m : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  %e = bcast.exponential %d : tensor<5x7xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<5x7xf32>) -> tensor<5x1xf32>
  %r = bcast.divide %e, %s : (tensor<5x7xf32>, tensor<5x1xf32>) -> tensor<5x7xf32>
  func.return %r : tensor<5x7xf32>
}""")

program("layernorm", """
func.func @main(%x: tensor<4x6xf64>, %g: tensor<6xf64>, %b: tensor<6xf64>) -> tensor<4x6xf64> {
  %n = bcast.constant dense<6.0> : tensor<f64>
  %eps = bcast.constant dense<1.0e-5> : tensor<f64>
  %s = bcast.reduce add %x, dims = [1] keepdims : (tensor<4x6xf64>) -> tensor<4x1xf64>
  %mean = bcast.divide %s, %n : (tensor<4x1xf64>, tensor<f64>) -> tensor<4x1xf64>
  %c = bcast.subtract %x, %mean : (tensor<4x6xf64>, tensor<4x1xf64>) -> tensor<4x6xf64>
  %sq = bcast.multiply %c, %c : (tensor<4x6xf64>, tensor<4x6xf64>) -> tensor<4x6xf64>
  %vs = bcast.reduce add %sq, dims = [1] keepdims : (tensor<4x6xf64>) -> tensor<4x1xf64>
  %var = bcast.divide %vs, %n : (tensor<4x1xf64>, tensor<f64>) -> tensor<4x1xf64>
  %ve = bcast.add %var, %eps : (tensor<4x1xf64>, tensor<f64>) -> tensor<4x1xf64>
  %r = bcast.rsqrt %ve : tensor<4x1xf64>
  %y = bcast.multiply %c, %r : (tensor<4x6xf64>, tensor<4x1xf64>) -> tensor<4x6xf64>
  %yg = bcast.multiply %y, %g : (tensor<4x6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
  %out = bcast.add %yg, %b : (tensor<4x6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
  func.return %out : tensor<4x6xf64>
}""")

program("logsumexp_3d_and_two_results", """
func.func @main(%x: tensor<3x4x5xf32>) -> (tensor<3x5xf32>, tensor<3x4x5xf32>) {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<3x4x5xf32>) -> tensor<3x1x5xf32>
  %d = bcast.subtract %x, %m : (tensor<3x4x5xf32>, tensor<3x1x5xf32>) -> tensor<3x4x5xf32>
  %e = bcast.exponential %d : tensor<3x4x5xf32>
  %s = bcast.reduce add %e, dims = [1] : (tensor<3x4x5xf32>) -> tensor<3x5xf32>
  %l = bcast.log %s : tensor<3x5xf32>
  %mm = bcast.reshape %m : (tensor<3x1x5xf32>) -> tensor<3x5xf32>
  %r = bcast.add %l, %mm : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return %r, %e : tensor<3x5xf32>, tensor<3x4x5xf32>
}""")

program("int_divide_remainder", """
func.func @main(%a: tensor<6x10xi32>, %b: tensor<10xi32>, %c: tensor<6x10xui8>, %d: tensor<6x10xui8>)
    -> (tensor<6x10xi32>, tensor<6x10xi32>, tensor<6x10xui8>, tensor<6x10xui8>) {
  %q = bcast.divide %a, %b : (tensor<6x10xi32>, tensor<10xi32>) -> tensor<6x10xi32>
  %r = bcast.remainder %a, %b : (tensor<6x10xi32>, tensor<10xi32>) -> tensor<6x10xi32>
  %uq = bcast.divide %c, %d : (tensor<6x10xui8>, tensor<6x10xui8>) -> tensor<6x10xui8>
  %ur = bcast.remainder %c, %d : (tensor<6x10xui8>, tensor<6x10xui8>) -> tensor<6x10xui8>
  func.return %q, %r, %uq, %ur : tensor<6x10xi32>, tensor<6x10xi32>, tensor<6x10xui8>, tensor<6x10xui8>
}""", edges=True)

program("int_divide_min_by_minus_one", """
func.func @main() -> (tensor<4xi8>, tensor<4xi8>) {
  %a = bcast.constant dense<[-128, -128, 7, -7]> : tensor<4xi8>
  %b = bcast.constant dense<[-1, 0, 0, 2]> : tensor<4xi8>
  %q = bcast.divide %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %r = bcast.remainder %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  func.return %q, %r : tensor<4xi8>, tensor<4xi8>
}""")

program("shifts", """
func.func @main(%x: tensor<8x5xi32>, %n: tensor<8x5xi32>, %u: tensor<8x5xui8>, %m: tensor<8x5xui8>)
    -> (tensor<8x5xi32>, tensor<8x5xi32>, tensor<8x5xi32>, tensor<8x5xui8>, tensor<8x5xui8>, tensor<8x5xui8>) {
  %a = bcast.shift_left %x, %n : (tensor<8x5xi32>, tensor<8x5xi32>) -> tensor<8x5xi32>
  %b = bcast.shift_right_logical %x, %n : (tensor<8x5xi32>, tensor<8x5xi32>) -> tensor<8x5xi32>
  %c = bcast.shift_right_arithmetic %x, %n : (tensor<8x5xi32>, tensor<8x5xi32>) -> tensor<8x5xi32>
  %d = bcast.shift_left %u, %m : (tensor<8x5xui8>, tensor<8x5xui8>) -> tensor<8x5xui8>
  %e = bcast.shift_right_logical %u, %m : (tensor<8x5xui8>, tensor<8x5xui8>) -> tensor<8x5xui8>
  %f = bcast.shift_right_arithmetic %u, %m : (tensor<8x5xui8>, tensor<8x5xui8>) -> tensor<8x5xui8>
  func.return %a, %b, %c, %d, %e, %f : tensor<8x5xi32>, tensor<8x5xi32>, tensor<8x5xi32>, tensor<8x5xui8>, tensor<8x5xui8>, tensor<8x5xui8>
}""", edges=True)

program("int_power_and_wrap", """
func.func @main(%x: tensor<7x6xi16>, %y: tensor<7x6xi16>, %u: tensor<7x6xui8>, %v: tensor<7x6xui8>)
    -> (tensor<7x6xi16>, tensor<7x6xi16>, tensor<7x6xui8>, tensor<7x6xi16>, tensor<7x6xi16>) {
  %p = bcast.power %x, %y : (tensor<7x6xi16>, tensor<7x6xi16>) -> tensor<7x6xi16>
  %m = bcast.multiply %x, %y : (tensor<7x6xi16>, tensor<7x6xi16>) -> tensor<7x6xi16>
  %q = bcast.power %u, %v : (tensor<7x6xui8>, tensor<7x6xui8>) -> tensor<7x6xui8>
  %n = bcast.negate %x : tensor<7x6xi16>
  %a = bcast.abs %x : tensor<7x6xi16>
  func.return %p, %m, %q, %n, %a : tensor<7x6xi16>, tensor<7x6xi16>, tensor<7x6xui8>, tensor<7x6xi16>, tensor<7x6xi16>
}""", edges=True)

program("small_power_exponents", """
func.func @main(%x: tensor<9x1xi32>, %y: tensor<9xi32>) -> tensor<9x9xi32> {
  %p = bcast.power %x, %y : (tensor<9x1xi32>, tensor<9xi32>) -> tensor<9x9xi32>
  func.return %p : tensor<9x9xi32>
}""")

program("ui8_arith_compare", """
func.func @main(%a: tensor<4x6xui8>, %b: tensor<6xui8>) -> (tensor<4x6xui8>, tensor<4x6xui8>, tensor<4x6xi1>, tensor<4x6xui8>, tensor<4x6xui8>) {
  %s = bcast.subtract %a, %b : (tensor<4x6xui8>, tensor<6xui8>) -> tensor<4x6xui8>
  %m = bcast.maximum %a, %b : (tensor<4x6xui8>, tensor<6xui8>) -> tensor<4x6xui8>
  %c = bcast.compare LT, %a, %b : (tensor<4x6xui8>, tensor<6xui8>) -> tensor<4x6xi1>
  %n = bcast.not %a : tensor<4x6xui8>
  %g = bcast.sign %a : tensor<4x6xui8>
  func.return %s, %m, %c, %n, %g : tensor<4x6xui8>, tensor<4x6xui8>, tensor<4x6xi1>, tensor<4x6xui8>, tensor<4x6xui8>
}""", edges=True)

program("i1_logic", """
func.func @main(%p: tensor<5x1xi1>, %q: tensor<4xi1>, %x: tensor<5x4xf32>) -> (tensor<5x4xi1>, tensor<5x4xi1>, tensor<5x4xf32>, tensor<5x4xi1>, tensor<5x4xi1>) {
  %a = bcast.and %p, %q : (tensor<5x1xi1>, tensor<4xi1>) -> tensor<5x4xi1>
  %o = bcast.xor %p, %q : (tensor<5x1xi1>, tensor<4xi1>) -> tensor<5x4xi1>
  %n = bcast.not %a : tensor<5x4xi1>
  %z = bcast.constant dense<0.0> : tensor<f32>
  %s = bcast.select %o, %x, %z : (tensor<5x4xi1>, tensor<5x4xf32>, tensor<f32>) -> tensor<5x4xf32>
  %c = bcast.compare GT, %p, %q : (tensor<5x1xi1>, tensor<4xi1>) -> tensor<5x4xi1>
  func.return %a, %o, %s, %n, %c : tensor<5x4xi1>, tensor<5x4xi1>, tensor<5x4xf32>, tensor<5x4xi1>, tensor<5x4xi1>
}""")

program("f16_math_and_sum", """
func.func @main(%x: tensor<3x50xf16>, %y: tensor<50xf16>) -> (tensor<3x50xf16>, tensor<3xf16>, tensor<3x50xf16>, tensor<3x50xf16>) {
  %a = bcast.add %x, %y : (tensor<3x50xf16>, tensor<50xf16>) -> tensor<3x50xf16>
  %e = bcast.tanh %a : tensor<3x50xf16>
  %s = bcast.reduce add %x, dims = [1] : (tensor<3x50xf16>) -> tensor<3xf16>
  %r = bcast.rsqrt %x : tensor<3x50xf16>
  %t = bcast.atan2 %x, %y : (tensor<3x50xf16>, tensor<50xf16>) -> tensor<3x50xf16>
  func.return %e, %s, %r, %t : tensor<3x50xf16>, tensor<3xf16>, tensor<3x50xf16>, tensor<3x50xf16>
}""")

program("float_unary", """
func.func @main(%x: tensor<4x9xf32>, %y: tensor<4x9xf64>) -> (tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf64>, tensor<4x9xf64>, tensor<4x9xf64>, tensor<4x9xf64>, tensor<4x9xi1>) {
  %a = bcast.logistic %x : tensor<4x9xf32>
  %b = bcast.sign %x : tensor<4x9xf32>
  %c = bcast.floor %x : tensor<4x9xf32>
  %d = bcast.abs %x : tensor<4x9xf32>
  %e = bcast.log %y : tensor<4x9xf64>
  %f = bcast.sqrt %y : tensor<4x9xf64>
  %g = bcast.ceil %y : tensor<4x9xf64>
  %h = bcast.remainder %y, %y : (tensor<4x9xf64>, tensor<4x9xf64>) -> tensor<4x9xf64>
  %i = bcast.compare NE, %x, %x : (tensor<4x9xf32>, tensor<4x9xf32>) -> tensor<4x9xi1>
  func.return %a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf64>, tensor<4x9xf64>, tensor<4x9xf64>, tensor<4x9xf64>, tensor<4x9xi1>
}""", edges=True)

program("float_max_min_nan_and_power", """
func.func @main(%x: tensor<6x7xf32>, %y: tensor<7xf32>) -> (tensor<6x7xf32>, tensor<6x7xf32>, tensor<6xf32>, tensor<6x7xf32>) {
  %a = bcast.maximum %x, %y : (tensor<6x7xf32>, tensor<7xf32>) -> tensor<6x7xf32>
  %b = bcast.minimum %x, %y : (tensor<6x7xf32>, tensor<7xf32>) -> tensor<6x7xf32>
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<6x7xf32>) -> tensor<6xf32>
  %p = bcast.power %x, %y : (tensor<6x7xf32>, tensor<7xf32>) -> tensor<6x7xf32>
  func.return %a, %b, %m, %p : tensor<6x7xf32>, tensor<6x7xf32>, tensor<6xf32>, tensor<6x7xf32>
}""", edges=True)

program("converts", """
func.func @main(%x: tensor<5x8xf32>, %i: tensor<5x8xi32>, %h: tensor<5x8xf64>) -> (tensor<5x8xi8>, tensor<5x8xui8>, tensor<5x8xi32>, tensor<5x8xi64>, tensor<5x8xf32>, tensor<5x8xf16>, tensor<5x8xi1>, tensor<5x8xi16>, tensor<5x8xui32>) {
  %a = bcast.convert %x : (tensor<5x8xf32>) -> tensor<5x8xi8>
  %b = bcast.convert %x : (tensor<5x8xf32>) -> tensor<5x8xui8>
  %c = bcast.convert %x : (tensor<5x8xf32>) -> tensor<5x8xi32>
  %d = bcast.convert %h : (tensor<5x8xf64>) -> tensor<5x8xi64>
  %e = bcast.convert %i : (tensor<5x8xi32>) -> tensor<5x8xf32>
  %f = bcast.convert %h : (tensor<5x8xf64>) -> tensor<5x8xf16>
  %g = bcast.convert %x : (tensor<5x8xf32>) -> tensor<5x8xi1>
  %k = bcast.convert %i : (tensor<5x8xi32>) -> tensor<5x8xi16>
  %u = bcast.convert %h : (tensor<5x8xf64>) -> tensor<5x8xui32>
  func.return %a, %b, %c, %d, %e, %f, %g, %k, %u : tensor<5x8xi8>, tensor<5x8xui8>, tensor<5x8xi32>, tensor<5x8xi64>, tensor<5x8xf32>, tensor<5x8xf16>, tensor<5x8xi1>, tensor<5x8xi16>, tensor<5x8xui32>
}""", edges=True)

program("int_converts_and_promotion", """
func.func @main(%a: tensor<6xi8>, %b: tensor<6xui8>, %p: tensor<6xi1>) -> (tensor<6xi16>, tensor<6xi64>, tensor<6xf32>, tensor<6xui8>) {
  %s = bcast.add %a, %b : (tensor<6xi8>, tensor<6xui8>) -> tensor<6xi16>
  %w = bcast.convert %b : (tensor<6xui8>) -> tensor<6xi64>
  %f = bcast.convert %p : (tensor<6xi1>) -> tensor<6xf32>
  %n = bcast.convert %a : (tensor<6xi8>) -> tensor<6xui8>
  func.return %s, %w, %f, %n : tensor<6xi16>, tensor<6xi64>, tensor<6xf32>, tensor<6xui8>
}""", edges=True)

program("nested_tml", """
module attributes {bcast.semantics = "tml"} {
  func.func @main(%a: tensor<3xtensor<2x2xf32>>, %b: tensor<1xtensor<2xf32>>, %c: tensor<3xf32>) -> tensor<3xtensor<2x2xf32>> {
    %s = bcast.add %a, %b : (tensor<3xtensor<2x2xf32>>, tensor<1xtensor<2xf32>>) -> tensor<3xtensor<2x2xf32>>
    %t = bcast.multiply %s, %c : (tensor<3xtensor<2x2xf32>>, tensor<3xf32>) -> tensor<3xtensor<2x2xf32>>
    func.return %t : tensor<3xtensor<2x2xf32>>
  }
}""")

program("reduce_dim0_and_int_kinds", """
func.func @main(%x: tensor<6x5xi32>, %u: tensor<6x5xui8>, %f: tensor<6x5xf64>) -> (tensor<5xi32>, tensor<5xi32>, tensor<1x5xui8>, tensor<5xui8>, tensor<5xi32>, tensor<f64>, tensor<6x1xi32>) {
  %s = bcast.reduce add %x, dims = [0] : (tensor<6x5xi32>) -> tensor<5xi32>
  %p = bcast.reduce multiply %x, dims = [0] : (tensor<6x5xi32>) -> tensor<5xi32>
  %a = bcast.reduce and %u, dims = [0] keepdims : (tensor<6x5xui8>) -> tensor<1x5xui8>
  %o = bcast.reduce xor %u, dims = [0] : (tensor<6x5xui8>) -> tensor<5xui8>
  %m = bcast.reduce minimum %x, dims = [0] : (tensor<6x5xi32>) -> tensor<5xi32>
  %t = bcast.reduce add %f, dims = [0, 1] : (tensor<6x5xf64>) -> tensor<f64>
  %r = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<6x5xi32>) -> tensor<6x1xi32>
  func.return %s, %p, %a, %o, %m, %t, %r : tensor<5xi32>, tensor<5xi32>, tensor<1x5xui8>, tensor<5xui8>, tensor<5xi32>, tensor<f64>, tensor<6x1xi32>
}""", edges=True)

program("reduce_zero_size", """
func.func @main(%x: tensor<3x0xf32>, %i: tensor<0x4xi8>) -> (tensor<3xf32>, tensor<3xf32>, tensor<4xi8>) {
  %s = bcast.reduce add %x, dims = [1] : (tensor<3x0xf32>) -> tensor<3xf32>
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<3x0xf32>) -> tensor<3xf32>
  %n = bcast.reduce minimum %i, dims = [0] : (tensor<0x4xi8>) -> tensor<4xi8>
  func.return %s, %m, %n : tensor<3xf32>, tensor<3xf32>, tensor<4xi8>
}""")

program("extract_assign_static", """
func.func @main(%t: tensor<4x3x2xf32>, %v: tensor<1x2xf32>) -> (tensor<3x2xf32>, tensor<f32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>) {
  %e = bcast.extract %t[2] : (tensor<4x3x2xf32>) -> tensor<3x2xf32>
  %s = bcast.extract %t[3, 1, 0] : (tensor<4x3x2xf32>) -> tensor<f32>
  %a = bcast.assign %t[1], %v : (tensor<4x3x2xf32>, tensor<1x2xf32>) -> tensor<4x3x2xf32>
  %b = bcast.assign %t, %s : (tensor<4x3x2xf32>, tensor<f32>) -> tensor<4x3x2xf32>
  func.return %e, %s, %a, %b : tensor<3x2xf32>, tensor<f32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>
}""")

program("tml_index_access_broadcasting", """
module attributes {bcast.semantics = "tml"} {
  func.func @main(%t: tensor<1x3xi32>, %i: index) -> tensor<i32> {
    %e = bcast.extract %t[%i, 2, 7] : (tensor<1x3xi32>, index) -> tensor<i32>
    func.return %e : tensor<i32>
  }
}""")

program("views_transpose_reshape", """
func.func @main(%x: tensor<2x6xf32>, %y: tensor<3x2xf32>, %z: tensor<4x3xf32>) -> (tensor<3x4xf32>, tensor<2x4x3xf32>, tensor<6x2xf32>, tensor<3x4xf32>) {
  %r = bcast.reshape %x : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %b = bcast.broadcast_in_dim %y, dims = [2, 0] : (tensor<3x2xf32>) -> tensor<2x4x3xf32>
  %t = bcast.transpose %x, dims = [1, 0] : (tensor<2x6xf32>) -> tensor<6x2xf32>
  %zt = bcast.transpose %z, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %s = bcast.add %r, %zt : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r, %b, %t, %s : tensor<3x4xf32>, tensor<2x4x3xf32>, tensor<6x2xf32>, tensor<3x4xf32>
}""")

program("calls_and_constants", """
func.func private @helper(%a: tensor<3xf32>, %b: tensor<3xi16>) -> tensor<3xf32> {
  %c = bcast.convert %b : (tensor<3xi16>) -> tensor<3xf32>
  %r = bcast.multiply %a, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi16>) {
  %k = bcast.constant dense<[0.1, -2.5e-7, 3.0e38]> : tensor<3xf32>
  %i = bcast.constant dense<[-3, 300, 32767]> : tensor<3xi16>
  %h = func.call @helper(%k, %i) : (tensor<3xf32>, tensor<3xi16>) -> tensor<3xf32>
  %s = bcast.add %x, %h : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %s, %k, %i : tensor<2x3xf32>, tensor<3xf32>, tensor<3xi16>
}""")

program("rank0_and_passthrough", """
func.func @main(%x: tensor<f32>, %y: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>) {
  %e = bcast.exponential %x : tensor<f32>
  %s = bcast.add %x, %y : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %e, %y, %s : tensor<f32>, tensor<3xf32>, tensor<3xf32>
}""")

program("dot_general_and_matmul", """
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>, %c: tensor<2x1x3x4xf16>, %d: tensor<5x4x6xf16>, %i: tensor<3x4xi32>, %v: tensor<4xi32>, %w: tensor<4x6xf64>) -> (tensor<2x3x5xf32>, tensor<2x5x3x6xf16>, tensor<3xi32>, tensor<i32>, tensor<2x3x6xf64>) {
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %1 = bcast.matmul %c, %d : (tensor<2x1x3x4xf16>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf16>
  %2 = bcast.matmul %i, %v : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3xi32>
  %3 = bcast.matmul %v, %v : (tensor<4xi32>, tensor<4xi32>) -> tensor<i32>
  %4 = bcast.matmul %a, %w : (tensor<2x3x4xf32>, tensor<4x6xf64>) -> tensor<2x3x6xf64>
  func.return %0, %1, %2, %3, %4 : tensor<2x3x5xf32>, tensor<2x5x3x6xf16>, tensor<3xi32>, tensor<i32>, tensor<2x3x6xf64>
}""")

program("same_value_returned_twice", """
func.func @main(%x: tensor<2x2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>) {
  %n = bcast.negate %x : tensor<2x2xi64>
  func.return %n, %n : tensor<2x2xi64>, tensor<2x2xi64>
}""", edges=True)


def _close(got: np.ndarray, want: np.ndarray, name: str) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape, want.dtype, want.shape)
    if want.dtype.kind == "f":
        rtol = {2: 2e-3, 4: 2e-6, 8: 1e-12}[want.dtype.itemsize]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3, equal_nan=True, err_msg=name)
    else:
        np.testing.assert_array_equal(got, want, err_msg=name)


# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_output_is_loop_dialects_only(name):
    src, _ = PROGRAMS[name]
    module = driver.load(src, "<test>", pipeline=PIPELINE)
    names = {op.name.split(".")[0] for op in module.walk()}
    assert names <= LOOP_DIALECTS, names - LOOP_DIALECTS


@needs_llvm
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mlir_opt_verifies(name):
    memref_abi.verify(lower(PROGRAMS[name][0]))


@pytest.mark.quick_share(2)
@needs_llvm
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_compiled_loops_match_reference(name):
    check_loops_match_reference(name, lower)


def check_loops_match_reference(name: str, to_loops: Callable[[str], str]) -> None:
    """``PROGRAMS[name]`` made loop IR by ``to_loops``, compiled by upstream
    tools, gives the reference evaluator's results on seeded inputs."""
    src, edges = PROGRAMS[name]
    inputs_spec, results_spec = signature(src)
    rng = np.random.default_rng(sum(map(ord, name)))
    args = [5 if spec is None else make_input(rng, *spec, edges) for spec in inputs_spec]  # index: any value
    got = memref_abi.LoopLibrary(to_loops(src)).call("main", args, results_spec)
    want = bcast.compile(src, backend="reference")(*args)
    want = want if isinstance(want, tuple) else (want,)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        _close(g, np.asarray(w).reshape(g.shape), f"{name} result {k}")


def test_ssa_indices_are_bounds_checked_before_use():
    """A dynamic index is compared (unsigned: negative fails) with its dim's
    size, and ``cf.assert`` stops before any loop reads it; the assert has
    the op's location and says what the C runtime reports."""
    module = driver.load(PROGRAMS["dynamic_index"][0], "<test>", pipeline=PIPELINE)
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    ops = list(f.body.blocks[0].ops)
    asserts = [o for o in ops if isinstance(o, cf.AssertOp)]
    assert len(asserts) == 2  # extract and assign; the index result needs none
    for check in asserts:
        compare = check.arg.owner
        assert isinstance(compare, arith.CmpiOp) and compare.predicate.value.data == 6  # ult
        info = check.attributes[loops.BOUNDS_CHECK_ATTR].data
        assert info["size"].value.data == 7 and info["dim"].value.data == 0
        assert check.location.line.data in (3, 4)  # the extract's and the assign's lines
    first_loop = next(k for k, o in enumerate(ops) if isinstance(o, scf.ForOp))
    assert ops.index(asserts[0]) < first_loop


def test_pass_is_registered():
    from bcast.passes import DESCRIPTIONS, available_passes

    assert available_passes()["bcast-lower-to-loops"]().name == "bcast-lower-to-loops"
    assert "bcast-lower-to-loops" in DESCRIPTIONS


@needs_llvm
@settings(max_examples=examples(25), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs(max_ops=5, reductions=True))
def test_random_programs_match_the_oracle(program):
    """Random programs (all ops, all modes, nested tml, reductions, size-0
    and size-1 dims) compiled through loops give the independent oracle's
    results (``bcast.tests.programs``)."""
    library = memref_abi.LoopLibrary(lower(program.text))
    results = [(np.asarray(w).shape, np.asarray(w).dtype) for w in program.expected]
    got = library.call("main", list(program.inputs), results)
    assert_results(program, tuple(got))
