// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s | bcast-opt - | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s --check-prefix=IMPORT

// stablehlo.gather as JAX prints it (generic only, as StableHLO has it),
// and its import: bcast.gather with the same dimension numbers and slice
// sizes, indices_are_sorted dropped (a promise bcast does not need). Its
// verifier errors: invalid_hlo_gather.mlir.

// CHECK-LABEL: func.func public @main
// IMPORT-LABEL: func.func public @main
func.func public @main(%arg0: tensor<6x10xf32>, %arg1: tensor<6x1x1xi32>, %arg2: tensor<3x1xi32>) -> (tensor<6x1xf32>, tensor<3x10xf32>) {
// CHECK-NEXT: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x10xf32>, tensor<6x1x1xi32>) -> tensor<6x1xf32>
// IMPORT-NEXT: %0 = bcast.gather %arg0[%arg1], <collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, sizes = [1, 1] : (tensor<6x10xf32>, tensor<6x1x1xi32>) -> tensor<6x1xf32>
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x10xf32>, tensor<6x1x1xi32>) -> tensor<6x1xf32>
// CHECK-NEXT: %1 = "stablehlo.gather"(%arg0, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 10>}> : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
// IMPORT-NEXT: %1 = bcast.gather %arg0[%arg2], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 10] : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
  %1 = "stablehlo.gather"(%arg0, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 10>}> : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
  return %0, %1 : tensor<6x1xf32>, tensor<3x10xf32>
}
