// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.reduce_window as StableHLO's reduce_window with
// the same window, strides, dilations and padding, from the kind's identity,
// its body the kind's op (a float maximum with the NaN guard of
// target_stablehlo_scatter.mlir); an init that is not a constant identity is folded in once after
// it (XLA drops it where its simplifier removes a one-element window); f16 is
// summed in f32. tests/lowering/test_reduce_window.py has XLA run them.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<3x2xf32>, %init: tensor<f32>, %h: tensor<4xf16>, %i: tensor<3x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xf32>, tensor<2xf16>) {
// CHECK-NEXT: %[[LOWEST:.*]] = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT: %[[MAX:.*]] = "stablehlo.reduce_window"(%i, %[[LOWEST]]) <{base_dilations = array<i64: 2, 1>, padding = dense<{{\[\[2, 1\], \[0, 0\]\]}}> : tensor<2x2xi64>, window_dilations = array<i64: 3, 1>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>}> ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<i32>, %[[B:.*]]: tensor<i32>):
// CHECK-NEXT:   %[[M:.*]] = stablehlo.maximum %[[A]], %[[B]] : tensor<i32>
// CHECK-NEXT:   stablehlo.return %[[M]] : tensor<i32>
// CHECK-NEXT: }) : (tensor<3x2xi32>, tensor<i32>) -> tensor<2x2xi32>
  %lowest = bcast.constant dense<-2147483648> : tensor<i32>
  %0 = bcast.reduce_window maximum %i, %lowest, window = [2, 1], strides = [4, 1], base_dilations = [2, 1], window_dilations = [3, 1], low = [2, 0], high = [1, 0] : (tensor<3x2xi32>, tensor<i32>) -> tensor<2x2xi32>
// CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[SUM:.*]] = "stablehlo.reduce_window"(%x, %[[ZERO]])
// CHECK:      %[[SPREAD:.*]] = stablehlo.broadcast_in_dim %init, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[WITH_INIT:.*]] = stablehlo.add %[[SUM]], %[[SPREAD]] : tensor<2x2xf32>
  %1 = bcast.reduce_window add %x, %init, window = [2, 1], strides = [4, 1], base_dilations = [2, 1], window_dilations = [3, 1], low = [2, 0], high = [1, 0] : (tensor<3x2xf32>, tensor<f32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[WIDE:.*]] = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: %[[HALF:.*]] = "stablehlo.reduce_window"(%[[WIDE]], %[[ZERO]]) <{base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
// CHECK:      }) : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %[[NARROW:.*]] = stablehlo.convert %[[HALF]] : (tensor<2xf32>) -> tensor<2xf16>
  %z = bcast.constant dense<0.0> : tensor<f16>
  %2 = bcast.reduce_window add %h, %z, window = [2], strides = [2], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xf16>, tensor<f16>) -> tensor<2xf16>
// CHECK-NEXT: func.return %[[MAX]], %[[WITH_INIT]], %[[NARROW]]
  func.return %0, %1, %2 : tensor<2x2xi32>, tensor<2x2xf32>, tensor<2xf16>
}

// A window over a ? dim: the result dim is ? (XLA computes the window count
// once jaxlib's shape refinement knows the size); init is folded in by a
// dynamic_broadcast_in_dim to the result's sizes, read by get_dimension_size.

// CHECK-LABEL: func.func @sum_symbolic_length
// CHECK:         %[[R:.*]] = "stablehlo.reduce_window"(%x, %{{.*}}) <{{.*}}padding = dense<{{\[\[}}0, 0], [1, 1]]> : tensor<2x2xi64>{{.*}}window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}>
// CHECK:         }) : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.get_dimension_size %[[R]], dim = 1 : (tensor<2x?xf32>) -> tensor<i32>
// CHECK:         %[[SHAPE:.*]] = stablehlo.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:    %[[INIT:.*]] = stablehlo.dynamic_broadcast_in_dim %init, %[[SHAPE]], dims = [] : (tensor<f32>, tensor<2xi64>) -> tensor<2x?xf32>
// CHECK-NEXT:    %{{.*}} = stablehlo.add %[[R]], %[[INIT]] : tensor<2x?xf32>
func.func @sum_symbolic_length(%x: tensor<2x?xf32>, %init: tensor<f32>) -> tensor<2x?xf32> {
  %0 = bcast.reduce_window add %x, %init, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}
