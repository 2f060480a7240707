// Ops bcast does not know (docs/contracts.md, "Ops bcast does not know"): a
// StableHLO dot_general and an op of another dialect, in generic form, among
// broadcasts. bcast-opt with no pipeline prints the module back; every
// rewriting pass keeps them with their operands and results, treats their
// results as opaque values and never fuses them; -t stablehlo writes them
// back; a backend that must run them refuses them, located.
// RUN: bcast-opt %s | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s | bcast-opt - | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse | filecheck %s --check-prefix=STD
// RUN: bcast-opt %s -t stablehlo | filecheck %s --check-prefix=HLO
// RUN: not bcast-opt %s -t c 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s -t numpy 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s -t c -p bcast-make-explicit 2>&1 | filecheck %s --check-prefix=C

// BACK:      func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
// BACK-NEXT:   %m = "stablehlo.dot_general"(%x, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %b1 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
// BACK-NEXT:   %b2 = bcast.broadcast_in_dim %b1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %s = bcast.add %m, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
// BACK-NEXT:   %r = bcast.multiply %a, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %t = bcast.add %r, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   func.return %t : tensor<4x5xf32>

// The two-step broadcast is one, the implicit one explicit, both merged (cse);
// the fusions stop at the unknown ops, whose results enter them as inputs.
// STD:      func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
// STD-NEXT:   %m = "stablehlo.dot_general"(%x, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:   %s = bcast.fusion %m, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32> {
// STD-NEXT:   ^bb0(%m_1: tensor<4x5xf32>, %b_1: tensor<5xf32>):
// STD-NEXT:     %b2 = bcast.broadcast_in_dim %b_1, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     %s_1 = bcast.add %m_1, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     bcast.yield %s_1 : tensor<4x5xf32>
// STD-NEXT:   }
// STD-NEXT:   %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
// STD-NEXT:   %t = bcast.fusion %a, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32> {
// STD-NEXT:   ^bb0(%a_1: tensor<4x5xf32>, %b_2: tensor<5xf32>):
// STD-NEXT:     %{{.*}} = bcast.broadcast_in_dim %b_2, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     %r = bcast.multiply %a_1, %{{.*}} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     %t_1 = bcast.add %r, %{{.*}} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     bcast.yield %t_1 : tensor<4x5xf32>
// STD-NEXT:   }
// STD-NEXT:   func.return %t : tensor<4x5xf32>

// HLO:      func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
// HLO-NEXT:   %m = "stablehlo.dot_general"(%x, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// HLO-NEXT:   %b2 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// HLO-NEXT:   %s = stablehlo.add %m, %b2 : tensor<4x5xf32>
// HLO-NEXT:   %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
// HLO-NEXT:   %r = stablehlo.multiply %a, %b2 : tensor<4x5xf32>
// HLO-NEXT:   %t = stablehlo.add %r, %b2 : tensor<4x5xf32>
// HLO-NEXT:   func.return %t : tensor<4x5xf32>

// The strict import of a program to run reports the StableHLO op first;
// C: open_world.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.dot_general' op is not supported by convert-stablehlo-to-bcast
func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
  %m = "stablehlo.dot_general"(%x, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %b1 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
  %b2 = bcast.broadcast_in_dim %b1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
  %s = bcast.add %m, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
  %r = bcast.multiply %a, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %t = bcast.add %r, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %t : tensor<4x5xf32>
}
