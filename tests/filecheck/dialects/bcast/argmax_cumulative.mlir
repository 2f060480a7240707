// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.argmax / bcast.argmin (the index type is the result's element type)
// and bcast.cumulative KIND (reverse optional).

// CHECK-LABEL: func.func @arg
func.func @arg(%x: tensor<4x3xf32>, %h: tensor<5xf16>, %u: tensor<2x1x3xui8>) -> (tensor<4xi32>, tensor<i64>, tensor<2x3xui16>) {
// CHECK-NEXT: %0 = bcast.argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4xi32>
// GENERIC: "bcast.argmax"(%x) <{dimension = 1 : i64}> : (tensor<4x3xf32>) -> tensor<4xi32>
  %0 = bcast.argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4xi32>
// CHECK-NEXT: %1 = bcast.argmin %h, dim = 0 : (tensor<5xf16>) -> tensor<i64>
// GENERIC: "bcast.argmin"(%h) <{dimension = 0 : i64}> : (tensor<5xf16>) -> tensor<i64>
  %1 = bcast.argmin %h, dim = 0 : (tensor<5xf16>) -> tensor<i64>
// CHECK-NEXT: %2 = bcast.argmax %u, dim = 1 : (tensor<2x1x3xui8>) -> tensor<2x3xui16>
  %2 = bcast.argmax %u, dim = 1 : (tensor<2x1x3xui8>) -> tensor<2x3xui16>
  func.return %0, %1, %2 : tensor<4xi32>, tensor<i64>, tensor<2x3xui16>
}

// -----

// CHECK-LABEL: func.func @cumulative
func.func @cumulative(%x: tensor<4x3xf32>, %i: tensor<0x2xi32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<0x2xi32>, tensor<0x2xi32>) {
// CHECK-NEXT: %0 = bcast.cumulative add %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4x3xf32>
// GENERIC: "bcast.cumulative"(%x) <{kind = #bcast<reduction_kind add>, dimension = 1 : i64}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %0 = bcast.cumulative add %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %1 = bcast.cumulative maximum %x, dim = 0 reverse : (tensor<4x3xf32>) -> tensor<4x3xf32>
// GENERIC: "bcast.cumulative"(%x) <{kind = #bcast<reduction_kind maximum>, dimension = 0 : i64, reverse}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = bcast.cumulative maximum %x, dim = 0 reverse : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %2 = bcast.cumulative multiply %i, dim = 0 : (tensor<0x2xi32>) -> tensor<0x2xi32>
  %2 = bcast.cumulative multiply %i, dim = 0 : (tensor<0x2xi32>) -> tensor<0x2xi32>
// CHECK-NEXT: %3 = bcast.cumulative minimum %i, dim = 1 reverse : (tensor<0x2xi32>) -> tensor<0x2xi32>
  %3 = bcast.cumulative minimum %i, dim = 1 reverse : (tensor<0x2xi32>) -> tensor<0x2xi32>
  func.return %0, %1, %2, %3 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<0x2xi32>, tensor<0x2xi32>
}
