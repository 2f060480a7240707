// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.convolution: StableHLO's pretty syntax (dim_numbers, window = {...},
// the group counts and the precision config in the attribute dictionary);
// the window fields written are kept, absent ones mean unit strides and
// dilations, no padding, no reversal. The result shape is StableHLO's (C25).

// CHECK-LABEL: func.func @same
func.func @same(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32> {
// CHECK-NEXT: %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
// GENERIC: "bcast.convolution"(%x, %w) <{dimension_numbers = #bcast.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, batch_group_count = 1 : i64, feature_group_count = 1 : i64}> : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  func.return %0 : tensor<2x8x8x4xf32>
}

// -----

// Any layout permutation (NCHW/OIHW -> NHWC), strides, negative padding
// (a crop), input dilation (a transposed convolution), kernel dilation
// (atrous), reversal, and a window written partly or not at all.
// CHECK-LABEL: func.func @window
func.func @window(%x: tensor<2x3x9x10xf32>, %w: tensor<4x3x3x2xf32>, %y: tensor<2x5x5x3xi32>, %k: tensor<3x3x3x4xi32>) -> (tensor<2x4x3x4xf32>, tensor<2x10x7x4xi32>, tensor<2x7x8x4xf32>) {
// CHECK-NEXT: %0 = bcast.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], window = {stride = [2, 3], pad = [[0, 0], [1, -1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x10xf32>, tensor<4x3x3x2xf32>) -> tensor<2x4x3x4xf32>
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], window = {stride = [2, 3], pad = [[0, 0], [1, -1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x10xf32>, tensor<4x3x3x2xf32>) -> tensor<2x4x3x4xf32>
// CHECK-NEXT: %1 = bcast.convolution(%y, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 1], [1, -1]], lhs_dilate = [2, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x3xi32>, tensor<3x3x3x4xi32>) -> tensor<2x10x7x4xi32>
  %1 = bcast.convolution(%y, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [1, 0], lhs_dilate = [2, 2], pad = [[2, 1], [1, -1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x3xi32>, tensor<3x3x3x4xi32>) -> tensor<2x10x7x4xi32>
// CHECK-NEXT: %2 = bcast.convolution(%x, %w) dim_numbers = [b, f, 1, 0]x[o, i, 0, 1]->[b, 1, 0, f], window = {rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x10xf32>, tensor<4x3x3x2xf32>) -> tensor<2x7x8x4xf32>
  %2 = bcast.convolution(%x, %w) dim_numbers = [b, f, 1, 0]x[o, i, 0, 1]->[b, 1, 0, f], window = {rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9x10xf32>, tensor<4x3x3x2xf32>) -> tensor<2x7x8x4xf32>
  func.return %0, %1, %2 : tensor<2x4x3x4xf32>, tensor<2x10x7x4xi32>, tensor<2x7x8x4xf32>
}

// -----

// Groups: a depthwise convolution (feature_group_count = input features),
// the kernel gradient of a grouped convolution (batch_group_count), 1-D
// and 3-D, a zero-size batch, a ? batch, the precision config kept.
// CHECK-LABEL: func.func @groups
func.func @groups(%x: tensor<2x8x8x6xf32>, %w: tensor<3x3x1x12xf32>, %g: tensor<2x6x6x6xf32>, %d: tensor<2x6x6x6xf32>, %a: tensor<2x11x3xf16>, %b: tensor<3x3x5xf16>, %v: tensor<0x4x5x6x3xf64>, %u: tensor<2x3x3x3x4xf64>, %q: tensor<?x8x8x3xf32>, %r: tensor<3x3x3x4xf32>) -> (tensor<2x8x8x12xf32>, tensor<3x3x2x6xf32>, tensor<2x6x5xf16>, tensor<0x4x3x6x4xf64>, tensor<?x8x8x4xf32>) {
// CHECK-NEXT: %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64} : (tensor<2x8x8x6xf32>, tensor<3x3x1x12xf32>) -> tensor<2x8x8x12xf32>
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 6 : i64} : (tensor<2x8x8x6xf32>, tensor<3x3x1x12xf32>) -> tensor<2x8x8x12xf32>
// CHECK-NEXT: %1 = bcast.convolution(%g, %d) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x6xf32>, tensor<2x6x6x6xf32>) -> tensor<3x3x2x6xf32>
  %1 = bcast.convolution(%g, %d) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 3 : i64, feature_group_count = 1 : i64} : (tensor<2x6x6x6xf32>, tensor<2x6x6x6xf32>) -> tensor<3x3x2x6xf32>
// CHECK-NEXT: %2 = bcast.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<2x11x3xf16>, tensor<3x3x5xf16>) -> tensor<2x6x5xf16>
  %2 = bcast.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<2x11x3xf16>, tensor<3x3x5xf16>) -> tensor<2x6x5xf16>
// CHECK-NEXT: %3 = bcast.convolution(%v, %u) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 2, 1], pad = [[1, 0], [1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<0x4x5x6x3xf64>, tensor<2x3x3x3x4xf64>) -> tensor<0x4x3x6x4xf64>
  %3 = bcast.convolution(%v, %u) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 2, 1], pad = [[1, 0], [1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<0x4x5x6x3xf64>, tensor<2x3x3x3x4xf64>) -> tensor<0x4x3x6x4xf64>
// CHECK-NEXT: %4 = bcast.convolution(%q, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32>
  %4 = bcast.convolution(%q, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x8x8x4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<2x8x8x12xf32>, tensor<3x3x2x6xf32>, tensor<2x6x5xf16>, tensor<0x4x3x6x4xf64>, tensor<?x8x8x4xf32>
}

// -----

// ? input spatial dims (a JAX shape-polymorphic CNN): the result's spatial
// dims are ?, counted at run time; a bounded one is bounded by its bound's
// count ((9 + 1 - 3) / 2 + 1 = 4).
// CHECK-LABEL: func.func @dynamic_spatial
func.func @dynamic_spatial(%x: tensor<?x?x8x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, %k: tensor<3x3x1x1xf32>) -> (tensor<?x?x8x4xf32>, tensor<1x?x2x1xf32, #stablehlo.bounds<?, 4, ?, ?>>) {
// CHECK-NEXT: %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32>
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32>
// CHECK-NEXT: %1 = bcast.convolution(%b, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[0, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 4, ?, ?>>
  %1 = bcast.convolution(%b, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[0, 1], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32, #stablehlo.bounds<?, 9, ?, ?>>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32, #stablehlo.bounds<?, 4, ?, ?>>
  func.return %0, %1 : tensor<?x?x8x4xf32>, tensor<1x?x2x1xf32, #stablehlo.bounds<?, 4, ?, ?>>
}
