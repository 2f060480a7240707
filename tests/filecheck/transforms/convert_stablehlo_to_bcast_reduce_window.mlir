// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// A one-input reduce_window whose body is one binary op (recognised as a
// reduce body is) becomes bcast.reduce_window with the same window, strides,
// dilations and padding, the init value its operand; the cumulative forms
// stay bcast.cumulative (tests in convert_stablehlo_to_bcast_argmax_cumulative.mlir).
// A scatter whose update computation is multiply, maximum or minimum becomes
// bcast.scatter of that kind. Bodies and attributes as jax 0.10.2 prints them.

// CHECK-LABEL: func.func @max_pool_same
func.func @max_pool_same(%arg0: tensor<1x5x5x2xf32>, %ninf: tensor<f32>) -> tensor<1x3x3x2xf32> {
  %0 = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<f32>
// CHECK: %{{.*}} = bcast.reduce_window maximum %arg0, %{{.*}}, window = [1, 3, 3, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 1, 1, 0], high = [0, 1, 1, 0] : (tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  return %1 : tensor<1x3x3x2xf32>
}

// -----

// Average pooling: the window sum, then the division (an elementwise op).
// Unset strides, dilations and padding are 1, 1 and 0.
// CHECK-LABEL: func.func @avg_pool
func.func @avg_pool(%arg0: tensor<2x4x4x3xf32>) -> tensor<2x2x2x3xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[SUM:.*]] = bcast.reduce_window add %arg0, %{{.*}}, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 0, 0, 0] : (tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x2x2x3xf32>
// CHECK: bcast.divide %[[SUM]], %{{.*}} : (tensor<2x2x2x3xf32>, tensor<2x2x2x3xf32>) -> tensor<2x2x2x3xf32>
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %3 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %3 : tensor<f32>
  }) : (tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x2x2x3xf32>
  %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x2x2x3xf32>
  %2 = stablehlo.divide %0, %1 : tensor<2x2x2x3xf32>
  return %2 : tensor<2x2x2x3xf32>
}

// -----

// StableHLO's interpreter case: dilations and padding as written.
// CHECK-LABEL: func.func @dilated
func.func @dilated(%x: tensor<3x2xi64>) -> tensor<2x2xi64> {
  %c = stablehlo.constant dense<0> : tensor<i64>
// CHECK: bcast.reduce_window add %x, %{{.*}}, window = [2, 1], strides = [4, 1], base_dilations = [2, 1], window_dilations = [3, 1], low = [2, 0], high = [1, 0] : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  %0 = "stablehlo.reduce_window"(%x, %c) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %1 = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }) {base_dilations = array<i64: 2, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 3, 1>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>} : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// On i1, StableHLO's or/add/maximum are logic (the reduce rule): `or`. A sum
// from 1, not the identity, over a window that is not the whole dim.
// CHECK-LABEL: func.func @logic_and_init
func.func @logic_and_init(%p: tensor<4x4xi1>, %x: tensor<4x3xf32>) -> (tensor<3x3xi1>, tensor<4x3xf32>) {
  %c = stablehlo.constant dense<false> : tensor<i1>
// CHECK: bcast.reduce_window or %p, %{{.*}}, window = [2, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<4x4xi1>, tensor<i1>) -> tensor<3x3xi1>
  %0 = "stablehlo.reduce_window"(%p, %c) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %1 = stablehlo.add %a, %b : tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4x4xi1>, tensor<i1>) -> tensor<3x3xi1>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
// CHECK: bcast.reduce_window add %x, %{{.*}}, window = [1, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %2 = "stablehlo.reduce_window"(%x, %one) <{padding = dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return %0, %2 : tensor<3x3xi1>, tensor<4x3xf32>
}

// -----

// x.at[i].multiply(u), .min(u), .max(u) (the body's operands in either order).
// CHECK-LABEL: func.func @scatters
func.func @scatters(%arg0: tensor<5x3xf32>, %arg1: tensor<2x3xf32>, %i: tensor<2x1xi32>) -> (tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xf32>) {
// CHECK: bcast.scatter multiply %arg0[%i], %arg1, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %0 = "stablehlo.scatter"(%arg0, %i, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %10 = stablehlo.multiply %arg2, %arg3 : tensor<f32>
    stablehlo.return %10 : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
// CHECK: bcast.scatter minimum %arg0[%i], %arg1, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %1 = "stablehlo.scatter"(%arg0, %i, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %10 = stablehlo.minimum %arg2, %arg3 : tensor<f32>
    stablehlo.return %10 : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
// CHECK: bcast.scatter maximum %arg0[%i], %arg1, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %2 = "stablehlo.scatter"(%arg0, %i, %arg1) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
    %10 = stablehlo.maximum %arg3, %arg2 : tensor<f32>
    stablehlo.return %10 : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %0, %1, %2 : tensor<5x3xf32>, tensor<5x3xf32>, tensor<5x3xf32>
}

// -----

// A ? batch dim that no window spans (JAX's max pool of a symbolic batch) is taken.
// CHECK-LABEL: func.func @max_pool_dynamic_batch
func.func @max_pool_dynamic_batch(%arg0: tensor<?x8x8x3xf32>) -> tensor<?x4x4x3xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %{{.*}} = bcast.reduce_window maximum %arg0, %{{.*}}, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 0, 0, 0] : (tensor<?x8x8x3xf32>, tensor<f32>) -> tensor<?x4x4x3xf32>
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<?x8x8x3xf32>, tensor<f32>) -> tensor<?x4x4x3xf32>
  return %0 : tensor<?x4x4x3xf32>
}

// -----

// A window over a ? dim (jax.export's max pool over a symbolic length n):
// taken, the result dim ? (the window count of the run-time size).
// CHECK-LABEL: func.func @max_pool_symbolic_length
func.func @max_pool_symbolic_length(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %{{.*}} = bcast.reduce_window maximum %arg0, %{{.*}}, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A static size the export declares for a ? dim windows span is kept (it is
// checked when the op runs).
// CHECK-LABEL: func.func @max_pool_declared_width
func.func @max_pool_declared_width(%x: tensor<2x?xf32>) -> tensor<2x3xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %{{.*}} = bcast.reduce_window maximum %x, %{{.*}}, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = "stablehlo.reduce_window"(%x, %cst) <{window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
