"""Run the lit + FileCheck tests in tests/filecheck, one pytest case per file.

lit is started once per pytest session, over exactly the files pytest
selected (``-k`` works), with one worker per CPU; each pytest case then
reports its own file's result, with lit's output for that file on failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FILECHECK_DIR = Path(__file__).resolve().parent / "filecheck"
SUITE = "bcast"  # config.name in tests/filecheck/lit.cfg.py
TESTS = sorted(p for p in FILECHECK_DIR.rglob("*.mlir") if "Output" not in p.parts)

STATUS = re.compile(rf"^([A-Z]+): {SUITE} :: (.+) \(\d+ of \d+\)$", re.MULTILINE)
FAILURE_BLOCK = re.compile(
    rf"^\*{{20}} TEST '{SUITE} :: (.+?)' FAILED \*{{20}}$\n(.*?)^\*{{20}}$", re.MULTILINE | re.DOTALL
)


def _lit_command() -> list[str]:
    """``lit`` next to this interpreter, else on PATH, else through its module."""
    here = Path(sys.executable).parent / "lit"
    if here.exists():
        return [str(here)]
    found = shutil.which("lit")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys, lit.main; sys.exit(lit.main.main())"]


def _env() -> dict[str, str]:
    """PATH with this interpreter's bin dir first, so the bcast-opt and
    filecheck of this environment are the ones the RUN lines use."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def _name(path: Path) -> str:
    return path.relative_to(FILECHECK_DIR).as_posix()


@pytest.fixture(scope="session")
def lit_results(request: pytest.FixtureRequest) -> dict[str, tuple[str, str]]:
    """Run lit once over the selected files: name -> (status, output)."""
    selected = sorted(
        {
            item.callspec.params["path"]
            for item in request.session.items
            if getattr(item, "originalname", None) == "test_filecheck"
            and hasattr(item, "callspec")
        }
    ) or TESTS
    proc = subprocess.run(
        _lit_command() + ["-v", f"-j{os.cpu_count() or 1}", *map(str, selected)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=600,
    )
    results = {name: (status, "") for status, name in STATUS.findall(proc.stdout)}
    for name, block in FAILURE_BLOCK.findall(proc.stdout):
        results[name] = (results.get(name, ("FAIL", ""))[0], block)
    results["<lit>"] = (str(proc.returncode), f"{proc.stdout}\n{proc.stderr}")
    return results


def test_found_filecheck_tests() -> None:
    assert TESTS, f"no .mlir tests under {FILECHECK_DIR}"


@pytest.mark.parametrize("path", TESTS, ids=[_name(p) for p in TESTS])
def test_filecheck(path: Path, lit_results: dict[str, tuple[str, str]]) -> None:
    name = _name(path)
    if name not in lit_results:
        code, output = lit_results["<lit>"]
        pytest.fail(f"lit reported no result for {name} (exit {code}):\n{output}")
    status, output = lit_results[name]
    assert status == "PASS", f"lit: {status}: {name}\n{output}"
