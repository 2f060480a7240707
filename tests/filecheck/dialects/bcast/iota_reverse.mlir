// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.iota and bcast.reverse: StableHLO's syntax, under every semantics.

// CHECK-LABEL: func.func @iota
func.func @iota() -> (tensor<4x5xi32>, tensor<3xf16>, tensor<0x2xui8>) {
// CHECK-NEXT: %0 = bcast.iota dim = 1 : tensor<4x5xi32>
// GENERIC: "bcast.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x5xi32>
  %0 = bcast.iota dim = 1 : tensor<4x5xi32>
// CHECK-NEXT: %1 = bcast.iota dim = 0 : tensor<3xf16>
  %1 = bcast.iota dim = 0 : tensor<3xf16>
// CHECK-NEXT: %2 = bcast.iota dim = 0 : tensor<0x2xui8>
  %2 = bcast.iota dim = 0 : tensor<0x2xui8>
  func.return %0, %1, %2 : tensor<4x5xi32>, tensor<3xf16>, tensor<0x2xui8>
}

// -----

// Dims are kept in the order written, as StableHLO prints them.
// CHECK-LABEL: func.func @reverse
func.func @reverse(%x: tensor<3x4xf32>, %b: tensor<2xi1>) -> (tensor<3x4xf32>, tensor<2xi1>) {
// CHECK-NEXT: %0 = bcast.reverse %x, dims = [1, 0] : tensor<3x4xf32>
// GENERIC: "bcast.reverse"(%x) <{dimensions = array<i64: 1, 0>}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %0 = bcast.reverse %x, dims = [1, 0] : tensor<3x4xf32>
// CHECK-NEXT: %1 = bcast.reverse %b, dims = [] : tensor<2xi1>
  %1 = bcast.reverse %b, dims = [] : tensor<2xi1>
  func.return %0, %1 : tensor<3x4xf32>, tensor<2xi1>
}

// -----

// Under xla and tml too; a tml nested reverse's dims index the flat shape.
// CHECK-LABEL: func.func @xla
module attributes {bcast.semantics = "xla"} {
func.func @xla(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
// CHECK-NEXT: bcast.iota dim = 0 : tensor<3xf32>
  %0 = bcast.iota dim = 0 : tensor<3xf32>
// CHECK-NEXT: bcast.reverse %x, dims = [0] : tensor<3xf32>
  %1 = bcast.reverse %x, dims = [0] : tensor<3xf32>
  func.return %0, %1 : tensor<3xf32>, tensor<3xf32>
}
}

// -----

// CHECK-LABEL: func.func @tml
module attributes {bcast.semantics = "tml"} {
func.func @tml(%x: tensor<3xtensor<2xf32>>) -> (tensor<3xtensor<2xf32>>, tensor<2x2xui32>) {
// CHECK-NEXT: bcast.reverse %x, dims = [0, 1] : tensor<3xtensor<2xf32>>
  %0 = bcast.reverse %x, dims = [0, 1] : tensor<3xtensor<2xf32>>
// CHECK-NEXT: bcast.iota dim = 1 : tensor<2x2xui32>
  %1 = bcast.iota dim = 1 : tensor<2x2xui32>
  func.return %0, %1 : tensor<3xtensor<2xf32>>, tensor<2x2xui32>
}
}
