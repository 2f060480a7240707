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

// An op is the standard function its definition (ir/scalar.py) is on the
// element type (float divide and negate), else the definition run on
// standard functions (float remainder is fmod): comparisons
// order booleans as 0 and 1 (the standard orders numbers only), f16 exp is
// computed in f32 and rounded once (the standard does not promise it).
// Every chunk's functions stay in the one module: this second @main is
// main_1, reached as CHUNKS[1]['main'] (see the end of the file).
// CHECK:      def main_1(p, q, a, h, *, out=None):
// CHECK:          [[C:[a-z0-9_]+]] = ar.compare(xp, 'LT', p, q)
// CHECK-NEXT:     [[N:[a-z0-9_]+]] = xp.bitwise_and(p, q)
// CHECK-NEXT:     [[E:[a-z0-9_]+]] = xp.exp(a)
// CHECK-NEXT:     [[A:[a-z0-9_]+]] = xp.add([[E]], a)
// CHECK-NEXT:     [[L:[a-z0-9_]+]] = xp.less(a, [[A]])
// CHECK-NEXT:     [[H:[a-z0-9_]+]] = ar.exponential(xp, h)
// CHECK-NEXT:     [[D:[a-z0-9_]+]] = xp.divide([[A]], a)
// CHECK-NEXT:     [[G:[a-z0-9_]+]] = xp.negative([[D]])
// CHECK-NEXT:     [[R:[a-z0-9_]+]] = ar.remainder(xp, [[G]], a)
func.func @main(%p: tensor<2xi1>, %q: tensor<2xi1>, %a: tensor<2xf32>, %h: tensor<2xf16>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xf32>, tensor<2xi1>, tensor<2xf16>, tensor<2xf32>) {
  %c = bcast.compare LT, %p, %q : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %n = bcast.and %p, %q : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %e = bcast.exponential %a : tensor<2xf32>
  %s = bcast.add %e, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %l = bcast.compare LT, %a, %s : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %eh = bcast.exponential %h : tensor<2xf16>
  %d = bcast.divide %s, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %g = bcast.negate %d : tensor<2xf32>
  %r = bcast.remainder %g, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %c, %n, %s, %l, %eh, %r : tensor<2xi1>, tensor<2xi1>, tensor<2xf32>, tensor<2xi1>, tensor<2xf16>, tensor<2xf32>
}

// -----

// Integers: maximum is the standard's on either signedness; a logical
// right shift, sign and negate (which wraps) are their definitions;
// converting between integers of one width keeps the bits (ar.convert).
// CHECK:      def main_2(x, u, *, out=None):
// CHECK:          [[M:[a-z0-9_]+]] = xp.maximum(x, x)
// CHECK-NEXT:     [[U:[a-z0-9_]+]] = xp.maximum(u, u)
// CHECK-NEXT:     [[R:[a-z0-9_]+]] = ar.shift_right_logical(xp, x, [[M]])
// CHECK-NEXT:     [[G:[a-z0-9_]+]] = ar.sign(xp, [[R]])
// CHECK-NEXT:     [[V:[a-z0-9_]+]] = ar.convert(xp, [[G]], 'uint32')
// CHECK-NEXT:     [[N:[a-z0-9_]+]] = ar.negate(xp, x)
func.func @main(%x: tensor<2xi32>, %u: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>, tensor<2xi32>) {
  %m = bcast.maximum %x, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %mu = bcast.maximum %u, %u : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  %r = bcast.shift_right_logical %x, %m : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %g = bcast.sign %r : tensor<2xi32>
  %v = bcast.convert %g : (tensor<2xi32>) -> tensor<2xui32>
  %n = bcast.negate %x : tensor<2xi32>
  func.return %v, %mu, %n : tensor<2xui32>, tensor<2xui32>, tensor<2xi32>
}

// The tables: one per chunk; FUNCTIONS only for symbols one chunk defines.
// CHECK:      CHUNKS = ({'main': main}, {'main': main_1}, {'main': main_2})
// CHECK:      FUNCTIONS = {}
