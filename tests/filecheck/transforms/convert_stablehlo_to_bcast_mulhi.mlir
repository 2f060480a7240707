// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s --check-prefix=CHLO

// chlo.mulhi (generic form, as StableHLO's tests write it: two operands and
// a result of one integer type) becomes bcast.mulhi, which takes every
// integer type and broadcasts as the other binary ops do.

// CHECK-LABEL: func.func @mulhi
// CHLO-LABEL: func.func @mulhi
func.func @mulhi(%a: tensor<3xi8>, %b: tensor<3xi8>, %c: tensor<2xui64>, %d: tensor<2xui64>) -> (tensor<3xi8>, tensor<2xui64>) {
// CHECK-NEXT: %0 = bcast.mulhi %a, %b : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
// CHLO-NEXT: %0 = "chlo.mulhi"(%a, %b) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %0 = "chlo.mulhi"(%a, %b) : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
// CHECK-NEXT: %1 = bcast.mulhi %c, %d : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  %1 = "chlo.mulhi"(%c, %d) : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
  return %0, %1 : tensor<3xi8>, tensor<2xui64>
}
