// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The explicit dynamic form's verifiers (docs/ir.md, "The explicit dynamic
// form"): dims in range, sizes matching the result type, facts the types
// allow, checks on at least two shapes with their landing dims.

func.func @dim_out_of_range(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'bcast.dim' op dimension 2 is out of range for an operand of rank 2}}
  %n = bcast.dim %x, 2 : tensor<?x4xf32>
  // expected-note @-1 {{a nested (tml) type's dims count flat: outer dims, then inner dims}}
  func.return
}

// -----

func.func @landing_per_shape(%n: index) {
  // expected-error @+1 {{a shape of rank 2 lands on 1 dims}}
  bcast.check_broadcastable [%n, 4] at [0], [%n] at [0] checking [0] message = "m"
  func.return
}

// -----

func.func @one_size(%n: index) {
  // expected-error @+1 {{'bcast.broadcast_size' op needs at least two sizes, got 1}}
  %s = bcast.broadcast_size %n
  func.return
}

// -----

func.func @sizes_rank(%x: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op 1 output size for a result of rank 2}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n], dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

func.func @static_size_mismatch(%x: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op output size 1 (5) does not match result dimension 1 (4)}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n, 5], dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
  // expected-note @-1 {{a static result dim is written as its size, a ? one as an SSA index}}
  func.return
}

// -----

func.func @ssa_size_for_static_dim(%x: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op output size 1 (an SSA size) does not match result dimension 1 (4)}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n, %n], dims = [0] : (tensor<?xf32>) -> tensor<?x4xf32>
  // expected-note @-1 {{a static result dim is written as its size, a ? one as an SSA index}}
  func.return
}

// -----

func.func @operand_dim_refuted(%x: tensor<3xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (4)}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [1] : (tensor<3xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

func.func @expanding_cannot_be_one(%x: tensor<?x4xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op operand dim 1 (4) is known expanding but cannot be 1}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [0, 1] expanding = [1] : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

func.func @nonexpanding_static_mismatch(%x: tensor<1xf32>) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op operand dim 0 (1) is known nonexpanding but result dim 0 is 4}}
  %b = bcast.dynamic_broadcast_in_dim %x, [4], dims = [0] nonexpanding = [0] : (tensor<1xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @both_facts(%x: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op operand dim 0 is known both expanding and nonexpanding}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n], dims = [0] expanding = [0] nonexpanding = [0] : (tensor<?xf32>) -> tensor<?xf32>
  func.return
}

// -----

func.func @fact_out_of_range(%x: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op known_expanding_dimensions must be distinct operand dims, got [3]}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n], dims = [0] expanding = [3] : (tensor<?xf32>) -> tensor<?xf32>
  func.return
}

// -----

func.func @element_types(%x: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{'bcast.dynamic_broadcast_in_dim' op failed to verify that all of {operand, result} have same element type}}
  %b = bcast.dynamic_broadcast_in_dim %x, [%n], dims = [0] : (tensor<?xf32>) -> tensor<?xi32>
  func.return
}

// -----

func.func @one_shape(%n: index) {
  // expected-error @+1 {{'bcast.check_broadcastable' op needs at least two shapes}}
  bcast.check_broadcastable [%n] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

func.func @landing_mismatch(%n: index) {
  // expected-error @+1 {{'bcast.check_broadcastable' op ranks [2, 1] do not match the 3 sizes and their landing dims}}
  "bcast.check_broadcastable"(%n, %n) <{static_shapes = array<i64: -9223372036854775808, 4, -9223372036854775808>, ranks = array<i64: 2, 1>, landing = array<i64: 0, 1>, checked = array<i64: 0>, message = "m"}> : (index, index) -> ()
  func.return
}

// -----

func.func @landing_not_increasing(%n: index) {
  // expected-error @+1 {{'bcast.check_broadcastable' op operand 0 lands on dims [1, 0], which are not increasing}}
  bcast.check_broadcastable [%n, 4] at [1, 0], [%n] at [0] checking [0] message = "operands could not be broadcast together with shapes"
  func.return
}

// -----

func.func @checks_nothing_landed(%n: index) {
  // expected-error @+1 {{'bcast.check_broadcastable' op checks dim 2, on which no operand dim lands}}
  bcast.check_broadcastable [%n] at [0], [%n] at [0] checking [2] message = "operands could not be broadcast together with shapes"
  func.return
}
