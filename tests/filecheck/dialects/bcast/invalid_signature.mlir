// RUN: bcast-opt %s --split-input-file --verify-diagnostics
// RUN: not bcast-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=LOC

// Every backend takes and returns ranked tensors of bcast's element types
// (nested ones too; dims static, dynamic or bounded) and index values; any
// other signature is rejected at the function, before a backend fails on it.
// A static tensor of an element type bcast lacks (f8E5M2, complex, si32) is
// another tool's value: it verifies and passes through, and only a backend
// refuses it (tools/open_world_signature.mlir).

// expected-error @+2 {{'func.func' op argument 0: tensor encoding "sparse" is not supported: tensor<?x3xf32, "sparse">}}
// expected-note @+1 {{function arguments and results must be ranked tensors (possibly nested; dims static, dynamic or bounded) of i1, i4, i8..i64, ui4, ui8..ui64, f16, f32, f64, bf16, complex<f32> or complex<f64>, or index}}
func.func @encoded_argument(%x: tensor<?x3xf32, "sparse">) {
  func.return
}
// LOC: invalid_signature.mlir:[[# @LINE - 3]]:1: error: 'func.func' op argument 0: tensor encoding "sparse" is not supported
// LOC-NEXT: invalid_signature.mlir:[[# @LINE - 4]]:1: note: function arguments and results must be

// -----

// StableHLO's rules for bounds: one entry per dim, none on a static dim.
// expected-error @+2 {{'func.func' op result 1: bounds length is 1, expected to be equal to rank(2) of the tensor tensor<2x?xi32, #stablehlo.bounds<4>>}}
// expected-note @+1 {{function arguments and results must be}}
func.func private @short_bounds() -> (tensor<2xi32>, tensor<2x?xi32, #stablehlo.bounds<4>>)

// -----

// expected-error @+2 {{'func.func' op argument 0: static dimension 0 cannot have a bound, use ? to indicate a missing bound in tensor tensor<2x?xi32, #stablehlo.bounds<4, ?>>}}
// expected-note @+1 {{function arguments and results must be}}
func.func private @static_bound(tensor<2x?xi32, #stablehlo.bounds<4, ?>>)

// -----

// expected-error @+2 {{'func.func' op argument 1: expected a tensor or index type, got f32}}
// expected-note @+1 {{function arguments and results must be}}
func.func @scalar_argument(%x: tensor<3xf32>, %s: f32) {
  func.return
}

// -----

// expected-error @+2 {{'func.func' op result 0: expected a tensor or index type, got i32}}
// expected-note @+1 {{function arguments and results must be}}
func.func private @scalar_result() -> i32

// -----

// expected-error @+2 {{'func.func' op argument 0: expected a tensor or index type, got memref<3xf32>}}
// expected-note @+1 {{function arguments and results must be}}
func.func @memref_argument(%x: memref<3xf32>) {
  func.return
}

// -----

// expected-error @+2 {{'func.func' op argument 0: unranked tensors are not supported: tensor<*xf32>}}
// expected-note @+1 {{function arguments and results must be}}
func.func @unranked_argument(%x: tensor<*xf32>) {
  func.return
}

// -----

// expected-error @+2 {{'func.func' op argument 0: expected a tensor or index type, got () -> ()}}
// expected-note @+1 {{function arguments and results must be}}
func.func @function_argument(%f: () -> ()) {
  func.return
}

// -----

// Nested types are checked at every level.
module attributes {bcast.semantics = "tml"} {
  // expected-error @+2 {{'func.func' op argument 0: tensor encoding "x" is not supported: tensor<?xf32, "x">}}
  // expected-note @+1 {{function arguments and results must be}}
  func.func @nested_encoded(%x: tensor<3xtensor<?xf32, "x">>) {
    func.return
  }
}

// -----

// The signature is rejected at the function even when an op would also fail.
// expected-error @+2 {{'func.func' op argument 0: tensor encoding "x" is not supported: tensor<?xf32, "x">}}
// expected-note @+1 {{function arguments and results must be}}
func.func @before_its_ops(%x: tensor<?xf32, "x">) -> tensor<?xf32> {
  %0 = bcast.add %x, %x : (tensor<?xf32, "x">, tensor<?xf32, "x">) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// Accepted: static (zero-size too), rank 0, nested under tml, and index
// arguments and results.
module attributes {bcast.semantics = "tml"} {
  func.func @supported(%a: tensor<0x3xf32>, %b: tensor<4x3xi1>, %c: tensor<f64>,
                       %d: tensor<3xtensor<2xui8>>, %i: index) -> (tensor<0x3xf32>, index) {
    func.return %a, %i : tensor<0x3xf32>, index
  }
}
