// Canonicalization of the explicit dynamic form (docs/ir.md, "The explicit
// dynamic form"): a check implied by constants or by the same SSA size is
// removed (a partly implied one checks the rest), one repeating an earlier
// identical check is removed, and bcast.dim of a size given by a value reads
// that value, so later checks see the same SSA size.

// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s --check-prefixes=CHECK,CANON
// cse then makes sizes read twice one SSA size, which the next canonicalize uses.
// RUN: bcast-opt %s --split-input-file -p canonicalize,cse,canonicalize | filecheck %s --check-prefixes=CHECK,CSE
// The same program made explicit, then cse and canonicalize: @same_source's two
// operands read one size, so its check is gone.
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,cse,canonicalize | filecheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @same_ssa_size
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @same_ssa_size(%x: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%n] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// A literal 1 always broadcasts (NumPy's rule), but is not equal to a ? (strict).
// CHECK-LABEL: func.func @constant_one
// CHECK-NEXT:    %n = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%n] at [0], [1] at [0] checking [0] strict
// CHECK-NEXT:    func.return
func.func @constant_one(%x: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [1] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n] at [0], [1] at [0] checking [0] strict message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// Equal literals are proven; a dim of two different sizes stays checked.
// CHECK-LABEL: func.func @partly_proven
// CHECK:         bcast.check_broadcastable [%n, 4] at [0, 1], [%m, 4] at [0, 1] checking [0] message
// CHECK-NEXT:    func.return
func.func @partly_proven(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) {
  %n = bcast.dim %x, 0 : tensor<?x4xf32>
  %m = bcast.dim %y, 0 : tensor<?x4xf32>
  bcast.check_broadcastable [%n, 4] at [0, 1], [%m, 4] at [0, 1] checking [0, 1] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// An identical earlier check: the later one cannot fail.
// CHECK-LABEL: func.func @repeated
// CHECK:         bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0]
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @repeated(%x: tensor<?xf32>, %y: tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

// The size of a dynamic_broadcast_in_dim is its output size; then the check
// compares one SSA size with itself.
// CHECK-LABEL: func.func @dim_of_broadcast
// CHECK-NEXT:    %n = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    %m = bcast.dim %y, 0 : tensor<?xf32>
// CHECK-NEXT:    %s = bcast.broadcast_size %n, %m
// CHECK-NEXT:    %b = bcast.dynamic_broadcast_in_dim %x, [%s], dims = [0]
// CHECK-NEXT:    func.return
func.func @dim_of_broadcast(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %s = bcast.broadcast_size %n, %m
  %b = bcast.dynamic_broadcast_in_dim %x, [%s], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
  %k = bcast.dim %b, 0 : tensor<?xf32>
  bcast.check_broadcastable [%k] at [0], [%s] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %b : tensor<?xf32>
}

// -----

// So is a dynamic_reshape's (JAX re-inserts a reduction's kept dim with one:
// get_dimension_size, then dynamic_reshape to [n, 1]): the rows of %r are
// %n, and the check against %x's rows is proven.
// CHECK-LABEL: func.func @dim_of_dynamic_reshape
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @dim_of_dynamic_reshape(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %n = bcast.dim %x, 0 : tensor<?x?xf32>
  %s = bcast.reduce add %x, dims = [1] : (tensor<?x?xf32>) -> tensor<?xf32>
  %r = bcast.dynamic_reshape %s, [%n, 1] : (tensor<?xf32>) -> tensor<?x1xf32>
  %k = bcast.dim %r, 0 : tensor<?x1xf32>
  bcast.check_broadcastable [%n] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %r : tensor<?x1xf32>
}

// -----

// The size of a conversion is its operand's: both sizes are one, the check is
// proven and the unused sizes go.
// CHECK-LABEL: func.func @dim_of_convert
// CHECK-NEXT:    %c = bcast.convert
// CHECK-NEXT:    func.return
func.func @dim_of_convert(%x: tensor<?xi8>) -> tensor<?xi32> {
  %c = bcast.convert %x : (tensor<?xi8>) -> tensor<?xi32>
  %n = bcast.dim %x, 0 : tensor<?xi8>
  %k = bcast.dim %c, 0 : tensor<?xi32>
  bcast.check_broadcastable [%n] at [0], [%k] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return %c : tensor<?xi32>
}

// -----

// PIPE-LABEL: func.func @same_source
// PIPE-NOT:     bcast.check_broadcastable
// PIPE:         func.return
func.func @same_source(%x: tensor<?xf32>) -> tensor<?xf32> {
  %e = bcast.exponential %x : tensor<?xf32>
  %c = bcast.convert %x : (tensor<?xf32>) -> tensor<?xf64>
  %d = bcast.convert %c : (tensor<?xf64>) -> tensor<?xf32>
  %r = bcast.add %x, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// A broadcast_size of a broadcast_size and one of its own sizes is the inner
// one (the first size that is not 1 is the same), and a broadcast_size of
// the sizes of an earlier one is that one: a chain of ops broadcasting
// against one row reads one SSA size, so its later checks are implied by the
// first.
// CHECK-LABEL: func.func @broadcast_size_chain
// CHECK-NEXT:    %n = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    %m = bcast.dim %y, 0 : tensor<?xf32>
// CHECK-NEXT:    %s = bcast.broadcast_size %n, %m
// CHECK-NEXT:    bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0]
// CHECK-NEXT:    %a = bcast.dynamic_broadcast_in_dim %x, [%s], dims = [0]
// CHECK-NEXT:    %b = bcast.dynamic_broadcast_in_dim %y, [%s], dims = [0]
// CHECK-NEXT:    %c = bcast.dynamic_broadcast_in_dim %w, [%s], dims = [0]
// CHECK-NEXT:    func.return %a, %b, %c
func.func @broadcast_size_chain(%x: tensor<?xf32>, %y: tensor<?xf32>, %w: tensor<1xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %s = bcast.broadcast_size %n, %m
  bcast.check_broadcastable [%n] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  %a = bcast.dynamic_broadcast_in_dim %x, [%s], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
  %t = bcast.broadcast_size %s, %m
  bcast.check_broadcastable [%t] at [0], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  %b = bcast.dynamic_broadcast_in_dim %y, [%t], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
  %u = bcast.broadcast_size %n, %m
  %c = bcast.dynamic_broadcast_in_dim %w, [%u], dims = [0] : (tensor<1xf32>) -> tensor<?xf32>
  func.return %a, %b, %c : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// -----

// Flattening keeps the order of the sizes (the first that is not 1 wins) and
// lists each once.
// CHECK-LABEL: func.func @broadcast_size_flattened
// CHECK-NEXT:    %n = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    %m = bcast.dim %y, 0 : tensor<?xf32>
// CHECK-NEXT:    %k = bcast.dim %z, 0 : tensor<?xf32>
// CHECK-NEXT:    %{{.*}} = bcast.broadcast_size %k, %n, %m
// CHECK-NEXT:    func.return
func.func @broadcast_size_flattened(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> index {
  %n = bcast.dim %x, 0 : tensor<?xf32>
  %m = bcast.dim %y, 0 : tensor<?xf32>
  %k = bcast.dim %z, 0 : tensor<?xf32>
  %s = bcast.broadcast_size %n, %m
  %t = bcast.broadcast_size %k, %s, %n
  func.return %t : index
}

// -----

// An operand dim whose size has one source with its output size is known
// nonexpanding (what bcast-fuse reads to keep a row in place); a broadcast
// onto the operand's own sizes, every dim nonexpanding, is then removed.
// CHECK-LABEL: func.func @nonexpanding_filled_in
// CHECK-NEXT:    %[[N:.+]] = bcast.dim %x, 0
// CHECK-NEXT:    %[[K:.+]] = bcast.dim %x, 1
// CHECK-NEXT:    %[[M:.+]] = bcast.reduce maximum %x, dims = [1] keepdims
// CHECK-NEXT:    %[[MB:.+]] = bcast.dynamic_broadcast_in_dim %[[M]], [%[[N]], %[[K]]], dims = [0, 1] expanding = [1] nonexpanding = [0]
// CHECK-NEXT:    %[[E:.+]] = bcast.exponential %x
// CHECK-NEXT:    %[[R:.+]] = bcast.subtract %[[E]], %[[MB]]
// CHECK-NEXT:    func.return %[[R]]
func.func @nonexpanding_filled_in(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %n = bcast.dim %x, 0 : tensor<?x?xf32>
  %k = bcast.dim %x, 1 : tensor<?x?xf32>
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %mb = bcast.dynamic_broadcast_in_dim %m, [%n, %k], dims = [0, 1] expanding = [1] : (tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = bcast.exponential %x : tensor<?x?xf32>
  %eb = bcast.dynamic_broadcast_in_dim %e, [%n, %k], dims = [0, 1] : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = bcast.subtract %eb, %mb : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}
