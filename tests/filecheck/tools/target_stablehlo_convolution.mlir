// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.convolution as StableHLO's convolution with the
// same dimension numbers, window (every field written), groups and
// precision config.
// tests/lowering/test_convolution.py has XLA run them.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2x8x8x6xf32>, %w: tensor<3x3x1x12xf32>, %g: tensor<2x6x6x6xf32>, %d: tensor<2x6x6x6xf32>) -> (tensor<2x8x8x12xf32>, tensor<3x3x2x6xf32>) {
// CHECK-NEXT: %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x6xf32>, tensor<3x3x1x12xf32>) -> tensor<2x8x8x12xf32>
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x6xf32>, tensor<3x3x1x12xf32>) -> tensor<2x8x8x12xf32>
// CHECK-NEXT: %1 = stablehlo.convolution(%g, %d) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x6xf32>, tensor<2x6x6x6xf32>) -> tensor<3x3x2x6xf32>
  %1 = bcast.convolution(%g, %d) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x6xf32>, tensor<2x6x6x6xf32>) -> tensor<3x3x2x6xf32>
// CHECK-NEXT: return %0, %1 : tensor<2x8x8x12xf32>, tensor<3x3x2x6xf32>
  func.return %0, %1 : tensor<2x8x8x12xf32>, tensor<3x3x2x6xf32>
}
