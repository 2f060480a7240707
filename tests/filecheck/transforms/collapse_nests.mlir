// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-collapse-nests | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-collapse-nests,bcast-collapse-nests | filecheck %s

// bcast-collapse-nests (loop IR): the outermost of n perfectly nested
// bcast.parallel loops that no access broadcasts or transposes is marked
// bcast.collapse = n (the C target runs them as one loop). (Edge cases:
// tests/passes/loops/test_collapse_nests.py.)

// BEFORE-NOT: bcast.collapse

// Every operand has the result's shape: one loop over 4 x 8.
// CHECK-LABEL: func.func @flat(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:           } {bcast.parallel}
// CHECK-NEXT:    } {bcast.parallel, bcast.collapse = 2 : i64}
func.func @flat(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = bcast.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// y broadcasts along the rows: the nest stays two loops.
// CHECK-LABEL: func.func @row(
// CHECK-NOT:     bcast.collapse
// CHECK:         func.return
func.func @row(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = bcast.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// y broadcasts along dim 0 only: the three inner loops are one (marked on
// the second loop), the outer loop its own.
// CHECK-LABEL: func.func @inner(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:               } {bcast.parallel}
// CHECK-NEXT:        } {bcast.parallel}
// CHECK-NEXT:      } {bcast.parallel, bcast.collapse = 3 : i64}
// CHECK-NEXT:    } {bcast.parallel}
func.func @inner(%x: tensor<2x3x4x5xf32>, %y: tensor<3x4x5xf32>) -> tensor<2x3x4x5xf32> {
  %r = bcast.add %x, %y : (tensor<2x3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<2x3x4x5xf32>
  func.return %r : tensor<2x3x4x5xf32>
}
