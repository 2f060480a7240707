// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The CHLO float functions' verifiers: float tensors, the result of the
// operands' type (next_after: no broadcasting).

func.func @sinh_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.sinh' op operand #0 must be a tensor of floating-point values, got element type i32}}
  %0 = chlo.sinh %x : tensor<4xi32> -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @lgamma_result(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'chlo.lgamma' op requires the same type for all operands and results, got tensor<4xf32>, tensor<4xf64>}}
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

func.func @next_after_of_integers(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.next_after' op operand #0 must be a tensor of floating-point values, got element type i32}}
  %0 = chlo.next_after %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @next_after_shapes(%x: tensor<4xf32>, %y: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.next_after' op requires the same type for all operands and results, got tensor<4xf32>, tensor<1xf32>, tensor<4xf32>}}
  %0 = "chlo.next_after"(%x, %y) : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
