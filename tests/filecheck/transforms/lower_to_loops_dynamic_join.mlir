// RUN: bcast-opt %s -p bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops on concatenate, pad and reshape with ? dims (docs/c-backend.md,
// "Dynamic shapes"): the sizes are read at entry and the result's ? sizes
// computed from them at the top level (the C runtime has checked them before
// the call), so each nest runs over run-time sizes and writes in bounds.

// A concatenate along a ? dim: one nest per operand, the second offset by
// the first's run-time size.
// CHECK-LABEL: func.func @concatenate(%x: memref<?x4xf32>, %y: memref<?x4xf32>, %result0: memref<?x4xf32>)
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x4xf32>
// CHECK-NEXT:    %[[M:.*]] = memref.dim %y, %{{.*}} : memref<?x4xf32>
// CHECK-NEXT:    %{{.*}} = arith.addi %[[N]], %[[M]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK-NEXT:        memref.store %[[X]], %result0[%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[M]] step
// CHECK-NEXT:      scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[K]], %[[N]] : index
// CHECK-NEXT:        %[[Y:.*]] = memref.load %y[%[[K]], %[[L]]] : memref<?x4xf32>
// CHECK-NEXT:        memref.store %[[Y]], %result0[%[[AT]], %[[L]]] : memref<?x4xf32>
func.func @concatenate(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = bcast.concatenate %x, %y, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// A pad of a ? dim (low -1, high -3, interior 1): the result has
// n - 4 + max(n - 1, 0) elements, filled with the value; the operand's
// elements 1 .. n - 3 (max(n - 3, 0) of them) land at 2 * i - 1.
// CHECK-LABEL: func.func @pad(%x: memref<?xf32>, %v: memref<f32>, %result0: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[CM3:.*]] = arith.constant -3 : index
// CHECK-DAG:     %[[CM4:.*]] = arith.constant -4 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?xf32>
// CHECK-NEXT:    %[[EDGES:.*]] = arith.addi %[[N]], %[[CM4]] : index
// CHECK-NEXT:    %[[GAPS:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpi slt, %[[GAPS]], %[[C0]] : index
// CHECK-NEXT:    %[[KEPT:.*]] = arith.select %[[NEG]], %[[C0]], %[[GAPS]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.addi %[[EDGES]], %[[KEPT]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[SIZE]] step
// CHECK-NEXT:      %[[V:.*]] = memref.load %v[] : memref<f32>
// CHECK-NEXT:      memref.store %[[V]], %result0[%[[I]]] : memref<?xf32>
// CHECK:         %[[STOP:.*]] = arith.addi %[[N]], %[[CM3]] : index
// CHECK-NEXT:    %[[NONE:.*]] = arith.cmpi slt, %[[STOP]], %[[C0]] : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.select %[[NONE]], %[[C0]], %[[STOP]] : index
// CHECK-NEXT:    scf.for %[[J:.*]] = %{{.*}} to %[[COUNT]] step
// CHECK-NEXT:      %[[SRC:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK-NEXT:      %[[TWICE:.*]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:      %[[DST:.*]] = arith.addi %[[TWICE]], %[[C1]] : index
// CHECK-NEXT:      %[[E:.*]] = memref.load %x[%[[SRC]]] : memref<?xf32>
// CHECK-NEXT:      memref.store %[[E]], %result0[%[[DST]]] : memref<?xf32>
func.func @pad(%x: tensor<?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %0 = bcast.pad %x, %v, low = [-1], high = [-3], interior = [1] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// A reshape into 2x?: the ? is the element count over 2, computed at entry;
// the operand is read through the row-major position (the run-time sizes).
// CHECK-LABEL: func.func @reshape(%x: memref<?x4xf32>, %result0: memref<2x?xf32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x4xf32>
// CHECK-NEXT:    %[[COUNT:.*]] = arith.muli %[[C4]], %[[N]] : index
// CHECK-NEXT:    %[[M:.*]] = arith.divui %[[COUNT]], %[[C2]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[M]] step
// CHECK-NEXT:        %[[ROW:.*]] = arith.muli %[[I]], %[[M]] : index
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK-NEXT:        %[[COL:.*]] = arith.remui %[[AT]], %[[C4]] : index
// CHECK-NEXT:        %[[R:.*]] = arith.divui %[[AT]], %[[C4]] : index
// CHECK-NEXT:        memref.load %x[%[[R]], %[[COL]]] : memref<?x4xf32>
func.func @reshape(%x: tensor<?x4xf32>) -> tensor<2x?xf32> {
  %0 = bcast.reshape %x : (tensor<?x4xf32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}
