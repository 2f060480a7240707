// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The verifiers of bcast.while and bcast.case (ir/control_flow.py): the
// regions' signatures against the carried types and the results.

func.func @cond_arguments(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.while' op expects the 'cond' region to take arguments of the carried types (tensor<3xf32>), but it takes (tensor<f32>)}}
  %r = bcast.while %x : (tensor<3xf32>) -> tensor<3xf32> cond {
  ^bb0(%a: tensor<f32>):
    %p = bcast.constant dense<true> : tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3xf32>):
    bcast.yield %a : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @cond_yields_a_vector(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.while' op expects the 'cond' region to yield values of types (tensor<i1>), but it yields (tensor<3xi1>)}}
  %r = bcast.while %x : (tensor<3xf32>) -> tensor<3xf32> cond {
  ^bb0(%a: tensor<3xf32>):
    %p = bcast.compare GT, %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    bcast.yield %p : tensor<3xi1>
  } do {
  ^bb0(%a: tensor<3xf32>):
    bcast.yield %a : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @body_changes_a_type(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.while' op expects the 'do' region to yield values of types (tensor<3xf32>), but it yields (tensor<f32>)}}
  %r = bcast.while %x : (tensor<3xf32>) -> tensor<3xf32> cond {
  ^bb0(%a: tensor<3xf32>):
    %p = bcast.constant dense<false> : tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3xf32>):
    %s = bcast.reduce add %a, dims = [0] : (tensor<3xf32>) -> tensor<f32>
    bcast.yield %s : tensor<f32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @results_differ(%x: tensor<3xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'bcast.while' op expects the result types (tensor<?xf32>) to equal the carried types (tensor<3xf32>)}}
  %r = bcast.while %x : (tensor<3xf32>) -> tensor<?xf32> cond {
  ^bb0(%a: tensor<3xf32>):
    %p = bcast.constant dense<false> : tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3xf32>):
    bcast.yield %a : tensor<3xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

func.func @body_without_yield(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.while' op expects the 'do' region to end with 'bcast.yield'}}
  %r = bcast.while %x : (tensor<3xf32>) -> tensor<3xf32> cond {
  ^bb0(%a: tensor<3xf32>):
    %p = bcast.constant dense<false> : tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3xf32>):
    %n = bcast.negate %a : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @branch_yields_another_type(%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.case' op expects branch 1 to yield values of types (tensor<3xf32>), but it yields (tensor<f32>)}}
  %r = bcast.case %k : (tensor<i32>) -> tensor<3xf32> {
    bcast.yield %x : tensor<3xf32>
  } {
    %s = bcast.reduce add %x, dims = [0] : (tensor<3xf32>) -> tensor<f32>
    bcast.yield %s : tensor<f32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @index_of_rank_1(%k: tensor<1xi32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.case' op expects the index to be tensor<i32>, but it is tensor<1xi32>}}
  %r = bcast.case %k : (tensor<1xi32>) -> tensor<3xf32> {
    bcast.yield %x : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @index_of_i64(%k: tensor<i64>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.case' op expects the index to be tensor<i32>, but it is tensor<i64>}}
  %r = bcast.case %k : (tensor<i64>) -> tensor<3xf32> {
    bcast.yield %x : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @branch_with_arguments(%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'bcast.case' op expects branch 0 to take no arguments}}
  %r = bcast.case %k : (tensor<i32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>):
    bcast.yield %a : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

func.func @no_branch(%k: tensor<i32>) {
  // expected-error @+1 {{'bcast.case' op expects at least one branch}}
  bcast.case %k : (tensor<i32>) -> ()
  func.return
}
