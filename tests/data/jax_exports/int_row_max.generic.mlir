// integer max minus min over rows
// produced by lowered.compiler_ir('stablehlo').operation.get_asm(print_generic_op_form=True), jax 0.10.2
"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<5x6xi32>) -> tensor<5xi32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<5x6xi32>):
    %0 = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %6 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%6) : (tensor<i32>) -> ()
    }) : (tensor<5x6xi32>, tensor<i32>) -> tensor<5xi32>
    %2 = "stablehlo.constant"() <{value = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.reduce"(%arg0, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %5 = "stablehlo.minimum"(%arg1, %arg2) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%5) : (tensor<i32>) -> ()
    }) : (tensor<5x6xi32>, tensor<i32>) -> tensor<5xi32>
    %4 = "stablehlo.subtract"(%1, %3) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    "func.return"(%4) : (tensor<5xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
