// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// stablehlo.dot_general and stablehlo.dot as JAX prints them (pretty and
// generic, with and without a precision config); their verifier errors:
// invalid_hlo_dot_general.mlir.

// CHECK-LABEL: func.func public @main
func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<4xf32>, %arg3: tensor<3x4xf16>, %arg4: tensor<4x5xf16>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3xf32>, tensor<3x5xf32>, tensor<f32>) {
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// GENERIC: "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGH] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGH>]}> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %2 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
// GENERIC: "stablehlo.dot_general"(%arg0, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
// A preferred element type: f16 operands, an f32 result.
// CHECK-NEXT: %3 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf16>, tensor<4x5xf16>) -> tensor<3x5xf32>
  %3 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf16>, tensor<4x5xf16>) -> tensor<3x5xf32>
// CHECK-NEXT: %4 = stablehlo.dot %arg2, %arg2, precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
// GENERIC: "stablehlo.dot"(%arg2, %arg2) <{precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %4 = stablehlo.dot %arg2, %arg2, precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3xf32>, tensor<3x5xf32>, tensor<f32>
}

// An algorithm (how a backend may compute the product: here TF32 inputs,
// F32 sums) after the precision config, in both forms; bcast keeps it as
// written (its own products are computed in the operands' type).
// CHECK-LABEL: func.func @algorithm
func.func @algorithm(%a: tensor<2x2x2xi64>, %b: tensor<2x2x2xi64>) -> tensor<2x2x2xi64> {
// CHECK-NEXT: %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
// GENERIC: algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  %0 = stablehlo.dot_general %a, %b,
    batching_dims = [0] x [0],
    contracting_dims = [2] x [1],
    precision = [DEFAULT, DEFAULT],
    algorithm = <
      lhs_precision_type = tf32,
      rhs_precision_type = tf32,
      accumulation_type = f32,
      lhs_component_count = 1,
      rhs_component_count = 1,
      num_primitive_operations = 1,
      allow_imprecise_accumulation = false
    > : (tensor<2x2x2xi64>, tensor<2x2x2xi64>) -> tensor<2x2x2xi64>
  return %0 : tensor<2x2x2xi64>
}
