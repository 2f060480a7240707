// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast -t stablehlo | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// stablehlo.count_leading_zeros (jax.lax.clz; pretty form, as jaxlib prints
// it) becomes bcast.count_leading_zeros on every integer type, and -t
// stablehlo writes it back as the one op.

// CHECK-LABEL: func.func @clz
// BACK-LABEL: func.func @clz
func.func @clz(%a: tensor<2x2xi64>, %b: tensor<3xui8>) -> (tensor<2x2xi64>, tensor<3xui8>) {
// CHECK-NEXT: %0 = bcast.count_leading_zeros %a : tensor<2x2xi64>
// BACK-NEXT: %0 = stablehlo.count_leading_zeros %a : tensor<2x2xi64>
  %0 = stablehlo.count_leading_zeros %a : tensor<2x2xi64>
// CHECK-NEXT: %1 = bcast.count_leading_zeros %b : tensor<3xui8>
// BACK-NEXT: %1 = stablehlo.count_leading_zeros %b : tensor<3xui8>
  %1 = stablehlo.count_leading_zeros %b : tensor<3xui8>
  return %0, %1 : tensor<2x2xi64>, tensor<3xui8>
}

// -----

// CHECK-LABEL: func.func @generic
func.func @generic(%a: tensor<4xi32>) -> tensor<4xi32> {
// CHECK-NEXT: %0 = bcast.count_leading_zeros %a : tensor<4xi32>
  %0 = "stablehlo.count_leading_zeros"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
