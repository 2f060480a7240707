// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.slice: one range per dim, 0 <= start <= limit <= size, stride >= 1,
// the declared result shape ceil((limit - start) / stride), flat types only.

func.func @slice_rank_mismatch(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.slice' op slice has 1 range for an operand of rank 2}}
  %0 = bcast.slice %x [0:3] : (tensor<3x4xf32>) -> tensor<3xf32>
  // expected-note @-1 {{the operand has shape 3x4; write one start:limit[:stride] per dimension}}
  func.return
}

// -----

func.func @slice_limit_past_end(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.slice' op slice 2:5 of dimension 1 is out of range}}
  %0 = bcast.slice %x [0:3, 2:5] : (tensor<3x4xf32>) -> tensor<3x3xf32>
  // expected-note @-1 {{dimension 1 has size 4; a range needs 0 <= start <= limit <= 4}}
  func.return
}

// -----

func.func @slice_start_after_limit(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.slice' op slice 2:1 of dimension 0 is out of range}}
  %0 = bcast.slice %x [2:1] : (tensor<3xf32>) -> tensor<0xf32>
  // expected-note @-1 {{dimension 0 has size 3; a range needs 0 <= start <= limit <= 3}}
  func.return
}

// -----

func.func @slice_negative_start(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.slice' op slice -1:2 of dimension 0 is out of range}}
  %0 = bcast.slice %x [-1:2] : (tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{dimension 0 has size 3; a range needs 0 <= start <= limit <= 3}}
  func.return
}

// -----

func.func @slice_zero_stride(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.slice' op slice stride 0 of dimension 0 is not positive}}
  %0 = bcast.slice %x [0:3:0] : (tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{strides are >= 1}}
  func.return
}

// -----

func.func @slice_result_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{'bcast.slice' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = bcast.slice %x [1:8:3] : (tensor<8xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @slice_element_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'bcast.slice' op failed to verify that all of {operand, result} have same element type}}
  %0 = bcast.slice %x [0:8] : (tensor<8xf32>) -> tensor<8xf16>
  func.return
}

// -----

func.func @slice_list_lengths(%x: tensor<8xf32>) {
  // expected-error @+1 {{'bcast.slice' op slice has 1 range for an operand of rank 1}}
  %0 = "bcast.slice"(%x) <{start_indices = array<i64: 0>, limit_indices = array<i64: 8, 8>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<8xf32>
  // expected-note @-1 {{the operand has shape 8; write one start:limit[:stride] per dimension}}
  func.return
}

// -----

func.func @slice_nested_needs_tml(%x: tensor<3xtensor<2xf32>>) {
  // expected-error @+1 {{'bcast.slice' op nested tensor types need tml semantics}}
  %0 = bcast.slice %x [0:3, 0:2] : (tensor<3xtensor<2xf32>>) -> tensor<3xtensor<2xf32>>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @slice_nested(%x: tensor<3xtensor<2xf32>>) {
  // expected-error @+1 {{'bcast.slice' op slice does not support nested tensor types}}
  %0 = bcast.slice %x [0:2, 0:2] : (tensor<3xtensor<2xf32>>) -> tensor<2xtensor<2xf32>>
  // expected-note @-1 {{slice a flat tensor, or index an outer level with bcast.extract}}
  func.return
}
}

// -----

func.func @slice_shadowing_attribute(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.slice' op attribute 'strides' shadows the property of the same name}}
  %0 = bcast.slice %x [0:3] {strides = array<i64: 2>} : (tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{write it in the op's own syntax (or as a property `<{...}>` in generic form), not in the attribute dictionary}}
  func.return
}
