// Canonicalization drops a checked dim that an earlier, dominating check
// implies (passes/dynamic_checks.py, RemoveImpliedChecks): its sizes are among
// the sizes the earlier check found broadcastable together, or a
// broadcast_size of them. A later check on the same sizes is so merged into
// the earliest one, which keeps its own location: the earliest op fails first.

// RUN: bcast-opt %s --split-input-file -p canonicalize --print-debuginfo | filecheck %s

// The same sizes, checked by a later op: the earliest check stays, at its location.
// CHECK-LABEL: func.func @same_sizes_later_op
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes" loc("first.mlir":1:1)
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @same_sizes_later_op(%x: tensor<?xf32>, %y: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes" loc("first.mlir":1:1)
  bcast.check_broadcastable [%m, 4] at [0, 1], [%n, 4] at [0, 1] checking [0] message = "operands could not be broadcast together with shapes" loc("second.mlir":2:2)
  func.return
}

// -----

// A subset of the sizes of an earlier check.
// CHECK-LABEL: func.func @subset
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0], [%k] at [0] checking [0]
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @subset(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%k] at [0], [%n] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// Broadcastability is not transitive (n=5, m=1, k=3): no check implies another.
// CHECK-LABEL: func.func @not_transitive
// CHECK-COUNT-3: bcast.check_broadcastable
// CHECK:         func.return
func.func @not_transitive(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%m] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// The broadcast size of checked sizes is their common size or 1: checking it
// against one of them is implied.
// CHECK-LABEL: func.func @broadcast_size_of_checked
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0]
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @broadcast_size_of_checked(%x: tensor<?xf32>, %y: tensor<?xf32>) -> index {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  %s = bcast.broadcast_size %n, %m
  bcast.check_broadcastable [%s] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %s : index
}

// -----

// Only the implied dim is dropped; the other stays checked.
// CHECK-LABEL: func.func @partly_implied
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0]
// CHECK-NEXT:    bcast.check_broadcastable [%n, %a] at [0, 1], [%m, %b] at [0, 1] checking [1]
// CHECK-NEXT:    func.return
func.func @partly_implied(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?x?xf32>
  %m = bcast.dim %y, 0 : tensor<?x?xf32>
  %a = bcast.dim %x, 1 : tensor<?x?xf32>
  %b = bcast.dim %y, 1 : tensor<?x?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n, %a] at [0, 1], [%m, %b] at [0, 1] checking [0, 1] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// A strict check (equal sizes) is not implied by a broadcasting one (1 passes
// it); the other way round it is.
// CHECK-LABEL: func.func @strict
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message
// CHECK-NEXT:    bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] strict
// CHECK-NEXT:    func.return
func.func @strict(%x: tensor<?xf32>, %y: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] strict message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%m] at [0], [%n] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// n and m checked, then their broadcast size s with k: n is 1 or s, so n with
// k is implied (a chain of ops on three sizes needs two checks, not three).
// CHECK-LABEL: func.func @operand_of_checked_broadcast_size
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0]
// CHECK-NEXT:    bcast.check_broadcastable [%s] at [0], [%k] at [0] checking [0]
// CHECK-NEXT:    func.return
func.func @operand_of_checked_broadcast_size(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> index {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  %s = bcast.broadcast_size %n, %m
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%s] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %s : index
}

// -----

// Without the check of n with m, s may be m while n is neither 1 nor m
// (n=2, m=3, k=3 passes the one check): nothing is implied.
// CHECK-LABEL: func.func @operand_of_unchecked_broadcast_size
// CHECK-COUNT-2: bcast.check_broadcastable
// CHECK-NEXT:    func.return
func.func @operand_of_unchecked_broadcast_size(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> index {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  %s = bcast.broadcast_size %n, %m
  bcast.check_broadcastable [%s] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %s : index
}
