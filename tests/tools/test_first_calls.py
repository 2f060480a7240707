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
from bcast.ir import numerics
from bcast.lowering import c_runtime
from bcast.tests import edge_values
from bcast.tests.budget import examples
from bcast.tests.programs import as_tuple
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
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    bits = np.uint32 if a.dtype == np.float32 else np.uint64
    both = np.isnan(a) & np.isnan(b)
    return bool(np.array_equal(np.where(both, 0, a.view(bits)), np.where(both, 0, b.view(bits))))


EXAMPLE = itertools.count()
BINARY = {
    "float": ("add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum"),
    "int": ("add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
            "shift_left", "shift_right_arithmetic", "shift_right_logical", "power"),
}
UNARY = {
    "float": ("negate", "abs", "sqrt", "rsqrt", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "sign"),
    "int": ("negate", "abs", "sign", "not", "popcnt"),
    "bool": ("not",),
}
REDUCTIONS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")
ELEMENTS = ("f32", "f64", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64")
DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")


def pool_of(t: str) -> np.ndarray:
    """The values a program's inputs and constants are drawn from: the
    special floats above, or every edge value of the type (test_op_matrix's)."""
    return special_values(edge_values.dtype(t).type) if t.startswith("f") else edge_values.edges(t)


def literal(value) -> str:
    """A constant's element as MLIR text: a float by its bits (NaN payloads kept)."""
    if value.dtype.kind == "f":
        return "0x" + value.tobytes()[::-1].hex().upper()
    return str(int(value))


@st.composite
def programs(draw):
    """A random program of the rule: a chain over a (rows, cols) ``x`` and
    a row broadcast against it, in one element type, of the exactly rounded
    ops: binary and unary ops, clamp, compare and select, constants,
    conversions to another element type (``i1`` too) and back, and integer
    reductions. Any of ``x``'s dims and the row's may be ``?`` (a ``?``
    row against static columns is checked at run time, and may be 1 then)."""
    t = draw(st.sampled_from(["f32", "f64", *ELEMENTS]))  # floats a third of the time
    kind = "float" if t.startswith("f") else "int"
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 37))
    dynamic_cols = draw(st.booleans())
    # ? and ? give ?; ? against n > 1 gives n (against 1, ?: the declared type would be
    # more static than the inferred one, which a shape assertion outside the rule checks)
    dynamic_row = dynamic_cols or (cols > 1 and draw(st.booleans()))
    R, C = ("?" if draw(st.booleans()) else rows), ("?" if dynamic_cols else cols)
    m, r = f"tensor<{R}x{C}x{t}>", f"tensor<{'?' if dynamic_row else cols}x{t}>"
    kept = 1 if dynamic_cols else cols  # a constant's length: 1 stretches to a ? dim
    dtype = edge_values.dtype(t)
    if kind == "float":  # and ordinary values, where roundings differ if anywhere
        ordinary = draw(st.lists(st.floats(-8, 8, width=8 * dtype.itemsize), min_size=8, max_size=8))
    else:
        info = np.iinfo(dtype)
        ordinary = draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=8, max_size=8))
    pool = np.concatenate([pool_of(t), np.array(ordinary, dtype)])
    lines = ["func.func @main(%x: {m}, %row: {r}) -> ({results}) {{"]
    values = ["%x"]

    def operand():
        b = draw(st.sampled_from([*values, "%row"]))
        return b, (r if b == "%row" else m)

    for k in range(draw(st.integers(1, 8))):
        shapes = ["binary", "unary", "constant", "clamp", "select", "convert", *(["reduce"] if kind == "int" else [])]
        shape = draw(st.sampled_from(shapes))
        a = draw(st.sampled_from([values[-1]] * len(values) + values))  # mostly a chain: each op counts
        if shape == "binary":
            b, bt = operand()
            lines.append(f"  %v{k} = bcast.{draw(st.sampled_from(BINARY[kind]))} {a}, {b} : ({m}, {bt}) -> {m}")
        elif shape == "unary":
            lines.append(f"  %v{k} = bcast.{draw(st.sampled_from(UNARY[kind]))} {a} : {m}")
        elif shape == "constant":
            chosen = draw(st.lists(st.sampled_from(range(len(pool))), min_size=kept, max_size=kept))
            items = ", ".join(literal(pool[i]) for i in chosen)
            op = draw(st.sampled_from(BINARY[kind]))
            c = f"tensor<{kept}x{t}>"
            lines.append(f"  %c{k} = bcast.constant dense<[{items}]> : {c}")
            lines.append(f"  %v{k} = bcast.{op} {a}, %c{k} : ({m}, {c}) -> {m}")
        elif shape == "clamp":
            (lo, lt), (hi, ht) = operand(), operand()
            lines.append(f"  %v{k} = bcast.clamp {lo}, {a}, {hi} : ({lt}, {m}, {ht}) -> {m}")
        elif shape == "select":
            (b, bt), (c, ct) = operand(), operand()
            direction = draw(st.sampled_from(DIRECTIONS))
            p = f"tensor<{R}x{C}xi1>"
            lines.append(f"  %p{k} = bcast.compare {direction}, {a}, {b} : ({m}, {bt}) -> {p}")
            lines.append(f"  %v{k} = bcast.select %p{k}, {a}, {c} : ({p}, {m}, {ct}) -> {m}")
        elif shape == "reduce":  # along the rows, kept, then combined with its operand
            reduction = draw(st.sampled_from(REDUCTIONS))
            s = f"tensor<{R}x1x{t}>"
            lines.append(f"  %s{k} = bcast.reduce {reduction} {a}, dims = [1] keepdims : ({m}) -> {s}")
            lines.append(f"  %v{k} = bcast.{draw(st.sampled_from(BINARY[kind]))} {a}, %s{k} : ({m}, {s}) -> {m}")
        else:
            other = draw(st.sampled_from([e for e in (*ELEMENTS, "i1") if e != t]))
            o = f"tensor<{R}x{C}x{other}>"
            okind = "float" if other.startswith("f") else "bool" if other == "i1" else "int"
            lines.append(f"  %w{k} = bcast.convert {a} : ({m}) -> {o}")
            lines.append(f"  %u{k} = bcast.{draw(st.sampled_from(UNARY[okind]))} %w{k} : {o}")
            lines.append(f"  %v{k} = bcast.convert %u{k} : ({o}) -> {m}")
        values.append(f"%v{k}")
    returned = values[1:]  # every op's value is a result: a rounding difference cannot hide in a later op
    lines[0] = lines[0].format(m=m, r=r, results=", ".join([m] * len(returned)))
    lines += [f"  func.return {', '.join(returned)} : {', '.join([m] * len(returned))}", "}"]
    x = draw(st.lists(st.sampled_from(range(len(pool))), min_size=rows * cols, max_size=rows * cols))
    length = 1 if dynamic_row and draw(st.booleans()) else cols  # a ? row of 1 stretches at run time
    row = draw(st.lists(st.sampled_from(range(len(pool))), min_size=length, max_size=length))
    return "\n".join(lines), pool[x].reshape(rows, cols), pool[row]


@SETTINGS
@given(case=programs())
def test_first_results_are_the_librarys_bit_for_bit(case):
    source, x, row = case
    source = f"// example {next(EXAMPLE)}: a new text, so not a saved program\n{source}"
    compiled = bcast.compile(source, backend="c")
    assert type(compiled) is first_calls.FirstCalls and not compiled.built
    first = as_tuple(compiled(x, row))
    compiled.wait()
    assert compiled.built
    later = as_tuple(compiled(x, row))
    assert len(first) == len(later)
    assert all(same(a, b) for a, b in zip(first, later)), source
    # and the first tier on other values (every pair of special values)
    pool = pool_of(numerics.element_of(x))
    grid = np.resize(pool, x.size).reshape(x.shape)
    for shift in range(len(pool)):
        other = np.roll(pool, shift)[: row.size] if row.size <= len(pool) else np.resize(np.roll(pool, shift), row.size)
        assert all(same(a, b) for a, b in zip(as_tuple(compiled.plan(grid, other)), as_tuple(compiled(grid, other)))), source
    # and at another size: the same bits from a program with ? rows, the same error from one without
    taller = np.resize(grid, (x.shape[0] + 2, x.shape[1]))
    assert outcome(tier_one(compiled), taller, row) == outcome(compiled, taller, row), source


def tier_one(compiled: first_calls.FirstCalls) -> api.Compiled:
    """``compiled``'s first tier behind the API (its argument checks and
    error wording), whether or not the library is built."""
    quick = first_calls.FirstCalls(compiled.plan, compiled.entry, compiled.wait)
    quick._python_function = compiled.plan
    return quick


def outcome(compiled, *args) -> tuple:
    """A call's results as bits (NaNs' signs and payloads aside, ``same``), or its error."""
    try:
        results = as_tuple(compiled(*args))
    except bcast.BcastError as e:
        return ("error", str(e))
    return ("ok", tuple((r.dtype.str, r.shape, np.where(np.isnan(r), 0, r).tobytes() if r.dtype.kind == "f"
                         else r.tobytes()) for r in results))


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

    module = driver.load(ROW.replace("bcast.maximum", "bcast.power"), "<test>", pipeline=first_calls.QUICK_PIPELINE)
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
    "float power": "%y = bcast.power %x, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
    "bitcast": ("%i = bcast.bitcast_convert %x : (tensor<4x3xf32>) -> tensor<4x3xi32>\n"
                "  %y = bcast.bitcast_convert %i : (tensor<4x3xi32>) -> tensor<4x3xf32>"),
    "total order": ("%p = bcast.compare LT, %x, %x, TOTALORDER : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>\n"
                    "  %y = bcast.select %p, %x, %x : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>"),
    "maximum of constants": ("%c = bcast.constant dense<0.0> : tensor<4x3xf32>\n"
                             "  %d = bcast.constant dense<-0.0> : tensor<4x3xf32>\n"
                             "  %m = bcast.maximum %c, %d : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>\n"
                             "  %y = bcast.add %x, %m : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>"),
    "reduction": ("%s = bcast.reduce add %x, dims = [1] keepdims : (tensor<4x3xf32>) -> tensor<4x1xf32>\n"
                  "  %y = bcast.add %x, %s : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>"),
}


def main_of(body: str) -> str:
    """``@main(%x: tensor<4x3xf32>)`` of ``body``, returning its ``%y``."""
    return (f"func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {{\n  {body}\n"
            "  func.return %y : tensor<4x3xf32>\n}\n")


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_programs_outside_the_rule_compile_as_before(name):
    compiled = bcast.compile(main_of(OUTSIDE[name]), backend="c")
    assert type(compiled) is api.Compiled and compiled.backend == "c"


@pytest.mark.parametrize("source", [
    ROW.replace("f32", "f16"),
    ROW.replace("tensor<4x3xf32>", "tensor<?x3xf32>").replace("bcast.maximum", "bcast.atan2"),
    # a ? row against 1 column gives ?, declared 1: a shape assertion (size_to_tensor) checks it
    ROW.replace("tensor<4x3xf32>", "tensor<4x1xf32>").replace("tensor<3xf32>", "tensor<?xf32>"),
], ids=["f16", "dynamic atan2", "shape assertion"])
def test_types_outside_the_rule_compile_as_before(source):
    compiled = bcast.compile(source, backend="c")
    assert type(compiled) is api.Compiled


DYNAMIC = ROW.replace("tensor<4x3xf32>", "tensor<?x3xf32>").replace("tensor<3xf32>", "tensor<?xf32>")


def test_dynamic_dims_take_first_calls_at_every_size():
    """The plan reads the sizes at each call: rows of any count, a ``?`` row
    of 3 or of 1 (which stretches, as NumPy's does)."""
    compiled = bcast.compile(DYNAMIC, backend="c")
    assert type(compiled) is first_calls.FirstCalls
    cases = [(np.resize(X, (n, 3)), r) for n in (4, 1, 7, 0) for r in (R, R[:1])]
    first = [compiled(*args) for args in cases]
    compiled.wait()
    for args, got in zip(cases, first):
        assert got.shape == (args[0].shape[0], 3) and same(got, compiled(*args))


def test_a_failed_size_check_gives_the_librarys_error():
    """A ``?`` size that does not broadcast: the first call waits for the
    library, whose checks (merged at entry) say which error; the message is
    the one a compile that waited gives."""
    quick = bcast.compile(DYNAMIC, backend="c")
    assert type(quick) is first_calls.FirstCalls and not quick.built
    with pytest.raises(bcast.BcastError) as first:
        quick(X, np.zeros(2, np.float32))
    assert quick.built
    with pytest.raises(bcast.BcastError) as later:
        quick(X, np.zeros(2, np.float32))
    assert str(first.value) == str(later.value)
    assert "could not be broadcast together with shapes (4,3) (2,)" in str(first.value)


def test_a_bounded_dim_above_its_bound_is_the_librarys_error(gate):
    bounded = DYNAMIC.replace("tensor<?x3xf32>", "tensor<?x3xf32, #stablehlo.bounds<5, ?>>")
    compiled = bcast.compile(bounded, backend="c")
    assert type(compiled) is first_calls.FirstCalls
    first = compiled(X, R)
    with pytest.raises(bcast.BcastError) as before:
        compiled(np.zeros((6, 3), np.float32), R)
    assert "dimension 0 of argument 0 is 6, above its bound 5" in str(before.value) and not compiled.built
    gate.set()
    compiled.wait()
    with pytest.raises(bcast.BcastError) as after:
        compiled(np.zeros((6, 3), np.float32), R)
    assert str(before.value) == str(after.value) and same(first, compiled(X, R))


INSIDE = {
    "divide, sqrt, constant": ("%c = bcast.constant dense<1.5> : tensor<4x3xf32>\n"
                               "  %d = bcast.divide %x, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>\n"
                               "  %y = bcast.sqrt %d : tensor<4x3xf32>"),
    "integers and conversions": ("%i = bcast.convert %x : (tensor<4x3xf32>) -> tensor<4x3xi32>\n"
                                 "  %j = bcast.shift_left %i, %i : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>\n"
                                 "  %k = bcast.divide %j, %i : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>\n"
                                 "  %y = bcast.convert %k : (tensor<4x3xi32>) -> tensor<4x3xf32>"),
    "compare, select, clamp": ("%p = bcast.compare LT, %x, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>\n"
                               "  %s = bcast.select %p, %x, %x : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>\n"
                               "  %y = bcast.clamp %x, %s, %x : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>"),
}


@pytest.mark.parametrize("name", sorted(INSIDE))
def test_programs_of_the_wider_rule_take_first_calls(name):
    compiled = bcast.compile(main_of(INSIDE[name]), backend="c")
    assert type(compiled) is first_calls.FirstCalls
    first = compiled(X)
    compiled.wait()
    assert same(first, compiled(X))


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


def test_an_out_of_the_wrong_run_time_shape_is_the_librarys_error(gate):
    compiled = bcast.compile(DYNAMIC, backend="c")

    def errors() -> list[str]:
        found = []
        for out in (np.empty((5, 3), np.float32), np.empty((4, 3), np.float64)):
            with pytest.raises(bcast.BcastError) as e:
                compiled(X, R, out=out)
            found.append(str(e.value))
        return found

    first = errors()
    assert not compiled.built and "the result has shape (4, 3) at run time" in first[0]
    gate.set()
    compiled.wait()
    assert errors() == first
