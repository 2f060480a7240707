// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// A precision config in the generic form may hold anything; an entry that is
// not a precision is refused at the op (it crashed the printer before).

func.func @dot_string_precision(%a: tensor<3x3xi32>, %b: tensor<3x3xi32>) -> tensor<3x3xi32> {
  // expected-error@+1 {{'stablehlo.dot' op 'precision_config' must hold #stablehlo<precision ...> values, got ["BAR", #stablehlo<precision DEFAULT>]}}
  %0 = "stablehlo.dot"(%a, %b) {precision_config = ["BAR", #stablehlo<precision DEFAULT>]} : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi32>
  func.return %0 : tensor<3x3xi32>
}

// -----

func.func @dot_general_integer_precision(%a: tensor<4x2xf32>, %b: tensor<2x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{'precision_config' must hold #stablehlo<precision ...> values, got [1 : i64, 2 : i64]}}
  %0 = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [1, 2]} : (tensor<4x2xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
