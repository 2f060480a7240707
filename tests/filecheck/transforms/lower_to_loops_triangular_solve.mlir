// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: triangular_solve is a fusion boundary. A parallel
// nest over the batch dims; in it a loop over the rows in substitution
// order, and per row: b's row copied, a loop over the rows solved before it
// (each row's term subtracted across the right-hand sides, the inner,
// contiguous loop of a left solve), then a division by the diagonal. A right
// solve reads a transposed.

// CHECK-LABEL: func.func @left_lower
func.func @left_lower(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
// CHECK:      scf.for %[[BATCH:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[B:.*]] = memref.load %b[%[[BATCH]], %[[ROW]], %[[C]]] : memref<2x3x4xf32>
// CHECK-NEXT:       memref.store %[[B]], %result0[%[[BATCH]], %[[ROW]], %[[C]]] : memref<2x3x4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %[[J:.*]] = %{{.*}} to %[[ROW]] step
// CHECK-NEXT:       %[[A:.*]] = memref.load %a[%[[BATCH]], %[[ROW]], %[[J]]] : memref<2x3x3xf32>
// CHECK-NEXT:       scf.for %[[C2:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:         %[[X:.*]] = memref.load %result0[%[[BATCH]], %[[J]], %[[C2]]] : memref<2x3x4xf32>
// CHECK-NEXT:         %[[CUR:.*]] = memref.load %result0[%[[BATCH]], %[[ROW]], %[[C2]]] : memref<2x3x4xf32>
// CHECK-NEXT:         %[[P:.*]] = arith.mulf %[[A]], %[[X]] : f32
// CHECK-NEXT:         %[[D:.*]] = arith.subf %[[CUR]], %[[P]] : f32
// CHECK-NEXT:         memref.store %[[D]], %result0[%[[BATCH]], %[[ROW]], %[[C2]]] : memref<2x3x4xf32>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     %[[DIAG:.*]] = memref.load %a[%[[BATCH]], %[[ROW]], %[[ROW]]] : memref<2x3x3xf32>
// CHECK-NEXT:     scf.for %[[C3:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[S:.*]] = memref.load %result0[%[[BATCH]], %[[ROW]], %[[C3]]] : memref<2x3x4xf32>
// CHECK-NEXT:       %[[Q:.*]] = arith.divf %[[S]], %[[DIAG]] : f32
// CHECK-NEXT:       memref.store %[[Q]], %result0[%[[BATCH]], %[[ROW]], %[[C3]]] : memref<2x3x4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: } {bcast.parallel}
  %x = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %x : tensor<2x3x4xf32>
}

// -----

// Upper: backwards (row n - 1 - k), the rows solved before it the last k.

// CHECK-LABEL: func.func @left_upper
func.func @left_upper(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
// CHECK:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   %[[ROW:.*]] = arith.subi %[[LAST:.*]], %[[K]] : index
// CHECK:        scf.for %[[T:.*]] = %{{.*}} to %[[K]] step
// CHECK-NEXT:     %[[J:.*]] = arith.subi %[[LAST]], %[[T]] : index
// CHECK-NEXT:     memref.load %a[%[[ROW]], %[[J]]] : memref<3x3xf32>
  %x = bcast.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %x : tensor<3x2xf32>
}

// -----

// f16, a right solve with a unit diagonal: a read transposed, held in an f32
// buffer (no division), rounded once when copied to the result.

// CHECK-LABEL: func.func @right_upper_f16
func.func @right_upper_f16(%a: tensor<3x3xf16>, %b: tensor<2x3xf16>) -> tensor<2x3xf16> {
// CHECK:      %[[WIDE:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK:      scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:        scf.for %[[J:.*]] = %{{.*}} to %[[ROW]] step
// CHECK-NEXT:     %[[A:.*]] = memref.load %a[%[[J]], %[[ROW]]] : memref<3x3xf16>
// CHECK-NEXT:     arith.extf %[[A]] : f16 to f32
// CHECK-NOT:  arith.divf
// CHECK:          memref.store %{{.*}}, %[[WIDE]][%{{.*}}, %[[ROW]]] : memref<2x3xf32>
// CHECK:          arith.truncf %{{.*}} : f32 to f16
  %x = bcast.triangular_solve %a, %b, left_side = false, lower = false, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<3x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  func.return %x : tensor<2x3xf16>
}
