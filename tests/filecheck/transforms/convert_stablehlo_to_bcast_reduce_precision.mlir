// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,canonicalize,cse | filecheck %s
// RUN: bcast-opt %s --split-input-file -p convert-stablehlo-to-bcast,canonicalize,cse -t stablehlo | filecheck %s --check-prefix=BACK

// stablehlo.reduce_precision (jax.lax.reduce_precision) becomes integer ops
// on the float's bits (docs/stablehlo.md, "reduce_precision"): round to
// nearest even by a bias and a mask, then the exponent held to the format
// (above it: the signed infinity; at or below its smallest normal: the
// signed zero), a NaN kept. -t stablehlo writes those ops, which XLA runs
// to the same bits.

// f32 to IEEE half's format: 13 mantissa bits dropped (bias 0xFFF plus the
// lowest kept bit), exponents held to [-14, 15].
// CHECK-LABEL: func.func @half
// BACK-LABEL: func.func @half
func.func @half(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[BITS:.*]] = bcast.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK-NEXT: %[[C13:.*]] = bcast.constant dense<13> : tensor<4xi32>
  // CHECK-NEXT: %[[LOW:.*]] = bcast.shift_right_logical %[[BITS]], %[[C13]]
  // CHECK-NEXT: %[[ONE:.*]] = bcast.constant dense<1> : tensor<4xi32>
  // CHECK-NEXT: %[[KEPT:.*]] = bcast.and %[[LOW]], %[[ONE]]
  // CHECK-NEXT: %[[HALF:.*]] = bcast.constant dense<4095> : tensor<4xi32>
  // CHECK-NEXT: %[[BIAS:.*]] = bcast.add %[[KEPT]], %[[HALF]]
  // CHECK-NEXT: %[[SUM:.*]] = bcast.add %[[BITS]], %[[BIAS]]
  // CHECK-NEXT: %[[MASK:.*]] = bcast.constant dense<-8192> : tensor<4xi32>
  // CHECK-NEXT: %[[ROUNDED:.*]] = bcast.and %[[SUM]], %[[MASK]]
  // CHECK-NEXT: %[[EXPMASK:.*]] = bcast.constant dense<2139095040> : tensor<4xi32>
  // CHECK-NEXT: %[[EXP:.*]] = bcast.and %[[ROUNDED]], %[[EXPMASK]]
  // 2^15's exponent field (142 << 23): above it, infinity; 2^-15's (112 << 23):
  // at or below it, zero
  // CHECK-NEXT: %[[MAX:.*]] = bcast.constant dense<1191182336> : tensor<4xi32>
  // CHECK-NEXT: %[[OVER:.*]] = bcast.compare GT, %[[EXP]], %[[MAX]]
  // CHECK-NEXT: %[[MIN:.*]] = bcast.constant dense<939524096> : tensor<4xi32>
  // CHECK-NEXT: %[[UNDER:.*]] = bcast.compare LE, %[[EXP]], %[[MIN]]
  // CHECK-NEXT: %[[SIGNBIT:.*]] = bcast.constant dense<-2147483648> : tensor<4xi32>
  // CHECK-NEXT: %[[ZERO:.*]] = bcast.and %[[ROUNDED]], %[[SIGNBIT]]
  // CHECK-NEXT: %[[INF:.*]] = bcast.or %[[ZERO]], %[[EXPMASK]]
  // CHECK-NEXT: %[[A:.*]] = bcast.select %[[OVER]], %[[INF]], %[[ROUNDED]]
  // CHECK-NEXT: %[[B:.*]] = bcast.select %[[UNDER]], %[[ZERO]], %[[A]]
  // CHECK-NEXT: %[[Y:.*]] = bcast.bitcast_convert %[[B]] : (tensor<4xi32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[NAN:.*]] = bcast.compare NE, %x, %x
  // CHECK-NEXT: %[[R:.*]] = bcast.select %[[NAN]], %x, %[[Y]]
  // CHECK-NEXT: func.return %[[R]] : tensor<4xf32>
  // BACK-NEXT: stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
  // BACK: stablehlo.shift_right_logical
  // BACK: stablehlo.compare GT
  // BACK: stablehlo.compare LE
  // BACK: stablehlo.compare NE, %x, %x, FLOAT
  // BACK-NOT: reduce_precision
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// f16 to bfloat16's format: its exponent is wider than f16's, so only the
// rounding (3 bits dropped); no mantissa bit kept: a NaN becomes +inf.
// CHECK-LABEL: func.func @rounding_only
func.func @rounding_only(%x: tensor<3xf16>) -> (tensor<3xf16>, tensor<3xf16>) {
  // CHECK: bcast.constant dense<-8> : tensor<3xi16>
  // CHECK-NOT: bcast.compare GT
  // CHECK: bcast.compare NE, %x, %x
  %0 = stablehlo.reduce_precision %x, format = e8m7 : tensor<3xf16>
  // CHECK: %[[INF:.*]] = bcast.constant dense<0x7c00> : tensor<3xf16>
  // CHECK: bcast.select %{{.*}}, %[[INF]], %{{.*}} : (tensor<3xi1>, tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
  %1 = stablehlo.reduce_precision %x, format = e3m0 : tensor<3xf16>
  return %0, %1 : tensor<3xf16>, tensor<3xf16>
}

// -----

// The type's own format, or a wider one: the operand itself.
// CHECK-LABEL: func.func @own_format
func.func @own_format(%x: tensor<?xf32>, %y: tensor<2xf64>) -> (tensor<?xf32>, tensor<2xf64>) {
  // CHECK-NEXT: func.return %x, %y : tensor<?xf32>, tensor<2xf64>
  %0 = stablehlo.reduce_precision %x, format = e8m23 : tensor<?xf32>
  %1 = stablehlo.reduce_precision %y, format = e15m60 : tensor<2xf64>
  return %0, %1 : tensor<?xf32>, tensor<2xf64>
}

// -----

// A `?` dim: the constants are broadcast to the operand's run-time size.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK: bcast.dim %x, 0
  // CHECK: bcast.dynamic_broadcast_in_dim
  // CHECK: bcast.bitcast_convert %{{.*}} : (tensor<?x3xi32>) -> tensor<?x3xf32>
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Inside a map's body (applied to the whole inputs): the same ops, on the
// map's shape.
// CHECK-LABEL: func.func @in_map
func.func @in_map(%x: tensor<5xf32>) -> tensor<5xf32> {
  // CHECK-NEXT: bcast.bitcast_convert %x : (tensor<5xf32>) -> tensor<5xi32>
  // CHECK-NOT: stablehlo.map
  // CHECK: bcast.select %{{.*}}, %x, %{{.*}} : (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>):
    %1 = stablehlo.reduce_precision %a, format = e8m7 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
