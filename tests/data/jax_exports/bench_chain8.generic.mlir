// ~8-op chain the benchmark long chain at 64x64
// produced by lowered.compiler_ir('stablehlo').operation.get_asm(print_generic_op_form=True), jax 0.10.2
"builtin.module"() <{sym_name = "jit__chain8"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}], function_type = (tensor<64x64xf32>, tensor<64xf32>, tensor<64x1xf32>, tensor<f32>) -> tensor<64x64xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<64x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x1xf32>, %arg3: tensor<f32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<64x64xf32>
    %2 = "stablehlo.add"(%arg0, %1) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %3 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<64x1xf32>) -> tensor<64x64xf32>
    %4 = "stablehlo.multiply"(%2, %3) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %5 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %6 = "stablehlo.multiply"(%5, %arg0) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %7 = "stablehlo.subtract"(%4, %6) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %8 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<64x64xf32>
    %10 = "stablehlo.maximum"(%7, %9) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %11 = "stablehlo.multiply"(%10, %10) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %12 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<64x1xf32>) -> tensor<64x64xf32>
    %13 = "stablehlo.add"(%11, %12) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %14 = "stablehlo.abs"(%arg0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<64x64xf32>
    %17 = "stablehlo.add"(%16, %14) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %18 = "stablehlo.divide"(%13, %17) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "func.return"(%18) : (tensor<64x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
