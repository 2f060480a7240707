// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast{strict=true} --verify-diagnostics

// A triangular_solve bcast cannot run: an element type bcast lacks (complex<f16>).

func.func @complex_f16_is_refused_by_the_import(%arg0: tensor<2x2xcomplex<f16>>, %arg1: tensor<2x1xcomplex<f16>>) -> tensor<2x1xcomplex<f16>> {
  // expected-error @+1 {{'stablehlo.triangular_solve' op cannot be imported: unsupported element type complex<f16>}}
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false} : (tensor<2x2xcomplex<f16>>, tensor<2x1xcomplex<f16>>) -> tensor<2x1xcomplex<f16>>
  // expected-note @-1 {{bcast supports i1, i4, i8..i64, ui4, ui8..ui64, f16, f32, f64, bf16, complex<f32> and complex<f64>}}
  return %0 : tensor<2x1xcomplex<f16>>
}
