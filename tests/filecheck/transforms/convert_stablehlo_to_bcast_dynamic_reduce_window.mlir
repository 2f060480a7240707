// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,canonicalize,cse | filecheck %s --check-prefix=CANON

// JAX's jnp.cumsum/cumprod/cummax/cummin along a ? dim: a custom_call
// @stablehlo.dynamic_reduce_window whose window and padding are size tensors
// computed from the dimension variable, and whose body is a function. It
// becomes bcast.cumulative, as the static reduce_window does; the body
// function, no longer called, is removed. The ops as jax 0.10.2 writes them
// for jnp.cumsum(x, axis=0) with x of shape (b, 4), its helpers inlined.

// CHECK-LABEL: func.func @cumsum
// CHECK-NOT: check_broadcastable
// CHECK: %{{.*}} = bcast.cumulative add %x, dim = 0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NOT: func.func @reducer
// CANON-LABEL: func.func @cumsum
// CANON-NEXT: %0 = bcast.cumulative add %x, dim = 0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CANON-NEXT: func.return %0 : tensor<?x4xf32>
func.func @cumsum(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c = stablehlo.constant dense<1> : tensor<1xi32>
  %c_0 = stablehlo.constant dense<0> : tensor<1xi32>
  %c_1 = stablehlo.constant dense<-1> : tensor<i32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
  %1 = stablehlo.convert %b : tensor<i32>
  %2 = stablehlo.add %1, %c_1 : tensor<i32>
  %3 = stablehlo.reshape %2 : (tensor<i32>) -> tensor<1xi32>
  %4 = stablehlo.concatenate %3, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %5 = stablehlo.reshape %4 : (tensor<2xi32>) -> tensor<1x2xi32>
  %6 = stablehlo.concatenate %c_0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %7 = stablehlo.reshape %6 : (tensor<2xi32>) -> tensor<1x2xi32>
  %8 = stablehlo.concatenate %5, %7, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %9 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %10 = stablehlo.concatenate %9, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %11 = stablehlo.concatenate %c, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %14 = "stablehlo.custom_call"(%x, %0, %10, %11, %11, %11, %8) <{api_version = 2 : i32, call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@reducer]}> : (tensor<?x4xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x4xf32>
  return %14 : tensor<?x4xf32>
}
func.func @reducer(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.add %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// cummax(reverse=True) of i32 along dim 1 of (3, n), padded (0, n - 1) after
// the dim: the window (n) is read from another argument, %y, whose size
// only the run time knows to be %x's: a strict check of the two sizes at
// the op's location is left (canonicalize keeps it: nothing proves it).

// CHECK-LABEL: func.func @cummax_reverse
// CHECK:      %[[W:.*]] = bcast.size_from_tensor %{{.*}} : tensor<i32>
// CHECK-NEXT: %[[N:.*]] = bcast.dim %x, 1 : tensor<3x?xi32>
// CHECK-NEXT: bcast.check_broadcastable [%[[W]]] at [0], [%[[N]]] at [0] checking [0] strict message = "the window of a cumulative stablehlo.dynamic_reduce_window is not its dim's size:"
// CHECK-NEXT: %{{.*}} = bcast.cumulative maximum %x, dim = 1 reverse : (tensor<3x?xi32>) -> tensor<3x?xi32>
// CANON-LABEL: func.func @cummax_reverse
// CANON: bcast.check_broadcastable [%{{.*}}] at [0], [%{{.*}}] at [0] checking [0] strict
// CANON: bcast.cumulative maximum %x, dim = 1 reverse
func.func @cummax_reverse(%x: tensor<3x?xi32>, %y: tensor<?xi32>) -> tensor<3x?xi32> {
  %n = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?xi32>) -> tensor<i32>
  %init = stablehlo.constant dense<-2147483648> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %zero = stablehlo.constant dense<0> : tensor<2xi32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %n1 = stablehlo.add %n, %m1 : tensor<i32>
  %nr = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %n1r = stablehlo.reshape %n1 : (tensor<i32>) -> tensor<1xi32>
  %zr = stablehlo.constant dense<0> : tensor<1xi32>
  %w = stablehlo.concatenate %one, %nr, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %s = stablehlo.constant dense<1> : tensor<2xi32>
  %p0 = stablehlo.reshape %zero : (tensor<2xi32>) -> tensor<1x2xi32>
  %p1a = stablehlo.concatenate %zr, %n1r, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %p1 = stablehlo.reshape %p1a : (tensor<2xi32>) -> tensor<1x2xi32>
  %p = stablehlo.concatenate %p0, %p1, dim = 0 : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %r = "stablehlo.custom_call"(%x, %init, %w, %s, %s, %s, %p) <{api_version = 2 : i32, call_target_name = "stablehlo.dynamic_reduce_window", called_computations = [@max_reducer]}> : (tensor<3x?xi32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<3x?xi32>
  return %r : tensor<3x?xi32>
}
func.func @max_reducer(%a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.maximum %a, %b : tensor<i32>
  return %0 : tensor<i32>
}
