// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true}" | filecheck %s

// reduce_window of several inputs and init values. A body whose k-th result
// is one binary op of the k-th accumulator and element is one
// bcast.reduce_window per input. A body that mixes the inputs (an
// argmax-pooling keeps the index of the larger value) is unrolled over the
// window's places: each input padded with its init value, the
// accumulators the init values broadcast to the result, and per place the
// strided slice of each input folded in by the body's ops on whole tensors.

// CHECK-LABEL: func.func @independent
// CHECK-NEXT:    %zero = bcast.constant
// CHECK-NEXT:    %min = bcast.constant
// CHECK-NEXT:    %[[S:.*]] = bcast.reduce_window add %x, %zero, window = [2, 2], strides = [2, 2], {{.*}} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.reduce_window maximum %y, %min, window = [2, 2], strides = [2, 2], {{.*}} : (tensor<4x6xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    func.return %[[S]], %[[M]]
func.func @independent(%x: tensor<4x6xf32>, %y: tensor<4x6xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %min = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %y, %zero, %min) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %s = stablehlo.add %b, %a : tensor<f32>
    %m = stablehlo.maximum %ai, %bi : tensor<i32>
    stablehlo.return %s, %m : tensor<f32>, tensor<i32>
  }) : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  func.return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func @argmax_pool
// CHECK:         %[[X:.*]] = bcast.pad %x, %ninf, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %[[I:.*]] = bcast.pad %i, %zero, low = [0, 0], high = [0, 1], interior = [0, 0]
// CHECK-NEXT:    %[[V0:.*]] = bcast.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<1x2xf32>
// CHECK-NEXT:    %[[K0:.*]] = bcast.broadcast_in_dim %zero, dims = [] : (tensor<i32>) -> tensor<1x2xi32>
// CHECK-NEXT:    %[[X1:.*]] = bcast.slice %[[X]] [0:1, 0:3:2]
// CHECK-NEXT:    %[[I1:.*]] = bcast.slice %[[I]] [0:1, 0:3:2]
// CHECK-NEXT:    %[[GT:.*]] = bcast.compare GT, %[[X1]], %[[V0]]
// CHECK-NEXT:    %[[V1:.*]] = bcast.select %[[GT]], %[[X1]], %[[V0]]
// CHECK-NEXT:    %[[K1:.*]] = bcast.select %[[GT]], %[[I1]], %[[K0]]
// CHECK-NEXT:    %{{.*}} = bcast.slice %[[X]] [0:1, 1:4:2]
// CHECK:         %{{.*}} = bcast.slice %[[X]] [1:2, 0:3:2]
// CHECK:         %{{.*}} = bcast.slice %[[X]] [1:2, 1:4:2]
// CHECK:         %[[K:.*]] = bcast.select
// CHECK-NEXT:    func.return %[[K]] : tensor<1x2xi32>
func.func @argmax_pool(%x: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> tensor<1x2xi32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %zero) <{window_dimensions = array<i64: 2, 2>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)
  func.return %r#1 : tensor<1x2xi32>
}
