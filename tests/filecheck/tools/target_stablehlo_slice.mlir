// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.slice as StableHLO's slice, ranges unchanged.
// tests/lowering/test_slice.py has XLA run exported slices.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<8x9xf32>, %b: tensor<5xi1>) -> (tensor<3x4xf32>, tensor<2xi1>) {
// CHECK-NEXT: %0 = stablehlo.slice %x [2:8:2, 1:5] : (tensor<8x9xf32>) -> tensor<3x4xf32>
  %0 = bcast.slice %x [2:8:2, 1:5] : (tensor<8x9xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %1 = stablehlo.slice %b [1:5:3] : (tensor<5xi1>) -> tensor<2xi1>
  %1 = bcast.slice %b [1:5:3] : (tensor<5xi1>) -> tensor<2xi1>
  func.return %0, %1 : tensor<3x4xf32>, tensor<2xi1>
}
