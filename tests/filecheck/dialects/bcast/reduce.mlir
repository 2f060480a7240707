// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.reduce: every kind, keepdims, dims in any order printed sorted.

// CHECK-LABEL: func.func @kinds
func.func @kinds(%x: tensor<4x3xf32>, %i: tensor<2x3x4xi32>, %u: tensor<5xui8>, %b: tensor<2x3xi1>) {
// CHECK-NEXT: %add = bcast.reduce add %x, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  %add = bcast.reduce add %x, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
// CHECK-NEXT: %multiply = bcast.reduce multiply %i, dims = [0, 2] : (tensor<2x3x4xi32>) -> tensor<3xi32>
  %multiply = bcast.reduce multiply %i, dims = [0, 2] : (tensor<2x3x4xi32>) -> tensor<3xi32>
// CHECK-NEXT: %maximum = bcast.reduce maximum %x, dims = [0] : (tensor<4x3xf32>) -> tensor<3xf32>
  %maximum = bcast.reduce maximum %x, dims = [0] : (tensor<4x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %minimum = bcast.reduce minimum %u, dims = [0] : (tensor<5xui8>) -> tensor<ui8>
  %minimum = bcast.reduce minimum %u, dims = [0] : (tensor<5xui8>) -> tensor<ui8>
// CHECK-NEXT: %and = bcast.reduce and %b, dims = [1] : (tensor<2x3xi1>) -> tensor<2xi1>
  %and = bcast.reduce and %b, dims = [1] : (tensor<2x3xi1>) -> tensor<2xi1>
// CHECK-NEXT: %or = bcast.reduce or %u, dims = [0] : (tensor<5xui8>) -> tensor<ui8>
  %or = bcast.reduce or %u, dims = [0] : (tensor<5xui8>) -> tensor<ui8>
// CHECK-NEXT: %xor = bcast.reduce xor %i, dims = [1] : (tensor<2x3x4xi32>) -> tensor<2x4xi32>
  %xor = bcast.reduce xor %i, dims = [1] : (tensor<2x3x4xi32>) -> tensor<2x4xi32>
  func.return
}
// GENERIC: %add = "bcast.reduce"(%x) <{kind = #bcast<reduction_kind add>, dims = array<i64: 1>}> : (tensor<4x3xf32>) -> tensor<4xf32>
// GENERIC: %and = "bcast.reduce"(%b) <{kind = #bcast<reduction_kind and>, dims = array<i64: 1>}> : (tensor<2x3xi1>) -> tensor<2xi1>

// -----

// CHECK-LABEL: func.func @keepdims_sorted
func.func @keepdims_sorted(%i: tensor<2x3x4xi32>, %z: tensor<0x3xf16>) {
// The dims are stored and printed sorted.
// CHECK-NEXT: %k = bcast.reduce add %i, dims = [0, 2] keepdims : (tensor<2x3x4xi32>) -> tensor<1x3x1xi32>
  %k = bcast.reduce add %i, dims = [2, 0] keepdims : (tensor<2x3x4xi32>) -> tensor<1x3x1xi32>
// CHECK-NEXT: %all = bcast.reduce maximum %i, dims = [0, 1, 2] : (tensor<2x3x4xi32>) -> tensor<i32>
  %all = bcast.reduce maximum %i, dims = [1, 2, 0] : (tensor<2x3x4xi32>) -> tensor<i32>
// No dims: the operand unchanged.
// CHECK-NEXT: %none = bcast.reduce add %i, dims = [] : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
  %none = bcast.reduce add %i, dims = [] : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
// A zero-size dim reduces to the identity.
// CHECK-NEXT: %empty = bcast.reduce add %z, dims = [0] keepdims : (tensor<0x3xf16>) -> tensor<1x3xf16>
  %empty = bcast.reduce add %z, dims = [0] keepdims : (tensor<0x3xf16>) -> tensor<1x3xf16>
  func.return
}
// GENERIC: %k = "bcast.reduce"(%i) <{kind = #bcast<reduction_kind add>, dims = array<i64: 0, 2>, keepdims}> : (tensor<2x3x4xi32>) -> tensor<1x3x1xi32>

// -----

// Under tml, dims index the outer level; the inner levels are kept whole.
// CHECK: builtin.module attributes {bcast.semantics = "tml"}
module attributes {bcast.semantics = "tml"} {
// CHECK-LABEL: func.func @nested
  func.func @nested(%n: tensor<3x4xtensor<2x2xf32>>) {
// CHECK-NEXT: %0 = bcast.reduce add %n, dims = [1] : (tensor<3x4xtensor<2x2xf32>>) -> tensor<3xtensor<2x2xf32>>
    %0 = bcast.reduce add %n, dims = [1] : (tensor<3x4xtensor<2x2xf32>>) -> tensor<3xtensor<2x2xf32>>
// CHECK-NEXT: %1 = bcast.reduce maximum %n, dims = [0, 1] : (tensor<3x4xtensor<2x2xf32>>) -> tensor<tensor<2x2xf32>>
    %1 = bcast.reduce maximum %n, dims = [0, 1] : (tensor<3x4xtensor<2x2xf32>>) -> tensor<tensor<2x2xf32>>
// CHECK-NEXT: %2 = bcast.reduce minimum %n, dims = [0] keepdims : (tensor<3x4xtensor<2x2xf32>>) -> tensor<1x4xtensor<2x2xf32>>
    %2 = bcast.reduce minimum %n, dims = [0] keepdims : (tensor<3x4xtensor<2x2xf32>>) -> tensor<1x4xtensor<2x2xf32>>
    func.return
  }
}

// -----

// Softmax written out: the keepdims results broadcast back (numpy semantics).
// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
// CHECK-NEXT: %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %e = bcast.exponential %d : tensor<4x3xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %r = bcast.divide %e, %s : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}
