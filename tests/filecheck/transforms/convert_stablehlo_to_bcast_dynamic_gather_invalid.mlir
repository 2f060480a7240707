// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// The forms of dynamic_gather the import does not take, reported at the op,
// and its verifier's rules.

// A slice size read from an argument on a collapsed dim (which must be 1).
func.func @argument_sizes(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %s: tensor<2xi64>) -> tensor<3x4xf32> {
  // expected-note @+2 {{constant slice sizes make it a gather; slice sizes computed at run time (the whole of a ? operand dim, as jnp.take along another axis, or a part of a dim) are read through iotas; a collapsed dim's slice size must be 1}}
  // expected-error @+1 {{'stablehlo.dynamic_gather' op with slice sizes of this form is not supported by convert-stablehlo-to-bcast}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @sizes_of_wrong_length(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %sizes = stablehlo.constant dense<[1, 4, 1]> : tensor<3xi64>
  // expected-error @+1 {{'stablehlo.dynamic_gather' op slice_sizes has 3 entries for an operand of rank 2}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

// Constant slice sizes, but a ? index vector dim: StableHLO's verifier
// cannot check the index vector's length, bcast's gather rules can and do;
// their error is the import's, at the op (it was an internal error).
func.func @unknown_index_vector(%x: tensor<?x?x5xi32>, %i: tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  %sizes = stablehlo.constant dense<[1, 1, 5]> : tensor<3xi32>
  // expected-error @+1 {{'stablehlo.dynamic_gather' op start_index_map size (2) is not equal to size of index dimension (2) of start_indices (?)}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>}> : (tensor<?x?x5xi32>, tensor<?x?x?xi32>, tensor<3xi32>) -> tensor<?x?x?xi32>
  func.return %r : tensor<?x?x?xi32>
}
