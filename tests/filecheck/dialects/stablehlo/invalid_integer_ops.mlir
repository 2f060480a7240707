// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The integer ops: chlo.mulhi (integer operands, no i1, one type for the
// operands and the result: no broadcasting) and count_leading_zeros.

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

// -----

// count_leading_zeros: integers only, in StableHLO and in bcast.

func.func @clz_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.count_leading_zeros' op operand #0 must be a tensor of signed integer or unsigned integer values, got element type f32}}
  %0 = stablehlo.count_leading_zeros %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bcast_clz_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'bcast.count_leading_zeros' op operands must be integer, got element type i1}}
  %0 = bcast.count_leading_zeros %x : tensor<4xi1>
  func.return
}
