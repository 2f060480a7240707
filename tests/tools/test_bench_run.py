"""``benchmarks/run.py``'s sweep machinery (docs/performance.md, "Benchmarks"):
a peer group timed in a process of its own, and the time-per-element plot,
which is optional (matplotlib is the ``bench`` extra)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from bcast.tests.paths import ROOT

RUN = ROOT / "benchmarks" / "run.py"


@pytest.fixture(scope="module")
def run():
    spec = importlib.util.spec_from_file_location("bench_run", RUN)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_own_process_child_times_only_its_group():
    done = subprocess.run([sys.executable, str(RUN), "--child", "numpy", "a", "16", "1"],
                          capture_output=True, text=True, check=True)
    medians = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(medians) == {"numpy eager", "numpy out="}
    assert all(0 < t < 1 for t in medians.values())


def test_groups_cover_every_peer_but_the_floors(run):
    import numpy as np

    args = run.inputs("a", 16, np.random.default_rng(0))
    grouped = [v.name for build in run.GROUPS.values() for v in build("a", 16, args)]
    every = [v.name for v in run.peers("a", 16, args)]
    assert [name for name in every if name not in grouped] == [
        v.name for v in run._floors(16, run._optional("numba"))]


MEDIANS = {"a": {16: {"numpy eager": 1e-6, "numpy eager (own process)": 2e-6}, 64: {"numpy eager": 4e-6}}}


def test_plot_writes_a_png(run, tmp_path):
    """matplotlib is in the ``test`` extra, so the plot is drawn here."""
    path = tmp_path / "sweep.png"
    assert run.plot_if_possible(MEDIANS, str(path)) == f"plot: {path}"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_standing_picks_bcast_c_against_the_fastest_peer(run):
    """Copy floors and bcast's numpy backend are not peers; the fastest C
    variant is compared."""
    times = {"bcast c (2t)": 3.0, "bcast c out= (1t)": 2.0, "bcast numpy": 0.5, "copy floor 1t (copyto)": 0.1,
             "numba (2t)": 1.9, "jax.jit": 4.0}
    assert run.standing(times) == ("bcast c out= (1t)", 2.0, "numba (2t)", 1.9)
    assert run.standing({"numba (2t)": 1.0}) is None


def test_standing_table_counts_the_cells_behind(run, capsys):
    medians = {"a": {16: {"bcast c (1t)": 1.0, "numba (2t)": 2.0,
                          "bcast c (1t) (own process)": 1.1, "numba (2t) (own process)": 1.0}}}
    assert run.standing_table(medians) == 1  # own processes: 1.10x behind
    out = capsys.readouterr().out
    assert "** 1.10" in out and " 0.50" in out


def test_no_matplotlib_no_plot_and_no_error(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    path = tmp_path / "sweep.png"
    assert "matplotlib is not installed" in run.plot_if_possible(MEDIANS, str(path))
    assert not path.exists()


def test_threads_beside_counts_the_busy_thread():
    """threads_beside.py --threads: the CPU time of a thread that spins
    during the call is counted, under that thread (not the main one)."""
    import threading
    import time

    spec = importlib.util.spec_from_file_location("threads_beside", ROOT / "benchmarks" / "threads_beside.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stop = threading.Event()
    spinner = threading.Thread(target=lambda: [None for _ in iter(stop.is_set, True)], daemon=True)
    spinner.start()
    try:
        wall, by_thread = module.busy_during(lambda: time.sleep(0.2))
    finally:
        stop.set()
        spinner.join()
    assert wall >= 0.2
    assert by_thread["main"][0] < 50  # the main thread slept
    assert max(ms for name, (ms, _) in by_thread.items() if name != "main") > 20  # the spinner ran


def test_c_variants_of_a_new_program_are_its_threaded_library(run, monkeypatch, tmp_path):
    """A new program's first call may run before its library is built
    (tools/first_calls.py): the harness must still find that library's
    OpenMP, so its one-thread rows are one thread and its all-thread rows
    exist (they were labelled one thread while running on all)."""
    import numpy as np

    monkeypatch.setenv("BCAST_FIRST_CALLS", "1")
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    args = run.inputs("a", 1024, np.random.default_rng(0))
    from bcast.lowering import c_runtime

    cc = c_runtime.compiler()
    if cc is None or not c_runtime._openmp_works(tuple(cc)) or (os.cpu_count() or 1) < 2:
        pytest.skip("no C compiler with OpenMP, or one core")
    variants = run._c_backend("a", 1024, args)
    assert [v.name for v in variants][2:] == ["bcast c (1t)", "bcast c out= (1t)"]
    assert all(v.call is not None and v.name.endswith("t)") for v in variants), [v.name for v in variants]
