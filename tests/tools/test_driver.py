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
    assert names == ["Parse", "Verify", "canonicalize", "cse", "canonicalize", "Output", "Total"]


def test_print_between_passes_goes_to_stderr(tmp_path, capsys) -> None:
    code, out, err = run_opt(capsys, write(tmp_path, GOOD.format(name="a")),
                             "-p", "bcast-make-explicit,canonicalize", "--print-between-passes")
    assert code == 0 and "IR Dump" not in out
    headers = re.findall(r"^// -----// IR Dump After (\S+) //----- //$", err, re.MULTILINE)
    assert headers == ["bcast-make-explicit", "canonicalize"]
    assert "bcast.broadcast_in_dim" in err


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
