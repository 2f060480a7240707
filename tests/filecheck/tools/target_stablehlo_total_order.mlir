// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes compare TOTALORDER as StableHLO's compare with that
// compare type (XLA runs it: tests/lowering/test_total_order.py).

// CHECK-LABEL: func.func @main
func.func @main(%a: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<4xi1>, tensor<4xi1>) {
// CHECK-NEXT: %0 = stablehlo.compare NE, %a, %b, TOTALORDER : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  %0 = bcast.compare NE, %a, %b, TOTALORDER : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
// CHECK-NEXT: %1 = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  %1 = bcast.compare NE, %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  func.return %0, %1 : tensor<4xi1>, tensor<4xi1>
}
