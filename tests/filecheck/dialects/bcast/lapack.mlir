// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: bcast-opt %s --split-input-file -t stablehlo | filecheck %s --check-prefix=HLO

// bcast.lu (LAPACK's getrf): factors in a's type, min(m, n) pivots (i32,
// 1-based) and one i32 info per matrix; leading dims are batch dims.
// bcast.cholesky (LAPACK's potrf): the factor in a's type and one i32 info
// per matrix, lower or upper. Errors: invalid_lapack.mlir.
// -t stablehlo writes each as the LAPACK custom call JAX writes on a CPU;
// an empty matrix calls nothing (its factors are itself, info 0: XLA's CPU
// runtime dies of SIGFPE on a 0x0 call whose info is read).

// CHECK-LABEL: func.func @lu
// HLO-LABEL:   func.func @lu
// HLO-NEXT:      %0, %1, %2 = "stablehlo.custom_call"(%a) <{call_target_name = "lapack_sgetrf_ffi", api_version = 1 : i32, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}}
// HLO-NEXT:      %3, %4, %5 = "stablehlo.custom_call"(%b) <{call_target_name = "lapack_dgetrf_ffi", api_version = 1 : i32, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}}
func.func @lu(%a: tensor<4x4xf32>, %b: tensor<2x5x3xf64>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>, tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2xi32>) {
// CHECK-NEXT: %0, %1, %2 = bcast.lu %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>)
// GENERIC: %0, %1, %2 = "bcast.lu"(%a) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>)
  %0, %1, %2 = bcast.lu %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>)
// CHECK-NEXT: %3, %4, %5 = bcast.lu %b : (tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2xi32>)
  %3, %4, %5 = bcast.lu %b : (tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2xi32>)
  func.return %0, %1, %2, %3, %4, %5 : tensor<4x4xf32>, tensor<4xi32>, tensor<i32>, tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @cholesky
// HLO-LABEL:   func.func @cholesky
// HLO-NEXT:      %0, %1 = "stablehlo.custom_call"(%a) <{call_target_name = "lapack_spotrf_ffi", {{.*}} {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}}
// HLO-NEXT:      %2, %3 = "stablehlo.custom_call"(%b) <{call_target_name = "lapack_dpotrf_ffi", api_version = 1 : i32, operand_layouts = [dense<[2, 3, 1, 0]> : tensor<4xindex>], result_layouts = [dense<[2, 3, 1, 0]> : tensor<4xindex>, dense<[1, 0]> : tensor<2xindex>]}> {mhlo.backend_config = {uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "2"}}
// HLO-NEXT:      %4 = stablehlo.constant dense<0> : tensor<i32>
// HLO-NEXT:      func.return %0, %1, %2, %3, %z, %4
func.func @cholesky(%a: tensor<3x3xf32>, %b: tensor<2x7x4x4xf64>, %z: tensor<0x0xf32>) -> (tensor<3x3xf32>, tensor<i32>, tensor<2x7x4x4xf64>, tensor<2x7xi32>, tensor<0x0xf32>, tensor<i32>) {
// CHECK-NEXT: %0, %1 = bcast.cholesky %a, lower = true : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
// GENERIC: %0, %1 = "bcast.cholesky"(%a) <{lower = true}> : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %0, %1 = bcast.cholesky %a, lower = true : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
// CHECK-NEXT: %2, %3 = bcast.cholesky %b, lower = false : (tensor<2x7x4x4xf64>) -> (tensor<2x7x4x4xf64>, tensor<2x7xi32>)
// GENERIC: %2, %3 = "bcast.cholesky"(%b) <{lower = false}> : (tensor<2x7x4x4xf64>) -> (tensor<2x7x4x4xf64>, tensor<2x7xi32>)
  %2, %3 = bcast.cholesky %b, lower = false : (tensor<2x7x4x4xf64>) -> (tensor<2x7x4x4xf64>, tensor<2x7xi32>)
// CHECK-NEXT: %4, %5 = bcast.cholesky %z, lower = true : (tensor<0x0xf32>) -> (tensor<0x0xf32>, tensor<i32>)
  %4, %5 = bcast.cholesky %z, lower = true : (tensor<0x0xf32>) -> (tensor<0x0xf32>, tensor<i32>)
  func.return %0, %1, %2, %3, %4, %5 : tensor<3x3xf32>, tensor<i32>, tensor<2x7x4x4xf64>, tensor<2x7xi32>, tensor<0x0xf32>, tensor<i32>
}
