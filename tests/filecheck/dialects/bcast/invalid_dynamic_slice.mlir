// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.dynamic_slice / dynamic_update_slice: StableHLO's rules, located:
// one rank-0 integer start index per dim (one type, no i1), sizes within
// the operand, an update of the operand's rank and element type, no larger;
// flat types only.

func.func @too_few_starts(%x: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op dynamic_slice has 1 start index and 2 sizes for an operand of rank 2}}
  %0 = bcast.dynamic_slice %x[%i], sizes = [1, 4] : (tensor<3x4xf32>, tensor<i32>) -> tensor<1x4xf32>
  // expected-note @-1 {{the operand has shape 3x4; give one start index and one size per dimension}}
  func.return
}

// -----

func.func @too_few_sizes(%x: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op dynamic_slice has 2 start indices and 1 size for an operand of rank 2}}
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [1] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1xf32>
  // expected-note @-1 {{the operand has shape 3x4; give one start index and one size per dimension}}
  func.return
}

// -----

func.func @size_past_end(%x: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op dynamic_slice size 5 of dimension 1 is out of range}}
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [1, 5] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
  // expected-note @-1 {{dimension 1 has size 4; a size needs 0 <= size <= 4}}
  func.return
}

// -----

func.func @negative_size(%x: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op dynamic_slice size -1 of dimension 0 is out of range}}
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [-1, 2] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  // expected-note @-1 {{dimension 0 has size 3; a size needs 0 <= size <= 3}}
  func.return
}

// -----

func.func @start_of_rank_1(%x: tensor<3xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op start index #0 must be a rank-0 integer tensor, got tensor<1xi32>}}
  %0 = bcast.dynamic_slice %x[%i], sizes = [1] : (tensor<3xf32>, tensor<1xi32>) -> tensor<1xf32>
  // expected-note @-1 {{a start index is a tensor<i32>, tensor<ui64>, ... (no i1)}}
  func.return
}

// -----

func.func @boolean_start(%x: tensor<3xf32>, %i: tensor<i1>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op start index #0 must be a rank-0 integer tensor, got tensor<i1>}}
  %0 = bcast.dynamic_slice %x[%i], sizes = [1] : (tensor<3xf32>, tensor<i1>) -> tensor<1xf32>
  // expected-note @-1 {{a start index is a tensor<i32>, tensor<ui64>, ... (no i1)}}
  func.return
}

// -----

func.func @float_start(%x: tensor<3xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op start index #0 must be a rank-0 integer tensor, got tensor<f32>}}
  %0 = bcast.dynamic_slice %x[%i], sizes = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<1xf32>
  // expected-note @-1 {{a start index is a tensor<i32>, tensor<ui64>, ... (no i1)}}
  func.return
}

// -----

func.func @mixed_start_types(%x: tensor<3x4xf32>, %i: tensor<i32>, %j: tensor<i64>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op start indices must have one type, got tensor<i32>, tensor<i64>}}
  %0 = bcast.dynamic_slice %x[%i, %j], sizes = [1, 1] : (tensor<3x4xf32>, tensor<i32>, tensor<i64>) -> tensor<1x1xf32>
  // expected-note @-1 {{insert a bcast.convert}}
  func.return
}

// -----

func.func @wrong_result(%x: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op inferred type(s) 'tensor<1x2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [1, 2] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x1xf32>
  func.return
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @nested(%x: tensor<3xtensor<2xf32>>, %i: tensor<i32>) {
  // expected-error @+1 {{'bcast.dynamic_slice' op dynamic_slice does not support nested tensor types}}
  %0 = bcast.dynamic_slice %x[%i], sizes = [1] : (tensor<3xtensor<2xf32>>, tensor<i32>) -> tensor<1xtensor<2xf32>>
  func.return
}
}

// -----

func.func @update_rank(%x: tensor<3x4xf32>, %i: tensor<i32>, %u: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.dynamic_update_slice' op dynamic_update_slice update has rank 1, the operand has rank 2}}
  %0 = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<3x4xf32>, tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<3x4xf32>
  // expected-note @-1 {{the update has the operand's rank (reshape it first)}}
  func.return
}

// -----

func.func @update_too_large(%x: tensor<3x4xf32>, %i: tensor<i32>, %u: tensor<1x5xf32>) {
  // expected-error @+1 {{'bcast.dynamic_update_slice' op dynamic_update_slice update has size 5 in dimension 1, larger than the operand's 4}}
  %0 = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<3x4xf32>, tensor<i32>, tensor<i32>, tensor<1x5xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

func.func @update_element(%x: tensor<3x4xf32>, %i: tensor<i32>, %u: tensor<1x4xf16>) {
  // expected-error @+1 {{'bcast.dynamic_update_slice' op update has element type f16, the operand has f32}}
  %0 = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<3x4xf32>, tensor<i32>, tensor<i32>, tensor<1x4xf16>) -> tensor<3x4xf32>
  // expected-note @-1 {{insert a bcast.convert}}
  func.return
}

// -----

func.func @update_too_few_starts(%x: tensor<3x4xf32>, %i: tensor<i32>, %u: tensor<1x4xf32>) {
  // expected-error @+1 {{'bcast.dynamic_update_slice' op dynamic_update_slice has 1 start index for an operand of rank 2}}
  %0 = bcast.dynamic_update_slice %x[%i], %u : (tensor<3x4xf32>, tensor<i32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  // expected-note @-1 {{give one start index per dimension}}
  func.return
}

// -----

func.func @update_wrong_result(%x: tensor<3x4xf32>, %i: tensor<i32>, %u: tensor<1x4xf32>) {
  // expected-error @+1 {{'bcast.dynamic_update_slice' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4xf32>'}}
  %0 = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<3x4xf32>, tensor<i32>, tensor<i32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return
}

// -----

func.func @missing_comma(%x: tensor<3x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{Expected ','}}
  %0 = bcast.dynamic_slice %x[%i, %i] sizes = [1, 1] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
  func.return
}

// -----

// An index (as extract takes) is no start index.
func.func @index_start(%x: tensor<3xf32>, %k: index) {
  // expected-error @+1 {{'bcast.dynamic_slice' op start index #0 must be a rank-0 integer tensor, got index}}
  %0 = bcast.dynamic_slice %x[%k], sizes = [1] : (tensor<3xf32>, index) -> tensor<1xf32>
  // expected-note @-1 {{a start index is a tensor<i32>, tensor<ui64>, ... (no i1), not an index as extract and assign take}}
  func.return
}
