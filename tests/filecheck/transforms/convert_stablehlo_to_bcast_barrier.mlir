// RUN: bcast-opt %s -p convert-stablehlo-to-bcast{strict=true} | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - -p convert-stablehlo-to-bcast{strict=true} | filecheck %s

// stablehlo.optimization_barrier is its operands (it only keeps XLA from
// rewriting across it; -t stablehlo writes it, and reads it back).

// CHECK-LABEL: func.func @main(%x: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:    %0 = bcast.exponential %x : tensor<4xf32>
// CHECK-NEXT:    %1 = bcast.convert %b : (tensor<4xi1>) -> tensor<4xf32>
// CHECK-NEXT:    %2 = bcast.multiply %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %2, %1 : tensor<4xf32>, tensor<4xf32>
// CHECK-NOT:     optimization_barrier
func.func @main(%x: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.exponential %x : tensor<4xf32>
  %1 = stablehlo.convert %b : (tensor<4xi1>) -> tensor<4xf32>
  %2:2 = stablehlo.optimization_barrier %0, %1 : tensor<4xf32>, tensor<4xf32>
  %3 = stablehlo.multiply %2#0, %x : tensor<4xf32>
  func.return %3, %2#1 : tensor<4xf32>, tensor<4xf32>
}
