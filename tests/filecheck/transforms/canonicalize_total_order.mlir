// RUN: bcast-opt %s -p canonicalize | filecheck %s

// canonicalize folds compare TOTALORDER of constants by its definition:
// -0.0 < +0.0 and NaN == NaN of the same bits (the IEEE compare says the
// opposite of both).

// CHECK-LABEL: func.func @fold
// CHECK-NEXT: %0 = bcast.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-NEXT: %1 = bcast.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-NEXT: %2 = bcast.constant dense<false> : tensor<3xi1>
// CHECK-NEXT: func.return %0, %1, %2
func.func @fold() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %a = bcast.constant dense<[-0.0, 0x7FC00000, 0xFFC00000]> : tensor<3xf32>
  %b = bcast.constant dense<[0.0, 0x7FC00000, 0xFF800000]> : tensor<3xf32>
  %0 = bcast.compare LT, %a, %b, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %1 = bcast.compare EQ, %a, %b, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %2 = bcast.compare LT, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return %0, %1, %2 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}
