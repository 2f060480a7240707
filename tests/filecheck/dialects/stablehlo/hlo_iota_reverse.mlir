// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// stablehlo.iota and stablehlo.reverse as JAX prints them (pretty and
// generic); their verifier errors: invalid_hlo_iota_reverse.mlir.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<4xi32>, tensor<3x4xf32>, tensor<3x4xf32>) {
// CHECK-NEXT: %0 = stablehlo.iota dim = 0 : tensor<4xi32>
// GENERIC: "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
  %0 = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %1 = stablehlo.reverse %arg0, dims = [1] : tensor<3x4xf32>
// GENERIC: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 1>}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.reverse %arg0, dims = [1] : tensor<3x4xf32>
// CHECK-NEXT: %2 = stablehlo.iota dim = 1 : tensor<3x4xf32>
  %2 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x4xf32>
  return %0, %1, %2 : tensor<4xi32>, tensor<3x4xf32>, tensor<3x4xf32>
}
