// The dynamic_iota, dynamic_reshape, dynamic_pad and real_dynamic_slice cases
// of StableHLO's stablehlo/tests/transforms/stablehlo_canonicalize_dynamism.mlir
// (openxla/stablehlo 3c9301c), written as StableHLO and imported: sizes,
// paddings and ranges that are constants make the static op
// (passes/stablehlo_to_bcast.py, ConvertDynamicRanges; passes/dynamic_checks.py,
// StaticDynamicReshapeToReshape and StaticDynamicIotaToIota); a static result
// dim whose size is computed at run time gets a located run-time check
// (upstream keeps the op and leaves a disagreeing size undefined); every
// other form is kept as it is, as upstream keeps it. The cases whose declared
// result is less static than their constants make are kept too: bcast has no
// op that forgets a static size.

// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,canonicalize | filecheck %s

// CHECK-LABEL: func.func @iota_of_constant_sizes
// CHECK-NEXT:    %0 = bcast.iota dim = 0 : tensor<4xf32>
// CHECK-NEXT:    func.return %0
func.func @iota_of_constant_sizes() -> tensor<4xf32> {
  %n = stablehlo.constant dense<4> : tensor<1xi64>
  %0 = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// The size comes from an argument; the result type says 4: checked at run time.
// CHECK-LABEL: func.func @iota_of_argument_size_static_result
// CHECK-NEXT:    %0 = bcast.extract %shape[0] : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT:    %1 = bcast.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %2 = bcast.compare EQ, %0, %1
// CHECK-NEXT:    bcast.shape_assertion %2, %0 message = "stablehlo.dynamic_iota: output size 0 is {0} at run time, but the result type has 4 there"
// CHECK-NEXT:    %3 = bcast.iota dim = 0 : tensor<4xf32>
func.func @iota_of_argument_size_static_result(%shape: tensor<1xi64>) -> tensor<4xf32> {
  %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @iota_of_constant_sizes_dynamic_result
// CHECK:         bcast.dynamic_iota [%{{.*}}], dim = 0 : tensor<?xf32>
func.func @iota_of_constant_sizes_dynamic_result() -> tensor<?xf32> {
  %n = stablehlo.constant dense<4> : tensor<1xi64>
  %0 = stablehlo.dynamic_iota %n, dim = 0 : (tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_constant_sizes
// CHECK-NEXT:    %0 = bcast.reshape %x : (tensor<4xf32>) -> tensor<1x4xf32>
func.func @reshape_to_constant_sizes(%x: tensor<4xf32>) -> tensor<1x4xf32> {
  %s = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_argument_sizes_static_result
// CHECK:         bcast.shape_assertion {{.*}} message = "stablehlo.dynamic_reshape: output size 0 is {0} at run time, but the result type has 1 there"
// CHECK:         bcast.shape_assertion {{.*}} message = "stablehlo.dynamic_reshape: output size 1 is {0} at run time, but the result type has 4 there"
// CHECK:         bcast.reshape %x : (tensor<4xf32>) -> tensor<1x4xf32>
func.func @reshape_to_argument_sizes_static_result(%x: tensor<4xf32>, %s: tensor<2xi64>) -> tensor<1x4xf32> {
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_constant_sizes_dynamic_result
// CHECK:         bcast.dynamic_reshape %x, [1, %{{.*}}] : (tensor<4xf32>) -> tensor<1x?xf32>
func.func @reshape_to_constant_sizes_dynamic_result(%x: tensor<4xf32>) -> tensor<1x?xf32> {
  %s = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<4xf32>, tensor<2xi64>) -> tensor<1x?xf32>
  func.return %0 : tensor<1x?xf32>
}

// -----

// CHECK-LABEL: func.func @pad_of_constant_paddings
// CHECK-NEXT:    %0 = bcast.pad %x, %v, low = [0], high = [1], interior = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<11xf32>
// CHECK-NEXT:    func.return %0
func.func @pad_of_constant_paddings(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<11xf32> {
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %hi = stablehlo.constant dense<1> : tensor<1xi64>
  %in = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>
  func.return %0 : tensor<11xf32>
}

// -----

// CHECK-LABEL: func.func @pad_of_constant_paddings_dynamic_result
// CHECK:         stablehlo.dynamic_pad
func.func @pad_of_constant_paddings_dynamic_result(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %hi = stablehlo.constant dense<1> : tensor<1xi64>
  %in = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// One run-time padding each (low, high, interior): kept.
// CHECK-LABEL: func.func @pad_of_argument_low
// CHECK:         stablehlo.dynamic_pad %x, %v, %p,
// CHECK-LABEL: func.func @pad_of_argument_high
// CHECK:         stablehlo.dynamic_pad %x, %v, %{{.*}}, %p,
// CHECK-LABEL: func.func @pad_of_argument_interior
// CHECK:         stablehlo.dynamic_pad %x, %v, %{{.*}}, %{{.*}}, %p :
func.func @pad_of_argument_low(%x: tensor<4xf32>, %v: tensor<f32>, %p: tensor<1xi64>) -> tensor<11xf32> {
  %hi = stablehlo.constant dense<1> : tensor<1xi64>
  %in = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %p, %hi, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>
  func.return %0 : tensor<11xf32>
}
func.func @pad_of_argument_high(%x: tensor<4xf32>, %v: tensor<f32>, %p: tensor<1xi64>) -> tensor<11xf32> {
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %in = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %lo, %p, %in : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>
  func.return %0 : tensor<11xf32>
}
func.func @pad_of_argument_interior(%x: tensor<4xf32>, %v: tensor<f32>, %p: tensor<1xi64>) -> tensor<11xf32> {
  %lo = stablehlo.constant dense<0> : tensor<1xi64>
  %hi = stablehlo.constant dense<1> : tensor<1xi64>
  %0 = stablehlo.dynamic_pad %x, %v, %lo, %hi, %p : (tensor<4xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<11xf32>
  func.return %0 : tensor<11xf32>
}

// -----

// A run-time start, the limit one past it, unit strides: a dynamic_slice.
// CHECK-LABEL: func.func @window_from_argument_start
// CHECK-NEXT:    %0 = bcast.extract %start[0] : (tensor<1xi64>) -> tensor<i64>
// CHECK-NEXT:    %1 = bcast.dynamic_slice %x[%0], sizes = [1] : (tensor<4xf32>, tensor<i64>) -> tensor<1xf32>
// CHECK-NEXT:    func.return %1
func.func @window_from_argument_start(%x: tensor<4xf32>, %start: tensor<1xi64>) -> tensor<1xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi64>
  %limit = stablehlo.add %start, %one : tensor<1xi64>
  %unit = stablehlo.constant dense<1> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %unit : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

// The same with a ? result (kept), run-time strides (kept), and a limit that
// is not start plus a constant (kept).
// CHECK-LABEL: func.func @window_from_argument_start_dynamic_result
// CHECK:         stablehlo.real_dynamic_slice
// CHECK-LABEL: func.func @window_with_argument_strides
// CHECK:         stablehlo.real_dynamic_slice
// CHECK-LABEL: func.func @window_with_argument_limit
// CHECK:         stablehlo.real_dynamic_slice
func.func @window_from_argument_start_dynamic_result(%x: tensor<4xf32>, %start: tensor<1xi64>) -> tensor<?xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi64>
  %limit = stablehlo.add %start, %one : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %one : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
func.func @window_with_argument_strides(%x: tensor<4xf32>, %start: tensor<1xi64>, %strides: tensor<1xi64>) -> tensor<1xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi64>
  %limit = stablehlo.add %start, %one : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
func.func @window_with_argument_limit(%x: tensor<4xf32>, %start: tensor<1xi64>, %limit: tensor<1xi64>, %strides: tensor<1xi64>) -> tensor<1xf32> {
  %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

// Constant ranges: a slice (a discardable attribute does not stop it).
// CHECK-LABEL: func.func @slice_of_constant_ranges
// CHECK-NEXT:    %0 = bcast.slice %x [0:1:2] : (tensor<4xf32>) -> tensor<1xf32>
// CHECK-LABEL: func.func @slice_of_constant_ranges_with_attribute
// CHECK-NEXT:    bcast.slice %x [0:1:2]
func.func @slice_of_constant_ranges(%x: tensor<4xf32>) -> tensor<1xf32> {
  %s = stablehlo.constant dense<0> : tensor<1xi64>
  %l = stablehlo.constant dense<1> : tensor<1xi64>
  %k = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
func.func @slice_of_constant_ranges_with_attribute(%x: tensor<4xf32>) -> tensor<1xf32> {
  %s = stablehlo.constant dense<0> : tensor<1xi64>
  %l = stablehlo.constant dense<1> : tensor<1xi64>
  %k = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k {mhlo.frontend_attributes = {MUST_FUSE = "0"}} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

// Constant ranges under a ? result (kept). A run-time start, limit or
// stride: a gather of start + stride * iota, after located run-time checks
// of the range (0 <= start <= limit <= n), of a positive stride, and of the
// count (ceil((limit - start) / stride)) against the static result dim.
// CHECK-LABEL: func.func @slice_of_constant_ranges_dynamic_result
// CHECK:         stablehlo.real_dynamic_slice
// CHECK-LABEL: func.func @slice_of_argument_start
// CHECK:         %[[S:.*]] = bcast.extract %a[0] : (tensor<1xi64>) -> tensor<i64>
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice range {{.*}} of dimension 0 is out of bounds for its size
// CHECK:         %[[COUNT:.*]] = bcast.divide
// CHECK:         bcast.shape_assertion {{.*}}, %[[COUNT]] message = "stablehlo.real_dynamic_slice: output size 0 is {{.*}} at run time, but the result type has 1 there"
// CHECK:         %[[IOTA:.*]] = bcast.iota dim = 0 : tensor<1xi64>
// CHECK:         %[[STEP:.*]] = bcast.multiply %[[IOTA]]
// CHECK-NEXT:    %[[AT:.*]] = bcast.add %[[STEP]], %[[S]]
// CHECK-NEXT:    bcast.gather %x[%[[AT]]], <collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, sizes = [1] : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-LABEL: func.func @slice_of_argument_limit
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice range
// CHECK:         bcast.shape_assertion {{.*}} message = "stablehlo.real_dynamic_slice: output size 0
// CHECK:         bcast.gather %x[
// CHECK-LABEL: func.func @slice_of_argument_strides
// CHECK:         bcast.shape_assertion {{.*}} message = "real_dynamic_slice stride {{.*}} of dimension 0 is not positive"
// CHECK:         bcast.shape_assertion {{.*}} message = "stablehlo.real_dynamic_slice: output size 0
// CHECK:         bcast.gather %x[
func.func @slice_of_constant_ranges_dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  %s = stablehlo.constant dense<0> : tensor<1xi64>
  %l = stablehlo.constant dense<1> : tensor<1xi64>
  %k = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %k : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
func.func @slice_of_argument_start(%x: tensor<4xf32>, %a: tensor<1xi64>) -> tensor<1xf32> {
  %l = stablehlo.constant dense<1> : tensor<1xi64>
  %k = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %a, %l, %k : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
func.func @slice_of_argument_limit(%x: tensor<4xf32>, %a: tensor<1xi64>) -> tensor<1xf32> {
  %s = stablehlo.constant dense<0> : tensor<1xi64>
  %k = stablehlo.constant dense<2> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %s, %a, %k : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
func.func @slice_of_argument_strides(%x: tensor<4xf32>, %a: tensor<1xi64>) -> tensor<1xf32> {
  %s = stablehlo.constant dense<0> : tensor<1xi64>
  %l = stablehlo.constant dense<1> : tensor<1xi64>
  %0 = stablehlo.real_dynamic_slice %x, %s, %l, %a : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
