// RUN: bcast-opt %s --split-input-file --verify-diagnostics --print-debuginfo | filecheck %s
// RUN: bcast-opt %s --split-input-file --verify-diagnostics --print-debuginfo -p bcast-make-explicit | filecheck %s --check-prefix=EXPLICIT
// RUN: bcast-opt %s --split-input-file --verify-diagnostics --print-debuginfo -p bcast-make-explicit,canonicalize,bcast-fuse | filecheck %s --check-prefix=FUSED

// An op's loc(...) is kept and printed back as written (a #loc alias is
// printed inline, as xDSL prints no location aliases); an op without one
// gets its place in the input. Diagnostics at an op with a file location are
// reported there (tests/ir/test_locations.py checks that text, since
// --verify-diagnostics only matches diagnostics in the input file);
// locations that show no file position fall back to the op's place here.

// CHECK-LABEL: func.func @kinds
// CHECK-SAME: (%{{.*}}: tensor<2x3xf32> loc("x"), %{{.*}}: tensor<3xf32> loc(unknown))
func.func @kinds(%x: tensor<2x3xf32> loc("x"), %y: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: bcast.add {{.*}} loc("model.py":10:3)
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> loc("model.py":10:3)
  // CHECK: bcast.multiply {{.*}} loc("model.py":11:5 to :20)
  %1 = bcast.multiply %0, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> loc("model.py":11:5 to :20)
  // CHECK: bcast.subtract {{.*}} loc("model.py":12:5 to 14:2)
  %2 = bcast.subtract %1, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> loc("model.py":12:5 to 14:2)
  // A range whose end is its start is a plain file location, as in MLIR.
  // CHECK: bcast.negate {{.*}} loc("model.py":13:5)
  %3 = bcast.negate %2 : tensor<2x3xf32> loc("model.py":13:5 to :5)
  // CHECK: bcast.abs {{.*}} loc("jit(f)/abs"("model.py":15:7))
  %4 = bcast.abs %3 : tensor<2x3xf32> loc("jit(f)/abs"("model.py":15:7))
  // CHECK: bcast.exponential {{.*}} loc(callsite("inner"("lib.py":3:4 to :9) at "model.py":16:1))
  %5 = bcast.exponential %4 : tensor<2x3xf32> loc(callsite("inner"("lib.py":3:4 to :9) at "model.py":16:1))
  // CHECK: bcast.log {{.*}} loc(fused<"jit">["a.py":1:1, "b.py":2:2])
  %6 = bcast.log %5 : tensor<2x3xf32> loc(fused<"jit">["a.py":1:1, "b.py":2:2])
  // CHECK: bcast.sqrt {{.*}} loc(unknown)
  %7 = bcast.sqrt %6 : tensor<2x3xf32> loc(unknown)
  // CHECK: bcast.tanh {{.*}} loc("name_only")
  %8 = bcast.tanh %7 : tensor<2x3xf32> loc("name_only")
  // CHECK: bcast.floor {{.*}} loc("{{.*}}locations.mlir":[[# @LINE + 1]]:8)
  %9 = bcast.floor %8 : tensor<2x3xf32>
  // Aliases defined after the module, as JAX prints them, also inside aliases.
  // CHECK: func.return {{.*}} loc("return"("model.py":20:1 to :9))
  func.return %9 : tensor<2x3xf32> loc(#ret)
// CHECK: } loc("model.py":1:1)
} loc(#fn)
#ret = loc("return"(#ret_range))
#ret_range = loc("model.py":20:1 to :9)
#fn = loc("model.py":1:1)

// Rewrites give new ops the location of the op they replace: the broadcast
// that makes %y explicit is at model.py:10:3, like the add.
// EXPLICIT-LABEL: func.func @kinds
// EXPLICIT: bcast.broadcast_in_dim %{{.*}} loc("model.py":10:3)
// EXPLICIT: bcast.add {{.*}} loc("model.py":10:3)
// The fusion takes the location of its first member; its ops keep theirs.
// FUSED-LABEL: func.func @kinds
// FUSED: bcast.fusion
// FUSED: bcast.broadcast_in_dim {{.*}} loc("model.py":10:3)
// FUSED: bcast.add {{.*}} loc("model.py":10:3)
// FUSED: bcast.multiply {{.*}} loc("model.py":11:5 to :20)
// FUSED: bcast.log {{.*}} loc(fused<"jit">["a.py":1:1, "b.py":2:2])
// FUSED: } loc("model.py":10:3)

// -----

// Locations that show no file position: diagnostics fall back to the op's
// place in the input, as for an op without loc(...).
func.func @fallback(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible}}
  // expected-note @+2 {{aligned from the right}}
  // expected-note @+1 {{dimension -1: 3 vs 2 (neither is 1)}}
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32> loc(unknown)
  func.return
}

// -----

func.func @name_without_file(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible}}
  // expected-note @+2 {{aligned from the right}}
  // expected-note @+1 {{dimension -1: 3 vs 2 (neither is 1)}}
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32> loc("jit(f)/add")
  func.return
}

// -----

func.func @fused_without_file(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible}}
  // expected-note @+2 {{aligned from the right}}
  // expected-note @+1 {{dimension -1: 3 vs 2 (neither is 1)}}
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32> loc(fused[unknown, "name"])
  func.return
}

// -----

func.func @unknown_alias_after_module(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error @+3 {{'bcast.add' op operands are not broadcast-compatible}}
  // expected-note @+2 {{aligned from the right}}
  // expected-note @+1 {{dimension -1: 3 vs 2 (neither is 1)}}
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32> loc(#unknown)
  func.return
}
#unknown = loc(unknown)

// -----

// The module's own loc(unknown): a module error is at the module.
// expected-error @+1 {{bcast.semantics must be one of "numpy", "xla", "tml", got "jax"}}
module attributes {bcast.semantics = "jax"} {
} loc(#loc)
#loc = loc(unknown)

// -----

// Location syntax errors are at the token that is wrong.
func.func @undefined_alias() {
  // expected-error @+1 {{undefined symbol alias '#nope'}}
  func.return loc(#nope)
}

// -----

func.func @alias_not_a_location() {
  // expected-error @+1 {{'#text' is not a location: "text"}}
  func.return loc(#text)
}
#text = "text"

// -----

func.func @alias_cycle() {
  func.return loc(#a)
}
// expected-error @+1 {{location alias '#b' refers to itself}}
#a = loc("name"(#b))
#b = loc(#a)

// -----

func.func @range_without_end() {
  // expected-error @+1 {{Expected integer literal for the end column of a location range}}
  func.return loc("f.py":1:2 to :)
}

// -----

func.func @range_end_without_column() {
  // expected-error @+1 {{Expected ':' in a location range}}
  func.return loc("f.py":1:2 to 3)
}
