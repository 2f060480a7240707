// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier errors for concatenate and pad, worded as upstream's.

func.func @concatenate_none() {
  // expected-error @+1 {{'stablehlo.concatenate' op expected 1 or more operands, but found 0}}
  %0 = stablehlo.concatenate dim = 0 : () -> tensor<0xf32>
  return
}

// -----

func.func @concatenate_negative_dim(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op dimension -1 is negative}}
  %0 = stablehlo.concatenate %a, dim = -1 : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @concatenate_dim_out_of_bounds(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op dimension 1 is out-of-bounds for input rank 1}}
  %0 = stablehlo.concatenate %a, dim = 1 : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @concatenate_ranks(%a: tensor<2xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op operands (0) and (1) do not match rank}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @concatenate_sizes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op shapes of operand (1) and (0) do not match at non-concat index: (2, 4) != (2, 3) at non-concat index 1}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_elements(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op failed to verify that all of {inputs, result} have same element type}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_value_rank(%x: tensor<2xf32>, %v: tensor<1xf32>) {
  // expected-error @+1 {{'stablehlo.pad' op padding value type should be a rank-0 tensor, is rank 1}}
  %0 = stablehlo.pad %x, %v, low = [0], high = [0], interior = [0] : (tensor<2xf32>, tensor<1xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @pad_lengths(%x: tensor<2xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op edge_padding_low length (2) must match operand rank (1)}}
  %0 = stablehlo.pad %x, %v, low = [0, 0], high = [0], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @pad_negative_interior(%x: tensor<2xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op Interior padding cannot be negative: -1}}
  %0 = stablehlo.pad %x, %v, low = [0], high = [0], interior = [-1] : (tensor<2xf32>, tensor<f32>) -> tensor<1xf32>
  return
}

// -----

func.func @pad_negative_size(%x: tensor<2xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op Padding result in negative size for dimension 0}}
  %0 = stablehlo.pad %x, %v, low = [-3], high = [0], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<2xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op inferred type(s) 'tensor<5xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = stablehlo.pad %x, %v, low = [1], high = [1], interior = [1] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return
}
