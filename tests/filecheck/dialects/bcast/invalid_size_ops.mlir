// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The verifiers of the size ops (docs/ir.md, "The explicit dynamic form").

func.func @size_from_a_float(%t: tensor<f32>) {
  // expected-error @+1 {{'bcast.size_from_tensor' op operand must be a rank-0 integer tensor, got tensor<f32>}}
  %k = bcast.size_from_tensor %t : tensor<f32>
  func.return
}

// -----

func.func @size_to_a_vector(%n: index) {
  // expected-error @+1 {{'bcast.size_to_tensor' op result must be a rank-0 integer tensor, got tensor<1xi32>}}
  %t = bcast.size_to_tensor %n : tensor<1xi32>
  func.return
}

// -----

func.func @assertion_of_a_vector(%p: tensor<2xi1>) {
  // expected-error @+1 {{'bcast.shape_assertion' op predicate must be tensor<i1>, got tensor<2xi1>}}
  bcast.shape_assertion %p message = "m" : tensor<2xi1>
  func.return
}

// -----

func.func @reshape_sizes_against_type(%x: tensor<?x4xf32>, %n: index) {
  // expected-error @+2 {{'bcast.dynamic_reshape' op output size 1 (4) does not match result dimension 1 (?)}}
  // expected-note @+1 {{a static result dim is written as its size, a ? one as an SSA index}}
  %r = bcast.dynamic_reshape %x, [%n, 4] : (tensor<?x4xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @static_reshape_counts(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'bcast.dynamic_reshape' op cannot reshape 8 elements into 6}}
  %r = bcast.dynamic_reshape %x, [2, 3] : (tensor<2x4xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @iota_dim_out_of_range(%n: index) {
  // expected-error @+2 {{'bcast.dynamic_iota' op iota dimension 2 is out of range}}
  // expected-note @+1 {{the result has 2 dimensions (shape ?x4); the dimension indexes them from 0}}
  %i = bcast.dynamic_iota [%n, 4], dim = 2 : tensor<?x4xi32>
  func.return
}

// -----

func.func @set_size_into_a_static_dim(%y: tensor<16xf32>, %n: index) {
  // expected-error @+1 {{'bcast.set_dimension_size' op result dimension 0 must be ? (its size is set at run time)}}
  %s = bcast.set_dimension_size %y, %n, dim = 0 : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}
