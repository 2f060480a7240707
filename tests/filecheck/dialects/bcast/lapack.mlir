// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.lu (LAPACK's getrf): factors in a's type, min(m, n) pivots (i32,
// 1-based) and one i32 info per matrix; leading dims are batch dims.
// bcast.cholesky (LAPACK's potrf): the factor in a's type and one i32 info
// per matrix, lower or upper. Errors: invalid_lapack.mlir.

// CHECK-LABEL: func.func @lu
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
