// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true}" | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true}" -t stablehlo | filecheck %s --check-prefix=BACK

// chlo.erf_inv (jax.random.normal maps uniform bits through it) imports as
// bcast.erf_inv; the StableHLO target writes its definition in StableHLO ops
// (log_plus_one, the two polynomials, select), so XLA computes what bcast does.

// CHECK-LABEL: func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = bcast.erf_inv %x : tensor<4xf32>
// CHECK-NEXT:    func.return %0
// BACK-LABEL:    func.func public @main
// BACK:          stablehlo.log_plus_one
// BACK:          stablehlo.sqrt
// BACK:          stablehlo.select
// BACK-NOT:      chlo.erf_inv
func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
