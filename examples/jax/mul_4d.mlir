// Mirrors the JAX export tests/data/jax_exports/mul_4d.mlir (jax 0.10.2):
//   a * b ; a f32[8,1,6,1], b f32[7,1,5] -> f32[8,7,6,5] (NumPy docs example)
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<8x1x6x1xf32>, %arg1: tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32> {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<7x1x5xf32>) -> tensor<1x7x1x5xf32>
    %1 = bcast.broadcast_in_dim %arg0, dims = [0, 1, 2, 3] : (tensor<8x1x6x1xf32>) -> tensor<8x7x6x5xf32>
    %2 = bcast.broadcast_in_dim %0, dims = [0, 1, 2, 3] : (tensor<1x7x1x5xf32>) -> tensor<8x7x6x5xf32>
    %3 = bcast.multiply %1, %2 : (tensor<8x7x6x5xf32>, tensor<8x7x6x5xf32>) -> tensor<8x7x6x5xf32>
    func.return %3 : tensor<8x7x6x5xf32>
  }
}
