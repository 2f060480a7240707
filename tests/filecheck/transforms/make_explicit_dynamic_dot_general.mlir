// bcast-make-explicit on dot_general and matmul with ? dims (docs/ir.md, "The
// explicit dynamic form"): each side's paired dims with a ? are checked equal
// at run time (strict), before the op and at its location, in JAX's words;
// canonicalize drops a check that one SSA size proves.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse | filecheck %s --check-prefix=CANON
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC

// A ? free dim (the batch of a dense layer) needs no check.
// CHECK-LABEL: func.func @free_dim
// CHECK-NEXT:    %r = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:    func.return %r
func.func @free_dim(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %r = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// -----

// A ? contracted with a static 4: checked equal to 4.
// CHECK-LABEL: func.func @contracting_dim
// CHECK-NEXT:    %[[K:.*]] = bcast.dim %x, 1 : tensor<?x?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[K]]] at [0], [4] at [0] checking [0] strict message = "dot_general requires contracting dimensions to have the same shape, got"
// CHECK-NEXT:    %r = bcast.dot_general %x, %w
// LOC-LABEL: func.func @contracting_dim
// LOC:         bcast.check_broadcastable {{.*}} loc("{{.*}}make_explicit_dynamic_dot_general.mlir":[[# @LINE + 3]]:8)
// LOC-NEXT:    bcast.dot_general {{.*}} loc("{{.*}}make_explicit_dynamic_dot_general.mlir":[[# @LINE + 2]]:8)
func.func @contracting_dim(%x: tensor<?x?xf32>, %w: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %r = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// -----

// ? batch dims of two arguments, and ? contracting dims: one check each,
// worded for batch and for contracting dims.
// CHECK-LABEL: func.func @batch_and_contracting
// CHECK-DAG:     %[[A0:.*]] = bcast.dim %a, 0
// CHECK-DAG:     %[[A2:.*]] = bcast.dim %a, 2
// CHECK-DAG:     %[[B0:.*]] = bcast.dim %b, 0
// CHECK-DAG:     %[[B1:.*]] = bcast.dim %b, 1
// CHECK:         bcast.check_broadcastable [%[[A0]]] at [0], [%[[B0]]] at [0] checking [0] strict message = "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same shape, got"
// CHECK-NEXT:    bcast.check_broadcastable [%[[A2]]] at [0], [%[[B1]]] at [0] checking [0] strict message = "dot_general requires contracting dimensions to have the same shape, got"
// CHECK-NEXT:    %r = bcast.dot_general %a, %b
func.func @batch_and_contracting(%a: tensor<?x2x?xf32>, %b: tensor<?x?x5xf32>) -> tensor<?x2x5xf32> {
  %r = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x2x?xf32>, tensor<?x?x5xf32>) -> tensor<?x2x5xf32>
  func.return %r : tensor<?x2x5xf32>
}

// -----

// Two contracting dims, one pair static: only the pair with a ? is checked,
// both sides' contracting sizes listed (JAX's message shows them all).
// CHECK-LABEL: func.func @two_contracting_dims
// CHECK:         bcast.check_broadcastable [%{{.*}}, 3] at [0, 1], [5, 3] at [0, 1] checking [0] strict
func.func @two_contracting_dims(%a: tensor<2x?x3xf32>, %b: tensor<5x3x7xf32>) -> tensor<2x7xf32> {
  %r = bcast.dot_general %a, %b, contracting_dims = [1, 2] x [0, 1] : (tensor<2x?x3xf32>, tensor<5x3x7xf32>) -> tensor<2x7xf32>
  func.return %r : tensor<2x7xf32>
}

// -----

// x @ x.T: the contracted sizes are one SSA size (the transpose moves it),
// so matmul's check is not even emitted.
// CHECK-LABEL: func.func @gram
// CHECK-NOT:     shape_assertion
// CANON-LABEL: func.func @gram
// CANON-NOT:     check_broadcastable
// CANON:         bcast.dot_general %x, %t
func.func @gram(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %t = bcast.transpose %x, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = bcast.matmul %x, %t : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// matmul becomes dot_general; under numpy semantics its contracted sizes are
// checked equal in np.matmul's words (rhs's size first), located at the matmul.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[K:.*]] = bcast.dim %x, 1
// CHECK-DAG:     %[[KW:.*]] = bcast.dim %w, 0
// CHECK-DAG:     %[[TW:.*]] = bcast.size_to_tensor %[[KW]] : tensor<i64>
// CHECK-DAG:     %[[T:.*]] = bcast.size_to_tensor %[[K]] : tensor<i64>
// CHECK:         %[[EQ:.*]] = bcast.compare EQ, %[[T]], %[[TW]]
// CHECK-NEXT:    bcast.shape_assertion %[[EQ]], %[[TW]], %[[T]] message = "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {0} is different from {1})"
// CHECK-NEXT:    %r = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x?xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
// LOC-LABEL: func.func @matmul
// LOC:         bcast.shape_assertion {{.*}} loc("{{.*}}make_explicit_dynamic_dot_general.mlir":[[# @LINE + 3]]:8)
// LOC-NEXT:    bcast.dot_general {{.*}} loc("{{.*}}make_explicit_dynamic_dot_general.mlir":[[# @LINE + 2]]:8)
func.func @matmul(%x: tensor<?x?xf32>, %w: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = bcast.matmul %x, %w : (tensor<?x?xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// -----

// Under xla, matmul's batch dims are equal, a ? one checked so.
// CHECK-LABEL: func.func @matmul_xla_batch
// CHECK:         bcast.check_broadcastable [%{{.*}}] at [0], [2] at [0] checking [0] strict message = "dot_general requires lhs batch dimensions
// CHECK:         bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<?x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
module attributes {bcast.semantics = "xla"} {
  func.func @matmul_xla_batch(%a: tensor<?x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
    %r = bcast.matmul %a, %b : (tensor<?x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    func.return %r : tensor<2x3x5xf32>
  }
}
