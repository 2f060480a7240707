// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.argmax/argmin: a numeric operand, dim in range and not empty, an
// integer result (the index type) that holds the dim's last index, the dim
// removed. bcast.cumulative: add/multiply/maximum/minimum on numbers, dim in
// range, the operand's type. Nested (tml) types are refused.

func.func @argmax_empty_dim(%x: tensor<4x0xf32>) {
  // expected-error @+1 {{'bcast.argmax' op argmax of an empty dim (dim 1 has size 0)}}
  %0 = bcast.argmax %x, dim = 1 : (tensor<4x0xf32>) -> tensor<4xi32>
  // expected-note @-1 {{an empty dim has no largest or smallest element (NumPy raises, JAX refuses it too)}}
  func.return
}

// -----

func.func @argmin_dim_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.argmin' op argmin dim 2 is out of range for an operand of rank 2}}
  %0 = bcast.argmin %x, dim = 2 : (tensor<4x3xf32>) -> tensor<4xi32>
  // expected-note @-1 {{the dim indexes the operand's dimensions from 0}}
  func.return
}

// -----

func.func @argmax_of_booleans(%x: tensor<4xi1>) {
  // expected-error @+1 {{'bcast.argmax' op operands must be numeric (integer or floating-point), got element type i1}}
  %0 = bcast.argmax %x, dim = 0 : (tensor<4xi1>) -> tensor<i32>
  // expected-note @-1 {{argmax compares numbers; convert booleans first}}
  func.return
}

// -----

func.func @argmax_float_index(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.argmax' op result must have integer elements (the index type), got element type f32}}
  %0 = bcast.argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @argmax_index_too_small(%x: tensor<2x300xf32>) {
  // expected-error @+1 {{'bcast.argmax' op index type ui8 cannot hold index 299 of dim 1}}
  %0 = bcast.argmax %x, dim = 1 : (tensor<2x300xf32>) -> tensor<2xui8>
  // expected-note @-1 {{choose a wider index type (i64)}}
  func.return
}

// -----

func.func @argmax_keeps_the_dim(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.argmax' op inferred type(s) 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4x1xi32>'}}
  %0 = bcast.argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4x1xi32>
  func.return
}

// -----

func.func @argmax_nested(%x: tensor<4xtensor<3xf32>>) attributes {bcast.semantics = "tml"} {
  // expected-error @+1 {{'bcast.argmax' op argmax does not support nested tensor types}}
  %0 = bcast.argmax %x, dim = 0 : (tensor<4xtensor<3xf32>>) -> tensor<i32>
  func.return
}

// -----

func.func @cumulative_xor(%x: tensor<4xui8>) {
  // expected-error @+1 {{'bcast.cumulative' op cumulative xor is not supported}}
  %0 = bcast.cumulative xor %x, dim = 0 : (tensor<4xui8>) -> tensor<4xui8>
  // expected-note @-1 {{cumulative takes add, maximum, minimum, multiply}}
  func.return
}

// -----

func.func @cumulative_of_booleans(%x: tensor<4xi1>) {
  // expected-error @+1 {{'bcast.cumulative' op operands must be numeric (integer or floating-point), got element type i1}}
  %0 = bcast.cumulative add %x, dim = 0 : (tensor<4xi1>) -> tensor<4xi1>
  func.return
}

// -----

func.func @cumulative_dim_out_of_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.cumulative' op cumulative dim 1 is out of range for an operand of rank 1}}
  %0 = bcast.cumulative add %x, dim = 1 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-note @-1 {{the dim indexes the operand's dimensions from 0}}
  func.return
}

// -----

func.func @cumulative_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.cumulative' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = bcast.cumulative add %x, dim = 0 : (tensor<4xf32>) -> tensor<4xf64>
  func.return
}

// -----

func.func @cumulative_nested(%x: tensor<4xtensor<3xf32>>) attributes {bcast.semantics = "tml"} {
  // expected-error @+1 {{'bcast.cumulative' op cumulative does not support nested tensor types}}
  %0 = bcast.cumulative add %x, dim = 0 : (tensor<4xtensor<3xf32>>) -> tensor<4xtensor<3xf32>>
  func.return
}
