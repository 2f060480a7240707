// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// bf16 is a float: it does not mix with integers, and under xla semantics
// not with other floats either (docs/semantics.md, "bf16").

func.func @with_int(%h: tensor<4xbf16>, %i: tensor<4xi32>) -> tensor<4xbf16> {
  // expected-error @+2 {{'bcast.add' op element types bf16 and i32 are of different kinds (float and signed) and do not promote}}
  // expected-note @+1 {{insert an explicit bcast.convert to choose the common type}}
  %0 = bcast.add %h, %i : (tensor<4xbf16>, tensor<4xi32>) -> tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}

// -----

func.func @declared_bf16_promoted_f32(%h: tensor<4xbf16>, %f: tensor<4xf16>) -> tensor<4xbf16> {
  // expected-error @+1 {{'bcast.add' op}}
  %0 = bcast.add %h, %f : (tensor<4xbf16>, tensor<4xf16>) -> tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}

// -----

func.func @bitwise(%h: tensor<4xbf16>) -> tensor<4xbf16> {
  // expected-error @+1 {{'bcast.and' op}}
  %0 = bcast.and %h, %h : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}
