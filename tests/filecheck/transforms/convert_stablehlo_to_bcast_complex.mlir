// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit -t stablehlo | filecheck %s --check-prefix=HLO

// StableHLO's complex programs (pretty and generic) import to bcast's ops:
// complex/real/imag, abs with a real result, compare EQ (type FLOAT),
// convert to the real part, a sum, and a triangular solve with ADJOINT.

// CHECK-LABEL: func.func @ops
// CHECK-NEXT:    %c = bcast.constant dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,-4.000000e+00)]> : tensor<2xcomplex<f32>>
// CHECK-NEXT:    %0 = bcast.add %a, %c : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
// CHECK-NEXT:    %1 = bcast.abs %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT:    %2 = bcast.real %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT:    %3 = bcast.complex %1, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f32>>
// CHECK-NEXT:    %4 = bcast.exponential %3 : tensor<2xcomplex<f32>>
// CHECK-NEXT:    %5 = bcast.compare EQ, %4, %3 : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
// CHECK-NEXT:    %6 = bcast.convert %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT:    %7 = bcast.imag %b : tensor<2xf32>
// HLO-LABEL: func.func @ops
// HLO:         stablehlo.constant dense<[(1.000000e+00, 2.000000e+00), (3.000000e+00, -4.000000e+00)]> : tensor<2xcomplex<f32>>
// HLO:         stablehlo.abs %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// HLO-NEXT:    stablehlo.real %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// HLO-NEXT:    stablehlo.complex %{{.*}}, %b : tensor<2xcomplex<f32>>
// HLO:         stablehlo.compare EQ, %{{.*}}, %{{.*}}, FLOAT : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
// HLO:         stablehlo.imag %b : tensor<2xf32>
func.func @ops(%a: tensor<2xcomplex<f32>>, %b: tensor<2xf32>) -> (tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) {
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f32>>
  %0 = stablehlo.add %a, %c : tensor<2xcomplex<f32>>
  %1 = stablehlo.abs %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %2 = stablehlo.real %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %3 = stablehlo.complex %1, %b : tensor<2xcomplex<f32>>
  %4 = stablehlo.exponential %3 : tensor<2xcomplex<f32>>
  %5 = stablehlo.compare EQ, %4, %3, FLOAT : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
  %6 = stablehlo.convert %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %7 = stablehlo.imag %b : tensor<2xf32>
  return %0, %1, %2, %4, %5, %6, %7 : tensor<2xcomplex<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xcomplex<f32>>, tensor<2xi1>, tensor<2xf32>, tensor<2xf32>
}


// -----

// CHECK-LABEL: func.func @generic
// CHECK-NEXT:    %0 = bcast.imag %a : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
// CHECK-NEXT:    %1 = bcast.sign %a : tensor<3xcomplex<f64>>
func.func @generic(%a: tensor<3xcomplex<f64>>) -> (tensor<3xf64>, tensor<3xcomplex<f64>>) {
  %0 = "stablehlo.imag"(%a) : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
  %1 = "stablehlo.sign"(%a) : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
  "func.return"(%0, %1) : (tensor<3xf64>, tensor<3xcomplex<f64>>) -> ()
}


// -----

// CHECK-LABEL: func.func @reduce_and_solve
// CHECK:         %r = bcast.reduce add %x, dims = [1] : (tensor<2x3xcomplex<f32>>) -> tensor<2xcomplex<f32>>
// CHECK-NEXT:    %s = bcast.triangular_solve %a, %b, left_side = true, lower = true, unit_diagonal = false, transpose_a = ADJOINT : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
// HLO-LABEL: func.func @reduce_and_solve
// HLO:         stablehlo.reduce(%x init: %{{.*}}) applies stablehlo.add across dimensions = [1]
// HLO:         transpose_a = #stablehlo<transpose ADJOINT>
func.func @reduce_and_solve(%x: tensor<2x3xcomplex<f32>>, %a: tensor<2x2xcomplex<f32>>, %b: tensor<2x1xcomplex<f32>>) -> (tensor<2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) {
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2xcomplex<f32>>
  %s = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false} : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  return %r, %s : tensor<2xcomplex<f32>>, tensor<2x1xcomplex<f32>>
}
