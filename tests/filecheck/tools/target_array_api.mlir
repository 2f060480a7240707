// RUN: bcast-opt %s -t array-api --split-input-file | filecheck %s

// -t array-api runs the explicit pipeline (no fusion) and prints a Python
// module written against the Array API standard: the namespace comes from
// the arguments, broadcasts are broadcast_to views, and bcast's exact
// integer semantics are array_api_runtime functions.

// CHECK:      def main(x, row, *, out=None):
// CHECK-NEXT:     """@main: (tensor<3x4xi32>, tensor<4xi32>) -> (tensor<3x4xi32>, tensor<3x1xi32>)"""
// CHECK-NEXT:     xp = ar.namespace(x, row)
// CHECK-NEXT:     x = ar.argument(xp, x, _main_arguments[0])
// CHECK-NEXT:     row = ar.argument(xp, row, _main_arguments[1])
// CHECK-NEXT:     with np.errstate(all='ignore'):
// CHECK-NEXT:         [[B:[a-z0-9_]+]] = ar.broadcast_in_dim(xp, row, [1], (3, 4))
// CHECK-NEXT:         [[Q:[a-z0-9_]+]] = ar.divide(xp, x, [[B]])
// CHECK-NEXT:         [[S:[a-z0-9_]+]] = ar.reduce(xp, 'add', [[Q]], (1,), True, 'int32')
// CHECK-NEXT:     return ar.deliver(xp, ([[Q]], [[S]]), out, _main_results, (x, row))
func.func @main(%x: tensor<3x4xi32>, %row: tensor<4xi32>) -> (tensor<3x4xi32>, tensor<3x1xi32>) {
  %q = bcast.divide %x, %row : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %s = bcast.reduce add %q, dims = [1] keepdims : (tensor<3x4xi32>) -> tensor<3x1xi32>
  func.return %q, %s : tensor<3x4xi32>, tensor<3x1xi32>
}

// -----

// Comparisons order booleans as 0 and 1 (the standard orders numbers only);
// float add and exp are the standard's own functions.
// Every chunk's functions stay in the one module: this second @main is
// main_1, reached as CHUNKS[1]['main'] (see the end of the file).
// CHECK:      def main_1(p, q, a, *, out=None):
// CHECK:          [[C:[a-z0-9_]+]] = ar.compare(xp, 'LT', p, q)
// CHECK:          [[E:[a-z0-9_]+]] = xp.exp(a)
// CHECK:          [[A:[a-z0-9_]+]] = xp.add([[E]], a)
func.func @main(%p: tensor<2xi1>, %q: tensor<2xi1>, %a: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xf32>) {
  %c = bcast.compare LT, %p, %q : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %e = bcast.exponential %a : tensor<2xf32>
  %s = bcast.add %e, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %c, %s : tensor<2xi1>, tensor<2xf32>
}

// The tables: one per chunk; FUNCTIONS only for symbols one chunk defines.
// CHECK:      CHUNKS = ({'main': main}, {'main': main_1})
// CHECK:      FUNCTIONS = {}
