// bcast-make-explicit on dynamic and bounded dims (docs/ir.md, "The explicit
// dynamic form"; docs/semantics.md, "Dynamic and bounded shapes"): one case per
// row of the table, the sizes read by bcast.dim, the run-time checks the table
// leaves (each at the location of the op that needs it), and the broadcasts
// into run-time sizes with their expansion facts.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// The output verifies again and keeps the locations of the ops that need the checks.
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC
// A declared result more static than the inferred one, a transposing
// broadcast: make_explicit_dynamic_declared.mlir.

// Row "n and n; 1 and x": nothing checked. The ? of %x is the result's
// size (the same SSA size: nonexpanding), %x itself is used as it is;
// a static 4 into 4 is nonexpanding, a static 1 expanding.
// CHECK-LABEL: func.func @equal_and_one
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[ROW:.*]] = bcast.dynamic_broadcast_in_dim %row, [%[[N]], 4], dims = [1] nonexpanding = [0] : (tensor<4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %r = bcast.add %x, %[[ROW]] : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %r, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[ONE:.*]] = bcast.dynamic_broadcast_in_dim %one, [%[[M]], 4], dims = [1] expanding = [0] : (tensor<1xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %s = bcast.add %r, %[[ONE]]
// CHECK-NOT:     check_broadcastable
func.func @equal_and_one(%x: tensor<?x4xf32>, %row: tensor<4xf32>, %one: tensor<1xf32>) -> tensor<?x4xf32> {
  %r = bcast.add %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %s = bcast.add %r, %one : (tensor<?x4xf32>, tensor<1xf32>) -> tensor<?x4xf32>
  func.return %s : tensor<?x4xf32>
}

// -----

// Row "? and 1": nothing checked; the 1 expands to the ?'s size.
// CHECK-LABEL: func.func @dynamic_and_one
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    %[[ONE:.*]] = bcast.dynamic_broadcast_in_dim %one, [%[[N]]], dims = [0] expanding = [0] : (tensor<1xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %r = bcast.add %x, %[[ONE]] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return %r
func.func @dynamic_and_one(%x: tensor<?xf32>, %one: tensor<1xf32>) -> tensor<?xf32> {
  %r = bcast.add %x, %one : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// Row "? and n, n != 1": the ? is checked to be 1 or n; its broadcast to n
// has no known fact (it may be either).
// CHECK-LABEL: func.func @dynamic_and_static
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]]] at [0], [4] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %[[X:.*]] = bcast.dynamic_broadcast_in_dim %x, [4], dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %r = bcast.add %[[X]], %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// LOC-LABEL: func.func @dynamic_and_static
// LOC:         bcast.check_broadcastable {{.*}} loc("{{.*}}make_explicit_dynamic.mlir":[[# @LINE + 2]]:8)
func.func @dynamic_and_static(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = bcast.add %x, %y : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// Row "? and ?": checked equal or one of them 1; the result size is the one
// that is not 1 (broadcast_size), and neither broadcast has a known fact.
// CHECK-LABEL: func.func @two_dynamic
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %y, 0 : tensor<?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]]] at [0], [%[[M]]] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_size %[[N]], %[[M]]
// CHECK-NEXT:    %[[X:.*]] = bcast.dynamic_broadcast_in_dim %x, [%[[S]]], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %[[Y:.*]] = bcast.dynamic_broadcast_in_dim %y, [%[[S]]], dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %r = bcast.multiply %[[X]], %[[Y]]
// LOC-LABEL: func.func @two_dynamic
// LOC:         bcast.check_broadcastable {{.*}} loc("{{.*}}make_explicit_dynamic.mlir":[[# @LINE + 2]]:8)
func.func @two_dynamic(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = bcast.multiply %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// Row "the same SSA value twice": proven equal, nothing to do.
// CHECK-LABEL: func.func @same_value
// CHECK-NEXT:    %r = bcast.add %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:    func.return %r
func.func @same_value(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = bcast.add %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// Row "?<=B and n, B < n": the ? can only be 1 (checked), so it is known expanding.
// CHECK-LABEL: func.func @bounded_below
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xf32, #stablehlo.bounds<2>>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]]] at [0], [4] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %[[X:.*]] = bcast.dynamic_broadcast_in_dim %x, [4], dims = [0] expanding = [0] : (tensor<?xf32, #stablehlo.bounds<2>>) -> tensor<4xf32>
// CHECK-NEXT:    %r = bcast.add %[[X]], %y
func.func @bounded_below(%x: tensor<?xf32, #stablehlo.bounds<2>>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = bcast.add %x, %y : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// select over three operands: each result ? has one dynamic source, so no check.
// CHECK-LABEL: func.func @select_three
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %p, 0 : tensor<?x1xi1>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %t, 0 : tensor<?xf32>
// CHECK-NEXT:    %[[P:.*]] = bcast.dynamic_broadcast_in_dim %p, [%[[N]], %[[M]]], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xi1>) -> tensor<?x?xi1>
// CHECK-NEXT:    %[[T:.*]] = bcast.dynamic_broadcast_in_dim %t, [%[[N]], %[[M]]], dims = [1] nonexpanding = [0] : (tensor<?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:    %[[F:.*]] = bcast.dynamic_broadcast_in_dim %f, [%[[N]], %[[M]]], dims = [] : (tensor<f32>) -> tensor<?x?xf32>
// CHECK-NEXT:    %r = bcast.select %[[P]], %[[T]], %[[F]]
func.func @select_three(%p: tensor<?x1xi1>, %t: tensor<?xf32>, %f: tensor<f32>) -> tensor<?x?xf32> {
  %r = bcast.select %p, %t, %f : (tensor<?x1xi1>, tensor<?xf32>, tensor<f32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// Type promotion: the conversion keeps its operand's sizes (the same SSA size).
// CHECK-LABEL: func.func @promote
// CHECK-NEXT:    %[[C:.*]] = bcast.convert %x : (tensor<?xi8>) -> tensor<?xi32>
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xi8>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %y, 0 : tensor<?xi32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]]] at [0], [%[[M]]] at [0] checking [0]
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_size %[[N]], %[[M]]
// CHECK-NEXT:    bcast.dynamic_broadcast_in_dim %[[C]], [%[[S]]], dims = [0] : (tensor<?xi32>) -> tensor<?xi32>
func.func @promote(%x: tensor<?xi8>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %r = bcast.add %x, %y : (tensor<?xi8>, tensor<?xi32>) -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// -----

// broadcast_in_dim on dynamic dims: a ? result dim takes its operand dim's size
// (nonexpanding); a ? into a static size has no known fact (it checks itself);
// an identity is removed.
// CHECK-LABEL: func.func @explicit_broadcasts
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %v, 0 : tensor<?xf32>
// CHECK-NEXT:    %a = bcast.dynamic_broadcast_in_dim %v, [%[[N]], 4], dims = [0] nonexpanding = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %b = bcast.dynamic_broadcast_in_dim %v, [4], dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %w, 0 : tensor<?x1xf32>
// CHECK-NEXT:    %c = bcast.dynamic_broadcast_in_dim %w, [%[[M]], 4], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    func.return %a, %b, %c, %v
func.func @explicit_broadcasts(%v: tensor<?xf32>, %w: tensor<?x1xf32>) -> (tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, tensor<?xf32>) {
  %a = bcast.broadcast_in_dim %v, dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
  %b = bcast.broadcast_in_dim %v, dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
  %c = bcast.broadcast_in_dim %w, dims = [0, 1] : (tensor<?x1xf32>) -> tensor<?x4xf32>
  %d = bcast.broadcast_in_dim %v, dims = [0] : (tensor<?xf32>) -> tensor<?xf32>
  func.return %a, %b, %c, %d : tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, tensor<?xf32>
}

// -----

// reduce does not broadcast: kept as it is.
// CHECK-LABEL: func.func @reduce_kept
// CHECK-NEXT:    %r = bcast.reduce add %x, dims = [1] : (tensor<?x4xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return %r
func.func @reduce_kept(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %r = bcast.reduce add %x, dims = [1] : (tensor<?x4xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// xla: broadcast_dimensions place the low-rank operand's dims, then the table applies.
// CHECK-LABEL: func.func @xla_dims
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %c, 0 : tensor<?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]], 4] at [0, 1], [%[[M]]] at [0] checking [0]
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_size %[[N]], %[[M]]
// CHECK-NEXT:    %[[X:.*]] = bcast.dynamic_broadcast_in_dim %x, [%[[S]], 4], dims = [0, 1] nonexpanding = [1]
// CHECK-NEXT:    %[[C:.*]] = bcast.dynamic_broadcast_in_dim %c, [%[[S]], 4], dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %r = bcast.add %[[X]], %[[C]] : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
module attributes {bcast.semantics = "xla"} {
  func.func @xla_dims(%x: tensor<?x4xf32>, %c: tensor<?xf32>) -> tensor<?x4xf32> {
    %r = bcast.add %x, %c broadcast_dimensions = [0] : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
    func.return %r : tensor<?x4xf32>
  }
}

// -----

// tml's relational ops need identical shapes: the check is strict (equal, never 1).
// CHECK-LABEL: func.func @tml_strict
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xi32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]]] at [0], [4] at [0] checking [0] strict message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %[[X:.*]] = bcast.dynamic_broadcast_in_dim %x, [4], dims = [0] : (tensor<?xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %r = bcast.compare LT, %[[X]], %y
// LOC-LABEL: func.func @tml_strict
// LOC:         bcast.check_broadcastable {{.*}} strict {{.*}} loc("{{.*}}make_explicit_dynamic.mlir":[[# @LINE + 3]]:10)
module attributes {bcast.semantics = "tml"} {
  func.func @tml_strict(%x: tensor<?xi32>, %y: tensor<4xi32>) -> tensor<4xi1> {
    %r = bcast.compare LT, %x, %y : (tensor<?xi32>, tensor<4xi32>) -> tensor<4xi1>
    func.return %r : tensor<4xi1>
  }
}

// -----

// tml arithmetic on nested types, per level on the flat dims: the outer ? against
// 3 is checked; the inner ? against 1 is not.
// CHECK-LABEL: func.func @tml_nested
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?xtensor<?xf32>>
// CHECK-NEXT:    %[[M:.*]] = bcast.dim %x, 1 : tensor<?xtensor<?xf32>>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]], %[[M]]] at [0, 1], [3, 1] at [0, 1] checking [0]
// CHECK-NEXT:    %[[X:.*]] = bcast.dynamic_broadcast_in_dim %x, [3, %[[M]]], dims = [0, 1] nonexpanding = [1] : (tensor<?xtensor<?xf32>>) -> tensor<3xtensor<?xf32>>
// CHECK-NEXT:    %[[Y:.*]] = bcast.dynamic_broadcast_in_dim %y, [3, %[[M]]], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<3xtensor<1xf32>>) -> tensor<3xtensor<?xf32>>
// CHECK-NEXT:    %r = bcast.add %[[X]], %[[Y]]
module attributes {bcast.semantics = "tml"} {
  func.func @tml_nested(%x: tensor<?xtensor<?xf32>>, %y: tensor<3xtensor<1xf32>>) -> tensor<3xtensor<?xf32>> {
    %r = bcast.add %x, %y : (tensor<?xtensor<?xf32>>, tensor<3xtensor<1xf32>>) -> tensor<3xtensor<?xf32>>
    func.return %r : tensor<3xtensor<?xf32>>
  }
}

// -----

// xla clamp: a min or max that is not rank 0 has the operand's shape, so its ?
// is checked equal (strict), never stretched from 1; a rank-0 one broadcasts.
// CHECK-LABEL: func.func @xla_clamp
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %lo, 0 : tensor<?xf32>
// CHECK-NEXT:    bcast.check_broadcastable [%[[N]]] at [0], [4] at [0], [] at [] checking [0] strict message = "operands could not be broadcast together with shapes"
module attributes {bcast.semantics = "xla"} {
  func.func @xla_clamp(%lo: tensor<?xf32>, %x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
    %r = bcast.clamp %lo, %x, %hi : (tensor<?xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }
}
