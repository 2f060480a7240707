// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast{strict=true} --verify-diagnostics

// A select_and_scatter whose select region is not one compare of its
// arguments is refused by the import, located and saying what it takes.

func.func @select_not_a_compare(%x: tensor<4xf32>, %g: tensor<2xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op select_and_scatter with these regions is not supported by convert-stablehlo-to-bcast}}
  %r = "stablehlo.select_and_scatter"(%x, %g, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %n = stablehlo.negate %a : tensor<f32>
      %0 = stablehlo.compare GE, %n, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  // expected-note @-10 {{a select region that is one stablehlo.compare of its arguments (GE: a max pool's gradient) and a scatter region that is one stablehlo.add, multiply, maximum or minimum of its arguments}}
  return %r : tensor<4xf32>
}
