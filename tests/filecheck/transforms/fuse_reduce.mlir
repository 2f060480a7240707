// RUN: bcast-opt %s --split-input-file -p bcast-fuse | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-fuse | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse | filecheck %s --check-prefix=PIPE

// bcast-fuse with reductions (explicit IR): a reduction that keeps dimension 0
// joins the group of the elementwise ops feeding it, and a broadcast of its
// result that maps rows to rows (an inner broadcast) joins too, so the
// consumers are in the same group. Blocks of rows are then independent
// (bcast.ir.fusion).

// Softmax: one fusion; both reductions and both inner broadcasts inside.
// CHECK-LABEL: func.func @softmax(
//  CHECK-NEXT:   %[[R:.+]] = bcast.fusion %x : (tensor<4x3xf32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: tensor<4x3xf32>):
//  CHECK-NEXT:     %[[M:.+]] = bcast.reduce maximum %[[X]], dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
//  CHECK-NEXT:     %[[MB:.+]] = bcast.broadcast_in_dim %[[M]], dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
//  CHECK-NEXT:     %[[D:.+]] = bcast.subtract %[[X]], %[[MB]]
//  CHECK-NEXT:     %[[E:.+]] = bcast.exponential %[[D]]
//  CHECK-NEXT:     %[[S:.+]] = bcast.reduce add %[[E]], dims = [1] keepdims
//  CHECK-NEXT:     %[[SB:.+]] = bcast.broadcast_in_dim %[[S]], dims = [0, 1]
//  CHECK-NEXT:     %[[Q:.+]] = bcast.divide %[[E]], %[[SB]]
//  CHECK-NEXT:     bcast.yield %[[Q]] : tensor<4x3xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[R]] : tensor<4x3xf32>
func.func @softmax(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %mb = bcast.broadcast_in_dim %m, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %d = bcast.subtract %x, %mb : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %e = bcast.exponential %d : tensor<4x3xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %sb = bcast.broadcast_in_dim %s, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %r = bcast.divide %e, %sb : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// Layernorm: the elementwise ops on the reduced shape (mean, variance,
// rsqrt) are in the group too; the input views of the scalars and of gamma
// and beta are cloned in as usual.
// CHECK-LABEL: func.func @layernorm(
//  CHECK-NEXT:   %inv_n = bcast.constant
//  CHECK-NEXT:   %eps = bcast.constant
//  CHECK-NEXT:   %[[R:.+]] = bcast.fusion %x, %inv_n, %eps, %gamma, %beta : {{.*}} -> tensor<4x8xf32> {
//       CHECK:     bcast.reduce add %{{.+}}, dims = [1] keepdims
//       CHECK:     bcast.multiply {{.*}} : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
//       CHECK:     bcast.subtract
//       CHECK:     bcast.reduce add %{{.+}}, dims = [1] keepdims
//       CHECK:     bcast.rsqrt %{{.+}} : tensor<4x1xf32>
//       CHECK:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[R]] : tensor<4x8xf32>
func.func @layernorm(%x: tensor<4x8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>) -> tensor<4x8xf32> {
  %inv_n = bcast.constant dense<0.125> : tensor<f32>
  %eps = bcast.constant dense<1.0e-05> : tensor<f32>
  %sum = bcast.reduce add %x, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %inv_n_b = bcast.broadcast_in_dim %inv_n, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %mean = bcast.multiply %sum, %inv_n_b : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %mean_b = bcast.broadcast_in_dim %mean, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %d = bcast.subtract %x, %mean_b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = bcast.multiply %d, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ssq = bcast.reduce add %sq, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %var = bcast.multiply %ssq, %inv_n_b : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %eps_b = bcast.broadcast_in_dim %eps, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %ve = bcast.add %var, %eps_b : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %rs = bcast.rsqrt %ve : tensor<4x1xf32>
  %rs_b = bcast.broadcast_in_dim %rs, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %n = bcast.multiply %d, %rs_b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gamma_b = bcast.broadcast_in_dim %gamma, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %g = bcast.multiply %n, %gamma_b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %beta_b = bcast.broadcast_in_dim %beta, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %r = bcast.add %g, %beta_b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// Logsumexp without keepdims (XLA style): the result has the reduced shape,
// and the rows are still the leading dimension of every value.
// CHECK-LABEL: func.func @logsumexp(
//  CHECK-NEXT:   %[[R:.+]] = bcast.fusion %x : (tensor<4x8xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:.+]]: tensor<4x8xf32>):
//  CHECK-NEXT:     %[[M:.+]] = bcast.reduce maximum %[[X]], dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     bcast.broadcast_in_dim %[[M]], dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:     bcast.subtract
//  CHECK-NEXT:     bcast.exponential
//  CHECK-NEXT:     bcast.reduce add
//  CHECK-NEXT:     bcast.log %{{.+}} : tensor<4xf32>
//  CHECK-NEXT:     %[[L:.+]] = bcast.add %{{.+}}, %[[M]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:     bcast.yield %[[L]] : tensor<4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[R]] : tensor<4xf32>
func.func @logsumexp(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %mb = bcast.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = bcast.subtract %x, %mb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = bcast.exponential %d : tensor<4x8xf32>
  %s = bcast.reduce add %e, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %l = bcast.log %s : tensor<4xf32>
  %r = bcast.add %l, %m : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// A reduction over dimension 0 mixes rows: it stays outside, and its
// (broadcast) result enters the fusion as an input view.
// CHECK-LABEL: func.func @column(
//  CHECK-NEXT:   %[[M:.+]] = bcast.reduce add %x, dims = [0] keepdims : (tensor<4x8xf32>) -> tensor<1x8xf32>
//  CHECK-NEXT:   %[[R:.+]] = bcast.fusion %x, %[[M]] : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT:   ^bb0(%{{.+}}: tensor<4x8xf32>, %[[MA:.+]]: tensor<1x8xf32>):
//  CHECK-NEXT:     bcast.broadcast_in_dim %[[MA]], dims = [0, 1] : (tensor<1x8xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:     bcast.subtract
//  CHECK-NEXT:     bcast.yield
func.func @column(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = bcast.reduce add %x, dims = [0] keepdims : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %mb = bcast.broadcast_in_dim %m, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<4x8xf32>
  %d = bcast.subtract %x, %mb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %d : tensor<4x8xf32>
}

// -----

// A reduction with nothing elementwise around it is left alone.
// CHECK-LABEL: func.func @lone(
//  CHECK-NEXT:   %m = bcast.reduce add %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   func.return %m : tensor<4xf32>
func.func @lone(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %m = bcast.reduce add %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  func.return %m : tensor<4xf32>
}

// -----

// An inner broadcast used outside its group is not materialized: the fusion
// yields the reduced value and a copy of the broadcast outside reads it. A
// reduced value used outside is a result of its own (smaller) shape.
// CHECK-LABEL: func.func @used_outside(
//  CHECK-NEXT:   %[[M:.+]], %[[D:.+]] = bcast.fusion %x : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
//       CHECK:     bcast.yield %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4x8xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[MB:.+]] = bcast.broadcast_in_dim %[[M]], dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   func.return %[[D]], %[[MB]], %[[M]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
func.func @used_outside(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %mb = bcast.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = bcast.subtract %x, %mb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %d, %mb, %m : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
}

// -----

// Softmax as a user writes it under xla semantics (broadcast_dimensions) and
// tml semantics: the standard pipeline makes one fusion of each.
// PIPE-LABEL: func.func @softmax_xla(
//  PIPE-NEXT:   %[[R:.+]] = bcast.fusion %x : (tensor<4x8xf32>) -> tensor<4x8xf32> {
//       PIPE:     bcast.reduce maximum
//       PIPE:     bcast.reduce add
//       PIPE:     bcast.yield
//  PIPE-NEXT:   }
//  PIPE-NEXT:   func.return %[[R]]
module attributes {bcast.semantics = "xla"} {
  func.func @softmax_xla(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %m = bcast.reduce maximum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    %d = bcast.subtract %x, %m broadcast_dimensions = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
    %e = bcast.exponential %d : tensor<4x8xf32>
    %s = bcast.reduce add %e, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    %r = bcast.divide %e, %s broadcast_dimensions = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
    func.return %r : tensor<4x8xf32>
  }
}

// -----

// PIPE-LABEL: func.func @softmax_tml(
//  PIPE-NEXT:   %[[R:.+]] = bcast.fusion %x : (tensor<4x8xf32>) -> tensor<4x8xf32> {
//       PIPE:     bcast.reduce maximum
//       PIPE:     bcast.reduce add
//       PIPE:     bcast.yield
//  PIPE-NEXT:   }
//  PIPE-NEXT:   func.return %[[R]]
module attributes {bcast.semantics = "tml"} {
  func.func @softmax_tml(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
    %d = bcast.subtract %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %e = bcast.exponential %d : tensor<4x8xf32>
    %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
    %r = bcast.divide %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    func.return %r : tensor<4x8xf32>
  }
}

// -----

// An inner broadcast read by a group it cannot join (the transpose path
// leaves the first group and comes back) is cloned into that group as a view
// of the reduced value, which the first group yields.
// CHECK-LABEL: func.func @read_by_another_group(
//  CHECK-NEXT:   %[[M:.+]], %[[D:.+]] = bcast.fusion %x : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>) {
//       CHECK:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[U:.+]] = bcast.fusion %[[D]], %[[M]] : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32> {
//  CHECK-NEXT:   ^bb0(%[[DA:.+]]: tensor<4x4xf32>, %[[MA:.+]]: tensor<4xf32>):
//  CHECK-NEXT:     %[[T:.+]] = bcast.transpose %[[DA]], dims = [1, 0]
//  CHECK-NEXT:     %[[MB:.+]] = bcast.broadcast_in_dim %[[MA]], dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
//  CHECK-NEXT:     bcast.add %[[T]], %[[MB]]
//       CHECK:   func.return %[[U]]
func.func @read_by_another_group(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<4x4xf32>) -> tensor<4xf32>
  %mb = bcast.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
  %d = bcast.subtract %x, %mb : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = bcast.transpose %d, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %u = bcast.add %t, %mb : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %u : tensor<4x4xf32>
}

// -----

// A dynamic softmax fuses as the static one: its dynamic_broadcast_in_dims
// keep rows in place (dim 0 known nonexpanding: canonicalization fills the
// fact in, one size source), so they are inner broadcasts, and the sizes
// they read stay the function's (bcast.dim at entry, outside the fusion).
// PIPE-LABEL: func.func @dynamic_softmax(
//  PIPE-NEXT:   %[[N:.+]] = bcast.dim %x, 0
//  PIPE-NEXT:   %[[K:.+]] = bcast.dim %x, 1
//  PIPE-NEXT:   %[[F:.+]] = bcast.fusion %x : (tensor<?x?xf32>) -> tensor<?x?xf32> {
//  PIPE-NEXT:   ^bb0(%[[XA:.+]]: tensor<?x?xf32>):
//  PIPE-NEXT:     %[[M:.+]] = bcast.reduce maximum %[[XA]], dims = [1] keepdims
//  PIPE-NEXT:     %[[MB:.+]] = bcast.dynamic_broadcast_in_dim %[[M]], [%[[N]], %[[K]]], dims = [0, 1] expanding = [1] nonexpanding = [0]
//  PIPE-NEXT:     %[[D:.+]] = bcast.subtract %[[XA]], %[[MB]]
//  PIPE-NEXT:     %[[E:.+]] = bcast.exponential %[[D]]
//  PIPE-NEXT:     %[[S:.+]] = bcast.reduce add %[[E]], dims = [1] keepdims
//  PIPE-NEXT:     %[[SB:.+]] = bcast.dynamic_broadcast_in_dim %[[S]], [%[[N]], %[[K]]], dims = [0, 1] expanding = [1] nonexpanding = [0]
//  PIPE-NEXT:     %[[R:.+]] = bcast.divide %[[E]], %[[SB]]
//  PIPE-NEXT:     bcast.yield %[[R]]
//  PIPE-NEXT:   }
//  PIPE-NEXT:   func.return %[[F]]
func.func @dynamic_softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %d = bcast.subtract %x, %m : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = bcast.exponential %d : tensor<?x?xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %r = bcast.divide %e, %s : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// Two ? rows of different sources (x's and col's) broadcast to their
// broadcast_size: x + row stretches in place where x has one row, so
// without reductions the chain stays one fusion (the loop lowering reads the
// stretched operand at a stepped index)...
// PIPE-LABEL: func.func @dynamic_stretch_in_place(
//       PIPE:   bcast.check_broadcastable
//  PIPE-NEXT:   %[[F:.+]] = bcast.fusion %x, %row, %col
//       PIPE:     bcast.add
//       PIPE:     bcast.dynamic_broadcast_in_dim %{{.+}}, [%{{.+}}, 8], dims = [0, 1] nonexpanding = [1]
//       PIPE:     bcast.multiply
//  PIPE-NEXT:     bcast.yield
//  PIPE-NEXT:   }
//  PIPE-NEXT:   func.return %[[F]]
func.func @dynamic_stretch_in_place(%x: tensor<?x8xf32>, %row: tensor<8xf32>, %col: tensor<?x1xf32>) -> tensor<?x8xf32> {
  %a = bcast.add %x, %row : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %b = bcast.multiply %a, %col : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
  func.return %b : tensor<?x8xf32>
}

// -----

// ...but a reduction keeps its rows in place: a group never holds both a
// stretching broadcast and a reduction, so the reduction of the stretched
// product stays out of the fusion (alone, it is not fused).
// PIPE-LABEL: func.func @dynamic_stretch_then_reduce(
//       PIPE:   %[[B:.+]] = bcast.fusion %x, %row, %col
//   PIPE-NOT:     bcast.reduce
//       PIPE:     bcast.yield
//  PIPE-NEXT:   }
//  PIPE-NEXT:   %[[S:.+]] = bcast.reduce add %[[B]], dims = [1]
//  PIPE-NEXT:   func.return %[[S]]
func.func @dynamic_stretch_then_reduce(%x: tensor<?x8xf32>, %row: tensor<8xf32>, %col: tensor<?x1xf32>) -> tensor<?xf32> {
  %a = bcast.add %x, %row : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %b = bcast.multiply %a, %col : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
  %s = bcast.reduce add %b, dims = [1] : (tensor<?x8xf32>) -> tensor<?xf32>
  func.return %s : tensor<?xf32>
}
