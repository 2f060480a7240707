// Ops (in generic form), attributes and types of dialects bcast does not
// know parse, verify, go through passes and print back unchanged, with or
// without --allow-unregistered-dialect (mlir-opt's flag, accepted: bcast's
// world is open); a backend that must run them refuses them.
// RUN: bcast-opt %s -p canonicalize,cse | filecheck %s
// RUN: bcast-opt %s | bcast-opt - | filecheck %s
// RUN: bcast-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: not bcast-opt %s -t numpy 2>&1 | filecheck %s --check-prefix=REJECT

// CHECK:      func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:   %0 = "foo.bar"(%x) {foo.attr = #foo.attr<"x">} : (tensor<3xf32>) -> !foo.type
// CHECK-NEXT:   "foo.region"() ({
// CHECK-NEXT:     "foo.yield"(%0) : (!foo.type) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT:   %1 = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:   func.return %1 : tensor<3xf32>
// REJECT:     driver_unregistered.mlir:[[# @LINE + 2]]:8: error: 'foo.bar' op is not supported by the numpy target
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "foo.bar"(%x) {foo.attr = #foo.attr<"x">} : (tensor<3xf32>) -> !foo.type
  "foo.region"() ({
    "foo.yield"(%0) : (!foo.type) -> ()
  }) : () -> ()
  %1 = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}
