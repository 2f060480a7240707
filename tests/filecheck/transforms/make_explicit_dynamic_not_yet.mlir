// What bcast-make-explicit does not make explicit on dynamic dims yet
// (docs/ir.md, "The explicit dynamic form"): a located error naming the pass.

// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p bcast-make-explicit

// A dot_general whose declared result is more static than the inferred one.
func.func @dot_general_declared_more_static(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'bcast.dot_general' op has a declared result type tensor<5x3xf32> more static than the inferred ?x3, which bcast-make-explicit does not check explicitly yet}}
  %r = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}
