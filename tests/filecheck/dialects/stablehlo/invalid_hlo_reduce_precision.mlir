// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// reduce_precision's constraints (the StableHLO spec's C1-C3, in its
// verifier's words): at least one exponent bit, no negative mantissa bits,
// the result of the operand's type; a float operand; a format keyword.

func.func @no_exponent(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %0 = "stablehlo.reduce_precision"(%x) {exponent_bits = 0 : i32, mantissa_bits = 3 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @negative_mantissa(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op attribute 'mantissa_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = "stablehlo.reduce_precision"(%x) {exponent_bits = 1 : i32, mantissa_bits = -1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @other_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op all of {operand, output} must have the same type}}
  %0 = stablehlo.reduce_precision %x, format = e5m10 : (tensor<4xf32>) -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// -----

func.func @integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op operand #0 must be a tensor of floating-point values, got element type i32}}
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @bad_format(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a format e<exponent bits>m<mantissa bits>, such as e5m10}}
  %0 = stablehlo.reduce_precision %x, format = fp16 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
