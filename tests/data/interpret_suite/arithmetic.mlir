// A small suite in the format of StableHLO's interpreter tests, for
// tests/benchmarks/test_stablehlo_interpret.py: each chunk's outcome is
// named in its function's name.

func.func @passes_subtract() {
  %a = stablehlo.constant dense<[7, -3, 100]> : tensor<3xi16>
  %b = stablehlo.constant dense<[2, 4, -28]> : tensor<3xi16>
  %d = stablehlo.subtract %a, %b : tensor<3xi16>
  check.expect_eq_const %d, dense<[5, -7, 128]> : tensor<3xi16>
  func.return
}

// -----

func.func @fails_wrong_product() {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %p = stablehlo.multiply %a, %a : tensor<2xf32>
  check.expect_eq_const %p, dense<[2.25, 4.5]> : tensor<2xf32>
  func.return
}

// -----

func.func @passes_within_tolerance() {
  %a = stablehlo.constant dense<[0.0, 1.0, 0x7FF8000000000000, 0xFFF0000000000000]> : tensor<4xf64>
  %e = stablehlo.exponential %a : tensor<4xf64>
  check.expect_almost_eq_const %e, dense<[1.0, 2.71828,
                                          0x7FF8000000000000, 0.0]> : tensor<4xf64>
  check.expect_almost_eq_const %e, dense<[1.0, 2.7, 0x7FF8000000000000, 0.0]> : tensor<4xf64> {tolerance = 0.02 : f64}
  func.return
}

// -----

func.func @fails_beyond_tolerance() {
  %a = stablehlo.constant dense<2.0> : tensor<2xf32>
  %r = stablehlo.sqrt %a : tensor<2xf32>
  check.expect_almost_eq_const %r, dense<1.4145> : tensor<2xf32>
  func.return
}

// -----

func.func @passes_two_values_and_ulps() {
  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %n = stablehlo.not %a : tensor<2xi1>
  %m = stablehlo.not %n : tensor<2xi1>
  check.expect_eq %m, %a : tensor<2xi1>
  %x = stablehlo.constant dense<0.1> : tensor<f32>
  %y = stablehlo.constant dense<0.100000009> : tensor<f32>
  check.expect_close %x, %y, max_ulp_difference = 1 : tensor<f32>, tensor<f32>
  func.return
}
