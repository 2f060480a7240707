// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.reduce: dims distinct and in range, a kind the element type allows,
// the declared result type equal to the inferred one.

func.func @duplicate_dims(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op dims should not have duplicates}}
  %0 = bcast.reduce add %x, dims = [1, 1] : (tensor<4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{dims = [1, 1]: 1 is repeated}}
  func.return
}

// -----

// Duplicates are found whatever the order they were written in.
func.func @duplicate_dims_unsorted(%x: tensor<2x4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op dims should not have duplicates}}
  %0 = bcast.reduce add %x, dims = [2, 0, 2] : (tensor<2x4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{dims = [0, 2, 2]: 2 is repeated}}
  func.return
}

// -----

func.func @dim_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op dims 2 is out of range}}
  %0 = bcast.reduce maximum %x, dims = [2] : (tensor<4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{the operand has 2 dimensions (shape 4x3); dims index them from 0}}
  func.return
}

// -----

func.func @negative_dim(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op dims -1 is out of range}}
  %0 = bcast.reduce maximum %x, dims = [-1] : (tensor<4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{the operand has 2 dimensions (shape 4x3); dims index them from 0}}
  func.return
}

// -----

func.func @scalar_has_no_dims(%x: tensor<f32>) {
  // expected-error @+1 {{'bcast.reduce' op dims 0 is out of range}}
  %0 = bcast.reduce add %x, dims = [0] : (tensor<f32>) -> tensor<f32>
  // expected-note @-1 {{the operand has 0 dimensions (a scalar); dims index them from 0}}
  func.return
}

// -----

// add and multiply are arithmetic: not on i1 (as bcast.add).
func.func @add_on_i1(%x: tensor<4x3xi1>) {
  // expected-error @+1 {{'bcast.reduce' op reduce add needs numeric (integer, floating-point or complex) elements, got element type i1}}
  %0 = bcast.reduce add %x, dims = [1] : (tensor<4x3xi1>) -> tensor<4xi1>
  // expected-note @-1 {{'bcast.add' is the operation reduce add folds with, and it takes numeric (integer, floating-point or complex) operands}}
  func.return
}

// -----

func.func @multiply_on_i1(%x: tensor<4x3xi1>) {
  // expected-error @+1 {{reduce multiply needs numeric (integer, floating-point or complex) elements, got element type i1}}
  %0 = bcast.reduce multiply %x, dims = [1] : (tensor<4x3xi1>) -> tensor<4xi1>
  // expected-note @-1 {{'bcast.multiply' is the operation reduce multiply folds with}}
  func.return
}

// -----

// maximum and minimum follow bcast.maximum: numbers only.
func.func @maximum_on_i1(%x: tensor<4x3xi1>) {
  // expected-error @+1 {{reduce maximum needs numeric (integer or floating-point) elements, got element type i1}}
  %0 = bcast.reduce maximum %x, dims = [1] : (tensor<4x3xi1>) -> tensor<4xi1>
  // expected-note @-1 {{'bcast.maximum' is the operation reduce maximum folds with}}
  func.return
}

// -----

// and/or/xor: i1 and integers only.
func.func @xor_on_float(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op reduce xor needs boolean or integer elements, got element type f32}}
  %0 = bcast.reduce xor %x, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{'bcast.xor' is the operation reduce xor folds with, and it takes boolean or integer operands}}
  func.return
}

// -----

func.func @and_on_f16(%x: tensor<4xf16>) {
  // expected-error @+1 {{reduce and needs boolean or integer elements, got element type f16}}
  %0 = bcast.reduce and %x, dims = [0] : (tensor<4xf16>) -> tensor<f16>
  // expected-note @-1 {{'bcast.and' is the operation reduce and folds with}}
  func.return
}

// -----

func.func @missing_keepdims(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  %0 = bcast.reduce add %x, dims = [1] : (tensor<4x3xf32>) -> tensor<4x1xf32>
  // expected-note @-1 {{the reduced dims [1] are removed (no keepdims)}}
  func.return
}

// -----

func.func @keepdims_declared_without(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = bcast.reduce add %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{the reduced dims [1] stay as size 1 (keepdims)}}
  func.return
}

// -----

func.func @wrong_element_type(%x: tensor<4x3xi32>) {
  // expected-error @+1 {{inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  %0 = bcast.reduce add %x, dims = [0] : (tensor<4x3xi32>) -> tensor<3xi64>
  // expected-note @-1 {{the reduced dims [0] are removed (no keepdims)}}
  func.return
}

// -----

func.func @nested_needs_tml(%x: tensor<4xtensor<3xf32>>) {
  // expected-error @+1 {{'bcast.reduce' op nested tensor types need tml semantics}}
  %0 = bcast.reduce add %x, dims = [0] : (tensor<4xtensor<3xf32>>) -> tensor<tensor<3xf32>>
  // expected-note @-1 {{set `bcast.semantics = "tml"` on the module or pass --semantics tml}}
  func.return
}

// -----

// Under tml, dims index the outer level only: dim 1 is inside the inner level.
module attributes {bcast.semantics = "tml"} {
  func.func @nested_inner_dim(%x: tensor<4xtensor<3xf32>>) {
    // expected-error @+1 {{'bcast.reduce' op dims 1 is out of range}}
    %0 = bcast.reduce add %x, dims = [1] : (tensor<4xtensor<3xf32>>) -> tensor<4xf32>
    // expected-note @-1 {{the operand has 1 dimension (shape 4); dims index them from 0}}
    // expected-note @-2 {{dims index the outer level of a nested type only}}
    func.return
  }
}

// -----

func.func @unknown_kind(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{Expected `add`, `multiply`, `maximum`, `minimum`, `and`, `or`, or `xor`.}}
  %0 = bcast.reduce mean %x, dims = [1] : (tensor<4x3xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @keepdims_as_attribute(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.reduce' op attribute 'keepdims' shadows the property of the same name}}
  %0 = bcast.reduce add %x, dims = [1] {keepdims} : (tensor<4x3xf32>) -> tensor<4xf32>
  // expected-note @-1 {{write it in the op's own syntax}}
  func.return
}

// -----

func.func @dim_too_big(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{dim does not fit in 64 bits}}
  %0 = bcast.reduce add %x, dims = [99999999999999999999] : (tensor<4x3xf32>) -> tensor<4xf32>
  func.return
}

// -----

// Under tml, reduce and/or/xor follow the bitwise op class: i1 or unsigned
// integers only (signed integers are fine under numpy and xla).
module attributes {bcast.semantics = "tml"} {
  func.func @tml_bitwise_reduce_of_signed(%x: tensor<4x3xi32>) {
    // expected-error @+1 {{'bcast.reduce' op reduce xor needs boolean (i1) or unsigned integer elements, got element type i32}}
    %0 = bcast.reduce xor %x, dims = [1] : (tensor<4x3xi32>) -> tensor<4xi32>
    // expected-note @-1 {{'bcast.xor' is the operation reduce xor folds with, and it takes boolean (i1) or unsigned integer operands}}
    // expected-note @-2 {{tml logical operations take i1, bitwise operations unsigned integers}}
    func.return
  }
}
