// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.dynamic_conv: convolution's rules, and its own: the padding an
// integer tensor<Nx2> (one row per spatial dim), no pad field in the
// window, the result's spatial dims declared ? (their sizes come from the
// padding's values at run time) or static (checked at run time), not bounded.

func.func @bounded_spatial_result(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) {
  // expected-error @+2 {{'bcast.dynamic_conv' op result dimension 1 is declared ?<=4, a bound on a size known only at run time}}
  // expected-note @+1 {{declare it ? or a static size (checked at run time); the inferred type is tensor<1x?x?x1xf32>}}
  %0 = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x4x1xf32, #stablehlo.bounds<?, 4, ?, ?>>
  func.return
}

// -----

func.func @padding_shape(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2xi64>) {
  // expected-error @+1 {{'bcast.dynamic_conv' op padding must be a tensor<2x2x...> of integers (one (low, high) row per spatial dim), got tensor<2xi64>}}
  %0 = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2xi64>) -> tensor<1x?x?x1xf32>
  func.return
}

// -----

func.func @float_padding(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xf32>) {
  // expected-error @+1 {{'bcast.dynamic_conv' op padding must be a tensor<2x2x...> of integers (one (low, high) row per spatial dim), got tensor<2x2xf32>}}
  %0 = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xf32>) -> tensor<1x?x?x1xf32>
  func.return
}

// -----

func.func @pad_in_the_window(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) {
  // expected-error @+1 {{'bcast.dynamic_conv' op takes its padding as an operand, not in its window}}
  %0 = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
  func.return
}

// -----

func.func @element_types(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf64>, %p: tensor<2x2xi64>) {
  // expected-error @+2 {{'bcast.dynamic_conv' op operands have element types f32 and f64}}
  // expected-note @+1 {{convolution multiplies operands of one element type; insert a bcast.convert}}
  %0 = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf64>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
  func.return
}
