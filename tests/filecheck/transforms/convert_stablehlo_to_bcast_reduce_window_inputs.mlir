// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true}" | filecheck %s

// reduce_window of several inputs and init values. A body whose k-th result
// is one binary op of the k-th accumulator and element is one
// bcast.reduce_window per input. A body that mixes the inputs (an
// argmax-pooling keeps the index of the larger value) is one
// bcast.reduce_window_body with the same window, strides, dilations and
// padding, the body's ops converted to bcast ops on rank-0 tensors and its
// return a bcast.yield; a rank-0 constant of the function that the body
// reads (JAX hoists them) is copied into the body.

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
// CHECK:         %{{.*}}, %[[K:.*]] = bcast.reduce_window_body(%x, %i) init(%ninf, %zero), window = [2, 2], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x2xf32>, tensor<1x2xi32>) {
// CHECK-NEXT:    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
// CHECK-NEXT:      %[[F:.*]] = bcast.constant dense<false> : tensor<i1>
// CHECK-NEXT:      %[[GT:.*]] = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:      %[[PICK:.*]] = bcast.or %[[GT]], %[[F]]
// CHECK-NEXT:      %[[V:.*]] = bcast.select %[[PICK]], %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      %[[I:.*]] = bcast.select %[[PICK]], %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:      bcast.yield %[[V]], %[[I]] : tensor<f32>, tensor<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[K]] : tensor<1x2xi32>
func.func @argmax_pool(%x: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> tensor<1x2xi32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %false = stablehlo.constant dense<false> : tensor<i1>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %zero) <{window_dimensions = array<i64: 2, 2>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %same = stablehlo.broadcast_in_dim %false, dims = [] : (tensor<i1>) -> tensor<i1>
    %pick = stablehlo.or %gt, %same : tensor<i1>
    %v = stablehlo.select %pick, %b, %a : tensor<i1>, tensor<f32>
    %k = stablehlo.select %pick, %bi, %ai : tensor<i1>, tensor<i32>
    stablehlo.return %v, %k : tensor<f32>, tensor<i32>
  }) : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x2xf32>, tensor<1x2xi32>)
  func.return %r#1 : tensor<1x2xi32>
}

// One input whose body is more than one binary op (lax.cumlogsumexp
// combines by logaddexp: max(a, b) + log1p(exp(-|a - b|))) is one
// bcast.reduce_window_body of that input. (The init is -1e30, not -inf:
// this short body is NaN for two -inf, JAX's guards that case.)
// CHECK-LABEL: func.func @log_add_exp_window
// CHECK:         %[[R:.*]] = bcast.reduce_window_body(%x) init(%ninf), window = [1, 4], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 3], high = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
// CHECK-NEXT:      %m = bcast.maximum %a, %b
// CHECK-NEXT:      %d = bcast.subtract %a, %b
// CHECK-NEXT:      %n = bcast.abs %d
// CHECK-NEXT:      %e = bcast.negate %n
// CHECK-NEXT:      %p = bcast.exponential %e
// CHECK-NEXT:      %l = bcast.log_plus_one %p
// CHECK-NEXT:      %s = bcast.add %m, %l
// CHECK-NEXT:      bcast.yield %s : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<2x4xf32>
func.func @log_add_exp_window(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %ninf = stablehlo.constant dense<-1.0e+30> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) <{window_dimensions = array<i64: 1, 4>, padding = dense<[[0, 0], [3, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %d = stablehlo.subtract %a, %b : tensor<f32>
    %n = stablehlo.abs %d : tensor<f32>
    %e = stablehlo.negate %n : tensor<f32>
    %p = stablehlo.exponential %e : tensor<f32>
    %l = stablehlo.log_plus_one %p : tensor<f32>
    %s = stablehlo.add %m, %l : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}
