// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.gather as StableHLO's gather, in the generic
// form StableHLO prints, indices unchanged, except where their type cannot
// hold some dim - slice size: XLA clamps in the index type, so those are
// converted to i64 first (i8 ids into 200 rows). tests/lowering/test_gather.py
// has XLA run them.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<6x10xf32>, %i: tensor<3x1xi32>, %e: tensor<200x4xf32>, %t: tensor<2x5xi8>) -> (tensor<3x10xf32>, tensor<2x5x4xf32>) {
// CHECK-NEXT: %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 10>}> : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
  %0 = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 10] : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
// CHECK-NEXT: %[[T:.*]] = stablehlo.convert %t : (tensor<2x5xi8>) -> tensor<2x5xi64>
// CHECK-NEXT: %{{.*}} = "stablehlo.gather"(%e, %[[T]]) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 4>}> : (tensor<200x4xf32>, tensor<2x5xi64>) -> tensor<2x5x4xf32>
  %1 = bcast.gather %e[%t], <offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, sizes = [1, 4] : (tensor<200x4xf32>, tensor<2x5xi8>) -> tensor<2x5x4xf32>
  func.return %0, %1 : tensor<3x10xf32>, tensor<2x5x4xf32>
}
