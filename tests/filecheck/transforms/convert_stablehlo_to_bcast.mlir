// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast,canonicalize,cse | filecheck %s --check-prefix=CANON
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// StableHLO and CHLO as JAX prints them become explicit bcast ops, family by
// family (the output is valid under every semantics). Errors: see
// convert_stablehlo_to_bcast_invalid.mlir.

// JAX's two-step rank add: one broadcast after canonicalize.
func.func public @add_row(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.add %x, %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// i1 add/multiply/maximum/minimum are or/and/or/and; square is multiply.
func.func public @logic(%p: tensor<4xi1>, %q: tensor<4xi1>, %x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
  %0 = stablehlo.add %p, %q : tensor<4xi1>
  %1 = stablehlo.multiply %p, %q : tensor<4xi1>
  %2 = stablehlo.maximum %p, %q : tensor<4xi1>
  %3 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
}

// Each elementwise op is its bcast op's STABLEHLO counterpart (sine, cosine).
func.func public @unary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.sine %x : tensor<4xf32>
  %1 = stablehlo.cosine %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// is_finite: |x| < inf.
func.func public @is_finite(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// A rank-0 predicate is broadcast; compare types map onto bcast.compare.
func.func public @select_compare(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi1>) {
  %0 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4xf32>
  %1 = stablehlo.compare LT, %u, %u, UNSIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  return %0, %1 : tensor<4xf32>, tensor<4xi1>
}

// A compare type of the other signedness (UNSIGNED on signless i32, which
// StableHLO's verifier and XLA accept, SIGNED on ui8) orders the bit patterns
// as it says: both operands converted to that signedness (the same bits).
// EQ/NE and a compare type that fits the element type need no conversion.
func.func public @compare_types(%a: tensor<4xi32>, %b: tensor<4xi32>, %u: tensor<4xui8>, %d: tensor<3xi16>, %e: tensor<2x1xi16>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x3xi1>) {
  %0 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = stablehlo.compare GE, %u, %u, SIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %3 = stablehlo.compare NE, %a, %b, UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %4 = chlo.broadcast_compare %d, %e {comparison_direction = #chlo<comparison_direction GT>, compare_type = #chlo<comparison_type UNSIGNED>} : (tensor<3xi16>, tensor<2x1xi16>) -> tensor<2x3xi1>
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x3xi1>
}

// Structural ops; a transposing broadcast is transpose + sorted broadcast.
func.func public @structural(%x: tensor<2x3xf32>, %i: tensor<3xi32>) -> (tensor<3x4x2xf32>, tensor<6xf32>, tensor<3xf32>) {
  %0 = stablehlo.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  %1 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  %2 = stablehlo.convert %i : (tensor<3xi32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<3x4x2xf32>, tensor<6xf32>, tensor<3xf32>
}

// reduce: identity init dropped; any other init combined in after.
func.func public @reduce(%x: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<16xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %0, %1 : tensor<8xf32>, tensor<16xf32>
}

// Unsigned reduce: the identities of ui8 (min 255, max 0) are dropped too.
func.func public @reduce_unsigned(%x: tensor<8x16xui8>) -> (tensor<8xui8>, tensor<8xui8>) {
  %max = stablehlo.constant dense<255> : tensor<ui8>
  %0 = stablehlo.reduce(%x init: %max) applies stablehlo.minimum across dimensions = [1] : (tensor<8x16xui8>, tensor<ui8>) -> tensor<8xui8>
  %zero = stablehlo.constant dense<0> : tensor<ui8>
  %1 = stablehlo.reduce(%x init: %zero) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xui8>, tensor<ui8>) -> tensor<8xui8>
  return %0, %1 : tensor<8xui8>, tensor<8xui8>
}

// CHLO: NumPy alignment, or broadcast_dimensions.
func.func public @chlo(%v: tensor<3xf32>, %m: tensor<2x3xf32>, %c: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %0 = chlo.broadcast_add %v, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_compare %c, %0 {broadcast_dimensions = array<i64: 0>, comparison_direction = #chlo<comparison_direction GT>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi1>
}

// A private helper called through func.call is inlined and removed.
func.func public @main(%p: tensor<4x1xi1>, %x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = call @_where(%p, %x) : (tensor<4x1xi1>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
func.func private @_where(%p: tensor<4x1xi1>, %x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.broadcast_in_dim %p, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
  %1 = stablehlo.negate %x : tensor<4x3xf32>
  %2 = stablehlo.select %0, %x, %1 : tensor<4x3xi1>, tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func public @add_row(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
//  CHECK-NEXT:   %0 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
//  CHECK-NEXT:   %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = bcast.add %x, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   func.return %2 : tensor<2x3xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @logic(%p: tensor<4xi1>, %q: tensor<4xi1>, %x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>) {
//  CHECK-NEXT:   %0 = bcast.or %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
//  CHECK-NEXT:   %1 = bcast.and %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
//  CHECK-NEXT:   %2 = bcast.or %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
//  CHECK-NEXT:   %3 = bcast.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   func.return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @unary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
//  CHECK-NEXT:   %0 = bcast.sine %x : tensor<4xf32>
//  CHECK-NEXT:   %1 = bcast.cosine %x : tensor<4xf32>
//  CHECK-NEXT:   func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @is_finite(%x: tensor<4xf32>) -> tensor<4xi1> {
//  CHECK-NEXT:   %0 = bcast.constant dense<0x7f800000> : tensor<f32>
//  CHECK-NEXT:   %1 = bcast.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4xf32>
//  CHECK-NEXT:   %2 = bcast.abs %x : tensor<4xf32>
//  CHECK-NEXT:   %3 = bcast.compare LT, %2, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
//  CHECK-NEXT:   func.return %3 : tensor<4xi1>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @select_compare(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xi1>) {
//  CHECK-NEXT:   %0 = bcast.broadcast_in_dim %p, dims = [] : (tensor<i1>) -> tensor<4xi1>
//  CHECK-NEXT:   %1 = bcast.select %0, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %2 = bcast.compare LT, %u, %u : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
//  CHECK-NEXT:   func.return %1, %2 : tensor<4xf32>, tensor<4xi1>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @compare_types(
//  CHECK-NEXT:   %0 = bcast.convert %a : (tensor<4xi32>) -> tensor<4xui32>
//  CHECK-NEXT:   %1 = bcast.convert %b : (tensor<4xi32>) -> tensor<4xui32>
//  CHECK-NEXT:   %2 = bcast.compare LT, %0, %1 : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
//  CHECK-NEXT:   %3 = bcast.compare LT, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
//  CHECK-NEXT:   %4 = bcast.convert %u : (tensor<4xui8>) -> tensor<4xi8>
//  CHECK-NEXT:   %5 = bcast.convert %u : (tensor<4xui8>) -> tensor<4xi8>
//  CHECK-NEXT:   %6 = bcast.compare GE, %4, %5 : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
//  CHECK-NEXT:   %7 = bcast.compare NE, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
//  CHECK-NEXT:   %8 = bcast.broadcast_in_dim %d, dims = [1] : (tensor<3xi16>) -> tensor<2x3xi16>
//  CHECK-NEXT:   %9 = bcast.broadcast_in_dim %e, dims = [0, 1] : (tensor<2x1xi16>) -> tensor<2x3xi16>
//  CHECK-NEXT:   %10 = bcast.convert %8 : (tensor<2x3xi16>) -> tensor<2x3xui16>
//  CHECK-NEXT:   %11 = bcast.convert %9 : (tensor<2x3xi16>) -> tensor<2x3xui16>
//  CHECK-NEXT:   %12 = bcast.compare GT, %10, %11 : (tensor<2x3xui16>, tensor<2x3xui16>) -> tensor<2x3xi1>
//  CHECK-NEXT:   func.return %2, %3, %6, %7, %12 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2x3xi1>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @structural(%x: tensor<2x3xf32>, %i: tensor<3xi32>) -> (tensor<3x4x2xf32>, tensor<6xf32>, tensor<3xf32>) {
//  CHECK-NEXT:   %0 = bcast.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
//  CHECK-NEXT:   %1 = bcast.broadcast_in_dim %0, dims = [0, 2] : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
//  CHECK-NEXT:   %2 = bcast.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
//  CHECK-NEXT:   %3 = bcast.convert %i : (tensor<3xi32>) -> tensor<3xf32>
//  CHECK-NEXT:   func.return %1, %2, %3 : tensor<3x4x2xf32>, tensor<6xf32>, tensor<3xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @reduce(%x: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<16xf32>) {
//  CHECK-NEXT:   %ninf = bcast.constant dense<0xff800000> : tensor<f32>
//  CHECK-NEXT:   %0 = bcast.reduce maximum %x, dims = [1] : (tensor<8x16xf32>) -> tensor<8xf32>
//  CHECK-NEXT:   %one = bcast.constant dense<1.000000e+00> : tensor<f32>
//  CHECK-NEXT:   %1 = bcast.reduce add %x, dims = [0] : (tensor<8x16xf32>) -> tensor<16xf32>
//  CHECK-NEXT:   %2 = bcast.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<16xf32>
//  CHECK-NEXT:   %3 = bcast.add %1, %2 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
//  CHECK-NEXT:   func.return %0, %3 : tensor<8xf32>, tensor<16xf32>
//  CHECK-NEXT: }

// CHECK-LABEL: func.func public @reduce_unsigned(%x: tensor<8x16xui8>) -> (tensor<8xui8>, tensor<8xui8>) {
//       CHECK:   %0 = bcast.reduce minimum %x, dims = [1] : (tensor<8x16xui8>) -> tensor<8xui8>
//       CHECK:   %1 = bcast.reduce maximum %x, dims = [1] : (tensor<8x16xui8>) -> tensor<8xui8>
//  CHECK-NEXT:   func.return %0, %1 : tensor<8xui8>, tensor<8xui8>
// CHECK-LABEL: func.func public @chlo(%v: tensor<3xf32>, %m: tensor<2x3xf32>, %c: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
//  CHECK-NEXT:   %0 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %1 = bcast.add %0, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = bcast.broadcast_in_dim %c, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %3 = bcast.compare GT, %2, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
//  CHECK-NEXT:   func.return %1, %3 : tensor<2x3xf32>, tensor<2x3xi1>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @main(%p: tensor<4x1xi1>, %x: tensor<4x3xf32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   %0 = bcast.broadcast_in_dim %p, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
//  CHECK-NEXT:   %1 = bcast.negate %x : tensor<4x3xf32>
//  CHECK-NEXT:   %2 = bcast.select %0, %x, %1 : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
//  CHECK-NEXT:   func.return %2 : tensor<4x3xf32>
//  CHECK-NEXT: }
//   CHECK-NOT: func.func private

// JAX's two-step broadcast is one after canonicalize.
// CANON-LABEL: func.func public @add_row
//  CANON-NEXT:   %0 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
//  CANON-NEXT:   %1 = bcast.add %x, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
//  CANON-NEXT:   func.return %1 : tensor<2x3xf32>

// clamp's rank-0 bounds are broadcast to the operand; chlo.broadcast_select
// broadcasts its three operands (NumPy alignment) and is bcast.select.
// CHECK-LABEL: func.func public @clamp_select(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>, %p: tensor<2x1xi1>, %t: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
//  CHECK-NEXT:   %0 = bcast.broadcast_in_dim %lo, dims = [] : (tensor<f32>) -> tensor<4xf32>
//  CHECK-NEXT:   %1 = bcast.broadcast_in_dim %hi, dims = [] : (tensor<f32>) -> tensor<4xf32>
//  CHECK-NEXT:   %2 = bcast.clamp %0, %x, %1 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %3 = bcast.broadcast_in_dim %p, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x4xi1>
//  CHECK-NEXT:   %4 = bcast.broadcast_in_dim %t, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   %5 = bcast.broadcast_in_dim %lo, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   %6 = bcast.select %3, %4, %5 : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   func.return %2, %6 : tensor<4xf32>, tensor<2x4xf32>
func.func public @clamp_select(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>, %p: tensor<2x1xi1>, %t: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = chlo.broadcast_select %p, %t, %lo : (tensor<2x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<4xf32>, tensor<2x4xf32>
}

// A called function that returns its arguments as they are (JAX's loop
// bodies pass carried values through): the call's results are the call's
// operands.
// CHECK-LABEL: func.func @call_returning_its_arguments
// CHECK-NEXT:    %s = bcast.subtract %y, %x
// CHECK-NEXT:    func.return %s
func.func @call_returning_its_arguments(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = func.call @swap(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %s = stablehlo.subtract %r#0, %r#1 : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func private @swap(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %b, %a : tensor<4xf32>, tensor<4xf32>
}
