// Mirrors the JAX export tests/data/jax_exports/cmp_gt.mlir (jax 0.10.2):
//   a > b ; a f32[4,1], b f32[3] -> i1[4,3]
// (stablehlo.compare GT, ..., FLOAT: the compare type is implied by the element type here.)
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<4x1xf32>, %arg1: tensor<3xf32>) -> tensor<4x3xi1> {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %1 = bcast.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
    %2 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
    %3 = bcast.compare GT, %1, %2 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    func.return %3 : tensor<4x3xi1>
  }
}
