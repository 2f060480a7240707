// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p bcast-make-explicit,canonicalize,cse,bcast-fuse,bcast-lower-to-loops

// Control flow with '?' dims that bcast-lower-to-loops (the C backend)
// refuses, at the op (passes/loops_control_flow.py): the C runtime sizes a
// call's results before it runs, so a '?' size of a loop or a case must be
// the size of a value read before it; and an op with a run-time size rule
// of its own is not checked inside a region. The other backends run them.

// The body yields %y: the carried size may change from x's to y's.
func.func @changing(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  // expected-note @+3 {{the C backend sizes a call's results before it runs: a '?' size of control flow is the size of a value read before it (docs/c-backend.md, "Control flow")}}
  // expected-note @+2 {{the reference, numpy and array-api backends run control flow with '?' dims or run-time checks in its regions}}
  // expected-error @+1 {{'bcast.while' op is not supported by bcast-lower-to-loops with carried value 0 changing its size along dim 0}}
  %r = bcast.while %x : (tensor<?xf32>) -> tensor<?xf32> cond {
  ^bb0(%a: tensor<?xf32>):
    %s = bcast.reduce add %a, dims = [0] : (tensor<?xf32>) -> tensor<f32>
    %z = bcast.constant dense<0.0> : tensor<f32>
    %p = bcast.compare GT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?xf32>):
    bcast.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// The branches yield x's rows and y's rows.
func.func @branch_sizes(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  // expected-note @+3 {{the C backend sizes a call's results before it runs}}
  // expected-note @+2 {{the reference, numpy and array-api backends run control flow}}
  // expected-error @+1 {{'bcast.case' op is not supported by bcast-lower-to-loops with result 0 of a size along dim 0 that its branches compute}}
  %r = bcast.case %k : (tensor<i32>) -> tensor<?xf32> {
    bcast.yield %x : tensor<?xf32>
  } {
    bcast.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// A size computed in the branch (x + y's rows: x's or y's, whichever is
// not 1) is not known before the call either.
func.func @computed(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  // expected-note @+3 {{the C backend sizes a call's results before it runs}}
  // expected-note @+2 {{the reference, numpy and array-api backends run control flow}}
  // expected-error @+1 {{'bcast.case' op is not supported by bcast-lower-to-loops with result 0 of a size along dim 0 that its branches compute}}
  %r = bcast.case %k : (tensor<i32>) -> tensor<?xf32> {
    %s = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    bcast.yield %s : tensor<?xf32>
  } {
    bcast.yield %x : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// concatenate along a '?' dim in a loop body: its rule (and the size it
// changes) would have to be checked each iteration.
func.func @concatenating(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-note @+2 {{the reference, numpy and array-api backends run control flow}}
  // expected-error @+1 {{'bcast.while' op is not supported by bcast-lower-to-loops with a run-time rule of 'bcast.concatenate' in a region}}
  %r = bcast.while %x : (tensor<?xf32>) -> tensor<?xf32> cond {
  ^bb0(%a: tensor<?xf32>):
    %s = bcast.reduce add %a, dims = [0] : (tensor<?xf32>) -> tensor<f32>
    %z = bcast.constant dense<100.0> : tensor<f32>
    %p = bcast.compare LT, %s, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?xf32>):
    // expected-note @+1 {{'bcast.concatenate' is here}}
    %c = bcast.concatenate %a, %x, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    bcast.yield %c : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
