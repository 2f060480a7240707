// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT

// bcast.erf and bcast.erfc: float unary functions (docs/semantics.md,
// "Floating point"), under every semantics.

// CHECK-LABEL: func.func @numpy
// CHECK-NEXT:    %0 = bcast.erf %x : tensor<2x3xf32>
// CHECK-NEXT:    %1 = bcast.erfc %0 : tensor<2x3xf32>
// GENERIC:       %0 = "bcast.erf"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC-NEXT:  %1 = "bcast.erfc"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @numpy(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = bcast.erf %x : tensor<2x3xf32>
  %1 = bcast.erfc %0 : tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @xla
// CHECK-NEXT:    %0 = bcast.erfc %x : tensor<4xf64>
// CHECK-NEXT:    %1 = bcast.erf %y : tensor<f16>
func.func @xla(%x: tensor<4xf64>, %y: tensor<f16>) -> (tensor<4xf64>, tensor<f16>) attributes {bcast.semantics = "xla"} {
  %0 = bcast.erfc %x : tensor<4xf64>
  %1 = bcast.erf %y : tensor<f16>
  func.return %0, %1 : tensor<4xf64>, tensor<f16>
}

// -----

// Under TML an elementwise op maps over a nested type's elements.
// CHECK-LABEL: func.func @tml
// CHECK-NEXT:    %0 = bcast.erf %x : tensor<3xtensor<2xf32>>
// EXPLICIT-LABEL: func.func @tml
// EXPLICIT-NEXT:    bcast.erf %x : tensor<3xtensor<2xf32>>
func.func @tml(%x: tensor<3xtensor<2xf32>>) -> tensor<3xtensor<2xf32>> attributes {bcast.semantics = "tml"} {
  %0 = bcast.erf %x : tensor<3xtensor<2xf32>>
  func.return %0 : tensor<3xtensor<2xf32>>
}

// -----

// bcast.erf_inv, the inverse of erf (chlo.erf_inv), a float unary function too.
// CHECK-LABEL: func.func @erf_inv
// CHECK-NEXT:    %0 = bcast.erf_inv %x : tensor<4xf32>
// GENERIC:       "bcast.erf_inv"(%x) : (tensor<4xf32>) -> tensor<4xf32>
func.func @erf_inv(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = bcast.erf_inv %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
