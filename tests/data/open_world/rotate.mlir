// real(x * exp(i theta)) with theta broadcast over rows (complex values inside)
// produced by jax.jit(f).lower(*args) (as_text(), or get_asm(print_generic_op_form=True) for .generic), jax 0.10.2
module @jit_rotate attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
    %1 = stablehlo.convert %arg1 : (tensor<3xf32>) -> tensor<3xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
    %3 = stablehlo.multiply %2, %1 : tensor<3xcomplex<f32>>
    %4 = stablehlo.exponential %3 : tensor<3xcomplex<f32>>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<3xcomplex<f32>>) -> tensor<1x3xcomplex<f32>>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<1x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
    %7 = stablehlo.multiply %0, %6 : tensor<2x3xcomplex<f32>>
    %8 = stablehlo.real %7 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %11 = stablehlo.add %8, %10 : tensor<2x3xf32>
    return %11 : tensor<2x3xf32>
  }
}
