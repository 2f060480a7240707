// RUN: bcast-opt %s -p bcast-fuse | filecheck %s
// RUN: bcast-opt %s -p bcast-fuse,bcast-fuse | filecheck %s

// bcast-fuse on explicit IR: maximal def-use connected groups of elementwise
// ops with one iteration shape, plus the views feeding them, become one
// bcast.fusion each. Running it twice changes nothing (second RUN line).

// A chain is one fusion.
// CHECK-LABEL: func.func @chain(
//  CHECK-NEXT:   %[[F:[a-z0-9_]+]] = bcast.fusion %x, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[Y:[a-z0-9_]+]]: tensor<4x3xf32>):
//  CHECK-NEXT:     %[[A:[a-z0-9_]+]] = bcast.add %[[X]], %[[Y]] :
//  CHECK-NEXT:     %[[M:[a-z0-9_]+]] = bcast.multiply %[[A]], %[[X]] :
//  CHECK-NEXT:     %[[N:[a-z0-9_]+]] = bcast.negate %[[M]] :
//  CHECK-NEXT:     bcast.yield %[[N]] : tensor<4x3xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[F]] : tensor<4x3xf32>
func.func @chain(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = bcast.add %x, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = bcast.multiply %0, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = bcast.negate %1 : tensor<4x3xf32>
  func.return %2 : tensor<4x3xf32>
}

// The benchmark expression (x + row) * col - 0.5 * x in explicit form: one
// fusion; the three broadcasts move into it and take the small inputs, the
// scalar constant is an input.
// CHECK-LABEL: func.func @benchmark(
//  CHECK-NEXT:   %[[HALF:[a-z0-9_]+]] = bcast.constant dense<5.000000e-01> : tensor<f32>
//  CHECK-NEXT:   %[[OUT:[a-z0-9_]+]] = bcast.fusion %x, %row, %col, %[[HALF]] : (tensor<4x3xf32>, tensor<3xf32>, tensor<4x1xf32>, tensor<f32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[ROW:[a-z0-9_]+]]: tensor<3xf32>, %[[COL:[a-z0-9_]+]]: tensor<4x1xf32>, %[[H:[a-z0-9_]+]]: tensor<f32>):
//  CHECK-NEXT:     %[[R:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[ROW]], dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
//  CHECK-NEXT:     %[[SUM:[a-z0-9_]+]] = bcast.add %[[X]], %[[R]] :
//  CHECK-NEXT:     %[[C:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[COL]], dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
//  CHECK-NEXT:     %[[SC:[a-z0-9_]+]] = bcast.multiply %[[SUM]], %[[C]] :
//  CHECK-NEXT:     %[[HB:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[H]], dims = [] : (tensor<f32>) -> tensor<4x3xf32>
//  CHECK-NEXT:     %[[HX:[a-z0-9_]+]] = bcast.multiply %[[HB]], %[[X]] :
//  CHECK-NEXT:     %[[D:[a-z0-9_]+]] = bcast.subtract %[[SC]], %[[HX]] :
//  CHECK-NEXT:     bcast.yield %[[D]] : tensor<4x3xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[OUT]] : tensor<4x3xf32>
func.func @benchmark(%x: tensor<4x3xf32>, %row: tensor<3xf32>, %col: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %half = bcast.constant dense<5.000000e-01> : tensor<f32>
  %r = bcast.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %sum = bcast.add %x, %r : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = bcast.broadcast_in_dim %col, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %scaled = bcast.multiply %sum, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %h = bcast.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %hx = bcast.multiply %h, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %out = bcast.subtract %scaled, %hx : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %out : tensor<4x3xf32>
}

// A diamond is one fusion; %a is used twice inside it and is not a result.
// CHECK-LABEL: func.func @diamond(
//  CHECK-NEXT:   %[[F:[a-z0-9_]+]] = bcast.fusion %x : (tensor<8xf32>) -> tensor<8xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<8xf32>):
//  CHECK-NEXT:     %[[A:[a-z0-9_]+]] = bcast.abs %[[X]]
//  CHECK-NEXT:     %[[B:[a-z0-9_]+]] = bcast.exponential %[[A]]
//  CHECK-NEXT:     %[[C:[a-z0-9_]+]] = bcast.negate %[[A]]
//  CHECK-NEXT:     %[[D:[a-z0-9_]+]] = bcast.maximum %[[B]], %[[C]]
//  CHECK-NEXT:     bcast.yield %[[D]] : tensor<8xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[F]] : tensor<8xf32>
func.func @diamond(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = bcast.abs %x : tensor<8xf32>
  %b = bcast.exponential %a : tensor<8xf32>
  %c = bcast.negate %a : tensor<8xf32>
  %d = bcast.maximum %b, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  func.return %d : tensor<8xf32>
}

// Values used outside the group are extra results, computed once; compare,
// select and convert fuse (results of other element types, same shape).
// CHECK-LABEL: func.func @multi_use(
//  CHECK-NEXT:   %[[S:[a-z0-9_]+]], %[[P:[a-z0-9_]+]], %[[F:[a-z0-9_]+]] = bcast.fusion %x, %y : (tensor<2x3xi32>, tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xf32>) {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<2x3xi32>, %[[Y:[a-z0-9_]+]]: tensor<2x3xi32>):
//  CHECK-NEXT:     %[[S1:[a-z0-9_]+]] = bcast.add %[[X]], %[[Y]]
//  CHECK-NEXT:     %[[P1:[a-z0-9_]+]] = bcast.compare GT, %[[S1]], %[[X]]
//  CHECK-NEXT:     %[[M:[a-z0-9_]+]] = bcast.select %[[P1]], %[[S1]], %[[Y]]
//  CHECK-NEXT:     %[[F1:[a-z0-9_]+]] = bcast.convert %[[M]]
//  CHECK-NEXT:     bcast.yield %[[S1]], %[[P1]], %[[F1]] : tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[S]], %[[P]], %[[F]] :
func.func @multi_use(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %s = bcast.add %x, %y : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %p = bcast.compare GT, %s, %x : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %m = bcast.select %p, %s, %y : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %f = bcast.convert %m : (tensor<2x3xi32>) -> tensor<2x3xf32>
  func.return %s, %p, %f : tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xf32>
}

// Two groups that only share a broadcast (no def-use link between them) stay
// separate; the broadcast is cloned into both and the original disappears.
// CHECK-LABEL: func.func @shared_broadcast(
//  CHECK-NEXT:   %[[F0:[a-z0-9_]+]] = bcast.fusion %x, %row :
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[R0:[a-z0-9_]+]]: tensor<3xf32>):
//  CHECK-NEXT:     %[[B0:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[R0]], dims = [1]
//  CHECK-NEXT:     %[[A:[a-z0-9_]+]] = bcast.add %[[X]], %[[B0]]
//  CHECK-NEXT:     bcast.yield %[[A]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[F1:[a-z0-9_]+]] = bcast.fusion %y, %row :
//  CHECK-NEXT:   ^bb0(%[[Y:[a-z0-9_]+]]: tensor<4x3xf32>, %[[R1:[a-z0-9_]+]]: tensor<3xf32>):
//  CHECK-NEXT:     %[[B1:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[R1]], dims = [1]
//  CHECK-NEXT:     %[[M:[a-z0-9_]+]] = bcast.multiply %[[Y]], %[[B1]]
//  CHECK-NEXT:     bcast.yield %[[M]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[F0]], %[[F1]] :
func.func @shared_broadcast(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>, %row: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %b = bcast.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %0 = bcast.add %x, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = bcast.multiply %y, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0, %1 : tensor<4x3xf32>, tensor<4x3xf32>
}

// A broadcast that is also used outside any group stays for that user; the
// group reads its own copy.
// CHECK-LABEL: func.func @broadcast_also_returned(
//  CHECK-NEXT:   %[[B:[a-z0-9_]+]] = bcast.broadcast_in_dim %row, dims = [1]
//  CHECK-NEXT:   %[[F:[a-z0-9_]+]] = bcast.fusion %x, %row :
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[R:[a-z0-9_]+]]: tensor<3xf32>):
//  CHECK-NEXT:     %[[B1:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[R]], dims = [1]
//  CHECK-NEXT:     %[[A:[a-z0-9_]+]] = bcast.add %[[X]], %[[B1]]
//  CHECK-NEXT:     bcast.yield %[[A]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[F]], %[[B]] :
func.func @broadcast_also_returned(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %b = bcast.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %0 = bcast.add %x, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0, %b : tensor<4x3xf32>, tensor<4x3xf32>
}

// Scalar constants: a rank-0 constant feeding a broadcast is an input; a
// splat constant of the iteration shape enters as a rank-0 constant and a
// broadcast, so neither is materialized at the full shape.
// CHECK-LABEL: func.func @scalar_constants(
//  CHECK-NEXT:   %[[TWO:[a-z0-9_]+]] = bcast.constant dense<2.000000e+00> : tensor<f64>
//  CHECK-NEXT:   %[[ONE:[a-z0-9_]+]] = bcast.constant dense<1.000000e+00> : tensor<f64>
//  CHECK-NEXT:   %[[F:[a-z0-9_]+]] = bcast.fusion %x, %[[TWO]], %[[ONE]] : (tensor<2x2xf64>, tensor<f64>, tensor<f64>) -> tensor<2x2xf64> {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<2x2xf64>, %[[T:[a-z0-9_]+]]: tensor<f64>, %[[O:[a-z0-9_]+]]: tensor<f64>):
//  CHECK-NEXT:     %[[TB:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[T]], dims = [] : (tensor<f64>) -> tensor<2x2xf64>
//  CHECK-NEXT:     %[[M:[a-z0-9_]+]] = bcast.multiply %[[X]], %[[TB]]
//  CHECK-NEXT:     %[[OB:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[O]], dims = [] : (tensor<f64>) -> tensor<2x2xf64>
//  CHECK-NEXT:     %[[A:[a-z0-9_]+]] = bcast.add %[[M]], %[[OB]]
//  CHECK-NEXT:     bcast.yield %[[A]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[F]]
func.func @scalar_constants(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %two = bcast.constant dense<2.000000e+00> : tensor<f64>
  %ones = bcast.constant dense<1.000000e+00> : tensor<2x2xf64>
  %t = bcast.broadcast_in_dim %two, dims = [] : (tensor<f64>) -> tensor<2x2xf64>
  %0 = bcast.multiply %x, %t : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  %1 = bcast.add %0, %ones : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  func.return %1 : tensor<2x2xf64>
}

// A splat constant that something else also reads stays for that reader.
// CHECK-LABEL: func.func @splat_also_returned(
//  CHECK-NEXT:   %[[C:[a-z0-9_]+]] = bcast.constant dense<true> : tensor<4x3xi1>
//  CHECK-NEXT:   %[[S:[a-z0-9_]+]] = bcast.constant dense<true> : tensor<i1>
//  CHECK-NEXT:   %[[F:[a-z0-9_]+]] = bcast.fusion %x, %[[S]] : (tensor<4x3xi1>, tensor<i1>) -> tensor<4x3xi1> {
//       CHECK:   func.return %[[F]], %[[C]] :
func.func @splat_also_returned(%x: tensor<4x3xi1>) -> (tensor<4x3xi1>, tensor<4x3xi1>) {
  %c = bcast.constant dense<true> : tensor<4x3xi1>
  %0 = bcast.xor %x, %c : (tensor<4x3xi1>, tensor<4x3xi1>) -> tensor<4x3xi1>
  func.return %0, %c : tensor<4x3xi1>, tensor<4x3xi1>
}

// Different iteration shapes are different fusions; the broadcast between
// them belongs to the consumer, which reads the producer's small result.
// CHECK-LABEL: func.func @shapes(
//  CHECK-NEXT:   %[[E:[a-z0-9_]+]] = bcast.fusion %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.add
//  CHECK-NEXT:     %[[E1:[a-z0-9_]+]] = bcast.exponential
//  CHECK-NEXT:     bcast.yield %[[E1]] : tensor<3xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[M:[a-z0-9_]+]] = bcast.fusion %x, %[[E]] : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[E2:[a-z0-9_]+]]: tensor<3xf32>):
//  CHECK-NEXT:     %[[BS:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[E2]], dims = [1]
//  CHECK-NEXT:     %[[M1:[a-z0-9_]+]] = bcast.multiply %[[X]], %[[BS]]
//  CHECK-NEXT:     bcast.yield %[[M1]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[M]]
func.func @shapes(%a: tensor<3xf32>, %b: tensor<3xf32>, %x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %s = bcast.add %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %e = bcast.exponential %s : tensor<3xf32>
  %bs = bcast.broadcast_in_dim %e, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %m = bcast.multiply %x, %bs : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %m : tensor<4x3xf32>
}

func.func private @callee(tensor<4xf32>) -> tensor<4xf32>

// func.call and assign do not fuse and separate the groups around them;
// ops that are not explicit (implicit broadcasting, broadcast_dimensions)
// are left alone.
// CHECK-LABEL: func.func @barriers(
//  CHECK-NEXT:   %[[N:[a-z0-9_]+]] = bcast.fusion %x : (tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.negate
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[CALL:[a-z0-9_]+]] = func.call @callee(%[[N]])
//  CHECK-NEXT:   %[[ABS:[a-z0-9_]+]] = bcast.fusion %[[CALL]] : (tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.abs
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[ASSIGN:[a-z0-9_]+]] = bcast.assign %m[1], %[[ABS]] :
//  CHECK-NEXT:   %[[EXP:[a-z0-9_]+]] = bcast.fusion %[[ASSIGN]] : (tensor<2x4xf32>) -> tensor<2x4xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.exponential
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[I:[a-z0-9_]+]] = bcast.add %v, %w : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
//  CHECK-NEXT:   %[[D:[a-z0-9_]+]] = bcast.add %x, %v broadcast_dimensions = [0] :
//  CHECK-NEXT:   func.return %[[EXP]], %[[I]], %[[D]] :
func.func @barriers(%x: tensor<4xf32>, %m: tensor<2x4xf32>, %v: tensor<4x3xf32>, %w: tensor<3xf32>) -> (tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = bcast.negate %x : tensor<4xf32>
  %1 = func.call @callee(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = bcast.abs %1 : tensor<4xf32>
  %3 = bcast.assign %m[1], %2 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %4 = bcast.exponential %3 : tensor<2x4xf32>
  %5 = bcast.add %v, %w : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %6 = bcast.add %x, %v broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %4, %5, %6 : tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

// Cycle guard: %a reaches %c directly and through extract + broadcast. One
// group would have to run both before and after the extract, so %a is its own
// group (a result used twice) and the broadcast joins %c's group.
// CHECK-LABEL: func.func @cycle(
//  CHECK-NEXT:   %[[A:[a-z0-9_]+]] = bcast.fusion %x, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     %[[A1:[a-z0-9_]+]] = bcast.add
//  CHECK-NEXT:     bcast.yield %[[A1]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[E:[a-z0-9_]+]] = bcast.extract %[[A]][1, 2]
//  CHECK-NEXT:   %[[D:[a-z0-9_]+]] = bcast.fusion %[[A]], %[[E]] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[A2:[a-z0-9_]+]]: tensor<4x3xf32>, %[[E2:[a-z0-9_]+]]: tensor<f32>):
//  CHECK-NEXT:     %[[B:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[E2]], dims = []
//  CHECK-NEXT:     %[[C:[a-z0-9_]+]] = bcast.multiply %[[A2]], %[[B]]
//  CHECK-NEXT:     %[[D1:[a-z0-9_]+]] = bcast.exponential %[[C]]
//  CHECK-NEXT:     bcast.yield %[[D1]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[D]]
func.func @cycle(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %a = bcast.add %x, %y : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %e = bcast.extract %a[1, 2] : (tensor<4x3xf32>) -> tensor<f32>
  %b = bcast.broadcast_in_dim %e, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %c = bcast.multiply %a, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %d = bcast.exponential %c : tensor<4x3xf32>
  func.return %d : tensor<4x3xf32>
}

// A view of a member value cannot be inside that member's group (a view in a
// fusion reads an input), so it is a path out and back: two groups.
// CHECK-LABEL: func.func @transposed_member(
//  CHECK-NEXT:   %[[A:[a-z0-9_]+]] = bcast.fusion %x, %y :
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.add
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[C:[a-z0-9_]+]] = bcast.fusion %[[A]] : (tensor<3x3xf32>) -> tensor<3x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[A2:[a-z0-9_]+]]: tensor<3x3xf32>):
//  CHECK-NEXT:     %[[T:[a-z0-9_]+]] = bcast.transpose %[[A2]], dims = [1, 0]
//  CHECK-NEXT:     bcast.multiply %[[A2]], %[[T]]
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[C]]
func.func @transposed_member(%x: tensor<3x3xf32>, %y: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %a = bcast.add %x, %y : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %t = bcast.transpose %a, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %c = bcast.multiply %a, %t : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %c : tensor<3x3xf32>
}

// An extract of a member value that does not come back is no cycle: %a and
// %c fuse, %a is an extra result, and the block is reordered so the extract
// follows the fusion.
// CHECK-LABEL: func.func @reorder(
//  CHECK-NEXT:   %[[A:[a-z0-9_]+]], %[[C:[a-z0-9_]+]] = bcast.fusion %x, %y : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
//  CHECK-NEXT:   ^bb0(%[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[Y:[a-z0-9_]+]]: tensor<4xf32>):
//  CHECK-NEXT:     %[[A1:[a-z0-9_]+]] = bcast.add %[[X]], %[[Y]]
//  CHECK-NEXT:     %[[C1:[a-z0-9_]+]] = bcast.multiply %[[A1]], %[[X]]
//  CHECK-NEXT:     bcast.yield %[[A1]], %[[C1]] : tensor<4xf32>, tensor<4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[E:[a-z0-9_]+]] = bcast.extract %[[A]][0]
//  CHECK-NEXT:   %[[B:[a-z0-9_]+]] = bcast.fusion %[[E]] : (tensor<f32>) -> tensor<f32> {
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.negate
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[C]], %[[B]] :
func.func @reorder(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %a = bcast.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = bcast.extract %a[0] : (tensor<4xf32>) -> tensor<f32>
  %b = bcast.negate %e : tensor<f32>
  %c = bcast.multiply %a, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %c, %b : tensor<4xf32>, tensor<f32>
}

// A cycle through another group: %a -> %s (another iteration shape) -> %c,
// and %a -> %c directly: %a and %c stay apart. Each reshape joins the group
// whose iteration shape its result has.
// CHECK-LABEL: func.func @cycle_through_group(
//  CHECK-NEXT:   %[[A:[a-z0-9_]+]] = bcast.fusion %x :
//  CHECK-NEXT:   ^bb0(
//  CHECK-NEXT:     bcast.negate
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[S:[a-z0-9_]+]] = bcast.fusion %[[A]] : (tensor<2x3xf32>) -> tensor<6xf32> {
//  CHECK-NEXT:   ^bb0(%[[A1:[a-z0-9_]+]]: tensor<2x3xf32>):
//  CHECK-NEXT:     %[[R:[a-z0-9_]+]] = bcast.reshape %[[A1]] : (tensor<2x3xf32>) -> tensor<6xf32>
//  CHECK-NEXT:     bcast.exponential %[[R]]
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[C:[a-z0-9_]+]] = bcast.fusion %[[S]], %[[A]] : (tensor<6xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[S2:[a-z0-9_]+]]: tensor<6xf32>, %[[A2:[a-z0-9_]+]]: tensor<2x3xf32>):
//  CHECK-NEXT:     %[[B:[a-z0-9_]+]] = bcast.reshape %[[S2]] : (tensor<6xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:     bcast.add %[[B]], %[[A2]]
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[C]]
func.func @cycle_through_group(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = bcast.negate %x : tensor<2x3xf32>
  %r = bcast.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %s = bcast.exponential %r : tensor<6xf32>
  %b = bcast.reshape %s : (tensor<6xf32>) -> tensor<2x3xf32>
  %c = bcast.add %b, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %c : tensor<2x3xf32>
}

// A group needs an elementwise op: a lone broadcast stays as it is.
// CHECK-LABEL: func.func @lone_broadcast(
//  CHECK-NEXT:   %[[B:[a-z0-9_]+]] = bcast.broadcast_in_dim %row, dims = [1]
//  CHECK-NEXT:   func.return %[[B]]
func.func @lone_broadcast(%row: tensor<3xf32>) -> tensor<4x3xf32> {
  %b = bcast.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  func.return %b : tensor<4x3xf32>
}

// A view of a view (left by running bcast-fuse without canonicalize): views in
// a fusion read block arguments only, so the inner view stays outside.
// CHECK-LABEL: func.func @view_of_view(
//  CHECK-NEXT:   %[[B:[a-z0-9_]+]] = bcast.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
//  CHECK-NEXT:   %[[F:[a-z0-9_]+]] = bcast.fusion %row, %[[B]] : (tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32> {
//  CHECK-NEXT:   ^bb0(%[[R2:[a-z0-9_]+]]: tensor<3xf32>, %[[B2:[a-z0-9_]+]]: tensor<4x3xf32>):
//  CHECK-NEXT:     %[[V:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[R2]], dims = [1]
//  CHECK-NEXT:     %[[T:[a-z0-9_]+]] = bcast.transpose %[[B2]], dims = [0, 1]
//  CHECK-NEXT:     bcast.add %[[V]], %[[T]]
//  CHECK-NEXT:     bcast.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[F]]
func.func @view_of_view(%row: tensor<3xf32>) -> tensor<4x3xf32> {
  %b = bcast.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %t = bcast.transpose %b, dims = [0, 1] : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = bcast.add %b, %t : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %c : tensor<4x3xf32>
}

// A broadcast that a cloned view also reads (a view chain) is still cloned
// for the members that read it directly: the add reads the clone, not the
// materialized broadcast, even though a non-member (the implicit multiply)
// keeps the original alive.
// CHECK-LABEL: func.func @view_of_cloned_view(
//       CHECK:   %[[B:[a-z0-9_]+]] = bcast.broadcast_in_dim %x, dims = []
//       CHECK:   bcast.fusion %[[B]], %x :
//  CHECK-NEXT:   ^bb0(%[[BA:[a-z0-9_]+]]: tensor<1x4xf32>, %[[XA:[a-z0-9_]+]]: tensor<f32>):
//  CHECK-NEXT:     %[[T:[a-z0-9_]+]] = bcast.transpose %[[BA]], dims = [0, 1]
//  CHECK-NEXT:     %[[C:[a-z0-9_]+]] = bcast.broadcast_in_dim %[[XA]], dims = []
//  CHECK-NEXT:     bcast.add %[[T]], %[[C]] :
func.func @view_of_cloned_view(%x: tensor<f32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %b = bcast.broadcast_in_dim %x, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
  %m = bcast.multiply %x, %b : (tensor<f32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %t = bcast.transpose %b, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %s = bcast.add %t, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %m, %s : tensor<1x4xf32>, tensor<1x4xf32>
}

// Not explicit: the operands' element types differ from the result's
// (bcast.ir.fusion.is_explicit), so the op is not fused; run
// bcast-make-explicit first. The numpy target rejects such an op inside a
// fusion, which this pass therefore never builds.
// CHECK-LABEL: func.func @mixed_element_types_not_fused(
//  CHECK-NEXT:   %[[A:[a-z0-9_]+]] = bcast.add %x, %y : (tensor<4xi8>, tensor<4xi32>) -> tensor<4xi32>
//  CHECK-NEXT:   func.return %[[A]]
func.func @mixed_element_types_not_fused(%x: tensor<4xi8>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %a = bcast.add %x, %y : (tensor<4xi8>, tensor<4xi32>) -> tensor<4xi32>
  func.return %a : tensor<4xi32>
}
