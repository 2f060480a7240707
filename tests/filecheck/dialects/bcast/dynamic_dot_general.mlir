// RUN: bcast-opt %s --split-input-file --verify-diagnostics | filecheck %s

// dot_general and matmul with ? dims (docs/semantics.md, "Dynamic and bounded
// shapes"): a ? free dim reaches the result; a paired (batch or contracting)
// dim with a ? is compared at run time (make_explicit_dynamic_dot_general.mlir),
// a ? met by a static size gives that size; a pair no run-time size makes
// equal is refused here, located, in the static wording.

// CHECK-LABEL: func.func @free_dims
// CHECK:         bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
// CHECK:         bcast.matmul %x, %w : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
func.func @free_dims(%x: tensor<?x4xf32>, %w: tensor<4x?xf32>) {
  %0 = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  %1 = bcast.matmul %x, %w : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

// A ? batch dim met by a static 2 is 2 in the result; a ? contracting dim
// met by a ? is compared at run time.
// CHECK-LABEL: func.func @paired_dims
// CHECK:         bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x3x?xf32>, tensor<2x?x5xf32>) -> tensor<2x3x5xf32>
func.func @paired_dims(%a: tensor<?x3x?xf32>, %b: tensor<2x?x5xf32>) {
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x3x?xf32>, tensor<2x?x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

// A bounded ? that cannot reach the static size it is contracted with.
func.func @refuted_contraction(%a: tensor<2x?xf32, #stablehlo.bounds<?, 3>>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{'bcast.dot_general' op contracting dimension sizes must match for lhs/rhs}}
  // expected-note @+1 {{lhs dimension 1 has size ?<=3, rhs dimension 0 has size 4}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x?xf32, #stablehlo.bounds<?, 3>>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @refuted_batch(%a: tensor<?x2x3xf32, #stablehlo.bounds<1, ?, ?>>, %b: tensor<4x3x5xf32>) {
  // expected-error @+2 {{'bcast.dot_general' op batching dimension sizes must match for lhs/rhs}}
  // expected-note @+1 {{lhs dimension 0 has size ?<=1, rhs dimension 0 has size 4}}
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x2x3xf32, #stablehlo.bounds<1, ?, ?>>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  func.return
}

// -----

func.func @refuted_matmul(%a: tensor<2x?xf32, #stablehlo.bounds<?, 3>>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{'bcast.matmul' op matmul contracting dimension sizes differ: lhs has ?<=3, rhs has 4}}
  // expected-note @+1 {{the last dim of lhs multiplies the second-to-last of rhs}}
  %0 = bcast.matmul %a, %b : (tensor<2x?xf32, #stablehlo.bounds<?, 3>>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

// A result dim that no run-time size fits.
func.func @incompatible_result(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op inferred type(s) 'tensor<?x3xf32>' are incompatible with return type(s) of operation 'tensor<?x5xf32>'}}
  %0 = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x5xf32>
  func.return
}

// -----

// StableHLO's dot_general as JAX's shape-polymorphic exports write it
// (attention scores q @ k.T with a ? sequence), and its refusal of a pair
// that cannot agree.
// CHECK-LABEL: func.func @stablehlo_dot_general
// CHECK:         stablehlo.transpose %k, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
// CHECK:         stablehlo.dot_general %q, %kt, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
func.func @stablehlo_dot_general(%q: tensor<?x4xf32>, %k: tensor<?x4xf32>) {
  %kt = stablehlo.transpose %k, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %0 = stablehlo.dot_general %q, %kt, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @stablehlo_refuted(%a: tensor<2x?xf32, #stablehlo.bounds<?, 3>>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{'stablehlo.dot_general' op contracting dimension sizes must match for lhs/rhs}}
  // expected-note @+1 {{lhs dimension 1 has size ?<=3, rhs dimension 0 has size 4}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x?xf32, #stablehlo.bounds<?, 3>>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}
