// RUN: bcast-opt %s --split-input-file --verify-diagnostics -p 'convert-stablehlo-to-bcast{strict=true}'
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s

// A stablehlo.map whose body holds an op other than the elementwise ops the
// import converts, rank-0 constants and rank-0 broadcast_in_dim/reshape (a
// reduce, another map, an op bcast does not know, a value that is not a
// rank-0 tensor), or whose inputs are of an element type bcast lacks, is
// refused at the map, naming the op, when the import is strict (as when
// the program is to run); without strict it is kept whole, its body's ops
// unconverted.

// CHECK-LABEL: func.func @reduce_inside
// CHECK: "stablehlo.map"
// CHECK: stablehlo.reduce(%a init: %c) applies stablehlo.add
// CHECK-NOT: bcast.
// CHECK: func.return
func.func @reduce_inside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.map' op with 'stablehlo.reduce' in its body is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{a map is imported when its body is made of elementwise ops the import converts, rank-0 constants and rank-0 broadcast_in_dim or reshape: the body is then applied to the whole inputs}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    %1 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A region op: a map inside the body of a map.
// CHECK-LABEL: func.func @map_inside
// CHECK: "stablehlo.map"
// CHECK: "stablehlo.map"
// CHECK: stablehlo.add
func.func @map_inside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.map' op with 'stablehlo.map' in its body is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{a map is imported when}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %1 = "stablehlo.map"(%a) ({
    ^bb0(%b: tensor<f32>):
      %2 = stablehlo.add %b, %b : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) {dimensions = array<i64>} : (tensor<f32>) -> tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// An op bcast does not know.
// CHECK-LABEL: func.func @unknown_op
// CHECK: "stablehlo.map"
// CHECK: "chlo.bessel_i1e"
func.func @unknown_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.map' op with 'chlo.bessel_i1e' in its body is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{a map is imported when}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %1 = "chlo.bessel_i1e"(%a) : (tensor<f32>) -> tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A value in the body that is not rank 0 would be widened to a wrong shape.
// CHECK-LABEL: func.func @not_rank_0
// CHECK: "stablehlo.map"
// CHECK: stablehlo.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK: stablehlo.reshape
func.func @not_rank_0(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.map' op with 'stablehlo.constant' on tensor<1xf32> (not a rank-0 tensor) in its body is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{a map is imported when}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.constant dense<[1.0]> : tensor<1xf32>
    %r = stablehlo.reshape %c : (tensor<1xf32>) -> tensor<f32>
    %s = stablehlo.add %a, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A reshape that is not a no-op (rank 1 to rank 0, of a value of the
// function) is no elementwise op.
// CHECK-LABEL: func.func @reshape_of_rank_1
// CHECK: "stablehlo.map"
// CHECK: stablehlo.reshape
func.func @reshape_of_rank_1(%x: tensor<4xf32>, %v: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'stablehlo.map' op with 'stablehlo.reshape' in its body is not supported by convert-stablehlo-to-bcast}}
  // expected-note @+1 {{a map is imported when}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %r = stablehlo.reshape %v : (tensor<1xf32>) -> tensor<f32>
    %s = stablehlo.add %a, %r : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// An element type bcast lacks (complex<f16>): refused at the map, in the import's words.
// CHECK-LABEL: func.func @complex
// CHECK: "stablehlo.map"
// CHECK: stablehlo.negate
func.func @complex(%x: tensor<4xcomplex<f16>>) -> tensor<4xcomplex<f16>> {
  // expected-error @+2 {{'stablehlo.map' op cannot be imported: unsupported element type complex<f16>}}
  // expected-note @+1 {{bcast supports}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<complex<f16>>):
    %1 = stablehlo.negate %a : tensor<complex<f16>>
    stablehlo.return %1 : tensor<complex<f16>>
  }) {dimensions = array<i64: 0>} : (tensor<4xcomplex<f16>>) -> tensor<4xcomplex<f16>>
  func.return %0 : tensor<4xcomplex<f16>>
}
