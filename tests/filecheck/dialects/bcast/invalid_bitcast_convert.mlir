// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.bitcast_convert keeps the bit width and the shape.

func.func @other_width(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'bcast.bitcast_convert' op bitcast_convert needs element types of one bit width (not i1, not complex), got f32 and i64}}
  %0 = bcast.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi64>
  func.return %0 : tensor<4xi64>
}

// -----

func.func @boolean(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'bcast.bitcast_convert' op bitcast_convert needs element types of one bit width (not i1, not complex), got i1 and i1}}
  %0 = bcast.bitcast_convert %x : (tensor<4xi1>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @other_shape(%x: tensor<4xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'bcast.bitcast_convert' op}}
  %0 = bcast.bitcast_convert %x : (tensor<4xf32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
