// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants,bcast-plan-parallel | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants,bcast-plan-parallel,bcast-invariant-divisions | filecheck %s
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants,bcast-plan-parallel,bcast-invariant-divisions,bcast-invariant-divisions | filecheck %s

// bcast-invariant-divisions (loop IR, after bcast-hoist-invariants and
// bcast-plan-parallel): an f32/f64 division in a vectorized loop that
// carries nothing, by a value defined outside the loop, is marked
// bcast.invariant_divisor (the C target multiplies by the reciprocal); a
// division by a value the loop changes is not. (Edge cases:
// tests/passes/loops/test_invariant_divisions.py.)

// BEFORE-NOT: bcast.invariant_divisor

// x / sum over the row: the row's sum is loaded once per row, before the
// last phase, which divides by it; x / y divides by a loaded element.
// CHECK-LABEL: func.func @normalize(
// CHECK:         scf.for
// CHECK:           %[[SUM:[0-9]+]] = memref.load %{{[0-9]+}}[%{{[0-9]+}}] : memref<1xf32>
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        %[[X:[0-9]+]] = memref.load %x
// CHECK-NEXT:        %{{[0-9]+}} = arith.divf %[[X]], %[[SUM]] {bcast.invariant_divisor} : f32
// CHECK-NEXT:        %[[Y:[0-9]+]] = memref.load %y
// CHECK-NEXT:        %{{[0-9]+}} = arith.divf %{{[0-9]+}}, %[[Y]] : f32
// CHECK:           } {bcast.parallel, bcast.vectorize}
func.func @normalize(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = bcast.reduce add %x, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = bcast.divide %x, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %r = bcast.divide %d, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
