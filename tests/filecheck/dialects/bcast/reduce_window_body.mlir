// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s -t stablehlo --split-input-file | filecheck %s --check-prefix=HLO

// bcast.reduce_window_body: reduce_window of several inputs whose body mixes
// them (an argmax pool), the body on rank-0 tensors ending in bcast.yield.
// A ? dim that no window spans stays ?, its bound kept. -t stablehlo writes
// StableHLO's reduce_window of several inputs, one to one.

// CHECK-LABEL: func.func @argmax_pool
// CHECK:         %{{.*}}, %{{.*}} = bcast.reduce_window_body(%x, %i) init(%ninf, %zero), window = [2, 3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<2x6xf32>, tensor<2x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x4xf32>, tensor<1x4xi32>) {
// CHECK-NEXT:    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
// CHECK-NEXT:      %gt = bcast.compare GT, %b, %a
// CHECK-NEXT:      %v = bcast.select %gt, %b, %a
// CHECK-NEXT:      %k = bcast.select %gt, %bi, %ai
// CHECK-NEXT:      bcast.yield %v, %k : tensor<f32>, tensor<i32>
// CHECK-NEXT:    }
// HLO-LABEL: func.func @argmax_pool
// HLO:         %{{.*}}, %{{.*}} = "stablehlo.reduce_window"(%x, %i, %ninf, %zero) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 1>}> ({
// HLO-NEXT:    ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
// HLO-NEXT:      %gt = stablehlo.compare GT, %b, %a, FLOAT
// HLO-NEXT:      %v = stablehlo.select %gt, %b, %a
// HLO-NEXT:      %k = stablehlo.select %gt, %bi, %ai
// HLO-NEXT:      stablehlo.return %v, %k : tensor<f32>, tensor<i32>
// HLO-NEXT:    }) : (tensor<2x6xf32>, tensor<2x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x4xf32>, tensor<1x4xi32>)
func.func @argmax_pool(%x: tensor<2x6xf32>, %i: tensor<2x6xi32>) -> tensor<1x4xi32> {
  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>
  %zero = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %zero), window = [2, 3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<2x6xf32>, tensor<2x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<1x4xf32>, tensor<1x4xi32>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<1x4xi32>
}

// -----

// CHECK-LABEL: func.func @bounded_rows
// CHECK:         bcast.reduce_window_body(%x, %i) init(%ninf, %zero), window = [1, 3], {{.*}} -> (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?x4xi32, #stablehlo.bounds<8, ?>>) {
// HLO-LABEL: func.func @bounded_rows
// HLO:         "stablehlo.reduce_window"(%x, %i, %ninf, %zero)
// HLO:         }) : ({{.*}}) -> (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?x4xi32, #stablehlo.bounds<8, ?>>)
func.func @bounded_rows(%x: tensor<?x6xf32, #stablehlo.bounds<8, ?>>, %i: tensor<?x6xi32, #stablehlo.bounds<8, ?>>) -> tensor<?x4xi32, #stablehlo.bounds<8, ?>> {
  %ninf = bcast.constant dense<0xFF800000> : tensor<f32>
  %zero = bcast.constant dense<0> : tensor<i32>
  %r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %zero), window = [1, 3], strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (tensor<?x6xf32, #stablehlo.bounds<8, ?>>, tensor<?x6xi32, #stablehlo.bounds<8, ?>>, tensor<f32>, tensor<i32>) -> (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?x4xi32, #stablehlo.bounds<8, ?>>) {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = bcast.compare GT, %b, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = bcast.select %gt, %b, %a : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %k = bcast.select %gt, %bi, %ai : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %v, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#1 : tensor<?x4xi32, #stablehlo.bounds<8, ?>>
}
