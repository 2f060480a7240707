// RUN: bcast-opt %s --split-input-file --verify-diagnostics
// RUN: not bcast-opt %s --split-input-file 2>%t.err | filecheck %s --check-prefix=OUT
// RUN: filecheck %s --check-prefix=ERR --input-file %t.err

// --split-input-file: diagnostics name lines of the original file whether or
// not a blank line follows `// -----` (each marker not followed by one used
// to shift all later lines by one); the chunks that succeed are printed even
// though others fail, separated by `// -----` as mlir-opt does (a failed
// chunk prints nothing), and the exit status is 1.

// OUT:      func.func @first
func.func @first(%x: tensor<3xf32>) -> tensor<3xf32> {
  func.return %x : tensor<3xf32>
}
// -----
// No blank line after the marker above.
func.func @no_blank_line(%x: tensor<3xf32>, %y: tensor<4xf32>) {
  // ERR: driver_split.mlir:[[# @LINE + 1]]:8: error: 'bcast.add' op operands are not broadcast-compatible
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32> // expected-error {{operands are not broadcast-compatible}}
  // expected-note @above {{aligned from the right}}
  // expected-note @-2 {{dimension -1: 3 vs 4 (neither is 1)}}
  func.return
}
// -----
// Again no blank line: an error after two such markers.
func.func @second_no_blank_line(%x: tensor<2xf32>, %y: tensor<5xf32>) {
  // expected-error @below {{operands are not broadcast-compatible: tensor<2xf32> and tensor<5xf32>}}
  %0 = bcast.multiply %x, %y : (tensor<2xf32>, tensor<5xf32>) -> tensor<2xf32>
  // ERR: driver_split.mlir:[[# @LINE - 1]]:8: error: 'bcast.multiply' op operands are not broadcast-compatible
  // expected-note @-2 {{aligned from the right}}
  // expected-note @-3 {{dimension -1: 2 vs 5 (neither is 1)}}
  func.return
}
// -----

// A blank line after the marker above, and a parse error.
func.func @parse_error(%x: tensor<3xf32>) {
  // ERR: driver_split.mlir:[[# @LINE + 2]]:21: error: Expected ','
  // expected-error @+1 {{Expected ','}}
  %0 = bcast.add %x %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}
// -----


// Two blank lines after the marker above.
func.func @two_blank_lines(%x: tensor<3xi8>, %y: tensor<3xf32>) {
  // ERR: driver_split.mlir:[[# @LINE + 2]]:8: error: 'bcast.add' op
  // expected-error @+1 {{element types i8 and f32 are of different kinds}}
  %0 = bcast.add %x, %y : (tensor<3xi8>, tensor<3xf32>) -> tensor<3xf32>
  // expected-note @-1 {{insert an explicit bcast.convert}}
  func.return
}
// -----
// The last chunk succeeds and is printed after the failed ones' empty output.
func.func @last(%x: tensor<3xf32>) -> tensor<3xf32> {
  func.return %x : tensor<3xf32>
}

// OUT:      // -----
// OUT-NEXT: // -----
// OUT-NEXT: // -----
// OUT-NEXT: // -----
// OUT-NEXT: // -----
// OUT-NEXT: builtin.module {
// OUT-NEXT:   func.func @last
