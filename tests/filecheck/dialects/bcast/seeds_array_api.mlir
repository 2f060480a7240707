// RUN: bcast-opt %s --split-input-file --verify-diagnostics | filecheck %s
// Arithmetic under tml follows the same (NumPy) rule, with the same results.
// RUN: bcast-opt %s --split-input-file --verify-diagnostics --semantics tml | filecheck %s

// Every example of seeds/array-api-broadcasting.txt. Valid ones verify with
// the inferred result type; invalid ones give the diagnostic.

// A (4d array): 8 x 1 x 6 x 1; B (3d array): 7 x 1 x 5; Result: 8 x 7 x 6 x 5
// CHECK-LABEL: func.func @example_1
// CHECK: %r = bcast.add %a, %b : (tensor<8x1x6x1xf32>, tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32>
func.func @example_1(%a: tensor<8x1x6x1xf32>, %b: tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32> {
  %r = bcast.add %a, %b : (tensor<8x1x6x1xf32>, tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32>
  func.return %r : tensor<8x7x6x5xf32>
}

// A (2d array): 5 x 4; B (1d array): 1; Result: 5 x 4
// CHECK-LABEL: func.func @example_2
// CHECK: %r = bcast.add %a, %b : (tensor<5x4xf32>, tensor<1xf32>) -> tensor<5x4xf32>
func.func @example_2(%a: tensor<5x4xf32>, %b: tensor<1xf32>) -> tensor<5x4xf32> {
  %r = bcast.add %a, %b : (tensor<5x4xf32>, tensor<1xf32>) -> tensor<5x4xf32>
  func.return %r : tensor<5x4xf32>
}

// A (2d array): 5 x 4; B (1d array): 4; Result: 5 x 4
// CHECK-LABEL: func.func @example_3
// CHECK: %r = bcast.add %a, %b : (tensor<5x4xf32>, tensor<4xf32>) -> tensor<5x4xf32>
func.func @example_3(%a: tensor<5x4xf32>, %b: tensor<4xf32>) -> tensor<5x4xf32> {
  %r = bcast.add %a, %b : (tensor<5x4xf32>, tensor<4xf32>) -> tensor<5x4xf32>
  func.return %r : tensor<5x4xf32>
}

// A (3d array): 15 x 3 x 5; B (3d array): 15 x 1 x 5; Result: 15 x 3 x 5
// CHECK-LABEL: func.func @example_4
// CHECK: %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<15x1x5xf32>) -> tensor<15x3x5xf32>
func.func @example_4(%a: tensor<15x3x5xf32>, %b: tensor<15x1x5xf32>) -> tensor<15x3x5xf32> {
  %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<15x1x5xf32>) -> tensor<15x3x5xf32>
  func.return %r : tensor<15x3x5xf32>
}

// A (3d array): 15 x 3 x 5; B (2d array): 3 x 5; Result: 15 x 3 x 5
// CHECK-LABEL: func.func @example_5
// CHECK: %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<3x5xf32>) -> tensor<15x3x5xf32>
func.func @example_5(%a: tensor<15x3x5xf32>, %b: tensor<3x5xf32>) -> tensor<15x3x5xf32> {
  %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<3x5xf32>) -> tensor<15x3x5xf32>
  func.return %r : tensor<15x3x5xf32>
}

// A (3d array): 15 x 3 x 5; B (2d array): 3 x 1; Result: 15 x 3 x 5
// CHECK-LABEL: func.func @example_6
// CHECK: %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<3x1xf32>) -> tensor<15x3x5xf32>
func.func @example_6(%a: tensor<15x3x5xf32>, %b: tensor<3x1xf32>) -> tensor<15x3x5xf32> {
  %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<3x1xf32>) -> tensor<15x3x5xf32>
  func.return %r : tensor<15x3x5xf32>
}

// The algorithm is symmetric: B op A has the same result shape.
// CHECK-LABEL: func.func @example_1_swapped
// CHECK: %r = bcast.multiply %b, %a : (tensor<7x1x5xf32>, tensor<8x1x6x1xf32>) -> tensor<8x7x6x5xf32>
func.func @example_1_swapped(%a: tensor<8x1x6x1xf32>, %b: tensor<7x1x5xf32>) -> tensor<8x7x6x5xf32> {
  %r = bcast.multiply %b, %a : (tensor<7x1x5xf32>, tensor<8x1x6x1xf32>) -> tensor<8x7x6x5xf32>
  func.return %r : tensor<8x7x6x5xf32>
}

// -----

// A (1d array): 3; B (1d array): 4 # dimension does not match
func.func @no_broadcast_1(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<3xf32> and tensor<4xf32>}}
  %r = bcast.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-note @-1 {{dimension -1: 3 vs 4 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 3}}
  func.return
}

// -----

// A (2d array): 2 x 1; B (3d array): 8 x 4 x 3 # second dimension does not match
func.func @no_broadcast_2(%a: tensor<2x1xf32>, %b: tensor<8x4x3xf32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<2x1xf32> and tensor<8x4x3xf32>}}
  %r = bcast.add %a, %b : (tensor<2x1xf32>, tensor<8x4x3xf32>) -> tensor<8x4x3xf32>
  // expected-note @-1 {{aligned from the right:     2 x 1}}
  // expected-note @-2 {{dimension -2: 2 vs 4 (neither is 1)}}
  func.return
}

// -----

// A (3d array): 15 x 3 x 5; B (2d array): 15 x 3
// # singleton dimensions can only be prepended, not appended
func.func @no_broadcast_3(%a: tensor<15x3x5xf32>, %b: tensor<15x3xf32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<15x3x5xf32> and tensor<15x3xf32>}}
  %r = bcast.add %a, %b : (tensor<15x3x5xf32>, tensor<15x3xf32>) -> tensor<15x3x5xf32>
  // expected-note @-1 {{dimension -2: 3 vs 15 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 15 x  3 x 5}}
  func.return
}

// -----

// In-place semantics: x = empty((2, 3, 4)); a = empty((1, 3, 4))
// x[...] = a is OK: (1, 3, 4) broadcasts to the shape of x[...], (2, 3, 4).
// CHECK-LABEL: func.func @in_place_ok
// CHECK: %y = bcast.assign %x, %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
func.func @in_place_ok(%x: tensor<2x3x4xf32>, %a: tensor<1x3x4xf32>) -> tensor<2x3x4xf32> {
  %y = bcast.assign %x, %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %y : tensor<2x3x4xf32>
}

// -----

// x[1, ...] = a is not allowed: (1, 3, 4) can NOT broadcast to the shape of
// x[1, ...], (3, 4).
func.func @in_place_error(%x: tensor<2x3x4xf32>, %a: tensor<1x3x4xf32>) {
  // expected-error @+1 {{'bcast.assign' op the source has rank 3, more than the indexed destination's 2}}
  %y = bcast.assign %x[1], %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  // expected-note @-1 {{source shape 1x3x4 cannot broadcast to 3x4 without changing the destination}}
  func.return
}

// -----

// An in-place element-wise op must not change the shape of the in-place
// array: x += b with b of shape (2, 1, 4) is fine, written as an add whose
// result is assigned back into x.
// CHECK-LABEL: func.func @in_place_elementwise
// CHECK: %s = bcast.add %x, %b : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK: %y = bcast.assign %x, %s : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
func.func @in_place_elementwise(%x: tensor<2x3x4xf32>, %b: tensor<2x1x4xf32>) -> tensor<2x3x4xf32> {
  %s = bcast.add %x, %b : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %y = bcast.assign %x, %s : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %y : tensor<2x3x4xf32>
}

// -----

// ... but x += c with x of shape (1, 3, 4) and c of shape (2, 3, 4) would
// change the shape of x: the sum has shape (2, 3, 4) and cannot be stored back.
func.func @in_place_grows(%x: tensor<1x3x4xf32>, %c: tensor<2x3x4xf32>) {
  %s = bcast.add %x, %c : (tensor<1x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // expected-error @+1 {{'bcast.assign' op the source does not broadcast to the indexed destination: dimension -3: 2 vs 1}}
  %y = bcast.assign %x, %s : (tensor<1x3x4xf32>, tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  // expected-note @-1 {{source shape 2x3x4, indexed destination shape 1x3x4: a source dimension must equal the destination's or be 1}}
  func.return
}
