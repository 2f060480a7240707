"""The targets are defined once (``bcast.tools.targets``): every tool's set
of target names is the registry's."""

from __future__ import annotations

import re

import pytest

import bcast
from bcast.tools import opt, run, targets
from bcast.tools.universe import BCAST_UNIVERSE


def choices(parser, dest: str) -> list[str]:
    [action] = [a for a in parser._actions if a.dest == dest]
    return list(action.choices)


def test_bcast_opt_prints_the_emitting_targets(capsys):
    assert opt.main(["--help"]) == 0
    listed = re.search(r"-t \{([^}]*)\}", capsys.readouterr().out).group(1).split(",")
    assert listed == choices(opt.build_argument_parser(), "target") == list(targets.EMITTED)
    assert set(listed) == {name for name, t in targets.TARGETS.items() if t.emitter is not None}


def test_bcast_run_and_compile_take_the_runnable_targets():
    runnable = {name for name, t in targets.TARGETS.items() if t.builder is not None}
    assert set(choices(run.build_argument_parser(), "backend")) == runnable
    with pytest.raises(ValueError, match="available: ") as e:
        bcast.compile("func.func @main() { func.return }", backend="no-such-backend")
    assert set(str(e.value).partition("available: ")[2].split(", ")) == runnable


def test_the_plugin_has_every_emitting_target_but_xdsls_own_mlir():
    assert set(BCAST_UNIVERSE.all_targets) == set(targets.EMITTED) - {"mlir"}
    for name, load in BCAST_UNIVERSE.all_targets.items():
        assert load().name == name


def test_lowering_to_loops_is_decided_once():
    """Only the C target lowers to loops; its ``-t`` pipeline ends with the
    lowering and its loop passes, its build pipeline does not (the build
    lowers what the entry reaches), and its emitter does not lower at all
    (``loop_ir`` does)."""
    lowering = [name for name, t in targets.TARGETS.items() if t.lowers_to_loops]
    assert lowering == ["c"]
    c = targets.TARGETS["c"]
    assert c.emit_pipeline == c.pipeline + ",bcast-lower-to-loops," + targets.C_LOOP_PIPELINE
    assert all(t.emit_pipeline == t.pipeline for t in targets.TARGETS.values() if not t.lowers_to_loops)
    from bcast.lowering import c_emitter

    assert not hasattr(c_emitter, "loop_module") and not hasattr(c_emitter, "LowerToLoopsPass")


def test_the_c_target_lowers_after_a_pipeline_that_does_not(tmp_path, capsys):
    """``-p`` without ``bcast-lower-to-loops``: the C target lowers before
    its emitter (which prints loop IR only) and prints C; with the lowering
    in ``-p`` it does not lower twice."""
    source = tmp_path / "add.mlir"
    source.write_text("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                      "  %y = bcast.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                      "  func.return %y : tensor<4xf32>\n}\n")
    outputs = []
    for pipeline in ("bcast-make-explicit", "bcast-make-explicit,bcast-lower-to-loops"):
        assert opt.main([str(source), "-p", pipeline, "-t", "c"]) == 0
        outputs.append(capsys.readouterr().out)
    assert "void bcast_main(const float *restrict x, float *restrict result0) {" in outputs[0]
    assert outputs[0] == outputs[1]


def test_emitting_leaves_the_callers_module_as_it_was():
    """A target prints from the module it is given without changing it: the
    C target lowers a copy, so the same module then prints as NumPy too."""
    from bcast.tests import paths
    from bcast.tools import driver

    module = driver.load((paths.EXAMPLES / "broadcast.mlir").read_text(), "broadcast.mlir",
                         pipeline=targets.STANDARD_PIPELINE)
    before = opt.print_module(module)
    assert "void bcast_main(" in opt.emit_target("c", module, "broadcast.mlir")
    assert opt.print_module(module) == before
    assert "def main(" in opt.emit_target("numpy", module, "broadcast.mlir")


def test_backend_facts_come_from_the_registry(monkeypatch):
    """The default backend, the fallback and the memory rule are each a field
    of a target: the fastest available target is the default, a fallback
    runs the module its target's pipeline made, and every memory rule is one
    the API knows."""
    import dataclasses

    from bcast.tools import api

    assert api.default_backend() == ("c" if targets.TARGETS["c"].available() else "numpy")
    unavailable = dataclasses.replace(targets.TARGETS["c"], available=lambda: False)
    monkeypatch.setitem(targets.TARGETS, "c", unavailable)
    assert api.default_backend() == "numpy"
    for target in targets.TARGETS.values():
        assert target.memory in ("every-value", "top-level", "eager-calls")
        if target.fallback is not None:
            assert targets.TARGETS[target.fallback].pipeline == target.pipeline
            assert targets.TARGETS[target.fallback].builder is not None


def test_the_default_falls_back_when_its_target_cannot_express_a_program(monkeypatch, tmp_path):
    """``backend=None`` runs the target's fallback when the target's builder
    cannot express the program; a backend asked for by name reports it. (An
    empty cache of its own: a program another test saved would load without
    the builder, as saved programs do.)"""
    import dataclasses

    import numpy as np

    from bcast.passes.errors import PassError
    from bcast.tests import paths

    def refuse(module, entry, *rest):
        raise PassError(module, "cannot be expressed here")

    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(targets.TARGETS, "c", dataclasses.replace(
        targets.TARGETS["c"], builder=refuse, available=lambda: True))
    source = (paths.EXAMPLES / "broadcast.mlir").read_text()
    f = bcast.compile(source)
    assert f.backend == targets.TARGETS["c"].fallback == "numpy"
    x, row, col = np.ones((3, 4), np.float32), np.arange(4, dtype=np.float32), np.ones((3, 1), np.float32)
    np.testing.assert_array_equal(f(x, row, col), (x + row) * col - 0.5 * x)
    with pytest.raises(bcast.BcastError, match="cannot be expressed here"):
        bcast.compile(source, backend="c")


def test_compiling_for_numpy_does_not_import_xdsls_interpreters():
    """Time to first result: importing any of xDSL's interpreters imports
    all of them (half a second); only the reference backend needs them."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np, bcast\n"
        "f = bcast.compile('func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\\n"
        "  %0 = bcast.negate %x : tensor<2xf32>\\n  func.return %0 : tensor<2xf32>\\n}', backend='numpy')\n"
        "assert (f(np.ones(2, np.float32)) == -1).all()\n"
        "print('xdsl.interpreters' in sys.modules)\n"
        "bcast.compile('func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\\n"
        "  func.return %x : tensor<2xf32>\\n}', backend='reference')(np.ones(2, np.float32))\n"
        "print('xdsl.interpreters' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
