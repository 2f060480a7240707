// RUN: bcast-opt %s -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse | filecheck %s

// The standard pipeline on a program with an fft: the transform is a fusion
// boundary (an element of its result reads a whole row), the elementwise ops
// before it (a broadcasting add) and after it (abs of the spectrum, a
// broadcasting scale) fuse on each side, no broadcast is sunk through it.

// CHECK-LABEL: func.func @spectrum
func.func @spectrum(%x: tensor<8xf32>, %y: tensor<4x1xf32>) -> tensor<4x5xf32> {
// CHECK-NEXT:  %b = bcast.fusion %x, %y : (tensor<8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32> {
// CHECK:         bcast.add
// CHECK-NEXT:    bcast.yield %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %s = bcast.fft %b, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
// CHECK-NEXT:  %r = bcast.fusion %s, %y : (tensor<4x5xcomplex<f32>>, tensor<4x1xf32>) -> tensor<4x5xf32> {
// CHECK:         bcast.abs %{{.*}} : (tensor<4x5xcomplex<f32>>) -> tensor<4x5xf32>
// CHECK:         bcast.multiply
// CHECK-NEXT:    bcast.yield %{{.*}} : tensor<4x5xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return %r : tensor<4x5xf32>
  %b = bcast.add %x, %y : (tensor<8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %s = bcast.fft %b, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  %m = bcast.abs %s : (tensor<4x5xcomplex<f32>>) -> tensor<4x5xf32>
  %r = bcast.multiply %m, %y : (tensor<4x5xf32>, tensor<4x1xf32>) -> tensor<4x5xf32>
  func.return %r : tensor<4x5xf32>
}
