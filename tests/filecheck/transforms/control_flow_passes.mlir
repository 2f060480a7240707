// The passes on bcast.while and bcast.case (docs/ir.md, "Control flow"):
// each region is a block of its own. make-explicit and canonicalization work
// inside it; a run-time check stays in its region (a check of a branch not
// taken must not fire; a loop body's check runs each iteration); fusion
// fuses inside each region and stops at the op.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse | filecheck %s --check-prefix=FUSED

// The body's implicit broadcast of %e (defined outside) is made explicit in
// the body; the one after the loop stays after it.
// EXPLICIT-LABEL: func.func @loop
// EXPLICIT:         %e = bcast.exponential %row
// EXPLICIT-NEXT:    bcast.while
// EXPLICIT:         } do {
// EXPLICIT-NEXT:    ^bb0(%a_1: tensor<3x4xf32>, %i_1: tensor<i32>):
// EXPLICIT-NEXT:      %[[B:.*]] = bcast.broadcast_in_dim %e, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// EXPLICIT-NEXT:      %s = bcast.multiply %a_1, %[[B]]
// EXPLICIT:           bcast.yield %t, %j
// EXPLICIT-NEXT:    }
// EXPLICIT-NEXT:    %[[C:.*]] = bcast.broadcast_in_dim %e, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// EXPLICIT-NEXT:    %out = bcast.add %r, %[[C]]
// Fusion: the body's multiply and tanh are one fusion inside the body; the
// add after the loop is its own.
// FUSED-LABEL: func.func @loop
// FUSED:         %e = bcast.fusion %row
// FUSED:         bcast.while %x, %n
// FUSED:           %p = bcast.fusion %i, %z
// FUSED:         } do {
// FUSED:           %t = bcast.fusion %a_1, %e : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32> {
// FUSED:             bcast.multiply
// FUSED-NEXT:        %t_1 = bcast.tanh
// FUSED-NEXT:        bcast.yield %t_1
// FUSED-NEXT:      }
// FUSED:           bcast.yield %t, %j
// FUSED-NEXT:    }
// FUSED-NEXT:    %out = bcast.fusion %r, %e
func.func @loop(%x: tensor<3x4xf32>, %row: tensor<4xf32>, %n: tensor<i32>) -> tensor<3x4xf32> {
  %e = bcast.exponential %row : tensor<4xf32>
  %r:2 = bcast.while %x, %n : (tensor<3x4xf32>, tensor<i32>) -> (tensor<3x4xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<3x4xf32>, %i: tensor<i32>):
    %z = bcast.constant dense<0> : tensor<i32>
    %p = bcast.compare GT, %i, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3x4xf32>, %i: tensor<i32>):
    %s = bcast.multiply %a, %e : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
    %t = bcast.tanh %s : tensor<3x4xf32>
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.subtract %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %t, %j : tensor<3x4xf32>, tensor<i32>
  }
  %out = bcast.add %r#0, %e : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return %out : tensor<3x4xf32>
}

// -----

// The check of branch 0 stays in branch 0: hoisting it to the function's
// entry would fail a call that takes branch 1.
// EXPLICIT-LABEL: func.func @check_stays_in_its_branch
// EXPLICIT-NEXT:    %n = bcast.negate %x
// EXPLICIT-NEXT:    %r = bcast.case %k : (tensor<i32>) -> tensor<?xf32> {
// EXPLICIT:           bcast.check_broadcastable
// EXPLICIT:           %a = bcast.add
// EXPLICIT-NEXT:      bcast.yield %a
// EXPLICIT-NEXT:    } {
// EXPLICIT-NEXT:      bcast.yield %n
// EXPLICIT-NEXT:    }
// EXPLICIT-NEXT:    func.return %r
// FUSED-LABEL: func.func @check_stays_in_its_branch
// FUSED-NOT:     bcast.check_broadcastable
// FUSED:         bcast.case
// FUSED:           bcast.check_broadcastable
// FUSED:         } {
// FUSED-NOT:       bcast.check_broadcastable
// FUSED:         func.return
func.func @check_stays_in_its_branch(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %n = bcast.negate %x : tensor<?xf32>
  %r = bcast.case %k : (tensor<i32>) -> tensor<?xf32> {
    %a = bcast.add %n, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    bcast.yield %a : tensor<?xf32>
  } {
    bcast.yield %n : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// A loop body's check stays in the body: the carried value's size may change
// from one iteration to the next.
// EXPLICIT-LABEL: func.func @check_in_a_loop_body
// EXPLICIT-NEXT:    bcast.while %x, %m
// EXPLICIT-NOT:       bcast.check_broadcastable
// EXPLICIT:         } do {
// EXPLICIT:           bcast.check_broadcastable
// EXPLICIT:           %s = bcast.multiply
// EXPLICIT:           bcast.yield %s, %j
// EXPLICIT-NEXT:    }
// EXPLICIT-NEXT:    func.return %r
func.func @check_in_a_loop_body(%x: tensor<?xf32>, %y: tensor<?xf32>, %m: tensor<i32>) -> tensor<?xf32> {
  %r:2 = bcast.while %x, %m : (tensor<?xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<?xf32>, %i: tensor<i32>):
    %z = bcast.constant dense<0> : tensor<i32>
    %p = bcast.compare GT, %i, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?xf32>, %i: tensor<i32>):
    %s = bcast.multiply %a, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.subtract %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %s, %j : tensor<?xf32>, tensor<i32>
  }
  func.return %r#0 : tensor<?xf32>
}

// -----

// A splat constant defined outside a loop and read only by a fusion in its
// body: the fusion reads a rank-0 copy made in the body, and the constant
// outside, left unread, is removed (it is not one of the body's own ops:
// fusion once stopped here with an internal error, on jax.lax.igamma).
// FUSED-LABEL: func.func @outer_splat
// FUSED-NOT:     dense<2.000000e+00> : tensor<6xf32>
// FUSED:         bcast.while %x, %n
// FUSED:         } do {
// FUSED-NEXT:    ^bb0(%a_1: tensor<6xf32>, %{{.*}}: tensor<i32>):
// FUSED-NEXT:      %two = bcast.constant dense<2.000000e+00> : tensor<f32>
// FUSED-NEXT:      %t = bcast.fusion %a_1, %two : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32> {
// FUSED:             bcast.multiply
// FUSED-NEXT:        bcast.tanh
func.func @outer_splat(%x: tensor<6xf32>, %n: tensor<i32>) -> tensor<6xf32> {
  %two = bcast.constant dense<2.0> : tensor<6xf32>
  %r:2 = bcast.while %x, %n : (tensor<6xf32>, tensor<i32>) -> (tensor<6xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<6xf32>, %i: tensor<i32>):
    %z = bcast.constant dense<0> : tensor<i32>
    %p = bcast.compare GT, %i, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<6xf32>, %i: tensor<i32>):
    %s = bcast.multiply %a, %two : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %t = bcast.tanh %s : tensor<6xf32>
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.subtract %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %t, %j : tensor<6xf32>, tensor<i32>
  }
  func.return %r#0 : tensor<6xf32>
}
