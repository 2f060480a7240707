// RUN: bcast-opt %s --split-input-file | filecheck %s
// Generic round trip: print generic, re-parse, print custom; same CHECK lines.
// RUN: bcast-opt %s --split-input-file --print-op-generic | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// bcast.sort VALUES by KEY, KEY2, ...: values permuted along dim by the keys'
// stable lexicographic order; per key, descending and total_order (floats:
// IEEE totalOrder) optional, kept as the positions of the keys they apply to.

// CHECK-LABEL: func.func @sort
func.func @sort(%x: tensor<4x3xf32>, %i: tensor<4x3xi32>, %b: tensor<5xi1>, %u: tensor<0x2xui8>) -> (tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xf32>, tensor<5xi1>, tensor<0x2xui8>) {
// CHECK-NEXT: %0 = bcast.sort %x by %x, dim = 1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// GENERIC: "bcast.sort"(%x, %x) <{dimension = 1 : i64}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %0 = bcast.sort %x by %x, dim = 1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %1 = bcast.sort %i by %x descending, dim = 0 : (tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<4x3xi32>
// GENERIC: "bcast.sort"(%i, %x) <{dimension = 0 : i64, descending = array<i64: 0>}> : (tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<4x3xi32>
  %1 = bcast.sort %i by %x descending, dim = 0 : (tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<4x3xi32>
// CHECK-NEXT: %2 = bcast.sort %x by %i descending, dim = 1 : (tensor<4x3xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>
  %2 = bcast.sort %x by %i descending, dim = 1 : (tensor<4x3xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>
// CHECK-NEXT: %3 = bcast.sort %b by %b, dim = 0 : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
  %3 = bcast.sort %b by %b, dim = 0 : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
// CHECK-NEXT: %4 = bcast.sort %u by %u, dim = 0 : (tensor<0x2xui8>, tensor<0x2xui8>) -> tensor<0x2xui8>
  %4 = bcast.sort %u by %u, dim = 0 : (tensor<0x2xui8>, tensor<0x2xui8>) -> tensor<0x2xui8>
  func.return %0, %1, %2, %3, %4 : tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xf32>, tensor<5xi1>, tensor<0x2xui8>
}

// -----

// CHECK-LABEL: func.func @total_order
func.func @total_order(%x: tensor<6xf16>, %i: tensor<6xi64>) -> (tensor<6xf16>, tensor<6xi64>) {
// CHECK-NEXT: %0 = bcast.sort %x by %x total_order, dim = 0 : (tensor<6xf16>, tensor<6xf16>) -> tensor<6xf16>
// GENERIC: "bcast.sort"(%x, %x) <{dimension = 0 : i64, total_order = array<i64: 0>}> : (tensor<6xf16>, tensor<6xf16>) -> tensor<6xf16>
  %0 = bcast.sort %x by %x total_order, dim = 0 : (tensor<6xf16>, tensor<6xf16>) -> tensor<6xf16>
// CHECK-NEXT: %1 = bcast.sort %i by %x descending total_order, dim = 0 : (tensor<6xi64>, tensor<6xf16>) -> tensor<6xi64>
// GENERIC: "bcast.sort"(%i, %x) <{dimension = 0 : i64, descending = array<i64: 0>, total_order = array<i64: 0>}> : (tensor<6xi64>, tensor<6xf16>) -> tensor<6xi64>
  %1 = bcast.sort %i by %x descending total_order, dim = 0 : (tensor<6xi64>, tensor<6xf16>) -> tensor<6xi64>
  func.return %0, %1 : tensor<6xf16>, tensor<6xi64>
}

// -----

// Several keys (jax.lax.sort with num_keys > 1, jnp.lexsort): the first
// decides, the next break its ties; each key has its own flags.

// CHECK-LABEL: func.func @keys
func.func @keys(%x: tensor<4x3xf32>, %i: tensor<4x3xi32>, %b: tensor<4x3xi1>) -> (tensor<4x3xi32>, tensor<4x3xf32>) {
// CHECK-NEXT: %0 = bcast.sort %i by %x, %i, dim = 1 : (tensor<4x3xi32>, tensor<4x3xf32>, tensor<4x3xi32>) -> tensor<4x3xi32>
// GENERIC: "bcast.sort"(%i, %x, %i) <{dimension = 1 : i64}> : (tensor<4x3xi32>, tensor<4x3xf32>, tensor<4x3xi32>) -> tensor<4x3xi32>
  %0 = bcast.sort %i by %x, %i, dim = 1 : (tensor<4x3xi32>, tensor<4x3xf32>, tensor<4x3xi32>) -> tensor<4x3xi32>
// CHECK-NEXT: %1 = bcast.sort %x by %b descending, %i, %x descending total_order, dim = 0 : (tensor<4x3xf32>, tensor<4x3xi1>, tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// GENERIC: "bcast.sort"(%x, %b, %i, %x) <{dimension = 0 : i64, descending = array<i64: 0, 2>, total_order = array<i64: 2>}> : (tensor<4x3xf32>, tensor<4x3xi1>, tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = bcast.sort %x by %b descending, %i, %x descending total_order, dim = 0 : (tensor<4x3xf32>, tensor<4x3xi1>, tensor<4x3xi32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0, %1 : tensor<4x3xi32>, tensor<4x3xf32>
}

// -----

// ? dims anywhere, the sorted dim included; a key may be more static than
// the values (their run-time shapes are checked equal).

// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x3xf32>, %i: tensor<4x?xi32>) -> (tensor<?x3xf32>, tensor<4x?xi32>) {
// CHECK-NEXT: %0 = bcast.sort %x by %x, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %0 = bcast.sort %x by %x, dim = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: %1 = bcast.sort %i by %i descending, %x, dim = 1 : (tensor<4x?xi32>, tensor<4x?xi32>, tensor<?x3xf32>) -> tensor<4x?xi32>
  %1 = bcast.sort %i by %i descending, %x, dim = 1 : (tensor<4x?xi32>, tensor<4x?xi32>, tensor<?x3xf32>) -> tensor<4x?xi32>
  func.return %0, %1 : tensor<?x3xf32>, tensor<4x?xi32>
}
