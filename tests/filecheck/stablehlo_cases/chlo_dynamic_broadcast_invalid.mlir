// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The invalid broadcast_dimensions cases of StableHLO's
// stablehlo/tests/chlo/chlo_legalize_to_stablehlo_broadcast.mlir as bcast
// programs (xla semantics). Upstream's legalization fails on them ("failed to
// legalize operation"); bcast's verifier refuses them, located at the op, and
// says why.

// Two broadcast_dimensions for a rank-1 operand.
module attributes {bcast.semantics = "xla"} {
  func.func @dynamic_non_scalar_broadcast_dimensions_size_mismatch(%a: tensor<1x4xf32>, %b: tensor<4xf32>) {
    // expected-error @+2 {{'bcast.add' op broadcast_dimensions has 2 entries but the lower-rank operand has rank 1}}
    // expected-note @+1 {{broadcast_dimensions needs one entry per dimension of the lower-rank operand}}
    %r = bcast.add %a, %b broadcast_dimensions = [1, 2] : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    func.return
  }
}

// -----

// A broadcast dimension beyond the higher-rank operand's rank.
module attributes {bcast.semantics = "xla"} {
  func.func @dynamic_non_scalar_broadcast_dimensions_mismatch(%a: tensor<1x4xf32>, %b: tensor<4xf32>) {
    // expected-error @+1 {{'bcast.add' op broadcast_dimensions entry 0 (2) is out of range for the higher-rank operand of rank 2}}
    %r = bcast.add %a, %b broadcast_dimensions = [2] : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    func.return
  }
}
