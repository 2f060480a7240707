// bcast-make-explicit on the two dynamic forms that need more than the
// table's checks (docs/semantics.md, "Dynamic and bounded shapes").

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// The output verifies again, and the check keeps the location of its op.
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC

// A declared result more static than the inferred one: the operands are
// checked as the table says (NumPy's words), then the declared sizes are
// facts checked on the inferred run-time shape, at the op, in the
// reference's words (1 and 1 broadcast to 1, which a declared 4 does not
// allow: the operands are not stretched into it); then the operands are
// broadcast into the declared sizes.
// CHECK-LABEL: func.func @declared_static
// CHECK-NEXT:    %[[X:.*]] = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    %[[Y:.*]] = bcast.dim %y, 0 : tensor<?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[X]]] at [0], [%[[Y]]] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %[[N:.*]] = bcast.broadcast_size %[[X]], %[[Y]]
// CHECK-NEXT:    %[[T:.*]] = bcast.size_to_tensor %[[N]] : tensor<i64>
// CHECK-NEXT:    %[[FOUR:.*]] = bcast.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %[[OK:.*]] = bcast.compare EQ, %[[T]], %[[FOUR]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %[[T]] message = "'bcast.add' op result has shape ({0},) at run time, which its type tensor<4xf32> does not allow" : tensor<i1>, tensor<i64>
// CHECK-NEXT:    %[[BX:.*]] = bcast.dynamic_broadcast_in_dim %x, [4], dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[BY:.*]] = bcast.dynamic_broadcast_in_dim %y, [4], dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %r = bcast.add %[[BX]], %[[BY]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// LOC-LABEL: func.func @declared_static
// LOC: bcast.shape_assertion {{.*}} loc("{{.*}}make_explicit_dynamic_declared.mlir":[[# @LINE + 2]]:8)
func.func @declared_static(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<4xf32> {
  %r = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// Two facts in one assertion: a static 3 (equal) and a bound of 8 (at most)
// on a rank-3 result whose middle dim is static; %x used twice is one size.
// CHECK-LABEL: func.func @declared_static_and_bounded
// CHECK:         %[[A:.*]] = bcast.compare EQ, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK:         %[[B:.*]] = bcast.compare LE, %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    %[[AB:.*]] = bcast.and %[[A]], %[[B]] : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT:    bcast.shape_assertion %[[AB]], %{{.*}}, %{{.*}} message = "'bcast.multiply' op result has shape ({0}, 2, {1}) at run time, which its type tensor<3x2x?xf32, #stablehlo.bounds<?, ?, 8>> does not allow" : tensor<i1>, tensor<i64>, tensor<i64>
func.func @declared_static_and_bounded(%x: tensor<?x2x?xf32>) -> tensor<3x2x?xf32, #stablehlo.bounds<?, ?, 8>> {
  %r = bcast.multiply %x, %x : (tensor<?x2x?xf32>, tensor<?x2x?xf32>) -> tensor<3x2x?xf32, #stablehlo.bounds<?, ?, 8>>
  func.return %r : tensor<3x2x?xf32, #stablehlo.bounds<?, ?, 8>>
}

// -----

// A transposing broadcast of dynamic dims: transpose first (its sizes
// permuted), then a broadcast with sorted dims whose facts come from the
// operand's own sizes (its ? is the result's: nonexpanding; its static 1
// into 4: expanding), as the static form is made explicit.
// CHECK-LABEL: func.func @transposing
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?x1xf32>
// CHECK-NEXT:    %[[T:.*]] = bcast.transpose %x, dims = [1, 0] : (tensor<?x1xf32>) -> tensor<1x?xf32>
// CHECK-NEXT:    %r = bcast.dynamic_broadcast_in_dim %[[T]], [4, %[[N]]], dims = [0, 1] expanding = [0] nonexpanding = [1] : (tensor<1x?xf32>) -> tensor<4x?xf32>
func.func @transposing(%x: tensor<?x1xf32>) -> tensor<4x?xf32> {
  %r = bcast.broadcast_in_dim %x, dims = [1, 0] : (tensor<?x1xf32>) -> tensor<4x?xf32>
  func.return %r : tensor<4x?xf32>
}
