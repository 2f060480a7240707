"""Property: random programs of 2-6 ops (chains and DAGs) over static,
``?`` and bounded dims, the ops mixed from every family that takes ``?``
dims (docs/semantics.md, "Dynamic and bounded shapes"): elementwise
(binary, unary, ``compare``, ``select``, ``convert``), ``broadcast_in_dim``,
``reduce``, ``transpose``, ``reverse``, ``slice``, ``reshape``,
``dynamic_slice``, ``concatenate``, ``pad``, ``dot_general``, ``matmul``
with batch broadcasting, ``cumulative``, ``sort``, ``argmax``,
``reduce_window`` and ``iota``. Each backend compiles the program once
and runs it at two draws of run-time sizes (0 and 1 among them, and sizes
that mismatch): NumPy's result, computed here op by op by an oracle that
does not use bcast, or the error of the first op where NumPy (or bcast's
documented check) fails, located at that op, one message on every
backend, and nothing written to ``out=``.

The result *types* come from ``bcast.ir.rules`` (the verifier's own
rules: a declared type must be the inferred one); the values and the
errors are NumPy's. tests/README.md describes the property."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import rules
from bcast.ir.rules import Dynamic
from bcast.tests.budget import examples

from tests.lowering.test_dynamic_shapes import BACKENDS, SIZES

NP_TYPES = {"f32": np.float32, "i32": np.int32, "i1": np.bool_}
MLIR_TYPES = {"f32": "f32", "i32": "i32", "i1": "i1"}
SENTINEL = 7


class Fails(Exception):
    """The oracle's error: the words bcast must give (``exact``: the whole
    message after the location; else a fragment of it)."""

    def __init__(self, words: str, exact: bool = False):
        super().__init__(words)
        self.words, self.exact = words, exact


def type_text(dims, dtype: str = "f32") -> str:
    shape = "".join(("?" if isinstance(d, Dynamic) else str(d)) + "x" for d in dims)
    bounds = [d.bound if isinstance(d, Dynamic) else None for d in dims]
    encoding = ""
    if any(b is not None for b in bounds):
        encoding = ", #stablehlo.bounds<" + ", ".join("?" if b is None else str(b) for b in bounds) + ">"
    return f"tensor<{shape}{MLIR_TYPES[dtype]}{encoding}>"


@st.composite
def a_dim(draw):
    """Static 0-3, ``?`` or ``?<=B`` (B 1-3)."""
    if draw(st.booleans()):
        return draw(st.sampled_from(SIZES))
    return Dynamic(draw(st.none() | st.integers(1, 3)))


def numpy_words(function, *arrays):
    """``function(*arrays)`` (a NumPy ufunc or ``np.where``), its error in
    NumPy's own words."""
    try:
        return function(*arrays)
    except ValueError as e:
        raise Fails(str(e).strip(), exact=True) from None


# Each op builder gets (draw, values) where a value is (dims, dtype), and
# returns None (not applicable to what was drawn) or
# (text with {0}, {1}... for operand names, operand indices, result dims,
# result dtype, oracle over the operand arrays, extra parameters).
# Extra parameters are (type, array) of the arguments the op needs besides
# values (a pad value, starts, indices).


def pick(draw, values, dtype="f32", min_rank=0, max_rank=9):
    choices = [k for k, (dims, t) in enumerate(values) if t == dtype and min_rank <= len(dims) <= max_rank]
    return draw(st.sampled_from(choices)) if choices else None


def _binary(draw, values):
    i, j = pick(draw, values), pick(draw, values)
    if i is None:
        return None
    op = draw(st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum"]))
    try:
        dims, _ = rules.broadcast_dynamic_shapes(values[i][0], values[j][0], same=i == j)
    except rules.IncompatibleDims:
        return None

    def oracle(a, b):
        return numpy_words(getattr(np, op), a, b)
    return (f"bcast.{op} {{0}}, {{1}} : ({type_text(values[i][0])}, {type_text(values[j][0])}) -> "
            f"{type_text(dims)}", (i, j), dims, "f32", oracle)


def _unary(draw, values):
    i = pick(draw, values)
    if i is None:
        return None
    op = draw(st.sampled_from(["negate", "abs", "floor"]))
    return (f"bcast.{op} {{0}} : {type_text(values[i][0])}", (i,), values[i][0], "f32",
            lambda a: getattr(np, {"negate": "negative"}.get(op, op))(a))


def _compare(draw, values):
    i, j = pick(draw, values), pick(draw, values)
    if i is None:
        return None
    try:
        dims, _ = rules.broadcast_dynamic_shapes(values[i][0], values[j][0], same=i == j)
    except rules.IncompatibleDims:
        return None

    def oracle(a, b):
        return numpy_words(np.greater, a, b)
    return (f"bcast.compare GT, {{0}}, {{1}} : ({type_text(values[i][0])}, {type_text(values[j][0])}) -> "
            f"{type_text(dims, 'i1')}", (i, j), dims, "i1", oracle)


def _select(draw, values):
    p, t, f = pick(draw, values, "i1"), pick(draw, values), pick(draw, values)
    if p is None or t is None or t == f:
        return None
    try:
        dims, _ = rules.broadcast_dynamic_shapes(values[p][0], values[t][0], values[f][0])
    except rules.IncompatibleDims:
        return None

    def oracle(c, a, b):
        return numpy_words(np.where, c, a, b)
    types = ", ".join(type_text(*values[k]) for k in (p, t, f))
    return f"bcast.select {{0}}, {{1}}, {{2}} : ({types}) -> {type_text(dims)}", (p, t, f), dims, "f32", oracle


def _convert(draw, values):
    choices = [k for k, (_, t) in enumerate(values) if t != "f32"]
    if not choices:
        i = pick(draw, values)
        to = "i32"
    else:
        i = draw(st.sampled_from(choices))
        to = "f32"
    dims, dtype = values[i]
    return (f"bcast.convert {{0}} : ({type_text(dims, dtype)}) -> {type_text(dims, to)}", (i,), dims, to,
            lambda a: a.astype(NP_TYPES[to]))


def _broadcast_in_dim(draw, values):
    i = pick(draw, values, max_rank=2)
    if i is None:
        return None
    dims = values[i][0]
    lead = draw(st.sampled_from([0, 1, 2]))
    result = (lead, *dims)
    return (f"bcast.broadcast_in_dim {{0}}, dims = {list(range(1, len(dims) + 1))} : ({type_text(dims)}) -> "
            f"{type_text(result)}", (i,), result, "f32",
            lambda a: np.broadcast_to(a[None], (lead, *a.shape)).copy())


def _reduce(draw, values):
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    axis = draw(st.integers(0, len(dims) - 1))
    kind = draw(st.sampled_from(["add", "maximum"]))
    result = dims[:axis] + dims[axis + 1:]

    def oracle(a):
        if kind == "add":
            return np.add.reduce(a, axis=axis)
        return np.maximum.reduce(a, axis=axis, initial=-np.inf).astype(np.float32)
    return (f"bcast.reduce {kind} {{0}}, dims = [{axis}] : ({type_text(dims)}) -> {type_text(result)}", (i,),
            result, "f32", oracle)


def _transpose(draw, values):
    i = pick(draw, values, min_rank=2)
    if i is None:
        return None
    dims = values[i][0]
    perm = draw(st.permutations(range(len(dims))))
    result = tuple(dims[p] for p in perm)
    return (f"bcast.transpose {{0}}, dims = {list(perm)} : ({type_text(dims)}) -> {type_text(result)}", (i,),
            result, "f32", lambda a: np.transpose(a, perm).copy())


def _reverse(draw, values):
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    axes = sorted(draw(st.sets(st.integers(0, len(dims) - 1), min_size=1)))
    return (f"bcast.reverse {{0}}, dims = {axes} : {type_text(dims)}", (i,), dims, "f32",
            lambda a: np.flip(a, axes).copy())


def _slice(draw, values):
    """Static ranges; ``limit <= n`` checked at run time on a ``?`` dim
    (where NumPy would clip, bcast fails: docs/semantics.md)."""
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    ranges = []
    for d in dims:
        limit = draw(st.integers(0, d if isinstance(d, int) else 4))
        ranges.append((draw(st.integers(0, limit)), limit, draw(st.integers(1, 2))))
    try:
        result = rules.slice_shape(dims, *zip(*ranges))
    except rules.RuleError:
        return None

    def oracle(a):
        for d, ((_, limit, _), n) in enumerate(zip(ranges, a.shape)):
            if limit > n:
                raise Fails(f"slice limit {limit} of dimension {d} is out of range")
        return a[tuple(slice(*r) for r in ranges)].copy()
    text = "bcast.slice {0} [" + ", ".join(f"{a}:{b}:{c}" for a, b, c in ranges) + "]"
    return f"{text} : ({type_text(dims)}) -> {type_text(result)}", (i,), result, "f32", oracle


def _reshape(draw, values):
    i = pick(draw, values)
    if i is None:
        return None
    dims = values[i][0]
    target = draw(st.sampled_from([(Dynamic(),), (draw(st.integers(0, 6)),), (2, Dynamic()), (Dynamic(), 1)]))
    static = [d for d in (*dims, *target) if isinstance(d, int)]
    if len(static) == len(dims) + len(target) and np.prod(dims) != np.prod(target):
        return None  # refuted at compile time
    try:
        rules.check_dynamic_reshape(dims, target)
    except rules.RuleError:
        return None

    def oracle(a):
        shape = [-1 if isinstance(d, Dynamic) else d for d in target]
        try:
            return a.reshape(shape).copy()
        except ValueError:
            raise Fails("cannot reshape array of size") from None
    return f"bcast.reshape {{0}} : ({type_text(dims)}) -> {type_text(target)}", (i,), target, "f32", oracle


def _dynamic_slice(draw, values):
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    sizes = [draw(st.integers(0, d if isinstance(d, int) else min(3, d.bound or 3))) for d in dims]
    starts = [draw(st.integers(-1, 4)) for _ in dims]
    try:
        result = rules.dynamic_slice_shape(dims, len(dims), sizes)
    except rules.RuleError:
        return None

    def oracle(a, *_):
        for d, (k, n) in enumerate(zip(sizes, a.shape)):
            if k > n:
                raise Fails(f"dynamic_slice size {k} of dimension {d} is larger than the operand's size {n}")
        at = [min(max(s, 0), n - k) for s, k, n in zip(starts, sizes, a.shape)]
        return a[tuple(slice(s, s + k) for s, k in zip(at, sizes))].copy()
    names = ", ".join(f"{{{k + 1}}}" for k in range(len(dims)))
    extra = [("tensor<i32>", np.array(s, np.int32)) for s in starts]
    text = (f"bcast.dynamic_slice {{0}}[{names}], sizes = {sizes} : ({type_text(dims)}"
            + ", tensor<i32>" * len(dims) + f") -> {type_text(result)}")
    return text, (i,), result, "f32", oracle, extra


def _concatenate(draw, values):
    i, j = pick(draw, values, min_rank=1), pick(draw, values, min_rank=1)
    if i is None or len(values[i][0]) != len(values[j][0]):
        return None
    axis = draw(st.integers(0, len(values[i][0]) - 1))
    try:
        result = rules.concatenate_shape((values[i][0], values[j][0]), axis)
    except rules.RuleError:
        return None

    def oracle(a, b):
        try:
            return np.concatenate([a, b], axis=axis)
        except ValueError:
            raise Fails("all the input array dimensions except for the concatenation axis must match "
                        "exactly") from None
    return (f"bcast.concatenate {{0}}, {{1}}, dim = {axis} : ({type_text(values[i][0])}, "
            f"{type_text(values[j][0])}) -> {type_text(result)}", (i, j), result, "f32", oracle)


PAD_VALUE = np.float32(9)


def _pad(draw, values):
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    low = [draw(st.integers(-2, 2)) for _ in dims]
    high = [draw(st.integers(-2, 2)) for _ in dims]
    interior = [draw(st.integers(0, 1)) for _ in dims]
    try:
        result = rules.pad_shape(dims, low, high, interior)
    except rules.RuleError:
        return None

    def oracle(a, v):
        out = a
        for d, (lo, hi, gap) in enumerate(zip(low, high, interior)):
            n = out.shape[d]
            if rules.padded_size(n, lo, hi, gap) < 0:
                raise Fails(f"pad makes dimension {d} of size {rules.padded_size(n, lo, hi, gap)}")
            shape = list(out.shape)
            shape[d] = max(lo, 0) + max(hi, 0) + n + max(n - 1, 0) * gap
            padded = np.full(shape, v, dtype=np.float32)
            index = [slice(None)] * out.ndim
            index[d] = slice(max(lo, 0), max(lo, 0) + n + max(n - 1, 0) * gap, gap + 1)
            padded[tuple(index)] = out
            index[d] = slice(max(-lo, 0), shape[d] - max(-hi, 0))
            out = padded[tuple(index)]
        return out.copy()
    lists = lambda v: "[" + ", ".join(map(str, v)) + "]"  # noqa: E731
    return (f"bcast.pad {{0}}, {{1}}, low = {lists(low)}, high = {lists(high)}, interior = {lists(interior)} : "
            f"({type_text(dims)}, tensor<f32>) -> {type_text(result)}", (i,), result, "f32", oracle,
            [("tensor<f32>", np.array(PAD_VALUE))])


def _dot_general(draw, values):
    """``x``'s last dim contracted with ``y``'s first (``np.tensordot``)."""
    i, j = pick(draw, values, min_rank=1, max_rank=2), pick(draw, values, min_rank=1, max_rank=2)
    if i is None:
        return None
    a, b = values[i][0], values[j][0]
    numbers = rules.DotDims((), (), (len(a) - 1,), (0,))
    try:
        result = rules.dot_general_shape(a, b, numbers)
    except rules.RuleError:
        return None

    def oracle(x, y):
        if x.shape[-1] != y.shape[0]:
            raise Fails(f"dot_general requires contracting dimensions to have the same shape, "
                        f"got ({x.shape[-1]},) ({y.shape[0]},)")
        return np.tensordot(x, y, axes=1).astype(np.float32)
    return (f"bcast.dot_general {{0}}, {{1}}, contracting_dims = [{len(a) - 1}] x [0] : ({type_text(a)}, "
            f"{type_text(b)}) -> {type_text(result)}", (i, j), result, "f32", oracle)


def _matmul(draw, values):
    """``np.matmul``, batch dims broadcasting (NumPy's words when it fails)."""
    i, j = pick(draw, values, min_rank=1), pick(draw, values, min_rank=1)
    if i is None:
        return None
    a, b = values[i][0], values[j][0]
    try:
        result = rules.matmul_plan(a, b, "numpy").result
    except rules.RuleError:
        return None

    def oracle(x, y):
        try:
            return np.matmul(x, y)
        except ValueError as e:
            raise Fails(str(e).strip(), exact=True) from None
    return (f"bcast.matmul {{0}}, {{1}} : ({type_text(a)}, {type_text(b)}) -> {type_text(result)}", (i, j),
            result, "f32", oracle)


def _cumulative(draw, values):
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    axis = draw(st.integers(0, len(dims) - 1))
    reverse = draw(st.booleans())

    def oracle(a):
        if reverse:
            return np.flip(np.cumsum(np.flip(a, axis), axis=axis, dtype=np.float32), axis).copy()
        return np.cumsum(a, axis=axis, dtype=np.float32)
    return (f"bcast.cumulative add {{0}}, dim = {axis}{' reverse' if reverse else ''} : ({type_text(dims)}) -> "
            f"{type_text(dims)}", (i,), dims, "f32", oracle)


def _sort(draw, values):
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    axis = draw(st.integers(0, len(dims) - 1))
    descending = draw(st.booleans())

    def oracle(a):
        order = np.argsort(-a if descending else a, axis=axis, kind="stable")
        return np.take_along_axis(a, order, axis=axis)
    t = type_text(dims)
    return (f"bcast.sort {{0}} by {{0}}{' descending' if descending else ''}, dim = {axis} : ({t}, {t}) -> {t}",
            (i,), dims, "f32", oracle)


def _argmax(draw, values):
    """Along a static dim of size >= 1 (``?`` and empty dims are refused)."""
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    axes = [d for d, n in enumerate(dims) if isinstance(n, int) and n >= 1]
    if not axes:
        return None
    axis = draw(st.sampled_from(axes))
    result = dims[:axis] + dims[axis + 1:]
    return (f"bcast.argmax {{0}}, dim = {axis} : ({type_text(dims)}) -> {type_text(result, 'i32')}", (i,),
            result, "i32", lambda a: np.argmax(a, axis=axis).astype(np.int32))


def _reduce_window(draw, values):
    """A max pool along one dim, static or ``?`` (its result size then the
    window count of the run-time size; window 1 on the others, as on a
    ``?`` batch dim)."""
    i = pick(draw, values, min_rank=1)
    if i is None:
        return None
    dims = values[i][0]
    axis = draw(st.sampled_from(range(len(dims))))
    w, s = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    window = [w if d == axis else 1 for d in range(len(dims))]
    strides = [s if d == axis else 1 for d in range(len(dims))]
    ones, zeros = [1] * len(dims), [0] * len(dims)
    try:
        result = rules.reduce_window_shape(dims, window, strides, ones, ones, zeros, zeros)
    except rules.RuleError:
        return None

    def oracle(a, init):
        n = a.shape[axis]
        count = (n - w) // s + 1 if n >= w else 0
        parts = [np.maximum.reduce(np.take(a, range(k * s, k * s + w), axis=axis), axis=axis, initial=init)
                 for k in range(count)]
        shape = list(a.shape)
        shape[axis] = count
        return (np.stack(parts, axis=axis) if parts else np.zeros(shape)).astype(np.float32)
    return (f"bcast.reduce_window maximum {{0}}, {{1}}, window = {window}, strides = {strides}, base_dilations = "
            f"{ones}, window_dilations = {ones}, low = {zeros}, high = {zeros} : ({type_text(dims)}, tensor<f32>) "
            f"-> {type_text(result)}", (i,), result, "f32", oracle, [("tensor<f32>", np.array(-np.inf, np.float32))])


GATHER_ROWS = "<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>"


def _gather(draw, values):
    """``x[i, :k]`` at K row indices (``jnp.take`` of rows): each start
    clamped into ``[0, n - 1]``; a row read from no rows (``?`` that is 0)
    fails, located; no indices read nothing (docs/semantics.md)."""
    i = pick(draw, values, min_rank=2, max_rank=2)
    if i is None:
        return None
    (rows, cols) = values[i][0]
    width = cols if isinstance(cols, int) else draw(st.integers(0, min(2, cols.bound or 2)))
    count = draw(st.sampled_from(SIZES))
    indices = np.array(draw(st.lists(st.integers(-1, 4), min_size=count, max_size=count)), np.int32).reshape(count, 1)
    try:
        result = rules.gather_shape((rows, cols), (count, 1), rules.GatherDims((1,), (0,), (), (), (0,), 1),
                                    [1, width])
    except rules.RuleError:
        return None

    def oracle(a, at):
        if count == 0:
            return np.zeros((0, width), np.float32)
        for d, (k, n) in enumerate(zip((1, width), a.shape)):
            if k > n:
                raise Fails(f"gather slice size {k} of dimension {d} is larger than the operand's size {n}")
        return a[np.clip(at[:, 0], 0, a.shape[0] - 1), :width].copy()
    return (f"bcast.gather {{0}}[{{1}}], {GATHER_ROWS}, sizes = [1, {width}] : ({type_text(values[i][0])}, "
            f"tensor<{count}x1xi32>) -> {type_text(result)}", (i,), result, "f32", oracle,
            [(f"tensor<{count}x1xi32>", indices)])


def _iota(draw, values):
    shape = tuple(draw(st.lists(st.sampled_from(SIZES), min_size=1, max_size=2)))
    axis = draw(st.integers(0, len(shape) - 1))
    return (f"bcast.iota dim = {axis} : {type_text(shape)}", (), shape, "f32",
            lambda: np.broadcast_to(np.arange(shape[axis], dtype=np.float32).reshape(
                [-1 if d == axis else 1 for d in range(len(shape))]), shape).copy())


OPS = {f.__name__[1:]: f for f in (
    _binary, _unary, _compare, _select, _convert, _broadcast_in_dim, _reduce, _transpose, _reverse, _slice,
    _reshape, _dynamic_slice, _concatenate, _pad, _dot_general, _matmul, _cumulative, _sort, _argmax,
    _reduce_window, _iota, _gather)}
WEIGHTS = {"binary": 2, "compare": 2, "select": 2}
"""The broadcasting ops are drawn more often: they are where ``?`` sizes meet."""
KINDS = [kind for kind in OPS for _ in range(WEIGHTS.get(kind, 1))]


@st.composite
def programs(draw):
    """(source, ops, runs, extra arguments, result types): 1-3 f32
    arguments of rank 0-3 and 2-6 ops, each on earlier values (arguments
    or results, so programs are chains and DAGs); every op's result is
    returned. Each op is (kind, operand indices, oracle, number of its
    extra arguments: a pad value, starts, indices, drawn once); each run
    is the arguments at run-time sizes drawn for it (each ``?`` 0-3 up to
    its bound, independently, so sizes often mismatch)."""
    values = [(tuple(draw(st.lists(a_dim(), min_size=0, max_size=draw(st.sampled_from([1, 2, 2, 3]))))), "f32")
              for _ in range(draw(st.integers(1, 3)))]
    n_args = len(values)
    params = [f"%a{k}: {type_text(*v)}" for k, v in enumerate(values)]
    names = [f"%a{k}" for k in range(n_args)]
    scalars, lines, ops = [], [], []
    target = draw(st.integers(2, 6))
    while len(ops) < target:
        kind = draw(st.sampled_from(KINDS))
        built = OPS[kind](draw, values)
        if built is None:
            continue
        text, operands, result, dtype, oracle, *extra = built
        extra = extra[0] if extra else []
        scalar_names = []
        for t, array in extra:
            name = f"%s{len(scalars)}"
            params.append(f"{name}: {t}")
            scalars.append(array)
            scalar_names.append(name)
        k = len(ops)
        lines.append(f"  %r{k} = " + text.format(*[names[i] for i in operands], *scalar_names))
        names.append(f"%r{k}")
        values.append((tuple(result), dtype))
        ops.append((kind, operands, oracle, len(extra)))
    results = values[n_args:]
    signature = ", ".join(type_text(*v) for v in results)
    source = (f"func.func @main({', '.join(params)}) -> ({signature}) {{\n" + "\n".join(lines)
              + f"\n  func.return {', '.join(names[n_args:])} : {signature}\n}}\n")
    runs = []
    for _ in range(2):
        arrays = []
        for dims, _ in values[:n_args]:
            shape = [d if isinstance(d, int) else draw(st.sampled_from(SIZES if d.bound is None else
                                                                       SIZES[:d.bound + 1])) for d in dims]
            arrays.append(np.asarray(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) % 5 - 2))
        runs.append(arrays)
    return source, ops, runs, scalars, results


def sentinel_outs(failure, results):
    """``out=`` arrays full of ``SENTINEL`` for a call that fails at op
    ``failure[0] - 2``: the results before it at the oracle's shapes, the
    others at their static types; None when one of those is dynamic."""
    line, _, _, computed = failure
    outs = []
    for k, (dims, dtype) in enumerate(results):
        if k < line - 2:
            shape = computed[k].shape
        elif all(isinstance(d, int) for d in dims):
            shape = dims
        else:
            return None
        outs.append(np.full(shape, SENTINEL, NP_TYPES[dtype]))
    return tuple(outs) if len(outs) > 1 else outs[0]


def oracle_outcome(source: str, ops, arrays, scalars):
    """NumPy's values of every op's result, or (line, column, Fails, the
    values before it) of the first op that fails, located as bcast locates
    an op."""
    values, scalars = list(arrays), list(scalars)
    for k, (kind, operands, oracle, n_scalars) in enumerate(ops):
        mine, scalars = scalars[:n_scalars], scalars[n_scalars:]
        try:
            values.append(np.asarray(oracle(*[values[i] for i in operands], *mine)))
        except Fails as e:
            line = source.splitlines()[k + 1]
            return k + 2, line.index("bcast.") + 1, e, values[len(arrays):]
    return values[len(arrays):]


@settings(max_examples=examples(160), deadline=None)
@given(programs())
def test_random_dynamic_programs_of_many_ops_agree_with_numpy_on_every_backend(case):
    """Each backend compiles the program once (every program the generator
    writes type-checks) and runs it at two draws of sizes: NumPy's values,
    in fresh arrays and in ``out=``, or the error of the first op that
    fails, located there, one message on every backend, ``out=`` left as
    it was."""
    source, ops, runs, scalars, results = case
    for kind, *_ in ops:
        event(kind)
    compiled = {backend: bcast.compile(source, backend=backend, filename="p.mlir") for backend in BACKENDS}
    for arrays in runs:
        want = oracle_outcome(source, ops, arrays, scalars)
        shapes = [a.shape for a in arrays]
        if isinstance(want, tuple):
            line, column, fails, _ = want
            event(f"fails at {ops[line - 2][0]}")
            messages = set()
            for backend, function in compiled.items():
                outs = sentinel_outs(want, results)
                try:
                    function(*arrays, *scalars, out=outs)
                except bcast.BcastError as e:
                    message = str(e)
                else:
                    raise AssertionError(f"{backend} ran where NumPy fails: {fails.words}\n{source}{shapes}")
                for o in outs if isinstance(outs, tuple) else () if outs is None else (outs,):
                    assert (o == np.full((), SENTINEL, o.dtype)).all(), (backend, source, shapes, "wrote out=")
                where = f"p.mlir:{line}:{column}: error: "
                assert message.startswith(where), (backend, source, shapes, message, where, fails.words)
                body = message[len(where):]
                if fails.exact:
                    assert body.splitlines()[0] == fails.words, (backend, source, shapes, message)
                else:
                    assert fails.words in body, (backend, source, shapes, message, fails.words)
                messages.add(message)
            assert len(messages) == 1, messages
            continue
        event("results")
        for backend, function in compiled.items():
            outs = tuple(np.full(w.shape, SENTINEL, w.dtype) for w in want)
            got = function(*arrays, *scalars, out=outs if len(outs) > 1 else outs[0])
            got = got if isinstance(got, tuple) else (got,)
            for g, w, o in zip(got, want, outs, strict=True):
                assert g.dtype == w.dtype and g.shape == w.shape, (backend, source, shapes, g.dtype, g.shape)
                np.testing.assert_array_equal(g, w, err_msg=f"{backend}\n{source}{shapes}")
                np.testing.assert_array_equal(o, w, err_msg=f"out= of {backend}\n{source}{shapes}")


# --------------------------------------------------------------------------
# What the property found, each reduced to its smallest case
# --------------------------------------------------------------------------

SCALAR = """func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = bcast.add %a, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_rank_0_result_is_a_numpy_array_and_takes_out(backend):
    """NumPy computes a rank-0 result as a NumPy scalar; every backend
    returns a 0-d array (the caller's own) and fills a 0-d ``out=``."""
    f = bcast.compile(SCALAR, backend=backend)
    got = f(np.array(2, np.float32))
    assert type(got) is np.ndarray and got.shape == () and got.dtype == np.float32 and got == 4
    out = np.zeros((), np.float32)
    assert f(np.array(3, np.float32), out=out) is out and out == 6


SIZED_BY_A_COPIED_OP = {
    "reshape": ("bcast.reshape %a : (tensor<f32>) -> tensor<?xf32>", "tensor<f32>", np.array(2, np.float32),
                np.array([2], np.float32)),
    "pad": ("bcast.pad %a, %a0, low = [1], high = [0], interior = [1] : (tensor<?xf32>, tensor<f32>) -> "
            "tensor<?xf32>", "tensor<?xf32>", np.array([2, 3], np.float32), np.array([1.5, 2, 1.5, 3], np.float32)),
    "concatenate": ("bcast.concatenate %a, %a, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>",
                    "tensor<?xf32>", np.array([2, 3], np.float32), np.array([2, 3, 2, 3], np.float32)),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", sorted(SIZED_BY_A_COPIED_OP))
def test_a_value_sized_by_a_reshape_pad_or_concatenate_meets_a_scalar(backend, kind):
    """``bcast-fuse`` copies the op that gives a ``?`` size into the group
    that reads it; the loop lowering took the copy's size for another one
    than the original's (that the scalar's broadcast reads), and refused
    the compare as implicit IR."""
    text, operand, a, sized = SIZED_BY_A_COPIED_OP[kind]
    src = (f"func.func @main(%a0: tensor<f32>, %a: {operand}) -> tensor<?xi1> {{\n"
           f"  %r = {text}\n"
           "  %c = bcast.compare GT, %a0, %r : (tensor<f32>, tensor<?xf32>) -> tensor<?xi1>\n"
           "  func.return %c : tensor<?xi1>\n}\n")
    f = bcast.compile(src, backend=backend, filename="p.mlir")
    np.testing.assert_array_equal(f(np.array(1.5, np.float32), a), 1.5 > sized)


RANK_3 = """module attributes {{bcast.semantics = "{semantics}"}} {{
func.func @main(%a: tensor<?x?x?x{t}>, %b: tensor<?x?x?x{t}>) -> tensor<?x?x?x{t}> {{
  %r = bcast.{op} %a, %b : (tensor<?x?x?x{t}>, tensor<?x?x?x{t}>) -> tensor<?x?x?x{t}>
  func.return %r : tensor<?x?x?x{t}>
}}
}}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("semantics, op, t, note", [
    ("numpy", "add", "f32", None),
    ("tml", "and", "i1", "logical operations under tml semantics need a scalar operand or identical shapes at "
                         "every nesting level")])
def test_a_run_time_broadcast_error_of_rank_3_has_the_references_note(backend, semantics, op, t, note):
    """The compiled backends' check takes its note from the reference's rule
    on made-up sizes; at rank 3 their element count passed int64's, and the
    note said so (``lhs: 436870165900014000000 elements do not fit in
    int64``) instead of the rule's."""
    f = bcast.compile(RANK_3.format(semantics=semantics, op=op, t=t), backend=backend, filename="p.mlir")
    a, b = np.zeros((3, 1, 0), NP_TYPES[t]), np.zeros((0, 0, 0), NP_TYPES[t])
    with pytest.raises(bcast.BcastError) as info:
        f(a, b)
    want = "p.mlir:3:8: error: operands could not be broadcast together with shapes (3,1,0) (0,0,0)"
    assert str(info.value) == want + ("" if note is None else f"\np.mlir:3:8: note: {note}")
