// RUN: bcast-opt %s -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - | filecheck %s

// JAX's jnp.matmul, jnp.einsum and lax.dot_general (dot_general, generic
// form included; dot) become bcast.dot_general; the precision config is
// dropped, and a preferred element type converts the operands first.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<3x4xf16>, %arg3: tensor<4x5xf16>, %arg4: tensor<4xf32>, %arg5: tensor<2x5x4xf32>) -> (tensor<2x3x5xf32>, tensor<3x5xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3x5xf32>) {
// CHECK-NEXT: %0 = bcast.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %1 = bcast.convert %arg2 : (tensor<3x4xf16>) -> tensor<3x4xf32>
// CHECK-NEXT: %2 = bcast.convert %arg3 : (tensor<4x5xf16>) -> tensor<4x5xf32>
// CHECK-NEXT: %3 = bcast.dot_general %1, %2, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf16>, tensor<4x5xf16>) -> tensor<3x5xf32>
// CHECK-NEXT: %4 = bcast.dot_general %arg0, %arg4, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  %2 = "stablehlo.dot_general"(%arg0, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %5 = bcast.dot_general %arg4, %arg4, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %3 = stablehlo.dot %arg4, %arg4, precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
// jnp.einsum('bij,bkj->bik'): the rhs contracted on its last dim.
// CHECK-NEXT: %6 = bcast.dot_general %arg0, %arg5, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %4 = stablehlo.dot_general %arg0, %arg5, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: func.return %0, %3, %4, %5, %6
  return %0, %1, %2, %3, %4 : tensor<2x3x5xf32>, tensor<3x5xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3x5xf32>
}

// An algorithm is dropped as the precision config is: bcast's product is
// computed in the operands' own type.
// CHECK-LABEL: func.func @algorithm
// CHECK-NEXT: %0 = bcast.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
func.func @algorithm(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
