// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// concatenate, pad, slice and reshape with ? and bounded dims (docs/semantics.md,
// "Dynamic and bounded shapes"); invalid_concatenate_pad_slice_dynamic.mlir
// has the refuted ones.

// concatenate: along a ? dim the result is ? (bounded by the sum of the
// bounds when every operand has one); beside it the most static size of the
// operands (the others checked equal at run time).
// CHECK-LABEL: func.func @concatenate_rows(
func.func @concatenate_rows(%d: tensor<?x4xf32>, %s: tensor<3x4xf32>, %b2: tensor<?x4xf32, #stablehlo.bounds<2, ?>>, %b3: tensor<?x2xf32, #stablehlo.bounds<3, ?>>, %c: tensor<3x2xf32>) {
  // CHECK-NEXT: %0 = bcast.concatenate %d, %s, %d, dim = 0 : (tensor<?x4xf32>, tensor<3x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %0 = bcast.concatenate %d, %s, %d, dim = 0 : (tensor<?x4xf32>, tensor<3x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %1 = bcast.concatenate %b2, %s, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<2, ?>>, tensor<3x4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<5, ?>>
  %1 = bcast.concatenate %b2, %s, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<2, ?>>, tensor<3x4xf32>) -> tensor<?x4xf32, #stablehlo.bounds<5, ?>>
  // CHECK-NEXT: %2 = bcast.concatenate %d, %c, dim = 1 : (tensor<?x4xf32>, tensor<3x2xf32>) -> tensor<3x6xf32>
  %2 = bcast.concatenate %d, %c, dim = 1 : (tensor<?x4xf32>, tensor<3x2xf32>) -> tensor<3x6xf32>
  // CHECK-NEXT: %3 = bcast.concatenate %b2, %b3, dim = 1 : (tensor<?x4xf32, #stablehlo.bounds<2, ?>>, tensor<?x2xf32, #stablehlo.bounds<3, ?>>) -> tensor<?x6xf32, #stablehlo.bounds<2, ?>>
  %3 = bcast.concatenate %b2, %b3, dim = 1 : (tensor<?x4xf32, #stablehlo.bounds<2, ?>>, tensor<?x2xf32, #stablehlo.bounds<3, ?>>) -> tensor<?x6xf32, #stablehlo.bounds<2, ?>>
  func.return
}

// -----

// pad: a ? dim pads to a ? (its bound's size bounds it); a static dim as before.
// CHECK-LABEL: func.func @pad_rows(
func.func @pad_rows(%d: tensor<?x3xf32>, %b4: tensor<?x3xf32, #stablehlo.bounds<4, ?>>, %v: tensor<f32>) {
  // CHECK-NEXT: %0 = bcast.pad %d, %v, low = [1, 0], high = [2, -1], interior = [1, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x2xf32>
  %0 = bcast.pad %d, %v, low = [1, 0], high = [2, -1], interior = [1, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x2xf32>
  // CHECK-NEXT: %1 = bcast.pad %b4, %v, low = [1, 0], high = [1, 0], interior = [1, 0] : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<?x3xf32, #stablehlo.bounds<9, ?>>
  %1 = bcast.pad %b4, %v, low = [1, 0], high = [1, 0], interior = [1, 0] : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<?x3xf32, #stablehlo.bounds<9, ?>>
  // A crop that may end negative is checked at run time (the bound 4 pads to 2).
  // CHECK-NEXT: %2 = bcast.pad %b4, %v, low = [-1, 0], high = [-1, 0], interior = [0, 0] : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<?x3xf32, #stablehlo.bounds<2, ?>>
  %2 = bcast.pad %b4, %v, low = [-1, 0], high = [-1, 0], interior = [0, 0] : (tensor<?x3xf32, #stablehlo.bounds<4, ?>>, tensor<f32>) -> tensor<?x3xf32, #stablehlo.bounds<2, ?>>
  func.return
}

// -----

// slice: static ranges of a ? dim give a static result (limit <= size
// checked at run time; within a bound, here).
// CHECK-LABEL: func.func @slice_rows(
func.func @slice_rows(%d: tensor<?x8xf32>, %b4: tensor<?x8xf32, #stablehlo.bounds<4, ?>>) {
  // CHECK-NEXT: %0 = bcast.slice %d [1:7:3, 0:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>
  %0 = bcast.slice %d [1:7:3, 0:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %1 = bcast.slice %b4 [0:4, 1:2] : (tensor<?x8xf32, #stablehlo.bounds<4, ?>>) -> tensor<4x1xf32>
  %1 = bcast.slice %b4 [0:4, 1:2] : (tensor<?x8xf32, #stablehlo.bounds<4, ?>>) -> tensor<4x1xf32>
  func.return
}

// -----

// StableHLO's twins verify alike (the import maps them onto bcast's).
// CHECK-LABEL: func.func @stablehlo_rows(
func.func @stablehlo_rows(%d: tensor<?x4xf32>, %v: tensor<f32>) {
  // CHECK-NEXT: %0 = stablehlo.concatenate %d, %d, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %0 = stablehlo.concatenate %d, %d, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %1 = stablehlo.pad %d, %v, low = [1, 0], high = [2, 1], interior = [0, 0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x5xf32>
  %1 = stablehlo.pad %d, %v, low = [1, 0], high = [2, 1], interior = [0, 0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x5xf32>
  // CHECK-NEXT: %2 = stablehlo.slice %d [0:2, 1:4] : (tensor<?x4xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.slice %d [0:2, 1:4] : (tensor<?x4xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// reshape: the element count is checked at run time; the result's one ?
// (unbounded) is the count over its static sizes (NumPy's -1).
// CHECK-LABEL: func.func @reshape_rows(
func.func @reshape_rows(%d: tensor<?x4xf32>, %b: tensor<?x6xf32, #stablehlo.bounds<3, ?>>, %s: tensor<3x4xf32>) {
  // CHECK-NEXT: %0 = bcast.reshape %d : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %0 = bcast.reshape %d : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  // CHECK-NEXT: %1 = bcast.reshape %d : (tensor<?x4xf32>) -> tensor<8xf32>
  %1 = bcast.reshape %d : (tensor<?x4xf32>) -> tensor<8xf32>
  // CHECK-NEXT: %2 = bcast.reshape %b : (tensor<?x6xf32, #stablehlo.bounds<3, ?>>) -> tensor<4x?xf32>
  %2 = bcast.reshape %b : (tensor<?x6xf32, #stablehlo.bounds<3, ?>>) -> tensor<4x?xf32>
  // CHECK-NEXT: %3 = bcast.reshape %s : (tensor<3x4xf32>) -> tensor<?x6xf32>
  %3 = bcast.reshape %s : (tensor<3x4xf32>) -> tensor<?x6xf32>
  func.return
}
