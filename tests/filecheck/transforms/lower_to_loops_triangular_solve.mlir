// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: triangular_solve is a fusion boundary. A parallel
// nest over the batch dims and the right-hand sides; in it a loop over the
// rows in substitution order, each row b's element minus the terms of the
// rows solved before it (an scf.for carrying the difference), then divided
// by the diagonal. A right solve reads a transposed.

// CHECK-LABEL: func.func @left_lower
func.func @left_lower(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
// CHECK:      scf.for %[[BATCH:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[B:.*]] = memref.load %b[%[[BATCH]], %[[ROW]], %[[COL]]] : memref<2x3x4xf32>
// CHECK-NEXT:       %[[SUM:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[ROW]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[B]]) -> (f32) {
// CHECK-NEXT:         %[[X:.*]] = memref.load %result0[%[[BATCH]], %[[J]], %[[COL]]] : memref<2x3x4xf32>
// CHECK-NEXT:         %[[A:.*]] = memref.load %a[%[[BATCH]], %[[ROW]], %[[J]]] : memref<2x3x3xf32>
// CHECK-NEXT:         %[[P:.*]] = arith.mulf %[[A]], %[[X]] : f32
// CHECK-NEXT:         %[[D:.*]] = arith.subf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:         scf.yield %[[D]] : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %[[DIAG:.*]] = memref.load %a[%[[BATCH]], %[[ROW]], %[[ROW]]] : memref<2x3x3xf32>
// CHECK-NEXT:       %[[Q:.*]] = arith.divf %[[SUM]], %[[DIAG]] : f32
// CHECK-NEXT:       memref.store %[[Q]], %result0[%[[BATCH]], %[[ROW]], %[[COL]]] : memref<2x3x4xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:   } {bcast.parallel}
// CHECK-NEXT: } {bcast.parallel}
  %x = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %x : tensor<2x3x4xf32>
}

// -----

// Upper: backwards (row n - 1 - k), the rows solved before it the last k.

// CHECK-LABEL: func.func @left_upper
func.func @left_upper(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
// CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[ROW:.*]] = arith.subi %[[LAST:.*]], %[[K]] : index
// CHECK:          scf.for %[[T:.*]] = %{{.*}} to %[[K]] step
// CHECK-NEXT:       %[[J:.*]] = arith.subi %[[LAST]], %[[T]] : index
// CHECK:            memref.load %a[%[[ROW]], %[[J]]] : memref<3x3xf32>
  %x = bcast.triangular_solve %a, %b, left_side = true, lower = false, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %x : tensor<3x2xf32>
}

// -----

// f16, a right solve with a unit diagonal: held in an f32 buffer (no
// division), rounded once when copied to the result.

// CHECK-LABEL: func.func @right_upper_f16
func.func @right_upper_f16(%a: tensor<3x3xf16>, %b: tensor<2x3xf16>) -> tensor<2x3xf16> {
// CHECK:      %[[WIDE:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK:            %[[A:.*]] = memref.load %a[%[[J:.*]], %[[ROW:.*]]] : memref<3x3xf16>
// CHECK-NEXT:       arith.extf %[[A]] : f16 to f32
// CHECK-NOT:  arith.divf
// CHECK:          memref.store %{{.*}}, %[[WIDE]][%{{.*}}, %{{.*}}] : memref<2x3xf32>
// CHECK:          arith.truncf %{{.*}} : f32 to f16
  %x = bcast.triangular_solve %a, %b, left_side = false, lower = false, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<3x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  func.return %x : tensor<2x3xf16>
}
