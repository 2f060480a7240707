"""bcast-opt as mlir-opt users expect it: what the lit tests in
tests/filecheck/tools/driver_*.mlir cannot check easily (exact exit codes, the
split numpy output compiling as Python, output files, lit itself run from
outside the virtualenv)."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bcast
from bcast.tools import driver, opt
from bcast.tests import paths

ROOT = paths.ROOT
FILECHECK_DIR = paths.FILECHECK
DRIVER_FLAGS = FILECHECK_DIR / "tools" / "driver_flags.mlir"
LIT = Path(sys.executable).parent / "lit"

GOOD = """func.func @{name}(%x: tensor<3x4xf32>, %row: tensor<4xf32>) -> tensor<3x4xf32> {{
  %0 = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}}
"""
BAD = """func.func @bad(%x: tensor<3xf32>, %y: tensor<4xf32>) {
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  func.return
}
"""


def run_opt(capsys, *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "in.mlir") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# --------------------------------------------------------------------------
# --split-input-file
# --------------------------------------------------------------------------

SPLIT_TEXTS = [
    "a\n// -----\nb\nc\n// -----\n\nd\n",
    "a\n// -----\n\n\nb\n// -----   \nc",
    "// -----\na\n// -----\n// -----\nb\n// -----\n",
    "a\n  // -----\nb\n// ----- x\nc\n",  # not markers: indented, or text after
]


@pytest.mark.parametrize("text", SPLIT_TEXTS)
def test_split_chunks_keep_their_lines_of_the_file(text: str) -> None:
    """Line n of a chunk is line n + line_offset of the file, whatever
    follows each marker; markers belong to no chunk. (A chunk's last, partial
    line is the start of the marker's line or the end of the file.)"""
    file_lines = text.split("\n")
    chunks = driver.split_input(text, True)
    for chunk in chunks:
        *lines, partial = chunk.text.split("\n")
        for n, line in enumerate(lines):
            assert file_lines[chunk.line_offset + n] == line, (chunk, n)
        assert file_lines[chunk.line_offset + len(lines)].startswith(partial), chunk
        assert not re.search(r"^// -----[ \t]*$", chunk.text, re.MULTILINE)
    assert len(chunks) == len(re.findall(r"^// -----[ \t]*$", text, re.MULTILINE)) + 1


def test_split_error_lines_with_and_without_blank_lines(tmp_path, capsys) -> None:
    text = GOOD.format(name="a") + "// -----\n" + BAD + "// -----\n\n" + BAD
    bad_lines = [i for i, line in enumerate(text.split("\n"), 1) if "%y :" in line]
    code, _, err = run_opt(capsys, write(tmp_path, text), "--split-input-file")
    assert code == 1
    reported = [int(m) for m in re.findall(r"in\.mlir:(\d+):8: error:", err)]
    assert reported == bad_lines


def test_partial_success_prints_successful_chunks_and_exits_1(tmp_path, capsys) -> None:
    text = GOOD.format(name="a") + "// -----\n" + BAD + "// -----\n" + GOOD.format(name="b")
    code, out, err = run_opt(capsys, write(tmp_path, text), "--split-input-file")
    assert code == 1
    chunks = out.split("// -----\n")
    assert len(chunks) == 3 and chunks[1] == ""
    assert "func.func @a" in chunks[0] and "func.func @b" in chunks[2]
    assert "operands are not broadcast-compatible" in err


def test_output_file_only_when_every_chunk_succeeds(tmp_path, capsys) -> None:
    """As mlir-opt: a failed run leaves no output file (stdout gets the
    chunks that succeeded)."""
    out_path = tmp_path / "out.mlir"
    failing = write(tmp_path, GOOD.format(name="a") + "// -----\n" + BAD, "failing.mlir")
    assert opt.main([failing, "--split-input-file", "-o", str(out_path)]) == 1
    assert not out_path.exists()
    passing = write(tmp_path, GOOD.format(name="a") + "// -----\n" + GOOD.format(name="b"))
    assert opt.main([passing, "--split-input-file", "-o", str(out_path)]) == 0
    assert out_path.read_text().count("// -----\n") == 1
    capsys.readouterr()


def test_split_numpy_output_is_one_python_module(tmp_path, capsys) -> None:
    text = GOOD.format(name="first") + "// -----\n" + GOOD.format(name="second")
    code, out, err = run_opt(capsys, write(tmp_path, text), "-t", "numpy", "--split-input-file")
    assert code == 0, err
    compile(out, "<bcast-opt -t numpy>", "exec")
    functions = {node.name for node in ast.parse(out).body if isinstance(node, ast.FunctionDef)}
    assert {"first", "second"} <= functions
    assert out.count("# -----\n") == 1


def test_numpy_without_passes_runs_the_standard_pipeline(capsys) -> None:
    """``bcast-opt -t numpy examples/broadcast.mlir`` works (the example's
    broadcasts are implicit) and its code runs like bcast-run's."""
    import numpy as np

    code, out, err = run_opt(capsys, str(ROOT / "examples" / "broadcast.mlir"), "-t", "numpy")
    assert code == 0, err
    namespace: dict = {}
    exec(compile(out, "broadcast.py", "exec"), namespace)
    x = np.ones((3, 4), np.float32)
    row, col = np.arange(4, dtype=np.float32), np.full((3, 1), 2, np.float32)
    np.testing.assert_allclose(namespace["main"](x, row, col), (x + row) * col - 0.5 * x)


# --------------------------------------------------------------------------
# --verify-diagnostics
# --------------------------------------------------------------------------


def test_unannotated_note_fails_verify_diagnostics(tmp_path, capsys) -> None:
    annotated = BAD.replace("  %0", "  // expected-error @+1 {{not broadcast-compatible}}\n  %0")
    path = write(tmp_path, annotated)
    code, _, err = run_opt(capsys, path, "--verify-diagnostics")
    assert code == 1
    assert re.search(r"in\.mlir:3:8: error: unexpected note: aligned from the right", err), err
    with_notes = annotated.replace("  func.return", "  // expected-note @-1 {{aligned}}\n"
                                   "  // expected-note @-2 {{dimension -1}}\n  func.return")
    code, _, err = run_opt(capsys, write(tmp_path, with_notes), "--verify-diagnostics")
    assert (code, err) == (0, "")


# --------------------------------------------------------------------------
# Flags and exit codes
# --------------------------------------------------------------------------


def test_version(capsys) -> None:
    code, out, _ = run_opt(capsys, "--version")
    assert code == 0
    assert out.strip() == (f"bcast-opt {bcast.__version__} "
                           f"(xDSL {importlib.metadata.version('xdsl')})")


def test_package_version_is_the_installed_one() -> None:
    assert bcast.__version__ == importlib.metadata.version("bcast")


def test_help_returns_0(capsys) -> None:
    code, out, _ = run_opt(capsys, "--help")
    assert code == 0 and "--print-between-passes" in out and "--timing" in out


def test_unknown_flag_prints_usage_and_exits_2(capsys) -> None:
    code, out, err = run_opt(capsys, "--frobnicate")
    assert code == 2 and out == ""
    assert err.startswith("usage: bcast-opt ")
    assert err.rstrip().endswith("bcast-opt: error: unrecognized arguments: --frobnicate")


def test_timing_table_counts_passes_over_chunks(tmp_path, capsys) -> None:
    text = GOOD.format(name="a") + "// -----\n" + BAD + "// -----\n" + GOOD.format(name="b")
    code, _, err = run_opt(capsys, write(tmp_path, text), "--split-input-file", "--timing",
                           "-p", "canonicalize,cse,canonicalize")
    assert code == 1
    table = err[err.index("===-"):]
    names = re.findall(r"^ +[0-9.]+ \( *[0-9.]+%\)  (.+)$", table, re.MULTILINE)
    assert names == ["Parse", "Verify", "canonicalize", "cse", "canonicalize", "Output", "Rest", "Total"]


def test_print_between_passes_goes_to_stderr(tmp_path, capsys) -> None:
    code, out, err = run_opt(capsys, write(tmp_path, GOOD.format(name="a")),
                             "-p", "bcast-make-explicit,canonicalize", "--print-between-passes")
    assert code == 0 and "IR Dump" not in out
    headers = re.findall(r"^// -----// IR Dump After (\S+) //----- //$", err, re.MULTILINE)
    assert headers == ["bcast-make-explicit", "canonicalize"]
    assert "bcast.broadcast_in_dim" in err


def _timing_rows(err: str) -> tuple[float, list[tuple[str, float]]]:
    table = err[err.index("===-"):]
    total = float(re.search(r"Total Execution Time: ([0-9.]+) seconds", table).group(1))
    rows = [(name, float(seconds))
            for seconds, name in re.findall(r"^ +([0-9.]+) \( *[0-9.]+%\)  (.+)$", table, re.MULTILINE)]
    return total, rows


def test_timing_rows_add_up_to_the_total(tmp_path, capsys) -> None:
    """The Rest row (as mlir-opt's) holds the time no other row measured, so
    the printed rows sum to the printed total exactly."""
    text = GOOD.format(name="a") + "// -----\n" + GOOD.format(name="b")
    code, _, err = run_opt(capsys, write(tmp_path, text), "--split-input-file", "--mlir-timing",
                           "-p", "builtin.module(bcast-make-explicit,func.func(canonicalize,cse))")
    assert code == 0
    total, rows = _timing_rows(err)
    names = [name for name, _ in rows]
    assert names == ["Parse", "Verify", "bcast-make-explicit", "canonicalize", "cse", "Output",
                     "Rest", "Total"]
    assert rows[-1][1] == total > 0
    assert round(sum(seconds for _, seconds in rows[:-1]), 4) == total


def test_timing_rest_is_what_no_row_measured() -> None:
    timings = driver.Timings(["cse"])
    timings.started -= 1.0  # a second that no phase measured
    timings.seconds = [0.25, 0.125, 0.0625, 0.03125]
    rows = dict(timings.rows())
    assert rows["Total"] >= 10_000  # units of 0.1 ms
    assert rows["Rest"] == rows["Total"] - (2500 + 1250 + 625 + 312)


# --------------------------------------------------------------------------
# mlir-opt spellings: flags and nested pipelines
# --------------------------------------------------------------------------


@pytest.mark.parametrize("mlir_opt, own", [
    (["--mlir-print-debuginfo"], ["--print-debuginfo"]),
    (["--mlir-print-op-generic"], ["--print-op-generic"]),
    (["--pass-pipeline", "builtin.module(bcast-make-explicit)"], ["-p", "bcast-make-explicit"]),
    (["-p", "builtin.module(bcast-make-explicit,func.func(canonicalize,cse),bcast-fuse)"],
     ["-p", "bcast-make-explicit,canonicalize,cse,bcast-fuse"]),
    (["-p", "builtin.module( func.func( cse ) , func.func() )"], ["-p", "cse"]),
])
def test_mlir_opt_spellings_do_what_bcast_opt_spellings_do(tmp_path, capsys, mlir_opt, own) -> None:
    path = write(tmp_path, GOOD.format(name="f"))
    expected = run_opt(capsys, path, *own)
    assert expected[0] == 0
    assert run_opt(capsys, path, *mlir_opt) == expected


def test_mlir_print_ir_after_all_dumps_as_print_between_passes(tmp_path, capsys) -> None:
    path = write(tmp_path, GOOD.format(name="f"))
    code, out, err = run_opt(capsys, path, "-p", "bcast-make-explicit,cse", "--mlir-print-ir-after-all")
    assert code == 0 and "IR Dump" not in out
    assert re.findall(r"IR Dump After (\S+)", err) == ["bcast-make-explicit", "cse"]


def test_anchored_passes_keep_options_and_anchors() -> None:
    assert driver.anchored_passes('builtin.module(a{x="(,)" y=1},func.func(b,c))') == [
        ('a{x="(,)" y=1}', ("builtin.module",)),
        ("b", ("builtin.module", "func.func")),
        ("c", ("builtin.module", "func.func")),
    ]
    assert driver.anchored_passes("a,b{k=v}") == [("a", ()), ("b{k=v}", ())]


@pytest.mark.parametrize("spec, message", [
    ("bcast-make-expicit", "unknown pass 'bcast-make-expicit'; did you mean 'bcast-make-explicit'?"),
    ("builtin.module(canonicalise)", "unknown pass 'canonicalise'; did you mean 'canonicalize'?"),
    ("builtin.module(func.func(cse,bcast-fuze))", "unknown pass 'bcast-fuze'; did you mean 'bcast-fuse'?"),
    ("frobnicate", "unknown pass 'frobnicate'"),
    ("func.func(cse)", "'func.func(...)' cannot be at the top of the pipeline"),
    ("builtin.module(builtin.module(cse))", "'builtin.module(...)' cannot be nested in 'builtin.module(...)'"),
    ("builtin.module(func.func(func.func(cse)))", "'func.func(...)' cannot be nested in 'func.func(...)'"),
    ("gpu.module(cse)", "unknown anchor 'gpu.module(...)'"),
    ("builtin.module(func.func(convert-stablehlo-to-bcast))",
     "'convert-stablehlo-to-bcast' rewrites the whole module"),
    ("cse,builtin.module(cse)", "expected the whole pipeline wrapped in 'builtin.module(...)'"),
    ("builtin.module(cse", "unclosed 'builtin.module('"),
    ("builtin.module(cse))", "unbalanced ')'"),
    ("builtin.module(cse)cse", "expected ',' before 'cse'"),
    ("cse,,dce", "expected a pass name before ','"),
    ("builtin.module(bcast-make-explicit{degenerate=foo})", "invalid value 'foo' for option 'degenerate'"),
])
def test_bad_pipelines_exit_2_naming_the_fault(tmp_path, capsys, spec, message) -> None:
    code, out, err = run_opt(capsys, write(tmp_path, GOOD.format(name="f")), "-p", spec)
    assert code == 2 and out == ""
    assert err.startswith(f"error: invalid pass pipeline '{spec}': {message}")
    assert err.count("\n") == 1 and ("did you mean" in err) == ("did you mean" in message)


def test_a_misspelled_pass_in_bcast_run_is_a_usage_error(tmp_path, capsys) -> None:
    from bcast.tools import run

    code = run.main([write(tmp_path, GOOD.format(name="main")), "--seed", "0", "-p", "builtin.module(cse,canonicalise)"])
    err = capsys.readouterr().err
    assert code == 2 and "did you mean 'canonicalize'?" in err


# --------------------------------------------------------------------------
# Unknown ops and binary input
# --------------------------------------------------------------------------


@pytest.mark.parametrize("line, allow, message", [
    ("%0 = bcast.ad %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>", False,
     "2:8: error: unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and' or 'bcast.pad'?"),
    ('%0 = "bcast.ad"(%x, %row) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>', True,
     "2:8: error: unknown op 'bcast.ad'; did you mean 'bcast.add' or 'bcast.and' or 'bcast.pad'?"),
    ("%0 = bcast.brodcast_in_dim %row, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>", False,
     "2:8: error: unknown op 'bcast.brodcast_in_dim'; did you mean 'bcast.broadcast_in_dim'?"),
    ("%0 = foo.bar %x : tensor<3x4xf32>", False,
     "2:8: error: 'foo.bar' op is not known to bcast; bcast keeps it as it is in generic form only: "
     '"foo.bar"(...) : (...) -> (...)'),
    ("%0 = bcast.frobnicate %x : tensor<3x4xf32>", False, "2:8: error: unknown op 'bcast.frobnicate'\n"),
])
def test_unknown_ops_are_located_with_the_closest_names(tmp_path, capsys, line, allow, message) -> None:
    text = (f"func.func @f(%x: tensor<3x4xf32>, %row: tensor<4xf32>) -> tensor<3x4xf32> {{\n  {line}\n"
            "  func.return %x : tensor<3x4xf32>\n}\n")
    path = write(tmp_path, text)
    code, out, err = run_opt(capsys, path, *(["--allow-unregistered-dialect"] if allow else []))
    assert code == 1 and out == ""
    assert (err if message.endswith("\n") else err.rstrip("\n")) == f"{path}:{message}"


@pytest.mark.parametrize("flags", [[], ["--allow-unregistered-dialect"]])
def test_an_unknown_dialect_op_is_kept(tmp_path, capsys, flags) -> None:
    text = ('func.func @f(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {\n'
            '  %0 = "foo.bar"(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>\n'
            "  func.return %0 : tensor<3x4xf32>\n}\n")
    code, out, err = run_opt(capsys, write(tmp_path, text), *flags)
    assert code == 0 and err == ""
    assert '"foo.bar"(%x)' in out


def test_a_known_op_without_custom_syntax_asks_for_the_generic_form() -> None:
    """An op bcast registers but gives no custom syntax is not a misspelling
    of itself: the error says to write it in generic form."""
    from xdsl.irdl import IRDLOperation, irdl_op_definition

    from bcast.ir.parser import make_context

    @irdl_op_definition
    class NoSyntaxOp(IRDLOperation):
        name = "bcast.test_no_syntax"

    ctx = make_context()
    ctx.load_op(NoSyntaxOp)
    chunk = driver.Chunk("func.func @f() {\n  bcast.test_no_syntax\n  func.return\n}\n", 0)
    with pytest.raises(driver.InputError) as info:
        driver.parse(ctx, chunk, "in.mlir")
    [report] = info.value.reports
    assert report.render() == ("in.mlir:2:3: error: 'bcast.test_no_syntax' op has no custom syntax; "
                               'write it in generic form: "bcast.test_no_syntax"(...) : (...) -> (...)')


@pytest.mark.parametrize("data, where", [
    (b"func.func @f() {\n\x00\x01 func.return\n}\n", "2:1: error: binary input (NUL byte)"),
    (b"\xff\xfe\x00abc", "1:1: error: binary input (byte 0xff is not UTF-8)"),
    (b"\x7fELF\x02\x01\x01\x00\x00", "1:8: error: binary input (NUL byte)"),
    (b"// caf\xc3\xa9\n%0 = \xe9\n", "2:6: error: binary input (byte 0xe9 is not UTF-8)"),
])
def test_binary_input_is_an_error_at_its_first_bad_byte(tmp_path, capsys, data, where) -> None:
    path = tmp_path / "in.mlir"
    path.write_bytes(data)
    code, out, err = run_opt(capsys, str(path))
    assert code == 1 and out == ""
    assert err == f"{path}:{where}: expected MLIR text\n"


def test_a_control_character_is_quoted_in_the_parse_error(tmp_path, capsys) -> None:
    code, _, err = run_opt(capsys, write(tmp_path, "func.func @f() {\n \x01 func.return\n}\n"))
    assert code == 1 and err == f"{tmp_path / 'in.mlir'}:2:2: error: Unexpected character: \\x01\n"


def test_binary_input_on_stdin_and_to_bcast_run(tmp_path, capsys, monkeypatch) -> None:
    import io

    from bcast.tools import run

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a\x00b")))
    code, out, err = run_opt(capsys, "-")
    assert code == 1 and err == "<stdin>:1:2: error: binary input (NUL byte): expected MLIR text\n"
    path = tmp_path / "in.mlir"
    path.write_bytes(b"\x80")
    assert run.main([str(path), "--seed", "0"]) == 1
    assert capsys.readouterr().err == f"{path}:1:1: error: binary input (byte 0x80 is not UTF-8): expected MLIR text\n"


# --------------------------------------------------------------------------
# --view-op-graph
# --------------------------------------------------------------------------


def _dot_structure(dot: str) -> tuple[list[tuple[str, list[str]]], set[str], list[tuple[str, str]]]:
    """Each cluster's label and the nodes inside it (in order of opening),
    every declared node, and the edges; fails on unbalanced braces."""
    clusters: list[tuple[str, list[str]]] = []
    stack: list[list[str]] = []
    nodes: set[str] = set()
    edges: list[tuple[str, str]] = []
    for line in dot.splitlines()[1:-1]:
        line = line.strip()
        if line.startswith("subgraph cluster_"):
            clusters.append(("", []))
            stack.append(clusters[-1][1])
        elif line == "}":
            stack.pop()
        elif m := re.match(r'label = "([^"]*)";', line):
            clusters[-1] = (m.group(1), clusters[-1][1])
        elif m := re.match(r"(v[0-9]+) -> (v[0-9]+)", line):
            edges.append(m.groups())
        elif m := re.match(r"(v[0-9]+) \[", line):
            nodes.add(m.group(1))
            for cluster in stack:
                cluster.append(m.group(1))
    assert not stack and dot.startswith("digraph ") and dot.endswith("}\n")
    return clusters, nodes, edges


@pytest.mark.parametrize("example", ["broadcast.mlir", "jax/bench_fused.mlir", "jax/where.mlir",
                                     "../tests/data/jax_exports/softmax_rows.mlir"])
def test_view_op_graph_has_a_cluster_per_fusion_holding_its_ops(capsys, example) -> None:
    """A node per op (none for a fusion or its yield) and per function
    argument, a cluster per function and per fusion holding the fusion's body
    ops, and an edge per operand of every op, drawn through fusion boundaries."""
    from xdsl.dialects.func import FuncOp

    from bcast.ir.fusion import FusionOp, YieldOp

    path = str(paths.EXAMPLES / example)
    code, out, err = run_opt(capsys, path, "-p", driver.STANDARD_PIPELINE, "--view-op-graph")
    assert code == 0 and "digraph" not in out and out.startswith("builtin.module")
    clusters, nodes, edges = _dot_structure(err)
    module = driver.load(Path(path).read_text(), path, pipeline=driver.STANDARD_PIPELINE,
                         import_stablehlo=True)
    functions = [op for op in module.walk() if isinstance(op, FuncOp)]
    fusions = [op for op in module.walk() if isinstance(op, FusionOp)]
    assert fusions, "the example must fuse"
    assert [label for label, _ in clusters if label.startswith("func.func")] == [
        f"func.func @{f.sym_name.data}" for f in functions]
    fused = [len(inner) for label, inner in clusters if label == "bcast.fusion"]
    assert fused == [len(f.block.ops) - 1 for f in fusions]  # every body op but the yield
    ops = [op for op in module.walk()
           if op is not module and not isinstance(op, (FuncOp, FusionOp, YieldOp))]
    assert len(nodes) == len(ops) + sum(len(f.args) for f in functions)
    assert len(edges) == sum(len(op.operands) for op in ops)
    assert all(a in nodes and b in nodes for a, b in edges)


def test_view_op_graph_goes_with_every_chunk_and_target(tmp_path, capsys) -> None:
    text = GOOD.format(name="a") + "// -----\n" + BAD + "// -----\n" + GOOD.format(name="b")
    code, out, err = run_opt(capsys, write(tmp_path, text), "--split-input-file", "-t", "numpy",
                             "--view-op-graph")
    assert code == 1 and "def a(" in out and "def b(" in out
    assert err.count("digraph ") == 2  # not for the chunk that failed
    assert 'label = "func.func @a"' in err and 'label = "func.func @b"' in err
    assert err.count('label = "bcast.fusion"') == 2  # -t numpy's pipeline fuses


# --------------------------------------------------------------------------
# lit without the virtualenv activated
# --------------------------------------------------------------------------


def _lit(args: list[str]) -> subprocess.CompletedProcess:
    """lit (a test dependency) as ``.venv/bin/lit`` is run: its script beside
    this interpreter, or, where pip put the script elsewhere, lit's main
    through this interpreter, which is what the script does."""
    command = [str(LIT)] if LIT.exists() else [sys.executable, "-c", "import sys, lit.main; sys.exit(lit.main.main())"]
    return subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", *command, *args],
                          capture_output=True, text=True, timeout=300)


def test_lit_runs_from_outside_the_venv() -> None:
    """``.venv/bin/lit tests/filecheck`` finds bcast-opt and filecheck beside
    its own interpreter, with a PATH that has neither."""
    proc = _lit(["-q", str(DRIVER_FLAGS)])
    assert proc.returncode == 0, proc.stdout + proc.stderr


ONE_RUN_LINE = """// RUN: bcast-opt %s -o %t.out && filecheck --input-file %t.out %s
// CHECK: func.func @f
func.func @f() {
  func.return
}
"""


def test_lit_output_folder_is_per_checkout(tmp_path) -> None:
    """Two copies of the suite (its lit.cfg.py and a one-RUN-line test) get
    different Output folders (%t), both outside the source tree."""
    temps = []
    for copy in ("one", "two"):
        suite = tmp_path / copy
        suite.mkdir()
        shutil.copy(FILECHECK_DIR / "lit.cfg.py", suite)
        (suite / "one_run_line.mlir").write_text(ONE_RUN_LINE)
        proc = _lit(["-a", str(suite / "one_run_line.mlir")])
        assert proc.returncode == 0, proc.stdout + proc.stderr
        found = re.search(r"--input-file (\S+)one_run_line\.mlir\.tmp\.out", proc.stdout)
        assert found, proc.stdout
        temps.append(found.group(1))
        assert not found.group(1).startswith(str(tmp_path))
    assert temps[0] != temps[1]
    assert all(os.path.isabs(t) for t in temps)


SAME_NAMES = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {{
  %c = bcast.constant dense<{value}> : tensor<3xf32>
  %0 = func.call @step(%x, %c) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}}
func.func private @step(%x: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {{
  %0 = bcast.{op} %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}}
"""


@pytest.mark.parametrize("target", ["numpy", "array-api"])
def test_split_python_output_reaches_every_chunk(tmp_path, capsys, target) -> None:
    """Every chunk's functions stay callable from the written module, each
    with its own constants and callees, although every chunk names them
    @main and @step: ``CHUNKS[k]`` is chunk k's table; ``FUNCTIONS`` holds
    the symbols only one chunk defines."""
    import importlib.util

    import numpy as np

    text = (SAME_NAMES.format(value="2.0", op="add") + "// -----\n"
            + SAME_NAMES.format(value="[1.0, 2.0, 3.0]", op="multiply") + "// -----\n"
            + GOOD.format(name="other"))
    out_path = tmp_path / "f.py"
    code, _, err = run_opt(capsys, write(tmp_path, text), "-t", target, "--split-input-file",
                           "-o", str(out_path))
    assert code == 0, err
    spec = importlib.util.spec_from_file_location("split_output", out_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x = np.array([1.0, 2.0, 4.0], np.float32)
    assert len(module.CHUNKS) == 3
    np.testing.assert_array_equal(np.asarray(module.CHUNKS[0]["main"](x)), x + 2)
    np.testing.assert_array_equal(np.asarray(module.CHUNKS[1]["main"](x)), x * [1, 2, 3])
    np.testing.assert_array_equal(np.asarray(module.CHUNKS[1]["step"](x, x)), x * x)
    row = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(module.CHUNKS[2]["other"](np.ones((3, 4), np.float32), row)),
                                  1 + row[None, :] + np.zeros((3, 1)))
    assert module.FUNCTIONS == {"other": module.CHUNKS[2]["other"]}


def test_split_python_output_keeps_failed_chunks_in_place(tmp_path, capsys) -> None:
    """A failed chunk (stdout only: no file is written) has an empty table,
    so ``CHUNKS[k]`` stays chunk k of the input."""
    text = GOOD.format(name="a") + "// -----\n" + BAD + "// -----\n" + GOOD.format(name="b")
    code, out, _ = run_opt(capsys, write(tmp_path, text), "-t", "numpy", "--split-input-file")
    assert code == 1
    namespace: dict = {}
    exec(compile(out, "<bcast-opt -t numpy>", "exec"), namespace)
    assert [list(t) for t in namespace["CHUNKS"]] == [["a"], [], ["b"]]
    assert out.count('"""Generated by bcast') == 1 and out.count("import numpy as np") == 1


@pytest.mark.parametrize("target", ["numpy", "array-api", "c"])
def test_a_rejected_program_prints_nothing(tmp_path, capsys, target) -> None:
    """As mlir-opt: a failed chunk's output is empty, and with no chunk
    passing there is no shared header (imports, C helpers) on stdout either."""
    code, out, err = run_opt(capsys, write(tmp_path, BAD), "-t", target)
    assert code == 1 and "error:" in err
    assert out == ""


@pytest.mark.parametrize("target", ["numpy", "array-api"])
def test_an_empty_program_is_a_module_without_functions(tmp_path, capsys, target) -> None:
    code, out, err = run_opt(capsys, write(tmp_path, "// nothing\n"), "-t", target)
    assert code == 0, err
    namespace: dict = {}
    exec(compile(out, "<bcast-opt>", "exec"), namespace)
    assert namespace["FUNCTIONS"] == {}


def test_single_python_output_has_one_table(tmp_path, capsys) -> None:
    """Without --split-input-file the module is as before: ``FUNCTIONS`` only."""
    code, out, _ = run_opt(capsys, write(tmp_path, GOOD.format(name="a")), "-t", "numpy")
    assert code == 0
    assert "CHUNKS" not in out and "FUNCTIONS = {'a': a}" in out


def test_split_c_output_has_the_helpers_once(tmp_path, capsys) -> None:
    """The runtime helpers (includes, bit casts, streaming stores, exact
    division) are printed once, before the first chunk, not once per chunk."""
    from bcast.lowering import c_emitter

    text = GOOD.format(name="a") + "// -----\n" + GOOD.format(name="b") + "// -----\n" + GOOD.format(name="c")
    code, out, err = run_opt(capsys, write(tmp_path, text), "-t", "c", "--split-input-file")
    assert code == 0, err
    for helper in ("#include <stdint.h>", "static inline float bcast_f32_bits(",
                   "static inline void bcast_stream(", "#define BCAST_DIV_SPAN_F32"):
        assert out.count(helper) == 1, helper
    assert out.count(c_emitter.PRELUDE) == 1 and out.index(c_emitter.PRELUDE) < out.index("bcast_a(")
    assert out.count("/* ----- */\n") == 2
    assert all(f"void bcast_{name}(" in out for name in "abc")


GC_PROGRAM = """func.func @main(%x: tensor<2x3xf32>, %r: tensor<3xf32>) -> tensor<2x3xf32> {
  %y = bcast.add %x, %r : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
"""


def test_cyclic_gc_is_off_while_compiling_and_restored_after(monkeypatch) -> None:
    """The collector is paused while IR is built and rewritten (it costs a
    fifth of a large compile and grows faster than the module), and is
    enabled again after every compile, a failing one too, so that a process
    compiling many times frees the cycles the passes dropped."""
    import gc

    seen: list[bool] = []
    real_verify = driver.verify

    def verify(module):
        seen.append(gc.isenabled())
        real_verify(module)

    monkeypatch.setattr(driver, "verify", verify)
    assert gc.isenabled()
    bcast.compile(GC_PROGRAM, backend="numpy")
    assert seen and not any(seen)
    assert gc.isenabled()
    with pytest.raises(bcast.BcastError):
        bcast.compile(GC_PROGRAM.replace("tensor<3xf32>) ->", "tensor<4xf32>) ->"), backend="numpy")
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        bcast.compile(GC_PROGRAM, backend="numpy")
        assert not gc.isenabled()
    finally:
        gc.enable()
