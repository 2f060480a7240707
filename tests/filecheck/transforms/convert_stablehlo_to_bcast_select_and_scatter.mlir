// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s

// stablehlo.select_and_scatter (jax.grad of a max pool, generic form) becomes
// bcast ops unrolled over the window's places: place k of every window is a
// strided slice; where the select region's compare (picked, place k) is
// false, place k is picked (its value and its number); each place's source
// elements (select where the pick is k, the scatter identity elsewhere) are
// placed on the operand's grid by a pad and added to the init.

// CHECK-LABEL: func.func @max_pool_grad
func.func @max_pool_grad(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>) -> tensor<4x4xf32> {
// CHECK:      %[[INIT:.*]] = bcast.broadcast_in_dim %init, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[P0:.*]] = bcast.slice %x [0:3:2, 0:3:2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
// CHECK:      %[[P1:.*]] = bcast.slice %x [1:4:2, 0:3:2] : (tensor<4x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[KEEP:.*]] = bcast.compare GE, %[[P0]], %[[P1]] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
// CHECK-NEXT: %[[TAKE:.*]] = bcast.not %[[KEEP]] : tensor<2x2xi1>
// CHECK:      %[[NUMBER:.*]] = bcast.select %[[TAKE]], %{{.*}}, %{{.*}} : (tensor<2x2xi1>, tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
// CHECK:      %[[IS0:.*]] = bcast.compare EQ, %[[NUMBER]], %{{.*}} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
// CHECK-NEXT: %[[C0:.*]] = bcast.select %[[IS0]], %g, %{{.*}} : (tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %[[AT0:.*]] = bcast.pad %[[C0]], %{{.*}}, low = [0, 0], high = [1, 1], interior = [1, 1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[SUM0:.*]] = bcast.add %[[INIT]], %[[AT0]] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK:      %[[AT1:.*]] = bcast.pad %{{.*}}, %{{.*}}, low = [1, 0], high = [0, 1], interior = [1, 1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[SUM1:.*]] = bcast.add %[[SUM0]], %[[AT1]] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: func.return %[[SUM1]] : tensor<4x4xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %g, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Padding is never picked: which places are padding is a constant mask.

// CHECK-LABEL: func.func @padded
func.func @padded(%x: tensor<3xf32>, %g: tensor<2xf32>) -> tensor<3xf32> {
// CHECK:      %[[PADDED:.*]] = bcast.pad %x, %{{.*}}, low = [1], high = [0], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK:      bcast.constant dense<[-1, 0]> : tensor<2xi32>
// CHECK:      bcast.constant dense<[true, false]> : tensor<2xi1>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %g, %init) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<3xf32>, tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
