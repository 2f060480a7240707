// RUN: bcast-opt %s -p convert-stablehlo-to-bcast -t stablehlo --split-input-file | filecheck %s

// Constants of float types NumPy lacks are written back by xDSL's printer,
// with their values: bf16's bytes are not an f16's (before: bf16 [1.5, -2.25]
// came out as [1.9375, -2.03125], and f8/f6 types crashed the printer).

// CHECK-LABEL: func.func @bf16_constant
// CHECK: stablehlo.constant dense<[1.500000e+00, -2.250000e+00]> : tensor<2xbf16>
func.func @bf16_constant() -> tensor<2xbf16> {
  %0 = stablehlo.constant dense<[1.5, -2.25]> : tensor<2xbf16>
  func.return %0 : tensor<2xbf16>
}

// -----

// CHECK-LABEL: func.func @small_float_constants
// CHECK: stablehlo.constant dense<[5.000000e-01, -1.000000e+00, 2.000000e+00]> : tensor<3xf8E4M3FN>
// CHECK: stablehlo.constant dense<[1.000000e+00, -3.000000e+00]> : tensor<2xf6E2M3FN>
func.func @small_float_constants() -> (tensor<3xf8E4M3FN>, tensor<2xf6E2M3FN>) {
  %0 = stablehlo.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf8E4M3FN>
  %1 = stablehlo.constant dense<[1.0, -3.0]> : tensor<2xf6E2M3FN>
  func.return %0, %1 : tensor<3xf8E4M3FN>, tensor<2xf6E2M3FN>
}
