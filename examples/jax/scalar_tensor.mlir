// Mirrors the JAX export tests/data/jax_exports/scalar_tensor.mlir (jax 0.10.2):
//   s + x*2.0 ; s f32[] (rank-0 tensor), 2.0 python constant
// Scalars are a rank-0 constant (or argument) broadcast with dims = [].
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<f32>, %arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %cst = bcast.constant dense<2.000000e+00> : tensor<f32>
    %0 = bcast.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %1 = bcast.multiply %arg1, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = bcast.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %3 = bcast.add %2, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    func.return %3 : tensor<2x3xf32>
  }
}
