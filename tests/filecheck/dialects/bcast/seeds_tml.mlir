// RUN: bcast-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Every example of seeds/tml-broadcasting.txt, under tml semantics.
// TML's tensor<T, d1, d2> is tensor<d1xd2xT>; int is i32, real f64.

module attributes {bcast.semantics = "tml"} {

// Relational, scalar and tensor: a = 1; b = [1, 2, 3]; c = [b, b, b]
// d = a > b  ->  [false, false, false]   (3)
// d = a > c  ->  3x3 of false
// CHECK-LABEL: func.func @scalar_gt_tensor
// CHECK: %d1 = bcast.compare GT, %a, %b : (tensor<i32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK: %d2 = bcast.compare GT, %a, %c : (tensor<i32>, tensor<3x3xi32>) -> tensor<3x3xi1>
func.func @scalar_gt_tensor() {
  %a = bcast.constant dense<1> : tensor<i32>
  %b = bcast.constant dense<[1, 2, 3]> : tensor<3xi32>
  %c = bcast.constant dense<[[1, 2, 3], [1, 2, 3], [1, 2, 3]]> : tensor<3x3xi32>
  %d1 = bcast.compare GT, %a, %b : (tensor<i32>, tensor<3xi32>) -> tensor<3xi1>
  %d2 = bcast.compare GT, %a, %c : (tensor<i32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  func.return
}

// Relational, two compatible tensors: a = [1, 2, 3]; b = [4, 5, -1];
// c = [a, a, a]; d = [b, b, b]; x = a > b (3); y = c > d (3x3).
// CHECK-LABEL: func.func @tensor_gt_tensor
// CHECK: %x = bcast.compare GT, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK: %y = bcast.compare GT, %c, %d : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
func.func @tensor_gt_tensor() {
  %a = bcast.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = bcast.constant dense<[4, 5, -1]> : tensor<3xi32>
  %c = bcast.constant dense<[[1, 2, 3], [1, 2, 3], [1, 2, 3]]> : tensor<3x3xi32>
  %d = bcast.constant dense<[[4, 5, -1], [4, 5, -1], [4, 5, -1]]> : tensor<3x3xi32>
  %x = bcast.compare GT, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %y = bcast.compare GT, %c, %d : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  func.return
}

// Logical operations take bool, bitwise operations uint; both broadcast only
// from a scalar, and the result has the operands' shape.
// CHECK-LABEL: func.func @logical_bitwise
// CHECK: %l = bcast.and %p, %q : (tensor<i1>, tensor<3x3xi1>) -> tensor<3x3xi1>
// CHECK: %w = bcast.xor %u, %v : (tensor<3xtensor<2xui8>>, tensor<3xtensor<2xui8>>) -> tensor<3xtensor<2xui8>>
// CHECK: %s = bcast.shift_left %u, %k : (tensor<3xtensor<2xui8>>, tensor<ui8>) -> tensor<3xtensor<2xui8>>
func.func @logical_bitwise(%p: tensor<i1>, %q: tensor<3x3xi1>, %u: tensor<3xtensor<2xui8>>, %v: tensor<3xtensor<2xui8>>, %k: tensor<ui8>) {
  %l = bcast.and %p, %q : (tensor<i1>, tensor<3x3xi1>) -> tensor<3x3xi1>
  %w = bcast.xor %u, %v : (tensor<3xtensor<2xui8>>, tensor<3xtensor<2xui8>>) -> tensor<3xtensor<2xui8>>
  %s = bcast.shift_left %u, %k : (tensor<3xtensor<2xui8>>, tensor<ui8>) -> tensor<3xtensor<2xui8>>
  func.return
}

// Arithmetic: a = [1, 2, 3] (3) and b = [1; 2; 3] (3x1): c = a + b is 3x3,
// [2, 3, 4; 3, 4, 5; 4, 5, 6].
// CHECK-LABEL: func.func @arithmetic_outer
// CHECK: %c = bcast.add %a, %b : (tensor<3xi32>, tensor<3x1xi32>) -> tensor<3x3xi32>
func.func @arithmetic_outer() -> tensor<3x3xi32> {
  %a = bcast.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = bcast.constant dense<[[1], [2], [3]]> : tensor<3x1xi32>
  %c = bcast.add %a, %b : (tensor<3xi32>, tensor<3x1xi32>) -> tensor<3x3xi32>
  func.return %c : tensor<3x3xi32>
}

// Arithmetic on nested types broadcasts level by level: a base type
// broadcasts to a tensor type.
// CHECK-LABEL: func.func @arithmetic_nested
// CHECK: %r1 = bcast.add %a, %b : (tensor<3xtensor<3xi32>>, tensor<1xtensor<1xi32>>) -> tensor<3xtensor<3xi32>>
// CHECK: %r2 = bcast.multiply %a, %s : (tensor<3xtensor<3xi32>>, tensor<i32>) -> tensor<3xtensor<3xi32>>
func.func @arithmetic_nested(%a: tensor<3xtensor<3xi32>>, %b: tensor<1xtensor<1xi32>>, %s: tensor<i32>) {
  %r1 = bcast.add %a, %b : (tensor<3xtensor<3xi32>>, tensor<1xtensor<1xi32>>) -> tensor<3xtensor<3xi32>>
  %r2 = bcast.multiply %a, %s : (tensor<3xtensor<3xi32>>, tensor<i32>) -> tensor<3xtensor<3xi32>>
  func.return
}

// Assignment: a = [0, 0, 0]; a = 1 broadcasts to [1, 1, 1].
// b = 3x3 zeros; b = [1, 1, 1] broadcasts to three rows of ones.
// CHECK-LABEL: func.func @assignments
// CHECK: %a1 = bcast.assign %a, %one : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
// CHECK: %b1 = bcast.assign %b, %row : (tensor<3x3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
func.func @assignments() {
  %a = bcast.constant dense<0> : tensor<3xi32>
  %one = bcast.constant dense<1> : tensor<i32>
  %a1 = bcast.assign %a, %one : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %b = bcast.constant dense<0> : tensor<3x3xi32>
  %row = bcast.constant dense<[1, 1, 1]> : tensor<3xi32>
  %b1 = bcast.assign %b, %row : (tensor<3x3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
  func.return
}

// IAB: a of type tensor<real, 1, 2> = [3, 4].
// a[0][1] == 4; a[999][1] == 4; a[999][1][1000][2000] == 4; a[999][0][1000][2000] == 3
// CHECK-LABEL: func.func @index_access_broadcasting
// CHECK: %e0 = bcast.extract %a[0, 1] : (tensor<1x2xf64>) -> tensor<f64>
// CHECK: %e1 = bcast.extract %a[999, 1] : (tensor<1x2xf64>) -> tensor<f64>
// CHECK: %e2 = bcast.extract %a[999, 1, 1000, 2000] : (tensor<1x2xf64>) -> tensor<f64>
// CHECK: %e3 = bcast.extract %a[999, 0, 1000, 2000] : (tensor<1x2xf64>) -> tensor<f64>
// CHECK: %row = bcast.extract %a[999] : (tensor<1x2xf64>) -> tensor<2xf64>
func.func @index_access_broadcasting() {
  %a = bcast.constant dense<[[3.000000e+00, 4.000000e+00]]> : tensor<1x2xf64>
  %e0 = bcast.extract %a[0, 1] : (tensor<1x2xf64>) -> tensor<f64>
  %e1 = bcast.extract %a[999, 1] : (tensor<1x2xf64>) -> tensor<f64>
  %e2 = bcast.extract %a[999, 1, 1000, 2000] : (tensor<1x2xf64>) -> tensor<f64>
  %e3 = bcast.extract %a[999, 0, 1000, 2000] : (tensor<1x2xf64>) -> tensor<f64>
  %row = bcast.extract %a[999] : (tensor<1x2xf64>) -> tensor<2xf64>
  func.return
}

// Scalars and IAB: a = 42; a[0] == a[500] == a[4][5] == 42.
// CHECK-LABEL: func.func @scalar_iab
// CHECK: %e0 = bcast.extract %a[0] : (tensor<i32>) -> tensor<i32>
// CHECK: %e1 = bcast.extract %a[500] : (tensor<i32>) -> tensor<i32>
// CHECK: %e2 = bcast.extract %a[4, 5] : (tensor<i32>) -> tensor<i32>
func.func @scalar_iab() {
  %a = bcast.constant dense<42> : tensor<i32>
  %e0 = bcast.extract %a[0] : (tensor<i32>) -> tensor<i32>
  %e1 = bcast.extract %a[500] : (tensor<i32>) -> tensor<i32>
  %e2 = bcast.extract %a[4, 5] : (tensor<i32>) -> tensor<i32>
  func.return
}

// Syntax and examples: a = 1; b = a[1]; c = a[1][2][3];
// a[1] = 2 (a is 2); a[1][2][3] = 3 (a is 3). Indexing applies to lvalues too.
// CHECK-LABEL: func.func @scalar_iab_assign
// CHECK: %b = bcast.extract %a[1] : (tensor<i32>) -> tensor<i32>
// CHECK: %c = bcast.extract %a[1, 2, 3] : (tensor<i32>) -> tensor<i32>
// CHECK: %a2 = bcast.assign %a[1], %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: %a3 = bcast.assign %a2[1, 2, 3], %three : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: %ssa = bcast.extract %a[%i, %i] : (tensor<i32>, index, index) -> tensor<i32>
func.func @scalar_iab_assign(%i: index) {
  %a = bcast.constant dense<1> : tensor<i32>
  %b = bcast.extract %a[1] : (tensor<i32>) -> tensor<i32>
  %c = bcast.extract %a[1, 2, 3] : (tensor<i32>) -> tensor<i32>
  %two = bcast.constant dense<2> : tensor<i32>
  %a2 = bcast.assign %a[1], %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %three = bcast.constant dense<3> : tensor<i32>
  %a3 = bcast.assign %a2[1, 2, 3], %three : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %ssa = bcast.extract %a[%i, %i] : (tensor<i32>, index, index) -> tensor<i32>
  func.return
}

// The loop over signs: x[i] += y[i] with i an index value, on a size-1
// dimension (IAB) and on a larger one.
// CHECK-LABEL: func.func @iab_loop_body
// CHECK: %xi = bcast.extract %x[%i] : (tensor<1xf64>, index) -> tensor<f64>
// CHECK: %yi = bcast.extract %y[%i] : (tensor<3xf64>, index) -> tensor<f64>
// CHECK: %s = bcast.add %xi, %yi : (tensor<f64>, tensor<f64>) -> tensor<f64>
// CHECK: %x2 = bcast.assign %x[%i], %s : (tensor<1xf64>, index, tensor<f64>) -> tensor<1xf64>
func.func @iab_loop_body(%x: tensor<1xf64>, %y: tensor<3xf64>, %i: index) -> tensor<1xf64> {
  %xi = bcast.extract %x[%i] : (tensor<1xf64>, index) -> tensor<f64>
  %yi = bcast.extract %y[%i] : (tensor<3xf64>, index) -> tensor<f64>
  %s = bcast.add %xi, %yi : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %x2 = bcast.assign %x[%i], %s : (tensor<1xf64>, index, tensor<f64>) -> tensor<1xf64>
  func.return %x2 : tensor<1xf64>
}

// Narrowcasting, all five examples:
//   int a               -> narrow(a): int
//   tensor<int, 1> c    -> narrow(c): int
//   tensor<int, 1, 5, 1> e -> narrow(e): tensor<int, 5>
//   tensor<int, 5, 5> g -> narrow(g): tensor<int, 5, 5>
//   tensor<tensor<int, 1>, 5, 5> i -> narrow(i): tensor<tensor<int, 1>, 5, 5>
// CHECK-LABEL: func.func @narrowcasting
// CHECK: %b = bcast.narrow %a : (tensor<i32>) -> tensor<i32>
// CHECK: %d = bcast.narrow %c : (tensor<1xi32>) -> tensor<i32>
// CHECK: %f = bcast.narrow %e : (tensor<1x5x1xi32>) -> tensor<5xi32>
// CHECK: %h = bcast.narrow %g : (tensor<5x5xi32>) -> tensor<5x5xi32>
// CHECK: %j = bcast.narrow %i : (tensor<5x5xtensor<1xi32>>) -> tensor<5x5xtensor<1xi32>>
func.func @narrowcasting(%a: tensor<i32>, %c: tensor<1xi32>, %e: tensor<1x5x1xi32>, %g: tensor<5x5xi32>, %i: tensor<5x5xtensor<1xi32>>) {
  %b = bcast.narrow %a : (tensor<i32>) -> tensor<i32>
  %d = bcast.narrow %c : (tensor<1xi32>) -> tensor<i32>
  %f = bcast.narrow %e : (tensor<1x5x1xi32>) -> tensor<5xi32>
  %h = bcast.narrow %g : (tensor<5x5xi32>) -> tensor<5x5xi32>
  %j = bcast.narrow %i : (tensor<5x5xtensor<1xi32>>) -> tensor<5x5xtensor<1xi32>>
  func.return
}

// Narrowcasting expressions nest; only the top level is narrowed (not
// recursively): all-1 top dims of a nested type give its base (inner) type.
// CHECK-LABEL: func.func @narrowcasting_nested
// CHECK: %n1 = bcast.narrow %t : (tensor<1x1x1xf64>) -> tensor<f64>
// CHECK: %n2 = bcast.narrow %n1 : (tensor<f64>) -> tensor<f64>
// CHECK: %n3 = bcast.narrow %u : (tensor<1xtensor<1x3xi32>>) -> tensor<1x3xi32>
// CHECK: %n4 = bcast.narrow %n3 : (tensor<1x3xi32>) -> tensor<3xi32>
func.func @narrowcasting_nested(%t: tensor<1x1x1xf64>, %u: tensor<1xtensor<1x3xi32>>) {
  %n1 = bcast.narrow %t : (tensor<1x1x1xf64>) -> tensor<f64>
  %n2 = bcast.narrow %n1 : (tensor<f64>) -> tensor<f64>
  %n3 = bcast.narrow %u : (tensor<1xtensor<1x3xi32>>) -> tensor<1x3xi32>
  %n4 = bcast.narrow %n3 : (tensor<1x3xi32>) -> tensor<3xi32>
  func.return
}

// 3x3x3 and 3x(3x3) are different types: adding them broadcasts per level
// (level 0: 3 with 3x3x3; level 1: 3x3 with a scalar), giving 3x3x3x(3x3).
// Converting between them needs an explicit reshape.
// CHECK-LABEL: func.func @nested_is_not_flat
// CHECK: %r = bcast.add %n, %f : (tensor<3xtensor<3x3xf32>>, tensor<3x3x3xf32>) -> tensor<3x3x3xtensor<3x3xf32>>
// CHECK: %flat = bcast.reshape %n : (tensor<3xtensor<3x3xf32>>) -> tensor<3x3x3xf32>
// CHECK: %same = bcast.add %flat, %f : (tensor<3x3x3xf32>, tensor<3x3x3xf32>) -> tensor<3x3x3xf32>
func.func @nested_is_not_flat(%n: tensor<3xtensor<3x3xf32>>, %f: tensor<3x3x3xf32>) {
  %r = bcast.add %n, %f : (tensor<3xtensor<3x3xf32>>, tensor<3x3x3xf32>) -> tensor<3x3x3xtensor<3x3xf32>>
  %flat = bcast.reshape %n : (tensor<3xtensor<3x3xf32>>) -> tensor<3x3x3xf32>
  %same = bcast.add %flat, %f : (tensor<3x3x3xf32>, tensor<3x3x3xf32>) -> tensor<3x3x3xf32>
  func.return
}

}

// -----

// Two incompatible tensors: a = [1, 2; 1, 2] (2x2), b = [1, 2, 3; 1, 2, 3]
// (2x3): c = a + b is an error.
module attributes {bcast.semantics = "tml"} {
func.func @incompatible(%a: tensor<2x2xi32>, %b: tensor<2x3xi32>) {
  // expected-error @+1 {{'bcast.add' op operands are not broadcast-compatible: tensor<2x2xi32> and tensor<2x3xi32>}}
  %c = bcast.add %a, %b : (tensor<2x2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // expected-note @-1 {{dimension -1: 2 vs 3 (neither is 1)}}
  // expected-note @-2 {{aligned from the right: 2 x 2}}
  func.return
}
}

// -----

// Relational operations do not broadcast a tensor to a larger one: a > c for
// a = [1, 2, 3] and c = [a, a, a] is an error (only a scalar broadcasts).
module attributes {bcast.semantics = "tml"} {
func.func @relational_no_implicit(%a: tensor<3xi32>, %c: tensor<3x3xi32>) {
  // expected-error @+1 {{'bcast.compare' op relational operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %d = bcast.compare GT, %a, %c : (tensor<3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

// tensor<int, 3> a = 0; a = [1, 3] is an error: length 2 cannot broadcast to 3.
module attributes {bcast.semantics = "tml"} {
func.func @assignment_error(%a: tensor<3xi32>, %v: tensor<2xi32>) {
  // expected-error @+1 {{'bcast.assign' op the source does not broadcast to the indexed destination: dimension -1: 2 vs 3}}
  %a1 = bcast.assign %a, %v : (tensor<3xi32>, tensor<2xi32>) -> tensor<3xi32>
  // expected-note @-1 {{source shape 2, indexed destination shape 3: a source dimension must equal the destination's or be 1}}
  func.return
}
}

// -----

// "B must have the same or smaller number of dimensions than A."
module attributes {bcast.semantics = "tml"} {
func.func @assignment_rank(%a: tensor<3xi32>, %v: tensor<1x3xi32>) {
  // expected-error @+1 {{'bcast.assign' op the source has rank 2, more than the indexed destination's 1}}
  %a1 = bcast.assign %a, %v : (tensor<3xi32>, tensor<1x3xi32>) -> tensor<3xi32>
  // expected-note @-1 {{source shape 1x3 cannot broadcast to 3 without changing the destination}}
  func.return
}
}

// -----

// IAB is bounded on dimensions larger than 1: a[0][2] on tensor<real, 1, 2>.
module attributes {bcast.semantics = "tml"} {
func.func @iab_bounded(%a: tensor<1x2xf64>) {
  // expected-error @+1 {{'bcast.extract' op index 1 (2) is out of bounds for dimension 1 of size 2}}
  %e = bcast.extract %a[0, 2] : (tensor<1x2xf64>) -> tensor<f64>
  func.return
}
}

// -----

// 3x3x3 and 3x(3x3) are different types: a relational op needs identical
// shapes at every nesting level, so comparing them is an error.
module attributes {bcast.semantics = "tml"} {
func.func @nested_vs_flat(%n: tensor<3xtensor<3x3xf32>>, %f: tensor<3x3x3xf32>) {
  // expected-error @+1 {{relational operations under tml semantics need a scalar operand or identical shapes at every nesting level}}
  %r = bcast.compare EQ, %n, %f : (tensor<3xtensor<3x3xf32>>, tensor<3x3x3xf32>) -> tensor<3x3x3xi1>
  // expected-note @-1 {{tml broadcasts these operations only from a scalar; broadcast explicitly with bcast.broadcast_in_dim}}
  func.return
}
}

// -----

// ... and a value of one type is not a value of the other.
module attributes {bcast.semantics = "tml"} {
func.func @nested_type_mismatch(%n: tensor<3xtensor<3x3xf32>>) {
  // expected-error @+1 {{operand is used with type tensor<3x3x3xf32>, but has been previously used or defined with type tensor<3xtensor<3x3xf32>>}}
  %r = bcast.negate %n : tensor<3x3x3xf32>
  func.return
}
}
