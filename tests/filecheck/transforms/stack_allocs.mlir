// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-stack-allocs | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-stack-allocs,bcast-stack-allocs | filecheck %s

// bcast-stack-allocs (loop IR): an alloc of at most stack_allocs.STACK_BYTES
// (64 KiB) is marked bcast.stack, while the marked allocs of the function
// stay within stack_allocs.STACK_TOTAL (256 KiB). (Edge cases:
// tests/passes/loops/test_stack_allocs.py.)

// BEFORE-NOT: bcast.stack

// A softmax row's scratch: its max and sum (4 bytes each) and its exp
// (8 f32) live on the stack.
// CHECK-LABEL: func.func @softmax(
// CHECK:         memref.alloc() {bcast.stack} : memref<1xf32>
// CHECK:         memref.alloc() {bcast.stack} : memref<1xf32>
// CHECK:         memref.alloc() {bcast.stack} : memref<8xf32>
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = bcast.exponential %d : tensor<4x8xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %r = bcast.divide %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// A row of 20000 f32 (80 KB) is on the heap; the scalars still fit.
// CHECK-LABEL: func.func @long_rows(
// CHECK:         memref.alloc() {bcast.stack} : memref<1xf32>
// CHECK:         memref.alloc() {bcast.stack} : memref<1xf32>
// CHECK:         memref.alloc() : memref<20000xf32>
func.func @long_rows(%x: tensor<2x20000xf32>) -> tensor<2x20000xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<2x20000xf32>) -> tensor<2x1xf32>
  %d = bcast.subtract %x, %m : (tensor<2x20000xf32>, tensor<2x1xf32>) -> tensor<2x20000xf32>
  %e = bcast.exponential %d : tensor<2x20000xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<2x20000xf32>) -> tensor<2x1xf32>
  %r = bcast.divide %e, %s : (tensor<2x20000xf32>, tensor<2x1xf32>) -> tensor<2x20000xf32>
  func.return %r : tensor<2x20000xf32>
}
