// RUN: bcast-opt %s --split-input-file -t c | filecheck %s

// -t c: the standard pipeline, bcast-lower-to-loops, then C99. One exported
// function per func.func (bcast_ + its name): restrict pointers to the
// contiguous row-major data, const for arguments, results last. The row
// loop (marked bcast.parallel in the loop IR, and at least
// c_emitter.PARALLEL_WORK iterations) is an OpenMP
// parallel loop; the broadcast column value is loaded once per row, before
// the inner loop over the contiguous dimension, which is an omp simd loop.
// CHECK-LABEL: void bcast_broadcast_add(const float *restrict x, const float *restrict row, const float *restrict col, float *restrict result0) {
// CHECK-NEXT:    #pragma omp parallel for schedule(static)
// CHECK-NEXT:    for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 4096; [[I]] += 1) {
// CHECK-NEXT:      float [[C:v[0-9]+]] = col[[[I]]];
// CHECK-NEXT:      #pragma omp simd
// CHECK-NEXT:      for (int64_t [[J:i[0-9]+]] = 0; [[J]] < 1024; [[J]] += 1) {
// CHECK-NEXT:        float [[A:v[0-9]+]] = x[[[I]] * 1024 + [[J]]];
// CHECK-NEXT:        float [[B:v[0-9]+]] = row[[[J]]];
// CHECK-NEXT:        float [[S:v[0-9]+]] = (float)([[A]] + [[B]]);
// CHECK-NEXT:        float [[M:v[0-9]+]] = (float)([[S]] * [[C]]);
// CHECK-NEXT:        result0[[[I]] * 1024 + [[J]]] = [[M]];
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return;
// CHECK-NEXT:  }
func.func @broadcast_add(%x: tensor<4096x1024xf32>, %row: tensor<1024xf32>, %col: tensor<4096x1xf32>) -> tensor<4096x1024xf32> {
  %s = bcast.add %x, %row : (tensor<4096x1024xf32>, tensor<1024xf32>) -> tensor<4096x1024xf32>
  %m = bcast.multiply %s, %col : (tensor<4096x1024xf32>, tensor<4096x1xf32>) -> tensor<4096x1024xf32>
  func.return %m : tensor<4096x1024xf32>
}

// -----

// Integer divide (DESIGN.md 4): integers are held unsigned (signless); the
// divisor is made safe (1 instead of 0, and instead of -1 under INT_MIN)
// in statements BEFORE the signed division runs, so C never divides by 0
// or overflows; then x / 0 = -1 is selected.
// CHECK-LABEL: void bcast_divide(const uint32_t *restrict a, const uint32_t *restrict b, uint32_t *restrict result0) {
// CHECK:         uint32_t [[X:v[0-9]+]] = a[[[I:i[0-9]+]]];
// CHECK-NEXT:    uint32_t [[Y:v[0-9]+]] = b[[[I]]];
// CHECK-NEXT:    uint8_t [[Z:v[0-9]+]] = [[Y]] == 0;
// CHECK-NEXT:    uint32_t [[SAFE:v[0-9]+]] = [[Z]] ? 1 : [[Y]];
// CHECK-NEXT:    uint8_t [[XMIN:v[0-9]+]] = [[X]] == UINT32_C(2147483648);
// CHECK-NEXT:    uint8_t [[YM1:v[0-9]+]] = [[Y]] == UINT32_C(4294967295);
// CHECK-NEXT:    uint8_t [[OVF:v[0-9]+]] = (uint8_t)([[XMIN]] & [[YM1]]);
// CHECK-NEXT:    uint32_t [[SAFE2:v[0-9]+]] = [[OVF]] ? 1 : [[SAFE]];
// CHECK-NEXT:    uint32_t [[Q:v[0-9]+]] = (uint32_t)((int32_t)[[X]] / (int32_t)[[SAFE2]]);
// CHECK-NEXT:    uint32_t [[R:v[0-9]+]] = [[Z]] ? UINT32_C(4294967295) : [[Q]];
// CHECK-NEXT:    result0[[[I]]] = [[R]];
func.func @divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %q = bcast.divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %q : tensor<4xi32>
}

// -----

// Signless arithmetic wraps without undefined behaviour: i16 multiply runs
// in uint32_t (not int, which uint16_t would promote to).
// CHECK-LABEL: void bcast_wrap(
// CHECK:         uint16_t {{v[0-9]+}} = (uint16_t)((uint32_t){{v[0-9]+}} * (uint32_t){{v[0-9]+}});
func.func @wrap(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi16> {
  %q = bcast.multiply %a, %b : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  func.return %q : tensor<4xi16>
}

// -----

// A result of at least c_emitter.STREAM_BYTES (32 MiB) is written with
// non-temporal stores: the inner loop runs in chunks that fill a tile (in
// L1), and bcast_stream copies each tile to the result without reading the
// destination lines first. Each OpenMP thread fences its streaming stores
// before the parallel region's barrier (the for loop is nowait), and the
// function fences before it returns.
// CHECK-LABEL: void bcast_streamed(const float *restrict x, const float *restrict row, float *restrict result0) {
// CHECK-NEXT:    #pragma omp parallel
// CHECK-NEXT:    {
// CHECK-NEXT:      #pragma omp for schedule(static) nowait
// CHECK-NEXT:      for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 4096; [[I]] += 1) {
// CHECK-NEXT:        for (int64_t [[B:b[0-9]+]] = 0; [[B]] < 8192; [[B]] += 4096) {
// CHECK-NEXT:          int64_t [[N:n[0-9]+]] = 8192 - [[B]] < 4096 ? 8192 - [[B]] : 4096;
// CHECK-NEXT:          float [[T:tile[0-9]+]][4096];
// CHECK-NEXT:          #pragma omp simd
// CHECK-NEXT:          for (int64_t [[J:i[0-9]+]] = [[B]]; [[J]] < [[B]] + [[N]]; [[J]] += 1) {
// CHECK-NEXT:            float [[X:v[0-9]+]] = x[[[I]] * 8192 + [[J]]];
// CHECK-NEXT:            float [[R:v[0-9]+]] = row[[[J]]];
// CHECK-NEXT:            float [[M:v[0-9]+]] = (float)([[X]] * [[R]]);
// CHECK-NEXT:            [[T]][[[J]] - [[B]]] = [[M]];
// CHECK-NEXT:          }
// CHECK-NEXT:          bcast_stream(result0 + [[I]] * 8192 + [[B]], [[T]], (size_t)[[N]] * sizeof [[T]][0]);
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      bcast_stream_fence();
// CHECK-NEXT:    }
// CHECK-NEXT:    bcast_stream_fence();
// CHECK-NEXT:    return;
// CHECK-NEXT:  }
func.func @streamed(%x: tensor<4096x8192xf32>, %row: tensor<8192xf32>) -> tensor<4096x8192xf32> {
  %m = bcast.multiply %x, %row : (tensor<4096x8192xf32>, tensor<8192xf32>) -> tensor<4096x8192xf32>
  func.return %m : tensor<4096x8192xf32>
}

// -----

// Dims that no access broadcasts or transposes run as one loop: an
// elementwise op on equal shapes is one loop over all elements; with an
// operand broadcast along the leading dim, the two trailing dims collapse
// into one inner loop; broadcasting along the middle dim keeps all three.
// CHECK-LABEL: void bcast_collapse_all(const float *restrict x, const float *restrict y, float *restrict result0) {
// CHECK-NEXT:    #pragma omp simd
// CHECK-NEXT:    for (int64_t [[K:i[0-9]+]] = 0; [[K]] < 6144; [[K]] += 1) {
// CHECK-NEXT:      float [[X:v[0-9]+]] = x[[[K]]];
// CHECK-NEXT:      float [[Y:v[0-9]+]] = y[[[K]]];
// CHECK-NEXT:      float [[S:v[0-9]+]] = (float)([[X]] + [[Y]]);
// CHECK-NEXT:      result0[[[K]]] = [[S]];
// CHECK-NEXT:    }
// CHECK-LABEL: void bcast_collapse_trailing(const float *restrict x, const float *restrict y, float *restrict result0) {
// CHECK-NEXT:    for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 64; [[I]] += 1) {
// CHECK-NEXT:      #pragma omp simd
// CHECK-NEXT:      for (int64_t [[K:i[0-9]+]] = 0; [[K]] < 96; [[K]] += 1) {
// CHECK-NEXT:        float {{v[0-9]+}} = x[[[I]] * 96 + [[K]]];
// CHECK-NEXT:        float {{v[0-9]+}} = y[[[K]]];
// CHECK-LABEL: void bcast_collapse_none(const float *restrict x, const float *restrict y, float *restrict result0) {
// CHECK-NEXT:    for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 64; [[I]] += 1) {
// CHECK-NEXT:      for (int64_t [[J:i[0-9]+]] = 0; [[J]] < 32; [[J]] += 1) {
// CHECK-NEXT:        #pragma omp simd
// CHECK-NEXT:        for (int64_t [[K:i[0-9]+]] = 0; [[K]] < 3; [[K]] += 1) {
// CHECK-NEXT:          float {{v[0-9]+}} = x[[[I]] * 96 + [[J]] * 3 + [[K]]];
// CHECK-NEXT:          float {{v[0-9]+}} = y[[[I]] * 3 + [[K]]];
// A transpose keeps its loops too (the loads are not in the stores' order).
// CHECK-LABEL: void bcast_collapse_transpose(const float *restrict x, float *restrict result0) {
// CHECK-NEXT:    for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 32; [[I]] += 1) {
// CHECK-NEXT:      #pragma omp simd
// CHECK-NEXT:      for (int64_t [[J:i[0-9]+]] = 0; [[J]] < 64; [[J]] += 1) {
// CHECK-NEXT:        float {{v[0-9]+}} = x[[[J]] * 32 + [[I]]];
// Large and collapsed: one parallel, vectorized loop over every element.
// CHECK-LABEL: void bcast_collapse_parallel(const float *restrict x, const float *restrict y, float *restrict result0) {
// CHECK-NEXT:    #pragma omp parallel for simd schedule(static)
// CHECK-NEXT:    for (int64_t [[K:i[0-9]+]] = 0; [[K]] < 4194304; [[K]] += 1) {
func.func @collapse_all(%x: tensor<64x32x3xf32>, %y: tensor<64x32x3xf32>) -> tensor<64x32x3xf32> {
  %r = bcast.add %x, %y : (tensor<64x32x3xf32>, tensor<64x32x3xf32>) -> tensor<64x32x3xf32>
  func.return %r : tensor<64x32x3xf32>
}
func.func @collapse_trailing(%x: tensor<64x32x3xf32>, %y: tensor<32x3xf32>) -> tensor<64x32x3xf32> {
  %r = bcast.add %x, %y : (tensor<64x32x3xf32>, tensor<32x3xf32>) -> tensor<64x32x3xf32>
  func.return %r : tensor<64x32x3xf32>
}
func.func @collapse_none(%x: tensor<64x32x3xf32>, %y: tensor<64x1x3xf32>) -> tensor<64x32x3xf32> {
  %r = bcast.add %x, %y : (tensor<64x32x3xf32>, tensor<64x1x3xf32>) -> tensor<64x32x3xf32>
  func.return %r : tensor<64x32x3xf32>
}
func.func @collapse_transpose(%x: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %t = bcast.transpose %x, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
  %r = bcast.exponential %t : tensor<32x64xf32>
  func.return %r : tensor<32x64xf32>
}
func.func @collapse_parallel(%x: tensor<2048x2048xf32>, %y: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = bcast.multiply %x, %y : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  func.return %r : tensor<2048x2048xf32>
}

// -----

// Per-row scratch over c_emitter.STACK_BYTES (here the row of exp values
// softmax reuses, 32768 f32) is allocated once per thread at the start of
// the parallel region and freed after the row loop, not once per row.
// CHECK-LABEL: void bcast_wide_softmax(const float *restrict x, float *restrict result0) {
// CHECK-NEXT:    #pragma omp parallel
// CHECK-NEXT:    {
// CHECK-NEXT:      float *[[ROW:v[0-9]+]] = bcast_alloc(131072);
// CHECK-NEXT:      #pragma omp for schedule(static) nowait
// CHECK-NEXT:      for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 128; [[I]] += 1) {
// CHECK-NOT:         bcast_alloc
// CHECK-NOT:         free(
// CHECK:             [[ROW]][{{i[0-9]+}}] = {{v[0-9]+}};
// CHECK-NOT:         bcast_alloc
// CHECK-NOT:         free(
// CHECK:             result0[{{.*}}] = {{v[0-9]+}};
// CHECK-NEXT:        }
// CHECK-NEXT:        if ({{g[0-9]+}} > BCAST_DIV_SPAN_F32) {
// CHECK-NOT:           free(
// CHECK:               result0[{{.*}}] = {{v[0-9]+}};
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      free([[ROW]]);
// CHECK-NEXT:    }
// CHECK-NEXT:    return;
func.func @wide_softmax(%x: tensor<128x32768xf32>) -> tensor<128x32768xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<128x32768xf32>) -> tensor<128x1xf32>
  %d = bcast.subtract %x, %m : (tensor<128x32768xf32>, tensor<128x1xf32>) -> tensor<128x32768xf32>
  %e = bcast.exponential %d : tensor<128x32768xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<128x32768xf32>) -> tensor<128x1xf32>
  %r = bcast.divide %e, %s : (tensor<128x32768xf32>, tensor<128x1xf32>) -> tensor<128x32768xf32>
  func.return %r : tensor<128x32768xf32>
}

// -----

// A failed dynamic index check records its number and the index in the
// calling thread's fault state (bcast_take_fault reads and clears it) and
// leaves through bcast_fail, which frees the heap buffers made so far
// (declared NULL at the top, and NULL again once freed, so the failure path
// never frees one twice). A caller leaves too when a callee failed.
// CHECK:       static __thread int64_t bcast_fault_state[2];
// CHECK-NEXT:  void bcast_take_fault(int64_t *fault) {
// CHECK-LABEL: void bcast_checked(const float *restrict x, int64_t i, float *restrict result0) {
// CHECK-NEXT:    bcast_fault_state[0] = 0;
// CHECK-NEXT:    float *[[E:v[0-9]+]] = NULL;
// CHECK:         [[E]] = bcast_alloc(1048576);
// CHECK:         uint8_t [[OK:v[0-9]+]] = (uint64_t)i < (uint64_t)4096;
// CHECK-NEXT:    if (![[OK]]) { bcast_fault_state[0] = 1; bcast_fault_state[1] = (int64_t)i; goto bcast_fail; }
// CHECK:         free([[E]]);
// CHECK-NEXT:    [[E]] = NULL;
// CHECK-NEXT:    return;
// CHECK-NEXT:  bcast_fail:
// CHECK-NEXT:    free([[E]]);
// CHECK-NEXT:    return;
// CHECK-LABEL: void bcast_caller(
// CHECK:         bcast_checked(
// CHECK-NEXT:    if (bcast_fault_state[0]) goto bcast_fail;
func.func @checked(%x: tensor<4096x64xf32>, %i: index) -> tensor<64xf32> {
  %e = bcast.exponential %x : tensor<4096x64xf32>
  %r = bcast.extract %e[%i] : (tensor<4096x64xf32>, index) -> tensor<64xf32>
  func.return %r : tensor<64xf32>
}
func.func @caller(%x: tensor<4096x64xf32>, %i: index) -> tensor<64xf32> {
  %r = func.call @checked(%x, %i) : (tensor<4096x64xf32>, index) -> tensor<64xf32>
  func.return %r : tensor<64xf32>
}

// -----

// In a row loop with phases, the first phase reads each row from memory and
// the second computes on it in cache: the second phase runs in blocks of 128
// that first prefetch into L2 the lines of the row two ahead (the last rows
// prefetch the last one: no address past the array), so those reads overlap
// the exp. The result streams (32 MiB or more): the last phase fills a row
// tile declared once per thread and records the row it is for; the next
// row's prefetching blocks stream it out piece by piece (overlapping the
// exp rather than stalling on a burst of streaming stores), and the last
// row goes out after the loop, before the thread's fence.
// CHECK-LABEL: void bcast_softmax_rows(const float *restrict x, float *restrict result0) {
// CHECK-NEXT:    #pragma omp parallel
// CHECK-NEXT:    {
// CHECK-NEXT:      float [[TILE:tile[0-9]+]][4096];
// CHECK-NEXT:      float *[[P:p[0-9]+]] = NULL;
// CHECK-NEXT:      #pragma omp for schedule(static) nowait
// CHECK-NEXT:      for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 4096; [[I]] += 1) {
// CHECK:             #pragma omp simd reduction(max:
// CHECK:             int64_t [[R:r[0-9]+]] = [[I]] + 2 < 4096 ? [[I]] + 2 : 4096 - 1;
// CHECK-NEXT:        for (int64_t [[B:b[0-9]+]] = 0; [[B]] < 4096; [[B]] += 128) {
// CHECK-NEXT:          for (int64_t [[Q:q[0-9]+]] = 0; [[Q]] < 128 && [[B]] + [[Q]] < 4096; [[Q]] += 16) BCAST_PREFETCH(x + [[R]] * 4096 + [[B]] + [[Q]]);
// CHECK-NEXT:          if ([[P]]) bcast_stream([[P]] + [[B]], [[TILE]] + [[B]], (size_t)((4096 - [[B]] < 128 ? 4096 : [[B]] + 128) - [[B]]) * sizeof [[TILE]][0]);
// CHECK-NEXT:          #pragma omp simd reduction(+:
// CHECK-NEXT:          for (int64_t [[J:i[0-9]+]] = [[B]]; [[J]] < (4096 - [[B]] < 128 ? 4096 : [[B]] + 128); [[J]] += 1) {
// CHECK:                 expf(
// CHECK-NOT:         bcast_stream(
// CHECK:             [[TILE]][{{i[0-9]+}} - {{b[0-9]+}}] = {{v[0-9]+}};
// CHECK-NOT:         bcast_stream(
// CHECK:             [[P]] = result0 + [[I]] * 4096 + {{b[0-9]+}};
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      if ([[P]]) bcast_stream([[P]], [[TILE]], sizeof [[TILE]]);
// CHECK-NEXT:      bcast_stream_fence();
// CHECK-NEXT:    }
func.func @softmax_rows(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<4096x4096xf32>) -> tensor<4096x1xf32>
  %d = bcast.subtract %x, %m : (tensor<4096x4096xf32>, tensor<4096x1xf32>) -> tensor<4096x4096xf32>
  %e = bcast.exponential %d : tensor<4096x4096xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<4096x4096xf32>) -> tensor<4096x1xf32>
  %r = bcast.divide %e, %s : (tensor<4096x4096xf32>, tensor<4096x1xf32>) -> tensor<4096x4096xf32>
  func.return %r : tensor<4096x4096xf32>
}

// -----

// A result row that the last phase stores with plain stores (4 MiB: below
// the streaming threshold, at the prefetch one) is prefetched for writing
// one row ahead, alongside the argument row two ahead.
// CHECK-LABEL: void bcast_softmax_1024(const float *restrict x, float *restrict result0) {
// CHECK:         int64_t [[R:r[0-9]+]] = [[I:i[0-9]+]] + 2 < 1024 ? [[I]] + 2 : 1024 - 1;
// CHECK-NEXT:    int64_t [[W:r[0-9]+]] = [[I]] + 1 < 1024 ? [[I]] + 1 : 1024 - 1;
// CHECK-NEXT:    for (int64_t [[B:b[0-9]+]] = 0; [[B]] < 1024; [[B]] += 128) {
// CHECK-NEXT:      for (int64_t [[Q:q[0-9]+]] = 0; [[Q]] < 128 && [[B]] + [[Q]] < 1024; [[Q]] += 16) BCAST_PREFETCH(x + [[R]] * 1024 + [[B]] + [[Q]]);
// CHECK-NEXT:      for (int64_t [[Q2:q[0-9]+]] = 0; [[Q2]] < 128 && [[B]] + [[Q2]] < 1024; [[Q2]] += 16) BCAST_PREFETCH_WRITE(result0 + [[W]] * 1024 + [[B]] + [[Q2]]);
// CHECK-NEXT:      #pragma omp simd reduction(+:
// CHECK:         result0[[[I]] * 1024 + {{i[0-9]+}}] = {{v[0-9]+}};
// CHECK-NOT:     bcast_stream(
// CHECK:         return;
func.func @softmax_1024(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %m = bcast.reduce maximum %x, dims = [1] keepdims : (tensor<1024x1024xf32>) -> tensor<1024x1xf32>
  %d = bcast.subtract %x, %m : (tensor<1024x1024xf32>, tensor<1024x1xf32>) -> tensor<1024x1024xf32>
  %e = bcast.exponential %d : tensor<1024x1024xf32>
  %s = bcast.reduce add %e, dims = [1] keepdims : (tensor<1024x1024xf32>) -> tensor<1024x1xf32>
  %r = bcast.divide %e, %s : (tensor<1024x1024xf32>, tensor<1024x1xf32>) -> tensor<1024x1024xf32>
  func.return %r : tensor<1024x1024xf32>
}

// -----

// A batched softmax: the row loops over its two leading dims collapse into one
// parallel loop over 16 x 512 rows (the outer index reads as 0, and drops
// out of the linear index), so it
// prefetches and streams by row as a rank-2 softmax does.
// CHECK-LABEL: void bcast_batched_softmax(const float *restrict x, float *restrict result0) {
// CHECK:         #pragma omp for schedule(static) nowait
// CHECK-NEXT:    for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 8192; [[I]] += 1) {
// CHECK:           float {{v[0-9]+}} = x{{\[}}[[I]] * 1024 + {{i[0-9]+}}];
// CHECK:           int64_t [[R:r[0-9]+]] = [[I]] + 2 < 8192 ? [[I]] + 2 : 8192 - 1;
// CHECK:           BCAST_PREFETCH(x + [[R]] * 1024 +
// CHECK:           {{p[0-9]+}} = result0 + [[I]] * 1024 + {{b[0-9]+}};
func.func @batched_softmax(%x: tensor<16x512x1024xf32>) -> tensor<16x512x1024xf32> {
  %m = bcast.reduce maximum %x, dims = [2] keepdims : (tensor<16x512x1024xf32>) -> tensor<16x512x1xf32>
  %d = bcast.subtract %x, %m : (tensor<16x512x1024xf32>, tensor<16x512x1xf32>) -> tensor<16x512x1024xf32>
  %e = bcast.exponential %d : tensor<16x512x1024xf32>
  %s = bcast.reduce add %e, dims = [2] keepdims : (tensor<16x512x1024xf32>) -> tensor<16x512x1xf32>
  %r = bcast.divide %e, %s : (tensor<16x512x1024xf32>, tensor<16x512x1xf32>) -> tensor<16x512x1024xf32>
  func.return %r : tensor<16x512x1024xf32>
}

// -----

// A division by a value the innermost loop does not change (here a column
// broadcast along the row) multiplies by its reciprocal with two FMA
// corrections (bcast_div_f32, exact), while the loop keeps the largest
// exponent distance of divisor and dividends; if any was outside the range
// where that is exact, the loop runs again with plain division. f64 has its
// own helper and guard; a division by a varying value stays a division.
// CHECK-LABEL: void bcast_divide_by_column(const float *restrict x, const float *restrict s, float *restrict result0) {
// CHECK:         float [[S:v[0-9]+]] = s[{{.*}}];
// CHECK-NEXT:    uint32_t [[G:g[0-9]+]] = 0;
// CHECK-NEXT:    float [[Y:y[0-9]+]] = (float)1 / [[S]];
// CHECK-NEXT:    uint32_t [[T:t[0-9]+]] = bcast_div_range_f32([[S]]);
// CHECK-NEXT:    [[G]] = [[T]] > [[G]] ? [[T]] : [[G]];
// CHECK-NEXT:    #pragma omp simd reduction(max:[[G]])
// CHECK-NEXT:    for (int64_t [[J:i[0-9]+]] = 0; [[J]] < 16; [[J]] += 1) {
// CHECK-NEXT:      float [[A:v[0-9]+]] = x[{{.*}}];
// CHECK-NEXT:      float [[Q:v[0-9]+]] = bcast_div_f32([[A]], [[S]], [[Y]]);
// CHECK-NEXT:      uint32_t [[T2:t[0-9]+]] = bcast_div_range_f32([[A]]);
// CHECK-NEXT:      [[G]] = [[T2]] > [[G]] ? [[T2]] : [[G]];
// CHECK-NEXT:      result0[{{.*}}] = [[Q]];
// CHECK-NEXT:    }
// CHECK-NEXT:    if ([[G]] > BCAST_DIV_SPAN_F32) {
// CHECK-NEXT:      #pragma omp simd
// CHECK-NEXT:      for (int64_t [[J]] = 0; [[J]] < 16; [[J]] += 1) {
// CHECK-NEXT:        float [[A2:v[0-9]+]] = x[{{.*}}];
// CHECK-NEXT:        float [[Q2:v[0-9]+]] = (float)([[A2]] / [[S]]);
// CHECK-NEXT:        result0[{{.*}}] = [[Q2]];
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-LABEL: void bcast_divide_f64(const double *restrict x, const double *restrict s, double *restrict result0) {
// CHECK:         double {{y[0-9]+}} = (double)1 / {{v[0-9]+}};
// CHECK:         bcast_div_f64(
// CHECK:         if ({{g[0-9]+}} > BCAST_DIV_SPAN_F64) {
// CHECK-LABEL: void bcast_divide_varying(const float *restrict x, const float *restrict y, float *restrict result0) {
// CHECK-NOT:     bcast_div_
// CHECK:         (float)({{v[0-9]+}} / {{v[0-9]+}});
// CHECK-NOT:     bcast_div_
// CHECK:         return;
func.func @divide_by_column(%x: tensor<8x16xf32>, %s: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %r = bcast.divide %x, %s : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  func.return %r : tensor<8x16xf32>
}
func.func @divide_f64(%x: tensor<8x16xf64>, %s: tensor<8x1xf64>) -> tensor<8x16xf64> {
  %r = bcast.divide %x, %s : (tensor<8x16xf64>, tensor<8x1xf64>) -> tensor<8x16xf64>
  func.return %r : tensor<8x16xf64>
}
func.func @divide_varying(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = bcast.divide %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  func.return %r : tensor<8x16xf32>
}

// -----

// A parallel simd loop (2048x2048 f32, all elements in one loop) divides by
// its invariant divisor the same way: its threads reduce the guard, and if
// any element was outside the range the whole parallel loop runs again.
// CHECK-LABEL: void bcast_divide_by_scalar(const float *restrict x, const float *restrict s, float *restrict result0) {
// CHECK:         float [[Y:y[0-9]+]] = (float)1 / [[S:v[0-9]+]];
// CHECK:         #pragma omp parallel for simd schedule(static) reduction(max:[[G:g[0-9]+]])
// CHECK-NEXT:    for (int64_t [[I:i[0-9]+]] = 0; [[I]] < 4194304; [[I]] += 1) {
// CHECK:           bcast_div_f32({{v[0-9]+}}, [[S]], [[Y]]);
// CHECK:         if ([[G]] > BCAST_DIV_SPAN_F32) {
// CHECK-NEXT:      #pragma omp parallel for simd schedule(static)
// CHECK-NEXT:      for (int64_t [[I]] = 0; [[I]] < 4194304; [[I]] += 1) {
// CHECK-NOT:         bcast_div_f32
// CHECK:             (float)({{v[0-9]+}} / [[S]]);
func.func @divide_by_scalar(%x: tensor<2048x2048xf32>, %s: tensor<f32>) -> tensor<2048x2048xf32> {
  %r = bcast.divide %x, %s : (tensor<2048x2048xf32>, tensor<f32>) -> tensor<2048x2048xf32>
  func.return %r : tensor<2048x2048xf32>
}
