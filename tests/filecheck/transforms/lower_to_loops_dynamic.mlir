// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s
// RUN: bcast-opt %s -t c | filecheck %s --check-prefix=CSRC

// bcast-lower-to-loops on the explicit dynamic form (docs/c-backend.md,
// "Dynamic shapes"): a tensor<?x4xf32> argument is a memref<?x4xf32> whose
// size is read once at entry (memref.dim); bcast.broadcast_size is a select
// (the first size that is not 1); each dynamic_broadcast_in_dim operand dim
// that may be 1 gets its step (0 where its size is 1, else 1) at the top
// level, and is read at index * step: a stride of 0 where a row stretches.
// The elementwise chain read once per element is one nest, as fused; the
// checks are the C runtime's, before the call (lowering/c_sizes.py).
// tests/lowering/test_c_dynamic.py has mlir-opt 19 verify such loop IR.

// CHECK-LABEL: func.func @main(%x: memref<?x4xf32>, %row: memref<4xf32>, %col: memref<?x1xf32>, %result0: memref<?x4xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[N:.*]] = memref.dim %x, %[[C0]] : memref<?x4xf32>
// CHECK-NEXT:    %[[M:.*]] = memref.dim %col, %[[C0]] : memref<?x1xf32>
// CHECK-NEXT:    %[[NOT1:.*]] = arith.cmpi ne, %[[N]], %[[C1]] : index
// CHECK-NEXT:    %[[S:.*]] = arith.select %[[NOT1]], %[[N]], %[[M]] : index
// CHECK-NEXT:    %[[XONE:.*]] = arith.cmpi eq, %[[N]], %[[C1]] : index
// CHECK-NEXT:    %[[XSTEP:.*]] = arith.select %[[XONE]], %[[C0]], %[[C1]] : index
// CHECK-NEXT:    %[[CONE:.*]] = arith.cmpi eq, %[[M]], %[[C1]] : index
// CHECK-NEXT:    %[[CSTEP:.*]] = arith.select %[[CONE]], %[[C0]], %[[C1]] : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[S]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:        %[[XI:.*]] = arith.muli %[[I]], %[[XSTEP]] : index
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[XI]], %[[J]]] : memref<?x4xf32>
// CHECK-NEXT:        %[[R:.*]] = memref.load %row[%[[J]]] : memref<4xf32>
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[X]], %[[R]] : f32
// CHECK-NEXT:        %[[COLI:.*]] = arith.muli %[[I]], %[[CSTEP]] : index
// CHECK-NEXT:        %[[COLV:.*]] = memref.load %col[%[[COLI]], %[[C0]]] : memref<?x1xf32>
// CHECK-NEXT:        %[[P:.*]] = arith.mulf %[[SUM]], %[[COLV]] : f32
// CHECK-NEXT:        %[[T:.*]] = math.tanh %[[P]] : f32
// CHECK-NEXT:        memref.store %[[T]], %result0[%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK-NEXT:      } {bcast.parallel}
// CHECK-NEXT:    } {bcast.parallel}
// CHECK-NEXT:    func.return

// Each ? dim is an int64_t parameter after its pointer; the strides after a
// leading ? dim are literals, as in the static program.
// CSRC:      void bcast_main(const float *restrict x, int64_t x_d0, const float *restrict row, const float *restrict col, int64_t col_d0, float *restrict result0, int64_t result0_d0) {
// CSRC:        int64_t [[XSTEP:v[0-9]+]] = v{{[0-9]+}} ? 0 : 1;
// CSRC:        int64_t [[CSTEP:v[0-9]+]] = v{{[0-9]+}} ? 0 : 1;
// CSRC:        for (int64_t [[I:i[0-9]+]] = 0; [[I]] < v{{[0-9]+}}; [[I]] += 1) {
// CSRC-NEXT:     int64_t [[XI:v[0-9]+]] = [[I]] * [[XSTEP]];
// CSRC:          for (int64_t [[J:i[0-9]+]] = 0; [[J]] < 4; [[J]] += 1) {
// CSRC-NEXT:       float {{v[0-9]+}} = x[[[XI]] * 4 + [[J]]];
// CSRC:            result0[[[I]] * 4 + [[J]]] = {{v[0-9]+}};
func.func @main(%x: tensor<?x4xf32>, %row: tensor<4xf32>, %col: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = bcast.add %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = bcast.multiply %0, %col : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %2 = bcast.tanh %1 : tensor<?x4xf32>
  func.return %2 : tensor<?x4xf32>
}

// -----

// A reduction over a ? dim of rows: the accumulating loop runs to the size
// read at entry; the result buffer is the caller's memref<?xf32>.
// CHECK-LABEL: func.func @rows_sum(%x: memref<?x?xf32>, %result0: memref<?xf32>)
// CHECK:         %[[R:.*]] = memref.dim %x, %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:    %[[K:.*]] = memref.dim %x, %{{.*}} : memref<?x?xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[R]] step
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[K]] step {{.*}} iter_args
// CHECK:           } {bcast.reduction = "add"}
// CHECK:           memref.store %{{.*}}, %result0[%[[I]]] : memref<?xf32>
// CSRC:      void bcast_rows_sum(const float *restrict x, int64_t x_d0, int64_t x_d1, float *restrict result0, int64_t result0_d0) {
// CSRC:        x[[[I:i[0-9]+]] * x_d1 + [[K:i[0-9]+]]]
func.func @rows_sum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = bcast.reduce add %x, dims = [1] : (tensor<?x?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
