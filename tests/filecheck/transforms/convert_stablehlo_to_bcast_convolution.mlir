// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// stablehlo.convolution becomes bcast.convolution with the same dimension
// numbers, window, groups and precision config (as jax 0.10.2 prints
// them); a result element type other than the operands' converts the
// operands first, as dot_general's import does. The window is written out
// in full (absent fields as their defaults). A ? batch stays ?.

// CHECK-LABEL: func.func @conv_layer
func.func @conv_layer(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32> {
// CHECK-NEXT: %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}

// -----

// CHECK-LABEL: func.func @widening
func.func @widening(%x: tensor<1x4x4x1xi8>, %w: tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32> {
// CHECK-NEXT: %0 = bcast.convert %x : (tensor<1x4x4x1xi8>) -> tensor<1x4x4x1xi32>
// CHECK-NEXT: %1 = bcast.convert %w : (tensor<3x3x1x1xi8>) -> tensor<3x3x1x1xi32>
// CHECK-NEXT: %2 = bcast.convolution(%0, %1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi32>, tensor<3x3x1x1xi32>) -> tensor<1x2x2x1xi32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [4, 4], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi8>, tensor<3x3x1x1xi8>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}

// -----

// CHECK-LABEL: func.func @dynamic_batch
func.func @dynamic_batch(%x: tensor<?x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32> {
// CHECK-NEXT: %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32>
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32>
  return %0 : tensor<?x8x8x4xf32>
}
