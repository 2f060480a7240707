// bcast-make-explicit on matmul whose ? batch dims broadcast at run time
// (numpy semantics; docs/ir.md, "The explicit dynamic form"): np.matmul's
// checks as shape_assertions in NumPy's words, located at the matmul, then
// each operand broadcast to the common batch sizes with the expansion facts
// that are known, then one dot_general with equal batch dims.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC

// A ? batch dim met by nothing and a static 1 met by 5: nothing to check.
// lhs's 1 is known expanding, every other dim nonexpanding.
// CHECK-LABEL: func.func @one_against_five
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %a, 0 : tensor<?x1x3x4xf32>
// CHECK-NEXT:    %[[A:.*]] = bcast.dynamic_broadcast_in_dim %a, [%[[N]], 5, 3, 4], dims = [0, 1, 2, 3] expanding = [1] nonexpanding = [0, 2, 3] : (tensor<?x1x3x4xf32>) -> tensor<?x5x3x4xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.dynamic_broadcast_in_dim %b, [%[[N]], 5, 4, 6], dims = [1, 2, 3] nonexpanding = [0, 1, 2] : (tensor<5x4x6xf32>) -> tensor<?x5x4x6xf32>
// CHECK-NEXT:    %r = bcast.dot_general %[[A]], %[[B]], batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x5x3x4xf32>, tensor<?x5x4x6xf32>) -> tensor<?x5x3x6xf32>
// CHECK-NEXT:    func.return %r
func.func @one_against_five(%a: tensor<?x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<?x5x3x6xf32> {
  %r = bcast.matmul %a, %b : (tensor<?x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<?x5x3x6xf32>
  func.return %r : tensor<?x5x3x6xf32>
}

// -----

// Two ? batch dims, either of which may be 1 at run time: checked equal or
// one of them 1, in NumPy's words (both shapes, remapped, and the core
// result), then broadcast to their broadcast_size; the core dims are
// nonexpanding, the batch dims have no known fact.
// CHECK-LABEL: func.func @two_run_time_batches
// CHECK-DAG:     %[[P:.*]] = bcast.dim %a, 0
// CHECK-DAG:     %[[Q:.*]] = bcast.dim %b, 0
// CHECK-DAG:     %[[TP:.*]] = bcast.size_to_tensor %[[P]] : tensor<i64>
// CHECK-DAG:     %[[TQ:.*]] = bcast.size_to_tensor %[[Q]] : tensor<i64>
// CHECK:         %[[EQ:.*]] = bcast.compare EQ, %[[TP]], %[[TQ]]
// CHECK:         %[[P1:.*]] = bcast.compare EQ, %[[TP]], %{{.*}}
// CHECK-NEXT:    %[[OR:.*]] = bcast.or %[[EQ]], %[[P1]]
// CHECK:         %[[Q1:.*]] = bcast.compare EQ, %[[TQ]], %{{.*}}
// CHECK-NEXT:    %[[OK:.*]] = bcast.or %[[OR]], %[[Q1]]
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %[[TP]], %[[TQ]] message = "operands could not be broadcast together with remapped shapes [original->remapped]: ({0},3,4)->({0},newaxis,newaxis) ({1},4,6)->({1},newaxis,newaxis)  and requested shape (3,6)"
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_size %[[P]], %[[Q]]
// CHECK-NEXT:    %[[A:.*]] = bcast.dynamic_broadcast_in_dim %a, [%[[S]], 3, 4], dims = [0, 1, 2] nonexpanding = [1, 2]
// CHECK-NEXT:    %[[B:.*]] = bcast.dynamic_broadcast_in_dim %b, [%[[S]], 4, 6], dims = [0, 1, 2] nonexpanding = [1, 2]
// CHECK-NEXT:    %r = bcast.dot_general %[[A]], %[[B]], batching_dims = [0] x [0], contracting_dims = [2] x [1]
// LOC-LABEL: func.func @two_run_time_batches
// LOC:         bcast.shape_assertion {{.*}} loc("{{.*}}make_explicit_dynamic_matmul.mlir":[[# @LINE + 3]]:8)
// LOC:         bcast.dot_general {{.*}} loc("{{.*}}make_explicit_dynamic_matmul.mlir":[[# @LINE + 2]]:8)
func.func @two_run_time_batches(%a: tensor<?x3x4xf32>, %b: tensor<?x4x6xf32>) -> tensor<?x3x6xf32> {
  %r = bcast.matmul %a, %b : (tensor<?x3x4xf32>, tensor<?x4x6xf32>) -> tensor<?x3x6xf32>
  func.return %r : tensor<?x3x6xf32>
}

// -----

// The contracted sizes are checked first (NumPy's order), in the gufunc's
// words; a ? batch dim against a static 5 is checked to be 5 or 1; the
// operands are converted to the promoted type before the broadcast.
// CHECK-LABEL: func.func @core_then_batch
// CHECK:         bcast.shape_assertion %{{.*}}, %{{.*}} message = "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from {0})"
// CHECK:         bcast.shape_assertion %{{.*}} message = "operands could not be broadcast together with remapped shapes [original->remapped]: ({0},3,{1})->({0},newaxis,newaxis) (5,4,6)->(5,newaxis,newaxis)  and requested shape (3,6)"
// CHECK:         %[[C:.*]] = bcast.convert %a : (tensor<?x3x?xf32>) -> tensor<?x3x?xf64>
// CHECK-NEXT:    bcast.dynamic_broadcast_in_dim %[[C]], [5, 3, %{{.*}}], dims = [0, 1, 2] nonexpanding = [1, 2] : (tensor<?x3x?xf64>) -> tensor<5x3x?xf64>
// CHECK:         bcast.dot_general {{.*}} -> tensor<5x3x6xf64>
func.func @core_then_batch(%a: tensor<?x3x?xf32>, %b: tensor<5x4x6xf64>) -> tensor<5x3x6xf64> {
  %r = bcast.matmul %a, %b : (tensor<?x3x?xf32>, tensor<5x4x6xf64>) -> tensor<5x3x6xf64>
  func.return %r : tensor<5x3x6xf64>
}

// -----

// x @ x.mT: the batch sizes are one size through the transpose, so nothing
// is checked or broadcast: the dot_general of the operands as they are.
// CHECK-LABEL: func.func @batched_gram
// CHECK-NEXT:    %t = bcast.transpose
// CHECK-NEXT:    %r = bcast.dot_general %x, %t, batching_dims = [0] x [0], contracting_dims = [2] x [1]
func.func @batched_gram(%x: tensor<?x3x4xf32>) -> tensor<?x3x3xf32> {
  %t = bcast.transpose %x, dims = [0, 2, 1] : (tensor<?x3x4xf32>) -> tensor<?x4x3xf32>
  %r = bcast.matmul %x, %t : (tensor<?x3x4xf32>, tensor<?x4x3xf32>) -> tensor<?x3x3xf32>
  func.return %r : tensor<?x3x3xf32>
}
