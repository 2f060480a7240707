// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: a dot_general is a fusion boundary. A parallel nest
// over the result (batch dims, lhs's free dims, rhs's free dims) holds one
// scf.for per contracting dim carrying the sum from 0 (bcast.reduction =
// "add"); the epilogue (here a bias add, its broadcast an index expression)
// is one fused nest over the result. An f32/f64 contraction of operands in
// memory whose nest is a batch of matrix products is marked bcast.gemm
// (what a target may call a BLAS for).

// CHECK-LABEL: func.func @matmul_bias
// CHECK:        %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:        %[[MM:.*]] = memref.alloc() : memref<8x4xf32>
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:         %[[X:.*]] = memref.load %x[%[[I]], %[[K]]] : memref<8x16xf32>
// CHECK-NEXT:         %[[W:.*]] = memref.load %w[%[[K]], %[[J]]] : memref<16x4xf32>
// CHECK-NEXT:         %[[P:.*]] = arith.mulf %[[X]], %[[W]] : f32
// CHECK-NEXT:         %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:         scf.yield %[[S]] : f32
// CHECK-NEXT:       } {bcast.reduction = "add"}
// CHECK-NEXT:       memref.store %[[SUM]], %[[MM]][%[[I]], %[[J]]] : memref<8x4xf32>
// CHECK-NEXT:     } {bcast.parallel}
// CHECK-NEXT:   } {bcast.parallel, bcast.gemm = {batch = 1 : i64, m = 8 : i64, n = 4 : i64, k = 16 : i64, trans_a = false, trans_b = false}}
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[V:.*]] = memref.load %[[MM]][%[[R]], %[[C]]] : memref<8x4xf32>
// CHECK-NEXT:       %[[B:.*]] = memref.load %b[%[[C]]] : memref<4xf32>
// CHECK-NEXT:       %[[O:.*]] = arith.addf %[[V]], %[[B]] : f32
// CHECK-NEXT:       memref.store %[[O]], %result0[%[[R]], %[[C]]] : memref<8x4xf32>
func.func @matmul_bias(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %0 = bcast.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<8x4xf32>
  %2 = bcast.add %0, %1 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  func.return %2 : tensor<8x4xf32>
}

// -----

// Broadcast batch dims are views: the contraction reads %c at index 0 on its
// size-1 dim and %d without its missing dim; neither is copied. f16 sums in
// f32 and rounds once; two contracting dims are two reduction loops.
// CHECK-LABEL: func.func @batched_f16
// CHECK-NOT:    memref.alloc
// CHECK:        scf.for %[[B0:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[B1:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:           %[[T:[0-9]+]] = scf.for %[[K:[0-9]+]] = {{.*}} -> (f32) {
// CHECK-NEXT:             %[[C:.*]] = memref.load %c[%[[B0]], %{{.*}}, %[[M]], %[[K]]] : memref<2x1x3x4xf16>
// CHECK-NEXT:             %[[CW:.*]] = arith.extf %[[C]] : f16 to f32
// CHECK-NEXT:             %[[D:.*]] = memref.load %d[%[[B1]], %[[K]], %[[N]]] : memref<5x4x6xf16>
// CHECK-NEXT:             %[[DW:.*]] = arith.extf %[[D]] : f16 to f32
// CHECK:                } {bcast.reduction = "add"}
// CHECK-NEXT:           %[[R:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK-NEXT:           memref.store %[[R]], %result0[%[[B0]], %[[B1]], %[[M]], %[[N]]] : memref<2x5x3x6xf16>
// CHECK-LABEL: func.func @two_contracting
// CHECK:        scf.for
// CHECK:          scf.for {{.*}} -> (i32) {
// CHECK-NEXT:       scf.for {{.*}} -> (i32) {
// CHECK:              arith.muli
// CHECK-NEXT:         arith.addi
// CHECK:            } {bcast.reduction = "add"}
// CHECK-NEXT:       scf.yield
// CHECK-NEXT:     } {bcast.reduction = "add"}
func.func @batched_f16(%c: tensor<2x1x3x4xf16>, %d: tensor<5x4x6xf16>) -> tensor<2x5x3x6xf16> {
  %0 = bcast.broadcast_in_dim %c, dims = [0, 1, 2, 3] : (tensor<2x1x3x4xf16>) -> tensor<2x5x3x4xf16>
  %1 = bcast.broadcast_in_dim %d, dims = [1, 2, 3] : (tensor<5x4x6xf16>) -> tensor<2x5x4x6xf16>
  %2 = bcast.dot_general %0, %1, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x5x3x4xf16>, tensor<2x5x4x6xf16>) -> tensor<2x5x3x6xf16>
  func.return %2 : tensor<2x5x3x6xf16>
}
func.func @two_contracting(%a: tensor<3x4x5xi32>, %b: tensor<4x5xi32>) -> tensor<3xi32> {
  %0 = bcast.dot_general %a, %b, contracting_dims = [1, 2] x [0, 1] : (tensor<3x4x5xi32>, tensor<4x5xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// Batch dims read through broadcasts (matmul's, after make-explicit: a
// static 1 against 5, a ? that may be 1 at run time) still make a batch of
// matrix products: bcast.gemm lists, per result batch dim, the dim of each
// operand's memory it reads (-1: none), and a target computes strides of 0
// for the dims of size 1.

// CHECK-LABEL: func.func @stretched_batches
// CHECK:         memref.load %a[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x1x3x4xf32>
// CHECK:         memref.load %b[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x4x6xf32>
// CHECK:       bcast.gemm = {batch = 1 : i64, m = 3 : i64, n = 6 : i64, k = 4 : i64, trans_a = false, trans_b = false, batch_loops = array<i64: 0, 1>, lhs_batch = array<i64: 0, 1>, rhs_batch = array<i64: -1, 0>}
func.func @stretched_batches(%a: tensor<?x1x3x4xf32>, %b: tensor<?x4x6xf32>) -> tensor<?x?x3x6xf32> {
  %0 = bcast.dim %a, 0 : tensor<?x1x3x4xf32>
  %1 = bcast.dim %b, 0 : tensor<?x4x6xf32>
  %2 = bcast.dynamic_broadcast_in_dim %a, [%0, %1, 3, 4], dims = [0, 1, 2, 3] expanding = [1] nonexpanding = [0, 2, 3] : (tensor<?x1x3x4xf32>) -> tensor<?x?x3x4xf32>
  %3 = bcast.dynamic_broadcast_in_dim %b, [%0, %1, 4, 6], dims = [1, 2, 3] nonexpanding = [1, 2] : (tensor<?x4x6xf32>) -> tensor<?x?x4x6xf32>
  %4 = bcast.dot_general %2, %3, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<?x?x3x4xf32>, tensor<?x?x4x6xf32>) -> tensor<?x?x3x6xf32>
  func.return %4 : tensor<?x?x3x6xf32>
}
