// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast{strict=true} | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s

// stablehlo.sort with JAX's comparators becomes one bcast.sort VALUES by KEY
// per used result: jnp.argsort (canonicalized floats, constants outside the
// region, only the indices used), descending integers (GT SIGNED), several
// operands sorted by one key (lax.sort num_keys=1), booleans (UNSIGNED),
// top_k's decomposition (GT TOTALORDER: total_order), and chlo.top_k as
// that decomposition; several keys (lax.sort num_keys=2 and 3, jnp.lexsort),
// lexicographic, each with its own direction and order. Comparators and attributes as jax 0.10.2 writes them.

// CHECK-LABEL: func.func @argsort
func.func @argsort(%arg0: tensor<3x5xf32>) -> tensor<3x5xi32> {
  %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.iota dim = 0 : tensor<3x5xi32>
// CHECK: %[[IOTA:.*]] = bcast.iota dim = 0 : tensor<3x5xi32>
// CHECK-NEXT: %[[S:.*]] = bcast.sort %[[IOTA]] by %arg0, dim = 0 : (tensor<3x5xi32>, tensor<3x5xf32>) -> tensor<3x5xi32>
// CHECK-NEXT: func.return %[[S]] : tensor<3x5xi32>
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

// The second operand is the key; a negative dimension counts from the end.
// CHECK-LABEL: func.func @by_the_second_operand_descending
func.func @by_the_second_operand_descending(%x: tensor<2x4xf64>, %k: tensor<2x4xi32>) -> (tensor<2x4xf64>, tensor<2x4xi32>) {
// CHECK-NEXT: %0 = bcast.sort %x by %k descending, dim = 1 : (tensor<2x4xf64>, tensor<2x4xi32>) -> tensor<2x4xf64>
// CHECK-NEXT: %1 = bcast.sort %k by %k descending, dim = 1 : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT: func.return %0, %1 : tensor<2x4xf64>, tensor<2x4xi32>
  %0:2 = "stablehlo.sort"(%x, %k) <{dimension = -1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare GT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<2x4xf64>, tensor<2x4xi32>) -> (tensor<2x4xf64>, tensor<2x4xi32>)
  return %0#0, %0#1 : tensor<2x4xf64>, tensor<2x4xi32>
}

// -----

// Booleans and unsigned integers compare UNSIGNED; is_stable = false is
// imported as stable (a stable order is one it allows).
// CHECK-LABEL: func.func @unsigned
func.func @unsigned(%b: tensor<5xi1>, %u: tensor<5xui16>) -> (tensor<5xi1>, tensor<5xui16>) {
// CHECK-NEXT: %0 = bcast.sort %b by %b, dim = 0 : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
// CHECK-NEXT: %1 = bcast.sort %u by %u, dim = 0 : (tensor<5xui16>, tensor<5xui16>) -> tensor<5xui16>
  %0 = "stablehlo.sort"(%b) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
    %1 = stablehlo.compare LT, %arg1, %arg2, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<5xi1>) -> tensor<5xi1>
  %2 = "stablehlo.sort"(%u) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%arg1: tensor<ui16>, %arg2: tensor<ui16>):
    %3 = stablehlo.compare LT, %arg1, %arg2, UNSIGNED : (tensor<ui16>, tensor<ui16>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  }) : (tensor<5xui16>) -> tensor<5xui16>
  return %0, %2 : tensor<5xi1>, tensor<5xui16>
}

// -----

// jax.export's top_k: a composite (generic form: its pretty form is read
// through jaxlib) whose decomposition sorts (x, iota) by compare GT,
// TOTALORDER of x as it is (IEEE totalOrder: total_order): read as the
// chlo.top_k it means, so the same ops.
// CHECK-LABEL: func.func public @top_k_composite
// CHECK-NEXT: %[[V:.*]] = bcast.sort %arg0 by %arg0 descending total_order, dim = 1 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %{{.*}} = bcast.slice %[[V]] [0:3, 0:2] : (tensor<3x5xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[IOTA:.*]] = bcast.iota dim = 1 : tensor<3x5xi32>
// CHECK-NEXT: %[[I:.*]] = bcast.sort %[[IOTA]] by %arg0 descending total_order, dim = 1 : (tensor<3x5xi32>, tensor<3x5xf32>) -> tensor<3x5xi32>
// CHECK-NEXT: %{{.*}} = bcast.slice %[[I]] [0:3, 0:2] : (tensor<3x5xi32>) -> tensor<3x2xi32>
func.func public @top_k_composite(%arg0: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %0:2 = "stablehlo.composite"(%arg0) <{composite_attributes = {k = 2 : i64}, decomposition = @chlo.top_k.impl, name = "chlo.top_k", version = 1 : i32}> : (tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi32>
}
func.func private @chlo.top_k.impl(%arg0: tensor<3x5xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<3x5xi32>
  %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %4 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %4 : tensor<i1>
  }) : (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>)
  %2 = stablehlo.slice %1#0 [0:3, 0:2] : (tensor<3x5xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.slice %1#1 [0:3, 0:2] : (tensor<3x5xi32>) -> tensor<3x2xi32>
  return %2, %3 : tensor<3x2xf32>, tensor<3x2xi32>
}

// -----

// jax.jit(...).lower's top_k: chlo.top_k, imported as its decomposition;
// on integers the order is the integers' (no total_order); an unused
// result (the values here) makes no op.
// CHECK-LABEL: func.func public @top_k
// CHECK-NEXT: %0 = bcast.iota dim = 1 : tensor<2x10xi32>
// CHECK-NEXT: %1 = bcast.sort %0 by %arg0 descending, dim = 1 : (tensor<2x10xi32>, tensor<2x10xi16>) -> tensor<2x10xi32>
// CHECK-NEXT: %indices = bcast.slice %1 [0:2, 0:4] : (tensor<2x10xi32>) -> tensor<2x4xi32>
// CHECK-NEXT: func.return %indices : tensor<2x4xi32>
func.func public @top_k(%arg0: tensor<2x10xi16>) -> tensor<2x4xi32> {
  %values, %indices = chlo.top_k(%arg0, k = 4) : tensor<2x10xi16> -> (tensor<2x4xi16>, tensor<2x4xi32>)
  return %indices : tensor<2x4xi32>
}

// -----

// No compare_type: the element type's own (SIGNED here), as StableHLO's
// interpreter suite writes it (sort.mlir @sort_stable); the attributes in
// the attribute dictionary.
// CHECK-LABEL: func.func @default_compare_type
func.func @default_compare_type(%x: tensor<2x3xi64>, %y: tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>) {
// CHECK-NEXT: %r0 = bcast.sort %x by %x descending, dim = 0 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %r1 = bcast.sort %y by %x descending, dim = 0 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %r0, %r1 = "stablehlo.sort"(%x, %y) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<i64>):
      %p = stablehlo.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)
  return %r0, %r1 : tensor<2x3xi64>, tensor<2x3xi64>
}

// -----

// jax.lax.sort((x, i, v), num_keys=2) as jax 0.10.2 writes it: x (floats,
// canonicalized) decides, i breaks its ties; every result used.
// CHECK-LABEL: func.func @two_keys
// CHECK: %[[A:.*]] = bcast.sort %x by %x, %i, dim = 0 : (tensor<5xf32>, tensor<5xf32>, tensor<5xi32>) -> tensor<5xf32>
// CHECK-NEXT: %[[B:.*]] = bcast.sort %i by %x, %i, dim = 0 : (tensor<5xi32>, tensor<5xf32>, tensor<5xi32>) -> tensor<5xi32>
// CHECK-NEXT: %[[C:.*]] = bcast.sort %v by %x, %i, dim = 0 : (tensor<5xi32>, tensor<5xf32>, tensor<5xi32>) -> tensor<5xi32>
// CHECK-NEXT: func.return %[[A]], %[[B]], %[[C]]
func.func @two_keys(%x: tensor<5xf32>, %i: tensor<5xi32>, %v: tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>, tensor<5xi32>) {
  %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0:3 = "stablehlo.sort"(%x, %i, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<i32>, %arg8: tensor<i32>):
    %1 = stablehlo.compare EQ, %arg3, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %cst_0, %arg3 : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %cst, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %arg4, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %cst_0, %arg4 : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %arg4, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %cst, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %arg5, %arg6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %11 = stablehlo.compare EQ, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %12 = stablehlo.and %11, %9 : tensor<i1>
    %13 = stablehlo.or %10, %12 : tensor<i1>
    stablehlo.return %13 : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xi32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>, tensor<5xi32>)
  return %0#0, %0#1, %0#2 : tensor<5xf32>, tensor<5xi32>, tensor<5xi32>
}

// -----

// Three keys, the middle one descending (GT), the last a float in IEEE total
// order (no canonicalization), or/and with their operands swapped; the keys
// not first among the operands. Only the first operand's result is used.
// CHECK-LABEL: func.func @three_keys
// CHECK-NEXT: %[[R:.*]] = bcast.sort %v by %a, %b descending, %c total_order, dim = 1 : (tensor<2x3xi32>, tensor<2x3xui8>, tensor<2x3xi1>, tensor<2x3xf64>) -> tensor<2x3xi32>
// CHECK-NEXT: func.return %[[R]]
func.func @three_keys(%v: tensor<2x3xi32>, %a: tensor<2x3xui8>, %b: tensor<2x3xi1>, %c: tensor<2x3xf64>) -> tensor<2x3xi32> {
  %0:4 = "stablehlo.sort"(%v, %a, %b, %c) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%v0: tensor<i32>, %v1: tensor<i32>, %a0: tensor<ui8>, %a1: tensor<ui8>, %b0: tensor<i1>, %b1: tensor<i1>, %c0: tensor<f64>, %c1: tensor<f64>):
    %1 = stablehlo.compare LT, %c0, %c1, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %2 = stablehlo.compare GT, %b0, %b1, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %3 = stablehlo.compare EQ, %b0, %b1, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %4 = stablehlo.and %1, %3 : tensor<i1>
    %5 = stablehlo.or %4, %2 : tensor<i1>
    %6 = stablehlo.compare LT, %a0, %a1, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %7 = stablehlo.compare EQ, %a0, %a1, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    %8 = stablehlo.and %7, %5 : tensor<i1>
    %9 = stablehlo.or %6, %8 : tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<2x3xi32>, tensor<2x3xui8>, tensor<2x3xi1>, tensor<2x3xf64>) -> (tensor<2x3xi32>, tensor<2x3xui8>, tensor<2x3xi1>, tensor<2x3xf64>)
  return %0#0 : tensor<2x3xi32>
}

// -----

// Shape-polymorphic: sort and argsort along a ? dim (JAX's dynamic_iota of
// the operand's size is the values), and chlo.top_k beside ? dims: a
// dynamic_iota of the operand's sizes, and a pad whose negative high
// padding keeps the first k of the static last dim.
// CHECK-LABEL: func.func @dynamic_argsort
// CHECK: bcast.sort %{{.*}} by %x total_order, dim = 0 : (tensor<?x4xi32>, tensor<?x4xf32>) -> tensor<?x4xi32>
func.func @dynamic_argsort(%x: tensor<?x4xf32>, %sizes: tensor<2xi32>) -> tensor<?x4xi32> {
  %0 = stablehlo.dynamic_iota %sizes, dim = 0 : (tensor<2xi32>) -> tensor<?x4xi32>
  %1:2 = "stablehlo.sort"(%x, %0) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %2 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<?x4xf32>, tensor<?x4xi32>) -> (tensor<?x4xf32>, tensor<?x4xi32>)
  return %1#1 : tensor<?x4xi32>
}

// -----

// CHECK-LABEL: func.func @dynamic_top_k
// CHECK-NEXT: %[[V:.*]] = bcast.sort %x by %x descending total_order, dim = 2 : (tensor<?x2x5xf32>, tensor<?x2x5xf32>) -> tensor<?x2x5xf32>
// CHECK-NEXT: %[[Z:.*]] = bcast.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %{{.*}} = bcast.pad %[[V]], %[[Z]], low = [0, 0, 0], high = [0, 0, -3], interior = [0, 0, 0] : (tensor<?x2x5xf32>, tensor<f32>) -> tensor<?x2x2xf32>
// CHECK-NEXT: %[[N:.*]] = bcast.dim %x, 0 : tensor<?x2x5xf32>
// CHECK-NEXT: %[[IOTA:.*]] = bcast.dynamic_iota [%[[N]], 2, 5], dim = 2 : tensor<?x2x5xi32>
// CHECK-NEXT: %[[I:.*]] = bcast.sort %[[IOTA]] by %x descending total_order, dim = 2 : (tensor<?x2x5xi32>, tensor<?x2x5xf32>) -> tensor<?x2x5xi32>
// CHECK-NEXT: %[[ZI:.*]] = bcast.constant dense<0> : tensor<i32>
// CHECK-NEXT: %{{.*}} = bcast.pad %[[I]], %[[ZI]], low = [0, 0, 0], high = [0, 0, -3], interior = [0, 0, 0] : (tensor<?x2x5xi32>, tensor<i32>) -> tensor<?x2x2xi32>
func.func @dynamic_top_k(%x: tensor<?x2x5xf32>) -> (tensor<?x2x2xf32>, tensor<?x2x2xi32>) {
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<?x2x5xf32> -> (tensor<?x2x2xf32>, tensor<?x2x2xi32>)
  return %values, %indices : tensor<?x2x2xf32>, tensor<?x2x2xi32>
}
