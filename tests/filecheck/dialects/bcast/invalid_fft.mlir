// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bcast.fft: StableHLO's rules, in its order and words (1 to 3 fft dims, no
// more than the operand's rank, RFFT of f32/f64 with the trailing dims the
// lengths, IRFFT of complex with n/2+1 last, FFT/IFFT of complex with the
// trailing dims the lengths), the declared result the inferred one; nested
// (tml) types and ? dims are refused; the syntax's own errors.

func.func @too_many_dims(%x: tensor<3x9x9x9xf32>) {
  // expected-error @+1 {{'bcast.fft' op rank must be between 1 and 3, but got 4.}}
  %0 = bcast.fft %x, type = RFFT, length = [3, 9, 9, 9] : (tensor<3x9x9x9xf32>) -> tensor<3x9x9x5xcomplex<f32>>
  func.return
}

// -----

func.func @no_dims(%x: tensor<3xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op rank must be between 1 and 3, but got 0.}}
  %0 = bcast.fft %x, type = FFT, length = [] : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return
}

// -----

func.func @rank_mismatch(%x: tensor<3x9xf32>) {
  // expected-error @+1 {{'bcast.fft' op operand rank must not be less than fft rank of 3 for operand of type 'tensor<3x9xf32>'}}
  %0 = bcast.fft %x, type = RFFT, length = [9, 9, 9] : (tensor<3x9xf32>) -> tensor<3x9xcomplex<f32>>
  func.return
}

// -----

func.func @negative_length(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op fft_length must not be negative, got [-9]}}
  %0 = bcast.fft %x, type = FFT, length = [-9] : (tensor<3x9xcomplex<f32>>) -> tensor<3x9xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_f16(%x: tensor<3x9xf16>) {
  // expected-error @+1 {{'bcast.fft' op RFFT requires f32 or f64 input type, but is given 'f16'.}}
  %0 = bcast.fft %x, type = RFFT, length = [9] : (tensor<3x9xf16>) -> tensor<3x5xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_complex(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op RFFT requires f32 or f64 input type, but is given 'complex<f32>'.}}
  %0 = bcast.fft %x, type = RFFT, length = [9] : (tensor<3x9xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_dims(%x: tensor<3x9xf32>) {
  // expected-error @+1 {{'bcast.fft' op RFFT requires innermost dimensions to be compatible with fft_length. Got: 3, 9 but wanted 9, 9.}}
  %0 = bcast.fft %x, type = RFFT, length = [9, 9] : (tensor<3x9xf32>) -> tensor<3x5xcomplex<f32>>
  func.return
}

// -----

func.func @irfft_non_final(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op IRFFT requires non-final dimensions to be compatible with fft_length. Got: 3, 9 but wanted 9, 16, and 3 != 9.}}
  %0 = bcast.fft %x, type = IRFFT, length = [9, 16] : (tensor<3x9xcomplex<f32>>) -> tensor<9x16xf32>
  func.return
}

// -----

func.func @irfft_final(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op IRFFT requires innermost dimension to be compatible with fft_length[-1]/2+1. Got: 9 but fft_length is 9.}}
  %0 = bcast.fft %x, type = IRFFT, length = [9] : (tensor<3x9xcomplex<f32>>) -> tensor<3x9xf32>
  func.return
}

// -----

func.func @irfft_real(%x: tensor<3x9xf32>) {
  // expected-error @+1 {{'bcast.fft' op FFT/IFFT/IRFFT take a complex tensor as input, but is given 'tensor<3x9xf32>'}}
  %0 = bcast.fft %x, type = IRFFT, length = [16] : (tensor<3x9xf32>) -> tensor<3x16xf32>
  func.return
}

// -----

func.func @fft_real(%x: tensor<8xf64>) {
  // expected-error @+1 {{'bcast.fft' op FFT/IFFT/IRFFT take a complex tensor as input, but is given 'tensor<8xf64>'}}
  %0 = bcast.fft %x, type = FFT, length = [8] : (tensor<8xf64>) -> tensor<8xcomplex<f64>>
  func.return
}

// -----

func.func @fft_dims(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op IFFT requires innermost dimensions to equal fft_length. Got: 3, 9 but wanted 8.}}
  %0 = bcast.fft %x, type = IFFT, length = [8] : (tensor<3x9xcomplex<f32>>) -> tensor<3x9xcomplex<f32>>
  // expected-note @-1 {{StableHLO's spec: a complex transform keeps its operand's shape}}
  func.return
}

// -----

func.func @rfft_result(%x: tensor<3x9xf32>) {
  // expected-error @+1 {{'bcast.fft' op inferred type(s) 'tensor<3x5xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<3x9xf32>'}}
  %0 = bcast.fft %x, type = RFFT, length = [9] : (tensor<3x9xf32>) -> tensor<3x9xf32>
  func.return
}

// -----

func.func @irfft_result(%x: tensor<3x9xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op inferred type(s) 'tensor<3x16xf32>' are incompatible with return type(s) of operation 'tensor<3x16xcomplex<f32>>'}}
  %0 = bcast.fft %x, type = IRFFT, length = [16] : (tensor<3x9xcomplex<f32>>) -> tensor<3x16xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_f32_to_c64(%x: tensor<8xf32>) {
  // expected-error @+1 {{'bcast.fft' op inferred type(s) 'tensor<5xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<5xcomplex<f64>>'}}
  %0 = bcast.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f64>>
  func.return
}

// -----

func.func @dynamic(%x: tensor<?x8xcomplex<f32>>) {
  // expected-error @+1 {{'bcast.fft' op dynamic dimensions are not supported by bcast.fft yet}}
  %0 = bcast.fft %x, type = FFT, length = [8] : (tensor<?x8xcomplex<f32>>) -> tensor<?x8xcomplex<f32>>
  // expected-note @-1 {{docs/semantics.md, "Dynamic and bounded shapes", lists the ops that take them}}
  func.return
}

// -----

func.func @unknown_type(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{Expected `FFT`, `IFFT`, `RFFT`, or `IRFFT`.}}
  %0 = bcast.fft %x, type = DCT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  func.return
}

// -----

func.func @two_results(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{expected one operand type and one result type}}
  %0 = bcast.fft %x, type = FFT, length = [8] : (tensor<8xcomplex<f32>>) -> (tensor<8xcomplex<f32>>, tensor<8xcomplex<f32>>)
  func.return
}
