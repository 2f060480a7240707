// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.slice: StableHLO's syntax, start:limit[:stride] per dimension.

// CHECK-LABEL: func.func @slice
func.func @slice(%x: tensor<4x8xf32>, %b: tensor<3xi1>, %s: tensor<f16>) -> (tensor<2x4xf32>, tensor<0x3xf32>, tensor<2xi1>, tensor<f16>) {
// CHECK-NEXT: %0 = bcast.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
// GENERIC: "bcast.slice"(%x) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 8>, strides = array<i64: 1, 2>}> : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %0 = bcast.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
// An empty range gives a zero-size dim.
// CHECK-NEXT: %1 = bcast.slice %x [2:2:3, 1:7:2] : (tensor<4x8xf32>) -> tensor<0x3xf32>
  %1 = bcast.slice %x [2:2:3, 1:7:2] : (tensor<4x8xf32>) -> tensor<0x3xf32>
// CHECK-NEXT: %2 = bcast.slice %b [0:3:2] : (tensor<3xi1>) -> tensor<2xi1>
  %2 = bcast.slice %b [0:3:2] : (tensor<3xi1>) -> tensor<2xi1>
// CHECK-NEXT: %3 = bcast.slice %s [] : (tensor<f16>) -> tensor<f16>
  %3 = bcast.slice %s [] : (tensor<f16>) -> tensor<f16>
  func.return %0, %1, %2, %3 : tensor<2x4xf32>, tensor<0x3xf32>, tensor<2xi1>, tensor<f16>
}

// -----

// CHECK-LABEL: func.func @unit_stride
func.func @unit_stride(%x: tensor<4xf32>) -> tensor<2xf32> {
// CHECK-NEXT: bcast.slice %x [1:3] : (tensor<4xf32>) -> tensor<2xf32>
  %0 = bcast.slice %x [1:3:1] : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// Under xla semantics too.
// CHECK-LABEL: func.func @xla
module attributes {bcast.semantics = "xla"} {
func.func @xla(%x: tensor<5xui8>) -> tensor<2xui8> {
// CHECK-NEXT: bcast.slice %x [1:5:3] : (tensor<5xui8>) -> tensor<2xui8>
  %0 = bcast.slice %x [1:5:3] : (tensor<5xui8>) -> tensor<2xui8>
  func.return %0 : tensor<2xui8>
}
}
