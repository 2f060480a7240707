// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.lu and bcast.cholesky: a of rank >= 2 (cholesky: square, StableHLO's
// cholesky words), f32 or f64 (LAPACK's s and d routines), not nested, static;
// the result types are inferred (pivots and info i32).

func.func @lu_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.lu' op operand 'a' must have rank >= 2, but got 'tensor<4xf32>'}}
  %0, %1, %2 = bcast.lu %a : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<i32>)
  func.return
}

// -----

func.func @lu_f16(%a: tensor<2x2xf16>) {
  // expected-error @+1 {{'bcast.lu' op operand must be f32 or f64, got element type f16}}
  %0, %1, %2 = bcast.lu %a : (tensor<2x2xf16>) -> (tensor<2x2xf16>, tensor<2xi32>, tensor<i32>)
  // expected-note @-1 {{lu is LAPACK's, which computes in f32 and f64 only: convert the operand first}}
  func.return
}

// -----

func.func @lu_integer(%a: tensor<2x2xi32>) {
  // expected-error @+1 {{'bcast.lu' op operand must be f32 or f64, got element type i32}}
  %0, %1, %2 = bcast.lu %a : (tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2xi32>, tensor<i32>)
  // expected-note @-1 {{lu is LAPACK's, which computes in f32 and f64 only: convert the operand first}}
  func.return
}

// -----

func.func @lu_pivots(%a: tensor<5x3xf32>) {
  // expected-error @+1 {{'bcast.lu' op inferred type(s) 'tensor<5x3xf32>, tensor<3xi32>, tensor<i32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>, tensor<5xi32>, tensor<i32>'}}
  %0, %1, %2 = bcast.lu %a : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<5xi32>, tensor<i32>)
  func.return
}

// -----

func.func @lu_info_type(%a: tensor<2x3x3xf64>) {
  // expected-error @+1 {{'bcast.lu' op inferred type(s) 'tensor<2x3x3xf64>, tensor<2x3xi32>, tensor<2xi32>' are incompatible with return type(s) of operation 'tensor<2x3x3xf64>, tensor<2x3xi32>, tensor<2xi64>'}}
  %0, %1, %2 = bcast.lu %a : (tensor<2x3x3xf64>) -> (tensor<2x3x3xf64>, tensor<2x3xi32>, tensor<2xi64>)
  func.return
}

// -----

func.func @lu_nested(%a: tensor<2xtensor<3x3xf32>>) {
  // expected-error @+1 {{'bcast.lu' op lu does not support nested tensor types}}
  %0, %1, %2 = bcast.lu %a : (tensor<2xtensor<3x3xf32>>) -> (tensor<2xtensor<3x3xf32>>, tensor<2x3xi32>, tensor<2xi32>)
  func.return
}

// -----

func.func @lu_dynamic(%a: tensor<?x3xf32>) {
  // expected-error @+1 {{'bcast.lu' op dynamic dimensions are not supported by bcast.lu yet}}
  %0, %1, %2 = bcast.lu %a : (tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<3xi32>, tensor<i32>)
  // expected-note @-1 {{docs/semantics.md, "Dynamic and bounded shapes", lists the ops that take them}}
  func.return
}

// -----

func.func @cholesky_rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.cholesky' op argument 'a' must have rank >= 2, got shape 'tensor<3xf32>'}}
  %0, %1 = bcast.cholesky %a, lower = true : (tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>)
  func.return
}

// -----

func.func @cholesky_square(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'bcast.cholesky' op minor dimensions of 'a' must have equal size, got shape 'tensor<2x3x4xf32>'}}
  %0, %1 = bcast.cholesky %a, lower = true : (tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2xi32>)
  func.return
}

// -----

func.func @cholesky_bf16(%a: tensor<2x2xbf16>) {
  // expected-error @+1 {{'bcast.cholesky' op operand must be f32 or f64, got element type bf16}}
  %0, %1 = bcast.cholesky %a, lower = false : (tensor<2x2xbf16>) -> (tensor<2x2xbf16>, tensor<i32>)
  // expected-note @-1 {{cholesky is LAPACK's, which computes in f32 and f64 only: convert the operand first}}
  func.return
}

// -----

func.func @cholesky_results(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'bcast.cholesky' op inferred type(s) 'tensor<3x3xf32>, tensor<i32>' are incompatible with return type(s) of operation 'tensor<3x3xf64>, tensor<i32>'}}
  %0, %1 = bcast.cholesky %a, lower = true : (tensor<3x3xf32>) -> (tensor<3x3xf64>, tensor<i32>)
  func.return
}

// -----

func.func @cholesky_result_count(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{expected one operand type and two result types}}
  %0 = bcast.cholesky %a, lower = true : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return
}
