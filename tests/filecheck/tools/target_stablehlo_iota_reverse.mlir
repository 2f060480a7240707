// RUN: bcast-opt %s -t stablehlo --split-input-file | filecheck %s

// -t stablehlo writes bcast.iota and bcast.reverse as StableHLO's; a nested
// (tml) reverse is flattened: its dims index the flat shape.
// tests/tools/test_from_jax.py has XLA run a program with both.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<2x5xui8>) {
// CHECK-NEXT: %0 = stablehlo.reverse %x, dims = [1, 0] : tensor<3x4xf32>
  %0 = bcast.reverse %x, dims = [1, 0] : tensor<3x4xf32>
// CHECK-NEXT: %1 = stablehlo.iota dim = 1 : tensor<2x5xui8>
  %1 = bcast.iota dim = 1 : tensor<2x5xui8>
  func.return %0, %1 : tensor<3x4xf32>, tensor<2x5xui8>
}

// -----

module attributes {bcast.semantics = "tml"} {
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%x: tensor<3x2xf32>) -> tensor<3x2xf32>
func.func @nested(%x: tensor<3xtensor<2xf32>>) -> tensor<3xtensor<2xf32>> {
// CHECK-NEXT: %0 = stablehlo.reverse %x, dims = [1] : tensor<3x2xf32>
  %0 = bcast.reverse %x, dims = [1] : tensor<3xtensor<2xf32>>
  func.return %0 : tensor<3xtensor<2xf32>>
}
}
