"""Saved programs: ``bcast.compile`` on the C backend keys what it built on
the input text and options before parsing (``api.saved_program_key``,
``c_runtime.ProgramEntry``), so the same text compiled again loads without
parsing or a pass, and calls exactly as the first compile did; any change
of the text, an option, bcast's code or the compiler is a new key, and a
damaged or partly evicted entry is rebuilt."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import bcast
from bcast.lowering import c_runtime
from bcast.tools import api, driver

ROW = """func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %a = bcast.add %x, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %t = bcast.tanh %a : tensor<4x3xf32>
  func.return %t : tensor<4x3xf32>
}
"""

PICK = """func.func @main(%x: tensor<4x3xf32>, %i: index) -> tensor<3xf32> {
  %r = bcast.extract %x[%i] : (tensor<4x3xf32>, index) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
"""

X = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
R = np.array([0.5, -1.0, 2.0], np.float32)


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def no_parsing(monkeypatch):
    """Parsing (and so every pass after it) fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(driver, "load", refuse)
    monkeypatch.setattr(driver, "prepare", refuse)
    return refuse


def entries(cache) -> list:
    return sorted(cache.glob("program-*.pickle"))


def test_the_same_text_loads_without_parsing_and_gives_the_same_bits(cache, monkeypatch, no_parsing):
    monkeypatch.undo()  # compile first with parsing allowed
    monkeypatch.setenv("BCAST_CACHE_DIR", str(cache))
    first = bcast.compile(ROW, backend="c")
    expected = first(X, R)
    assert len(entries(cache)) == 1
    monkeypatch.setattr(driver, "load", no_parsing)
    monkeypatch.setattr(driver, "prepare", no_parsing)
    again = bcast.compile(ROW, backend="c")
    got = again(X, R)
    assert got.tobytes() == expected.tobytes()
    assert again.c_source == first.c_source and again.arguments == first.arguments
    assert again.results == first.results and again.backend == "c"
    out = np.empty((4, 3), np.float32)
    assert again(X, R, out=out) is out and out.tobytes() == expected.tobytes()
    with pytest.raises(bcast.BcastError, match=r"arg1 \(%row\)"):
        again(X, np.zeros(4, np.float32))
    default = bcast.compile(ROW)  # backend=None chooses c: the same entry
    assert default.backend == "c" and default(X, R).tobytes() == expected.tobytes()


def test_a_saved_program_parses_when_its_module_is_asked_for(cache):
    first = bcast.compile(ROW, backend="c")
    again = bcast.compile(ROW, backend="c")
    assert "module" not in vars(again)  # not parsed yet
    assert [str(t) for t in again.input_types] == [str(t) for t in first.input_types]
    assert str(again.module) == str(first.module)


@pytest.mark.parametrize("change", ["text", "filename", "entry", "semantics", "pipeline", "code", "flags"])
def test_every_input_of_the_build_is_in_the_key(cache, monkeypatch, change):
    text, options = ROW + ROW.replace("@main", "@other"), {"backend": "c"}
    bcast.compile(text, **options)
    if change == "text":
        text = text.replace("bcast.tanh", "bcast.negate", 1)
    elif change == "filename":
        options["filename"] = "other.mlir"
    elif change == "entry":
        options["entry"] = "other"
    elif change == "semantics":
        options["semantics"] = "numpy"
    elif change == "pipeline":
        options["pipeline"] = api.STANDARD_PIPELINE
    elif change == "code":  # an edited bcast, another release
        monkeypatch.setattr(c_runtime, "code_version", lambda: "another bcast")
    elif change == "flags":  # the probes found another compiler or CPU
        real = c_runtime.flags
        monkeypatch.setattr(c_runtime, "flags", lambda cc: [*real(cc), "-DBCAST_SOMETHING_ELSE"])
    before = set(entries(cache))
    parsed = []
    real_load = driver.load
    monkeypatch.setattr(driver, "load", lambda *a, **k: parsed.append(1) or real_load(*a, **k))
    compiled = bcast.compile(text, **options)
    assert parsed  # a new key: compiled from the text
    assert set(entries(cache)) - before  # and saved under it
    assert compiled(X, R).shape == (4, 3)


def test_the_file_name_of_a_run_time_error_comes_from_the_saved_program(cache, no_parsing, monkeypatch):
    monkeypatch.undo()
    monkeypatch.setenv("BCAST_CACHE_DIR", str(cache))
    with pytest.raises(bcast.BcastError) as want:
        bcast.compile(PICK, backend="c", filename="pick.mlir")(X, 4)
    assert "pick.mlir:2:" in str(want.value)
    monkeypatch.setattr(driver, "load", no_parsing)
    saved = bcast.compile(PICK, backend="c", filename="pick.mlir")
    with pytest.raises(bcast.BcastError) as got:
        saved(X, 4)
    assert str(got.value) == str(want.value)
    assert saved(X, 3).tobytes() == X[3].tobytes()


@pytest.mark.parametrize("damage", [lambda data: b"", lambda data: data[: len(data) // 2],
                                    lambda data: b"not a pickle", lambda data: b"\x80\x05N."],
                         ids=["empty", "half", "garbage", "another object"])
def test_a_damaged_entry_is_rebuilt(cache, monkeypatch, damage):
    expected = bcast.compile(ROW, backend="c")(X, R)
    [entry] = entries(cache)
    damage = damage(entry.read_bytes())
    entry.write_bytes(damage)
    parsed = []
    real_load = driver.load
    monkeypatch.setattr(driver, "load", lambda *a, **k: parsed.append(1) or real_load(*a, **k))
    assert bcast.compile(ROW, backend="c")(X, R).tobytes() == expected.tobytes()
    assert parsed and entries(cache) == [entry] and entry.read_bytes() != damage
    assert bcast.compile(ROW, backend="c")(X, R).tobytes() == expected.tobytes()
    assert len(parsed) == 1  # the rewritten entry is found again


def test_an_entry_whose_library_was_evicted_rebuilds_it_without_parsing(cache, monkeypatch, no_parsing):
    monkeypatch.undo()
    monkeypatch.setenv("BCAST_CACHE_DIR", str(cache))
    expected = bcast.compile(ROW, backend="c")(X, R)
    for library in cache.glob("bcast-*.so"):
        library.unlink()
    monkeypatch.setattr(driver, "load", no_parsing)
    assert bcast.compile(ROW, backend="c")(X, R).tobytes() == expected.tobytes()
    assert len(list(cache.glob("bcast-*.so"))) == 1


def test_entries_are_bounded_with_the_libraries(cache, monkeypatch):
    monkeypatch.setenv("BCAST_CACHE_MAX_LIBRARIES", "0")
    assert bcast.compile(ROW, backend="c")(X, R).shape == (4, 3)
    assert entries(cache) == []
    monkeypatch.setenv("BCAST_CACHE_MAX_LIBRARIES", "2")
    for op in ("tanh", "negate", "exponential"):
        bcast.compile(ROW.replace("bcast.tanh", f"bcast.{op}"), backend="c")
    assert len(entries(cache)) == 2


def test_the_memory_guard_still_refuses_a_saved_program(cache, monkeypatch):
    bcast.compile(ROW, backend="c")
    monkeypatch.setattr(api, "available_memory", lambda: 16)
    with pytest.raises(bcast.BcastError, match=r"<source>:1:1: error: .*more than the 16 bytes"):
        bcast.compile(ROW, backend="c")


def test_dynamic_programs_are_not_saved(cache):
    text = ROW.replace("tensor<4x3xf32>", "tensor<?x3xf32>")
    assert bcast.compile(text, backend="c")(X, R).shape == (4, 3)
    assert entries(cache) == []


def test_compiling_bcast_ir_imports_no_stablehlo(cache):
    """The StableHLO and CHLO dialects (about 0.05 s to import) are loaded
    only for programs that hold their ops."""
    code = ("import sys, bcast\n"
            f"bcast.compile({ROW!r}, backend='c')\n"
            "print(sorted(m for m in sys.modules if 'stablehlo' in m or 'chlo' in m))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
