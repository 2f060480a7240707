// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// Two dynamic_broadcast_in_dim cases of StableHLO's
// stablehlo_canonicalize_dynamism.mlir that upstream keeps unchanged: bcast's
// explicit form ties each output size to its result dim, so they are refused
// at the op (canonicalize_dynamism.mlir has the others).

// Constant sizes [3, 4] with a result of [3, ?].
func.func @dynamic_broadcast_in_dim_inapplicable_dynamic_result_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'bcast.dynamic_broadcast_in_dim' op output size 1 (4) does not match result dimension 1 (?)}}
  // expected-note @+1 {{a static result dim is written as its size, a ? one as an SSA index}}
  %0 = bcast.dynamic_broadcast_in_dim %x, [3, 4], dims = [1] : (tensor<4xf32>) -> tensor<3x?xf32>
  func.return
}

// -----

// Sizes from an argument with a result of [3, 4].
func.func @dynamic_broadcast_in_dim_inapplicable_dynamic_output_dimensions(%x: tensor<4xf32>, %n: index) {
  // expected-error @+2 {{'bcast.dynamic_broadcast_in_dim' op output size 0 (an SSA size) does not match result dimension 0 (3)}}
  // expected-note @+1 {{a static result dim is written as its size, a ? one as an SSA index}}
  %0 = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  func.return
}
