// -p as mlir-opt users write it: the pipeline wrapped in builtin.module(...),
// passes that rewrite each function on its own nested in func.func(...). The
// nesting changes nothing else: the output is the flat pipeline's.
// RUN: bcast-opt %s -p 'builtin.module(bcast-make-explicit, func.func(canonicalize, cse))' | filecheck %s
// RUN: bcast-opt %s --pass-pipeline='builtin.module(bcast-make-explicit,func.func(canonicalize,cse))' | filecheck %s
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse | filecheck %s
// CHECK:      func.func @f(%x: tensor<3x4xf32>, %row: tensor<4xf32>) -> tensor<3x4xf32> {
// CHECK-NEXT:   %0 = bcast.broadcast_in_dim %row, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %1 = bcast.add %x, %0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %2 = bcast.multiply %1, %1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   func.return %2 : tensor<3x4xf32>

// A misspelled pass: the closest name (usage error, exit 2: tests/tools/test_driver.py).
// RUN: not bcast-opt %s -p 'builtin.module(bcast-make-expicit)' 2>&1 | filecheck %s --check-prefix=MISSPELLED
// MISSPELLED: error: invalid pass pipeline 'builtin.module(bcast-make-expicit)': unknown pass 'bcast-make-expicit'; did you mean 'bcast-make-explicit'?

// A module pass (it changes signatures and calls) cannot run per function.
// RUN: not bcast-opt %s -p 'builtin.module(func.func(bcast-lower-to-loops))' 2>&1 | filecheck %s --check-prefix=MODULE-PASS
// MODULE-PASS: error: invalid pass pipeline {{.*}}: 'bcast-lower-to-loops' rewrites the whole module (signatures and calls): it cannot be nested in 'func.func(...)', only in 'builtin.module(...)'

// Anchors nest as in mlir-opt: func.func(...) inside builtin.module(...), and
// a wrapped pipeline is wrapped whole.
// RUN: not bcast-opt %s -p 'func.func(cse)' 2>&1 | filecheck %s --check-prefix=TOP-FUNC
// TOP-FUNC: error: invalid pass pipeline 'func.func(cse)': 'func.func(...)' cannot be at the top of the pipeline
// RUN: not bcast-opt %s -p 'cse,builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=PARTLY
// PARTLY: error: invalid pass pipeline {{.*}}: expected the whole pipeline wrapped in 'builtin.module(...)'
// RUN: not bcast-opt %s -p 'builtin.module(cse' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED: error: invalid pass pipeline 'builtin.module(cse': unclosed 'builtin.module('

func.func @f(%x: tensor<3x4xf32>, %row: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %1 = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %2 = bcast.multiply %0, %1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %2 : tensor<3x4xf32>
}
