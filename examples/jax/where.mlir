// Mirrors the JAX export tests/data/jax_exports/where.mlir (jax 0.10.2):
//   jnp.where(c, x, y) ; c i1[4,1], x f32[4,3], y f32[3]
// JAX routes jnp.where through a private function called with func.call.
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<4x1xi1>, %arg1: tensor<4x3xf32>, %arg2: tensor<3xf32>) -> tensor<4x3xf32> {
    %0 = func.call @_where(%arg0, %arg1, %arg2) : (tensor<4x1xi1>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    func.return %0 : tensor<4x3xf32>
  }
  func.func private @_where(%arg0: tensor<4x1xi1>, %arg1: tensor<4x3xf32>, %arg2: tensor<3xf32>) -> tensor<4x3xf32> {
    %0 = bcast.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
    %1 = bcast.broadcast_in_dim %arg2, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
    %2 = bcast.select %0, %arg1, %1 : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    func.return %2 : tensor<4x3xf32>
  }
}
