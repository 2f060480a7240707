// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// StableHLO's verifier errors for iota and reverse, worded as upstream's.

func.func @iota_scalar() {
  // expected-error @+1 {{'stablehlo.iota' op does not support scalars.}}
  %0 = stablehlo.iota dim = 0 : tensor<f32>
  return
}

// -----

func.func @iota_dim() {
  // expected-error @+1 {{'stablehlo.iota' op iota dimension cannot go beyond the output rank or be negative.}}
  %0 = stablehlo.iota dim = 2 : tensor<3x4xf32>
  return
}

// -----

func.func @iota_bool() {
  // expected-error @+1 {{'stablehlo.iota' op output must be a tensor of integer, floating-point or complex values, got tensor<3xi1>}}
  %0 = stablehlo.iota dim = 0 : tensor<3xi1>
  return
}

// -----

func.func @reverse_duplicates(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op dimensions should be unique. Got: [1, 1]}}
  %0 = stablehlo.reverse %x, dims = [1, 1] : tensor<3x4xf32>
  return
}

// -----

func.func @reverse_negative(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op all dimensions should be non-negative. Got dimension: -1.}}
  %0 = stablehlo.reverse %x, dims = [-1] : tensor<3x4xf32>
  return
}

// -----

func.func @reverse_range(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op all dimensions should be between [0, 2). Got dimension: 2.}}
  %0 = stablehlo.reverse %x, dims = [2] : tensor<3x4xf32>
  return
}
