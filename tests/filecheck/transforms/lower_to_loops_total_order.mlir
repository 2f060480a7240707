// RUN: bcast-opt %s -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: compare TOTALORDER is its definition in
// bcast.ir.scalar: each float's bits (arith.bitcast) as a signed integer,
// the bits below the sign flipped where the sign is set (xori INT_MAX), then
// a signed integer compare; no float compare remains.

// CHECK-LABEL: func.func @main
// CHECK-DAG:    %[[ZERO:.*]] = arith.constant 0 : i16
// CHECK-DAG:    %[[LOW:.*]] = arith.constant 32767 : i16
// CHECK:          %[[A:.*]] = memref.load %a[%{{.*}}] : memref<8xf16>
// CHECK-NEXT:     %[[B:.*]] = memref.load %b[%{{.*}}] : memref<8xf16>
// CHECK-NEXT:     %[[ABITS:.*]] = arith.bitcast %[[A]] : f16 to i16
// CHECK-NEXT:     %[[ANEG:.*]] = arith.cmpi slt, %[[ABITS]], %[[ZERO]] : i16
// CHECK-NEXT:     %[[AFLIP:.*]] = arith.xori %[[ABITS]], %[[LOW]] : i16
// CHECK-NEXT:     %[[AKEY:.*]] = arith.select %[[ANEG]], %[[AFLIP]], %[[ABITS]] : i16
// CHECK-NEXT:     %[[BBITS:.*]] = arith.bitcast %[[B]] : f16 to i16
// CHECK-NEXT:     %[[BNEG:.*]] = arith.cmpi slt, %[[BBITS]], %[[ZERO]] : i16
// CHECK-NEXT:     %[[BFLIP:.*]] = arith.xori %[[BBITS]], %[[LOW]] : i16
// CHECK-NEXT:     %[[BKEY:.*]] = arith.select %[[BNEG]], %[[BFLIP]], %[[BBITS]] : i16
// CHECK-NEXT:     %[[LE:.*]] = arith.cmpi sle, %[[AKEY]], %[[BKEY]] : i16
// CHECK-NEXT:     memref.store %[[LE]], %result0[%{{.*}}] : memref<8xi1>
// CHECK-NOT:    arith.cmpf
func.func @main(%a: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<8xi1> {
  %0 = bcast.compare LE, %a, %b, TOTALORDER : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xi1>
  func.return %0 : tensor<8xi1>
}
