// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.dot_general: StableHLO's rules (paired dim lists of equal length,
// dims unique and in range, paired sizes equal, the result the batch dims
// then lhs's free dims then rhs's), one integer or float element type.
// bcast.matmul: rank >= 1, contracting sizes equal, batch dims broadcast
// (equal under xla), promotion (identical types under xla), no nesting.

func.func @batching_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op lhs and rhs should have the same number of batching dimensions}}
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // expected-note @-1 {{lhs has 1 dimension, rhs has 0 dimensions}}
  func.return
}

// -----

func.func @contracting_count(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op lhs and rhs should have the same number of contracting dimensions}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0, 1] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3xf32>
  // expected-note @-1 {{lhs has 1 dimension, rhs has 2 dimensions}}
  func.return
}

// -----

func.func @out_of_range(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op rhs_contracting_dimensions value: 2 is out of range: [0, 2)}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [2] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // expected-note @-1 {{rhs has 2 dimensions (shape 4x5)}}
  func.return
}

// -----

func.func @negative(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op lhs_contracting_dimensions value: -1 is out of range: [0, 2)}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [-1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // expected-note @-1 {{lhs has 2 dimensions (shape 3x4)}}
  func.return
}

// -----

func.func @duplicated(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op has duplicated dimension from lhs_batching_dimensions and lhs_contracting_dimensions: 0}}
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [0] x [1] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  // expected-note @-1 {{a dimension is a batch dimension, a contracting dimension or neither, once}}
  func.return
}

// -----

func.func @batch_sizes(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op batching dimension sizes must match for lhs/rhs}}
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  // expected-note @-1 {{lhs dimension 0 has size 2, rhs dimension 0 has size 3}}
  func.return
}

// -----

func.func @contracting_sizes(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op contracting dimension sizes must match for lhs/rhs}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  // expected-note @-1 {{lhs dimension 1 has size 4, rhs dimension 0 has size 5}}
  func.return
}

// -----

func.func @result_order(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'bcast.dot_general' op inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<5x3xf32>
  func.return
}

// -----

func.func @mixed_elements(%a: tensor<3x4xf32>, %b: tensor<4x5xf16>) {
  // expected-error @+1 {{'bcast.dot_general' op operands have element types f32 and f16}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf16>) -> tensor<3x5xf32>
  // expected-note @-1 {{dot_general multiplies operands of one element type; insert a bcast.convert (or use bcast.matmul, which promotes)}}
  func.return
}

// -----

func.func @boolean(%a: tensor<3x4xi1>, %b: tensor<4x5xi1>) {
  // expected-error @+1 {{'bcast.dot_general' op operands must be numeric (integer, floating-point or complex), got element type i1}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xi1>, tensor<4x5xi1>) -> tensor<3x5xi1>
  func.return
}

// -----

func.func @dims_syntax(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{Expected 'x'}}
  %0 = bcast.dot_general %a, %b, contracting_dims = [1], [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  func.return
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'bcast.matmul' op matmul operands must have at least one dimension}}
  %0 = bcast.matmul %a, %b : (tensor<f32>, tensor<4x5xf32>) -> tensor<5xf32>
  // expected-note @-1 {{lhs is a scalar, rhs is shape 4x5; use bcast.multiply for scalars}}
  func.return
}

// -----

func.func @matmul_contracting(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error @+1 {{'bcast.matmul' op matmul contracting dimension sizes differ: lhs has 4, rhs has 5}}
  %0 = bcast.matmul %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  // expected-note @-1 {{the last dim of lhs multiplies the second-to-last of rhs (the only dim of a 1-D operand)}}
  func.return
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+1 {{'bcast.matmul' op matmul batch dimensions are not broadcast-compatible: 2 and 5}}
  %0 = bcast.matmul %a, %b : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  // expected-note @-1 {{dimension -1 of the batch dims (those before the last two): 2 vs 5 (neither is 1)}}
  func.return
}

// -----

func.func @matmul_result(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+1 {{'bcast.matmul' op inferred type(s) 'tensor<2x5x3x6xf32>' are incompatible with return type(s) of operation 'tensor<2x3x6xf32>'}}
  %0 = bcast.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  func.return
}

// -----

func.func @matmul_xla_batch(%a: tensor<1x3x4xf32>, %b: tensor<5x4x6xf32>) attributes {bcast.semantics = "xla"} {
  // expected-error @+1 {{'bcast.matmul' op matmul batch dimensions differ under xla semantics: lhs 1, rhs 5}}
  %0 = bcast.matmul %a, %b : (tensor<1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<5x3x6xf32>
  // expected-note @-1 {{xla requires equal batch dims (StableHLO's dot_general); broadcast them with bcast.broadcast_in_dim, or use numpy semantics}}
  func.return
}

// -----

func.func @matmul_xla_elements(%a: tensor<3x4xf32>, %b: tensor<4x6xf16>) attributes {bcast.semantics = "xla"} {
  // expected-error @+1 {{'bcast.matmul' op operands have different element types under xla semantics: tensor<3x4xf32>, tensor<4x6xf16>}}
  %0 = bcast.matmul %a, %b : (tensor<3x4xf32>, tensor<4x6xf16>) -> tensor<3x6xf32>
  // expected-note @-1 {{xla requires identical element types; insert a bcast.convert}}
  func.return
}

// -----

func.func @matmul_mixed_kinds(%a: tensor<3x4xf32>, %b: tensor<4x6xi32>) {
  // expected-error @+1 {{'bcast.matmul' op element types f32 and i32 are of different kinds (float and signed) and do not promote}}
  %0 = bcast.matmul %a, %b : (tensor<3x4xf32>, tensor<4x6xi32>) -> tensor<3x6xf32>
  // expected-note @-1 {{insert an explicit bcast.convert to choose the common type}}
  func.return
}

// -----

func.func @matmul_nested(%a: tensor<2xtensor<3x4xf32>>, %b: tensor<4x6xf32>) attributes {bcast.semantics = "tml"} {
  // expected-error @+1 {{'bcast.matmul' op matmul does not support nested tensor types}}
  %0 = bcast.matmul %a, %b : (tensor<2xtensor<3x4xf32>>, tensor<4x6xf32>) -> tensor<2x3x6xf32>
  func.return
}
