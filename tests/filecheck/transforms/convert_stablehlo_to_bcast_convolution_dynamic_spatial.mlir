// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file -p convert-stablehlo-to-bcast | filecheck %s

// A convolution whose input has a ? spatial dim (a JAX shape-polymorphic
// CNN, image height symbolic): bcast.convolution with that result spatial
// dim ?, its size computed at run time from the input's
// (rules.conv_window_count). dynamic_conv takes one too, with a run-time or
// a constant padding.

// jax.export of conv_general_dilated(x, w, (1, 1), "SAME") on (b, h, 8, 3).
// CHECK-LABEL: func.func @same_symbolic_height
// CHECK-NOT:     stablehlo.convolution
// CHECK:         bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32>
func.func @same_symbolic_height(%x: tensor<?x?x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32>
  func.return %r : tensor<?x?x8x4xf32>
}

// -----

// Strides, both dilations and feature groups, every spatial dim ?, NCHW.
// CHECK-LABEL: func.func @strided_dilated_grouped
// CHECK:         bcast.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 3], pad = [[0, 1], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 2], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x?x?xf32>, tensor<6x2x3x2xf32>) -> tensor<2x6x?x?xf32>
func.func @strided_dilated_grouped(%x: tensor<2x4x?x?xf32>, %w: tensor<6x2x3x2xf32>) -> tensor<2x6x?x?xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 3], pad = [[0, 1], [2, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 2], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x?x?xf32>, tensor<6x2x3x2xf32>) -> tensor<2x6x?x?xf32>
  func.return %r : tensor<2x6x?x?xf32>
}

// -----

// Batch groups need a static batch, not static spatial dims.
// CHECK-LABEL: func.func @batch_groups
// CHECK:         bcast.convolution(%x, %w) {{.*}} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x?x3xf32>, tensor<2x3x4xf32>) -> tensor<2x?x4xf32>
func.func @batch_groups(%x: tensor<4x?x3xf32>, %w: tensor<2x3x4xf32>) -> tensor<2x?x4xf32> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x?x3xf32>, tensor<2x3x4xf32>) -> tensor<2x?x4xf32>
  func.return %r : tensor<2x?x4xf32>
}

// -----

// A bounded spatial dim: the result's bound is the count of the input's bound (9 - 3 + 1).
// CHECK-LABEL: func.func @bounded
// CHECK:         bcast.convolution(%x, %w) {{.*}} : (tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>>
func.func @bounded(%x: tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, %w: tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>> {
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>>
  func.return %r : tensor<1x?x2x1xf32, #stablehlo.bounds<?, 7, ?, ?>>
}

// -----

// dynamic_conv: a constant padding is a bcast.convolution; a run-time one a
// bcast.dynamic_conv, on a ? spatial input dim alike.
// CHECK-LABEL: func.func @dynamic_conv_forms
// CHECK:         bcast.convolution(%x, %w) {{.*}} pad = [[1, 2], [0, 0]]{{.*}} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32>
// CHECK:         bcast.dynamic_conv(%x, %w, %p) {{.*}} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
func.func @dynamic_conv_forms(%x: tensor<1x?x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) -> (tensor<1x?x2x1xf32>, tensor<1x?x?x1xf32>) {
  %c = stablehlo.constant dense<[[1, 2], [0, 0]]> : tensor<2x2xi64>
  %r = stablehlo.dynamic_conv(%x, %w, %c) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x2x1xf32>
  %s = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
  func.return %r, %s : tensor<1x?x2x1xf32>, tensor<1x?x?x1xf32>
}
