// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p 'convert-stablehlo-to-bcast{strict=true}'

// What the import cannot take is a located error at the op when the import
// is strict, as when the program is to run (bcast-run, bcast.compile, -t c);
// without strict, it is kept (open_world.mlir).

func.func @reduce_body(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+2 {{'stablehlo.reduce' op reduce with a stablehlo.subtract is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the body must apply one of stablehlo.add, multiply, maximum, minimum, and, or, xor to its two arguments}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.subtract across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @variadic(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+2 {{'stablehlo.reduce' op reduce of 2 inputs with a body that is not JAX's argmax or argmin is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{a reduce of two inputs is imported when it is JAX's argmax or argmin form}}
  %0:2 = stablehlo.reduce(%x init: %c), (%y init: %c) across dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%a2: tensor<f32>, %b2: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.add %a2, %b2 : tensor<f32>
    stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @three_inputs(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+2 {{'stablehlo.reduce' op reduce of 3 inputs (variadic) is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{only reduce with one input, and JAX's argmax/argmin, are imported}}
  %0:3 = stablehlo.reduce(%x init: %c), (%x init: %c), (%x init: %c) across dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%a2: tensor<f32>, %b2: tensor<f32>) (%a3: tensor<f32>, %b3: tensor<f32>) {
    stablehlo.return %a, %a2, %a3 : tensor<f32>, tensor<f32>, tensor<f32>
  }
  return %0#0 : tensor<4xf32>
}

// -----

// JAX's argmax, but its value result is used too: kept (bcast.argmax has
// the index only).
func.func @argmax_value_used(%x: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %i = stablehlo.iota dim = 1 : tensor<4x3xi32>
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  // expected-error @+2 {{'stablehlo.reduce' op reduce of 2 inputs is not supported by convert-stablehlo-to-bcast unless it is JAX's argmax}}
  // expected-note @+1 {{and its value result unused}}
  %0:2 = stablehlo.reduce(%x init: %c), (%i init: %z) across dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.or %1, %2 : tensor<i1>
    %4 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %4, %5 : tensor<i1>
    %7 = stablehlo.or %3, %6 : tensor<i1>
    %8 = stablehlo.select %3, %a, %b : tensor<i1>, tensor<f32>
    %9 = stablehlo.select %7, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %8, %9 : tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// A reduce_window of two inputs whose body mixes them with an op other than
// elementwise ones (a reshape): no bcast.reduce_window_body can hold it.
func.func @window_of_two(%x: tensor<?x3xf32>, %y: tensor<?x3xi32>) -> tensor<?x2xi32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %ci = stablehlo.constant dense<0> : tensor<i32>
  // expected-error @+2 {{'stablehlo.reduce_window' op reduce_window of 2 inputs whose body does not combine each input on its own is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{such a body is imported (as bcast.reduce_window_body) when it is made of elementwise ops, rank-0 constants and rank-0 broadcast_in_dim, and reads no other value of the function}}
  %0:2 = "stablehlo.reduce_window"(%x, %y, %c, %ci) <{window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = stablehlo.compare GT, %b, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %s = stablehlo.select %gt, %b, %a : tensor<i1>, tensor<f32>
    %r = stablehlo.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
    %si = stablehlo.reshape %r : (tensor<i32>) -> tensor<i32>
    stablehlo.return %s, %si : tensor<f32>, tensor<i32>
  }) : (tensor<?x3xf32>, tensor<?x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<?x2xf32>, tensor<?x2xi32>)
  return %0#1 : tensor<?x2xi32>
}



// -----

// A window body that is no reduction kind's binary op.
func.func @window_difference(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+2 {{'stablehlo.reduce_window' op reduce_window with a stablehlo.subtract is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the body must apply one of stablehlo.add, multiply, maximum, minimum, and, or, xor to its two arguments}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @f8() -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.constant' op cannot be imported: unsupported element type f8E5M2}}
  // expected-note @+1 {{bcast supports i1, i4, i8..i64, ui4, ui8..ui64, f16, f32, f64, bf16, complex<f32> and complex<f64>}}
  %c = stablehlo.constant dense<1.0> : tensor<4xf8E5M2>
  %0 = stablehlo.convert %c : (tensor<4xf8E5M2>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// In its custom form, read through jaxlib's MLIR (the `jax` extra), located here.
func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'chlo.bessel_i1e' op is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{supported ops: chlo.acos, chlo.acosh}}
  %0 = chlo.bessel_i1e %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
