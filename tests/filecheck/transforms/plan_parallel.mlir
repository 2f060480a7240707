// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s --check-prefix=BEFORE
// RUN: bcast-opt %s --split-input-file -p 'bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-plan-parallel{min_work=32}' | filecheck %s
// RUN: bcast-opt %s --split-input-file -p 'bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-plan-parallel{min_work=32},bcast-plan-parallel{min_work=32}' | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops,bcast-plan-parallel | filecheck %s --check-prefix=SMALL

// bcast-plan-parallel (loop IR): the outermost bcast.parallel loop of a nest
// that runs at least min_work innermost iterations (default
// plan_parallel.PARALLEL_WORK, 1M) gets bcast.threads, no loop inside it
// does; innermost parallel loops and float add/max/min reductions get
// bcast.vectorize. A second run decides the same.

// BEFORE-NOT: bcast.threads
// BEFORE-NOT: bcast.vectorize

// Softmax rows: the row loop runs 4 x (8 + 8 + 8) = 96 >= 32 iterations on
// threads, its three phases vectorize (two reductions, one parallel loop).
// CHECK-LABEL: func.func @softmax(
// CHECK:         scf.for
// CHECK:           scf.for {{.*}} iter_args
// CHECK:           } {bcast.reduction = "maximum", bcast.vectorize}
// CHECK:           scf.for {{.*}} iter_args
// CHECK:           } {bcast.reduction = "add", bcast.vectorize}
// CHECK:           scf.for
// CHECK:           } {bcast.parallel, bcast.vectorize}
// CHECK:         } {bcast.parallel, bcast.threads}
// Below min_work, nothing runs on threads; the vectorized loops stay:
// SMALL-LABEL: func.func @softmax(
// SMALL:           } {bcast.reduction = "maximum", bcast.vectorize}
// SMALL:           } {bcast.reduction = "add", bcast.vectorize}
// SMALL:           } {bcast.parallel, bcast.vectorize}
// SMALL-NOT:     bcast.threads
// SMALL:         } {bcast.parallel}{{$}}
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = bcast.exponential %d : tensor<4x8xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %r = bcast.divide %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}

// -----

// An integer sum does not vectorize (no reassociation is needed, but the C
// target leaves it to the compiler); 4 x 8 = 32 iterations run on threads.
// CHECK-LABEL: func.func @int_sum(
// CHECK:         scf.for
// CHECK:           scf.for {{.*}} iter_args
// CHECK:           } {bcast.reduction = "add"}
// CHECK:         } {bcast.parallel, bcast.threads}
func.func @int_sum(%x: tensor<4x8xi32>) -> tensor<4xi32> {
  %s = bcast.reduce add %x, dims = [1] : (tensor<4x8xi32>) -> tensor<4xi32>
  func.return %s : tensor<4xi32>
}

// -----

// The default threshold (plan_parallel.PARALLEL_WORK, 2^20 innermost
// iterations): an elementwise 1024x1024 nest runs on threads, 1023x1024
// does not; a softmax's three passes over its rows count, so 592x592
// (3 x 592 x 592 >= 2^20) does and 591x591 does not.
// SMALL-LABEL: func.func @elementwise_at_threshold(
// SMALL:         } {bcast.parallel, bcast.threads}
func.func @elementwise_at_threshold(%x: tensor<1024x1024xf32>, %r: tensor<1024xf32>) -> tensor<1024x1024xf32> {
  %s = bcast.add %x, %r : (tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<1024x1024xf32>
  func.return %s : tensor<1024x1024xf32>
}

// -----

// Below the threshold but at least plan_parallel.BURST_WORK (2^16)
// iterations: on threads only in a burst of calls.
// SMALL-LABEL: func.func @elementwise_below_threshold(
// SMALL:         } {bcast.parallel, bcast.threads, bcast.threads_in_bursts}
// SMALL:         func.return
func.func @elementwise_below_threshold(%x: tensor<1023x1024xf32>, %r: tensor<1024xf32>) -> tensor<1023x1024xf32> {
  %s = bcast.add %x, %r : (tensor<1023x1024xf32>, tensor<1024xf32>) -> tensor<1023x1024xf32>
  func.return %s : tensor<1023x1024xf32>
}

// -----

// SMALL-LABEL: func.func @softmax_at_threshold(
// SMALL:         } {bcast.parallel, bcast.threads}
func.func @softmax_at_threshold(%x: tensor<592x592xf32>) -> tensor<592x592xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<592x592xf32>) -> tensor<592x1xf32>
  %d = bcast.subtract %x, %m : (tensor<592x592xf32>, tensor<592x1xf32>) -> tensor<592x592xf32>
  %e = bcast.exponential %d : tensor<592x592xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<592x592xf32>) -> tensor<592x1xf32>
  %r = bcast.divide %e, %s : (tensor<592x592xf32>, tensor<592x1xf32>) -> tensor<592x592xf32>
  func.return %r : tensor<592x592xf32>
}

// -----

// SMALL-LABEL: func.func @softmax_below_threshold(
// SMALL:         } {bcast.parallel, bcast.threads, bcast.threads_in_bursts}
// SMALL:         func.return
func.func @softmax_below_threshold(%x: tensor<591x591xf32>) -> tensor<591x591xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<591x591xf32>) -> tensor<591x1xf32>
  %d = bcast.subtract %x, %m : (tensor<591x591xf32>, tensor<591x1xf32>) -> tensor<591x591xf32>
  %e = bcast.exponential %d : tensor<591x591xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<591x591xf32>) -> tensor<591x1xf32>
  %r = bcast.divide %e, %s : (tensor<591x591xf32>, tensor<591x1xf32>) -> tensor<591x591xf32>
  func.return %r : tensor<591x591xf32>
}

// -----

// Under BURST_WORK (255 x 256 < 2^16), never on threads.
// SMALL-LABEL: func.func @elementwise_below_bursts(
// SMALL-NOT:     bcast.threads
// SMALL:         } {bcast.parallel}{{$}}
// SMALL-NOT:     bcast.threads
// SMALL:         func.return
func.func @elementwise_below_bursts(%x: tensor<255x256xf32>, %r: tensor<256xf32>) -> tensor<255x256xf32> {
  %s = bcast.add %x, %r : (tensor<255x256xf32>, tensor<256xf32>) -> tensor<255x256xf32>
  func.return %s : tensor<255x256xf32>
}

// -----

// Exactly BURST_WORK: on threads in bursts.
// SMALL-LABEL: func.func @elementwise_at_bursts(
// SMALL:         } {bcast.parallel, bcast.threads, bcast.threads_in_bursts}
func.func @elementwise_at_bursts(%x: tensor<256x256xf32>, %r: tensor<256xf32>) -> tensor<256x256xf32> {
  %s = bcast.add %x, %r : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xf32>
  func.return %s : tensor<256x256xf32>
}
