// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// stablehlo.sort as JAX prints it (generic form only, as MLIR prints it;
// top_k's decomposition; jnp.argsort's canonicalizing comparator, whose NaN
// constant is a hex literal, is in the import's test), and chlo.top_k as
// jax.jit(...).lower writes it (pretty and generic). Verifier errors: invalid_hlo_sort.mlir; the import:
// transforms/convert_stablehlo_to_bcast_sort.mlir.

// CHECK-LABEL: func.func @top_k_decomposition
func.func @top_k_decomposition(%arg0: tensor<3x5xf32>) -> tensor<3x5xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<3x5xi32>
// CHECK: %1, %2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
// CHECK-NEXT:   %3 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   stablehlo.return %3 : tensor<i1>
// CHECK-NEXT: }) : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
  %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %3 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  }) : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
  return %1#1 : tensor<3x5xi32>
}

// -----

// No dimension (the spec's default, -1: the last) and no is_stable.
// CHECK-LABEL: func.func @defaults
func.func @defaults(%x: tensor<4xi32>) -> tensor<4xi32> {
// CHECK: %0 = "stablehlo.sort"(%x) ({
// CHECK-NEXT: ^bb0(%a: tensor<i32>, %b: tensor<i32>):
// CHECK-NEXT:   %1 = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:   stablehlo.return %1 : tensor<i1>
// CHECK-NEXT: }) : (tensor<4xi32>) -> tensor<4xi32>
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func public @top_k
func.func public @top_k(%arg0: tensor<2x10xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
// CHECK-NEXT: %values, %indices = chlo.top_k(%arg0, k = 4) : tensor<2x10xf32> -> (tensor<2x4xf32>, tensor<2x4xi32>)
  %values, %indices = chlo.top_k(%arg0, k = 4) : tensor<2x10xf32> -> (tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK-NEXT: %0, %1 = chlo.top_k(%arg0, k = 0) : tensor<2x10xf32> -> (tensor<2x0xf32>, tensor<2x0xi32>)
  %0:2 = "chlo.top_k"(%arg0) <{k = 0 : i64}> : (tensor<2x10xf32>) -> (tensor<2x0xf32>, tensor<2x0xi32>)
  return %values, %indices : tensor<2x4xf32>, tensor<2x4xi32>
}
