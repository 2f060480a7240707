// RUN: bcast-opt %s -p bcast-lower-to-loops | filecheck %s
// RUN: bcast-opt %s | filecheck %s --check-prefix=ROUND

// bcast-lower-to-loops on dynamic ops beyond elementwise ops, broadcasts and
// reductions (docs/c-backend.md, "Dynamic shapes"): a transpose permutes the
// sizes and indices; dynamic_reshape reads through the row-major position,
// divided by each operand size (a static one as it is, a run-time one at
// least 1); the size ops of JAX's exports are scalar code at the top level
// (a shape assertion none: the C runtime checks it before the call,
// lowering/c_sizes.py), and size_from_tensor widens by the signedness.

// ROUND-LABEL: func.func @transpose
// ROUND:         bcast.transpose %x, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
// CHECK-LABEL: func.func @transpose(%x: memref<?x4xf32>, %result0: memref<4x?xf32>)
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x4xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[J]], %[[I]]] : memref<?x4xf32>
// CHECK-NEXT:        memref.store %[[V]], %result0[%[[I]], %[[J]]] : memref<4x?xf32>
func.func @transpose(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %0 = bcast.transpose %x, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  func.return %0 : tensor<4x?xf32>
}

// CHECK-LABEL: func.func @split(%x: memref<?x6xf32>, %result0: memref<?x2x3xf32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:             %[[A:.*]] = arith.muli %{{.*}}, %[[C2]] : index
// CHECK-NEXT:        %[[B:.*]] = arith.addi %[[A]], %{{.*}} : index
// CHECK-NEXT:        %[[C:.*]] = arith.muli %[[B]], %[[C3]] : index
// CHECK-NEXT:        %[[L:.*]] = arith.addi %[[C]], %{{.*}} : index
// CHECK-NEXT:        %[[COL:.*]] = arith.remui %[[L]], %[[C6]] : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.divui %[[L]], %[[C6]] : index
// CHECK-NEXT:        memref.load %x[%[[ROW]], %[[COL]]] : memref<?x6xf32>
func.func @split(%x: tensor<?x6xf32>) -> tensor<?x2x3xf32> {
  %n = bcast.dim %x, 0 : tensor<?x6xf32>
  %0 = bcast.dynamic_reshape %x, [%n, 2, 3] : (tensor<?x6xf32>) -> tensor<?x2x3xf32>
  func.return %0 : tensor<?x2x3xf32>
}

// A reshape that only inserts a size-1 dim reads its operand's index directly.
// CHECK-LABEL: func.func @unit(%x: memref<?x6xf32>, %result0: memref<?x1x6xf32>)
// CHECK-NOT:     arith.divui
// CHECK:         memref.load %x[%[[I:.*]], %[[J:.*]]] : memref<?x6xf32>
// CHECK-NEXT:    memref.store %{{.*}}, %result0[%[[I]], %{{.*}}, %[[J]]] : memref<?x1x6xf32>
func.func @unit(%x: tensor<?x6xf32>) -> tensor<?x1x6xf32> {
  %n = bcast.dim %x, 0 : tensor<?x6xf32>
  %0 = bcast.dynamic_reshape %x, [%n, 1, 6] : (tensor<?x6xf32>) -> tensor<?x1x6xf32>
  func.return %0 : tensor<?x1x6xf32>
}

// CHECK-LABEL: func.func @sizes(%x: memref<?x4xf32>, %result0: memref<?xf32>, %result1: memref<?xi32>)
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x4xf32>
// CHECK:         %[[NT:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK-NOT:     shape_assertion
// CHECK:         %[[ALL:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:         %[[W:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT:    %[[M:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[M]] step
// CHECK:           arith.divui
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:      %[[K:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[T:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK-NEXT:      memref.store %[[T]], %result1[%[[I]]] : memref<?xi32>
func.func @sizes(%x: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %n = bcast.dim %x, 0 : tensor<?x4xf32>
  %nt = bcast.size_to_tensor %n : tensor<i32>
  %one = bcast.constant dense<1> : tensor<i32>
  %ok = bcast.compare GE, %nt, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
  bcast.shape_assertion %ok, %nt message = "b = {0}" : tensor<i1>, tensor<i32>
  %four = bcast.constant dense<4> : tensor<i32>
  %all = bcast.multiply %nt, %four : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %m = bcast.size_from_tensor %all : tensor<i32>
  %flat = bcast.dynamic_reshape %x, [%m] : (tensor<?x4xf32>) -> tensor<?xf32>
  %iota = bcast.dynamic_iota [%n], dim = 0 : tensor<?xi32>
  func.return %flat, %iota : tensor<?xf32>, tensor<?xi32>
}

// A bounded result: the first %n entries, read at their own index.
// CHECK-LABEL: func.func @bounded(%x: memref<16xf32>, %n: index, %result0: memref<?xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %n step
// CHECK-NEXT:      %[[V:.*]] = memref.load %x[%[[I]]] : memref<16xf32>
// CHECK-NEXT:      memref.store %[[V]], %result0[%[[I]]] : memref<?xf32>
func.func @bounded(%x: tensor<16xf32>, %n: index) -> tensor<?xf32, #stablehlo.bounds<16>> {
  %0 = bcast.set_dimension_size %x, %n, dim = 0 : (tensor<16xf32>) -> tensor<?xf32, #stablehlo.bounds<16>>
  func.return %0 : tensor<?xf32, #stablehlo.bounds<16>>
}

// A reverse along a ? dim reads n - 1 - i of the run-time size n (a static
// dim n - 1 - i of the constant).
// ROUND-LABEL: func.func @reverse
// ROUND:         bcast.reverse %x, dims = [0, 1] : tensor<?x8xf32>
// CHECK-LABEL: func.func @reverse(%x: memref<?x8xf32>, %result0: memref<?x8xf32>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x8xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[LAST:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:        %[[RI:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK-NEXT:        %[[RJ:.*]] = arith.subi %[[C7]], %[[J]] : index
// CHECK-NEXT:        memref.load %x[%[[RI]], %[[RJ]]] : memref<?x8xf32>
func.func @reverse(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = bcast.reverse %x, dims = [0, 1] : tensor<?x8xf32>
  func.return %0 : tensor<?x8xf32>
}

// A cumulative along a ? dim runs the run-time n steps (reverse: from n - 1 down).
// ROUND-LABEL: func.func @cumulative
// ROUND:         bcast.cumulative add %x, dim = 0 reverse : (tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-LABEL: func.func @cumulative(%x: memref<?x3xf32>, %result0: memref<?x3xf32>)
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x3xf32>
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %[[C1:.*]] iter_args
// CHECK-NEXT:        %[[LAST:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT:        %[[AT:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK-NEXT:        memref.load %x[%[[AT]], %{{.*}}] : memref<?x3xf32>
func.func @cumulative(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = bcast.cumulative add %x, dim = 0 reverse : (tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
