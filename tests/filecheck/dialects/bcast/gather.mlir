// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.gather: the start indices in brackets, then StableHLO's dimension
// numbers (empty lists omitted) and the slice sizes. The forms JAX emits:
// x[i], take along axis 1, take_along_axis (batching dims), an embedding
// lookup with an implicit index vector (index_vector_dim = rank of %i).

// CHECK-LABEL: func.func @forms
func.func @forms(%x: tensor<6x10xf32>, %i: tensor<3x1xi32>, %j: tensor<6x1x1xui8>, %t: tensor<2x5xi64>) -> (tensor<3x10xf32>, tensor<6x3xf32>, tensor<6x1xf32>, tensor<2x5x10xf32>) {
// CHECK-NEXT: %0 = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 10] : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
// GENERIC: "bcast.gather"(%x, %i) <{dimension_numbers = #bcast.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 10>}> : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
  %0 = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 10] : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
// CHECK-NEXT: %1 = bcast.gather %x[%i], <offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, sizes = [6, 1] : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<6x3xf32>
  %1 = bcast.gather %x[%i], <offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, sizes = [6, 1] : (tensor<6x10xf32>, tensor<3x1xi32>) -> tensor<6x3xf32>
// CHECK-NEXT: %2 = bcast.gather %x[%j], <collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, sizes = [1, 1] : (tensor<6x10xf32>, tensor<6x1x1xui8>) -> tensor<6x1xf32>
  %2 = bcast.gather %x[%j], <collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, sizes = [1, 1] : (tensor<6x10xf32>, tensor<6x1x1xui8>) -> tensor<6x1xf32>
// Fields in any order and empty lists written out read too; printed in order, empty ones omitted.
// CHECK-NEXT: %3 = bcast.gather %x[%t], <offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, sizes = [1, 10] : (tensor<6x10xf32>, tensor<2x5xi64>) -> tensor<2x5x10xf32>
  %3 = bcast.gather %x[%t], <index_vector_dim = 2, start_index_map = [0], operand_batching_dims = [], offset_dims = [2], collapsed_slice_dims = [0]>, sizes = [1, 10] : (tensor<6x10xf32>, tensor<2x5xi64>) -> tensor<2x5x10xf32>
  func.return %0, %1, %2, %3 : tensor<3x10xf32>, tensor<6x3xf32>, tensor<6x1xf32>, tensor<2x5x10xf32>
}
