// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.sort: values and key of one shape (no broadcasting), dim in range,
// the values' type as result, total_order on a float key only; nested
// (tml) types are refused.

func.func @sort_shapes_differ(%x: tensor<4x3xf32>, %i: tensor<4x1xi32>) {
  // expected-error @+1 {{'bcast.sort' op values and key must have one shape, got tensor<4x1xi32> and tensor<4x3xf32>}}
  %0 = bcast.sort %i by %x, dim = 1 : (tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<4x1xi32>
  // expected-note @-1 {{sort permutes values by its key's order; it does not broadcast}}
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
  // expected-error @+1 {{'bcast.sort' op total_order orders floats, but the key has element type i32}}
  %0 = bcast.sort %i by %i, dim = 0 total_order : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
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

func.func @sort_dynamic(%x: tensor<?xf32>) {
  // expected-error @+1 {{'bcast.sort' op dynamic dimensions are not supported by bcast.sort yet}}
  %0 = bcast.sort %x by %x, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  // expected-note @-1 {{docs/semantics.md, "Dynamic and bounded shapes", lists the ops that take them}}
  func.return
}
