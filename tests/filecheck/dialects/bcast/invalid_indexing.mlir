// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// Outside tml semantics every index is bounds-checked, there are at most as
// many indices as dimensions, and size-1 dimensions get no index-access
// broadcasting (IAB).

func.func @extract_out_of_bounds(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.extract' op index 0 (2) is out of bounds for dimension 0 of size 2}}
  %0 = bcast.extract %y[2, 0] : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @extract_out_of_bounds_inner(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{index 1 (3) is out of bounds for dimension 1 of size 3}}
  %0 = bcast.extract %y[0, 3] : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @extract_negative(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.extract' op index 0 is negative (-1)}}
  %0 = bcast.extract %y[-1, 0] : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @extract_zero_size(%z: tensor<0x3xf32>) {
  // expected-error @+1 {{index 0 (0) is out of bounds for dimension 0 of size 0}}
  %0 = bcast.extract %z[0] : (tensor<0x3xf32>) -> tensor<3xf32>
  func.return
}

// -----

// IAB on a size-1 dimension needs tml.
func.func @extract_iab_numpy(%a: tensor<1x2xf32>) {
  // expected-error @+1 {{'bcast.extract' op index 0 (999) is out of bounds for dimension 0 of size 1}}
  %0 = bcast.extract %a[999, 1] : (tensor<1x2xf32>) -> tensor<f32>
  // expected-note @-1 {{index-access broadcasting on size-1 dims needs tml semantics}}
  func.return
}

// -----

module attributes {bcast.semantics = "xla"} {
func.func @extract_iab_xla(%a: tensor<1x2xf32>) {
  // expected-error @+1 {{index 0 (999) is out of bounds for dimension 0 of size 1}}
  %0 = bcast.extract %a[999, 1] : (tensor<1x2xf32>) -> tensor<f32>
  // expected-note @-1 {{index-access broadcasting on size-1 dims needs tml semantics}}
  func.return
}
}

// -----

// Surplus indices need tml.
func.func @extract_surplus(%a: tensor<1x2xf32>) {
  // expected-error @+1 {{'bcast.extract' op extract has 4 indices but the value has rank 2}}
  %0 = bcast.extract %a[0, 1, 1000, 2000] : (tensor<1x2xf32>) -> tensor<f32>
  // expected-note @-1 {{index-access broadcasting (surplus indices ignored) needs tml semantics}}
  func.return
}

// -----

func.func @extract_scalar(%s: tensor<i32>) {
  // expected-error @+1 {{extract has 1 index but the value has rank 0}}
  %0 = bcast.extract %s[0] : (tensor<i32>) -> tensor<i32>
  // expected-note @-1 {{index-access broadcasting (surplus indices ignored) needs tml semantics}}
  func.return
}

// -----

func.func @extract_result(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.extract' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<f32>'}}
  %0 = bcast.extract %y[1] : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// -----

// Under tml, dimensions larger than 1 are still bounds-checked.
module attributes {bcast.semantics = "tml"} {
func.func @extract_tml_bounds(%a: tensor<1x2xf32>) {
  // expected-error @+1 {{'bcast.extract' op index 1 (2) is out of bounds for dimension 1 of size 2}}
  %0 = bcast.extract %a[999, 2] : (tensor<1x2xf32>) -> tensor<f32>
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @extract_tml_negative(%a: tensor<1x2xf32>) {
  // expected-error @+1 {{index 0 is negative (-1)}}
  %0 = bcast.extract %a[-1, 0] : (tensor<1x2xf32>) -> tensor<f32>
  func.return
}
}

// -----

module attributes {bcast.semantics = "tml"} {
func.func @extract_tml_nested_bounds(%a: tensor<3xtensor<3x3xf32>>) {
  // expected-error @+1 {{index 2 (3) is out of bounds for dimension 2 of size 3}}
  %0 = bcast.extract %a[0, 1, 3] : (tensor<3xtensor<3x3xf32>>) -> tensor<f32>
  func.return
}
}

// -----

func.func @assign_out_of_bounds(%y: tensor<2x3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.assign' op index 0 (2) is out of bounds for dimension 0 of size 2}}
  %0 = bcast.assign %y[2], %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @assign_iab_numpy(%a: tensor<1x3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'bcast.assign' op index 0 (1) is out of bounds for dimension 0 of size 1}}
  %0 = bcast.assign %a[1], %x : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  // expected-note @-1 {{index-access broadcasting on size-1 dims needs tml semantics}}
  func.return
}

// -----

func.func @assign_surplus(%y: tensor<2x3xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'bcast.assign' op assign has 3 indices but the value has rank 2}}
  %0 = bcast.assign %y[0, 0, 0], %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // expected-note @-1 {{index-access broadcasting (surplus indices ignored) needs tml semantics}}
  func.return
}

// -----

// Scalar IAB (a[1] = 2 for a scalar a) is tml only.
func.func @assign_scalar_numpy(%s: tensor<i32>, %v: tensor<i32>) {
  // expected-error @+1 {{assign has 1 index but the value has rank 0}}
  %0 = bcast.assign %s[1], %v : (tensor<i32>, tensor<i32>) -> tensor<i32>
  // expected-note @-1 {{index-access broadcasting (surplus indices ignored) needs tml semantics}}
  func.return
}

// -----

// The Array API in-place rule: x[1, ...] = a with a of shape (1, 3, 4) is an
// error in every mode (NumPy itself accepts it).
func.func @assign_array_api(%x: tensor<2x3x4xf32>, %a: tensor<1x3x4xf32>) {
  // expected-error @+1 {{'bcast.assign' op the source has rank 3, more than the indexed destination's 2}}
  %0 = bcast.assign %x[1], %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  // expected-note @-1 {{source shape 1x3x4 cannot broadcast to 3x4 without changing the destination}}
  func.return
}

// -----

func.func @assign_index_then_mismatch(%m: tensor<4x3xf32>, %v: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{the source does not broadcast to the indexed destination: dimension -1: 4 vs 3}}
  %0 = bcast.assign %m[%i], %v : (tensor<4x3xf32>, index, tensor<4xf32>) -> tensor<4x3xf32>
  // expected-note @-1 {{source shape 4, indexed destination shape 3: a source dimension must equal the destination's or be 1}}
  func.return
}

// -----

// In generic form the static list must agree with the SSA indices.
func.func @generic_dynamic_mismatch(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.extract' op extract lists 0 SSA indices but its index list has 1 dynamic entry}}
  %0 = "bcast.extract"(%y) <{static_indices = array<i64: -9223372036854775808>}> : (tensor<2x3xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @generic_missing_indices(%y: tensor<2x3xf32>) {
  // expected-error @+1 {{'bcast.extract' op property 'static_indices' expected in operation 'bcast.extract'}}
  %0 = "bcast.extract"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
