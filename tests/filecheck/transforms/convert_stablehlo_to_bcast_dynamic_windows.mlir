// RUN: bcast-opt %s -p "convert-stablehlo-to-bcast{strict=true},canonicalize" | filecheck %s

// real_dynamic_slice with run-time ranges on several dims and dynamic_gather
// windows of run-time or partial sizes (passes/stablehlo_to_bcast.py,
// _run_time_range_slice and _run_time_windows_gather): a gather of slices of
// size 1 at full index vectors, start + stride * iota along each dim that is
// not a static dim taken whole, with located run-time checks of ranges,
// strides and window sizes where they are not constants; static ranges of
// unit stride beside whole ? dims are a cropping pad.

// jnp.split beside a ? dim: the ? dim taken whole (its limit the run-time
// size: no check), the static dim from 0 to 2: a pad whose negative high
// edge crops (no index tensor).
// CHECK-LABEL: func.func @split_half
// CHECK-NEXT:    %[[Z:.*]] = bcast.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = bcast.pad %x, %[[Z]], low = [0, 0], high = [0, -2], interior = [0, 0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x2xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @split_half(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %zero = stablehlo.constant dense<0> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %zero, %zero, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %l = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.real_dynamic_slice %x, %s, %l, %units : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}

// lax.dynamic_slice of a ? operand as JAX exports it: the limit is the start
// plus the sizes; the window of 2 columns starts at the start clamped into
// [0, 8 - 2], as dynamic_slice clamps (data, not checked).
// CHECK-LABEL: func.func @window_at
// CHECK:         %[[S:.*]] = bcast.extract %i[1] : (tensor<2xi32>) -> tensor<i32>
// CHECK-NEXT:    %[[LAST:.*]] = bcast.constant dense<6> : tensor<i32>
// CHECK-NEXT:    %[[ZERO:.*]] = bcast.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[START:.*]] = bcast.clamp %[[ZERO]], %[[S]], %[[LAST]]
// CHECK:         %[[COLS:.*]] = bcast.dynamic_iota [%{{.*}}, 2, 1], dim = 1 : tensor<?x2x1xi32>
// CHECK-NEXT:    %{{.*}} = bcast.add %[[COLS]], %[[START]] : (tensor<?x2x1xi32>, tensor<i32>) -> tensor<?x2x1xi32>
// CHECK-NOT:     bcast.shape_assertion
// CHECK:         bcast.gather %x[
func.func @window_at(%x: tensor<?x8xf32>, %i: tensor<2xi32>) -> tensor<?x2xf32> {
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %l = stablehlo.add %i, %sizes : tensor<2xi32>
  %units = stablehlo.constant dense<1> : tensor<2xi32>
  %r = stablehlo.real_dynamic_slice %x, %i, %l, %units : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}

// Every entry an argument: each dim's range and stride checked at the op,
// its count ceil((limit - start) / stride).
// CHECK-LABEL: func.func @strided
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice range [{0}, {1}) of dimension 0 is out of bounds for its size {2}"
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice stride {0} of dimension 0 is not positive"
// CHECK:         %[[Q0:.*]] = bcast.divide
// CHECK-NEXT:    %[[C0:.*]] = bcast.size_from_tensor %[[Q0]] : tensor<i64>
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice range [{0}, {1}) of dimension 1 is out of bounds for its size {2}"
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice stride {0} of dimension 1 is not positive"
// CHECK:         %[[Q1:.*]] = bcast.divide
// CHECK-NEXT:    %[[C1:.*]] = bcast.size_from_tensor %[[Q1]] : tensor<i64>
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_iota [%[[C0]], %[[C1]], 1], dim = 0 : tensor<?x?x1xi64>
// CHECK-NEXT:    %{{.*}} = bcast.multiply
// CHECK-NEXT:    %{{.*}} = bcast.add
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_iota [%[[C0]], %[[C1]], 1], dim = 1 : tensor<?x?x1xi64>
// CHECK:         bcast.gather %x[%{{.*}}], <collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, sizes = [1, 1] : (tensor<?x?xf32>, tensor<?x?x2xi64>) -> tensor<?x?xf32>
func.func @strided(%x: tensor<?x?xf32>, %s: tensor<2xi64>, %l: tensor<2xi64>, %k: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<?x?xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// dynamic_gather: every row of the ? dim (its run-time size), windows of 2
// of the 8 columns at three starts, each clamped into [0, 6].
// CHECK-LABEL: func.func @gather_windows
// CHECK-NEXT:    %[[N:.*]] = bcast.dim %x, 0 : tensor<?x8xf32>
// CHECK-NEXT:    %[[LAST:.*]] = bcast.constant dense<6> : tensor<i32>
// CHECK-NEXT:    %[[ROWS:.*]] = bcast.dynamic_iota [3, %[[N]], 2, 1], dim = 1 : tensor<3x?x2x1xi32>
// CHECK-NEXT:    %[[COLS:.*]] = bcast.dynamic_iota [3, %[[N]], 2, 1], dim = 2 : tensor<3x?x2x1xi32>
// CHECK-NEXT:    %[[ZERO:.*]] = bcast.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %[[STARTS:.*]] = bcast.clamp %[[ZERO]], %i, %[[LAST]] : (tensor<i32>, tensor<3x1xi32>, tensor<i32>) -> tensor<3x1xi32>
// CHECK-NEXT:    %[[SPREAD:.*]] = bcast.dynamic_broadcast_in_dim %[[STARTS]], [3, %[[N]], 2, 1], dims = [0, 3]
// CHECK-NEXT:    %[[AT:.*]] = bcast.add %[[COLS]], %[[SPREAD]]
// CHECK-NEXT:    %[[ALL:.*]] = bcast.concatenate %[[ROWS]], %[[AT]], dim = 3
// CHECK-NEXT:    bcast.gather %x[%[[ALL]]], <collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 3>, sizes = [1, 1] : (tensor<?x8xf32>, tensor<3x?x2x2xi32>) -> tensor<3x?x2xf32>
func.func @gather_windows(%x: tensor<?x8xf32>, %i: tensor<3x1xi32>) -> tensor<3x?x2xf32> {
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [1], index_vector_dim = 1>}> : (tensor<?x8xf32>, tensor<3x1xi32>, tensor<2xi32>) -> tensor<3x?x2xf32>
  func.return %r : tensor<3x?x2xf32>
}

// A window of a run-time size k: checked 0 <= k <= n at the op.
// CHECK-LABEL: func.func @gather_sized
// CHECK:         bcast.shape_assertion {{.*}} message = "dynamic_gather slice size {0} of dimension 0 is out of bounds for its size {1}"
// CHECK:         bcast.gather %x[
func.func @gather_sized(%x: tensor<?x8xf32>, %i: tensor<2xi32>, %k: tensor<i32>) -> tensor<?x3xf32> {
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %k1 = stablehlo.reshape %k : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %k1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 0>}> : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// A window of half the rows of a ? dim (a run-time size, not the whole dim)
// at clamped starts: the size checked at the op.
// CHECK-LABEL: func.func @part_of_a_dim
// CHECK:         %[[H:.*]] = bcast.divide
// CHECK:         bcast.shape_assertion {{.*}} message = "dynamic_gather slice size {0} of dimension 0 is out of bounds for its size {1}"
// CHECK:         %[[LAST:.*]] = bcast.subtract %{{.*}}, %[[H]]
// CHECK:         bcast.clamp %{{.*}}, %{{.*}}, %[[LAST]]
// CHECK:         bcast.gather %x[
func.func @part_of_a_dim(%x: tensor<?x4xf32>, %i: tensor<2x1xi32>) -> tensor<?x2xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %h = stablehlo.divide %n, %two : tensor<i32>
  %h1 = stablehlo.reshape %h : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %h1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  func.return %r : tensor<?x2xf32>
}
