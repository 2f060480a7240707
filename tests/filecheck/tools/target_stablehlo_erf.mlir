// RUN: bcast-opt %s -t stablehlo | filecheck %s
// RUN: bcast-opt %s -t stablehlo | bcast-opt - -p convert-stablehlo-to-bcast | filecheck %s --check-prefix=BACK

// -t stablehlo writes bcast.erf/bcast.erfc as chlo.erf/chlo.erfc, as JAX
// does (XLA expands CHLO; its accuracy is docs/stablehlo.md's), on f16 too;
// the import reads them back.

// CHECK-LABEL: func.func @main(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<4xf16>) {
// CHECK-NEXT:    %0 = chlo.erf %x : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %1 = chlo.erfc %0 : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %2 = chlo.erfc %h : tensor<4xf16> -> tensor<4xf16>
// CHECK-NEXT:    func.return %1, %2 : tensor<2x3xf32>, tensor<4xf16>
// BACK:          %0 = bcast.erf %x : tensor<2x3xf32>
// BACK-NEXT:     %1 = bcast.erfc %0 : tensor<2x3xf32>
// BACK-NEXT:     %2 = bcast.erfc %h : tensor<4xf16>
func.func @main(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<4xf16>) {
  %0 = bcast.erf %x : tensor<2x3xf32>
  %1 = bcast.erfc %0 : tensor<2x3xf32>
  %2 = bcast.erfc %h : tensor<4xf16>
  func.return %1, %2 : tensor<2x3xf32>, tensor<4xf16>
}
