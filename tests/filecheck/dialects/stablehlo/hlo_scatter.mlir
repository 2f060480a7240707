// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s | bcast-opt - | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s --check-prefix=IMPORT

// stablehlo.scatter as JAX prints it for x.at[i].set(u) and x.at[i].add(u)
// (generic only, as StableHLO has it) and its import: bcast.scatter set /
// add with the same dimension numbers, indices_are_sorted and
// unique_indices dropped. Another update computation (x.at[i].apply(jnp.sin)
// here, a function of the old value) is kept as it is (the open world); bcast-opt with a backend reports it.

// CHECK-LABEL: func.func public @main
// IMPORT-LABEL: func.func public @main
func.func public @main(%arg0: tensor<6x10xf32>, %arg1: tensor<3x1xi32>, %arg2: tensor<3x10xf32>) -> (tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>) {
// CHECK-NEXT: %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK-NEXT:   stablehlo.return %arg4 : tensor<f32>
// CHECK-NEXT: }) : (tensor<6x10xf32>, tensor<3x1xi32>, tensor<3x10xf32>) -> tensor<6x10xf32>
// IMPORT-NEXT: %0 = bcast.scatter set %arg0[%arg1], %arg2, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x10xf32>, tensor<3x1xi32>, tensor<3x10xf32>) -> tensor<6x10xf32>
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    stablehlo.return %arg4 : tensor<f32>
  }) : (tensor<6x10xf32>, tensor<3x1xi32>, tensor<3x10xf32>) -> tensor<6x10xf32>
// IMPORT-NEXT: %1 = bcast.scatter add %arg0[%arg1], %arg2, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x10xf32>, tensor<3x1xi32>, tensor<3x10xf32>) -> tensor<6x10xf32>
  %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %3 = stablehlo.add %arg3, %arg4 : tensor<f32>
    stablehlo.return %3 : tensor<f32>
  }) : (tensor<6x10xf32>, tensor<3x1xi32>, tensor<3x10xf32>) -> tensor<6x10xf32>
// IMPORT-NEXT: %2 = "stablehlo.scatter"(%arg0, %arg1, %arg2)
// IMPORT: stablehlo.sine
  %2 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
    %3 = stablehlo.sine %arg3 : tensor<f32>
    stablehlo.return %3 : tensor<f32>
  }) : (tensor<6x10xf32>, tensor<3x1xi32>, tensor<3x10xf32>) -> tensor<6x10xf32>
  return %0, %1, %2 : tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>
}
