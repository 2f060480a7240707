"""The first calls' build goes on from the first tier's module
(``api._load_rest``) instead of loading the text again: it must give the
module (and C source) the full load of the text gives, since the passes
are deterministic and a copy keeps every location and name
(docs/performance.md, "Compile time of big programs")."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from xdsl.printer import Printer

import bcast
from bcast.lowering import c_runtime
from bcast.tests.budget import examples
from bcast.tests.programs import programs
from bcast.tools import api, driver, first_calls
from bcast.tools.targets import STANDARD_PIPELINE

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))

CHAIN = """func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %a = bcast.add %x, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %d = bcast.divide %a, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %m = bcast.maximum %d, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %m : tensor<4x3xf32>
}
"""


def text_of(module) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def both(source: str):
    """(full load of the text, ``_load_rest`` of its first tier's module),
    each a printed module or the error's text; None when the first tier's
    load fails (the build then loads the text)."""
    try:
        started = api._load(source, "<t>", None, first_calls.QUICK_PIPELINE, "c", False)
    except driver.InputError:
        return None
    outcome = []
    for load in (lambda: api._load(source, "<t>", None, STANDARD_PIPELINE, "c", True),
                 lambda: api._load_rest(started, first_calls.QUICK_PIPELINE, None, STANDARD_PIPELINE, "c", True)):
        try:
            outcome.append(text_of(load()))
        except driver.InputError as e:
            outcome.append("\n".join(r.render() for r in e.reports))
    return outcome


@SETTINGS
@given(programs(max_ops=8, reductions=True))
def test_going_on_from_the_explicit_module_gives_the_full_loads_module(program):
    got = both(program.text)
    if got is not None:
        full, rest = got
        assert rest == full, program.text


def test_going_on_from_the_module_leaves_it_as_it_was():
    """The first tier still reads its module while the build runs: a copy is transformed."""
    started = api._load(CHAIN, "<t>", None, first_calls.QUICK_PIPELINE, "c", False)
    before = text_of(started)
    after = api._load_rest(started, first_calls.QUICK_PIPELINE, None, STANDARD_PIPELINE, "c", True)
    assert text_of(started) == before and text_of(after) != before


def test_a_pipeline_that_does_not_begin_with_the_done_part_loads_the_text():
    started = api._load(CHAIN, "<t>", None, first_calls.QUICK_PIPELINE, "c", False)
    assert api._load_rest(started, first_calls.QUICK_PIPELINE, None, "canonicalize,cse", "c", True) is None
    assert api._load_rest(started, first_calls.QUICK_PIPELINE, None, first_calls.QUICK_PIPELINE, "c", True) is None


@pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")
def test_the_first_calls_build_does_not_parse_again(monkeypatch, tmp_path):
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BCAST_FIRST_CALLS", "1")
    compiled = bcast.compile(CHAIN, backend="c")
    assert type(compiled) is first_calls.FirstCalls
    parsed = []
    real = driver.parse
    monkeypatch.setattr(driver, "parse", lambda *a, **k: parsed.append(a) or real(*a, **k))
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
    row = np.array([0.5, -1.0, 2.0], np.float32)
    first = compiled(x, row)
    compiled.wait()
    assert parsed == [] and compiled.built
    monkeypatch.setenv("BCAST_FIRST_CALLS", "0")
    monkeypatch.setattr(driver, "parse", real)
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path / "other"))
    waited = bcast.compile(CHAIN, backend="c")  # the text loaded again, as without the route
    assert waited.c_source == compiled.c_source
    assert text_of(waited.module) == text_of(compiled.module)
    assert np.array_equal(compiled(x, row), first) and np.array_equal(waited(x, row), first)
