// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s
// The output verifies again (the second bcast-opt verifies its input).
// RUN: bcast-opt %s --split-input-file -p canonicalize | bcast-opt - --split-input-file | filecheck %s

// A slice that keeps every element folds to its operand; a slice of a slice
// is one slice (start s1 + s2 * t1, stride t1 * t2, ending after its last
// element; one element has stride 1, an empty range becomes s1:s1).

// CHECK-LABEL: func.func @full
// CHECK-NEXT:  func.return %x, %y : tensor<3x4xf32>, tensor<1x0xi8>
func.func @full(%x: tensor<3x4xf32>, %y: tensor<1x0xi8>) -> (tensor<3x4xf32>, tensor<1x0xi8>) {
  %0 = bcast.slice %x [0:3, 0:4] : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = bcast.slice %y [0:1:5, 0:0:2] : (tensor<1x0xi8>) -> tensor<1x0xi8>
  func.return %0, %1 : tensor<3x4xf32>, tensor<1x0xi8>
}

// -----

// CHECK-LABEL: func.func @compose
// CHECK-NEXT:  %0 = bcast.slice %x [3:8:4, 2:7:4] : (tensor<10x9xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:  %1 = bcast.slice %x [1:1, 0:7:3] : (tensor<10x9xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:  func.return %0, %1
func.func @compose(%x: tensor<10x9xf32>) -> (tensor<2x2xf32>, tensor<0x3xf32>) {
  %0 = bcast.slice %x [1:10:2, 0:9] : (tensor<10x9xf32>) -> tensor<5x9xf32>
  %1 = bcast.slice %0 [1:5:2, 2:8:4] : (tensor<5x9xf32>) -> tensor<2x2xf32>
  %2 = bcast.slice %0 [5:5, 0:9:3] : (tensor<5x9xf32>) -> tensor<0x3xf32>
  func.return %1, %2 : tensor<2x2xf32>, tensor<0x3xf32>
}

// -----

// Three deep: one slice of %x.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:  %0 = bcast.slice %x [4:5] : (tensor<20xi32>) -> tensor<1xi32>
// CHECK-NEXT:  func.return %0
func.func @chain(%x: tensor<20xi32>) -> tensor<1xi32> {
  %0 = bcast.slice %x [2:20:2] : (tensor<20xi32>) -> tensor<9xi32>
  %1 = bcast.slice %0 [1:9] : (tensor<9xi32>) -> tensor<8xi32>
  %2 = bcast.slice %1 [0:1] : (tensor<8xi32>) -> tensor<1xi32>
  func.return %2 : tensor<1xi32>
}
