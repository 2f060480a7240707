// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-debuginfo | filecheck %s --check-prefix=LOC

// stablehlo.dynamic_gather (gather with its slice sizes as an operand).
// Constant slice sizes: a gather of those sizes.

// CHECK-LABEL: func.func @constant_sizes
// CHECK-NEXT:    %sizes = bcast.constant dense<[1, 4]> : tensor<2xi64>
// CHECK-NEXT:    %r = bcast.gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1, 4] : (tensor<6x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
func.func @constant_sizes(%x: tensor<6x4xf32>, %i: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %sizes = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<6x4xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

// JAX's jnp.take(x, [2, 0], axis=1) of a ? batch: the slice of dim 0 is the
// whole dim, its size read at run time. The windows are read through an iota
// along the result dim they land on, the starts broadcast over the result;
// the gather takes slices of 1 at those full index vectors.

// CHECK-LABEL: func.func @whole_run_time_dim
// CHECK:         %sizes = bcast.concatenate
// CHECK-NEXT:    %[[B:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = bcast.dynamic_iota [%[[B]], 2, 1], dim = 0 : tensor<?x2x1xi32>
// CHECK-NEXT:    %[[COLS:.*]] = bcast.dynamic_broadcast_in_dim %i, [%[[B]], 2, 1], dims = [1, 2] : (tensor<2x1xi32>) -> tensor<?x2x1xi32>
// CHECK-NEXT:    %[[AT:.*]] = bcast.concatenate %[[ROWS]], %[[COLS]], dim = 2 : (tensor<?x2x1xi32>, tensor<?x2x1xi32>) -> tensor<?x2x2xi32>
// CHECK-NEXT:    %[[R:.*]] = bcast.gather %x[%[[AT]]], <collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, sizes = [1, 1] : (tensor<?x4xf32>, tensor<?x2x2xi32>) -> tensor<?x2xf32>
// CHECK-NEXT:    func.return %[[R]]
// LOC-LABEL: func.func @whole_run_time_dim
// LOC:         bcast.gather {{.*}} loc("{{.*}}convert_stablehlo_to_bcast_dynamic_gather.mlir":[[# @LINE + 6]]:8)
func.func @whole_run_time_dim(%x: tensor<?x4xf32>, %i: tensor<2x1xi32>) -> tensor<?x2xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}
