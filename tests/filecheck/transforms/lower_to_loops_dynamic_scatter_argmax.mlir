// RUN: bcast-opt %s --split-input-file -p bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops of scatter with ? dims and argmax along a ? dim
// (docs/c-backend.md, "Dynamic shapes"). The scatter copies the operand,
// then runs its update nest inside one loop of 1 iteration, or of none when
// the operand is empty at run time (nothing to load or store); positions are
// bounded and compared against the run-time sizes. The argmax scans its
// run-time dim (make-explicit checked it is not empty).

// CHECK-LABEL: func.func @scatter_rows
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x4xf32>
// CHECK:         %[[K:.*]] = memref.dim %u, %{{.*}} : memref<?x4xf32>
// CHECK:         %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:    %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK-NEXT:    %[[ONCE:.*]] = arith.select %[[EMPTY]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[ONCE]] step
// CHECK-NEXT:      scf.for %[[R:.*]] = %{{.*}} to %[[K]] step
// CHECK:             %[[P:.*]] = arith.minsi %{{.*}}, %[[N64]] : i64
// CHECK:             arith.cmpi ult, %[[P]], %[[N64]] : i64
// CHECK:             %[[OLD:.*]] = memref.load %result0
// CHECK:             %[[SUM:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK-NEXT:        %[[NEW:.*]] = arith.select %{{.*}}, %[[SUM]], %[[OLD]] : f32
// CHECK-NEXT:        memref.store %[[NEW]], %result0
func.func @scatter_rows(%x: tensor<?x4xf32>, %i: tensor<?x1xi32>, %u: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = bcast.scatter add %x[%i], %u, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<?x4xf32>, tensor<?x1xi32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// A static operand (segment_sum of a ? length): no guard loop.
// CHECK-LABEL: func.func @segment_sum
// CHECK-NOT:     arith.select {{.*}} : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK:           arith.cmpi ult, %{{.*}}, %{{.*}} : i64
func.func @segment_sum(%z: tensor<5x3xf32>, %s: tensor<?x1xi32>, %d: tensor<?x3xf32>) -> tensor<5x3xf32> {
  %r = bcast.scatter add %z[%s], %d, <update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1> : (tensor<5x3xf32>, tensor<?x1xi32>, tensor<?x3xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// CHECK-LABEL: func.func @argmax_run_time_dim
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<3x?xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args
func.func @argmax_run_time_dim(%x: tensor<3x?xf32>) -> tensor<3xi32> {
  %r = bcast.argmax %x, dim = 1 : (tensor<3x?xf32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}
