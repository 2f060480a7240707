// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier errors for dot_general and dot (C1-C12 of the spec).

func.func @batching_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs and rhs should have the same number of batching dimensions}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // expected-note @-1 {{lhs has 1 dimension, rhs has 0 dimensions}}
  return
}

// -----

func.func @out_of_range(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs_batching_dimensions value: 3 is out of range: [0, 3)}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [3], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // expected-note @-1 {{lhs has 3 dimensions (shape 2x3x4)}}
  return
}

// -----

func.func @duplicated(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op has duplicated dimension from rhs_batching_dimensions and rhs_contracting_dimensions: 1}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [1], contracting_dims = [1] x [1] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  // expected-note @-1 {{a dimension is a batch dimension, a contracting dimension or neither, once}}
  return
}

// -----

func.func @contracting_sizes(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op contracting dimension sizes must match for lhs/rhs}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  // expected-note @-1 {{lhs dimension 1 has size 4, rhs dimension 0 has size 5}}
  return
}

// -----

func.func @result_shape(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op inferred shape '3x5' is incompatible with return type of operation tensor<3x6xf32>}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @precision_count(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op expects precision config to be empty or have <= 2 elements, got 3}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT, HIGH] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @precision_word(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{expected one of DEFAULT, HIGH, HIGHEST}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [FAST] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @dot_field(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{unknown dot dimension field 'lhs_contract'}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contract = [1]>}> : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @boolean(%a: tensor<3x4xi1>, %b: tensor<4x5xi1>) {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs must be a tensor of integer, floating-point or complex values, got tensor<3x4xi1>}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xi1>, tensor<4x5xi1>) -> tensor<3x5xi1>
  return
}

// -----

func.func @dot_rank(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.dot' op expected lhs of rank 1 or 2, got tensor<2x3x4xf32>}}
  %0 = stablehlo.dot %a, %b : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dot_sizes(%a: tensor<3x4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'stablehlo.dot' op contracting dimension sizes must match for lhs/rhs}}
  %0 = stablehlo.dot %a, %b : (tensor<3x4xf32>, tensor<5xf32>) -> tensor<3xf32>
  // expected-note @-1 {{lhs dimension 1 has size 4, rhs dimension 0 has size 5}}
  return
}

// -----

func.func @algorithm_missing_field(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) {
  // expected-error @+1 {{dot algorithm is missing num_primitive_operations, allow_imprecise_accumulation}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @algorithm_unknown_field(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) {
  // expected-error @+1 {{unknown or repeated dot algorithm field 'lhs_precision'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision = f32> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}
