// bcast-opt's flags, as in mlir-opt/xdsl-opt.

// --version names bcast's version and xDSL's, and exits 0.
// RUN: bcast-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: bcast-opt {{[0-9][^ ]*}} (xDSL {{[0-9][^ ]*}})

// An unknown flag prints the usage and the error (exit 2: see tests/tools/test_driver.py).
// RUN: not bcast-opt %s --frobnicate 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      usage: bcast-opt [-h]
// UNKNOWN:      bcast-opt: error: unrecognized arguments: --frobnicate

// --print-between-passes: the IR after each pass on stderr, under mlir-opt's
// header; stdout has the final IR only.
// RUN: bcast-opt %s -p canonicalize,cse --print-between-passes 2>%t.dump | filecheck %s --check-prefix=FINAL
// RUN: filecheck %s --check-prefix=DUMP --input-file %t.dump
// DUMP:      // -----// IR Dump After canonicalize //----- //
// DUMP-NEXT: builtin.module {
// DUMP:        %0 = bcast.negate %x : tensor<3xf32>
// DUMP-NEXT:   %1 = bcast.negate %x : tensor<3xf32>
// DUMP:      // -----// IR Dump After cse //----- //
// DUMP-NEXT: builtin.module {
// DUMP:        %0 = bcast.negate %x : tensor<3xf32>
// DUMP-NEXT:   %1 = bcast.add %0, %0
// FINAL-NOT:  IR Dump
// FINAL:      %0 = bcast.negate %x : tensor<3xf32>
// FINAL-NEXT: %1 = bcast.add %0, %0
// Without the flag, nothing but the final IR.
// RUN: bcast-opt %s -p canonicalize,cse 2>&1 | filecheck %s --check-prefix=FINAL

// --timing: after the run, a table on stderr: parse, verify, each pass in
// pipeline order, output, the rest (time no other row measured) and the
// total, as mlir-opt's --mlir-timing.
// RUN: bcast-opt %s -p canonicalize,cse --timing 2>%t.time | filecheck %s --check-prefix=FINAL
// RUN: filecheck %s --check-prefix=TIME --input-file %t.time
// TIME:      ===-------------------------------------------------------------------------===
// TIME-NEXT: ... Execution time report ...
// TIME-NEXT: ===-------------------------------------------------------------------------===
// TIME-NEXT:   Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// TIME-EMPTY:
// TIME-NEXT:   ----Wall Time----  ----Name----
// TIME-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Parse
// TIME-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Verify
// TIME-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  canonicalize
// TIME-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  cse
// TIME-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Output
// TIME-NEXT: {{[0-9]+\.[0-9]+}} ({{ *[0-9]+\.[0-9]}}%)  Rest
// TIME-NEXT: {{[0-9]+\.[0-9]+}} (100.0%)  Total
// Without the flag, no table.
// RUN: bcast-opt %s -p canonicalize,cse 2>&1 | filecheck %s --check-prefix=NOTIME
// NOTIME-NOT: Execution time report
// NOTIME:     builtin.module

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.negate %x : tensor<3xf32>
  %1 = bcast.negate %x : tensor<3xf32>
  %2 = bcast.add %0, %1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %2 : tensor<3xf32>
}
