// RUN: bcast-opt %s --split-input-file -t stablehlo | filecheck %s

// StableHLO in, StableHLO out: bcast does to broadcasts, transposes and
// compares what StableHLO's own simplifier does (facts from openxla/stablehlo's
// stablehlo_aggressive_simplification tests), so a JAX export passes through
// bcast as a broadcast simplifier.

// Two broadcasts, the first transposing, compose into one broadcast_in_dim
// with unsorted dims (bcast's transpose + sorted broadcast, written back).
// CHECK-LABEL: func.func @composed_transposing_broadcasts(%arg0: tensor<3x3xi32>) -> tensor<3x2x3x3xi32> {
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 0] : (tensor<3x3xi32>) -> tensor<3x2x3x3xi32>
// CHECK-NEXT:    func.return %0 : tensor<3x2x3x3xi32>
func.func @composed_transposing_broadcasts(%arg0: tensor<3x3xi32>) -> tensor<3x2x3x3xi32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 0] : (tensor<3x3xi32>) -> tensor<3x3x2xi32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 2, 1] : (tensor<3x3x2xi32>) -> tensor<3x2x3x3xi32>
  return %1 : tensor<3x2x3x3xi32>
}

// -----

// A broadcast of a size-1 dim to a dim before the others' targets.
// CHECK-LABEL: func.func @transposing_broadcast_of_a_unit_dim(
// CHECK-NEXT:    %0 = stablehlo.broadcast_in_dim %x, dims = [2, 1] : (tensor<1x5xf32>) -> tensor<4x5x3xf32>
// CHECK-NEXT:    func.return %0
func.func @transposing_broadcast_of_a_unit_dim(%x: tensor<1x5xf32>) -> tensor<4x5x3xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [2, 1] : (tensor<1x5xf32>) -> tensor<4x5x3xf32>
  return %0 : tensor<4x5x3xf32>
}

// -----

// A broadcast that only permutes (no dim grows) is a transpose.
// CHECK-LABEL: func.func @permuting_broadcast(
// CHECK-NEXT:    %0 = stablehlo.transpose %x, dims = [2, 0, 3, 1] : (tensor<1x2x3x4xf32>) -> tensor<3x1x4x2xf32>
// CHECK-NEXT:    func.return %0
func.func @permuting_broadcast(%x: tensor<1x2x3x4xf32>) -> tensor<3x1x4x2xf32> {
  %0 = stablehlo.broadcast_in_dim %x, dims = [1, 3, 0, 2] : (tensor<1x2x3x4xf32>) -> tensor<3x1x4x2xf32>
  return %0 : tensor<3x1x4x2xf32>
}

// -----

// A transpose that moves only size-1 dims is a reshape; one that moves a
// dim of size 2 past the others stays a transpose.
// CHECK-LABEL: func.func @transposes(
// CHECK-NEXT:    %0 = stablehlo.reshape %a : (tensor<1x6x7x1xf32>) -> tensor<1x6x1x7xf32>
// CHECK-NEXT:    %1 = stablehlo.transpose %b, dims = [3, 1, 0, 2] : (tensor<1x6x7x2xf32>) -> tensor<2x6x1x7xf32>
// CHECK-NEXT:    func.return %0, %1
func.func @transposes(%a: tensor<1x6x7x1xf32>, %b: tensor<1x6x7x2xf32>) -> (tensor<1x6x1x7xf32>, tensor<2x6x1x7xf32>) {
  %0 = stablehlo.transpose %a, dims = [3, 1, 0, 2] : (tensor<1x6x7x1xf32>) -> tensor<1x6x1x7xf32>
  %1 = stablehlo.transpose %b, dims = [3, 1, 0, 2] : (tensor<1x6x7x2xf32>) -> tensor<2x6x1x7xf32>
  return %0, %1 : tensor<1x6x1x7xf32>, tensor<2x6x1x7xf32>
}

// -----

// compare UNSIGNED on signless i32 (StableHLO's verifier takes it; XLA's HLO
// verifier does not) orders the bit patterns: written back on ui32, which
// XLA runs; EQ needs no conversion.
// CHECK-LABEL: func.func @compare_unsigned_on_i32(
// CHECK-DAG:     %[[U5:.*]] = stablehlo.constant dense<7> : tensor<ui32>
// CHECK-DAG:     %[[UX:.*]] = stablehlo.convert %x : (tensor<i32>) -> tensor<ui32>
// CHECK-DAG:     %[[LT:.*]] = stablehlo.compare LT, %[[U5]], %[[UX]], UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK-DAG:     %[[EQ:.*]] = stablehlo.compare EQ, %{{.*}}, %x, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK:         func.return %[[LT]], %[[EQ]]
func.func @compare_unsigned_on_i32(%x: tensor<i32>) -> (tensor<i1>, tensor<i1>) {
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %0 = stablehlo.compare LT, %c7, %x, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %1 = stablehlo.compare EQ, %c7, %x, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0, %1 : tensor<i1>, tensor<i1>
}
