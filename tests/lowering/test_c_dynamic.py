"""Dynamic and bounded dims on the C backend (docs/c-backend.md, "Dynamic
shapes"): one library for every size, sizes read at entry, each broadcast's
step computed once, NumPy's results at sizes 0, 1 and more, and the
reference's located error before anything runs (nothing written to
``out``); the loop IR stays upstream MLIR that mlir-opt 19 verifies."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType

import bcast
from bcast.lowering import c_emitter, c_runtime
from bcast.lowering.c_sizes import SizePlan
from bcast.lowering import memref_abi
from bcast.tests.lowering.test_c_backend import HARNESS_HEAD
from bcast.tests.lowering.test_dynamic_shapes import BOUNDED, PROGRAM, expected
from bcast.ir.control_flow import WhileOp
from bcast.ir.types import flat_type_shape, numpy_dtype
from bcast.tests.test_examples_run import DYNAMIC_CASES
from bcast.passes.errors import PassError
from bcast.tools import api, driver, targets
from bcast.tools import run as bcast_run

ROWS = """func.func @main(%x: tensor<?x4xf32>, %row: tensor<4xf32>, %col: tensor<?x1xf32>) -> tensor<?x4xf32> {
  %0 = bcast.add %x, %row : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = bcast.multiply %0, %col : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %2 = bcast.tanh %1 : tensor<?x4xf32>
  func.return %2 : tensor<?x4xf32>
}
"""

SOFTMAX = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = bcast.reduce maximum %x, dims = [1] : (tensor<?x?xf32>) -> tensor<?xf32>
  %b = bcast.broadcast_in_dim %m, dims = [0] : (tensor<?xf32>) -> tensor<?x1xf32>
  %d = bcast.subtract %x, %b : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = bcast.exponential %d : tensor<?x?xf32>
  %s = bcast.reduce add %e, dims = [1] : (tensor<?x?xf32>) -> tensor<?xf32>
  %t = bcast.broadcast_in_dim %s, dims = [0] : (tensor<?xf32>) -> tensor<?x1xf32>
  %r = bcast.divide %e, %t : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}
"""


@pytest.fixture(scope="module")
def compiled():
    return bcast.compile(PROGRAM, backend="c", filename="prog.mlir")


def test_a_stretched_row_reads_with_step_0(compiled):
    """``col`` of one row stretches over the rows of ``x``; ``x`` of one row
    over the rows of ``col``: both are the broadcasts NumPy makes."""
    rng = np.random.default_rng(7)
    for x_rows, col_rows in ((5, 1), (1, 5)):
        x = rng.standard_normal((x_rows, 4)).astype(np.float32)
        row = rng.standard_normal(4).astype(np.float32)
        col = rng.standard_normal((col_rows, 1)).astype(np.float32)
        f = bcast.compile(ROWS, backend="c", filename="prog.mlir")
        np.testing.assert_allclose(f(x, row, col), np.tanh((x + row) * col), rtol=1e-6, atol=1e-6)


def test_failed_check_is_the_references_error_and_writes_no_out(compiled):
    reference = bcast.compile(PROGRAM, backend="reference", filename="prog.mlir")
    x, col = np.ones((3, 4), np.float32), np.ones((3, 1), np.float32)
    messages = []
    for f in (compiled, reference):
        outs = (np.full((3, 4), 7, np.float32), np.full(3, 7, np.float32), np.zeros((3, 4), bool))
        with pytest.raises(bcast.BcastError) as info:
            f(x, np.ones(4, np.float32), col, np.ones(2, np.float32), out=outs)
        assert (outs[0] == 7).all() and (outs[1] == 7).all() and not outs[2].any()
        messages.append(str(info.value))
    assert messages[0] == messages[1] == ("prog.mlir:5:8: error: operands could not be broadcast together with "
                                          "shapes (3,) (2,)")


def test_out_must_have_the_run_time_shape(compiled):
    x = np.ones((3, 4), np.float32)
    outs = (np.zeros((2, 4), np.float32), np.zeros(2, np.float32), np.zeros((2, 4), bool))
    with pytest.raises(bcast.BcastError, match=r"out= for result0: the result has shape \(3, 4\) at run time"):
        compiled(x, np.ones(4, np.float32), np.ones((3, 1), np.float32), np.ones(3, np.float32), out=outs)
    assert not outs[0].any() and not outs[1].any()
    good = (np.zeros((3, 4), np.float32), np.zeros(3, np.float32), np.zeros((3, 4), bool))
    args = (x, np.arange(4, dtype=np.float32), np.full((3, 1), 2, np.float32), np.ones(3, np.float32))
    got = compiled(*args, out=good)
    assert all(g is o for g, o in zip(got, good))
    for g, w in zip(good, expected(*args)):
        np.testing.assert_array_equal(g, w)


def test_sizes_above_a_bound_are_refused_before_the_call():
    f = bcast.compile(BOUNDED, backend="c", filename="prog.mlir")
    y = np.arange(4, dtype=np.float32)
    for n in (0, 1, 16):
        x = np.ones((n, 4), np.float32)
        np.testing.assert_array_equal(f(x, y), x + y)
    with pytest.raises(bcast.BcastError) as info:
        f(np.ones((17, 4), np.float32), y)
    assert str(info.value) == "error: @main: arg0 (%x): dimension 0 of argument 0 is 17, above its bound 16"


def test_one_library_for_five_sizes(tmp_path, monkeypatch):
    """The cache holds one library after calls at five sizes; a static
    program per size would build five (the count is of real builds: the
    static control builds two)."""
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path / "dynamic"))
    f = bcast.compile(ROWS, backend="c", filename="prog.mlir")
    for n in (0, 1, 3, 64, 1000):
        x = np.ones((n, 4), np.float32)
        f(x, np.ones(4, np.float32), np.ones((n, 1), np.float32))
    assert len(built_libraries(tmp_path / "dynamic")) == 1
    monkeypatch.setenv("BCAST_CACHE_DIR", str(tmp_path / "static"))
    for n in (3, 64):
        bcast.compile(ROWS.replace("?", str(n)), backend="c", filename="prog.mlir")
    assert len(built_libraries(tmp_path / "static")) == 2


def built_libraries(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.suffix == ".so"]


def test_the_inner_loop_is_the_static_programs():
    """Sizes are read at entry, each broadcast's step (0 where a row
    stretches) computed once before the loops; the chain is one nest with
    no buffer in between, whose inner loop is the static program's."""
    dynamic = bcast.compile(ROWS, backend="c").c_source
    static = bcast.compile(ROWS.replace("?", "8"), backend="c").c_source
    body = dynamic[dynamic.index("void bcast_main(const float *restrict x, int64_t x_d0"):]
    body = body[body.index("{"):]
    first_loop = body.index("for (")
    assert "x_d0 == 1" in body[:first_loop] and "col_d0 == 1" in body[:first_loop]
    assert "bcast_alloc" not in body
    assert inner_loop(dynamic) == inner_loop(static)
    # threads only for a nest as large as bcast-plan-parallel asks of a static one, decided at run time
    # (a parallel region when its threads fence the streaming stores of a large result: bcast-streaming-stores)
    assert re.search(r"#pragma omp parallel( for schedule\(static\))? if \(\(double\)v\d+ \* 4 >= 1048576\) "
                     r"num_threads\(bcast_threads\(\)\)", body)


def inner_loop(source: str) -> str:
    """The innermost loop of the entry function, the names it defines
    numbered in order, its lines unindented, and each value it reads from outside (a row's
    offset, which differs: the dynamic program's row of ``x`` is the row
    times its step) written ``OUTER``."""
    body = source[source.index("void bcast_main"):]
    inner = body[body.rindex("for ("):]
    inner = inner[:inner.index("}")]
    inner = "\n".join(line.strip() for line in inner.splitlines())  # (nested in a size test: bcast_stream)
    defined = set(re.findall(r"\b([vi]\d+) = ", inner))
    names: dict[str, str] = {}
    return re.sub(r"\b[vi]\d+\b", lambda m: names.setdefault(m.group(), f"n{len(names)}")
                  if m.group() in defined else "OUTER", inner)


def test_softmax_with_dynamic_rows_and_columns():
    f = bcast.compile(SOFTMAX, backend="c", filename="prog.mlir")
    rng = np.random.default_rng(3)
    for shape in ((0, 5), (1, 1), (3, 0), (4, 7), (33, 129)):
        x = rng.standard_normal(shape).astype(np.float32)
        e = np.exp(x - x.max(axis=1, keepdims=True)) if x.size else x
        want = e / e.sum(axis=1, keepdims=True) if x.size else x
        np.testing.assert_allclose(f(x), want, rtol=2e-6, atol=1e-7)
    assert "? 0 : 1" not in f.c_source  # every broadcast is between sizes of one source: no step


def test_bcast_run_on_c_exits_1_with_the_located_error(tmp_path, capsys):
    path = tmp_path / "prog.mlir"
    path.write_text(PROGRAM)
    np.savez(tmp_path / "in.npz", arg0=np.ones((3, 4), np.float32), arg1=np.ones(4, np.float32),
             arg2=np.ones((3, 1), np.float32), arg3=np.ones(4, np.float32))
    code = bcast_run.main([str(path), "--backend", "c", "--inputs", str(tmp_path / "in.npz")])
    assert code == 1
    assert capsys.readouterr().err == f"{path}:5:8: error: operands could not be broadcast together with shapes (3,) (4,)\n"


def loop_ir_text(text: str) -> str:
    module = driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
    return str(targets.loop_ir(module))


@pytest.mark.skipif(not memref_abi.tools_available(), reason="mlir-opt-19 not installed")
@pytest.mark.parametrize("text", [PROGRAM, ROWS, SOFTMAX], ids=["program", "rows", "softmax"])
def test_dynamic_loop_ir_is_upstream_mlir(text):
    """``memref<?x4xf32>`` arguments, ``memref.dim`` at entry, allocs sized
    at run time: mlir-opt 19 parses and verifies it."""
    loops = loop_ir_text(text)
    assert "memref.dim" in loops and "memref<?x" in loops
    assert "func.func @main" in memref_abi.verify(loops)


# --------------------------------------------------------------------------
# Sanitizers: the generated C at sizes 0, 1, stretched and mismatched
# --------------------------------------------------------------------------

SIZES = [(0, 0, 0), (1, 1, 1), (5, 5, 5), (5, 1, 5), (1, 5, 5), (5, 5, 1), (3, 1, 2), (4, 2, 4), (0, 1, 0),
         (1, 0, 0), (2, 3, 3)]
"""Run-time sizes of (``x``'s rows, ``col``'s rows, ``v``'s size) for ``PROGRAM``."""


@pytest.mark.slow  # 20 s: every dynamic example built with ASan/UBSan (the thorough run, CI)
def test_dynamic_c_is_clean_under_sanitizers_at_every_size(tmp_path):
    """The C of ``PROGRAM`` and of every dynamic example the C backend
    compiles, built with ASan and UBSan, called with buffers of exactly the
    sizes it is given (so any read or write beyond them is reported): at
    every size the checks accept (sizes 0 and 1, stretched rows); a
    mismatch (``(3, 1, 2)``...) is refused by the checks before the call,
    as ``bcast.compile``'s function refuses it, and as NumPy refuses it."""
    cc = c_runtime.require_compiler()
    units, calls, refused = [], [], []
    programs = [("program", PROGRAM, "main", [dict(zip((0, 2, 3), s)) for s in SIZES])]
    for case in DYNAMIC_CASES:
        _, _, text, entry = case.values
        programs.append((case.id, text, entry, [{}, *({k: m for k in range(8)} for m in (0, 1, 3))]))
    for k, (name, text, entry, size_sets) in enumerate(programs):
        module = driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE, import_stablehlo=True)
        module = targets.reachable(module, entry)
        function = next(f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == entry)
        try:
            plan = SizePlan(function)
            loops = targets.loop_ir(module)
        except PassError:  # not lowered yet: refused, located, elsewhere
            continue
        if plan.values_read:  # a size held in a rank-0 argument: the harness's data is random, not a size
            continue
        if any(isinstance(op, WhileOp) for op in function.walk()):
            continue  # a trip count from random bits; test_c_control_flow runs loops under the sanitizers
        source, names = c_emitter.emit_module(loops, prefix=f"e{k}_")
        unit = tmp_path / f"e{k}.c"
        unit.write_text(source)
        units.append(unit)
        calls += sized_calls(name, names[entry], function, plan, size_sets, refused)
    assert [(n, s) for n, s, _ in refused if n == "program"] == [
        ("program", dict(zip((0, 2, 3), s))) for s in SIZES if numpy_refuses(*s)]
    assert len(calls) > 100
    # (the examples' shape assertions: b >= 1, refused at b = 0; a declared result more static than the
    # inferred; the size checks of contractions (np.matmul's words for matmul), windows, joins, pads, slices,
    # run-time ranges and reshapes; a scatter window larger than its input; argmax/argmin of an empty dim)
    unexpected = [msg for _, _, msg in refused if not (
        msg.startswith(("operands could not", "operand of shape", "b = 0", "expected b >= 1", "dot_general requires",
                        "dynamic_slice size", "gather slice size", "all the input array dimensions",
                        "pad makes dimension", "slice limit", "cannot reshape array", "matmul: Input operand",
                        "real_dynamic_slice range", "values and key must have one shape",
                        "dynamic_update_slice update has size", "scatter updates dimension",
                        "argmin of an empty dim", "argmax of an empty dim"))
        or " op result has shape " in msg)]
    assert not unexpected, unexpected
    run_sanitized(units, calls, tmp_path, cc)



def sanitized_units(programs, tmp_path, prefix: str) -> tuple[list[Path], list[str], list, list[SizePlan]]:
    """Each ``(name, program text, size sets)`` of ``programs`` through the
    standard pipeline to C (one unit each, symbols prefixed ``prefix``), with
    the harness's calls of its ``main`` at each size set (``sized_calls``):
    the units, the calls, the refused sizes and each program's size plan."""
    units: list[Path] = []
    calls: list[str] = []
    refused: list = []
    plans: list[SizePlan] = []
    for k, (name, text, size_sets) in enumerate(programs):
        module = driver.load(text, "prog.mlir", None, pipeline=api.STANDARD_PIPELINE)
        function = next(f for f in module.ops if isinstance(f, func.FuncOp))
        plans.append(plan := SizePlan(function))
        source, names = c_emitter.emit_module(targets.loop_ir(module), prefix=f"{prefix}{k}_")
        unit = tmp_path / f"{prefix}{k}.c"
        unit.write_text(source)
        units.append(unit)
        calls += sized_calls(name, names["main"], function, plan, size_sets, refused)
    return units, calls, refused, plans


def sized_calls(name: str, c_name: str, function: func.FuncOp, plan: SizePlan, size_sets, refused: list) -> list[str]:
    """The harness's calls of ``c_name`` at each of ``size_sets``; the sizes
    the size plan refuses (the reference's located error, before any call)
    go to ``refused`` as ``(name, sizes, message)`` instead."""
    calls: list[str] = []
    for sizes in size_sets:
        shapes = argument_shapes(function, sizes)
        try:
            results = plan(shapes)
        except Exception as e:
            refused.append((name, sizes, e.report.message))
            continue
        calls.append(f'    fprintf(stderr, "{name} {sizes}\\n");')
        calls += harness_call(c_name, function, shapes, results)
    return calls


def run_sanitized(units, calls: list[str], tmp_path, cc: list[str]) -> None:
    """Build the C ``units`` with a ``main`` making ``calls`` under ASan and
    UBSan (any report aborts), run it, and require a clean run."""
    prototypes = [line for unit in units for line in unit.read_text().splitlines()
                  if line.startswith("void ") and line.endswith(");")]
    main = tmp_path / "main.c"
    main.write_text(HARNESS_HEAD + "\n".join(prototypes) + "\nint main(void) {\n" + "\n".join(calls)
                    + '\n    puts("clean");\n    return 0;\n}\n')
    exe = tmp_path / "harness"
    flags = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
    done = subprocess.run([*cc, "-std=c99", *flags, "-fopenmp", *map(str, units), str(main), "-o", str(exe), "-lm"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "ASAN_OPTIONS": "detect_leaks=1", "OMP_NUM_THREADS": "2"})
    assert run.returncode == 0 and run.stdout.strip() == "clean", run.stderr[-3000:]


def argument_shapes(function: func.FuncOp, sizes: dict[int, int]) -> list[tuple[int, ...] | int]:
    """Each argument's run-time shape: dynamic dims of argument ``k`` are
    ``sizes[k]`` (at most the bound; 4 where not given), static dims as
    declared; an ``index`` argument (a size, in these programs) is ``sizes[k]``."""
    shapes: list[tuple[int, ...] | int] = []
    for k, t in enumerate(function.function_type.inputs.data):
        if isinstance(t, IndexType):
            shapes.append(sizes.get(k, 4))
            continue
        n = sizes.get(k, 4)
        shapes.append(tuple(d if isinstance(d, int) else n if d.bound is None else min(n, d.bound)
                            for d in flat_type_shape(t)))
    return shapes


def harness_call(c_name: str, function: func.FuncOp, shapes, results) -> list[str]:
    """One call of the C function with buffers of exactly ``shapes`` and
    ``results`` (small values; booleans 0 or 1), each followed by its
    dynamic sizes (``c_runtime.dynamic_dims``), freed after."""
    types = [*function.function_type.inputs.data, *function.function_type.outputs.data]
    lines, args, owned = [], [], []
    for t, shape in zip(types, [*shapes, *results], strict=True):
        if isinstance(shape, int):  # an index argument
            args.append(str(shape))
            continue
        if shape is None:  # an index result: one int64_t
            var = f"b{len(owned)}"
            lines.append(f"        void *{var} = input(1, 8, 2);")
            owned.append(var)
            args.append(var)
            continue
        dtype, flat = numpy_dtype(t), flat_type_shape(t)
        var = f"b{len(owned)}"
        lines.append(f"        void *{var} = input({int(np.prod(shape))}, {dtype.itemsize}, "
                     f"{1 if dtype == np.bool_ else 2});")
        owned.append(var)
        args += [var, *(str(shape[d]) for d, n in enumerate(flat) if not isinstance(n, int))]
    return ["    {", *lines, f"        {c_name}({', '.join(args)});", *(f"        free({v});" for v in owned), "    }"]


def numpy_refuses(n: int, m: int, k: int) -> bool:
    try:
        expected(np.ones((n, 4)), np.ones(4), np.ones((m, 1)), np.ones(k))
    except ValueError:
        return True
    return False


UNCHECKED = """func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = bcast.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
"""


def test_operands_of_one_type_but_unproven_sizes_are_not_lowered():
    """Two ``tensor<?xf32>`` arguments may be 5 and 1 at run time: read at
    one index, one would be read out of bounds; without make-explicit's
    check and broadcasts the loop lowering refuses them, located."""
    with pytest.raises(driver.InputError) as info:
        driver.load(UNCHECKED, "prog.mlir", None, pipeline="bcast-lower-to-loops")
    assert info.value.reports[0].render().splitlines()[0] == (
        "prog.mlir:2:8: error: 'bcast.add' op bcast-lower-to-loops needs explicit IR; run bcast-make-explicit first")
    f = bcast.compile(UNCHECKED, backend="c", filename="prog.mlir")  # the standard pipeline checks them
    np.testing.assert_array_equal(f(np.arange(5, dtype=np.float32), np.ones(1, np.float32)),
                                  np.arange(5, dtype=np.float32) + 1)


CALL = """func.func @helper(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = bcast.tanh %x : tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = func.call @helper(%x) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = bcast.add %0, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %1 : tensor<?xf32>
}
"""


def test_a_dynamic_construct_the_loops_do_not_lower_yet():
    """A call with dynamic results: ``backend="c"`` is a located error naming
    the loop lowering; the default backend then runs the program on the
    NumPy backend, the C target's fallback, which runs calls of dynamic
    shapes."""
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(CALL, backend="c", filename="prog.mlir")
    assert str(info.value).splitlines()[0] == ("prog.mlir:6:8: error: 'func.call' op has dynamic dimensions that "
                                               "bcast-lower-to-loops does not lower yet")
    f = bcast.compile(CALL, filename="prog.mlir")
    x = np.arange(3, dtype=np.float32)
    assert f.backend == "numpy"
    np.testing.assert_allclose(f(x), np.tanh(x) + x, rtol=1e-6)


def test_the_fast_path_takes_dynamic_calls_it_checks(compiled):
    """The generated fast path checks dtype, layout, rank, static dims and
    bounds and runs the size checks; whatever fails them is ``MISS``, and
    the checked path gives the error."""
    fast = compiled._python_function.fast
    rng = np.random.default_rng(1)
    args = (rng.standard_normal((6, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32),
            rng.standard_normal((1, 1)).astype(np.float32), rng.standard_normal(6).astype(np.float32))
    got = fast(args, None)
    assert got is not c_runtime.MISS
    for g, w in zip(got, expected(*args), strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    wrong = [(np.ones((6, 5), np.float32), *args[1:]),  # a static dim
             (args[0][:, ::2].repeat(2, axis=1)[:, :4].T.copy().T, *args[1:]),  # not C-contiguous
             (args[0].astype(np.float64), *args[1:]),  # another dtype
             (*args[:3], np.ones(5, np.float32))]  # a failed check
    for call in wrong:
        assert fast(call, None) is c_runtime.MISS
    with pytest.raises(bcast.BcastError, match=r"shapes \(6,\) \(5,\)"):
        compiled(*wrong[-1])
    bounded = bcast.compile(BOUNDED, backend="c", filename="prog.mlir")
    assert bounded._python_function.fast((np.ones((17, 4), np.float32), np.ones(4, np.float32)), None) \
        is c_runtime.MISS
    assert bounded._python_function.fast((np.ones((16, 4), np.float32), np.ones(4, np.float32)), None) \
        is not c_runtime.MISS


XLA_CLAMP = """module attributes {bcast.semantics = "xla"} {
func.func @main(%lo: tensor<?xf32>, %x: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xf32> {
  %0 = bcast.clamp %lo, %x, %hi : (tensor<?xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
}
"""


@pytest.mark.parametrize("n", [0, 1, 3])
def test_xla_clamp_bounds_of_another_size_fail_as_on_the_reference(n):
    """Under xla a ``?`` min has ``x``'s very shape: make-explicit checks it
    equal (``strict``), so a min of one element against four fails on C as
    on the reference, never stretched (NumPy's ``clip`` would stretch it)."""
    args = (np.zeros(n, np.float32), np.arange(4, dtype=np.float32), np.float32(2))
    messages = []
    for backend in ("c", "reference"):
        with pytest.raises(bcast.BcastError) as info:
            bcast.compile(XLA_CLAMP, backend=backend, filename="prog.mlir")(*args)
        messages.append(str(info.value).splitlines()[0])
    assert messages[0] == messages[1] == (f"prog.mlir:3:8: error: operands could not be broadcast together with "
                                          f"shapes ({n},) (4,) ()")
    np.testing.assert_array_equal(bcast.compile(XLA_CLAMP, backend="c")(np.zeros(4, np.float32), *args[1:]),
                                  np.clip(args[1], 0, 2))


def test_a_static_row_stretched_into_dynamic_rows_is_not_fused_in_place() -> None:
    """``%r1: tensor<1x0xf32>`` added to ``?x?`` rows: its broadcast stretches
    a static 1 into ``?``, which a fusion cannot hold beside ``?`` rows (found
    by the dynamic property test: the fusion's verifier refused it)."""
    source = """
func.func @main(%a0: tensor<?x?xf32>, %a1: tensor<0xf32>, %a2: tensor<1x0xf32>) -> (tensor<?x?xf32>, tensor<1x0xf32>, tensor<?xf32>, tensor<?x0xf32>) {
  %r0 = bcast.add %a0, %a0 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r1 = bcast.add %a1, %a2 : (tensor<0xf32>, tensor<1x0xf32>) -> tensor<1x0xf32>
  %r2 = bcast.reduce add %a0, dims = [0] : (tensor<?x?xf32>) -> tensor<?xf32>
  %r3 = bcast.add %a0, %r1 : (tensor<?x?xf32>, tensor<1x0xf32>) -> tensor<?x0xf32>
  func.return %r0, %r1, %r2, %r3 : tensor<?x?xf32>, tensor<1x0xf32>, tensor<?xf32>, tensor<?x0xf32>
}
"""
    f = bcast.compile(source, backend="c")
    results = f(np.zeros((3, 0), np.float32), np.zeros(0, np.float32), np.zeros((1, 0), np.float32))
    assert [r.shape for r in results] == [(3, 0), (1, 0), (0,), (3, 0)]


CONV_DYNAMIC_SPATIAL = [
    ("conv_height", """\
func.func @main(%x: tensor<2x?x5x3xf32>, %w: tensor<3x2x3x4xf32>) -> tensor<2x?x2x4xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 0]], lhs_dilate = [3, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x5x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x?x2x4xf32>
  func.return %0 : tensor<2x?x2x4xf32>
}
"""),
    ("conv_padded_only", """\
func.func @main(%x: tensor<3x2x?xf64>, %w: tensor<4x1x2xf64>) -> tensor<3x4x?xf64> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = [[2, 3]], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<3x2x?xf64>, tensor<4x1x2xf64>) -> tensor<3x4x?xf64>
  func.return %0 : tensor<3x4x?xf64>
}
"""),
]
"""Convolutions of ``?`` spatial dims: a strided, dilated one whose height
is read at run time (empty results below the window), and a grouped 1-D
one whose padding alone has windows, so an empty input still has a result
(zeros): neither may read an input element that is not there."""


def test_convolutions_of_run_time_spatial_sizes_are_clean_under_sanitizers(tmp_path):
    """Each program at sizes 0, 1, 2, 3 and 7 of its ``?`` dims (the buffers
    exactly that size, so a read past the run-time input is reported), and
    its results' shapes from the size plan are the reference's."""
    cc = c_runtime.require_compiler()
    sizes = [{0: n} for n in (0, 1, 2, 3, 7)]
    units, calls, refused, plans = sanitized_units([(name, text, sizes) for name, text in CONV_DYNAMIC_SPATIAL],
                                                   tmp_path, "conv")
    assert refused == []
    heights = []
    for (name, text), plan in zip(CONV_DYNAMIC_SPATIAL, plans):
        function = next(f for f in driver.load(text, "prog.mlir").ops if isinstance(f, func.FuncOp))
        reference = bcast.compile(text, backend="reference")
        for size_set in sizes:
            shapes = argument_shapes(function, size_set)
            want = reference(*(np.zeros(s, np.float64 if "f64" in text else np.float32) for s in shapes)).shape
            assert plan(shapes) == [want]
            heights.append((name, want[1 if name == "conv_height" else 2]))
    assert heights == [*(("conv_height", h) for h in (0, 0, 2, 3, 9)),  # ((n - 1) * 3 + 2 - 3) // 2 + 1, or 0
                       *(("conv_padded_only", h) for h in (4, 5, 6, 7, 11))]  # n + 5 - 2 + 1
    run_sanitized(units, calls, tmp_path, cc)


CONV_KERNEL_PROGRAMS = [
    CONV_DYNAMIC_SPATIAL[0],
    ("conv_batch_height_relu", """\
func.func @main(%x: tensor<?x?x5x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<?x?x5x4xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x?x5x4xf32>
  %z = bcast.constant dense<0.0> : tensor<f32>
  %1 = bcast.maximum %0, %z : (tensor<?x?x5x4xf32>, tensor<f32>) -> tensor<?x?x5x4xf32>
  func.return %1 : tensor<?x?x5x4xf32>
}
"""),
    ("conv_depthwise_height", """\
func.func @main(%x: tensor<2x?x4x3xf32>, %w: tensor<3x3x1x6xf32>) -> tensor<2x?x2x6xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<2x?x4x3xf32>, tensor<3x3x1x6xf32>) -> tensor<2x?x2x6xf32>
  func.return %0 : tensor<2x?x2x6xf32>
}
"""),
    ("conv_nchw_height", """\
func.func @main(%x: tensor<?x2x?x5xf64>, %w: tensor<2x3x2x3xf64>) -> tensor<?x?x3x3xf64> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 1], [0, 0]], rhs_dilate = [2, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x2x?x5xf64>, tensor<2x3x2x3xf64>) -> tensor<?x?x3x3xf64>
  func.return %0 : tensor<?x?x3x3xf64>
}
"""),
    ("conv_padding_only_nwc", """func.func @main(%x: tensor<2x?x3xf32>, %w: tensor<2x3x4xf32>) -> tensor<2x?x4xf32> {
  %0 = bcast.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[2, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x3xf32>, tensor<2x3x4xf32>) -> tensor<2x?x4xf32>
  func.return %0 : tensor<2x?x4xf32>
}
"""),
]
"""Convolutions of ``?`` sizes that the C kernel runs (``bcast.conv`` with
run-time geometry entries): strided and dilated, a ``?`` batch and height
with a relu after it (the fused epilogue), depthwise (the narrow groups),
an NCHW f64 input whose feature stride is a run-time product, and a 1-D
one whose padding alone has windows (at size 0 the kernel computes the
zeros of an empty input, reading none of it)."""

KERNEL_UNIT = r"""
/* The kernels linked as c_runtime.link_blas does, each rows call counted. */
static int conv_calls;
static void counted_s(const float *x, const int64_t *g, int64_t r, int64_t m, const void *p, float *c) {
#pragma omp atomic
    conv_calls++;
    bcast_sconv_packed(x, g, r, m, p, c);
}
static void counted_d(const double *x, const int64_t *g, int64_t r, int64_t m, const void *p, double *c) {
#pragma omp atomic
    conv_calls++;
    bcast_dconv_packed(x, g, r, m, p, c);
}
void *(*bcast_blas_sconv_pack)(const float *, const int64_t *) = bcast_sconv_pack;
void *(*bcast_blas_dconv_pack)(const double *, const int64_t *) = bcast_dconv_pack;
void (*bcast_blas_sconv_packed)(const float *, const int64_t *, int64_t, int64_t, const void *, float *) = counted_s;
void (*bcast_blas_dconv_packed)(const double *, const int64_t *, int64_t, int64_t, const void *, double *) = counted_d;
void (*bcast_blas_gemm_release)(void *) = bcast_gemm_release;
int bcast_test_conv_calls(void) { return conv_calls; }
"""


def test_the_c_kernel_with_run_time_sizes_is_clean_under_sanitizers(tmp_path):
    """``CONV_KERNEL_PROGRAMS`` at sizes 0, 1, 2, 3 and 7 of their ``?``
    dims (buffers of exactly that size), the C kernels built in and linked
    (the harness's own pointers), all under ASan and UBSan: no report, and
    the kernel ran once at least per call whose input and result are not
    empty (an empty one runs the zeros' nest or nothing)."""
    from bcast.lowering import c_gemm

    cc = c_runtime.require_compiler()
    sizes = [{0: n} for n in (0, 1, 2, 3, 7)]
    units, calls, refused, plans = sanitized_units([(name, text, sizes) for name, text in CONV_KERNEL_PROGRAMS],
                                                   tmp_path, "kconv")
    assert refused == []
    for unit in units:
        assert "bcast_blas_" in unit.read_text() and "conv_packed(" in unit.read_text()
    kernel = tmp_path / "kernels.c"
    kernel.write_text(c_gemm.SOURCE + KERNEL_UNIT)
    working = 0
    for (name, text), plan in zip(CONV_KERNEL_PROGRAMS, plans):
        function = next(f for f in driver.load(text, "prog.mlir").ops if isinstance(f, func.FuncOp))
        for size_set in sizes:
            shapes = argument_shapes(function, size_set)
            (result,) = plan(shapes)
            working += 0 not in shapes[0] and 0 not in result
    assert working >= 16
    calls.append(f"    {{ int bcast_test_conv_calls(void); if (bcast_test_conv_calls() < {working}) {{ "
                 'fprintf(stderr, "kernel calls: %d\\n", bcast_test_conv_calls()); return 1; } }')
    run_sanitized([*units, kernel], calls, tmp_path, cc)


@pytest.mark.skipif(not memref_abi.tools_available(), reason="mlir-opt-19 not installed")
def test_the_loop_ir_of_run_time_convolution_geometry_is_upstream_mlir():
    """The marked ``i64`` sizes buffer, its stores and the ``bcast.conv``
    mark with ``run_time`` entries: mlir-opt 19 parses and verifies it."""
    for name, text in CONV_KERNEL_PROGRAMS:
        loops = loop_ir_text(text)
        assert "bcast.conv_sizes" in loops and "run_time = array<i64:" in loops, name
        assert "func.func @main" in memref_abi.verify(loops)
