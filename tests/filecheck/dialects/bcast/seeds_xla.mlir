// RUN: bcast-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every example of seeds/xla-broadcasting-semantics.txt, under xla semantics.

module attributes {bcast.semantics = "xla"} {

// |1 2 3| + |7 8 9|: a (2,3) matrix plus a (3) vector with broadcast
// |4 5 6|            dimension (1), the vector replicated over the rows.
// CHECK-LABEL: func.func @matrix_plus_vector
// CHECK: %r = bcast.add %x, %v broadcast_dimensions = [1] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
func.func @matrix_plus_vector() -> tensor<2x3xi32> {
  %x = bcast.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %v = bcast.constant dense<[7, 8, 9]> : tensor<3xi32>
  %r = bcast.add %x, %v broadcast_dimensions = [1] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  func.return %r : tensor<2x3xi32>
}

// Scalars always broadcast without broadcast_dimensions: |1 2 3| + 7.
// CHECK-LABEL: func.func @matrix_plus_scalar
// CHECK: %r = bcast.add %x, %s : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK: %l = bcast.add %s, %x : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
func.func @matrix_plus_scalar(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %s = bcast.constant dense<7> : tensor<i32>
  %r = bcast.add %x, %s : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %l = bcast.add %s, %x : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return %r : tensor<2x3xi32>
}

// A 3-element vector and a 3x3 matrix: dimension 1 (the vector is a row,
// repeated for each row) or dimension 0 (the vector is a column).
// CHECK-LABEL: func.func @square_both_ways
// CHECK: %rows = bcast.add %m, %v broadcast_dimensions = [1] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
// CHECK: %cols = bcast.add %m, %v broadcast_dimensions = [0] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
func.func @square_both_ways(%m: tensor<3x3xf32>, %v: tensor<3xf32>) {
  %rows = bcast.add %m, %v broadcast_dimensions = [1] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %cols = bcast.add %m, %v broadcast_dimensions = [0] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  func.return
}

// A 2x3x4 cuboid and a 3x4 matrix with broadcasting tuple (1, 2).
// CHECK-LABEL: func.func @cuboid_plus_matrix
// CHECK: %r = bcast.add %c, %m broadcast_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
func.func @cuboid_plus_matrix(%c: tensor<2x3x4xf32>, %m: tensor<3x4xf32>) {
  %r = bcast.add %c, %m broadcast_dimensions = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// Formal definition, with M x N x P x Q = 2 x 3 x 4 x 5: a vector T matched
// to dimension 3, 2, 1 or 0 (T equal to the matched dimension).
// CHECK-LABEL: func.func @mnpq_vector
// CHECK: %d3 = bcast.add %a, %q broadcast_dimensions = [3] : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %d2 = bcast.add %a, %p broadcast_dimensions = [2] : (tensor<2x3x4x5xf32>, tensor<4xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %d1 = bcast.add %a, %n broadcast_dimensions = [1] : (tensor<2x3x4x5xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %d0 = bcast.add %a, %m broadcast_dimensions = [0] : (tensor<2x3x4x5xf32>, tensor<2xf32>) -> tensor<2x3x4x5xf32>
func.func @mnpq_vector(%a: tensor<2x3x4x5xf32>, %m: tensor<2xf32>, %n: tensor<3xf32>, %p: tensor<4xf32>, %q: tensor<5xf32>) {
  %d3 = bcast.add %a, %q broadcast_dimensions = [3] : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  %d2 = bcast.add %a, %p broadcast_dimensions = [2] : (tensor<2x3x4x5xf32>, tensor<4xf32>) -> tensor<2x3x4x5xf32>
  %d1 = bcast.add %a, %n broadcast_dimensions = [1] : (tensor<2x3x4x5xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %d0 = bcast.add %a, %m broadcast_dimensions = [0] : (tensor<2x3x4x5xf32>, tensor<2xf32>) -> tensor<2x3x4x5xf32>
  func.return
}

// A T x V matrix matched with a pair of dimensions: (2,3), (1,2), (0,3), etc.
// CHECK-LABEL: func.func @mnpq_matrix
// CHECK: %d23 = bcast.add %a, %pq broadcast_dimensions = [2, 3] : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %d12 = bcast.add %a, %np broadcast_dimensions = [1, 2] : (tensor<2x3x4x5xf32>, tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %d03 = bcast.add %a, %mq broadcast_dimensions = [0, 3] : (tensor<2x3x4x5xf32>, tensor<2x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK: %d01 = bcast.add %mn, %a broadcast_dimensions = [0, 1] : (tensor<2x3xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
func.func @mnpq_matrix(%a: tensor<2x3x4x5xf32>, %pq: tensor<4x5xf32>, %np: tensor<3x4xf32>, %mq: tensor<2x5xf32>, %mn: tensor<2x3xf32>) {
  %d23 = bcast.add %a, %pq broadcast_dimensions = [2, 3] : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %d12 = bcast.add %a, %np broadcast_dimensions = [1, 2] : (tensor<2x3x4x5xf32>, tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
  %d03 = bcast.add %a, %mq broadcast_dimensions = [0, 3] : (tensor<2x3x4x5xf32>, tensor<2x5xf32>) -> tensor<2x3x4x5xf32>
  %d01 = bcast.add %mn, %a broadcast_dimensions = [0, 1] : (tensor<2x3xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  func.return
}

// Same-rank degenerate broadcasting:
// (2,1) and (2,3) -> (2,3); (1,2,5) and (7,2,5) -> (7,2,5); (7,2,5) and (7,1,5) -> (7,2,5).
// CHECK-LABEL: func.func @degenerate
// CHECK: %r1 = bcast.add %a, %b : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %r2 = bcast.add %c, %d : (tensor<1x2x5xf32>, tensor<7x2x5xf32>) -> tensor<7x2x5xf32>
// CHECK: %r3 = bcast.add %d, %e : (tensor<7x2x5xf32>, tensor<7x1x5xf32>) -> tensor<7x2x5xf32>
func.func @degenerate(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>, %c: tensor<1x2x5xf32>, %d: tensor<7x2x5xf32>, %e: tensor<7x1x5xf32>) {
  %r1 = bcast.add %a, %b : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r2 = bcast.add %c, %d : (tensor<1x2x5xf32>, tensor<7x2x5xf32>) -> tensor<7x2x5xf32>
  %r3 = bcast.add %d, %e : (tensor<7x2x5xf32>, tensor<7x1x5xf32>) -> tensor<7x2x5xf32>
  func.return
}

// The "outer operation": (2,1) and (1,3) broadcast to (2,3).
// CHECK-LABEL: func.func @outer
// CHECK: %r = bcast.multiply %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
func.func @outer(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) {
  %r = bcast.multiply %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return
}

// Broadcast composition: |1 2 3 4| + [5 6] (a 1x2 matrix) with broadcast
// dimensions (0) gives a 4x2 matrix.
// CHECK-LABEL: func.func @composition_1
// CHECK: %r = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
func.func @composition_1() -> tensor<4x2xi32> {
  %v = bcast.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %m = bcast.constant dense<[[5, 6]]> : tensor<1x2xi32>
  %r = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
  func.return %r : tensor<4x2xi32>
}

// A 1x2 matrix added to a 4x3x1 array with broadcast dimensions (1, 2): the
// intermediate is 4x1x2, the result 4x3x2.
// CHECK-LABEL: func.func @composition_2
// CHECK: %r = bcast.add %m, %a broadcast_dimensions = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
func.func @composition_2(%m: tensor<1x2xf32>, %a: tensor<4x3x1xf32>) {
  %r = bcast.add %m, %a broadcast_dimensions = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  func.return
}

}

// -----

// "Without specifying broadcasting, this operation is invalid."
module attributes {bcast.semantics = "xla"} {
func.func @matrix_plus_vector_implicit(%x: tensor<2x3xi32>, %v: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.add' op operands of different rank need broadcast_dimensions under xla semantics}}
  %r = bcast.add %x, %v : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // expected-note @-1 {{only a rank-0 operand broadcasts without broadcast_dimensions}}
  func.return
}
}

// -----

// "When adding a 2x3 matrix to a 3-element vector, a broadcasting dimension of
// 0 is invalid."
module attributes {bcast.semantics = "xla"} {
func.func @dimension_0_invalid(%x: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{broadcast_dimensions maps dimension 0 (size 3) of the lower-rank operand to dimension 0 (size 2) of the higher-rank operand}}
  %r = bcast.add %x, %v broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}
}

// -----

// "T has to be equal to the matching dimension of the higher-rank array."
module attributes {bcast.semantics = "xla"} {
func.func @mnpq_vector_mismatch(%a: tensor<2x3x4x5xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{broadcast_dimensions maps dimension 0 (size 4) of the lower-rank operand to dimension 3 (size 5) of the higher-rank operand}}
  %r = bcast.add %a, %t broadcast_dimensions = [3] : (tensor<2x3x4x5xf32>, tensor<4xf32>) -> tensor<2x3x4x5xf32>
  func.return
}
}

// -----

// "It is illegal to match V to N and T to P": the tuple must be strictly
// increasing (T x V = 4 x 3 onto P and N).
module attributes {bcast.semantics = "xla"} {
func.func @mnpq_swapped(%a: tensor<2x3x4x5xf32>, %tv: tensor<4x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions must be strictly increasing, got [2, 1]}}
  %r = bcast.add %a, %tv broadcast_dimensions = [2, 1] : (tensor<2x3x4x5xf32>, tensor<4x3xf32>) -> tensor<2x3x4x5xf32>
  func.return
}
}

// -----

// "... it is also illegal to match V to both P and N": one higher-rank
// dimension per lower-rank dimension, no repeats.
module attributes {bcast.semantics = "xla"} {
func.func @mnpq_repeated(%a: tensor<2x3x4x5xf32>, %tv: tensor<4x4xf32>) {
  // expected-error @+1 {{broadcast_dimensions must be strictly increasing, got [2, 2]}}
  %r = bcast.add %a, %tv broadcast_dimensions = [2, 2] : (tensor<2x3x4x5xf32>, tensor<4x4xf32>) -> tensor<2x3x4x5xf32>
  func.return
}
}

// -----

// "(7,2,5) and (7,2,6) are incompatible and cannot be broadcast."
module attributes {bcast.semantics = "xla"} {
func.func @degenerate_incompatible(%a: tensor<7x2x5xf32>, %b: tensor<7x2x6xf32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<7x2x5xf32> and tensor<7x2x6xf32>}}
  %r = bcast.add %a, %b : (tensor<7x2x5xf32>, tensor<7x2x6xf32>) -> tensor<7x2x6xf32>
  // expected-note @-1 {{dimension -1: 5 vs 6 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 7 x 2 x 5}}
  func.return
}
}
