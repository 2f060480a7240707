// The dynamic and bounded cases of StableHLO's
// stablehlo/tests/chlo/chlo_legalize_to_stablehlo_broadcast.mlir and the
// broadcasting case of chlo_legalize_to_stablehlo_dynamic.mlir, as bcast
// programs: the same operand and result shapes, bcast's ops in place of the
// chlo.broadcast_* ops, made explicit and canonicalized. Where upstream emits
// shape.cstr_broadcastable + shape.assuming + dynamic_broadcast_in_dim
// without expansion facts, bcast emits one bcast.check_broadcastable at
// function entry and dynamic_broadcast_in_dim with the facts it knows.
// The invalid cases are in chlo_dynamic_broadcast_invalid.mlir; docs/stablehlo.md
// counts them all.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse | filecheck %s

// [<=10] x [<=10] => [<=10]. Upstream assumes the sizes equal and adds without a
// broadcast; under NumPy's rule either may be 1, so bcast checks and broadcasts.
// CHECK-LABEL: func.func @add_bounded_dynamic_no_broadcast
// CHECK:         bcast.check_broadcastable [%0] at [0], [%1] at [0] checking [0]
// CHECK:         %r = bcast.add %{{.*}}, %{{.*}} : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
func.func @add_bounded_dynamic_no_broadcast(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [<=10] x [] => [<=10]: the scalar goes to the bounded operand's run-time size; no check.
// CHECK-LABEL: func.func @add_bounded_dynamic_expanding
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [%0], dims = [] : (tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %a, %1
func.func @add_bounded_dynamic_expanding(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [?] x [?, ?] => [?, ?]: one check of the trailing sizes, both operands broadcast
// to [m, broadcast size]; the dim that only %b has is its own (nonexpanding).
// CHECK-LABEL: func.func @add_dynamic_broadcast
// CHECK-DAG:     %[[N:.*]] = bcast.dim %a, 0 : tensor<?xf32>
// CHECK-DAG:     %[[M0:.*]] = bcast.dim %b, 0 : tensor<?x?xf32>
// CHECK-DAG:     %[[M1:.*]] = bcast.dim %b, 1 : tensor<?x?xf32>
// CHECK-DAG:     %[[S:.*]] = bcast.broadcast_size %[[N]], %[[M1]]
// CHECK:         bcast.check_broadcastable [%[[N]]] at [1], [%[[M0]], %[[M1]]] at [0, 1] checking [1]
// CHECK-NEXT:    bcast.dynamic_broadcast_in_dim %a, [%[[M0]], %[[S]]], dims = [1] : (tensor<?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:    bcast.dynamic_broadcast_in_dim %b, [%[[M0]], %[[S]]], dims = [0, 1] nonexpanding = [0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NOT:     bcast.check_broadcastable
func.func @add_dynamic_broadcast(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = bcast.add %a, %b : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// The same shapes with an EQ comparison (i1 result).
// CHECK-LABEL: func.func @compare_dynamic_broadcast
// CHECK:         bcast.check_broadcastable
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.compare EQ, %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
func.func @compare_dynamic_broadcast(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xi1> {
  %r = bcast.compare EQ, %a, %b : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  func.return %r : tensor<?x?xi1>
}

// -----

// select of [1] x [2, ?, 8] x [2, 8, 8]: the ? must be 1 or 8, so bcast infers
// the result [2, 8, 8] (upstream declares [2, ?, 8]; bcast refuses a declared
// type less precise than the inferred one) and checks the ? against 8.
// CHECK-LABEL: func.func @selectv2_dynamic_ranked
// CHECK-NEXT:    %0 = bcast.dim %a, 1 : tensor<2x?x8xi32>
// CHECK-NEXT:    bcast.check_broadcastable [1] at [2], [2, %0, 8] at [0, 1, 2], [2, 8, 8] at [0, 1, 2] checking [1]
// CHECK-NEXT:    %1 = bcast.broadcast_in_dim %p, dims = [2] : (tensor<1xi1>) -> tensor<2x8x8xi1>
// CHECK-NEXT:    %2 = bcast.dynamic_broadcast_in_dim %a, [2, 8, 8], dims = [0, 1, 2] nonexpanding = [0, 2] : (tensor<2x?x8xi32>) -> tensor<2x8x8xi32>
// CHECK-NEXT:    %r = bcast.select %1, %2, %b
func.func @selectv2_dynamic_ranked(%p: tensor<1xi1>, %a: tensor<2x?x8xi32>, %b: tensor<2x8x8xi32>) -> tensor<2x8x8xi32> {
  %r = bcast.select %p, %a, %b : (tensor<1xi1>, tensor<2x?x8xi32>, tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
  func.return %r : tensor<2x8x8xi32>
}

// -----

// XLA-style broadcast_dimensions: [1, 4] with [4] placed on dim 1.
// CHECK-LABEL: func.func @dynamic_non_scalar_broadcast_dimensions
// CHECK-NEXT:    %0 = bcast.reshape %b : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %r = bcast.add %a, %0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
module attributes {bcast.semantics = "xla"} {
  func.func @dynamic_non_scalar_broadcast_dimensions(%a: tensor<1x4xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
    %r = bcast.add %a, %b broadcast_dimensions = [1] : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    func.return %r : tensor<1x4xf32>
  }
}

// -----

// [1, 4] with a scalar.
// CHECK-LABEL: func.func @dynamic_non_scalar_by_scalar_broadcast_dimensions
// CHECK-NEXT:    %0 = bcast.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %r = bcast.add %a, %0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
module attributes {bcast.semantics = "xla"} {
  func.func @dynamic_non_scalar_by_scalar_broadcast_dimensions(%a: tensor<1x4xf32>, %b: tensor<f32>) -> tensor<1x4xf32> {
    %r = bcast.add %a, %b : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %r : tensor<1x4xf32>
  }
}

// -----

// chlo_legalize_to_stablehlo_dynamic.mlir, constant_like of a ?x? tensor: the
// constant broadcast to the run-time sizes of %x (upstream: shape_of and
// dynamic_broadcast_in_dim), here written with the explicit form's ops.
// CHECK-LABEL: func.func @constant_like_dynamic
// CHECK-NEXT:    %n = bcast.dim %x, 0
// CHECK-NEXT:    %m = bcast.dim %x, 1
// CHECK-NEXT:    %c = bcast.constant dense<3.200000e+00> : tensor<f32>
// CHECK-NEXT:    %r = bcast.dynamic_broadcast_in_dim %c, [%n, %m], dims = [] : (tensor<f32>) -> tensor<?x?xf32>
func.func @constant_like_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c = bcast.constant dense<3.2> : tensor<f32>
  %n = bcast.dim %x, 0 : tensor<?x?xf32>
  %m = bcast.dim %x, 1 : tensor<?x?xf32>
  %r = bcast.dynamic_broadcast_in_dim %c, [%n, %m], dims = [] : (tensor<f32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}
