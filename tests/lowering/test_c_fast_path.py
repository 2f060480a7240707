"""The C backend's fast call path (``c_runtime.Function.__call__``, planned by
``c_runtime.fast_plan``) against its checked path (``checked_call``): the
same results and the same errors for every kind of argument and ``out=``
the contract names (docs/contracts.md, "Arguments" and "out="), and the
common case really takes the fast path."""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest

import bcast
from bcast.lowering import c_runtime
from bcast.tools.api import BcastError

pytestmark = pytest.mark.skipif(not c_runtime.available(), reason="no C compiler")

TANH = """
func.func @main(%x: tensor<4x6xf32>, %row: tensor<6xf32>) -> tensor<4x6xf32> {
  %0 = bcast.add %x, %row : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %1 = bcast.tanh %0 : tensor<4x6xf32>
  func.return %1 : tensor<4x6xf32>
}
"""

TWO = """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = bcast.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = bcast.subtract %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
"""

SCALAR = """
func.func @main(%x: tensor<f64>, %y: tensor<0x3xf64>) -> (tensor<f64>, tensor<0x3xf64>) {
  %0 = bcast.multiply %x, %x : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %1 = bcast.add %y, %x : (tensor<0x3xf64>, tensor<f64>) -> tensor<0x3xf64>
  func.return %0, %1 : tensor<f64>, tensor<0x3xf64>
}
"""


def compiled(text: str):
    f = bcast.compile(text, backend="c")
    assert f._python_function.fast is not None  # these programs have a fast path
    return f


def outcome(call):
    """What a call gives: its results' values, or its error's type and message."""
    try:
        got = call()
    except (BcastError, TypeError) as e:
        return type(e).__name__, str(e)
    return [np.array(r, copy=True) for r in (got if isinstance(got, tuple) else (got,))]


def same(a, b) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return a == b
    return len(a) == len(b) and all(x.dtype == y.dtype and np.array_equal(x, y, equal_nan=True)
                                    for x, y in zip(a, b))


def checked(f):
    """``f`` with its C function always taking the checked path."""
    function = f._python_function

    def call(*args, out=None):
        saved = function.fast
        function.fast = None
        try:
            return f(*args, out=out)
        finally:
            function.fast = saved

    return call


def pair_of_calls(f, make_args, make_out=None):
    """The outcome of the fast and the checked path on fresh copies of the
    same arguments (and ``out``), and the ``out`` arrays afterwards."""
    results = []
    for call in (f, checked(f)):
        args = make_args()
        out = None if make_out is None else make_out(args)
        results.append((outcome(lambda: call(*args, out=out)), out))
    return results


X = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
ROW = np.linspace(-1, 1, 6, dtype=np.float32)

TANH_CASES = {
    "exact": lambda: (X.copy(), ROW.copy()),
    "safe dtype f16": lambda: (X.astype(np.float16), ROW.copy()),
    "lossy dtype f64": lambda: (X.astype(np.float64), ROW.copy()),
    "wrong shape": lambda: (X.reshape(6, 4).copy(), ROW.copy()),
    "non-contiguous": lambda: (np.repeat(X, 2, axis=1)[:, ::2], ROW.copy()),
    "Fortran order": lambda: (np.asfortranarray(X), ROW.copy()),
    "read-only input": lambda: (X.copy(), np.frombuffer(ROW.tobytes(), np.float32)),
    "byte-swapped": lambda: (X.astype(">f4"), ROW.copy()),
    "a list": lambda: (X.tolist(), ROW.copy()),
    "a subclass": lambda: (np.ma.masked_array(X.copy()), ROW.copy()),
    "a masked element": lambda: (np.ma.masked_array(X.copy(), mask=X > 1), ROW.copy()),
    "too few": lambda: (X.copy(),),
    "too many": lambda: (X.copy(), ROW.copy(), ROW.copy()),
}

TANH_OUTS = {
    "none": None,
    "fresh": lambda args: np.full((4, 6), 7, np.float32),
    "fresh in a list": lambda args: [np.full((4, 6), 7, np.float32)],
    "the input itself": lambda args: args[0] if isinstance(args[0], np.ndarray) else np.zeros((4, 6), np.float32),
    "read-only": lambda args: np.frombuffer(np.zeros(24, np.float32).tobytes(), np.float32).reshape(4, 6),
    "wrong dtype": lambda args: np.zeros((4, 6), np.float64),
    "wrong shape": lambda args: np.zeros((6, 4), np.float32),
    "non-contiguous": lambda args: np.zeros((4, 12), np.float32)[:, ::2],
    "two for one result": lambda args: (np.zeros((4, 6), np.float32),) * 2,
    "not an array": lambda args: [[0.0] * 6] * 4,
}


@pytest.mark.parametrize("out_case", list(TANH_OUTS))
@pytest.mark.parametrize("arg_case", list(TANH_CASES))
def test_fast_and_checked_paths_agree(arg_case: str, out_case: str):
    f = compiled(TANH)
    (fast, fast_out), (slow, slow_out) = pair_of_calls(f, TANH_CASES[arg_case], TANH_OUTS[out_case])
    assert same(fast, slow), (fast, slow)
    if fast_out is not None and isinstance(fast_out, np.ndarray):
        assert np.array_equal(fast_out, slow_out)  # written alike, or untouched alike on an error


def test_out_overlapping_an_input_gets_the_fresh_values():
    """An ``out`` that is a shifted view of an input's buffer: the fast path
    must not write it directly (its byte range meets the input's)."""
    f = compiled(TWO)
    buf = np.arange(8, dtype=np.float32)
    x, y = buf[:4], np.ones(4, np.float32)
    want = (x + y, x - y)
    out0 = buf[2:6]  # overlaps x
    out1 = np.empty(4, np.float32)
    got = f(x, y, out=(out0, out1))
    assert got[0] is out0 and got[1] is out1
    expect = np.arange(8, dtype=np.float32)
    expect[2:6] = want[0]
    assert np.array_equal(buf, expect) and np.array_equal(out1, want[1])


def test_outs_overlapping_each_other_are_copied_in_result_order():
    f = compiled(TWO)
    x, y = np.arange(4, dtype=np.float32), np.full(4, 10, np.float32)
    shared = np.zeros(4, np.float32)
    for call in (f, checked(f)):
        shared[:] = 0
        call(x, y, out=(shared, shared))
        assert np.array_equal(shared, x - y)  # the second result is copied last


def test_zero_dim_and_empty_arrays_on_both_paths():
    f = compiled(SCALAR)

    def make():
        return np.array(3.0), np.zeros((0, 3))

    for make_out in (None, lambda args: (np.zeros(()), np.zeros((0, 3)))):
        (fast, _), (slow, _) = pair_of_calls(f, make, make_out)
        assert same(fast, slow) and float(fast[0]) == 9.0 and fast[1].shape == (0, 3)


def test_the_common_case_takes_the_fast_path(monkeypatch):
    f = compiled(TANH)
    function = f._python_function

    def refuse(args, out):
        raise AssertionError("took the checked path")

    monkeypatch.setattr(function, "checked_call", refuse)
    got = f(X, ROW)
    assert np.allclose(got, np.tanh(X + ROW))
    out = np.empty((4, 6), np.float32)
    assert f(X, ROW, out=out) is out and np.allclose(out, np.tanh(X + ROW))
    assert f(X, ROW, out=[out]) is out
    again = f(X, ROW)
    assert again is not got and not np.shares_memory(again, got)  # every result is the caller's
    assert got.flags.writeable and got.flags.c_contiguous and got.flags.owndata


def test_several_threads_calling_one_function():
    f = compiled(TANH)
    rng = np.random.default_rng(0)
    inputs = [(rng.standard_normal((4, 6)).astype(np.float32), rng.standard_normal(6).astype(np.float32))
              for _ in range(8)]
    errors: list[str] = []

    def work(k: int) -> None:
        x, row = inputs[k]
        want = np.tanh(x + row)
        out = np.empty((4, 6), np.float32)
        for _ in range(500):
            if not np.allclose(f(x, row), want) or f(x, row, out=out) is not out or not np.allclose(out, want):
                errors.append(f"thread {k} got a wrong result")
                return

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_data_offset_reads_the_data_pointer():
    """``DATA_OFFSET`` was verified where this NumPy keeps the pointer (the
    fast path needs it); views with offsets read their own pointer."""
    assert c_runtime.DATA_OFFSET is not None
    base = np.arange(100, dtype=np.int16)
    for a in (base, base[7:], base[::3], base.reshape(10, 10).T[2:]):
        assert ctypes.c_void_p.from_address(id(a) + c_runtime.DATA_OFFSET).value == a.ctypes.data


INDEX = """
func.func @main(%i: index, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = bcast.negate %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("index", [3, -(2**63), 2**63 - 1, 2**63, np.int64(5), True, np.array(2), 1.0])
def test_index_arguments_on_both_paths(index):
    """An ``index`` is a Python int in range on the fast path; NumPy integers,
    bools, arrays and out-of-range ints get the checked path's answer."""
    f = compiled(INDEX)
    (fast, _), (slow, _) = pair_of_calls(f, lambda: (index, np.arange(4, dtype=np.float32)))
    assert same(fast, slow), (fast, slow)


def test_an_out_next_to_an_input_is_written_directly(monkeypatch):
    """Byte ranges that touch without meeting do not overlap: the fast path
    writes such an ``out`` itself; one element more and it is the checked path."""
    f = compiled(TWO)
    buf = np.arange(12, dtype=np.float32)
    x, y = buf[:4], np.ones(4, np.float32)
    want = (buf[:4] + 1, buf[:4] - 1)
    monkeypatch.setattr(f._python_function, "checked_call", lambda args, out: "checked")
    out0, out1 = buf[4:8], buf[8:12]
    assert f(x, y, out=(out0, out1)) == (out0, out1)
    assert np.array_equal(out0, want[0]) and np.array_equal(out1, want[1])
    assert f(x, y, out=(buf[3:7], out1)) == "checked"
    assert f(x, y, out=(out0, buf[7:11])) == "checked"  # meets the first out


def test_a_function_without_results_takes_the_checked_path():
    f = bcast.compile("func.func @main(%x: tensor<2xf32>) {\n  func.return\n}\n", backend="c")
    assert f._python_function.fast is None
    assert f(np.zeros(2, np.float32)) == () and f(np.zeros(2, np.float32), out=()) == ()


def native_caller():
    call = c_runtime.own_caller()
    if call is None:
        pytest.skip("bcast_call is not built here (no Python.h, or BCAST_CTYPES_CALLS=1)")
    return call


def test_the_fast_path_enters_c_through_bcast_call():
    """Where ``bcast_call`` builds, the fast path is its ``fast`` (checks,
    allocation and call in C), not Python code and not ctypes."""
    call = native_caller()
    fast = compiled(TANH)._python_function.fast
    assert fast.func is call.__self__.fast
    assert fast(X, ROW) is c_runtime.MISS  # not an args tuple
    got = fast((X, ROW), None)
    assert np.allclose(got, np.tanh(X + ROW)) and got.flags.owndata and got.flags.writeable


def python_fast(f):
    """``f``'s fast path written in Python (``fast_call``), entering C
    through ``bcast_call.call``."""
    function = f._python_function
    return c_runtime.fast_call(c_runtime.fast_plan(function.arguments, function.results, ()), function.c_function)


@pytest.mark.parametrize("out_case", list(TANH_OUTS))
@pytest.mark.parametrize("arg_case", list(TANH_CASES))
def test_native_and_python_fast_paths_agree(arg_case: str, out_case: str):
    """``bcast_call.fast`` takes exactly the calls the Python fast path
    takes (``MISS`` for the others), with the same results."""
    native_caller()
    f = compiled(TANH)
    got = {}
    for name, path in {"native": f._python_function.fast, "python": python_fast(f)}.items():
        args = TANH_CASES[arg_case]()
        out = None if TANH_OUTS[out_case] is None else TANH_OUTS[out_case](args)
        result = path(args, out)
        got[name] = "miss" if result is c_runtime.MISS else np.array(result, copy=True)
        if out is not None and result is not c_runtime.MISS:
            assert result is (out if isinstance(out, np.ndarray) else out[0])
    if isinstance(got["native"], str) or isinstance(got["python"], str):
        assert got["native"] == got["python"], got
    else:
        assert np.array_equal(got["native"], got["python"])


def unaligned(shape, dtype):
    """A C-contiguous array whose data is not aligned for its dtype."""
    dtype = np.dtype(dtype)
    raw = np.zeros(int(np.prod(shape)) * dtype.itemsize + 1, np.uint8)
    array = np.ndarray(shape, dtype, buffer=raw, offset=1)
    assert array.flags.c_contiguous and not array.flags.aligned
    return array


def test_unaligned_arrays_take_the_checked_path_which_aligns_them(monkeypatch):
    """C code may assume its pointers are aligned: an unaligned input or
    ``out`` is not passed as it is; the checked path gives the values."""
    f = compiled(TANH)
    x = unaligned((4, 6), np.float32)
    x[...] = X
    assert f._python_function.fast((x, ROW), None) is c_runtime.MISS
    assert np.allclose(f(x, ROW), np.tanh(X + ROW))
    out = unaligned((4, 6), np.float32)
    assert f._python_function.fast((X, ROW), out) is c_runtime.MISS
    assert f(X, ROW, out=out) is out and np.allclose(out, np.tanh(X + ROW))


def test_subclass_zero_dim_and_empty_on_the_native_path():
    """A subclass misses (the checked path reads it); 0-d and 0-size arrays
    are taken, with and without ``out=``."""
    native_caller()
    f = compiled(SCALAR)
    fast = f._python_function.fast
    x, y = np.array(3.0), np.zeros((0, 3))
    got = fast((x, y), None)
    assert float(got[0]) == 9.0 and got[1].shape == (0, 3)
    outs = (np.zeros(()), np.zeros((0, 3)))
    assert fast((x, y), outs) == outs and float(outs[0]) == 9.0
    assert fast((np.ma.masked_array(x), y), None) is c_runtime.MISS
    assert float(f(np.ma.masked_array(x), y)[0]) == 9.0


BIG = """
func.func @main(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = bcast.negate %x : tensor<256x256xf32>
  func.return %0 : tensor<256x256xf32>
}
"""


def test_large_results_on_the_native_path_are_new_arrays_the_caller_owns():
    """Results above ``SMALL_RESULT_BYTES`` come from ``numpy_runtime.output``
    (recycled buffers): each call's result is a new array, never one the
    caller still holds."""
    native_caller()
    f = compiled(BIG)
    x = np.arange(256 * 256, dtype=np.float32).reshape(256, 256)
    first = f(x)
    second = f(x)
    assert first is not second and not np.shares_memory(first, second)
    assert np.array_equal(first, -x) and np.array_equal(second, -x)
    del first
    third = f(x + 1)
    assert np.array_equal(third, -(x + 1)) and np.array_equal(second, -x)


def test_bcast_call_plan_refuses_bad_plans():
    call = native_caller()
    module = call.__self__
    with pytest.raises(TypeError):
        module.plan(1, (None,), ((np.float32, (2,)),), None, None)  # 5 arguments
    with pytest.raises(TypeError):
        module.plan(1, ((np.float32, [2]),), (), None, None, 0)  # a shape is a tuple
    with pytest.raises(TypeError):
        module.plan(1, (), (None,), None, None, 0)  # a result is an array
    with pytest.raises(ValueError):
        module.plan(1, ((np.float32, (-1,)),), (), None, None, 0)
    with pytest.raises(ValueError):
        module.plan(0, (), (), None, None, 0)
    with pytest.raises(ValueError):
        module.fast(None, (), None)  # not a plan


def ctypes_fast(f, monkeypatch):
    """``f``'s fast path rebuilt to call through ctypes (``Entry`` without
    ``own_caller``)."""
    function = f._python_function
    with monkeypatch.context() as m:
        m.setattr(c_runtime, "own_caller", lambda: None)
        fast = c_runtime.fast_call(c_runtime.fast_plan(function.arguments, function.results, ()),
                                   function.c_function)
    assert "c_function" in fast.__globals__
    return fast


@pytest.mark.parametrize("out_case", ["none", "fresh", "the input itself", "two for one result"])
@pytest.mark.parametrize("arg_case", ["exact", "wrong shape", "non-contiguous", "too many"])
def test_both_entries_into_c_agree(arg_case: str, out_case: str, monkeypatch):
    """The fast path through ``bcast_call`` and through ctypes: the same
    values, the same misses (``MISS``: the checked path's turn)."""
    native_caller()
    f = compiled(TANH)
    fast = {"native": f._python_function.fast, "ctypes": ctypes_fast(f, monkeypatch)}
    got = {}
    for name, path in fast.items():
        args = TANH_CASES[arg_case]()
        out = None if TANH_OUTS[out_case] is None else TANH_OUTS[out_case](args)
        result = path(args, out)
        got[name] = "miss" if result is c_runtime.MISS else np.array(result, copy=True)
    if isinstance(got["native"], str) or isinstance(got["ctypes"], str):
        assert got["native"] == got["ctypes"], got
    else:
        assert np.array_equal(got["native"], got["ctypes"]) and np.allclose(got["native"], np.tanh(X + ROW))


def test_bcast_call_refuses_what_it_cannot_pass():
    """``call`` takes a function address and then ints and ndarrays only;
    anything else is a TypeError before the function runs."""
    call = native_caller()
    f = compiled(TANH)
    address = ctypes.cast(f._python_function.c_function, ctypes.c_void_p).value
    x, row, r = X.copy(), ROW.copy(), np.zeros((4, 6), np.float32)
    call(address, x, row, r)
    assert np.allclose(r, np.tanh(X + ROW))
    for bad in ((address, x.tolist(), row, r), (address, x, 1.5, r), (address, np.ma.masked_array(x), row, r)):
        with pytest.raises(TypeError):
            call(*bad)
    with pytest.raises(TypeError, match="too many"):
        call(address, *[0] * 40)
    with pytest.raises(ValueError):
        call(0)
    with pytest.raises(OverflowError):
        call(address, x, 2**64, r)
    assert call.__self__.data(x) == x.ctypes.data


def test_bcast_ctypes_calls_keeps_ctypes():
    """``BCAST_CTYPES_CALLS=1`` (docs/c-backend.md): no extension is loaded,
    and programs still run."""
    import subprocess
    import sys

    code = ("import numpy as np, bcast; from bcast.lowering import c_runtime; "
            "assert c_runtime.own_caller() is None; "
            f"f = bcast.compile({TANH!r}, backend='c'); "
            "print(float(f(np.zeros((4, 6), np.float32), np.ones(6, np.float32))[0, 0]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**__import__("os").environ, "BCAST_CTYPES_CALLS": "1"})
    assert done.returncode == 0, done.stderr
    assert abs(float(done.stdout) - np.tanh(1.0)) < 1e-6
