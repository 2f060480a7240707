// Dynamic and bounded dims through the passes and targets, as of today
// (docs/semantics.md, "Dynamic and bounded shapes"): canonicalize keeps the
// ops that have them as they are; the passes and targets that handle static
// shapes only refuse them, located, naming themselves.

// RUN: bcast-opt %s -p canonicalize | filecheck %s
// RUN: bcast-opt %s -p bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: not bcast-opt %s -p bcast-fuse 2>&1 | filecheck %s --check-prefix=FUSE
// RUN: bcast-opt %s -p bcast-sink-broadcasts | filecheck %s
// RUN: not bcast-opt %s -p bcast-lower-to-loops 2>&1 | filecheck %s --check-prefix=LOOPS
// RUN: not bcast-opt %s -t numpy 2>&1 | filecheck %s --check-prefix=NUMPY
// RUN: not bcast-opt %s -t c 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s -t array-api 2>&1 | filecheck %s --check-prefix=ARRAY-API

// A reduction over no dims would fold to its operand for static shapes; the
// patterns are written for static shapes, so a dynamic op is kept (by
// canonicalize and by bcast-sink-broadcasts). -t stablehlo writes dynamic
// programs (target_stablehlo_dynamic.mlir).
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %r = bcast.reduce add %x, dims = [] : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %0 = bcast.add %r, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return %0 : tensor<?xf32>
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = bcast.reduce add %x, dims = [] : (tensor<?xf32>) -> tensor<?xf32>
  %0 = bcast.add %r, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// bcast-make-explicit makes dynamic programs explicit (make_explicit_dynamic.mlir):
// the reduction is kept, the add of two ? dims gets its check (EXPLICIT lines at the end).
// FUSE: error: 'func.func' op has dynamic dimensions (tensor<?xf32>), which bcast-fuse does not support yet
// LOOPS: error: 'func.func' op has dynamic dimensions (tensor<?xf32>), which bcast-lower-to-loops does not support yet
// NUMPY: dynamic_not_yet.mlir:[[# @LINE - 10]]:1: error: 'func.func' op has dynamic dimensions (tensor<?xf32>), which the numpy target does not support yet
// C: error: 'func.func' op has dynamic dimensions (tensor<?xf32>), which the c target does not support yet
// ARRAY-API: error: 'func.func' op has dynamic dimensions (tensor<?xf32>), which the array-api target does not support yet

// EXPLICIT:      bcast.reduce add %x, dims = []
// EXPLICIT:      bcast.check_broadcastable
// EXPLICIT:      bcast.add
