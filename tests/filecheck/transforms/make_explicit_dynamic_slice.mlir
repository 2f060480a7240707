// dynamic_slice of an operand with ? dims (docs/semantics.md, "Dynamic and
// bounded shapes"): the block size along a ? dim is checked to fit the
// run-time size, before the op and at its location (a shape_assertion of the
// dim's size); a size of 0 needs no check, nor does a static dim.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC

// CHECK-LABEL: func.func @rows
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[NT:.*]] = bcast.size_to_tensor %[[N]] : tensor<i64>
// CHECK-NEXT:    %[[Z:.*]] = bcast.constant dense<2> : tensor<i64>
// CHECK-NEXT:    %[[OK:.*]] = bcast.compare LE, %[[Z]], %[[NT]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %[[NT]] message = "dynamic_slice size 2 of dimension 0 is larger than the operand's size {0}" : tensor<i1>, tensor<i64>
// CHECK-NEXT:    %r = bcast.dynamic_slice %x[%i, %j], sizes = [2, 3]
// LOC-LABEL: func.func @rows
// LOC:         bcast.shape_assertion {{.*}} loc("{{.*}}make_explicit_dynamic_slice.mlir":[[# @LINE + 3]]:8)
// LOC-NEXT:    bcast.dynamic_slice {{.*}} loc("{{.*}}make_explicit_dynamic_slice.mlir":[[# @LINE + 2]]:8)
func.func @rows(%x: tensor<?x4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %r = bcast.dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @empty_block
// CHECK-NOT:     shape_assertion
// CHECK:         bcast.dynamic_slice %x[%i], sizes = [0]
func.func @empty_block(%x: tensor<?xf32>, %i: tensor<i32>) -> tensor<0xf32> {
  %r = bcast.dynamic_slice %x[%i], sizes = [0] : (tensor<?xf32>, tensor<i32>) -> tensor<0xf32>
  func.return %r : tensor<0xf32>
}

// -----

// StableHLO's dynamic_slice with a ? dim imports as bcast's (JAX writes it
// for lax.dynamic_slice of a shape-polymorphic array).
// CHECK-LABEL: func.func @stablehlo
// CHECK:         bcast.shape_assertion
// CHECK:         bcast.dynamic_slice %x[%i, %i], sizes = [1, 4] : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
func.func @stablehlo(%x: tensor<?x4xf32>, %i: tensor<i32>) -> tensor<1x4xf32> {
  %r = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 4] : (tensor<?x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

// gather from an operand with a ? dim (jnp.take(x, rows, axis=0) under
// symbolic shapes): its slice size along the ? dim is checked the same way.
// CHECK-LABEL: func.func @gather
// CHECK:         bcast.shape_assertion %{{.*}}, %{{.*}} message = "gather slice size 1 of dimension 0 is larger than the operand's size {0}"
// CHECK-NEXT:    bcast.gather %x[%i]
func.func @gather(%x: tensor<?x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<?x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
