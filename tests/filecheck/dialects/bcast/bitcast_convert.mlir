// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,bcast-sink-broadcasts,canonicalize | filecheck %s --check-prefix=SINK

// bcast.bitcast_convert: each element's bits as another element type of the
// same width, a conversion in every other respect (fused and sunk below a
// broadcast as convert is); under every semantics.

// CHECK-LABEL: func.func @numpy
// CHECK-NEXT:    %0 = bcast.bitcast_convert %x : (tensor<2x3xui32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %1 = bcast.bitcast_convert %0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
func.func @numpy(%x: tensor<2x3xui32>) -> tensor<2x3xi32> {
  %0 = bcast.bitcast_convert %x : (tensor<2x3xui32>) -> tensor<2x3xf32>
  %1 = bcast.bitcast_convert %0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  func.return %1 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @tml
// CHECK-NEXT:    bcast.bitcast_convert %x : (tensor<3xtensor<2xf16>>) -> tensor<3xtensor<2xi16>>
func.func @tml(%x: tensor<3xtensor<2xf16>>) -> tensor<3xtensor<2xi16>> attributes {bcast.semantics = "tml"} {
  %0 = bcast.bitcast_convert %x : (tensor<3xtensor<2xf16>>) -> tensor<3xtensor<2xi16>>
  func.return %0 : tensor<3xtensor<2xi16>>
}

// -----

// The bitcast of a broadcast row is the broadcast of the row's bitcast; it
// stays a bitcast (a convert there would change the values).
// SINK-LABEL: func.func @sunk
// SINK-NEXT:    %0 = bcast.bitcast_convert %row : (tensor<4xui32>) -> tensor<4xf32>
// SINK-NEXT:    %1 = bcast.broadcast_in_dim %0, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
func.func @sunk(%row: tensor<4xui32>) -> tensor<3x4xf32> {
  %b = bcast.broadcast_in_dim %row, dims = [1] : (tensor<4xui32>) -> tensor<3x4xui32>
  %0 = bcast.bitcast_convert %b : (tensor<3x4xui32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

// Constants fold to their bits: 1.0f is 0x3F800000.
// SINK-LABEL: func.func @folded
// SINK-NEXT:    %0 = bcast.constant dense<1065353216> : tensor<2xi32>
func.func @folded() -> tensor<2xi32> {
  %c = bcast.constant dense<1.0> : tensor<2xf32>
  %0 = bcast.bitcast_convert %c : (tensor<2xf32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
