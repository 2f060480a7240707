// RUN: bcast-opt %s -p 'convert-stablehlo-to-bcast{strict=true}' | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// compare type TOTALORDER (what JAX's sort comparators and lax's lt_to
// write), pretty and generic, and on chlo.broadcast_compare, becomes
// bcast.compare ..., TOTALORDER; FLOAT stays the plain compare.

// CHECK-LABEL: func.func public @main
func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %h: tensor<3x4xf16>, %r: tensor<4xf16>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<3x4xi1>) {
// CHECK-NEXT: %0 = bcast.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %1 = bcast.compare EQ, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %2 = bcast.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %[[B:.*]] = bcast.broadcast_in_dim %r, dims = [1] : (tensor<4xf16>) -> tensor<3x4xf16>
// CHECK-NEXT: %{{.*}} = bcast.compare GE, %h, %[[B]], TOTALORDER : (tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<3x4xi1>
  %3 = chlo.broadcast_compare %h, %r {compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction GE>} : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3x4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<3x4xi1>
}
