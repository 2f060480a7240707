// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.sort: values and keys of one shape (no broadcasting), dim in range,
// the values' type as result, total_order on a float key only, the per-key
// flags naming keys that exist, one type per operand; nested (tml) types are
// refused.

func.func @sort_shapes_differ(%x: tensor<4x3xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+1 {{'bcast.sort' op values and key must have one shape, got tensor<4x1xi32> and tensor<4x3xf32>}}
  %0 = bcast.sort %i by %x, dim = 1 : (tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<4x1xi32>
  // expected-note @-1 {{sort permutes values by its keys' order; it does not broadcast}}
  func.return
}

// -----

func.func @sort_dim_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'bcast.sort' op sort dim 2 is out of range for an operand of rank 2}}
  %0 = bcast.sort %x by %x, dim = 2 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // expected-note @-1 {{the dim indexes the operand's dimensions from 0}}
  func.return
}

// -----

func.func @sort_of_a_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'bcast.sort' op sort dim 0 is out of range for an operand of rank 0}}
  %0 = bcast.sort %x by %x, dim = 0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // expected-note @-1 {{the dim indexes the operand's dimensions from 0}}
  func.return
}

// -----

func.func @sort_total_order_of_integers(%i: tensor<4xi32>) {
  // expected-error @+1 {{'bcast.sort' op total_order orders floats, but key #0 has element type i32}}
  %0 = bcast.sort %i by %i total_order, dim = 0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // expected-note @-1 {{integers and booleans have one order; drop total_order}}
  func.return
}

// -----

func.func @sort_result_type(%x: tensor<4xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{'bcast.sort' op inferred type(s) 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = bcast.sort %i by %x, dim = 0 : (tensor<4xi32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @sort_nested(%x: tensor<4xtensor<3xf32>>) {
  // expected-error @+1 {{'bcast.sort' op sort does not support nested tensor types}}
  %0 = bcast.sort %x by %x, dim = 0 : (tensor<4xtensor<3xf32>>, tensor<4xtensor<3xf32>>) -> tensor<4xtensor<3xf32>>
  func.return
}

// -----

func.func @sort_dynamic_declared_static(%x: tensor<?xf32>) {
  // expected-error @+1 {{'bcast.sort' op result dimension 0 is declared 4, a size known only at run time}}
  %0 = bcast.sort %x by %x, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  // expected-note @-1 {{declare it ? (the inferred type is tensor<?xf32>)}}
  func.return
}

// -----

func.func @sort_bound_below_the_size(%x: tensor<4xf32>, %i: tensor<?xi32, #stablehlo.bounds<2>>) {
  // expected-error @+1 {{'bcast.sort' op values and key must have one shape, got tensor<4xf32> and tensor<?xi32, #stablehlo.bounds<2>>}}
  %0 = bcast.sort %x by %i, dim = 0 : (tensor<4xf32>, tensor<?xi32, #stablehlo.bounds<2>>) -> tensor<4xf32>
  // expected-note @-1 {{sort permutes values by its keys' order; it does not broadcast}}
  func.return
}

// -----

func.func @sort_second_key_shape(%x: tensor<4x3xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{'bcast.sort' op values and key must have one shape, got tensor<4x3xf32> and tensor<4xi32>}}
  %0 = bcast.sort %x by %x, %i, dim = 1 : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  // expected-note @-1 {{sort permutes values by its keys' order; it does not broadcast}}
  func.return
}

// -----

func.func @sort_total_order_of_the_second_key(%x: tensor<4xf32>, %i: tensor<4xi32>) {
  // expected-error @+1 {{'bcast.sort' op total_order orders floats, but key #1 has element type i32}}
  %0 = bcast.sort %x by %x total_order, %i total_order, dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  // expected-note @-1 {{integers and booleans have one order; drop total_order}}
  func.return
}

// -----

func.func @sort_flag_of_no_key(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.sort' op descending lists key positions, increasing, in [0, 1), got [1]}}
  %0 = "bcast.sort"(%x, %x) <{dimension = 0 : i64, descending = array<i64: 1>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @sort_without_keys(%x: tensor<4xf32>) {
  // expected-error @+1 {{'bcast.sort' op sort needs at least one key}}
  %0 = "bcast.sort"(%x) <{dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @sort_types_of_keys(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected 3 operand types and one result type}}
  %0 = bcast.sort %x by %x, %x, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}
