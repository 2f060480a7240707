// ~8-op chain the benchmark long chain at 64x64
// produced by jax.jit(f).lower(*args).as_text(), jax 0.10.2
module @jit__chain8 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x1xf32>, %arg3: tensor<f32>) -> (tensor<64x64xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<64x64xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<64x64xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x64xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<64x64xf32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<64x64xf32>
    %7 = stablehlo.subtract %4, %6 : tensor<64x64xf32>
    %8 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<64x64xf32>
    %10 = stablehlo.maximum %7, %9 : tensor<64x64xf32>
    %11 = stablehlo.multiply %10, %10 : tensor<64x64xf32>
    %12 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<64x1xf32>) -> tensor<64x64xf32>
    %13 = stablehlo.add %11, %12 : tensor<64x64xf32>
    %14 = stablehlo.abs %arg0 : tensor<64x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %16 = stablehlo.add %15, %14 : tensor<64x64xf32>
    %17 = stablehlo.divide %13, %16 : tensor<64x64xf32>
    return %17 : tensor<64x64xf32>
  }
}
