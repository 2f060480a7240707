// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// bcast.dynamic_conv: convolution's pretty syntax with the padding as a
// third operand (one (low, high) row per spatial dim, any integer type) and
// no pad field in the window; the result's spatial dims are ?.

// CHECK-LABEL: func.func @nhwc
// CHECK:         bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?x3xf32>
func.func @nhwc(%x: tensor<?x6x5x2xf32>, %w: tensor<3x2x2x3xf32>, %p: tensor<2x2xi64>) -> tensor<?x?x?x3xf32> {
  %y = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?x3xf32>
  func.return %y : tensor<?x?x?x3xf32>
}

// -----

// A depthwise 1-D one, its padding i32.
// CHECK-LABEL: func.func @depthwise_1d
// CHECK:         bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x4x9xi32>, tensor<4x1x3xi32>, tensor<1x2xi32>) -> tensor<2x4x?xi32>
func.func @depthwise_1d(%x: tensor<2x4x9xi32>, %w: tensor<4x1x3xi32>, %p: tensor<1x2xi32>) -> tensor<2x4x?xi32> {
  %y = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x4x9xi32>, tensor<4x1x3xi32>, tensor<1x2xi32>) -> tensor<2x4x?xi32>
  func.return %y : tensor<2x4x?xi32>
}

// -----

// A ? input spatial dim (the padded size is the run-time input's and the padding's).
// CHECK-LABEL: func.func @dynamic_height
// CHECK:         bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
func.func @dynamic_height(%x: tensor<1x?x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) -> tensor<1x?x?x1xf32> {
  %y = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x?x1xf32>
  func.return %y : tensor<1x?x?x1xf32>
}
