// RUN: bcast-opt %s -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: reduce_window laid out by rows. A parallel nest over
// every result dim but the last; per row, the row is set to init (loaded once,
// before the nest), then one loop per window dim, and innermost a parallel
// loop along the row that folds each result element with its element at that
// window place (read and written in the result), so it vectorizes. A dim
// whose windows always lie inside the input loops over the whole window.

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<2x4x4x8xf32>, %init: tensor<f32>) -> tensor<2x2x2x8xf32> {
// CHECK:      %[[INIT:.*]] = memref.load %init[] : memref<f32>
// CHECK-NEXT: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:       scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:         memref.store %[[INIT]], %result0[%[[N]], %[[H]], %[[W]], %[[C]]]
// CHECK-NEXT:       } {bcast.parallel}
// CHECK:            scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:              scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:              arith.select
// CHECK:                  %[[X:.*]] = memref.load %x[
// CHECK-NEXT:             %[[OLD:.*]] = memref.load %result0[%[[N]], %[[H]], %[[W]], %[[J]]]
// CHECK-NEXT:             %[[NEW:.*]] = arith.maximumf %[[OLD]], %[[X]] : f32
// CHECK-NEXT:             memref.store %[[NEW]], %result0[%[[N]], %[[H]], %[[W]], %[[J]]]
// CHECK-NEXT:           } {bcast.parallel}
// CHECK-NEXT:         }
// CHECK-NEXT:       }
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
// CHECK:          memref.store %{{.*}}, %result0
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
// CHECK-NEXT:       memref.load %result0
// CHECK-NEXT:       arith.addf
// CHECK-NEXT:       memref.store
// CHECK-NEXT:     } {bcast.parallel}
  %0 = bcast.reduce_window add %x, %init, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<3x10xf32>, tensor<f32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}
