// Ops bcast does not know (docs/contracts.md, "Ops bcast does not know"): a
// StableHLO custom_call and an op of another dialect, in generic form, among
// broadcasts. bcast-opt with no pipeline prints the module back; every
// rewriting pass keeps them with their operands and results, treats their
// results as opaque values and never fuses them; -t stablehlo writes them
// back; a backend that must run them refuses them, located.
// RUN: bcast-opt %s --split-input-file | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s --split-input-file | bcast-opt - --split-input-file | filecheck %s --check-prefix=BACK
// RUN: bcast-opt %s --split-input-file -p bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse | filecheck %s --check-prefix=STD
// RUN: bcast-opt %s --split-input-file -t stablehlo | filecheck %s --check-prefix=HLO
// RUN: not bcast-opt %s --split-input-file -t c 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s --split-input-file -t c 2>/dev/null | filecheck %s --check-prefix=CLOOP
// RUN: not bcast-opt %s --split-input-file -t numpy 2>&1 | filecheck %s --check-prefix=C
// RUN: not bcast-opt %s --split-input-file -t c -p bcast-make-explicit 2>&1 | filecheck %s --check-prefix=C

// BACK:      func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
// BACK-NEXT:   %m = "stablehlo.custom_call"(%x, %w) {call_target_name = "my_matmul"} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %b1 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
// BACK-NEXT:   %b2 = bcast.broadcast_in_dim %b1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %s = bcast.add %m, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
// BACK-NEXT:   %r = bcast.multiply %a, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   %t = bcast.add %r, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// BACK-NEXT:   func.return %t : tensor<4x5xf32>

// The two-step broadcast is one, the implicit one explicit, both merged (cse);
// the fusions stop at the unknown ops, whose results enter them as inputs.
// STD:      func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
// STD-NEXT:   %m = "stablehlo.custom_call"(%x, %w) {call_target_name = "my_matmul"} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:   %s = bcast.fusion %m, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32> {
// STD-NEXT:   ^bb0(%m_1: tensor<4x5xf32>, %b_1: tensor<5xf32>):
// STD-NEXT:     %b2 = bcast.broadcast_in_dim %b_1, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     %s_1 = bcast.add %m_1, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     bcast.yield %s_1 : tensor<4x5xf32>
// STD-NEXT:   }
// STD-NEXT:   %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
// STD-NEXT:   %t = bcast.fusion %a, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32> {
// STD-NEXT:   ^bb0(%a_1: tensor<4x5xf32>, %b_2: tensor<5xf32>):
// STD-NEXT:     %{{.*}} = bcast.broadcast_in_dim %b_2, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     %r = bcast.multiply %a_1, %{{.*}} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     %t_1 = bcast.add %r, %{{.*}} : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// STD-NEXT:     bcast.yield %t_1 : tensor<4x5xf32>
// STD-NEXT:   }
// STD-NEXT:   func.return %t : tensor<4x5xf32>

// HLO:      func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
// HLO-NEXT:   %m = "stablehlo.custom_call"(%x, %w) {call_target_name = "my_matmul"} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// HLO-NEXT:   %b2 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
// HLO-NEXT:   %s = stablehlo.add %m, %b2 : tensor<4x5xf32>
// HLO-NEXT:   %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
// HLO-NEXT:   %r = stablehlo.multiply %a, %b2 : tensor<4x5xf32>
// HLO-NEXT:   %t = stablehlo.add %r, %b2 : tensor<4x5xf32>
// HLO-NEXT:   func.return %t : tensor<4x5xf32>

// The strict import of a program to run reports the StableHLO op first;
// C: open_world.mlir:[[# @LINE + 2]]:8: error: 'stablehlo.custom_call' op is not supported by convert-stablehlo-to-bcast
func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<4x5xf32> {
  %m = "stablehlo.custom_call"(%x, %w) {call_target_name = "my_matmul"} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %b1 = bcast.broadcast_in_dim %b, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
  %b2 = bcast.broadcast_in_dim %b1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
  %s = bcast.add %m, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %a, %n = "foo.activation"(%s) {kind = "gelu"} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, !foo.norm)
  %r = bcast.multiply %a, %b : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %t = bcast.add %r, %b2 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %t : tensor<4x5xf32>
}

// -----

// An op with regions (a stablehlo.while, as JAX prints a fori_loop in
// generic form, here of a run-time trip count, which the import makes
// bcast.while): the import converts the StableHLO in its body, inlining the
// call of a private helper there; -t stablehlo writes the loop back with its
// body in StableHLO again, the two-step broadcast made one. The numpy target
// runs it; C refuses it.
// BACK-LABEL: func.func @loop(
// BACK:         %n = func.call @helper(%u, %c) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// STD-LABEL:  func.func @loop(
// STD-NOT:      func.call
// HLO-LABEL:  func.func @loop(%x: tensor<2x3xf32>, %v: tensor<3xf32>, %steps: tensor<i32>) -> tensor<2x3xf32> {
// HLO-NEXT:     %c0 = stablehlo.constant dense<0> : tensor<i32>
// HLO-NEXT:     %r, %r_1, %r_2 = "stablehlo.while"(%v, %c0, %x) ({
// HLO-NEXT:     ^bb0(%a: tensor<3xf32>, %i: tensor<i32>, %b: tensor<2x3xf32>):
// HLO-NEXT:       %lt = stablehlo.compare LT, %i, %steps, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// HLO-NEXT:       stablehlo.return %lt : tensor<i1>
// HLO-NEXT:     }, {
// HLO-NEXT:     ^bb0(%u: tensor<3xf32>, %k: tensor<i32>, %c: tensor<2x3xf32>):
// HLO-NEXT:       %0 = stablehlo.broadcast_in_dim %u, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// HLO-NEXT:       %n = stablehlo.add %c, %0 : tensor<2x3xf32>
// HLO-NEXT:       %c1 = stablehlo.constant dense<1> : tensor<i32>
// HLO-NEXT:       %j = stablehlo.add %k, %c1 : tensor<i32>
// HLO-NEXT:       stablehlo.return %u, %j, %n : tensor<3xf32>, tensor<i32>, tensor<2x3xf32>
// HLO-NEXT:     }) : (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>)
// HLO-NEXT:     func.return %r_2 : tensor<2x3xf32>
// HLO-NOT:      bcast.
// HLO-NOT:      @helper
// The C target runs the static loop (passes/loops_control_flow.py):
// CLOOP: void bcast_loop(
// CLOOP: for (;;) {
// CLOOP: bcast_loop_while_do(
func.func @loop(%x: tensor<2x3xf32>, %v: tensor<3xf32>, %steps: tensor<i32>) -> tensor<2x3xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:3 = "stablehlo.while"(%v, %c0, %x) ({
  ^bb0(%a: tensor<3xf32>, %i: tensor<i32>, %b: tensor<2x3xf32>):
    %lt = "stablehlo.compare"(%i, %steps) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%u: tensor<3xf32>, %k: tensor<i32>, %c: tensor<2x3xf32>):
    %n = "func.call"(%u, %c) <{callee = @helper}> : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %c1 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%k, %c1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%u, %j, %n) : (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>) -> ()
  }) : (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<2x3xf32>)
  func.return %r#2 : tensor<2x3xf32>
}
func.func private @helper(%v: tensor<3xf32>, %c: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.add %c, %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// Blocks of a kept op's region keep their branches: the successor of the
// copied branch is the copied block.
// HLO-LABEL:  func.func @blocks(
// HLO:          %0 = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
// HLO-NEXT:     %s = stablehlo.add %a, %0 : tensor<3xf32>
// HLO-NEXT:     "foo.br"(%s) [^bb1] : (tensor<3xf32>) -> ()
// HLO-NEXT:   ^bb1:
// HLO-NEXT:     "foo.yield"(%s) : (tensor<3xf32>) -> ()
// C: open_world.mlir:[[# @LINE + 2]]:8: error: 'foo.region' op is not supported by the {{c|numpy}} target
func.func @blocks(%x: tensor<3xf32>, %v: tensor<1xf32>) -> tensor<3xf32> {
  %r = "foo.region"(%x) ({
  ^bb0(%a: tensor<3xf32>):
    %s = bcast.add %a, %v : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
    "foo.br"(%s) [^bb1] : (tensor<3xf32>) -> ()
  ^bb1:
    "foo.yield"(%s) : (tensor<3xf32>) -> ()
  }) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
