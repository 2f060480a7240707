// RUN: bcast-opt %s | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The explicit dynamic form (docs/ir.md, "The explicit dynamic form"): sizes
// read by bcast.dim, combined by bcast.broadcast_size, checked by
// bcast.check_broadcastable, and bcast.dynamic_broadcast_in_dim with its facts.

// CHECK-LABEL: func.func @explicit
// CHECK-NEXT:    %n = bcast.dim %x, 0 : tensor<?x1xf32>
// CHECK-NEXT:    %k = bcast.dim %t, 1 : tensor<2xtensor<?xf32>>
// CHECK-NEXT:    %m = bcast.dim %y, 0 : tensor<?xf32, #stablehlo.bounds<8>>
// CHECK-NEXT:    bcast.check_broadcastable [%n, 1] at [0, 1], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    bcast.check_broadcastable [%n, 1] at [0, 1], [%n, 4] at [0, 1] checking [1] strict message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %s = bcast.broadcast_size %n, %m
// CHECK-NEXT:    %b = bcast.dynamic_broadcast_in_dim %x, [%s, 4], dims = [0, 1] expanding = [1] : (tensor<?x1xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %c = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %d = bcast.dynamic_broadcast_in_dim %y, [3, %m], dims = [1] : (tensor<?xf32, #stablehlo.bounds<8>>) -> tensor<3x?xf32>
// GENERIC: "bcast.dim"(%x) <{dimension = 0 : i64}> : (tensor<?x1xf32>) -> index
// GENERIC: "bcast.check_broadcastable"(%n, %m) <{static_shapes = array<i64: -9223372036854775808, 1, -9223372036854775808>, ranks = array<i64: 2, 1>, landing = array<i64: 0, 1, 0>, checked = array<i64: 0>, message = "operands could not be broadcast together with shapes"}> : (index, index) -> ()
// GENERIC: "bcast.broadcast_size"(%n, %m) : (index, index) -> index
// GENERIC: "bcast.dynamic_broadcast_in_dim"(%x, %s) <{static_output_sizes = array<i64: -9223372036854775808, 4>, broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 1>}> : (tensor<?x1xf32>, index) -> tensor<?x4xf32>
func.func @explicit(%x: tensor<?x1xf32>, %y: tensor<?xf32, #stablehlo.bounds<8>>, %t: tensor<2xtensor<?xf32>>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<3x?xf32>) {
  %n = bcast.dim %x, 0 : tensor<?x1xf32>
  %k = bcast.dim %t, 1 : tensor<2xtensor<?xf32>>
  %m = bcast.dim %y, 0 : tensor<?xf32, #stablehlo.bounds<8>>
  bcast.check_broadcastable [%n, 1] at [0, 1], [%m] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  bcast.check_broadcastable [%n, 1] at [0, 1], [%n, 4] at [0, 1] checking [1] strict message = "operands could not be broadcast together with shapes"
  %s = bcast.broadcast_size %n, %m
  %b = bcast.dynamic_broadcast_in_dim %x, [%s, 4], dims = [0, 1] expanding = [1] : (tensor<?x1xf32>) -> tensor<?x4xf32>
  %c = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf32>) -> tensor<?x4xf32>
  %d = bcast.dynamic_broadcast_in_dim %y, [3, %m], dims = [1] : (tensor<?xf32, #stablehlo.bounds<8>>) -> tensor<3x?xf32>
  func.return %b, %c, %d : tensor<?x4xf32>, tensor<?x4xf32>, tensor<3x?xf32>
}
