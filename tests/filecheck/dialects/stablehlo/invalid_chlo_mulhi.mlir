// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// chlo.mulhi's verifier: integer operands (no i1), one type for the
// operands and the result (no broadcasting); bcast.mulhi's: integers.

func.func @mulhi_boolean(%arg0: tensor<4xi1>, %arg1: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.mulhi' op operand #0 must be a tensor of signed integer or unsigned integer values, got element type i1}}
  %0 = "chlo.mulhi"(%arg0, %arg1) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @mulhi_shapes(%arg0: tensor<4xi32>, %arg1: tensor<1xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.mulhi' op requires the same type for all operands and results, got tensor<4xi32>, tensor<1xi32>, tensor<4xi32>}}
  %0 = "chlo.mulhi"(%arg0, %arg1) : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @bcast_mulhi_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.mulhi' op operands must be integer, got element type f32}}
  %0 = bcast.mulhi %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}
