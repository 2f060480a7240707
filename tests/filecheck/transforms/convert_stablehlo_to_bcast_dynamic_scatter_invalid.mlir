// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// The ? dims scatter does not take yet, and the static rules it keeps
// (docs/ir.md, "scatter"), reported at the op.

// A ? index vector dim: the number of start components is unknown.
func.func @unknown_index_vector(%x: tensor<6x4xf32>, %i: tensor<3x?xi32>, %v: tensor<3x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op scatter takes ? dims in its inputs' window and inserted dims, its scatter_indices' batch dims and its updates, not yet in the index vector dim or batching dims}}
  %r = "stablehlo.scatter"(%x, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x4xf32>, tensor<3x?xi32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}

// -----

// A static window larger than a static input dim is refused at compile time
// even when other dims are ?.
func.func @window_too_large(%x: tensor<?x4xf32>, %i: tensor<?x1xi32>, %v: tensor<?x5xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op expects updates dimension 1 (window of input dimension 1) to be <= 4, got 5}}
  %r = "stablehlo.scatter"(%x, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x5xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// A static empty dim for JAX's argmax reduce stays refused (bcast.argmax of
// nothing is a verifier error; a ? dim is checked at run time instead).
func.func @argmax_empty(%x: tensor<3x0xf32>) -> tensor<3xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %2 = stablehlo.iota dim = 1 : tensor<3x0xi32>
  // expected-note @+2 {{the dim must be non-empty and its indices fit the type (a ? dim is checked at run time: docs/ir.md, argmax)}}
  // expected-error @+1 {{'stablehlo.reduce' op bcast.argmax of dim 1 of size 0 with index type i32 is not supported}}
  %3:2 = stablehlo.reduce(%x init: %cst), (%2 init: %c) across dimensions = [1] : (tensor<3x0xf32>, tensor<3x0xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %4 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.or %4, %5 : tensor<i1>
    %7 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = stablehlo.and %7, %8 : tensor<i1>
    %10 = stablehlo.or %6, %9 : tensor<i1>
    %11 = stablehlo.select %6, %a, %b : tensor<i1>, tensor<f32>
    %12 = stablehlo.select %10, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
  }
  return %3#1 : tensor<3xi32>
}
