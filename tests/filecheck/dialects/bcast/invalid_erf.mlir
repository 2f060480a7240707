// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.erf and bcast.erfc take floats only.

func.func @integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'bcast.erf' op operands must be floating-point, got element type i32}}
  %0 = bcast.erf %x : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @boolean(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'bcast.erfc' op operands must be floating-point, got element type i1}}
  %0 = bcast.erfc %x : tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @erf_inv_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'bcast.erf_inv' op operands must be floating-point, got element type i32}}
  %0 = bcast.erf_inv %x : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
