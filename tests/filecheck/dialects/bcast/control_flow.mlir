// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.while and bcast.case (ir/control_flow.py) print back as written, and
// read back from the generic form.

// CHECK-LABEL: func.func @halve_until_small
// CHECK-NEXT:    %r, %r_1 = bcast.while %x, %n : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>) cond {
// CHECK-NEXT:    ^bb0(%a: tensor<3xf32>, %b: tensor<i32>):
// CHECK-NEXT:      %m = bcast.reduce maximum %a, dims = [0] : (tensor<3xf32>) -> tensor<f32>
// CHECK-NEXT:      %one = bcast.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:      %p = bcast.compare GT, %m, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:      bcast.yield %p : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%a_1: tensor<3xf32>, %b_1: tensor<i32>):
// CHECK-NEXT:      %half = bcast.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:      %h = bcast.multiply %a_1, %half : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:      %step = bcast.constant dense<1> : tensor<i32>
// CHECK-NEXT:      %c = bcast.add %b_1, %step : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:      bcast.yield %h, %c : tensor<3xf32>, tensor<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r, %r_1
// GENERIC-LABEL: "func.func"() <{sym_name = "halve_until_small"
// GENERIC:         "bcast.while"(%{{.*}}, %{{.*}}) ({
// GENERIC:           "bcast.yield"(%{{.*}}) : (tensor<i1>) -> ()
// GENERIC:         }, {
// GENERIC:           "bcast.yield"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<i32>) -> ()
// GENERIC:         }) : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>)
func.func @halve_until_small(%x: tensor<3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
  %r:2 = bcast.while %x, %n : (tensor<3xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<i32>) cond {
  ^bb0(%a: tensor<3xf32>, %b: tensor<i32>):
    %m = bcast.reduce maximum %a, dims = [0] : (tensor<3xf32>) -> tensor<f32>
    %one = bcast.constant dense<1.0> : tensor<f32>
    %p = bcast.compare GT, %m, %one : (tensor<f32>, tensor<f32>) -> tensor<i1>
    bcast.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<3xf32>, %b: tensor<i32>):
    %half = bcast.constant dense<0.5> : tensor<f32>
    %h = bcast.multiply %a, %half : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %step = bcast.constant dense<1> : tensor<i32>
    %c = bcast.add %b, %step : (tensor<i32>, tensor<i32>) -> tensor<i32>
    bcast.yield %h, %c : tensor<3xf32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<3xf32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @pick
// CHECK-NEXT:    %r = bcast.case %k : (tensor<i32>) -> tensor<?x4xf32> {
// CHECK-NEXT:      %a = bcast.add %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:      bcast.yield %a : tensor<?x4xf32>
// CHECK-NEXT:    } {
// CHECK-NEXT:      bcast.yield %x : tensor<?x4xf32>
// CHECK-NEXT:    }
// GENERIC-LABEL: "func.func"() <{sym_name = "pick"
// GENERIC:         "bcast.case"(%{{.*}}) ({
// GENERIC:         }, {
// GENERIC:         }) : (tensor<i32>) -> tensor<?x4xf32>
func.func @pick(%k: tensor<i32>, %x: tensor<?x4xf32>, %row: tensor<4xf32>) -> tensor<?x4xf32> {
  %r = bcast.case %k : (tensor<i32>) -> tensor<?x4xf32> {
    %a = bcast.add %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    bcast.yield %a : tensor<?x4xf32>
  } {
    bcast.yield %x : tensor<?x4xf32>
  }
  func.return %r : tensor<?x4xf32>
}
