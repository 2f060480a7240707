// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: lu and cholesky are fusion boundaries, numerics.lu
// and numerics.cholesky as loops. The matrix is copied into the factors'
// buffer, then a loop over the steps carries info (i32, 0 at first).

// lu, step j: a scan down column j carrying (largest |x|, its row), replaced
// only when strictly larger (LAPACK's i?amax: the first of ties stays); the
// 1-based pivot stored; rows j and p swapped; info set at the first zero
// pivot; per row below, the multiplier (kept when the pivot is zero) and the
// row update along the contiguous row.

// CHECK-LABEL: func.func @lu
// CHECK-SAME: (%a: memref<3x3xf32>, %result0: memref<3x3xf32>, %result1: memref<3xi32>, %result2: memref<i32>)
func.func @lu(%a: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>) {
// CHECK:      memref.store %{{.*}}, %result0[%{{.*}}, %{{.*}}] : memref<3x3xf32>
// CHECK:      %[[INFO:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[STATUS:.*]] = %{{.*}}) -> (i32) {
// CHECK:        %[[FIRST:.*]] = math.absf
// CHECK-NEXT:   %{{.*}}, %[[P:.*]] = scf.for %{{.*}} iter_args(%[[BEST:.*]] = %[[FIRST]], %{{.*}} = %[[J]]) -> (f32, index) {
// CHECK:          %[[SIZE:.*]] = math.absf
// CHECK-NEXT:     %[[BEYOND:.*]] = arith.cmpf ogt, %[[SIZE]], %[[BEST]] : f32
// CHECK:        %[[ONE_BASED:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:   memref.store %[[ONE_BASED]], %result1[%[[J]]] : memref<3xi32>
// CHECK-NEXT:   scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     %[[X:.*]] = memref.load %result0[%[[J]], %[[C]]] : memref<3x3xf32>
// CHECK-NEXT:     %[[Y:.*]] = memref.load %result0[%[[P]], %[[C]]] : memref<3x3xf32>
// CHECK-NEXT:     memref.store %[[Y]], %result0[%[[J]], %[[C]]] : memref<3x3xf32>
// CHECK-NEXT:     memref.store %[[X]], %result0[%[[P]], %[[C]]] : memref<3x3xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[PIVOT:.*]] = memref.load %result0[%[[J]], %[[J]]] : memref<3x3xf32>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.cmpf oeq, %[[PIVOT]], %{{.*}} : f32
// CHECK:          %[[DIV:.*]] = arith.divf %[[BELOW:.*]], %[[PIVOT]] : f32
// CHECK-NEXT:     %[[M:.*]] = arith.select %[[ZERO]], %[[BELOW]], %[[DIV]] : f32
// CHECK:            %[[PROD:.*]] = arith.mulf %[[M]], %{{.*}} : f32
// CHECK-NEXT:       arith.subf %{{.*}}, %[[PROD]] : f32
// CHECK:        scf.yield %{{.*}} : i32
// CHECK:      memref.store %[[INFO]], %result2[] : memref<i32>
  %lu, %p, %info = bcast.lu %a : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<i32>)
  func.return %lu, %p, %info : tensor<3x3xf32>, tensor<3xi32>, tensor<i32>
}

// -----

// cholesky, column j (upper: the lower factor's indices swapped): the sum of
// squares of what is above the diagonal subtracted from it; good (ogt 0 and
// no column failed before) takes sqrt, fails (ule 0: NaN too) keeps the
// difference on the diagonal and sets info; per element right of the
// diagonal the products subtracted, then the division, stored only when good.
// The batch loop is parallel.

// CHECK-LABEL: func.func @cholesky_upper
func.func @cholesky_upper(%a: tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>) {
// CHECK:      scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:        %[[INFO:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[STATUS:.*]] = %{{.*}}) -> (i32) {
// CHECK-NEXT:     %[[SQUARES:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[J]] step %{{.*}} iter_args(%{{.*}}) -> (f64) {
// CHECK-NEXT:       memref.load %result0[%[[B]], %[[K]], %[[J]]] : memref<2x3x3xf64>
// CHECK:          %[[DIAG:.*]] = memref.load %result0[%[[B]], %[[J]], %[[J]]] : memref<2x3x3xf64>
// CHECK-NEXT:     %[[D:.*]] = arith.subf %[[DIAG]], %[[SQUARES]] : f64
// CHECK-NEXT:     %[[RUNNING:.*]] = arith.cmpi eq, %[[STATUS]], %{{.*}} : i32
// CHECK-NEXT:     %[[POS:.*]] = arith.cmpf ogt, %[[D]], %{{.*}} : f64
// CHECK-NEXT:     %[[GOOD:.*]] = arith.andi %[[RUNNING]], %[[POS]] : i1
// CHECK-NEXT:     %[[NOT_POS:.*]] = arith.cmpf ule, %[[D]], %{{.*}} : f64
// CHECK-NEXT:     %[[FAILS:.*]] = arith.andi %[[RUNNING]], %[[NOT_POS]] : i1
// CHECK:          %[[ROOT:.*]] = math.sqrt
// CHECK:            %[[Q:.*]] = arith.divf %{{.*}}, %[[ROOT]] : f64
// CHECK-NEXT:       %[[KEPT:.*]] = arith.select %[[GOOD]], %[[Q]], %{{.*}} : f64
// CHECK-NEXT:       memref.store %[[KEPT]], %result0[%[[B]], %[[J]], %{{.*}}] : memref<2x3x3xf64>
// CHECK:          arith.select %[[FAILS]], %{{.*}}, %[[STATUS]] : i32
// CHECK:        memref.store %[[INFO]], %result1[%[[B]]] : memref<2xi32>
// CHECK-NEXT: } {bcast.parallel}
  %l, %info = bcast.cholesky %a, lower = false : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2xi32>)
  func.return %l, %info : tensor<2x3x3xf64>, tensor<2xi32>
}
