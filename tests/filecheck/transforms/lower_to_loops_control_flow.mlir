// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops on control flow (passes/loops_control_flow.py): each
// region is a private function of its arguments and the values it reads;
// a while loop is an scf.while over two sets of buffers allocated once
// before it (the result's own buffer the first), a case a chain of scf.if.
// With '?' dims the sizes are proven before the op (a carried size never
// changes, a case result has one size in every branch); a check the sizes
// do not prove is made in its region's function (the invalid cases:
// lower_to_loops_control_flow_invalid.mlir).

// The carried values start in their buffers (the result's own) and live in
// two sets taken in turn; an i1 buffer says which holds the current values.
// Each iteration calls the condition on them into an i1 buffer, then the
// body from them into the other set, and flips the turn: nothing is copied
// per iteration; an odd trip count copies the values back once, after the
// loop. %n is read by the condition: passed after the carried values.
// CHECK-LABEL: func.func @count(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<3xf32>, %[[N:[a-z0-9_]+]]: memref<i32>, %[[OUT:[a-z0-9_]+]]: memref<3xf32>)
// CHECK-DAG:     %[[FALSE:[0-9]+]] = arith.constant false
// CHECK-DAG:     %[[TRUE:[0-9]+]] = arith.constant true
// CHECK:         scf.for
// CHECK-NEXT:      memref.load %[[X]]
// CHECK-NEXT:      memref.store {{.*}}, %[[OUT]]
// CHECK:         %[[I:[0-9]+]] = memref.alloc() : memref<i32>
// CHECK:         %[[NEXTA:[0-9]+]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT:    %[[NEXTI:[0-9]+]] = memref.alloc() : memref<i32>
// CHECK-NEXT:    %[[FLAG:[0-9]+]] = memref.alloc() : memref<i1>
// CHECK-NEXT:    %[[ODD:[0-9]+]] = memref.alloc() : memref<i1>
// CHECK-NEXT:    memref.store %[[FALSE]], %[[ODD]][]
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      %[[T1:[0-9]+]] = memref.load %[[ODD]][]
// CHECK-NEXT:      scf.if %[[T1]] {
// CHECK-NEXT:        func.call @count_while_cond(%[[NEXTA]], %[[NEXTI]], %[[N]], %[[FLAG]])
// CHECK-NEXT:      } else {
// CHECK-NEXT:        func.call @count_while_cond(%[[OUT]], %[[I]], %[[N]], %[[FLAG]])
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[GO:[0-9]+]] = memref.load %[[FLAG]][] : memref<i1>
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      %[[T2:[0-9]+]] = memref.load %[[ODD]][]
// CHECK-NEXT:      scf.if %[[T2]] {
// CHECK-NEXT:        func.call @count_while_do(%[[NEXTA]], %[[NEXTI]], %[[N]], %[[OUT]], %[[I]])
// CHECK-NEXT:      } else {
// CHECK-NEXT:        func.call @count_while_do(%[[OUT]], %[[I]], %[[N]], %[[NEXTA]], %[[NEXTI]])
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[FLIP:[0-9]+]] = arith.xori %[[T2]], %[[TRUE]] : i1
// CHECK-NEXT:      memref.store %[[FLIP]], %[[ODD]][]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T3:[0-9]+]] = memref.load %[[ODD]][]
// CHECK-NEXT:    scf.if %[[T3]] {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        memref.load %[[NEXTA]]
// CHECK-NEXT:        memref.store {{.*}}, %[[OUT]]
// CHECK:           memref.load %[[NEXTI]][]
// CHECK-NEXT:      memref.store {{.*}}, %[[I]][]
// CHECK-NEXT:    }
// CHECK-NOT:     memref.alloc
// CHECK:         memref.dealloc %[[ODD]]
// CHECK-NEXT:    func.return
// CHECK:       func.func private @count_while_cond(%a: memref<3xf32>, %i: memref<i32>, %n: memref<i32>, %result0: memref<i1>)
// CHECK:         arith.cmpi slt
// CHECK:       func.func private @count_while_do(%a: memref<3xf32>, %i: memref<i32>, %n: memref<i32>, %result0: memref<3xf32>, %result1: memref<i32>)
// CHECK:         arith.addi
// CHECK:         arith.addf
func.func @count(%x: tensor<3xf32>, %n: tensor<i32>) -> tensor<3xf32> {
  %z = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.while %x, %z : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<3xf32>, %i: tensor<i32>):
    %p = bcast.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3xf32>, %i: tensor<i32>):
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %b = bcast.add %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    bcast.yield %b, %j : tensor<3xf32>, tensor<i32>
  }
  func.return %r#0 : tensor<3xf32>
}

// -----

// A case: index 0, else 1, else the last branch (every other index, negative
// ones too); each branch writes the caller's result buffer.
// CHECK-LABEL: func.func @pick(
// CHECK-SAME:      %[[K:[a-z0-9_]+]]: memref<i32>, %[[X:[a-z0-9_]+]]: memref<3xf32>, %[[OUT:[a-z0-9_]+]]: memref<3xf32>)
// CHECK-DAG:     %[[C0:[0-9]+]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1:[0-9]+]] = arith.constant 1 : i32
// CHECK:         %[[IDX:[0-9]+]] = memref.load %[[K]][] : memref<i32>
// CHECK-NEXT:    %[[IS0:[0-9]+]] = arith.cmpi eq, %[[IDX]], %[[C0]] : i32
// CHECK-NEXT:    scf.if %[[IS0]] {
// CHECK-NEXT:      func.call @pick_case_branch0(%[[X]], %[[OUT]])
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[IS1:[0-9]+]] = arith.cmpi eq, %[[IDX]], %[[C1]] : i32
// CHECK-NEXT:      scf.if %[[IS1]] {
// CHECK-NEXT:        func.call @pick_case_branch1(%[[X]], %[[OUT]])
// CHECK-NEXT:      } else {
// CHECK-NEXT:        func.call @pick_case_branch2(%[[X]], %[[OUT]])
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK:       func.func private @pick_case_branch0(%x: memref<3xf32>, %result0: memref<3xf32>)
// CHECK:         arith.negf
// CHECK:       func.func private @pick_case_branch1(
// CHECK:         math.absf
// CHECK:       func.func private @pick_case_branch2(
// CHECK:         %[[V:[0-9]+]] = memref.load
// CHECK-NEXT:    memref.store %[[V]]
func.func @pick(%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<3xf32> {
    %a = bcast.negate %x : tensor<3xf32>
    bcast.yield %a : tensor<3xf32>
  } {
    %b = bcast.abs %x : tensor<3xf32>
    bcast.yield %b : tensor<3xf32>
  } {
    bcast.yield %x : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}

// -----

// '?' dims: a case's result has one size source in every branch (here %x's
// rows), so the caller's buffer is sized before the call; each branch
// function reads its sizes from its memrefs at entry.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME:      %[[K:[a-z0-9_]+]]: memref<i32>, %[[X:[a-z0-9_]+]]: memref<?x3xf32>, %[[OUT:[a-z0-9_]+]]: memref<?x3xf32>)
// CHECK:         scf.if
// CHECK-NEXT:      func.call @rows_case_branch0(%[[X]], %[[OUT]]) : (memref<?x3xf32>, memref<?x3xf32>) -> ()
// CHECK-NEXT:    } else {
// CHECK-NEXT:      func.call @rows_case_branch1(%[[X]], %[[OUT]]) : (memref<?x3xf32>, memref<?x3xf32>) -> ()
// CHECK:       func.func private @rows_case_branch0(%x: memref<?x3xf32>, %result0: memref<?x3xf32>)
// CHECK:         %[[N:[0-9]+]] = memref.dim %x
// CHECK-NEXT:    scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK:           arith.negf
func.func @rows(%k: tensor<i32>, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<?x3xf32> {
    %a = bcast.negate %x : tensor<?x3xf32>
    bcast.yield %a : tensor<?x3xf32>
  } {
    bcast.yield %x : tensor<?x3xf32>
  }
  func.return %r : tensor<?x3xf32>
}

// -----

// A loop carrying a '?' value: its size never changes (the body yields
// a + x, and a starts as x), so the second buffer is allocated once, at
// x's size, before the loop; the check of a + x is proven by the carried
// size and made nowhere.
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<?xf32>, %[[N:[a-z0-9_]+]]: memref<i32>, %[[OUT:[a-z0-9_]+]]: memref<?xf32>)
// CHECK:         %[[ROWS:[0-9]+]] = memref.dim %[[X]]
// CHECK:         %[[NEXT:[0-9]+]] = memref.alloc(%[[ROWS]]) : memref<?xf32>
// CHECK:         scf.while () : () -> () {
// CHECK-NOT:       memref.alloc
// CHECK:           func.call @accumulate_while_do(%[[OUT]], %{{.*}}, %[[N]], %[[X]], %[[NEXT]], %{{.*}})
// CHECK:         scf.if
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[ROWS]]
// CHECK-NOT:   cf.assert
// CHECK:       func.func private @accumulate_while_do(%a: memref<?xf32>, %i: memref<i32>, %n: memref<i32>, %x: memref<?xf32>, %result0: memref<?xf32>, %result1: memref<i32>)
// CHECK-NOT:     cf.assert
// CHECK:         arith.addf
func.func @accumulate(%x: tensor<?xf32>, %n: tensor<i32>) -> tensor<?xf32> {
  %z = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.while %x, %z : (tensor<?xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<?xf32>, %i: tensor<i32>):
    %p = bcast.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<?xf32>, %i: tensor<i32>):
    %one = bcast.constant dense<1> : tensor<i32>
    %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %b = bcast.add %a, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    bcast.yield %b, %j : tensor<?xf32>, tensor<i32>
  }
  func.return %r#0 : tensor<?xf32>
}

// -----

// A check the sizes do not prove (x + y in branch 0) is made in its
// branch's function, before its nests: a cf.assert marked bcast.size_check,
// which fails only when the branch runs. Branch 1 and the caller check nothing.
// CHECK-LABEL: func.func @checked(
// CHECK-NOT:     cf.assert
// CHECK:       func.func private @checked_case_branch0(%x: memref<?xf32>, %y: memref<?xf32>, %result0: memref<f32>)
// CHECK-DAG:     %[[NX:[0-9]+]] = memref.dim %x
// CHECK-DAG:     %[[NY:[0-9]+]] = memref.dim %y
// CHECK:         %[[XOK:[0-9]+]] = arith.ori
// CHECK:         %[[YOK:[0-9]+]] = arith.ori
// CHECK-NEXT:    %[[OK:[0-9]+]] = arith.andi %[[XOK]], %[[YOK]] : i1
// CHECK-NEXT:    cf.assert %[[OK]], "bcast.check_broadcastable: run-time sizes break its rule" {bcast.size_check = {op = "bcast.check_broadcastable"}}
// CHECK:         scf.for
// CHECK:       func.func private @checked_case_branch1(
// CHECK-NOT:     cf.assert
// CHECK:         func.return
func.func @checked(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<f32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<f32> {
    %s = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %m = bcast.reduce add %s, dims = [0] : (tensor<?xf32>) -> tensor<f32>
    bcast.yield %m : tensor<f32>
  } {
    %m = bcast.reduce add %x, dims = [0] : (tensor<?xf32>) -> tensor<f32>
    bcast.yield %m : tensor<f32>
  }
  func.return %r : tensor<f32>
}
