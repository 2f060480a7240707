// JAX's pretty StableHLO with ops bcast's parser has no custom form for
// (docs/contracts.md, "Ops bcast does not know"): a while loop (of a run-time
// trip count, which the import makes bcast.while), a
// chlo.bessel_i1e, a dot_general with an algorithm and a custom_call among
// broadcasts. bcast reads it through jaxlib's MLIR (this file needs jax, the
// `jax` extra; tests/test_filecheck.py fails it, never skips it, without),
// prints the ops it does not know back in generic form, simplifies the
// broadcasts around them, writes them back, and locates errors in this file.
// RUN: bcast-opt %s | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s | bcast-opt - | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse -t stablehlo | filecheck %s --check-prefix=HLO
// RUN: not bcast-opt %s -t c 2>&1 | filecheck %s --check-prefix=ERR

func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>, %w: tensor<3x3xf32>, %steps: tensor<i32>) -> tensor<4x3xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %b1 = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
  %b = stablehlo.broadcast_in_dim %b1, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
  %l:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4x3xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %steps, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %n = stablehlo.add %i, %c1 : tensor<i32>
    %s = stablehlo.add %v, %b : tensor<4x3xf32>
    stablehlo.return %n, %s : tensor<i32>, tensor<4x3xf32>
  }
  %r = chlo.bessel_i1e %l#1 : tensor<4x3xf32> -> tensor<4x3xf32>
  %m = stablehlo.dot_general %r, %w, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  %k = stablehlo.custom_call @my_kernel(%m) {backend_config = ""} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = stablehlo.multiply %k, %b : tensor<4x3xf32>
  func.return %y : tensor<4x3xf32>
}

// BACK:      %[[B1:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
// BACK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %[[B1]], dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
// BACK-NEXT: %{{.*}}, %[[L:.*]] = "stablehlo.while"(%{{.*}}, %arg0) ({
// BACK:        stablehlo.compare LT
// BACK:      }, {
// BACK:        stablehlo.add %{{.*}}, %[[B]] : tensor<4x3xf32>
// BACK:      }) : (tensor<i32>, tensor<4x3xf32>) -> (tensor<i32>, tensor<4x3xf32>)
// BACK-NEXT: %[[R:.*]] = "chlo.bessel_i1e"(%[[L]]) : (tensor<4x3xf32>) -> tensor<4x3xf32>
// BACK-NEXT: %[[M:.*]] = stablehlo.dot_general %[[R]], %arg2, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// BACK-NEXT: %[[K:.*]] = "stablehlo.custom_call"(%[[M]]) <{backend_config = "", call_target_name = "my_kernel"}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
// BACK-NEXT: stablehlo.multiply %[[K]], %[[B]] : tensor<4x3xf32>

// JAX's two-step broadcast is one; the ops bcast does not know are written
// back; the dot_general is imported (its algorithm dropped, as bcast computes
// the product in f32) and written back plain.
// HLO:      %[[B:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// HLO-NEXT: %{{.*}}, %[[L:.*]] = "stablehlo.while"
// HLO:        stablehlo.add %{{.*}}, %[[B]] : tensor<4x3xf32>
// HLO:      %[[R:.*]] = "chlo.bessel_i1e"(%[[L]])
// HLO-NEXT: %[[M:.*]] = stablehlo.dot_general %[[R]], %arg2, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// HLO-NEXT: %[[K:.*]] = "stablehlo.custom_call"(%[[M]])
// HLO-NEXT: %[[Y:.*]] = stablehlo.multiply %[[K]], %[[B]] : tensor<4x3xf32>
// HLO-NEXT: func.return %[[Y]] : tensor<4x3xf32>
// HLO-NOT:  bcast.

// The strict import of a program to run: at the first op it cannot take,
// at its line and column here.
// ERR: pretty_stablehlo.mlir:29:8: error: 'chlo.bessel_i1e' op is not supported by convert-stablehlo-to-bcast
