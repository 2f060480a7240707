// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// xDSL's parser resolves a use before the definition once the value is
// defined later in the function, and checks no dominance; the backends then
// failed with an internal error. Rejected at the use, as MLIR does.

func.func @use_before_definition(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.negate' op operand #0 does not dominate this use}}
  %0 = bcast.negate %1 : tensor<3xf32>
  // expected-note @+1 {{operand defined here}}
  %1 = bcast.abs %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @self_use(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'bcast.add' op operand #1 does not dominate this use}}
  // expected-note @+1 {{operand defined here}}
  %0 = bcast.add %x, %0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// A region sees the values defined before its op, not after.
func.func @nested_use_before_definition(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = bcast.fusion %x : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    // expected-error @+1 {{'bcast.negate' op operand #0 does not dominate this use}}
    %n = bcast.negate %later : tensor<3xf32>
    bcast.yield %n : tensor<3xf32>
  }
  // expected-note @+1 {{operand defined here}}
  %later = bcast.abs %x : tensor<3xf32>
  func.return %r : tensor<3xf32>
}
