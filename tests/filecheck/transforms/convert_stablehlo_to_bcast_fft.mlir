// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast -t stablehlo | filecheck %s --check-prefix=HLO
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast -t stablehlo | bcast-opt - --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// stablehlo.fft (pretty, as jax.export prints it, or generic with its
// attributes as attributes or properties) becomes bcast.fft with the same
// type and lengths; -t stablehlo writes it back as stablehlo.fft.

// CHECK-LABEL: func.func @pretty
// HLO-LABEL: func.func @pretty
func.func @pretty(%x: tensor<4x8xf32>) -> (tensor<4x5xcomplex<f32>>, tensor<4x8xf32>) {
// CHECK-NEXT: %0 = bcast.fft %x, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
// CHECK-NEXT: %1 = bcast.fft %0, type = IRFFT, length = [8] : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
// HLO-NEXT: %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
// HLO-NEXT: %1 = stablehlo.fft %0, type = IRFFT, length = [8] : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
// GENERIC: "stablehlo.fft"(%x) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  %0 = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  %1 = stablehlo.fft %0, type = IRFFT, length = [8] : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x5xcomplex<f32>>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @generic
// HLO-LABEL: func.func @generic
func.func @generic(%z: tensor<2x3x4xcomplex<f64>>) -> (tensor<2x3x4xcomplex<f64>>, tensor<2x3x4xcomplex<f64>>) {
// CHECK-NEXT: %0 = bcast.fft %z, type = FFT, length = [3, 4] : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
// CHECK-NEXT: %1 = bcast.fft %0, type = IFFT, length = [2, 3, 4] : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
// HLO-NEXT: %0 = stablehlo.fft %z, type = FFT, length = [3, 4] : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
// HLO-NEXT: %1 = stablehlo.fft %0, type = IFFT, length = [2, 3, 4] : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
  %0 = "stablehlo.fft"(%z) {fft_length = array<i64: 3, 4>, fft_type = #stablehlo<fft_type FFT>} : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
  %1 = "stablehlo.fft"(%0) <{fft_length = array<i64: 2, 3, 4>, fft_type = #stablehlo<fft_type IFFT>}> : (tensor<2x3x4xcomplex<f64>>) -> tensor<2x3x4xcomplex<f64>>
  return %0, %1 : tensor<2x3x4xcomplex<f64>>, tensor<2x3x4xcomplex<f64>>
}

// -----

// A spectral filter: the product of complex spectra between two transforms
// stays elementwise (fusable); the transforms are fusion boundaries.

// CHECK-LABEL: func.func @filter
// HLO-LABEL: func.func @filter
func.func @filter(%x: tensor<16xf32>, %h: tensor<9xcomplex<f32>>) -> tensor<16xf32> {
// CHECK-NEXT: %0 = bcast.fft %x, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
// CHECK-NEXT: %1 = bcast.multiply %0, %h
// CHECK-NEXT: %2 = bcast.fft %1, type = IRFFT, length = [16] : (tensor<9xcomplex<f32>>) -> tensor<16xf32>
// HLO: stablehlo.fft %x, type = RFFT, length = [16]
// HLO: stablehlo.multiply
// HLO: stablehlo.fft %{{.*}}, type = IRFFT, length = [16]
  %0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  %1 = stablehlo.multiply %0, %h : tensor<9xcomplex<f32>>
  %2 = stablehlo.fft %1, type = IRFFT, length = [16] : (tensor<9xcomplex<f32>>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
