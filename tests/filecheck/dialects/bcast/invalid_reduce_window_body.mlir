// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.reduce_window_body: init values rank-0 of their input's element
// type, the inputs of one shape, the body taking (accumulators, elements)
// as rank-0 tensors and yielding the accumulators, holding only
// elementwise ops, converts, constants and broadcasts, reading no value
// from outside; the window rules are bcast.reduce_window's (a ? dim a
// window spans is refused).

func.func @init_type(%x: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce_window_body' op init value #1 must be a rank-0 tensor of input #1's element type i32, got tensor<f32>}}
  %r:2 = bcast.reduce_window_body (%x, %i) init (%c, %c), window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    bcast.yield %a, %ai : tensor<f32>, tensor<i32>
  }
  func.return
}

// -----

func.func @body_arguments(%x: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'bcast.reduce_window_body' op the body must take (tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>)}}
  %r:2 = bcast.reduce_window_body (%x, %i) init (%c, %z), window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    bcast.yield %a, %b : tensor<f32>, tensor<f32>
  }
  func.return
}

// -----

func.func @body_op(%x: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'bcast.reduce_window_body' op the body holds 'bcast.reduce'}}
  %r:2 = bcast.reduce_window_body (%x, %i) init (%c, %z), window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %s = bcast.reduce add %a, dims = [] : (tensor<f32>) -> tensor<f32>
    bcast.yield %s, %ai : tensor<f32>, tensor<i32>
  }
  // expected-note @-5 {{the body holds elementwise ops, converts, constants and broadcasts, all on rank-0 tensors}}
  func.return
}

// -----

func.func @captured(%x: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'bcast.reduce_window_body' op the body's 'bcast.add' reads a value defined outside the body}}
  %r:2 = bcast.reduce_window_body (%x, %i) init (%c, %z), window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %s = bcast.add %a, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
    bcast.yield %s, %ai : tensor<f32>, tensor<i32>
  }
  // expected-note @-5 {{the body reads only its arguments and its own values}}
  func.return
}

// -----

// A window over a ? dim bounded by 4 places at most 3 windows of 2.
func.func @window_over_bounded_declared_larger(%x: tensor<?xf32, #stablehlo.bounds<4>>, %i: tensor<?xi32, #stablehlo.bounds<4>>, %c: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'bcast.reduce_window_body' op inferred type(s) 'tensor<?xf32, #stablehlo.bounds<3>>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %r:2 = bcast.reduce_window_body (%x, %i) init (%c, %z), window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xi32, #stablehlo.bounds<4>>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    bcast.yield %a, %ai : tensor<f32>, tensor<i32>
  }
  func.return
}

// -----

func.func @yields_outside(%x: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'bcast.reduce_window_body' op the body's 'bcast.yield' reads a value defined outside the body}}
  %r:2 = bcast.reduce_window_body (%x, %i) init (%c, %z), window = [2], strides = [1], base_dilations = [1], window_dilations = [1], low = [0], high = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    bcast.yield %c, %ai : tensor<f32>, tensor<i32>
  }
  // expected-note @-4 {{the body reads only its arguments and its own values}}
  func.return
}
