// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// stablehlo.select_and_scatter's verifier (StableHLO's constraints, in its
// order): one element type, a rank-0 init, a window and strides per dim and
// positive, one source element per window, the regions' types, the result
// of the operand's type.

func.func @source_shape(%x: tensor<4x4xf32>, %g: tensor<3x2xf32>, %i: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op expects source to have one element per window, shape (2, 2), got tensor<3x2xf32>}}
  %r = "stablehlo.select_and_scatter"(%x, %g, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @window_rank(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>, %i: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op window_dimensions has 1 values, the operand has rank 2}}
  %r = "stablehlo.select_and_scatter"(%x, %g, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @init(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>, %i: tensor<1xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op expects init value to be a rank-0 tensor of the operand's element type (f32), got tensor<1xf32>}}
  %r = "stablehlo.select_and_scatter"(%x, %g, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<1xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @select_region(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>, %i: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op the select region must take (tensor<f32>, tensor<f32>) and return one tensor<i1>}}
  %r = "stablehlo.select_and_scatter"(%x, %g, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %a : tensor<f32>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @result(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>, %i: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op inferred type(s) 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<2x2xf32>'}}
  %r = "stablehlo.select_and_scatter"(%x, %g, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
