// Mirrors the JAX export tests/data/jax_exports/chain5.mlir (jax 0.10.2):
//   5-op chain: ((x+row)*col - s) max m / (x+1.0)
//   x f32[4,5], row f32[5], col f32[4,1], s f32[], m f32[1,5]
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<4x5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<4x1xf32>, %arg3: tensor<f32>, %arg4: tensor<1x5xf32>) -> tensor<4x5xf32> {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
    %2 = bcast.add %arg0, %1 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %3 = bcast.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %4 = bcast.multiply %2, %3 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %5 = bcast.broadcast_in_dim %arg3, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %6 = bcast.subtract %4, %5 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %7 = bcast.broadcast_in_dim %arg4, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
    %8 = bcast.maximum %6, %7 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %cst = bcast.constant dense<1.000000e+00> : tensor<f32>
    %9 = bcast.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %10 = bcast.add %arg0, %9 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %11 = bcast.divide %8, %10 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    func.return %11 : tensor<4x5xf32>
  }
}
