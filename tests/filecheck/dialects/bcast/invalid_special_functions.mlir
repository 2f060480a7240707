// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The CHLO float functions take floats only; next_after's operands broadcast.

func.func @sinh_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'bcast.sinh' op operands must be floating-point, got element type i32}}
  %0 = bcast.sinh %x : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @lgamma_of_booleans(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'bcast.lgamma' op operands must be floating-point, got element type i1}}
  %0 = bcast.lgamma %x : tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @digamma_of_unsigned(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error @+1 {{'bcast.digamma' op operands must be floating-point, got element type ui8}}
  %0 = bcast.digamma %x : tensor<4xui8>
  func.return %0 : tensor<4xui8>
}

// -----

func.func @next_after_of_integers(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'bcast.next_after' op operands must be floating-point, got element type i64}}
  %0 = bcast.next_after %x, %y : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

func.func @next_after_shapes(%x: tensor<4xf32>, %y: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+3 {{'bcast.next_after' op operands are not broadcast-compatible: tensor<4xf32> and tensor<3xf32>}}
  // expected-note @+2 {{aligned from the right:}}
  // expected-note @+1 {{dimension -1: 4 vs 3 (neither is 1)}}
  %0 = bcast.next_after %x, %y : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
