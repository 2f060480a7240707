// The cases of StableHLO's stablehlo/tests/ops_broadcasting.mlir (NumPy
// broadcasting of two ranked operands, static, bounded and scalar dims), each
// written as a bcast program: the same operand shapes under bcast's NumPy
// semantics, an add whose declared result type is upstream's expected result
// shape (so the verifier's inference must agree with it), made explicit. Where
// upstream broadcasts to a bound and then sets the dimension size, bcast reads
// the run-time size (bcast.dim) and broadcasts to it (docs/ir.md, "The explicit
// dynamic form"). The three error cases and the n-ary one are in
// ops_broadcasting_invalid.mlir; docs/stablehlo.md counts them all.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse | filecheck %s

// [] x [1] => [1]: the scalar becomes 1-element (a reshape: no data is repeated).
// CHECK-LABEL: func.func @scalar_broadcast_scalar_x_1
// CHECK-NEXT:    %0 = bcast.reshape %a : (tensor<f64>) -> tensor<1xf64>
// CHECK-NEXT:    %r = bcast.add %0, %b : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
// CHECK-NEXT:    func.return %r : tensor<1xf64>
func.func @scalar_broadcast_scalar_x_1(%a: tensor<f64>, %b: tensor<1xf64>) -> tensor<1xf64> {
  %r = bcast.add %a, %b : (tensor<f64>, tensor<1xf64>) -> tensor<1xf64>
  func.return %r : tensor<1xf64>
}

// -----

// [1] x [] => [1].
// CHECK-LABEL: func.func @scalar_broadcast_1_x_scalar
// CHECK-NEXT:    %0 = bcast.reshape %b : (tensor<f64>) -> tensor<1xf64>
// CHECK-NEXT:    %r = bcast.add %a, %0 : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
// CHECK-NEXT:    func.return %r : tensor<1xf64>
func.func @scalar_broadcast_1_x_scalar(%a: tensor<1xf64>, %b: tensor<f64>) -> tensor<1xf64> {
  %r = bcast.add %a, %b : (tensor<1xf64>, tensor<f64>) -> tensor<1xf64>
  func.return %r : tensor<1xf64>
}

// -----

// [] x [10] => [10].
// CHECK-LABEL: func.func @scalar_broadcast_scalar_x_10
// CHECK-NEXT:    %0 = bcast.broadcast_in_dim %a, dims = [] : (tensor<f64>) -> tensor<10xf64>
// CHECK-NEXT:    %r = bcast.add %0, %b : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xf64>
// CHECK-NEXT:    func.return %r : tensor<10xf64>
func.func @scalar_broadcast_scalar_x_10(%a: tensor<f64>, %b: tensor<10xf64>) -> tensor<10xf64> {
  %r = bcast.add %a, %b : (tensor<f64>, tensor<10xf64>) -> tensor<10xf64>
  func.return %r : tensor<10xf64>
}

// -----

// [<=10] x [] => [<=10]: the scalar is broadcast to the run-time size of the bounded dim
// (upstream: to the bound 10, then set_dimension_size to get_dimension_size); no check.
// CHECK-LABEL: func.func @scalar_broadcast_b10_x_scalar
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [%0], dims = [] : (tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %a, %1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
func.func @scalar_broadcast_b10_x_scalar(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [] x [<=10] => [<=10].
// CHECK-LABEL: func.func @scalar_broadcast_scalar_x_b10
// CHECK-NEXT:    %0 = bcast.dim %b, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %a, [%0], dims = [] : (tensor<f64>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %1, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
func.func @scalar_broadcast_scalar_x_b10(%a: tensor<f64>, %b: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<f64>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [] x [1, <=10, 1] => [1, <=10, 1].
// CHECK-LABEL: func.func @scalar_broadcast_scalar_x_1_b10_1
// CHECK-NEXT:    %0 = bcast.dim %b, 1 : tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %a, [1, %0, 1], dims = [] : (tensor<f64>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
// CHECK-NEXT:    %r = bcast.add %1, %b : (tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>, tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
// CHECK-NEXT:    func.return %r : tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
func.func @scalar_broadcast_scalar_x_1_b10_1(%a: tensor<f64>, %b: tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>> {
  %r = bcast.add %a, %b : (tensor<f64>, tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
  func.return %r : tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
}

// -----

// [10, 1, <=5] x [] => [10, 1, <=5].
// CHECK-LABEL: func.func @scalar_broadcast_10_1_b5_x_scalar
// CHECK-NEXT:    %0 = bcast.dim %a, 2 : tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [10, 1, %0], dims = [] : (tensor<f64>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
// CHECK-NEXT:    %r = bcast.add %a, %1 : (tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>, tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
// CHECK-NEXT:    func.return %r : tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
func.func @scalar_broadcast_10_1_b5_x_scalar(%a: tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>, %b: tensor<f64>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>> {
  %r = bcast.add %a, %b : (tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>, tensor<f64>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
  func.return %r : tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
}

// -----

// [1] x [1] => [1]: nothing to broadcast.
// CHECK-LABEL: func.func @single_dim_scalar_1_x_1
// CHECK-NEXT:    %r = bcast.add %a, %b : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
// CHECK-NEXT:    func.return %r : tensor<1xf64>
func.func @single_dim_scalar_1_x_1(%a: tensor<1xf64>, %b: tensor<1xf64>) -> tensor<1xf64> {
  %r = bcast.add %a, %b : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
  func.return %r : tensor<1xf64>
}

// -----

// [1] x [10] => [10].
// CHECK-LABEL: func.func @single_dim_scalar_1_x_10
// CHECK-NEXT:    %0 = bcast.broadcast_in_dim %a, dims = [0] : (tensor<1xf64>) -> tensor<10xf64>
// CHECK-NEXT:    %r = bcast.add %0, %b : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xf64>
// CHECK-NEXT:    func.return %r : tensor<10xf64>
func.func @single_dim_scalar_1_x_10(%a: tensor<1xf64>, %b: tensor<10xf64>) -> tensor<10xf64> {
  %r = bcast.add %a, %b : (tensor<1xf64>, tensor<10xf64>) -> tensor<10xf64>
  func.return %r : tensor<10xf64>
}

// -----

// [<=10] x [1] => [<=10]: the static 1 is known expanding; no check.
// CHECK-LABEL: func.func @single_dim_scalar_b10_x_1
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [%0], dims = [0] expanding = [0] : (tensor<1xf64>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %a, %1 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
func.func @single_dim_scalar_b10_x_1(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<1xf64>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<1xf64>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [1] x [<=10] => [<=10].
// CHECK-LABEL: func.func @single_dim_scalar_1_x_b10
// CHECK-NEXT:    %0 = bcast.dim %b, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %a, [%0], dims = [0] expanding = [0] : (tensor<1xf64>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %1, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
func.func @single_dim_scalar_1_x_b10(%a: tensor<1xf64>, %b: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<1xf64>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [<=10] x [<=10] => [<=10]. Upstream assumes the two sizes equal ("PT layer must ensure
// these are identical"); under NumPy's rule either may be 1 at run time, so bcast
// checks them and broadcasts to their broadcast size.
// CHECK-LABEL: func.func @single_dim_scalar_b10_x_b10
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %1 = bcast.dim %b, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %2 = bcast.broadcast_size %0, %1
// CHECK-NEXT:    bcast.check_broadcastable [%0] at [0], [%1] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %3 = bcast.dynamic_broadcast_in_dim %a, [%2], dims = [0] : (tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %4 = bcast.dynamic_broadcast_in_dim %b, [%2], dims = [0] : (tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    %r = bcast.add %3, %4 : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
func.func @single_dim_scalar_b10_x_b10(%a: tensor<?xf64, #stablehlo.bounds<10>>, %b: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>> {
  %r = bcast.add %a, %b : (tensor<?xf64, #stablehlo.bounds<10>>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<?xf64, #stablehlo.bounds<10>>
  func.return %r : tensor<?xf64, #stablehlo.bounds<10>>
}

// -----

// [1] x [1, <=10, 1] => [1, <=10, 1].
// CHECK-LABEL: func.func @single_dim_scalar_1_x_1_b10_1
// CHECK-NEXT:    %0 = bcast.dim %b, 1 : tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %a, [1, %0, 1], dims = [2] nonexpanding = [0] : (tensor<1xf64>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
// CHECK-NEXT:    %r = bcast.add %1, %b : (tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>, tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
// CHECK-NEXT:    func.return %r : tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
func.func @single_dim_scalar_1_x_1_b10_1(%a: tensor<1xf64>, %b: tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>> {
  %r = bcast.add %a, %b : (tensor<1xf64>, tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>) -> tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
  func.return %r : tensor<1x?x1xf64, #stablehlo.bounds<?, 10, ?>>
}

// -----

// [10, 1, <=5] x [1] => [10, 1, <=5].
// CHECK-LABEL: func.func @single_dim_scalar_10_1_b5_x_1
// CHECK-NEXT:    %0 = bcast.dim %a, 2 : tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [10, 1, %0], dims = [2] expanding = [0] : (tensor<1xf64>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
// CHECK-NEXT:    %r = bcast.add %a, %1 : (tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>, tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
// CHECK-NEXT:    func.return %r : tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
func.func @single_dim_scalar_10_1_b5_x_1(%a: tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>, %b: tensor<1xf64>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>> {
  %r = bcast.add %a, %b : (tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>, tensor<1xf64>) -> tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
  func.return %r : tensor<10x1x?xf64, #stablehlo.bounds<?, ?, 5>>
}

// -----

// [1, 2] x [1, 2] => [1, 2].
// CHECK-LABEL: func.func @tensor_no_broadcast_match
// CHECK-NEXT:    %r = bcast.add %a, %b : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
// CHECK-NEXT:    func.return %r : tensor<1x2xf64>
func.func @tensor_no_broadcast_match(%a: tensor<1x2xf64>, %b: tensor<1x2xf64>) -> tensor<1x2xf64> {
  %r = bcast.add %a, %b : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
  func.return %r : tensor<1x2xf64>
}

// -----

// [10, 1] x [1, 1] => [10, 1].
// CHECK-LABEL: func.func @tensor_broadcast_10_1_x_1_1
// CHECK-NEXT:    %0 = bcast.broadcast_in_dim %b, dims = [0, 1] : (tensor<1x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT:    %r = bcast.add %a, %0 : (tensor<10x1xf64>, tensor<10x1xf64>) -> tensor<10x1xf64>
// CHECK-NEXT:    func.return %r : tensor<10x1xf64>
func.func @tensor_broadcast_10_1_x_1_1(%a: tensor<10x1xf64>, %b: tensor<1x1xf64>) -> tensor<10x1xf64> {
  %r = bcast.add %a, %b : (tensor<10x1xf64>, tensor<1x1xf64>) -> tensor<10x1xf64>
  func.return %r : tensor<10x1xf64>
}

// -----

// [<=10, 1] x [1, 10] => [<=10, 10].
// CHECK-LABEL: func.func @tensor_broadcast_b10_1_x_1_10
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?x1xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %a, [%0, 10], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>) -> tensor<?x10xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %2 = bcast.dynamic_broadcast_in_dim %b, [%0, 10], dims = [0, 1] expanding = [0] nonexpanding = [1] : (tensor<1x10xf64>) -> tensor<?x10xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %r = bcast.add %1, %2 : (tensor<?x10xf64, #stablehlo.bounds<10, ?>>, tensor<?x10xf64, #stablehlo.bounds<10, ?>>) -> tensor<?x10xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    func.return %r : tensor<?x10xf64, #stablehlo.bounds<10, ?>>
func.func @tensor_broadcast_b10_1_x_1_10(%a: tensor<?x1xf64, #stablehlo.bounds<10, ?>>, %b: tensor<1x10xf64>) -> tensor<?x10xf64, #stablehlo.bounds<10, ?>> {
  %r = bcast.add %a, %b : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>, tensor<1x10xf64>) -> tensor<?x10xf64, #stablehlo.bounds<10, ?>>
  func.return %r : tensor<?x10xf64, #stablehlo.bounds<10, ?>>
}

// -----

// [<=10, 1] x [1, <=10] => [<=10, <=10]: each side's 1 expands to the other's run-time size.
// CHECK-LABEL: func.func @tensor_broadcast_b10_1_x_1_b10
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?x1xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %1 = bcast.dim %b, 1 : tensor<1x?xf64, #stablehlo.bounds<?, 10>>
// CHECK-NEXT:    %2 = bcast.dynamic_broadcast_in_dim %a, [%0, %1], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
// CHECK-NEXT:    %3 = bcast.dynamic_broadcast_in_dim %b, [%0, %1], dims = [0, 1] expanding = [0] nonexpanding = [1] : (tensor<1x?xf64, #stablehlo.bounds<?, 10>>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
// CHECK-NEXT:    %r = bcast.add %2, %3 : (tensor<?x?xf64, #stablehlo.bounds<10, 10>>, tensor<?x?xf64, #stablehlo.bounds<10, 10>>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
// CHECK-NEXT:    func.return %r : tensor<?x?xf64, #stablehlo.bounds<10, 10>>
func.func @tensor_broadcast_b10_1_x_1_b10(%a: tensor<?x1xf64, #stablehlo.bounds<10, ?>>, %b: tensor<1x?xf64, #stablehlo.bounds<?, 10>>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>> {
  %r = bcast.add %a, %b : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>, tensor<1x?xf64, #stablehlo.bounds<?, 10>>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
  func.return %r : tensor<?x?xf64, #stablehlo.bounds<10, 10>>
}

// -----

// [5] x [10, 1] => [10, 5].
// CHECK-LABEL: func.func @tensor_broadcast_5_x_10_1
// CHECK-NEXT:    %0 = bcast.broadcast_in_dim %a, dims = [1] : (tensor<5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT:    %1 = bcast.broadcast_in_dim %b, dims = [0, 1] : (tensor<10x1xf64>) -> tensor<10x5xf64>
// CHECK-NEXT:    %r = bcast.add %0, %1 : (tensor<10x5xf64>, tensor<10x5xf64>) -> tensor<10x5xf64>
// CHECK-NEXT:    func.return %r : tensor<10x5xf64>
func.func @tensor_broadcast_5_x_10_1(%a: tensor<5xf64>, %b: tensor<10x1xf64>) -> tensor<10x5xf64> {
  %r = bcast.add %a, %b : (tensor<5xf64>, tensor<10x1xf64>) -> tensor<10x5xf64>
  func.return %r : tensor<10x5xf64>
}

// -----

// [<=10, 1] x [5] => [<=10, 5].
// CHECK-LABEL: func.func @tensor_broadcast_b5_1_x_5
// CHECK-NEXT:    %0 = bcast.dim %a, 0 : tensor<?x1xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %a, [%0, 5], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>) -> tensor<?x5xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %2 = bcast.dynamic_broadcast_in_dim %b, [%0, 5], dims = [1] nonexpanding = [0] : (tensor<5xf64>) -> tensor<?x5xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    %r = bcast.add %1, %2 : (tensor<?x5xf64, #stablehlo.bounds<10, ?>>, tensor<?x5xf64, #stablehlo.bounds<10, ?>>) -> tensor<?x5xf64, #stablehlo.bounds<10, ?>>
// CHECK-NEXT:    func.return %r : tensor<?x5xf64, #stablehlo.bounds<10, ?>>
func.func @tensor_broadcast_b5_1_x_5(%a: tensor<?x1xf64, #stablehlo.bounds<10, ?>>, %b: tensor<5xf64>) -> tensor<?x5xf64, #stablehlo.bounds<10, ?>> {
  %r = bcast.add %a, %b : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>, tensor<5xf64>) -> tensor<?x5xf64, #stablehlo.bounds<10, ?>>
  func.return %r : tensor<?x5xf64, #stablehlo.bounds<10, ?>>
}

// -----

// [10] x [<=10]: upstream refuses to mix a bounded and a static dim. NumPy's rule
// accepts it when the run-time size is 1 or 10, so bcast verifies it and checks
// that at run time (a deliberate difference, docs/semantics.md, "Dynamic and
// bounded shapes").
// CHECK-LABEL: func.func @broadcast_error_10_x_b10
// CHECK-NEXT:    %0 = bcast.dim %b, 0 : tensor<?xf64, #stablehlo.bounds<10>>
// CHECK-NEXT:    bcast.check_broadcastable [10] at [0], [%0] at [0] checking [0] message = "operands could not be broadcast together with shapes"
// CHECK-NEXT:    %1 = bcast.dynamic_broadcast_in_dim %b, [10], dims = [0] : (tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<10xf64>
// CHECK-NEXT:    %r = bcast.add %a, %1 : (tensor<10xf64>, tensor<10xf64>) -> tensor<10xf64>
// CHECK-NEXT:    func.return %r : tensor<10xf64>
func.func @broadcast_error_10_x_b10(%a: tensor<10xf64>, %b: tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<10xf64> {
  %r = bcast.add %a, %b : (tensor<10xf64>, tensor<?xf64, #stablehlo.bounds<10>>) -> tensor<10xf64>
  func.return %r : tensor<10xf64>
}

// -----

// [<=10, 1] x [1, <=10] x [1] => [<=10, <=10]: upstream's n-ary broadcast, as two
// binary ones; the second needs nothing more (the static 1 is expanding).
// CHECK-LABEL: func.func @nary_broadcast_b10_1_x_1_b10_x_1
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         bcast.dynamic_broadcast_in_dim %c, [%0, %1], dims = [1] expanding = [0] : (tensor<1xf64>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
// CHECK-NOT:     bcast.check_broadcastable
// CHECK:         func.return
func.func @nary_broadcast_b10_1_x_1_b10_x_1(%a: tensor<?x1xf64, #stablehlo.bounds<10, ?>>, %b: tensor<1x?xf64, #stablehlo.bounds<?, 10>>, %c: tensor<1xf64>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>> {
  %ab = bcast.add %a, %b : (tensor<?x1xf64, #stablehlo.bounds<10, ?>>, tensor<1x?xf64, #stablehlo.bounds<?, 10>>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
  %r = bcast.add %ab, %c : (tensor<?x?xf64, #stablehlo.bounds<10, 10>>, tensor<1xf64>) -> tensor<?x?xf64, #stablehlo.bounds<10, 10>>
  func.return %r : tensor<?x?xf64, #stablehlo.bounds<10, 10>>
}
