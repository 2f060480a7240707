// A function whose signature holds tensors of element types bcast lacks
// (tf32, complex<f16>) is in the open world as the ops on them are
// (docs/contracts.md, "Ops bcast does not know"): it verifies, prints back,
// goes through the rewriting passes and -t stablehlo unchanged, and only
// what must run it (a backend, bcast-lower-to-loops) refuses it, located at
// the op it cannot run or at the function.
// RUN: bcast-opt %s --split-input-file | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s --split-input-file | bcast-opt - --split-input-file | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse | filecheck %s --check-prefix=STD
// RUN: bcast-opt %s --split-input-file -t stablehlo | filecheck %s --check-prefix=HLO
// RUN: not bcast-opt %s --split-input-file -t c 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s --split-input-file -p bcast-lower-to-loops 2>&1 | filecheck %s --check-prefix=LOOPS

// BACK-LABEL: func.func public @main(%h: tensor<4xtf32>, %z: tensor<2xcomplex<f16>>, %x: tensor<3xf32>) -> (tensor<4xtf32>, tensor<2xcomplex<f16>>, tensor<3xf32>) {
// BACK-NEXT:    %0 = stablehlo.multiply %h, %h : tensor<4xtf32>
// BACK-NEXT:    %1 = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// BACK-NEXT:    func.return %0, %z, %1 : tensor<4xtf32>, tensor<2xcomplex<f16>>, tensor<3xf32>
// STD-LABEL: func.func public @main(%h: tensor<4xtf32>, %z: tensor<2xcomplex<f16>>, %x: tensor<3xf32>)
// STD-NEXT:    %0 = stablehlo.multiply %h, %h : tensor<4xtf32>
// STD-NEXT:    %1 = bcast.fusion %x
// HLO-LABEL: func.func public @main(%h: tensor<4xtf32>, %z: tensor<2xcomplex<f16>>, %x: tensor<3xf32>) -> (tensor<4xtf32>, tensor<2xcomplex<f16>>, tensor<3xf32>) {
// HLO-NEXT:    %0 = stablehlo.multiply %h, %h : tensor<4xtf32>
// HLO-NEXT:    %1 = stablehlo.add %x, %x : tensor<3xf32>
// HLO-NEXT:    func.return %0, %z, %1 : tensor<4xtf32>, tensor<2xcomplex<f16>>, tensor<3xf32>
// C:         open_world_signature.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.multiply' op cannot be imported: unsupported element type tf32
func.func public @main(%h: tensor<4xtf32>, %z: tensor<2xcomplex<f16>>, %x: tensor<3xf32>) -> (tensor<4xtf32>, tensor<2xcomplex<f16>>, tensor<3xf32>) {
  %0 = stablehlo.multiply %h, %h : tensor<4xtf32>
  %1 = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0, %z, %1 : tensor<4xtf32>, tensor<2xcomplex<f16>>, tensor<3xf32>
}

// -----

// Only passed through: the refusal is at the function.
// BACK-LABEL: func.func @through(%z: tensor<2xcomplex<f16>>) -> tensor<2xcomplex<f16>> {
// HLO-LABEL:  func.func @through(%z: tensor<2xcomplex<f16>>) -> tensor<2xcomplex<f16>> {
// C:          open_world_signature.mlir:[[# @LINE + 4]]:1: error: 'func.func' op argument 0 of type tensor<2xcomplex<f16>> is not supported by the c target: unsupported element type complex<f16>
// C-NEXT:     note: function arguments and results must be ranked tensors
// LOOPS:      open_world_signature.mlir:[[# @LINE + 2]]:1: error: 'func.func' op argument 0 of type tensor<2xcomplex<f16>> is not supported by bcast-lower-to-loops: unsupported element type complex<f16>
// LOOPS-NEXT: note: function arguments and results must be ranked tensors
func.func @through(%z: tensor<2xcomplex<f16>>) -> tensor<2xcomplex<f16>> {
  func.return %z : tensor<2xcomplex<f16>>
}
