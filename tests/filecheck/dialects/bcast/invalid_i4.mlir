// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// i4 and ui4 are integers: they do not mix with floats or booleans, under
// xla semantics not with other integers either, and a constant must fit
// (docs/semantics.md, "i4 and ui4").

func.func @with_float(%s: tensor<4xi4>, %f: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'bcast.add' op element types i4 and f32 are of different kinds (signed and float) and do not promote}}
  // expected-note @+1 {{insert an explicit bcast.convert to choose the common type}}
  %0 = bcast.add %s, %f : (tensor<4xi4>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @declared_i4_promoted_i8(%s: tensor<4xi4>, %u: tensor<4xui4>) -> tensor<4xi4> {
  // expected-error @+1 {{'bcast.add' op}}
  %0 = bcast.add %s, %u : (tensor<4xi4>, tensor<4xui4>) -> tensor<4xi4>
  func.return %0 : tensor<4xi4>
}

// -----

func.func @math_on_integers(%u: tensor<4xui4>) -> tensor<4xui4> {
  // expected-error @+1 {{'bcast.exponential' op}}
  %0 = bcast.exponential %u : tensor<4xui4>
  func.return %0 : tensor<4xui4>
}

// -----

module attributes {bcast.semantics = "xla"} {
  func.func @xla_needs_one_type(%s: tensor<4xi4>, %w: tensor<4xi8>) -> tensor<4xi8> {
    // expected-error @+2 {{'bcast.add' op}}
    // expected-note @+1 {{xla requires identical element types; insert a bcast.convert}}
    %0 = bcast.add %s, %w : (tensor<4xi4>, tensor<4xi8>) -> tensor<4xi8>
    func.return %0 : tensor<4xi8>
  }
}

// -----

func.func @out_of_range() -> tensor<2xi4> {
  // expected-error @+1 {{Integer value -9 is out of range for type i4 which supports values in the range [-8, 16)}}
  %c = bcast.constant dense<[7, -9]> : tensor<2xi4>
  func.return %c : tensor<2xi4>
}
