// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s

// bcast-make-explicit turns matmul into dot_general (rules.matmul_plan):
// operands converted to the promoted type; x @ W (an rhs of rank <= 2) and
// a 1-D lhs need no broadcast; when both have batch dims they are broadcast
// to the common batch shape and contracted as batch dims.

// CHECK-LABEL: func.func @x_at_w
// CHECK-NEXT:   %0 = bcast.convert %w : (tensor<4x6xf16>) -> tensor<4x6xf32>
// CHECK-NEXT:   %1 = bcast.dot_general %x, %0, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4x6xf32>) -> tensor<2x3x6xf32>
// CHECK-NEXT:   %2 = bcast.dot_general %v, %x, contracting_dims = [0] x [1] : (tensor<3xf32>, tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:   %3 = bcast.dot_general %x, %u, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   func.return %1, %2, %3
func.func @x_at_w(%x: tensor<2x3x4xf32>, %w: tensor<4x6xf16>, %v: tensor<3xf32>, %u: tensor<4xf32>) -> (tensor<2x3x6xf32>, tensor<2x4xf32>, tensor<2x3xf32>) {
  %0 = bcast.matmul %x, %w : (tensor<2x3x4xf32>, tensor<4x6xf16>) -> tensor<2x3x6xf32>
  %1 = bcast.matmul %v, %x : (tensor<3xf32>, tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %2 = bcast.matmul %x, %u : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0, %1, %2 : tensor<2x3x6xf32>, tensor<2x4xf32>, tensor<2x3xf32>
}

// -----

// (2,1,3,4) @ (5,4,6) -> (2,5,3,6): both broadcast to batch 2x5.
// CHECK-LABEL: func.func @batch_broadcast
// CHECK-NEXT:   %0 = bcast.broadcast_in_dim %a, dims = [0, 1, 2, 3] : (tensor<2x1x3x4xi32>) -> tensor<2x5x3x4xi32>
// CHECK-NEXT:   %1 = bcast.broadcast_in_dim %b, dims = [1, 2, 3] : (tensor<5x4x6xi32>) -> tensor<2x5x4x6xi32>
// CHECK-NEXT:   %2 = bcast.dot_general %0, %1, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x5x3x4xi32>, tensor<2x5x4x6xi32>) -> tensor<2x5x3x6xi32>
// A 2-D lhs against a batched rhs is broadcast too; equal batch dims are not.
// CHECK-NEXT:   %3 = bcast.broadcast_in_dim %m, dims = [1, 2] : (tensor<3x4xi32>) -> tensor<5x3x4xi32>
// CHECK-NEXT:   %4 = bcast.dot_general %3, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<5x3x4xi32>, tensor<5x4x6xi32>) -> tensor<5x3x6xi32>
func.func @batch_broadcast(%a: tensor<2x1x3x4xi32>, %b: tensor<5x4x6xi32>, %m: tensor<3x4xi32>) -> (tensor<2x5x3x6xi32>, tensor<5x3x6xi32>) {
  %0 = bcast.matmul %a, %b : (tensor<2x1x3x4xi32>, tensor<5x4x6xi32>) -> tensor<2x5x3x6xi32>
  %1 = bcast.matmul %m, %b : (tensor<3x4xi32>, tensor<5x4x6xi32>) -> tensor<5x3x6xi32>
  func.return %0, %1 : tensor<2x5x3x6xi32>, tensor<5x3x6xi32>
}
