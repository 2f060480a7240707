// RUN: bcast-opt %s -t stablehlo | filecheck %s
// RUN: bcast-opt %s -t stablehlo | bcast-opt - -p convert-stablehlo-to-bcast | filecheck %s --check-prefix=BACK

// -t stablehlo writes bcast.erf as chlo.erf, as JAX does (XLA expands CHLO),
// on f16 too; bcast.erfc as its definition in StableHLO ops (XLA's chlo.erfc
// is hundreds of ulps off in the tail, docs/stablehlo.md): in f64, of
// polynomials and the exp of the exactly split square. The import reads
// chlo.erf back as bcast.erf.

// CHECK-LABEL: func.func @main(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<4xf16>) {
// CHECK-NEXT:    %0 = chlo.erf %x : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %1 = stablehlo.convert %0 : (tensor<2x3xf32>) -> tensor<2x3xf64>
// CHECK-NEXT:    %2 = stablehlo.abs %1 : tensor<2x3xf64>
// CHECK:         stablehlo.floor
// CHECK:         stablehlo.exponential
// CHECK:         %[[R:.*]] = stablehlo.convert %{{.*}} : (tensor<2x3xf64>) -> tensor<2x3xf32>
// CHECK:         %[[W:.*]] = stablehlo.convert %h : (tensor<4xf16>) -> tensor<4xf32>
// CHECK:         %[[S:.*]] = stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:    func.return %[[R]], %[[S]] : tensor<2x3xf32>, tensor<4xf16>
// CHECK-NOT:     chlo.erfc
// BACK:          %0 = bcast.erf %x : tensor<2x3xf32>
// BACK-NOT:      bcast.erfc
func.func @main(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<4xf16>) {
  %0 = bcast.erf %x : tensor<2x3xf32>
  %1 = bcast.erfc %0 : tensor<2x3xf32>
  %2 = bcast.erfc %h : tensor<4xf16>
  func.return %1, %2 : tensor<2x3xf32>, tensor<4xf16>
}
