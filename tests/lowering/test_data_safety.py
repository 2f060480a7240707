"""Data safety of results and ``out=`` on every backend (docs/contracts.md).

- ``out=`` arrays that overlap an input (the same array, a view of it, a
  shifted slice) or each other give the values of computing into fresh
  arrays and then copying them in result order, also when the result spans
  several of the NumPy backend's blocks.
- Every ``out`` is checked before anything is written.
- Results belong to the caller: a recycled buffer never comes back as an
  array object the caller held (flags, strides, weak references, identity),
  and nothing derived from a result (views, memoryviews, ``frombuffer``)
  sees another call's data; also with several threads calling at once.
"""

from __future__ import annotations

import functools
import gc
import threading
import warnings
import weakref

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.lowering import numpy_emitter
from bcast.tests.budget import examples
from bcast.tests.programs import as_tuple, programs
from bcast.tools.api import BcastError

BACKENDS = ("reference", "numpy", "c")
N = 1024
T = f"tensor<{N}x{N}xf32>"


@functools.cache
def compiled(text: str, backend: str):
    return bcast.compile(text, backend=backend)


def random(shape, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape, dtype=np.float32)


def test_the_overlap_programs_span_several_blocks():
    assert N * N * 4 >= 4 * numpy_emitter.BLOCK_BYTES


# --------------------------------------------------------------------------
# out= overlapping inputs or other outs
# --------------------------------------------------------------------------

PLUS_TRANSPOSE = f"""
func.func @main(%x: {T}) -> {T} {{
  %t = bcast.transpose %x, dims = [1, 0] : ({T}) -> {T}
  %0 = bcast.add %x, %t : ({T}, {T}) -> {T}
  func.return %0 : {T}
}}
"""

TIMES_COLUMN_PLUS_COLUMN = f"""
func.func @main(%x: {T}, %c: tensor<{N}x1xf32>) -> {T} {{
  %0 = bcast.multiply %x, %c : ({T}, tensor<{N}x1xf32>) -> {T}
  %1 = bcast.add %0, %c : ({T}, tensor<{N}x1xf32>) -> {T}
  func.return %1 : {T}
}}
"""

DOUBLE = f"""
func.func @main(%x: {T}) -> {T} {{
  %0 = bcast.add %x, %x : ({T}, {T}) -> {T}
  func.return %0 : {T}
}}
"""

SUM_AND_TRANSPOSED_PRODUCT = f"""
func.func @main(%x: {T}, %y: {T}) -> ({T}, {T}) {{
  %0 = bcast.add %x, %y : ({T}, {T}) -> {T}
  %t = bcast.transpose %x, dims = [1, 0] : ({T}) -> {T}
  %1 = bcast.multiply %t, %y : ({T}, {T}) -> {T}
  func.return %0, %1 : {T}, {T}
}}
"""

SUM_AND_PRODUCT = f"""
func.func @main(%x: {T}, %y: {T}) -> ({T}, {T}) {{
  %0 = bcast.add %x, %y : ({T}, {T}) -> {T}
  %1 = bcast.multiply %0, %y : ({T}, {T}) -> {T}
  func.return %0, %1 : {T}, {T}
}}
"""
"""Both results in one fusion, written block by block."""

DOUBLE_AND_TRANSPOSE = f"""
func.func @main(%x: {T}) -> ({T}, {T}) {{
  %0 = bcast.add %x, %x : ({T}, {T}) -> {T}
  %t = bcast.transpose %x, dims = [1, 0] : ({T}) -> {T}
  func.return %0, %t : {T}, {T}
}}
"""

DOUBLE_AND_SELF = f"""
func.func @main(%x: {T}) -> ({T}, {T}) {{
  %0 = bcast.add %x, %x : ({T}, {T}) -> {T}
  func.return %0, %x : {T}, {T}
}}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_is_the_input_it_reads_transposed(backend):
    x = random((N, N))
    want = x + x.T
    got = compiled(PLUS_TRANSPOSE, backend)(x, out=x)
    assert got is x
    np.testing.assert_array_equal(x, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_input_is_a_column_view_of_out(backend):
    buf, x = random((N, N), 1), random((N, N), 2)
    c = buf[:, :1]
    want = x * c.copy() + c.copy()
    got = compiled(TIMES_COLUMN_PLUS_COLUMN, backend)(x, c, out=buf)
    assert got is buf
    np.testing.assert_array_equal(buf, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_is_the_input_shifted_by_one_row(backend):
    buf = random((N + 1, N), 3)
    want = buf[:-1] + buf[:-1]
    compiled(DOUBLE, backend)(buf[:-1], out=buf[1:])
    np.testing.assert_array_equal(buf[1:], want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_first_out_is_an_input_the_second_result_still_reads(backend):
    x, y = random((N, N), 4), random((N, N), 5)
    want = (x + y, x.T * y)
    second = np.empty((N, N), np.float32)
    got = compiled(SUM_AND_TRANSPOSED_PRODUCT, backend)(x, y, out=(x, second))
    assert got[0] is x and got[1] is second
    np.testing.assert_array_equal(x, want[0])
    np.testing.assert_array_equal(second, want[1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_outs_overlapping_each_other_are_written_in_result_order(backend):
    x, y = random((N, N), 6), random((N, N), 7)
    buf = random((N + 1, N), 8)
    want = buf.copy()
    want[:-1] = x + y
    want[1:] = (x + y) * y
    compiled(SUM_AND_PRODUCT, backend)(x, y, out=(buf[:-1], buf[1:]))
    np.testing.assert_array_equal(buf, want)
    same = np.empty((N, N), np.float32)
    got = compiled(SUM_AND_PRODUCT, backend)(x, y, out=(same, same))
    assert got[0] is same and got[1] is same
    np.testing.assert_array_equal(same, (x + y) * y)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text", [DOUBLE_AND_TRANSPOSE, DOUBLE_AND_SELF], ids=["transpose", "self"])
def test_a_result_that_views_an_input_is_read_before_outs_are_written(backend, text):
    x = random((N, N), 9)
    view = x.T.copy() if text is DOUBLE_AND_TRANSPOSE else x.copy()
    want = (x + x, view)
    second = np.empty((N, N), np.float32)
    compiled(text, backend)(x, out=(x, second))
    np.testing.assert_array_equal(x, want[0])
    np.testing.assert_array_equal(second, want[1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_result_that_is_its_own_out_is_rewritten_after_an_earlier_out_overlapped_it(backend):
    buf = random((N + 1, N), 10)
    x = buf[1:]
    want = buf.copy()
    want[:-1] = x + x
    want[1:] = x  # result 1 is %x itself, copied after result 0
    got = compiled(DOUBLE_AND_SELF, backend)(x, out=(buf[:-1], x))
    assert got[1] is x
    np.testing.assert_array_equal(buf, want)


def test_an_out_that_overlaps_nothing_is_written_directly(monkeypatch):
    """No result buffer is allocated (or copied) unless an out overlaps."""
    from bcast.lowering import numpy_runtime

    allocated = []
    allocate = numpy_runtime.output
    monkeypatch.setattr(numpy_runtime, "output", lambda *a: allocated.append(a) or allocate(*a))
    f, x, y = compiled(SUM_AND_PRODUCT, "numpy"), random((N, N), 1), random((N, N), 2)
    outs = (np.empty((N, N), np.float32), np.empty((N, N), np.float32))
    f(x, y, out=outs)
    assert allocated == []
    f(x, y, out=(x, outs[1]))  # out[0] is an input: its result goes through a buffer
    assert len(allocated) == 1


# --------------------------------------------------------------------------
# every out= checked before anything is written
# --------------------------------------------------------------------------

SMALL = "tensor<64x64xf32>"
SMALL_PAIR = f"""
func.func @main(%x: {SMALL}, %y: {SMALL}) -> ({SMALL}, {SMALL}) {{
  %0 = bcast.add %x, %y : ({SMALL}, {SMALL}) -> {SMALL}
  %1 = bcast.multiply %x, %y : ({SMALL}, {SMALL}) -> {SMALL}
  func.return %0, %1 : {SMALL}, {SMALL}
}}
"""


def _read_only():
    a = np.zeros((64, 64), np.float32)
    a.setflags(write=False)
    return a


BAD_SECOND_OUTS = {
    "f64 for f32": lambda: np.zeros((64, 64), np.float64),
    "i32": lambda: np.zeros((64, 64), np.int32),
    "transposed shape": lambda: np.zeros((64, 65), np.float32),
    "flat": lambda: np.zeros(64 * 64, np.float32),
    "broadcastable": lambda: np.zeros((1, 64), np.float32),
    "read-only": _read_only,
    "list": lambda: np.zeros((64, 64), np.float32).tolist(),
    "scalar": lambda: np.float32(0),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bad", BAD_SECOND_OUTS, ids=list(BAD_SECOND_OUTS))
def test_every_out_is_checked_before_anything_is_written(backend, bad):
    f = compiled(SMALL_PAIR, backend)
    x, y = random((64, 64), 1), random((64, 64), 2)
    first = np.full((64, 64), 7, np.float32)
    before = first.tobytes()
    with pytest.raises(BcastError, match="out"):
        f(x, y, out=(first, BAD_SECOND_OUTS[bad]()))
    assert first.tobytes() == before


@pytest.mark.parametrize("backend", BACKENDS)
def test_out_count_and_kind_are_checked_before_anything_is_written(backend):
    f = compiled(SMALL_PAIR, backend)
    x, y = random((64, 64), 1), random((64, 64), 2)
    first = np.full((64, 64), 7, np.float32)
    for out in (first, (first,), (first, first.copy(), first.copy()), "first"):
        with pytest.raises(BcastError, match="out="):
            f(x, y, out=out)
    assert (first == 7).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_wrong_shape_for_a_single_out_is_a_bcast_error(backend):
    out = np.zeros((N, 1), np.float32)
    with pytest.raises(BcastError, match=r"result0.*\(1024, 1024\)"):
        compiled(DOUBLE, backend)(random((N, N)), out=out)
    assert not out.any()


# --------------------------------------------------------------------------
# results belong to the caller
# --------------------------------------------------------------------------

SMALL_DOUBLE = f"""
func.func @main(%x: {SMALL}) -> {SMALL} {{
  %0 = bcast.add %x, %x : ({SMALL}, {SMALL}) -> {SMALL}
  func.return %0 : {SMALL}
}}
"""


def assert_callers_own(results, inputs=()) -> None:
    """Writeable, C-contiguous, and sharing memory with nothing else alive."""
    for k, r in enumerate(results):
        assert r.flags.writeable and r.flags.c_contiguous
        for other in list(results[:k]) + list(inputs):
            assert r is not other and not np.shares_memory(r, other)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_dropped_read_only_result_does_not_make_later_calls_fail(backend):
    f, x = compiled(SMALL_DOUBLE, backend), random((64, 64))
    r = f(x)
    r.setflags(write=False)
    del r
    gc.collect()
    later = [f(x) for _ in range(3)]
    for r in later:
        np.testing.assert_array_equal(r, x + x)
    assert_callers_own(later, [x])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("change", ["strides", "shape"])
def test_a_dropped_result_with_changed_geometry_does_not_change_later_results(backend, change):
    f, x = compiled(SMALL_DOUBLE, backend), random((64, 64))
    r = f(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # setting strides (NumPy 2.4)
        if change == "strides":
            r.strides = (0, r.itemsize)  # every row the same memory
        else:
            r.shape = (64 * 64,)
    del r
    gc.collect()
    later = [f(x) for _ in range(3)]
    for r in later:
        assert r.shape == (64, 64)
        np.testing.assert_array_equal(r, x + x)
    assert_callers_own(later, [x])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_weak_reference_to_a_dropped_result_stays_dead(backend):
    f, x, y = compiled(SMALL_DOUBLE, backend), random((64, 64), 1), random((64, 64), 2)
    r = f(x)
    ref = weakref.ref(r)
    del r
    gc.collect()
    later = f(y)
    assert ref() is None
    np.testing.assert_array_equal(later, y + y)


DERIVED = {
    "slice": lambda r: r[1:],
    "transpose": lambda r: r.T,
    "reshape": lambda r: r.reshape(-1),
    "view as int": lambda r: r.view(np.int32),
    "asarray": lambda r: np.asarray(r),
    "memoryview": memoryview,
    "frombuffer": lambda r: np.frombuffer(r, dtype=np.float32),
    "base": lambda r: r.base if r.base is not None else r,
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("derive", DERIVED, ids=list(DERIVED))
def test_what_is_derived_from_a_dropped_result_keeps_its_data(backend, derive):
    f, x = compiled(SMALL_DOUBLE, backend), random((64, 64), 1)
    r = f(x)
    derived = DERIVED[derive](r)
    snapshot = bytes(memoryview(derived))
    del r
    gc.collect()
    later = [f(random((64, 64), seed)) for seed in range(2, 6)]
    assert bytes(memoryview(derived)) == snapshot
    for r in later:
        assert not np.shares_memory(r, np.asarray(derived))


@pytest.mark.parametrize("backend", BACKENDS)
def test_results_are_never_an_earlier_result_still_alive(backend):
    f = compiled(SMALL_DOUBLE, backend)
    inputs = [random((64, 64), seed) for seed in range(6)]
    results = []
    for k, x in enumerate(inputs):
        results.append(f(x))
        if k % 2:
            del results[0]  # some dropped, some kept
            gc.collect()
    assert_callers_own(results, inputs)
    for r in results:
        assert any(np.array_equal(r, x + x) for x in inputs)


MIXED_RESULTS = f"""
func.func @main(%x: {SMALL}) -> ({SMALL}, {SMALL}, {SMALL}, {SMALL}) {{
  %0 = bcast.add %x, %x : ({SMALL}, {SMALL}) -> {SMALL}
  %t = bcast.transpose %x, dims = [1, 0] : ({SMALL}) -> {SMALL}
  func.return %0, %t, %x, %0 : {SMALL}, {SMALL}, {SMALL}, {SMALL}
}}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_result_is_a_separate_array_the_caller_owns(backend):
    x = random((64, 64))
    results = compiled(MIXED_RESULTS, backend)(x)
    assert_callers_own(results, [x])
    for got, want in zip(results, (x + x, x.T, x, x + x)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_four_threads_calling_one_function_get_their_own_results(backend):
    rows, cols = 512, 1024  # two blocks
    t = f"tensor<{rows}x{cols}xf32>"
    text = f"""
func.func @main(%x: {t}, %row: tensor<{cols}xf32>) -> ({t}, {t}) {{
  %0 = bcast.add %x, %row : ({t}, tensor<{cols}xf32>) -> {t}
  %1 = bcast.multiply %0, %x : ({t}, {t}) -> {t}
  func.return %0, %1 : {t}, {t}
}}
"""
    f = compiled(text, backend)
    iterations = 25 if backend == "numpy" else 5
    failures: list[str] = []

    def work(seed: int) -> None:
        x, row = random((rows, cols), seed), random(cols, seed + 100)
        want = (x + row, (x + row) * x)
        kept = []
        out = (np.empty_like(x), np.empty_like(x))
        for i in range(iterations):
            got = f(x, row, out=out) if i % 3 == 2 else f(x, row)
            for g, w in zip(got, want):
                if not np.array_equal(g, w):
                    failures.append(f"thread {seed}, iteration {i}")
            if i % 4 == 0:
                kept.append(got)  # some results stay alive across later calls
        for got in kept:
            for g, w in zip(got, want):
                if not np.array_equal(g, w):
                    failures.append(f"thread {seed}: a kept result changed")

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[:5]


# --------------------------------------------------------------------------
# Property: random programs, random out= aliasing
# --------------------------------------------------------------------------

TOLERANCE = {2: 2e-3, 4: 1e-5, 8: 1e-12}


def assert_memory_equal(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=TOLERANCE[want.dtype.itemsize],
                                   atol=TOLERANCE[want.dtype.itemsize], equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


def draw_layout(data, inputs, results) -> list[tuple]:
    """Where each input, then each out array, lives: its own array, a view at
    some element offset of one buffer per dtype (plain, reversed or
    transposed), or (outs only) the very same object as an input or an
    earlier out of the same shape and dtype."""
    templates = list(inputs) + list(results)
    pool_size: dict[np.dtype, int] = {}
    for a in templates:
        pool_size[a.dtype] = pool_size.get(a.dtype, 0) + a.size
    layout = []
    for k, a in enumerate(templates):
        choices = [("own",), ("pool", "plain"), ("pool", "reversed")]
        if a.ndim >= 2:
            choices.append(("pool", "transposed"))
        same = [("same", m) for m in range(k) if k >= len(inputs)
                and templates[m].shape == a.shape and templates[m].dtype == a.dtype]
        if same and data.draw(st.booleans()):
            choices = same  # the most direct aliasing, as often as the rest
        choice = data.draw(st.sampled_from(choices))
        if choice[0] == "pool":
            span = max(0, pool_size[a.dtype] // 2 - a.size)
            choice = choice + (data.draw(st.integers(0, span)),)
        layout.append(choice)
    return layout


def build(layout, inputs, results):
    """Arrays laid out as ``layout`` says, inputs written in order (a later
    input overwrites an earlier one where they overlap); returns the inputs,
    the outs and every piece of memory involved."""
    templates = list(inputs) + list(results)
    sizes: dict[np.dtype, int] = {}
    for choice, a in zip(layout, templates):
        if choice[0] == "pool":
            sizes[a.dtype] = max(sizes.get(a.dtype, 0), choice[2] + a.size)
    pools = {dtype: np.zeros(size, dtype) for dtype, size in sizes.items()}
    arrays: list[np.ndarray] = []
    memory: list[np.ndarray] = list(pools.values())
    for choice, a in zip(layout, templates):
        if choice[0] == "own":
            array = np.zeros(a.shape, a.dtype)
            memory.append(array)
        elif choice[0] == "same":
            array = arrays[choice[1]]
        else:
            flat = pools[a.dtype][choice[2] : choice[2] + a.size]
            if choice[1] == "plain":
                array = flat.reshape(a.shape)
            elif choice[1] == "reversed":
                array = flat.reshape(a.shape)[(slice(None, None, -1),) * a.ndim + (Ellipsis,)]
            else:
                array = flat.reshape(a.shape[::-1]).T
        arrays.append(array)
    for array, a in zip(arrays, inputs):
        array[...] = a
    return arrays[: len(inputs)], arrays[len(inputs) :], memory


def also_returning(program, i: int) -> str:
    """The program's text with input ``i`` returned as one more, last result:
    a result that is an input itself, which an earlier ``out`` may overlap."""
    t = program.arg_types[i]
    lines = program.text.splitlines()
    for n, line in enumerate(lines):
        if line.startswith("func.func @main("):
            head = line.rsplit(") -> ", 1)[0]
            lines[n] = f"{head}) -> ({', '.join(program.result_types + (t,))}) {{"
        elif line.startswith("  func.return "):
            values, types = line.split(" : ")
            lines[n] = f"{values}, %a{i} : {types}, {t}"
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_out_aliasing_gives_the_unaliased_reference_result(backend, data):
    program = data.draw(programs(min_ops=2, max_ops=5))
    text, results = program.text, [np.asarray(r) for r in program.expected]
    if data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(program.inputs) - 1))
        text, results = also_returning(program, i), results + [program.inputs[i]]
    layout = draw_layout(data, program.inputs, results)
    # what the call must leave: reference results on copies, then copied in order
    inputs, outs, want = build(layout, program.inputs, results)
    fresh = as_tuple(compiled(text, "reference")(*[np.array(a) for a in inputs]))
    for out, r in zip(outs, fresh):
        np.copyto(out, r)
    # the aliased call
    inputs, outs, got = build(layout, program.inputs, results)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        returned = as_tuple(compiled(text, backend)(*inputs, out=tuple(outs)))
    assert len(returned) == len(outs) and all(r is o for r, o in zip(returned, outs))
    for k, (g, w) in enumerate(zip(got, want)):
        assert_memory_equal(g, w, f"memory {k} (layout {layout})")
