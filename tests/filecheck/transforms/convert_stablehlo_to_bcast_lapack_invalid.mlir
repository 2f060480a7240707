// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast{strict=true} --verify-diagnostics

// LAPACK factorizations bcast cannot read: complex elements (c/z routines),
// a potrf without uplo, a call with other results than JAX's.

func.func @complex(%arg0: tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.custom_call' op is LAPACK's getrf on complex numbers, which bcast has no type for}}
  %0:3 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, call_target_name = "lapack_cgetrf_ffi", mhlo.backend_config = {}} : (tensor<2x2xcomplex<f32>>) -> (tensor<2x2xcomplex<f32>>, tensor<2xi32>, tensor<i32>)
  return %0#0 : tensor<2x2xcomplex<f32>>
}

// -----

func.func @no_uplo(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op is a LAPACK potrf call bcast does not read}}
  %0:2 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, call_target_name = "lapack_spotrf_ffi", mhlo.backend_config = {}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
  // expected-note @-1 {{one operand and 2 results, and uplo (76 or 85) in mhlo.backend_config}}
  return %0#0 : tensor<2x2xf32>
}

// -----

func.func @results(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op is a LAPACK getrf call bcast does not read}}
  %0:2 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, call_target_name = "lapack_sgetrf_ffi", mhlo.backend_config = {}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>)
  // expected-note @-1 {{one operand and 3 results}}
  return %0#0 : tensor<2x2xf32>
}

// -----

func.func @pivot_type(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'bcast.lu' op inferred type(s) 'tensor<2x2xf32>, tensor<2xi32>, tensor<i32>' are incompatible with return type(s) of operation 'tensor<2x2xf32>, tensor<2xi64>, tensor<i32>'}}
  %0:3 = "stablehlo.custom_call"(%arg0) {api_version = 1 : i32, call_target_name = "lapack_sgetrf_ffi", mhlo.backend_config = {}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi64>, tensor<i32>)
  return %0#0 : tensor<2x2xf32>
}
