// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// JAX's lax.dynamic_slice (pretty form, its negative-start wrap before it),
// dynamic_slice_in_dim with uint32 starts and lax.dynamic_update_slice
// (generic form) become the bcast ops with the same start indices and sizes.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<i32>, %arg2: tensor<ui32>, %arg3: tensor<2x2xf32>) -> (tensor<2x3xf32>, tensor<8x3xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c_0 = stablehlo.constant dense<8> : tensor<i32>
  %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
  %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>
// CHECK:      %[[S:.*]] = bcast.select
// CHECK-NEXT: %{{.*}} = bcast.dynamic_slice %arg0[%[[S]], %arg1], sizes = [2, 3] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %3 = stablehlo.dynamic_slice %arg0, %2, %arg1, sizes = [2, 3] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[Z:.*]] = bcast.constant dense<0> : tensor<ui32>
// CHECK-NEXT: %{{.*}} = bcast.dynamic_slice %arg0[%[[Z]], %arg2], sizes = [8, 3] : (tensor<8x16xf32>, tensor<ui32>, tensor<ui32>) -> tensor<8x3xf32>
  %c_1 = stablehlo.constant dense<0> : tensor<ui32>
  %4 = stablehlo.dynamic_slice %arg0, %c_1, %arg2, sizes = [8, 3] : (tensor<8x16xf32>, tensor<ui32>, tensor<ui32>) -> tensor<8x3xf32>
// CHECK-NEXT: %{{.*}} = bcast.dynamic_update_slice %arg0[%arg2, %arg2], %arg3 : (tensor<8x16xf32>, tensor<ui32>, tensor<ui32>, tensor<2x2xf32>) -> tensor<8x16xf32>
  %5 = "stablehlo.dynamic_update_slice"(%arg0, %arg3, %arg2, %arg2) : (tensor<8x16xf32>, tensor<2x2xf32>, tensor<ui32>, tensor<ui32>) -> tensor<8x16xf32>
  return %3, %4, %5 : tensor<2x3xf32>, tensor<8x3xf32>, tensor<8x16xf32>
}
