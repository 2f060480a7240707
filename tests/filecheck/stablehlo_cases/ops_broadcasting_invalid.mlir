// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// The error cases of StableHLO's stablehlo/tests/ops_broadcasting.mlir as bcast
// programs (ops_broadcasting.mlir has the others). Upstream's fourth error case,
// an n-ary broadcast of no operands, has no bcast form: bcast's broadcasting
// ops (binary, select, clamp) take two or three operands by their syntax. Its "[10] x [<=10]" error is
// accepted by bcast with a run-time check (NumPy's rule; ops_broadcasting.mlir).

// [10] x [5]: no run-time size can make these broadcast; located at the op.
func.func @broadcast_error_10_x_5(%a: tensor<10xf64>, %b: tensor<5xf64>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible: tensor<10xf64> and tensor<5xf64>}}
  // expected-note @+2 {{aligned from the right: 10}}
  // expected-note @+1 {{dimension -1: 10 vs 5 (neither is 1)}}
  %r = bcast.add %a, %b : (tensor<10xf64>, tensor<5xf64>) -> tensor<10xf64>
  func.return
}

// -----

// [10] x a token: broadcasting operands are ranked tensors.
func.func @broadcast_error_not_tensor(%a: tensor<10xf64>, %b: !stablehlo.token) {
  // expected-error @+1 {{!stablehlo.token should be of base attribute tensor}}
  %r = bcast.add %a, %b : (tensor<10xf64>, !stablehlo.token) -> tensor<10xf64>
  func.return
}
