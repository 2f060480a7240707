// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.dot_general (StableHLO's syntax; batching dims printed only when
// there are some) and bcast.matmul (the Array API's matmul).

// CHECK-LABEL: func.func @dot_general
func.func @dot_general(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %v: tensor<4xi32>, %m: tensor<0x4xi32>) -> (tensor<2x3x5xf32>, tensor<i32>, tensor<0xi32>) {
// CHECK-NEXT: %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// GENERIC: "bcast.dot_general"(%a, %b) <{lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = bcast.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %1 = bcast.dot_general %v, %v, contracting_dims = [0] x [0] : (tensor<4xi32>, tensor<4xi32>) -> tensor<i32>
// GENERIC: "bcast.dot_general"(%v, %v) <{lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 0>}>
  %1 = bcast.dot_general %v, %v, contracting_dims = [0] x [0] : (tensor<4xi32>, tensor<4xi32>) -> tensor<i32>
// CHECK-NEXT: %2 = bcast.dot_general %m, %v, contracting_dims = [1] x [0] : (tensor<0x4xi32>, tensor<4xi32>) -> tensor<0xi32>
  %2 = bcast.dot_general %m, %v, contracting_dims = [1] x [0] : (tensor<0x4xi32>, tensor<4xi32>) -> tensor<0xi32>
  func.return %0, %1, %2 : tensor<2x3x5xf32>, tensor<i32>, tensor<0xi32>
}

// -----

// An outer product (nothing contracted) and a transposed contraction.
// CHECK-LABEL: func.func @outer_and_transposed
func.func @outer_and_transposed(%a: tensor<3xf64>, %b: tensor<5xf64>, %c: tensor<4x3xf64>, %d: tensor<5x4xf64>) -> (tensor<3x5xf64>, tensor<3x5xf64>) {
// CHECK-NEXT: %0 = bcast.dot_general %a, %b, contracting_dims = [] x [] : (tensor<3xf64>, tensor<5xf64>) -> tensor<3x5xf64>
  %0 = bcast.dot_general %a, %b, contracting_dims = [] x [] : (tensor<3xf64>, tensor<5xf64>) -> tensor<3x5xf64>
// CHECK-NEXT: %1 = bcast.dot_general %c, %d, contracting_dims = [0] x [1] : (tensor<4x3xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  %1 = bcast.dot_general %c, %d, contracting_dims = [0] x [1] : (tensor<4x3xf64>, tensor<5x4xf64>) -> tensor<3x5xf64>
  func.return %0, %1 : tensor<3x5xf64>, tensor<3x5xf64>
}

// -----

// matmul: 1-D operands (np.matmul's), batch dims broadcast from the right,
// element types promoted (f16 and f32 -> f32; i8 and ui8 -> i16).
// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf16>, %v: tensor<4xf32>, %m: tensor<7x4x2xf32>, %i: tensor<3x4xi8>, %u: tensor<4xui8>) -> (tensor<2x5x3x6xf32>, tensor<2x1x3xf32>, tensor<7x2xf32>, tensor<f32>, tensor<3xi16>) {
// CHECK-NEXT: %0 = bcast.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf32>
// GENERIC: "bcast.matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf32>
  %0 = bcast.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf32>
// CHECK-NEXT: %1 = bcast.matmul %a, %v : (tensor<2x1x3x4xf32>, tensor<4xf32>) -> tensor<2x1x3xf32>
  %1 = bcast.matmul %a, %v : (tensor<2x1x3x4xf32>, tensor<4xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT: %2 = bcast.matmul %v, %m : (tensor<4xf32>, tensor<7x4x2xf32>) -> tensor<7x2xf32>
  %2 = bcast.matmul %v, %m : (tensor<4xf32>, tensor<7x4x2xf32>) -> tensor<7x2xf32>
// CHECK-NEXT: %3 = bcast.matmul %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %3 = bcast.matmul %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
// CHECK-NEXT: %4 = bcast.matmul %i, %u : (tensor<3x4xi8>, tensor<4xui8>) -> tensor<3xi16>
  %4 = bcast.matmul %i, %u : (tensor<3x4xi8>, tensor<4xui8>) -> tensor<3xi16>
  func.return %0, %1, %2, %3, %4 : tensor<2x5x3x6xf32>, tensor<2x1x3xf32>, tensor<7x2xf32>, tensor<f32>, tensor<3xi16>
}

// -----

// Under xla semantics equal batch dims (and one element type) are fine.
// CHECK-LABEL: func.func @matmul_xla
func.func @matmul_xla(%a: tensor<5x3x4xf32>, %b: tensor<5x4x6xf32>, %w: tensor<4x6xf32>) -> (tensor<5x3x6xf32>, tensor<3x6xf32>) attributes {bcast.semantics = "xla"} {
// CHECK-NEXT: %0 = bcast.matmul %a, %b : (tensor<5x3x4xf32>, tensor<5x4x6xf32>) -> tensor<5x3x6xf32>
  %0 = bcast.matmul %a, %b : (tensor<5x3x4xf32>, tensor<5x4x6xf32>) -> tensor<5x3x6xf32>
  %s = bcast.reduce add %a, dims = [0] : (tensor<5x3x4xf32>) -> tensor<3x4xf32>
// CHECK: bcast.matmul %s, %w : (tensor<3x4xf32>, tensor<4x6xf32>) -> tensor<3x6xf32>
  %1 = bcast.matmul %s, %w : (tensor<3x4xf32>, tensor<4x6xf32>) -> tensor<3x6xf32>
  func.return %0, %1 : tensor<5x3x6xf32>, tensor<3x6xf32>
}
