// Chunks bcast refuses or the runner skips (tests/benchmarks/test_stablehlo_interpret.py).

func.func @unsupported_op() {
  %a = stablehlo.constant dense<[[4.0, 2.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %l, dense<[[2.0, 0.0], [1.0, 1.41421354]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @unsupported_type() {
  %a = stablehlo.constant dense<[1, -1]> : tensor<2xi2>
  %n = stablehlo.negate %a : tensor<2xi2>
  check.expect_eq_const %n, dense<[-1, 1]> : tensor<2xi2>
  func.return
}

// -----

func.func @skipped_nothing_checked() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  func.return
}

// -----

func.func @helper(%x: tensor<ui8>) -> tensor<ui8> {
  %one = stablehlo.constant dense<1> : tensor<ui8>
  %s = stablehlo.shift_left %x, %one : tensor<ui8>
  func.return %s : tensor<ui8>
}

func.func @main() {
  %a = stablehlo.constant dense<200> : tensor<ui8>
  %s = func.call @helper(%a) : (tensor<ui8>) -> tensor<ui8>
  check.expect_eq_const %s, dense<144> : tensor<ui8>
  func.return
}
