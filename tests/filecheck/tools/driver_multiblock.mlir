// A function of several blocks (branch ops of another dialect, kept as ops
// bcast does not know are): the entry block's values are visible in the
// later blocks; it prints back, draws with --view-op-graph (every block's
// ops in the function's cluster); a backend that must run it refuses its
// first op of another dialect, and -t stablehlo (which writes such ops back)
// refuses the function, naming why.
// RUN: bcast-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: bcast-opt %s --allow-unregistered-dialect --view-op-graph 2>&1 >/dev/null | filecheck %s --check-prefix=DOT
// RUN: not bcast-opt %s --allow-unregistered-dialect -t numpy 2>&1 | filecheck %s --check-prefix=NUMPY
// RUN: not bcast-opt %s --allow-unregistered-dialect -t c 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s --allow-unregistered-dialect -t stablehlo 2>&1 | filecheck %s --check-prefix=HLO

// CHECK:      func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:   %y = "foo.op"(%x) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   "foo.br"() [^bb1] : () -> ()
// CHECK-NEXT: ^bb1:
// CHECK-NEXT:   %z = bcast.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   func.return %z : tensor<3xf32>

// DOT:      label = "func.func @main";
// DOT:      label = "%y = foo.op\ntensor<3xf32>"
// DOT:      label = "foo.br"
// DOT:      label = "%z = bcast.add\ntensor<3xf32>"
// DOT:      label = "func.return"

// NUMPY: driver_multiblock.mlir:[[# @LINE + 4]]:8: error: 'foo.op' op is not supported by the numpy target
// C:     driver_multiblock.mlir:[[# @LINE + 3]]:8: error: 'foo.op' op is not supported by the c target
// HLO:   driver_multiblock.mlir:[[# @LINE + 1]]:1: error: 'func.func' op has 2 blocks; the stablehlo target runs functions of one block
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = "foo.op"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  "foo.br"() [^bb1] : () -> ()
^bb1:
  %z = bcast.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %z : tensor<3xf32>
}
