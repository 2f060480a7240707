// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// JAX on a CPU writes LU (jnp.linalg.solve, inv, det, slogdet,
// jax.scipy.linalg.lu) as LAPACK's getrf call and Cholesky as potrf (uplo as
// LAPACK's character: 'L' = 76, 'U' = 85); they become bcast.lu and
// bcast.cholesky with the same results. The layouts are LAPACK's memory
// order, the batch dims the leading ones.

// CHECK-LABEL: func.func @getrf
func.func @getrf(%arg0: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4xi32>, tensor<2xi32>) {
// CHECK-NEXT: %0, %1, %2 = bcast.lu %arg0 : (tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4xi32>, tensor<2xi32>)
  %0:3 = "stablehlo.custom_call"(%arg0) <{api_version = 1 : i32, backend_config = "", call_target_name = "lapack_sgetrf_ffi", called_computations = [], has_side_effect = false, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4xi32>, tensor<2xi32>)
  return %0#0, %0#1, %0#2 : tensor<2x4x4xf32>, tensor<2x4xi32>, tensor<2xi32>
}

// -----

// A rectangular matrix: min(m, n) pivots; f64 is dgetrf.

// CHECK-LABEL: func.func @dgetrf_wide
func.func @dgetrf_wide(%arg0: tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3xi32>, tensor<i32>) {
// CHECK-NEXT: %0, %1, %2 = bcast.lu %arg0 : (tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3xi32>, tensor<i32>)
  %0:3 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, call_target_name = "lapack_dgetrf_ffi", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3xi32>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<3x5xf64>, tensor<3xi32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @potrf
func.func @potrf(%arg0: tensor<3x3xf32>, %arg1: tensor<2x3x3xf64>) -> (tensor<3x3xf32>, tensor<i32>, tensor<2x3x3xf64>, tensor<2xi32>) {
// CHECK-NEXT: %0, %1 = bcast.cholesky %arg0, lower = true : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %0:2 = "stablehlo.custom_call"(%arg0) <{api_version = 1 : i32, backend_config = "", call_target_name = "lapack_spotrf_ffi", called_computations = [], has_side_effect = false, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
// CHECK-NEXT: %2, %3 = bcast.cholesky %arg1, lower = false : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  %1:2 = "stablehlo.custom_call"(%arg1) {api_version = 1 : i32, call_target_name = "lapack_dpotrf_ffi", mhlo.backend_config = {uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<3x3xf32>, tensor<i32>, tensor<2x3x3xf64>, tensor<2xi32>
}
