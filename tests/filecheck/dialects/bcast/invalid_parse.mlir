// RUN: bcast-opt %s --split-input-file --verify-diagnostics
// RUN: not bcast-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=LOC

// Malformed input gives a located error (never a traceback); each chunk is
// parsed on its own.

func.func @missing_comma(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{Expected ','}}
  %0 = bcast.add %x %y : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// The column is that of the offending token.
// LOC: invalid_parse.mlir:9:21: error: Expected ','

// -----

func.func @unknown_op(%x: tensor<3xf32>) {
  // expected-error @+1 {{unknown op 'bcast.addd'; did you mean 'bcast.add'?}}
  %0 = bcast.addd %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}
// LOC: invalid_parse.mlir:19:8: error: unknown op 'bcast.addd'; did you mean 'bcast.add'?

// -----

func.func @direction_missing(%x: tensor<3xf32>) {
  // expected-error @+1 {{Expected `EQ`, `NE`, `LT`, `LE`, `GT`, or `GE`.}}
  %0 = bcast.compare %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// -----

func.func @direction_lowercase(%x: tensor<3xf32>) {
  // expected-error @+1 {{Expected `EQ`, `NE`, `LT`, `LE`, `GT`, or `GE`.}}
  %0 = bcast.compare gt, %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// -----

func.func @dims_not_a_list(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{Expected ':'}}
  %0 = bcast.add %x, %y broadcast_dimensions = 1 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @dims_misspelled(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{Expected ':'}}
  %0 = bcast.add %x, %y broadcast_dimension = [1] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @dims_float(%x: tensor<3xf32>) {
  // expected-error @+1 {{Expected integer literal}}
  %0 = bcast.broadcast_in_dim %x, dims = [1.5] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @dims_missing(%x: tensor<3xf32>) {
  // expected-error @+1 {{Expected ','}}
  %0 = bcast.broadcast_in_dim %x : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @transpose_unclosed(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{']' expected}}
  %0 = bcast.transpose %y, dims = [1, 0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @index_not_integer(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{Expected integer literal}}
  %0 = bcast.extract %y[1, x] : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @index_bool(%y: tensor<2x3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{Expected integer literal}}
  %0 = bcast.assign %y[true], %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @index_list_unclosed(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{']' expected}}
  %0 = bcast.extract %y[1, 0 : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @extract_without_list(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'[' expected}}
  %0 = bcast.extract %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @index_too_large(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{index does not fit in 64 bits}}
  %0 = bcast.extract %y[99999999999999999999] : (tensor<2x3xf32>) -> tensor<3xf32>
  func.return
}
// LOC: invalid_parse.mlir:[[# @LINE - 3]]:25: error: index does not fit in 64 bits

// -----

func.func @index_not_index_type(%y: tensor<2x3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{operand is used with type index, but has been previously used or defined with type tensor<3xf32>}}
  %0 = bcast.extract %y[%x] : (tensor<2x3xf32>, index) -> tensor<3xf32>
  func.return
}

// -----

func.func @assign_missing_comma(%y: tensor<2x3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{Expected ','}}
  %0 = bcast.assign %y[1] %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @operand_type_mismatch(%a: tensor<3xf32>) {
  // expected-error @+1 {{operand is used with type tensor<3xi32>, but has been previously used or defined with type tensor<3xf32>}}
  %0 = bcast.exponential %a : tensor<3xi32>
  func.return
}

// -----

func.func @unary_functional_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{(tensor<3xf32>) -> tensor<3xf32> should be of base attribute tensor}}
  %0 = bcast.exponential %x : (tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @bad_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{Expected shape type.}}
  %0 = bcast.exponential %x : tensor<3xf33>
  func.return
}

// -----

// Errors found after the last token of an op point at the next token, as in MLIR.
func.func @missing_result_type(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<2x3xf32>)
  // expected-error @+1 {{Expected '->'}}
  func.return
}

// -----

func.func @generic_bad_property(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.add' op [1 : i64] should be of base attribute array}}
  %0 = "bcast.add"(%x, %y) <{broadcast_dimensions = [1]}> : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @generic_missing_direction(%x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.compare' op property 'comparison_direction' expected in operation 'bcast.compare'}}
  %0 = "bcast.compare"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// -----

func.func @too_many_results(%x: tensor<3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{Operation has 2 results, but was given 1 to bind.}}
  %0 = "bcast.add"(%x, %y) : (tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  func.return
}

// -----

// The semantics attribute must name a known mode.
// expected-error @+1 {{bcast.semantics must be one of "numpy", "xla", "tml", got "jax"}}
module attributes {bcast.semantics = "jax"} {
}

// -----

// expected-error @+1 {{bcast.semantics must be one of "numpy", "xla", "tml", got 1 : i64}}
module attributes {bcast.semantics = 1} {
}

// -----

// An undefined value is reported at its first use, in MLIR's words (xDSL:
// at the end of the input).
func.func @undefined_value(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = bcast.add %0, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 4]]:22: error: use of undeclared SSA value name

// -----

// A value of one function is not visible in the next.
func.func @defines(%x: tensor<3xf32>) -> tensor<3xf32> {
  %v = bcast.negate %x : tensor<3xf32>
  func.return %v : tensor<3xf32>
}
func.func @uses_other_function(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{use of undeclared SSA value name}}
  func.return %v : tensor<3xf32>
}

// -----

// Errors in a dense literal are at the literal (xDSL: at the token after its type).
func.func @dense_not_a_number() -> tensor<2xf32> {
  // expected-error @+1 {{Expected either a float, integer, or complex literal}}
  %c = bcast.constant dense<[1.0, oops]> : tensor<2xf32>
  func.return %c : tensor<2xf32>
}

// -----

func.func @dense_element_count() -> tensor<2xi32> {
  // expected-error @+1 {{Shape mismatch in dense literal. Expected [2] shape from the type, but got [3] shape.}}
  %c = bcast.constant dense<[1, 2, 3]> : tensor<2xi32>
  func.return %c : tensor<2xi32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 3]]:29: error: Shape mismatch in dense literal

// -----

func.func @dense_out_of_range() -> tensor<3xi8> {
  // expected-error @+1 {{Integer value 300 is out of range for type i8}}
  %c = bcast.constant dense<[1, 300, 2]> : tensor<3xi8>
  func.return %c : tensor<3xi8>
}
// LOC: invalid_parse.mlir:[[# @LINE - 3]]:33: error: Integer value 300 is out of range for type i8

// -----

func.func @dense_dynamic_type() -> tensor<2xf32> {
  // expected-error @+1 {{Dense literal attribute should have a static shape.}}
  %c = bcast.constant dense<1.0> : tensor<?xf32>
  func.return %c : tensor<2xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 3]]:36: error: Dense literal attribute should have a static shape.

// -----

func.func @dense_empty() -> tensor<2xf32> {
  // expected-error @+1 {{Expected at least one element in the dense literal, but got None}}
  %c = bcast.constant dense<> : tensor<2xf32>
  func.return %c : tensor<2xf32>
}

// -----

// Sizes fit int64 (every backend indexes with it): a dimension, and the
// element count (the product of the flat shape, nested levels included), are
// reported at the type. 2^63 - 1 itself is a size.

func.func @largest_size(%x: tensor<9223372036854775807xi8>) -> tensor<9223372036854775807xi8> {
  func.return %x : tensor<9223372036854775807xi8>
}

// -----

// expected-error @+1 {{tensor<9223372036854775808xf32>: dimension size 9223372036854775808 does not fit in int64 (the largest is 9223372036854775807)}}
func.func @dim_too_large(%x: tensor<9223372036854775808xf32>) -> tensor<2xf32> {
  %c = bcast.constant dense<1.0> : tensor<2xf32>
  func.return %c : tensor<2xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 4]]:30: error: tensor<9223372036854775808xf32>: dimension size

// -----

// expected-error @+1 {{tensor<4294967296x4294967296xf32>: 18446744073709551616 elements do not fit in int64 (the largest count is 9223372036854775807)}}
func.func @count_too_large(%x: tensor<4294967296x4294967296xf32>) -> tensor<2xf32> {
  %c = bcast.constant dense<1.0> : tensor<2xf32>
  func.return %c : tensor<2xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 4]]:32: error: tensor<4294967296x4294967296xf32>: 18446744073709551616 elements

// -----

// expected-error @+1 {{tensor<4294967296xtensor<4294967296xf32>>: 18446744073709551616 elements do not fit in int64}}
func.func @nested_count_too_large(%x: tensor<4294967296xtensor<4294967296xf32>>) -> tensor<2xf32> {
  %c = bcast.constant dense<1.0> : tensor<2xf32>
  func.return %c : tensor<2xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 4]]:39: error: tensor<4294967296xtensor<4294967296xf32>>: 18446744073709551616

// -----

// expected-error @+1 {{tensor<99999999999999999999999xf32>: dimension size 99999999999999999999999 does not fit in int64}}
func.func @nested_inner_dim_too_large(%x: tensor<2xtensor<99999999999999999999999xf32>>) -> tensor<2xf32> {
  %c = bcast.constant dense<1.0> : tensor<2xf32>
  func.return %c : tensor<2xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 4]]:52: error: tensor<99999999999999999999999xf32>: dimension size

// -----

func.func @dense_type_too_large() -> tensor<2xf32> {
  // expected-error @+1 {{tensor<99999999999999999999999xf32>: dimension size 99999999999999999999999 does not fit in int64}}
  %c = bcast.constant dense<1.0> : tensor<99999999999999999999999xf32>
  %0 = bcast.constant dense<1.0> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// LOC: invalid_parse.mlir:[[# @LINE - 4]]:36: error: tensor<99999999999999999999999xf32>: dimension size

// -----

// A truncated file says so (xDSL only gives the context " in block definition").
// expected-error @+2 {{unexpected end of input (in block definition)}}
func.func @truncated() {
