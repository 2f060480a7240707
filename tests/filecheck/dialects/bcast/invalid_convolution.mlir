// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.convolution: StableHLO's rules on the shapes and attributes
// (rules.convolution_shape, worded as StableHLO's verifier words them),
// one element type, the declared result shape; a ? only in the input
// batch dim; the pretty syntax's layouts and window fields.

func.func @rank(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects convolution arguments to have same number of dimensions, got: 4 and 3}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @layout_rank(%x: tensor<2x8x3xf32>, %w: tensor<3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects convolution arguments to have 1 input spatial dimensions, got 2}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x3xf32>, tensor<3x3x4xf32>) -> tensor<2x6x4xf32>
  func.return
}

// -----

func.func @strides(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects window-strides to have same dimension-size as size of window dimensions (2), but got: 1}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @zero_stride(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects window to have positive stride for 1-th window dimension, but got 0}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @zero_dilation(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects window to have positive rhs dilation factor for 0-th window dimension, but got 0}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {rhs_dilate = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @padding(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects padding-entries to have same dimension-size as size of window dimensions (2), but got: 3}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  func.return
}

// -----

func.func @empty_kernel(%x: tensor<2x8x8x3xf32>, %w: tensor<3x0x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects window to have positive value for 1-th window dimension, but got 0}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x0x3x4xf32>) -> tensor<2x6x9x4xf32>
  func.return
}

// -----

func.func @features(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects input feature dimension (3) / feature_group_count = kernel input feature dimension (2). Got feature_group_count = 1.}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x2x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @feature_groups(%x: tensor<2x8x8x6xf32>, %w: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects input feature dimension (6) to be a multiple of feature_group_count. Got feature_group_count = 4.}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x8x6xf32>, tensor<3x3x2x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @output_groups(%x: tensor<2x8x8x6xf32>, %w: tensor<3x3x2x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects kernel output feature dimension (4) to be divisible by feature_group_count. For feature_group_count = 3.}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<2x8x8x6xf32>, tensor<3x3x2x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @batch_groups(%x: tensor<3x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects input batch dimension (3) to be divisible by batch_group_count. Got batch_group_count = 2.}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  func.return
}

// -----

func.func @both_groups(%x: tensor<4x8x8x6xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op expects batch_group_count and feature_group_count not to be both greater than 1, got 2 and 2 resp.}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<4x8x8x6xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @zero_groups(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op feature_group_count must be > 0, got 0}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @result(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op inferred type(s) 'tensor<2x6x6x4xf32>' are incompatible with return type(s) of operation 'tensor<2x8x8x4xf32>'}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  func.return
}

// -----

func.func @element_types(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf16>) {
  // expected-error @+1 {{'bcast.convolution' op operands have element types f32 and f16}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf16>) -> tensor<2x6x6x4xf32>
  // expected-note @-1 {{convolution multiplies operands of one element type; insert a bcast.convert}}
  func.return
}

// -----

func.func @booleans(%x: tensor<2x8x8x3xi1>, %w: tensor<3x3x3x4xi1>) {
  // expected-error @+1 {{'bcast.convolution' op}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xi1>, tensor<3x3x3x4xi1>) -> tensor<2x6x6x4xi1>
  func.return
}

// -----

func.func @dynamic_features(%x: tensor<2x8x8x?xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op convolution with a ? input dimension 3 is not supported}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x?xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  // expected-note @-1 {{bcast's convolution takes ? only in the input's batch and spatial dimensions, with one batch group when the batch is ?}}
  func.return
}

// -----

// A ? input spatial dim makes its result dim a run-time size: declared ?, never a static size.
func.func @static_result_of_dynamic_height(%x: tensor<2x?x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+2 {{'bcast.convolution' op result dimension 1 is declared 6, a size known only at run time}}
  // expected-note @+1 {{declare it ? (the inferred type is tensor<2x?x6x4xf32>)}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

// A bounded ? input spatial dim: the result's bound is at most the count of the input's bound.
func.func @bound_too_small(%x: tensor<2x?x8x3xf32, #stablehlo.bounds<?, 4, ?, ?>>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'bcast.convolution' op inferred type(s) 'tensor<2x?x6x4xf32, #stablehlo.bounds<?, 2, ?, ?>>' are incompatible with return type(s) of operation 'tensor<2x3x6x4xf32>'}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x8x3xf32, #stablehlo.bounds<?, 4, ?, ?>>, tensor<3x3x3x4xf32>) -> tensor<2x3x6x4xf32>
  func.return
}

// -----

func.func @layout(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{expected a layout of 'i', 'o' and the spatial dimensions 0 to 1, each once}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 0, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @window_field(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{expected one of stride, pad, lhs_dilate, rhs_dilate, reverse, each once}}
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}
