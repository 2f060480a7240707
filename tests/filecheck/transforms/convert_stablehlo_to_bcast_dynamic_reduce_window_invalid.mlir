// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p 'convert-stablehlo-to-bcast{strict=true}'

// A dynamic_reduce_window that is not a cumulative form is refused at the
// op: a sliding window (padding not window - 1), a stride, a window along
// two dims, a body that is not one binary op, two inputs.

func.func @sliding(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.constant dense<1> : tensor<1xi32>
  %p = stablehlo.constant dense<[[1, 0]]> : tensor<1x2xi32>
  // expected-error @+2 {{'stablehlo.custom_call' op is not supported by convert-stablehlo-to-bcast unless the padding along dim 0 is its window - 1 on one side and 0 on the other}}
  // expected-note @+1 {{one input from the kind's identity, a called function of one add, multiply, maximum or minimum, a window of a whole dim padded by its size - 1 on one side, unit strides and dilations}}
  %r = "stablehlo.custom_call"(%x, %init, %w, %s, %s, %s, %p) <{call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@add]}> : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @strided(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %n1 = stablehlo.add %n, %m1 : tensor<i32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %w = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.constant dense<1> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %lo = stablehlo.reshape %n1 : (tensor<i32>) -> tensor<1xi32>
  %z = stablehlo.constant dense<0> : tensor<1xi32>
  %pp = stablehlo.concatenate %lo, %z, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %p = stablehlo.reshape %pp : (tensor<2xi32>) -> tensor<1x2xi32>
  // expected-error @+2 {{'stablehlo.custom_call' op is not supported by convert-stablehlo-to-bcast unless it is a cumulative form (jnp.cumsum, cumprod, cummax, cummin)}}
  // expected-note @+1 {{one input from the kind's identity, a called function of one add, multiply, maximum or minimum, a window of a whole dim padded by its size - 1 on one side, unit strides and dilations}}
  %r = "stablehlo.custom_call"(%x, %init, %w, %two, %s, %s, %p) <{call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@add]}> : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @two_dims(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %nr = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %w = stablehlo.concatenate %nr, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s = stablehlo.constant dense<1> : tensor<2xi32>
  %p = stablehlo.constant dense<0> : tensor<2x2xi32>
  // expected-error @+2 {{'stablehlo.custom_call' op is not supported by convert-stablehlo-to-bcast unless its window is 1 and unpadded but along one dim}}
  // expected-note @+1 {{one input from the kind's identity, a called function of one add, multiply, maximum or minimum, a window of a whole dim padded by its size - 1 on one side, unit strides and dilations}}
  %r = "stablehlo.custom_call"(%x, %init, %w, %s, %s, %s, %p) <{call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@add]}> : (tensor<?x2xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
func.func @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @logaddexp(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %w = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.constant dense<1> : tensor<1xi32>
  %p = stablehlo.constant dense<0> : tensor<1x2xi32>
  // expected-error @+2 {{'stablehlo.custom_call' op is not supported by convert-stablehlo-to-bcast unless it is a cumulative form (jnp.cumsum, cumprod, cummax, cummin)}}
  // expected-note @+1 {{one input from the kind's identity, a called function of one add, multiply, maximum or minimum, a window of a whole dim padded by its size - 1 on one side, unit strides and dilations}}
  %r = "stablehlo.custom_call"(%x, %init, %w, %s, %s, %s, %p) <{call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@logaddexp_body]}> : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @logaddexp_body(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.exponential %a : tensor<f32>
  %1 = stablehlo.exponential %b : tensor<f32>
  %2 = stablehlo.add %0, %1 : tensor<f32>
  %3 = stablehlo.log %2 : tensor<f32>
  return %3 : tensor<f32>
}

// -----

func.func @two_inputs(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.constant dense<1> : tensor<1xi32>
  %p = stablehlo.constant dense<0> : tensor<1x2xi32>
  // expected-error @+1 {{'stablehlo.custom_call' op with more than one input is not supported by convert-stablehlo-to-bcast}}
  %r:2 = "stablehlo.custom_call"(%x, %y, %init, %init, %s, %s, %s, %s, %p) <{call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@add]}> : (tensor<?xf32>, tensor<?xf32>, tensor<f32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xf32>
}
func.func @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}
