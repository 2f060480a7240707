// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifiers, for the subset bcast reads: errors at the op.

func.func @bad_broadcast(%x: tensor<3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (4)}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @duplicate_dims(%x: tensor<1x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions should not have duplicates}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1, 1] : (tensor<1x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @mixed_types(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op requires the same type for all operands and results, got tensor<4xf32>, tensor<4xf64>, tensor<4xf32>}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @float_and(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.and' op operand #0 must be a tensor of boolean or signed integer or unsigned integer values, got element type f32}}
  %0 = stablehlo.and %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_type(%a: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+2 {{'stablehlo.compare' op compare type FLOAT does not fit element type i32}}
  // expected-note @+1 {{i32 is compared as SIGNED or UNSIGNED}}
  %0 = stablehlo.compare GT, %a, %a, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.compare' op result must be tensor<4xi1>, got tensor<4xf32>}}
  %0 = stablehlo.compare GT, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_shapes(%p: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.select' op requires the same shape for all operands, got pred tensor<3xi1> and tensor<4xf32>}}
  // expected-note @+1 {{a predicate of rank 0 selects whole tensors}}
  %0 = stablehlo.select %p, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_pred(%p: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select' op pred must be a tensor of i1 values, got tensor<4xi32>}}
  %0 = stablehlo.select %p, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_dims(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'stablehlo.reduce' op dimensions contains an invalid value 2 for inputs of rank 2}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [2] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_init(%x: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op expects init value #0 to be a rank-0 tensor, got tensor<3xf32>}}
  %0 = "stablehlo.reduce"(%x, %c) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_result(%x: tensor<4x3xf32>) -> tensor<3xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'stablehlo.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reshape_count(%x: tensor<4x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'stablehlo.reshape' op number of output elements (5) doesn't match expected number of elements (12)}}
  %0 = stablehlo.reshape %x : (tensor<4x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @transpose_perm(%x: tensor<4x3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op permutation [0, 0] is not a permutation of the operand's 2 dimensions}}
  %0 = stablehlo.transpose %x, dims = [0, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @is_finite_int(%x: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'stablehlo.is_finite' op operand #0 must be a tensor of floating-point values, got element type i32}}
  %0 = stablehlo.is_finite %x : (tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @chlo_incompatible(%a: tensor<3xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+3 {{'chlo.broadcast_add' op operands are not broadcast-compatible: tensor<3xf32> and tensor<2x4xf32>}}
  // expected-note @+2 {{aligned from the right:     3}}
  // expected-note @+1 {{dimension -1: 3 vs 4 (neither is 1)}}
  %0 = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @chlo_result(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = chlo.broadcast_add %a, %b : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @slice_out_of_range(%x: tensor<4x3xf32>) -> tensor<1x2xf32> {
  // expected-error @+1 {{'stablehlo.slice' op dimension 1: slice 2:4:1 is not within size 3}}
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 2>, limit_indices = array<i64: 1, 4>, strides = array<i64: 1, 1>}> : (tensor<4x3xf32>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @dynamic_slice_starts(%x: tensor<4x3xf32>, %i: tensor<i64>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op has 1 start indices for an operand of rank 2}}
  %0 = "stablehlo.dynamic_slice"(%x, %i) <{slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<i64>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @update_too_big(%x: tensor<4x3xf32>, %u: tensor<1x4xf32>, %i: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op dynamic_update_slice update has size 4 in dimension 1, larger than the operand's 3}}
  %0 = "stablehlo.dynamic_update_slice"(%x, %u, %i, %i) : (tensor<4x3xf32>, tensor<1x4xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// StableHLO types are read by the same parser: sizes fit int64.
func.func @stablehlo_count_too_large(%x: tensor<4294967296x1xf32>) {
  // expected-error @+1 {{tensor<4294967296x4294967296xf32>: 18446744073709551616 elements do not fit in int64}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<4294967296x1xf32>) -> tensor<4294967296x4294967296xf32>
  return
}

// -----

// The pretty forms' syntax errors, where the parser stops.

func.func @slice_range_without_limit(%x: tensor<4x3xf32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{Expected ':'}}
  %0 = stablehlo.slice %x [1, 0:3] : (tensor<4x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @dynamic_slice_without_comma(%x: tensor<4x3xf32>, %i: tensor<i64>) -> tensor<1x3xf32> {
  // expected-error @+1 {{Expected ','}}
  %0 = stablehlo.dynamic_slice %x, %i, %i sizes = [1, 3] : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @barrier_types(%x: tensor<4x3xf32>, %i: tensor<i64>) -> tensor<4x3xf32> {
  // expected-error @+1 {{expected 2 types, one per operand, got 1}}
  %0:2 = stablehlo.optimization_barrier %x, %i : tensor<4x3xf32>
  return %0#0 : tensor<4x3xf32>
}

// -----

func.func @mixed_start_index_types(%x: tensor<4x3xf32>, %i: tensor<i64>, %j: tensor<i32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op start indices must have the same element type, got tensor<i64>, tensor<i32>}}
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i64>, tensor<i32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// A slice index beyond int64 is refused at it, not wrapped into the array.
func.func @slice_index_too_large(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{slice index 18446744073709551615 does not fit in int64}}
  %0 = stablehlo.slice %x [0:18446744073709551615:2] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_stride_zero(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.slice' op dimension 0: stride 0 must be positive}}
  %0 = stablehlo.slice %x [0:8:0] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitcast_convert_width(%x: tensor<3xi32>) -> tensor<3xi16> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op requires the result of the narrower element type (i16) to have the shape of the operand and a last dimension of 32/16 elements, got tensor<3xi32> and tensor<3xi16>}}
  %0 = stablehlo.bitcast_convert %x : (tensor<3xi32>) -> tensor<3xi16>
  return %0 : tensor<3xi16>
}

// -----

func.func @bitcast_convert_widen_last_dim(%x: tensor<2x3xi8>) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op requires the operand of the narrower element type (i8) to have the shape of the result and a last dimension of 32/8 elements, got tensor<2x3xi8> and tensor<2xi32>}}
  %0 = stablehlo.bitcast_convert %x : (tensor<2x3xi8>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @bitcast_convert_shape(%x: tensor<3xi32>) -> tensor<2xui32> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op requires the same shape for the operand and the result, got tensor<3xi32> and tensor<2xui32>}}
  %0 = stablehlo.bitcast_convert %x : (tensor<3xi32>) -> tensor<2xui32>
  return %0 : tensor<2xui32>
}

// -----

func.func @complex_abs_result(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<(1.0, 1.0)> : tensor<2xcomplex<f32>>
  // expected-error @+1 {{'stablehlo.abs' op requires the result type tensor<2xf32> of a tensor<2xcomplex<f32>> operand, got tensor<2xcomplex<f32>>}}
  %0 = stablehlo.abs %c : tensor<2xcomplex<f32>>
  return %x : tensor<2xf32>
}

// -----

func.func @sine_of_integers(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'stablehlo.sine' op operand #0 must be a tensor of complex or floating-point values, got element type i32}}
  %0 = stablehlo.sine %x : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @clamp_bound_shape(%lo: tensor<2xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.clamp' op min tensor<2xf32> is neither rank 0 nor of the operand's shape tensor<4xf32>}}
  %0 = stablehlo.clamp %lo, %x, %x : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_elements(%lo: tensor<f16>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.clamp' op requires the same element type for all operands, got tensor<f16> and tensor<4xf32>}}
  %0 = stablehlo.clamp %lo, %x, %x : (tensor<f16>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_result(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'stablehlo.clamp' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  %0 = stablehlo.clamp %x, %x, %x : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @broadcast_select_shapes(%p: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op operands are not broadcast-compatible: tensor<3xi1>, tensor<4xf32>, tensor<4xf32>}}
  %0 = chlo.broadcast_select %p, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-note @-1 {{aligned from the right: 3}}
  // expected-note @-2 {{dimension -1: 3 vs 4 vs 4 (sizes other than 1 differ)}}
  return %0 : tensor<4xf32>
}

// -----

func.func @broadcast_select_branches(%p: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op requires the same element type for on_true and on_false, got tensor<4xf32> and tensor<4xf16>}}
  %0 = chlo.broadcast_select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @broadcast_select_pred(%p: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op pred must be a tensor of i1 values, got tensor<4xf32>}}
  %0 = chlo.broadcast_select %p, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// dynamic_reshape's rule is bcast's (one definition): static shapes keep the
// element count.
func.func @dynamic_reshape_count(%x: tensor<2x3xf32>, %s: tensor<2xi32>) -> tensor<5x1xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op cannot reshape 6 elements into 5}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<5x1xf32>
  return %0 : tensor<5x1xf32>
}

// -----

func.func @dynamic_reshape_element(%x: tensor<?xf32>, %s: tensor<1xi32>) -> tensor<?xf16> {
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op failed to verify that all of {operand, result} have same element type}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<?xf32>, tensor<1xi32>) -> tensor<?xf16>
  return %0 : tensor<?xf16>
}
