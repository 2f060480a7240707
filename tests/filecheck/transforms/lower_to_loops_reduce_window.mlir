// RUN: bcast-opt %s -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: reduce_window laid out by rows. A parallel nest over
// every result dim but the last; per row, a scratch row (the accumulator
// type) set to init (loaded once, before the nest), then one loop per window
// dim, and innermost a parallel loop along the row that folds each element of
// the scratch row with its element at that window place, so it vectorizes;
// last, the row stored in the result (the only store there, so it may stream)
// and freed. A dim whose windows always lie inside the input loops over the
// whole window.

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<2x4x4x8xf32>, %init: tensor<f32>) -> tensor<2x2x2x8xf32> {
// CHECK:      %[[INIT:.*]] = memref.load %init[] : memref<f32>
// CHECK-NEXT: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:       %[[ROW:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT:       scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:         memref.store %[[INIT]], %[[ROW]][%[[C]]]
// CHECK-NEXT:       } {bcast.parallel}
// CHECK:            scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:              scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:              arith.select
// CHECK:                  %[[X:.*]] = memref.load %x[
// CHECK-NEXT:             %[[OLD:.*]] = memref.load %[[ROW]][%[[J]]]
// CHECK-NEXT:             %[[NEW:.*]] = arith.maximumf %[[OLD]], %[[X]] : f32
// CHECK-NEXT:             memref.store %[[NEW]], %[[ROW]][%[[J]]]
// CHECK-NEXT:           } {bcast.parallel}
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:         %[[V:.*]] = memref.load %[[ROW]][%[[K]]]
// CHECK-NEXT:         memref.store %[[V]], %result0[%[[N]], %[[H]], %[[W]], %[[K]]]
// CHECK-NEXT:       } {bcast.parallel}
// CHECK-NEXT:       memref.dealloc %[[ROW]] : memref<8xf32>
// CHECK-NEXT:     } {bcast.parallel}
// CHECK-NEXT:   } {bcast.parallel}
// CHECK-NEXT: } {bcast.parallel}
  %0 = bcast.reduce_window maximum %x, %init, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 0, 0, 0] : (tensor<2x4x4x8xf32>, tensor<f32>) -> tensor<2x2x2x8xf32>
  func.return %0 : tensor<2x2x2x8xf32>
}

// Padding is split off by loop bounds, not tests: for window place k of a
// stride-2 row padded by 1 on each side, the row loop runs over the j with
// 2 * j + k - 1 in [0, 10): from ceil(max(1 - k, 0) / 2) to
// min(5, max(10 - (k - 1) + 1, 0) / 2), and its body holds no select.

// CHECK-LABEL: func.func @sliding_sum
func.func @sliding_sum(%x: tensor<3x10xf32>, %init: tensor<f32>) -> tensor<3x5xf32> {
// CHECK:          memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<5xf32>
// CHECK-NEXT:   } {bcast.parallel}
// CHECK:        scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     %[[KW:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK-NEXT:     %[[BASE:.*]] = arith.subi %[[KW]], %{{.*}} : index
// CHECK-NEXT:     %[[NEG:.*]] = arith.subi %{{.*}}, %[[BASE]] : index
// CHECK-NEXT:     arith.cmpi sgt, %[[NEG]]
// CHECK-NEXT:     arith.select
// CHECK-NEXT:     arith.addi
// CHECK-NEXT:     %[[FIRST:.*]] = arith.divui
// CHECK-NEXT:     arith.subi %{{.*}}, %[[BASE]] : index
// CHECK-NEXT:     arith.addi
// CHECK-NEXT:     arith.cmpi sgt
// CHECK-NEXT:     arith.select
// CHECK-NEXT:     arith.divui
// CHECK-NEXT:     arith.cmpi slt
// CHECK-NEXT:     %[[END:.*]] = arith.select
// CHECK-NEXT:     scf.for %[[J:.*]] = %[[FIRST]] to %[[END]] step %{{.*}} {
// CHECK-NEXT:       arith.muli %[[J]]
// CHECK-NEXT:       arith.addi %[[BASE]]
// CHECK-NEXT:       memref.load %x
// CHECK-NEXT:       memref.load %{{.*}}[%[[J]]] : memref<5xf32>
// CHECK-NEXT:       arith.addf
// CHECK-NEXT:       memref.store
// CHECK-NEXT:     } {bcast.parallel}
  %0 = bcast.reduce_window add %x, %init, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<3x10xf32>, tensor<f32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}

// An f16 sum folds in an f32 row and is rounded once, on the final store.
// CHECK-LABEL: func.func @f16_sum
func.func @f16_sum(%x: tensor<4x6xf16>, %init: tensor<f16>) -> tensor<4x3xf16> {
// CHECK:        %[[ROW:.*]] = memref.alloc() : memref<3xf32>
// CHECK:        arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:   memref.load %[[ROW]]
// CHECK-NEXT:   arith.addf %{{.*}} : f32
// CHECK:        %[[V:.*]] = memref.load %[[ROW]]
// CHECK-NEXT:   %[[R:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK-NEXT:   memref.store %[[R]], %result0
  %0 = bcast.reduce_window add %x, %init, window = [2, 2], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, 0], high = [0, 0] : (tensor<4x6xf16>, tensor<f16>) -> tensor<4x3xf16>
  func.return %0 : tensor<4x3xf16>
}

// A window over a ? dim: its result size is computed once at the top, the
// window count of the run-time size (rules.reduce_window_size: the size
// padded by 1 + 1, less the window's 3 places, over the stride 2, plus 1; 0
// when negative), and sizes the scratch row and the loops over it.

// CHECK-LABEL: func.func @pool_symbolic_length
func.func @pool_symbolic_length(%x: tensor<2x?xf32>, %init: tensor<f32>) -> tensor<2x?xf32> {
// CHECK-DAG:  %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG:  %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG:  %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG:  %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:      %[[N:.*]] = memref.dim %x, %{{.*}} : memref<2x?xf32>
// CHECK-NEXT: %[[WIDE:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT: %[[PADDED:.*]] = arith.addi %[[WIDE]], %[[C2]] : i64
// CHECK-NEXT: %[[ROOM:.*]] = arith.subi %[[PADDED]], %[[C3]] : i64
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[ROOM]], %[[C2]] : i64
// CHECK-NEXT: %[[COUNT:.*]] = arith.addi %[[Q]], %[[ONE]] : i64
// CHECK-NEXT: %[[NONE:.*]] = arith.cmpi slt, %[[ROOM]], %[[ZERO]] : i64
// CHECK-NEXT: %[[SIZE:.*]] = arith.select %[[NONE]], %[[ZERO]], %[[COUNT]] : i64
// CHECK-NEXT: %[[M:.*]] = arith.index_cast %[[SIZE]] : i64 to index
// CHECK:      memref.alloc(%[[M]]) : memref<?xf32>
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[M]] step
  %0 = bcast.reduce_window maximum %x, %init, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}
