// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants | filecheck %s
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants,bcast-hoist-invariants | filecheck %s

// bcast-hoist-invariants (loop IR): arithmetic and loads of memory a loop
// does not write move before every loop they do not depend on, in their
// order; a second run changes nothing. (Edge cases on hand-written loop IR:
// tests/passes/loops/test_hoist_invariants.py.)

// The lowering loads the scalar and the column value per element:
// BEFORE:          scf.for %[[I:[0-9]+]] =
// BEFORE-NEXT:       scf.for %[[J:[0-9]+]] =
// BEFORE-NEXT:         memref.load %x[%[[I]], %[[J]]]
// BEFORE-NEXT:         memref.load %col[%[[I]], %{{[0-9]+}}]
// BEFORE-NEXT:         memref.load %s[]
// BEFORE-NEXT:         arith.mulf

// After it, the scalar is loaded once, the column value and its product
// once per row:
// CHECK-LABEL: func.func @scaled_rows(
// CHECK:         %[[S:[0-9]+]] = memref.load %s[] : memref<f32>
// CHECK-NEXT:    scf.for %[[I:[0-9]+]] =
// CHECK-NEXT:      %[[C:[0-9]+]] = memref.load %col[%[[I]], %{{[0-9]+}}] : memref<4x1xf32>
// CHECK-NEXT:      %[[P:[0-9]+]] = arith.mulf %[[C]], %[[S]] : f32
// CHECK-NEXT:      scf.for %[[J:[0-9]+]] =
// CHECK-NEXT:        %[[X:[0-9]+]] = memref.load %x[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[R:[0-9]+]] = arith.addf %[[X]], %[[P]] : f32
// CHECK-NEXT:        memref.store %[[R]], %result0[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      } {bcast.parallel}
// CHECK-NEXT:    } {bcast.parallel}
func.func @scaled_rows(%x: tensor<4x8xf32>, %col: tensor<4x1xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %a = bcast.multiply %col, %s : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %r = bcast.add %x, %a : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
