// StableHLO's control flow as convert-stablehlo-to-bcast takes it
// (passes/stablehlo_control_flow.py): a counted while loop is unrolled, its
// counter a constant in each copy; a case or if with a constant index runs
// its branch, with a run-time index every branch is computed and selected
// when that is sound and small. Other loops become bcast.while, other
// branches bcast.case.
// Written in generic form, as jaxlib prints JAX's exports.

// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s

// jax.lax.fori_loop(0, 3, lambda i, v: v + i, x): three copies of the body.
// CHECK-LABEL: func.func @counted_loop
// CHECK:         %{{.*}} = bcast.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %f = bcast.convert %{{.*}} : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT:    %b = bcast.broadcast_in_dim %f
// CHECK-NEXT:    %w = bcast.add %x, %b
// CHECK:         bcast.constant dense<1> : tensor<i32>
// CHECK:         %w_1 = bcast.add %w, %b_1
// CHECK:         bcast.constant dense<2> : tensor<i32>
// CHECK:         %w_2 = bcast.add %w_1, %b_2
// CHECK-NOT:     bcast.add
// CHECK:         func.return %w_2
func.func @counted_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %w = stablehlo.add %v, %b : tensor<4xf32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// A loop that runs no iteration returns its initial values.
// CHECK-LABEL: func.func @empty_loop
// CHECK-NEXT:    func.return %x
func.func @empty_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<5> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %w = stablehlo.negate %v : tensor<4xf32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// A counter that counts down, compared from the other side (2 > i > ... ):
// i = 6, 4; then i = 2 stops.
// CHECK-LABEL: func.func @loop_counting_down
// CHECK:         %w = bcast.negate %x
// CHECK-NEXT:    bcast.constant dense<4> : tensor<i32>
// CHECK-NEXT:    %w_1 = bcast.negate %w
// CHECK-NEXT:    func.return %w_1
func.func @loop_counting_down(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c6 = stablehlo.constant dense<6> : tensor<i32>
  %m2 = stablehlo.constant dense<-2> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %r:2 = "stablehlo.while"(%c6, %x) ({
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %p = stablehlo.compare LT, %c2, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %w = stablehlo.negate %v : tensor<4xf32>
    %j = stablehlo.add %m2, %i : tensor<i32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// jax.lax.cond(p, ...) with a run-time index: both branches, then a select.
// CHECK-LABEL: func.func @branches_of_run_time_index
// CHECK:         %[[DOUBLE:.*]] = bcast.multiply %x
// CHECK:         %[[LESS:.*]] = bcast.subtract %x
// CHECK:         %[[TAKEN:.*]] = bcast.compare EQ, %k, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:         bcast.select %{{.*}}, %[[DOUBLE]], %[[LESS]]
func.func @branches_of_run_time_index(%k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.case"(%k) ({
    %d = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %d : tensor<4xf32>
  }, {
    %s = stablehlo.subtract %x, %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A constant index out of range takes the last branch.
// CHECK-LABEL: func.func @branch_of_constant_index
// CHECK-NEXT:    %s = bcast.subtract %x, %x
// CHECK-NEXT:    func.return %s
func.func @branch_of_constant_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = stablehlo.constant dense<7> : tensor<i32>
  %r = "stablehlo.case"(%k) ({
    %d = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %d : tensor<4xf32>
  }, {
    %s = stablehlo.subtract %x, %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// if: the first region when the predicate is true.
// CHECK-LABEL: func.func @if_of_run_time_predicate
// CHECK:         %[[T:.*]] = bcast.multiply %x
// CHECK:         %[[F:.*]] = bcast.subtract %x
// CHECK:         %[[P:.*]] = bcast.broadcast_in_dim %p, dims = [] : (tensor<i1>) -> tensor<4xi1>
// CHECK-NEXT:    bcast.select %[[P]], %[[T]], %[[F]]
func.func @if_of_run_time_predicate(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.if"(%p) ({
    %d = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %d : tensor<4xf32>
  }, {
    %s = stablehlo.subtract %x, %x : tensor<4xf32>
    stablehlo.return %s : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A loop whose condition reads data is bcast.while: its regions are
// converted in place, each ending with bcast.yield.
// CHECK-LABEL: func.func @loop_on_data
// CHECK:         %r = bcast.while %x : (tensor<f32>) -> tensor<f32> cond {
// CHECK-NEXT:    ^bb0(%v: tensor<f32>):
// CHECK-NEXT:      %p = bcast.compare LT, %v, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:      bcast.yield %p : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%v_1: tensor<f32>):
// CHECK-NEXT:      %w = bcast.add %v_1, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      bcast.yield %w : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r
func.func @loop_on_data(%x: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.while"(%x) ({
  ^bb0(%v: tensor<f32>):
    %p = stablehlo.compare LT, %v, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%v: tensor<f32>):
    %w = stablehlo.add %v, %c : tensor<f32>
    stablehlo.return %w : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A counted loop past the unroll limit (5,000 iterations) is bcast.while too,
// its counter carried.
// CHECK-LABEL: func.func @long_counted_loop
// CHECK:         bcast.while %{{.*}}, %x : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) cond {
// CHECK:           bcast.compare LT
// CHECK:         } do {
// CHECK:           bcast.negate
// CHECK-NOT:     bcast.negate
func.func @long_counted_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<5000> : tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %w = stablehlo.negate %v : tensor<4xf32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// -----

// A case with ? dims is bcast.case: selecting over every branch would run
// the run-time checks of branches not taken.
// CHECK-LABEL: func.func @case_with_dynamic_dims
// CHECK:         %r = bcast.case %k : (tensor<i32>) -> tensor<?xf32> {
// CHECK-NEXT:      %a = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:      bcast.yield %a : tensor<?xf32>
// CHECK-NEXT:    } {
// CHECK-NEXT:      %b = bcast.negate %x : tensor<?xf32>
// CHECK-NEXT:      bcast.yield %b : tensor<?xf32>
// CHECK-NEXT:    }
func.func @case_with_dynamic_dims(%k: tensor<i32>, %x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = "stablehlo.case"(%k) ({
    %a = chlo.broadcast_add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    stablehlo.return %a : tensor<?xf32>
  }, {
    %b = stablehlo.negate %x : tensor<?xf32>
    stablehlo.return %b : tensor<?xf32>
  }) : (tensor<i32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// An if with ? dims: index 0 (the true region) when the predicate holds.
// CHECK-LABEL: func.func @if_with_dynamic_dims
// CHECK-DAG:     %[[ZERO:.*]] = bcast.constant dense<0> : tensor<i32>
// CHECK-DAG:     %[[ONE:.*]] = bcast.constant dense<1> : tensor<i32>
// CHECK:         %[[K:.*]] = bcast.select %p, %[[ZERO]], %[[ONE]] : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %r = bcast.case %[[K]] : (tensor<i32>) -> tensor<?xf32> {
// CHECK-NEXT:      %d = bcast.multiply %x, %x
// CHECK:         } {
// CHECK-NEXT:      %s = bcast.subtract %x, %x
func.func @if_with_dynamic_dims(%p: tensor<i1>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %r = "stablehlo.if"(%p) ({
    %d = stablehlo.multiply %x, %x : tensor<?xf32>
    stablehlo.return %d : tensor<?xf32>
  }, {
    %s = stablehlo.subtract %x, %x : tensor<?xf32>
    stablehlo.return %s : tensor<?xf32>
  }) : (tensor<i1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A branch holding a loop on data is not computed unless taken (the loop
// need not end on the other branch's inputs): bcast.case, the loop inside.
// CHECK-LABEL: func.func @branch_with_a_loop
// CHECK:         bcast.case %k : (tensor<i32>) -> tensor<f32> {
// CHECK-NEXT:      %r = bcast.while %x
// CHECK:         } {
// CHECK-NEXT:      bcast.yield %x : tensor<f32>
func.func @branch_with_a_loop(%k: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %out = "stablehlo.case"(%k) ({
    %r = "stablehlo.while"(%x) ({
    ^bb0(%v: tensor<f32>):
      %p = stablehlo.compare LT, %v, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    }, {
    ^bb0(%v: tensor<f32>):
      %w = stablehlo.add %v, %c : tensor<f32>
      stablehlo.return %w : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    stablehlo.return %r : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %out : tensor<f32>
}
