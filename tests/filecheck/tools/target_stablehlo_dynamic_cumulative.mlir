// RUN: bcast-opt %s -t stablehlo | filecheck %s
// RUN: bcast-opt %s -t stablehlo | bcast-opt - -p convert-stablehlo-to-bcast,canonicalize | filecheck %s --check-prefix=BACK

// bcast.cumulative along a ? dim is written as JAX writes jnp.cumsum there:
// custom_call @stablehlo.dynamic_reduce_window, window and padding as size
// tensors, the body a function of the module. The window is maximum(n, 1)
// (StableHLO has no window of size 0; at n = 0 the unpadded window of 1
// gives the empty result), padded by window - 1 before the dim (after it
// when reversed). tests/tools/test_jax_dynamic.py has XLA run it at sizes
// 0, 1 and 5. Imported back, it is the same bcast.cumulative, nothing
// left to check.

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<3x?xi32>) -> tensor<i32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT: %2 = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT: %3 = stablehlo.maximum %1, %2 : tensor<i64>
// CHECK-NEXT: %4 = stablehlo.constant dense<-1> : tensor<i64>
// CHECK-NEXT: %5 = stablehlo.add %3, %4 : tensor<i64>
// CHECK-NEXT: %6 = stablehlo.reshape %2 : (tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %7 = stablehlo.reshape %3 : (tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %8 = stablehlo.concatenate %6, %7, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT: %9 = stablehlo.concatenate %6, %6, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT: %10 = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT: %11 = stablehlo.reshape %10 : (tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %12 = stablehlo.concatenate %11, %11, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT: %13 = stablehlo.reshape %12 : (tensor<2xi64>) -> tensor<1x2xi64>
// CHECK-NEXT: %14 = stablehlo.reshape %5 : (tensor<i64>) -> tensor<1xi64>
// CHECK-NEXT: %15 = stablehlo.concatenate %11, %14, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT: %16 = stablehlo.reshape %15 : (tensor<2xi64>) -> tensor<1x2xi64>
// CHECK-NEXT: %17 = stablehlo.concatenate %13, %16, dim = 0 : (tensor<1x2xi64>, tensor<1x2xi64>) -> tensor<2x2xi64>
// CHECK-NEXT: %18 = stablehlo.constant dense<-2147483648> : tensor<i32>
// CHECK-NEXT: %19 = "stablehlo.custom_call"(%x, %18, %8, %9, %9, %9, %17) <{call_target_name = "stablehlo.dynamic_reduce_window", api_version = 2 : i32, called_computations = [@cumulative_maximum_i32_reducer]}> : (tensor<3x?xi32>, tensor<i32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2x2xi64>) -> tensor<3x?xi32>
// CHECK-NEXT: func.return %19 : tensor<3x?xi32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func @cumulative_maximum_i32_reducer(%0: tensor<i32>, %1: tensor<i32>) -> tensor<i32> {
// CHECK-NEXT: %2 = stablehlo.maximum %0, %1 : tensor<i32>
// CHECK-NEXT: func.return %2 : tensor<i32>
// CHECK-NEXT: }

// BACK-LABEL: func.func @main
// BACK-NEXT: %0 = bcast.cumulative maximum %x, dim = 1 reverse : (tensor<3x?xi32>) -> tensor<3x?xi32>
// BACK-NEXT: func.return %0 : tensor<3x?xi32>
// BACK-NOT: func.func
func.func @main(%x: tensor<3x?xi32>) -> tensor<3x?xi32> {
  %0 = bcast.cumulative maximum %x, dim = 1 reverse : (tensor<3x?xi32>) -> tensor<3x?xi32>
  func.return %0 : tensor<3x?xi32>
}
