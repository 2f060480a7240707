// integer max minus min over rows
// produced by jax.jit(f).lower(*args).as_text(), jax 0.10.2
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6xi32>) -> (tensor<5xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<-2147483648> : tensor<i32>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<5x6xi32>, tensor<i32>) -> tensor<5xi32>
    %c_0 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1 = stablehlo.reduce(%arg0 init: %c_0) applies stablehlo.minimum across dimensions = [1] : (tensor<5x6xi32>, tensor<i32>) -> tensor<5xi32>
    %2 = stablehlo.subtract %0, %1 : tensor<5xi32>
    return %2 : tensor<5xi32>
  }
}
