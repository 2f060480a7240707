// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// stablehlo.dynamic_slice / dynamic_update_slice: the StableHLO spec's
// constraints, located: rank-0 integer start indices of one type (i1 is
// StableHLO's boolean, no index), one per dim; 0 <= slice_sizes <= the
// operand's; the update of the operand's rank and element type, no larger;
// the result types.

func.func @boolean_start(%x: tensor<4x3xf32>, %i: tensor<i1>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op start indices must be rank-0 integer tensors, got tensor<i1>}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i1>, tensor<i1>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @float_start(%x: tensor<4x3xf32>, %i: tensor<f32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op start indices must be rank-0 integer tensors, got tensor<f32>}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 3] : (tensor<4x3xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @start_of_rank_1(%x: tensor<4x3xf32>, %i: tensor<1xi32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op start indices must be rank-0 integer tensors, got tensor<1xi32>}}
  %0 = "stablehlo.dynamic_slice"(%x, %i, %i) <{slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @size_past_end(%x: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice_sizes [1, 4] do not fit operand shape [4, 3]}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 4] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @negative_size(%x: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice_sizes [-1, 3] do not fit operand shape [4, 3]}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [-1, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @wrong_result(%x: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<1x3xf16> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op result type must be tensor<1x3xf32>}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf16>
  return %0 : tensor<1x3xf16>
}

// -----

func.func @update_rank(%x: tensor<4x3xf32>, %u: tensor<3xf32>, %i: tensor<i32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'stablehlo.dynamic_update_slice' op dynamic_update_slice update has rank 1, the operand has rank 2}}
  // expected-note @+1 {{the update has the operand's rank (reshape it first)}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4x3xf32>, tensor<3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @update_element(%x: tensor<4x3xf32>, %u: tensor<1x3xf16>, %i: tensor<i32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op operand, update and result must have the same element type, and the result the operand's type}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4x3xf32>, tensor<1x3xf16>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @update_result(%x: tensor<4x3xf32>, %u: tensor<1x3xf32>, %i: tensor<i32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op operand, update and result must have the same element type, and the result the operand's type}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @update_starts(%x: tensor<4x3xf32>, %u: tensor<1x3xf32>, %i: tensor<ui32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op has 3 start indices for an operand of rank 2}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i, %i : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<ui32>, tensor<ui32>, tensor<ui32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @update_mixed_starts(%x: tensor<4x3xf32>, %u: tensor<1x3xf32>, %i: tensor<ui32>, %j: tensor<i32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op start indices must have the same element type, got tensor<ui32>, tensor<i32>}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<ui32>, tensor<i32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
