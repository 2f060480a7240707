// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op of docs/ir.md in custom form prints back identically.

module {
// CHECK: builtin.module {
// CHECK-NEXT: func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %v: tensor<4xf32>, %m: tensor<4x3xf32>, %s: tensor<f32>, %col: tensor<4x1xf32>, %row: tensor<1x3xf32>, %i8: tensor<3xi8>, %i32: tensor<2x3xi32>) {
  func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %v: tensor<4xf32>, %m: tensor<4x3xf32>, %s: tensor<f32>, %col: tensor<4x1xf32>, %row: tensor<1x3xf32>, %i8: tensor<3xi8>, %i32: tensor<2x3xi32>) {
// CHECK-NEXT: %add = bcast.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %add = bcast.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %subtract = bcast.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %subtract = bcast.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %multiply = bcast.multiply %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %multiply = bcast.multiply %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %divide = bcast.divide %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %divide = bcast.divide %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %remainder = bcast.remainder %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %remainder = bcast.remainder %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %power = bcast.power %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %power = bcast.power %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %maximum = bcast.maximum %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %maximum = bcast.maximum %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %minimum = bcast.minimum %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %minimum = bcast.minimum %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %atan2 = bcast.atan2 %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %atan2 = bcast.atan2 %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %add_bd = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %add_bd = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %subtract_bd = bcast.subtract %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %subtract_bd = bcast.subtract %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %multiply_bd = bcast.multiply %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %multiply_bd = bcast.multiply %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %divide_bd = bcast.divide %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %divide_bd = bcast.divide %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %remainder_bd = bcast.remainder %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %remainder_bd = bcast.remainder %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %power_bd = bcast.power %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %power_bd = bcast.power %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %maximum_bd = bcast.maximum %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %maximum_bd = bcast.maximum %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %minimum_bd = bcast.minimum %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %minimum_bd = bcast.minimum %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %atan2_bd = bcast.atan2 %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %atan2_bd = bcast.atan2 %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %scalar = bcast.add %s, %m : (tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %scalar = bcast.add %s, %m : (tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %outer = bcast.multiply %col, %row : (tensor<4x1xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
    %outer = bcast.multiply %col, %row : (tensor<4x1xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %promoted = bcast.add %i8, %i32 : (tensor<3xi8>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %promoted = bcast.add %i8, %i32 : (tensor<3xi8>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %attr = bcast.add %a, %b {tag = "kept"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %attr = bcast.add %a, %b {tag = "kept"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: func.func @integer(%i: tensor<2x3xi32>, %j: tensor<3xi32>, %u: tensor<2x3xui8>, %w: tensor<3xui8>, %p: tensor<2x1xi1>, %q: tensor<3xi1>) {
  func.func @integer(%i: tensor<2x3xi32>, %j: tensor<3xi32>, %u: tensor<2x3xui8>, %w: tensor<3xui8>, %p: tensor<2x1xi1>, %q: tensor<3xi1>) {
// CHECK-NEXT: %and = bcast.and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %and = bcast.and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %or = bcast.or %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %or = bcast.or %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %xor = bcast.xor %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %xor = bcast.xor %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %shift_left = bcast.shift_left %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %shift_left = bcast.shift_left %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %shift_right_arithmetic = bcast.shift_right_arithmetic %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %shift_right_arithmetic = bcast.shift_right_arithmetic %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %shift_right_logical = bcast.shift_right_logical %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %shift_right_logical = bcast.shift_right_logical %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %and_u = bcast.and %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
    %and_u = bcast.and %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %or_u = bcast.or %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
    %or_u = bcast.or %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %xor_u = bcast.xor %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
    %xor_u = bcast.xor %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %shift_left_u = bcast.shift_left %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
    %shift_left_u = bcast.shift_left %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %shift_right_arithmetic_u = bcast.shift_right_arithmetic %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
    %shift_right_arithmetic_u = bcast.shift_right_arithmetic %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %shift_right_logical_u = bcast.shift_right_logical %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
    %shift_right_logical_u = bcast.shift_right_logical %u, %w broadcast_dimensions = [1] : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %and_p = bcast.and %p, %q : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
    %and_p = bcast.and %p, %q : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %or_p = bcast.or %p, %q : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
    %or_p = bcast.or %p, %q : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %xor_p = bcast.xor %p, %q : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
    %xor_p = bcast.xor %p, %q : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: func.func @compare_select(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %v: tensor<4xf32>, %m: tensor<4x3xf32>, %i: tensor<3xi32>, %j: tensor<3xi32>, %p: tensor<4x1xi1>, %c: tensor<4x3xi1>, %ps: tensor<i1>, %s: tensor<f32>) {
  func.func @compare_select(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %v: tensor<4xf32>, %m: tensor<4x3xf32>, %i: tensor<3xi32>, %j: tensor<3xi32>, %p: tensor<4x1xi1>, %c: tensor<4x3xi1>, %ps: tensor<i1>, %s: tensor<f32>) {
// CHECK-NEXT: %eq = bcast.compare EQ, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
    %eq = bcast.compare EQ, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %ne = bcast.compare NE, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
    %ne = bcast.compare NE, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %lt = bcast.compare LT, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
    %lt = bcast.compare LT, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %le = bcast.compare LE, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
    %le = bcast.compare LE, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %gt = bcast.compare GT, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
    %gt = bcast.compare GT, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %ge = bcast.compare GE, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
    %ge = bcast.compare GE, %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %cmp_bd = bcast.compare LT, %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %cmp_bd = bcast.compare LT, %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
// CHECK-NEXT: %cmp_int = bcast.compare NE, %i, %j : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %cmp_int = bcast.compare NE, %i, %j : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT: %cmp_bool = bcast.compare EQ, %p, %c : (tensor<4x1xi1>, tensor<4x3xi1>) -> tensor<4x3xi1>
    %cmp_bool = bcast.compare EQ, %p, %c : (tensor<4x1xi1>, tensor<4x3xi1>) -> tensor<4x3xi1>
// CHECK-NEXT: %sel = bcast.select %p, %b, %m : (tensor<4x1xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %sel = bcast.select %p, %b, %m : (tensor<4x1xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %sel_scalar = bcast.select %ps, %s, %m : (tensor<i1>, tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %sel_scalar = bcast.select %ps, %s, %m : (tensor<i1>, tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: func.func @unary(%x: tensor<2x3xf32>, %i: tensor<0x3xi64>, %p: tensor<i1>, %h: tensor<f16>) {
  func.func @unary(%x: tensor<2x3xf32>, %i: tensor<0x3xi64>, %p: tensor<i1>, %h: tensor<f16>) {
// CHECK-NEXT: %negate = bcast.negate %x : tensor<2x3xf32>
    %negate = bcast.negate %x : tensor<2x3xf32>
// CHECK-NEXT: %abs = bcast.abs %x : tensor<2x3xf32>
    %abs = bcast.abs %x : tensor<2x3xf32>
// CHECK-NEXT: %exponential = bcast.exponential %x : tensor<2x3xf32>
    %exponential = bcast.exponential %x : tensor<2x3xf32>
// CHECK-NEXT: %log = bcast.log %x : tensor<2x3xf32>
    %log = bcast.log %x : tensor<2x3xf32>
// CHECK-NEXT: %sqrt = bcast.sqrt %x : tensor<2x3xf32>
    %sqrt = bcast.sqrt %x : tensor<2x3xf32>
// CHECK-NEXT: %rsqrt = bcast.rsqrt %x : tensor<2x3xf32>
    %rsqrt = bcast.rsqrt %x : tensor<2x3xf32>
// CHECK-NEXT: %tanh = bcast.tanh %x : tensor<2x3xf32>
    %tanh = bcast.tanh %x : tensor<2x3xf32>
// CHECK-NEXT: %logistic = bcast.logistic %x : tensor<2x3xf32>
    %logistic = bcast.logistic %x : tensor<2x3xf32>
// CHECK-NEXT: %floor = bcast.floor %x : tensor<2x3xf32>
    %floor = bcast.floor %x : tensor<2x3xf32>
// CHECK-NEXT: %ceil = bcast.ceil %x : tensor<2x3xf32>
    %ceil = bcast.ceil %x : tensor<2x3xf32>
// CHECK-NEXT: %sine = bcast.sine %x : tensor<2x3xf32>
    %sine = bcast.sine %x : tensor<2x3xf32>
// CHECK-NEXT: %cosine = bcast.cosine %x : tensor<2x3xf32>
    %cosine = bcast.cosine %x : tensor<2x3xf32>
// CHECK-NEXT: %tan = bcast.tan %x : tensor<2x3xf32>
    %tan = bcast.tan %x : tensor<2x3xf32>
// CHECK-NEXT: %exponential_minus_one = bcast.exponential_minus_one %x : tensor<2x3xf32>
    %exponential_minus_one = bcast.exponential_minus_one %x : tensor<2x3xf32>
// CHECK-NEXT: %log_plus_one = bcast.log_plus_one %x : tensor<2x3xf32>
    %log_plus_one = bcast.log_plus_one %x : tensor<2x3xf32>
// CHECK-NEXT: %cbrt = bcast.cbrt %x : tensor<2x3xf32>
    %cbrt = bcast.cbrt %x : tensor<2x3xf32>
// CHECK-NEXT: %round_nearest_even = bcast.round_nearest_even %x : tensor<2x3xf32>
    %round_nearest_even = bcast.round_nearest_even %x : tensor<2x3xf32>
// CHECK-NEXT: %round_nearest_afz = bcast.round_nearest_afz %x : tensor<2x3xf32>
    %round_nearest_afz = bcast.round_nearest_afz %x : tensor<2x3xf32>
// CHECK-NEXT: %sign = bcast.sign %x : tensor<2x3xf32>
    %sign = bcast.sign %x : tensor<2x3xf32>
// CHECK-NEXT: %negate_i = bcast.negate %i : tensor<0x3xi64>
    %negate_i = bcast.negate %i : tensor<0x3xi64>
// CHECK-NEXT: %abs_i = bcast.abs %i : tensor<0x3xi64>
    %abs_i = bcast.abs %i : tensor<0x3xi64>
// CHECK-NEXT: %sign_i = bcast.sign %i : tensor<0x3xi64>
    %sign_i = bcast.sign %i : tensor<0x3xi64>
// CHECK-NEXT: %not_i = bcast.not %i : tensor<0x3xi64>
    %not_i = bcast.not %i : tensor<0x3xi64>
// CHECK-NEXT: %popcnt_i = bcast.popcnt %i : tensor<0x3xi64>
    %popcnt_i = bcast.popcnt %i : tensor<0x3xi64>
// CHECK-NEXT: %not_p = bcast.not %p : tensor<i1>
    %not_p = bcast.not %p : tensor<i1>
// CHECK-NEXT: %exp_scalar = bcast.exponential %h : tensor<f16>
    %exp_scalar = bcast.exponential %h : tensor<f16>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: func.func @structural(%x: tensor<3xf32>, %y: tensor<2x3xf32>, %col: tensor<2x1xf32>, %row: tensor<1x3xf32>, %one: tensor<1x1xf32>, %z: tensor<1x5x1xi32>, %w: tensor<3xi32>) {
  func.func @structural(%x: tensor<3xf32>, %y: tensor<2x3xf32>, %col: tensor<2x1xf32>, %row: tensor<1x3xf32>, %one: tensor<1x1xf32>, %z: tensor<1x5x1xi32>, %w: tensor<3xi32>) {
// CHECK-NEXT: %c = bcast.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %c = bcast.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %c_splat = bcast.constant dense<7> : tensor<2x3xi32>
    %c_splat = bcast.constant dense<7> : tensor<2x3xi32>
// CHECK-NEXT: %c_scalar = bcast.constant dense<1.500000e+00> : tensor<f64>
    %c_scalar = bcast.constant dense<1.500000e+00> : tensor<f64>
// CHECK-NEXT: %c_bool = bcast.constant dense<[true, false]> : tensor<2xi1>
    %c_bool = bcast.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT: %c_2d = bcast.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
    %c_2d = bcast.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
// CHECK-NEXT: %bid = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %bid = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %bid_scalar = bcast.broadcast_in_dim %c_scalar, dims = [] : (tensor<f64>) -> tensor<2x3xf64>
    %bid_scalar = bcast.broadcast_in_dim %c_scalar, dims = [] : (tensor<f64>) -> tensor<2x3xf64>
// CHECK-NEXT: %bid_degenerate = bcast.broadcast_in_dim %col, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %bid_degenerate = bcast.broadcast_in_dim %col, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %bid_transposing = bcast.broadcast_in_dim %row, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
    %bid_transposing = bcast.broadcast_in_dim %row, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT: %tr = bcast.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %tr = bcast.transpose %y, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %rs = bcast.reshape %col : (tensor<2x1xf32>) -> tensor<2xf32>
    %rs = bcast.reshape %col : (tensor<2x1xf32>) -> tensor<2xf32>
// CHECK-NEXT: %rs_scalar = bcast.reshape %one : (tensor<1x1xf32>) -> tensor<f32>
    %rs_scalar = bcast.reshape %one : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT: %nw = bcast.narrow %z : (tensor<1x5x1xi32>) -> tensor<5xi32>
    %nw = bcast.narrow %z : (tensor<1x5x1xi32>) -> tensor<5xi32>
// CHECK-NEXT: %nw_all = bcast.narrow %one : (tensor<1x1xf32>) -> tensor<f32>
    %nw_all = bcast.narrow %one : (tensor<1x1xf32>) -> tensor<f32>
// CHECK-NEXT: %cv = bcast.convert %w : (tensor<3xi32>) -> tensor<3xf32>
    %cv = bcast.convert %w : (tensor<3xi32>) -> tensor<3xf32>
// CHECK-NEXT: %cv_bool = bcast.convert %y : (tensor<2x3xf32>) -> tensor<2x3xi1>
    %cv_bool = bcast.convert %y : (tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: func.func @indexing(%t: tensor<3x2xf32>, %i: index, %j: index, %d: tensor<2x3x4xf32>, %s: tensor<1x3x4xf32>, %s2: tensor<3x4xf32>, %m: tensor<4x3xf32>, %v: tensor<3xf32>, %v4: tensor<4xf32>, %f: tensor<f32>) {
  func.func @indexing(%t: tensor<3x2xf32>, %i: index, %j: index, %d: tensor<2x3x4xf32>, %s: tensor<1x3x4xf32>, %s2: tensor<3x4xf32>, %m: tensor<4x3xf32>, %v: tensor<3xf32>, %v4: tensor<4xf32>, %f: tensor<f32>) {
// CHECK-NEXT: %e = bcast.extract %t[1, 0] : (tensor<3x2xf32>) -> tensor<f32>
    %e = bcast.extract %t[1, 0] : (tensor<3x2xf32>) -> tensor<f32>
// CHECK-NEXT: %e_row = bcast.extract %t[2] : (tensor<3x2xf32>) -> tensor<2xf32>
    %e_row = bcast.extract %t[2] : (tensor<3x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %e_none = bcast.extract %t[] : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %e_none = bcast.extract %t[] : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %e_ssa = bcast.extract %t[%i, 0] : (tensor<3x2xf32>, index) -> tensor<f32>
    %e_ssa = bcast.extract %t[%i, 0] : (tensor<3x2xf32>, index) -> tensor<f32>
// CHECK-NEXT: %e_ssa2 = bcast.extract %t[%i, %j] : (tensor<3x2xf32>, index, index) -> tensor<f32>
    %e_ssa2 = bcast.extract %t[%i, %j] : (tensor<3x2xf32>, index, index) -> tensor<f32>
// CHECK-NEXT: %e_mixed = bcast.extract %t[2, %j] : (tensor<3x2xf32>, index) -> tensor<f32>
    %e_mixed = bcast.extract %t[2, %j] : (tensor<3x2xf32>, index) -> tensor<f32>
// CHECK-NEXT: %as = bcast.assign %d, %s : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
    %as = bcast.assign %d, %s : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %as_idx = bcast.assign %d[1], %s2 : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
    %as_idx = bcast.assign %d[1], %s2 : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %as_ssa = bcast.assign %m[%i], %v : (tensor<4x3xf32>, index, tensor<3xf32>) -> tensor<4x3xf32>
    %as_ssa = bcast.assign %m[%i], %v : (tensor<4x3xf32>, index, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %as_mixed = bcast.assign %d[1, %j], %v4 : (tensor<2x3x4xf32>, index, tensor<4xf32>) -> tensor<2x3x4xf32>
    %as_mixed = bcast.assign %d[1, %j], %v4 : (tensor<2x3x4xf32>, index, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %as_scalar = bcast.assign %d[0, 1, 2], %f : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %as_scalar = bcast.assign %d[0, 1, 2], %f : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: }
}

// -----

module attributes {bcast.semantics = "xla"} {
// CHECK: builtin.module attributes {bcast.semantics = "xla"} {
// CHECK-NEXT: func.func @xla(%m: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>) {
  func.func @xla(%m: tensor<2x3xf32>, %v: tensor<3xf32>, %s: tensor<f32>) {
// CHECK-NEXT: %row = bcast.add %m, %v broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %row = bcast.add %m, %v broadcast_dimensions = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %scalar = bcast.add %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %scalar = bcast.add %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %same_rank = bcast.add %m, %m broadcast_dimensions = [0, 1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %same_rank = bcast.add %m, %m broadcast_dimensions = [0, 1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %cmp = bcast.compare GE, %v, %m broadcast_dimensions = [1] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %cmp = bcast.compare GE, %v, %m broadcast_dimensions = [1] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: }
}

// -----

module attributes {bcast.semantics = "tml"} {
// CHECK: builtin.module attributes {bcast.semantics = "tml"} {
// CHECK-NEXT: func.func @nested(%a: tensor<3xtensor<3x3xf32>>, %s: tensor<f32>, %c: tensor<1xtensor<3xf32>>, %d: tensor<3xf32>, %u: tensor<3xtensor<2xui8>>, %i: index) {
  func.func @nested(%a: tensor<3xtensor<3x3xf32>>, %s: tensor<f32>, %c: tensor<1xtensor<3xf32>>, %d: tensor<3xf32>, %u: tensor<3xtensor<2xui8>>, %i: index) {
// CHECK-NEXT: %add = bcast.add %a, %c : (tensor<3xtensor<3x3xf32>>, tensor<1xtensor<3xf32>>) -> tensor<3xtensor<3x3xf32>>
    %add = bcast.add %a, %c : (tensor<3xtensor<3x3xf32>>, tensor<1xtensor<3xf32>>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT: %add_scalar = bcast.add %a, %s : (tensor<3xtensor<3x3xf32>>, tensor<f32>) -> tensor<3xtensor<3x3xf32>>
    %add_scalar = bcast.add %a, %s : (tensor<3xtensor<3x3xf32>>, tensor<f32>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT: %cmp = bcast.compare GT, %s, %a : (tensor<f32>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xi1>>
    %cmp = bcast.compare GT, %s, %a : (tensor<f32>, tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xi1>>
// CHECK-NEXT: %xor = bcast.xor %u, %u : (tensor<3xtensor<2xui8>>, tensor<3xtensor<2xui8>>) -> tensor<3xtensor<2xui8>>
    %xor = bcast.xor %u, %u : (tensor<3xtensor<2xui8>>, tensor<3xtensor<2xui8>>) -> tensor<3xtensor<2xui8>>
// CHECK-NEXT: %not = bcast.not %u : tensor<3xtensor<2xui8>>
    %not = bcast.not %u : tensor<3xtensor<2xui8>>
// CHECK-NEXT: %neg = bcast.negate %a : tensor<3xtensor<3x3xf32>>
    %neg = bcast.negate %a : tensor<3xtensor<3x3xf32>>
// CHECK-NEXT: %nw = bcast.narrow %c : (tensor<1xtensor<3xf32>>) -> tensor<3xf32>
    %nw = bcast.narrow %c : (tensor<1xtensor<3xf32>>) -> tensor<3xf32>
// CHECK-NEXT: %ex = bcast.extract %a[1] : (tensor<3xtensor<3x3xf32>>) -> tensor<3x3xf32>
    %ex = bcast.extract %a[1] : (tensor<3xtensor<3x3xf32>>) -> tensor<3x3xf32>
// CHECK-NEXT: %ex_ssa = bcast.extract %a[%i, 0] : (tensor<3xtensor<3x3xf32>>, index) -> tensor<3xf32>
    %ex_ssa = bcast.extract %a[%i, 0] : (tensor<3xtensor<3x3xf32>>, index) -> tensor<3xf32>
// CHECK-NEXT: %as = bcast.assign %a[1], %d : (tensor<3xtensor<3x3xf32>>, tensor<3xf32>) -> tensor<3xtensor<3x3xf32>>
    %as = bcast.assign %a[1], %d : (tensor<3xtensor<3x3xf32>>, tensor<3xf32>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT: %cv = bcast.convert %a : (tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf64>>
    %cv = bcast.convert %a : (tensor<3xtensor<3x3xf32>>) -> tensor<3xtensor<3x3xf64>>
// CHECK-NEXT: %bid = bcast.broadcast_in_dim %d, dims = [2] : (tensor<3xf32>) -> tensor<3xtensor<3x3xf32>>
    %bid = bcast.broadcast_in_dim %d, dims = [2] : (tensor<3xf32>) -> tensor<3xtensor<3x3xf32>>
// CHECK-NEXT: %rs = bcast.reshape %a : (tensor<3xtensor<3x3xf32>>) -> tensor<3x3x3xf32>
    %rs = bcast.reshape %a : (tensor<3xtensor<3x3xf32>>) -> tensor<3x3x3xf32>
// CHECK-NEXT: func.return
    func.return
// CHECK-NEXT: }
  }
// CHECK-NEXT: }
}

// The generic form stores broadcast_dimensions, directions and indices as
// properties (an SSA index is the dynamic marker in static_indices).
// GENERIC: %add_bd = "bcast.add"(%v, %m) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// GENERIC: %attr = "bcast.add"(%a, %b) {tag = "kept"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// GENERIC: %eq = "bcast.compare"(%a, %b) <{comparison_direction = #bcast<comparison_direction EQ>}> : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
// GENERIC: %cmp_bd = "bcast.compare"(%v, %m) <{comparison_direction = #bcast<comparison_direction LT>, broadcast_dimensions = array<i64: 0>}>
// GENERIC: %exponential = "bcast.exponential"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC: %c = "bcast.constant"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
// GENERIC: %bid = "bcast.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
// GENERIC: %tr = "bcast.transpose"(%y) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
// GENERIC: %e_ssa = "bcast.extract"(%t, %i) <{static_indices = array<i64: -9223372036854775808, 0>}> : (tensor<3x2xf32>, index) -> tensor<f32>
// GENERIC: %as = "bcast.assign"(%d, %s) <{static_indices = array<i64>}> : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
// GENERIC: %as_mixed = "bcast.assign"(%d, %j, %v4) <{static_indices = array<i64: 1, -9223372036854775808>}> : (tensor<2x3x4xf32>, index, tensor<4xf32>) -> tensor<2x3x4xf32>
// GENERIC: // -----
// GENERIC: %nw = "bcast.narrow"(%c) : (tensor<1xtensor<3xf32>>) -> tensor<3xf32>

// -----

// clamp %min, %x, %max: the three operands broadcast together, their
// element types promote (numpy semantics).
// CHECK-LABEL: func.func @clamp
func.func @clamp(%lo: tensor<f32>, %x: tensor<4x3xf32>, %hi: tensor<3xf32>, %h: tensor<4x1xf16>, %i: tensor<3xi8>, %j: tensor<i32>) {
// CHECK-NEXT: %c = bcast.clamp %lo, %x, %hi : (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %c = bcast.clamp %lo, %x, %hi : (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %c_promoted = bcast.clamp %h, %hi, %lo : (tensor<4x1xf16>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %c_promoted = bcast.clamp %h, %hi, %lo : (tensor<4x1xf16>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK-NEXT: %c_int = bcast.clamp %j, %i, %j : (tensor<i32>, tensor<3xi8>, tensor<i32>) -> tensor<3xi32>
  %c_int = bcast.clamp %j, %i, %j : (tensor<i32>, tensor<3xi8>, tensor<i32>) -> tensor<3xi32>
  func.return
}
// GENERIC: %c = "bcast.clamp"(%lo, %x, %hi) : (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
