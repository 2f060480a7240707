// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit | filecheck %s --check-prefix=CHECKS
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit --print-debuginfo | filecheck %s --check-prefix=LOC

// JAX's shape-polymorphic x.at[i].add(v) (x: (n, 4), i: (k,), v: (k, 4)) and
// jnp.argmax(x, axis=-1) of x: (3, n), as jax 0.10 exports them: scatter and
// the argmax reduce keep their ? dims; make-explicit then writes the run-time
// checks a ? leaves unproven, at the op (docs/ir.md, "scatter", "argmax").

// CHECK-LABEL: func.func @scatter_add_rows
// CHECK:         %r = bcast.scatter add %x[%i], %v, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECKS-LABEL: func.func @scatter_add_rows
// CHECKS:         %[[U:.*]] = bcast.dim %v, 0 : tensor<?x4xf32>
// CHECKS-NEXT:    %[[UT:.*]] = bcast.size_to_tensor %[[U]] : tensor<i64>
// CHECKS-NEXT:    %[[K:.*]] = bcast.dim %i, 0 : tensor<?x1xi32>
// CHECKS-NEXT:    %[[KT:.*]] = bcast.size_to_tensor %[[K]] : tensor<i64>
// CHECKS-NEXT:    %[[OK:.*]] = bcast.compare EQ, %[[UT]], %[[KT]]
// CHECKS-NEXT:    bcast.shape_assertion %[[OK]], %[[UT]], %[[KT]] message = "scatter updates dimension 0 has size {0}, not the size of its scatter_indices dimension 0 ({1})"
// CHECKS-NEXT:    %r = bcast.scatter add
// CHECKS-NOT:     shape_assertion
// LOC-LABEL: func.func @scatter_add_rows
// LOC:         bcast.shape_assertion {{.*}} loc("{{.*}}convert_stablehlo_to_bcast_dynamic_scatter_argmax.mlir":[[# @LINE + 3]]:8)
// LOC-NEXT:    bcast.scatter {{.*}} loc("{{.*}}convert_stablehlo_to_bcast_dynamic_scatter_argmax.mlir":[[# @LINE + 2]]:8)
func.func @scatter_add_rows(%x: tensor<?x4xf32>, %i: tensor<?x1xi32>, %v: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = "stablehlo.scatter"(%x, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// x.at[i].set(v) into a ? window dim: the window of each update is checked
// to fit the run-time input dim; the batch dims are static and equal.
// CHECK-LABEL: func.func @scatter_set_window
// CHECK:         bcast.scatter set %x[%i], %v
// CHECKS-LABEL: func.func @scatter_set_window
// CHECKS:         %[[U:.*]] = bcast.constant dense<3> : tensor<i64>
// CHECKS-NEXT:    %[[N:.*]] = bcast.dim %x, 1 : tensor<2x?xi32>
// CHECKS-NEXT:    %[[NT:.*]] = bcast.size_to_tensor %[[N]] : tensor<i64>
// CHECKS-NEXT:    %[[OK:.*]] = bcast.compare LE, %[[U]], %[[NT]]
// CHECKS-NEXT:    bcast.shape_assertion %[[OK]], %[[U]], %[[NT]] message = "scatter updates dimension 1 (window of input dimension 1) has size {0}, larger than the input's {1}"
// CHECKS-NEXT:    bcast.scatter set
func.func @scatter_set_window(%x: tensor<2x?xi32>, %i: tensor<5x1xi32>, %v: tensor<5x3xi32>) -> tensor<2x?xi32> {
  %r = "stablehlo.scatter"(%x, %i, %v) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<2x?xi32>, tensor<5x1xi32>, tensor<5x3xi32>) -> tensor<2x?xi32>
  func.return %r : tensor<2x?xi32>
}

// -----

// jax.ops.segment_sum(d, s, num_segments=5) of a ? data length: ? indices
// and updates into a static operand.
// CHECK-LABEL: func.func @segment_sum
// CHECK:         bcast.scatter add %z[%s], %d, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<5x3xf32>, tensor<?x1xi32>, tensor<?x3xf32>) -> tensor<5x3xf32>
// CHECKS-LABEL: func.func @segment_sum
// CHECKS-COUNT-1: bcast.shape_assertion
// CHECKS-NEXT:    bcast.scatter add
func.func @segment_sum(%z: tensor<5x3xf32>, %s: tensor<?x1xi32>, %d: tensor<?x3xf32>) -> tensor<5x3xf32> {
  %r = "stablehlo.scatter"(%z, %s, %d) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<?x1xi32>, tensor<?x3xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// jnp.argmax(x, axis=-1) of x: (3, n): JAX's reduce of (x, dynamic_iota).
// The ? dim is checked at run time to be non-empty; an i32 index holds the
// last index of any dim up to 2**31 elements, which is checked too.
// CHECK-LABEL: func.func @argmax_dynamic_dim
// CHECK:         %[[R:.*]] = bcast.argmax %x, dim = 1 : (tensor<3x?xf32>) -> tensor<3xi32>
// CHECK-NEXT:    func.return %[[R]]
// CHECKS-LABEL: func.func @argmax_dynamic_dim
// CHECKS:         bcast.compare GE
// CHECKS-NEXT:    bcast.shape_assertion {{.*}} message = "argmax of an empty dim (dim 1 has size {0})"
// CHECKS-NEXT:    bcast.constant dense<2147483648> : tensor<i64>
// CHECKS-NEXT:    bcast.compare LE
// CHECKS-NEXT:    bcast.shape_assertion {{.*}} message = "argmax of dim 1 of size {0}: index type i32 cannot hold its last index"
// CHECKS-NEXT:    bcast.argmax
func.func @argmax_dynamic_dim(%n: tensor<i32>, %x: tensor<3x?xf32>) -> tensor<3xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c_0 = stablehlo.constant dense<3> : tensor<1xi32>
  %0 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %1 = stablehlo.concatenate %c_0, %0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %2 = stablehlo.dynamic_iota %1, dim = 1 : (tensor<2xi32>) -> tensor<3x?xi32>
  %3:2 = stablehlo.reduce(%x init: %cst), (%2 init: %c) across dimensions = [1] : (tensor<3x?xf32>, tensor<3x?xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %4 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.or %4, %5 : tensor<i1>
    %7 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = stablehlo.and %7, %8 : tensor<i1>
    %10 = stablehlo.or %6, %9 : tensor<i1>
    %11 = stablehlo.select %6, %a, %b : tensor<i1>, tensor<f32>
    %12 = stablehlo.select %10, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
  }
  return %3#1 : tensor<3xi32>
}

// -----

// argmin over a ? dim with an i64 index: only the empty check (any size fits).
// CHECKS-LABEL: func.func @argmin_i64
// CHECKS:         bcast.shape_assertion {{.*}} message = "argmin of an empty dim (dim 0 has size {0})"
// CHECKS-NEXT:    bcast.argmin
func.func @argmin_i64(%x: tensor<?x2xf32>) -> tensor<2xi64> {
  %r = bcast.argmin %x, dim = 0 : (tensor<?x2xf32>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
}

// -----

// A declared result more static than the operand's ? rows: checked at run
// time at the op, in the reference's words (every backend then fails where
// the reference fails, and none fills 5 rows from fewer).
// CHECKS-LABEL: func.func @declared_rows
// CHECKS:         %[[N:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECKS-NEXT:    %[[NT:.*]] = bcast.size_to_tensor %[[N]] : tensor<i64>
// CHECKS-NEXT:    %[[FIVE:.*]] = bcast.constant dense<5> : tensor<i64>
// CHECKS-NEXT:    %[[OK:.*]] = bcast.compare EQ, %[[NT]], %[[FIVE]]
// CHECKS-NEXT:    bcast.shape_assertion %[[OK]], %[[NT]] message = "'bcast.scatter' op result has shape ({0}, 4) at run time, which its type tensor<5x4xf32> does not allow"
// CHECKS-NEXT:    bcast.scatter set
func.func @declared_rows(%x: tensor<?x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<5x4xf32> {
  %r = bcast.scatter set %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<?x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  func.return %r : tensor<5x4xf32>
}
