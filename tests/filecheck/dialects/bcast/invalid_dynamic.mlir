// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// Dynamic and bounded dims that no run-time size makes valid are refuted at
// compile time, located at the op, in the wording of static shapes
// (docs/semantics.md, "Dynamic and bounded shapes"); dynamic.mlir has the
// rows that verify.

// n and m, neither 1: refuted, whatever the ? next to them.
func.func @static_pair(%a: tensor<?x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible: tensor<?x4xf32> and tensor<3xf32>}}
  // expected-note @+2 {{aligned from the right: ? x 4}}
  // expected-note @+1 {{dimension -1: 4 vs 3 (neither is 1)}}
  %0 = bcast.add %a, %b : (tensor<?x4xf32>, tensor<3xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

// ?<=B and n with B < 1 and B < n: the ? can be neither 1 nor n.
func.func @bound_excludes(%a: tensor<?xf32, #stablehlo.bounds<0>>, %b: tensor<4xf32>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible: tensor<?xf32, #stablehlo.bounds<0>> and tensor<4xf32>}}
  // expected-note @+2 {{aligned from the right: ?<=0}}
  // expected-note @+1 {{dimension -1: ?<=0 vs 4 (the bound allows neither 1 nor an equal size)}}
  %0 = bcast.add %a, %b : (tensor<?xf32, #stablehlo.bounds<0>>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// The inferred type shows the row's result dim: ?<=2 and 4 give 4.
func.func @bound_below(%a: tensor<?xf32, #stablehlo.bounds<2>>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  %0 = bcast.add %a, %b : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<2xf32>
  func.return
}

// -----

// ? and n give n, not ?... and ? x 1 against n gives ? x n.
func.func @inferred(%a: tensor<?x1xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.subtract' op inferred type(s) 'tensor<?x4xf32>' are incompatible with return type(s) of operation 'tensor<?x5xf32>'}}
  %0 = bcast.subtract %a, %b : (tensor<?x1xf32>, tensor<4xf32>) -> tensor<?x5xf32>
  func.return
}

// -----

// A declared dim more static than a bounded inferred one must fit the bound
// (StableHLO's is_compatible_dynamism_bounds_mismatch).
func.func @declared_above_bound(%a: tensor<?xf32, #stablehlo.bounds<4>>) {
  // expected-error @+1 {{'bcast.add' op inferred type(s) 'tensor<?xf32, #stablehlo.bounds<4>>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  %0 = bcast.add %a, %a : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<5xf32>
  func.return
}

// -----

// A declared dim less static than the inferred one drops a fact: refused,
// as for static shapes.
func.func @declared_less_static(%a: tensor<?xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  %0 = bcast.add %a, %b : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return
}

// -----

// ?<=4 and ?<=8 give ?<=8.
func.func @bounds_join(%a: tensor<?xf32, #stablehlo.bounds<4>>, %b: tensor<?xf32, #stablehlo.bounds<8>>) {
  // expected-error @+1 {{'bcast.maximum' op inferred type(s) 'tensor<?xf32, #stablehlo.bounds<8>>' are incompatible with return type(s) of operation 'tensor<?x1xf32>'}}
  %0 = bcast.maximum %a, %b : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<8>>) -> tensor<?x1xf32>
  func.return
}

// -----

// select broadcasts its three operands by the same table.
func.func @select(%p: tensor<?x3xi1>, %t: tensor<2xf32>, %f: tensor<?xf32>) {
  // expected-error @+3 {{'bcast.select' op operands are not broadcast-compatible: tensor<?x3xi1>, tensor<2xf32>, tensor<?xf32>}}
  // expected-note @+2 {{aligned from the right}}
  // expected-note @+1 {{dimension -1: 3 vs 2 vs ? (sizes other than 1 differ)}}
  %0 = bcast.select %p, %t, %f : (tensor<?x3xi1>, tensor<2xf32>, tensor<?xf32>) -> tensor<?x3xf32>
  func.return
}

// -----

// broadcast_in_dim: an operand ? whose bound excludes 1 and the result size.
func.func @broadcast_in_dim_bound(%a: tensor<?xf32, #stablehlo.bounds<0>>) {
  // expected-error @+1 {{'bcast.broadcast_in_dim' op size of operand dimension 0 (?<=0) is not equal to 1 or size of result dimension 1 (4)}}
  %0 = bcast.broadcast_in_dim %a, dims = [1] : (tensor<?xf32, #stablehlo.bounds<0>>) -> tensor<3x4xf32>
  func.return
}

// -----

// A ? result dim needs an operand dim to give its size.
func.func @broadcast_in_dim_unsized(%a: tensor<?xf32>) {
  // expected-error @+2 {{'bcast.broadcast_in_dim' op result dimension 0 is dynamic (?) but no operand dimension gives its size}}
  // expected-note @+1 {{a ? result dimension takes the run-time size of the operand dimension mapped to it}}
  %0 = bcast.broadcast_in_dim %a, dims = [1] : (tensor<?xf32>) -> tensor<?x3xf32>
  func.return
}

// -----

// xla: the table applies after broadcast_dimensions; 3 mapped onto 4 is
// refuted as with static shapes.
module attributes {bcast.semantics = "xla"} {
  func.func @xla_mapped(%m: tensor<?x4xf32>, %v: tensor<3xf32>) {
    // expected-error @+1 {{'bcast.add' op broadcast_dimensions maps dimension 0 (size 3) of the lower-rank operand to dimension 1 (size 4) of the higher-rank operand: sizes must be equal or one of them 1}}
    %0 = bcast.add %m, %v broadcast_dimensions = [1] : (tensor<?x4xf32>, tensor<3xf32>) -> tensor<?x4xf32>
    func.return
  }
}

// -----

module attributes {bcast.semantics = "xla"} {
  func.func @xla_rank(%m: tensor<?x4xf32>, %v: tensor<?xf32>) {
    // expected-error @+2 {{'bcast.add' op operands of different rank need broadcast_dimensions under xla semantics}}
    // expected-note @+1 {{only a rank-0 operand broadcasts without broadcast_dimensions}}
    %0 = bcast.add %m, %v : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
    func.return
  }
}

// -----

// tml's logical ops need identical shapes: a ? is never stretched, so
// ?<=2 against 4 can never be equal.
module attributes {bcast.semantics = "tml"} {
  func.func @tml_strict(%p: tensor<?xi1, #stablehlo.bounds<2>>, %q: tensor<4xi1>) {
    // expected-error @+3 {{'bcast.and' op logical operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
    // expected-note @+2 {{shapes ?<=2 and 4 cannot be equal at run time}}
    // expected-note @+1 {{tml broadcasts these operations only from a scalar}}
    %0 = bcast.and %p, %q : (tensor<?xi1, #stablehlo.bounds<2>>, tensor<4xi1>) -> tensor<4xi1>
    func.return
  }
}

// -----

// ... and the same rank.
module attributes {bcast.semantics = "tml"} {
  func.func @tml_strict_rank(%p: tensor<?xi1>, %q: tensor<4x?xi1>) {
    // expected-error @+3 {{'bcast.or' op logical operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
    // expected-note @+2 {{shapes ? and 4x? cannot be equal at run time}}
    // expected-note @+1 {{tml broadcasts these operations only from a scalar}}
    %0 = bcast.or %p, %q : (tensor<?xi1>, tensor<4x?xi1>) -> tensor<4x?xi1>
    func.return
  }
}

// -----

// tml arithmetic: the table per nesting level.
module attributes {bcast.semantics = "tml"} {
  func.func @tml_level(%a: tensor<?xtensor<3xf32>>, %b: tensor<2xtensor<4xf32>>) {
    // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible: tensor<?xtensor<3xf32>> and tensor<2xtensor<4xf32>>}}
    // expected-note @+2 {{nesting level 1, aligned from the right: 3}}
    // expected-note @+1 {{nesting level 1, dimension -1: 3 vs 4 (neither is 1)}}
    %0 = bcast.add %a, %b : (tensor<?xtensor<3xf32>>, tensor<2xtensor<4xf32>>) -> tensor<2xtensor<4xf32>>
    func.return
  }
}

// -----

// Ops that do not take dynamic dims yet refuse them, naming the op (one
// refusal for every op whose class does not say DYNAMIC_SHAPES).
func.func @not_yet_narrow(%a: tensor<?x1xf32>) {
  // expected-error @+2 {{'bcast.narrow' op dynamic dimensions are not supported by bcast.narrow yet}}
  // expected-note @+1 {{lists the ops that take them}}
  %0 = bcast.narrow %a : (tensor<?x1xf32>) -> tensor<?xf32>
  func.return
}

// -----

// A reverse takes them (sizes unchanged), but not a dim out of range.
func.func @reverse_dim_out_of_range(%a: tensor<?x8xf32>) {
  // expected-error @+2 {{'bcast.reverse' op dims 2 is out of range}}
  // expected-note @+1 {{the operand has 2 dimensions (shape ?x8); dims index them from 0}}
  %0 = bcast.reverse %a, dims = [2] : tensor<?x8xf32>
  func.return
}

// -----

// A transpose takes them (its sizes permuted), but not a permutation that does not fit.
func.func @transpose_bad_permutation(%a: tensor<?x8xf32>) {
  // expected-error @+1 {{'bcast.transpose' op permutation [0, 0] is not a permutation of the operand's 2 dimensions}}
  %0 = bcast.transpose %a, dims = [0, 0] : (tensor<?x8xf32>) -> tensor<?x?xf32>
  func.return
}

// -----

func.func @transpose_incompatible_result(%a: tensor<?x8xf32>) {
  // expected-error @+1 {{'bcast.transpose' op inferred type(s) 'tensor<8x?xf32>' are incompatible with return type(s) of operation 'tensor<4x?xf32>'}}
  %0 = bcast.transpose %a, dims = [1, 0] : (tensor<?x8xf32>) -> tensor<4x?xf32>
  func.return
}

// -----

// StableHLO's elementwise ops take dynamic dims (JAX's shape-polymorphic
// exports hold them: docs/stablehlo.md); its other ops refuse them as bcast's do.
func.func @not_yet_stablehlo(%a: tensor<?x2xf32>) {
  // expected-error @+2 {{'stablehlo.optimization_barrier' op dynamic dimensions are not supported by stablehlo.optimization_barrier yet}}
  // expected-note @+1 {{lists the ops that take them}}
  %0 = stablehlo.optimization_barrier %a : tensor<?x2xf32>
  func.return
}

// -----

// StableHLO's transpose takes them (JAX writes k.T of attention), but not a
// result that no run-time size fits.
func.func @stablehlo_transpose_incompatible_result(%a: tensor<?x2xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op inferred type(s) 'tensor<2x?xf32>' are incompatible with return type(s) of operation 'tensor<3x?xf32>'}}
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<?x2xf32>) -> tensor<3x?xf32>
  func.return
}

// -----

// StableHLO's CHLO test selectv2_dynamic_ranked declares 2x?x8 for a ? met
// by 8: bcast infers 8 there (the table's `?` and `n` row) and refuses the
// less static declaration.
func.func @select_less_static(%p: tensor<1xi1>, %t: tensor<2x?x8xi32>, %f: tensor<2x8x8xi32>) {
  // expected-error @+1 {{'bcast.select' op inferred type(s) 'tensor<2x8x8xi32>' are incompatible with return type(s) of operation 'tensor<2x?x8xi32>'}}
  %0 = bcast.select %p, %t, %f : (tensor<1xi1>, tensor<2x?x8xi32>, tensor<2x8x8xi32>) -> tensor<2x?x8xi32>
  func.return
}
