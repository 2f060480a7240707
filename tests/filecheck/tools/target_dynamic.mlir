// RUN: bcast-opt %s -t numpy | filecheck %s --check-prefix=NUMPY
// RUN: bcast-opt %s -t array-api | filecheck %s --check-prefix=ARRAY-API
// The output is one Python module that runs at every size (python -c compiles it).
// RUN: bcast-opt %s -t numpy | python -c "import sys; compile(sys.stdin.read(), 'numpy', 'exec')"
// RUN: bcast-opt %s -t array-api | python -c "import sys; compile(sys.stdin.read(), 'array-api', 'exec')"
// A pipeline given with -p replaces the dynamic one.
// bcast-fuse fuses a dynamic function (for the C target); the numpy target
// plans a fusion's blocks from static sizes, so it refuses one, located.
// RUN: not bcast-opt %s -t numpy -p bcast-make-explicit,bcast-fuse 2>&1 | filecheck %s --check-prefix=FUSE

// -t numpy and -t array-api on a program with ? and bounded dims
// (docs/semantics.md, "Dynamic and bounded shapes"): the targets run
// bcast-make-explicit, canonicalize and cse (not sink or fuse), and print the
// explicit dynamic form (docs/ir.md): sizes read from the arguments' shapes,
// each run-time check a call of the reference's own check at the location
// of the op that needs it, broadcasts to run-time sizes as views.

// The signature keeps the ? and the bound: the arguments are checked against them.
// NUMPY:      _main_arguments = (rt.Spec('arg0 (%x)', 'tensor<?x4xf32>', (rt.dynamic(), 4), np.float32), rt.Spec('arg1 (%c)', 'tensor<?x1xf32>', (rt.dynamic(), 1), np.float32), rt.Spec('arg2 (%b)', 'tensor<?xf32, #stablehlo.bounds<3>>', (rt.dynamic(3),), np.float32))
// NUMPY-NEXT: _main_results = (rt.Spec('result0', 'tensor<?x4xf32>', (rt.dynamic(), 4), np.float32),)
// NUMPY:      def main(x, c, b, *, out=None):
// NUMPY:          outs = _main_no_outs if out is None else rt.Outs(out, _main_results, (x, c, b), may_fail=True)
// NUMPY-NEXT:     fp_errors = rt.FP_ERRORS.set(rt.IGNORE_ALL)
// NUMPY-NEXT:     try:
// Sizes are read once, and canonicalization hoists every check to the
// entry, before any computation (docs/ir.md, the check rules).
// NUMPY-NEXT:         [[N:[a-z][a-z0-9_]*]] = x.shape[0]
// NUMPY-NEXT:         [[M:[a-z][a-z0-9_]*]] = c.shape[0]
// NUMPY-NEXT:         [[S:[a-z][a-z0-9_]*]] = rt.broadcast_size(([[N]], [[M]]))
// NUMPY-NEXT:         [[L:[a-z][a-z0-9_]*]] = b.shape[0]
// NUMPY:              rt.check_broadcastable((([[N]], 4), ([[M]], 1)), ((0, 1), (0, 1)), (0,), False, 'operands could not be broadcast together with shapes', ('{{.*}}target_dynamic.mlir', [[# @LINE + 29]], 8, 'bcast.check_broadcastable'))
// The bounded ? against a ?: checked broadcastable; the bound itself is checked on the argument.
// NUMPY-NEXT:         rt.check_broadcastable((([[S]],), ([[L]],)), ((0,), (0,)), (0,), False, 'operands could not be broadcast together with shapes', ('{{.*}}target_dynamic.mlir', [[# @LINE + 29]], 8, 'bcast.check_broadcastable'))
// NUMPY-NEXT:         [[X:[a-z][a-z0-9_]*]] = rt.dynamic_broadcast_in_dim(x, [0, 1], ([[S]], 4), (), (1,), ('{{.*}}target_dynamic.mlir', [[# @LINE + 26]], 8, 'bcast.dynamic_broadcast_in_dim'))
// NUMPY-NEXT:         [[C:[a-z][a-z0-9_]*]] = rt.dynamic_broadcast_in_dim(c, [0, 1], ([[S]], 4), (1,), (), ('{{.*}}target_dynamic.mlir', [[# @LINE + 25]], 8, 'bcast.dynamic_broadcast_in_dim'))
// An elementwise op on operands of one run-time shape allocates that shape.
// NUMPY-NEXT:         r = np.empty(np.shape([[X]]), dtype=np.float32)
// NUMPY-NEXT:         np.multiply([[X]], [[C]], out=r)
// NUMPY-NEXT:         s = numerics.reduce('add', r, (1,), False)
// NUMPY:              return outs.deliver(

// ARRAY-API:      def main(x, c, b, *, out=None):
// ARRAY-API:          with np.errstate(all='ignore'):
// ARRAY-API-NEXT:         [[N:[a-z][a-z0-9_]*]] = x.shape[0]
// ARRAY-API-NEXT:         [[M:[a-z][a-z0-9_]*]] = c.shape[0]
// ARRAY-API-NEXT:         [[S:[a-z][a-z0-9_]*]] = rt.broadcast_size(([[N]], [[M]]))
// ARRAY-API:              rt.check_broadcastable((([[N]], 4), ([[M]], 1)), ((0, 1), (0, 1)), (0,), False, 'operands could not be broadcast together with shapes', ('{{.*}}target_dynamic.mlir', [[# @LINE + 13]], 8, 'bcast.check_broadcastable'))
// ARRAY-API-NEXT:         rt.check_broadcastable(
// ARRAY-API-NEXT:         [[X:[a-z][a-z0-9_]*]] = ar.dynamic_broadcast_in_dim(xp, x, [0, 1], ([[S]], 4), (), (1,), ('{{.*}}target_dynamic.mlir', [[# @LINE + 11]], 8, 'bcast.dynamic_broadcast_in_dim'))
// ARRAY-API-NEXT:         [[C:[a-z][a-z0-9_]*]] = ar.dynamic_broadcast_in_dim(xp, c, [0, 1], ([[S]], 4), (1,), (), ('{{.*}}target_dynamic.mlir', [[# @LINE + 10]], 8, 'bcast.dynamic_broadcast_in_dim'))
// ARRAY-API-NEXT:         r = xp.multiply([[X]], [[C]])
// ARRAY-API-NEXT:         s = ar.reduce(xp, 'add', r, (1,), False, 'float32')
// ARRAY-API:          return ar.deliver(xp, ({{.*}}), out, _main_results, (x, c, b))

// (a fused dynamic function runs on the C target: tests/lowering/test_c_dynamic.py,
// lower_to_loops_dynamic.mlir)
// FUSE: target_dynamic.mlir:[[# @LINE + 3]]:8: error: 'bcast.fusion' op has dynamic dimensions (tensor<?x4xf32>), which the numpy target takes only in the explicit dynamic form, unfused

func.func @main(%x: tensor<?x4xf32>, %c: tensor<?x1xf32>, %b: tensor<?xf32, #stablehlo.bounds<3>>) -> tensor<?x4xf32> {
  %r = bcast.multiply %x, %c : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %s = bcast.reduce add %r, dims = [1] : (tensor<?x4xf32>) -> tensor<?xf32>
  %t = bcast.add %s, %b : (tensor<?xf32>, tensor<?xf32, #stablehlo.bounds<3>>) -> tensor<?xf32>
  %u = bcast.broadcast_in_dim %t, dims = [0] : (tensor<?xf32>) -> tensor<?x1xf32>
  %v = bcast.subtract %r, %u : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  func.return %v : tensor<?x4xf32>
}
