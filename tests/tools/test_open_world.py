"""Ops bcast does not know (docs/contracts.md, "Ops bcast does not know"):
kept by ``bcast-opt`` and every rewriting pass, written back by
``-t stablehlo``, refused, located and named, by every backend that must run
them (tests/filecheck/tools/open_world.mlir checks the IR itself).

The JAX exports: every one in tests/data/jax_exports (copies of the shared
exports, ops bcast knows only) and tests/data/open_world (a ``dot_general``,
an ``iota``, a ``slice``; a ``chlo.bessel_i1e``, which bcast does not know;
complex values inside; pretty, which bcast reads through jaxlib, and
generic) goes through ``bcast-opt``
with no pipeline (printed back: the same ops, and it reads back) and through
the standard pipeline and ``-t stablehlo`` (XLA runs the result as it runs
the export, in ``test_exports_run_the_same_on_xla_after_bcast``).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func

import bcast
from bcast.ir.diagnostics import is_unknown, written_name
from bcast.tests import paths
from bcast.tools import driver, opt, run
from bcast.tools.targets import RUNNABLE, STANDARD_PIPELINE

OPEN_WORLD = paths.DATA / "open_world"
EXPORTS = sorted((paths.DATA / "jax_exports").glob("*.mlir")) + sorted(OPEN_WORLD.glob("*.mlir"))

FOREIGN = """func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %a = "foo.activation"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = bcast.add %a, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}
"""


def run_opt(capsys, *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def op_names(text: str) -> list[str]:
    """Every op of the module, in order, by the name the text wrote."""
    return [written_name(op) for op in driver.load(text, "in.mlir").walk()]


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_an_export_is_printed_back_with_no_pipeline(capsys, tmp_path: Path, path: Path) -> None:
    code, out, err = run_opt(capsys, str(path))
    assert (code, err) == (0, "")
    assert op_names(out) == op_names(path.read_text())
    again = tmp_path / "again.mlir"
    again.write_text(out)
    code, out_again, err = run_opt(capsys, str(again))
    assert (code, err) == (0, "")
    assert op_names(out_again) == op_names(out)


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_an_export_goes_through_the_standard_pipeline_to_stablehlo(capsys, path: Path) -> None:
    """Every op the import keeps is written back (a broadcast it simplifies
    may go: only the kept ops are counted), and no bcast op is left."""
    code, out, err = run_opt(capsys, str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo")
    assert (code, err) == (0, "")
    imported = driver.load(path.read_text(), path.name, pipeline="convert-stablehlo-to-bcast")
    kept = Counter(written_name(op) for op in imported.walk() if is_unknown(op))
    written = Counter(op_names(out))
    assert all(written[name] >= count for name, count in kept.items()), (kept, written)
    assert "bcast." not in out


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_exports_run_the_same_on_xla_after_bcast(capsys, path: Path) -> None:
    """bcast as a broadcast simplifier: the export and what bcast writes back
    give XLA the same results (jaxlib verifies the text first)."""
    pytest.importorskip("jax")
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    original = path.read_text()
    code, out, err = run_opt(capsys, str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo")
    assert (code, err) == (0, "")
    verify_stablehlo(out)
    main = next(f for f in driver.load(original, path.name).walk()
                if isinstance(f, func.FuncOp) and f.sym_name.data == "main")
    inputs = run.random_inputs(main, seed=0)
    for want, got in zip(run_stablehlo(original, inputs), run_stablehlo(out, inputs), strict=True):
        np.testing.assert_array_equal(got, want)


def test_without_jax_a_pretty_op_bcast_cannot_read_is_located_and_named(capsys, monkeypatch) -> None:
    """JAX's pretty ``chlo.bessel_i1e``: bcast's parser reads ops it does not
    know in generic form only and reads the pretty one through jaxlib
    (tests/tools/test_pretty_stablehlo.py); without jax the error says so,
    at the op, without a traceback."""
    for module in [m for m in sys.modules if m.split(".")[0] in ("jax", "jaxlib")] + ["jax", "jaxlib"]:
        monkeypatch.setitem(sys.modules, module, None)
    path = OPEN_WORLD / "special.mlir"
    code, out, err = run_opt(capsys, str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"{path}:10:10: error: 'chlo.bessel_i1e' op is not supported by "
                          "convert-stablehlo-to-bcast; bcast keeps it as it is in generic form only: "
                          '"chlo.bessel_i1e"(...) : (...) -> (...)\n')
    assert "install bcast's jax extra (pip install 'bcast[jax]') to read it" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("backend", RUNNABLE)
def test_a_program_to_run_reports_the_stablehlo_op_the_import_lacks(backend) -> None:
    """The import of a program to run is strict: its error, with the list of
    the ops it takes, as before bcast kept such ops."""
    path = OPEN_WORLD / "special.generic.mlir"
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(path.read_text(), backend=backend, filename=path.name)
    message = str(info.value)
    assert message.startswith("special.generic.mlir:11:10: error: 'chlo.bessel_i1e' op is not supported "
                              "by convert-stablehlo-to-bcast\n")
    assert "supported ops: chlo.acos, " in message and " chlo.broadcast_add, " in message


@pytest.mark.parametrize("backend", RUNNABLE)
def test_every_backend_refuses_an_op_of_another_dialect(backend) -> None:
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(FOREIGN, backend=backend, filename="in.mlir")
    assert str(info.value) == f"in.mlir:2:8: error: 'foo.activation' op is not supported by the {backend} backend"


def test_a_kept_stablehlo_op_is_refused_by_the_backend() -> None:
    """A pipeline that imports without ``strict`` keeps the op: the backend
    names it."""
    path = OPEN_WORLD / "special.generic.mlir"
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(path.read_text(), backend="numpy", filename=path.name,
                      pipeline="convert-stablehlo-to-bcast," + STANDARD_PIPELINE)
    assert str(info.value) == ("special.generic.mlir:11:10: error: 'chlo.bessel_i1e' op is not supported "
                               "by the numpy backend")


def test_bcast_run_refuses_an_unknown_op_located(capsys, tmp_path: Path) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(FOREIGN)
    code = run.main([str(path), "--seed", "0", "--backend", "reference"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err == f"{path}:2:8: error: 'foo.activation' op is not supported by the reference backend\n"


@pytest.mark.parametrize("target", ["c", "numpy", "array-api"])
def test_bcast_opt_refuses_an_unknown_op_for_a_target_that_runs(capsys, tmp_path: Path, target) -> None:
    """Before any pass (the C target's loop lowering would otherwise name
    itself): the target, located at the op; nothing is printed."""
    path = tmp_path / "in.mlir"
    path.write_text(FOREIGN)
    assert run_opt(capsys, str(path), "-t", target) == (
        1, "", f"{path}:2:8: error: 'foo.activation' op is not supported by the {target} target\n")


@pytest.mark.parametrize("backend", RUNNABLE)
def test_an_entry_that_does_not_reach_the_unknown_op_runs(backend) -> None:
    """Only a backend that must run the op refuses it: another function of
    the module, which the entry does not call, may hold it."""
    text = FOREIGN + FOREIGN.replace("@main", "@known").replace(
        '%a = "foo.activation"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>', "%a = bcast.negate %x : tensor<4x3xf32>")
    x, row = np.ones((4, 3), np.float32), np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(bcast.compile(text, backend=backend, entry="known")(x, row), row - x)
    with pytest.raises(bcast.BcastError, match=f"'foo.activation' op is not supported by the {backend} backend"):
        bcast.compile(text, backend=backend, entry="main")
