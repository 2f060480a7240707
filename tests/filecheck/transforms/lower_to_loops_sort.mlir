// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: sort is a fusion boundary. A parallel nest over the
// other dims; per lane, three scratch rows: the keys (a float's total-order
// integer, after NumPy's canonicalization: -0.0 -> 0.0, NaN -> +NaN) and the
// positions 0..n-1 as i64; ceil(log2 n) merge passes (n = 3: widths 1 and
// 2), each a loop over run pairs and a branch-free merge that takes the right
// run's position only while it is open and its key goes strictly first
// (descending: sgt), else the left's; then the values read at the sorted
// positions, and the rows freed.

// CHECK-LABEL: func.func @argsort_descending
func.func @argsort_descending(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xi32> {
// CHECK:      scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:   %[[A:.*]] = memref.alloc() : memref<3xi64>
// CHECK-NEXT:   %[[B:.*]] = memref.alloc() : memref<3xi64>
// CHECK-NEXT:   %[[KEYS:.*]] = memref.alloc() : memref<3xi32>
// CHECK-NEXT:   scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     %[[X:.*]] = memref.load %x[%[[ROW]], %[[K]]] : memref<2x3xf32>
// CHECK-NEXT:     arith.cmpf oeq, %[[X]]
// CHECK:          arith.cmpf uno
// CHECK:          arith.bitcast %{{.*}} : f32 to i32
// CHECK:          memref.store %{{.*}}, %[[KEYS]][%[[K]]] : memref<3xi32>
// CHECK:          memref.store %{{.*}}, %[[A]][%[[K]]] : memref<3xi64>
// CHECK-NEXT:   }
// CHECK:        scf.for {{.*}} iter_args
// CHECK:          memref.load %[[A]]
// CHECK:          arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK:          memref.store %{{.*}}, %[[B]][%{{.*}}] : memref<3xi64>
// CHECK:        scf.for {{.*}} iter_args
// CHECK:          memref.load %[[B]]
// CHECK:          memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<3xi64>
// CHECK:        scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:     %[[P:.*]] = memref.load %[[A]][%[[J]]] : memref<3xi64>
// CHECK-NEXT:     %[[AT:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK-NEXT:     %[[V:.*]] = memref.load %i[%[[ROW]], %[[AT]]] : memref<2x3xi32>
// CHECK-NEXT:     memref.store %[[V]], %result0[%[[ROW]], %[[J]]] : memref<2x3xi32>
// CHECK-NEXT:   }
// CHECK-NEXT:   memref.dealloc %[[A]] : memref<3xi64>
// CHECK-NEXT:   memref.dealloc %[[B]] : memref<3xi64>
// CHECK-NEXT:   memref.dealloc %[[KEYS]] : memref<3xi32>
// CHECK-NEXT: } {bcast.parallel}
  %0 = bcast.sort %i by %x descending, dim = 1 : (tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

// A ? sorted dim: rows of the run-time size, and the merge passes counted at
// run time (the k < 63 with 2**k < n), then run in pairs of widths 4**p
// and twice that, so the positions end in the first row.

// CHECK-LABEL: func.func @sort_dynamic
func.func @sort_dynamic(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
// CHECK:      %[[N:.*]] = memref.dim %x, %{{.*}} : memref<2x?xf32>
// CHECK:      scf.for
// CHECK-NEXT:   %[[A:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK-NEXT:   %[[B:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK-NEXT:   memref.alloc(%[[N]]) : memref<?xi32>
// CHECK:        %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:   %[[PASSES:.*]] = scf.for {{.*}} iter_args({{.*}}) -> (i64) {
// CHECK:          arith.shli
// CHECK-NEXT:     arith.cmpi ult, %{{.*}}, %[[N64]] : i64
// CHECK:        %[[PLUS:.*]] = arith.addi %[[PASSES]], %{{.*}} : i64
// CHECK-NEXT:   %[[PAIRS:.*]] = arith.shrui %[[PLUS]], %{{.*}} : i64
// CHECK-NEXT:   %[[TRIPS:.*]] = arith.index_cast %[[PAIRS]] : i64 to index
// CHECK-NEXT:   scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] step %{{.*}} {
// CHECK:          memref.load %[[A]]
// CHECK:          memref.store %{{.*}}, %[[B]]
// CHECK:          memref.load %[[B]]
// CHECK:          memref.store %{{.*}}, %[[A]]
// CHECK:        memref.load %[[A]]
// CHECK:        memref.dealloc %[[A]] : memref<?xi64>
  %0 = bcast.sort %x by %x, dim = 1 : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}

// -----

// A static sorted dim of at least 256 places sorts by radix: each key once
// as an unsigned integer of its order (a float's total-order integer with
// its sign bit flipped; descending: every bit flipped), then per byte from
// the lowest a pass: the 256 counts cleared, counted, made starts, and each
// position moved to its byte's next place. Four bytes, four passes, the
// positions ending in the first row.

// CHECK-LABEL: func.func @sort_radix
func.func @sort_radix(%x: tensor<256xf32>, %i: tensor<256xi32>) -> tensor<256xi32> {
// CHECK-DAG:  %[[SIGN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG:  %[[ALL:.*]] = arith.constant -1 : i32
// CHECK:      %[[A:.*]] = memref.alloc() : memref<256xi64>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<256xi64>
// CHECK-NEXT: %[[KEYS:.*]] = memref.alloc() : memref<256xi32>
// CHECK:        %[[FLIPPED:.*]] = arith.xori %{{.*}}, %[[SIGN]] : i32
// CHECK-NEXT:   %[[KEY:.*]] = arith.xori %[[FLIPPED]], %[[ALL]] : i32
// CHECK-NEXT:   memref.store %[[KEY]], %[[KEYS]][%{{.*}}] : memref<256xi32>
// CHECK:      %[[COUNT:.*]] = memref.alloc() : memref<256xi64>
// CHECK-COUNT-4: memref.store %{{.*}}, %[[COUNT]][%{{.*}}] : memref<256xi64>
// CHECK:      memref.dealloc %[[COUNT]] : memref<256xi64>
// CHECK:      memref.load %[[A]]
// CHECK:      memref.store %{{.*}}, %result0
  %0 = bcast.sort %i by %x descending, dim = 0 : (tensor<256xi32>, tensor<256xf32>) -> tensor<256xi32>
  func.return %0 : tensor<256xi32>
}
