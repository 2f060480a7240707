// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.argmax/argmin as JAX's reduce of (x, iota along
// dim) from (the kind's identity, 0) with JAX's comparator body (first NaN,
// smaller index of ties), and bcast.cumulative as JAX's reduce_window over
// the whole dim padded by its size - 1 (after it when reversed); f16 runs in
// f32, as bcast accumulates. tests/tools/test_from_jax.py and the JAX corpus
// have XLA run both.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4x3xf32>, %h: tensor<4x3xf16>, %u: tensor<2x5xui8>) -> (tensor<4xi32>, tensor<5xi64>, tensor<4x3xf16>, tensor<2x5xui8>) {
// CHECK-NEXT: %0 = stablehlo.iota dim = 1 : tensor<4x3xi32>
// CHECK-NEXT: %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %2 = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %3, %4 = stablehlo.reduce(%x init: %1), (%0 init: %2) across dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT:  reducer(%5: tensor<f32>, %6: tensor<f32>) (%7: tensor<i32>, %8: tensor<i32>) {
// CHECK-NEXT:   %9 = stablehlo.compare GT, %5, %6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   %10 = stablehlo.compare NE, %5, %5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   %11 = stablehlo.or %9, %10 : tensor<i1>
// CHECK-NEXT:   %12 = stablehlo.compare EQ, %5, %6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   %13 = stablehlo.compare LT, %7, %8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:   %14 = stablehlo.and %12, %13 : tensor<i1>
// CHECK-NEXT:   %15 = stablehlo.or %11, %14 : tensor<i1>
// CHECK-NEXT:   %16 = stablehlo.select %11, %5, %6 : tensor<i1>, tensor<f32>
// CHECK-NEXT:   %17 = stablehlo.select %15, %7, %8 : tensor<i1>, tensor<i32>
// CHECK-NEXT:   stablehlo.return %16, %17 : tensor<f32>, tensor<i32>
// CHECK-NEXT: }
  %0 = bcast.argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4xi32>
// CHECK-NEXT: %18 = stablehlo.iota dim = 0 : tensor<2x5xi64>
// CHECK-NEXT: %19 = stablehlo.constant dense<255> : tensor<ui8>
// CHECK-NEXT: %20 = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT: %21, %22 = stablehlo.reduce(%u init: %19), (%18 init: %20) across dimensions = [0]
// CHECK-NEXT:  reducer
// CHECK-NEXT:   stablehlo.compare LT, %23, %24, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
  %1 = bcast.argmin %u, dim = 0 : (tensor<2x5xui8>) -> tensor<5xi64>
// CHECK:      %36 = stablehlo.convert %h : (tensor<4x3xf16>) -> tensor<4x3xf32>
// CHECK-NEXT: %37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %38 = "stablehlo.reduce_window"(%36, %37) <{base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 3], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 4, 1>, window_strides = array<i64: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%39: tensor<f32>, %40: tensor<f32>):
// CHECK-NEXT:   %41 = stablehlo.add %39, %40 : tensor<f32>
// CHECK-NEXT:   stablehlo.return %41 : tensor<f32>
// CHECK-NEXT: }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK-NEXT: %42 = stablehlo.convert %38 : (tensor<4x3xf32>) -> tensor<4x3xf16>
  %2 = bcast.cumulative add %h, dim = 0 reverse : (tensor<4x3xf16>) -> tensor<4x3xf16>
// CHECK-NEXT: %43 = stablehlo.constant dense<0> : tensor<ui8>
// CHECK-NEXT: %44 = "stablehlo.reduce_window"(%u, %43) <{base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 0], [4, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 5>, window_strides = array<i64: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%45: tensor<ui8>, %46: tensor<ui8>):
// CHECK-NEXT:   %47 = stablehlo.maximum %45, %46 : tensor<ui8>
  %3 = bcast.cumulative maximum %u, dim = 1 : (tensor<2x5xui8>) -> tensor<2x5xui8>
// CHECK:      func.return %4, %22, %42, %44 : tensor<4xi32>, tensor<5xi64>, tensor<4x3xf16>, tensor<2x5xui8>
  func.return %0, %1, %2, %3 : tensor<4xi32>, tensor<5xi64>, tensor<4x3xf16>, tensor<2x5xui8>
}
