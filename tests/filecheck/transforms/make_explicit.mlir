// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s --check-prefixes=CHECK,EXPAND
// RUN: bcast-opt %s --split-input-file -p 'bcast-make-explicit{degenerate=expand}' | filecheck %s --check-prefixes=CHECK,EXPAND
// RUN: bcast-opt %s --split-input-file -p 'bcast-make-explicit{degenerate=reshape}' | filecheck %s --check-prefixes=CHECK,RESHAPE
// The output verifies again (the second bcast-opt verifies its input).
// RUN: bcast-opt %s --split-input-file -p 'bcast-make-explicit{degenerate=reshape}' | bcast-opt - --split-input-file | filecheck %s --check-prefixes=CHECK,RESHAPE
// A bad option value is a usage error with a clear message.
// RUN: not bcast-opt %s -p 'bcast-make-explicit{degenerate=foo}' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: invalid value 'foo' for option 'degenerate' of bcast-make-explicit: expected 'expand' or 'reshape'

// CHECK-LABEL: func.func @rank_promotion
// CHECK-SAME:    (%a: tensor<2x3xf32>, %b: tensor<3xf32>)
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = bcast.add %a, %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @rank_promotion(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = bcast.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// Operands that already have the result type are left alone.
// CHECK-LABEL: func.func @already_explicit
// CHECK-NEXT:    %r = bcast.multiply %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %n = bcast.negate %r : tensor<2x3xf32>
// CHECK-NEXT:    func.return %n
func.func @already_explicit(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = bcast.multiply %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = bcast.negate %r : tensor<2x3xf32>
  func.return %n : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @degenerate
// EXPAND-NEXT:   %[[A:.*]] = bcast.broadcast_in_dim %a, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
// RESHAPE-NEXT:  %[[R:.*]] = bcast.reshape %a : (tensor<4x1xf32>) -> tensor<4xf32>
// RESHAPE-NEXT:  %[[A:.*]] = bcast.broadcast_in_dim %[[R]], dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %{{.*}} = bcast.subtract %[[A]], %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @degenerate(%a: tensor<4x1xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = bcast.subtract %a, %b : (tensor<4x1xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// A size-1 dim that meets a size-1 dim is not broadcast: nothing to drop.
// CHECK-LABEL: func.func @degenerate_kept
// EXPAND-NEXT:   %[[A:.*]] = bcast.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x1x3xf32>) -> tensor<2x1x3xf32>
// RESHAPE-NEXT:  %[[R:.*]] = bcast.reshape %a : (tensor<1x1x3xf32>) -> tensor<1x3xf32>
// RESHAPE-NEXT:  %[[A:.*]] = bcast.broadcast_in_dim %[[R]], dims = [1, 2] : (tensor<1x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT:    bcast.add %[[A]], %b : (tensor<2x1x3xf32>, tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
func.func @degenerate_kept(%a: tensor<1x1x3xf32>, %b: tensor<2x1x3xf32>) -> tensor<2x1x3xf32> {
  %r = bcast.add %a, %b : (tensor<1x1x3xf32>, tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  func.return %r : tensor<2x1x3xf32>
}

// -----

// CHECK-LABEL: func.func @scalar
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    bcast.multiply %[[S]], %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @scalar(%s: tensor<f32>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = bcast.multiply %s, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// XLA's outer product: (2,1) and (1,3) broadcast to (2,3).
// CHECK-LABEL: func.func @outer_product
// EXPAND-NEXT:   %[[C:.*]] = bcast.broadcast_in_dim %col, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
// EXPAND-NEXT:   %[[R:.*]] = bcast.broadcast_in_dim %row, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
// RESHAPE-NEXT:  %[[C0:.*]] = bcast.reshape %col : (tensor<2x1xf32>) -> tensor<2xf32>
// RESHAPE-NEXT:  %[[C:.*]] = bcast.broadcast_in_dim %[[C0]], dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
// RESHAPE-NEXT:  %[[R0:.*]] = bcast.reshape %row : (tensor<1x3xf32>) -> tensor<3xf32>
// RESHAPE-NEXT:  %[[R:.*]] = bcast.broadcast_in_dim %[[R0]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    bcast.multiply %[[C]], %[[R]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @outer_product(%col: tensor<2x1xf32>, %row: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %r = bcast.multiply %col, %row : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// The Array API's first example: 8x1x6x1 and 7x1x5 give 8x7x6x5.
// CHECK-LABEL: func.func @array_api_example
// EXPAND-NEXT:   %[[A:.*]] = bcast.broadcast_in_dim %a, dims = [0, 1, 2, 3] : (tensor<8x1x6x1xf32>) -> tensor<8x7x6x5xf32>
// EXPAND-NEXT:   %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [1, 2, 3] : (tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32>
// RESHAPE-NEXT:  %[[A0:.*]] = bcast.reshape %a : (tensor<8x1x6x1xf32>) -> tensor<8x6xf32>
// RESHAPE-NEXT:  %[[A:.*]] = bcast.broadcast_in_dim %[[A0]], dims = [0, 2] : (tensor<8x6xf32>) -> tensor<8x7x6x5xf32>
// RESHAPE-NEXT:  %[[B0:.*]] = bcast.reshape %b : (tensor<7x1x5xf32>) -> tensor<7x5xf32>
// RESHAPE-NEXT:  %[[B:.*]] = bcast.broadcast_in_dim %[[B0]], dims = [1, 3] : (tensor<7x5xf32>) -> tensor<8x7x6x5xf32>
// CHECK-NEXT:    bcast.add %[[A]], %[[B]] : (tensor<8x7x6x5xf32>, tensor<8x7x6x5xf32>) -> tensor<8x7x6x5xf32>
func.func @array_api_example(%a: tensor<8x1x6x1xf32>, %b: tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32> {
  %r = bcast.add %a, %b : (tensor<8x1x6x1xf32>, tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32>
  func.return %r : tensor<8x7x6x5xf32>
}

// -----

// XLA broadcast_dimensions, non-prefix: the vector is matched to dim 0.
// CHECK-LABEL: func.func @xla_non_prefix
// CHECK-NEXT:    %[[V:.*]] = bcast.broadcast_in_dim %v, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    bcast.add %[[V]], %m : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT:     broadcast_dimensions
func.func @xla_non_prefix(%v: tensor<4xf32>, %m: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// The lower-rank operand on the right; the 3x3 case of the XLA document.
// CHECK-LABEL: func.func @xla_rhs_low
// CHECK-NEXT:    %[[V:.*]] = bcast.broadcast_in_dim %v, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    bcast.subtract %m, %[[V]] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    %[[W:.*]] = bcast.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT:    bcast.subtract %m, %[[W]] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
func.func @xla_rhs_low(%m: tensor<3x3xf32>, %v: tensor<3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %r0 = bcast.subtract %m, %v broadcast_dimensions = [0] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %r1 = bcast.subtract %m, %v broadcast_dimensions = [1] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  func.return %r0, %r1 : tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

// XLA broadcast composition, first example: 4 + 1x2 with [0] -> 4x2.
// CHECK-LABEL: func.func @xla_composition_1
// CHECK-NEXT:    %[[V:.*]] = bcast.broadcast_in_dim %v, dims = [0] : (tensor<4xi32>) -> tensor<4x2xi32>
// EXPAND-NEXT:   %[[M:.*]] = bcast.broadcast_in_dim %m, dims = [0, 1] : (tensor<1x2xi32>) -> tensor<4x2xi32>
// RESHAPE-NEXT:  %[[M0:.*]] = bcast.reshape %m : (tensor<1x2xi32>) -> tensor<2xi32>
// RESHAPE-NEXT:  %[[M:.*]] = bcast.broadcast_in_dim %[[M0]], dims = [1] : (tensor<2xi32>) -> tensor<4x2xi32>
// CHECK-NEXT:    bcast.add %[[V]], %[[M]] : (tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
func.func @xla_composition_1(%v: tensor<4xi32>, %m: tensor<1x2xi32>) -> tensor<4x2xi32> {
  %r = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xi32>, tensor<1x2xi32>) -> tensor<4x2xi32>
  func.return %r : tensor<4x2xi32>
}

// -----

// XLA broadcast composition, second example: 1x2 + 4x3x1 with [1, 2] -> 4x3x2.
// CHECK-LABEL: func.func @xla_composition_2
// EXPAND-NEXT:   %[[A:.*]] = bcast.broadcast_in_dim %a, dims = [1, 2] : (tensor<1x2xf32>) -> tensor<4x3x2xf32>
// EXPAND-NEXT:   %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [0, 1, 2] : (tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
// RESHAPE-NEXT:  %[[A0:.*]] = bcast.reshape %a : (tensor<1x2xf32>) -> tensor<2xf32>
// RESHAPE-NEXT:  %[[A:.*]] = bcast.broadcast_in_dim %[[A0]], dims = [2] : (tensor<2xf32>) -> tensor<4x3x2xf32>
// RESHAPE-NEXT:  %[[B0:.*]] = bcast.reshape %b : (tensor<4x3x1xf32>) -> tensor<4x3xf32>
// RESHAPE-NEXT:  %[[B:.*]] = bcast.broadcast_in_dim %[[B0]], dims = [0, 1] : (tensor<4x3xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT:    bcast.add %[[A]], %[[B]] : (tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
func.func @xla_composition_2(%a: tensor<1x2xf32>, %b: tensor<4x3x1xf32>) -> tensor<4x3x2xf32> {
  %r = bcast.add %a, %b broadcast_dimensions = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  func.return %r : tensor<4x3x2xf32>
}

// -----

// Under xla semantics the input needs broadcast_dimensions; same-rank
// broadcast_dimensions (the identity) just disappear.
module attributes {bcast.semantics = "xla"} {
// CHECK-LABEL: func.func @xla_mode
// CHECK-NEXT:    %[[M:.*]] = bcast.broadcast_in_dim %m, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[S:.*]] = bcast.maximum %c, %[[M]] : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    bcast.minimum %[[S]], %c : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.func @xla_mode(%c: tensor<2x3x4xf32>, %m: tensor<2x4xf32>) -> tensor<2x3x4xf32> {
    %r = bcast.maximum %c, %m broadcast_dimensions = [0, 2] : (tensor<2x3x4xf32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
    %s = bcast.minimum %r, %c broadcast_dimensions = [0, 1, 2] : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    func.return %s : tensor<2x3x4xf32>
  }
}

// -----

// Type promotion: convert on the small shape, then broadcast.
// CHECK-LABEL: func.func @promotion
// CHECK-NEXT:    %[[A0:.*]] = bcast.convert %a : (tensor<3xi8>) -> tensor<3xi32>
// CHECK-NEXT:    %[[A:.*]] = bcast.broadcast_in_dim %[[A0]], dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    bcast.add %[[A]], %b : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[U:.*]] = bcast.convert %u : (tensor<3xui8>) -> tensor<3xi16>
// CHECK-NEXT:    %[[A1:.*]] = bcast.convert %a : (tensor<3xi8>) -> tensor<3xi16>
// CHECK-NEXT:    bcast.multiply %[[U]], %[[A1]] : (tensor<3xi16>, tensor<3xi16>) -> tensor<3xi16>
// CHECK-NEXT:    %[[H:.*]] = bcast.convert %h : (tensor<f16>) -> tensor<f32>
// CHECK-NEXT:    %[[H1:.*]] = bcast.broadcast_in_dim %[[H]], dims = [] : (tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:    bcast.divide %[[H1]], %f : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
func.func @promotion(%a: tensor<3xi8>, %b: tensor<2x3xi32>, %u: tensor<3xui8>, %h: tensor<f16>, %f: tensor<2xf32>) -> (tensor<2x3xi32>, tensor<3xi16>, tensor<2xf32>) {
  %r0 = bcast.add %a, %b : (tensor<3xi8>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %r1 = bcast.multiply %u, %a : (tensor<3xui8>, tensor<3xi8>) -> tensor<3xi16>
  %r2 = bcast.divide %h, %f : (tensor<f16>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r0, %r1, %r2 : tensor<2x3xi32>, tensor<3xi16>, tensor<2xf32>
}

// -----

// compare promotes and broadcasts its operands; the result stays i1.
// CHECK-LABEL: func.func @compare
// CHECK-NEXT:    %[[A0:.*]] = bcast.convert %a : (tensor<4x1xi8>) -> tensor<4x1xi32>
// EXPAND-NEXT:   %[[A:.*]] = bcast.broadcast_in_dim %[[A0]], dims = [0, 1] : (tensor<4x1xi32>) -> tensor<4x3xi32>
// RESHAPE-NEXT:  %[[A1:.*]] = bcast.reshape %[[A0]] : (tensor<4x1xi32>) -> tensor<4xi32>
// RESHAPE-NEXT:  %[[A:.*]] = bcast.broadcast_in_dim %[[A1]], dims = [0] : (tensor<4xi32>) -> tensor<4x3xi32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xi32>) -> tensor<4x3xi32>
// CHECK-NEXT:    bcast.compare GT, %[[A]], %[[B]] : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi1>
// CHECK-NEXT:    %[[V:.*]] = bcast.broadcast_in_dim %v, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    bcast.compare LE, %[[V]], %m : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
func.func @compare(%a: tensor<4x1xi8>, %b: tensor<3xi32>, %v: tensor<4xf32>, %m: tensor<4x3xf32>) -> (tensor<4x3xi1>, tensor<4x3xi1>) {
  %r0 = bcast.compare GT, %a, %b : (tensor<4x1xi8>, tensor<3xi32>) -> tensor<4x3xi1>
  %r1 = bcast.compare LE, %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
  func.return %r0, %r1 : tensor<4x3xi1>, tensor<4x3xi1>
}

// -----

// select broadcasts all three operands; the branches are promoted.
// CHECK-LABEL: func.func @select
// EXPAND-NEXT:   %[[P:.*]] = bcast.broadcast_in_dim %p, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x3xi1>
// RESHAPE-NEXT:  %[[P0:.*]] = bcast.reshape %p : (tensor<4x1xi1>) -> tensor<4xi1>
// RESHAPE-NEXT:  %[[P:.*]] = bcast.broadcast_in_dim %[[P0]], dims = [0] : (tensor<4xi1>) -> tensor<4x3xi1>
// CHECK-NEXT:    %[[T:.*]] = bcast.broadcast_in_dim %t, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[F:.*]] = bcast.convert %f : (tensor<4x3xf16>) -> tensor<4x3xf32>
// CHECK-NEXT:    bcast.select %[[P]], %[[T]], %[[F]] : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @select(%p: tensor<4x1xi1>, %t: tensor<3xf32>, %f: tensor<4x3xf16>) -> tensor<4x3xf32> {
  %r = bcast.select %p, %t, %f : (tensor<4x1xi1>, tensor<3xf32>, tensor<4x3xf16>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// select where no operand has the result shape.
// CHECK-LABEL: func.func @select_outer
// CHECK:         %[[P:.*]] = bcast.broadcast_in_dim %{{.*}} -> tensor<2x3x4xi1>
// CHECK:         %[[T:.*]] = bcast.broadcast_in_dim %{{.*}} -> tensor<2x3x4xi32>
// CHECK:         %[[F:.*]] = bcast.broadcast_in_dim %f, dims = [] : (tensor<i32>) -> tensor<2x3x4xi32>
// CHECK-NEXT:    bcast.select %[[P]], %[[T]], %[[F]] : (tensor<2x3x4xi1>, tensor<2x3x4xi32>, tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
func.func @select_outer(%p: tensor<2x1x4xi1>, %t: tensor<3x1xi32>, %f: tensor<i32>) -> tensor<2x3x4xi32> {
  %r = bcast.select %p, %t, %f : (tensor<2x1x4xi1>, tensor<3x1xi32>, tensor<i32>) -> tensor<2x3x4xi32>
  func.return %r : tensor<2x3x4xi32>
}

// -----

// clamp broadcasts all three operands and promotes all three.
// CHECK-LABEL: func.func @clamp
// CHECK-NEXT:    %[[LO0:.*]] = bcast.convert %lo : (tensor<f16>) -> tensor<f32>
// CHECK-NEXT:    %[[LO:.*]] = bcast.broadcast_in_dim %[[LO0]], dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// EXPAND-NEXT:   %[[X:.*]] = bcast.broadcast_in_dim %x, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
// RESHAPE-NEXT:  %[[X0:.*]] = bcast.reshape %x : (tensor<4x1xf32>) -> tensor<4xf32>
// RESHAPE-NEXT:  %[[X:.*]] = bcast.broadcast_in_dim %[[X0]], dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[HI:.*]] = bcast.broadcast_in_dim %hi, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    bcast.clamp %[[LO]], %[[X]], %[[HI]] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @clamp(%lo: tensor<f16>, %x: tensor<4x1xf32>, %hi: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = bcast.clamp %lo, %x, %hi : (tensor<f16>, tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// Nested (TML) types: per-level broadcasting is one flat broadcast_in_dim.
module attributes {bcast.semantics = "tml"} {
// CHECK-LABEL: func.func @nested
// A 2x(3) plus a 1x(2x1): level 0 gives 2, level 1 gives 2x3; flat 2x2x3.
// CHECK-NEXT:    %[[A:.*]] = bcast.broadcast_in_dim %a, dims = [0, 2] : (tensor<2xtensor<3xf32>>) -> tensor<2xtensor<2x3xf32>>
// EXPAND-NEXT:   %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [0, 1, 2] : (tensor<1xtensor<2x1xf32>>) -> tensor<2xtensor<2x3xf32>>
// RESHAPE-NEXT:  %[[B0:.*]] = bcast.reshape %b : (tensor<1xtensor<2x1xf32>>) -> tensor<2xf32>
// RESHAPE-NEXT:  %[[B:.*]] = bcast.broadcast_in_dim %[[B0]], dims = [1] : (tensor<2xf32>) -> tensor<2xtensor<2x3xf32>>
// CHECK-NEXT:    bcast.add %[[A]], %[[B]] : (tensor<2xtensor<2x3xf32>>, tensor<2xtensor<2x3xf32>>) -> tensor<2xtensor<2x3xf32>>
// A scalar and a base tensor broadcast over the inner levels: 3 + 3x(3x3).
// CHECK-NEXT:    %[[S:.*]] = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT:    bcast.multiply %[[S]], %n : (tensor<3xtensor<3x3xf32>>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT:    %[[V:.*]] = bcast.broadcast_in_dim %v, dims = [0] : (tensor<3xf32>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT:    bcast.subtract %n, %[[V]] : (tensor<3xtensor<3x3xf32>>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf32>>
// An inner-level rank promotion: 3x(3) + 3x(3x3).
// CHECK-NEXT:    %[[I:.*]] = bcast.broadcast_in_dim %i, dims = [0, 2] : (tensor<3xtensor<3xf32>>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT:    bcast.add %[[I]], %n : (tensor<3xtensor<3x3xf32>>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf32>>
// Relational ops on nested types: scalar vs tensor.
// CHECK-NEXT:    %[[S2:.*]] = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT:    bcast.compare GT, %[[S2]], %n : (tensor<3xtensor<3x3xf32>>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xi1>>
  func.func @nested(%a: tensor<2xtensor<3xf32>>, %b: tensor<1xtensor<2x1xf32>>, %s: tensor<f32>, %n: tensor<3xtensor<3x3xf32>>, %v: tensor<3xf32>, %i: tensor<3xtensor<3xf32>>) {
    %r0 = bcast.add %a, %b : (tensor<2xtensor<3xf32>>, tensor<1xtensor<2x1xf32>>) -> tensor<2xtensor<2x3xf32>>
    %r1 = bcast.multiply %s, %n : (tensor<f32>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf32>>
    %r2 = bcast.subtract %n, %v : (tensor<3xtensor<3x3xf32>>, tensor<3xf32>) -> tensor<3xtensor<3x3xf32>>
    %r3 = bcast.add %i, %n : (tensor<3xtensor<3xf32>>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf32>>
    %r4 = bcast.compare GT, %s, %n : (tensor<f32>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xi1>>
    func.return
  }
}

// -----

// narrow is a reshape; a narrow that removes nothing disappears.
module attributes {bcast.semantics = "tml"} {
// CHECK-LABEL: func.func @narrow
// CHECK-NEXT:    %[[N:.*]] = bcast.reshape %e : (tensor<1x5x1xi32>) -> tensor<5xi32>
// CHECK-NEXT:    %[[C:.*]] = bcast.reshape %c : (tensor<1xi32>) -> tensor<i32>
// CHECK-NEXT:    %[[I:.*]] = bcast.reshape %i : (tensor<1x1xtensor<2x1xi32>>) -> tensor<2x1xi32>
// CHECK-NEXT:    func.return %[[N]], %[[C]], %g, %[[I]] : tensor<5xi32>, tensor<i32>, tensor<5x5xi32>, tensor<2x1xi32>
  func.func @narrow(%e: tensor<1x5x1xi32>, %c: tensor<1xi32>, %g: tensor<5x5xi32>, %i: tensor<1x1xtensor<2x1xi32>>) -> (tensor<5xi32>, tensor<i32>, tensor<5x5xi32>, tensor<2x1xi32>) {
    %f = bcast.narrow %e : (tensor<1x5x1xi32>) -> tensor<5xi32>
    %d = bcast.narrow %c : (tensor<1xi32>) -> tensor<i32>
    %h = bcast.narrow %g : (tensor<5x5xi32>) -> tensor<5x5xi32>
    %j = bcast.narrow %i : (tensor<1x1xtensor<2x1xi32>>) -> tensor<2x1xi32>
    func.return %f, %d, %h, %j : tensor<5xi32>, tensor<i32>, tensor<5x5xi32>, tensor<2x1xi32>
  }
}

// -----

// Index-access broadcasting: indices on size-1 dims become 0, surplus indices
// are dropped; an extract left without indices is its operand.
module attributes {bcast.semantics = "tml"} {
// CHECK-LABEL: func.func @extract_iab
// CHECK-NEXT:    %[[E0:.*]] = bcast.extract %a[0, 1] : (tensor<1x2xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[E1:.*]] = bcast.extract %a[0, 0] : (tensor<1x2xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[E2:.*]] = bcast.extract %a[0, %i] : (tensor<1x2xf32>, index) -> tensor<f32>
// CHECK-NEXT:    %[[E3:.*]] = bcast.extract %m[2] : (tensor<3x2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[E4:.*]] = bcast.extract %m[%i, 1] : (tensor<3x2xf32>, index) -> tensor<f32>
// CHECK-NEXT:    func.return %[[E0]], %[[E1]], %[[E2]], %s, %[[E3]], %[[E4]]
  func.func @extract_iab(%a: tensor<1x2xf32>, %s: tensor<f32>, %m: tensor<3x2xf32>, %i: index) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<f32>) {
    %e0 = bcast.extract %a[999, 1] : (tensor<1x2xf32>) -> tensor<f32>
    %e1 = bcast.extract %a[999, 0, 1000, 2000] : (tensor<1x2xf32>) -> tensor<f32>
    %e2 = bcast.extract %a[%i, %i, %i] : (tensor<1x2xf32>, index, index, index) -> tensor<f32>
    %e3 = bcast.extract %s[4, 5] : (tensor<f32>) -> tensor<f32>
    %e4 = bcast.extract %m[2] : (tensor<3x2xf32>) -> tensor<2xf32>
    %e5 = bcast.extract %m[%i, 1] : (tensor<3x2xf32>, index) -> tensor<f32>
    func.return %e0, %e1, %e2, %e3, %e4, %e5 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<f32>
  }
}

// -----

// assign: the source is converted and broadcast to the indexed destination.
// CHECK-LABEL: func.func @assign
// EXPAND-NEXT:   %[[S:.*]] = bcast.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
// RESHAPE-NEXT:  %[[S0:.*]] = bcast.reshape %a : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
// RESHAPE-NEXT:  %[[S:.*]] = bcast.broadcast_in_dim %[[S0]], dims = [1, 2] : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = bcast.assign %x, %[[S]] : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[H:.*]] = bcast.convert %h : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    %[[H1:.*]] = bcast.broadcast_in_dim %[[H]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = bcast.assign %x[1], %[[H1]] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[K:.*]] = bcast.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT:    %{{.*}} = bcast.assign %x[%i, 2], %[[K]] : (tensor<2x3x4xf32>, index, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = bcast.assign %x[0, 1, 2], %k : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
func.func @assign(%x: tensor<2x3x4xf32>, %a: tensor<1x3x4xf32>, %h: tensor<4xf16>, %k: tensor<f32>, %i: index) {
  %r0 = bcast.assign %x, %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  %r1 = bcast.assign %x[1], %h : (tensor<2x3x4xf32>, tensor<4xf16>) -> tensor<2x3x4xf32>
  %r2 = bcast.assign %x[%i, 2], %k : (tensor<2x3x4xf32>, index, tensor<f32>) -> tensor<2x3x4xf32>
  %r3 = bcast.assign %x[0, 1, 2], %k : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

// assign with index-access broadcasting on the destination (TML: a[1] = 2
// on a scalar assigns the scalar).
module attributes {bcast.semantics = "tml"} {
// CHECK-LABEL: func.func @assign_iab
// CHECK-NEXT:    %[[V:.*]] = bcast.convert %v : (tensor<3xui8>) -> tensor<3xi32>
// CHECK-NEXT:    %{{.*}} = bcast.assign %d[0], %[[V]] : (tensor<1x3xi32>, tensor<3xi32>) -> tensor<1x3xi32>
// CHECK-NEXT:    %{{.*}} = bcast.assign %s, %k : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %[[T:.*]] = bcast.convert %b : (tensor<1xtensor<2xi8>>) -> tensor<1xtensor<2xi32>>
// EXPAND-NEXT:   %[[T1:.*]] = bcast.broadcast_in_dim %[[T]], dims = [0, 1] : (tensor<1xtensor<2xi32>>) -> tensor<3xtensor<2xi32>>
// RESHAPE-NEXT:  %[[T0:.*]] = bcast.reshape %[[T]] : (tensor<1xtensor<2xi32>>) -> tensor<2xi32>
// RESHAPE-NEXT:  %[[T1:.*]] = bcast.broadcast_in_dim %[[T0]], dims = [1] : (tensor<2xi32>) -> tensor<3xtensor<2xi32>>
// CHECK-NEXT:    %{{.*}} = bcast.assign %n, %[[T1]] : (tensor<3xtensor<2xi32>>, tensor<3xtensor<2xi32>>) -> tensor<3xtensor<2xi32>>
  func.func @assign_iab(%d: tensor<1x3xi32>, %v: tensor<3xui8>, %s: tensor<i32>, %k: tensor<i32>, %n: tensor<3xtensor<2xi32>>, %b: tensor<1xtensor<2xi8>>) {
    %r0 = bcast.assign %d[7], %v : (tensor<1x3xi32>, tensor<3xui8>) -> tensor<1x3xi32>
    %r1 = bcast.assign %s[1, 2, 3], %k : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %r2 = bcast.assign %n, %b : (tensor<3xtensor<2xi32>>, tensor<1xtensor<2xi8>>) -> tensor<3xtensor<2xi32>>
    func.return
  }
}

// -----

// Existing broadcast_in_dim ops: a transposing one gets a transpose first (the
// output verifies under xla semantics) unless, with degenerate=reshape, only
// size-1 dims were out of order; with degenerate=reshape an expanding one
// drops its size-1 dims; an identity one disappears.
// CHECK-LABEL: func.func @existing_broadcasts
// EXPAND-NEXT:   %[[T:.*]] = bcast.transpose %x, dims = [1, 0] : (tensor<1x3xf32>) -> tensor<3x1xf32>
// EXPAND-NEXT:   %{{.*}} = bcast.broadcast_in_dim %[[T]], dims = [1, 2] : (tensor<3x1xf32>) -> tensor<2x3x2xf32>
// RESHAPE-NEXT:  %[[X:.*]] = bcast.reshape %x : (tensor<1x3xf32>) -> tensor<3xf32>
// RESHAPE-NEXT:  %{{.*}} = bcast.broadcast_in_dim %[[X]], dims = [1] : (tensor<3xf32>) -> tensor<2x3x2xf32>
// EXPAND-NEXT:   %{{.*}} = bcast.broadcast_in_dim %c, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
// RESHAPE-NEXT:  %[[C0:.*]] = bcast.reshape %c : (tensor<4x1xf32>) -> tensor<4xf32>
// RESHAPE-NEXT:  %{{.*}} = bcast.broadcast_in_dim %[[C0]], dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = bcast.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = bcast.broadcast_in_dim %[[Y]], dims = [0, 2] : (tensor<3x2xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT:    func.return %{{.*}}, %{{.*}}, %c, %{{.*}}
func.func @existing_broadcasts(%x: tensor<1x3xf32>, %c: tensor<4x1xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3x2xf32>, tensor<4x3xf32>, tensor<4x1xf32>, tensor<3x4x2xf32>) {
  %b0 = bcast.broadcast_in_dim %x, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  %b1 = bcast.broadcast_in_dim %c, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %b2 = bcast.broadcast_in_dim %c, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %b3 = bcast.broadcast_in_dim %y, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  func.return %b0, %b1, %b2, %b3 : tensor<2x3x2xf32>, tensor<4x3xf32>, tensor<4x1xf32>, tensor<3x4x2xf32>
}

// -----

// Unary ops never broadcast; a chain is handled op by op.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[E:.*]] = bcast.exponential %a : tensor<4x1xf32>
// EXPAND-NEXT:   %[[A:.*]] = bcast.broadcast_in_dim %[[E]], dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
// RESHAPE-NEXT:  %[[E0:.*]] = bcast.reshape %[[E]] : (tensor<4x1xf32>) -> tensor<4xf32>
// RESHAPE-NEXT:  %[[A:.*]] = bcast.broadcast_in_dim %[[E0]], dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[S:.*]] = bcast.add %[[A]], %[[B]] : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[H:.*]] = bcast.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
// CHECK-NEXT:    bcast.multiply %[[S]], %[[H]] : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @chain(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %half: tensor<f32>) -> tensor<4x3xf32> {
  %e = bcast.exponential %a : tensor<4x1xf32>
  %s = bcast.add %e, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %m = bcast.multiply %s, %half : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  func.return %m : tensor<4x3xf32>
}

// -----

// Reductions are left alone; the broadcast of a keepdims result back to the
// operand's shape becomes explicit (with reshape: drop the 1, then broadcast).
// CHECK-LABEL: func.func @keepdims_result_broadcasts_back
//  CHECK-NEXT:   %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<3x4xf32>) -> tensor<3x1xf32>
// EXPAND-NEXT:   %[[B:.*]] = bcast.broadcast_in_dim %m, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>
// RESHAPE-NEXT:  %[[R:.*]] = bcast.reshape %m : (tensor<3x1xf32>) -> tensor<3xf32>
// RESHAPE-NEXT:  %[[B:.*]] = bcast.broadcast_in_dim %[[R]], dims = [0] : (tensor<3xf32>) -> tensor<3x4xf32>
//  CHECK-NEXT:   %d = bcast.subtract %x, %[[B]] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
func.func @keepdims_result_broadcasts_back(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<3x4xf32>) -> tensor<3x1xf32>
  %d = bcast.subtract %x, %m : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  func.return %d : tensor<3x4xf32>
}
