// bessel_i1e(tanh(x @ w + b)) + x[:, :1] (an op bcast does not know after a dot_general)
// produced by jax.jit(f).lower(*args) (as_text(), or get_asm(print_generic_op_form=True) for .generic), jax 0.10.2
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<4x3xf32>, tensor<3x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x3xf32>, %arg1: tensor<3x5xf32>, %arg2: tensor<5xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<5xf32>) -> tensor<1x5xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x5xf32>) -> tensor<4x5xf32>
    %3 = "stablehlo.add"(%0, %2) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %4 = "stablehlo.tanh"(%3) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %5 = "chlo.bessel_i1e"(%4) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %6 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x3xf32>) -> tensor<4x1xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %8 = "stablehlo.add"(%5, %7) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    "func.return"(%8) : (tensor<4x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
