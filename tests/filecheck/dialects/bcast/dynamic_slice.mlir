// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.dynamic_slice / bcast.dynamic_update_slice: start indices are rank-0
// integer tensors in brackets, written where they stand in the functional type.

// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<4x8xf32>, %i: tensor<i32>, %j: tensor<i32>, %u: tensor<2x3xf32>, %k: tensor<ui64>, %s: tensor<f16>) -> (tensor<2x3xf32>, tensor<4x8xf32>, tensor<0x8xf32>, tensor<f16>, tensor<f16>) {
// CHECK-NEXT: %0 = bcast.dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// GENERIC: "bcast.dynamic_slice"(%x, %i, %j) <{slice_sizes = array<i64: 2, 3>}> : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %0 = bcast.dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = bcast.dynamic_update_slice %x[%k, %k], %u : (tensor<4x8xf32>, tensor<ui64>, tensor<ui64>, tensor<2x3xf32>) -> tensor<4x8xf32>
// GENERIC: "bcast.dynamic_update_slice"(%x, %k, %k, %u) : (tensor<4x8xf32>, tensor<ui64>, tensor<ui64>, tensor<2x3xf32>) -> tensor<4x8xf32>
  %1 = bcast.dynamic_update_slice %x[%k, %k], %u : (tensor<4x8xf32>, tensor<ui64>, tensor<ui64>, tensor<2x3xf32>) -> tensor<4x8xf32>
// A zero-size block.
// CHECK-NEXT: %2 = bcast.dynamic_slice %x[%i, %i], sizes = [0, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<0x8xf32>
  %2 = bcast.dynamic_slice %x[%i, %i], sizes = [0, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<0x8xf32>
// Rank 0: no start index.
// CHECK-NEXT: %3 = bcast.dynamic_slice %s[], sizes = [] : (tensor<f16>) -> tensor<f16>
  %3 = bcast.dynamic_slice %s[], sizes = [] : (tensor<f16>) -> tensor<f16>
// CHECK-NEXT: %4 = bcast.dynamic_update_slice %s[], %3 : (tensor<f16>, tensor<f16>) -> tensor<f16>
  %4 = bcast.dynamic_update_slice %s[], %3 : (tensor<f16>, tensor<f16>) -> tensor<f16>
  func.return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<4x8xf32>, tensor<0x8xf32>, tensor<f16>, tensor<f16>
}

// -----

// Valid under xla and tml semantics too (flat types).
// CHECK-LABEL: func.func @tml
module attributes {bcast.semantics = "tml"} {
  func.func @tml(%x: tensor<5xi8>, %i: tensor<i8>) -> tensor<2xi8> {
// CHECK: bcast.dynamic_slice %x[%i], sizes = [2] : (tensor<5xi8>, tensor<i8>) -> tensor<2xi8>
    %0 = bcast.dynamic_slice %x[%i], sizes = [2] : (tensor<5xi8>, tensor<i8>) -> tensor<2xi8>
    func.return %0 : tensor<2xi8>
  }
}

// -----

// CHECK-LABEL: func.func @xla
module attributes {bcast.semantics = "xla"} {
  func.func @xla(%x: tensor<5xi1>, %i: tensor<ui16>, %u: tensor<5xi1>) -> tensor<5xi1> {
// CHECK: bcast.dynamic_update_slice %x[%i], %u : (tensor<5xi1>, tensor<ui16>, tensor<5xi1>) -> tensor<5xi1>
    %0 = bcast.dynamic_update_slice %x[%i], %u : (tensor<5xi1>, tensor<ui16>, tensor<5xi1>) -> tensor<5xi1>
    func.return %0 : tensor<5xi1>
  }
}
