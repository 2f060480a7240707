"""The C backend's library cache (``c_runtime.load``, ``c_runtime.evict``):
it stays within its bounds, evicting the least recently used library
first, takes its bounds from the environment, removes the leftovers of
dead builds, and is safe when processes build, load and evict in it at
once. (Building, caching under threads and the no-compiler error are in
``test_c_backend.py``.)"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import bcast
from bcast.lowering import c_runtime

pytestmark = pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")


def returning(value: int, padding: int = 0) -> str:
    """A C module whose ``answer()`` returns ``value``; ``padding`` bytes of
    initialized data make its library that much bigger."""
    data = f"const unsigned char padding[{padding}] = {{1}};\n" if padding else ""
    return f"{data}int answer(void) {{ return {value}; }}\n"


def answer(source: str) -> int:
    return c_runtime.load(source).answer()


def cached(directory) -> set[str]:
    return {p.name for p in directory.glob("bcast-*.so")}


def test_the_least_recently_used_library_is_evicted_first(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BCAST_CACHE_MAX_LIBRARIES", "2")
    assert answer(returning(1)) == 1
    first = cached(tmp_path)
    assert answer(returning(2)) == 2
    second = cached(tmp_path) - first
    assert len(first) == len(second) == 1
    assert answer(returning(1)) == 1  # a hit: 1 is now more recent than 2
    assert cached(tmp_path) == first | second
    assert answer(returning(3)) == 3
    assert len(cached(tmp_path)) == 2 and first <= cached(tmp_path) and not second & cached(tmp_path)


def test_a_hit_in_a_cache_shared_read_only_still_loads(monkeypatch, tmp_path):
    """Refreshing a hit's time needs write access; a cache another user owns
    (or a read-only mount) is still used, only without the refresh."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    assert answer(returning(7)) == 7

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(c_runtime.os, "utime", refused)
    assert answer(returning(7)) == 7


def test_the_size_bound_evicts_the_newest_that_breaks_it_and_all_older(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BCAST_CACHE_MAX_MB", "2")
    for value in (1, 2):
        assert answer(returning(value)) == value
    small = cached(tmp_path)
    assert len(small) == 2
    assert answer(returning(3, padding=2**20)) == 3  # 1 MiB + small ones: within 2 MiB
    assert small < cached(tmp_path)
    assert answer(returning(4, padding=2**20)) == 4  # the newest stays, everything older goes
    assert len(cached(tmp_path)) == 1
    assert sum(p.stat().st_size for p in tmp_path.glob("bcast-*.so")) > 2**20


def test_a_zero_bound_keeps_nothing_but_the_library_still_runs(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BCAST_CACHE_MAX_LIBRARIES", "0")
    assert answer(returning(7)) == 7  # mapped before its file was evicted
    assert cached(tmp_path) == set()


@pytest.mark.parametrize("name", list(c_runtime.CACHE_LIMITS))
@pytest.mark.parametrize("value", ["-1", "lots", "1.5", "²"])
def test_a_bad_cache_bound_is_a_clear_error(monkeypatch, tmp_path, name, value):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(name, value)
    src = "func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n  func.return %x : tensor<3xf32>\n}\n"
    with pytest.raises(bcast.BcastError, match=f"{name}=.*must be a non-negative integer"):
        bcast.compile(src, backend="c")


def test_eviction_removes_build_directories_of_dead_builds_only(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    dead, live = tmp_path / "bcast-build-dead", tmp_path / "bcast-build-live"
    for d in (dead, live):
        d.mkdir()
        (d / "module.c").write_text("int x;\n")
    old = time.time() - c_runtime.STALE_BUILD_SECONDS - 60
    os.utime(dead, (old, old))
    assert answer(returning(5)) == 5  # a build evicts
    assert not dead.exists() and live.exists()


def test_eviction_removes_program_entries_half_saved_by_dead_processes_only(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    dead, live = tmp_path / "program-dead.tmp", tmp_path / "program-live.tmp"
    for f in (dead, live):
        f.write_bytes(b"half a pickle")
    old = time.time() - c_runtime.STALE_BUILD_SECONDS - 60
    os.utime(dead, (old, old))
    assert answer(returning(6)) == 6  # a build evicts
    assert not dead.exists() and live.exists()


@pytest.mark.parametrize("hit", [False, True], ids=["built", "found"])
def test_an_eviction_waits_for_a_library_being_loaded(monkeypatch, tmp_path, hit):
    """A library just built, or found in the cache, stays on disk until it
    is mapped: an eviction that starts in between (from another thread
    here; the lock is the same between processes) removes it only after."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    source = returning(11 if hit else 12)
    if hit:
        assert answer(source) == 11
    real_cdll, events, evictors = ctypes.CDLL, [], []

    def evict_everything():
        c_runtime.evict(tmp_path, 0, 0)
        events.append("evicted")

    def map_while_evicting(path, *args, **kwargs):
        evictor = threading.Thread(target=evict_everything)
        evictor.start()
        evictors.append(evictor)
        evictor.join(timeout=1.0)  # without the lock, it removes the file now
        events.append(("mapped", Path(path).exists()))
        return real_cdll(path, *args, **kwargs)

    monkeypatch.setattr(c_runtime.ctypes, "CDLL", map_while_evicting)
    assert answer(source) == (11 if hit else 12)
    for evictor in evictors:
        evictor.join()
    assert events == [("mapped", True), "evicted"]
    assert cached(tmp_path) == set()


CONCURRENT = """
import random
import sys
from bcast.lowering import c_runtime
from bcast.tests.lowering.test_c_runtime import returning
worker = int(sys.argv[1])
for value in random.Random(worker).choices(range(8), k=12):
    got = c_runtime.load(returning(value)).answer()
    assert got == value, (worker, value, got)
print("ok")
"""


@pytest.mark.slow
def test_processes_building_loading_and_evicting_at_once(tmp_path):
    """Three processes load eight libraries in random orders with a bound of
    three, so one's builds evict what another has just found or is about
    to load: every load gets the whole library it asked for, none fails."""
    env = {**os.environ, "BCAST_CACHE_DIR": str(tmp_path), "BCAST_CACHE_MAX_LIBRARIES": "3"}
    workers = [subprocess.Popen([sys.executable, "-c", CONCURRENT, str(k)], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE) for k in range(3)]
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0 and out.strip() == "ok", err[-3000:]
    assert len(cached(tmp_path)) <= 3
    assert [p.name for p in tmp_path.iterdir()
            if not p.name.endswith(".so") and not re.fullmatch(r"probes-\w+\.txt", p.name)] == []  # no build left


def test_probe_results_are_remembered_across_processes(monkeypatch, tmp_path):
    """The compiler probes run once per machine and compiler, not once per
    process: a new process (here: the in-process caches cleared) reads them
    back, and an unreadable record runs them again."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    cc = tuple(c_runtime.require_compiler())
    c_runtime._flags.cache_clear()
    first = c_runtime.flags(list(cc))
    records = list(tmp_path.glob("probes-*.txt"))
    assert len(records) == 1 and records[0].read_text().split()[0] in "01"

    def no_probe(cc):
        raise AssertionError("probed again")

    monkeypatch.setattr(c_runtime, "_probe", no_probe)
    c_runtime._flags.cache_clear()
    assert c_runtime.flags(list(cc)) == first  # read back, not probed
    records[0].write_text("garbage\n")
    c_runtime._flags.cache_clear()
    with pytest.raises(AssertionError, match="probed again"):
        c_runtime.flags(list(cc))
    c_runtime._flags.cache_clear()


def test_the_probe_key_follows_the_compiler_command(monkeypatch):
    cc = tuple(c_runtime.require_compiler())
    assert c_runtime._probe_key(cc) == c_runtime._probe_key(cc)
    assert c_runtime._probe_key(cc) != c_runtime._probe_key((*cc, "-m32"))
    before = c_runtime._probe_key(cc)
    monkeypatch.setattr(c_runtime, "PROBES_VERSION", "other")
    assert c_runtime._probe_key(cc) != before


@pytest.mark.parametrize("user", [{}, {"OMP_WAIT_POLICY": "active"}, {"GOMP_SPINCOUNT": "300000"}])
def test_the_first_load_passes_a_short_openmp_spin_unless_the_user_chose(monkeypatch, tmp_path, user):
    """``c_runtime._open``: the process's first load of a library (the one
    that brings libgomp in, which reads its environment then) sees
    ``GOMP_SPINCOUNT=OPENMP_SPIN``, the environment is as before right
    after, later loads see nothing added, and a spin or wait policy the
    user set is left alone."""
    for name in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in user.items():
        monkeypatch.setenv(name, value)
    seen = []
    monkeypatch.setattr(c_runtime.ctypes, "CDLL", lambda path: seen.append(os.environ.get("GOMP_SPINCOUNT")))
    monkeypatch.setattr(c_runtime, "share_load", lambda library: None)  # no library was loaded
    monkeypatch.setattr(c_runtime, "_spin_passed", False)
    before = dict(os.environ)
    c_runtime._open(tmp_path / "first.so")
    c_runtime._open(tmp_path / "second.so")
    assert dict(os.environ) == before
    assert seen == [user.get("GOMP_SPINCOUNT", None if user else str(c_runtime.OPENMP_SPIN)),
                    user.get("GOMP_SPINCOUNT")]


def long_sum(terms: int) -> str:
    """A C module whose ``total(x)`` sums ``terms`` maxima, one statement each."""
    lines = ["float total(float x) {", "    float v0 = x;"]
    lines += [f"    float v{k} = (v{k - 1} >= x || v{k - 1} != v{k - 1}) ? v{k - 1} + 1.0f : x;" for k in range(1, terms)]
    lines += [f"    return v{terms - 1};", "}", ""]
    return "\n".join(lines)


def test_a_long_function_builds_without_the_superlinear_passes(monkeypatch, tmp_path):
    """``c_runtime.build_flags``: ``LONG_SOURCE_FLAGS`` for a function longer
    than ``LONG_FUNCTION_LINES`` only; bcast's own GEMM and convolution
    kernels and a short program build as ever; the long one runs."""
    from bcast.lowering import c_gemm

    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    cc = c_runtime.require_compiler()
    short, long = long_sum(10), long_sum(c_runtime.LONG_FUNCTION_LINES + 10)
    assert c_runtime.longest_function(short) == 11
    assert c_runtime.longest_function(long) == c_runtime.LONG_FUNCTION_LINES + 11
    assert c_runtime.longest_function(c_gemm.SOURCE) <= c_runtime.LONG_FUNCTION_LINES
    assert c_runtime.build_flags(cc, short) == c_runtime.flags(cc) == c_runtime.build_flags(cc, c_gemm.SOURCE)
    assert c_runtime.build_flags(cc, long) == [*c_runtime.flags(cc), *c_runtime.LONG_SOURCE_FLAGS]
    library = c_runtime.load(long)
    library.total.restype, library.total.argtypes = ctypes.c_float, [ctypes.c_float]
    assert library.total(2.0) == 2.0 + c_runtime.LONG_FUNCTION_LINES + 9  # x + (terms - 1)
