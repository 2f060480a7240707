// --view-op-graph: after the pipeline, the data-flow graph as Graphviz DOT on
// stderr (as mlir-opt 19 writes it); stdout keeps the IR. Each function is a
// cluster, each bcast.fusion a cluster inside it holding its body's ops; the
// fusion is transparent: edges run from its inputs into its body and from
// its yielded values to the users of its results (no node for the fusion or
// its yield). A reduction over dimension 0 stays outside fusions, so the
// standard pipeline makes two here.
// RUN: bcast-opt %s -p 'builtin.module(bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse,bcast-fuse)' --view-op-graph 2>%t.dot | filecheck %s --check-prefix=IR
// RUN: filecheck %s --input-file %t.dot
// IR-NOT: digraph
// IR:     %e = bcast.fusion %x, %row
// IR:     %neg = bcast.fusion %col, %row

// CHECK:      digraph "{{.*}}driver_view_op_graph.mlir" {
// CHECK-NEXT:   compound = true;
// CHECK:        subgraph [[FUNC:cluster_[0-9]+]] {
// CHECK-NEXT:     label = "func.func @main";
// CHECK-NEXT:     [[X:v[0-9]+]] [label = "%x\ntensor<3x4xf32>", shape = ellipse];
// CHECK-NEXT:     [[ROW:v[0-9]+]] [label = "%row\ntensor<4xf32>", shape = ellipse];
// CHECK-NEXT:     subgraph [[F1:cluster_[0-9]+]] {
// CHECK-NEXT:       label = "bcast.fusion";
// CHECK-NEXT:       [[BCAST:v[0-9]+]] [label = "bcast.broadcast_in_dim\nbroadcast_dimensions: array<i64: 1>\ntensor<3x4xf32>", shape = box];
// CHECK-NEXT:       [[SUM:v[0-9]+]] [label = "%sum = bcast.add\ntensor<3x4xf32>", shape = box];
// CHECK-NEXT:       [[EXP:v[0-9]+]] [label = "%e = bcast.exponential\ntensor<3x4xf32>", shape = box];
// CHECK-NEXT:     }
// CHECK-NEXT:     [[COL:v[0-9]+]] [label = "%col = bcast.reduce\nkind: #bcast<reduction_kind add>\ndims: array<i64: 0>\ntensor<4xf32>", shape = box];
// CHECK-NEXT:     subgraph {{cluster_[0-9]+}} {
// CHECK-NEXT:       label = "bcast.fusion";
// CHECK-NEXT:       [[MUL:v[0-9]+]] [label = "%out = bcast.multiply\ntensor<4xf32>", shape = box];
// CHECK-NEXT:       [[NEG:v[0-9]+]] [label = "%neg = bcast.negate\ntensor<4xf32>", shape = box];
// CHECK-NEXT:     }
// CHECK-NEXT:     [[RET:v[0-9]+]] [label = "func.return", shape = box];
// CHECK-NEXT:   }
// The edges: an input of a fusion feeds the body ops that read its block
// argument; a use of a fusion's result comes from the op that computed it.
// CHECK-NEXT:   [[ROW]] -> [[BCAST]];
// CHECK-NEXT:   [[X]] -> [[SUM]] [label = "0"];
// CHECK-NEXT:   [[BCAST]] -> [[SUM]] [label = "1"];
// CHECK-NEXT:   [[SUM]] -> [[EXP]];
// CHECK-NEXT:   [[EXP]] -> [[COL]];
// CHECK-NEXT:   [[COL]] -> [[MUL]] [label = "0"];
// CHECK-NEXT:   [[ROW]] -> [[MUL]] [label = "1"];
// CHECK-NEXT:   [[MUL]] -> [[NEG]];
// CHECK-NEXT:   [[NEG]] -> [[RET]];
// CHECK-NEXT: }

// Without the flag, no graph.
// RUN: bcast-opt %s 2>&1 | filecheck %s --check-prefix=NOGRAPH
// NOGRAPH-NOT: digraph
// NOGRAPH:     bcast.reduce add

func.func @main(%x: tensor<3x4xf32>, %row: tensor<4xf32>) -> tensor<4xf32> {
  %sum = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %e = bcast.exponential %sum : tensor<3x4xf32>
  %col = bcast.reduce add %e, dims = [0] : (tensor<3x4xf32>) -> tensor<4xf32>
  %out = bcast.multiply %col, %row : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %neg = bcast.negate %out : tensor<4xf32>
  func.return %neg : tensor<4xf32>
}
