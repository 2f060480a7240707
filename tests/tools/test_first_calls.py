"""First calls of a new C-backend program while its library builds
(``bcast.tools.first_calls``): only programs of the rule take that route,
their first results are the library's bit for bit, and the switch to the
library keeps ``out=``, the argument checks and calls from several threads."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.lowering import c_runtime
from bcast.tests.budget import examples
from bcast.tools import api, first_calls

SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))

ROW = """func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %a = bcast.add %x, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %m = bcast.maximum %a, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %m : tensor<4x3xf32>
}
"""

X = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
R = np.array([0.5, -1.0, 2.0], np.float32)


@pytest.fixture(autouse=True)
def cache(monkeypatch, tmp_path):
    """A cache of this test (every program is new), the route on."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("BCAST_FIRST_CALLS", "1")
    yield tmp_path
    first_calls.wait_for_builds()


def special_values(dtype) -> np.ndarray:
    """NaNs of both signs and two payloads, infinities, signed zeros,
    subnormals, the largest and smallest normals, ordinary values."""
    info = np.finfo(dtype)
    bits = np.uint32 if dtype == np.float32 else np.uint64
    nan = np.array([np.nan], dtype)
    payload = (nan.view(bits) | bits(1)).view(dtype)
    values = [nan[0], -nan[0], payload[0], -payload[0], np.inf, -np.inf, 0.0, -0.0,
              info.smallest_subnormal, -info.smallest_subnormal, info.tiny, -info.tiny,
              info.max, -info.max, 1.0, -1.0, 0.1, 3.0, -2.5, 1e-30]
    return np.array(values, dtype)


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit, but for which NaN where both are NaN: when two NaNs
    meet in ``+ - *``, IEEE 754 leaves open whose sign and payload the result
    has, and the C compiler may swap the operands of ``+`` and ``*``."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    bits = np.uint32 if a.dtype == np.float32 else np.uint64
    both = np.isnan(a) & np.isnan(b)
    return bool(np.array_equal(np.where(both, 0, a.view(bits)), np.where(both, 0, b.view(bits))))


EXAMPLE = itertools.count()
OPS = ("add", "subtract", "multiply", "maximum", "minimum", "negate")


@st.composite
def programs(draw):
    """A random program of the rule: a chain over a (rows, cols) ``x`` and a
    row broadcast against it, in f32 or f64."""
    t = draw(st.sampled_from(["f32", "f64"]))
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 37))
    m, r = f"tensor<{rows}x{cols}x{t}>", f"tensor<{cols}x{t}>"
    lines = [f"func.func @main(%x: {m}, %row: {r}) -> {m} {{"]
    values = ["%x"]
    for k in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(OPS))
        a = draw(st.sampled_from(values))
        if op == "negate":
            lines.append(f"  %v{k} = bcast.negate {a} : {m}")
        else:
            b = draw(st.sampled_from([*values, "%row"]))
            bt = r if b == "%row" else m
            lines.append(f"  %v{k} = bcast.{op} {a}, {b} : ({m}, {bt}) -> {m}")
        values.append(f"%v{k}")
    lines += [f"  func.return {values[-1]} : {m}", "}"]
    dtype = np.float32 if t == "f32" else np.float64
    pool = special_values(dtype)
    x = draw(st.lists(st.sampled_from(list(range(len(pool)))), min_size=rows * cols, max_size=rows * cols))
    row = draw(st.lists(st.sampled_from(list(range(len(pool)))), min_size=cols, max_size=cols))
    return "\n".join(lines), pool[x].reshape(rows, cols), pool[row]


@SETTINGS
@given(case=programs())
def test_first_results_are_the_librarys_bit_for_bit(case):
    source, x, row = case
    source = f"// example {next(EXAMPLE)}: a new text, so not a saved program\n{source}"
    compiled = bcast.compile(source, backend="c")
    assert type(compiled) is first_calls.FirstCalls and not compiled.built
    first = compiled(x, row)
    compiled.wait()
    assert compiled.built
    later = compiled(x, row)
    assert first.dtype == later.dtype and first.shape == later.shape
    assert same(first, later), source
    # and the first tier on other values (every pair of special values)
    pool = special_values(x.dtype)
    grid = np.resize(pool, x.size).reshape(x.shape)
    for shift in range(len(pool)):
        other = np.roll(pool, shift)[: row.size] if row.size <= len(pool) else np.resize(np.roll(pool, shift), row.size)
        assert same(compiled.plan(grid, other), compiled(grid, other)), source


def test_the_rule_detects_what_it_must():
    """The check above can fail: NumPy's fmax (which drops NaN) in place of
    the C expression gives other bits on the special values."""
    pool = special_values(np.float32)
    a, b = np.meshgrid(pool, pool)
    assert first_calls._maximum(a, b).tobytes() != np.fmax(a, b).tobytes()
    c = (a > b) | (a != a)
    expected = np.array([x if k else y for x, y, k in zip(a.ravel(), b.ravel(), c.ravel())], np.float32)
    assert first_calls._maximum(a, b).ravel().tobytes() == expected.tobytes()


def test_no_plan_outside_the_rule():
    from bcast.tools import driver

    module = driver.load(ROW.replace("bcast.maximum", "bcast.divide"), "<test>", pipeline=first_calls.QUICK_PIPELINE)
    function = next(iter(module.ops))
    assert not first_calls.eligible(function)
    with pytest.raises(ValueError, match="outside the first-call rule"):
        first_calls.Plan(function)


def test_a_program_outside_the_rule_by_its_text_is_parsed_once(monkeypatch):
    from bcast.tools import driver

    loads = []
    load = driver.load
    monkeypatch.setattr(driver, "load", lambda *a, **k: (loads.append(1), load(*a, **k))[1])
    source = ROW.replace("%m = bcast.maximum %a, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>",
                         "%m = bcast.tanh %a : tensor<4x3xf32>")
    assert not first_calls.may_be_eligible(source) and first_calls.may_be_eligible(ROW)
    assert type(bcast.compile(source, backend="c")) is api.Compiled and len(loads) == 1


OUTSIDE = {
    "tanh": "%y = bcast.tanh %x : tensor<4x3xf32>",
    "divide": "%y = bcast.divide %x, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
    "constant": ("%c = bcast.constant dense<1.5> : tensor<4x3xf32>\n"
                 "  %y = bcast.add %x, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>"),
    "reduction": ("%s = bcast.reduce add %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>\n"
                  "  %y = bcast.add %x, %s : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>"),
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_programs_outside_the_rule_compile_as_before(name):
    source = (f"func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {{\n  {OUTSIDE[name]}\n"
              "  func.return %y : tensor<4x3xf32>\n}\n")
    compiled = bcast.compile(source, backend="c")
    assert type(compiled) is api.Compiled and compiled.backend == "c"


@pytest.mark.parametrize("source", [
    ROW.replace("f32", "f16"),
    ROW.replace("f32", "i32").replace("maximum", "add"),
    ROW.replace("tensor<4x3xf32>", "tensor<?x3xf32>"),
], ids=["f16", "i32", "dynamic"])
def test_types_outside_the_rule_compile_as_before(source):
    compiled = bcast.compile(source, backend="c")
    assert type(compiled) is api.Compiled


def test_the_route_is_off_with_bcast_first_calls_0(monkeypatch):
    monkeypatch.setenv("BCAST_FIRST_CALLS", "0")
    assert type(bcast.compile(ROW, backend="c")) is api.Compiled


def test_a_compiler_told_to_round_otherwise_takes_no_first_calls():
    """Asked of the rule, not by a build (a build with each flag is in
    tests/lowering/test_c_float_environment.py, in processes of their own)."""
    cc = c_runtime.compiler()[0]
    assert first_calls.exact_compiler([cc])
    assert not any(first_calls.exact_compiler([cc, flag]) for flag in first_calls.INEXACT_FLAGS)


def test_a_given_pipeline_compiles_as_before():
    assert type(bcast.compile(ROW, backend="c", pipeline=api.STANDARD_PIPELINE)) is api.Compiled


@pytest.fixture
def gate(monkeypatch):
    """Builds wait until ``gate.set()``: calls before it run the first tier."""
    gate = threading.Event()
    build = api._compile_new

    def gated(*args, **kwargs):
        gate.wait()
        return build(*args, **kwargs)

    monkeypatch.setattr(api, "_compile_new", gated)
    yield gate
    gate.set()


def errors_of(compiled) -> list[str]:
    """The messages of wrong calls: the count, a shape, a lossy dtype, an
    ``out`` of the wrong dtype and of the wrong shape."""
    found = []
    for args, kwargs in [((X,), {}), ((X, np.zeros(4, np.float32)), {}), ((X.astype(np.float64), R), {}),
                         ((X, R), {"out": np.empty((4, 3), np.float64)}),
                         ((X, R), {"out": np.empty((3, 4), np.float32)})]:
        with pytest.raises(bcast.BcastError) as e:
            compiled(*args, **kwargs)
        found.append(str(e.value))
    return found


def test_out_and_argument_errors_are_the_librarys(gate):
    compiled = bcast.compile(ROW, backend="c")
    out = np.full((4, 3), 7, np.float32)
    assert compiled(X, R, out=out) is out
    first_errors = errors_of(compiled)
    assert not compiled.built
    gate.set()
    compiled.wait()
    again = np.empty((4, 3), np.float32)
    assert compiled(X, R, out=again) is again and again.tobytes() == out.tobytes()
    assert errors_of(compiled) == first_errors


def test_an_out_overlapping_an_input_gets_fresh_values():
    source = ROW.replace("%row: tensor<3xf32>", "%row: tensor<4x3xf32>").replace(
        "(tensor<4x3xf32>, tensor<3xf32>)", "(tensor<4x3xf32>, tensor<4x3xf32>)")
    compiled = bcast.compile(source, backend="c")
    x, r = X.copy(), np.resize(R, (4, 3)).astype(np.float32)
    expected = np.where((x + r > r) | (x + r != x + r), x + r, r)
    assert compiled(x, r, out=x) is x and x.tobytes() == expected.tobytes()


def test_threads_calling_across_the_switch_get_the_same_bits(gate):
    compiled = bcast.compile(ROW, backend="c")
    expected = compiled(X, R)  # starts the build, which waits for the gate
    got: list[tuple[bool, bytes]] = []
    lock = threading.Lock()
    called = threading.Barrier(5)  # every thread has called once on the first tier

    def caller():
        while True:
            built = compiled.built  # read before the call: a call after the switch ends the loop
            value = compiled(X, R).tobytes()
            with lock:
                got.append((built, value))
            if len(got) <= 4 and not built:
                called.wait()
            if built:
                return

    threads = [threading.Thread(target=caller) for _ in range(4)]
    for t in threads:
        t.start()
    called.wait()
    gate.set()  # the switch happens while the threads call
    for t in threads:
        t.join()
    assert compiled.built and compiled._python_function is compiled.wait()._python_function
    assert {value for _, value in got} == {expected.tobytes()}
    assert sum(not built for built, _ in got) >= 4 and sum(built for built, _ in got) == 4


def test_the_build_saves_the_program_and_gives_what_compile_gives(cache):
    quick = bcast.compile(ROW, backend="c")
    quick(X, R)
    quick.wait()
    again = bcast.compile(ROW, backend="c")  # saved by the build: loaded, not rebuilt
    assert type(again) is api.Compiled and again.program is not None
    assert quick.c_source == again.c_source and quick.arguments == again.arguments
    assert quick.results == again.results and quick.result_types == again.result_types
    assert quick.module is quick.wait().module


def test_a_failed_build_keeps_the_first_tier(monkeypatch):
    def fail(*args, **kwargs):
        raise bcast.BcastError("error: the build failed")

    monkeypatch.setattr(api, "_compile_new", fail)
    quick = bcast.compile(ROW, backend="c")
    first = quick(X, R)
    quick.start_build().join()
    assert not quick.built and quick(X, R).tobytes() == first.tobytes()
    with pytest.raises(bcast.BcastError, match="the build failed"):
        quick.c_source


def test_a_fresh_machine_runs_the_probes_in_the_build(cache, monkeypatch):
    monkeypatch.setattr(c_runtime, "_answered", set())  # this process has not probed either
    c_runtime._flags.cache_clear()
    cc = c_runtime.compiler()
    assert not c_runtime.flags_known(cc)
    quick = bcast.compile(ROW, backend="c")
    assert type(quick) is first_calls.FirstCalls and not c_runtime.flags_known(cc)
    quick(X, R)
    quick.wait()
    assert c_runtime.flags_known(cc) and list(cache.glob("probes-*.txt"))
    assert len(list(cache.glob("program-*.pickle"))) == 1


def test_a_machine_that_built_before_takes_the_same_route(cache):
    other = bcast.compile(ROW.replace("maximum", "minimum"), backend="c")
    other.wait()
    assert c_runtime.flags_known(c_runtime.compiler())
    quick = bcast.compile(ROW, backend="c")
    assert type(quick) is first_calls.FirstCalls and not quick.built


def test_a_bad_cache_limit_is_still_reported_by_compile(monkeypatch):
    monkeypatch.setenv("BCAST_CACHE_MAX_MB", "lots")
    with pytest.raises(bcast.BcastError, match="BCAST_CACHE_MAX_MB"):
        bcast.compile(ROW, backend="c")


def test_several_results_an_argument_and_a_value_returned_twice(gate):
    """Each result is an array the caller owns, as the library's are: a
    returned argument is a copy, a value returned twice two arrays; an
    unused value is computed and dropped."""
    source = """func.func @main(%x: tensor<2x3xf32>, %r: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = bcast.add %x, %r : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %unused = bcast.multiply %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %a, %x, %a : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}"""
    compiled = bcast.compile(source, backend="c")
    x, r = np.ones((2, 3), np.float32), np.arange(3, dtype=np.float32)
    first = compiled(x, r)
    assert not compiled.built
    gate.set()
    compiled.wait()
    later = compiled(x, r)
    for got in (first, later):
        assert len(got) == 3 and got[0] is not got[2] and not any(v is x for v in got)
        assert all(v.flags.writeable and v.flags.owndata for v in got)
    assert all(same(a, b) for a, b in zip(first, later))
