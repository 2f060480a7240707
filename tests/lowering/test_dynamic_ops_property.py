"""Property: programs of one op (slice, transpose, reshape, dynamic_slice,
concatenate, pad, dot_general, cumulative) over static, ``?`` and
bounded dims, drawn with run-time sizes 0 and 1 among them and sizes that
mismatch: every backend of ``BACKENDS`` gives NumPy's result, or fails
where NumPy (with bcast's documented checks, docs/semantics.md "Dynamic
and bounded shapes") fails, at the op's location. The elementwise,
broadcast and reduce programs are test_dynamic_shapes.py's property; this
one shares its typed dims."""

from __future__ import annotations

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import rules
from bcast.ir.rules import Dynamic
from bcast.tests.budget import examples

from tests.lowering.test_dynamic_shapes import BACKENDS, SIZES, dim_types, typed_text

STATIC_ONE = ("static", 1, None)


def run_size(draw, dim) -> int:
    kind, n, bound = dim
    if kind == "static":
        return n
    return draw(st.sampled_from(SIZES if bound is None else SIZES[:bound + 1]))


def _slice(draw, x):
    """``slice`` with a static range per dim (``limit <= n`` checked at run
    time for a ``?`` dim, where NumPy would clip: bcast fails)."""
    ranges = []
    for kind, n, _ in x:
        limit = draw(st.integers(0, n if kind == "static" else 4))
        start = draw(st.integers(0, limit))
        ranges.append((start, limit, draw(st.integers(1, 2))))
    result = [("static", len(range(*r)), None) for r in ranges]
    text = "bcast.slice %x [" + ", ".join(f"{a}:{b}:{c}" for a, b, c in ranges) + "]"

    def oracle(a, _):
        if any(limit > n for (_, limit, _), n in zip(ranges, a.shape)):
            return "slice limit"
        return a[tuple(slice(*r) for r in ranges)].copy()
    return text, result, oracle


def _transpose(draw, x):
    result = x[::-1]
    dims = list(range(len(x)))[::-1]
    return f"bcast.transpose %x, dims = {dims}", result, lambda a, _: np.transpose(a).copy()


def _cumulative(draw, x):
    axis = draw(st.integers(0, len(x) - 1))
    return (f"bcast.cumulative add %x, dim = {axis}", list(x),
            lambda a, _: np.cumsum(a, axis=axis, dtype=np.float32))


def as_dims(typed) -> tuple:
    """Typed dims as ``bcast.ir.rules`` dims (the type rules are the
    compiler's; what this property checks is the values and the errors)."""
    return tuple(n if kind == "static" else Dynamic(bound) for kind, n, bound in typed)


def as_typed(dims) -> list:
    return [("?", None, d.bound) if isinstance(d, Dynamic) else ("static", d, None) for d in dims]


def second_operand(draw, x):
    """``%y``: ``x``'s dims, each kept or redrawn (so sizes often match and
    sometimes cannot, at compile time or at run time)."""
    return [d if draw(st.booleans()) else draw(dim_types()) for d in x]


def _concatenate(draw, x):
    """``concatenate %x, %y`` along dim 0: the other dims must match (at run
    time for a ``?``), NumPy's ``concatenate`` error otherwise."""
    y = second_operand(draw, x)
    result = as_typed(rules.concatenate_shape((as_dims(x), as_dims(y)), 0))

    def oracle(a, b):
        try:
            return np.concatenate([a, b], axis=0)
        except ValueError:
            return "all the input array dimensions except for the concatenation axis must match exactly"
    return "bcast.concatenate %x, %y, dim = 0", result, oracle, y


def _dot_general(draw, x):
    """``x`` contracted with ``%y`` along ``x``'s last dim and ``y``'s first:
    the contracted sizes must be equal (JAX's words), ``np.tensordot``."""
    y = second_operand(draw, x)[::-1]
    numbers = rules.DotDims((), (), (len(x) - 1,), (0,))
    result = as_typed(rules.dot_general_shape(as_dims(x), as_dims(y), numbers))

    def oracle(a, b):
        if a.shape[-1] != b.shape[0]:
            return "dot_general requires contracting dimensions to have the same shape"
        return np.tensordot(a, b, axes=1).astype(np.float32)
    return f"bcast.dot_general %x, %y, contracting_dims = [{len(x) - 1}] x [0]", result, oracle, y


def _pad(draw, x):
    """``pad`` with low, high (negative crops) and interior per dim; a size
    that ends negative fails at run time (``pad makes dimension``)."""
    low = [draw(st.integers(-2, 2)) for _ in x]
    high = [draw(st.integers(-2, 2)) for _ in x]
    interior = [draw(st.integers(0, 1)) for _ in x]
    try:
        result = as_typed(rules.pad_shape(as_dims(x), low, high, interior))
    except rules.RuleError:
        return None

    def oracle(a, _):
        out = a
        for d, (lo, hi, gap) in enumerate(zip(low, high, interior)):
            n = out.shape[d]
            if rules.padded_size(n, lo, hi, gap) < 0:
                return "pad makes dimension"
            shape = list(out.shape)
            shape[d] = max(lo, 0) + max(hi, 0) + n + max(n - 1, 0) * gap
            padded = np.full(shape, PAD_VALUE, dtype=np.float32)
            index = [slice(None)] * out.ndim
            index[d] = slice(max(lo, 0), max(lo, 0) + n + max(n - 1, 0) * gap, gap + 1)
            padded[tuple(index)] = out
            index[d] = slice(max(-lo, 0), shape[d] - max(-hi, 0))
            out = padded[tuple(index)]
        return out
    lists = lambda v: "[" + ", ".join(map(str, v)) + "]"  # noqa: E731
    return (f"bcast.pad %x, %v, low = {lists(low)}, high = {lists(high)}, interior = {lists(interior)}",
            result, oracle, "pad")


PAD_VALUE = np.float32(9)


def _reshape(draw, x):
    """``reshape`` to a flat ``?`` (never fails), to a static ``k`` or to
    ``2 x ?``: the element count is checked at run time, NumPy's
    ``cannot reshape array of size`` otherwise."""
    target = draw(st.sampled_from([("?",), (draw(st.integers(0, 6)),), (2, "?")]))
    result = [("?", None, None) if d == "?" else ("static", d, None) for d in target]

    def oracle(a, _):
        try:
            return a.reshape([-1 if d == "?" else d for d in target]).copy()
        except ValueError:
            return "cannot reshape array of size"
    return "bcast.reshape %x", result, oracle


def _dynamic_slice(draw, x):
    """``dynamic_slice`` of static sizes at starts ``%i`` (an argument, any
    integer: clamped into ``[0, n - size]``); a size larger than a ``?``
    dim at run time fails."""
    sizes = [draw(st.integers(0, n if kind == "static" else min(3, bound or 3))) for kind, n, bound in x]
    starts = [draw(st.integers(-1, 4)) for _ in x]
    result = [("static", k, None) for k in sizes]

    def oracle(a, _):
        if any(k > n for k, n in zip(sizes, a.shape)):
            return "is larger than the operand's size"
        at = [min(max(i, 0), n - k) for i, k, n in zip(starts, sizes, a.shape)]
        return a[tuple(slice(i, i + k) for i, k in zip(at, sizes))].copy()
    text = "bcast.dynamic_slice %x[" + ", ".join(f"%i{d}" for d in range(len(x))) + f"], sizes = {sizes}"
    return text, result, oracle, ("starts", starts)


OPS = {"slice": _slice, "transpose": _transpose, "cumulative": _cumulative, "concatenate": _concatenate,
       "dot_general": _dot_general, "pad": _pad, "reshape": _reshape, "dynamic_slice": _dynamic_slice}
"""Not yet: ``sort`` (its ``?`` dims are engineer sort2's item; refused on this branch)."""


@st.composite
def one_op_programs(draw):
    """(kind, source, oracle, runs): one op on ``%x`` (and ``%y`` or the pad
    value ``%v``), its result returned; each run is the arguments at drawn
    run-time sizes. Types the compile-time rules refute (static sizes that
    differ, a pad that crops every size below 0) give source None and are
    only counted: this property is about run time."""
    x = draw(st.lists(dim_types(), min_size=1, max_size=2))
    kind = draw(st.sampled_from(sorted(OPS)))
    try:
        built = OPS[kind](draw, x)
    except rules.RuleError:
        built = None
    if built is None:
        return kind, None, None, []
    text, result, oracle, *extra = built
    params, operand_types = [f"%x: {typed_text(x)}"], [typed_text(x)]
    if extra == ["pad"]:
        params.append("%v: tensor<f32>")
        operand_types.append("tensor<f32>")
    elif extra and extra[0][0] == "starts":
        params += [f"%i{d}: tensor<i32>" for d in range(len(x))]
        operand_types += ["tensor<i32>"] * len(x)
    elif extra:
        params.append(f"%y: {typed_text(extra[0])}")
        operand_types.append(typed_text(extra[0]))
    source = (f"func.func @main({', '.join(params)}) -> {typed_text(result)} {{\n"
              f"  %0 = {text} : ({', '.join(operand_types)}) -> {typed_text(result)}\n"
              f"  func.return %0 : {typed_text(result)}\n}}\n")
    runs = []
    for _ in range(2):
        arrays = []
        for dims in [x] + ([extra[0]] if extra and isinstance(extra[0], list) else []):
            shape = [run_size(draw, d) for d in dims]
            arrays.append(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) % 5 - 2)
        if extra == ["pad"]:
            arrays.append(np.array(PAD_VALUE))
        elif extra and extra[0][0] == "starts":
            arrays += [np.array(i, dtype=np.int32) for i in extra[0][1]]
        runs.append(arrays)
    return kind, source, oracle, runs


@settings(max_examples=examples(120), deadline=None)
@given(one_op_programs())
def test_one_dynamic_op_agrees_with_numpy_on_every_backend(case):
    """Each backend compiles the program once and runs it at two draws of
    run-time sizes: NumPy's result, or an error located at the op where
    NumPy's (or bcast's documented check) fails, in that check's words,
    word for word the reference's on every backend. A program every
    backend refuses at compile time (in one message) is one NumPy fails
    at every size its types allow."""
    kind, source, oracle, runs = case
    event(kind)
    if source is None:
        event(f"{kind}: refuted at compile time")
        return
    compiled, refusals = {}, set()
    for backend in BACKENDS:
        try:
            compiled[backend] = bcast.compile(source, backend=backend, filename="p.mlir")
        except bcast.BcastError as e:
            refusals.add(str(e))
    assert not (compiled and refusals), (source, refusals)
    assert len(refusals) <= 1, refusals
    for arrays in runs:
        want = oracle(*arrays[:2]) if kind in ("concatenate", "dot_general") else oracle(arrays[0], None)
        if refusals:  # refused at compile time: NumPy fails at every size the types allow
            event(f"{kind}: refused at compile time")
            assert isinstance(want, str), (source, [a.shape for a in arrays], refusals)
            continue
        event(f"{kind}: error" if isinstance(want, str) else f"{kind}: result")
        shapes = [a.shape for a in arrays]
        messages = set()
        for backend, function in compiled.items():
            try:
                got = function(*arrays)
            except bcast.BcastError as e:
                assert isinstance(want, str), (backend, source, shapes, str(e))
                assert str(e).startswith("p.mlir:2:8: error: ") and want in str(e), (backend, source, shapes, str(e))
                messages.add(str(e))
                continue
            assert not isinstance(want, str), (backend, source, shapes, want)
            assert got.dtype == want.dtype and got.shape == want.shape, (backend, source, shapes, got.shape)
            np.testing.assert_array_equal(got, want, err_msg=f"{backend}\n{source}")
        assert len(messages) <= 1, messages
