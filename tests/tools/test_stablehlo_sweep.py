"""``benchmarks/stablehlo_sweep.py``, the crash sweep over StableHLO's test
files: each chunk is classed by what bcast answered, and only answers
outside the contract (exit 2 or 3, an unlocated error, an escaping
exception, a timeout) are listed as bugs, with the chunk's line in the
original file."""

from __future__ import annotations

import importlib.util
import sys
import time

from bcast.tests.paths import ROOT
from bcast.tools import opt


def _load_sweep():
    spec = importlib.util.spec_from_file_location("stablehlo_sweep", ROOT / "benchmarks" / "stablehlo_sweep.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


sweep = _load_sweep()

TWO_CHUNKS = """\
func.func @fine(%x: tensor<3xf32>, %y: tensor<1xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %x, %x : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @bad(%x: tensor<3xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


def _write(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "two.mlir").write_text(TWO_CHUNKS)
    return suite


def test_a_valid_chunk_is_exit0_and_an_invalid_one_a_located_exit1(tmp_path):
    counts, bugs = sweep.sweep(_write(tmp_path), None, ["parse", "import", "target", "compile"], ["numpy"], 60,
                               tmp_path / "scratch", False)
    assert bugs == []
    for mode in ("parse", "import", "target", "compile"):
        assert counts[mode] == {"exit0": 1, "exit1": 1}, mode


def test_a_crash_is_listed_with_the_chunks_line(tmp_path, monkeypatch):
    def crash(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(opt, "run", crash)
    counts, bugs = sweep.sweep(_write(tmp_path), None, ["parse"], [], 60, tmp_path / "scratch", False)
    assert counts["parse"] == {"exit3": 2}
    assert [(line, kind) for _, line, _, kind, _ in bugs] == [(1, "exit3"), (7, "exit3")]  # 7: the line after the marker
    assert "RuntimeError: boom" in bugs[0][4]


def test_a_chunk_over_the_time_limit_is_a_timeout(tmp_path, monkeypatch):
    def slow(args):
        time.sleep(5)
        return 0

    monkeypatch.setattr(opt, "run", slow)
    counts, _ = sweep.sweep(_write(tmp_path), ["two.mlir"], ["parse"], [], 1, tmp_path / "scratch", False)
    assert counts["parse"] == {"timeout": 2}
