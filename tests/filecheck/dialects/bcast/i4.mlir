// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,canonicalize | filecheck %s --check-prefix=FOLD
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit -t stablehlo | filecheck %s --check-prefix=HLO

// i4 and ui4 are integer element types of bcast's (docs/semantics.md, "i4
// and ui4"): two's complement 4-bit integers (-8..7, 0..15), every op
// wrapping modulo 16, promoted with the wider integers as the Array API
// promotes integers (ui4 with i4 is i8).

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    %0 = bcast.add %a, %b : (tensor<2x3xi4>, tensor<3xi4>) -> tensor<2x3xi4>
// CHECK-NEXT:    %1 = bcast.shift_right_logical %0, %b : (tensor<2x3xi4>, tensor<3xi4>) -> tensor<2x3xi4>
// CHECK-NEXT:    %2 = bcast.popcnt %u : tensor<3xui4>
// CHECK-NEXT:    %3 = bcast.compare LT, %1, %b : (tensor<2x3xi4>, tensor<3xi4>) -> tensor<2x3xi1>
// EXPLICIT-LABEL: func.func @elementwise
// EXPLICIT:        bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xi4>) -> tensor<2x3xi4>
func.func @elementwise(%a: tensor<2x3xi4>, %b: tensor<3xi4>, %u: tensor<3xui4>) -> (tensor<2x3xi1>, tensor<3xui4>) {
  %0 = bcast.add %a, %b : (tensor<2x3xi4>, tensor<3xi4>) -> tensor<2x3xi4>
  %1 = bcast.shift_right_logical %0, %b : (tensor<2x3xi4>, tensor<3xi4>) -> tensor<2x3xi4>
  %2 = bcast.popcnt %u : tensor<3xui4>
  %3 = bcast.compare LT, %1, %b : (tensor<2x3xi4>, tensor<3xi4>) -> tensor<2x3xi1>
  func.return %3, %2 : tensor<2x3xi1>, tensor<3xui4>
}

// -----

// Promotion: i4 with i8 is i8, ui4 with i4 is i8 (the signed type that
// holds both), ui4 with ui8 is ui8.
// CHECK-LABEL: func.func @promotion
// CHECK-NEXT:    %0 = bcast.add %s, %w : (tensor<4xi4>, tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT:    %1 = bcast.multiply %s, %u : (tensor<4xi4>, tensor<4xui4>) -> tensor<4xi8>
// CHECK-NEXT:    %2 = bcast.maximum %u, %v : (tensor<4xui4>, tensor<4xui8>) -> tensor<4xui8>
// EXPLICIT-LABEL: func.func @promotion
// EXPLICIT:        bcast.convert %s : (tensor<4xi4>) -> tensor<4xi8>
// EXPLICIT:        bcast.convert %u : (tensor<4xui4>) -> tensor<4xi8>
// EXPLICIT:        bcast.convert %u : (tensor<4xui4>) -> tensor<4xui8>
func.func @promotion(%s: tensor<4xi4>, %w: tensor<4xi8>, %u: tensor<4xui4>, %v: tensor<4xui8>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xui8>) {
  %0 = bcast.add %s, %w : (tensor<4xi4>, tensor<4xi8>) -> tensor<4xi8>
  %1 = bcast.multiply %s, %u : (tensor<4xi4>, tensor<4xui4>) -> tensor<4xi8>
  %2 = bcast.maximum %u, %v : (tensor<4xui4>, tensor<4xui8>) -> tensor<4xui8>
  func.return %0, %1, %2 : tensor<4xi8>, tensor<4xi8>, tensor<4xui8>
}

// -----

// Constants: a signless i4 literal from 8 to 15 is the negative value of
// its bits (MLIR's rule), printed as such; folding wraps modulo 16.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %a = bcast.constant dense<[7, -8, -1]> : tensor<3xi4>
// CHECK-NEXT:    %u = bcast.constant dense<[15, 8, 0]> : tensor<3xui4>
// FOLD-LABEL: func.func @constants
// FOLD-NEXT:    %0 = bcast.constant dense<[-8, -7, 0]> : tensor<3xi4>
// FOLD-NEXT:    %1 = bcast.constant dense<[1, 8, 0]> : tensor<3xui4>
// FOLD-NEXT:    %2 = bcast.constant dense<[-7, -8, 1]> : tensor<3xi4>
// FOLD-NEXT:    func.return %0, %1, %2
func.func @constants() -> (tensor<3xi4>, tensor<3xui4>, tensor<3xi4>) {
  %a = bcast.constant dense<[7, 8, 15]> : tensor<3xi4>
  %u = bcast.constant dense<[15, 8, 0]> : tensor<3xui4>
  %one = bcast.constant dense<1> : tensor<3xi4>
  %0 = bcast.add %a, %one : (tensor<3xi4>, tensor<3xi4>) -> tensor<3xi4>
  %1 = bcast.negate %u : tensor<3xui4>
  %2 = bcast.negate %a : tensor<3xi4>
  func.return %0, %1, %2 : tensor<3xi4>, tensor<3xui4>, tensor<3xi4>
}

// -----

// StableHLO's i4/ui4 import as bcast's and are written back as they came;
// a sum of i4 stays in i4 (it wraps), and ui4 -> i4 is a convert.
// CHECK-LABEL: func.func @from_stablehlo
// EXPLICIT-LABEL: func.func @from_stablehlo
// EXPLICIT:        bcast.constant dense<[-8, 7, 1, -1]> : tensor<4xi4>
// EXPLICIT:        bcast.multiply %x, %{{.*}} : (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi4>
// EXPLICIT:        bcast.convert %u : (tensor<4xui4>) -> tensor<4xi4>
// EXPLICIT:        bcast.reduce add %{{.*}}, dims = [0] : (tensor<4xi4>) -> tensor<i4>
// HLO-LABEL: func.func @from_stablehlo
// HLO:         stablehlo.constant dense<[-8, 7, 1, -1]> : tensor<4xi4>
// HLO:         stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xi4>
// HLO:         stablehlo.convert %{{.*}} : (tensor<4xui4>) -> tensor<4xi4>
// HLO:         stablehlo.reduce({{.*}}) applies stablehlo.add across dimensions = [0] : (tensor<4xi4>, tensor<i4>) -> tensor<i4>
func.func @from_stablehlo(%x: tensor<4xi4>, %u: tensor<4xui4>) -> tensor<i4> {
  %c = stablehlo.constant dense<[-8, 7, 1, -1]> : tensor<4xi4>
  %0 = stablehlo.multiply %x, %c : tensor<4xi4>
  %1 = stablehlo.convert %u : (tensor<4xui4>) -> tensor<4xi4>
  %2 = stablehlo.add %0, %1 : tensor<4xi4>
  %z = stablehlo.constant dense<0> : tensor<i4>
  %3 = stablehlo.reduce(%2 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xi4>, tensor<i4>) -> tensor<i4>
  func.return %3 : tensor<i4>
}
