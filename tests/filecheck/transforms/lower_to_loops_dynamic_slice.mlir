// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: each start of a dynamic slice is loaded once, before
// the nests, extended to i64 by its signedness and clamped into
// [0, dim - size] (maxsi 0, minsi; a ui64 start: minui alone), so no start
// value reads or writes out of bounds; a block as large as its dim starts at
// constant 0 (tests/passes/test_lower_to_loops.py has mlir-opt 19 verify the
// loop IR and runs it compiled). dynamic_slice reads operand[start + i]; dynamic_update_slice
// copies the operand into its own buffer, then writes the update at start + i.

// CHECK-LABEL: func.func @main
// CHECK-DAG:    %[[HIGH:.*]] = arith.constant 5 : i64
// CHECK-DAG:    %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:        %[[I8:.*]] = memref.load %i[] : memref<i8>
// CHECK-NEXT:   %[[WIDE:.*]] = arith.extsi %[[I8]] : i8 to i64
// CHECK-NEXT:   %[[LOW:.*]] = arith.maxsi %[[WIDE]], %[[ZERO]] : i64
// CHECK-NEXT:   %[[CLAMPED:.*]] = arith.minsi %[[LOW]], %[[HIGH]] : i64
// CHECK-NEXT:   %[[START:.*]] = arith.index_cast %[[CLAMPED]] : i64 to index
// CHECK-NEXT:   scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[ROW:.*]] = arith.addi %[[R]], %[[START]] : index
// CHECK-NEXT:       %[[X:.*]] = memref.load %x[%[[ROW]], %[[C]]] : memref<7x3xf32>
// CHECK-NEXT:       memref.store %[[X]], %result0[%[[R]], %[[C]]] : memref<2x3xf32>
// CHECK:        %[[U64:.*]] = memref.load %j[] : memref<i64>
// CHECK-NEXT:   %[[UCLAMPED:.*]] = arith.minui %[[U64]], %[[HIGH]] : i64
// CHECK-NEXT:   %[[USTART:.*]] = arith.index_cast %[[UCLAMPED]] : i64 to index
// The copy of the operand, then the update's nest.
// CHECK:            %[[OLD:.*]] = memref.load %x[%{{.*}}, %{{.*}}] : memref<7x3xf32>
// CHECK-NEXT:       memref.store %[[OLD]], %result1[%{{.*}}, %{{.*}}] : memref<7x3xf32>
// CHECK:        scf.for %[[UR:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[UC:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[NEW:.*]] = memref.load %u[%[[UR]], %[[UC]]] : memref<2x3xf32>
// CHECK-NEXT:       %[[AT:.*]] = arith.addi %[[UR]], %[[USTART]] : index
// CHECK-NEXT:       memref.store %[[NEW]], %result1[%[[AT]], %[[UC]]] : memref<7x3xf32>
// CHECK-NOT:    bcast.dynamic
func.func @main(%x: tensor<7x3xf32>, %i: tensor<i8>, %j: tensor<ui64>, %u: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<7x3xf32>) {
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [2, 3] : (tensor<7x3xf32>, tensor<i8>, tensor<i8>) -> tensor<2x3xf32>
  %1 = bcast.dynamic_update_slice %x[%j, %j], %u : (tensor<7x3xf32>, tensor<ui64>, tensor<ui64>, tensor<2x3xf32>) -> tensor<7x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<7x3xf32>
}

// -----

// One start for two dims with the same bound (dim - size = 4) is clamped once.
// CHECK-LABEL: func.func @shared
// CHECK:        %[[I:.*]] = memref.load %i[] : memref<i32>
// CHECK-NEXT:   %[[WIDE:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK-NEXT:   %[[LOW:.*]] = arith.maxsi %[[WIDE]], %{{.*}} : i64
// CHECK-NEXT:   %[[CLAMPED:.*]] = arith.minsi %[[LOW]], %{{.*}} : i64
// CHECK-NEXT:   %[[START:.*]] = arith.index_cast %[[CLAMPED]] : i64 to index
// CHECK-NEXT:   scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[ROW:.*]] = arith.addi %[[R]], %[[START]] : index
// CHECK-NEXT:       %[[COL:.*]] = arith.addi %[[C]], %[[START]] : index
// CHECK-NEXT:       memref.load %x[%[[ROW]], %[[COL]]] : memref<6x7xf32>
func.func @shared(%x: tensor<6x7xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [2, 3] : (tensor<6x7xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
