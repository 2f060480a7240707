// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier rules for sort (static shapes): at least one input,
// all inputs of one shape, the results of the inputs' types, a dimension
// in [-rank, rank), a comparator taking two rank-0 tensors of each input's
// element type and returning one tensor<i1>. chlo.top_k: rank >= 1, k in
// [0, size of the last dim], values and i32 indices of the kept shape.

func.func @no_inputs() {
  // expected-error @+1 {{'stablehlo.sort' op expects at least one input}}
  "stablehlo.sort"() ({
  ^bb0():
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : () -> ()
  func.return
}

// -----

func.func @shapes_differ(%x: tensor<4xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'stablehlo.sort' op expects all inputs to have the same shape, got tensor<4xf32> and tensor<3xi32>}}
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xf32>, tensor<3xi32>) -> (tensor<4xf32>, tensor<3xi32>)
  func.return
}

// -----

func.func @result_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf64>
  func.return
}

// -----

func.func @dimension_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op dimension -3 is out of range for inputs of rank 2}}
  %0 = "stablehlo.sort"(%x) <{dimension = -3 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-note @-5 {{the dimension is in [-rank, rank)}}
  func.return
}

// -----

func.func @comparator_arguments(%x: tensor<4xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{'stablehlo.sort' op the comparator must take (tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>) but takes (tensor<f32>, tensor<f32>)}}
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return
}

// -----

func.func @comparator_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op the comparator must end in stablehlo.return of one tensor<i1>}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @top_k_too_many(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op k (4) must be in [0, 3], the size of the last dim}}
  %v, %i = chlo.top_k(%x, k = 4) : tensor<2x3xf32> -> (tensor<2x4xf32>, tensor<2x4xi32>)
  func.return
}

// -----

func.func @top_k_of_a_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'chlo.top_k' op operand's rank must be at least 1}}
  %v, %i = chlo.top_k(%x, k = 0) : tensor<f32> -> (tensor<f32>, tensor<i32>)
  func.return
}

// -----

func.func @top_k_index_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op indices must be tensor<2x2xi32>, got tensor<2x2xi64>}}
  %v, %i = chlo.top_k(%x, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi64>)
  func.return
}

// -----

func.func @top_k_values_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op values must be tensor<2x2xf32>, got tensor<2x3xf32>}}
  %v, %i = chlo.top_k(%x, k = 2) : tensor<2x3xf32> -> (tensor<2x3xf32>, tensor<2x2xi32>)
  func.return
}

// -----

// top_k's k must fit the last dim: a ? last dim is refused (jax.lax.top_k
// refuses a symbolic one too); ? dims before it are taken.
func.func @top_k_along_a_dynamic_dim(%x: tensor<2x?xf32>) {
  // expected-error @+1 {{'chlo.top_k' op the last dim must be static: k must fit it}}
  %v, %i = chlo.top_k(%x, k = 2) : tensor<2x?xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  // expected-note @-1 {{jax.lax.top_k refuses a symbolic last dim too}}
  func.return
}
