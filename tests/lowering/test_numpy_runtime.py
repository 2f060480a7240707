"""The NumPy target's runtime helpers: alignment, scratch reuse, and the
recycling of results the caller has dropped (never of live ones)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import bcast
from bcast.lowering import numpy_runtime as rt


def test_empty_is_aligned():
    for n in (1, 3, 1000):
        a = rt.empty((n, 3), np.float32)
        assert a.ctypes.data % rt.ALIGNMENT == 0 and a.shape == (n, 3)


@pytest.fixture
def recycle_every_size(monkeypatch):
    """``output`` recycles even the small sizes these tests use."""
    monkeypatch.setattr(rt, "SMALL_RESULT", 0)


def test_small_results_are_plain_new_arrays():
    """Below ``SMALL_RESULT`` bytes a result is NumPy's own allocation: the
    cache neither keeps nor hands out a buffer of that size."""
    before = dict(rt._BUFFERS)
    a = rt.output((5, 7), np.float32)
    assert a.base is None and a.flags.owndata and a.flags.writeable
    assert rt._BUFFERS == before
    big = rt.output((130, 131), np.float32)  # 68 KB: recycled
    assert any(b is big.base for b, _ in rt._BUFFERS.values())


@pytest.mark.usefixtures("recycle_every_size")
def test_output_recycles_only_dropped_buffers_and_never_array_objects():
    shape = (5, 7)
    a = rt.output(shape, np.float32)
    b = rt.output(shape, np.float32)
    assert not np.shares_memory(a, b)  # both alive: two buffers
    address, dead = a.ctypes.data, weakref.ref(a)
    view = a[1:]
    del a
    gc.collect()
    c = rt.output(shape, np.float32)
    assert not np.shares_memory(c, view)  # a view keeps the old buffer alive
    del view
    gc.collect()
    d = rt.output(shape, np.float32)
    assert d.ctypes.data == address  # dropped with all its views: recycled ...
    assert dead() is None  # ... in a new array object
    assert d.flags.writeable and d.flags.c_contiguous and d.ctypes.data % rt.ALIGNMENT == 0
    buffer = memoryview(d)
    del d
    assert not np.shares_memory(rt.output(shape, np.float32), np.asarray(buffer))  # a memoryview counts
    del buffer, b, c


@pytest.mark.usefixtures("recycle_every_size")
def test_output_drops_a_buffer_made_read_only_through_base():
    a = rt.output((3, 3), np.float64)
    address = a.ctypes.data
    a.base.setflags(write=False)
    del a
    gc.collect()
    b = rt.output((3, 3), np.float64)
    assert b.flags.writeable and b.ctypes.data != address


def test_output_keeps_at_most_the_cache_limit(monkeypatch):
    monkeypatch.setattr(rt, "SMALL_RESULT", 0)
    monkeypatch.setenv("BCAST_OUTPUT_CACHE_MB", "0")
    a = rt.output((12345,), np.float32)  # a size no other test uses
    assert all(b is not a.base for b, _ in rt._BUFFERS.values())  # 0: nothing kept
    monkeypatch.setenv("BCAST_OUTPUT_CACHE_MB", "1")
    big = [rt.output((2**17,), np.float32) for _ in range(4)]  # 512 KiB each
    assert sum(b.nbytes for b, _ in rt._BUFFERS.values()) <= 2**20
    del a, big


@pytest.mark.parametrize("n", [64, 256])  # a small (inline, plain) and a recycled result
def test_results_of_successive_calls_never_alias(n):
    text = f"""
func.func @main(%x: tensor<{n}x{n}xf32>, %row: tensor<{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %0 = bcast.add %x, %row : (tensor<{n}x{n}xf32>, tensor<{n}xf32>) -> tensor<{n}x{n}xf32>
  func.return %0 : tensor<{n}x{n}xf32>
}}
"""
    f = bcast.compile(text, backend="numpy")
    x = np.ones((n, n), np.float32)
    first = f(x, np.zeros(n, np.float32))
    second = f(x, np.ones(n, np.float32))
    assert not np.shares_memory(first, second)
    assert (first == 1).all() and (second == 2).all()
    third = f(first, np.ones(n, np.float32))  # a result fed back in
    assert not np.shares_memory(third, first) and (third == 2).all() and (first == 1).all()


@pytest.mark.usefixtures("recycle_every_size")
def test_output_checks_a_bounded_number_of_buffers(monkeypatch):
    """Thousands of results alive at once (a deep program's intermediates):
    each new one checks at most ``CANDIDATES`` cached buffers, not all of
    them (which made a deep program's first call quadratic: 1 s at 4,000
    fusions)."""
    checked = []
    references = rt._references
    monkeypatch.setattr(rt, "_references", lambda *a: checked.append(1) or references(*a))
    n = 2000
    alive = [rt.output((3, 11), np.float32) for _ in range(n)]  # a size no other test uses
    assert len(checked) <= 8 * n  # rt.CANDIDATES each, not up to n each
    addresses = {a.ctypes.data for a in alive}
    assert len(addresses) == n  # never a buffer in use
    del alive
    gc.collect()
    checked.clear()
    again = [rt.output((3, 11), np.float32) for _ in range(n)]
    assert len(checked) <= 8 * n
    assert {a.ctypes.data for a in again} == addresses  # every dropped one recycled


def test_an_exact_array_argument_skips_the_general_rule(monkeypatch):
    """Per-call cost: an ndarray of exactly the declared shape and dtype is
    used as it is without the general rule's steps; anything else takes them."""
    spec = rt.Spec("arg0 (%x)", "tensor<2x3xf32>", (2, 3), np.float32)
    exact = np.zeros((2, 3), np.float32)

    def general(value):
        raise AssertionError("took the general rule")

    monkeypatch.setattr(rt, "python_leaves", general)
    assert rt.argument(exact, spec) is exact
    with pytest.raises(AssertionError, match="general rule"):
        rt.argument(np.zeros((2, 3), np.float16), spec)
    with pytest.raises(AssertionError, match="general rule"):
        rt.argument(np.ma.masked_array(exact), spec)


def test_few_blocks_do_not_ask_for_threads(monkeypatch):
    """Fewer than 8 blocks run on the calling thread without ``threads()``
    (``os.cpu_count`` cost microseconds per call); 8 or more ask for it."""
    asked = []
    monkeypatch.setattr(rt, "threads", lambda: asked.append(1) or 1)
    seen = []
    rt.run_blocks(lambda i, j: seen.append((i, j)), 7, 1, lambda: ())
    assert seen == [(i, i + 1) for i in range(7)] and not asked
    rt.run_blocks(lambda i, j: seen.append((i, j)), 8, 1, lambda: ())
    assert asked == [1] and len(seen) == 15


def test_expand_computes_its_reshape_once_per_shape():
    """``expand``'s transpose and reshape depend on the shape and dims only:
    computed once (a per-call cost), the same views every time."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    first = rt.expand(x, [2, 0], 3)  # transposing: x's dim 0 to result dim 2
    hits = rt.expansion.cache_info().hits
    again = rt.expand(x.copy(), (2, 0), 3)
    assert rt.expansion.cache_info().hits == hits + 1
    assert first.shape == again.shape == (3, 1, 2) and np.array_equal(first, again)
    assert np.array_equal(first[:, 0, :], x.T) and np.shares_memory(first, x)
    assert rt.expand(np.zeros(4), [1], 2).shape == (1, 4)


@pytest.mark.parametrize("state", [rt.FP_ERRORS, rt._ErrstateStandIn()], ids=["numpy-variable", "stand-in"])
def test_fp_error_state_is_set_and_reset(state):
    """``FP_ERRORS`` (NumPy's own variable here) and its stand-in both
    ignore every floating-point error until reset, then restore the caller's."""
    with np.errstate(all="raise"):
        token = state.set(rt.IGNORE_ALL)
        assert set(np.geterr().values()) == {"ignore"}
        assert np.isnan(np.divide(np.float32(0), np.float32(0)))  # no FloatingPointError
        state.reset(token)
        assert set(np.geterr().values()) == {"raise"}


def test_generated_code_ignores_fp_errors_and_keeps_the_callers_state():
    text = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.divide %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
"""
    f = bcast.compile(text, backend="numpy")
    with np.errstate(all="raise"):
        assert np.isnan(f(np.zeros(3, np.float32))).all()  # 0/0 raises nothing
        assert set(np.geterr().values()) == {"raise"}
        with pytest.raises(bcast.BcastError):
            f(np.zeros(4, np.float32))
        assert set(np.geterr().values()) == {"raise"}
