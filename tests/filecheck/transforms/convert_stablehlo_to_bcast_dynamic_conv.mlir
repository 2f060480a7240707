// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt -p convert-stablehlo-to-bcast | filecheck %s

// stablehlo.dynamic_conv (its padding an operand): a constant padding makes
// it a bcast.convolution with that padding, pretty or generic; a run-time
// padding makes it a bcast.dynamic_conv (what stays refused:
// convert_stablehlo_to_bcast_dynamic_conv_invalid.mlir).

// CHECK-LABEL: func.func @constant_padding
// CHECK-NOT:     stablehlo.dynamic_conv
// CHECK:         bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 2], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x5x2xf32>, tensor<3x2x2x3xf32>) -> tensor<?x4x5x3xf32>
func.func @constant_padding(%x: tensor<?x6x5x2xf32>, %w: tensor<3x2x2x3xf32>) -> tensor<?x4x5x3xf32> {
  %padding = stablehlo.constant dense<[[1, 2], [0, 2]]> : tensor<2x2xi64>
  %r = stablehlo.dynamic_conv(%x, %w, %padding) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<?x4x5x3xf32>
  func.return %r : tensor<?x4x5x3xf32>
}

// A result element type of its own converts the operands first (as convolution).
// CHECK-LABEL: func.func @integer_to_float
// CHECK:         %[[X:.*]] = bcast.convert %x : (tensor<1x4x4x1xi32>) -> tensor<1x4x4x1xf32>
// CHECK:         bcast.convolution(%[[X]], %{{.*}}) {{.*}} pad = [[1, 1], [1, 1]]
func.func @integer_to_float(%x: tensor<1x4x4x1xi32>, %w: tensor<3x3x1x1xi32>) -> tensor<1x4x4x1xf32> {
  %padding = stablehlo.constant dense<1> : tensor<2x2xi32>
  %r = stablehlo.dynamic_conv(%x, %w, %padding) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xi32>, tensor<3x3x1x1xi32>, tensor<2x2xi32>) -> tensor<1x4x4x1xf32>
  func.return %r : tensor<1x4x4x1xf32>
}

// A run-time padding is a bcast.dynamic_conv, its spatial sizes ?.
// CHECK-LABEL: func.func @run_time_padding
// CHECK-NOT:     stablehlo.dynamic_conv
// CHECK:         bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?x3xf32>
func.func @run_time_padding(%x: tensor<?x6x5x2xf32>, %w: tensor<3x2x2x3xf32>, %p: tensor<2x2xi64>) -> tensor<?x?x?x3xf32> {
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?x3xf32>
  func.return %r : tensor<?x?x?x3xf32>
}

// A static spatial size declared of a run-time padding (JAX declares the
// sizes it knows of a padding it computes from a symbolic height) is kept,
// and checked at run time (check_dynamic_conv).
// CHECK-LABEL: func.func @run_time_padding_static_width
// CHECK:         bcast.dynamic_conv(%x, %w, %p) {{.*}} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x4x1xf32>
func.func @run_time_padding_static_width(%x: tensor<1x?x4x1xf32>, %w: tensor<3x3x1x1xf32>, %p: tensor<2x2xi64>) -> tensor<1x?x4x1xf32> {
  %r = stablehlo.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x?x4x1xf32>
  func.return %r : tensor<1x?x4x1xf32>
}

// A padding computed at run time (here from an argument), converted first
// when the result's element type is the operands' other.
// CHECK-LABEL: func.func @computed_padding
// CHECK:         %[[P:.*]] = bcast.add %p, %{{.*}} : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<1x2xi32>
// CHECK:         %[[X:.*]] = bcast.convert %x : (tensor<2x3x7xi32>) -> tensor<2x3x7xf32>
// CHECK:         bcast.dynamic_conv(%[[X]], %{{.*}}, %[[P]]) {{.*}} : (tensor<2x3x7xf32>, tensor<2x3x3xf32>, tensor<1x2xi32>) -> tensor<2x2x?xf32>
func.func @computed_padding(%x: tensor<2x3x7xi32>, %w: tensor<2x3x3xi32>, %p: tensor<1x2xi32>) -> tensor<2x2x?xf32> {
  %one = stablehlo.constant dense<1> : tensor<1x2xi32>
  %q = stablehlo.add %p, %one : tensor<1x2xi32>
  %r = stablehlo.dynamic_conv(%x, %w, %q) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x7xi32>, tensor<2x3x3xi32>, tensor<1x2xi32>) -> tensor<2x2x?xf32>
  func.return %r : tensor<2x2x?xf32>
}
