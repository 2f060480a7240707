// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit -t stablehlo | filecheck %s --check-prefix=HLO

// complex<f32> and complex<f64> are element types of bcast's (docs/semantics.md,
// "Complex numbers"): arithmetic, the math functions, sign, compare EQ/NE,
// and abs/real/imag, whose result is of the parts' float type.

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    %0 = bcast.multiply %a, %b : (tensor<2x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
// CHECK-NEXT:    %1 = bcast.exponential %0 : tensor<2x3xcomplex<f32>>
// CHECK-NEXT:    %2 = bcast.compare NE, %1, %b : (tensor<2x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<2x3xi1>
// CHECK-NEXT:    %3 = bcast.sign %b : tensor<3xcomplex<f32>>
// EXPLICIT-LABEL: func.func @elementwise
// EXPLICIT:        %0 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
// EXPLICIT-NEXT:   %1 = bcast.multiply %a, %0 : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
// HLO-LABEL: func.func @elementwise
// HLO:         stablehlo.multiply %a, %0 : tensor<2x3xcomplex<f32>>
// HLO-NEXT:    %2 = stablehlo.exponential %1 : tensor<2x3xcomplex<f32>>
// HLO-NEXT:    stablehlo.compare NE, %2, %0, FLOAT : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x3xi1>
// The sign is written as its definition, on the parts (XLA's divides by the modulus).
// HLO:         stablehlo.real %b : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
// HLO:         stablehlo.complex %{{.*}}, %{{.*}} : tensor<3xcomplex<f32>>
func.func @elementwise(%a: tensor<2x3xcomplex<f32>>, %b: tensor<3xcomplex<f32>>) -> (tensor<2x3xcomplex<f32>>, tensor<2x3xi1>, tensor<3xcomplex<f32>>) {
  %0 = bcast.multiply %a, %b : (tensor<2x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<2x3xcomplex<f32>>
  %1 = bcast.exponential %0 : tensor<2x3xcomplex<f32>>
  %2 = bcast.compare NE, %1, %b : (tensor<2x3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<2x3xi1>
  %3 = bcast.sign %b : tensor<3xcomplex<f32>>
  func.return %1, %2, %3 : tensor<2x3xcomplex<f32>>, tensor<2x3xi1>, tensor<3xcomplex<f32>>
}

// -----

// Promotion (the Array API's table): a float with a complex gives the
// complex type whose parts hold both; complex<f32> with complex<f64> is complex<f64>.
// CHECK-LABEL: func.func @promotion
// CHECK-NEXT:    %0 = bcast.add %c, %f : (tensor<4xcomplex<f32>>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
// CHECK-NEXT:    %1 = bcast.subtract %d, %c : (tensor<4xf64>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
// CHECK-NEXT:    %2 = bcast.divide %c, %z : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
// EXPLICIT-LABEL: func.func @promotion
// EXPLICIT-NEXT:   %0 = bcast.convert %f : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
// EXPLICIT-NEXT:   %1 = bcast.add %c, %0 : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
// EXPLICIT-NEXT:   %2 = bcast.convert %d : (tensor<4xf64>) -> tensor<4xcomplex<f64>>
// EXPLICIT-NEXT:   %3 = bcast.convert %c : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
// HLO-LABEL: func.func @promotion
// HLO-NEXT:    %0 = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
// HLO-NEXT:    %1 = stablehlo.add %c, %0 : tensor<4xcomplex<f32>>
// HLO:         stablehlo.divide %3, %z : tensor<4xcomplex<f64>>
func.func @promotion(%c: tensor<4xcomplex<f32>>, %f: tensor<4xf32>, %d: tensor<4xf64>, %z: tensor<4xcomplex<f64>>) -> (tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) {
  %0 = bcast.add %c, %f : (tensor<4xcomplex<f32>>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  %1 = bcast.subtract %d, %c : (tensor<4xf64>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
  %2 = bcast.divide %c, %z : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  func.return %0, %1, %2 : tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
}

// -----

// abs, real and imag of a complex value are of its parts' type, written
// with a functional type; of a float, the one type (imag is 0).
// CHECK-LABEL: func.func @parts
// CHECK-NEXT:    %0 = bcast.abs %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// CHECK-NEXT:    %1 = bcast.real %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// CHECK-NEXT:    %2 = bcast.imag %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// CHECK-NEXT:    %3 = bcast.imag %f : tensor<4xf64>
// CHECK-NEXT:    %4 = bcast.complex %1, %2 : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
// HLO-LABEL: func.func @parts
// HLO-NEXT:    %0 = stablehlo.abs %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// HLO-NEXT:    %1 = stablehlo.real %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// HLO-NEXT:    %2 = stablehlo.imag %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
// HLO-NEXT:    %3 = stablehlo.imag %f : tensor<4xf64>
// HLO-NEXT:    %4 = stablehlo.complex %1, %2 : tensor<4xcomplex<f64>>
func.func @parts(%c: tensor<4xcomplex<f64>>, %f: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xcomplex<f64>>) {
  %0 = bcast.abs %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %1 = bcast.real %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %2 = bcast.imag %c : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  %3 = bcast.imag %f : tensor<4xf64>
  %4 = bcast.complex %1, %2 : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f64>>
  func.return %0, %1, %2, %3, %4 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xcomplex<f64>>
}

// -----

// Constants: (re, im) pairs; a hex part is a float's bits (MLIR's
// reading), which is how infinities and NaN print; exact in -t stablehlo.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %c = bcast.constant dense<[(1.500000e+00,-2.000000e+00), (0x7f800000,1.000000e-01)]> : tensor<2xcomplex<f32>>
// CHECK-NEXT:    %s = bcast.constant dense<(0.000000e+00,-1.000000e+00)> : tensor<3xcomplex<f64>>
// HLO-LABEL: func.func @constants
// HLO:         stablehlo.constant dense<[(1.500000e+00, -2.000000e+00), (0x7F800000, 1.000000e-01)]> : tensor<2xcomplex<f32>>
// HLO:         stablehlo.constant dense<(0.000000e+00, -1.000000e+00)> : tensor<3xcomplex<f64>>
func.func @constants() -> (tensor<2xcomplex<f32>>, tensor<3xcomplex<f64>>, tensor<2xi1>) {
  %c = bcast.constant dense<[(1.5, -2.0), (0x7F800000, 0.1)]> : tensor<2xcomplex<f32>>
  %s = bcast.constant dense<(0.0, -1)> : tensor<3xcomplex<f64>>
  %e = bcast.compare EQ, %c, %c : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
  func.return %c, %s, %e : tensor<2xcomplex<f32>>, tensor<3xcomplex<f64>>, tensor<2xi1>
}

// -----

// convert: to a real type the real part (StableHLO's convert), between
// complex types each part, from a real type an imaginary part of 0.
// CHECK-LABEL: func.func @converts
// CHECK-NEXT:    %0 = bcast.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = bcast.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xi1>
// CHECK-NEXT:    %2 = bcast.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f32>>
// CHECK-NEXT:    %3 = bcast.convert %i : (tensor<4xi32>) -> tensor<4xcomplex<f64>>
// HLO-LABEL: func.func @converts
// HLO:         stablehlo.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f32>>
// HLO:         stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xcomplex<f64>>
func.func @converts(%c: tensor<4xcomplex<f64>>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>) {
  %0 = bcast.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xf32>
  %1 = bcast.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xi1>
  %2 = bcast.convert %c : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f32>>
  %3 = bcast.convert %i : (tensor<4xi32>) -> tensor<4xcomplex<f64>>
  func.return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xi1>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f64>>
}

// -----

// Data movement and reductions by add and multiply take complex values as any others.
// CHECK-LABEL: func.func @moves
// CHECK-NEXT:    %0 = bcast.transpose %c, dims = [1, 0] : (tensor<2x3xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
// CHECK-NEXT:    %1 = bcast.concatenate %c, %c, dim = 0 : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
// CHECK-NEXT:    %2 = bcast.reduce multiply %c, dims = [1] : (tensor<2x3xcomplex<f32>>) -> tensor<2xcomplex<f32>>
// HLO-LABEL: func.func @moves
// HLO:         stablehlo.constant dense<(1.000000e+00, 0.000000e+00)> : tensor<complex<f32>>
// HLO:         stablehlo.reduce(%c init: %{{.*}}) applies stablehlo.multiply across dimensions = [1]
func.func @moves(%c: tensor<2x3xcomplex<f32>>) -> (tensor<3x2xcomplex<f32>>, tensor<4x3xcomplex<f32>>, tensor<2xcomplex<f32>>) {
  %0 = bcast.transpose %c, dims = [1, 0] : (tensor<2x3xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  %1 = bcast.concatenate %c, %c, dim = 0 : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  %2 = bcast.reduce multiply %c, dims = [1] : (tensor<2x3xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0, %1, %2 : tensor<3x2xcomplex<f32>>, tensor<4x3xcomplex<f32>>, tensor<2xcomplex<f32>>
}
