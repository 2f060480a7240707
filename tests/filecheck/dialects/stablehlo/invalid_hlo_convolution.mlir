// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier rules for convolution (shared with bcast.convolution:
// rules.convolution_shape; the full list is in invalid_convolution.mlir):
// the result shape, a precision config of 0 or 2 entries, integer or float
// elements, a [N, 2] padding in generic form, the compact layouts only.

func.func @result(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op inferred shape '2x6x6x4' is incompatible with return type of operation tensor<2x8x8x4xf32>}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  func.return
}

// -----

func.func @precision(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op expects precision config to be empty or have <= 2 elements, got 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>]} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @groups(%x: tensor<2x8x8x6xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op expects input feature dimension (6) / feature_group_count = kernel input feature dimension (3). Got feature_group_count = 1.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x6xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @booleans(%x: tensor<2x8x8x3xi1>, %w: tensor<3x3x3x4xi1>) {
  // expected-error @+1 {{'stablehlo.convolution' op lhs must be a tensor of integer or floating-point values, got tensor<2x8x8x3xi1>}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xi1>, tensor<3x3x3x4xi1>) -> tensor<2x6x6x4xi1>
  func.return
}

// -----

func.func @padding_shape(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op expects padding to be of shape [N, 2], got [2, 3]}}
  %0 = "stablehlo.convolution"(%x, %w) {padding = dense<0> : tensor<2x3xi64>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @raw(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{the raw form of convolution dimension numbers is not supported; write [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]}}
  %0 = "stablehlo.convolution"(%x, %w) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}

// -----

func.func @arrow(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{Expected '->'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x4xf32>
  func.return
}
