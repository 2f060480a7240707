// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s
// The output verifies again (the second bcast-opt verifies its input).
// RUN: bcast-opt %s --split-input-file -p canonicalize | bcast-opt - --split-input-file | filecheck %s

// A reduce over no dims reduces nothing (with or without keepdims).
// CHECK-LABEL: func.func @reduce_without_dims
// CHECK-NEXT:    func.return %x, %x : tensor<2x3xf32>, tensor<2x3xf32>
func.func @reduce_without_dims(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = bcast.reduce add %x, dims = [] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = bcast.reduce maximum %x, dims = [] keepdims : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Size-1 dims only: a reshape, or nothing with keepdims (multiply included:
// one element times the identity 1 is the element).
// CHECK-LABEL: func.func @reduce_over_unit_dims
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %x : (tensor<2x1x3x1xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %[[P:.*]] = bcast.reshape %p : (tensor<1x4xi1>) -> tensor<4xi1>
// CHECK-NEXT:    func.return %[[R]], %x, %[[P]]
func.func @reduce_over_unit_dims(%x: tensor<2x1x3x1xf16>, %p: tensor<1x4xi1>) -> (tensor<2x3xf16>, tensor<2x1x3x1xf16>, tensor<4xi1>) {
  %0 = bcast.reduce add %x, dims = [1, 3] : (tensor<2x1x3x1xf16>) -> tensor<2x3xf16>
  %1 = bcast.reduce multiply %x, dims = [3, 1] keepdims : (tensor<2x1x3x1xf16>) -> tensor<2x1x3x1xf16>
  %2 = bcast.reduce and %p, dims = [0] : (tensor<1x4xi1>) -> tensor<4xi1>
  func.return %0, %1, %2 : tensor<2x3xf16>, tensor<2x1x3x1xf16>, tensor<4xi1>
}

// -----

// One reduced dim is not size 1: kept.
// CHECK-LABEL: func.func @reduce_over_unit_and_other_dims_kept
// CHECK-NEXT:    %[[R:.*]] = bcast.reduce add %x, dims = [0, 2] : (tensor<2x1x3xf32>) -> tensor<1xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @reduce_over_unit_and_other_dims_kept(%x: tensor<2x1x3xf32>) -> tensor<1xf32> {
  %0 = bcast.reduce add %x, dims = [0, 2] : (tensor<2x1x3xf32>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

// maximum / minimum / and / or over dims the broadcast created give the source.
// CHECK-LABEL: func.func @reduce_of_broadcast_idempotent_kinds
// CHECK-NEXT:    func.return %x, %x, %i, %p
func.func @reduce_of_broadcast_idempotent_kinds(%x: tensor<3xf32>, %i: tensor<3xui8>, %p: tensor<3xi1>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xui8>, tensor<3xi1>) {
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3x5xf32>
  %0 = bcast.reduce maximum %b, dims = [0, 2] : (tensor<4x3x5xf32>) -> tensor<3xf32>
  %1 = bcast.reduce minimum %b, dims = [2, 0] : (tensor<4x3x5xf32>) -> tensor<3xf32>
  %c = bcast.broadcast_in_dim %i, dims = [0] : (tensor<3xui8>) -> tensor<3x7xui8>
  %2 = bcast.reduce and %c, dims = [1] : (tensor<3x7xui8>) -> tensor<3xui8>
  %d = bcast.broadcast_in_dim %p, dims = [1] : (tensor<3xi1>) -> tensor<2x3xi1>
  %3 = bcast.reduce or %d, dims = [0] : (tensor<2x3xi1>) -> tensor<3xi1>
  func.return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xui8>, tensor<3xi1>
}

// -----

// Dims not reduced stay broadcast, renumbered without keepdims and in place
// with it; a transposing broadcast ends as a transpose of the source.
// CHECK-LABEL: func.func @reduce_of_broadcast_keeps_other_dims
// CHECK-NEXT:    %[[A:.*]] = bcast.broadcast_in_dim %x, dims = [0] : (tensor<3xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<1x3x5xf32>
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[T]]
func.func @reduce_of_broadcast_keeps_other_dims(%x: tensor<3xf32>, %y: tensor<2x3xf32>) -> (tensor<3x5xf32>, tensor<1x3x5xf32>, tensor<3x2xf32>) {
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3x5xf32>
  %0 = bcast.reduce maximum %b, dims = [0] : (tensor<4x3x5xf32>) -> tensor<3x5xf32>
  %1 = bcast.reduce maximum %b, dims = [0] keepdims : (tensor<4x3x5xf32>) -> tensor<1x3x5xf32>
  %c = bcast.broadcast_in_dim %y, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  %2 = bcast.reduce minimum %c, dims = [1] : (tensor<3x4x2xf32>) -> tensor<3x2xf32>
  func.return %0, %1, %2 : tensor<3x5xf32>, tensor<1x3x5xf32>, tensor<3x2xf32>
}

// -----

// A size-1 source dim expanded by the broadcast is constant along it too: the
// reduced source dims are dropped by a reshape (without keepdims), kept as
// size 1 with keepdims.
// CHECK-LABEL: func.func @reduce_of_expanded_unit_dim
// CHECK-NEXT:    %[[M:.*]] = bcast.reshape %y : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<4.000000e+00> : tensor<1x3xf32>
// CHECK-NEXT:    %[[K:.*]] = bcast.multiply %y, %[[C]] : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[KB:.*]] = bcast.broadcast_in_dim %[[K]], dims = [0, 2] : (tensor<1x3xf32>) -> tensor<1x5x3xf32>
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %y : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[C2:.*]] = bcast.constant dense<4.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[S:.*]] = bcast.multiply %[[R]], %[[C2]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[SB:.*]] = bcast.broadcast_in_dim %[[S]], dims = [1] : (tensor<3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT:    func.return %[[M]], %[[KB]], %[[SB]]
func.func @reduce_of_expanded_unit_dim(%y: tensor<1x3xf32>) -> (tensor<3xf32>, tensor<1x5x3xf32>, tensor<5x3xf32>) {
  %b = bcast.broadcast_in_dim %y, dims = [0, 2] : (tensor<1x3xf32>) -> tensor<4x5x3xf32>
  %0 = bcast.reduce maximum %b, dims = [0, 1] : (tensor<4x5x3xf32>) -> tensor<3xf32>
  %1 = bcast.reduce add %b, dims = [0] keepdims : (tensor<4x5x3xf32>) -> tensor<1x5x3xf32>
  %2 = bcast.reduce add %b, dims = [0] : (tensor<4x5x3xf32>) -> tensor<5x3xf32>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<1x5x3xf32>, tensor<5x3xf32>
}

// -----

// Float add multiplies by the count while it is exact: up to 2048 for f16
// (2049 is kept). A large operand keeps the count a broadcast scalar.
// CHECK-LABEL: func.func @reduce_add_of_broadcast_float
// CHECK-NEXT:    %[[C4:.*]] = bcast.constant dense<4.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[A:.*]] = bcast.multiply %x, %[[C4]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[C3:.*]] = bcast.constant dense<3.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[B3:.*]] = bcast.broadcast_in_dim %[[C3]], dims = [] : (tensor<f32>) -> tensor<2048xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.multiply %big, %[[B3]] : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<2048xf32>
// CHECK-NEXT:    %[[CH:.*]] = bcast.constant dense<2.048000e+03> : tensor<3xf16>
// CHECK-NEXT:    %[[H:.*]] = bcast.multiply %h, %[[CH]] : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
// CHECK-NEXT:    %[[E:.*]] = bcast.broadcast_in_dim %h, dims = [1] : (tensor<3xf16>) -> tensor<2049x3xf16>
// CHECK-NEXT:    %[[K:.*]] = bcast.reduce add %[[E]], dims = [0] : (tensor<2049x3xf16>) -> tensor<3xf16>
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[H]], %[[K]]
func.func @reduce_add_of_broadcast_float(%x: tensor<3xf32>, %big: tensor<2048xf32>, %h: tensor<3xf16>) -> (tensor<3xf32>, tensor<2048xf32>, tensor<3xf16>, tensor<3xf16>) {
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %0 = bcast.reduce add %b, dims = [0] : (tensor<4x3xf32>) -> tensor<3xf32>
  %c = bcast.broadcast_in_dim %big, dims = [0] : (tensor<2048xf32>) -> tensor<2048x3xf32>
  %1 = bcast.reduce add %c, dims = [1] : (tensor<2048x3xf32>) -> tensor<2048xf32>
  %d = bcast.broadcast_in_dim %h, dims = [1] : (tensor<3xf16>) -> tensor<2048x3xf16>
  %2 = bcast.reduce add %d, dims = [0] : (tensor<2048x3xf16>) -> tensor<3xf16>
  %e = bcast.broadcast_in_dim %h, dims = [1] : (tensor<3xf16>) -> tensor<2049x3xf16>
  %3 = bcast.reduce add %e, dims = [0] : (tensor<2049x3xf16>) -> tensor<3xf16>
  func.return %0, %1, %2, %3 : tensor<3xf32>, tensor<2048xf32>, tensor<3xf16>, tensor<3xf16>
}

// -----

// Integer add multiplies by the count modulo 2**bits (the wrapped sum):
// 1000 = -24 (mod 256) in i8; 65537 = 1 (mod 65536) in ui16 leaves the source.
// CHECK-LABEL: func.func @reduce_add_of_broadcast_wraps
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<-24> : tensor<3xi8>
// CHECK-NEXT:    %[[A:.*]] = bcast.multiply %x, %[[C]] : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT:    %[[C42:.*]] = bcast.constant dense<42> : tensor<i32>
// CHECK-NEXT:    %[[S:.*]] = bcast.multiply %s, %[[C42]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    func.return %[[A]], %u, %[[S]]
func.func @reduce_add_of_broadcast_wraps(%x: tensor<3xi8>, %u: tensor<ui16>, %s: tensor<i32>) -> (tensor<3xi8>, tensor<ui16>, tensor<i32>) {
  %b = bcast.broadcast_in_dim %x, dims = [2] : (tensor<3xi8>) -> tensor<200x5x3xi8>
  %0 = bcast.reduce add %b, dims = [0, 1] : (tensor<200x5x3xi8>) -> tensor<3xi8>
  %c = bcast.broadcast_in_dim %u, dims = [] : (tensor<ui16>) -> tensor<65537xui16>
  %1 = bcast.reduce add %c, dims = [0] : (tensor<65537xui16>) -> tensor<ui16>
  %d = bcast.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<6x7xi32>
  %2 = bcast.reduce add %d, dims = [0, 1] : (tensor<6x7xi32>) -> tensor<i32>
  func.return %0, %1, %2 : tensor<3xi8>, tensor<ui16>, tensor<i32>
}

// -----

// xor: an even count gives zeros, an odd count the source.
// CHECK-LABEL: func.func @reduce_xor_of_broadcast
// CHECK-NEXT:    %[[Z:.*]] = bcast.constant dense<0> : tensor<3xui8>
// CHECK-NEXT:    %[[F:.*]] = bcast.constant dense<false> : tensor<3xi1>
// CHECK-NEXT:    func.return %[[Z]], %p, %[[F]]
func.func @reduce_xor_of_broadcast(%x: tensor<3xui8>, %p: tensor<3xi1>) -> (tensor<3xui8>, tensor<3xi1>, tensor<3xi1>) {
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xui8>) -> tensor<4x3xui8>
  %0 = bcast.reduce xor %b, dims = [0] : (tensor<4x3xui8>) -> tensor<3xui8>
  %c = bcast.broadcast_in_dim %p, dims = [1] : (tensor<3xi1>) -> tensor<3x3xi1>
  %1 = bcast.reduce xor %c, dims = [0] : (tensor<3x3xi1>) -> tensor<3xi1>
  %d = bcast.broadcast_in_dim %p, dims = [1] : (tensor<3xi1>) -> tensor<2x3xi1>
  %2 = bcast.reduce xor %d, dims = [0] : (tensor<2x3xi1>) -> tensor<3xi1>
  func.return %0, %1, %2 : tensor<3xui8>, tensor<3xi1>, tensor<3xi1>
}

// -----

// Not rewritten: multiply (x ** count rounds differently), a reduced dim that
// carries source data, and a reduction over created and data dims together.
// CHECK-LABEL: func.func @reduce_of_broadcast_kept
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.reduce multiply %[[B]], dims = [0] : (tensor<4x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[X:.*]] = bcast.reduce maximum %[[B]], dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = bcast.broadcast_in_dim %y, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = bcast.reduce add %[[C]], dims = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<f32>
// CHECK-NEXT:    func.return %[[M]], %[[X]], %[[S]]
func.func @reduce_of_broadcast_kept(%x: tensor<3xf32>, %y: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<4xf32>, tensor<f32>) {
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %0 = bcast.reduce multiply %b, dims = [0] : (tensor<4x3xf32>) -> tensor<3xf32>
  %1 = bcast.reduce maximum %b, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  %c = bcast.broadcast_in_dim %y, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %2 = bcast.reduce add %c, dims = [0, 1, 2] : (tensor<4x2x3xf32>) -> tensor<f32>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// A size-0 reduced dim gives the kind's identity, a splat of any size
// (f16 -inf, i1 true, ui8 255, multiply 1); an empty result is kept.
// CHECK-LABEL: func.func @reduce_of_zero_elements
// CHECK-NEXT:    %[[A:.*]] = bcast.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.constant dense<0xfc00> : tensor<3xf16>
// CHECK-NEXT:    %[[P:.*]] = bcast.constant dense<true> : tensor<1x2xi1>
// CHECK-NEXT:    %[[U:.*]] = bcast.constant dense<255> : tensor<5x400xui8>
// CHECK-NEXT:    %[[O:.*]] = bcast.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:    %[[E:.*]] = bcast.reduce add %x, dims = [1] : (tensor<0x3xf32>) -> tensor<0xf32>
// CHECK-NEXT:    func.return %[[A]], %[[M]], %[[P]], %[[U]], %[[O]], %[[E]]
func.func @reduce_of_zero_elements(%x: tensor<0x3xf32>, %h: tensor<3x0xf16>, %p: tensor<0x2xi1>, %u: tensor<5x0x400xui8>, %y: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf16>, tensor<1x2xi1>, tensor<5x400xui8>, tensor<3xi32>, tensor<0xf32>) {
  %0 = bcast.reduce add %x, dims = [0] : (tensor<0x3xf32>) -> tensor<3xf32>
  %1 = bcast.reduce maximum %h, dims = [1] : (tensor<3x0xf16>) -> tensor<3xf16>
  %2 = bcast.reduce and %p, dims = [0] keepdims : (tensor<0x2xi1>) -> tensor<1x2xi1>
  %3 = bcast.reduce minimum %u, dims = [1] : (tensor<5x0x400xui8>) -> tensor<5x400xui8>
  %b = bcast.broadcast_in_dim %y, dims = [1] : (tensor<3xi32>) -> tensor<0x3xi32>
  %4 = bcast.reduce multiply %b, dims = [0] : (tensor<0x3xi32>) -> tensor<3xi32>
  %5 = bcast.reduce add %x, dims = [1] : (tensor<0x3xf32>) -> tensor<0xf32>
  func.return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<3xf16>, tensor<1x2xi1>, tensor<5x400xui8>, tensor<3xi32>, tensor<0xf32>
}

// -----

// Reductions of constants fold with bcast's exact semantics: integer wrap
// (300 = 44 in i8), f16, i1, NaN propagating through maximum.
// CHECK-LABEL: func.func @fold_reduce_of_constants
// CHECK-NEXT:    %[[A:.*]] = bcast.constant dense<[5, 7, 9]> : tensor<3xi32>
// CHECK-NEXT:    %[[W:.*]] = bcast.constant dense<44> : tensor<i8>
// CHECK-NEXT:    %[[H:.*]] = bcast.constant dense<{{\[}}[2.000000e+00], [1.200000e+01]]> : tensor<2x1xf16>
// CHECK-NEXT:    %[[P:.*]] = bcast.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %[[N:.*]] = bcast.constant dense<[0x{{7fc00000|ffc00000}}, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    func.return %[[A]], %[[W]], %[[H]], %[[P]], %[[N]]
func.func @fold_reduce_of_constants() -> (tensor<3xi32>, tensor<i8>, tensor<2x1xf16>, tensor<2xi1>, tensor<2xf32>) {
  %a = bcast.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = bcast.reduce add %a, dims = [0] : (tensor<2x3xi32>) -> tensor<3xi32>
  %b = bcast.constant dense<[100, 100, 100]> : tensor<3xi8>
  %1 = bcast.reduce add %b, dims = [0] : (tensor<3xi8>) -> tensor<i8>
  %h = bcast.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %2 = bcast.reduce multiply %h, dims = [1] keepdims : (tensor<2x2xf16>) -> tensor<2x1xf16>
  %p = bcast.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %3 = bcast.reduce or %p, dims = [1] : (tensor<2x2xi1>) -> tensor<2xi1>
  %f = bcast.constant dense<[[1.0, 0x7FC00000], [2.0, 3.0]]> : tensor<2x2xf32>
  %4 = bcast.reduce maximum %f, dims = [1] : (tensor<2x2xf32>) -> tensor<2xf32>
  func.return %0, %1, %2, %3, %4 : tensor<3xi32>, tensor<i8>, tensor<2x1xf16>, tensor<2xi1>, tensor<2xf32>
}

// -----

// A result larger than FOLD_LIMIT is not folded.
// CHECK-LABEL: func.func @reduce_of_large_constant_kept
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<1.000000e+00> : tensor<2000x3xf32>
// CHECK-NEXT:    %[[R:.*]] = bcast.reduce add %[[C]], dims = [1] : (tensor<2000x3xf32>) -> tensor<2000xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @reduce_of_large_constant_kept() -> tensor<2000xf32> {
  %c = bcast.constant dense<1.0> : tensor<2000x3xf32>
  %0 = bcast.reduce add %c, dims = [1] : (tensor<2000x3xf32>) -> tensor<2000xf32>
  func.return %0 : tensor<2000xf32>
}
