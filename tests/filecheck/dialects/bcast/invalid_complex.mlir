// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// Complex values (docs/semantics.md, "Complex numbers") have no order,
// promote only with floats, and take only the ops defined on them.

func.func @ordered_compare(%a: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+2 {{'bcast.compare' op compare LT needs ordered operands, got element type complex<f32>}}
  // expected-note @+1 {{complex values compare EQ and NE only; compare their real or imag parts}}
  %0 = bcast.compare LT, %a, %a : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @with_integer(%a: tensor<4xcomplex<f32>>, %i: tensor<4xi32>) -> tensor<4xcomplex<f32>> {
  // expected-error @+2 {{'bcast.add' op element types complex<f32> and i32 are of different kinds (complex and signed) and do not promote}}
  // expected-note @+1 {{insert an explicit bcast.convert to choose the common type}}
  %0 = bcast.add %a, %i : (tensor<4xcomplex<f32>>, tensor<4xi32>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

module attributes {bcast.semantics = "xla"} {
  func.func @xla_mix(%a: tensor<4xcomplex<f32>>, %f: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
    // expected-error @+2 {{'bcast.add' op operands have different element types under xla semantics: tensor<4xcomplex<f32>>, tensor<4xf32>}}
    // expected-note @+1 {{xla requires identical element types; insert a bcast.convert}}
    %0 = bcast.add %a, %f : (tensor<4xcomplex<f32>>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
    func.return %0 : tensor<4xcomplex<f32>>
  }
}

// -----

func.func @no_remainder(%a: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{'bcast.remainder' op operands must be numeric (integer or floating-point), got element type complex<f64>}}
  %0 = bcast.remainder %a, %a : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  func.return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @no_floor(%a: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{'bcast.floor' op operands must be floating-point, got element type complex<f64>}}
  %0 = bcast.floor %a : tensor<4xcomplex<f64>>
  func.return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @abs_is_real(%a: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{'bcast.abs' op inferred type(s) 'tensor<4xf64>' are incompatible with return type(s) of operation 'tensor<4xcomplex<f64>>'}}
  %0 = bcast.abs %a : tensor<4xcomplex<f64>>
  func.return %0 : tensor<4xcomplex<f64>>
}

// -----

func.func @complex_of_halves(%h: tensor<4xf16>) -> tensor<4xcomplex<f32>> {
  // expected-error @+2 {{'bcast.complex' op complex needs f32 or f64 operands, got element type f16}}
  // expected-note @+1 {{convert the parts to f32 or f64 first}}
  %0 = bcast.complex %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @reduce_maximum(%a: tensor<4x2xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+2 {{'bcast.reduce' op reduce maximum needs numeric (integer or floating-point) elements, got element type complex<f32>}}
  // expected-note @+1 {{reduce maximum has no identity on complex values (their lexicographic order has no least element); reduce their real or imag parts}}
  %0 = bcast.reduce maximum %a, dims = [1] : (tensor<4x2xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @bitcast(%a: tensor<4xcomplex<f32>>) -> tensor<4xi64> {
  // expected-error @+1 {{'bcast.bitcast_convert' op bitcast_convert needs element types of one bit width (not i1, not complex), got complex<f32> and i64}}
  %0 = bcast.bitcast_convert %a : (tensor<4xcomplex<f32>>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

func.func @total_order(%a: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+2 {{'bcast.compare' op compare TOTALORDER needs float operands, got lhs element type complex<f32>}}
  // expected-note @+1 {{TOTALORDER orders floats by their bits; integers and booleans have one order}}
  %0 = bcast.compare EQ, %a, %a, TOTALORDER : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @complex_of_integers(%a: tensor<4xcomplex<i32>>) -> tensor<4xcomplex<i32>> {
  // expected-error @+2 {{'bcast.negate' op operand: unsupported element type complex<i32>}}
  // expected-note @+1 {{bcast supports i1, i4, i8..i64, ui4, ui8..ui64, f16, f32, f64, bf16, complex<f32> and complex<f64>}}
  %0 = bcast.negate %a : tensor<4xcomplex<i32>>
  func.return %0 : tensor<4xcomplex<i32>>
}
