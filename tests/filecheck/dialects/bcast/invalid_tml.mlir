// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// TML: logical, relational and bitwise operations broadcast only from a
// scalar; otherwise both operands need identical shapes at every nesting level.

module attributes {bcast.semantics = "tml"} {
func.func @relational_vector_matrix(%b: tensor<3xi32>, %c: tensor<3x3xi32>) {
  // expected-error @+1 {{'bcast.compare' op relational operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %0 = bcast.compare GT, %b, %c : (tensor<3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

// A size-1 dimension is not a scalar: no degenerate broadcasting either.
module attributes {bcast.semantics = "tml"} {
func.func @relational_degenerate(%a: tensor<1x3xf32>, %c: tensor<3x3xf32>) {
  // expected-error @+1 {{relational operations under tml semantics need a scalar operand or identical shapes}}
  %0 = bcast.compare LE, %a, %c : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<3x3xi1>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @relational_nested(%a: tensor<3xtensor<3xi32>>, %b: tensor<3xtensor<1xi32>>) {
  // expected-error @+1 {{relational operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %0 = bcast.compare EQ, %a, %b : (tensor<3xtensor<3xi32>>, tensor<3xtensor<1xi32>>) -> tensor<3xtensor<3xi1>>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

// Same flat shape, different nesting: 3x(3x3) is not 3x3x3.
module attributes {bcast.semantics = "tml"} {
func.func @relational_nesting_level(%a: tensor<3xtensor<3x3xf32>>, %b: tensor<3x3x3xf32>) {
  // expected-error @+1 {{relational operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %0 = bcast.compare NE, %a, %b : (tensor<3xtensor<3x3xf32>>, tensor<3x3x3xf32>) -> tensor<3x3x3xi1>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

// Relational operations take numeric operands.
module attributes {bcast.semantics = "tml"} {
func.func @relational_bool(%p: tensor<3xi1>, %q: tensor<3xi1>) {
  // expected-error @+1 {{'bcast.compare' op operands must be numeric (integer or floating-point), got element type i1}}
  %0 = bcast.compare EQ, %p, %q : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  // expected-note @-1 {{tml relational operations take numeric operands}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @logical(%p: tensor<3xi1>, %q: tensor<3x3xi1>) {
  // expected-error @+1 {{'bcast.and' op logical operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %0 = bcast.and %p, %q : (tensor<3xi1>, tensor<3x3xi1>) -> tensor<3x3xi1>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @logical_dims(%p: tensor<3xi1>, %q: tensor<3x3xi1>) {
  // expected-error @+1 {{'bcast.or' op broadcast_dimensions are not allowed on logical operations under tml semantics}}
  %0 = bcast.or %p, %q broadcast_dimensions = [1] : (tensor<3xi1>, tensor<3x3xi1>) -> tensor<3x3xi1>
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @bitwise(%u: tensor<3xui8>, %w: tensor<3x3xui8>) {
  // expected-error @+1 {{'bcast.xor' op bitwise operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %0 = bcast.xor %u, %w : (tensor<3xui8>, tensor<3x3xui8>) -> tensor<3x3xui8>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @shift(%u: tensor<3x1xui32>, %w: tensor<3x3xui32>) {
  // expected-error @+1 {{'bcast.shift_left' op bitwise operations under tml semantics need a scalar operand or identical shapes}}
  %0 = bcast.shift_left %u, %w : (tensor<3x1xui32>, tensor<3x3xui32>) -> tensor<3x3xui32>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

// Bitwise operations take unsigned integers (logical ones i1).
module attributes {bcast.semantics = "tml"} {
func.func @bitwise_signed(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.and' op operands must be boolean (i1) or unsigned integer, got element type i32}}
  %0 = bcast.and %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // expected-note @-1 {{tml logical operations take i1, bitwise operations unsigned integers}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @shift_signed(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.shift_right_arithmetic' op operands must be unsigned integer, got element type i32}}
  %0 = bcast.shift_right_arithmetic %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // expected-note @-1 {{tml bitwise operations take unsigned integers}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @not_signed(%a: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.not' op operands must be boolean (i1) or unsigned integer, got element type i32}}
  %0 = bcast.not %a : tensor<3xi32>
  func.return
}
}

// -----

// Arithmetic operations broadcast per nesting level.
module attributes {bcast.semantics = "tml"} {
func.func @arithmetic_nested(%a: tensor<3xtensor<3xi32>>, %b: tensor<3xtensor<2xi32>>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<3xtensor<3xi32>> and tensor<3xtensor<2xi32>>}}
  %0 = bcast.add %a, %b : (tensor<3xtensor<3xi32>>, tensor<3xtensor<2xi32>>) -> tensor<3xtensor<3xi32>>
  // expected-note @-1 {{nesting level 1, dimension -1: 3 vs 2 (neither is 1)}}
  // expected-note @-2 {{nesting level 1, aligned from the right: 3}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @arithmetic_outer(%a: tensor<3xtensor<3xi32>>, %b: tensor<2xi32>) {
  // expected-error @+1 {{operands are not broadcast-compatible: tensor<3xtensor<3xi32>> and tensor<2xi32>}}
  %0 = bcast.add %a, %b : (tensor<3xtensor<3xi32>>, tensor<2xi32>) -> tensor<3xtensor<3xi32>>
  // expected-note @-1 {{nesting level 0, aligned from the right: 3}}
  // expected-note @-2 {{nesting level 0, dimension -1: 3 vs 2 (neither is 1)}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @nested_dims(%a: tensor<3xtensor<3xi32>>, %b: tensor<3xtensor<1xi32>>) {
  // expected-error @+1 {{'bcast.add' op broadcast_dimensions are not allowed on nested tensors}}
  %0 = bcast.add %a, %b broadcast_dimensions = [0] : (tensor<3xtensor<3xi32>>, tensor<3xtensor<1xi32>>) -> tensor<3xtensor<3xi32>>
  func.return
}
}

// -----

// Nested tensor types need tml semantics (numpy and xla reject them).
func.func @nested_numpy(%a: tensor<3xtensor<3xi32>>) {
  // expected-error @+1 {{'bcast.add' op nested tensor types need tml semantics}}
  %0 = bcast.add %a, %a : (tensor<3xtensor<3xi32>>, tensor<3xtensor<3xi32>>) -> tensor<3xtensor<3xi32>>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

func.func @nested_numpy_unary(%a: tensor<3xtensor<3xf32>>) {
  // expected-error @+1 {{'bcast.negate' op nested tensor types need tml semantics}}
  %0 = bcast.negate %a : tensor<3xtensor<3xf32>>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

func.func @nested_numpy_narrow(%a: tensor<1xtensor<3xf32>>) {
  // expected-error @+1 {{'bcast.narrow' op nested tensor types need tml semantics}}
  %0 = bcast.narrow %a : (tensor<1xtensor<3xf32>>) -> tensor<3xf32>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

func.func @nested_numpy_extract(%a: tensor<3xtensor<3xf32>>) {
  // expected-error @+1 {{'bcast.extract' op nested tensor types need tml semantics}}
  %0 = bcast.extract %a[0] : (tensor<3xtensor<3xf32>>) -> tensor<3xf32>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @nested_xla(%a: tensor<3xtensor<3xf32>>, %s: tensor<f32>) {
  // expected-error @+1 {{'bcast.multiply' op nested tensor types need tml semantics}}
  %0 = bcast.multiply %a, %s : (tensor<3xtensor<3xf32>>, tensor<f32>) -> tensor<3xtensor<3xf32>>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}
}

// -----

// Assignment keeps the destination type: the source must broadcast to the
// indexed destination without changing it.
module attributes {bcast.semantics = "tml"} {
func.func @assign_length(%a: tensor<3xi32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'bcast.assign' op the source does not broadcast to the indexed destination: dimension -1: 2 vs 3}}
  %0 = bcast.assign %a, %b : (tensor<3xi32>, tensor<2xi32>) -> tensor<3xi32>
  // expected-note @-1 {{source shape 2, indexed destination shape 3: a source dimension must equal the destination's or be 1}}
  func.return
}
}

// -----

// The Array API example: x[1, ...] = a with a of shape (1, 3, 4) is an error
// (even though NumPy accepts it).
module attributes {bcast.semantics = "tml"} {
func.func @assign_array_api(%x: tensor<2x3x4xf32>, %a: tensor<1x3x4xf32>) {
  // expected-error @+1 {{'bcast.assign' op the source has rank 3, more than the indexed destination's 2}}
  %0 = bcast.assign %x[1], %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  // expected-note @-1 {{source shape 1x3x4 cannot broadcast to 3x4 without changing the destination}}
  func.return
}
}

// -----

// The source may not grow the destination (a binary op would give 3x3).
module attributes {bcast.semantics = "tml"} {
func.func @assign_grows(%a: tensor<1x3xi32>, %b: tensor<3x1xi32>) {
  // expected-error @+1 {{the source does not broadcast to the indexed destination: dimension -2: 3 vs 1}}
  %0 = bcast.assign %a, %b : (tensor<1x3xi32>, tensor<3x1xi32>) -> tensor<1x3xi32>
  // expected-note @-1 {{source shape 3x1, indexed destination shape 1x3: a source dimension must equal the destination's or be 1}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @assign_nested(%a: tensor<3xtensor<1xi32>>, %b: tensor<3xtensor<3xi32>>) {
  // expected-error @+1 {{the source does not broadcast to the indexed destination: dimension -1: 3 vs 1 at nesting level 1}}
  %0 = bcast.assign %a, %b : (tensor<3xtensor<1xi32>>, tensor<3xtensor<3xi32>>) -> tensor<3xtensor<1xi32>>
  // expected-note @-1 {{source shape 3, indexed destination shape 1: a source dimension must equal the destination's or be 1}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @assign_flat_into_nested(%a: tensor<3xtensor<3xi32>>, %b: tensor<3x3xi32>) {
  // expected-error @+1 {{the source has rank 2, more than the indexed destination's 1 at nesting level 0}}
  %0 = bcast.assign %a, %b : (tensor<3xtensor<3xi32>>, tensor<3x3xi32>) -> tensor<3xtensor<3xi32>>
  // expected-note @-1 {{source shape 3x3 cannot broadcast to 3 without changing the destination}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @assign_deeper(%a: tensor<3xi32>, %b: tensor<3xtensor<1xi32>>) {
  // expected-error @+1 {{'bcast.assign' op the source is nested deeper than the destination}}
  %0 = bcast.assign %a, %b : (tensor<3xi32>, tensor<3xtensor<1xi32>>) -> tensor<3xi32>
  func.return
}
}

// -----

// base_type(B) <= base_type(A): a float does not assign into an int.
module attributes {bcast.semantics = "tml"} {
func.func @assign_type(%a: tensor<3xi32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.assign' op source element type f32 does not convert implicitly to the destination's i32}}
  %0 = bcast.assign %a, %b : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xi32>
  // expected-note @-1 {{assignment keeps the destination type; insert a bcast.convert}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @assign_narrower(%a: tensor<3xi8>, %b: tensor<3xi32>) {
  // expected-error @+1 {{source element type i32 does not convert implicitly to the destination's i8}}
  %0 = bcast.assign %a, %b : (tensor<3xi8>, tensor<3xi32>) -> tensor<3xi8>
  // expected-note @-1 {{assignment keeps the destination type; insert a bcast.convert}}
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @assign_result(%a: tensor<3xi32>, %s: tensor<i32>) {
  // expected-error @+1 {{'bcast.assign' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3x3xi32>'}}
  %0 = bcast.assign %a, %s : (tensor<3xi32>, tensor<i32>) -> tensor<3x3xi32>
  func.return
}
}
