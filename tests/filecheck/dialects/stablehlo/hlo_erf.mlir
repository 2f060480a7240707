// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// chlo.erf and chlo.erfc as JAX prints them (jax.scipy.special.erf/erfc,
// jax.nn.gelu(approximate=False)): `OP %x : T -> T`.

// CHECK-LABEL: func.func public @main
// CHECK-NEXT:    %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    %1 = chlo.erfc %y : tensor<2x3xf16> -> tensor<2x3xf16>
// GENERIC:       %0 = "chlo.erf"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT:  %1 = "chlo.erfc"(%y) : (tensor<2x3xf16>) -> tensor<2x3xf16>
func.func public @main(%x: tensor<4xf32>, %y: tensor<2x3xf16>) -> (tensor<4xf32>, tensor<2x3xf16>) {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erfc %y : tensor<2x3xf16> -> tensor<2x3xf16>
  return %0, %1 : tensor<4xf32>, tensor<2x3xf16>
}
