// Dynamic and bounded dims through the passes and targets, as of today
// (docs/semantics.md, "Dynamic and bounded shapes"): canonicalize keeps the
// ops that have them as they are, so does bcast-sink-broadcasts;
// bcast-fuse fuses them as static ones (fuse.mlir, fuse_reduce.mlir);
// bcast-lower-to-loops and the C target lower them (sizes read at entry:
// lower_to_loops_dynamic.mlir), the numpy and array-api targets run the
// explicit form (target_dynamic.mlir), and -t stablehlo writes them as JAX
// exports them (target_stablehlo_dynamic.mlir).

// RUN: bcast-opt %s -p canonicalize | filecheck %s
// RUN: bcast-opt %s -p bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s -p bcast-fuse | filecheck %s --check-prefix=FUSE
// RUN: bcast-opt %s -p bcast-sink-broadcasts | filecheck %s
// RUN: bcast-opt %s -p bcast-lower-to-loops | filecheck %s --check-prefix=LOOPS
// RUN: bcast-opt %s -t c | filecheck %s --check-prefix=C

// A reduction over no dims would fold to its operand for static shapes; the
// patterns are written for static shapes, so a dynamic op is kept (by
// canonicalize and by bcast-sink-broadcasts). -t stablehlo writes dynamic
// programs (target_stablehlo_dynamic.mlir).
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %r = bcast.reduce add %x, dims = [] : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %0 = bcast.add %r, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return %0 : tensor<?xf32>
// FUSE:      bcast.fusion %x : (tensor<?xf32>) -> tensor<?xf32>
// FUSE:        bcast.reduce add %x_1, dims = []
// FUSE-NEXT:   bcast.add
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = bcast.reduce add %x, dims = [] : (tensor<?xf32>) -> tensor<?xf32>
  %0 = bcast.add %r, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// bcast-make-explicit makes dynamic programs explicit (make_explicit_dynamic.mlir):
// the reduction is kept, the add of two ? dims gets its check (EXPLICIT lines at the end).
// LOOPS:      func.func @main(%x: memref<?xf32>, %result0: memref<?xf32>)
// LOOPS:        %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?xf32>
// LOOPS:        memref.alloc(%[[N]]) : memref<?xf32>
// LOOPS:        scf.for %{{.*}} = %{{.*}} to %[[N]] step
// C: void bcast_main(const float *restrict x, int64_t x_d0, float *restrict result0, int64_t result0_d0) {

// EXPLICIT:      bcast.reduce add %x, dims = []
// EXPLICIT:      bcast.check_broadcastable
// EXPLICIT:      bcast.add
