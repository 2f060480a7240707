// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants,bcast-streaming-stores | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-hoist-invariants,bcast-streaming-stores,bcast-streaming-stores | filecheck %s

// bcast-streaming-stores (loop IR): a store of an innermost bcast.parallel
// loop to a result of at least streaming_stores.STREAM_BYTES (32 MiB), at
// consecutive addresses, is upstream's `nontemporal = true` (the C target
// streams it through a tile); smaller results keep plain stores. (Edge
// cases: tests/passes/loops/test_streaming_stores.py.)

// BEFORE-NOT: nontemporal

// 4096 x 2048 f32: 32 MiB.
// CHECK-LABEL: func.func @big(
// CHECK:         memref.store %{{[0-9]+}}, %result0[%{{[0-9]+}}, %{{[0-9]+}}] {nontemporal = true} : memref<4096x2048xf32>
func.func @big(%x: tensor<4096x2048xf32>, %row: tensor<2048xf32>) -> tensor<4096x2048xf32> {
  %r = bcast.add %x, %row : (tensor<4096x2048xf32>, tensor<2048xf32>) -> tensor<4096x2048xf32>
  func.return %r : tensor<4096x2048xf32>
}

// -----

// 4095 x 2048 f32: just under.
// CHECK-LABEL: func.func @under(
// CHECK-NOT:     nontemporal
// CHECK:         memref.store %{{[0-9]+}}, %result0[%{{[0-9]+}}, %{{[0-9]+}}] : memref<4095x2048xf32>
// CHECK-NOT:     nontemporal
func.func @under(%x: tensor<4095x2048xf32>, %row: tensor<2048xf32>) -> tensor<4095x2048xf32> {
  %r = bcast.add %x, %row : (tensor<4095x2048xf32>, tensor<2048xf32>) -> tensor<4095x2048xf32>
  func.return %r : tensor<4095x2048xf32>
}
