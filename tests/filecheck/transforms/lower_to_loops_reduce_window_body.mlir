// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: bcast.reduce_window_body is a parallel nest over the
// result, and in it one scf.for per window dim carrying the accumulators
// (the init values first, as iter_args); innermost the inputs are loaded at
// the window place and the body's ops run as scalar ops (compare GT ->
// arith.cmpf ogt, select -> arith.select), each accumulator stored once
// after the loops (an unused one is not stored). No unrolling: a window of
// 1000 places is one loop. Padding loads the place clamped into range and
// selects the init value where the place holds no element.

// A running window (the window of the whole dim padded by its size - 1
// before: JAX's cumulative argmax) whose body folds the init values into
// themselves unchanged is a scan: one loop along the dim carrying the
// accumulators, each step's value stored (1000 body steps, not 10^6).

// CHECK-LABEL: func.func @running_argmax
// CHECK-DAG:     %[[N:.*]] = arith.constant 1000 : index
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-DAG:     %[[MINUS1:.*]] = arith.constant -1 : i32
// CHECK-NOT:     memref.alloc
// CHECK:         %{{.*}}, %{{.*}} = scf.for %[[P:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[V:.*]] = %[[NINF]], %[[I:.*]] = %[[MINUS1]]) -> (f32, i32) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %x[%[[P]]] : memref<1000xf32>
// CHECK-NEXT:      %[[J:.*]] = memref.load %i[%[[P]]] : memref<1000xi32>
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[V]] : f32
// CHECK-NEXT:      %[[NV:.*]] = arith.select %[[GT]], %[[X]], %[[V]] : f32
// CHECK-NEXT:      %[[NI:.*]] = arith.select %[[GT]], %[[J]], %[[I]] : i32
// CHECK-NEXT:      memref.store %[[NI]], %result0[%[[P]]] : memref<1000xi32>
// CHECK-NEXT:      scf.yield %[[NV]], %[[NI]] : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @running_argmax(%x: tensor<1000xf32>, %i: tensor<1000xi32>) -> tensor<1000xi32> {
  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>
  %minus1 = bcast.constant dense<-1> : tensor<i32>
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %minus1), window = [1000], strides = [1], base_dilations = [1], window_dilations = [1], low = [999], high = [0] : (tensor<1000xf32>, tensor<1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<1000xf32>, tensor<1000xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<1000xi32>
}

// -----

// The same window with init values the body changes (a running sum from 1:
// 1 + 1 is not 1) folds the padding's init values too: no scan, the window
// loop with its place test.

// CHECK-LABEL: func.func @running_sum_from_one
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             arith.cmpi ult
func.func @running_sum_from_one(%x: tensor<8xf32>) -> tensor<8xf32> {
  %one = bcast.constant dense<1.0> : tensor<f32>
  %r = bcast.reduce_window_body (%x) init (%one), window = [8], strides = [1], base_dilations = [1], window_dilations = [1], low = [7], high = [0] : (tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = bcast.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    bcast.yield %s : tensor<f32>
  }
  func.return %r : tensor<8xf32>
}

// -----

// A running window along the rows of a matrix: a parallel loop over the
// columns, in it the scan along the rows.

// CHECK-LABEL: func.func @running_argmax_rows
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %{{.*}}, %{{.*}} = scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:        memref.load %x[%[[R]], %[[C]]] : memref<5x3xf32>
// CHECK:             memref.store %{{.*}}, %result0[%[[R]], %[[C]]] : memref<5x3xi32>
// CHECK:         } {bcast.parallel}
func.func @running_argmax_rows(%x: tensor<5x3xf32>, %i: tensor<5x3xi32>) -> tensor<5x3xi32> {
  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>
  %minus1 = bcast.constant dense<-1> : tensor<i32>
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %minus1), window = [5, 1], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [4, 0], high = [0, 0] : (tensor<5x3xf32>, tensor<5x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<5x3xf32>, tensor<5x3xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<5x3xi32>
}

// -----

// A ? dim no window spans is a loop to the input's run-time size.

// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         %[[ROWS:.*]] = memref.dim %x, %{{.*}} : memref<?x6xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
func.func @dynamic_rows(%x: tensor<?x6xf32>, %i: tensor<?x6xi32>) -> tensor<?x4xi32> {
  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>
  %zero = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %zero), window = [1, 3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<?x6xf32>, tensor<?x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<?x4xf32>, tensor<?x4xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<?x4xi32>
}

// -----

// A window over a ? dim: the result size is the window count of the run-time
// size; every place is checked against that size, and an empty input is read
// nowhere: two nests, the outer trip count the result's in the one for an
// empty input (the init values folded at every place) and 0 in the other.

// CHECK-LABEL: func.func @argmax_symbolic_length
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?xf32>
// CHECK:         %[[M:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:    %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK-NEXT:    %[[FOR_EMPTY:.*]] = arith.select %[[EMPTY]], %[[M]], %{{.*}} : index
// CHECK-NEXT:    %[[FOR_FULL:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[M]] : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[FOR_EMPTY]] step
// CHECK-NOT:       memref.load
// CHECK:         } {bcast.parallel}
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[FOR_FULL]] step
// CHECK:           %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK:           memref.load %x[
// CHECK-NEXT:      memref.load %i[
// CHECK-NEXT:      arith.select %[[INSIDE]]
func.func @argmax_symbolic_length(%x: tensor<?xf32>, %i: tensor<?xi32>) -> tensor<?xi32> {
  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>
  %minus1 = bcast.constant dense<-1> : tensor<i32>
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %minus1), window = [3], strides = [2], base_dilations = [1], window_dilations = [1], low = [1], high = [1] : (tensor<?xf32>, tensor<?xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<?xi32>
}
