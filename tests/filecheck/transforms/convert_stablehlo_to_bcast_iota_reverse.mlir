// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// JAX's one-hot (iota, compare, convert) and x[:, ::-1] (reverse) become
// bcast.iota and bcast.reverse.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3xi32>) -> (tensor<3x4xf32>, tensor<3x4xf16>) {
// CHECK-NEXT: %0 = bcast.iota dim = 0 : tensor<4xi32>
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %1 = bcast.broadcast_in_dim %0, dims = [1] : (tensor<4xi32>) -> tensor<1x4xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<4xi32>) -> tensor<1x4xi32>
  %2 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
  %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x4xi32>) -> tensor<3x4xi32>
  %4 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x4xi32>
  %5 = stablehlo.compare EQ, %3, %4, SIGNED : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
  %6 = stablehlo.convert %5 : (tensor<3x4xi1>) -> tensor<3x4xf32>
// CHECK: bcast.reverse %arg0, dims = [1] : tensor<3x4xf32>
  %7 = stablehlo.reverse %arg0, dims = [1] : tensor<3x4xf32>
  %8 = stablehlo.add %6, %7 : tensor<3x4xf32>
// CHECK: bcast.iota dim = 1 : tensor<3x4xf16>
  %9 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x4xf16>
  return %8, %9 : tensor<3x4xf32>, tensor<3x4xf16>
}
