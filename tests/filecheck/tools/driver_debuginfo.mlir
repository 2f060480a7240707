// --print-debuginfo prints each op's location: here the file positions the
// parser records (the line and column of the op in this file; with
// --split-input-file, still lines of this file). Without it, no locations.
// RUN: bcast-opt %s --split-input-file --print-debuginfo | filecheck %s
// RUN: bcast-opt %s --split-input-file | filecheck %s --check-prefix=PLAIN

// CHECK:      func.func @first(%x: tensor<3xf32>{{.*}}) -> tensor<3xf32> {
// CHECK-NEXT:   %0 = bcast.negate %x : tensor<3xf32> loc("{{.*}}driver_debuginfo.mlir":[[# @LINE + 4]]:{{[0-9]+}})
// CHECK-NEXT:   func.return %0 : tensor<3xf32> loc("{{.*}}driver_debuginfo.mlir":[[# @LINE + 4]]:3)
// CHECK-NEXT: } loc("{{.*}}driver_debuginfo.mlir":[[# @LINE + 1]]:1)
func.func @first(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.negate %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// -----
// CHECK:      // -----
// CHECK:      func.func @second
// CHECK-NEXT:   func.return %x : tensor<3xf32> loc("{{.*}}driver_debuginfo.mlir":[[# @LINE + 2]]:3)
func.func @second(%x: tensor<3xf32>) -> tensor<3xf32> {
  func.return %x : tensor<3xf32>
}
// PLAIN-NOT: loc(
// PLAIN:     func.func @second
