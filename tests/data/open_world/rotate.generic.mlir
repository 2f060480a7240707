// real(x * exp(i theta)) with theta broadcast over rows (complex values inside)
// produced by jax.jit(f).lower(*args) (as_text(), or get_asm(print_generic_op_form=True) for .generic), jax 0.10.2
"builtin.module"() <{sym_name = "jit_rotate"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
    %1 = "stablehlo.convert"(%arg1) : (tensor<3xf32>) -> tensor<3xcomplex<f32>>
    %2 = "stablehlo.constant"() <{value = dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>}> : () -> tensor<complex<f32>>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<complex<f32>>) -> tensor<3xcomplex<f32>>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
    %5 = "stablehlo.exponential"(%4) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xcomplex<f32>>) -> tensor<1x3xcomplex<f32>>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
    %8 = "stablehlo.multiply"(%0, %7) : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
    %9 = "stablehlo.real"(%8) : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    %10 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<1x3xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %12 = "stablehlo.add"(%9, %11) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%12) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
