// Mirrors the JAX export tests/data/jax_exports/int_ops.mlir (jax 0.10.2):
//   (a+b)*3 - (a&b) ; a i32[3,1], b i32[4]
// JAX duplicates the identical broadcasts of a and b for the second use (%6..%8).
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<3x1xi32>, %arg1: tensor<4xi32>) -> tensor<3x4xi32> {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<4xi32>) -> tensor<1x4xi32>
    %1 = bcast.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x4xi32>
    %2 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x4xi32>) -> tensor<3x4xi32>
    %3 = bcast.add %1, %2 : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
    %c = bcast.constant dense<3> : tensor<i32>
    %4 = bcast.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
    %5 = bcast.multiply %3, %4 : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
    %6 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<4xi32>) -> tensor<1x4xi32>
    %7 = bcast.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x4xi32>
    %8 = bcast.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x4xi32>) -> tensor<3x4xi32>
    %9 = bcast.and %7, %8 : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
    %10 = bcast.subtract %5, %9 : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
    func.return %10 : tensor<3x4xi32>
  }
}
