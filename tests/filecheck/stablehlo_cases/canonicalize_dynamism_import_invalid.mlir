// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// The forms of dynamic_pad, real_dynamic_slice, dynamic_reshape and
// dynamic_iota that convert-stablehlo-to-bcast does not take, reported at
// the op when the program is to run (strict), and their verifier rules.

func.func @pad_of_argument_low(%x: tensor<4xf32>, %v: tensor<f32>, %p: tensor<1xi64>) -> tensor<11xf32> {
  %hi = stablehlo.constant dense<1> : tensor<1xi64>
  %in = stablehlo.constant dense<2> : tensor<1xi64>
  // expected-note @+2 {{constant paddings make it a pad}}
  // expected-error @+1 {{'stablehlo.dynamic_pad' op with run-time paddings is not supported by convert-stablehlo-to-bcast}}
  %0 = stablehlo.dynamic_pad %x, %v, %p, %hi, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>
  func.return %0 : tensor<11xf32>
}

// -----

func.func @pad_declared_less_static(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %z = stablehlo.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.dynamic_pad' op declares tensor<?xf32>, but its sizes make tensor<4xf32>}}
  %0 = stablehlo.dynamic_pad %x, %v, %z, %z, %z : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @pad_negative_interior(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<1xf32> {
  %z = stablehlo.constant dense<0> : tensor<1xi64>
  %n = stablehlo.constant dense<-1> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.dynamic_pad' op interior padding [-1] has a negative entry}}
  %0 = stablehlo.dynamic_pad %x, %v, %z, %z, %n : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

func.func @pad_paddings_of_wrong_length(%x: tensor<4xf32>, %v: tensor<f32>, %p: tensor<2xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_pad' op edge_padding_low has 2 entries for an operand of rank 1}}
  %0 = stablehlo.dynamic_pad %x, %v, %p, %p, %p : (tensor<4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @pad_value_of_other_type(%x: tensor<4xf32>, %v: tensor<i32>, %p: tensor<1xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_pad' op failed to verify that all of {operand, padding_value, result} have same element type}}
  %0 = stablehlo.dynamic_pad %x, %v, %p, %p, %p : (tensor<4xf32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A run-time limit makes the slice a gather; its constant parts are checked
// at compile time: the range along the other dim, the stride.
func.func @slice_constant_range_out_of_bounds(%x: tensor<4x3xf32>, %a: tensor<1xi64>) -> tensor<?x2xf32> {
  %s = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
  %l1 = stablehlo.constant dense<4> : tensor<1xi64>
  %l = stablehlo.concatenate %a, %l1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %k = stablehlo.constant dense<1> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.real_dynamic_slice' op range [2, 4) of dimension 1 is out of bounds for its size 3}}
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x2xf32>
  func.return %0 : tensor<?x2xf32>
}

// -----

func.func @slice_constant_stride_zero(%x: tensor<4x3xf32>, %a: tensor<1xi64>) -> tensor<?x2xf32> {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xi64>
  %l1 = stablehlo.constant dense<2> : tensor<1xi64>
  %l = stablehlo.concatenate %a, %l1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %k = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.real_dynamic_slice' op stride 0 of dimension 1 is not positive}}
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x2xf32>
  func.return %0 : tensor<?x2xf32>
}

// -----

func.func @slice_constant_count_disagrees(%x: tensor<4x4xf32>, %a: tensor<1xi64>) -> tensor<?x2xf32> {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xi64>
  %l1 = stablehlo.constant dense<3> : tensor<1xi64>
  %l = stablehlo.concatenate %a, %l1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %k = stablehlo.constant dense<1> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.real_dynamic_slice' op declares tensor<?x2xf32>, but its range makes 3 elements along dimension 1}}
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<4x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x2xf32>
  func.return %0 : tensor<?x2xf32>
}

// -----

func.func @slice_whole_dim_disagrees(%x: tensor<4x3xf32>, %a: tensor<1xi64>) -> tensor<?x2xf32> {
  %s = stablehlo.constant dense<[0, 0]> : tensor<2xi64>
  %l1 = stablehlo.constant dense<3> : tensor<1xi64>
  %l = stablehlo.concatenate %a, %l1, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %k = stablehlo.constant dense<1> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.real_dynamic_slice' op declares tensor<?x2xf32>, but its sizes make tensor<?x3xf32>}}
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x2xf32>
  func.return %0 : tensor<?x2xf32>
}

// -----

func.func @slice_ranges_of_float_type(%x: tensor<4xf32>, %a: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{'stablehlo.real_dynamic_slice' op start_indices must be a 1-D integer tensor, got tensor<1xf32>}}
  %0 = stablehlo.real_dynamic_slice %x, %a, %a, %a : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

// A constant size that contradicts the result type.
func.func @reshape_constant_sizes_disagree(%x: tensor<4xf32>) -> tensor<1x4xf32> {
  %s = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op output size 0 is 2, but the result type has 1 there}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}
