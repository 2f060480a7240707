// Mirrors the JAX export tests/data/jax_exports/mixed_dtype.mlir (jax 0.10.2):
//   x * i ; f32[2,3] * i32[3] -> convert + broadcast
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xi32>) -> tensor<2x3xf32> {
    %0 = bcast.convert %arg1 : (tensor<3xi32>) -> tensor<3xf32>
    %1 = bcast.broadcast_in_dim %0, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %2 = bcast.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %3 = bcast.multiply %arg0, %2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    func.return %3 : tensor<2x3xf32>
  }
}
