// mlir-opt's spellings of bcast-opt's flags do what bcast-opt's own do.

// --mlir-print-debuginfo, as --print-debuginfo: each op's location.
// RUN: bcast-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: bcast-opt %s --print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// DEBUGINFO: %0 = bcast.negate %x : tensor<3xf32> loc("model.py":7:3)
// Without it, no locations.
// RUN: bcast-opt %s | filecheck %s --check-prefix=NODEBUGINFO
// NODEBUGINFO-NOT: loc(

// --mlir-print-op-generic, as --print-op-generic.
// RUN: bcast-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// GENERIC: %0 = "bcast.negate"(%x) : (tensor<3xf32>) -> tensor<3xf32>

// --mlir-print-ir-after-all, as --print-between-passes: the IR after each pass on stderr.
// RUN: bcast-opt %s -p 'builtin.module(canonicalize,cse)' --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// DUMP:      // -----// IR Dump After canonicalize //----- //
// DUMP:      // -----// IR Dump After cse //----- //
// RUN: bcast-opt %s -p 'builtin.module(canonicalize,cse)' 2>&1 >/dev/null | filecheck %s --allow-empty --check-prefix=NODUMP
// NODUMP-NOT: IR Dump

// --mlir-timing, as --timing: the table on stderr, with mlir-opt's Rest row.
// RUN: bcast-opt %s -p 'builtin.module(cse)' --mlir-timing 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// TIME:      ... Execution time report ...
// TIME:      {{[0-9.]+}} ({{ *[0-9.]+}}%)  cse
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TIME-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Rest
// TIME-NEXT: {{[0-9.]+}} (100.0%)  Total

// A spelling neither tool knows is still a usage error.
// RUN: not bcast-opt %s --mlir-print-everything 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: bcast-opt: error: unrecognized arguments: --mlir-print-everything

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.negate %x : tensor<3xf32> loc("model.py":7:3)
  func.return %0 : tensor<3xf32>
}
