// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast{strict=true} | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast -t stablehlo | filecheck %s --check-prefix=HLO

// stablehlo.map (generic form, the only one StableHLO has) is its body
// applied to the whole inputs: each op of the body, given the inputs in
// place of the body's arguments and its rank-0 result types widened to the
// inputs' shape, then imported as any op. -t stablehlo writes back what the
// import produced (no map). The refusals: convert_stablehlo_to_bcast_map_invalid.mlir.

// The interpreter suite's map (map.mlir): the body's op on the whole inputs.
// CHECK-LABEL: func.func @multiply
// CHECK-NEXT: %[[M:.*]] = bcast.multiply %x, %y : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
// CHECK-NEXT: func.return %[[M]] : tensor<2x2xi64>
// HLO-LABEL: func.func @multiply
// HLO-NEXT: %[[M:.*]] = stablehlo.multiply %x, %y : tensor<2x2xi64>
// HLO-NEXT: func.return %[[M]] : tensor<2x2xi64>
func.func @multiply(%x: tensor<2x2xi64>, %y: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %1 = stablehlo.multiply %a, %b : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

// Inputs of two element types; a rank-0 constant and a rank-0 value of the
// function the body reads are broadcast to the inputs' shape; convert,
// compare and select on the whole inputs.
// CHECK-LABEL: func.func @mixed
// CHECK-NEXT: %[[C:.*]] = bcast.constant dense<2.500000e+00> : tensor<f32>
// CHECK-NEXT: %[[CB:.*]] = bcast.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[F:.*]] = bcast.convert %i : (tensor<3x4xi32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[M:.*]] = bcast.multiply %x, %[[CB]] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[GT:.*]] = bcast.compare GT, %[[M]], %[[F]] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK-NEXT: %[[SB:.*]] = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[R:.*]] = bcast.select %[[GT]], %[[M]], %[[SB]] : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: func.return %[[R]] : tensor<3x4xf32>
// HLO-LABEL: func.func @mixed
// HLO-NEXT: %[[C:.*]] = stablehlo.constant dense<2.500000e+00> : tensor<f32>
// HLO-NEXT: %[[CB:.*]] = stablehlo.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<3x4xf32>
// HLO-NEXT: %[[F:.*]] = stablehlo.convert %i : (tensor<3x4xi32>) -> tensor<3x4xf32>
// HLO-NEXT: %[[M:.*]] = stablehlo.multiply %x, %[[CB]] : tensor<3x4xf32>
// HLO-NEXT: %[[GT:.*]] = stablehlo.compare GT, %[[M]], %[[F]], FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// HLO-NEXT: %[[SB:.*]] = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
// HLO-NEXT: %[[R:.*]] = stablehlo.select %[[GT]], %[[M]], %[[SB]] : tensor<3x4xi1>, tensor<3x4xf32>
// HLO-NEXT: func.return %[[R]] : tensor<3x4xf32>
func.func @mixed(%x: tensor<3x4xf32>, %i: tensor<3x4xi32>, %s: tensor<f32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.map"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    %c = stablehlo.constant dense<2.5> : tensor<f32>
    %bf = stablehlo.convert %b : (tensor<i32>) -> tensor<f32>
    %m = stablehlo.multiply %a, %c : tensor<f32>
    %gt = stablehlo.compare GT, %m, %bf, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %sel = stablehlo.select %gt, %m, %s : tensor<i1>, tensor<f32>
    stablehlo.return %sel : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>, tensor<3x4xi32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

// A body that returns a constant is its broadcast (of the body's result
// element type); one that returns its argument is the input itself.
// CHECK-LABEL: func.func @constant_and_argument
// CHECK-NEXT: %[[T:.*]] = bcast.constant dense<true> : tensor<i1>
// CHECK-NEXT: %[[B:.*]] = bcast.broadcast_in_dim %[[T]], dims = [] : (tensor<i1>) -> tensor<3xi1>
// CHECK-NEXT: func.return %[[B]], %x : tensor<3xi1>, tensor<3xf32>
func.func @constant_and_argument(%x: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xf32>) {
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xi1>
  %1 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0, %1 : tensor<3xi1>, tensor<3xf32>
}

// -----

// A rank-0 map (dimensions = []); add on i1 is or (the spec), as outside
// a map; JAX's rank-0 broadcast_in_dim is no op.
// CHECK-LABEL: func.func @rank_0_and_i1
// CHECK-NEXT: %[[O:.*]] = bcast.or %p, %q : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT: func.return %[[O]] : tensor<i1>
func.func @rank_0_and_i1(%p: tensor<i1>, %q: tensor<i1>) -> tensor<i1> {
  %0 = "stablehlo.map"(%p, %q) ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %1 = stablehlo.add %a, %b : tensor<i1>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<i1>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) {dimensions = array<i64>} : (tensor<i1>, tensor<i1>) -> tensor<i1>
  func.return %0 : tensor<i1>
}

// -----

// Dynamic inputs: a constant is broadcast to the inputs' run-time sizes.
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: %[[C:.*]] = bcast.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[N:.*]] = bcast.dim %x, 0 : tensor<?x4xf32>
// CHECK-NEXT: %[[CB:.*]] = bcast.dynamic_broadcast_in_dim %[[C]], [%[[N]], 4], dims = [] : (tensor<f32>) -> tensor<?x4xf32>
// CHECK-NEXT: %[[S:.*]] = bcast.add %x, %[[CB]] : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %[[M:.*]] = bcast.maximum %[[S]], %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: func.return %[[M]] : tensor<?x4xf32>
func.func @dynamic(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    %s = stablehlo.add %a, %c : tensor<f32>
    %m = stablehlo.maximum %s, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// A call in the body is inlined first (as any call), so its ops count as
// the body's; CHLO's elementwise ops (square, broadcast_add, erf) too.
// CHECK-LABEL: func.func @call_and_chlo
// CHECK-NEXT: %[[C:.*]] = bcast.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[CB:.*]] = bcast.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT: %[[SQ:.*]] = bcast.multiply %x, %x : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[A:.*]] = bcast.add %[[SQ]], %[[CB]] : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[E:.*]] = bcast.erf %[[A]] : tensor<5xf32>
// CHECK-NEXT: func.return %[[E]] : tensor<5xf32>
// CHECK-NOT: @square_plus_one
func.func @call_and_chlo(%x: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %1 = func.call @square_plus_one(%a) : (tensor<f32>) -> tensor<f32>
    %2 = chlo.erf %1 : tensor<f32> -> tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<5xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}
func.func private @square_plus_one(%a: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = chlo.square %a : tensor<f32> -> tensor<f32>
  %2 = chlo.broadcast_add %1, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %2 : tensor<f32>
}
