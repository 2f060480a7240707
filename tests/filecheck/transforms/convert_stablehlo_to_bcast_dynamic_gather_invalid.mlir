// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// The forms of dynamic_gather the import does not take, reported at the op,
// and its verifier's rules.

// A slice size read from an argument: neither a constant nor a whole dim.
func.func @argument_sizes(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %s: tensor<2xi64>) -> tensor<3x4xf32> {
  // expected-note @+2 {{constant slice sizes make it a gather; a slice size that is the run-time size of its whole ? operand dim (jnp.take along another axis) is read through an iota}}
  // expected-error @+1 {{'stablehlo.dynamic_gather' op with slice sizes of this form is not supported by convert-stablehlo-to-bcast}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

// A run-time size that is not the whole dim (half of it).
func.func @part_of_a_dim(%x: tensor<?x4xf32>, %i: tensor<2x1xi32>) -> tensor<?x2xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %h = stablehlo.divide %n, %two : tensor<i32>
  %h1 = stablehlo.reshape %h : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %h1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  // expected-note @+2 {{constant slice sizes make it a gather}}
  // expected-error @+1 {{'stablehlo.dynamic_gather' op with slice sizes of this form is not supported by convert-stablehlo-to-bcast}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}

// -----

func.func @sizes_of_wrong_length(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %sizes = stablehlo.constant dense<[1, 4, 1]> : tensor<3xi64>
  // expected-error @+1 {{'stablehlo.dynamic_gather' op slice_sizes has 3 entries for an operand of rank 2}}
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
