// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// stablehlo.convolution as JAX prints it (every window field, or only the
// padding in a shape-polymorphic export), and in generic form with the
// attributes in a dictionary (as StableHLO's interpreter tests write it);
// the precision config is kept. Verifier errors: invalid_hlo_convolution.mlir.

// CHECK-LABEL: func.func @jax
func.func @jax(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %q: tensor<?x8x8x3xf32>) -> (tensor<2x8x8x4xf32>, tensor<3x3x3x4xf32>, tensor<?x8x8x4xf32>) {
// CHECK-NEXT: %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
// GENERIC: "stablehlo.convolution"(%x, %w) <{dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
// CHECK-NEXT: %1 = stablehlo.convolution(%x, %0) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<2x8x8x4xf32>) -> tensor<3x3x3x4xf32>
  %1 = stablehlo.convolution(%x, %0) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<2x8x8x4xf32>) -> tensor<3x3x3x4xf32>
// CHECK-NEXT: %2 = stablehlo.convolution(%q, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32>
  %2 = stablehlo.convolution(%q, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32>
  return %0, %1, %2 : tensor<2x8x8x4xf32>, tensor<3x3x3x4xf32>, tensor<?x8x8x4xf32>
}

// CHECK-LABEL: func.func @generic
func.func @generic(%x: tensor<1x4x4x1xi8>, %w: tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32> {
// CHECK-NEXT: %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<1x4x4x1xi8>, tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32>
  %0 = "stablehlo.convolution"(%x, %w) {
    window_strides = array<i64: 4, 4>,
    padding = dense<1> : tensor<2x2xi64>,
    lhs_dilation = array<i64: 2, 2>,
    rhs_dilation = array<i64: 1, 1>,
    window_reversal = array<i1: false, false>,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    batch_group_count = 1 : i64,
    feature_group_count = 1 : i64,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]
  } : (tensor<1x4x4x1xi8>, tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}
