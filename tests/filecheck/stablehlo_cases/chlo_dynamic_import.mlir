// The dynamic and bounded cases of StableHLO's
// stablehlo/tests/chlo/chlo_legalize_to_stablehlo_broadcast.mlir as CHLO, the
// way JAX and upstream write them, imported by convert-stablehlo-to-bcast:
// the same shapes as chlo_dynamic_broadcast.mlir (which writes them as bcast
// ops). The import writes a chlo.broadcast_* op with a `?` as bcast's
// implicit op, so bcast-make-explicit decides each pair of dims and leaves a
// check only where the run-time sizes must settle it. The refused programs
// are in chlo_dynamic_import_invalid.mlir.

// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s --check-prefix=IMPORT
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit,canonicalize,cse | filecheck %s

// [<=10] x [<=10] => [<=10]: either may be 1, so one check.
// IMPORT-LABEL: func.func @add_bounded_dynamic_no_broadcast
// IMPORT-NEXT:    %r = bcast.add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-LABEL: func.func @add_bounded_dynamic_no_broadcast
// CHECK:         bcast.check_broadcastable [%0] at [0], [%1] at [0] checking [0]
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.add %{{.*}}, %{{.*}} : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
func.func @add_bounded_dynamic_no_broadcast(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = chlo.broadcast_add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [<=10] x [] => [<=10]: the scalar goes to the bounded operand's size; no check.
// CHECK-LABEL: func.func @add_bounded_dynamic_expanding
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [%0], dims = [] : (tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %a, %1
func.func @add_bounded_dynamic_expanding(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = chlo.broadcast_add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [?] x [?, ?] => [?, ?]: one check of the trailing sizes.
// CHECK-LABEL: func.func @add_dynamic_broadcast
// CHECK-DAG:     %[[N:.*]] = bcast.dim %a, 0 : tensor<?xf32>
// CHECK-DAG:     %[[M0:.*]] = bcast.dim %b, 0 : tensor<?x?xf32>
// CHECK-DAG:     %[[M1:.*]] = bcast.dim %b, 1 : tensor<?x?xf32>
// CHECK:         bcast.check_broadcastable [%[[N]]] at [1], [%[[M0]], %[[M1]]] at [0, 1] checking [1]
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.add {{.*}} -> tensor<?x?xf32>
func.func @add_dynamic_broadcast(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = chlo.broadcast_add %a, %b : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// The same shapes with an EQ comparison (i1 result).
// CHECK-LABEL: func.func @compare_dynamic_broadcast
// CHECK:         bcast.check_broadcastable
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.compare EQ, %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
func.func @compare_dynamic_broadcast(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xi1> {
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction EQ>} : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  func.return %r : tensor<?x?xi1>
}

// -----

// broadcast_dimensions with a `?`: [?] placed on dim 0 of [?, 4]. The import
// first gives it the result's rank with a broadcast that stretches nothing
// ([n] -> [n, 1]); NumPy's rule then stretches the 1 to 4 and checks n
// against the rows.
// IMPORT-LABEL: func.func @add_dynamic_broadcast_dimensions
// IMPORT-NEXT:    %[[N:.*]] = bcast.dim %b, 0 : tensor<?xf32>
// IMPORT-NEXT:    %[[B:.*]] = bcast.dynamic_broadcast_in_dim %b, [%[[N]], 1], dims = [0] : (tensor<?xf32>) -> tensor<?x1xf32>
// IMPORT-NEXT:    %{{.*}} = bcast.add %a, %[[B]] : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
// CHECK-LABEL: func.func @add_dynamic_broadcast_dimensions
// CHECK:         bcast.check_broadcastable [%{{.*}}, 4] at [0, 1], [%{{.*}}, 1] at [0, 1] checking [0]
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.dynamic_broadcast_in_dim {{.*}} expanding = [1] : (tensor<?x1xf32>) -> tensor<?x4xf32>
func.func @add_dynamic_broadcast_dimensions(%a: tensor<?x4xf32>, %b: tensor<?xf32>) -> tensor<?x4xf32> {
  %r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// A static operand placed by broadcast_dimensions beside a `?` one: the
// rank-expanding broadcast is static ([4] -> [1, 4]).
// IMPORT-LABEL: func.func @add_static_row_broadcast_dimensions
// IMPORT-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
// IMPORT-NEXT:    %{{.*}} = bcast.add %a, %[[B]] : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-LABEL: func.func @add_static_row_broadcast_dimensions
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.add {{.*}} -> tensor<?x4xf32>
func.func @add_static_row_broadcast_dimensions(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %r = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// select of [1] x [2, ?, 8] x [2, 8, 8]: the ? must be 1 or 8, and is checked.
// (Upstream declares the result [2, ?, 8]; bcast infers [2, 8, 8] and refuses
// a declared type less precise than that: chlo_dynamic_import_invalid.mlir.)
// IMPORT-LABEL: func.func @selectv2_dynamic_ranked
// IMPORT-NEXT:    %r = bcast.select %p, %a, %b : (tensor<1xi1>, tensor<2x?x8xi32>, tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
// CHECK-LABEL: func.func @selectv2_dynamic_ranked
// CHECK-NEXT:    %0 = bcast.dim %a, 1 : tensor<2x?x8xi32>
// CHECK-NEXT:    bcast.check_broadcastable [1] at [2], [2, %0, 8] at [0, 1, 2], [2, 8, 8] at [0, 1, 2] checking [1]
// CHECK:         bcast.select {{.*}} -> tensor<2x8x8xi32>
func.func @selectv2_dynamic_ranked(%p: tensor<1xi1>, %a: tensor<2x?x8xi32>, %b: tensor<2x8x8xi32>) -> tensor<2x8x8xi32> {
  %r = chlo.broadcast_select %p, %a, %b : (tensor<1xi1>, tensor<2x?x8xi32>, tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
  func.return %r : tensor<2x8x8xi32>
}

// -----

// CHLO's unary ops keep a `?` as they are.
// IMPORT-LABEL: func.func @unary_dynamic
// IMPORT-NEXT:    %e = bcast.erf %x : tensor<?x3xf32>
// IMPORT-NEXT:    %r = bcast.multiply %e, %e : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
func.func @unary_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %e = chlo.erf %x : tensor<?x3xf32> -> tensor<?x3xf32>
  %r = chlo.square %e : tensor<?x3xf32> -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}
