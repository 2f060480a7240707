// add_row.debug.mlir from tests/data/jax_exports (jax 0.10.2,
// jax.jit(f).lower(x, v).as_text(debug_info=True)) with the StableHLO ops
// written as bcast ops: locations exactly as JAX prints them (ranges, names,
// call sites, `#loc` aliases defined after the module, `loc(unknown)`).
#loc1 = loc("x")
#loc2 = loc("v")
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> loc("x"), %arg1: tensor<3xf32> loc("v")) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = bcast.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32> loc(#loc15)
    %1 = bcast.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32> loc(#loc16)
    %2 = bcast.add %arg0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> loc(#loc16)
    func.return %2 : tensor<2x3xf32> loc(#loc14)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("export_jax_stablehlo.py":71:29 to :34)
#loc4 = loc("export_jax_stablehlo.py":127:14 to :38)
#loc5 = loc("export_jax_stablehlo.py":169:31 to :83)
#loc6 = loc("export_jax_stablehlo.py":179:4 to :10)
#loc7 = loc("<lambda>"(#loc3))
#loc8 = loc("export_case"(#loc4))
#loc9 = loc("main"(#loc5))
#loc10 = loc("<module>"(#loc6))
#loc11 = loc(callsite(#loc9 at #loc10))
#loc12 = loc(callsite(#loc8 at #loc11))
#loc13 = loc(callsite(#loc7 at #loc12))
#loc14 = loc("jit(<lambda>)"(#loc12))
#loc15 = loc("jit(<lambda>)/broadcast_in_dim"(#loc13))
#loc16 = loc("jit(<lambda>)/add"(#loc13))
