// RUN: bcast-opt %s --split-input-file --verify-diagnostics

// TOTALORDER orders floats by their bits: integer and boolean operands are
// refused (as StableHLO refuses the compare type on them), located.

func.func @integers(%a: tensor<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'bcast.compare' op compare TOTALORDER needs float operands, got lhs element type i32}}
  %0 = bcast.compare LT, %a, %b, TOTALORDER : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // expected-note @-1 {{TOTALORDER orders floats by their bits; integers and booleans have one order}}
  func.return
}

// -----

func.func @booleans(%a: tensor<4xi1>) {
  // expected-error @+1 {{'bcast.compare' op compare TOTALORDER needs float operands, got lhs element type i1}}
  %0 = bcast.compare EQ, %a, %a, TOTALORDER : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // expected-note @-1 {{TOTALORDER orders floats by their bits; integers and booleans have one order}}
  func.return
}

// -----

// The only compare type bcast writes is TOTALORDER (FLOAT is the default).
func.func @spelling(%a: tensor<4xf32>) {
  // expected-error @+1 {{Expected 'TOTALORDER'}}
  %0 = bcast.compare LT, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}
