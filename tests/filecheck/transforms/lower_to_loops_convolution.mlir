// RUN: bcast-opt %s --split-input-file -p bcast-fuse,bcast-lower-to-loops | filecheck %s

// bcast-lower-to-loops: a convolution is a fusion boundary, a parallel nest
// over its result summing input features and kernel places. An f32/f64
// convolution whose result is (batch, spatial..., feature), its operands in
// memory, no batch groups, one feature group or 16 outputs per group, is
// marked bcast.conv: its geometry (bcast.ir.loops.conv_geometry: spatial
// dims, features, outputs, groups, row length, the input's batch and
// feature strides, the kernel's in/out strides, then per spatial dim size,
// out, kernel, stride, rhs and lhs dilation, low padding, input and kernel
// stride, reversed), the result rows per iteration of the outer loop and
// that loop's trip count, for the C target's direct kernel. The epilogue
// stays one fused nest over the result, read by row.

// CHECK-LABEL: func.func @conv_bias
// CHECK:        %[[OUT:.*]] = memref.alloc() : memref<2x5x6x4xf32>
// CHECK:        memref.load %x[
// CHECK-NEXT:   memref.load %w[
// CHECK:        memref.store %{{.*}}, %[[OUT]][
// CHECK:        } {bcast.parallel, bcast.conv = {geometry = array<i64: 2, 3, 4, 1, 4, 90, 1, 4, 1, 5, 5, 3, 1, 1, 1, 1, 18, 36, 0, 6, 6, 3, 1, 1, 1, 1, 3, 12, 1>, rows = 30 : i64, units = 2 : i64}}
// CHECK-NEXT:   scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:          memref.load %[[OUT]][%[[N]],
// CHECK:          memref.load %b[
func.func @conv_bias(%x: tensor<2x5x6x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<4xf32>) -> tensor<2x5x6x4xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x5x6x4xf32>
  %1 = bcast.broadcast_in_dim %b, dims = [3] : (tensor<4xf32>) -> tensor<2x5x6x4xf32>
  %2 = bcast.add %0, %1 : (tensor<2x5x6x4xf32>, tensor<2x5x6x4xf32>) -> tensor<2x5x6x4xf32>
  func.return %2 : tensor<2x5x6x4xf32>
}

// -----

// A `?` batch (the input's first dim): the outer loop's trip count is read
// at run time, so the attribute has no units.

// CHECK-LABEL: func.func @dynamic_batch
// CHECK:        } {bcast.parallel, bcast.conv = {geometry = array<i64: 1, 2, 3, 1, 3, 14, 1, 3, 1, 7, 3, 3, 2, 1, 1, 0, 2, 6, 0>, rows = 3 : i64}}
func.func @dynamic_batch(%x: tensor<?x7x2xf64>, %w: tensor<3x2x3xf64>) -> tensor<?x3x3xf64> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x7x2xf64>, tensor<3x2x3xf64>) -> tensor<?x3x3xf64>
  func.return %0 : tensor<?x3x3xf64>
}

// -----

// Depthwise (two outputs per group) is marked too (the C kernel runs it as
// narrow groups: 2 groups of 2 outputs, one input feature each); f16 keeps
// the plain nest.

// CHECK-LABEL: func.func @depthwise
// CHECK:        } {bcast.parallel, bcast.conv = {geometry = array<i64: 2, 1, 2, 2, 4, 32, 1, 4, 1, 4, 2, 3, 1, 1, 1, 0, 8, 12, 0, 4, 2, 3, 1, 1, 1, 0, 2, 4, 0>, rows = 2 : i64, units = 2 : i64}}
// CHECK-LABEL: func.func @half
// CHECK-NOT:    bcast.conv
func.func @depthwise(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x2x2x4xf32>
  func.return %0 : tensor<1x2x2x4xf32>
}
func.func @half(%x: tensor<1x4x4x2xf16>, %w: tensor<3x3x2x4xf16>) -> tensor<1x2x2x4xf16> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf16>, tensor<3x3x2x4xf16>) -> tensor<1x2x2x4xf16>
  func.return %0 : tensor<1x2x2x4xf16>
}

// -----

// An NCHW result is not the kernel's row-major (batch, places, features):
// im2col (pad, strided slices, concatenate) and one product marked bcast.gemm.

// CHECK-LABEL: func.func @nchw_result
// CHECK-NOT:    bcast.conv
// CHECK:        bcast.gemm
func.func @nchw_result(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  func.return %0 : tensor<1x3x2x2xf32>
}

// -----

// A dynamic_conv reads its padding before the nest: each spatial size is
// convolution's window count of it (0 when the padded input is shorter
// than the kernel), each low padding is subtracted from every place, all
// of them tested. Marked bcast.conv too: the geometry's run-time entries
// (run_time: positions 10 and 20 the output sizes, 15 and 25 the low
// paddings, 0 in the array) are stored into the i64 buffer marked
// bcast.conv_sizes with the number the mark's sizes names, before the nest.
// CHECK-LABEL: func.func @dynamic_conv
// CHECK:        %[[L0:.*]] = memref.load %p[%[[C0:.*]], %[[C0]]] : memref<2x2xi32>
// CHECK:        %[[H0:.*]] = memref.load %p[%[[C0]], %[[C1:.*]]] : memref<2x2xi32>
// CHECK:        arith.divsi
// CHECK:        %[[N0:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:        %[[L1:.*]] = memref.load %p[%[[C1]], %[[C0]]] : memref<2x2xi32>
// CHECK:        %[[N1:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:        %[[LOW0:.*]] = arith.extsi %[[L0]] : i32 to i64
// CHECK-NEXT:   %[[LOW1:.*]] = arith.extsi %[[L1]] : i32 to i64
// CHECK-NEXT:   %[[SIZES:.*]] = memref.alloc() {bcast.conv_sizes = 0 : i64} : memref<4xi64>
// CHECK-NEXT:   %[[OUT0:.*]] = arith.index_cast %[[N0]] : index to i64
// CHECK-NEXT:   memref.store %[[OUT0]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   memref.store %[[LOW0]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   %[[OUT1:.*]] = arith.index_cast %[[N1]] : index to i64
// CHECK-NEXT:   memref.store %[[OUT1]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   memref.store %[[LOW1]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     scf.for %{{.*}} = %{{.*}} to %[[N0]] step
// CHECK-NEXT:       scf.for %{{.*}} = %{{.*}} to %[[N1]] step
// CHECK:        arith.subi %{{.*}}, %[[LOW0]] : i64
// CHECK:        arith.subi %{{.*}}, %[[LOW1]] : i64
// CHECK:        } {bcast.parallel, bcast.conv = {geometry = array<i64: 2, 2, 3, 1, 3, 60, 1, 3, 1, 6, 0, 3, 2, 1, 1, 0, 10, 12, 0, 5, 0, 2, 1, 1, 1, 0, 2, 6, 0>, units = 2 : i64, run_time = array<i64: 10, 15, 20, 25>, sizes = 0 : i64}}
// CHECK:        memref.dealloc %[[SIZES]] : memref<4xi64>
func.func @dynamic_conv(%x: tensor<2x6x5x2xf32>, %w: tensor<3x2x2x3xf32>, %p: tensor<2x2xi32>) -> tensor<2x?x?x3xf32> {
  %y = bcast.dynamic_conv(%x, %w, %p) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x5x2xf32>, tensor<3x2x2x3xf32>, tensor<2x2xi32>) -> tensor<2x?x?x3xf32>
  func.return %y : tensor<2x?x?x3xf32>
}

// -----

// A `?` input spatial dim: its output size is rules.conv_window_count of the
// size read at run time (dilated: (n - 1) * 3 + 1, 0 when n is 0; padded;
// 0 when shorter than the kernel, else the strided positions); an empty
// input gives zeros (the zeros' nest runs its height loop, the first one not
// of static size 1, the sum's none); every kernel place is checked against
// the run-time dilated size and clamped to the last element. Marked
// bcast.conv: the input's batch stride (4 n), its size n and the output
// size are the run-time entries (positions 5, 9, 10), stored in order; the
// rows per iteration of the outer (height) loop are static (2), the trip
// count is not (no units).

// CHECK-LABEL: func.func @dynamic_height
// CHECK:        %[[N:.*]] = memref.dim %x, %{{.*}} : memref<1x?x4x1xf32>
// CHECK-NEXT:   %[[WIDE:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:   %[[GAPS:.*]] = arith.subi %[[WIDE]], %{{.*}} : i64
// CHECK-NEXT:   %[[SPREAD:.*]] = arith.muli %[[GAPS]], %{{.*}} : i64
// CHECK-NEXT:   %[[DILATED:.*]] = arith.addi %[[SPREAD]], %{{.*}} : i64
// CHECK-NEXT:   %[[EMPTY:.*]] = arith.cmpi eq, %[[WIDE]], %{{.*}} : i64
// CHECK-NEXT:   %[[SIZE:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[DILATED]] : i64
// CHECK-NEXT:   %[[PADDED:.*]] = arith.addi %[[SIZE]], %{{.*}} : i64
// CHECK-NEXT:   %[[ROOM:.*]] = arith.subi %[[PADDED]], %{{.*}} : i64
// CHECK-NEXT:   %[[STEPS:.*]] = arith.divsi %[[ROOM]], %{{.*}} : i64
// CHECK-NEXT:   %[[COUNT:.*]] = arith.addi %[[STEPS]], %{{.*}} : i64
// CHECK-NEXT:   %[[SHORT:.*]] = arith.cmpi slt, %[[ROOM]], %{{.*}} : i64
// CHECK-NEXT:   %[[OUT:.*]] = arith.select %[[SHORT]], %{{.*}}, %[[COUNT]] : i64
// CHECK-NEXT:   %[[OUTS:.*]] = arith.index_cast %[[OUT]] : i64 to index
// CHECK-NEXT:   %[[NONE:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK-NEXT:   %[[ZEROS:.*]] = arith.select %[[NONE]], %[[OUTS]], %{{.*}} : index
// CHECK-NEXT:   scf.for %{{.*}} = %{{.*}} to %[[ZEROS]] step
// CHECK-NEXT:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT:       memref.store %{{.*}}, %result0[
// CHECK:        %[[SUMS:.*]] = arith.select %[[NONE]], %{{.*}}, %[[OUTS]] : index
// CHECK:        %[[SIZES:.*]] = memref.alloc() {bcast.conv_sizes = 0 : i64} : memref<3xi64>
// CHECK-NEXT:   %[[BATCH:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK-NEXT:   %[[BATCH64:.*]] = arith.index_cast %[[BATCH]] : index to i64
// CHECK-NEXT:   memref.store %[[BATCH64]], %[[SIZES]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:   %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:   memref.store %[[N64]], %[[SIZES]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:   %[[OUT64:.*]] = arith.index_cast %[[OUTS]] : index to i64
// CHECK-NEXT:   memref.store %[[OUT64]], %[[SIZES]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:   scf.for %{{.*}} = %{{.*}} to %[[SUMS]] step
// CHECK-NEXT:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK:              arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK:              arith.minui
// CHECK:              memref.load %x[
// CHECK:        } {bcast.parallel, bcast.conv = {geometry = array<i64: 2, 1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 3, 2, 1, 3, 0, 4, 2, 0, 4, 2, 2, 2, 1, 1, 0, 1, 1, 0>, rows = 2 : i64, run_time = array<i64: 5, 9, 10>, sizes = 0 : i64}}
// CHECK:        memref.dealloc %[[SIZES]] : memref<3xi64>
// CHECK:        func.return
func.func @dynamic_height(%x: tensor<1x?x4x1xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x?x2x1xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 0]], lhs_dilate = [3, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x4x1xf32>, tensor<3x2x1x1xf32>) -> tensor<1x?x2x1xf32>
  func.return %0 : tensor<1x?x2x1xf32>
}

// -----

// A static empty input spatial dim under padding: the windows hold only
// padding, so the result is zeros and the input is never read.

// CHECK-LABEL: func.func @empty_input
// CHECK-NOT:    memref.load %x
// CHECK:        memref.store
// CHECK-NOT:    memref.load %x
// CHECK:        func.return
func.func @empty_input(%x: tensor<1x0x1xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x2x2xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x0x1xf32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
  func.return %0 : tensor<1x2x2xf32>
}

// -----

// A `?` batch and height, the input NCHW (its feature stride depends on the
// height): the outer loop is the batch, and the rows per image (the output
// height times the width) are a run-time product of the geometry, so the
// mark has neither rows nor units; the run-time entries are the batch and
// feature strides (3 n 8, n 8), the height n, its output size and the
// height's stride (8: static, a later dim's).

// CHECK-LABEL: func.func @dynamic_batch_height_nchw
// CHECK:        %[[B:.*]] = memref.dim %x, %{{.*}} : memref<?x3x?x8xf32>
// CHECK:        %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x3x?x8xf32>
// CHECK:        %[[SIZES:.*]] = memref.alloc() {bcast.conv_sizes = 0 : i64} : memref<4xi64>
// CHECK-NEXT:   %[[XB:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK-NEXT:   %[[XB64:.*]] = arith.index_cast %[[XB]] : index to i64
// CHECK-NEXT:   memref.store %[[XB64]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   %[[XF:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK-NEXT:   %[[XF64:.*]] = arith.index_cast %[[XF]] : index to i64
// CHECK-NEXT:   memref.store %[[XF64]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:   memref.store %[[N64]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   %[[O64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:   memref.store %[[O64]], %[[SIZES]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:   scf.for
// CHECK:        } {bcast.parallel, bcast.conv = {geometry = array<i64: 2, 3, 4, 1, 4, 0, 0, 4, 1, 0, 0, 3, 1, 1, 1, 1, 8, 36, 0, 8, 8, 3, 1, 1, 1, 1, 1, 12, 0>, run_time = array<i64: 5, 6, 9, 10>, sizes = 0 : i64}}
// CHECK:        memref.dealloc %[[SIZES]] : memref<4xi64>
func.func @dynamic_batch_height_nchw(%x: tensor<?x3x?x8xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x?x8xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x8x4xf32>
  func.return %0 : tensor<?x?x8x4xf32>
}

// -----

// Two calls' buffers are told apart by their numbers; a result of one
// element has no loop, so no mark and no buffer.

// CHECK-LABEL: func.func @two_convolutions
// CHECK:        memref.alloc() {bcast.conv_sizes = 0 : i64} : memref<3xi64>
// CHECK:        bcast.conv = {{.*}}sizes = 0 : i64}
// CHECK:        memref.alloc() {bcast.conv_sizes = 1 : i64} : memref<3xi64>
// CHECK:        bcast.conv = {{.*}}sizes = 1 : i64}
// CHECK-LABEL: func.func @one_element
// CHECK-NOT:    bcast.conv
// CHECK:        func.return
func.func @two_convolutions(%x: tensor<1x?x2xf32>, %w: tensor<3x2x2xf32>) -> tensor<1x?x2xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x2xf32>, tensor<3x2x2xf32>) -> tensor<1x?x2xf32>
  %1 = bcast.convolution(%0, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x2xf32>, tensor<3x2x2xf32>) -> tensor<1x?x2xf32>
  func.return %1 : tensor<1x?x2xf32>
}
func.func @one_element(%x: tensor<1x3x1xf32>, %w: tensor<3x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xf32>, tensor<3x1x1xf32>) -> tensor<1x1x1xf32>
  func.return %0 : tensor<1x1x1xf32>
}
