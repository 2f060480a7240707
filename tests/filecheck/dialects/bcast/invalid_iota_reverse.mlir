// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.reverse: dims distinct and in range, result type the operand's.
// bcast.iota: rank >= 1, dim in range, integer or float elements, not nested.

func.func @reverse_duplicate_dims(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.reverse' op dims should not have duplicates}}
  %0 = bcast.reverse %x, dims = [1, 0, 1] : tensor<3x4xf32>
  // expected-note @-1 {{dims = [1, 0, 1]: 1 is repeated}}
  func.return
}

// -----

func.func @reverse_dim_out_of_range(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.reverse' op dims 2 is out of range}}
  %0 = bcast.reverse %x, dims = [2] : tensor<3x4xf32>
  // expected-note @-1 {{the operand has 2 dimensions (shape 3x4); dims index them from 0}}
  func.return
}

// -----

func.func @reverse_negative_dim(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.reverse' op dims -1 is out of range}}
  %0 = bcast.reverse %x, dims = [-1] : tensor<3x4xf32>
  // expected-note @-1 {{the operand has 2 dimensions (shape 3x4); dims index them from 0}}
  func.return
}

// -----

func.func @reverse_result_type(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{attribute tensor<3x4xf32> expected from variable 'T', but got tensor<4x3xf32>}}
  %0 = "bcast.reverse"(%x) <{dimensions = array<i64: 0>}> : (tensor<3x4xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @reverse_nested_needs_tml(%x: tensor<3xtensor<2xf32>>) {
  // expected-error @+1 {{'bcast.reverse' op nested tensor types need tml semantics}}
  %0 = bcast.reverse %x, dims = [0] : tensor<3xtensor<2xf32>>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

func.func @iota_scalar() {
  // expected-error @+1 {{'bcast.iota' op iota does not support scalars}}
  %0 = bcast.iota dim = 0 : tensor<f32>
  // expected-note @-1 {{the result needs at least one dimension to count along}}
  func.return
}

// -----

func.func @iota_dim_out_of_range() {
  // expected-error @+1 {{'bcast.iota' op iota dimension 2 is out of range}}
  %0 = bcast.iota dim = 2 : tensor<3x4xi32>
  // expected-note @-1 {{the result has 2 dimensions (shape 3x4); the dimension indexes them from 0}}
  func.return
}

// -----

func.func @iota_negative_dim() {
  // expected-error @+1 {{'bcast.iota' op iota dimension -1 is out of range}}
  %0 = bcast.iota dim = -1 : tensor<3xi32>
  // expected-note @-1 {{the result has 1 dimension (shape 3); the dimension indexes them from 0}}
  func.return
}

// -----

func.func @iota_i1() {
  // expected-error @+1 {{'bcast.iota' op result must be numeric (integer, floating-point or complex), got element type i1}}
  %0 = bcast.iota dim = 0 : tensor<3xi1>
  // expected-note @-1 {{iota counts indices, which have no boolean (i1) form}}
  func.return
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @iota_nested() {
  // expected-error @+1 {{'bcast.iota' op iota does not support nested tensor types}}
  %0 = bcast.iota dim = 0 : tensor<3xtensor<2xf32>>
  // expected-note @-1 {{write a flat iota and broadcast it with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

func.func @iota_shadowing_attribute() {
  // expected-error @+1 {{'bcast.iota' op attribute 'iota_dimension' shadows the property of the same name}}
  %0 = bcast.iota dim = 0 {iota_dimension = 1 : i64} : tensor<3xi32>
  // expected-note @-1 {{write it in the op's own syntax (or as a property `<{...}>` in generic form), not in the attribute dictionary}}
  func.return
}
