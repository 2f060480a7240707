// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p convert-stablehlo-to-bcast

// The CHLO broadcasting ops with a `?` that no run-time size makes valid:
// the verifier refuses them at the op, in the words of the static case.

// 3 and 5 are aligned whatever the rows are.
func.func @refuted_pair(%a: tensor<?x3xf32>, %b: tensor<5xf32>) -> tensor<?x3xf32> {
  // expected-note @+3 {{aligned from the right: ? x 3}}
  // expected-note @+2 {{dimension -1: 3 vs 5 (neither is 1)}}
  // expected-error @+1 {{'chlo.broadcast_add' op operands are not broadcast-compatible: tensor<?x3xf32> and tensor<5xf32>}}
  %r = chlo.broadcast_add %a, %b : (tensor<?x3xf32>, tensor<5xf32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// -----

// A declared dim no run-time size fits (the inferred one is 4).
func.func @declared_incompatible(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x5xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op inferred type(s) 'tensor<?x4xf32>' are incompatible with return type(s) of operation 'tensor<?x5xf32>'}}
  %r = chlo.broadcast_add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x5xf32>
  func.return %r : tensor<?x5xf32>
}

// -----

// A declared `?` where the rule proves the size: bcast keeps static types
// exact (upstream's select test declares [2, ?, 8] here).
func.func @declared_less_static(%p: tensor<1xi1>, %a: tensor<2x?x8xi32>, %b: tensor<2x8x8xi32>) -> tensor<2x?x8xi32> {
  // expected-error @+1 {{'chlo.broadcast_select' op inferred type(s) 'tensor<2x8x8xi32>' are incompatible with return type(s) of operation 'tensor<2x?x8xi32>'}}
  %r = chlo.broadcast_select %p, %a, %b : (tensor<1xi1>, tensor<2x?x8xi32>, tensor<2x8x8xi32>) -> tensor<2x?x8xi32>
  func.return %r : tensor<2x?x8xi32>
}

// -----

// broadcast_dimensions that place a `?` against a static size it cannot
// reach: a bounded [<=3] on a dim of size 5 can only be 1.
func.func @bounded_result_too_small(%a: tensor<2x5xf32>, %b: tensor<?xf32, #stablehlo.bounds<3>>) -> tensor<2x?xf32, #stablehlo.bounds<?, 3>> {
  // expected-error @+1 {{'chlo.broadcast_add' op inferred type(s) 'tensor<2x5xf32>' are incompatible with return type(s) of operation 'tensor<2x?xf32, #stablehlo.bounds<?, 3>>'}}
  %r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<2x5xf32>, tensor<?xf32, #stablehlo.bounds<3>>) -> tensor<2x?xf32, #stablehlo.bounds<?, 3>>
  func.return %r : tensor<2x?xf32, #stablehlo.bounds<?, 3>>
}
