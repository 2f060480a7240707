// Mirrors the JAX export tests/data/jax_exports/bool_ops.mlir (jax 0.10.2):
//   p & ~q | (a < 2) ; p i1[2,1], q i1[3], a i32[2,3]
// (stablehlo.compare LT, ..., SIGNED: the compare type is implied by the element type here.)
module attributes {bcast.semantics = "xla"} {
  func.func public @main(%arg0: tensor<2x1xi1>, %arg1: tensor<3xi1>, %arg2: tensor<2x3xi32>) -> tensor<2x3xi1> {
    %0 = bcast.not %arg1 : tensor<3xi1>
    %1 = bcast.broadcast_in_dim %0, dims = [1] : (tensor<3xi1>) -> tensor<1x3xi1>
    %2 = bcast.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x3xi1>
    %3 = bcast.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x3xi1>) -> tensor<2x3xi1>
    %4 = bcast.and %2, %3 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %c = bcast.constant dense<2> : tensor<i32>
    %5 = bcast.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %6 = bcast.compare LT, %arg2, %5 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %7 = bcast.or %4, %6 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    func.return %7 : tensor<2x3xi1>
  }
}
