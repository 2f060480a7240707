// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.lu and bcast.cholesky as the LAPACK custom calls
// JAX writes for a CPU and XLA runs (StableHLO has no LU, and its cholesky
// has no info result): s or d by the element type, the batch count in
// mhlo.frontend_attributes, uplo as LAPACK's character ('L' = 76,
// 'U' = 85), the matrices column-major. tests/lowering/test_lapack.py has
// jaxlib verify it and XLA run it.

// CHECK-LABEL: func.func @main
func.func @main(%a: tensor<2x4x3xf32>, %s: tensor<3x3xf64>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>, tensor<3x3xf64>, tensor<i32>, tensor<3x3xf64>, tensor<i32>) {
// CHECK-NEXT: %lu, %p, %info = "stablehlo.custom_call"(%a) <{call_target_name = "lapack_sgetrf_ffi", api_version = 1 : i32, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}} : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
  %lu, %p, %info = bcast.lu %a : (tensor<2x4x3xf32>) -> (tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
// CHECK-NEXT: %l, %i = "stablehlo.custom_call"(%s) <{call_target_name = "lapack_dpotrf_ffi", api_version = 1 : i32, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
  %l, %i = bcast.cholesky %s, lower = false : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
// CHECK-NEXT: %m, %j = "stablehlo.custom_call"(%s) <{call_target_name = "lapack_dpotrf_ffi", {{.*}}mhlo.backend_config = {uplo = 76 : ui8}
  %m, %j = bcast.cholesky %s, lower = true : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<i32>)
// CHECK-NEXT: func.return %lu, %p, %info, %l, %i, %m, %j
  func.return %lu, %p, %info, %l, %i, %m, %j : tensor<2x4x3xf32>, tensor<2x3xi32>, tensor<2xi32>, tensor<3x3xf64>, tensor<i32>, tensor<3x3xf64>, tensor<i32>
}
