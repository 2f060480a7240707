// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s
// RUN: bcast-opt %s --split-input-file -t c | filecheck %s --check-prefix=C

// bcast-lower-to-loops: erf is upstream's math.erf (libm's erf/erff in C;
// f16 runs in f32). MLIR 19 has no math.erfc: erfc is its composition in
// f64 (bcast.ir.special: polynomials, exp of the exactly split square).

// CHECK-LABEL: func.func @erf
// CHECK:         %[[X:.*]] = memref.load %x[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:    %[[E:.*]] = math.erf %[[X]] : f32
// CHECK-NEXT:    memref.store %[[E]], %result0[%{{.*}}] : memref<4xf32>
// C-LABEL:     void bcast_erf(
// C:             = erff(
// C-LABEL:     void bcast_erf64(
// C:             = erf(
// C-LABEL:     void bcast_erf16(
// C:             float {{.*}} = erff(
func.func @erf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = bcast.erf %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @erf64
// CHECK:         math.erf %{{.*}} : f64
func.func @erf64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = bcast.erf %x : tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

// CHECK-LABEL: func.func @erf16
// CHECK:         %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[E:.*]] = math.erf %[[W]] : f32
// CHECK-NEXT:    arith.truncf %[[E]] : f32 to f16
func.func @erf16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = bcast.erf %x : tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @erfc
// CHECK:         %[[X:.*]] = memref.load %x[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:    math.absf %[[W]] : f64
// CHECK:         math.floor
// CHECK:         math.exp
// CHECK-NOT:     math.erfc
// CHECK:         arith.truncf %{{.*}} : f64 to f32
// C-LABEL:     void bcast_erfc(
// C-NOT:         {{[^_]}}erfc{{f?}}(
// C:             = exp(
func.func @erfc(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = bcast.erfc %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
