"""Locations: what tests/filecheck/dialects/bcast/locations.mlir cannot check with lit.

``--verify-diagnostics`` matches only diagnostics located in the input file,
so the exact text of a diagnostic at an op's own ``loc("model.py":10:3)``
(from bcast-opt and bcast-run), the column of parse errors, JAX's location
style and the printer's round trip are checked here.
"""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, NameLoc
from xdsl.printer import Printer

from bcast.ir.diagnostics import op_source_loc
from bcast.ir.locations import FileLineColRange, InputFallbackLoc
from bcast.ir.parser import LocatingParser, make_context
from bcast.tools import opt, run
from bcast.tests import paths

DATA = paths.DATA
JAX_EXPORTS = DATA / "jax_exports"

# Under numpy semantics 2x3 and 2 do not broadcast: an error with two notes.
INCOMPATIBLE = """func.func @main(%x: tensor<2x3xf32>, %y: tensor<2xf32>) -> tensor<2x3xf32> {{
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32> {loc}
  func.return %0 : tensor<2x3xf32>
}}
"""


def incompatible(loc: str) -> str:
    """The program with ``loc`` on the add; lines after the first of ``loc``
    (alias definitions) go after the function, as JAX puts them."""
    own, *aliases = loc.split("\n")
    return INCOMPATIBLE.format(loc=own) + "".join(a + "\n" for a in aliases)
MESSAGE = "error: 'bcast.add' op operands are not broadcast-compatible: tensor<2x3xf32> and tensor<2xf32>"


def write(tmp_path: Path, text: str, name: str = "in.mlir") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run_tool(capsys, tool, *argv: str) -> tuple[int, str, str]:
    code = tool.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def parse(text: str, name: str = "in.mlir"):
    return LocatingParser(make_context(), text, name).parse_module()


def printed(module) -> str:
    out = StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


def add_op(module):
    return next(op for op in module.walk() if op.name == "bcast.add")


# --------------------------------------------------------------------------
# Diagnostics at the location the source wrote
# --------------------------------------------------------------------------

SHOWN = [
    ('loc("model.py":10:3)', "model.py:10:3"),
    ('loc("model.py":10:3 to :9)', "model.py:10:3"),
    ('loc("model.py":10:3 to 12:1)', "model.py:10:3"),
    ('loc("jit(f)/add"("model.py":10:3))', "model.py:10:3"),
    ('loc(fused[unknown, "jit(f)", "model.py":10:3, "other.py":1:1])', "model.py:10:3"),
    ("loc(#later)\n#later = loc(\"model.py\":10:3)", "model.py:10:3"),
]


@pytest.mark.parametrize("loc, where", SHOWN)
def test_bcast_opt_reports_at_the_written_location(capsys, tmp_path, loc, where):
    path = write(tmp_path, incompatible(loc))
    code, _, err = run_tool(capsys, opt, path)
    assert code == 1
    lines = err.splitlines()
    assert lines[0] == f"{where}: {MESSAGE}"
    assert lines[1].startswith(f"{where}: note: aligned from the right:")
    assert lines[-1] == f"{where}: note: dimension -1: 3 vs 2 (neither is 1)"


def test_bcast_run_reports_at_the_written_location(capsys, tmp_path):
    path = write(tmp_path, incompatible('loc("model.py":10:3)'))
    code, _, err = run_tool(capsys, run, path, "--seed", "0")
    assert code == 1
    assert err.splitlines()[0] == f"model.py:10:3: {MESSAGE}"


def test_call_site_reports_at_the_callee_with_called_from_notes(capsys, tmp_path):
    """As MLIR: the callee's position, one ``called from`` note per caller
    (innermost first, each at the caller), then the diagnostic's own notes."""
    loc = 'loc(callsite("lib.py":3:4 to :9 at callsite("helper"("model.py":16:1) at "main.py":2:1)))'
    path = write(tmp_path, incompatible(loc))
    code, _, err = run_tool(capsys, opt, path)
    assert code == 1
    lines = err.splitlines()
    assert lines[0] == f"lib.py:3:4: {MESSAGE}"
    assert lines[1] == "model.py:16:1: note: called from"
    assert lines[2] == "main.py:2:1: note: called from"
    assert lines[3].startswith("lib.py:3:4: note: aligned from the right:")


@pytest.mark.parametrize("loc", ["loc(unknown)", 'loc("jit(f)/add")', "loc(fused[unknown])",
                                 "loc(#u)\n#u = loc(unknown)", ""])
def test_no_file_position_falls_back_to_the_input_with_split_offset(capsys, tmp_path, loc):
    """The op stands on line 2 of the second chunk, line 6 of the file."""
    text = "func.func @other() {\n  func.return\n}\n// -----\n" + incompatible(loc)
    path = write(tmp_path, text)
    code, _, err = run_tool(capsys, opt, path, "--split-input-file")
    assert code == 1
    assert err.splitlines()[0] == f"{path}:6:8: {MESSAGE}"


def test_pass_errors_are_reported_at_the_written_location(capsys, tmp_path):
    """A backend after a pipeline (here the numpy target, which needs explicit
    IR, after a pipeline without bcast-make-explicit) reports at the location
    of the op it meets."""
    text = """func.func @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = bcast.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> loc("model.py":10:3)
  func.return %0 : tensor<2x3xf32>
}
"""
    code, _, err = run_tool(capsys, run, write(tmp_path, text), "--backend", "numpy", "-p", "canonicalize",
                            "--seed", "0")
    assert code == 1
    assert err.startswith("model.py:10:3: error: 'bcast.add' op the numpy target needs explicit IR")


# --------------------------------------------------------------------------
# Location attributes: what is kept and printed
# --------------------------------------------------------------------------


def test_range_is_a_file_location_that_prints_back():
    module = parse(incompatible('loc("f.py":4:7 to 5:2)'))
    loc = add_op(module).location
    assert isinstance(loc, FileLineColRange) and isinstance(loc, FileLineColLoc)
    assert (loc.line.data, loc.column.data, loc.end_line.data, loc.end_column.data) == (4, 7, 5, 2)
    assert 'loc("f.py":4:7 to 5:2)' in printed(module)


def test_unknown_keeps_the_input_position_but_prints_as_written():
    module = parse(incompatible('loc("name")'), "prog.mlir")
    op = add_op(module)
    assert isinstance(op.location, InputFallbackLoc)
    written = op.location.written
    assert isinstance(written, NameLoc) and written.desc.data == "name"
    assert str(op_source_loc(op)) == "prog.mlir:2:8"
    assert 'loc("name")\n' in printed(module)


def test_printed_debuginfo_parses_back_to_the_same_text():
    text = (DATA / "jax_style.mlir").read_text()
    once = printed(parse(text, "jax_style.mlir"))
    assert printed(parse(once, "printed.mlir")) == once


# --------------------------------------------------------------------------
# JAX's location style
# --------------------------------------------------------------------------


def test_jax_style_program_runs(capsys):
    """A bcast program with JAX's locations (aliases after the module,
    ranges, names, call sites) verifies and runs."""
    path = str(DATA / "jax_style.mlir")
    code, out, err = run_tool(capsys, opt, path, "--print-debuginfo")
    assert (code, err) == (0, "")
    assert ('loc("jit(<lambda>)/add"(callsite("<lambda>"("export_jax_stablehlo.py":71:29 to :34) at '
            'callsite("export_case"("export_jax_stablehlo.py":127:14 to :38) at ') in out
    code, out, err = run_tool(capsys, run, path, "--seed", "0")
    assert (code, err) == (0, "")
    assert out.startswith("result0: tensor<2x3xf32>")


def test_jax_style_error_is_at_the_python_line_with_its_call_stack(capsys, tmp_path):
    text = (DATA / "jax_style.mlir").read_text().replace(
        "%0 = bcast.broadcast_in_dim %arg1, dims = [1]", "%0 = bcast.broadcast_in_dim %arg1, dims = [0]")
    code, _, err = run_tool(capsys, opt, write(tmp_path, text))
    assert code == 1
    assert err.splitlines() == [
        "export_jax_stablehlo.py:71:29: error: 'bcast.broadcast_in_dim' op size of operand dimension 0 (3) "
        "is not equal to 1 or size of result dimension 0 (1)",
        "export_jax_stablehlo.py:127:14: note: called from",
        "export_jax_stablehlo.py:169:31: note: called from",
        "export_jax_stablehlo.py:179:4: note: called from",
    ]


@pytest.mark.parametrize("path", sorted(JAX_EXPORTS.glob("*.mlir")),
                         ids=lambda p: p.name)
def test_jax_exports_parse_with_their_locations_and_import(capsys, path):
    """JAX's exports (aliases after the module, ranges, names, call sites)
    parse and verify as StableHLO, print back with their locations, and
    import into bcast ops that keep them."""
    code, out, err = run_tool(capsys, opt, str(path), "--print-debuginfo")
    assert (code, err) == (0, "")
    assert re.search(r"= (stablehlo|chlo)\.", out)
    code, out, err = run_tool(capsys, opt, str(path), "--print-debuginfo", "-p", "convert-stablehlo-to-bcast")
    assert (code, err) == (0, "")
    assert not re.search(r"= (stablehlo|chlo)\.", out) and "bcast." in out
    if ".debug." in path.name:  # the Python source positions survive the import
        assert re.search(r'bcast\.\w+ .*loc\(.*"[^"]*export_jax_stablehlo\.py":\d+:\d+ to :\d+', out), out


def test_jax_export_error_is_at_the_python_line_after_import(capsys, tmp_path):
    """A StableHLO verifier error in a debug export is reported at the
    Python source line, with the call stack, as MLIR does."""
    text = (JAX_EXPORTS / "add_row.debug.mlir").read_text().replace(
        "dims = [0, 1] : (tensor<1x3xf32>)", "dims = [1, 0] : (tensor<1x3xf32>)")
    code, _, err = run_tool(capsys, run, write(tmp_path, text), "--seed", "0")
    assert code == 1
    lines = err.splitlines()
    assert re.match(r"\S*export_jax_stablehlo\.py:\d+:\d+: error: 'stablehlo.broadcast_in_dim' op size of "
                    r"operand dimension 1 \(3\) is not equal to 1 or size of result dimension 0 \(2\)", lines[0]), err
    assert all(line.endswith("note: called from") for line in lines[1:]) and len(lines) > 1, err


# --------------------------------------------------------------------------
# Parse errors at the token that is wrong
# --------------------------------------------------------------------------

PARSE_ERRORS = [
    # (text, line, column, message)
    ("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
     "  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
     "  func.return %0 : tensor<3xf32>\n}\n", 2, 22, "use of undeclared SSA value name"),
    ("func.func @f() -> tensor<2xi32> {\n"
     "  %c = bcast.constant dense<[1, 2, 3]> : tensor<2xi32>\n"
     "  func.return %c : tensor<2xi32>\n}\n", 2, 29, "Shape mismatch in dense literal"),
    ("func.func @f() -> tensor<2xi8> {\n"
     "  %c = bcast.constant dense<[1, 300]> : tensor<2xi8>\n"
     "  func.return %c : tensor<2xi8>\n}\n", 2, 33, "Integer value 300 is out of range for type i8"),
    ("func.func @f() -> tensor<2xf32> {\n"
     "  %c = bcast.constant dense<[1.0, oops]> : tensor<2xf32>\n"
     "  func.return %c : tensor<2xf32>\n}\n", 2, 35, "Expected either a float, integer, or complex literal"),
    ("func.func @f() -> tensor<2xf32> {\n"
     "  %c = bcast.constant dense<1.0> : tensor<*xf32>\n"
     "  func.return %c : tensor<2xf32>\n}\n", 2, 36, "Expected memref, vector or tensor type"),
    ("func.func @f() {\n  func.return loc(\"f.py\":1:2 to)\n}\n", 2, 32, "Expected integer literal"),
]


@pytest.mark.parametrize("text, line, col, message", PARSE_ERRORS)
def test_parse_error_column(capsys, tmp_path, text, line, col, message):
    path = write(tmp_path, text)
    code, _, err = run_tool(capsys, opt, path)
    assert code == 1
    assert err.startswith(f"{path}:{line}:{col}: error: {message}"), err


# --------------------------------------------------------------------------
# Signatures the backends cannot run
# --------------------------------------------------------------------------

SIGNATURES = ['tensor<?x3xf32, "sparse">', "f32", "i32", "memref<3xf32>", "tensor<*xf32>", "tensor<3xf8E5M2>",
              "tensor<3xi2>", "tensor<3xsi32>"]


@pytest.mark.parametrize("t", SIGNATURES)
@pytest.mark.parametrize("how", [(opt, "-t", "numpy"), (run, "--seed", "0"),
                                 (run, "--backend", "numpy", "--seed", "0")],
                         ids=["bcast-opt -t numpy", "bcast-run", "bcast-run numpy"])
def test_unsupported_signature_is_an_input_error(capsys, tmp_path, t, how):
    """These verified and then made the backends exit 3 (RuleError). A
    tensor of an element type bcast lacks verifies (the open world) and is
    refused by the backend, at the function; the others by the verifier."""
    path = write(tmp_path, f"func.func @main(%x: {t}) -> {t} {{\n  func.return %x : {t}\n}}\n")
    tool, *argv = how
    code, _, err = run_tool(capsys, tool, path, *argv)
    assert code == 1, err
    foreign = t in ("tensor<3xf8E5M2>", "tensor<3xi2>", "tensor<3xsi32>")
    said = f"argument 0 of type {t} is not supported by the " if foreign else "argument 0: "
    assert err.startswith(f"{path}:1:1: error: 'func.func' op {said}"), err


def test_use_before_definition_is_an_input_error(capsys, tmp_path):
    """xDSL resolves the forward reference and verifies no dominance; the
    reference evaluator then failed with an internal error (exit 3)."""
    text = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.negate %1 : tensor<3xf32>
  %1 = bcast.abs %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
"""
    path = write(tmp_path, text)
    code, _, err = run_tool(capsys, run, path, "--seed", "0")
    assert code == 1, err
    assert err.splitlines() == [f"{path}:2:8: error: 'bcast.negate' op operand #0 does not dominate this use",
                                f"{path}:3:8: note: operand defined here"]
