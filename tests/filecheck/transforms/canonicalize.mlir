// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s
// The output verifies again (the second bcast-opt verifies its input).
// RUN: bcast-opt %s --split-input-file -p canonicalize | bcast-opt - --split-input-file | filecheck %s
// Identical broadcasts (JAX duplicates them) are merged by xDSL's cse: ops are Pure.
// RUN: bcast-opt %s --split-input-file -p canonicalize,cse | filecheck %s --check-prefix=CSE

// CHECK-LABEL: func.func @identity_broadcast
// CHECK-NEXT:    func.return %x : tensor<2x3xf32>
func.func @identity_broadcast(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// JAX adds a rank in two steps; the two broadcasts compose.
// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT:    func.return %[[B]] : tensor<4x5xf32>
func.func @broadcast_of_broadcast(%x: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
  %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
  func.return %1 : tensor<4x5xf32>
}

// -----

// bcast(bcast(x, A), B) -> bcast(x, [B[a] for a in A]), unsorted dims included
// (the result is then split into a transpose and a sorted broadcast).
// CHECK-LABEL: func.func @broadcast_of_broadcast_composes_dims
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[T]], dims = [0, 2] : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @broadcast_of_broadcast_composes_dims(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %1 = bcast.broadcast_in_dim %0, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<3x4x2xf32>
  func.return %1 : tensor<3x4x2xf32>
}

// -----

// Sorted dims and the same element count: only size-1 dims are inserted.
// CHECK-LABEL: func.func @broadcast_to_reshape
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %x : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @broadcast_to_reshape(%x: tensor<3x4xf32>) -> tensor<3x1x4xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [0, 2] : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
  func.return %0 : tensor<3x1x4xf32>
}

// -----

// Equal rank, nothing expanded, unsorted dims: a transpose by the inverse dims.
// CHECK-LABEL: func.func @broadcast_to_transpose
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    func.return %[[T]]
func.func @broadcast_to_transpose(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  func.return %0 : tensor<3x4x2xf32>
}

// -----

// A transposing broadcast (StableHLO allows it, XLA's builder does not):
// transpose the small operand, then a sorted broadcast.
// CHECK-LABEL: func.func @transposing_broadcast
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[T]], dims = [0, 2] : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @transposing_broadcast(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  func.return %0 : tensor<3x4x2xf32>
}

// -----

// The transpose of the small operand moves only a size-1 dim: a reshape.
// CHECK-LABEL: func.func @transposing_broadcast_of_a_unit_dim
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %x : (tensor<1x3xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[R]], dims = [1, 2] : (tensor<3x1xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @transposing_broadcast_of_a_unit_dim(%x: tensor<1x3xf32>) -> tensor<2x3x2xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  func.return %0 : tensor<2x3x2xf32>
}

// -----

// A transpose that keeps the dims of size other than 1 in order moves no
// element: a reshape (as StableHLO's simplifier makes it). One that reorders
// them stays a transpose; one that keeps the type folds away.
// CHECK-LABEL: func.func @transpose_of_unit_dims
// CHECK-NEXT:    %[[A:.*]] = bcast.reshape %x : (tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.reshape %x : (tensor<4x1x3xf32>) -> tensor<4x3x1xf32>
// CHECK-NEXT:    %[[D:.*]] = bcast.transpose %x, dims = [2, 1, 0] : (tensor<4x1x3xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT:    func.return %[[A]], %[[B]], %y, %[[D]]
func.func @transpose_of_unit_dims(%x: tensor<4x1x3xf32>, %y: tensor<1x1xi8>) -> (tensor<1x4x3xf32>, tensor<4x3x1xf32>, tensor<1x1xi8>, tensor<3x1x4xf32>) {
  %0 = bcast.transpose %x, dims = [1, 0, 2] : (tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
  %1 = bcast.transpose %x, dims = [0, 2, 1] : (tensor<4x1x3xf32>) -> tensor<4x3x1xf32>
  %2 = bcast.transpose %y, dims = [1, 0] : (tensor<1x1xi8>) -> tensor<1x1xi8>
  %3 = bcast.transpose %x, dims = [2, 1, 0] : (tensor<4x1x3xf32>) -> tensor<3x1x4xf32>
  func.return %0, %1, %2, %3 : tensor<1x4x3xf32>, tensor<4x3x1xf32>, tensor<1x1xi8>, tensor<3x1x4xf32>
}

// -----

// JAX emits scalars as constant + broadcast dims = [].
// CHECK-LABEL: func.func @broadcast_of_splat_constant
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<1.500000e+00> : tensor<4x5xf32>
// CHECK-NEXT:    %[[I:.*]] = bcast.constant dense<7> : tensor<2x3xi32>
// CHECK-NEXT:    func.return %[[C]], %[[I]]
func.func @broadcast_of_splat_constant() -> (tensor<4x5xf32>, tensor<2x3xi32>) {
  %cst = bcast.constant dense<1.5> : tensor<f32>
  %0 = bcast.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
  %c = bcast.constant dense<7> : tensor<3xi32>
  %1 = bcast.broadcast_in_dim %c, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  func.return %0, %1 : tensor<4x5xf32>, tensor<2x3xi32>
}

// -----

// Not folded: a constant that is not a splat, and a result too large to
// become a constant (the broadcast stays virtual).
// CHECK-LABEL: func.func @broadcast_of_constant_kept
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[C]], dims = [1] : (tensor<2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[S:.*]] = bcast.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[L:.*]] = bcast.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<4096x4096xf32>
// CHECK-NEXT:    func.return %[[B]], %[[L]]
func.func @broadcast_of_constant_kept() -> (tensor<3x2xf32>, tensor<4096x4096xf32>) {
  %c = bcast.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = bcast.broadcast_in_dim %c, dims = [1] : (tensor<2xf32>) -> tensor<3x2xf32>
  %s = bcast.constant dense<1.0> : tensor<f32>
  %1 = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4096x4096xf32>
  func.return %0, %1 : tensor<3x2xf32>, tensor<4096x4096xf32>
}

// -----

// A reshape that only inserts size-1 dims folds into the broadcast after it.
// CHECK-LABEL: func.func @broadcast_of_unit_dim_reshape
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [0, 2] : (tensor<4x3xf32>) -> tensor<4x5x3xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @broadcast_of_unit_dim_reshape(%x: tensor<4x3xf32>) -> tensor<4x5x3xf32> {
  %0 = bcast.reshape %x : (tensor<4x3xf32>) -> tensor<4x1x3xf32>
  %1 = bcast.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<4x1x3xf32>) -> tensor<4x5x3xf32>
  func.return %1 : tensor<4x5x3xf32>
}

// -----

// Not folded: the HLO-style degenerate broadcast (reshape dropping the 1-dim,
// then a pure broadcast) is kept as written.
// CHECK-LABEL: func.func @broadcast_of_dropping_reshape_kept
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %x : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[R]], dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @broadcast_of_dropping_reshape_kept(%x: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %0 = bcast.reshape %x : (tensor<4x1xf32>) -> tensor<4xf32>
  %1 = bcast.broadcast_in_dim %0, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
  func.return %1 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %x : (tensor<2x6xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @reshape_of_reshape(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %0 = bcast.reshape %x : (tensor<2x6xf32>) -> tensor<12xf32>
  %1 = bcast.reshape %0 : (tensor<12xf32>) -> tensor<3x4xf32>
  func.return %1 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @identity_reshape_and_transpose
// CHECK-NEXT:    func.return %x, %x
func.func @identity_reshape_and_transpose(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = bcast.reshape %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = bcast.transpose %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Folds (the ops' `fold`, tried by canonicalize before any pattern): a convert
// to its own type is its operand; a broadcast with identity dims that changes
// the type (it expands a size-1 dim) is kept.
// CHECK-LABEL: func.func @identity_convert_folds
// CHECK-NEXT:    %[[C:.*]] = bcast.convert %x : (tensor<1x3xi32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[C]], dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %x, %[[B]]
func.func @identity_convert_folds(%x: tensor<1x3xi32>) -> (tensor<1x3xi32>, tensor<2x3xf32>) {
  %a = bcast.convert %x : (tensor<1x3xi32>) -> tensor<1x3xi32>
  %b = bcast.convert %a : (tensor<1x3xi32>) -> tensor<1x3xf32>
  %c = bcast.broadcast_in_dim %b, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return %a, %c : tensor<1x3xi32>, tensor<2x3xf32>
}

// -----

// transpose(transpose(x, P), Q) = transpose(x, [P[q] for q in Q]).
// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    func.return %[[T]], %x
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = bcast.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = bcast.transpose %0, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  %2 = bcast.transpose %0, dims = [2, 0, 1] : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  func.return %1, %2 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// A reshape that leaves the dims holding data alone (adds a 1, splits a
// broadcast dim) folds into the broadcast.
// CHECK-LABEL: func.func @reshape_of_broadcast
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [2] : (tensor<3xf32>) -> tensor<2x2x3x1x5xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @reshape_of_broadcast(%x: tensor<3xf32>) -> tensor<2x2x3x1x5xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3x5xf32>
  %1 = bcast.reshape %0 : (tensor<4x3x5xf32>) -> tensor<2x2x3x1x5xf32>
  func.return %1 : tensor<2x2x3x1x5xf32>
}

// -----

// Not folded: the reshape merges the data dim with a broadcast dim.
// CHECK-LABEL: func.func @reshape_of_broadcast_kept
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[R:.*]] = bcast.reshape %[[B]] : (tensor<4x3xf32>) -> tensor<12xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @reshape_of_broadcast_kept(%x: tensor<3xf32>) -> tensor<12xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.reshape %0 : (tensor<4x3xf32>) -> tensor<12xf32>
  func.return %1 : tensor<12xf32>
}

// -----

// A transpose that moves only broadcast dims: dims compose through P^-1.
// CHECK-LABEL: func.func @transpose_of_broadcast
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x5x3x4xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @transpose_of_broadcast(%x: tensor<2x3xf32>) -> tensor<2x5x3x4xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3x5xf32>
  %1 = bcast.transpose %0, dims = [0, 3, 2, 1] : (tensor<2x4x3x5xf32>) -> tensor<2x5x3x4xf32>
  func.return %1 : tensor<2x5x3x4xf32>
}

// -----

// Not folded: the transpose reorders the operand's own dims.
// A transpose that also reorders the operand's own dims moves onto the small
// operand: the full-size transpose of a broadcast would be materialized.
// CHECK-LABEL: func.func @transpose_of_broadcast_reordering_operand_dims
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[T]], dims = [0, 2] : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @transpose_of_broadcast_reordering_operand_dims(%x: tensor<2x3xf32>) -> tensor<3x4x2xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
  %1 = bcast.transpose %0, dims = [2, 1, 0] : (tensor<2x4x3xf32>) -> tensor<3x4x2xf32>
  func.return %1 : tensor<3x4x2xf32>
}

// -----

// CHECK-LABEL: func.func @select_of_not
// CHECK-NEXT:    %[[S:.*]] = bcast.select %p, %f, %t : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @select_of_not(%p: tensor<4x3xi1>, %t: tensor<3xf32>, %f: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %n = bcast.not %p : tensor<4x3xi1>
  %0 = bcast.select %n, %t, %f : (tensor<4x3xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @select_of_broadcast_not
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %p, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
// CHECK-NEXT:    %[[S:.*]] = bcast.select %[[B]], %f, %t : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @select_of_broadcast_not(%p: tensor<4x1xi1>, %t: tensor<4x3xf32>, %f: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %n = bcast.not %p : tensor<4x1xi1>
  %b = bcast.broadcast_in_dim %n, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
  %0 = bcast.select %b, %t, %f : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

// Elementwise ops on constants fold with bcast's exact semantics: implicit
// broadcasting, promotion, integer division truncating toward zero.
// CHECK-LABEL: func.func @fold_constants
// CHECK-NEXT:    %[[A:.*]] = bcast.constant dense<{{\[}}[11, 12, 13], [21, 22, 23]]> : tensor<2x3xi32>
// CHECK-NEXT:    %[[D:.*]] = bcast.constant dense<[-3, 3, -1]> : tensor<3xi32>
// CHECK-NEXT:    %[[G:.*]] = bcast.constant dense<[false, true, false]> : tensor<3xi1>
// CHECK-NEXT:    %[[S:.*]] = bcast.constant dense<[5.000000e-01, 2.000000e+00, 5.000000e-01]> : tensor<3xf32>
// CHECK-NEXT:    %[[V:.*]] = bcast.constant dense<[-2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    func.return %[[A]], %[[D]], %[[G]], %[[S]], %[[V]]
func.func @fold_constants() -> (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) {
  %r = bcast.constant dense<[1, 2, 3]> : tensor<3xi32>
  %c = bcast.constant dense<[[10], [20]]> : tensor<2x1xi32>
  %0 = bcast.add %r, %c : (tensor<3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %n = bcast.constant dense<[-7, 7, -1]> : tensor<3xi32>
  %two = bcast.constant dense<[2, 2, 0]> : tensor<3xi32>
  %1 = bcast.divide %n, %two : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %s = bcast.constant dense<[1, 5, 2]> : tensor<3xi8>
  %2 = bcast.compare GT, %s, %r : (tensor<3xi8>, tensor<3xi32>) -> tensor<3xi1>
  %h = bcast.constant dense<0.5> : tensor<f32>
  %t = bcast.constant dense<2.0> : tensor<f32>
  %3 = bcast.select %2, %t, %h : (tensor<3xi1>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %f = bcast.constant dense<[-2.5, 3.9, 4.0]> : tensor<3xf32>
  %i = bcast.convert %f : (tensor<3xf32>) -> tensor<3xi32>
  %4 = bcast.convert %i : (tensor<3xi32>) -> tensor<3xf32>
  func.return %0, %1, %2, %3, %4 : tensor<2x3xi32>, tensor<3xi32>, tensor<3xi1>, tensor<3xf32>, tensor<3xf32>
}

// -----

// A NaN result folds too (it prints as a hex bit pattern, which reads back
// as the same NaN); an operand that is not a constant is not folded.
// CHECK-LABEL: func.func @fold_constants_kept
// CHECK-NEXT:    %[[Z:.*]] = bcast.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:    %[[N:.*]] = bcast.constant dense<[0x{{7fc00000|ffc00000}}, 0x{{7fc00000|ffc00000}}]> : tensor<2xf32>
// CHECK-NEXT:    %[[A:.*]] = bcast.add %x, %[[Z]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[N]], %[[A]]
func.func @fold_constants_kept(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %z = bcast.constant dense<0.0> : tensor<2xf32>
  %0 = bcast.divide %z, %z : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = bcast.add %x, %z : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @duplicate_broadcasts
// CHECK-NEXT:    %[[A:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.multiply %[[A]], %[[B]]
// CSE-LABEL:   func.func @duplicate_broadcasts
// CSE-NEXT:      %[[A:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CSE-NEXT:      %[[M:.*]] = bcast.multiply %[[A]], %[[A]]
// CSE-NEXT:      func.return %[[M]]
func.func @duplicate_broadcasts(%x: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %2 = bcast.multiply %0, %1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %2 : tensor<4x3xf32>
}

// -----

// clamp of constants folds (its definition, with broadcasting and promotion):
// min > max gives max, and a NaN operand gives NaN.
// CHECK-LABEL: func.func @clamp_of_constants
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<[-1.000000e+00, 0.000000e+00, 5.000000e-01, 2.000000e+00, 0x7fc00000]> : tensor<5xf32>
// CHECK-NEXT:    %[[H:.*]] = bcast.constant dense<2> : tensor<3xi32>
// CHECK-NEXT:    func.return %[[C]], %[[H]]
func.func @clamp_of_constants() -> (tensor<5xf32>, tensor<3xi32>) {
  %lo = bcast.constant dense<0.0> : tensor<f16>
  %x = bcast.constant dense<[-1.0, -0.5, 0.5, 3.0, 0x7FC00000]> : tensor<5xf32>
  %hi = bcast.constant dense<[-1.0, 2.0, 2.0, 2.0, 2.0]> : tensor<5xf32>
  %0 = bcast.clamp %lo, %x, %hi : (tensor<f16>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %a = bcast.constant dense<5> : tensor<i32>
  %b = bcast.constant dense<[1, 7, 3]> : tensor<3xi8>
  %c = bcast.constant dense<2> : tensor<i32>
  %1 = bcast.clamp %a, %b, %c : (tensor<i32>, tensor<3xi8>, tensor<i32>) -> tensor<3xi32>
  func.return %0, %1 : tensor<5xf32>, tensor<3xi32>
}
