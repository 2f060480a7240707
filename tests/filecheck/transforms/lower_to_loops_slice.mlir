// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: a slice is the index start + i * stride on each dim,
// read inside the fusion that uses it (never materialized); a 0 start or a
// stride of 1 adds no arithmetic.

// CHECK-LABEL: func.func @main
// CHECK-DAG:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[S:.*]] = arith.muli %[[I]], %[[TWO]] : index
// CHECK-NEXT:       %[[R:.*]] = arith.addi %[[S]], %[[TWO]] : index
// CHECK-NEXT:       %[[C:.*]] = arith.addi %[[J]], %[[ONE]] : index
// CHECK-NEXT:       %[[A:.*]] = memref.load %x[%[[R]], %[[C]]] : memref<8x9xf32>
// CHECK-NEXT:       %[[B:.*]] = memref.load %y[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:       arith.addf %[[A]], %[[B]] : f32
// CHECK-NOT:    bcast.slice
func.func @main(%x: tensor<8x9xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = bcast.slice %x [2:8:2, 1:5] : (tensor<8x9xf32>) -> tensor<3x4xf32>
  %1 = bcast.add %0, %y : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %1 : tensor<3x4xf32>
}

// -----

// A slice returned as it is gets its own nest, which copies the elements.
// CHECK-LABEL: func.func @alone
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[S:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:     %[[V:.*]] = memref.load %x[%[[S]]] : memref<7xi8>
// CHECK-NEXT:     memref.store %[[V]], %result0[%[[I]]] : memref<3xi8>
func.func @alone(%x: tensor<7xi8>) -> tensor<3xi8> {
  %0 = bcast.slice %x [0:7:3] : (tensor<7xi8>) -> tensor<3xi8>
  func.return %0 : tensor<3xi8>
}
