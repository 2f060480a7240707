// RUN: bcast-opt %s --split-input-file --verify-diagnostics
// RUN: cd %S && not bcast-opt invalid_elementwise.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=DIAG --strict-whitespace --match-full-lines

// The example of docs/contracts.md (Diagnostics), at line 7, column 10, as there.
func.func @design_example(%a: tensor<2x1xf32>, %b: tensor<8x4x3xf32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<2x1xf32> and tensor<8x4x3xf32>}}
    %0 = bcast.add %a, %b : (tensor<2x1xf32>, tensor<8x4x3xf32>) -> tensor<8x4x3xf32>
  // expected-note @-1 {{aligned from the right:     2 x 1}}
  // expected-note @-2 {{dimension -2: 2 vs 4 (neither is 1)}}
  func.return
}

// The exact rendering (no --verify-diagnostics): file:line:col on every line,
// the aligned shapes column by column, continuation lines under the first.
//      DIAG:invalid_elementwise.mlir:7:10: error: 'bcast.add' op operands are not broadcast-compatible: tensor<2x1xf32> and tensor<8x4x3xf32>
// DIAG-NEXT:invalid_elementwise.mlir:7:10: note: aligned from the right:     2 x 1
// DIAG-NEXT:                                                             8 x 4 x 3
// DIAG-NEXT:invalid_elementwise.mlir:7:10: note: dimension -2: 2 vs 4 (neither is 1)
// DIAG-NEXT:invalid_elementwise.mlir:[[# @LINE + 6]]:8: error: 'bcast.add' op operands are not broadcast-compatible: tensor<3xf32> and tensor<4xf32>

// -----

func.func @mismatch(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operands are not broadcast-compatible: tensor<3xf32> and tensor<4xf32>}}
  %0 = bcast.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-note @-1 {{dimension -1: 3 vs 4 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 3}}
  func.return
}

// -----

// Singleton dimensions are only prepended, never appended.
func.func @append(%a: tensor<15x3x5xf32>, %b: tensor<15x3xf32>) {
  // expected-error @+1 {{operands are not broadcast-compatible: tensor<15x3x5xf32> and tensor<15x3xf32>}}
  %0 = bcast.multiply %a, %b : (tensor<15x3x5xf32>, tensor<15x3xf32>) -> tensor<15x3x5xf32>
  // expected-note @-1 {{dimension -2: 3 vs 15 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 15 x  3 x 5}}
  func.return
}

// -----

// The same rule for compare.
func.func @compare(%a: tensor<2x3xi32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'bcast.compare' op operands are not broadcast-compatible: tensor<2x3xi32> and tensor<2xi32>}}
  %0 = bcast.compare LT, %a, %b : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi1>
  // expected-note @-1 {{dimension -1: 3 vs 2 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 2 x 3}}
  func.return
}

// -----

// And for logical ops.
func.func @logical(%a: tensor<4x1xi1>, %b: tensor<3x3xi1>) {
  // expected-error @+1 {{'bcast.or' op operands are not broadcast-compatible: tensor<4x1xi1> and tensor<3x3xi1>}}
  %0 = bcast.or %a, %b : (tensor<4x1xi1>, tensor<3x3xi1>) -> tensor<4x3xi1>
  // expected-note @-1 {{aligned from the right: 4 x 1}}
  // expected-note @-2 {{dimension -2: 4 vs 3 (neither is 1)}}
  func.return
}

// -----

// select broadcasts all three operands together.
func.func @select(%p: tensor<2x1xi1>, %t: tensor<3xf32>, %f: tensor<4x3x1xf32>) {
  // expected-error @+1 {{'bcast.select' op operands are not broadcast-compatible: tensor<2x1xi1>, tensor<3xf32>, tensor<4x3x1xf32>}}
  %0 = bcast.select %p, %t, %f : (tensor<2x1xi1>, tensor<3xf32>, tensor<4x3x1xf32>) -> tensor<4x2x3xf32>
  // expected-note @-1 {{dimension -2: 2 vs 1 vs 3 (sizes other than 1 differ)}}
  // expected-note @-2 {{aligned from the right:     2 x 1}}
  func.return
}

// -----

// Zero-size dimensions are sizes like any other: 0 vs 3 does not broadcast.
func.func @zero(%a: tensor<0x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{operands are not broadcast-compatible: tensor<0x3xf32> and tensor<3x3xf32>}}
  %0 = bcast.add %a, %b : (tensor<0x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  // expected-note @-1 {{dimension -2: 0 vs 3 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 0 x 3}}
  func.return
}

// -----

// broadcast_dimensions may be written under numpy semantics too, and is checked.
func.func @bcast_dims(%v: tensor<4xf32>, %m: tensor<4x3xf32>) {
  // expected-error @+1 {{broadcast_dimensions maps dimension 0 (size 4) of the lower-rank operand to dimension 1 (size 3) of the higher-rank operand}}
  %0 = bcast.add %v, %m broadcast_dimensions = [1] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

// Type promotion: mixing kinds is an error that suggests bcast.convert.
func.func @int_plus_float(%a: tensor<3xi32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.add' op element types i32 and f32 are of different kinds (signed and float) and do not promote}}
  %0 = bcast.add %a, %b : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{insert an explicit bcast.convert}}
  func.return
}

// -----

func.func @unsigned_plus_float(%a: tensor<ui8>, %b: tensor<2xf16>) {
  // expected-error @+1 {{element types ui8 and f16 are of different kinds (unsigned and float) and do not promote}}
  %0 = bcast.multiply %a, %b : (tensor<ui8>, tensor<2xf16>) -> tensor<2xf16>
  // expected-note @-1 {{insert an explicit bcast.convert to choose the common type}}
  func.return
}

// -----

func.func @bool_vs_int(%a: tensor<3xi1>, %b: tensor<3xi32>) {
  // expected-error @+1 {{element types i1 and i32 are of different kinds (bool and signed) and do not promote}}
  %0 = bcast.compare EQ, %a, %b : (tensor<3xi1>, tensor<3xi32>) -> tensor<3xi1>
  // expected-note @-1 {{insert an explicit bcast.convert}}
  func.return
}

// -----

func.func @select_branches(%p: tensor<3xi1>, %t: tensor<3xi32>, %f: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.select' op element types i32 and f32 are of different kinds}}
  %0 = bcast.select %p, %t, %f : (tensor<3xi1>, tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{insert an explicit bcast.convert to choose the common type}}
  func.return
}

// -----

// ui64 and i8 have no common integer type (it would need 128 bits).
func.func @no_common_int(%a: tensor<3xui64>, %b: tensor<3xi8>) {
  // expected-error @+1 {{no integer type holds both ui64 and i8}}
  %0 = bcast.add %a, %b : (tensor<3xui64>, tensor<3xi8>) -> tensor<3xi64>
  // expected-note @-1 {{convert one operand explicitly with bcast.convert}}
  func.return
}

// -----

// Promotion happens (i8 + i32 -> i32): declaring the narrower type is an error.
func.func @promoted_result(%a: tensor<3xi8>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.add' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xi8>'}}
  %0 = bcast.add %a, %b : (tensor<3xi8>, tensor<3xi32>) -> tensor<3xi8>
  func.return
}

// -----

// ui8 + i8 -> i16.
func.func @mixed_sign_result(%a: tensor<3xui8>, %b: tensor<3xi8>) {
  // expected-error @+1 {{inferred type(s) 'tensor<3xi16>' are incompatible with return type(s) of operation 'tensor<3xi8>'}}
  %0 = bcast.add %a, %b : (tensor<3xui8>, tensor<3xi8>) -> tensor<3xi8>
  func.return
}

// -----

func.func @broadcast_result(%a: tensor<4x1xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  %0 = bcast.subtract %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x1xf32>
  func.return
}

// -----

func.func @compare_result(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.compare' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = bcast.compare GE, %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

// Element kinds each op accepts.
func.func @atan2_int(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.atan2' op operands must be floating-point or complex, got element type i32}}
  %0 = bcast.atan2 %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  func.return
}

// -----

func.func @add_bool(%a: tensor<3xi1>, %b: tensor<3xi1>) {
  // expected-error @+1 {{'bcast.add' op operands must be numeric (integer, floating-point or complex), got element type i1}}
  %0 = bcast.add %a, %b : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return
}

// -----

func.func @and_float(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.and' op operands must be boolean or integer, got element type f32}}
  %0 = bcast.and %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @shift_float(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.shift_right_logical' op operands must be integer, got element type f32}}
  %0 = bcast.shift_right_logical %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @shift_bool(%a: tensor<3xi1>, %b: tensor<3xi1>) {
  // expected-error @+1 {{'bcast.shift_left' op operands must be integer, got element type i1}}
  %0 = bcast.shift_left %a, %b : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return
}

// -----

func.func @exp_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{'bcast.exponential' op operands must be floating-point or complex, got element type i32}}
  %0 = bcast.exponential %a : tensor<3xi32>
  func.return
}

// -----

func.func @floor_int(%a: tensor<ui16>) {
  // expected-error @+1 {{'bcast.floor' op operands must be floating-point, got element type ui16}}
  %0 = bcast.floor %a : tensor<ui16>
  func.return
}

// -----

func.func @negate_bool(%a: tensor<3xi1>) {
  // expected-error @+1 {{'bcast.negate' op operands must be numeric (integer, floating-point or complex), got element type i1}}
  %0 = bcast.negate %a : tensor<3xi1>
  func.return
}

// -----

func.func @not_float(%a: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.not' op operands must be boolean or integer, got element type f32}}
  %0 = bcast.not %a : tensor<3xf32>
  func.return
}

// -----

func.func @select_pred(%p: tensor<3xf32>, %t: tensor<3xf32>, %f: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.select' op pred must have element type i1, got f32}}
  %0 = bcast.select %p, %t, %f : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @popcnt_float(%a: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.popcnt' op operands must be integer, got element type f32}}
  %0 = bcast.popcnt %a : tensor<3xf32>
  func.return
}

// -----

func.func @round_int(%a: tensor<3xi8>) {
  // expected-error @+1 {{'bcast.round_nearest_even' op operands must be floating-point, got element type i8}}
  %0 = bcast.round_nearest_even %a : tensor<3xi8>
  func.return
}

// -----

// clamp broadcasts its three operands together, located at the op.
func.func @clamp_shapes(%lo: tensor<2xf32>, %x: tensor<3xf32>, %hi: tensor<f32>) {
  // expected-error @+1 {{'bcast.clamp' op operands are not broadcast-compatible: tensor<2xf32>, tensor<3xf32>, tensor<f32>}}
  %0 = bcast.clamp %lo, %x, %hi : (tensor<2xf32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  // expected-note @-1 {{aligned from the right: 2}}
  // expected-note @-2 {{dimension -1: 2 vs 3 vs 1 (sizes other than 1 differ)}}
  func.return
}
// DIAG:invalid_elementwise.mlir:[[# @LINE - 5]]:8: error: 'bcast.clamp' op operands are not broadcast-compatible: tensor<2xf32>, tensor<3xf32>, tensor<f32>

// -----

func.func @clamp_elements(%lo: tensor<f32>, %x: tensor<3xi32>, %hi: tensor<f32>) {
  // expected-error @+1 {{'bcast.clamp' op element types f32 and i32 are of different kinds}}
  %0 = bcast.clamp %lo, %x, %hi : (tensor<f32>, tensor<3xi32>, tensor<f32>) -> tensor<3xf32>
  // expected-note @-1 {{insert an explicit bcast.convert to choose the common type}}
  func.return
}

// -----

func.func @clamp_bool(%lo: tensor<i1>, %x: tensor<3xi1>, %hi: tensor<i1>) {
  // expected-error @+1 {{'bcast.clamp' op operands must be numeric (integer or floating-point), got element type i1}}
  %0 = bcast.clamp %lo, %x, %hi : (tensor<i1>, tensor<3xi1>, tensor<i1>) -> tensor<3xi1>
  func.return
}

// -----

func.func @clamp_result(%lo: tensor<f32>, %x: tensor<3xf32>, %hi: tensor<f32>) {
  // expected-error @+1 {{'bcast.clamp' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3xf16>'}}
  %0 = bcast.clamp %lo, %x, %hi : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf16>
  func.return
}
