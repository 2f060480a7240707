// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier rules for map, in its order and words: at least one
// input, inputs and result of one shape, as many body arguments as inputs,
// each a rank-0 tensor of its input's element type, one rank-0 result,
// dimensions = [0, 1, ..., rank-1] (StableHLO maps over every dimension),
// the result of the inputs' shape and the body's result element type.

func.func @no_inputs() -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.map' op expects at least one input}}
  %0 = "stablehlo.map"() ({
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {dimensions = array<i64>} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @shapes_differ(%x: tensor<4x5xf32>, %y: tensor<5x4xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op requires the same shape for all operands and results}}
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x5xf32>, tensor<5x4xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @result_shape(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'stablehlo.map' op requires the same shape for all operands and results}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

func.func @dynamic_against_static(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.map' op requires the same shape for all operands and results}}
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @arity(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.map' op expects number of operands to match the arity of map computation, but got: 2 and 1}}
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>):
    %1 = stablehlo.add %a, %a : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @argument_rank(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op computation arguments must be 0-rank tensor, but got: arg #1 of type 'tensor<5xf32>'}}
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<5xf32>):
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @argument_element(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op element type of operands and computation arguments must match, but got: 'f32' and 'i32'}}
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @no_output(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op computation must return single output, but got: 0}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    "stablehlo.return"() : () -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @output_rank(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op computation must return 0-rank tensor, but got: 'tensor<5xf32>'}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.constant dense<2.0> : tensor<5xf32>
    stablehlo.return %c : tensor<5xf32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @dimensions_not_in_order(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op requires monotonically increasing dimension numbers, but got: 1, 0}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @dimensions_beyond_rank(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op applied to a subset of dimensions currently not supported: operand dimensions = 2, requested map dimensions size = 3}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0, 1, 2>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @a_subset_of_dimensions(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'stablehlo.map' op applied to a subset of dimensions currently not supported: operand dimensions = 2, requested map dimensions size = 1}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %0 : tensor<4x5xf32>
}

// -----

func.func @result_element(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.map' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi32>'}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @missing_dimensions(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.map' op property 'dimensions' expected}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
