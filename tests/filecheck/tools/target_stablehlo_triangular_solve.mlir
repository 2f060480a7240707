// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.triangular_solve as StableHLO's triangular_solve
// (generic form, as MLIR prints it) with the same flags.
// tests/lowering/test_triangular_solve.py has jaxlib verify it and XLA run it.

// CHECK-LABEL: func.func @main
func.func @main(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>, %c: tensor<2x4x3xf32>) -> (tensor<2x3x4xf32>, tensor<2x4x3xf32>) {
// CHECK-NEXT: %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %1 = "stablehlo.triangular_solve"(%a, %c) <{left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<2x3x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %1 = bcast.triangular_solve %a, %c, left_side = false, lower = false, unit_diagonal = true, transpose_a = TRANSPOSE : (tensor<2x3x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT: return %0, %1 : tensor<2x3x4xf32>, tensor<2x4x3xf32>
  func.return %0, %1 : tensor<2x3x4xf32>, tensor<2x4x3xf32>
}
