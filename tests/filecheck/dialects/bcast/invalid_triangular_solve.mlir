// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.triangular_solve: StableHLO's rules, in its order and words (a of
// rank >= 2, square, of b's rank, its order b's rows (left_side) or columns,
// batch dims equal, no broadcasting); the result is b's type; one real float
// element type; nested (tml) types and ? dims are refused.

func.func @rank_less_than_2(%a: tensor<4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op operand 'a' must have rank >= 2, but got 'tensor<4xf32>'}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @not_square(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op two minor dimensions of operand 'a' must be compatible, but got 'tensor<4x3xf32>'}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @unequal_rank(%a: tensor<10x4x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op operands must have equal rank, but got 'tensor<10x4x4xf32>' and 'tensor<4x3xf32>'}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<10x4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

func.func @shared_dim(%a: tensor<4x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op shared dimension of operands 'a' and 'b' must be compatible, but got 'tensor<4x4xf32>' and 'tensor<3x4xf32>'}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  // expected-note @-1 {{with left_side = true, a's order is b's dimension 0}}
  func.return
}

// -----

func.func @batch_dims(%a: tensor<10x5x4x4xf32>, %b: tensor<10x1x4x3xf32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op batch dimensions of the operands must be compatible, but got 'tensor<10x5x4x4xf32>' and 'tensor<10x1x4x3xf32>'}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<10x5x4x4xf32>, tensor<10x1x4x3xf32>) -> tensor<10x1x4x3xf32>
  // expected-note @-1 {{triangular_solve does not broadcast its batch dimensions}}
  func.return
}

// -----

func.func @result_type(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = true, transpose_a = NO_TRANSPOSE : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @integers(%a: tensor<2x2xi32>, %b: tensor<2x1xi32>) {
  // expected-error @+1 {{'bcast.triangular_solve' op operands must be floating-point or complex, got element type i32}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x1xi32>
  func.return
}

// -----

func.func @element_types(%a: tensor<2x2xf32>, %b: tensor<2x1xf64>) {
  // expected-error @+1 {{'bcast.triangular_solve' op operands have element types f32 and f64}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<2x2xf32>, tensor<2x1xf64>) -> tensor<2x1xf64>
  // expected-note @-1 {{triangular_solve takes a and b of one element type}}
  func.return
}

// -----

func.func @transpose_spelling(%a: tensor<2x2xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{Expected `NO_TRANSPOSE`, `TRANSPOSE`, or `ADJOINT`}}
  %0 = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = CONJUGATE : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  func.return
}
