// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: concatenate and pad are fusion boundaries.
// Concatenate writes each operand into its part of the result with one nest
// per operand (the index along dim offset by the sizes before it); pad fills
// the result with the value, then writes the operand elements that land in
// it at low + i * (interior + 1): the cropped ones are never visited, so no
// index is out of bounds.

// CHECK-LABEL: func.func @concat
// CHECK:        %[[THREE:.*]] = arith.constant 3 : index
// CHECK:        %[[SUM:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK:          arith.addf
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[J:.*]] = %{{.*}} to %[[THREE]] step
// CHECK-NEXT:       %[[A:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:       memref.store %[[A]], %result0[%[[I]], %[[J]]] : memref<2x7xf32>
// CHECK:        scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[AT:.*]] = arith.addi %[[L]], %[[THREE]] : index
// CHECK-NEXT:       %[[B:.*]] = memref.load %[[SUM]][%[[K]], %[[L]]] : memref<2x4xf32>
// CHECK-NEXT:       memref.store %[[B]], %result0[%[[K]], %[[AT]]] : memref<2x7xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x7xf32> {
  %n = bcast.add %b, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %0 = bcast.concatenate %a, %n, dim = 1 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  func.return %0 : tensor<2x7xf32>
}

// -----

// Rows: 4 elements at -1 + 2i; i = 0 and i = 3 are cropped, so i runs over
// [1, 3) (read at iv + 1, written at 2 iv + 1). Columns: 3 at 2i; i = 2 is
// cropped, so i runs over [0, 2) (written at 2 iv).
// CHECK-LABEL: func.func @pad
// CHECK-DAG:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[V:.*]] = memref.load %v[] : memref<f32>
// CHECK-NEXT:       memref.store %[[V]], %result0[%[[R]], %[[C]]] : memref<5x4xf32>
// CHECK:        scf.for %[[I:.*]] = %[[ZERO]] to %[[TWO]] step
// CHECK-NEXT:     scf.for %[[J:.*]] = %[[ZERO]] to %[[TWO]] step
// CHECK-NEXT:       %[[SRC:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK-NEXT:       %[[SCALED:.*]] = arith.muli %[[I]], %[[TWO]] : index
// CHECK-NEXT:       %[[DST:.*]] = arith.addi %[[SCALED]], %[[ONE]] : index
// CHECK-NEXT:       %[[COL:.*]] = arith.muli %[[J]], %[[TWO]] : index
// CHECK-NEXT:       %[[X:.*]] = memref.load %x[%[[SRC]], %[[J]]] : memref<4x3xf32>
// CHECK-NEXT:       memref.store %[[X]], %result0[%[[DST]], %[[COL]]] : memref<5x4xf32>
func.func @pad(%x: tensor<4x3xf32>, %v: tensor<f32>) -> tensor<5x4xf32> {
  %0 = bcast.pad %x, %v, low = [-1, 0], high = [-1, -1], interior = [1, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  func.return %0 : tensor<5x4xf32>
}
