// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: a fusion is a loop nest over memrefs (arguments,
// then one caller-allocated memref per result); broadcasts are index
// expressions, never materialized.

// A broadcast add: the row operand is indexed by the column only, the
// column operand (3x1) reads index 0 of its size-1 dim.
// CHECK-LABEL: func.func @broadcast_add(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<3x4xf32>, %[[ROW:[a-z0-9_]+]]: memref<4xf32>, %[[COL:[a-z0-9_]+]]: memref<3x1xf32>, %[[OUT:[a-z0-9_]+]]: memref<3x4xf32>) attributes {llvm.emit_c_interface} {
// CHECK-DAG:     %[[C0:[0-9]+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:[0-9]+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:[0-9]+]] = arith.constant 4 : index
// CHECK:         scf.for %[[I:[0-9]+]] = %[[C0]] to %[[C3]] step
// CHECK-NEXT:      scf.for %[[J:[0-9]+]] = %[[C0]] to %[[C4]] step
// CHECK-NEXT:        %[[A:[0-9]+]] = memref.load %[[X]][%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[B:[0-9]+]] = memref.load %[[ROW]][%[[J]]] : memref<4xf32>
// CHECK-NEXT:        %[[S:[0-9]+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:        %[[C:[0-9]+]] = memref.load %[[COL]][%[[I]], %[[C0]]] : memref<3x1xf32>
// CHECK-NEXT:        %[[M:[0-9]+]] = arith.mulf %[[S]], %[[C]] : f32
// CHECK-NEXT:        memref.store %[[M]], %[[OUT]][%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @broadcast_add(%x: tensor<3x4xf32>, %row: tensor<4xf32>, %col: tensor<3x1xf32>) -> tensor<3x4xf32> {
  %s = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %m = bcast.multiply %s, %col : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  func.return %m : tensor<3x4xf32>
}

// -----

// Softmax: one loop over the rows (bcast.parallel: rows write disjoint
// data, and the per-row scratch is allocated inside the loop, so each
// iteration has its own); inside it one nest per phase. Reductions over the
// innermost dims accumulate in a register (an scf.for carrying it, marked
// bcast.reduction) starting at the kind's identity (-inf, 0), stored once
// per row. exp, read by the sum and the divide phases, is computed once:
// the sum phase keeps it in a row buffer that the last phase loads.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<4x3xf32>, %[[OUT:[a-z0-9_]+]]: memref<4x3xf32>)
// CHECK-DAG:     %[[NEGINF:[0-9]+]] = arith.constant 0xff800000 : f32
// CHECK-DAG:     %[[ZERO:[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for %[[I:[0-9]+]] =
// CHECK-NEXT:      %[[MAX:[0-9]+]] = memref.alloc() : memref<1xf32>
// CHECK-NEXT:      %[[SUM:[0-9]+]] = memref.alloc() : memref<1xf32>
// CHECK-NEXT:      %[[M:[0-9]+]] = scf.for %[[J:[0-9]+]] = {{.*}} iter_args(%[[ACC:[0-9]+]] = %[[NEGINF]]) -> (f32) {
// CHECK-NEXT:        %[[V:[0-9]+]] = memref.load %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[NEW:[0-9]+]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:        scf.yield %[[NEW]] : f32
// CHECK-NEXT:      } {bcast.reduction = "maximum"}
// CHECK-NEXT:      memref.store %[[M]], %[[MAX]]
// CHECK-NEXT:      %[[ROW:[0-9]+]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT:      %[[S:[0-9]+]] = scf.for %[[J2:[0-9]+]] = {{.*}} iter_args(%{{[0-9]+}} = %[[ZERO]]) -> (f32) {
// CHECK:             %[[E:[0-9]+]] = math.exp
// CHECK-NEXT:        memref.store %[[E]], %[[ROW]][%[[J2]]]
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {bcast.reduction = "add"}
// CHECK-NEXT:      memref.store %[[S]], %[[SUM]]
// CHECK-NEXT:      scf.for %[[K:[0-9]+]] =
// CHECK-NEXT:        %[[E2:[0-9]+]] = memref.load %[[ROW]][%[[K]]]
// CHECK-NEXT:        %[[T:[0-9]+]] = memref.load %[[SUM]]
// CHECK-NEXT:        %[[D:[0-9]+]] = arith.divf %[[E2]], %[[T]] : f32
// CHECK-NEXT:        memref.store %[[D]], %[[OUT]][%[[I]], %[[K]]]
// CHECK-NEXT:      } {bcast.parallel}
// CHECK-NEXT:      memref.dealloc %[[MAX]]
// CHECK-NEXT:      memref.dealloc %[[SUM]]
// CHECK-NEXT:      memref.dealloc %[[ROW]]
// CHECK-NEXT:    } {bcast.parallel}
// CHECK-NEXT:    func.return
func.func @softmax(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %e = bcast.exponential %d : tensor<4x3xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>
  %r = bcast.divide %e, %s : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// A batched softmax (over the last dim of a rank-3 tensor): every leading
// dim that no reduction reduces is a row dim, so the row loops nest over
// both (4 x 5 rows) and each phase runs over one row of 3, with one-element
// and one-row scratch, not over a whole 5x3 slice.
// CHECK-LABEL: func.func @batched_softmax(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<4x5x3xf32>, %[[OUT:[a-z0-9_]+]]: memref<4x5x3xf32>)
// CHECK:         scf.for %[[I:[0-9]+]] =
// CHECK-NEXT:      scf.for %[[J:[0-9]+]] =
// CHECK-NEXT:        %[[MAX:[0-9]+]] = memref.alloc() : memref<1xf32>
// CHECK-NEXT:        %[[SUM:[0-9]+]] = memref.alloc() : memref<1xf32>
// CHECK-NEXT:        scf.for %[[K:[0-9]+]] =
// CHECK-NEXT:          memref.load %[[X]][%[[I]], %[[J]], %[[K]]]
// CHECK:             } {bcast.reduction = "maximum"}
// CHECK:             %[[ROW:[0-9]+]] = memref.alloc() : memref<3xf32>
// CHECK:             } {bcast.reduction = "add"}
// CHECK:             scf.for %[[K2:[0-9]+]] =
// CHECK-NEXT:          memref.load %[[ROW]][%[[K2]]]
// CHECK-NEXT:          memref.load %[[SUM]]
// CHECK-NEXT:          arith.divf
// CHECK-NEXT:          memref.store %{{[0-9]+}}, %[[OUT]][%[[I]], %[[J]], %[[K2]]]
// CHECK-NEXT:        } {bcast.parallel}
// CHECK:           } {bcast.parallel}
// CHECK-NEXT:    } {bcast.parallel}
func.func @batched_softmax(%x: tensor<4x5x3xf32>) -> tensor<4x5x3xf32> {
  %m = bcast.reduce maximum %x, dims = [2] keepdims : (tensor<4x5x3xf32>) -> tensor<4x5x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4x5x3xf32>, tensor<4x5x1xf32>) -> tensor<4x5x3xf32>
  %e = bcast.exponential %d : tensor<4x5x3xf32>
  %s = bcast.reduce add %e, dims = [2] keepdims : (tensor<4x5x3xf32>) -> tensor<4x5x1xf32>
  %r = bcast.divide %e, %s : (tensor<4x5x3xf32>, tensor<4x5x1xf32>) -> tensor<4x5x3xf32>
  func.return %r : tensor<4x5x3xf32>
}

// -----

// A reduction over dims 1 and 2 leaves only dim 0 as rows: the row loop is
// over 4, and the phases over 5x3 slices.
// CHECK-LABEL: func.func @slice_centered(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<4x5x3xf32>, %[[OUT:[a-z0-9_]+]]: memref<4x5x3xf32>)
// CHECK:         scf.for %[[I:[0-9]+]] =
// CHECK-NEXT:      %[[S:[0-9]+]] = memref.alloc() : memref<1x1xf32>
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          memref.load %[[X]][%[[I]], %{{[0-9]+}}, %{{[0-9]+}}]
func.func @slice_centered(%x: tensor<4x5x3xf32>) -> tensor<4x5x3xf32> {
  %s = bcast.reduce add %x, dims = [1, 2] keepdims : (tensor<4x5x3xf32>) -> tensor<4x1x1xf32>
  %r = bcast.subtract %x, %s : (tensor<4x5x3xf32>, tensor<4x1x1xf32>) -> tensor<4x5x3xf32>
  func.return %r : tensor<4x5x3xf32>
}

// -----

// Integer divide: x / 0 = -1 and INT_MIN / -1 = INT_MIN (docs/semantics.md); the
// divisor is replaced by 1 in both cases so arith.divsi never divides by 0
// or overflows (undefined behaviour in LLVM), then the result is selected.
// CHECK-LABEL: func.func @divide(
// CHECK-SAME:      %[[A:[a-z0-9_]+]]: memref<4xi32>, %[[B:[a-z0-9_]+]]: memref<4xi32>, %[[OUT:[a-z0-9_]+]]: memref<4xi32>)
// CHECK-DAG:     %[[Z:[0-9]+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ONE:[0-9]+]] = arith.constant 1 : i32
// CHECK-DAG:     %[[MIN:[0-9]+]] = arith.constant -2147483648 : i32
// CHECK-DAG:     %[[M1:[0-9]+]] = arith.constant -1 : i32
// CHECK:         scf.for %[[I:[0-9]+]] =
// CHECK-NEXT:      %[[X:[0-9]+]] = memref.load %[[A]][%[[I]]]
// CHECK-NEXT:      %[[Y:[0-9]+]] = memref.load %[[B]][%[[I]]]
// CHECK-NEXT:      %[[ISZERO:[0-9]+]] = arith.cmpi eq, %[[Y]], %[[Z]] : i32
// CHECK-NEXT:      %[[SAFE:[0-9]+]] = arith.select %[[ISZERO]], %[[ONE]], %[[Y]] : i32
// CHECK-NEXT:      %[[XMIN:[0-9]+]] = arith.cmpi eq, %[[X]], %[[MIN]] : i32
// CHECK-NEXT:      %[[YM1:[0-9]+]] = arith.cmpi eq, %[[Y]], %[[M1]] : i32
// CHECK-NEXT:      %[[OVF:[0-9]+]] = arith.andi %[[XMIN]], %[[YM1]] : i1
// CHECK-NEXT:      %[[SAFE2:[0-9]+]] = arith.select %[[OVF]], %[[ONE]], %[[SAFE]] : i32
// CHECK-NEXT:      %[[Q:[0-9]+]] = arith.divsi %[[X]], %[[SAFE2]] : i32
// CHECK-NEXT:      %[[R:[0-9]+]] = arith.select %[[ISZERO]], %[[M1]], %[[Q]] : i32
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]]]
func.func @divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %q = bcast.divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %q : tensor<4xi32>
}

// -----

// A reduction over dim 0 stays outside fusions: its own nest into a
// buffer (here the caller's result memref), identity first; the loop over
// the kept dim is parallel, the one over the reduced dim is not.
// CHECK-LABEL: func.func @column_sum(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<5x3xi32>, %[[OUT:[a-z0-9_]+]]: memref<3xi32>)
// CHECK:         scf.for %[[J:[0-9]+]] =
// CHECK-NEXT:      memref.store %{{[0-9]+}}, %[[OUT]][%[[J]]] : memref<3xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %[[I:[0-9]+]] =
// CHECK-NEXT:      scf.for %[[K:[0-9]+]] =
// CHECK-NEXT:        %[[V:[0-9]+]] = memref.load %[[X]][%[[I]], %[[K]]]
// CHECK-NEXT:        %[[ACC:[0-9]+]] = memref.load %[[OUT]][%[[K]]]
// CHECK-NEXT:        %[[S:[0-9]+]] = arith.addi %[[ACC]], %[[V]] : i32
// CHECK-NEXT:        memref.store %[[S]], %[[OUT]][%[[K]]]
func.func @column_sum(%x: tensor<5x3xi32>) -> tensor<3xi32> {
  %s = bcast.reduce add %x, dims = [0] : (tensor<5x3xi32>) -> tensor<3xi32>
  func.return %s : tensor<3xi32>
}

// -----

// A dynamic index on a dim larger than 1 is checked where its op is lowered,
// before any loop reads it: an unsigned compare with the dim's size (a
// negative index fails too) and cf.assert, marked with what the C runtime
// reports. An index result is a rank-0 i64 buffer.
// CHECK-LABEL: func.func @dynamic(%x: memref<4x3xf32>, %i: index, %result0: memref<3xf32>, %result1: memref<i64>)
// CHECK:         %[[OK:.*]] = arith.cmpi ult, %i, %{{.*}} : index
// CHECK-NEXT:    cf.assert %[[OK]], "bcast.extract: index 0 out of bounds for dimension 0 of size 4" {bcast.bounds_check = {op = "bcast.extract", dim = 0 : i64, size = 4 : i64, iab = false}}
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.load %x[%i, %{{.*}}] : memref<4x3xf32>
// CHECK:         %[[W:.*]] = arith.index_cast %i : index to i64
// CHECK-NEXT:    memref.store %[[W]], %result1[] : memref<i64>
func.func @dynamic(%x: tensor<4x3xf32>, %i: index) -> (tensor<3xf32>, index) {
  %r = bcast.extract %x[%i] : (tensor<4x3xf32>, index) -> tensor<3xf32>
  func.return %r, %i : tensor<3xf32>, index
}
