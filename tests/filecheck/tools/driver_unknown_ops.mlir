// An unknown op of a dialect bcast knows is a misspelling: a located error
// with the closest names, with or without --allow-unregistered-dialect (as
// mlir-opt rejects unknown ops of its registered dialects). An op of a
// dialect bcast does not know is an error suggesting
// --allow-unregistered-dialect; with it, the op is kept (in generic form).
// RUN: bcast-opt %s --split-input-file --verify-diagnostics
// RUN: not bcast-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not bcast-opt %s --split-input-file --allow-unregistered-dialect 2>%t.err | filecheck %s --check-prefix=KEPT
// RUN: filecheck %s --check-prefix=ALLOW --input-file %t.err

// At the op's name, as MLIR locates it.
// CHECK: driver_unknown_ops.mlir:[[# @LINE + 4]]:8: error: unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and'?
// ALLOW: driver_unknown_ops.mlir:[[# @LINE + 3]]:8: error: unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and'?
func.func @misspelled(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and'?}}
  %0 = bcast.ad %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// Generic form too (the flag keeps only ops of other dialects).
// ALLOW: driver_unknown_ops.mlir:[[# @LINE + 3]]:8: error: unknown op 'bcast.multiplty'; did you mean 'bcast.multiply'?
func.func @generic(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{unknown op 'bcast.multiplty'; did you mean 'bcast.multiply'?}}
  %0 = "bcast.multiplty"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// A bare name inside a function, as `return` for func.return.
// ALLOW: driver_unknown_ops.mlir:[[# @LINE + 3]]:3: error: unknown op 'retrun'; did you mean 'return'?
func.func @bare(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{unknown op 'retrun'; did you mean 'return'?}}
  retrun %x : tensor<3xf32>
}

// -----

// A StableHLO op bcast does not import: the import's error, with no "did you
// mean" (most such ops are real StableHLO ops, such as tan, not misspellings
// of tanh); with the flag, kept, as the StableHLO ops bcast does not import are.
// KEPT: %0 = "stablehlo.ad"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
func.func @hlo(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'stablehlo.ad' op is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{supported ops: }}
  %0 = "stablehlo.ad"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// An op of a dialect bcast does not know.
// CHECK: driver_unknown_ops.mlir:[[# @LINE + 4]]:8: error: dialect 'foo' of op 'foo.bar' is not registered (bcast-opt --allow-unregistered-dialect keeps ops of other dialects, in generic form)
// KEPT: %0 = "foo.bar"(%x) : (tensor<3xf32>) -> tensor<3xf32>
func.func @foreign(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{dialect 'foo' of op 'foo.bar' is not registered (bcast-opt --allow-unregistered-dialect keeps ops of other dialects, in generic form)}}
  %0 = "foo.bar"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// Its custom form: the flag keeps ops of unknown dialects in generic form only.
// ALLOW: driver_unknown_ops.mlir:[[# @LINE + 3]]:8: error: unknown op 'foo.baz' (ops bcast does not know are kept in generic form only: "foo.baz"(...) : (...) -> (...))
func.func @foreign_custom(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{dialect 'foo' of op 'foo.baz' is not registered}}
  %0 = foo.baz %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
