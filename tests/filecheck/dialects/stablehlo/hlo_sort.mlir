// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// stablehlo.sort as JAX prints it (generic form only, as MLIR prints it;
// jnp.argsort's canonicalizing comparator, its constants outside the
// region), and chlo.top_k as jax.jit(...).lower writes it (pretty and
// generic). Verifier errors: invalid_hlo_sort.mlir; the import:
// transforms/convert_stablehlo_to_bcast_sort.mlir.

// CHECK-LABEL: func.func @argsort
func.func @argsort(%arg0: tensor<3x5xf32>) -> tensor<3x5xi32> {
  %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.iota dim = 0 : tensor<3x5xi32>
// CHECK: %1, %2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
// CHECK:   %{{.*}} = stablehlo.compare LT, %{{.*}}, %{{.*}}, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:   stablehlo.return %{{.*}} : tensor<i1>
// CHECK-NEXT: }) : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
  %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %2 = stablehlo.compare EQ, %arg1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
    %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.select %4, %cst, %3 : tensor<i1>, tensor<f32>
    %6 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %7 = stablehlo.select %6, %cst_0, %arg2 : tensor<i1>, tensor<f32>
    %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %9 = stablehlo.select %8, %cst, %7 : tensor<i1>, tensor<f32>
    %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %10 : tensor<i1>
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
