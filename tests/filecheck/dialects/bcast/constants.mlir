// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s

// Hex literals in float constants are bit patterns, as in MLIR: NaN and
// infinities print that way and must read back as the same values.
// CHECK-LABEL: func.func @special_floats
//  CHECK-NEXT:   bcast.constant dense<[0.000000e+00, -0.000000e+00, 0x7fc00000, 0xff800000]> : tensor<4xf32>
//  CHECK-NEXT:   bcast.constant dense<[0x7ff0000000000000, 1.000000e+00]> : tensor<2xf64>
//  CHECK-NEXT:   bcast.constant dense<0x7e00> : tensor<f16>
//  CHECK-NEXT:   bcast.constant dense<[16, 5]> : tensor<2xi32>
func.func @special_floats() -> (tensor<4xf32>, tensor<2xf64>, tensor<f16>, tensor<2xi32>) {
  %a = bcast.constant dense<[0.0, -0.0, 0x7FC00000, 0xFF800000]> : tensor<4xf32>
  %b = bcast.constant dense<[0x7FF0000000000000, 1.0]> : tensor<2xf64>
  %c = bcast.constant dense<0x7E00> : tensor<f16>
  %d = bcast.constant dense<[0x10, 5]> : tensor<2xi32>
  func.return %a, %b, %c, %d : tensor<4xf32>, tensor<2xf64>, tensor<f16>, tensor<2xi32>
}
