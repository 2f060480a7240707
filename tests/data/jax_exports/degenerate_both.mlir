// a - b ; a f32[1,3], b f32[2,1] -> f32[2,3] (both operands size-1 expanded)
// produced by jax.jit(f).lower(*args).as_text(), jax 0.10.2
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x3xf32>, %arg1: tensor<2x1xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %2 = stablehlo.subtract %0, %1 : tensor<2x3xf32>
    return %2 : tensor<2x3xf32>
  }
}
