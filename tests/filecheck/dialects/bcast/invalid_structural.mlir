// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// broadcast_in_dim follows StableHLO's verifier: element type, dims size,
// result rank, duplicates, then per dimension range and size.

func.func @bid_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op failed to verify that all of {operand, result} have same element type}}
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf64>
  func.return
}

// -----

// The element type is checked first, even when the dims are wrong too.
func.func @bid_element_type_first(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{failed to verify that all of {operand, result} have same element type}}
  %0 = bcast.broadcast_in_dim %y, dims = [0, 0, 5] : (tensor<2x3xf32>) -> tensor<2x3xi32>
  func.return
}

// -----

func.func @bid_dims_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op broadcast_dimensions size (2) does not match operand rank (1)}}
  %0 = bcast.broadcast_in_dim %x, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @bid_rank_decrease(%x: tensor<1x2x3xi32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op result rank (1) is less than operand rank (3)}}
  %0 = bcast.broadcast_in_dim %x, dims = [0, 1, 2] : (tensor<1x2x3xi32>) -> tensor<3xi32>
  func.return
}

// -----

func.func @bid_duplicates(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op broadcast_dimensions should not have duplicates}}
  %0 = bcast.broadcast_in_dim %y, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

// Duplicates are reported before an out-of-range entry.
func.func @bid_duplicates_first(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions should not have duplicates}}
  %0 = bcast.broadcast_in_dim %y, dims = [7, 7] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

func.func @bid_range(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op broadcast_dimensions contains invalid value 2 for result with rank 2}}
  %0 = bcast.broadcast_in_dim %x, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @bid_negative(%x: tensor<3xf32>) {
  // expected-error @+1 {{broadcast_dimensions contains invalid value -1 for result with rank 2}}
  %0 = bcast.broadcast_in_dim %x, dims = [-1] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @bid_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (4)}}
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

// Per dimension: range and size of dimension 0 before the range of dimension 1.
func.func @bid_per_dimension(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{size of operand dimension 0 (2) is not equal to 1 or size of result dimension 0 (4)}}
  %0 = bcast.broadcast_in_dim %y, dims = [0, 9] : (tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

// Nested (tml) types: broadcast_in_dim sees the flat shapes.
module attributes {bcast.semantics = "tml"} {
func.func @bid_nested(%x: tensor<3xf32>) {
  // expected-error @+1 {{size of operand dimension 0 (3) is not equal to 1 or size of result dimension 2 (4)}}
  %0 = bcast.broadcast_in_dim %x, dims = [2] : (tensor<3xf32>) -> tensor<3xtensor<3x4xf32>>
  func.return
}
}

// -----

func.func @transpose_result(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = bcast.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @transpose_not_permutation(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.transpose' op permutation [0, 0] is not a permutation of the operand's 2 dimensions}}
  %0 = bcast.transpose %y, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @transpose_size(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{permutation [1] is not a permutation of the operand's 2 dimensions}}
  %0 = bcast.transpose %y, dims = [1] : (tensor<2x3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @transpose_element_type(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.transpose' op failed to verify that all of {operand, result} have same element type}}
  %0 = bcast.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf64>
  func.return
}

// -----

func.func @reshape_count(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.reshape' op number of output elements (5) doesn't match expected number of elements (6)}}
  %0 = bcast.reshape %y : (tensor<2x3xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @reshape_element_type(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.reshape' op failed to verify that all of {operand, result} have same element type}}
  %0 = bcast.reshape %y : (tensor<2x3xf32>) -> tensor<6xi32>
  func.return
}

// -----

// narrow removes the size-1 dims; its result type is not free.
func.func @narrow_result(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{'bcast.narrow' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<1x3xf32>'}}
  %0 = bcast.narrow %x : (tensor<1x3xf32>) -> tensor<1x3xf32>
  func.return
}

// -----

func.func @narrow_element_type(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{'bcast.narrow' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3xi32>'}}
  %0 = bcast.narrow %x : (tensor<1x3xf32>) -> tensor<3xi32>
  func.return
}

// -----

func.func @convert_shape(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.convert' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<4xi32>'}}
  %0 = bcast.convert %x : (tensor<3xf32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'bcast.constant' op attribute tensor<3xi32> expected from variable 'T', but got tensor<2xi32>}}
  %0 = "bcast.constant"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<3xi32>
  func.return
}

// -----

func.func @constant_missing_value() {
  // expected-error @+1 {{'bcast.constant' op property 'value' expected in operation 'bcast.constant'}}
  %0 = "bcast.constant"() : () -> tensor<3xi32>
  func.return
}

// -----

// An attribute shadowing a property would change meaning after a generic
// round trip (it would become the property): it is rejected.
func.func @shadow_broadcast_dimensions(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.add' op attribute 'broadcast_dimensions' shadows the property of the same name}}
  %0 = bcast.add %x, %y {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // expected-note @-1 {{write it in the op's own syntax (or as a property `<{...}>` in generic form), not in the attribute dictionary}}
  func.return
}

// -----

func.func @shadow_bid(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op attribute 'broadcast_dimensions' shadows the property of the same name}}
  %0 = bcast.broadcast_in_dim %x, dims = [1] {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<2x3xf32>
  // expected-note @-1 {{write it in the op's own syntax (or as a property `<{...}>` in generic form), not in the attribute dictionary}}
  func.return
}

// -----

func.func @shadow_indices(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.extract' op attribute 'static_indices' shadows the property of the same name}}
  %0 = bcast.extract %y[1, 0] {static_indices = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<f32>
  // expected-note @-1 {{write it in the op's own syntax (or as a property `<{...}>` in generic form), not in the attribute dictionary}}
  func.return
}

// -----

func.func @shadow_direction(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.compare' op attribute 'comparison_direction' shadows the property of the same name}}
  %0 = bcast.compare EQ, %x, %x {comparison_direction = #bcast<comparison_direction LT>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  // expected-note @-1 {{write it in the op's own syntax (or as a property `<{...}>` in generic form), not in the attribute dictionary}}
  func.return
}

// -----

// Result types the dialect does not accept are located at the op.
func.func @unranked_result(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{tensor<*xf32> should be of base attribute tensor}}
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  func.return
}

// -----

func.func @memref_result(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{memref<2x3xf32> should be of base attribute tensor}}
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<2x3xf32>) -> memref<2x3xf32>
  func.return
}

// -----

func.func @dynamic_result(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<?x3xf32>'}}
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  func.return
}

// -----

func.func @generic_operand_count(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.add' op Expected 2 operands, but got 1}}
  %0 = "bcast.add"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  func.return
}
