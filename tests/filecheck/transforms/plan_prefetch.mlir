// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-streaming-stores | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-streaming-stores,bcast-plan-prefetch | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-streaming-stores,bcast-plan-prefetch,bcast-plan-prefetch | filecheck %s

// bcast-plan-prefetch (loop IR): in a row loop running phases (a softmax
// row: max, exp and sum, divide), the second phase prefetches in blocks of
// plan_prefetch.PREFETCH_BLOCK iterations (bcast.prefetch_block) the rows
// ahead of the arrays of at least plan_prefetch.PREFETCH_BYTES (4 MiB) the
// first phase reads whole (bcast.prefetch_ahead = 2) and the last phase
// writes whole (= 1, for writing); a last phase's nontemporal store waits
// for the next row's second phase (bcast.deferred_stream). (Edge cases:
// tests/passes/loops/test_plan_prefetch.py.)

// BEFORE-NOT: bcast.prefetch
// BEFORE-NOT: bcast.deferred_stream

// 1024 x 1024 f32 (4 MiB): the input two rows ahead, the result the next row.
// CHECK-LABEL: func.func @rows(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             memref.load %x[%{{[0-9]+}}, %{{[0-9]+}}] {bcast.prefetch_ahead = 2 : i64}
// CHECK:           } {bcast.reduction = "maximum"}
// CHECK:           scf.for
// CHECK-NOT:         bcast.prefetch_ahead
// CHECK:           } {bcast.reduction = "add", bcast.prefetch_block = 128 : i64}
// CHECK:           scf.for
// CHECK:             memref.store %{{[0-9]+}}, %result0[%{{[0-9]+}}, %{{[0-9]+}}] {bcast.prefetch_ahead = 1 : i64}
// CHECK-NOT:     bcast.deferred_stream
// CHECK:         func.return
func.func @rows(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<1024x1024xf32>) -> tensor<1024x1xf32>
  %0 = bcast.subtract %x, %m : (tensor<1024x1024xf32>, tensor<1024x1xf32>) -> tensor<1024x1024xf32>
  %e = bcast.exponential %0 : tensor<1024x1024xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<1024x1024xf32>) -> tensor<1024x1xf32>
  %1 = bcast.divide %e, %s : (tensor<1024x1024xf32>, tensor<1024x1xf32>) -> tensor<1024x1024xf32>
  func.return %1 : tensor<1024x1024xf32>
}

// -----

// 4096 x 2048 f32 (32 MiB): the result is streamed (nontemporal), a row
// (8 KiB) at a time from the next row's exp phase.
// CHECK-LABEL: func.func @streamed(
// CHECK:           } {bcast.reduction = "add", bcast.prefetch_block = 128 : i64}
// CHECK:             memref.store %{{[0-9]+}}, %result0[%{{[0-9]+}}, %{{[0-9]+}}] {bcast.deferred_stream, nontemporal = true}
func.func @streamed(%x: tensor<4096x2048xf32>) -> tensor<4096x2048xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4096x2048xf32>) -> tensor<4096x1xf32>
  %0 = bcast.subtract %x, %m : (tensor<4096x2048xf32>, tensor<4096x1xf32>) -> tensor<4096x2048xf32>
  %e = bcast.exponential %0 : tensor<4096x2048xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4096x2048xf32>) -> tensor<4096x1xf32>
  %1 = bcast.divide %e, %s : (tensor<4096x2048xf32>, tensor<4096x1xf32>) -> tensor<4096x2048xf32>
  func.return %1 : tensor<4096x2048xf32>
}

// -----

// 512 x 512 f32 (1 MiB): likely in cache already, nothing is prefetched.
// CHECK-LABEL: func.func @small(
// CHECK-NOT:     bcast.prefetch
// CHECK:         func.return
func.func @small(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<512x512xf32>) -> tensor<512x1xf32>
  %0 = bcast.subtract %x, %m : (tensor<512x512xf32>, tensor<512x1xf32>) -> tensor<512x512xf32>
  %e = bcast.exponential %0 : tensor<512x512xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<512x512xf32>) -> tensor<512x1xf32>
  %1 = bcast.divide %e, %s : (tensor<512x512xf32>, tensor<512x1xf32>) -> tensor<512x512xf32>
  func.return %1 : tensor<512x512xf32>
}
