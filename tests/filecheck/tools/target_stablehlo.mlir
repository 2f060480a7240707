// RUN: bcast-opt %s -t stablehlo --split-input-file | filecheck %s
// RUN: not bcast-opt %s -t stablehlo --split-input-file -p '' 2>&1 | filecheck %s --check-prefix=NOPASS
// RUN: bcast-opt %s -t stablehlo --split-input-file | filecheck %s --check-prefix=PRETTY

// -t stablehlo runs the explicit pipeline (bcast-make-explicit, canonicalize,
// cse, sink-broadcasts; no fusion: XLA fuses by itself) and prints StableHLO
// as JAX does (every op in StableHLO's pretty form), canonicalized
// (canonicalize, cse).
// PRETTY-NOT: "stablehlo.
// tests/lowering/test_stablehlo_target.py has jaxlib verify and XLA run it.

// CHECK-LABEL: func.func @sine_cosine(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    %s = stablehlo.sine %x : tensor<4xf32>
// CHECK-NEXT:    %c = stablehlo.cosine %x : tensor<4xf32>
// CHECK-NEXT:    func.return %s, %c : tensor<4xf32>, tensor<4xf32>
func.func @sine_cosine(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = bcast.sine %x : tensor<4xf32>
  %c = bcast.cosine %x : tensor<4xf32>
  func.return %s, %c : tensor<4xf32>, tensor<4xf32>
}
// -----
// CHECK-LABEL: func.func @elementwise(%x: tensor<2x3xf32>, %row: tensor<3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %s = stablehlo.add %x, %0 : tensor<2x3xf32>
// CHECK-NEXT:    %e = stablehlo.exponential %s : tensor<2x3xf32>
// A float maximum propagates NaN from either side (XLA's ignores a NaN rhs):
// CHECK-NEXT:    %1 = stablehlo.maximum %e, %x : tensor<2x3xf32>
// CHECK-NEXT:    %2 = stablehlo.compare NE, %x, %x, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %3 = stablehlo.select %2, %x, %1 : tensor<2x3xi1>, tensor<2x3xf32>
// CHECK-NEXT:    %4 = stablehlo.compare NE, %e, %e, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %m = stablehlo.select %4, %e, %3 : tensor<2x3xi1>, tensor<2x3xf32>
// CHECK-NEXT:    func.return %m : tensor<2x3xf32>
// CHECK-NOT:     bcast.
func.func @elementwise(%x: tensor<2x3xf32>, %row: tensor<3xf32>) -> tensor<2x3xf32> {
  %s = bcast.add %x, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %e = bcast.exponential %s : tensor<2x3xf32>
  %m = bcast.maximum %e, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %m : tensor<2x3xf32>
}
// -----
// An operand whose producer XLA's simplifier would fold with its user, with
// other results at special values, passes through an optimization barrier:
// exp(a) * exp(b) (XLA: exp(a + b)). A float convert of booleans always has
// one: XLA makes convert(b) * x select(b, x, 0), 0 for false * nan, also
// after turning convert(b) / sqrt(x) or / 0 into such a product. A convert
// from another type needs none.
// CHECK-LABEL: func.func @opaque_operands(
// CHECK-NEXT:    %e = stablehlo.exponential %a : tensor<4xf32>
// CHECK-NEXT:    %f = stablehlo.exponential %b : tensor<4xf32>
// CHECK-NEXT:    %0 = stablehlo.optimization_barrier %e : tensor<4xf32>
// CHECK-NEXT:    %1 = stablehlo.optimization_barrier %f : tensor<4xf32>
// CHECK-NEXT:    %ef = stablehlo.multiply %0, %1 : tensor<4xf32>
// CHECK-NEXT:    %2 = stablehlo.convert %p : (tensor<4xi1>) -> tensor<4xf32>
// CHECK-NEXT:    %c = stablehlo.optimization_barrier %2 : tensor<4xf32>
// CHECK-NEXT:    %pc = stablehlo.multiply %a, %c : tensor<4xf32>
// CHECK-NEXT:    %d = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %id = stablehlo.multiply %a, %d : tensor<4xf32>
// CHECK-NEXT:    func.return %ef, %pc, %id
func.func @opaque_operands(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = bcast.exponential %a : tensor<4xf32>
  %f = bcast.exponential %b : tensor<4xf32>
  %ef = bcast.multiply %e, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = bcast.convert %p : (tensor<4xi1>) -> tensor<4xf32>
  %pc = bcast.multiply %a, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = bcast.convert %i : (tensor<4xi32>) -> tensor<4xf32>
  %id = bcast.multiply %a, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %ef, %pc, %id : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A transposing broadcast (bcast's canonical form: transpose, or a reshape
// when only a size-1 dim moves, then a sorted broadcast) is written back as
// one broadcast_in_dim with unsorted dims, as JAX writes it and StableHLO's
// simplifier leaves it; a transpose the program itself uses stays.
// CHECK-LABEL: func.func @transposing_broadcasts(
// CHECK-NEXT:    %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    %1 = stablehlo.broadcast_in_dim %u, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT:    %s = stablehlo.add %t, %t : tensor<3x2xf32>
// CHECK-NEXT:    func.return %0, %1, %s
func.func @transposing_broadcasts(%x: tensor<2x3xf32>, %u: tensor<1x3xf32>) -> (tensor<3x4x2xf32>, tensor<2x3x2xf32>, tensor<3x2xf32>) {
  %0 = bcast.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  %1 = bcast.broadcast_in_dim %u, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  %t = bcast.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %s = bcast.add %t, %t : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %0, %1, %s : tensor<3x4x2xf32>, tensor<2x3x2xf32>, tensor<3x2xf32>
}

// -----
// compare_type follows the element type; i1 compares UNSIGNED.
// CHECK-LABEL: func.func @compare(
// CHECK-NEXT:    %0 = stablehlo.compare GT, %f, %f, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT:    %1 = stablehlo.compare LT, %i, %i, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT:    %2 = stablehlo.compare GE, %u, %u, UNSIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
// CHECK-NEXT:    %3 = stablehlo.compare NE, %b, %b, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:    %4 = stablehlo.select %0, %f, %f : tensor<4xi1>, tensor<4xf32>
func.func @compare(%f: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui8>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %0 = bcast.compare GT, %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = bcast.compare LT, %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = bcast.compare GE, %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %3 = bcast.compare NE, %b, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %4 = bcast.select %0, %f, %f : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}
// -----
// Ops whose StableHLO op does not compute their definition on an element
// kind (bcast.ir.ops: STABLEHLO_NATIVE_KINDS) are the definition
// (bcast.ir.scalar) expanded in StableHLO ops. Integer power: square and
// multiply over every bit of the exponent (XLA's reads 6 bits), a negative
// exponent selected; unsigned abs is the operand, unsigned sign is
// select(x != 0, 1, 0) (StableHLO's abs/sign take no unsigned).
// (The exponent shifts right 8 times for i8, the last shift unused.)
// CHECK-LABEL: func.func @integers(
// CHECK-COUNT-7: stablehlo.shift_right_logical
// CHECK-NOT:     stablehlo.power
// CHECK:         %[[NEG:.*]] = stablehlo.compare LT, %a, %{{.*}}, SIGNED
// CHECK-NEXT:    %p = stablehlo.select %[[NEG]],
// CHECK-NEXT:    %[[ZERO:.*]] = stablehlo.constant dense<0> : tensor<ui8>
// CHECK-NEXT:    %[[ZEROS:.*]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<ui8>) -> tensor<3xui8>
// CHECK-NEXT:    %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<ui8>
// CHECK-NEXT:    %[[ONES:.*]] = stablehlo.broadcast_in_dim %[[ONE]], dims = [] : (tensor<ui8>) -> tensor<3xui8>
// CHECK-NEXT:    %[[NZ:.*]] = stablehlo.compare NE, %u, %[[ZEROS]], UNSIGNED : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
// CHECK-NEXT:    %sign = stablehlo.select %[[NZ]], %[[ONES]], %[[ZEROS]] : tensor<3xi1>, tensor<3xui8>
// CHECK-NEXT:    %not = stablehlo.not %b : tensor<3xi1>
// CHECK-NEXT:    func.return %p, %u, %sign, %not : tensor<3xi8>, tensor<3xui8>, tensor<3xui8>, tensor<3xi1>
func.func @integers(%a: tensor<3xi8>, %u: tensor<3xui8>, %b: tensor<3xi1>) -> (tensor<3xi8>, tensor<3xui8>, tensor<3xui8>, tensor<3xi1>) {
  %p = bcast.power %a, %a : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %abs = bcast.abs %u : tensor<3xui8>
  %sign = bcast.sign %u : tensor<3xui8>
  %not = bcast.not %b : tensor<3xi1>
  func.return %p, %abs, %sign, %not : tensor<3xi8>, tensor<3xui8>, tensor<3xui8>, tensor<3xi1>
}
// -----
// Integer divide and remainder are their definitions (bcast.ir.scalar):
// the divisor is made safe first, select(y == 0, 1, y) (and 1 for INT_MIN /
// -1), so jaxlib's StableHLO folder, which divides constants unchecked
// (SIGFPE on a 0 / 0 that XLA's folding makes), never sees a 0; the result
// by 0 is selected (-1, x), as docs/semantics.md says.
// CHECK-LABEL: func.func @int_division(
// CHECK:         %[[Z:.*]] = stablehlo.compare EQ, %b, %{{.*}}, SIGNED
// CHECK-NEXT:    %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i8>
// CHECK-NEXT:    %[[ONES:.*]] = stablehlo.broadcast_in_dim %[[ONE]], dims = []
// CHECK-NEXT:    %[[SAFE0:.*]] = stablehlo.select %[[Z]], %[[ONES]], %b
// CHECK:         %[[MIN:.*]] = stablehlo.compare EQ, %a, %{{.*}}, SIGNED
// CHECK:         %[[M1:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = []
// CHECK-NEXT:    %[[BYM1:.*]] = stablehlo.compare EQ, %b, %[[M1]], SIGNED
// CHECK-NEXT:    %[[OVER:.*]] = stablehlo.and %[[MIN]], %[[BYM1]] : tensor<3xi1>
// CHECK-NEXT:    %[[SAFE:.*]] = stablehlo.select %[[OVER]], %[[ONES]], %[[SAFE0]]
// CHECK-NEXT:    %[[Q:.*]] = stablehlo.divide %a, %[[SAFE]] : tensor<3xi8>
// CHECK-NEXT:    %q = stablehlo.select %[[Z]], %[[M1]], %[[Q]]
// CHECK:         %[[UZ:.*]] = stablehlo.compare EQ, %v, %{{.*}}, UNSIGNED
// CHECK:         %[[USAFE:.*]] = stablehlo.select %[[UZ]], %{{.*}}, %v
// CHECK-NEXT:    %[[R:.*]] = stablehlo.remainder %u, %[[USAFE]] : tensor<3xui8>
// CHECK-NEXT:    %r = stablehlo.select %[[UZ]], %u, %[[R]]
func.func @int_division(%a: tensor<3xi8>, %b: tensor<3xi8>, %u: tensor<3xui8>, %v: tensor<3xui8>) -> (tensor<3xi8>, tensor<3xui8>) {
  %q = bcast.divide %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %r = bcast.remainder %u, %v : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  func.return %q, %r : tensor<3xi8>, tensor<3xui8>
}
// -----
// Float constants print as MLIR prints them, exactly: the 6-digit form where
// it reads back to the same bits, more digits where needed (f32 1/3, f64
// 0.1 + 0.2, f16 0.1), hex bits only for infinities and NaNs (payloads kept:
// tests/lowering/test_stablehlo_target.py runs them through XLA); a splat
// keeps one element.
// CHECK-LABEL: func.func @constants(
// CHECK-NEXT:    %f = stablehlo.constant dense<[-2.500000e+00, -0.000000e+00, 1.000000e-01]> : tensor<3xf32>
// CHECK-NEXT:    %i = stablehlo.constant dense<[-1, 7]> : tensor<2xi32>
// CHECK-NEXT:    %b = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %s = stablehlo.constant dense<5.000000e-01> : tensor<4xf64>
// CHECK-NEXT:    %x = stablehlo.constant dense<[3.3333334e-01, 1.2345679e+08, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<5xf32>
// CHECK-NEXT:    %d = stablehlo.constant dense<3.0000000000000004e-01> : tensor<f64>
// CHECK-NEXT:    %h = stablehlo.constant dense<[9.997559e-02, 6.550400e+04]> : tensor<2xf16>
func.func @constants() -> (tensor<3xf32>, tensor<2xi32>, tensor<2xi1>, tensor<4xf64>, tensor<5xf32>, tensor<f64>, tensor<2xf16>) {
  %f = bcast.constant dense<[-2.5, -0.0, 0.1]> : tensor<3xf32>
  %i = bcast.constant dense<[-1, 7]> : tensor<2xi32>
  %b = bcast.constant dense<[true, false]> : tensor<2xi1>
  %s = bcast.constant dense<0.5> : tensor<4xf64>
  %x = bcast.constant dense<[0x3EAAAAAB, 123456792.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<5xf32>
  %d = bcast.constant dense<0x3FD3333333333334> : tensor<f64>
  %h = bcast.constant dense<[0.1, 65504.0]> : tensor<2xf16>
  func.return %f, %i, %b, %s, %x, %d, %h : tensor<3xf32>, tensor<2xi32>, tensor<2xi1>, tensor<4xf64>, tensor<5xf32>, tensor<f64>, tensor<2xf16>
}
// -----
// The output is canonical: the reshapes around a slice compose with the
// program's own (here to none at all), and identical constants (the
// integer divisions' 0 and 1, the start indices' 0) are one each.
// CHECK-LABEL: func.func @canonical(
// CHECK-NEXT:    %r = stablehlo.slice %t [1:2, 2:3] : (tensor<4x3xf32>) -> tensor<1x1xf32>
// CHECK-NOT:     stablehlo.reshape
// CHECK:         stablehlo.constant dense<0> : tensor<i32>
// CHECK:         stablehlo.constant dense<1> : tensor<i32>
// CHECK-NOT:     stablehlo.constant dense<0> : tensor<i32>
// CHECK-NOT:     stablehlo.constant dense<1> : tensor<i32>
// CHECK:         %q2 = stablehlo.select
// CHECK:         stablehlo.constant dense<0> : tensor<i64>
// CHECK-NOT:     stablehlo.constant dense<0> : tensor<i64>
// CHECK:         func.return
func.func @canonical(%t: tensor<4x3xf32>, %a: tensor<3xi32>, %b: tensor<3xi32>, %i: index, %j: index) -> (tensor<1x1xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>) {
  %e = bcast.extract %t[1, 2] : (tensor<4x3xf32>) -> tensor<f32>
  %r = bcast.reshape %e : (tensor<f32>) -> tensor<1x1xf32>
  %q = bcast.divide %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %q2 = bcast.divide %b, %a : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %x = bcast.extract %t[%i] : (tensor<4x3xf32>, index) -> tensor<3xf32>
  %y = bcast.extract %t[%j] : (tensor<4x3xf32>, index) -> tensor<3xf32>
  func.return %r, %q, %q2, %x, %y : tensor<1x1xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>
}
// -----
// XLA broadcast_dimensions become broadcast_in_dim; transpose, convert.
// CHECK-LABEL: func.func @xla_dims(
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %1 = stablehlo.add %0, %m : tensor<4x3xf32>
// CHECK-NEXT:    %2 = stablehlo.transpose %t, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
// CHECK-NEXT:    %3 = stablehlo.convert %2 : (tensor<3x2xi32>) -> tensor<3x2xf32>
module attributes {bcast.semantics = "xla"} {
func.func @xla_dims(%v: tensor<4xf32>, %m: tensor<4x3xf32>, %t: tensor<2x3xi32>) -> (tensor<4x3xf32>, tensor<3x2xi32>, tensor<3x2xf32>) {
  %0 = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = bcast.transpose %t, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %2 = bcast.convert %1 : (tensor<3x2xi32>) -> tensor<3x2xf32>
  func.return %0, %1, %2 : tensor<4x3xf32>, tensor<3x2xi32>, tensor<3x2xf32>
}
}
// -----
// Nested (tml) types are flat; narrow is a reshape.
// CHECK-LABEL: func.func @nested(%a: tensor<3x2x2xf32>, %b: tensor<1x2x1xf32>, %n: tensor<1x5x1xi32>) -> (tensor<3x2x2xf32>, tensor<5xi32>) {
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %b, dims = [0, 1, 2] : (tensor<1x2x1xf32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:    %1 = stablehlo.add %a, %0 : tensor<3x2x2xf32>
// CHECK-NEXT:    %2 = stablehlo.reshape %n : (tensor<1x5x1xi32>) -> tensor<5xi32>
module attributes {bcast.semantics = "tml"} {
func.func @nested(%a: tensor<3xtensor<2x2xf32>>, %b: tensor<1xtensor<2x1xf32>>, %n: tensor<1x5x1xi32>) -> (tensor<3xtensor<2x2xf32>>, tensor<5xi32>) {
  %0 = bcast.add %a, %b : (tensor<3xtensor<2x2xf32>>, tensor<1xtensor<2x1xf32>>) -> tensor<3xtensor<2x2xf32>>
  %1 = bcast.narrow %n : (tensor<1x5x1xi32>) -> tensor<5xi32>
  func.return %0, %1 : tensor<3xtensor<2x2xf32>>, tensor<5xi32>
}
}
// -----
// reduce from the kind's identity; max/min with the NaN guard in the body;
// keepdims is a reshape after; f16 accumulates in f32 (from the same 0).
// CHECK-LABEL: func.func @reduce(
// CHECK-NEXT:    %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %s = stablehlo.reduce(%x init: %0) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT:    %2 = stablehlo.reduce(%x init: %1) across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:     reducer(%3: tensor<f32>, %4: tensor<f32>) {
// CHECK-NEXT:      %5 = stablehlo.maximum %3, %4 : tensor<f32>
// CHECK-NEXT:      %6 = stablehlo.compare NE, %4, %4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:      %7 = stablehlo.select %6, %4, %5 : tensor<i1>, tensor<f32>
// CHECK-NEXT:      %8 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:      %9 = stablehlo.select %8, %3, %7 : tensor<i1>, tensor<f32>
// CHECK-NEXT:      stablehlo.return %9 : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %m = stablehlo.reshape %2 : (tensor<3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %10 = stablehlo.convert %h : (tensor<4x3xf16>) -> tensor<4x3xf32>
// CHECK-NEXT:    %11 = stablehlo.reduce(%10 init: %0) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %hs = stablehlo.convert %11 : (tensor<4xf32>) -> tensor<4xf16>
func.func @reduce(%x: tensor<4x3xf32>, %h: tensor<4x3xf16>) -> (tensor<4xf32>, tensor<1x3xf32>, tensor<4xf16>) {
  %s = bcast.reduce add %x, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  %m = bcast.reduce maximum %x, dims = [0] keepdims : (tensor<4x3xf32>) -> tensor<1x3xf32>
  %hs = bcast.reduce add %h, dims = [1] : (tensor<4x3xf16>) -> tensor<4xf16>
  func.return %s, %m, %hs : tensor<4xf32>, tensor<1x3xf32>, tensor<4xf16>
}
// -----
// index arguments are tensor<i64>; literal indices slice, SSA ones
// dynamic_slice / dynamic_update_slice (XLA clamps them into range).
// CHECK-LABEL: func.func @indexing(%t: tensor<4x3xf32>, %v: tensor<3xf32>, %i: tensor<i64>)
// CHECK-NEXT:    %0 = stablehlo.slice %t [1:2, 2:3] : (tensor<4x3xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:    %e = stablehlo.reshape %0 : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT:    %1 = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %2 = stablehlo.dynamic_slice %t, %i, %1, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
// CHECK-NEXT:    %d = stablehlo.reshape %2 : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %3 = stablehlo.reshape %v : (tensor<3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %4 = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT:    %a = stablehlo.dynamic_update_slice %t, %3, %4, %1 : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
// CHECK-NEXT:    %b = stablehlo.dynamic_update_slice %t, %3, %i, %1 : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
func.func @indexing(%t: tensor<4x3xf32>, %v: tensor<3xf32>, %i: index) -> (tensor<f32>, tensor<3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %e = bcast.extract %t[1, 2] : (tensor<4x3xf32>) -> tensor<f32>
  %d = bcast.extract %t[%i] : (tensor<4x3xf32>, index) -> tensor<3xf32>
  %a = bcast.assign %t[2], %v : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %b = bcast.assign %t[%i], %v : (tensor<4x3xf32>, index, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %e, %d, %a, %b : tensor<f32>, tensor<3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}
// -----
// CHECK-LABEL: func.func @caller(
// CHECK-NEXT:    %0 = func.call @callee(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:       func.func private @callee(%x: tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    %0 = stablehlo.negate %x : tensor<3xf32>
func.func @caller(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = func.call @callee(%x) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
func.func private @callee(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.negate %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// -----
// Integer clamp is stablehlo.clamp (bounds broadcast by make-explicit);
// float clamp is its definition, maximum then minimum, each with the NaN
// guard (XLA's clamp drops a NaN operand or max).
// CHECK-LABEL: func.func @clamp(
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %lo, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %1 = stablehlo.broadcast_in_dim %hi, dims = [] : (tensor<i32>) -> tensor<4xi32>
// CHECK-NEXT:    %2 = stablehlo.clamp %0, %x, %1 : tensor<4xi32>
// CHECK-NEXT:    %3 = stablehlo.maximum %f, %g : tensor<4xf32>
// CHECK:         stablehlo.minimum
// CHECK-NOT:     stablehlo.clamp
// CHECK:         func.return %2, %{{.*}} : tensor<4xi32>, tensor<4xf32>
func.func @clamp(%lo: tensor<i32>, %x: tensor<4xi32>, %hi: tensor<i32>, %f: tensor<4xf32>, %g: tensor<4xf32>, %h: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = bcast.clamp %lo, %x, %hi : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %1 = bcast.clamp %g, %f, %h : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xi32>, tensor<4xf32>
}
// -----
// Without bcast-make-explicit, an implicit broadcast is a located error.
// NOPASS: target_stablehlo.mlir:[[# @LINE + 2]]:8: error: 'bcast.add' op the stablehlo target needs explicit IR; run the bcast-make-explicit pass first
func.func @implicit(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %r = bcast.add %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
