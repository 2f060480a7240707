// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.triangular_solve A, B, flags: x with op(a) @ x = b (left_side) or
// x @ op(a) = b; every flag written, in StableHLO's names; leading dims are
// batch dims; the result has b's type. Errors: invalid_triangular_solve.mlir.

// CHECK-LABEL: func.func @solve
func.func @solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
// CHECK-NEXT: %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// GENERIC: "bcast.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #bcast<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %1 = bcast.triangular_solve %a, %c, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC: "bcast.triangular_solve"(%a, %c) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #bcast<transpose ADJOINT>}> : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = bcast.triangular_solve %a, %c, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0, %1 : tensor<3x2xf32>, tensor<2x3xf32>
}

// -----

// Batch dims (equal in a and b), f16 and f64, zero sizes.

// CHECK-LABEL: func.func @batches
func.func @batches(%a: tensor<2x5x4x4xf16>, %b: tensor<2x5x4x7xf16>, %z: tensor<0x0xf64>, %w: tensor<0x3xf64>) -> (tensor<2x5x4x7xf16>, tensor<0x3xf64>) {
// CHECK-NEXT: %0 = bcast.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = false, transpose_a = TRANSPOSE : (tensor<2x5x4x4xf16>, tensor<2x5x4x7xf16>) -> tensor<2x5x4x7xf16>
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = false, transpose_a = TRANSPOSE : (tensor<2x5x4x4xf16>, tensor<2x5x4x7xf16>) -> tensor<2x5x4x7xf16>
// CHECK-NEXT: %1 = bcast.triangular_solve %z, %w, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<0x0xf64>, tensor<0x3xf64>) -> tensor<0x3xf64>
  %1 = bcast.triangular_solve %z, %w, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<0x0xf64>, tensor<0x3xf64>) -> tensor<0x3xf64>
  func.return %0, %1 : tensor<2x5x4x7xf16>, tensor<0x3xf64>
}
