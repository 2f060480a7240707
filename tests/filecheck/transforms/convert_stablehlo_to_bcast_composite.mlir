// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast{strict=true} | filecheck %s

// stablehlo.composite (jax.lax.composite; JAX's top_k) means its
// decomposition: it is inlined like a func.call, and the private
// decomposition function is removed. (JAX's pretty composite syntax is read
// through MLIR's own parser, which does not keep SSA names.)
// CHECK-LABEL: func.func public @composite(%{{.*}}: tensor<3xf32>) -> tensor<3xf32> {
//  CHECK-NEXT:   %[[T:.*]] = bcast.tanh %[[X:.*]] : tensor<3xf32>
//  CHECK-NEXT:   %[[S:.*]] = bcast.add %[[T]], %[[T]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
//  CHECK-NEXT:   func.return %[[S]] : tensor<3xf32>
//  CHECK-NEXT: }
//   CHECK-NOT: func.func private
func.func public @composite(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.composite "my.double_tanh" %x {decomposition = @my.double_tanh} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func private @my.double_tanh(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.tanh %x : tensor<3xf32>
  %1 = stablehlo.add %0, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
