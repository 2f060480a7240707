// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// JAX's jnp.argmax/argmin (a reduce of (x, iota) with its comparator body,
// the value result unused) become bcast.argmax/argmin; its cumulative
// reduce_window forms (jnp.cumsum, cumprod, cummax, cummin, reverse) become
// bcast.cumulative. Bodies and attributes as jax 0.10.2 prints them.

// CHECK-LABEL: func.func @argmax
func.func @argmax(%arg0: tensor<4x3xui8>) -> tensor<3xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x3xi32>
  %c = stablehlo.constant dense<0> : tensor<ui8>
  %c_0 = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %1 = bcast.argmax %arg0, dim = 0 : (tensor<4x3xui8>) -> tensor<3xi32>
// CHECK-NEXT: func.return %1 : tensor<3xi32>
  %1:2 = stablehlo.reduce(%arg0 init: %c), (%0 init: %c_0) across dimensions = [0] : (tensor<4x3xui8>, tensor<4x3xi32>, tensor<ui8>, tensor<i32>) -> (tensor<3xui8>, tensor<3xi32>)
   reducer(%arg1: tensor<ui8>, %arg3: tensor<ui8>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<ui8>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<ui8>, tensor<i32>
  }
  return %1#1 : tensor<3xi32>
}

// -----

// argmin of i16 with an i64 index (JAX with jax_enable_x64), in generic
// form. (Float inits are hex literals, -inf, which tests/tools/test_plugin.py
// cannot compare with xdsl-opt: the float forms are in the JAX corpus and
// tests/tools/test_from_jax.py.)
// CHECK-LABEL: func.func @argmin
func.func @argmin(%arg0: tensor<4x3xi16>) -> tensor<4xi64> {
  %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x3xi64>
  %cst = stablehlo.constant dense<32767> : tensor<i16>
  %c = stablehlo.constant dense<0> : tensor<i64>
// CHECK: %1 = bcast.argmin %arg0, dim = 1 : (tensor<4x3xi16>) -> tensor<4xi64>
  %1:2 = "stablehlo.reduce"(%arg0, %0, %cst, %c) <{dimensions = array<i64: 1>}> ({
  ^bb0(%arg1: tensor<i16>, %arg2: tensor<i64>, %arg3: tensor<i16>, %arg4: tensor<i64>):
    %2 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i16>, tensor<i16>) -> tensor<i1>
    %3 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i16>, tensor<i16>) -> tensor<i1>
    %4 = "stablehlo.or"(%2, %3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %5 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i16>, tensor<i16>) -> tensor<i1>
    %6 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %7 = "stablehlo.and"(%5, %6) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %8 = "stablehlo.or"(%4, %7) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %9 = "stablehlo.select"(%4, %arg1, %arg3) : (tensor<i1>, tensor<i16>, tensor<i16>) -> tensor<i16>
    %10 = "stablehlo.select"(%8, %arg2, %arg4) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%9, %10) : (tensor<i16>, tensor<i64>) -> ()
  }) : (tensor<4x3xi16>, tensor<4x3xi64>, tensor<i16>, tensor<i64>) -> (tensor<4xi16>, tensor<4xi64>)
  return %1#1 : tensor<4xi64>
}

// -----

// A body in another order (the select operands swapped) is not JAX's form:
// the reduce is kept (the open world).
// CHECK-LABEL: func.func @not_argmax
func.func @not_argmax(%arg0: tensor<4x3xi32>) -> tensor<4xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x3xi32>
  %cst = stablehlo.constant dense<-2147483648> : tensor<i32>
  %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK: stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1]
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<4x3xi32>, tensor<4x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
   reducer(%arg1: tensor<i32>, %arg3: tensor<i32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg3, %arg1 : tensor<i1>, tensor<i32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<i32>, tensor<i32>
  }
  return %1#1 : tensor<4xi32>
}

// -----

// jnp.cumsum along dim 1 (the init behind a rank-0 broadcast_in_dim, as JAX
// writes it), jax.lax.cummin of i32 along dim 0 reversed, jnp.cumprod of i32.
// CHECK-LABEL: func.func @cumulative
func.func @cumulative(%arg0: tensor<4x3xf32>, %i: tensor<4x3xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xi32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
// CHECK: %1 = bcast.cumulative add %arg0, dim = 1 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %max = stablehlo.constant dense<2147483647> : tensor<i32>
// CHECK: %2 = bcast.cumulative minimum %i, dim = 0 reverse : (tensor<4x3xi32>) -> tensor<4x3xi32>
  %3 = "stablehlo.reduce_window"(%i, %max) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 3], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 4, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
    %4 = stablehlo.minimum %arg1, %arg2 : tensor<i32>
    stablehlo.return %4 : tensor<i32>
  }) : (tensor<4x3xi32>, tensor<i32>) -> tensor<4x3xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %3 = bcast.cumulative multiply %i, dim = 0 : (tensor<4x3xi32>) -> tensor<4x3xi32>
  %5 = "stablehlo.reduce_window"(%i, %one) <{base_dilations = array<i64: 1, 1>, padding = dense<[[3, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 4, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
    %6 = stablehlo.multiply %arg1, %arg2 : tensor<i32>
    stablehlo.return %6 : tensor<i32>
  }) : (tensor<4x3xi32>, tensor<i32>) -> tensor<4x3xi32>
// CHECK: func.return %1, %2, %3 : tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xi32>
  return %1, %3, %5 : tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xi32>
}

// -----

// A window of size 2 (a sliding sum) is no cumulative form: the general
// bcast.reduce_window (convert_stablehlo_to_bcast_reduce_window.mlir).
// CHECK-LABEL: func.func @sliding
func.func @sliding(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK: bcast.reduce_window add %arg0, %{{.*}}, window = [1, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 0]
  %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
