// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// A narrow float mixes with no other float or complex type implicitly
// (JAX's lattice has no path between them: docs/semantics.md, "Narrow floats").

func.func @with_f32(%a: tensor<3xf8E4M3FN>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{element types f8E4M3FN and f32 do not promote (a narrow float mixes with no other float or complex type)}}
  // expected-note @+1 {{insert an explicit bcast.convert to choose the common type}}
  %0 = bcast.add %a, %b : (tensor<3xf8E4M3FN>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @two_narrow_floats(%a: tensor<3xf8E4M3FN>, %b: tensor<3xf8E5M2>) -> tensor<3xf8E5M2> {
  // expected-error @+2 {{element types f8E4M3FN and f8E5M2 do not promote}}
  // expected-note @+1 {{insert an explicit bcast.convert}}
  %0 = bcast.multiply %a, %b : (tensor<3xf8E4M3FN>, tensor<3xf8E5M2>) -> tensor<3xf8E5M2>
  func.return %0 : tensor<3xf8E5M2>
}

// -----

func.func @with_bf16(%a: tensor<3xbf16>, %b: tensor<3xf4E2M1FN>) -> tensor<3xbf16> {
  // expected-error @+2 {{element types bf16 and f4E2M1FN do not promote}}
  // expected-note @+1 {{insert an explicit bcast.convert}}
  %0 = bcast.maximum %a, %b : (tensor<3xbf16>, tensor<3xf4E2M1FN>) -> tensor<3xbf16>
  func.return %0 : tensor<3xbf16>
}

// -----

func.func @with_complex(%a: tensor<3xcomplex<f32>>, %b: tensor<3xf8E5M2>) -> tensor<3xcomplex<f32>> {
  // expected-error @+2 {{element types complex<f32> and f8E5M2 do not promote (a narrow float mixes with no other float or complex type)}}
  // expected-note @+1 {{insert an explicit bcast.convert}}
  %0 = bcast.add %a, %b : (tensor<3xcomplex<f32>>, tensor<3xf8E5M2>) -> tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}
