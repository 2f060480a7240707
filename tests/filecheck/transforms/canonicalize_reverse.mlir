// RUN: bcast-opt %s -p canonicalize --split-input-file | filecheck %s

// reverse: a reverse of a reverse composes (dims reversed twice drop out),
// size-1 (and size-0) dims are dropped from dims, and a reverse with none
// left folds to its operand.

// CHECK-LABEL: func.func @reverse_twice_same_dims
// CHECK-NEXT: func.return %x
func.func @reverse_twice_same_dims(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = bcast.reverse %x, dims = [1, 0] : tensor<3x4xf32>
  %1 = bcast.reverse %0, dims = [0, 1] : tensor<3x4xf32>
  func.return %1 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @reverse_twice_other_dims
// CHECK-NEXT: %0 = bcast.reverse %x, dims = [0, 2] : tensor<3x4x5xf32>
// CHECK-NEXT: func.return %0
func.func @reverse_twice_other_dims(%x: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
  %0 = bcast.reverse %x, dims = [0, 1] : tensor<3x4x5xf32>
  %1 = bcast.reverse %0, dims = [1, 2] : tensor<3x4x5xf32>
  func.return %1 : tensor<3x4x5xf32>
}

// -----

// CHECK-LABEL: func.func @reverse_of_unit_dims_only
// CHECK-NEXT: func.return %x
func.func @reverse_of_unit_dims_only(%x: tensor<1x4x1xf32>) -> tensor<1x4x1xf32> {
  %0 = bcast.reverse %x, dims = [2, 0] : tensor<1x4x1xf32>
  func.return %0 : tensor<1x4x1xf32>
}

// -----

// CHECK-LABEL: func.func @reverse_drops_unit_dims
// CHECK-NEXT: %0 = bcast.reverse %x, dims = [1] : tensor<1x4x0xf32>
func.func @reverse_drops_unit_dims(%x: tensor<1x4x0xf32>) -> tensor<1x4x0xf32> {
  %0 = bcast.reverse %x, dims = [2, 1, 0] : tensor<1x4x0xf32>
  func.return %0 : tensor<1x4x0xf32>
}

// -----

// A reverse with other users stays; the composed one reads its operand.
// CHECK-LABEL: func.func @inner_reverse_used_twice
// CHECK-NEXT: %0 = bcast.reverse %x, dims = [0] : tensor<3x4xf32>
// CHECK-NEXT: %1 = bcast.reverse %x, dims = [1] : tensor<3x4xf32>
// CHECK-NEXT: func.return %0, %1
func.func @inner_reverse_used_twice(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = bcast.reverse %x, dims = [0] : tensor<3x4xf32>
  %1 = bcast.reverse %0, dims = [0, 1] : tensor<3x4xf32>
  func.return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}
