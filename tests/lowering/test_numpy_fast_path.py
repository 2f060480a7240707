"""The numpy backend's per-call shortcuts (docs/performance.md, "Per-call
cost"): the generated code's inline argument test and inline direct
``out=`` test (``rt.direct_out_test``), the ``Outs`` made once for calls
without ``out=``, the quick exact ``out=`` test and the owned-data shortcut
of ``overlaps``, NumPy's own broadcasting in place of a view. Each decides only the common case; every other
call gets the general rule's answer (docs/contracts.md), so the results and
errors are the reference backend's."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import bcast
from bcast.lowering import numpy_runtime as rt
from bcast.tools.api import BcastError

TANH = """
func.func @main(%x: tensor<4x6xf32>, %row: tensor<6xf32>) -> tensor<4x6xf32> {
  %0 = bcast.add %x, %row : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %1 = bcast.tanh %0 : tensor<4x6xf32>
  func.return %1 : tensor<4x6xf32>
}
"""

SCALAR = """
func.func @main(%x: tensor<f64>, %y: tensor<0x3xf64>) -> (tensor<f64>, tensor<0x3xf64>) {
  %0 = bcast.multiply %x, %x : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %1 = bcast.add %y, %x : (tensor<0x3xf64>, tensor<f64>) -> tensor<0x3xf64>
  func.return %0, %1 : tensor<f64>, tensor<0x3xf64>
}
"""

X = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
ROW = np.linspace(-1, 1, 6, dtype=np.float32)


def _read_only_out(args):
    a = np.zeros((4, 6), np.float32)
    a.setflags(write=False)
    return a


ARGS = {
    "exact": lambda: (X.copy(), ROW.copy()),
    "safe dtype f16": lambda: (X.astype(np.float16), ROW.copy()),
    "lossy dtype f64": lambda: (X.astype(np.float64), ROW.copy()),
    "wrong shape": lambda: (X.reshape(6, 4).copy(), ROW.copy()),
    "non-contiguous": lambda: (np.repeat(X, 2, axis=1)[:, ::2], ROW.copy()),
    "byte-swapped": lambda: (X.astype(">f4"), ROW.copy()),
    "a list": lambda: (X.tolist(), ROW.copy()),
    "a subclass": lambda: (np.ma.masked_array(X.copy()), ROW.copy()),
    "a masked element": lambda: (np.ma.masked_array(X.copy(), mask=X > 1), ROW.copy()),
    "too few": lambda: (X.copy(),),
}

OUTS = {
    "none": None,
    "fresh": lambda args: np.full((4, 6), 7, np.float32),
    "fresh in a tuple": lambda args: (np.full((4, 6), 7, np.float32),),
    "the input itself": lambda args: args[0] if isinstance(args[0], np.ndarray) else np.zeros((4, 6), np.float32),
    "a view of the input": lambda args: args[0][:, :] if isinstance(args[0], np.ndarray) else None,
    "read-only": _read_only_out,
    "wrong dtype": lambda args: np.zeros((4, 6), np.float64),
    "wrong shape": lambda args: np.zeros((6, 4), np.float32),
    "non-contiguous": lambda args: np.zeros((4, 12), np.float32)[:, ::2],
    "two for one result": lambda args: (np.zeros((4, 6), np.float32),) * 2,
}


def outcome(f, args, out):
    try:
        got = f(*args, out=out)
    except BcastError as e:
        return "error", str(e)
    return [np.array(r, copy=True) for r in (got if isinstance(got, tuple) else (got,))]


@pytest.mark.parametrize("out_case", list(OUTS))
@pytest.mark.parametrize("arg_case", list(ARGS))
def test_numpy_backend_agrees_with_the_reference(arg_case: str, out_case: str):
    """Values, errors (their messages) and what ``out`` holds afterwards."""
    got = {}
    for backend in ("numpy", "reference"):
        f = bcast.compile(TANH, backend=backend)
        args = ARGS[arg_case]()
        out = None if OUTS[out_case] is None else OUTS[out_case](args)
        got[backend] = outcome(f, args, out), None if not isinstance(out, np.ndarray) else out.copy()
    (numpy_result, numpy_out), (ref_result, ref_out) = got["numpy"], got["reference"]
    if isinstance(numpy_result, tuple) or isinstance(ref_result, tuple):
        assert numpy_result == ref_result
    else:
        assert all(np.allclose(a, b, rtol=1e-6) and a.dtype == b.dtype for a, b in zip(numpy_result, ref_result))
    if numpy_out is not None:
        assert np.allclose(numpy_out, ref_out, rtol=1e-6)


def test_exact_arguments_skip_the_general_rule_and_others_take_it(monkeypatch):
    f = bcast.compile(TANH, backend="numpy")
    calls = []
    general = rt.argument
    monkeypatch.setattr(rt, "argument", lambda value, spec: calls.append(spec.name) or general(value, spec))
    f(X, ROW)
    assert calls == []
    f(X.astype(np.float16), ROW)
    f(np.ma.masked_array(X), ROW[::-1])  # a subclass; a reversed (negative-stride) view is exact
    assert calls == ["arg0 (%x)", "arg0 (%x)"]


def test_zero_dim_and_empty_arrays():
    f, ref = bcast.compile(SCALAR, backend="numpy"), bcast.compile(SCALAR, backend="reference")
    x, y = np.array(3.0), np.zeros((0, 3))
    got = f(x, y)
    assert float(got[0]) == 9.0 and got[1].shape == (0, 3) and got[0] is not x
    outs = (np.zeros(()), np.zeros((0, 3)))
    assert f(x, y, out=outs) == outs and float(outs[0]) == 9.0
    with pytest.raises(BcastError, match="read-only"):
        f(x, y, out=(_frozen(()), outs[1]))
    assert float(ref(x, y)[0]) == 9.0


def _frozen(shape):
    a = np.zeros(shape)
    a.setflags(write=False)
    return a


def test_calls_without_out_share_one_outs_and_never_a_result():
    """The ``Outs`` made once holds nothing of a call: results of successive
    calls are separate arrays the caller owns."""
    f = bcast.compile(TANH, backend="numpy")
    first, second = f(X, ROW), f(X, ROW)
    assert first is not second and not np.shares_memory(first, second)
    assert first.flags.writeable and first.flags.owndata


def test_owned_arrays_do_not_overlap_and_views_are_tested_exactly():
    a, b = np.zeros(8), np.zeros(8)
    assert not rt.overlaps(a, b)
    assert rt.overlaps(a, a)  # the same array
    assert rt.overlaps(a, a[2:5]) and rt.overlaps(a[2:5], a)
    assert not rt.overlaps(a[::2], a[1::2])  # interleaved: disjoint, by the exact test
    assert rt.overlaps(a.reshape(2, 4), a)


@pytest.mark.parametrize("make", [
    lambda x: np.empty_like(x), lambda x: x, lambda x: x.T.T, lambda x: x[::-1, ::-1],
    lambda x: np.empty((8, 6), np.float32)[::2], lambda x: np.frombuffer(x.tobytes(), np.float32).reshape(4, 6).copy(),
])
def test_the_quick_out_test_decides_as_the_general_one(make):
    """One exact ``out`` (``checked_outs``' quick branch) and the same in a
    list (the general branch) give the same arrays and the same decision
    to write directly."""
    results = (rt.Spec("result0", "tensor<4x6xf32>", (4, 6), np.float32),)
    x, row = X.copy(), ROW.copy()
    out = make(x)
    quick = rt.Outs(out, results, (x, row))
    general = rt.Outs([out], results, (x, row))  # a list takes the general branch
    assert quick.arrays == general.arrays and list(quick.direct) == list(general.direct)
    assert list(quick.direct) == [not np.shares_memory(out, x)]


# --------------------------------------------------------------------------
# result arrays that hold temporaries before their result is written
# --------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bcast.tests.budget import examples  # noqa: E402
from bcast.tests.programs import MODES, as_tuple, programs  # noqa: E402


def _same(got, want) -> None:
    for g, w in zip(as_tuple(got), as_tuple(want), strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_results_with_out_match_the_reference(mode, data):
    """Random programs with ``out=``: fresh arrays, and (where a result has
    an input's shape and dtype) that input itself, so results computed into
    the caller's arrays (temporaries included) and through fresh buffers
    both give the reference's values."""
    program = data.draw(programs(mode=mode, max_ops=6, reductions=True))
    want = as_tuple(bcast.compile(program.text, backend="reference")(*program.inputs))
    f = bcast.compile(program.text, backend="numpy")
    outs = tuple(np.full(np.shape(w), 3, np.asarray(w).dtype) for w in want)
    got = f(*program.inputs, out=outs if len(outs) != 1 else outs[0])
    _same(got, want)
    inputs = [np.array(x, copy=True) if isinstance(x, np.ndarray) else x for x in program.inputs]
    aliased = list(outs)
    for k, w in enumerate(want):
        match = [x for x in inputs if isinstance(x, np.ndarray) and x.shape == np.shape(w)
                 and x.dtype == np.asarray(w).dtype and x.flags.writeable
                 and not any(x is a for a in aliased)]  # one out per array: each must end with its result
        if match and data.draw(st.booleans()):
            aliased[k] = match[0]
    got = f(*inputs, out=tuple(aliased) if len(aliased) != 1 else aliased[0])
    _same(got, want)


# --------------------------------------------------------------------------
# the direct out= path (rt.direct_out_test, inline): every check still fires
# --------------------------------------------------------------------------

ZERO_D = """
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = bcast.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = bcast.tanh %0 : tensor<f32>
  func.return %1 : tensor<f32>
}
"""

ZERO_SIZE = """
func.func @main(%x: tensor<0x3xf32>, %row: tensor<3xf32>) -> tensor<0x3xf32> {
  %0 = bcast.add %x, %row : (tensor<0x3xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  func.return %0 : tensor<0x3xf32>
}
"""


@contextlib.contextmanager
def counted_outs():
    """The ``direct`` of each ``rt.Outs`` the calls with ``out=`` make inside
    (none on the inline direct path): ``[True]`` for a result ``Outs``
    writes directly."""
    made = []
    general = rt.Outs

    def counting(out, *rest, **kw):
        outs = general(out, *rest, **kw)
        if out is not None:  # not the module's one Outs for calls without out=
            made.append(list(outs.direct))
        return outs

    rt.Outs = counting
    try:
        yield made
    finally:
        rt.Outs = general


@pytest.fixture
def outs_made():
    with counted_outs() as made:
        yield made


def test_only_one_fused_static_result_that_cannot_fail_takes_the_direct_path():
    direct = "(out_flags := out.flags)"
    assert direct in bcast.compile(TANH, backend="numpy").python_source
    assert direct in bcast.compile(ZERO_D, backend="numpy").python_source
    assert direct in bcast.compile(ZERO_SIZE, backend="numpy").python_source
    assert direct not in bcast.compile(SCALAR, backend="numpy").python_source  # two results


def _want(x, row):
    return np.tanh(np.asarray(x, np.float32) + row)


def test_a_fresh_exact_out_is_written_directly_and_returned(outs_made):
    f = bcast.compile(TANH, backend="numpy")
    out, x = np.full((4, 6), 7, np.float32), X.copy()  # X is a view (of linspace's array)
    assert f(x, ROW, out=out) is out
    np.testing.assert_allclose(out, _want(X, ROW), rtol=1e-6)
    assert outs_made == []


BAD_OUTS = {
    "wrong dtype": (lambda: np.zeros((4, 6), np.float64), "dtype float64"),
    "wrong shape": (lambda: np.zeros((6, 4), np.float32), r"got shape \(6, 4\)"),
    "broadcastable shape": (lambda: np.zeros((1, 6), np.float32), r"got shape \(1, 6\)"),
    "read-only": (lambda: _frozen32(), "read-only"),
    "a list of rows": (lambda: np.zeros((4, 6), np.float32).tolist(), "needs 1 array, got 4"),
    "a NumPy scalar": (lambda: np.float32(0), "takes an array or a tuple of arrays, got float32"),
    "a tuple holding a list": (lambda: ([0.0] * 6,), "expected a NumPy array, got list"),
    "two arrays": (lambda: (np.zeros((4, 6), np.float32),) * 2, "needs 1 array, got 2"),
}


@pytest.mark.parametrize("case", list(BAD_OUTS))
def test_every_out_check_fires_and_nothing_is_written(case):
    make, message = BAD_OUTS[case]
    out = make()
    before = np.array(out, copy=True)
    for backend in ("numpy", "reference"):
        with pytest.raises(BcastError, match=message):
            bcast.compile(TANH, backend=backend)(X, ROW, out=out)
    np.testing.assert_array_equal(np.asarray(out), before)


@pytest.mark.parametrize("args", [
    lambda: (X.astype(np.float64), ROW),  # lossy: refused
    lambda: (X, ROW.astype(np.int64)),  # int64 -> f32 is not safe
    lambda: (X,),  # too few
    lambda: (X[:3], ROW),  # wrong shape
])
def test_a_failing_call_leaves_an_exact_out_untouched(args):
    f = bcast.compile(TANH, backend="numpy")
    out = np.full((4, 6), 7, np.float32)
    with pytest.raises(BcastError):
        f(*args(), out=out)
    assert (out == 7).all()


def test_out_that_is_the_input_itself_gets_the_right_values(outs_made):
    f = bcast.compile(TANH, backend="numpy")
    x = X.copy()
    assert f(x, ROW, out=x) is x
    np.testing.assert_allclose(x, _want(X, ROW), rtol=1e-6)
    assert outs_made == [[False]]  # overlap: Outs computes through a fresh buffer


@pytest.mark.parametrize("layout", ["a view of it", "shifted by one row", "its transpose's transpose"])
def test_out_overlapping_an_input_gets_the_right_values(layout, outs_made):
    f = bcast.compile(TANH, backend="numpy")
    buf = np.zeros((5, 6), np.float32)
    buf[1:] = X
    x = buf[1:]
    out = {"a view of it": x[:, :], "shifted by one row": buf[:4], "its transpose's transpose": x.T.T}[layout]
    want = _want(x.copy(), ROW)
    assert f(x, ROW, out=out) is out
    np.testing.assert_allclose(out, want, rtol=1e-6)
    assert outs_made == [[False]]


@pytest.mark.parametrize("layout", ["other rows", "interleaved columns"])
def test_a_view_of_the_same_base_that_overlaps_nothing_is_allowed_and_written_directly(layout, outs_made):
    f = bcast.compile(TANH, backend="numpy")
    if layout == "other rows":
        buf = np.zeros((8, 6), np.float32)
        x, out = buf[:4], buf[4:]
    else:
        buf = np.zeros((4, 12), np.float32)
        x, out = buf[:, ::2], buf[:, 1::2]
    x[...] = X
    assert f(x, ROW, out=out) is out
    np.testing.assert_allclose(out, _want(X, ROW), rtol=1e-6)
    np.testing.assert_array_equal(x, X)  # the input is not written
    assert outs_made == [[True]]  # views: Outs decides, by the exact test, and writes directly


def _frozen32():
    a = np.zeros((4, 6), np.float32)
    a.setflags(write=False)
    return a


class _Sub(np.ndarray):
    pass


def test_out_of_an_ndarray_subclass_takes_the_general_path(outs_made):
    """A subclass is not the common case: ``Outs`` checks and delivers it,
    as the reference backend does."""
    f, ref = bcast.compile(TANH, backend="numpy"), bcast.compile(TANH, backend="reference")
    out, want = np.zeros((4, 6), np.float32).view(_Sub), np.zeros((4, 6), np.float32).view(_Sub)
    assert ref(X, ROW, out=want) is want
    outs_made.clear()
    assert f(X, ROW, out=out) is out
    np.testing.assert_allclose(out, want, rtol=1e-6)
    assert outs_made == [[True]]


def test_zero_d_and_zero_size_outs_on_the_direct_path(outs_made):
    f = bcast.compile(ZERO_D, backend="numpy")
    x, y, out = np.array(0.25, np.float32), np.array(0.5, np.float32), np.zeros((), np.float32)
    assert f(x, y, out=out) is out and float(out) == pytest.approx(np.tanh(0.75))
    assert f(x, y, out=x) is x and float(x) == pytest.approx(np.tanh(0.75))  # the input itself
    with pytest.raises(BcastError, match=r"got shape \(1,\)"):
        f(x, y, out=np.zeros(1, np.float32))
    g = bcast.compile(ZERO_SIZE, backend="numpy")
    empty = np.zeros((0, 3), np.float32)
    assert g(np.zeros((0, 3), np.float32), ROW[:3], out=empty) is empty
    with pytest.raises(BcastError, match=r"got shape \(3, 0\)"):
        g(np.zeros((0, 3), np.float32), ROW[:3], out=np.zeros((3, 0), np.float32))
    # the 0-d input itself (through a buffer), and the 0-size call, whose row
    # is a view (Outs decides, and writes directly); the wrong shapes fail in Outs
    assert outs_made == [[False], [True]]


@pytest.mark.parametrize("make", [
    lambda x: np.empty_like(x), lambda x: x, lambda x: x.T.T, lambda x: x[::-1, ::-1], lambda x: x.astype(np.float64),
    lambda x: np.empty((8, 6), np.float32)[::2], lambda x: np.empty((4, 6), np.float32).view(_Sub),
    lambda x: np.zeros((6, 4), np.float32), lambda x: _frozen32(), lambda x: np.empty((4, 6), ">f4"),
    lambda x: np.frombuffer(bytearray(96), np.float32).reshape(4, 6),
])
@pytest.mark.parametrize("input_is_a_view", [False, True])
def test_the_inline_direct_test_holds_only_where_outs_writes_directly(make, input_is_a_view):
    """``rt.direct_out_test``'s expression is a fast accept: where it holds,
    ``Outs``' own checks accept the ``out`` and write it directly; it holds
    for a fresh array of the result's type beside owned inputs."""
    results = (rt.Spec("result0", "tensor<4x6xf32>", (4, 6), np.float32),)
    x, row = (X.copy() if not input_is_a_view else np.concatenate([X, X])[:4]), ROW.copy()
    out = make(x)
    test = rt.direct_out_test("out", "shape", "dtype", ["x", "row"])
    holds = eval(test, {"np": np}, {"out": out, "x": x, "row": row, "shape": (4, 6), "dtype": np.dtype(np.float32)})
    try:
        general = list(rt.Outs(out, results, (x, row)).direct)
    except rt.ArgumentError:
        general = [False]
    assert not holds or general == [True]
    fresh = type(out) is np.ndarray and out.flags.owndata and out.dtype == np.float32 and out.shape == (4, 6) \
        and out.flags.writeable and out is not x
    assert holds == (fresh and not input_is_a_view)


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_out_anywhere_in_the_inputs_buffer_gives_the_fresh_result(data):
    """``x`` and ``out`` are random strided (4, 6) views of one buffer: the
    result is the one computed into a fresh array, written directly exactly
    when the two share no memory (views go to ``Outs``, which decides)."""
    buf = np.zeros(200, np.float32)
    views = []
    for _ in range(2):
        step = data.draw(st.sampled_from([1, 2, 3]))
        row_step = data.draw(st.integers(6 * step, 8 * step))
        start = data.draw(st.integers(0, 200 - (3 * row_step + 5 * step) - 1))
        views.append(np.lib.stride_tricks.as_strided(buf[start:], (4, 6), (row_step * 4, step * 4)))
    x, out = views
    x[...] = X
    want = _want(x.copy(), ROW)
    with counted_outs() as made:
        assert bcast.compile(TANH, backend="numpy")(x, ROW, out=out) is out
    np.testing.assert_allclose(out, want, rtol=1e-6)
    assert made == [[not np.shares_memory(x, out)]]  # views: Outs decides, exactly


def test_static_expand_indexes_with_none_and_makes_expands_view():
    """``numpy_emitter.static_expand``'s source (``row[None]`` in place of a
    reshape that only adds size-1 dims) makes ``rt.expand``'s view, for
    every placement of small operand shapes (size-1 dims included)."""
    import itertools

    from bcast.lowering.numpy_emitter import static_expand

    assert static_expand("row", (16,), (1,), 2) == "row[None]"
    assert static_expand("col", (16,), (0,), 2) == "col[:, None]"
    assert static_expand("x", (2, 3), (0, 1), 2) == "x"
    for src in [(), (1,), (3,), (1, 3), (3, 1), (2, 3), (1, 1), (2, 1, 3)]:
        for rank in range(len(src), 4):
            for dims in itertools.permutations(range(rank), len(src)):
                x = np.arange(int(np.prod(src)), dtype=np.float32).reshape(src)
                want = rt.expand(x, dims, rank)
                got = eval(static_expand("x", src, dims, rank), {"np": np, "x": x})
                assert got.shape == want.shape and np.array_equal(got, want), (src, dims, rank)
                assert np.shares_memory(got, x)  # a view, never a copy
