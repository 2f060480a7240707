// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: argmax/argmin and cumulative are fusion boundaries.
// argmax is a parallel nest over the result and, in it, an scf.for along
// dim carrying (best value, its index) from (the kind's identity, 0): an
// element replaces the best when strictly greater, or when it is the first
// NaN (x unordered with itself, the best ordered); the index is cast once.
// cumulative carries the running fold in the accumulator type (f16 in f32)
// and stores each step converted back; reverse walks the dim backwards.

// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<4x3xf32>) -> tensor<4xi32> {
// CHECK:      %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:      %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   %{{.*}}, %[[AT:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BEST:.*]] = %[[NEG_INF]], %[[BEST_AT:.*]] = %[[ZERO]]) -> (f32, index) {
// CHECK-NEXT:     %[[X:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<4x3xf32>
// CHECK-NEXT:     %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[BEST]] : f32
// CHECK-NEXT:     %[[X_NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:     %[[BEST_NUM:.*]] = arith.cmpf ord, %[[BEST]], %[[BEST]] : f32
// CHECK-NEXT:     %[[FIRST_NAN:.*]] = arith.andi %[[X_NAN]], %[[BEST_NUM]] : i1
// CHECK-NEXT:     %[[TAKE:.*]] = arith.ori %[[GT]], %[[FIRST_NAN]] : i1
// CHECK-NEXT:     %[[V:.*]] = arith.select %[[TAKE]], %[[X]], %[[BEST]] : f32
// CHECK-NEXT:     %[[K:.*]] = arith.select %[[TAKE]], %[[J]], %[[BEST_AT]] : index
// CHECK-NEXT:     scf.yield %[[V]], %[[K]] : f32, index
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[CAST:.*]] = arith.index_cast %[[AT]] : index to i32
// CHECK-NEXT:   memref.store %[[CAST]], %result0[%[[I]]] : memref<4xi32>
// CHECK-NEXT: } {bcast.parallel}
  %0 = bcast.argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// An integer argmin compares only (no NaN), unsigned for ui8.
// CHECK-LABEL: func.func @argmin
func.func @argmin(%x: tensor<5x2xui8>) -> tensor<2xi64> {
// CHECK:      %[[MAX:.*]] = arith.constant -1 : i8
// CHECK:      iter_args(%[[BEST:.*]] = %[[MAX]], %{{.*}} = %{{.*}}) -> (i8, index)
// CHECK-NEXT:   %[[X:.*]] = memref.load %x[%[[J:.*]], %[[I:.*]]] : memref<5x2xi8>
// CHECK-NEXT:   %[[LT:.*]] = arith.cmpi ult, %[[X]], %[[BEST]] : i8
// CHECK-NEXT:   arith.select %[[LT]], %[[X]], %[[BEST]] : i8
// CHECK:      arith.index_cast %{{.*}} : index to i64
  %0 = bcast.argmin %x, dim = 0 : (tensor<5x2xui8>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @cumsum
func.func @cumsum(%x: tensor<4x3xf16>) -> tensor<4x3xf16> {
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[THREE:.*]] = arith.constant 3 : index
// CHECK:      scf.for %[[J:.*]] = %{{.*}} to %[[THREE]] step %{{.*}} {
// CHECK-NEXT:   scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:     %[[AT:.*]] = arith.subi %[[THREE]], %[[I]] : index
// CHECK-NEXT:     %[[X:.*]] = memref.load %x[%[[AT]], %[[J]]] : memref<4x3xf16>
// CHECK-NEXT:     %[[WIDE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:     %[[SUM:.*]] = arith.addf %[[ACC]], %[[WIDE]] : f32
// CHECK-NEXT:     %[[NARROW:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:     memref.store %[[NARROW]], %result0[%[[AT]], %[[J]]] : memref<4x3xf16>
// CHECK-NEXT:     scf.yield %[[SUM]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT: } {bcast.parallel}
  %0 = bcast.cumulative add %x, dim = 0 reverse : (tensor<4x3xf16>) -> tensor<4x3xf16>
  func.return %0 : tensor<4x3xf16>
}
