// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// JAX's jnp.concatenate and jax.lax.pad (cropping, interior padding) become
// bcast.concatenate and bcast.pad.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x1xf32>) -> (tensor<2x8xf32>, tensor<3x4xf32>) {
// CHECK-NEXT: %0 = bcast.concatenate %arg0, %arg1, %arg2, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %cst = bcast.constant dense<0.000000e+00> : tensor<f32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = bcast.pad %arg0, %cst, low = [1, 0], high = [-1, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = stablehlo.pad %arg0, %cst, low = [1, 0], high = [-1, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: func.return %0, %1 : tensor<2x8xf32>, tensor<3x4xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<3x4xf32>
}
