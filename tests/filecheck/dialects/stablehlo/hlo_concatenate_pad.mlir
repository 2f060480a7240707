// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// stablehlo.concatenate and stablehlo.pad as JAX prints them (pretty and
// generic); their verifier errors: invalid_hlo_concatenate_pad.mlir.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x1xf32>, %cst: tensor<f32>) -> (tensor<2x8xf32>, tensor<3x4xf32>) {
// CHECK-NEXT: %0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
// GENERIC: "stablehlo.concatenate"(%arg0, %arg1, %arg2) <{dimension = 1 : i64}> : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %1 = stablehlo.pad %arg0, %cst, low = [1, 0], high = [-1, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
// GENERIC: "stablehlo.pad"(%arg0, %cst) <{edge_padding_high = array<i64: -1, 1>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = "stablehlo.pad"(%arg0, %cst) <{edge_padding_high = array<i64: -1, 1>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<3x4xf32>
}
