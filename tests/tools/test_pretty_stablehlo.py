"""JAX's pretty StableHLO holding ops bcast's parser has no custom form for
(``while``, ``custom_call``, ``chlo.bessel_i1e``, ``rng_bit_generator``,
``dot_general`` with ``algorithm``; JAX prints ``sort``, ``gather``,
``scatter`` and ``case`` generic, beside them): bcast reads it
through jaxlib's MLIR (docs/contracts.md, "Ops bcast does not know";
``tools/driver.py: parse_pretty_stablehlo``), prints it back, simplifies
the broadcasts around those ops and writes them back, and XLA runs what it
wrote as it runs the export. The exports are made at test time by
``jax.jit(f).lower(...).as_text()``, JAX's default text.

Locations still point into the user's file: at the op's line and column
(jaxlib names the buffer as bcast does), or at the Python line of an
export with JAX's debug locations. Without jax the located error stays and
names the ``jax`` extra.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from xdsl.dialects import func

from bcast.ir.diagnostics import SourceLoc, op_source_loc, written_name
from bcast.tools import driver, opt

jax = pytest.importorskip("jax")
jnp = jax.numpy

from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo  # noqa: E402

SIMPLIFY = "bcast-make-explicit,canonicalize,cse"


def loop_sort_gather_i1e(x, idx, row):
    s = jnp.sort(x, axis=1)  # SORT_LINE
    y = jax.lax.while_loop(lambda c: jnp.sum(c) < 100.0, lambda c: c * 1.5 + row, s)  # LOOP_LINE: on data
    z = jax.lax.bessel_i1e(y)
    return z[idx] + row


SORT_LINE = loop_sort_gather_i1e.__code__.co_firstlineno + 1
LOOP_LINE = SORT_LINE + 1


def cholesky_scaled(a, row):
    m = a @ a.T + 4 * jnp.eye(4, dtype=a.dtype)
    return jnp.linalg.cholesky(m) * row


def dot_with_algorithm(a, b, row):
    return jax.lax.dot(a, b, precision=jax.lax.DotAlgorithmPreset.F32_F32_F32) + row


def scatter_added(x, idx, row):
    return x.at[idx].add(row) * row


def switch_and_bits(i, key, x, row):
    y = jax.lax.switch(i, [lambda v: v + row, lambda v: v * row, jnp.sin], x)
    _, bits = jax.lax.rng_bit_generator(key, (4, 3), dtype=jnp.uint32)
    return y + (bits >> 20).astype(jnp.float32)


rng = np.random.default_rng(0)
PROGRAMS = {
    "loop_sort_gather_i1e": (
        loop_sort_gather_i1e,
        (rng.standard_normal((4, 8), np.float32), np.array([3, -1, 0], np.int32), rng.standard_normal(8, np.float32)),
        ("stablehlo.while(", "cond {", '"stablehlo.sort"(', "chlo.bessel_i1e %", '"stablehlo.gather"(')),
    "cholesky_scaled": (
        cholesky_scaled, (rng.standard_normal((4, 4), np.float32), rng.standard_normal(4, np.float32)),
        ("stablehlo.custom_call @lapack_spotrf_ffi(",)),
    "dot_with_algorithm": (
        dot_with_algorithm,
        (rng.standard_normal((4, 5), np.float32), rng.standard_normal((5, 3), np.float32),
         rng.standard_normal(3, np.float32)),
        ("stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], "
         "algorithm = <",)),
    "scatter_added": (
        scatter_added,
        (rng.standard_normal((4, 3), np.float32), np.array([1, 3], np.int32), rng.standard_normal(3, np.float32)),
        ('"stablehlo.scatter"(',)),
    "switch_and_bits": (
        switch_and_bits,
        (np.int32(1), np.arange(4, dtype=np.uint32), rng.standard_normal((4, 3), np.float32),
         rng.standard_normal(3, np.float32)),
        ('"stablehlo.case"(', "stablehlo.rng_bit_generator %")),
}
"""name: (function, example arguments, pieces of the pretty export that
show it holds the ops in their pretty form)."""

KEPT = {
    "loop_sort_gather_i1e": {"stablehlo.while", "stablehlo.sort", "chlo.bessel_i1e",
                                 "stablehlo.gather"},
    "cholesky_scaled": {"stablehlo.custom_call"},
    "dot_with_algorithm": {"stablehlo.dot_general"},
    "scatter_added": {"stablehlo.scatter"},
    "switch_and_bits": {"stablehlo.rng_bit_generator"},  # the case is imported as a select of its branches
}
"""The ops bcast does not know (or keeps) in each program, and the ``gather``
and ``scatter`` it imports: written back."""


def pretty_export(name: str) -> str:
    fn, args, pieces = PROGRAMS[name]
    text = jax.jit(fn).lower(*args).as_text()
    for piece in pieces:
        assert piece in text, (piece, text)
    return text


def run_opt(capsys, *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def op_names(text: str) -> Counter[str]:
    return Counter(written_name(op) for op in driver.load(text, "in.mlir").walk())


def without_jax(monkeypatch) -> None:
    """As if jax and jaxlib were not installed: importing them fails."""
    for module in [m for m in sys.modules if m.split(".")[0] in ("jax", "jaxlib")] + ["jax", "jaxlib"]:
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_pretty_export_is_printed_back(capsys, tmp_path: Path, name: str) -> None:
    """The same ops as JAX's generic form of the program (read by bcast's
    parser alone), and what bcast prints reads back."""
    path = tmp_path / f"{name}.mlir"
    path.write_text(pretty_export(name))
    code, out, err = run_opt(capsys, str(path))
    assert (code, err) == (0, "")
    fn, args, _ = PROGRAMS[name]
    assert op_names(out) == op_names(lower_to_stablehlo(fn, *args, located=True))
    again = tmp_path / "again.mlir"
    again.write_text(out)
    code, out_again, err = run_opt(capsys, str(again))
    assert (code, err) == (0, "")
    assert op_names(out_again) == op_names(out)


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_pretty_export_is_simplified_written_back_and_runs_the_same_on_xla(capsys, tmp_path: Path,
                                                                            name: str) -> None:
    """bcast as a broadcast simplifier on JAX's default text: fewer
    ``broadcast_in_dim`` than the export, the ops bcast does not know written
    back, jaxlib verifies the result, and XLA computes the same bits."""
    text = pretty_export(name)
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    code, out, err = run_opt(capsys, str(path), "-p", SIMPLIFY, "-t", "stablehlo")
    assert (code, err) == (0, "")
    assert "bcast." not in out
    written = op_names(out)
    assert all(written[op] >= 1 for op in KEPT[name]), written
    assert out.count("stablehlo.broadcast_in_dim") < text.count("stablehlo.broadcast_in_dim")
    verify_stablehlo(out)
    _, args, _ = PROGRAMS[name]
    for want, got in zip(run_stablehlo(text, args), run_stablehlo(out, args), strict=True):
        np.testing.assert_array_equal(got, want)


def test_the_algorithm_is_read_and_dropped_by_the_import(capsys, tmp_path: Path) -> None:
    """bcast reads a ``dot_general``'s ``algorithm`` itself (it prints it back
    as written); the import drops it as it drops the precision config (bcast
    computes the product in the operands' type), so ``-t stablehlo`` writes
    a plain ``dot_general``."""
    path = tmp_path / "dot.mlir"
    path.write_text(pretty_export("dot_with_algorithm"))
    code, out, err = run_opt(capsys, str(path))
    assert (code, err) == (0, "")
    assert "algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, " in out
    code, out, err = run_opt(capsys, str(path), "-p", SIMPLIFY, "-t", "stablehlo")
    assert (code, err) == (0, "")
    assert "stablehlo.dot_general" in out and "algorithm" not in out


PRETTY = """\
func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %b = stablehlo.broadcast_in_dim %row, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %r = chlo.bessel_i1e %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %s = stablehlo.add %r, %b : tensor<4x3xf32>
  func.return %s : tensor<4x3xf32>
}
"""


def test_a_diagnostic_after_the_conversion_points_at_the_original_line(capsys, tmp_path: Path) -> None:
    """The C target imports strictly: its error names the op at its line and
    column in the user's file, not in jaxlib's generic text."""
    path = tmp_path / "in.mlir"
    path.write_text(PRETTY)
    code, out, err = run_opt(capsys, str(path), "-t", "c")
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:3:8: error: 'chlo.bessel_i1e' op is not supported by "
                          "convert-stablehlo-to-bcast\n")


def test_split_input_keeps_the_lines_of_the_file(capsys, tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(PRETTY + "// -----\n" + PRETTY)
    code, _, err = run_opt(capsys, str(path), "-t", "c", "--split-input-file")
    assert code == 1
    assert err.startswith(f"{path}:3:8: error: 'chlo.bessel_i1e' op")
    assert f"{path}:10:8: error: 'chlo.bessel_i1e' op" in err


def test_an_implicit_module_of_several_functions_keeps_its_columns(capsys, tmp_path: Path) -> None:
    """jaxlib reads one top-level op: bcast wraps the functions in a module
    written before the first line, and takes the shift back out of that
    line's columns (the second function's name is reported at its column)."""
    path = tmp_path / "in.mlir"
    path.write_text("func.func @f(%x: tensor<2xf8E5M2>) -> tensor<2xf8E5M2> { func.return %x : tensor<2xf8E5M2> }\n"
                    + PRETTY)
    code, out, err = run_opt(capsys, str(path), "-p", SIMPLIFY, "--print-debuginfo")
    assert (code, err) == (0, "")
    assert f'loc("{path}":1:1)' in out
    assert f'loc("{path}":1:58)' in out  # the func.return, as bcast's parser locates it
    assert f'loc("{path}":4:8)' in out  # the bessel_i1e


def test_jax_debug_locations_point_at_the_python_line(capsys, tmp_path: Path) -> None:
    """The op's own ``loc(...)`` (``as_text(debug_info=True)``) is kept: the
    error names this file's line of ``bessel_i1e``, the first op the
    strict import refuses (the ``jnp.sort`` and the ``while_loop`` on data
    before it are imported)."""
    fn, args, _ = PROGRAMS["loop_sort_gather_i1e"]
    path = tmp_path / "debug.mlir"
    path.write_text(jax.jit(fn).lower(*args).as_text(debug_info=True))
    code, out, err = run_opt(capsys, str(path), "-t", "c")
    assert (code, out) == (1, "")
    assert re.match(rf"{re.escape(__file__)}:{LOOP_LINE + 1}:\d+: error: 'chlo.bessel_i1e' op is not "
                    "supported by convert-stablehlo-to-bcast", err), err


def test_without_jax_the_pretty_form_is_a_located_error_naming_the_extra(capsys, monkeypatch,
                                                                         tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(PRETTY)
    without_jax(monkeypatch)
    code, out, err = run_opt(capsys, str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:3:8: error: 'chlo.bessel_i1e' op is not supported by "
                          "convert-stablehlo-to-bcast; bcast keeps it as it is in generic form only: "
                          '"chlo.bessel_i1e"(...) : (...) -> (...)\n')
    assert (f"{path}:3:8: note: bcast reads StableHLO's pretty form through jaxlib: install bcast's jax extra "
            "(pip install 'bcast[jax]') to read it\n") in err
    assert "Traceback" not in err


def test_without_jax_the_algorithm_is_read_all_the_same(capsys, monkeypatch, tmp_path: Path) -> None:
    """The ``algorithm`` field is bcast's own syntax: no jaxlib needed."""
    path = tmp_path / "dot.mlir"
    path.write_text(pretty_export("dot_with_algorithm"))
    without_jax(monkeypatch)
    code, out, err = run_opt(capsys, str(path))
    assert (code, err) == (0, "")
    assert "algorithm = <" in out


def test_text_jaxlib_does_not_read_either_is_its_located_error(capsys, tmp_path: Path) -> None:
    """A pretty bcast op beside a pretty op bcast does not know: neither
    parser reads the whole; jaxlib's error, with a note at the op that sent
    the text there."""
    path = tmp_path / "in.mlir"
    path.write_text(PRETTY.replace("%s = stablehlo.add %r, %b : tensor<4x3xf32>",
                                   "%s = bcast.add %r, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>"))
    code, out, err = run_opt(capsys, str(path))
    assert (code, out) == (1, "")
    assert err == (f"{path}:4:8: error: Dialect `bcast' not found for custom op 'bcast.add' (jaxlib's MLIR)\n"
                   f"{path}:3:8: note: bcast's parser does not read the custom form of "
                   "'chlo.bessel_i1e': it read the input through jaxlib's MLIR\n")


def test_a_slip_in_a_known_op_is_bcasts_own_error(capsys, tmp_path: Path) -> None:
    """jaxlib is tried on a syntax error inside a StableHLO op's custom form
    (a field bcast may lack); when it does not read the text either, bcast's
    error stands, as before."""
    path = tmp_path / "in.mlir"
    path.write_text(PRETTY.replace("dims = [1] :", "dims = [1 :"))
    code, out, err = run_opt(capsys, str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:2:")
    assert "jaxlib" not in err


def test_an_op_written_with_an_unknown_location_is_located_at_its_place(tmp_path: Path) -> None:
    """JAX's debug export writes ``loc(unknown)`` (``#loc = loc(unknown)``) on
    functions and returns: such an op is located at its place in the file, as
    bcast's parser places it, not in jaxlib's generic text."""
    fn, args, _ = PROGRAMS["loop_sort_gather_i1e"]
    text = jax.jit(fn).lower(*args).as_text(debug_info=True)
    assert re.search(r"^#loc\d* = loc\(unknown\)$", text, re.MULTILINE)
    lines = text.splitlines()
    main_line = next(i for i, line in enumerate(lines, 1) if "func.func public @main" in line)
    module = driver.load(text, "debug.mlir")
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    assert op_source_loc(main) == SourceLoc("debug.mlir", main_line, 3)
    assert all(op_source_loc(op) is not None for op in module.walk())
