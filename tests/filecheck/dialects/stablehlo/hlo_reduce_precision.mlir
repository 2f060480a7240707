// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// stablehlo.reduce_precision in its pretty form (as jaxlib prints
// jax.lax.reduce_precision), read by bcast's own parser, and in both generic
// spellings (properties, and the attribute dictionary of StableHLO's tests).

// CHECK-LABEL: func.func @formats
func.func @formats(%x: tensor<4xf32>, %h: tensor<2x3xbf16>) -> (tensor<4xf32>, tensor<4xf32>, tensor<2x3xbf16>) {
  // CHECK-NEXT: %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  // GENERIC: "stablehlo.reduce_precision"(%{{.*}}) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  // CHECK-NEXT: %1 = stablehlo.reduce_precision %0, format = e2m0 : tensor<4xf32>
  %1 = "stablehlo.reduce_precision"(%0) {exponent_bits = 2 : i32, mantissa_bits = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %2 = stablehlo.reduce_precision %h, format = e4m3 : tensor<2x3xbf16>
  %2 = stablehlo.reduce_precision %h, format = e4m3 : (tensor<2x3xbf16>) -> tensor<2x3xbf16>
  func.return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<2x3xbf16>
}
