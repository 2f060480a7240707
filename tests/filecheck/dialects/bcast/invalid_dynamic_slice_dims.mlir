// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// dynamic_slice of an operand with ? dims: a block size that a bounded ?
// cannot reach is refused at compile time, in the static wording; any other
// size is checked at run time (make_explicit_dynamic_slice.mlir).

func.func @bounded_too_small(%x: tensor<?x4xf32, #stablehlo.bounds<1, ?>>, %i: tensor<i32>) {
  // expected-error @+2 {{'bcast.dynamic_slice' op dynamic_slice size 2 of dimension 0 is out of range}}
  // expected-note @+1 {{dimension 0 has size ?<=1; a size needs 0 <= size <= ?<=1}}
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [2, 4] : (tensor<?x4xf32, #stablehlo.bounds<1, ?>>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @stablehlo_bounded_too_small(%x: tensor<?x4xf32, #stablehlo.bounds<1, ?>>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice_sizes [2, 4] do not fit operand shape [?<=1, 4]}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 4] : (tensor<?x4xf32, #stablehlo.bounds<1, ?>>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  func.return
}

// -----

// A bounded ? that can reach the size verifies (checked at run time).
func.func @bounded_large_enough(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %i: tensor<i32>) -> tensor<2x4xf32> {
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [2, 4] : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<i32>, tensor<i32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// gather takes ? dims in its operand's slice dims and its indices' batch
// dims; a ? index vector dim cannot be start_index_map's static size.
func.func @gather_dynamic_index_vector(%x: tensor<6x4xf32>, %i: tensor<3x?xi32>) {
  // expected-error @+1 {{'bcast.gather' op start_index_map size (1) is not equal to size of index dimension (1) of start_indices (?)}}
  %0 = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 4] : (tensor<6x4xf32>, tensor<3x?xi32>) -> tensor<3x4xf32>
  func.return
}
