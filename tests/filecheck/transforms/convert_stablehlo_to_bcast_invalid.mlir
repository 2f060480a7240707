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
  // expected-error @+2 {{'stablehlo.reduce' op reduce of 2 inputs (variadic) is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{only reduce with one input is imported}}
  %0:2 = stablehlo.reduce(%x init: %c), (%y init: %c) across dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%a2: tensor<f32>, %b2: tensor<f32>) {
    %s = stablehlo.add %a, %b : tensor<f32>
    %t = stablehlo.add %a2, %b2 : tensor<f32>
    stablehlo.return %s, %t : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @bf16() -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.constant' op cannot be imported: unsupported element type bf16}}
  // expected-note @+1 {{bcast supports i1, i8..i64, ui8..ui64, f16, f32 and f64}}
  %c = stablehlo.constant dense<1.0> : tensor<4xbf16>
  %0 = stablehlo.convert %c : (tensor<4xbf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'stablehlo.count_leading_zeros' op is not supported by convert-stablehlo-to-bcast; bcast keeps it as it is in generic form only: "stablehlo.count_leading_zeros"(...) : (...) -> (...)}}
  // expected-note @+1 {{supported ops: chlo.broadcast_add}}
  %0 = stablehlo.count_leading_zeros %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}
