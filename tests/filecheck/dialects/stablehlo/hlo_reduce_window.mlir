// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s

// stablehlo.reduce_window as JAX prints it (generic form only, as JAX
// writes it; jnp.cumsum), and a strided, dilated window bcast reads and
// keeps; the reduce of (values, iota) JAX writes for jnp.argmax. Verifier
// errors: invalid_hlo_reduce_window.mlir.

// CHECK-LABEL: func.func public @cumsum
func.func public @cumsum(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 0], [2, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT:   %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT:   stablehlo.return %1 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// Strides 2, window dilation 2, base dilation 2 and no padding attribute:
// dim 0 of size 7 dilates to 13, a window of 2 dilated by 2 spans 3, so
// (13 - 3) / 2 + 1 = 6 positions; dim 1: 5 - 3 + 1 = 3.
// CHECK-LABEL: func.func @strided
func.func @strided(%x: tensor<7x5xi32>, %c: tensor<i32>) -> tensor<6x3xi32> {
// CHECK: "stablehlo.reduce_window"(%x, %c) <{base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 2, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>}>
  %0 = "stablehlo.reduce_window"(%x, %c) <{base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 2, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }) : (tensor<7x5xi32>, tensor<i32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}

// (i32 values: a float argmax's -inf init is a hex literal, which
// tests/tools/test_plugin.py cannot compare with xdsl-opt.)
// CHECK-LABEL: func.func @argmax
func.func @argmax(%arg0: tensor<4x3xi32>) -> tensor<4xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x3xi32>
  %cst = stablehlo.constant dense<-2147483648> : tensor<i32>
  %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK: stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<4x3xi32>, tensor<4x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
// CHECK-NEXT: reducer(%arg1: tensor<i32>, %arg3: tensor<i32>) (%arg2: tensor<i32>, %arg4: tensor<i32>) {
// CHECK-NEXT:   stablehlo.compare GT, %arg1, %arg3, SIGNED
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<4x3xi32>, tensor<4x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
   reducer(%arg1: tensor<i32>, %arg3: tensor<i32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<i32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<i32>, tensor<i32>
  }
  return %1#1 : tensor<4xi32>
}
