// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// CHLO's erf/erfc verifiers: a float tensor, the result of the operand's type.

func.func @integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.erf' op operand #0 must be a tensor of floating-point values, got element type i32}}
  %0 = chlo.erf %x : tensor<4xi32> -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @other_result(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'chlo.erfc' op requires the same type for all operands and results, got tensor<4xf32>, tensor<4xf64>}}
  %0 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}
