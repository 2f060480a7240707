// Mirrors the JAX export tests/data/jax_exports/bench_fused.mlir (jax 0.10.2):
//   (x + row[None,:]) * col[:,None] - 0.5*x at 64x64 (the benchmark expression)
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<64x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>) -> tensor<64x64xf32> {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<64x64xf32>
    %2 = bcast.add %arg0, %1 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %3 = bcast.broadcast_in_dim %arg2, dims = [0] : (tensor<64xf32>) -> tensor<64x1xf32>
    %4 = bcast.broadcast_in_dim %3, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x64xf32>
    %5 = bcast.multiply %2, %4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %cst = bcast.constant dense<5.000000e-01> : tensor<f32>
    %6 = bcast.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %7 = bcast.multiply %6, %arg0 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %8 = bcast.subtract %5, %7 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %8 : tensor<64x64xf32>
  }
}
