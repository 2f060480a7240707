// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p 'convert-stablehlo-to-bcast{strict=true}'
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s

// A stablehlo.sort whose comparator is not one of JAX's forms is
// refused at the sort when the import is strict (as when the program is to
// run), naming the comparators supported; without strict it is kept as it is.

// Two keys, but the tie test compares another pair than the first key's:
// not a lexicographic order.
// CHECK-LABEL: func.func @tie_of_another_pair
// CHECK: "stablehlo.sort"
func.func @tie_of_another_pair(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes are imported: compare LT (ascending) or GT (descending) of the two elements of one operand, the key; on a float key TOTALORDER, of the elements as they are (jax.lax.top_k) or after JAX's canonicalization (select(x != x, NaN, select(x == 0, 0.0, x)): jnp.sort); on an integer key SIGNED (signed) or UNSIGNED (unsigned, i1); for several keys (num_keys > 1), or(compare LT/GT, and(compare EQ of the same pair, the next keys' comparator))}}
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.compare EQ, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.and %2, %3 : tensor<i1>
    %5 = stablehlo.or %1, %4 : tensor<i1>
    stablehlo.return %5 : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %0#0 : tensor<4xi32>
}

// -----

// Two keys joined by or alone (no tie test): either key may put an element
// first, which is no order.
func.func @keys_or_ed(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.or %1, %3 : tensor<i1>
    stablehlo.return %5 : tensor<i1>
  }) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  return %0#0 : tensor<4xi32>
}

// -----

// The first key's tie tested on its elements as they are, its order on
// them canonicalized: -0.0 and 0.0 tie for the order but not for the tie
// test, so neither the second key nor the first decides between them.
func.func @tie_not_canonicalized(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %11 = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %12 = stablehlo.and %11, %9 : tensor<i1>
    %13 = stablehlo.or %10, %12 : tensor<i1>
    stablehlo.return %13 : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#1 : tensor<4xi32>
}

// -----

// A float compare of FLOAT type: NaN is unordered, no strict weak order.
func.func @float_compare(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The arguments swapped (b before a): not JAX's.
func.func @swapped(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.compare LT, %b, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// UNSIGNED on a signed key orders by the bits: not JAX's.
func.func @unsigned_on_signed(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The canonicalization with a negative NaN would sort NaNs first: not JAX's.
func.func @negative_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  %nan = stablehlo.constant dense<0xFFC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Only one side canonicalized.
func.func @one_side_canonicalized(%x: tensor<4xf32>) -> tensor<4xf32> {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error @+2 {{'stablehlo.sort' op with this comparator is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{the comparators JAX writes}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
