// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast{strict=true} | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - -p convert-stablehlo-to-bcast | filecheck %s

// chlo.erf and chlo.erfc (pretty and generic, as JAX writes them) import as
// bcast.erf and bcast.erfc; the exact gelu is x/2 * erfc(-x/sqrt(2)).

// CHECK-LABEL: func.func public @main(%x: tensor<4xf32>, %y: tensor<2x3xf64>) -> (tensor<4xf32>, tensor<2x3xf64>, tensor<4xf32>) {
// CHECK-NEXT:    %0 = bcast.erf %x : tensor<4xf32>
// CHECK-NEXT:    %1 = bcast.erfc %y : tensor<2x3xf64>
// CHECK:         %{{.*}} = bcast.negate %x : tensor<4xf32>
// CHECK:         %[[E:.*]] = bcast.erfc %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    %[[G:.*]] = bcast.multiply %{{.*}}, %[[E]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %0, %1, %[[G]] : tensor<4xf32>, tensor<2x3xf64>, tensor<4xf32>
// CHECK-NOT:     chlo.
func.func public @main(%x: tensor<4xf32>, %y: tensor<2x3xf64>) -> (tensor<4xf32>, tensor<2x3xf64>, tensor<4xf32>) {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = "chlo.erfc"(%y) : (tensor<2x3xf64>) -> tensor<2x3xf64>
  %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
  %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %3 = stablehlo.multiply %2, %x : tensor<4xf32>
  %4 = stablehlo.negate %x : tensor<4xf32>
  %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
  %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %6 = stablehlo.multiply %4, %5 : tensor<4xf32>
  %7 = chlo.erfc %6 : tensor<4xf32> -> tensor<4xf32>
  %8 = stablehlo.multiply %3, %7 : tensor<4xf32>
  return %0, %1, %8 : tensor<4xf32>, tensor<2x3xf64>, tensor<4xf32>
}
