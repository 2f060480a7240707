// columns divided by their L2 norm
// produced by lowered.compiler_ir('stablehlo').operation.get_asm(print_generic_op_form=True), jax 0.10.2
"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<16x4xf32>) -> tensor<16x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x4xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %7 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %4 = "stablehlo.sqrt"(%3) : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<16x4xf32>
    %6 = "stablehlo.divide"(%arg0, %5) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    "func.return"(%6) : (tensor<16x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
