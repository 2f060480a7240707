// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p convert-stablehlo-to-bcast
// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p convert-stablehlo-to-bcast -t stablehlo

// `case`/`if` are not registered ops, so the import checks StableHLO's rules
// for them before flattening, in every mode: an invalid one is bad input
// (before: an internal error for a case without branches, and unlocated
// errors from the selects built of the others).

func.func @if_vector_predicate(%p: tensor<2xi1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'stablehlo.if' op takes one rank-0 i1 tensor operand, got tensor<2xi1>}}
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<3xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<3xf32>) -> ()
  }) : (tensor<2xi1>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @case_without_branches(%i: tensor<i32>) -> tensor<5xi32> {
  // expected-error@+1 {{'stablehlo.case' op expects at least one branch}}
  %0 = "stablehlo.case"(%i) : (tensor<i32>) -> tensor<5xi32>
  func.return %0 : tensor<5xi32>
}

// -----

func.func @case_branch_types(%i: tensor<i32>, %x: tensor<f64>) -> tensor<f64> {
  // expected-error@+1 {{'stablehlo.case' op branch 1 returns (tensor<i64>), the op's results are (tensor<f64>)}}
  %0 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%x) : (tensor<f64>) -> ()
  }, {
    %c = stablehlo.constant dense<7> : tensor<i64>
    "stablehlo.return"(%c) : (tensor<i64>) -> ()
  }) : (tensor<i32>) -> tensor<f64>
  func.return %0 : tensor<f64>
}

// -----

func.func @case_vector_index(%i: tensor<3xi32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'stablehlo.case' op takes one rank-0 integer tensor operand, got tensor<3xi32>}}
  %0 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) : (tensor<3xi32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @case_branch_arguments(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'stablehlo.case' op branch 0 must be one block without arguments}}
  %0 = "stablehlo.case"(%i) ({
  ^bb0(%a: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// Compatible types are enough (StableHLO's rule): a `?` size in a branch or
// in the results agrees with a static one. No error.
func.func @if_compatible_branch_types(%x: tensor<2xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %p = stablehlo.constant dense<true> : tensor<i1>
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%y) : (tensor<?xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<2xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
