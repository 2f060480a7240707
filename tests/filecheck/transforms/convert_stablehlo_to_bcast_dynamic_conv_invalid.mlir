// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// stablehlo.dynamic_conv forms the import refuses, at the op: a run-time
// padding whose result declares what no padding makes (a static spatial
// size is taken, checked at run time: convert_stablehlo_to_bcast_dynamic_conv.mlir),
// and the op's own rules (the padding's shape, no pad field in the window,
// the result shape the padding makes).

func.func @run_time_padding(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) -> tensor<1x4x4x2xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op declares tensor<1x4x4x2xf32>, but a run-time padding makes tensor<1x?x?x1xf32>}}
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x2xf32>
  func.return %r : tensor<1x4x4x2xf32>
}

// -----

func.func @padding_of_one_row(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %p = stablehlo.constant dense<1> : tensor<1x2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_conv' op padding must be a tensor<2x2x...> of integers (one (low, high) row per spatial dim), got tensor<1x2xi64>}}
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<1x2xi64>) -> tensor<1x4x4x1xf32>
  func.return %r : tensor<1x4x4x1xf32>
}

// -----

func.func @pad_in_the_window(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %p = stablehlo.constant dense<1> : tensor<2x2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_conv' op takes its padding as an operand, not in its window}}
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
  func.return %r : tensor<1x4x4x1xf32>
}

// -----

func.func @result_the_padding_does_not_make(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %p = stablehlo.constant dense<0> : tensor<2x2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_conv' op inferred shape '1x2x2x1' is incompatible with return type of operation tensor<1x4x4x1xf32>}}
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
  func.return %r : tensor<1x4x4x1xf32>
}

// -----

func.func @two_operands(%x: tensor<1x4x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  // expected-error @+1 {{expected 3 operands and a function type with 3 inputs and one result}}
  %r = stablehlo.dynamic_conv(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32>
  func.return %r : tensor<1x4x4x1xf32>
}
