// jnp.where(x > 0, x, y*2.0) ; comparison against python scalar + select
// produced by jax.jit(f).lower(*args).as_text(), jax 0.10.2
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>) -> (tensor<4x3xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %3 = stablehlo.multiply %arg1, %2 : tensor<3xf32>
    %4 = call @_where(%1, %arg0, %3) : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    return %4 : tensor<4x3xf32>
  }
  func.func private @_where(%arg0: tensor<4x3xi1>, %arg1: tensor<4x3xf32>, %arg2: tensor<3xf32>) -> tensor<4x3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<4x3xi1>, tensor<4x3xf32>
    return %1 : tensor<4x3xf32>
  }
}
