// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops on control flow (passes/loops_control_flow.py): each
// region is a private function of its arguments and the values it reads;
// a while loop is an scf.while over buffers allocated once before it (the
// result's own buffer where it is returned), a case a chain of scf.if.

// The carried values start in their buffers; each iteration calls the
// condition into an i1 buffer, then the body into the second set of buffers,
// copied back. %n is read by the condition: passed after the carried values.
// CHECK-LABEL: func.func @count(
// CHECK-SAME:      %[[X:[a-z0-9_]+]]: memref<3xf32>, %[[N:[a-z0-9_]+]]: memref<i32>, %[[OUT:[a-z0-9_]+]]: memref<3xf32>)
// CHECK:         scf.for
// CHECK-NEXT:      memref.load %[[X]]
// CHECK-NEXT:      memref.store {{.*}}, %[[OUT]]
// CHECK:         %[[I:[0-9]+]] = memref.alloc() : memref<i32>
// CHECK:         %[[NEXTA:[0-9]+]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT:    %[[NEXTI:[0-9]+]] = memref.alloc() : memref<i32>
// CHECK-NEXT:    %[[FLAG:[0-9]+]] = memref.alloc() : memref<i1>
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      func.call @count_while_cond(%[[OUT]], %[[I]], %[[N]], %[[FLAG]])
// CHECK-NEXT:      %[[GO:[0-9]+]] = memref.load %[[FLAG]][] : memref<i1>
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      func.call @count_while_do(%[[OUT]], %[[I]], %[[N]], %[[NEXTA]], %[[NEXTI]])
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        memref.load %[[NEXTA]]
// CHECK-NEXT:        memref.store {{.*}}, %[[OUT]]
// CHECK:           memref.load %[[NEXTI]][]
// CHECK-NEXT:      memref.store {{.*}}, %[[I]][]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NOT:     memref.alloc
// CHECK:         memref.dealloc %[[FLAG]]
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
