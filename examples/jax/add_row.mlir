// Mirrors the JAX export tests/data/jax_exports/add_row.mlir (jax 0.10.2):
//   x + v ; x f32[2,3], v f32[3] (rank-expanding broadcast)
// The rank is added in two steps, as JAX does: dims = [1] to 1x3, then dims = [0, 1] to 2x3.
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %2 = bcast.add %arg0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    func.return %2 : tensor<2x3xf32>
  }
}
