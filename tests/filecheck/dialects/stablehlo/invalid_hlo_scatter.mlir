// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// stablehlo.scatter: the spec's constraints (the dimension numbers as a
// gather's, in scatter's words; the updates' shape), integer indices, the
// update computation's signature, the result types; located.

func.func @inserted_unsorted(%x: tensor<3x4x2xf32>, %i: tensor<2x2xi32>, %u: tensor<2x2xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op expects inserted_window_dims to be sorted, got: [1, 0]}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1, 0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<3x4x2xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<3x4x2xf32>
  func.return
}

// -----

func.func @index_vector_dim(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op Expects index_vector_dim to be in range [0, rank-of('scatter_indices')] i.e. [0, 2]. got: 3.}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @body_types(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op the update computation must take (tensor<f32>, tensor<f32>) but takes (tensor<f64>, tensor<f64>)}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    stablehlo.return %b : tensor<f64>
  }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @float_indices(%x: tensor<6x4xf32>, %i: tensor<3x1xf32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op scatter_indices must be a tensor of integers, got tensor<3x1xf32>}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @result_type(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op inferred type(s) 'tensor<6x4xf32>' are incompatible with return type(s) of operation 'tensor<6x5xf32>'}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x5xf32>
  func.return
}
