// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.scatter: StableHLO's rules, as the gather that would read the
// updates back, in scatter's words (rules.check_scatter), located; integer
// indices, updates of the operand's element type, no add on i1, the
// operand's type as result; flat types only.

func.func @rank_sum(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.scatter' op update_window_dims size (1) plus inserted_window_dims size (0) plus input_batching_dims size (0) is not equal to operand rank (2)}}
  %0 = bcast.scatter add %x[%i], %u, <update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @map_range(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.scatter' op Expects each element of scatter_dims_to_operand_dims to be in range [0, rank-of('inputs')) i.e. [0, 2). got: 2.}}
  %0 = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [2], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @window_too_large(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x5xf32>) {
  // expected-error @+1 {{'bcast.scatter' op expects updates dimension 1 (window of input dimension 1) to be <= 4, got 5}}
  %0 = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x5xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @batch_size(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<2x4xf32>) {
  // expected-error @+1 {{'bcast.scatter' op expects updates dimension 0 to be the size of its scatter_indices dimension (3), got 2}}
  %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<2x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @updates_rank(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.scatter' op expects updates to have rank 2, got 1}}
  %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @update_element(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf64>) {
  // expected-error @+1 {{'bcast.scatter' op updates have element type f64, the operand has f32}}
  %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf64>) -> tensor<6x4xf32>
  // expected-note @-1 {{insert a bcast.convert}}
  func.return
}

// -----

func.func @bool_indices(%x: tensor<6x4xf32>, %i: tensor<3x1xi1>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.scatter' op scatter indices must be a tensor of integers, got tensor<3x1xi1>}}
  %0 = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi1>, tensor<3x4xf32>) -> tensor<6x4xf32>
  // expected-note @-1 {{indices are i32, ui64, ... (no i1); insert a bcast.convert}}
  func.return
}

// -----

func.func @add_on_i1(%x: tensor<6x4xi1>, %i: tensor<3x1xi32>, %u: tensor<3x4xi1>) {
  // expected-error @+1 {{'bcast.scatter' op scatter add needs numeric (integer, floating-point or complex) elements, got element type i1}}
  %0 = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xi1>, tensor<3x1xi32>, tensor<3x4xi1>) -> tensor<6x4xi1>
  // expected-note @-1 {{'bcast.add' is the operation scatter add combines with}}
  func.return
}

// -----

// The combining kinds take their binary op's element kinds: no i1 for maximum.
func.func @maximum_on_i1(%x: tensor<6x4xi1>, %i: tensor<3x1xi32>, %u: tensor<3x4xi1>) {
  // expected-error @+1 {{'bcast.scatter' op scatter maximum needs numeric (integer or floating-point) elements, got element type i1}}
  %0 = bcast.scatter maximum %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xi1>, tensor<3x1xi32>, tensor<3x4xi1>) -> tensor<6x4xi1>
  // expected-note @-1 {{'bcast.maximum' is the operation scatter maximum combines with}}
  func.return
}

// -----

func.func @unknown_kind(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{Expected `set`, `add`, `multiply`, `maximum`, or `minimum`.}}
  %0 = bcast.scatter divide %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return
}
