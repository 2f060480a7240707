// RUN: not bcast-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s

// --verify-diagnostics as in mlir-opt 19: notes must be expected like errors
// (an unannotated one is an "unexpected note"); each failure is located at
// file:line:col, the diagnostic's own position or, for an expectation never
// met, the position of its annotation, and quotes the expected text. No
// marker below is followed by a blank line, so the lines also show that
// --split-input-file reports lines of the original file.

// An error whose second note is not annotated.
func.func @unexpected_note(%x: tensor<3xf32>, %y: tensor<4xf32>) {
  // expected-error @below {{operands are not broadcast-compatible}}
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  // expected-note @above {{aligned from the right}}
  func.return
}
// CHECK:      driver_verify_diagnostics.mlir:[[# @LINE - 4]]:8: error: unexpected note: dimension -1: 3 vs 4 (neither is 1)
// -----
// The annotation's text is not in the message: the error is unexpected, and
// the expectation (at the column of its `expected-`) is not met.
func.func @wrong_text(%x: tensor<3xi8>, %y: tensor<3xf32>) {
  // expected-error @+1 {{no such message}}
  %0 = bcast.add %x, %y : (tensor<3xi8>, tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{insert an explicit bcast.convert}}
  func.return
}
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 4]]:8: error: unexpected error: 'bcast.add' op element types i8 and f32
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 6]]:6: error: expected error "no such message" was not produced
// -----
// Annotations of every severity on a valid chunk: none is met. An
// annotation may also end a line of code (no designator: its own line).
func.func @nothing_produced(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-remark @+2 {{a remark}}
  // expected-warning @+1 {{a warning}}
  %0 = bcast.negate %x : tensor<3xf32> // expected-note {{a note}}
  func.return %0 : tensor<3xf32>
}
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 5]]:6: error: expected remark "a remark" was not produced
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 5]]:6: error: expected warning "a warning" was not produced
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 5]]:43: error: expected note "a note" was not produced
// -----
// @+N and @-N count from the annotation's own line: off by one, both the
// error and the expectation are reported.
func.func @off_by_one(%x: tensor<3xf32>, %y: tensor<4xf32>) {
  // expected-error @+2 {{operands are not broadcast-compatible}}
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  // expected-note @-1 {{aligned from the right}}
  // expected-note @-3 {{dimension -1: 3 vs 4}}
  func.return
}
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 5]]:8: error: unexpected error: 'bcast.add' op operands are not broadcast-compatible
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 6]]:8: error: unexpected note: dimension -1: 3 vs 4 (neither is 1)
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 8]]:6: error: expected error "operands are not broadcast-compatible" was not produced
// CHECK-NEXT: driver_verify_diagnostics.mlir:[[# @LINE - 6]]:6: error: expected note "dimension -1: 3 vs 4" was not produced
// -----
// Every diagnostic expected: nothing is printed for this chunk.
func.func @all_expected(%a: tensor<2x1xf32>, %b: tensor<8x4x3xf32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible}}
  %0 = bcast.add %a, %b : (tensor<2x1xf32>, tensor<8x4x3xf32>) -> tensor<8x4x3xf32>
  // expected-note @-1 {{aligned from the right:     2 x 1}}
  // expected-note @-2 {{dimension -2: 2 vs 4 (neither is 1)}}
  func.return
}
// CHECK-NOT:  error:
