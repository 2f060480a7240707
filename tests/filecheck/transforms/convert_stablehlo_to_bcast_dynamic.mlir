// RUN: bcast-opt %s --split-input-file -p 'convert-stablehlo-to-bcast{strict=true}' | filecheck %s
// RUN: bcast-opt %s --split-input-file -p 'convert-stablehlo-to-bcast{strict=true},canonicalize,cse' | filecheck %s --check-prefix=CANON

// JAX's shape-polymorphic export form (docs/stablehlo.md, "Dynamic programs"):
// @main reads the dimension variable b with get_dimension_size, asserts
// b >= 1 (custom_call @shape_assertion, in generic form as jaxlib prints it)
// and calls the wrapped function with b as a tensor<i32> argument; sizes are
// concatenated 1-element tensors. The call is inlined, each size becomes an
// index (size_from_tensor), and canonicalize makes every size of b the
// argument's own bcast.dim and folds the reshape that only inserts a unit
// dim into the broadcast (the row is read in place).

// CHECK-LABEL: func.func public @main
// CHECK-NEXT:    %[[ONE:.*]] = bcast.constant dense<1> : tensor<i32>
// CHECK-NEXT:    %[[D:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT:    %[[B:.*]] = bcast.size_to_tensor %[[D]] : tensor<i32>
// CHECK-NEXT:    %[[OK:.*]] = bcast.compare GE, %[[B]], %[[ONE]] : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:    bcast.shape_assertion %[[OK]], %[[B]] message = "expected b >= 1, got b = {0}" : tensor<i1>, tensor<i32>
// CHECK:         %[[N:.*]] = bcast.size_from_tensor %[[B]] : tensor<i32>
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_broadcast_in_dim %{{.*}}, [%[[N]], 4], dims = [0, 1] : (tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    bcast.add %x, %{{.*}} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>

// CANON-LABEL: func.func public @main
// CANON:         %[[D:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CANON:         bcast.shape_assertion
// CANON-NEXT:    %[[BR:.*]] = bcast.dynamic_broadcast_in_dim %r, [%[[D]], 4], dims = [1] : (tensor<4xf32>) -> tensor<?x4xf32>
// CANON-NEXT:    %{{.*}} = bcast.add %x, %[[BR]] : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
func.func public @main(%x: tensor<?x4xf32>, %r: tensor<4xf32>) -> tensor<?x4xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  "stablehlo.custom_call"(%1, %0) <{call_target_name = "shape_assertion", has_side_effect = true, api_version = 2 : i32}> {error_message = "expected b >= 1, got b = {0}"} : (tensor<i1>, tensor<i32>) -> ()
  %2 = func.call @_wrapped_jax_export_main(%0, %x, %r) : (tensor<i32>, tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
func.func private @_wrapped_jax_export_main(%b: tensor<i32> {jax.global_constant = "b"}, %x: tensor<?x4xf32>, %r: tensor<4xf32>) -> tensor<?x4xf32> {
  %c = stablehlo.constant dense<4> : tensor<1xi32>
  %0 = stablehlo.broadcast_in_dim %r, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
  %1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [0, 1] : (tensor<1x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %4 = stablehlo.add %x, %3 : tensor<?x4xf32>
  return %4 : tensor<?x4xf32>
}

// -----

// A size computed from b (2 * b, as JAX writes jnp.concatenate([x, x]) sizes)
// is tensor arithmetic, read back with size_from_tensor; the facts of a
// dynamic_broadcast_in_dim are kept; a constant entry of a ? dim is an i64
// constant read as a size.

// CHECK-LABEL: func.func @twice
// CHECK:         %[[B:.*]] = bcast.size_to_tensor %{{.*}} : tensor<i32>
// CHECK-NEXT:    %[[TWO:.*]] = bcast.constant dense<2> : tensor<i32>
// CHECK-NEXT:    %[[TB:.*]] = bcast.multiply %[[TWO]], %[[B]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK:         %[[N:.*]] = bcast.size_from_tensor %[[TB]] : tensor<i32>
// CHECK-NEXT:    %[[C:.*]] = bcast.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[M:.*]] = bcast.size_from_tensor %[[C]] : tensor<i64>
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_broadcast_in_dim %s, [%[[N]], %[[M]]], dims = [0, 1] expanding = [1] nonexpanding = [0] : (tensor<?x1xf32>) -> tensor<?x?xf32>
func.func @twice(%x: tensor<?xf32>, %s: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %1 = stablehlo.multiply %two, %0 : tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<3> : tensor<1xi32>
  %3 = stablehlo.concatenate %2, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %4 = stablehlo.dynamic_broadcast_in_dim %s, %3, dims = [0, 1] {known_expanding_dimensions = array<i64: 1>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// -----

// A size tensor of another form (an argument) is read entry by entry; the
// entry of a static result dim is checked against it at run time.

// CHECK-LABEL: func.func @given_shape
// CHECK-NEXT:    %0 = bcast.extract %shape[0] : (tensor<2xi64>) -> tensor<i64>
// CHECK-NEXT:    %1 = bcast.size_from_tensor %0 : tensor<i64>
// CHECK-NEXT:    %2 = bcast.extract %shape[1] : (tensor<2xi64>) -> tensor<i64>
// CHECK-NEXT:    %3 = bcast.constant dense<4> : tensor<i64>
// CHECK-NEXT:    %4 = bcast.compare EQ, %2, %3
// CHECK-NEXT:    bcast.shape_assertion %4, %2 message = "stablehlo.dynamic_broadcast_in_dim: output size 1 is {0} at run time, but the result type has 4 there"
// CHECK-NEXT:    %5 = bcast.dynamic_broadcast_in_dim %x, [%1, 4], dims = [1] : (tensor<4xf32>) -> tensor<?x4xf32>
func.func @given_shape(%x: tensor<4xf32>, %shape: tensor<2xi64>) -> tensor<?x4xf32> {
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1] : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A rank-0 operand broadcast into a ? shape by the import itself (is_finite's
// bound, a rank-0 select predicate, clamp's bounds, a reduce's non-identity
// init) takes its sizes from the value of that shape.

// CHECK-LABEL: func.func @rank_0_into_dynamic
// CHECK:         %[[D:.*]] = bcast.dim %x, 0 : tensor<?x3xf32>
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_broadcast_in_dim %{{.*}}, [%[[D]], 3], dims = [] : (tensor<f32>) -> tensor<?x3xf32>
func.func @rank_0_into_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xi1> {
  %0 = stablehlo.is_finite %x : (tensor<?x3xf32>) -> tensor<?x3xi1>
  return %0 : tensor<?x3xi1>
}

// -----

// A bounded program: set_dimension_size gives a ? bounded by the operand's
// size, get_dimension_size reads it back.

// CHECK-LABEL: func.func @bounded
// CHECK-NEXT:    %[[N:.*]] = bcast.size_from_tensor %n : tensor<i32>
// CHECK-NEXT:    %[[S:.*]] = bcast.set_dimension_size %x, %[[N]], dim = 0 : (tensor<16xf32>) -> tensor<?xf32, #stablehlo.bounds<16>>
// CHECK-NEXT:    %[[M:.*]] = bcast.multiply %[[S]], %[[S]] : (tensor<?xf32, #stablehlo.bounds<16>>, tensor<?xf32, #stablehlo.bounds<16>>) -> tensor<?xf32, #stablehlo.bounds<16>>
// CHECK-NEXT:    %[[D:.*]] = bcast.dim %[[M]], 0 : tensor<?xf32, #stablehlo.bounds<16>>
// CHECK-NEXT:    %{{.*}} = bcast.size_to_tensor %[[D]] : tensor<i32>
func.func @bounded(%x: tensor<16xf32>, %n: tensor<i32>) -> (tensor<?xf32, #stablehlo.bounds<16>>, tensor<i32>) {
  %0 = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<16xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<16>>
  %1 = stablehlo.multiply %0, %0 : tensor<?xf32, #stablehlo.bounds<16>>
  %2 = stablehlo.get_dimension_size %1, dim = 0 : (tensor<?xf32, #stablehlo.bounds<16>>) -> tensor<i32>
  return %1, %2 : tensor<?xf32, #stablehlo.bounds<16>>, tensor<i32>
}

// -----

// jnp.reshape(x, (-1,)) and jnp.arange(b): dynamic_reshape to 4 * b and
// dynamic_iota, their sizes read from the size tensors.

// CHECK-LABEL: func.func @reshape_and_iota
// CHECK:         %[[N:.*]] = bcast.size_from_tensor %{{.*}} : tensor<i32>
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_reshape %x, [%[[N]]] : (tensor<?x4xf32>) -> tensor<?xf32>
// CHECK:         %[[B:.*]] = bcast.size_from_tensor %{{.*}} : tensor<i32>
// CHECK-NEXT:    %{{.*}} = bcast.dynamic_iota [%[[B]]], dim = 0 : tensor<?xf32>
func.func @reshape_and_iota(%x: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %1 = stablehlo.multiply %0, %c4 : tensor<i32>
  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
  %3 = stablehlo.dynamic_reshape %x, %2 : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>
  %4 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
  %5 = stablehlo.dynamic_iota %4, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  return %3, %5 : tensor<?xf32>, tensor<?xf32>
}
