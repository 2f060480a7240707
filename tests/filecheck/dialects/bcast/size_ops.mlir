// RUN: bcast-opt %s | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s

// The ops of the StableHLO import of dynamic programs (docs/ir.md, "The
// explicit dynamic form"): sizes as rank-0 tensors and back, JAX's shape
// assertion, and StableHLO's dynamic_reshape, dynamic_iota and
// set_dimension_size with index sizes.

// CHECK-LABEL: func.func @size_ops
// CHECK-NEXT:    %n = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %t = bcast.size_to_tensor %n : tensor<i32>
// CHECK-NEXT:    %k = bcast.size_from_tensor %t : tensor<i32>
// CHECK-NEXT:    %ok = bcast.constant dense<true> : tensor<i1>
// CHECK-NEXT:    bcast.shape_assertion %ok, %t, %t message = "b = {0}, {1}" : tensor<i1>, tensor<i32>, tensor<i32>
// CHECK-NEXT:    bcast.shape_assertion %ok message = "always" : tensor<i1>
// CHECK-NEXT:    %r = bcast.dynamic_reshape %x, [%k, 2, 2] : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
// CHECK-NEXT:    %i = bcast.dynamic_iota [%k, 4], dim = 1 : tensor<?x4xi32>
// CHECK-NEXT:    %s = bcast.set_dimension_size %y, %k, dim = 0 : (tensor<16xf32>) -> tensor<?xf32, #stablehlo.bounds<16>>
func.func @size_ops(%x: tensor<?x4xf32>, %y: tensor<16xf32>) -> tensor<?xf32, #stablehlo.bounds<16>> {
  %n = bcast.dim %x, 0 : tensor<?x4xf32>
  %t = bcast.size_to_tensor %n : tensor<i32>
  %k = bcast.size_from_tensor %t : tensor<i32>
  %ok = bcast.constant dense<true> : tensor<i1>
  bcast.shape_assertion %ok, %t, %t message = "b = {0}, {1}" : tensor<i1>, tensor<i32>, tensor<i32>
  bcast.shape_assertion %ok message = "always" : tensor<i1>
  %r = bcast.dynamic_reshape %x, [%k, 2, 2] : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %i = bcast.dynamic_iota [%k, 4], dim = 1 : tensor<?x4xi32>
  %s = bcast.set_dimension_size %y, %k, dim = 0 : (tensor<16xf32>) -> tensor<?xf32, #stablehlo.bounds<16>>
  func.return %s : tensor<?xf32, #stablehlo.bounds<16>>
}
