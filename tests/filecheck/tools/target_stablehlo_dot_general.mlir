// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.dot_general as StableHLO's, and bcast.matmul as
// make-explicit leaves it: converts, batch broadcasts, dot_general.
// tests/lowering/test_dot_general.py has XLA run such programs.

// CHECK-LABEL: func.func @main
func.func @main(%a: tensor<2x3x4xi32>, %b: tensor<2x4x5xi32>, %c: tensor<2x1x3x4xf32>, %d: tensor<5x4x6xf16>, %v: tensor<4xf32>) -> (tensor<2x3x5xi32>, tensor<2x5x3x6xf32>, tensor<2x1x3xf32>) {
// CHECK-NEXT: %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
// CHECK-NEXT: %1 = stablehlo.broadcast_in_dim %c, dims = [0, 1, 2, 3] : (tensor<2x1x3x4xf32>) -> tensor<2x5x3x4xf32>
// CHECK-NEXT: %2 = stablehlo.convert %d : (tensor<5x4x6xf16>) -> tensor<5x4x6xf32>
// CHECK-NEXT: %3 = stablehlo.broadcast_in_dim %2, dims = [1, 2, 3] : (tensor<5x4x6xf32>) -> tensor<2x5x4x6xf32>
// CHECK-NEXT: %4 = stablehlo.dot_general %1, %3, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x5x3x4xf32>, tensor<2x5x4x6xf32>) -> tensor<2x5x3x6xf32>
  %1 = bcast.matmul %c, %d : (tensor<2x1x3x4xf32>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf32>
// CHECK-NEXT: %5 = stablehlo.dot_general %c, %v, contracting_dims = [3] x [0] : (tensor<2x1x3x4xf32>, tensor<4xf32>) -> tensor<2x1x3xf32>
  %2 = bcast.matmul %c, %v : (tensor<2x1x3x4xf32>, tensor<4xf32>) -> tensor<2x1x3xf32>
  func.return %0, %1, %2 : tensor<2x3x5xi32>, tensor<2x5x3x6xf32>, tensor<2x1x3xf32>
}
