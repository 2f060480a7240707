// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes the dynamic slices as StableHLO's, starts unchanged,
// except where the start type cannot hold dim - size: XLA clamps in the
// start's type, so those starts are converted to i64 first (an i8 start into
// 200 elements). tests/lowering/test_dynamic_slice.py has XLA run them.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<8x9xf32>, %i: tensor<i32>, %u: tensor<2x9xf32>, %y: tensor<200xui8>, %k: tensor<i8>, %w: tensor<3xui8>) -> (tensor<3x4xf32>, tensor<8x9xf32>, tensor<3xui8>, tensor<200xui8>) {
// CHECK-NEXT: %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [3, 4] : (tensor<8x9xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [3, 4] : (tensor<8x9xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
// CHECK-NEXT: %1 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x9xf32>, tensor<2x9xf32>, tensor<i32>, tensor<i32>) -> tensor<8x9xf32>
  %1 = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<8x9xf32>, tensor<i32>, tensor<i32>, tensor<2x9xf32>) -> tensor<8x9xf32>
// CHECK-NEXT: %[[K:.*]] = stablehlo.convert %k : (tensor<i8>) -> tensor<i64>
// CHECK-NEXT: %{{.*}} = stablehlo.dynamic_slice %y, %[[K]], sizes = [3] : (tensor<200xui8>, tensor<i64>) -> tensor<3xui8>
  %2 = bcast.dynamic_slice %y[%k], sizes = [3] : (tensor<200xui8>, tensor<i8>) -> tensor<3xui8>
// CHECK-NEXT: %{{.*}} = stablehlo.dynamic_update_slice %y, %w, %[[K]] : (tensor<200xui8>, tensor<3xui8>, tensor<i64>) -> tensor<200xui8>
  %3 = bcast.dynamic_update_slice %y[%k], %w : (tensor<200xui8>, tensor<i8>, tensor<3xui8>) -> tensor<200xui8>
  func.return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<8x9xf32>, tensor<3xui8>, tensor<200xui8>
}
