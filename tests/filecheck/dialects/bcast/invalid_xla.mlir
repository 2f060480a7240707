// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// Under xla semantics, broadcasting between different ranks is explicit.

module attributes {bcast.semantics = "xla"} {
func.func @rank_without_dims(%m: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.add' op operands of different rank need broadcast_dimensions under xla semantics}}
  %0 = bcast.add %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // expected-note @-1 {{only a rank-0 operand broadcasts without broadcast_dimensions}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @compare_rank_without_dims(%m: tensor<2x3xi32>, %v: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.compare' op operands of different rank need broadcast_dimensions under xla semantics}}
  %0 = bcast.compare EQ, %v, %m : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  // expected-note @-1 {{only a rank-0 operand broadcasts without broadcast_dimensions}}
  func.return
}
}

// -----

// select has no broadcast_dimensions: only scalars broadcast across ranks.
module attributes {bcast.semantics = "xla"} {
func.func @select_rank(%p: tensor<2x3xi1>, %t: tensor<2x3xf32>, %f: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.select' op select operands must have the same rank or rank 0 under xla semantics}}
  %0 = bcast.select %p, %t, %f : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // expected-note @-1 {{select has no broadcast_dimensions: broadcast the operands explicitly}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @not_increasing(%c: tensor<2x3x4xf32>, %m: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.add' op broadcast_dimensions must be strictly increasing, got [2, 1]}}
  %0 = bcast.add %c, %m broadcast_dimensions = [2, 1] : (tensor<2x3x4xf32>, tensor<4x3xf32>) -> tensor<2x3x4xf32>
  func.return
}
}

// -----

// "it is also illegal to match V to both P and N": a repeated entry.
module attributes {bcast.semantics = "xla"} {
func.func @repeated(%c: tensor<2x3x4xf32>, %m: tensor<3x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions must be strictly increasing, got [1, 1]}}
  %0 = bcast.add %c, %m broadcast_dimensions = [1, 1] : (tensor<2x3x4xf32>, tensor<3x3xf32>) -> tensor<2x3x4xf32>
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @out_of_range(%c: tensor<2x3x4xf32>, %m: tensor<3x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions entry 1 (3) is out of range for the higher-rank operand of rank 3}}
  %0 = bcast.add %c, %m broadcast_dimensions = [1, 3] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @negative(%c: tensor<2x3x4xf32>, %m: tensor<3x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions entry 0 (-1) is out of range for the higher-rank operand of rank 3}}
  %0 = bcast.add %c, %m broadcast_dimensions = [-1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @too_few(%c: tensor<2x3x4xf32>, %m: tensor<3x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions has 1 entry but the lower-rank operand has rank 2}}
  %0 = bcast.add %c, %m broadcast_dimensions = [1] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  // expected-note @-1 {{broadcast_dimensions needs one entry per dimension of the lower-rank operand}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @too_many(%c: tensor<2x3x4xf32>, %v: tensor<4xf32>) {
  // expected-error @+1 {{broadcast_dimensions has 2 entries but the lower-rank operand has rank 1}}
  %0 = bcast.multiply %v, %c broadcast_dimensions = [1, 2] : (tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // expected-note @-1 {{broadcast_dimensions needs one entry per dimension of the lower-rank operand}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @scalar_with_dims(%s: tensor<f32>, %m: tensor<1x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions has 1 entry but the lower-rank operand has rank 0}}
  %0 = bcast.add %s, %m broadcast_dimensions = [0] : (tensor<f32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  // expected-note @-1 {{broadcast_dimensions needs one entry per dimension of the lower-rank operand}}
  func.return
}
}

// -----

// The matched sizes must be equal (or one of them 1).
module attributes {bcast.semantics = "xla"} {
func.func @mismatched_size(%c: tensor<2x3x4xf32>, %m: tensor<3x5xf32>) {
  // expected-error @+1 {{broadcast_dimensions maps dimension 1 (size 5) of the lower-rank operand to dimension 2 (size 4) of the higher-rank operand: sizes must be equal or one of them 1}}
  %0 = bcast.add %c, %m broadcast_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<3x5xf32>) -> tensor<2x3x4xf32>
  func.return
}
}

// -----

// Same-rank operands: degenerate broadcasting only.
module attributes {bcast.semantics = "xla"} {
func.func @same_rank_mismatch(%a: tensor<7x2x5xf32>, %b: tensor<7x2x6xf32>) {
  // expected-error @+1 {{operands are not broadcast-compatible: tensor<7x2x5xf32> and tensor<7x2x6xf32>}}
  %0 = bcast.add %a, %b : (tensor<7x2x5xf32>, tensor<7x2x6xf32>) -> tensor<7x2x6xf32>
  // expected-note @-1 {{dimension -1: 5 vs 6 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 7 x 2 x 5}}
  func.return
}
}

// -----

// After broadcast_dimensions, degenerate broadcasting still needs compatible sizes.
module attributes {bcast.semantics = "xla"} {
func.func @composition_mismatch(%v: tensor<4xf32>, %m: tensor<3x2xf32>) {
  // expected-error @+1 {{broadcast_dimensions maps dimension 0 (size 4) of the lower-rank operand to dimension 0 (size 3)}}
  %0 = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @same_rank_non_identity(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions must either be absent or be the identity on operands of the same rank}}
  %0 = bcast.add %a, %b broadcast_dimensions = [1, 0] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
}

// -----

// xla requires identical element types (no promotion).
module attributes {bcast.semantics = "xla"} {
func.func @element_types(%a: tensor<2x3xf32>, %b: tensor<2x3xf64>) {
  // expected-error @+1 {{'bcast.add' op operands have different element types under xla semantics: tensor<2x3xf32>, tensor<2x3xf64>}}
  %0 = bcast.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<2x3xf64>
  // expected-note @-1 {{xla requires identical element types; insert a bcast.convert}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @element_types_int(%a: tensor<3xi8>, %b: tensor<3xi32>) {
  // expected-error @+1 {{operands have different element types under xla semantics: tensor<3xi8>, tensor<3xi32>}}
  %0 = bcast.add %a, %b : (tensor<3xi8>, tensor<3xi32>) -> tensor<3xi32>
  // expected-note @-1 {{xla requires identical element types; insert a bcast.convert}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @select_branches(%p: tensor<3xi1>, %t: tensor<3xf16>, %f: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.select' op operands have different element types under xla semantics: tensor<3xf16>, tensor<3xf32>}}
  %0 = bcast.select %p, %t, %f : (tensor<3xi1>, tensor<3xf16>, tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{xla requires identical element types; insert a bcast.convert}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @assign_element_type(%d: tensor<3xf32>, %s: tensor<3xf16>) {
  // expected-error @+1 {{'bcast.assign' op source element type f16 differs from the destination's f32 under xla semantics}}
  %0 = bcast.assign %d, %s : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  func.return
}
}

// -----

// XLA's builder rejects transposing broadcasts; StableHLO (other modes) allows them.
module attributes {bcast.semantics = "xla"} {
func.func @transposing_broadcast(%m: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op broadcast_dimensions must be strictly increasing under xla semantics, got [2, 1]}}
  %0 = bcast.broadcast_in_dim %m, dims = [2, 1] : (tensor<3x4xf32>) -> tensor<2x4x3xf32>
  // expected-note @-1 {{transpose first (bcast.transpose), then broadcast}}
  func.return
}
}

// -----

// A declared result type that differs from the inferred one.
module attributes {bcast.semantics = "xla"} {
func.func @outer_result(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  %0 = bcast.add %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x1xf32>
  func.return
}
}

// -----

// Under xla semantics clamp's min and max are rank 0 or of the operand's shape (StableHLO's rule).
module attributes {bcast.semantics = "xla"} {
func.func @clamp_bounds(%lo: tensor<3xf32>, %x: tensor<2x3xf32>, %hi: tensor<f32>) {
  // expected-error @+1 {{'bcast.clamp' op clamp min and max must be rank 0 or have the operand's shape under xla semantics}}
  %0 = bcast.clamp %lo, %x, %hi : (tensor<3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // expected-note @-1 {{broadcast them explicitly (bcast.broadcast_in_dim)}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @clamp_elements(%lo: tensor<f16>, %x: tensor<3xf32>, %hi: tensor<f32>) {
  // expected-error @+1 {{'bcast.clamp' op operands have different element types under xla semantics: tensor<f16>, tensor<3xf32>, tensor<f32>}}
  %0 = bcast.clamp %lo, %x, %hi : (tensor<f16>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  // expected-note @-1 {{xla requires identical element types; insert a bcast.convert}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "xla"} {
// CHECK-LABEL: @clamp_ok
func.func @clamp_ok(%lo: tensor<f32>, %x: tensor<2x3xf32>, %hi: tensor<2x3xf32>) {
  %0 = bcast.clamp %lo, %x, %hi : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
}
