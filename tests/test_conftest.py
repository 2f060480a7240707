"""The test session's own setup (``tests/conftest.py``), on a small suite run
in a subprocess with a home and a temporary directory of its own: the C
backend's cache of a session is private and removed (a run leaves
``~/.cache/bcast`` untouched), and a quick run deselects the slow tests
and says so, while ``BCAST_SLOW_TESTS=1`` runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bcast.lowering import c_runtime

SUITE = '''
import os
from pathlib import Path

import numpy as np
import pytest

import bcast

SOURCE = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
"""


def test_compiles_into_the_session_cache():
    f = bcast.compile(SOURCE, backend="c")
    assert f(np.ones(3, np.float32)).tolist() == [2, 2, 2]
    cache = Path(os.environ["BCAST_CACHE_DIR"])
    assert cache.parent == Path(os.environ["TMPDIR"]) and len(list(cache.glob("bcast-*.so"))) == 1


@pytest.mark.slow
def test_slow():
    pass
'''


SAMPLED = '''
import pytest


@pytest.mark.parametrize("k", range(30))
def test_many(k):
    pass


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("k", range(6))
def test_marked(k):
    pass


@pytest.mark.parametrize("k", range(5))
def test_few(k):
    pass
'''


def run_suite(tmp_path: Path, suite_text: str = SUITE, *options: str,
              **env: str) -> tuple[subprocess.CompletedProcess, Path, Path]:
    suite, home, temp = tmp_path / "suite", tmp_path / "home", tmp_path / "tmp"
    for d in (suite, home, temp):
        d.mkdir(exist_ok=True)
    (suite / "conftest.py").write_text("from bcast.tests.conftest import *  # noqa: F403\n")
    (suite / "test_suite.py").write_text(suite_text)
    clean = {k: v for k, v in os.environ.items()
             if k not in ("BCAST_CACHE_DIR", "XDG_CACHE_HOME", "BCAST_SLOW_TESTS")}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", *options,
                           str(suite)],
                          cwd=suite, capture_output=True, text=True, timeout=600,
                          env={**clean, "HOME": str(home), "TMPDIR": str(temp), **env})
    return done, home, temp


@pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")
def test_a_quick_run_uses_a_private_cache_and_names_what_it_deselects(tmp_path):
    done, home, temp = run_suite(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 1 deselected" in done.stdout, done.stdout
    assert "quick run: 1 slow tests deselected" in done.stdout and "BCAST_SLOW_TESTS=1" in done.stdout
    assert not (home / ".cache").exists()  # ~/.cache/bcast untouched
    assert list(temp.iterdir()) == []  # the session's cache is removed


def test_a_quick_run_samples_long_parametrizations_and_runs_only_what_it_keeps(tmp_path):
    """A ``quick_share(2)`` mark and a parametrization of more than
    ``budget.MANY_CASES`` cases run a sample (the cases left out are
    deselected, not run, and counted in the summary); a short one runs
    whole; a thorough run runs every case."""
    from bcast.tests import budget

    done, _, _ = run_suite(tmp_path, SAMPLED, "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [line.split("::")[1].split("[")[0] for line in done.stdout.splitlines() if line.endswith("PASSED")
           or " PASSED " in line]
    assert ran.count("test_few") == 5
    assert 30 // budget.MANY_CASES_SHARE // 2 <= ran.count("test_many") <= 30 * 2 // budget.MANY_CASES_SHARE
    assert ran.count("test_marked") < 6
    assert f"{41 - len(ran)} deselected" in done.stdout and f"quick run: {41 - len(ran)} slow tests" in done.stdout
    done, _, _ = run_suite(tmp_path, SAMPLED, BCAST_SLOW_TESTS="1")
    assert "41 passed" in done.stdout and "deselected" not in done.stdout, done.stdout


@pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")
def test_a_thorough_run_runs_the_slow_tests(tmp_path):
    done, _, _ = run_suite(tmp_path, BCAST_SLOW_TESTS="1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout and "deselected" not in done.stdout, done.stdout
    assert "quick run" not in done.stdout


def test_this_session_has_a_private_cache():
    cache = Path(os.environ["BCAST_CACHE_DIR"])
    assert cache.name.startswith("bcast-test-cache-") and cache.is_dir()
    assert c_runtime.cache_dir() == cache
