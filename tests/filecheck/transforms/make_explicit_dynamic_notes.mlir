// The explicit check carries the note the implicit op's rule gives when it
// fails (docs/ir.md, "The explicit dynamic form"): one per checked dim, ""
// for none, {s[k][j]} the run-time size of dim j of shape k. The output
// parses and verifies again.

// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | filecheck %s
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit | bcast-opt - --split-input-file | filecheck %s
// RUN: bcast-opt %s --split-input-file -p canonicalize | filecheck %s --check-prefix=CANON

// tml's relational ops need identical shapes: a strict check, with tml's words.
module attributes {bcast.semantics = "tml"} {
  // CHECK-LABEL: func.func @tml_relational
  // CHECK: bcast.check_broadcastable [%{{.*}}] at [0], [%{{.*}}] at [0] checking [0] strict message = "operands could not be broadcast together with shapes" notes = ["relational operations under tml semantics need a scalar operand or identical shapes at every nesting level"]
  func.func @tml_relational(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xi1> {
    %0 = bcast.compare LT, %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
    func.return %0 : tensor<?xi1>
  }
}

// -----

// xla's broadcast_dimensions: each pair's note names its dims and the run-time sizes.
module attributes {bcast.semantics = "xla"} {
  // CHECK-LABEL: func.func @xla_pairs
  // CHECK: bcast.check_broadcastable [%{{.*}}, %{{.*}}] at [0, 2], [%{{.*}}, 4, %{{.*}}] at [0, 1, 2] checking [0, 2] message = "operands could not be broadcast together with shapes" notes = ["broadcast_dimensions maps dimension 0 (size {s[0][0]}) of the lower-rank operand to dimension 0 (size {s[1][0]}) of the higher-rank operand: sizes must be equal or one of them 1", "broadcast_dimensions maps dimension 1 (size {s[0][1]}) of the lower-rank operand to dimension 2 (size {s[1][2]}) of the higher-rank operand: sizes must be equal or one of them 1"]
  func.func @xla_pairs(%x: tensor<?x?xf32>, %y: tensor<?x4x?xf32>) -> tensor<?x4x?xf32> {
    %0 = bcast.add %x, %y broadcast_dimensions = [0, 2] : (tensor<?x?xf32>, tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    func.return %0 : tensor<?x4x?xf32>
  }
}

// -----

// NumPy's rule has no note: none is written.
// CHECK-LABEL: func.func @numpy
// CHECK: bcast.check_broadcastable [%{{.*}}] at [0], [%{{.*}}] at [0] checking [0] message = "operands could not be broadcast together with shapes"{{$}}
func.func @numpy(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = bcast.add %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// canonicalize stops checking a proven dim (the same SSA size twice) and
// drops its note with it; a check left with no note has none.
// CANON-LABEL: func.func @proven_dim_drops_its_note
// CANON-NEXT: %a = bcast.dim %x, 0 : tensor<?x?xf32>
// CANON-NEXT: %b = bcast.dim %x, 1 : tensor<?x?xf32>
// CANON-NEXT: %c = bcast.dim %y, 1 : tensor<?x?xf32>
// CANON-NEXT: bcast.check_broadcastable [%a, %b] at [0, 1], [%a, %c] at [0, 1] checking [1] message = "m" notes = ["second {s[0][1]}"]
func.func @proven_dim_drops_its_note(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) {
  %a = bcast.dim %x, 0 : tensor<?x?xf32>
  %b = bcast.dim %x, 1 : tensor<?x?xf32>
  %c = bcast.dim %y, 1 : tensor<?x?xf32>
  bcast.check_broadcastable [%a, %b] at [0, 1], [%a, %c] at [0, 1] checking [0, 1] message = "m" notes = ["first {s[0][0]}", "second {s[0][1]}"]
  func.return
}

// CANON-LABEL: func.func @no_note_left
// CANON: bcast.check_broadcastable [%a, %b] at [0, 1], [%a, %c] at [0, 1] checking [1] message = "n"{{$}}
func.func @no_note_left(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) {
  %a = bcast.dim %x, 0 : tensor<?x?xf32>
  %b = bcast.dim %x, 1 : tensor<?x?xf32>
  %c = bcast.dim %y, 1 : tensor<?x?xf32>
  bcast.check_broadcastable [%a, %b] at [0, 1], [%a, %c] at [0, 1] checking [0, 1] message = "n" notes = ["first {s[0][0]}", ""]
  func.return
}

// -----

// At rank 3 the sizes made up to find a note once counted more elements
// than int64 holds, and that overflow became the note: NumPy's rule still
// has none.
// CHECK-LABEL: func.func @numpy_rank_3
// CHECK: bcast.check_broadcastable [%{{.*}}, %{{.*}}, %{{.*}}] at [0, 1, 2], [%{{.*}}, %{{.*}}, %{{.*}}] at [0, 1, 2] checking [0, 1, 2] message = "operands could not be broadcast together with shapes"{{$}}
func.func @numpy_rank_3(%x: tensor<?x?x?xf32>, %y: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = bcast.add %x, %y : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}
