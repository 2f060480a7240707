// RUN: bcast-opt %s -p canonicalize,cse --split-input-file | filecheck %s

// An unused op with a ? type keeps its run-time size check: canonicalize
// does not drop it as dead code (docs/semantics.md, "Run-time checks of
// unused ops"). An unused op of static types cannot fail and is dropped;
// equal ops that are used are still merged by cse.

// CHECK-LABEL: func.func @unused_checks(
// CHECK-NEXT:    %0 = bcast.slice %x [1:7:3, 0:8:2]
// CHECK-NEXT:    %1 = bcast.reshape %x : (tensor<?x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %2 = bcast.concatenate %x, %c, dim = 1
// CHECK-NEXT:    %3 = bcast.slice %x [0:2, 0:8:2]
// CHECK-NEXT:    func.return %3, %3 : tensor<2x4xf32>, tensor<2x4xf32>
func.func @unused_checks(%x: tensor<?x8xf32>, %s: tensor<4x8xf32>, %c: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = bcast.slice %x [1:7:3, 0:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>
  %1 = bcast.reshape %x : (tensor<?x8xf32>) -> tensor<4x16xf32>
  %2 = bcast.concatenate %x, %c, dim = 1 : (tensor<?x8xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>
  %3 = bcast.slice %s [0:2, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %4 = bcast.slice %x [0:2, 0:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>
  %5 = bcast.slice %x [0:2, 0:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>
  func.return %4, %5 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// An op that can never fail (transpose, a conversion) is dropped whatever its types.
// CHECK-LABEL: func.func @unused_pure(
// CHECK-NEXT:    func.return %x
func.func @unused_pure(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = bcast.transpose %x, dims = [1, 0] : (tensor<?x8xf32>) -> tensor<8x?xf32>
  %1 = bcast.convert %x : (tensor<?x8xf32>) -> tensor<?x8xf64>
  func.return %x : tensor<?x8xf32>
}
