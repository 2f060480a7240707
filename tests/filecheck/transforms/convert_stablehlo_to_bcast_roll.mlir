// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-debuginfo | filecheck %s --check-prefix=LOC

// JAX's jnp.roll(x, 1, axis=0) along a ? dim: two real_dynamic_slices whose
// ranges are computed from the size at run time (the tail from the shift,
// then the head up to it), concatenated. Each becomes a gather of the rows
// start + dynamic_iota(limit - start), after a located check that
// 0 <= start <= limit <= n; the other dim is taken whole.

// CHECK-LABEL: func.func @main
// CHECK:         %s = bcast.select
// CHECK:         %[[N:.*]] = bcast.size_to_tensor %{{.*}} : tensor<i32>
// CHECK-NEXT:    %[[ZERO:.*]] = bcast.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[GE:.*]] = bcast.compare LE, %[[ZERO]], %s
// CHECK-NEXT:    %[[ORDER:.*]] = bcast.compare LE, %s, %[[LIMIT:[^ ]*]]
// CHECK-NEXT:    %[[IN:.*]] = bcast.compare LE, %[[LIMIT]], %[[N]]
// CHECK-NEXT:    %[[A:.*]] = bcast.and %[[GE]], %[[ORDER]]
// CHECK-NEXT:    %[[OK:.*]] = bcast.and %[[A]], %[[IN]]
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %s, %[[LIMIT]], %[[N]] message = "real_dynamic_slice range [{0}, {1}) of dimension 0 is out of bounds for its size {2}"
// CHECK-NEXT:    %[[COUNT:.*]] = bcast.subtract %[[LIMIT]], %s
// CHECK-NEXT:    %[[K:.*]] = bcast.size_from_tensor %[[COUNT]] : tensor<i32>
// CHECK-NEXT:    %[[IOTA:.*]] = bcast.dynamic_iota [%[[K]]], dim = 0 : tensor<?xi32>
// CHECK-NEXT:    %[[ROWS:.*]] = bcast.add %[[IOTA]], %s : (tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
// CHECK-NEXT:    %[[TAIL:.*]] = bcast.gather %x[%[[ROWS]]], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 4] : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
// CHECK:         bcast.shape_assertion
// CHECK:         %[[HEAD:.*]] = bcast.gather %x[
// CHECK-NEXT:    %r = bcast.concatenate %[[TAIL]], %[[HEAD]], dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// LOC-LABEL: func.func @main
// LOC:         bcast.shape_assertion {{.*}} loc("{{.*}}convert_stablehlo_to_bcast_roll.mlir":[[# @LINE + 16]]:11)
// LOC:         bcast.gather {{.*}} loc("{{.*}}convert_stablehlo_to_bcast_roll.mlir":[[# @LINE + 15]]:11)
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %zeros = stablehlo.constant dense<0> : tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %last = stablehlo.subtract %n, %one : tensor<i32>
  %some = stablehlo.compare GT, %n, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %s = stablehlo.select %some, %last, %zero : tensor<i1>, tensor<i32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %tail_start = stablehlo.concatenate %s1, %zeros, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %tail_limit = stablehlo.concatenate %n1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %tail = stablehlo.real_dynamic_slice %x, %tail_start, %tail_limit, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %head_start = stablehlo.concatenate %zeros, %zeros, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %head_limit = stablehlo.concatenate %s1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %head = stablehlo.real_dynamic_slice %x, %head_start, %head_limit, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %r = stablehlo.concatenate %tail, %head, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
