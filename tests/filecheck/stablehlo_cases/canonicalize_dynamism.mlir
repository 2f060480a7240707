// The dynamic_broadcast_in_dim cases of StableHLO's
// stablehlo/tests/transforms/stablehlo_canonicalize_dynamism.mlir as bcast
// programs: a dynamic_broadcast_in_dim whose output sizes are all constants
// and whose operand is static becomes a broadcast_in_dim (passes/dynamic_checks.py,
// StaticDynamicBroadcastToBroadcast); with a dynamic operand, dynamic output
// sizes or a dynamic result it stays. bcast writes output sizes as a list of
// literals and SSA sizes tied to the result type (a static dim as its size, a
// ? one as an SSA size), so upstream's "constant sizes, dynamic result" and
// "SSA sizes, static result" are refused by the verifier
// (canonicalize_dynamism_invalid.mlir).

// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s

// CHECK-LABEL: func.func @dynamic_broadcast_in_dim_success
// CHECK-NEXT:    %0 = bcast.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    func.return %0
func.func @dynamic_broadcast_in_dim_success(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = bcast.dynamic_broadcast_in_dim %x, [3, 4], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

// The operand's ? must be 1 or 4 at run time: the op keeps that check.
// CHECK-LABEL: func.func @dynamic_broadcast_in_dim_inapplicable_dynamic_operand_type
// CHECK-NEXT:    bcast.dynamic_broadcast_in_dim %x, [3, 4], dims = [1]
func.func @dynamic_broadcast_in_dim_inapplicable_dynamic_operand_type(%x: tensor<?xf32>) -> tensor<3x4xf32> {
  %0 = bcast.dynamic_broadcast_in_dim %x, [3, 4], dims = [1] : (tensor<?xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_broadcast_in_dim_inapplicable_dynamic_output_dimensions
// CHECK-NEXT:    bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [1]
func.func @dynamic_broadcast_in_dim_inapplicable_dynamic_output_dimensions(%x: tensor<4xf32>, %n: index) -> tensor<?x4xf32> {
  %0 = bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [1] : (tensor<4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}
