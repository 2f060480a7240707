// An unknown op of a dialect bcast owns is a misspelling: a located error
// with the closest names (as mlir-opt rejects unknown ops of its registered
// dialects). An op of another dialect, or a StableHLO op bcast does not
// import, is kept in generic form; in a custom form bcast's parser cannot
// read it: a located error saying to write it in generic form, but for a
// StableHLO/CHLO op, which bcast reads through jaxlib's MLIR.
// --allow-unregistered-dialect (mlir-opt's flag) changes nothing.
// RUN: bcast-opt %s --split-input-file --verify-diagnostics
// RUN: not bcast-opt %s --split-input-file 2>%t.err | filecheck %s --check-prefix=KEPT
// RUN: filecheck %s --input-file %t.err
// RUN: not bcast-opt %s --split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s

// At the op's name, as MLIR locates it.
// CHECK: driver_unknown_ops.mlir:[[# @LINE + 3]]:8: error: unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and' or 'bcast.pad'?
func.func @misspelled(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and' or 'bcast.pad'?}}
  %0 = bcast.ad %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// Generic form too (only ops of other dialects are kept).
// CHECK: driver_unknown_ops.mlir:[[# @LINE + 3]]:8: error: unknown op 'bcast.multiplty'; did you mean 'bcast.multiply'?
func.func @generic(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{unknown op 'bcast.multiplty'; did you mean 'bcast.multiply'?}}
  %0 = "bcast.multiplty"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// A bare name inside a function, as `return` for func.return.
// CHECK: driver_unknown_ops.mlir:[[# @LINE + 3]]:3: error: unknown op 'retrun'; did you mean 'return'?
func.func @bare(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{unknown op 'retrun'; did you mean 'return'?}}
  retrun %x : tensor<3xf32>
}

// -----

// A StableHLO op bcast does not import, in generic form: kept (a backend
// that runs it, or the strict import, reports it, naming the ops it takes).
// KEPT: %0 = "stablehlo.ad"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
func.func @hlo(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.ad"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// In a custom form: read through jaxlib's MLIR (this file needs jax, the
// `jax` extra) and kept, printed in generic form; no "did you mean" (most
// such ops are real StableHLO ops, such as chlo.bessel_i1e, not misspellings).
// KEPT: %0 = "chlo.bessel_i1e"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
func.func @hlo_custom(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = chlo.bessel_i1e %x : tensor<3xf32> -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// An op of a dialect bcast does not know: kept.
// KEPT: %0 = "foo.bar"(%x) : (tensor<3xf32>) -> tensor<3xf32>
func.func @foreign(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "foo.bar"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// Its custom form: kept in generic form only.
// CHECK: driver_unknown_ops.mlir:[[# @LINE + 3]]:8: error: 'foo.baz' op is not known to bcast; bcast keeps it as it is in generic form only: "foo.baz"(...) : (...) -> (...)
func.func @foreign_custom(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'foo.baz' op is not known to bcast; bcast keeps it as it is in generic form only: "foo.baz"(...) : (...) -> (...)}}
  %0 = foo.baz %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
