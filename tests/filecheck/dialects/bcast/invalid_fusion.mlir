// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.fusion with reductions: every block of rows must be computable on its
// own (bcast.ir.fusion), so nothing in the body may mix rows.

func.func @reduce_over_rows(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'bcast.fusion' op 'bcast.reduce' in a fusion must keep dimension 0}}
  %r = bcast.fusion %x : (tensor<4x8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = bcast.exponential %a : tensor<4x8xf32>
    %s = bcast.reduce add %e, dims = [0] : (tensor<4x8xf32>) -> tensor<8xf32>
    bcast.yield %s : tensor<8xf32>
  }
  func.return %r : tensor<8xf32>
}

// -----

func.func @inner_broadcast_moves_rows(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'bcast.fusion' op 'bcast.broadcast_in_dim' of a value computed in a fusion must map dimension 0 to dimension 0 of the same size}}
  %r = bcast.fusion %x : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %s = bcast.reduce add %a, dims = [1] : (tensor<4x4xf32>) -> tensor<4xf32>
    %b = bcast.broadcast_in_dim %s, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
    %d = bcast.subtract %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    bcast.yield %d : tensor<4x4xf32>
  }
  func.return %r : tensor<4x4xf32>
}

// -----

func.func @different_rows(%x: tensor<4x8xf32>, %y: tensor<3xf32>) -> (tensor<4xf32>, tensor<3xf32>) {
  // expected-error @+1 {{'bcast.fusion' op every value in a fusion must have the iteration shape (4,), or all must share one leading dimension; got shape (3,)}}
  %r:2 = bcast.fusion %x, %y : (tensor<4x8xf32>, tensor<3xf32>) -> (tensor<4xf32>, tensor<3xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<3xf32>):
    %s = bcast.reduce add %a, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    %n = bcast.negate %b : tensor<3xf32>
    bcast.yield %s, %n : tensor<4xf32>, tensor<3xf32>
  }
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<3xf32>
}

// -----

func.func @rank_zero_among_rows(%x: tensor<4x8xf32>, %y: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  // expected-error @+1 {{'bcast.fusion' op every value in a fusion must have the iteration shape (4,), or all must share one leading dimension; got shape ()}}
  %r:2 = bcast.fusion %x, %y : (tensor<4x8xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<f32>):
    %s = bcast.reduce add %a, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    %n = bcast.negate %b : tensor<f32>
    bcast.yield %s, %n : tensor<4xf32>, tensor<f32>
  }
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<f32>
}
