// RUN: bcast-opt %s --split-input-file -p bcast-sink-broadcasts | filecheck %s
// The output verifies again (the second bcast-opt verifies its input).
// RUN: bcast-opt %s --split-input-file -p bcast-sink-broadcasts | bcast-opt - --split-input-file | filecheck %s
// With canonicalize and cse, a JAX-style chain computes on the small shape.
// RUN: bcast-opt %s --split-input-file -p bcast-sink-broadcasts,canonicalize,cse | filecheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @same_broadcasts
// CHECK-NEXT:    %[[S:.*]] = bcast.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[S]], dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[B]]
func.func @same_broadcasts(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.broadcast_in_dim %y, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %2 = bcast.add %0, %1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %2 : tensor<4x3xf32>
}

// -----

// A scalar broadcast and a splat constant fit any kind; sinking repeats
// through the chain (multiply, then negate, then compare).
// CHECK-LABEL: func.func @scalar_and_splat_alongside
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.multiply %x, %[[S]] : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[N:.*]] = bcast.negate %[[M]] : tensor<4x1xf32>
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<2.000000e+00> : tensor<4x1xf32>
// CHECK-NEXT:    %[[G:.*]] = bcast.compare GT, %[[N]], %[[C]] : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[G]], dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
// CHECK-NEXT:    func.return %[[B]]
func.func @scalar_and_splat_alongside(%x: tensor<4x1xf32>, %s: tensor<f32>) -> tensor<4x3xi1> {
  %0 = bcast.broadcast_in_dim %x, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %1 = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %2 = bcast.multiply %0, %1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = bcast.negate %2 : tensor<4x3xf32>
  %c = bcast.constant dense<2.0> : tensor<4x3xf32>
  %4 = bcast.compare GT, %3, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
  func.return %4 : tensor<4x3xi1>
}

// -----

// Scalars only: computed on rank 0, broadcast with dims = [].
// CHECK-LABEL: func.func @scalars_only
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[S:.*]] = bcast.subtract %a, %[[C]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[S]], dims = [] : (tensor<i32>) -> tensor<2x2xi32>
// CHECK-NEXT:    func.return %[[B]]
func.func @scalars_only(%a: tensor<i32>) -> tensor<2x2xi32> {
  %0 = bcast.broadcast_in_dim %a, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
  %c = bcast.constant dense<1> : tensor<2x2xi32>
  %1 = bcast.subtract %0, %c : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  func.return %1 : tensor<2x2xi32>
}

// -----

// select and convert sink too; element types are kept.
// CHECK-LABEL: func.func @select_and_convert
// CHECK-NEXT:    %[[S:.*]] = bcast.select %p, %t, %f : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:    %[[C:.*]] = bcast.convert %[[S]] : (tensor<3xi32>) -> tensor<3xf64>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[C]], dims = [0] : (tensor<3xf64>) -> tensor<3x5xf64>
// CHECK-NEXT:    func.return %[[B]]
func.func @select_and_convert(%p: tensor<3xi1>, %t: tensor<3xi32>, %f: tensor<3xi32>) -> tensor<3x5xf64> {
  %0 = bcast.broadcast_in_dim %p, dims = [0] : (tensor<3xi1>) -> tensor<3x5xi1>
  %1 = bcast.broadcast_in_dim %t, dims = [0] : (tensor<3xi32>) -> tensor<3x5xi32>
  %2 = bcast.broadcast_in_dim %f, dims = [0] : (tensor<3xi32>) -> tensor<3x5xi32>
  %3 = bcast.select %0, %1, %2 : (tensor<3x5xi1>, tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
  %4 = bcast.convert %3 : (tensor<3x5xi32>) -> tensor<3x5xf64>
  func.return %4 : tensor<3x5xf64>
}

// -----

// Not sunk: different dims, different source shapes, an operand that is not
// a broadcast, and implicit broadcasting or broadcast_dimensions.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %[[A:.*]] = bcast.broadcast_in_dim %x, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %{{.*}} = bcast.add %[[A]], %[[B]]
// CHECK-NEXT:    %[[C:.*]] = bcast.broadcast_in_dim %u, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %{{.*}} = bcast.add %[[A]], %[[C]]
// CHECK-NEXT:    %{{.*}} = bcast.add %[[A]], %m
// CHECK-NEXT:    %{{.*}} = bcast.add %x, %[[A]] : (tensor<3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %{{.*}} = bcast.add %x, %[[A]] broadcast_dimensions = [1]
func.func @kept(%x: tensor<3xf32>, %u: tensor<1x3xf32>, %m: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>) {
  %0 = bcast.broadcast_in_dim %x, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
  %1 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<3x3xf32>
  %2 = bcast.add %0, %1 : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %3 = bcast.broadcast_in_dim %u, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<3x3xf32>
  %4 = bcast.add %0, %3 : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %5 = bcast.add %0, %m : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %6 = bcast.add %x, %0 : (tensor<3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %7 = bcast.add %x, %0 broadcast_dimensions = [1] : (tensor<3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %2, %4, %5, %6, %7 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

// The chain5 JAX export (scalar constant + broadcast dims = [], two-step rank
// add): the part that only depends on %row sinks, the rest stays at 4x5.
// PIPE-LABEL: func.func @jax_chain
// PIPE-NEXT:    %[[C:.*]] = bcast.constant dense<1.000000e+00> : tensor<5xf32>
// PIPE-NEXT:    %[[A:.*]] = bcast.add %row, %[[C]] : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// PIPE-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %[[A]], dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// PIPE-NEXT:    %[[M:.*]] = bcast.multiply %x, %[[B]] : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// PIPE-NEXT:    func.return %[[M]]
func.func @jax_chain(%x: tensor<4x5xf32>, %row: tensor<5xf32>) -> tensor<4x5xf32> {
  %0 = bcast.broadcast_in_dim %row, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
  %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
  %cst = bcast.constant dense<1.0> : tensor<f32>
  %2 = bcast.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
  %3 = bcast.broadcast_in_dim %row, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
  %4 = bcast.add %3, %2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %5 = bcast.multiply %x, %4 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %5 : tensor<4x5xf32>
}

// -----

// Sinking stops at a reduction: the add below it is computed on the small
// shape and broadcast once, and the reduction reads that broadcast (which
// canonicalize then folds: reduce of a broadcast over a created dim).
// CHECK-LABEL: func.func @reduce_stops_sinking
//  CHECK-NEXT:   %[[S:.*]] = bcast.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %[[B:.*]] = bcast.broadcast_in_dim %[[S]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
//  CHECK-NEXT:   %[[R:.*]] = bcast.reduce add %[[B]], dims = [0] : (tensor<3x4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   func.return %[[R]]
// PIPE-LABEL: func.func @reduce_stops_sinking
//  PIPE-NEXT:   %[[S:.*]] = bcast.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  PIPE-NEXT:   %[[C:.*]] = bcast.constant dense<3.000000e+00> : tensor<4xf32>
//  PIPE-NEXT:   %[[M:.*]] = bcast.multiply %[[S]], %[[C]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  PIPE-NEXT:   func.return %[[M]]
func.func @reduce_stops_sinking(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = bcast.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %b = bcast.broadcast_in_dim %y, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %s = bcast.add %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %r = bcast.reduce add %s, dims = [0] : (tensor<3x4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// Broadcasts of reduced values (x - max / sum) sink like any other: the
// divide runs on the reduced shape, and one broadcast remains.
// CHECK-LABEL: func.func @reduced_operands_sink
//  CHECK-NEXT:   %[[M:.*]] = bcast.reduce maximum %x, dims = [1]
//  CHECK-NEXT:   %[[S:.*]] = bcast.reduce add %x, dims = [1]
//  CHECK-NEXT:   %[[D:.*]] = bcast.divide %[[M]], %[[S]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
//  CHECK-NEXT:   %[[B:.*]] = bcast.broadcast_in_dim %[[D]], dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
//  CHECK-NEXT:   %[[R:.*]] = bcast.subtract %x, %[[B]]
//  CHECK-NEXT:   func.return %[[R]]
func.func @reduced_operands_sink(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<3x4xf32>) -> tensor<3xf32>
  %s = bcast.reduce add %x, dims = [1] : (tensor<3x4xf32>) -> tensor<3xf32>
  %mb = bcast.broadcast_in_dim %m, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
  %sb = bcast.broadcast_in_dim %s, dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
  %d = bcast.divide %mb, %sb : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %r = bcast.subtract %x, %d : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

// A dynamic function: dynamic_broadcast_in_dims of static sources of one
// shape, with the same dims and the very same output sizes, sink as the
// static ones do: add and exponential run on tensor<4xf32>, one broadcast.
// PIPE-LABEL: func.func @dynamic_rows(
//  PIPE-NEXT:   %[[N:.+]] = bcast.dim %x, 0
//  PIPE-NEXT:   %[[S:.+]] = bcast.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  PIPE-NEXT:   %[[E:.+]] = bcast.exponential %[[S]] : tensor<4xf32>
//  PIPE-NEXT:   %[[EB:.+]] = bcast.dynamic_broadcast_in_dim %[[E]], [%[[N]], 4], dims = [1] :
//  PIPE-NEXT:   %[[R:.+]] = bcast.multiply %x, %[[EB]]
//  PIPE-NEXT:   func.return %[[R]]
func.func @dynamic_rows(%x: tensor<?x4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %n = bcast.dim %x, 0 : tensor<?x4xf32>
  %ab = bcast.dynamic_broadcast_in_dim %a, [%n, 4], dims = [1] : (tensor<4xf32>) -> tensor<?x4xf32>
  %bb = bcast.dynamic_broadcast_in_dim %b, [%n, 4], dims = [1] : (tensor<4xf32>) -> tensor<?x4xf32>
  %s = bcast.add %ab, %bb : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %e = bcast.exponential %s : tensor<?x4xf32>
  %r = bcast.multiply %x, %e : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
