// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-stack-allocs | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-stack-allocs,bcast-scratch-allocs | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-stack-allocs,bcast-scratch-allocs,bcast-scratch-allocs | filecheck %s

// bcast-scratch-allocs (loop IR): a heap alloc (not bcast.stack) that a
// loop's body allocates and deallocates every iteration is marked
// bcast.scratch (the C target makes it once per loop and thread). (Edge
// cases: tests/passes/loops/test_scratch_allocs.py.)

// BEFORE-NOT: bcast.scratch

// A softmax row of 32768 f32 (128 KiB): its exp row is on the heap, made
// once; its max and sum live on the stack.
// CHECK-LABEL: func.func @wide(
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloc() {bcast.stack} : memref<1xf32>
// CHECK-NEXT:      memref.alloc() {bcast.stack} : memref<1xf32>
// CHECK:           memref.alloc() {bcast.scratch} : memref<32768xf32>
func.func @wide(%x: tensor<4x32768xf32>) -> tensor<4x32768xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x32768xf32>) -> tensor<4x1xf32>
  %0 = bcast.subtract %x, %m : (tensor<4x32768xf32>, tensor<4x1xf32>) -> tensor<4x32768xf32>
  %e = bcast.exponential %0 : tensor<4x32768xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x32768xf32>) -> tensor<4x1xf32>
  %1 = bcast.divide %e, %s : (tensor<4x32768xf32>, tensor<4x1xf32>) -> tensor<4x32768xf32>
  func.return %1 : tensor<4x32768xf32>
}

// -----

// Rows of 8: every scratch buffer is on the stack.
// CHECK-LABEL: func.func @narrow(
// CHECK-NOT:     bcast.scratch
// CHECK:         func.return
func.func @narrow(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %0 = bcast.subtract %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = bcast.exponential %0 : tensor<4x8xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %1 = bcast.divide %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}
