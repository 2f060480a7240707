// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true}" | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - -p "convert-stablehlo-to-bcast{strict=true}" | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true}" -t stablehlo | filecheck %s --check-prefix=BACK

// The CHLO float functions jax.jit(...).lower(...).as_text() keeps (jnp.sinh,
// jnp.arcsin..., jax.lax.lgamma, digamma, jnp.nextafter), pretty and generic,
// import as bcast ops. The StableHLO target writes chlo.asin, acos, atan,
// asinh, acosh as they are (XLA's are within 3 ulps); sinh, cosh and atanh as
// compositions of exp/expm1/log1p in f64 (XLA's are hundreds of ulps off in
// f64), lgamma and digamma as their definitions (Lanczos' approximation) and
// next_after as bit arithmetic.

// CHECK-LABEL: func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<2xf64>)
// CHECK-NEXT:    %0 = bcast.sinh %x : tensor<4xf32>
// CHECK-NEXT:    %1 = bcast.cosh %x : tensor<4xf32>
// CHECK-NEXT:    %2 = bcast.asin %x : tensor<4xf32>
// CHECK-NEXT:    %3 = bcast.acos %x : tensor<4xf32>
// CHECK-NEXT:    %4 = bcast.atan %x : tensor<4xf32>
// CHECK-NEXT:    %5 = bcast.asinh %x : tensor<4xf32>
// CHECK-NEXT:    %6 = bcast.acosh %x : tensor<4xf32>
// CHECK-NEXT:    %7 = bcast.atanh %z : tensor<2xf64>
// CHECK-NEXT:    %8 = bcast.lgamma %x : tensor<4xf32>
// CHECK-NEXT:    %9 = bcast.digamma %z : tensor<2xf64>
// CHECK-NEXT:    %10 = bcast.next_after %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT:     chlo.
// GENERIC:       "chlo.sinh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC:       "chlo.next_after"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// BACK-LABEL:    func.func public @main
// BACK-NOT:      chlo.sinh
// BACK-NOT:      chlo.cosh
// BACK:          chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
// BACK-NEXT:     chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
// BACK-NEXT:     chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
// BACK-NEXT:     chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
// BACK-NEXT:     chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
// BACK:          stablehlo.log_plus_one
// BACK:          stablehlo.sine
// BACK:          stablehlo.cosine
// BACK:          stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
// BACK-NOT:      chlo.atanh
// BACK-NOT:      chlo.lgamma
// BACK-NOT:      chlo.digamma
// BACK-NOT:      chlo.next_after
func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<2xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf64>, tensor<4xf32>, tensor<2xf64>, tensor<4xf32>) {
  %0 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.cosh %x : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
  %5 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
  %6 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
  %7 = chlo.atanh %z : tensor<2xf64> -> tensor<2xf64>
  %8 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  %9 = chlo.digamma %z : tensor<2xf64> -> tensor<2xf64>
  %10 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf64>, tensor<4xf32>, tensor<2xf64>, tensor<4xf32>
}
