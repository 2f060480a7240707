// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.compare DIR, %a, %b, TOTALORDER: IEEE totalOrder on floats, written
// after the operands as StableHLO writes its compare type; with
// broadcasting and broadcast_dimensions as any compare.

// CHECK-LABEL: func.func @total_order
func.func @total_order(%a: tensor<4xf32>, %b: tensor<3x4xf32>, %h: tensor<2xf16>, %d: tensor<f64>) -> (tensor<3x4xi1>, tensor<3x4xi1>, tensor<2xi1>, tensor<3x4xi1>) {
// CHECK-NEXT: %0 = bcast.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// GENERIC: "bcast.compare"(%a, %b) <{comparison_direction = #bcast<comparison_direction LT>, total_order}> : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %0 = bcast.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT: %1 = bcast.compare EQ, %a, %b, TOTALORDER broadcast_dimensions = [1] : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %1 = bcast.compare EQ, %a, %b, TOTALORDER broadcast_dimensions = [1] : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT: %2 = bcast.compare GE, %h, %d, TOTALORDER : (tensor<2xf16>, tensor<f64>) -> tensor<2xi1>
  %2 = bcast.compare GE, %h, %d, TOTALORDER : (tensor<2xf16>, tensor<f64>) -> tensor<2xi1>
// Without it, the IEEE comparison (no compare type printed).
// CHECK-NEXT: %3 = bcast.compare LT, %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// GENERIC: "bcast.compare"(%a, %b) <{comparison_direction = #bcast<comparison_direction LT>}> : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %3 = bcast.compare LT, %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  func.return %0, %1, %2, %3 : tensor<3x4xi1>, tensor<3x4xi1>, tensor<2xi1>, tensor<3x4xi1>
}
