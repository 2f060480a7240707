// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.scatter set / add: the kind, the operand with the indices in
// brackets, the updates, then StableHLO's scatter dimension numbers (empty
// lists omitted). The forms JAX emits: x.at[i].set(u), x.at[i].add(u), an
// embedding gradient with an implicit index vector.

// CHECK-LABEL: func.func @forms
func.func @forms(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>, %t: tensor<2x5xui8>, %g: tensor<2x5x4xf32>) -> (tensor<6x4xf32>, tensor<6x4xf32>) {
// CHECK-NEXT: %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
// GENERIC: "bcast.scatter"(%x, %i, %u) <{kind = #bcast<scatter_kind set>, dimension_numbers = #bcast.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %1 = bcast.scatter add %0[%t], %g, <update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2> : (tensor<6x4xf32>, tensor<2x5xui8>, tensor<2x5x4xf32>) -> tensor<6x4xf32>
  %1 = bcast.scatter add %0[%t], %g, <update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2> : (tensor<6x4xf32>, tensor<2x5xui8>, tensor<2x5x4xf32>) -> tensor<6x4xf32>
  func.return %0, %1 : tensor<6x4xf32>, tensor<6x4xf32>
}
