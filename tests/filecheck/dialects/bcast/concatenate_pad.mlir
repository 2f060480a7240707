// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.concatenate and bcast.pad: StableHLO's syntax.

// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>, %c: tensor<2x0xf32>, %d: tensor<5xi1>) -> (tensor<2x7xf32>, tensor<5xi1>) {
// CHECK-NEXT: %0 = bcast.concatenate %a, %b, %c, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x0xf32>) -> tensor<2x7xf32>
// GENERIC: "bcast.concatenate"(%a, %b, %c) <{dimension = 1 : i64}> : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x0xf32>) -> tensor<2x7xf32>
  %0 = bcast.concatenate %a, %b, %c, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x0xf32>) -> tensor<2x7xf32>
// CHECK-NEXT: %1 = bcast.concatenate %d, dim = 0 : (tensor<5xi1>) -> tensor<5xi1>
  %1 = bcast.concatenate %d, dim = 0 : (tensor<5xi1>) -> tensor<5xi1>
  func.return %0, %1 : tensor<2x7xf32>, tensor<5xi1>
}

// -----

// Negative edges crop; interior padding goes between neighbours.
// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %v: tensor<f32>, %s: tensor<ui8>, %u: tensor<ui8>) -> (tensor<3x4xf32>, tensor<ui8>) {
// CHECK-NEXT: %0 = bcast.pad %x, %v, low = [1, 0], high = [-1, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
// GENERIC: "bcast.pad"(%x, %v) <{edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: -1, 1>, interior_padding = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
  %0 = bcast.pad %x, %v, low = [1, 0], high = [-1, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: %1 = bcast.pad %s, %u, low = [], high = [], interior = [] : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
  %1 = bcast.pad %s, %u, low = [], high = [], interior = [] : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
  func.return %0, %1 : tensor<3x4xf32>, tensor<ui8>
}
