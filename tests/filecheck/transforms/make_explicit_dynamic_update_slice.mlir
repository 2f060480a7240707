// dynamic_update_slice with a ? dim on either side (docs/semantics.md,
// "Dynamic and bounded shapes"): along each such dim the update's size is
// checked to be no larger than the operand's at run time, before the op and
// at its location (a shape_assertion carrying both sizes); a static pair was
// checked by the verifier, and an update of size 0 fits any operand. The
// StableHLO op imports with its ? dims, and -t stablehlo writes the checks as
// JAX's shape_assertion custom calls.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s --check-prefix=FOLD
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit -t stablehlo | filecheck %s --check-prefix=HLO

// CHECK-LABEL: func.func @row_into_rows
// CHECK-NEXT:    %[[U:.*]] = bcast.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[NT:.*]] = bcast.size_to_tensor %[[N]] : tensor<i64>
// CHECK-NEXT:    %[[OK:.*]] = bcast.compare LE, %[[U]], %[[NT]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %[[U]], %[[NT]] message = "dynamic_update_slice update has size {0} in dimension 0, larger than the operand's {1}" : tensor<i1>, tensor<i64>, tensor<i64>
// CHECK-NEXT:    %r = bcast.dynamic_update_slice %x[%i, %i], %u
// CHECK-NOT:     shape_assertion
// LOC-LABEL: func.func @row_into_rows
// LOC:         bcast.shape_assertion {{.*}} loc("{{.*}}make_explicit_dynamic_update_slice.mlir":[[# @LINE + 3]]:8)
// LOC-NEXT:    bcast.dynamic_update_slice {{.*}} loc("{{.*}}make_explicit_dynamic_update_slice.mlir":[[# @LINE + 2]]:8)
func.func @row_into_rows(%x: tensor<?x4xf32>, %u: tensor<1x4xf32>, %i: tensor<i32>) -> tensor<?x4xf32> {
  %r = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<?x4xf32>, tensor<i32>, tensor<i32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// A ? update into a static operand: the update's run-time size against the
// operand's static one.
// CHECK-LABEL: func.func @rows_into_block
// CHECK-NEXT:    %[[U:.*]] = bcast.dim %u, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[UT:.*]] = bcast.size_to_tensor %[[U]] : tensor<i64>
// CHECK-NEXT:    %[[N:.*]] = bcast.constant dense<8> : tensor<i64>
// CHECK-NEXT:    %[[OK:.*]] = bcast.compare LE, %[[UT]], %[[N]]
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %[[UT]], %[[N]]
// CHECK-NEXT:    %r = bcast.dynamic_update_slice
func.func @rows_into_block(%x: tensor<8x4xf32>, %u: tensor<?x4xf32>, %i: tensor<i64>) -> tensor<8x4xf32> {
  %r = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<8x4xf32>, tensor<i64>, tensor<i64>, tensor<?x4xf32>) -> tensor<8x4xf32>
  func.return %r : tensor<8x4xf32>
}

// -----

// Equal ? types prove nothing about sizes: the update is not folded to the
// result (canonicalize would fold a static one as large as the operand).
// CHECK-LABEL: func.func @same_dynamic_type
// CHECK:         bcast.shape_assertion
// CHECK:         %r = bcast.dynamic_update_slice %x[%i], %u
// CHECK-NEXT:    func.return %r
// FOLD-LABEL: func.func @same_dynamic_type
// FOLD-NEXT:    %r = bcast.dynamic_update_slice %x[%i], %u
// FOLD-NEXT:    func.return %r
func.func @same_dynamic_type(%x: tensor<?xf32>, %u: tensor<?xf32>, %i: tensor<i32>) -> tensor<?xf32> {
  %r = bcast.dynamic_update_slice %x[%i], %u : (tensor<?xf32>, tensor<i32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// An empty update fits any operand: no check.
// CHECK-LABEL: func.func @empty_update
// CHECK-NOT:     shape_assertion
// CHECK:         bcast.dynamic_update_slice
func.func @empty_update(%x: tensor<?xf32>, %u: tensor<0xf32>, %i: tensor<i32>) -> tensor<?xf32> {
  %r = bcast.dynamic_update_slice %x[%i], %u : (tensor<?xf32>, tensor<i32>, tensor<0xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// StableHLO's op with ? dims on both sides, as JAX's scan over a `b` axis
// writes it: imported, checked, written back.
// HLO-LABEL: func.func @main
// HLO:         stablehlo.get_dimension_size %u, dim = 0
// HLO:         stablehlo.compare LE
// HLO-NEXT:    "stablehlo.custom_call"({{.*}}) <{call_target_name = "shape_assertion"{{.*}}error_message = "dynamic_update_slice update has size {0} in dimension 0, larger than the operand's {1}"
// HLO:         stablehlo.get_dimension_size %x, dim = 1
// HLO:         "stablehlo.custom_call"({{.*}}dimension 1, larger than the operand's {1}"
// HLO-NEXT:    %r = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x?xf32>, tensor<?x?xf32>, tensor<i64>, tensor<i64>) -> tensor<8x?xf32>
func.func @main(%x: tensor<8x?xf32>, %u: tensor<?x?xf32>, %i: tensor<i64>) -> tensor<8x?xf32> {
  %r = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x?xf32>, tensor<?x?xf32>, tensor<i64>, tensor<i64>) -> tensor<8x?xf32>
  return %r : tensor<8x?xf32>
}
