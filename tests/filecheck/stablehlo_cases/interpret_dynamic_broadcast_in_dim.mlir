// StableHLO's interpreter case for dynamic_broadcast_in_dim
// (stablehlo/tests/interpret/dynamic_broadcast_in_dim.mlir), as a bcast
// program: a 3x1 operand broadcast to [3, 2, 2] along dims [0, 2], its dim 1
// known expanding and its dim 0 known nonexpanding; each row's value fills
// its 2x2 block. Run on the reference backend, and verified, canonicalized
// (all sizes literal: a broadcast_in_dim) and run on NumPy.

// RUN: bcast-run %s --backend reference | filecheck %s
// RUN: bcast-run %s --backend numpy | filecheck %s
// RUN: bcast-opt %s -p canonicalize | filecheck %s --check-prefix=CANON

// CHECK:      result0: tensor<3x2x2xi64>
// CHECK-NEXT: {{\[\[\[}}1 1]
// CHECK-NEXT:   [1 1]]
// CHECK-EMPTY:
// CHECK-NEXT:  {{\[\[}}2 2]
// CHECK-NEXT:   [2 2]]
// CHECK-EMPTY:
// CHECK-NEXT:  {{\[\[}}3 3]
// CHECK-NEXT:   [3 3]]]

// CANON:      %result = bcast.broadcast_in_dim %operand, dims = [0, 2] : (tensor<3x1xi64>) -> tensor<3x2x2xi64>
func.func @main() -> tensor<3x2x2xi64> {
  %operand = bcast.constant dense<[[1], [2], [3]]> : tensor<3x1xi64>
  %result = bcast.dynamic_broadcast_in_dim %operand, [3, 2, 2], dims = [0, 2] expanding = [1] nonexpanding = [0] : (tensor<3x1xi64>) -> tensor<3x2x2xi64>
  func.return %result : tensor<3x2x2xi64>
}
