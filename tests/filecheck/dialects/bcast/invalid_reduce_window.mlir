// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.reduce_window: one value per operand dim in each list (StableHLO's
// C4-C12), window, strides and dilations positive, init a rank-0 tensor of
// the operand's element type, the kind's element kinds, the declared result
// shape (C15). Nested (tml) types, and ? dims a window spans, are refused.

func.func @window_rank(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window window_dimensions has 1 entry, the operand has 2 dimensions}}
  %0 = bcast.reduce_window add %x, %c, window = [3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // expected-note @-1 {{the window, strides, dilations and padding give one value per operand dimension}}
  func.return
}

// -----

func.func @padding_rank(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window padding high has 3 entries, the operand has 2 dimensions}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  // expected-note @-1 {{the window, strides, dilations and padding give one value per operand dimension}}
  func.return
}

// -----

func.func @zero_window(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window window_dimensions must be positive, got [0, 1]}}
  %0 = bcast.reduce_window add %x, %c, window = [0, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<5x3xf32>
  func.return
}

// -----

func.func @zero_stride(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window window_strides must be positive, got [1, 0]}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 1], strides = [1, 0], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @negative_base_dilation(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window base_dilations must be positive, got [-1, 1]}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 1], strides = [1, 1], base_dilations = [-1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @zero_window_dilation(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window window_dilations must be positive, got [1, 0]}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 0], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @init_not_rank_0(%x: tensor<4x3xf32>, %c: tensor<1xf32>) {
  // expected-error @+1 {{'bcast.reduce_window' op init must be a rank-0 tensor of the operand's element type f32, got tensor<1xf32>}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<1xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @init_of_another_type(%x: tensor<4x3xf32>, %c: tensor<f64>) {
  // expected-error @+1 {{'bcast.reduce_window' op init must be a rank-0 tensor of the operand's element type f32, got tensor<f64>}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f64>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @add_on_i1(%x: tensor<4x3xi1>, %c: tensor<i1>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window add needs numeric (integer, floating-point or complex) elements, got element type i1}}
  %0 = bcast.reduce_window add %x, %c, window = [2, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xi1>, tensor<i1>) -> tensor<3x3xi1>
  // expected-note @-1 {{'bcast.add' is the operation reduce_window add folds with}}
  func.return
}

// -----

func.func @and_on_floats(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window and needs}}
  %0 = bcast.reduce_window and %x, %c, window = [2, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  // expected-note @-1 {{'bcast.and' is the operation reduce_window and folds with}}
  func.return
}

// -----

// 4 rows dilated by 2 are 7 places; padded by 1 and 0, 8; windows of 3 places
// 2 apart (5 places) every 2 places: 2 windows.
func.func @wrong_result_shape(%x: tensor<4x3xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  %0 = bcast.reduce_window add %x, %c, window = [3, 1], strides = [2, 1], base_dilations = [2, 1], window_dilations = [2, 1], low = [1, 0], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return
}

// -----

// A window over a ? dim gives a ? result dim (the window count of the
// run-time size; a static declared size is checked at run time) bounded by
// the count of the input's bound: 8 columns padded by 1 hold 4 windows of
// 2 every 2, 8 rows 7 windows of 2; a declared size above that is refused.
func.func @bounded_dim_declared_larger(%x: tensor<?x3xf32, #stablehlo.bounds<8, ?>>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op inferred type(s) 'tensor<?x3xf32, #stablehlo.bounds<7, ?>>' are incompatible with return type(s) of operation 'tensor<8x3xf32>'}}
  %0 = bcast.reduce_window add %x, %c, window = [2, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<?x3xf32, #stablehlo.bounds<8, ?>>, tensor<f32>) -> tensor<8x3xf32>
  func.return
}

// -----

func.func @padding_along_a_bounded_dim(%x: tensor<4x?xf32, #stablehlo.bounds<?, 8>>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window' op inferred type(s) 'tensor<4x?xf32, #stablehlo.bounds<?, 4>>' are incompatible with return type(s) of operation 'tensor<4x6xf32>'}}
  %0 = bcast.reduce_window add %x, %c, window = [1, 2], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 0] : (tensor<4x?xf32, #stablehlo.bounds<?, 8>>, tensor<f32>) -> tensor<4x6xf32>
  func.return
}

// -----

func.func @nested(%x: tensor<4xtensor<3xf32>>, %c: tensor<f32>) attributes {bcast.semantics = "tml"} {
  // expected-error @+1 {{'bcast.reduce_window' op reduce_window does not support nested tensor types}}
  %0 = bcast.reduce_window add %x, %c, window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xtensor<3xf32>>, tensor<f32>) -> tensor<3xtensor<3xf32>>
  func.return
}
