// RUN: bcast-opt %s -t stablehlo | filecheck %s

// -t stablehlo writes bcast.concatenate and bcast.pad as StableHLO's.
// tests/tools/test_from_jax.py has XLA run programs with both.

// CHECK-LABEL: func.func @main
func.func @main(%a: tensor<2x3xui8>, %b: tensor<1x3xui8>, %x: tensor<2x3xf16>, %v: tensor<f16>) -> (tensor<3x3xui8>, tensor<5x4xf16>) {
// CHECK-NEXT: %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<3x3xui8>
  %0 = bcast.concatenate %a, %b, dim = 0 : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<3x3xui8>
// CHECK-NEXT: %1 = stablehlo.pad %x, %v, low = [1, 0], high = [2, -1], interior = [0, 1] : (tensor<2x3xf16>, tensor<f16>) -> tensor<5x4xf16>
  %1 = bcast.pad %x, %v, low = [1, 0], high = [2, -1], interior = [0, 1] : (tensor<2x3xf16>, tensor<f16>) -> tensor<5x4xf16>
  func.return %0, %1 : tensor<3x3xui8>, tensor<5x4xf16>
}
