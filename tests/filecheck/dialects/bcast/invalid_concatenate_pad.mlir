// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.concatenate: at least one operand, one rank >= 1, one element type,
// sizes equal but along dim, dim in range, the declared result type.
// bcast.pad: one low/high/interior entry per dim, interior >= 0, no negative
// size, a rank-0 padding value of the operand's element type.

func.func @concatenate_no_operands() {
  // expected-error @+1 {{'bcast.concatenate' op concatenate needs at least one operand}}
  %0 = bcast.concatenate dim = 0 : () -> tensor<0xf32>
  func.return
}

// -----

func.func @concatenate_ranks(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.concatenate' op operand #1 has rank 1, operand #0 has rank 2}}
  %0 = bcast.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  // expected-note @-1 {{concatenate joins operands of one rank}}
  func.return
}

// -----

func.func @concatenate_elements(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error @+1 {{'bcast.concatenate' op operand #1 has element type f16, operand #0 has f32}}
  %0 = bcast.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  // expected-note @-1 {{concatenate joins operands of one element type; insert a bcast.convert}}
  func.return
}

// -----

func.func @concatenate_sizes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'bcast.concatenate' op operand #1 has size 4 in dimension 1, operand #0 has size 3}}
  %0 = bcast.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  // expected-note @-1 {{sizes must match in every dimension but the concatenated one (0)}}
  func.return
}

// -----

func.func @concatenate_dim_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.concatenate' op concatenate dimension 2 is out of range}}
  %0 = bcast.concatenate %a, %a, dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // expected-note @-1 {{the operands have 2 dimensions (shape 2x3); the dimension indexes them from 0}}
  func.return
}

// -----

func.func @concatenate_negative_dim(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.concatenate' op concatenate dimension -1 is out of range}}
  %0 = bcast.concatenate %a, dim = -1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // expected-note @-1 {{the operands have 2 dimensions (shape 2x3); the dimension indexes them from 0}}
  func.return
}

// -----

func.func @concatenate_scalars(%a: tensor<f32>) {
  // expected-error @+1 {{'bcast.concatenate' op concatenate does not support scalars}}
  %0 = bcast.concatenate %a, %a, dim = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  // expected-note @-1 {{the operands need a dimension to join along}}
  func.return
}

// -----

func.func @concatenate_result(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{'bcast.concatenate' op inferred type(s) 'tensor<3x3xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  %0 = bcast.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @concatenate_nested(%a: tensor<2xtensor<3xf32>>) {
  // expected-error @+1 {{'bcast.concatenate' op concatenate does not support nested tensor types}}
  %0 = bcast.concatenate %a, %a, dim = 0 : (tensor<2xtensor<3xf32>>, tensor<2xtensor<3xf32>>) -> tensor<4xtensor<3xf32>>
  func.return
}
}

// -----

func.func @pad_entries(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'bcast.pad' op pad high has 1 entry, the operand has 2 dimensions}}
  %0 = bcast.pad %x, %v, low = [0, 0], high = [1], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  // expected-note @-1 {{low, high and interior give one value per operand dimension}}
  func.return
}

// -----

func.func @pad_negative_interior(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'bcast.pad' op pad interior -1 in dimension 1 is negative}}
  %0 = bcast.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, -1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x1xf32>
  // expected-note @-1 {{interior padding is >= 0}}
  func.return
}

// -----

func.func @pad_negative_size(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'bcast.pad' op pad makes dimension 0 of size -1}}
  %0 = bcast.pad %x, %v, low = [-2, 0], high = [-1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<0x3xf32>
  // expected-note @-1 {{low -2 and high -1 crop more than the 2 padded elements of the dimension}}
  func.return
}

// -----

func.func @pad_value_rank(%x: tensor<2x3xf32>, %v: tensor<1xf32>) {
  // expected-error @+1 {{'bcast.pad' op padding value must be a rank-0 tensor, got tensor<1xf32>}}
  %0 = bcast.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @pad_value_element(%x: tensor<2x3xf32>, %v: tensor<i32>) {
  // expected-error @+1 {{'bcast.pad' op padding value has element type i32, the operand has f32}}
  %0 = bcast.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  // expected-note @-1 {{insert a bcast.convert}}
  func.return
}

// -----

func.func @pad_result(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'bcast.pad' op inferred type(s) 'tensor<5x4xf32>' are incompatible with return type(s) of operation 'tensor<5x5xf32>'}}
  %0 = bcast.pad %x, %v, low = [1, 0], high = [2, -1], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x5xf32>
  func.return
}
