// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p "convert-stablehlo-to-bcast{strict=true}"

// Convolutions on ? dims the import refuses, at the op: a static result
// spatial dim declared where a ? input spatial dim makes it a run-time size
// (StableHLO's verifier lets it through; bcast never trusts it), and a ?
// in what bcast's convolution needs static (the input features, the
// kernel, the batch with batch groups).

func.func @static_result_of_a_dynamic_height(%x: tensor<1x?x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32> {
  // expected-error @+2 {{'bcast.convolution' op result dimension 1 is declared 4, a size known only at run time}}
  // expected-note @+1 {{declare it ? (the inferred type is tensor<1x?x2x1xf32>)}}
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32>
  func.return %r : tensor<1x4x2x1xf32>
}

// -----

func.func @static_result_of_a_constant_padding(%x: tensor<1x?x4x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32> {
  %c = stablehlo.constant dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>
  // expected-error @+2 {{'bcast.convolution' op result dimension 1 is declared 4, a size known only at run time}}
  // expected-note @+1 {{declare it ? (the inferred type is tensor<1x?x2x1xf32>)}}
  %r = stablehlo.dynamic_conv(%x, %w, %c) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x2x1xf32>
  func.return %r : tensor<1x4x2x1xf32>
}

// -----

func.func @dynamic_features(%x: tensor<1x?x4x?xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32> {
  // expected-error @+2 {{'stablehlo.convolution' op convolution with a ? input dimension 3 is not supported}}
  // expected-note @+1 {{bcast's convolution takes ? only in the input's batch and spatial dimensions, with one batch group when the batch is ?}}
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x?xf32>, tensor<3x3x1x1xf32>) -> tensor<1x?x2x1xf32>
  func.return %r : tensor<1x?x2x1xf32>
}

// -----

func.func @dynamic_kernel(%x: tensor<1x?x4x1xf32>, %w: tensor<?x3x1x1xf32>) -> tensor<1x?x2x1xf32> {
  // expected-error @+2 {{'stablehlo.convolution' op convolution with a ? kernel dimension 0 is not supported}}
  // expected-note @+1 {{bcast's convolution takes ? only in the input's batch and spatial dimensions, with one batch group when the batch is ?}}
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<?x3x1x1xf32>) -> tensor<1x?x2x1xf32>
  func.return %r : tensor<1x?x2x1xf32>
}
