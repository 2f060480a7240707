// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// concatenate, pad and slice with ? and bounded dims that no run-time size
// makes valid are refused at compile time, located, in the words of static
// shapes; concatenate_pad_slice_dynamic.mlir has the ones that verify.

// Beside the joined dim, static sizes that differ are refuted whatever the ?.
func.func @concatenate_static_mismatch(%a: tensor<?x4xf32>, %b: tensor<?x3xf32>) {
  // expected-error @+2 {{'bcast.concatenate' op operand #1 has size 3 in dimension 1, operand #0 has size 4}}
  // expected-note @+1 {{sizes must match in every dimension but the concatenated one (0)}}
  %0 = bcast.concatenate %a, %b, dim = 0 : (tensor<?x4xf32>, tensor<?x3xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

// A bound below the other operand's size: never equal.
func.func @concatenate_bound_mismatch(%a: tensor<?x4xf32, #stablehlo.bounds<2, ?>>, %b: tensor<3x2xf32>) {
  // expected-error @+2 {{'bcast.concatenate' op operand #1 has size 3 in dimension 0, operand #0 has size ?<=2}}
  // expected-note @+1 {{sizes must match in every dimension but the concatenated one (1)}}
  %0 = bcast.concatenate %a, %b, dim = 1 : (tensor<?x4xf32, #stablehlo.bounds<2, ?>>, tensor<3x2xf32>) -> tensor<?x6xf32>
  func.return
}

// -----

// A size computed from run-time sizes is declared ?, not refined to a static one.
func.func @concatenate_declared_static(%a: tensor<?x4xf32>) {
  // expected-error @+2 {{'bcast.concatenate' op result dimension 0 is declared 6, a size known only at run time}}
  // expected-note @+1 {{declare it ? (the inferred type is tensor<?x4xf32>)}}
  %0 = bcast.concatenate %a, %a, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @pad_declared_static(%a: tensor<?xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{'bcast.pad' op result dimension 0 is declared 3, a size known only at run time}}
  // expected-note @+1 {{declare it ? (the inferred type is tensor<?xf32>)}}
  %0 = bcast.pad %a, %v, low = [1], high = [1], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<3xf32>
  func.return
}

// -----

// A crop larger than the bound's padded size: negative at every run-time size.
func.func @pad_negative_at_the_bound(%a: tensor<?xf32, #stablehlo.bounds<2>>, %v: tensor<f32>) {
  // expected-error @+2 {{'bcast.pad' op pad makes dimension 0 of size -1}}
  // expected-note @+1 {{low -2 and high -1 crop more than the 2 padded elements of the dimension}}
  %0 = bcast.pad %a, %v, low = [-2], high = [-1], interior = [0] : (tensor<?xf32, #stablehlo.bounds<2>>, tensor<f32>) -> tensor<?xf32>
  func.return
}

// -----

// A range past a bound.
func.func @slice_past_the_bound(%a: tensor<?xf32, #stablehlo.bounds<2>>) {
  // expected-error @+2 {{'bcast.slice' op slice 0:3 of dimension 0 is out of range}}
  // expected-note @+1 {{dimension 0 has size ?<=2; a range needs 0 <= start <= limit <= ?<=2}}
  %0 = bcast.slice %a [0:3] : (tensor<?xf32, #stablehlo.bounds<2>>) -> tensor<3xf32>
  func.return
}

// -----

// StableHLO's concatenate infers ? along a ? dim, as bcast's.
func.func @stablehlo_concatenate_declared_static(%a: tensor<?x4xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op inferred type(s) 'tensor<?x4xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  %0 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<6x4xf32>
  func.return
}

// -----

func.func @stablehlo_concatenate_mismatch(%a: tensor<?x4xf32>, %b: tensor<?x3xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op shapes of operand (1) and (0) do not match at non-concat index: (?, 3) != (?, 4) at non-concat index 1}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<?x4xf32>, tensor<?x3xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

// iota has no operand to size a ? dim: refused in both dialects, pointing at
// dynamic_iota (decision: docs/semantics.md, "Dynamic and bounded shapes").
func.func @iota_of_a_run_time_size() {
  // expected-error @+2 {{'bcast.iota' op iota of tensor<?x4xi32> has no operand to give its ? dimension a size}}
  // expected-note @+1 {{write bcast.dynamic_iota with the sizes as operands}}
  %0 = bcast.iota dim = 1 : tensor<?x4xi32>
  func.return
}

// -----

func.func @stablehlo_iota_of_a_bounded_size() {
  // expected-error @+2 {{'stablehlo.iota' op iota of tensor<?xf32, #stablehlo.bounds<4>> has no operand to give its ? dimension a size}}
  // expected-note @+1 {{write stablehlo.dynamic_iota with the sizes as operands}}
  %0 = stablehlo.iota dim = 0 : tensor<?xf32, #stablehlo.bounds<4>>
  func.return
}

// -----

// reshape gives one unbounded ? a size; two, or a bounded one, need dynamic_reshape.
func.func @reshape_two_unknown(%a: tensor<?x4xf32>) {
  // expected-error @+2 {{'bcast.reshape' op reshape to ?x?x2 has no size for its ? dimensions}}
  // expected-note @+1 {{write bcast.dynamic_reshape with the sizes as operands}}
  %0 = bcast.reshape %a : (tensor<?x4xf32>) -> tensor<?x?x2xf32>
  func.return
}

// -----

func.func @reshape_beside_zero(%a: tensor<?x4xf32>) {
  // expected-error @+2 {{'bcast.reshape' op reshape to 0x? has no size for its ? dimension}}
  // expected-note @+1 {{beside a dimension of size 0 every size of it holds 0 elements}}
  %0 = bcast.reshape %a : (tensor<?x4xf32>) -> tensor<0x?xf32>
  func.return
}

// -----

// A count that no run-time size keeps: 4 * n is never 6.
func.func @reshape_count_never_kept(%a: tensor<?x4xf32>) {
  // expected-error @+2 {{'bcast.reshape' op number of output elements (6) doesn't match expected number of elements (?x4) at any size}}
  // expected-note @+1 {{6 is not a multiple of 4}}
  %0 = bcast.reshape %a : (tensor<?x4xf32>) -> tensor<6xf32>
  func.return
}

// -----

func.func @reshape_static_count_not_divided(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{'bcast.reshape' op number of output elements (?x5) doesn't match expected number of elements (12)}}
  // expected-note @+1 {{12 is not a multiple of 5}}
  %0 = bcast.reshape %a : (tensor<3x4xf32>) -> tensor<?x5xf32>
  func.return
}
