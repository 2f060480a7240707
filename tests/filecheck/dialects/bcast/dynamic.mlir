// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip (bounds included): print generic, re-parse, print custom.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// The rows of the table in docs/semantics.md ("Dynamic and bounded shapes")
// that verify, per semantics; invalid_dynamic.mlir has the refuted ones.
// Dims: static (4), dynamic (?), bounded (? with #stablehlo.bounds).

// numpy: ? and 1 -> ?; ? and n -> n (checked at run time); ? and ? -> ?;
// the same SSA value twice -> ? (proven); ?<=2 and 4 -> 4 (the ? must be 1);
// ?<=4 and ?<=8 -> ?<=8; ?<=4 and ? -> ?; rank promotion.
// CHECK-LABEL: func.func @numpy_rows(
func.func @numpy_rows(%d: tensor<?xf32>, %one: tensor<1xf32>, %four: tensor<4xf32>, %b2: tensor<?xf32, #stablehlo.bounds<2>>, %b4: tensor<?xf32, #stablehlo.bounds<4>>, %b8: tensor<?xf32, #stablehlo.bounds<8>>, %m: tensor<?x4xf32>, %col: tensor<?x1xf32>) {
  // CHECK-NEXT: %0 = bcast.add %d, %one : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %0 = bcast.add %d, %one : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  // CHECK-NEXT: %1 = bcast.add %d, %four : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = bcast.add %d, %four : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %2 = bcast.add %d, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = bcast.add %d, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  // CHECK-NEXT: %3 = bcast.multiply %d, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %3 = bcast.multiply %d, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  // CHECK-NEXT: %4 = bcast.add %b2, %four : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<4xf32>
  %4 = bcast.add %b2, %four : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %5 = bcast.add %b4, %b8 : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<8>>) -> tensor<?xf32, #stablehlo.bounds<8>>
  %5 = bcast.add %b4, %b8 : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<8>>) -> tensor<?xf32, #stablehlo.bounds<8>>
  // CHECK-NEXT: %6 = bcast.add %b4, %d : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32>) -> tensor<?xf32>
  %6 = bcast.add %b4, %d : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32>) -> tensor<?xf32>
  // CHECK-NEXT: %7 = bcast.subtract %m, %four : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %7 = bcast.subtract %m, %four : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %8 = bcast.subtract %col, %four : (tensor<?x1xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %8 = bcast.subtract %col, %four : (tensor<?x1xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %9 = bcast.subtract %col, %d : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %9 = bcast.subtract %col, %d : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  func.return
}

// A declared type more static than the inferred one (checked at run time).
// CHECK-LABEL: func.func @declared(
func.func @declared(%d: tensor<?xf32>, %e: tensor<?xf32>, %b4: tensor<?xf32, #stablehlo.bounds<4>>, %four: tensor<4xf32>) {
  // CHECK-NEXT: %0 = bcast.add %d, %e : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  %0 = bcast.add %d, %e : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %1 = bcast.add %b4, %b4 : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<3xf32>
  %1 = bcast.add %b4, %b4 : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<3xf32>
  func.return
}

// Every elementwise family: unary, compare, select, clamp.
// CHECK-LABEL: func.func @families(
func.func @families(%d: tensor<?x3xf32>, %r: tensor<3xf32>, %p: tensor<?x1xi1>, %lo: tensor<f32>) {
  // CHECK-NEXT: %0 = bcast.negate %d : tensor<?x3xf32>
  %0 = bcast.negate %d : tensor<?x3xf32>
  // CHECK-NEXT: %1 = bcast.compare LT, %d, %r : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xi1>
  %1 = bcast.compare LT, %d, %r : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xi1>
  // CHECK-NEXT: %2 = bcast.select %p, %d, %r : (tensor<?x1xi1>, tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = bcast.select %p, %d, %r : (tensor<?x1xi1>, tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: %3 = bcast.clamp %lo, %d, %r : (tensor<f32>, tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %3 = bcast.clamp %lo, %d, %r : (tensor<f32>, tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  func.return
}

// broadcast_in_dim: a ? result dim takes the size of the operand dim mapped
// to it; an operand ? into a static dim is checked (1 or that size).
// reduce keeps the unreduced dims, bounds included.
// CHECK-LABEL: func.func @structural(
func.func @structural(%v: tensor<?xf32>, %b: tensor<?x4xf32, #stablehlo.bounds<16, ?>>) {
  // CHECK-NEXT: %0 = bcast.broadcast_in_dim %v, dims = [0] : (tensor<?xf32>) -> tensor<?x3xf32>
  %0 = bcast.broadcast_in_dim %v, dims = [0] : (tensor<?xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: %1 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<?xf32>) -> tensor<2x5xf32>
  %1 = bcast.broadcast_in_dim %v, dims = [1] : (tensor<?xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %2 = bcast.reduce add %b, dims = [1] : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?xf32, #stablehlo.bounds<16>>
  %2 = bcast.reduce add %b, dims = [1] : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?xf32, #stablehlo.bounds<16>>
  // CHECK-NEXT: %3 = bcast.reduce maximum %b, dims = [0] keepdims : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<1x4xf32>
  %3 = bcast.reduce maximum %b, dims = [0] keepdims : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<1x4xf32>
  // CHECK-NEXT: %4 = bcast.reduce add %b, dims = [1] keepdims : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?x1xf32, #stablehlo.bounds<16, ?>>
  %4 = bcast.reduce add %b, dims = [1] keepdims : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?x1xf32, #stablehlo.bounds<16, ?>>
  func.return
}

// -----

// xla: the table applies after broadcast_dimensions places the lower-rank
// operand's dims.
module attributes {bcast.semantics = "xla"} {
  // CHECK-LABEL: func.func @xla_rows(
  func.func @xla_rows(%m: tensor<?x4xf32>, %r: tensor<4xf32>, %c: tensor<?xf32>, %d: tensor<?xf32>, %four: tensor<4xf32>) {
    // CHECK-NEXT: %0 = bcast.add %m, %r broadcast_dimensions = [1] : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    %0 = bcast.add %m, %r broadcast_dimensions = [1] : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    // CHECK-NEXT: %1 = bcast.add %m, %c broadcast_dimensions = [0] : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
    %1 = bcast.add %m, %c broadcast_dimensions = [0] : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
    // CHECK-NEXT: %2 = bcast.add %d, %four : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = bcast.add %d, %four : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
    // CHECK-NEXT: %3 = bcast.add %m, %m : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %3 = bcast.add %m, %m : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    func.return
  }
}

// -----

// tml: arithmetic follows the table per nesting level; logical, relational
// and bitwise ops need identical shapes (a ? is checked equal to the other
// dim at run time, never stretched).
module attributes {bcast.semantics = "tml"} {
  // CHECK-LABEL: func.func @tml_rows(
  func.func @tml_rows(%n: tensor<?xtensor<3xf32>>, %one: tensor<1xtensor<3xf32>>, %inner: tensor<2xtensor<?xf32>>, %p: tensor<?xi1>, %q: tensor<4xi1>, %x: tensor<?xf32>, %y: tensor<?xf32>) {
    // CHECK-NEXT: %0 = bcast.add %n, %one : (tensor<?xtensor<3xf32>>, tensor<1xtensor<3xf32>>) -> tensor<?xtensor<3xf32>>
    %0 = bcast.add %n, %one : (tensor<?xtensor<3xf32>>, tensor<1xtensor<3xf32>>) -> tensor<?xtensor<3xf32>>
    // CHECK-NEXT: %1 = bcast.add %inner, %inner : (tensor<2xtensor<?xf32>>, tensor<2xtensor<?xf32>>) -> tensor<2xtensor<?xf32>>
    %1 = bcast.add %inner, %inner : (tensor<2xtensor<?xf32>>, tensor<2xtensor<?xf32>>) -> tensor<2xtensor<?xf32>>
    // CHECK-NEXT: %2 = bcast.and %p, %q : (tensor<?xi1>, tensor<4xi1>) -> tensor<4xi1>
    %2 = bcast.and %p, %q : (tensor<?xi1>, tensor<4xi1>) -> tensor<4xi1>
    // CHECK-NEXT: %3 = bcast.compare EQ, %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
    %3 = bcast.compare EQ, %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
    func.return
  }
}

// -----

// The dynamic and bounded cases of StableHLO's CHLO broadcasting tests
// (chlo_legalize_to_stablehlo_broadcast.mlir), as bcast ops: the same
// shapes, the same result types.
// CHECK-LABEL: func.func @chlo_cases(
func.func @chlo_cases(%b0: tensor<?xf64, #stablehlo.bounds<10>>, %b1: tensor<?xf64, #stablehlo.bounds<10>>, %s: tensor<f64>, %v: tensor<?xf32>, %m: tensor<?x?xf32>) {
  // CHECK-NEXT: %0 = bcast.add %b0, %b1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  %0 = bcast.add %b0, %b1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  // CHECK-NEXT: %1 = bcast.add %b0, %s : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  %1 = bcast.add %b0, %s : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  // CHECK-NEXT: %2 = bcast.add %v, %m : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = bcast.add %v, %m : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  // CHECK-NEXT: %3 = bcast.compare EQ, %v, %m : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  %3 = bcast.compare EQ, %v, %m : (tensor<?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
  func.return
}

// -----

// xla clamp: min and max rank 0 or of the operand's shape, where a ? may
// be the operand's size (checked at run time).
module attributes {bcast.semantics = "xla"} {
  // CHECK-LABEL: func.func @xla_clamp(
  func.func @xla_clamp(%lo: tensor<?xf32>, %x: tensor<4xf32>, %hi: tensor<f32>) {
    // CHECK-NEXT: %0 = bcast.clamp %lo, %x, %hi : (tensor<?xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %0 = bcast.clamp %lo, %x, %hi : (tensor<?xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    func.return
  }
}
