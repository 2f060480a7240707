// RUN: bcast-opt %s --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,bcast-make-explicit -t stablehlo | filecheck %s --check-prefix=HLO

// The f8/f6/f4 floats are element types of bcast's (docs/semantics.md,
// "Narrow floats"): each op computed in f32 and rounded once to the type;
// no implicit promotion with another float (invalid_narrow_floats.mlir).

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    %0 = bcast.add %a, %b : (tensor<2x3xf8E4M3FN>, tensor<3xf8E4M3FN>) -> tensor<2x3xf8E4M3FN>
// CHECK-NEXT:    %1 = bcast.exponential %0 : tensor<2x3xf8E4M3FN>
// CHECK-NEXT:    %2 = bcast.compare LT, %1, %b : (tensor<2x3xf8E4M3FN>, tensor<3xf8E4M3FN>) -> tensor<2x3xi1>
// CHECK-NEXT:    %3 = bcast.reduce add %u, dims = [0] : (tensor<3xf4E2M1FN>) -> tensor<f4E2M1FN>
// CHECK-NEXT:    %4 = bcast.convert %3 : (tensor<f4E2M1FN>) -> tensor<f8E8M0FNU>
// EXPLICIT-LABEL: func.func @elementwise
// EXPLICIT:        bcast.broadcast_in_dim %b, dims = [1] : (tensor<3xf8E4M3FN>) -> tensor<2x3xf8E4M3FN>
// HLO-LABEL: func.func @elementwise
// HLO:         stablehlo.add %a, %{{.*}} : tensor<2x3xf8E4M3FN>
// HLO:         stablehlo.exponential %{{.*}} : tensor<2x3xf8E4M3FN>
// HLO:         stablehlo.convert %u : (tensor<3xf4E2M1FN>) -> tensor<3xf32>
// HLO:         stablehlo.reduce
// HLO:         stablehlo.convert %{{.*}} : (tensor<f32>) -> tensor<f4E2M1FN>
func.func @elementwise(%a: tensor<2x3xf8E4M3FN>, %b: tensor<3xf8E4M3FN>, %u: tensor<3xf4E2M1FN>) -> (tensor<2x3xi1>, tensor<f8E8M0FNU>) {
  %0 = bcast.add %a, %b : (tensor<2x3xf8E4M3FN>, tensor<3xf8E4M3FN>) -> tensor<2x3xf8E4M3FN>
  %1 = bcast.exponential %0 : tensor<2x3xf8E4M3FN>
  %2 = bcast.compare LT, %1, %b : (tensor<2x3xf8E4M3FN>, tensor<3xf8E4M3FN>) -> tensor<2x3xi1>
  %3 = bcast.reduce add %u, dims = [0] : (tensor<3xf4E2M1FN>) -> tensor<f4E2M1FN>
  %4 = bcast.convert %3 : (tensor<f4E2M1FN>) -> tensor<f8E8M0FNU>
  func.return %2, %4 : tensor<2x3xi1>, tensor<f8E8M0FNU>
}

// -----

// Constants print from their bytes: a NaN keeps its sign (0xFF), -0.0 its
// zero; a decimal rounds to the type as MLIR reads it (0.1 is 0.1015625 in
// f8E4M3FN, 0.0 the smallest value 2^-127 of f8E8M0FNU, which has no zero).
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %a = bcast.constant dense<[0xFF, 0x7F, 1.015625e-01, -0.000000e+00, 4.480000e+02]> : tensor<5xf8E4M3FN>
// CHECK-NEXT:    %e = bcast.constant dense<[5.87747175e-39, 1.000000e+00, 4.000000e+00]> : tensor<3xf8E8M0FNU>
// CHECK-NEXT:    %f = bcast.constant dense<[-6.000000e+00, 5.000000e-01, 0.000000e+00]> : tensor<3xf4E2M1FN>
// CHECK-NEXT:    %z = bcast.constant dense<0x80> : tensor<2xf8E5M2FNUZ>
func.func @constants() -> (tensor<5xf8E4M3FN>, tensor<3xf8E8M0FNU>, tensor<3xf4E2M1FN>, tensor<2xf8E5M2FNUZ>) {
  %a = bcast.constant dense<[0xFF, 0x7F, 0.1, -0.0, 448.0]> : tensor<5xf8E4M3FN>
  %e = bcast.constant dense<[0.0, 1.0, 3.1415]> : tensor<3xf8E8M0FNU>
  %f = bcast.constant dense<[0x0F, 0.5, 0.2]> : tensor<3xf4E2M1FN>
  %z = bcast.constant dense<0x80> : tensor<2xf8E5M2FNUZ>
  func.return %a, %e, %f, %z : tensor<5xf8E4M3FN>, tensor<3xf8E8M0FNU>, tensor<3xf4E2M1FN>, tensor<2xf8E5M2FNUZ>
}

// -----

// StableHLO's ops on them import as bcast's, and every one of the eleven
// types reads, prints and converts.
// CHECK-LABEL: func.func @every_type
// EXPLICIT-LABEL: func.func @every_type
// EXPLICIT:        bcast.multiply %a, %a : (tensor<2xf8E5M2>, tensor<2xf8E5M2>) -> tensor<2xf8E5M2>
// EXPLICIT-COUNT-11: bcast.convert
// HLO-LABEL: func.func @every_type
// HLO:         stablehlo.multiply %a, %a : tensor<2xf8E5M2>
// HLO-COUNT-11: stablehlo.convert
func.func @every_type(%a: tensor<2xf8E5M2>) -> (tensor<2xf8E4M3FN>, tensor<2xf8E5M2>, tensor<2xf8E4M3FNUZ>, tensor<2xf8E5M2FNUZ>, tensor<2xf8E4M3B11FNUZ>, tensor<2xf8E3M4>, tensor<2xf8E4M3>, tensor<2xf8E8M0FNU>, tensor<2xf6E2M3FN>, tensor<2xf6E3M2FN>, tensor<2xf4E2M1FN>, tensor<2xf32>) {
  %m = stablehlo.multiply %a, %a : tensor<2xf8E5M2>
  %0 = stablehlo.convert %m : (tensor<2xf8E5M2>) -> tensor<2xf8E4M3FN>
  %1 = stablehlo.convert %0 : (tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FNUZ>
  %2 = stablehlo.convert %1 : (tensor<2xf8E4M3FNUZ>) -> tensor<2xf8E5M2FNUZ>
  %3 = stablehlo.convert %2 : (tensor<2xf8E5M2FNUZ>) -> tensor<2xf8E4M3B11FNUZ>
  %4 = stablehlo.convert %3 : (tensor<2xf8E4M3B11FNUZ>) -> tensor<2xf8E3M4>
  %5 = stablehlo.convert %4 : (tensor<2xf8E3M4>) -> tensor<2xf8E4M3>
  %6 = stablehlo.convert %5 : (tensor<2xf8E4M3>) -> tensor<2xf8E8M0FNU>
  %7 = stablehlo.convert %6 : (tensor<2xf8E8M0FNU>) -> tensor<2xf6E2M3FN>
  %8 = stablehlo.convert %7 : (tensor<2xf6E2M3FN>) -> tensor<2xf6E3M2FN>
  %9 = stablehlo.convert %8 : (tensor<2xf6E3M2FN>) -> tensor<2xf4E2M1FN>
  %10 = stablehlo.convert %9 : (tensor<2xf4E2M1FN>) -> tensor<2xf32>
  func.return %0, %m, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<2xf8E4M3FN>, tensor<2xf8E5M2>, tensor<2xf8E4M3FNUZ>, tensor<2xf8E5M2FNUZ>, tensor<2xf8E4M3B11FNUZ>, tensor<2xf8E3M4>, tensor<2xf8E4M3>, tensor<2xf8E8M0FNU>, tensor<2xf6E2M3FN>, tensor<2xf6E3M2FN>, tensor<2xf4E2M1FN>, tensor<2xf32>
}
