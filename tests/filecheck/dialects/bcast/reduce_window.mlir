// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.reduce_window KIND %x, %init, window, strides, base_dilations,
// window_dilations, low, high: the result shape is StableHLO's (C15).

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<2x5x5x3xf32>, %ninf: tensor<f32>) -> tensor<2x3x3x3xf32> {
// CHECK-NEXT: %0 = bcast.reduce_window maximum %x, %ninf, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 1, 1, 0] : (tensor<2x5x5x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
// GENERIC: "bcast.reduce_window"(%x, %ninf) <{kind = #bcast<reduction_kind maximum>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>, base_dilations = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, padding_low = array<i64: 0, 0, 0, 0>, padding_high = array<i64: 0, 1, 1, 0>}> : (tensor<2x5x5x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
  %0 = bcast.reduce_window maximum %x, %ninf, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 1, 1, 0] : (tensor<2x5x5x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
  func.return %0 : tensor<2x3x3x3xf32>
}

// -----

// Dilations (StableHLO's interpreter case: 3 rows dilated to 5, padded to 8,
// windows of 2 places 3 apart, 4 apart), negative padding (a crop), a window
// larger than its input, zero-size dims, rank 0, booleans.
// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<3x2xi64>, %z: tensor<i64>, %e: tensor<0x4xf32>, %f: tensor<f32>, %s: tensor<f16>, %h: tensor<f16>, %p: tensor<4x4xi1>, %q: tensor<i1>) -> (tensor<2x2xi64>, tensor<1x1xi64>, tensor<0x3xf32>, tensor<2x4xf32>, tensor<f16>, tensor<5x5xi1>) {
// CHECK-NEXT: %0 = bcast.reduce_window add %x, %z, window = [2, 1], strides = [4, 1], base_dilations = [2, 1], window_dilations = [3, 1], low = [2, 0], high = [1, 0] : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  %0 = bcast.reduce_window add %x, %z, window = [2, 1], strides = [4, 1], base_dilations = [2, 1], window_dilations = [3, 1], low = [2, 0], high = [1, 0] : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
// CHECK-NEXT: %1 = bcast.reduce_window minimum %x, %z, window = [4, 3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, -1], high = [0, 2] : (tensor<3x2xi64>, tensor<i64>) -> tensor<1x1xi64>
  %1 = bcast.reduce_window minimum %x, %z, window = [4, 3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, -1], high = [0, 2] : (tensor<3x2xi64>, tensor<i64>) -> tensor<1x1xi64>
// CHECK-NEXT: %2 = bcast.reduce_window add %e, %f, window = [1, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<0x3xf32>
  %2 = bcast.reduce_window add %e, %f, window = [1, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<0x3xf32>
// CHECK-NEXT: %3 = bcast.reduce_window maximum %e, %f, window = [1, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, 0], high = [1, 0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %3 = bcast.reduce_window maximum %e, %f, window = [1, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, 0], high = [1, 0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<2x4xf32>
// CHECK-NEXT: %4 = bcast.reduce_window multiply %s, %h, window = [], strides = [], base_dilations = [], window_dilations = [], low = [], high = [] : (tensor<f16>, tensor<f16>) -> tensor<f16>
  %4 = bcast.reduce_window multiply %s, %h, window = [], strides = [], base_dilations = [], window_dilations = [], low = [], high = [] : (tensor<f16>, tensor<f16>) -> tensor<f16>
// CHECK-NEXT: %5 = bcast.reduce_window or %p, %q, window = [2, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, 1], high = [1, 1] : (tensor<4x4xi1>, tensor<i1>) -> tensor<5x5xi1>
  %5 = bcast.reduce_window or %p, %q, window = [2, 2], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [1, 1], high = [1, 1] : (tensor<4x4xi1>, tensor<i1>) -> tensor<5x5xi1>
  func.return %0, %1, %2, %3, %4, %5 : tensor<2x2xi64>, tensor<1x1xi64>, tensor<0x3xf32>, tensor<2x4xf32>, tensor<f16>, tensor<5x5xi1>
}

// -----

// A ? (or bounded) dim no window spans keeps its size: the batch of a pool.
// CHECK-LABEL: func.func @dynamic_batch
func.func @dynamic_batch(%x: tensor<?x4x4x3xf32>, %y: tensor<?x6xf32, #stablehlo.bounds<8, ?>>, %ninf: tensor<f32>) -> (tensor<?x2x2x3xf32>, tensor<?x3xf32, #stablehlo.bounds<8, ?>>) {
// CHECK-NEXT: %0 = bcast.reduce_window maximum %x, %ninf, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 0, 0, 0] : (tensor<?x4x4x3xf32>, tensor<f32>) -> tensor<?x2x2x3xf32>
  %0 = bcast.reduce_window maximum %x, %ninf, window = [1, 2, 2, 1], strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], low = [0, 0, 0, 0], high = [0, 0, 0, 0] : (tensor<?x4x4x3xf32>, tensor<f32>) -> tensor<?x2x2x3xf32>
// CHECK-NEXT: %1 = bcast.reduce_window add %y, %ninf, window = [1, 2], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<?x6xf32, #stablehlo.bounds<8, ?>>, tensor<f32>) -> tensor<?x3xf32, #stablehlo.bounds<8, ?>>
  %1 = bcast.reduce_window add %y, %ninf, window = [1, 2], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<?x6xf32, #stablehlo.bounds<8, ?>>, tensor<f32>) -> tensor<?x3xf32, #stablehlo.bounds<8, ?>>
  func.return %0, %1 : tensor<?x2x2x3xf32>, tensor<?x3xf32, #stablehlo.bounds<8, ?>>
}

// -----

// Windows over ? dims: the result dim is ? (its size the window count of the
// run-time size), bounded by the count of the input's bound (8 columns padded
// by 1 on each side: 4 windows of 3 every 2); a static declared size is
// checked at run time.
// CHECK-LABEL: func.func @windows_over_dynamic_dims
func.func @windows_over_dynamic_dims(%x: tensor<2x?xf32>, %b: tensor<?x?xf32, #stablehlo.bounds<?, 8>>, %ninf: tensor<f32>) -> (tensor<2x?xf32>, tensor<?x?xf32, #stablehlo.bounds<?, 4>>, tensor<2x3xf32>) {
// CHECK-NEXT: %0 = bcast.reduce_window maximum %x, %ninf, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
  %0 = bcast.reduce_window maximum %x, %ninf, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
// CHECK-NEXT: %1 = bcast.reduce_window maximum %b, %ninf, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<?x?xf32, #stablehlo.bounds<?, 8>>, tensor<f32>) -> tensor<?x?xf32, #stablehlo.bounds<?, 4>>
  %1 = bcast.reduce_window maximum %b, %ninf, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<?x?xf32, #stablehlo.bounds<?, 8>>, tensor<f32>) -> tensor<?x?xf32, #stablehlo.bounds<?, 4>>
// CHECK-NEXT: %2 = bcast.reduce_window maximum %x, %ninf, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = bcast.reduce_window maximum %x, %ninf, window = [1, 3], strides = [1, 2], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 1], high = [0, 1] : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0, %1, %2 : tensor<2x?xf32>, tensor<?x?xf32, #stablehlo.bounds<?, 4>>, tensor<2x3xf32>
}
