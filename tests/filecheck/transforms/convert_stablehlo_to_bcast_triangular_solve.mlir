// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s --check-prefix=HLO

// stablehlo.triangular_solve (generic form only, as JAX and MLIR print it;
// flags as properties, as jax.export writes them, or as attributes, as
// StableHLO's interpreter tests do) becomes bcast.triangular_solve with the
// same flags.

// CHECK-LABEL: func.func @jax_export
// HLO-LABEL: func.func @jax_export
func.func @jax_export(%arg0: tensor<2x3x4x4xf32>, %arg1: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
// CHECK-NEXT: %0 = bcast.triangular_solve %arg0, %arg1, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x4x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// HLO-NEXT: %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x3x4x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x3x4x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// CHECK-LABEL: func.func @attributes
func.func @attributes(%a: tensor<3x3xf64>, %b: tensor<1x3xf64>) -> tensor<1x3xf64> {
// CHECK-NEXT: %0 = bcast.triangular_solve %a, %b, left_side = false, lower = false, unit_diagonal = true, transpose_a = ADJOINT : (tensor<3x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<3x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
  return %0 : tensor<1x3xf64>
}

// -----

// JAX on a CPU writes LAPACK's trsm call instead (flags as LAPACK's
// characters: side 'L'/'R', uplo 'L'/'U', diag 'N'/'U', trans_x 'N'/'T'/'C').

// CHECK-LABEL: func.func @lapack
func.func @lapack(%arg0: tensor<3x4x4xf32>, %arg1: tensor<3x2x4xf32>) -> tensor<3x2x4xf32> {
// CHECK-NEXT: %0 = bcast.triangular_solve %arg0, %arg1, left_side = false, lower = false, unit_diagonal = true, transpose_a = TRANSPOSE : (tensor<3x4x4xf32>, tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  %0 = "stablehlo.custom_call"(%arg0, %arg1) {api_version = 4 : i32, backend_config = "", call_target_name = "lapack_strsm_ffi", mhlo.backend_config = {diag = 85 : ui8, side = 82 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<3x4x4xf32>, tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}
