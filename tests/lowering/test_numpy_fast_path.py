"""The numpy backend's per-call shortcuts (docs/performance.md, "Per-call
cost"): the generated code's inline argument test, the ``Outs`` made once
for calls without ``out=``, the quick exact ``out=`` test and the owned-data
shortcut of ``overlaps``. Each decides only the common case; every other
call gets the general rule's answer (docs/contracts.md), so the results and
errors are the reference backend's."""

from __future__ import annotations

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
    """``Outs``'s quick branch (one exact ``out``) and the general branch
    give the same arrays and the same decision to write directly."""
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
