// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit -t stablehlo | filecheck %s --check-prefix=HLO

// bf16 is an element type of bcast's as f16 is (docs/semantics.md, "bf16"):
// a float kind, promoted with f32 and f64 as the Array API promotes floats,
// and with f16 to f32 (neither holds the other, as in JAX). Reductions sum
// it in f32 and round once; the StableHLO export says so.

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    %0 = bcast.add %a, %b : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %1 = bcast.exponential %0 : tensor<2x3xbf16>
// CHECK-NEXT:    %2 = bcast.compare GT, %1, %b : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xi1>
// EXPLICIT-LABEL: func.func @elementwise
// EXPLICIT:        bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xbf16>) -> tensor<2x3xbf16>
func.func @elementwise(%a: tensor<2x3xbf16>, %b: tensor<3xbf16>) -> tensor<2x3xi1> {
  %0 = bcast.add %a, %b : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
  %1 = bcast.exponential %0 : tensor<2x3xbf16>
  %2 = bcast.compare GT, %1, %b : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xi1>
  func.return %2 : tensor<2x3xi1>
}

// -----

// Promotion: bf16 with f32 is f32, with f16 is f32.
// CHECK-LABEL: func.func @promotion
// CHECK-NEXT:    %0 = bcast.add %h, %w : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = bcast.multiply %h, %f : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xf32>
// EXPLICIT-LABEL: func.func @promotion
// EXPLICIT:        bcast.convert %h : (tensor<4xbf16>) -> tensor<4xf32>
// EXPLICIT:        bcast.convert %f : (tensor<4xf16>) -> tensor<4xf32>
func.func @promotion(%h: tensor<4xbf16>, %w: tensor<4xf32>, %f: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = bcast.add %h, %w : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xf32>
  %1 = bcast.multiply %h, %f : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// StableHLO's bf16 (a hex literal is a bf16 bit pattern) imports as bcast's.
// A sum of bf16 is written back to StableHLO in f32, rounded once.
// CHECK-LABEL: func.func @from_stablehlo
// EXPLICIT-LABEL: func.func @from_stablehlo
// EXPLICIT:        bcast.constant dense<[1.000000e+00, 3.000000e+00, 1.007810e+00]> : tensor<3xbf16>
// EXPLICIT:        bcast.reduce add
// HLO-LABEL: func.func @from_stablehlo
// HLO:         stablehlo.convert %{{.*}} : (tensor<3xbf16>) -> tensor<3xf32>
// HLO:         stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
// HLO:         stablehlo.convert %{{.*}} : (tensor<f32>) -> tensor<bf16>
func.func @from_stablehlo(%x: tensor<3xbf16>) -> tensor<bf16> {
  %c = stablehlo.constant dense<[1.0, 0x4040, 0x3F81]> : tensor<3xbf16>
  %0 = stablehlo.add %x, %c : tensor<3xbf16>
  %z = stablehlo.constant dense<0.0> : tensor<bf16>
  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xbf16>, tensor<bf16>) -> tensor<bf16>
  func.return %1 : tensor<bf16>
}
