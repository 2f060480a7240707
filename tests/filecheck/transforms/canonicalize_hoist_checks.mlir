// Canonicalization hoists the explicit dynamic form's run-time checks to
// function entry (passes/dynamic_checks.py): size ops (dim, broadcast_size) rise
// to just after what they read, and a check rises over every op that cannot
// fail at run time, never over one that can (another check, an unproven
// dynamic_broadcast_in_dim, an implicit broadcast of ? dims), so the first
// failure a program reports is unchanged. It also sees sizes through the ops
// that keep them (dim of a reduce, an elementwise op whose operands
// have one size) and folds broadcast_size of one size.

// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s
// The pipeline of every target, on programs written with implicit broadcasting.
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,canonicalize,cse | filecheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @over_computation
// CHECK-NEXT:    %n = bcast.dim %x, 0
// CHECK-NEXT:    %m = bcast.dim %y, 0
// CHECK-NEXT:    bcast.check_broadcastable [%n] at [0], [%m] at [0]
// CHECK-NEXT:    %e = bcast.exponential %x
// CHECK-NEXT:    %t = bcast.tanh %e
func.func @over_computation(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %e = bcast.exponential %x : tensor<?xf32>
  %t = bcast.tanh %e : tensor<?xf32>
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %t : tensor<?xf32>
}

// -----

// An add of two ? operands not proven equal can fail (implicit broadcasting):
// the check stays after it, and checks keep their order.
// CHECK-LABEL: func.func @not_over_a_failing_op
// CHECK:         bcast.check_broadcastable [%n] at [0], [%k] at [0]
// CHECK-NEXT:    %a = bcast.add %x, %y
// CHECK-NEXT:    bcast.check_broadcastable [%n] at [0], [%m] at [0]
func.func @not_over_a_failing_op(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  %a = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %a : tensor<?xf32>
}

// -----

// A dynamic_broadcast_in_dim written by hand, whose operand may be neither 1
// nor its output size, can fail: the check stays after it.
// CHECK-LABEL: func.func @not_over_an_unproven_broadcast
// CHECK:         %b = bcast.dynamic_broadcast_in_dim %x, [%m]
// CHECK-NEXT:    bcast.check_broadcastable
func.func @not_over_an_unproven_broadcast(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  %b = bcast.dynamic_broadcast_in_dim %x, [%m], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
  bcast.check_broadcastable [%m] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %b : tensor<?xf32>
}

// -----

// A broadcast to the broadcast size of checked sizes cannot fail once the
// check passed: the later check rises over it, to entry.
// CHECK-LABEL: func.func @over_a_proven_broadcast
// CHECK-NEXT:    %n = bcast.dim %x, 0
// CHECK-NEXT:    %m = bcast.dim %y, 0
// CHECK-NEXT:    %s = bcast.broadcast_size %n, %m
// CHECK-NEXT:    %k = bcast.dim %z, 0
// CHECK-NEXT:    bcast.check_broadcastable [%n] at [0], [%m] at [0]
// CHECK-NEXT:    bcast.check_broadcastable [%s] at [0], [%k] at [0]
// CHECK-NEXT:    %b = bcast.dynamic_broadcast_in_dim %x, [%s]
func.func @over_a_proven_broadcast(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  %s = bcast.broadcast_size %n, %m
  %b = bcast.dynamic_broadcast_in_dim %x, [%s], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  bcast.check_broadcastable [%s] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %b : tensor<?xf32>
}

// -----

// dim of a reduce, of an elementwise op whose
// operands have one size: the size of the source (the unused ops then go).
// CHECK-LABEL: func.func @sizes_through_ops
// CHECK-COUNT-3: = bcast.dim %x, 0
// CHECK-NEXT:    func.return
func.func @sizes_through_ops(%x: tensor<?x?xf32>) -> (index, index, index) {
  %r = bcast.reduce add %x, dims = [1] : (tensor<?x?xf32>) -> tensor<?xf32>
  %a = bcast.add %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = bcast.dim %r, 0 : tensor<?xf32>
  %1 = bcast.dim %r, 0 : tensor<?xf32>
  %2 = bcast.dim %a, 0 : tensor<?x?xf32>
  func.return %0, %1, %2 : index, index, index
}

// -----

// broadcast_size of one size is that size.
// CHECK-LABEL: func.func @broadcast_size_of_one_size
// CHECK-NEXT:    %n = bcast.dim %x, 0
// CHECK-NEXT:    func.return %n
func.func @broadcast_size_of_one_size(%x: tensor<?xf32>) -> index {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %x, 0 : tensor<?xf32>
  %s = bcast.broadcast_size %n, %m
  func.return %s : index
}

// -----

// Softmax over rows of any size: every broadcast is proven, no check is left.
// PIPE-LABEL: func.func @softmax
// PIPE-NOT:     bcast.check_broadcastable
// PIPE:         func.return
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %s = bcast.subtract %x, %m : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = bcast.exponential %s : tensor<?x?xf32>
  %t = bcast.reduce add %e, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %r = bcast.divide %e, %t : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// A chain of four binary ops on three ? sizes: two checks are needed (x with y,
// then their size with z), both at entry before any computation; the third
// and fourth op's checks are implied.
// PIPE-LABEL: func.func @chain
// PIPE-NOT:     bcast.add
// PIPE:         bcast.check_broadcastable
// PIPE-NEXT:    bcast.check_broadcastable
// PIPE-NOT:     bcast.check_broadcastable
// PIPE:         func.return
func.func @chain(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %a = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %b = bcast.multiply %a, %z : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %e = bcast.exponential %b : tensor<?xf32>
  %c = bcast.subtract %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %d = bcast.add %e, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %d : tensor<?xf32>
}
