// RUN: bcast-opt %s | filecheck %s
// RUN: bcast-opt %s | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every StableHLO and CHLO op bcast reads, in JAX's pretty syntax, printed
// back exactly (MLIR's syntax, so jaxlib reads what bcast prints), and the
// same after a generic round trip.

func.func public @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xf32>) {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  %1 = stablehlo.subtract %0, %b : tensor<4xf32>
  %2 = stablehlo.multiply %1, %b : tensor<4xf32>
  %3 = stablehlo.divide %2, %b : tensor<4xf32>
  %4 = stablehlo.remainder %3, %b : tensor<4xf32>
  %5 = stablehlo.power %4, %b : tensor<4xf32>
  %6 = stablehlo.maximum %5, %b : tensor<4xf32>
  %7 = stablehlo.minimum %6, %b : tensor<4xf32>
  %8 = stablehlo.atan2 %7, %b : tensor<4xf32>
  %9 = stablehlo.and %i, %j : tensor<4xi32>
  %10 = stablehlo.or %9, %j : tensor<4xi32>
  %11 = stablehlo.xor %10, %j : tensor<4xi32>
  %12 = stablehlo.shift_left %11, %j : tensor<4xi32>
  %13 = stablehlo.shift_right_arithmetic %12, %j : tensor<4xi32>
  %14 = stablehlo.shift_right_logical %13, %j : tensor<4xi32>
  %15 = stablehlo.negate %8 : tensor<4xf32>
  %16 = stablehlo.abs %15 : tensor<4xf32>
  %17 = stablehlo.sign %16 : tensor<4xf32>
  %18 = stablehlo.exponential %17 : tensor<4xf32>
  %19 = stablehlo.log %18 : tensor<4xf32>
  %20 = stablehlo.sqrt %19 : tensor<4xf32>
  %21 = stablehlo.rsqrt %20 : tensor<4xf32>
  %22 = stablehlo.tanh %21 : tensor<4xf32>
  %23 = stablehlo.logistic %22 : tensor<4xf32>
  %24 = stablehlo.floor %23 : tensor<4xf32>
  %25 = stablehlo.ceil %24 : tensor<4xf32>
  %26 = stablehlo.not %p : tensor<4xi1>
  %27 = stablehlo.is_finite %25 : (tensor<4xf32>) -> tensor<4xi1>
  %28 = stablehlo.add %26, %27 : tensor<4xi1>
  %29 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %30 = stablehlo.sine %29 : tensor<4xf32>
  %31 = stablehlo.cosine %30 : tensor<4xf32>
  return %31 : tensor<4xf32>
}

func.func public @structural(%x: tensor<3xf32>, %m: tensor<2x3xf32>, %k: tensor<3xi32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %3 = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = stablehlo.reshape %3 : (tensor<3x2xf32>) -> tensor<6xf32>
  %5 = stablehlo.convert %k : (tensor<3xi32>) -> tensor<3xf32>
  %6 = stablehlo.convert %x : tensor<3xf32>
  %7 = stablehlo.compare GT, %1, %2, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %8 = stablehlo.compare EQ, %k, %c, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %9 = stablehlo.compare LT, %x, %6 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %10 = stablehlo.select %7, %1, %2 : tensor<2x3xi1>, tensor<2x3xf32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %11 = stablehlo.select %t, %1, %10 : tensor<i1>, tensor<2x3xf32>
  %12 = stablehlo.bitcast_convert %k : (tensor<3xi32>) -> tensor<3xui32>
  %13 = stablehlo.bitcast_convert %k : (tensor<3xi32>) -> tensor<3x4xi8>
  %14 = stablehlo.bitcast_convert %13 : (tensor<3x4xi8>) -> tensor<3xf32>
  return %11 : tensor<2x3xf32>
}

func.func public @reductions(%x: tensor<8x16xf32>, %i: tensor<5x6xi32>) -> (tensor<8xf32>, tensor<16xf32>, tensor<6xi32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.reduce(%x init: %cst) across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    %s = stablehlo.multiply %a, %b : tensor<f32>
    %t = stablehlo.add %s, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }
  %c = stablehlo.constant dense<-2147483648> : tensor<i32>
  %2 = stablehlo.reduce(%i init: %c) applies stablehlo.maximum across dimensions = [0] : (tensor<5x6xi32>, tensor<i32>) -> tensor<6xi32>
  return %0, %1, %2 : tensor<8xf32>, tensor<16xf32>, tensor<6xi32>
}

func.func public @chlo(%x: tensor<3xf32>, %m: tensor<2x3xf32>, %v: tensor<2xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %x, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_multiply %v, %0 {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_compare %1, %x {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %3 = chlo.broadcast_compare %1, %m {compare_type = #chlo<comparison_type FLOAT>, comparison_direction = #chlo<comparison_direction LE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %4 = chlo.square %1 : tensor<2x3xf32> -> tensor<2x3xf32>
  %5 = chlo.broadcast_subtract %4, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = chlo.broadcast_maximum %5, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %7 = chlo.broadcast_divide %6, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %7 : tensor<2x3xf32>
}

func.func public @generic(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  "func.return"(%0) : (tensor<4xi1>) -> ()
}

// CHECK-LABEL: func.func public @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>, %p: tensor<4xi1>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = stablehlo.add %a, %b : tensor<4xf32>
//  CHECK-NEXT:   %1 = stablehlo.subtract %0, %b : tensor<4xf32>
//  CHECK-NEXT:   %2 = stablehlo.multiply %1, %b : tensor<4xf32>
//  CHECK-NEXT:   %3 = stablehlo.divide %2, %b : tensor<4xf32>
//  CHECK-NEXT:   %4 = stablehlo.remainder %3, %b : tensor<4xf32>
//  CHECK-NEXT:   %5 = stablehlo.power %4, %b : tensor<4xf32>
//  CHECK-NEXT:   %6 = stablehlo.maximum %5, %b : tensor<4xf32>
//  CHECK-NEXT:   %7 = stablehlo.minimum %6, %b : tensor<4xf32>
//  CHECK-NEXT:   %8 = stablehlo.atan2 %7, %b : tensor<4xf32>
//  CHECK-NEXT:   %9 = stablehlo.and %i, %j : tensor<4xi32>
//  CHECK-NEXT:   %10 = stablehlo.or %9, %j : tensor<4xi32>
//  CHECK-NEXT:   %11 = stablehlo.xor %10, %j : tensor<4xi32>
//  CHECK-NEXT:   %12 = stablehlo.shift_left %11, %j : tensor<4xi32>
//  CHECK-NEXT:   %13 = stablehlo.shift_right_arithmetic %12, %j : tensor<4xi32>
//  CHECK-NEXT:   %14 = stablehlo.shift_right_logical %13, %j : tensor<4xi32>
//  CHECK-NEXT:   %15 = stablehlo.negate %8 : tensor<4xf32>
//  CHECK-NEXT:   %16 = stablehlo.abs %15 : tensor<4xf32>
//  CHECK-NEXT:   %17 = stablehlo.sign %16 : tensor<4xf32>
//  CHECK-NEXT:   %18 = stablehlo.exponential %17 : tensor<4xf32>
//  CHECK-NEXT:   %19 = stablehlo.log %18 : tensor<4xf32>
//  CHECK-NEXT:   %20 = stablehlo.sqrt %19 : tensor<4xf32>
//  CHECK-NEXT:   %21 = stablehlo.rsqrt %20 : tensor<4xf32>
//  CHECK-NEXT:   %22 = stablehlo.tanh %21 : tensor<4xf32>
//  CHECK-NEXT:   %23 = stablehlo.logistic %22 : tensor<4xf32>
//  CHECK-NEXT:   %24 = stablehlo.floor %23 : tensor<4xf32>
//  CHECK-NEXT:   %25 = stablehlo.ceil %24 : tensor<4xf32>
//  CHECK-NEXT:   %26 = stablehlo.not %p : tensor<4xi1>
//  CHECK-NEXT:   %27 = stablehlo.is_finite %25 : (tensor<4xf32>) -> tensor<4xi1>
//  CHECK-NEXT:   %28 = stablehlo.add %26, %27 : tensor<4xi1>
//  CHECK-NEXT:   %29 = stablehlo.add %a, %b : tensor<4xf32>
//  CHECK-NEXT:   %30 = stablehlo.sine %29 : tensor<4xf32>
//  CHECK-NEXT:   %31 = stablehlo.cosine %30 : tensor<4xf32>
//  CHECK-NEXT:   func.return %31 : tensor<4xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @structural(%x: tensor<3xf32>, %m: tensor<2x3xf32>, %k: tensor<3xi32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
//  CHECK-NEXT:   %cst = stablehlo.constant dense<0xff800000> : tensor<f32>
//  CHECK-NEXT:   %c = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
//  CHECK-NEXT:   %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
//  CHECK-NEXT:   %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %3 = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
//  CHECK-NEXT:   %4 = stablehlo.reshape %3 : (tensor<3x2xf32>) -> tensor<6xf32>
//  CHECK-NEXT:   %5 = stablehlo.convert %k : (tensor<3xi32>) -> tensor<3xf32>
//  CHECK-NEXT:   %6 = stablehlo.convert %x : tensor<3xf32>
//  CHECK-NEXT:   %7 = stablehlo.compare GT, %1, %2, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
//  CHECK-NEXT:   %8 = stablehlo.compare EQ, %k, %c, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
//  CHECK-NEXT:   %9 = stablehlo.compare LT, %x, %6 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
//  CHECK-NEXT:   %10 = stablehlo.select %7, %1, %2 : tensor<2x3xi1>, tensor<2x3xf32>
//  CHECK-NEXT:   %t = stablehlo.constant dense<true> : tensor<i1>
//  CHECK-NEXT:   %11 = stablehlo.select %t, %1, %10 : tensor<i1>, tensor<2x3xf32>
//  CHECK-NEXT:   %12 = stablehlo.bitcast_convert %k : (tensor<3xi32>) -> tensor<3xui32>
//  CHECK-NEXT:   %13 = stablehlo.bitcast_convert %k : (tensor<3xi32>) -> tensor<3x4xi8>
//  CHECK-NEXT:   %14 = stablehlo.bitcast_convert %13 : (tensor<3x4xi8>) -> tensor<3xf32>
//  CHECK-NEXT:   func.return %11 : tensor<2x3xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @reductions(%x: tensor<8x16xf32>, %i: tensor<5x6xi32>) -> (tensor<8xf32>, tensor<16xf32>, tensor<6xi32>) {
//  CHECK-NEXT:   %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//  CHECK-NEXT:   %0 = stablehlo.reduce(%x init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
//  CHECK-NEXT:   %1 = stablehlo.reduce(%x init: %cst) across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
//  CHECK-NEXT:    reducer(%a: tensor<f32>, %b: tensor<f32>) {
//  CHECK-NEXT:     %s = stablehlo.multiply %a, %b : tensor<f32>
//  CHECK-NEXT:     %t = stablehlo.add %s, %b : tensor<f32>
//  CHECK-NEXT:     stablehlo.return %t : tensor<f32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %c = stablehlo.constant dense<-2147483648> : tensor<i32>
//  CHECK-NEXT:   %2 = stablehlo.reduce(%i init: %c) applies stablehlo.maximum across dimensions = [0] : (tensor<5x6xi32>, tensor<i32>) -> tensor<6xi32>
//  CHECK-NEXT:   func.return %0, %1, %2 : tensor<8xf32>, tensor<16xf32>, tensor<6xi32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @chlo(%x: tensor<3xf32>, %m: tensor<2x3xf32>, %v: tensor<2xf32>) -> tensor<2x3xf32> {
//  CHECK-NEXT:   %0 = chlo.broadcast_add %x, %m : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %1 = chlo.broadcast_multiply %v, %0 {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = chlo.broadcast_compare %1, %x {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
//  CHECK-NEXT:   %3 = chlo.broadcast_compare %1, %m {compare_type = #chlo<comparison_type FLOAT>, comparison_direction = #chlo<comparison_direction LE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
//  CHECK-NEXT:   %4 = chlo.square %1 : tensor<2x3xf32> -> tensor<2x3xf32>
//  CHECK-NEXT:   %5 = chlo.broadcast_subtract %4, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %6 = chlo.broadcast_maximum %5, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %7 = chlo.broadcast_divide %6, %x : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   func.return %7 : tensor<2x3xf32>
//  CHECK-NEXT: }
// CHECK-LABEL: func.func public @generic(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
//  CHECK-NEXT:   %0 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
//  CHECK-NEXT:   func.return %0 : tensor<4xi1>
//  CHECK-NEXT: }

// The generic form spells attributes as MLIR does (jaxlib parses it).
// GENERIC: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<1x3xf32>
// GENERIC: "stablehlo.compare"(%{{.*}}, %{{.*}}) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// GENERIC: "stablehlo.bitcast_convert"(%k) : (tensor<3xi32>) -> tensor<3xui32>
// GENERIC: "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 1>}> ({
// GENERIC: "chlo.broadcast_multiply"(%{{.*}}, %{{.*}}) <{broadcast_dimensions = array<i64: 0>}>
// GENERIC: "chlo.broadcast_compare"(%{{.*}}, %{{.*}}) <{comparison_direction = #chlo<comparison_direction GT>}>

// Slices and the optimization barrier, as jaxlib prints them: a stride of 1
// is left out, attributes follow the slice ranges or sizes (and precede the
// barrier's operands), and the barrier's result types are its operands'.
// (xDSL names several results %9, %10 where MLIR writes %9:2; both read.)
// CHECK-LABEL: func.func @slices(%x: tensor<4x8xf32>, %i: tensor<i64>, %j: tensor<i32>, %s: tensor<f32>) -> (tensor<2x4xf32>, tensor<4x8xf32>, tensor<i64>) {
//  CHECK-NEXT:   %0 = stablehlo.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   %1 = stablehlo.slice %x [0:4, 7:8] {bcast.note = "kept"} : (tensor<4x8xf32>) -> tensor<4x1xf32>
//  CHECK-NEXT:   %2 = stablehlo.slice %s [] : (tensor<f32>) -> tensor<f32>
//  CHECK-NEXT:   %3 = stablehlo.dynamic_slice %x, %j, %j, sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
//  CHECK-NEXT:   %4 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 8] {bcast.note = "kept"} : (tensor<4x8xf32>, tensor<i64>, tensor<i64>) -> tensor<1x8xf32>
//  CHECK-NEXT:   %5 = stablehlo.dynamic_slice %s, sizes = [] : (tensor<f32>) -> tensor<f32>
//  CHECK-NEXT:   %6 = stablehlo.dynamic_update_slice %x, %3, %j, %j : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
//  CHECK-NEXT:   %7 = stablehlo.dynamic_update_slice %s, %5 {bcast.note = "kept"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
//  CHECK-NEXT:   %8 = stablehlo.optimization_barrier %6 : tensor<4x8xf32>
//  CHECK-NEXT:   %9, %10 = stablehlo.optimization_barrier %0, %i : tensor<2x4xf32>, tensor<i64>
//  CHECK-NEXT:   %11 = stablehlo.optimization_barrier {bcast.note = "kept"} %7 : tensor<f32>
//  CHECK-NEXT:   stablehlo.optimization_barrier()
//  CHECK-NEXT:   func.return %9, %8, %10 : tensor<2x4xf32>, tensor<4x8xf32>, tensor<i64>
//  CHECK-NEXT: }
func.func @slices(%x: tensor<4x8xf32>, %i: tensor<i64>, %j: tensor<i32>, %s: tensor<f32>) -> (tensor<2x4xf32>, tensor<4x8xf32>, tensor<i64>) {
  %0 = stablehlo.slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.slice %x [0:4:1, 7:8] {bcast.note = "kept"} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %2 = stablehlo.slice %s [] : (tensor<f32>) -> tensor<f32>
  %3 = stablehlo.dynamic_slice %x, %j, %j, sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
  %4 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 8] {bcast.note = "kept"} : (tensor<4x8xf32>, tensor<i64>, tensor<i64>) -> tensor<1x8xf32>
  %5 = stablehlo.dynamic_slice %s, sizes = [] : (tensor<f32>) -> tensor<f32>
  %6 = stablehlo.dynamic_update_slice %x, %3, %j, %j : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %7 = stablehlo.dynamic_update_slice %s, %5 {bcast.note = "kept"} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %8 = stablehlo.optimization_barrier %6 : tensor<4x8xf32>
  %9:2 = stablehlo.optimization_barrier %0, %i : tensor<2x4xf32>, tensor<i64>
  %10 = stablehlo.optimization_barrier {bcast.note = "kept"} %7 : tensor<f32>
  stablehlo.optimization_barrier ()
  return %9#0, %8, %9#1 : tensor<2x4xf32>, tensor<4x8xf32>, tensor<i64>
}

// The generic form reads too, with the attributes as properties or (as
// older printers wrote them) in the attribute dictionary.
// CHECK-LABEL: func.func @slices_generic
//  CHECK-NEXT:   %0 = stablehlo.slice %x [1:3, 0:3:2] : (tensor<4x3xf32>) -> tensor<2x2xf32>
//  CHECK-NEXT:   %1 = stablehlo.slice %x [1:3, 0:3] : (tensor<4x3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
//  CHECK-NEXT:   %3 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 1] : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<2x1xf32>
//  CHECK-NEXT:   %4 = stablehlo.dynamic_update_slice %x, %2, %i, %i : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
//  CHECK-NEXT:   %5, %6 = stablehlo.optimization_barrier %4, %i : tensor<4x3xf32>, tensor<i64>
func.func @slices_generic(%x: tensor<4x3xf32>, %i: tensor<i64>) -> (tensor<2x2xf32>, tensor<4x3xf32>) {
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 3>, strides = array<i64: 1, 2>}> : (tensor<4x3xf32>) -> tensor<2x2xf32>
  %1 = "stablehlo.slice"(%x) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<2x3xf32>
  %2 = "stablehlo.dynamic_slice"(%x, %i, %i) <{slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
  %3 = "stablehlo.dynamic_slice"(%x, %i, %i) {slice_sizes = array<i64: 2, 1>} : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<2x1xf32>
  %4 = "stablehlo.dynamic_update_slice"(%x, %2, %i, %i) : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
  %5:2 = "stablehlo.optimization_barrier"(%4, %i) : (tensor<4x3xf32>, tensor<i64>) -> (tensor<4x3xf32>, tensor<i64>)
  return %0, %5#0 : tensor<2x2xf32>, tensor<4x3xf32>
}

// GENERIC: "stablehlo.slice"(%{{.*}}) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 3, 8>, strides = array<i64: 1, 2>}> : (tensor<4x8xf32>) -> tensor<2x4xf32>
// GENERIC: "stablehlo.dynamic_slice"(%{{.*}}, %{{.*}}, %{{.*}}) <{slice_sizes = array<i64: 2, 2>}> : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
// GENERIC: "stablehlo.dynamic_update_slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// GENERIC: "stablehlo.optimization_barrier"(%{{.*}}, %{{.*}}) : (tensor<2x4xf32>, tensor<i64>) -> (tensor<2x4xf32>, tensor<i64>)

// clamp as JAX prints it: `: T` when all types agree, else a functional
// type (rank-0 bounds); chlo.broadcast_select with its functional type.
// CHECK-LABEL: func.func @clamp_select(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<4xf32>, %p: tensor<2x1xi1>) -> (tensor<4xf32>, tensor<2x4xf32>) {
//  CHECK-NEXT:   %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %1 = stablehlo.clamp %hi, %0, %x : tensor<4xf32>
//  CHECK-NEXT:   %2 = chlo.broadcast_select %p, %1, %lo : (tensor<2x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<2x4xf32>
//  CHECK-NEXT:   func.return %1, %2 : tensor<4xf32>, tensor<2x4xf32>
func.func @clamp_select(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<4xf32>, %p: tensor<2x1xi1>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.clamp"(%hi, %0, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = chlo.broadcast_select %p, %1, %lo : (tensor<2x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %1, %2 : tensor<4xf32>, tensor<2x4xf32>
}
// GENERIC: "stablehlo.clamp"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// GENERIC: "chlo.broadcast_select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x1xi1>, tensor<4xf32>, tensor<f32>) -> tensor<2x4xf32>

// abs of a complex tensor is its modulus, a real tensor (jnp.abs of a
// complex array exports so); bcast runs no complex values but keeps it.
// CHECK-LABEL: func.func @complex_abs(%x: tensor<2xf32>) -> tensor<2xf32> {
//  CHECK-NEXT:   %c = stablehlo.constant dense<[(3.000000e+00,4.000000e+00), (0.000000e+00,-2.000000e+00)]> : tensor<2xcomplex<f32>>
//  CHECK-NEXT:   %0 = stablehlo.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
//  CHECK-NEXT:   %1 = stablehlo.abs %x : tensor<2xf32>
func.func @complex_abs(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<[(3.0, 4.0), (0.0, -2.0)]> : tensor<2xcomplex<f32>>
  %0 = stablehlo.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %1 = stablehlo.abs %x : tensor<2xf32>
  %2 = stablehlo.add %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
// GENERIC: "stablehlo.abs"(%c) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
