// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.fft X, type = T, length = [...]: StableHLO's fft over the trailing
// len(length) dims (1 to 3), the leading dims a batch. FFT/IFFT keep the
// complex type; RFFT: f32/f64 -> complex, last dim n/2+1; IRFFT: complex ->
// real of fft_length. Errors: invalid_fft.mlir.

// CHECK-LABEL: func.func @kinds
func.func @kinds(%x: tensor<3x8xf32>, %c: tensor<3x5xcomplex<f32>>, %z: tensor<4x7xcomplex<f64>>) -> (tensor<3x5xcomplex<f32>>, tensor<3x8xf32>, tensor<4x7xcomplex<f64>>, tensor<4x7xcomplex<f64>>) {
// CHECK-NEXT: %0 = bcast.fft %x, type = RFFT, length = [8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
// GENERIC: "bcast.fft"(%x) <{fft_length = array<i64: 8>, fft_type = #bcast<fft_type RFFT>}> : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  %0 = bcast.fft %x, type = RFFT, length = [8] : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
// CHECK-NEXT: %1 = bcast.fft %c, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
  %1 = bcast.fft %c, type = IRFFT, length = [8] : (tensor<3x5xcomplex<f32>>) -> tensor<3x8xf32>
// CHECK-NEXT: %2 = bcast.fft %z, type = FFT, length = [4, 7] : (tensor<4x7xcomplex<f64>>) -> tensor<4x7xcomplex<f64>>
// GENERIC: "bcast.fft"(%z) <{fft_length = array<i64: 4, 7>, fft_type = #bcast<fft_type FFT>}> : (tensor<4x7xcomplex<f64>>) -> tensor<4x7xcomplex<f64>>
  %2 = bcast.fft %z, type = FFT, length = [4, 7] : (tensor<4x7xcomplex<f64>>) -> tensor<4x7xcomplex<f64>>
// CHECK-NEXT: %3 = bcast.fft %z, type = IFFT, length = [7] : (tensor<4x7xcomplex<f64>>) -> tensor<4x7xcomplex<f64>>
  %3 = bcast.fft %z, type = IFFT, length = [7] : (tensor<4x7xcomplex<f64>>) -> tensor<4x7xcomplex<f64>>
  func.return %0, %1, %2, %3 : tensor<3x5xcomplex<f32>>, tensor<3x8xf32>, tensor<4x7xcomplex<f64>>, tensor<4x7xcomplex<f64>>
}

// -----

// Three dims (the most), an odd RFFT length (9 -> 5), an IRFFT back to an
// odd length (5 -> 9), a zero length (an empty result), f64.

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<2x2x3x9xf64>, %c: tensor<2x5xcomplex<f64>>, %e: tensor<0xcomplex<f32>>) -> (tensor<2x2x3x5xcomplex<f64>>, tensor<2x9xf64>, tensor<0xcomplex<f32>>) {
// CHECK-NEXT: %0 = bcast.fft %x, type = RFFT, length = [2, 3, 9] : (tensor<2x2x3x9xf64>) -> tensor<2x2x3x5xcomplex<f64>>
  %0 = bcast.fft %x, type = RFFT, length = [2, 3, 9] : (tensor<2x2x3x9xf64>) -> tensor<2x2x3x5xcomplex<f64>>
// CHECK-NEXT: %1 = bcast.fft %c, type = IRFFT, length = [9] : (tensor<2x5xcomplex<f64>>) -> tensor<2x9xf64>
  %1 = bcast.fft %c, type = IRFFT, length = [9] : (tensor<2x5xcomplex<f64>>) -> tensor<2x9xf64>
// CHECK-NEXT: %2 = bcast.fft %e, type = FFT, length = [0] : (tensor<0xcomplex<f32>>) -> tensor<0xcomplex<f32>>
  %2 = bcast.fft %e, type = FFT, length = [0] : (tensor<0xcomplex<f32>>) -> tensor<0xcomplex<f32>>
  func.return %0, %1, %2 : tensor<2x2x3x5xcomplex<f64>>, tensor<2x9xf64>, tensor<0xcomplex<f32>>
}
