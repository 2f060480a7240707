// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: iota is the loop index (index_cast to i64, then
// convert as bcast.convert does); reverse is the index n - 1 - i on each
// reversed dim, read inside the fusion that uses it (never materialized).
// Iota is a fusion boundary: its own nest stores it.

// CHECK-LABEL: func.func @main
// CHECK:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[K:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK-NEXT:       %[[F:.*]] = arith.sitofp %[[K]] : i64 to f32
// CHECK-NEXT:       memref.store %[[F]], %[[IOTA:.*]][%[[I]], %[[J]]]
// CHECK:        scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       %[[A:.*]] = memref.load %[[IOTA]][%[[R]], %[[C]]]
// CHECK-NEXT:       %[[RR:.*]] = arith.subi %[[TWO:.*]], %[[R]] : index
// CHECK-NEXT:       %[[RC:.*]] = arith.subi %[[FOUR:.*]], %[[C]] : index
// CHECK-NEXT:       %[[B:.*]] = memref.load %x[%[[RR]], %[[RC]]] : memref<3x5xf32>
// CHECK-NEXT:       arith.addf %[[A]], %[[B]] : f32
func.func @main(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = bcast.iota dim = 1 : tensor<3x5xf32>
  %1 = bcast.reverse %x, dims = [0, 1] : tensor<3x5xf32>
  %2 = bcast.add %0, %1 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return %2 : tensor<3x5xf32>
}

// -----

// An unsigned iota converts the i64 index by truncation (wrapping).
// CHECK-LABEL: func.func @unsigned
// CHECK:       arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:  arith.trunci %{{.*}} : i64 to i8
func.func @unsigned() -> tensor<300xui8> {
  %0 = bcast.iota dim = 0 : tensor<300xui8>
  func.return %0 : tensor<300xui8>
}
