// bessel_i1e(tanh(x @ w + b)) + x[:, :1] (an op bcast does not know after a dot_general)
// produced by jax.jit(f).lower(*args) (as_text(), or get_asm(print_generic_op_form=True) for .generic), jax 0.10.2
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<3x5xf32>, %arg2: tensor<5xf32>) -> (tensor<4x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x5xf32>
    %4 = stablehlo.tanh %3 : tensor<4x5xf32>
    %5 = chlo.bessel_i1e %4 : tensor<4x5xf32> -> tensor<4x5xf32>
    %6 = stablehlo.slice %arg0 [0:4, 0:1] : (tensor<4x3xf32>) -> tensor<4x1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %8 = stablehlo.add %5, %7 : tensor<4x5xf32>
    return %8 : tensor<4x5xf32>
  }
}
