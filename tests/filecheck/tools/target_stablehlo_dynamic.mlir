// RUN: bcast-opt %s --split-input-file -t stablehlo | filecheck %s

// -t stablehlo writes a dynamic program in the form JAX exports
// (docs/stablehlo.md, "Dynamic programs"): sizes read by get_dimension_size
// (as i64), output shapes concatenated from 1-element sizes,
// dynamic_broadcast_in_dim with its known (non)expanding dims, and each
// run-time check as custom_call @shape_assertion with NumPy's words, a {k}
// for each run-time size. tests/tools/test_jax_dynamic.py has jaxlib refine
// and XLA run it at concrete sizes.

// CHECK-LABEL: func.func @main(%x: tensor<?x4xf32>, %c: tensor<?x1xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %[[XS:.*]] = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
// CHECK-NEXT:    %[[N:.*]] = stablehlo.convert %[[XS]] : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT:    %[[CS:.*]] = stablehlo.get_dimension_size %c, dim = 0 : (tensor<?x1xf32>) -> tensor<i32>
// CHECK-NEXT:    %[[M:.*]] = stablehlo.convert %[[CS]] : (tensor<i32>) -> tensor<i64>
// CHECK-NEXT:    %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[NOT1:.*]] = stablehlo.compare NE, %[[N]], %[[ONE]], SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT:    %[[S:.*]] = stablehlo.select %[[NOT1]], %[[N]], %[[M]] : tensor<i1>, tensor<i64>
// CHECK:         %[[OK:.*]] = stablehlo.and %{{.*}}, %{{.*}} : tensor<i1>
// CHECK-NEXT:    "stablehlo.custom_call"(%[[OK]], %[[N]], %[[M]]) <{call_target_name = "shape_assertion", has_side_effect = true, api_version = 2 : i32}> {error_message = "operands could not be broadcast together with shapes ({0}, 4) ({1}, 1)"} : (tensor<i1>, tensor<i64>, tensor<i64>) -> ()
// CHECK-NEXT:    %[[S1:.*]] = stablehlo.reshape %[[S]] : (tensor<i64>) -> tensor<1xi64>
// CHECK:         %[[SHAPE:.*]] = stablehlo.concatenate %[[S1]], %{{.*}}, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:    %[[BX:.*]] = stablehlo.dynamic_broadcast_in_dim %x, %[[SHAPE]], dims = [0, 1] {known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
// CHECK-NEXT:    %[[BC:.*]] = stablehlo.dynamic_broadcast_in_dim %c, %[[SHAPE]], dims = [0, 1] {known_expanding_dimensions = array<i64: 1>} : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x4xf32>
// CHECK-NEXT:    %{{.*}} = stablehlo.multiply %[[BX]], %[[BC]] : tensor<?x4xf32>
func.func @main(%x: tensor<?x4xf32>, %c: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = bcast.multiply %x, %c : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// A row broadcast into a ? size needs no check: one dynamic_broadcast_in_dim
// of the row, its dim known nonexpanding; size tensors and shape assertions
// (of the JAX import) are converts and custom_calls.

// CHECK-LABEL: func.func @main
// CHECK-NOT:     custom_call
// CHECK:         %[[N:.*]] = stablehlo.convert %{{.*}} : (tensor<i32>) -> tensor<i64>
// CHECK:         %[[SHAPE:.*]] = stablehlo.concatenate
// CHECK-NEXT:    %[[BR:.*]] = stablehlo.dynamic_broadcast_in_dim %r, %[[SHAPE]], dims = [1] {known_nonexpanding_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
// CHECK-NEXT:    %{{.*}} = stablehlo.add %x, %[[BR]] : tensor<?x3xf32>
// CHECK-NEXT:    %[[B:.*]] = stablehlo.convert %[[N]] : (tensor<i64>) -> tensor<i32>
// CHECK:         "stablehlo.custom_call"(%{{.*}}, %[[B]]) <{call_target_name = "shape_assertion", has_side_effect = true, api_version = 2 : i32}> {error_message = "b = {0} is below 1"} : (tensor<i1>, tensor<i32>) -> ()
func.func @main(%x: tensor<?x3xf32>, %r: tensor<3xf32>) -> tensor<?x3xf32> {
  %1 = bcast.add %x, %r : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %n = bcast.dim %x, 0 : tensor<?x3xf32>
  %b = bcast.size_to_tensor %n : tensor<i32>
  %one = bcast.constant dense<1> : tensor<i32>
  %ok = bcast.compare GE, %b, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
  bcast.shape_assertion %ok, %b message = "b = {0} is below 1" : tensor<i1>, tensor<i32>
  func.return %1 : tensor<?x3xf32>
}
