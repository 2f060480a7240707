// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier rules for reduce_window (static shapes): inputs and
// init values pair up, rank-0 inits of the inputs' element types, one
// positive window size / stride / dilation per dim, a rank x 2 padding, a
// body over (init types, init types) returning the init types, and the
// result shape of the strided windows.

func.func @window_rank(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op window_dimensions has 1 values, the inputs have rank 2}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @zero_stride(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op window_strides must be positive, got [1, 0]}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @padding_shape(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op padding must be a tensor<2x2xi64>, got tensor<1x2xi64>}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 2]]> : tensor<1x2xi64>, window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @init_type(%x: tensor<4x3xf32>, %c: tensor<f16>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op expects init value #0 to be a rank-0 tensor of the element type of input #0 (f32), got tensor<f16>}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %1 = stablehlo.add %a, %b : tensor<f16>
    stablehlo.return %1 : tensor<f16>
  }) : (tensor<4x3xf32>, tensor<f16>) -> tensor<4x3xf32>
  return
}

// -----

func.func @body_arguments(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op the reduction body must take (tensor<f32>, tensor<f32>) but takes (tensor<f32>)}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @result_shape(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

// C15 with dilations and padding: 3 rows dilated by 2 are 5 places, padded
// by 2 and 1 are 8; windows of 2 places 3 apart span 4, one every 4 places:
// 2 windows (StableHLO's interpreter case); an empty input padded to 1 place
// holds one window of 1.
func.func @result_shape_dilated(%x: tensor<3x2xi64>, %c: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op inferred type(s) 'tensor<2x2xi64>' are incompatible with return type(s) of operation 'tensor<3x2xi64>'}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{base_dilations = array<i64: 2, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 3, 1>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %1 = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }) : (tensor<3x2xi64>, tensor<i64>) -> tensor<3x2xi64>
  return
}

// -----

func.func @result_shape_empty(%x: tensor<0x2xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op inferred type(s) 'tensor<1x2xf32>' are incompatible with return type(s) of operation 'tensor<0x2xf32>'}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<0x2xf32>, tensor<f32>) -> tensor<0x2xf32>
  return
}

// -----

// A window over a ? dim gives a ? result dim (its size the window count of
// the run-time size), bounded by the count of the input's bound: 8 rows
// hold at most 7 windows of 2, so a declared 8 cannot fit.
func.func @window_over_bounded_dim(%x: tensor<?x3xf32, #stablehlo.bounds<8, ?>>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op inferred type(s) 'tensor<?x3xf32, #stablehlo.bounds<7, ?>>' are incompatible with return type(s) of operation 'tensor<8x3xf32>'}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<?x3xf32, #stablehlo.bounds<8, ?>>, tensor<f32>) -> tensor<8x3xf32>
  return
}
