// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// JAX's x[:, 1:3] and x[::2, 1:5:3] (stablehlo.slice, pretty and generic
// form) become bcast.slice with the same ranges.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<4x5xf32>) -> (tensor<4x2xf32>, tensor<2x2xf32>, tensor<0x5xf32>) {
// CHECK-NEXT: %0 = bcast.slice %arg0 [0:4, 1:3] : (tensor<4x5xf32>) -> tensor<4x2xf32>
  %0 = stablehlo.slice %arg0 [0:4, 1:3] : (tensor<4x5xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %1 = bcast.slice %arg0 [0:4:2, 1:5:3] : (tensor<4x5xf32>) -> tensor<2x2xf32>
  %1 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 5>, strides = array<i64: 2, 3>}> : (tensor<4x5xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %2 = bcast.slice %arg0 [3:3, 0:5] : (tensor<4x5xf32>) -> tensor<0x5xf32>
  %2 = stablehlo.slice %arg0 [3:3, 0:5] : (tensor<4x5xf32>) -> tensor<0x5xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<2x2xf32>, tensor<0x5xf32>
}
