"""Usage errors exit 2 with one message and no traceback, whatever xDSL
raises underneath (its pipeline-option errors are ``BaseException``s)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bcast
from bcast.tests.paths import EXAMPLES

BIN = Path(sys.executable).parent
EXAMPLE = str(EXAMPLES / "broadcast.mlir")


def run(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("argv", [
    ("bcast-opt", EXAMPLE, "-p", "bcast-make-explicit{degenerate=}"),
    ("bcast-run", EXAMPLE, "--seed", "0", "-p", "canonicalize{x=}"),
    ("bcast-run", EXAMPLE, "--seed", "-1"),
])
def test_usage_errors_exit_2_without_traceback(argv) -> None:
    proc = run(str(BIN / argv[0]), *argv[1:])
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert "error:" in proc.stderr


@pytest.mark.parametrize("argv", [
    ("--pass-pipeline", "canonicalize", "-p", "cse"),
    ("-p", "canonicalize", "-p", "cse"),
])
def test_two_pipelines_are_a_usage_error(argv) -> None:
    """As mlir-opt's --pass-pipeline: one pipeline, not the last of several."""
    proc = run(str(BIN / "bcast-opt"), EXAMPLE, *argv)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.endswith("bcast-opt: error: -p: a pipeline was already given; give one pipeline\n")


def test_a_malformed_pipeline_is_a_value_error_in_python() -> None:
    with pytest.raises(ValueError, match="invalid pass pipeline"):
        bcast.compile(Path(EXAMPLE).read_text(), pipeline="cse{")


@pytest.mark.parametrize("value", ["inf", "nan", "-5", "lots"])
def test_an_odd_output_cache_size_is_not_an_internal_error(value: str) -> None:
    proc = run(str(BIN / "bcast-run"), EXAMPLE, "--seed", "0", "--backend", "numpy",
               env={"BCAST_OUTPUT_CACHE_MB": value})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("result0: tensor<3x4xf32>")
