// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// stablehlo.gather: the StableHLO spec's constraints (C1-C22), in its
// verifier's words, located: dimension numbers against the ranks, sorted
// and distinct lists, batching dims paired with equal sizes, slice sizes
// within the operand (<= 1 on collapsed and batching dims), integer start
// indices, the inferred result type.

func.func @rank_sum(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op offset_dims size (2) plus collapse_slice_dims size (2) plus operand_batching_dims size (0) is not equal to operand rank (3)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @index_vector_dim_past_rank(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects index_vector_dim to be in range [0, rank-of('start_indices')] i.e. [0, 3]. got: 4.}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 4>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @start_index_map_size(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op start_index_map size (1) is not equal to size of index dimension (2) of start_indices (2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @offset_dims_unsorted(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op expects offset_dims to be sorted, got: [3, 2]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [3, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @offset_dims_repeat(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op expects offset_dims to not repeat, got: [2, 2]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @offset_dims_range(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects each element of offset_dims to be in range [0, implied-result-rank) i.e. [0, 4). got: 4.}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 4], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @collapsed_and_batching(%x: tensor<2x3x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op has duplicated dimension from collapsed_slice_dims and operand_batching_dims: 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [1], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1, 4>}> : (tensor<2x3x4xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @collapsed_unsorted(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op expects collapsed_slice_dims to be sorted, got: [1, 0]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1, 0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2xf32>
  func.return
}

// -----

func.func @collapsed_range(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects each element of collapsed_slice_dims to be in range [0, rank-of('operand')) i.e. [0, 3). got: 17.}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [17], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @collapsed_size(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects that for each dim in collapsed_slice_dims, slice_sizes[dim] should be <= 1, but got 2}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 2, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @batching_unsorted(%x: tensor<2x3x4xf32>, %i: tensor<2x3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op expects operand_batching_dims to be sorted, got: [1, 0]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], operand_batching_dims = [1, 0], start_indices_batching_dims = [1, 0], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x3x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @batching_size(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects that for each dim in operand_batching_dims, slice_sizes[dim] should be <= 1, but got 2}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 3, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @indices_batching_repeat(%x: tensor<2x3x4xf32>, %i: tensor<2x3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op expects start_indices_batching_dims to not repeat, got: [0, 0]}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 0], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x3x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @indices_batching_range(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects each element of start_indices_batching_dims to be in range [0, rank-of('start_indices')) i.e. [0, 2). got: 5.}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [], operand_batching_dims = [0], start_indices_batching_dims = [5], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @indices_batching_is_vector_dim(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op expects start_indices_batching_dims not to include index_vector_dim 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @batching_counts(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op operand_batching_dims and start_indices_batching_dims should have the same size}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @batching_sizes(%x: tensor<2x3x4xf32>, %i: tensor<5x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op operand_batching_dims[0] and start_indices_batching_dims[0] must have compatible sizes, but got 2 and 5}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<5x1xi32>) -> tensor<5x3x4xf32>
  func.return
}

// -----

func.func @start_map_and_batching(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op has duplicated dimension from start_index_map and operand_batching_dims: 0}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<2x1xi32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @start_map_range(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op Expects each element of start_index_map to be in range [0, rank-of('operand')) i.e. [0, 3). got: 3.}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [3, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @slice_sizes_count(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op slice_sizes size (2) not equal to operand rank (3)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x2xf32>
  func.return
}

// -----

func.func @slice_size_past_dim(%x: tensor<3x4x2xf32>, %i: tensor<2x3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op slice size (3) is out of bounds for operand dimension (2) at index 2}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 3>}> : (tensor<3x4x2xf32>, tensor<2x3x2xi32>) -> tensor<2x3x2x3xf32>
  func.return
}

// -----

func.func @boolean_indices(%x: tensor<3x4xf32>, %i: tensor<2x1xi1>) {
  // expected-error @+1 {{'stablehlo.gather' op start_indices must be a tensor of integers, got tensor<2x1xi1>}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi1>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @result_type(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<4x2xf32>
  func.return
}

// -----

func.func @unknown_field(%x: tensor<3x4xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+1 {{unknown gather dimension field 'offset_dim'}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dim = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  func.return
}
