// three times x = x * 2 + v (v broadcast over rows), in a stablehlo.while
// produced by jax.jit(f).lower(*args) (as_text(), or get_asm(print_generic_op_form=True) for .generic), jax 0.10.2
"builtin.module"() <{sym_name = "jit_loop"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<2x3xf32>, %arg3: tensor<3xf32>):
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7:3 = "stablehlo.while"(%arg3, %6, %arg2) ({
    ^bb0(%arg7: tensor<3xf32>, %arg8: tensor<i32>, %arg9: tensor<2x3xf32>):
      %11 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %12 = "stablehlo.compare"(%arg8, %11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%12) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg4: tensor<3xf32>, %arg5: tensor<i32>, %arg6: tensor<2x3xf32>):
      %8 = "func.call"(%arg4, %arg6) <{callee = @closed_call}> : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      %9 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %10 = "stablehlo.add"(%arg5, %9) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg4, %10, %8) : (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>) -> ()
    }) : (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>)
    "func.return"(%7#2) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>, res_attrs = [{}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3xf32>, %arg1: tensor<2x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %2 = "stablehlo.multiply"(%arg1, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<1x3xf32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.add"(%2, %4) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%5) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
