// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT

// The float functions of CHLO that StableHLO lacks (docs/semantics.md,
// "Floating point"): the hyperbolic and inverse trigonometric functions,
// lgamma, digamma (unary) and next_after (binary, broadcasting as the
// other binary ops), under every semantics.

// CHECK-LABEL: func.func @unary
// CHECK-NEXT:    %0 = bcast.sinh %x : tensor<2x3xf32>
// CHECK-NEXT:    %1 = bcast.cosh %0 : tensor<2x3xf32>
// CHECK-NEXT:    %2 = bcast.asin %1 : tensor<2x3xf32>
// CHECK-NEXT:    %3 = bcast.acos %2 : tensor<2x3xf32>
// CHECK-NEXT:    %4 = bcast.atan %3 : tensor<2x3xf32>
// CHECK-NEXT:    %5 = bcast.asinh %4 : tensor<2x3xf32>
// CHECK-NEXT:    %6 = bcast.acosh %5 : tensor<2x3xf32>
// CHECK-NEXT:    %7 = bcast.atanh %6 : tensor<2x3xf32>
// CHECK-NEXT:    %8 = bcast.lgamma %7 : tensor<2x3xf32>
// CHECK-NEXT:    %9 = bcast.digamma %8 : tensor<2x3xf32>
// GENERIC:       %0 = "bcast.sinh"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC:       %8 = "bcast.lgamma"(%7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC-NEXT:  %9 = "bcast.digamma"(%8) : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = bcast.sinh %x : tensor<2x3xf32>
  %1 = bcast.cosh %0 : tensor<2x3xf32>
  %2 = bcast.asin %1 : tensor<2x3xf32>
  %3 = bcast.acos %2 : tensor<2x3xf32>
  %4 = bcast.atan %3 : tensor<2x3xf32>
  %5 = bcast.asinh %4 : tensor<2x3xf32>
  %6 = bcast.acosh %5 : tensor<2x3xf32>
  %7 = bcast.atanh %6 : tensor<2x3xf32>
  %8 = bcast.lgamma %7 : tensor<2x3xf32>
  %9 = bcast.digamma %8 : tensor<2x3xf32>
  func.return %9 : tensor<2x3xf32>
}

// -----

// next_after broadcasts (numpy semantics here); make-explicit writes the broadcast.
// CHECK-LABEL: func.func @next_after
// CHECK-NEXT:    %0 = bcast.next_after %x, %y : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
// GENERIC:       %0 = "bcast.next_after"(%x, %y) : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
// EXPLICIT-LABEL: func.func @next_after
// EXPLICIT-NEXT:    %0 = bcast.broadcast_in_dim %y, dims = [1] : (tensor<3xf64>) -> tensor<2x3xf64>
// EXPLICIT-NEXT:    %1 = bcast.next_after %x, %0 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
func.func @next_after(%x: tensor<2x3xf64>, %y: tensor<3xf64>) -> tensor<2x3xf64> {
  %0 = bcast.next_after %x, %y : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  func.return %0 : tensor<2x3xf64>
}

// -----

// CHECK-LABEL: func.func @xla
// CHECK-NEXT:    %0 = bcast.lgamma %x : tensor<4xf64>
// CHECK-NEXT:    %1 = bcast.atanh %y : tensor<f16>
// CHECK-NEXT:    %2 = bcast.next_after %v, %x broadcast_dimensions = [0] : (tensor<4x2xf64>, tensor<4xf64>) -> tensor<4x2xf64>
func.func @xla(%x: tensor<4xf64>, %y: tensor<f16>, %v: tensor<4x2xf64>) -> (tensor<4xf64>, tensor<f16>, tensor<4x2xf64>) attributes {bcast.semantics = "xla"} {
  %0 = bcast.lgamma %x : tensor<4xf64>
  %1 = bcast.atanh %y : tensor<f16>
  %2 = bcast.next_after %v, %x broadcast_dimensions = [0] : (tensor<4x2xf64>, tensor<4xf64>) -> tensor<4x2xf64>
  func.return %0, %1, %2 : tensor<4xf64>, tensor<f16>, tensor<4x2xf64>
}

// -----

// Under TML an elementwise op maps over a nested type's elements.
// CHECK-LABEL: func.func @tml
// CHECK-NEXT:    %0 = bcast.digamma %x : tensor<3xtensor<2xf16>>
// EXPLICIT-LABEL: func.func @tml
// EXPLICIT-NEXT:    bcast.digamma %x : tensor<3xtensor<2xf16>>
func.func @tml(%x: tensor<3xtensor<2xf16>>) -> tensor<3xtensor<2xf16>> attributes {bcast.semantics = "tml"} {
  %0 = bcast.digamma %x : tensor<3xtensor<2xf16>>
  func.return %0 : tensor<3xtensor<2xf16>>
}
