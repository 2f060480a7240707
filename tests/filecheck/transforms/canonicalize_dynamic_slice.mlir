// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s

// canonicalize: a dynamic_slice with constant starts is the slice of the
// block its clamped starts select (-5 clamps to 0, 100 to dim - size); a
// dynamic_slice of the whole operand is the operand (every start clamps to
// 0); a dynamic_update_slice as large as its operand is the update.

// CHECK-LABEL: func.func @constant_starts
// CHECK-NEXT: %0 = bcast.slice %x [0:2, 5:8] : (tensor<4x8xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = bcast.slice %x [1:3, 2:5] : (tensor<4x8xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: func.return %0, %1
func.func @constant_starts(%x: tensor<4x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %low = bcast.constant dense<-5> : tensor<i32>
  %high = bcast.constant dense<100> : tensor<i32>
  %0 = bcast.dynamic_slice %x[%low, %high], sizes = [2, 3] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %one = bcast.constant dense<1> : tensor<ui64>
  %two = bcast.constant dense<2> : tensor<ui64>
  %1 = bcast.dynamic_slice %x[%one, %two], sizes = [2, 3] : (tensor<4x8xf32>, tensor<ui64>, tensor<ui64>) -> tensor<2x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @whole
// CHECK-NEXT: func.return %x, %u
func.func @whole(%x: tensor<4x8xf32>, %u: tensor<4x8xf32>, %i: tensor<i32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = bcast.dynamic_slice %x[%i, %i], sizes = [4, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %1 = bcast.dynamic_update_slice %x[%i, %i], %u : (tensor<4x8xf32>, tensor<i32>, tensor<i32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A run-time start stays.
// CHECK-LABEL: func.func @dynamic
// CHECK:      bcast.dynamic_slice %x[%c, %i]
func.func @dynamic(%x: tensor<4x8xf32>, %i: tensor<i32>) -> tensor<2x3xf32> {
  %c = bcast.constant dense<1> : tensor<i32>
  %0 = bcast.dynamic_slice %x[%c, %i], sizes = [2, 3] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
