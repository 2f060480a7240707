"""Element-wise arithmetic with bcast's exact semantics, on NumPy arrays.

Each op's semantics is its definition in ``bcast.ir.scalar``, run here on
``NumpyScalars`` (the primitives on arrays): ``numerics.divide`` is
``scalar.divide`` on arrays of the operands' element type. The reference
evaluator calls these functions; the NumPy backend calls them from its
generated code, or the one ufunc a definition is for an element kind
(``direct_ufunc``) with ``out=``. No function emits NumPy warnings.

Also here: ``reduce`` and the reduction identities, which NumPy's own
reductions do not give (zero-size ``max``, wrapping integer sums, ``f16``
accumulated in ``f32``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from bcast.ir import rules, scalar, special
from bcast.ir.types import NIBBLE_DTYPES, NUMPY_DTYPES, iinfo, is_complex_dtype, is_float_dtype

_ERR = dict(all="ignore")


def _unsigned_of(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


WIDENED = ("float16", "bfloat16")
"""The dtype names (NumPy's, and so dask's and JAX's) that sum, multiply
and solve in ``float32`` and round once (``rules.accumulator``): known by
name, since a namespace need not hold ``float16`` (dask's array_api_compat)."""

_DTYPE_ELEMENTS = {np.dtype(dtype): element for element, dtype in NUMPY_DTYPES.items()}


def element_of(x: np.ndarray) -> str:
    """The bcast element name of an array's dtype (``uint8`` -> ``ui8``)."""
    return _DTYPE_ELEMENTS[x.dtype]


def _as(x: np.ndarray, kind: str) -> np.ndarray:
    """``x``'s bits read as signed (``"s"``) or unsigned (``"u"``) integers:
    arith's primitives are signless, NumPy's ufuncs read the dtype. A
    4-bit value becomes a byte: its nibble sign-extended (``"s"``) or
    zero-extended (``"u"``), which ``_narrow`` wraps back."""
    if x.dtype == np.bool_:
        return x
    if x.dtype in NIBBLE_DTYPES:
        return x.view(NUMPY_DTYPES["i4" if kind == "s" else "ui4"]).astype(np.int8 if kind == "s" else np.uint8)
    return x.view(np.dtype(f"{'i' if kind == 's' else 'u'}{x.dtype.itemsize}"))


def _narrow(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A byte-wide result back in ``dtype``: a 4-bit type keeps the low 4
    bits (two's complement wrap, ml_dtypes' integer cast), any other the bits."""
    return x.astype(dtype) if dtype in NIBBLE_DTYPES else x.view(dtype)


def _signless(ufunc: np.ufunc, kind: str):
    def apply(x, y):
        return _narrow(ufunc(_as(x, kind), _as(y, kind)), x.dtype)

    return apply


def _truncating_divide(x, y):
    x, y = _as(x, "s"), _as(y, "s")
    return ((x - np.fmod(x, y)) // y).view(x.dtype)


def _ieee_power(x, y):
    """NumPy computes ``x ** 0.5`` as ``sqrt(x)`` when the exponent is the
    same everywhere (a scalar or a broadcast), which is not IEEE ``pow`` at
    ``-inf`` (``+inf``, not NaN) and ``-0.0`` (``+0.0``); mend those two."""
    result = np.power(x, y)
    fix = (y == 0.5) & ((x == -np.inf) | (x == 0))
    if not fix.any():
        return result
    return np.where(fix, np.where(x == 0, 0, np.inf).astype(result.dtype), result)


def _round_half_away(x):
    """C's ``round``: to the nearest integer, halfway cases away from zero.
    ``x - trunc(x)`` is exact, so the test of the halfway case is too."""
    whole = np.trunc(x)
    return np.where(np.abs(x - whole) >= 0.5, whole + np.copysign(np.ones((), x.dtype), x), whole)


def _composed(expansion, x):
    """A primitive NumPy has no ufunc for (``erf``): its composition of
    the other primitives (``bcast.ir.special``)."""
    return expansion(_SCALARS, element_of(x), x)


def _count_bits(x):
    """Set bits of the value's bits (``np.bitwise_count`` counts those of
    the absolute value for a signed dtype)."""
    return np.bitwise_count(_as(x, "u")).astype(x.dtype)


def _complex_create(x, y):
    """The complex of parts ``x`` and ``y`` (never ``x + 1j * y``, which
    makes a NaN of ``inf * 1j``)."""
    x, y = np.broadcast_arrays(x, y)
    result = np.empty(x.shape, NUMPY_DTYPES[rules.complex_of(element_of(x))])
    result.real, result.imag = x, y
    return result


def _complex_log1p(x):
    """``log(1 + x)`` without losing a small ``x`` to the rounding of
    ``1 + x`` (NumPy's complex ``log1p`` does): the real part is
    ``log1p(re * (2 + re) + im * im) / 2``, the imaginary ``atan2(im, 1 + re)``.
    Where ``|x|`` is large (beyond 1e150, where the sum of squares
    overflows) it is NumPy's ``log(1 + x)``."""
    re, im = x.real, x.imag
    real = np.log1p(re * (2 + re) + im * im) / 2
    big = np.maximum(np.abs(re), np.abs(im)) > np.sqrt(np.finfo(re.dtype).max) / 4
    result = np.empty(x.shape, x.dtype)
    result.real, result.imag = real, np.arctan2(im, 1 + re)
    return np.where(big, np.log(1 + x), result) if big.any() else result


DIRECT_UFUNCS: dict[str, np.ufunc] = {
    "arith.addf": np.add, "arith.addi": np.add, "arith.subf": np.subtract, "arith.subi": np.subtract,
    "arith.mulf": np.multiply, "arith.muli": np.multiply, "arith.divf": np.divide, "arith.remf": np.fmod,
    "arith.negf": np.negative, "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "arith.maxsi": np.maximum, "arith.maxui": np.maximum, "arith.minsi": np.minimum, "arith.minui": np.minimum,
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
    "math.absf": np.absolute, "math.exp": np.exp, "math.log": np.log, "math.sqrt": np.sqrt,
    "math.tanh": np.tanh, "math.floor": np.floor, "math.ceil": np.ceil, "math.atan2": np.arctan2,
    "math.sin": np.sin, "math.cos": np.cos, "math.tan": np.tan, "math.expm1": np.expm1,
    "math.log1p": np.log1p, "math.cbrt": np.cbrt, "math.roundeven": np.rint,
    "math.sinh": np.sinh, "math.cosh": np.cosh, "math.asin": np.arcsin, "math.acos": np.arccos,
    "math.atan": np.arctan, "math.asinh": np.arcsinh, "math.acosh": np.arccosh, "math.atanh": np.arctanh,
    "complex.add": np.add, "complex.sub": np.subtract, "complex.mul": np.multiply, "complex.div": np.divide,
    "complex.neg": np.negative, "complex.exp": np.exp, "complex.expm1": np.expm1, "complex.log": np.log,
    "complex.sqrt": np.sqrt, "complex.sin": np.sin, "complex.cos": np.cos, "complex.tan": np.tan,
    "complex.tanh": np.tanh, "complex.abs": np.absolute, "complex.eq": np.equal, "complex.neq": np.not_equal,
}  # fmt: skip
"""The primitives that are one NumPy ufunc on arrays whose dtype has the
primitive's signedness (``maxsi`` on signed arrays; booleans take the
bitwise ones as logical). On f16 NumPy computes a math function in f32 and
rounds once, as ``scalar.MathFunction`` says."""

_PRIMITIVES = {
    **DIRECT_UFUNCS,
    "arith.maxsi": _signless(np.maximum, "s"), "arith.maxui": _signless(np.maximum, "u"),
    "arith.minsi": _signless(np.minimum, "s"), "arith.minui": _signless(np.minimum, "u"),
    "arith.divsi": _truncating_divide, "arith.divui": _signless(np.floor_divide, "u"),
    "arith.remsi": _signless(np.fmod, "s"), "arith.remui": _signless(np.remainder, "u"),
    "arith.shli": _signless(np.left_shift, "u"), "arith.shrui": _signless(np.right_shift, "u"),
    "arith.shrsi": _signless(np.right_shift, "s"), "math.powf": _ieee_power,
    "math.round": _round_half_away, "math.ctpop": _count_bits,
    "complex.pow": np.power, "complex.log1p": _complex_log1p,
    "complex.re": np.real, "complex.im": np.imag, "complex.create": _complex_create,
    **{name: functools.partial(_composed, expansion) for name, expansion in special.EXPANSIONS.items()},
}  # fmt: skip

_INTEGER_PREDICATES = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                       "gt": np.greater, "ge": np.greater_equal}  # fmt: skip


class NumpyScalars:
    """``bcast.ir.scalar``'s primitives on NumPy arrays (any shapes that
    broadcast together)."""

    def const(self, value, element):
        dtype = np.dtype(NUMPY_DTYPES[element])
        if is_float_dtype(dtype) or is_complex_dtype(dtype):
            return np.array(value, dtype)
        if dtype == np.bool_:
            return np.array(bool(value & 1))
        return _narrow(np.array(value % (1 << rules.bit_width(element)), _unsigned_of(dtype)), dtype)

    def apply(self, name, *xs):
        if xs and xs[0].dtype in NIBBLE_DTYPES:  # in a byte, read as the primitive reads its operands
            unsigned = name.endswith("ui") or name == "math.ctpop"
            wide = [_as(x, "u" if unsigned else "s") for x in xs]
            return _narrow(np.asarray(_PRIMITIVES[name](*wide)), xs[0].dtype)
        return np.asarray(_PRIMITIVES[name](*xs))

    def cmpi(self, predicate, x, y):
        if predicate in ("eq", "ne"):
            if x.dtype in NIBBLE_DTYPES:
                x, y = _as(x, "u"), _as(y, "u")
            return _INTEGER_PREDICATES[predicate](x, y)
        kind, order = predicate[0], predicate[1:]
        return _INTEGER_PREDICATES[order](_as(x, kind), _as(y, kind))

    def cmpf(self, predicate, x, y):
        if predicate == "uno":
            return np.isnan(x) | np.isnan(y)
        ordered = _INTEGER_PREDICATES[predicate[1:]](x, y)
        return ordered if predicate[0] == "o" or predicate == "une" else ordered | np.isnan(x) | np.isnan(y)

    def select(self, condition, if_true, if_false):
        return np.where(condition, if_true, if_false)

    def cast(self, name, x, element):
        dtype = np.dtype(NUMPY_DTYPES[element])
        if name == "arith.trunci" and dtype == np.bool_:
            return (_as(x, "u") & 1).astype(np.bool_)
        source = {"arith.sitofp": "s", "arith.extsi": "s", "arith.uitofp": "u", "arith.extui": "u",
                  "arith.trunci": "u"}.get(name)  # fmt: skip
        if name == "arith.bitcast":
            return x.view(dtype)
        x = _as(x, source) if source and (x.dtype.kind in "iub" or x.dtype in NIBBLE_DTYPES) else x
        return x.astype(dtype)

    def loop(self, trips, inits, body):
        carried = list(inits)
        for _ in range(trips):
            carried = body(carried)
        return carried


_SCALARS = NumpyScalars()


def _run(definition, xs):
    """The definition on arrays; the result in the operands' dtype, or, for
    the ops between complex values and their parts (``abs``, ``real``,
    ``imag``, ``complex``), in the parts' or the complex dtype."""
    xs = [np.asarray(x) for x in xs]
    with np.errstate(**_ERR):
        result = np.asarray(definition(_SCALARS, element_of(xs[0]), *xs))
    if is_complex_dtype(xs[0].dtype) != is_complex_dtype(result.dtype):
        return result
    return result.astype(xs[0].dtype, copy=False)


@functools.cache
def function(definition: scalar.OnePrimitive | scalar.MathFunction | scalar.Composite):
    """The NumPy function of an op's definition: arrays of the op's element
    type (that broadcast together) in, a new array out."""

    def numpy_function(*xs):
        return _run(definition, xs)

    numpy_function.__name__ = scalar.name_of(definition)
    return numpy_function


def __getattr__(name: str):
    """``numerics.divide`` is ``scalar.divide`` on NumPy arrays (what
    generated NumPy code calls)."""
    if name in scalar.DEFINITIONS:
        return function(scalar.DEFINITIONS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def direct_ufunc(definition, element: str, arity: int) -> np.ufunc | None:
    """The one ufunc that is ``definition`` on arrays of ``element``, if there
    is one (so a backend may call it with ``out=``): the definition applies
    one primitive to its operands and that primitive is one ufunc on arrays
    of the element's signedness (``maxsi`` on signed arrays). A math
    function on f16 is its ufunc too: NumPy computes it in f32 and rounds
    once, as the definition says. None for ``i4``/``ui4``: their ops run in
    a byte (``NumpyScalars.apply``), not in ml_dtypes' own ufunc loops."""
    if element in rules.NIBBLES:
        return None
    if isinstance(definition, scalar.MathFunction) and rules.kind(element) == "float":
        return DIRECT_UFUNCS.get(definition.primitive)
    if isinstance(definition, scalar.MathFunction) and rules.kind(element) == "complex":
        return DIRECT_UFUNCS.get(definition.complex)
    primitive = scalar.one_primitive(definition, element, arity)
    ufunc = DIRECT_UFUNCS.get(primitive)
    if ufunc is None or primitive[-2:] in ("si", "ui") and primitive[-2] != rules.kind(element)[0]:
        return None
    return ufunc


COMPARE = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}
"""``bcast.compare`` on arrays of bcast's dtypes, by direction: NumPy's
comparisons are ``scalar.compare`` on them (a NaN is unordered and unequal;
booleans order False < True)."""


def compare(direction: str, x, y, total_order: bool = False):
    """``scalar.compare``: NumPy's comparison, or the definition on arrays
    for a float ``total_order``."""
    x, y = np.asarray(x), np.asarray(y)
    if total_order and is_float_dtype(x.dtype):
        return scalar.compare(_SCALARS, element_of(x), direction, x, y, total_order=True)
    if x.dtype in NIBBLE_DTYPES:  # as values, in a byte
        signedness = rules.kind(element_of(x))[0]
        x, y = _as(x, signedness), _as(y, signedness)
    return COMPARE[direction](x, y)


def select(p, t, f):
    return np.where(p, t, f)


def convert(x, dtype) -> np.ndarray:
    """``scalar.convert`` to ``dtype``; a plain cast where it is one."""
    x = np.asarray(x)
    source, target = element_of(x), _DTYPE_ELEMENTS[np.dtype(dtype)]
    with np.errstate(**_ERR):
        result = np.asarray(scalar.convert(_SCALARS, source, target, x))
    if result.dtype in NIBBLE_DTYPES and result.dtype != dtype:  # i4 <-> ui4: the same bits
        return _narrow(_as(result, "u"), np.dtype(dtype))
    return result.astype(dtype, copy=False)


REDUCTIONS = {
    "add": np.add,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}
"""The ufunc each reduction kind folds with (the bitwise ufuncs are the
logical ones on booleans)."""


def reduction_identity(kind: str, dtype) -> np.ndarray:
    """The value reducing zero elements gives (XLA's ``reduce``, where NumPy's
    ``max`` of nothing raises): the kind's identity in ``dtype``."""
    dtype = np.dtype(dtype)
    if kind in ("maximum", "minimum"):
        if is_float_dtype(dtype):
            value = -np.inf if kind == "maximum" else np.inf
        else:
            info = iinfo(dtype)
            value = info.min if kind == "maximum" else info.max
        return np.array(value, dtype)
    if kind == "and":
        if dtype in NIBBLE_DTYPES:
            return np.array(-1, np.int8).astype(dtype)  # all four bits
        return np.invert(np.zeros((), dtype))  # all ones (True for i1)
    return np.array(1 if kind == "multiply" else 0, dtype)


def reduce(kind: str, x, dims, keepdims: bool = False, out: np.ndarray | None = None) -> np.ndarray:
    """``x`` reduced with ``kind`` over ``dims`` (any order), keeping size-1
    dims with ``keepdims``. Starts from the identity, so zero-size dims are
    fine; integers wrap (the accumulator is the element type, not NumPy's
    default widening one); ``f16`` accumulates in ``f32`` and rounds once;
    float maximum/minimum propagate NaN (``np.maximum``, not ``np.fmax``).
    With ``out`` (of the result's shape and dtype, not overlapping ``x``)
    the result is written there, without a temporary unless ``f16``."""
    x = np.asarray(x)
    ufunc = REDUCTIONS[kind]
    acc = _accumulator(x.dtype)
    direct = out is not None and acc == x.dtype
    with np.errstate(**_ERR):  # (an f16 sum may overflow when rounded back)
        result = ufunc.reduce(
            x.astype(acc, copy=False), axis=tuple(dims), dtype=acc, keepdims=keepdims,
            initial=reduction_identity(kind, x.dtype).astype(acc)[()], out=out if direct else None,
        )  # fmt: skip
        if out is None:
            return np.asarray(result).astype(x.dtype, copy=False)
        if not direct:
            np.copyto(out, np.asarray(result).astype(x.dtype, copy=False))
    return out


def iota(shape, dimension: int, dtype) -> np.ndarray:
    """``bcast.iota``: a new array of ``shape`` whose elements are their index
    along ``dimension``, converted to ``dtype`` as ``convert`` does from
    ``i64`` (a too-small integer type wraps, a float rounds)."""
    shape = tuple(shape)
    along = np.arange(shape[dimension], dtype=np.int64)
    counted = convert(along, dtype).reshape([-1 if d == dimension else 1 for d in range(len(shape))])
    return np.array(np.broadcast_to(counted, shape))


def pad(x, value, low, high, interior) -> np.ndarray:
    """``bcast.pad``: a new array with ``x`` placed every ``interior + 1``
    elements after ``low`` copies of ``value`` (0-d) and before ``high``,
    per dim; a negative ``low``/``high`` crops that many from the edge.
    ``x`` is first placed in a buffer padded by the positive edges only,
    then the negative edges are cut off."""
    x = np.asarray(x)
    spread = [n + max(n - 1, 0) * g for n, g in zip(x.shape, interior)]
    grown = [max(lo, 0) + s + max(hi, 0) for lo, s, hi in zip(low, spread, high)]
    buffer = np.full(grown, value, dtype=x.dtype)
    buffer[tuple(slice(max(lo, 0), max(lo, 0) + s, g + 1) for lo, s, g in zip(low, spread, interior))] = x
    return np.array(buffer[tuple(slice(max(-lo, 0), n - max(-hi, 0)) for lo, hi, n in zip(low, high, grown))])


def _accumulator(dtype: np.dtype) -> np.dtype:
    """What a contraction sums in: ``f32`` for ``f16``/``bf16`` (rounded once at the
    end, as ``reduce`` does and XLA's CPU dot does), else the element type
    (integers wrap, as ``np.matmul`` on them does); ``i4``/``ui4`` their byte
    (``rules.storage``), wrapped back at the end."""
    element = _DTYPE_ELEMENTS.get(np.dtype(dtype))
    return np.dtype(NUMPY_DTYPES[rules.storage(rules.accumulator(element))]) if element else np.dtype(dtype)


def matmul(x, y) -> np.ndarray:
    """``bcast.matmul`` on operands of one dtype: ``np.matmul`` (1-D operands
    and broadcasting batch dims as it does), ``f16`` summed in ``f32``. A new
    array, never a view of an operand."""
    x, y = np.asarray(x), np.asarray(y)
    acc = _accumulator(x.dtype)
    with np.errstate(**_ERR):  # np.matmul's result is new (a 0-d one a NumPy scalar)
        return np.asarray(np.matmul(x.astype(acc, copy=False), y.astype(acc, copy=False))).astype(x.dtype, copy=False)


def dot_general(x, y, dims: rules.DotDims) -> np.ndarray:
    """``bcast.dot_general`` on operands of one dtype (``rules.DotDims``): the
    batch dims, then ``x``'s free dims, then ``y``'s. When the contraction is
    ``np.matmul``'s (``DotDims.is_matmul``), ``np.matmul`` of the operands
    as they are (broadcast views stay views); otherwise each operand is
    transposed to (batch, free, contracted) / (batch, contracted, free),
    flattened to 3-D and multiplied by ``np.matmul``."""
    x, y = np.asarray(x), np.asarray(y)
    if dims.is_matmul(x.ndim, y.ndim):
        return matmul(x, y)
    x_free, y_free = dims.free(x.ndim, "lhs"), dims.free(y.ndim, "rhs")
    batch = [x.shape[d] for d in dims.lhs_batch]
    x_sizes, y_sizes = [x.shape[d] for d in x_free], [y.shape[d] for d in y_free]
    k = rules.element_count(tuple(x.shape[d] for d in dims.lhs_contract))
    b = rules.element_count(tuple(batch))
    xt = np.transpose(x, (*dims.lhs_batch, *x_free, *dims.lhs_contract)).reshape(
        b, rules.element_count(tuple(x_sizes)), k)
    yt = np.transpose(y, (*dims.rhs_batch, *dims.rhs_contract, *y_free)).reshape(
        b, k, rules.element_count(tuple(y_sizes)))
    return matmul(xt, yt).reshape((*batch, *x_sizes, *y_sizes))


def dynamic_starts(x_shape, starts, sizes) -> tuple[int, ...]:
    """The start indices of ``dynamic_slice``/``dynamic_update_slice`` (0-d
    integer arrays of any dtype) as Python ints, clamped into
    ``[0, dim - size]`` (``rules.clamped_start``): exact for every value,
    ``uint64`` ones above ``2**63`` too."""
    return tuple(rules.clamped_start(int(s), z, n) for s, z, n in zip(starts, sizes, x_shape))


def dynamic_slice(x, starts, sizes) -> np.ndarray:
    """``bcast.dynamic_slice``: the ``sizes`` block at the clamped starts (a view)."""
    x = np.asarray(x)
    begin = dynamic_starts(x.shape, starts, sizes)
    return x[tuple(slice(b, b + z) for b, z in zip(begin, sizes))]


def dynamic_update_slice(x, starts, update) -> np.ndarray:
    """``bcast.dynamic_update_slice``: a new array (never ``x`` itself) equal
    to ``x`` with ``update`` written at the clamped starts."""
    result = np.array(x)
    update = np.asarray(update)
    begin = dynamic_starts(result.shape, starts, update.shape)
    result[tuple(slice(b, b + z) for b, z in zip(begin, update.shape))] = update
    return result


def clamped_starts(starts: np.ndarray, size: int, n: int) -> np.ndarray:
    """An array of start indices (any integer dtype) moved into
    ``[0, n - size]`` as ``int64`` (``rules.clamped_start`` elementwise),
    clamped in their own dtype first so no value converts out of range
    (a ``uint64`` above ``2**63``, an ``int8`` bound above 127)."""
    high = n - size
    if starts.dtype.kind == "i":
        starts = np.maximum(starts, starts.dtype.type(0))
    if high < np.iinfo(starts.dtype).max:
        starts = np.minimum(starts, starts.dtype.type(high))
    return starts.astype(np.int64)


def bounded_starts(starts: np.ndarray, n: int) -> np.ndarray:
    """Start indices as ``int64`` for ``scatter``, which does not clamp:
    moved into ``[-(n + 1), n]`` first (in their own dtype), which keeps
    every position ``start + offset`` (``0 <= offset < n``) in or out of
    ``[0, n)`` as it was, and fits ``int64`` (a ``uint64`` above ``2**63``)."""
    info = np.iinfo(starts.dtype)
    if info.min < -(n + 1):
        starts = np.maximum(starts, starts.dtype.type(-(n + 1)))
    if n < info.max:
        starts = np.minimum(starts, starts.dtype.type(n))
    return starts.astype(np.int64)


def gather_positions(shape: Sequence[int], indices: np.ndarray, dims: rules.GatherDims,
                     sizes: Sequence[int], clamp: bool = True) -> list[np.ndarray]:
    """For each operand dim, the position ``gather`` reads there, an
    ``int64`` array of the result's rank that broadcasts to the result's
    shape: the clamped start of the index vector (0 for a dim no start
    maps to) plus the slice offset (an offset dim's ``arange``) or the
    batch position (a batching dim's). StableHLO's spec, vectorised.
    Without ``clamp`` (``scatter``'s positions) the starts are as given
    (``bounded_starts``), positions may be out of bounds."""
    indices = np.asarray(indices)
    ivd = dims.index_vector_dim
    vectors = indices[..., None] if ivd == indices.ndim else np.moveaxis(indices, ivd, -1)
    batch_shape = vectors.shape[:-1]
    result_rank = len(dims.offset_dims) + len(batch_shape)
    batch_axes = [a for a in range(result_rank) if a not in dims.offset_dims]

    def along(axis: int, n: int) -> np.ndarray:
        """``arange(n)`` laid along result ``axis``."""
        return np.arange(n, dtype=np.int64).reshape([n if a == axis else 1 for a in range(result_rank)])

    positions = [np.zeros([1] * result_rank, np.int64) for _ in shape]
    for k, d in enumerate(dims.start_index_map):
        start = (clamped_starts(vectors[..., k], sizes[d], shape[d]) if clamp
                 else bounded_starts(vectors[..., k], shape[d]))
        positions[d] = np.expand_dims(start, tuple(dims.offset_dims))
    for d, axis in zip(dims.window_dims(len(shape)), dims.offset_dims):
        positions[d] = positions[d] + along(axis, sizes[d])
    for d, index_dim in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
        axis = batch_axes[index_dim - (index_dim > ivd)]
        positions[d] = positions[d] + along(axis, shape[d])
    return positions


def gather(x, indices, dims: rules.GatherDims, sizes: Sequence[int]) -> np.ndarray:
    """``bcast.gather`` (StableHLO's ``gather``): one NumPy advanced-indexing
    read of ``x`` at ``gather_positions``, broadcast to the result's shape
    (a batch dim no position varies along, such as an empty index vector's,
    repeats the one slice)."""
    x = np.asarray(x)
    batch = [np.shape(indices)[k] for k in dims.batch_dims(np.ndim(indices))]
    if 0 in batch:  # no slices: nothing is read, so a slice larger than a run-time dim is no error
        operand = tuple(max(n, size) for n, size in zip(x.shape, sizes))
        return np.zeros(rules.gather_shape(operand, np.shape(indices), dims, sizes), x.dtype)
    shape = rules.gather_shape(x.shape, np.shape(indices), dims, sizes)
    picked = x[tuple(gather_positions(x.shape, indices, dims, sizes))]
    return picked if picked.shape == shape else np.broadcast_to(picked, shape).copy()


def scatter_window(shape: Sequence[int], updates_shape: Sequence[int], dims: rules.GatherDims) -> list[int]:
    """The window of ``scatter``: per operand dim the size of its updates
    dim (1 on the inserted and batching dims), the gather's slice sizes."""
    sizes = [1] * len(shape)
    for d, axis in zip(dims.window_dims(len(shape)), dims.offset_dims):
        sizes[d] = updates_shape[axis]
    return sizes


def scatter(kind: str, x, indices, updates, dims: rules.GatherDims) -> np.ndarray:
    """``bcast.scatter``: a copy of ``x`` with each update element written
    (``set``) or combined in with the kind's ufunc (``add``: ``np.add.at``,
    ``multiply``, ``maximum``, ``minimum`` likewise: every duplicate counts) at
    its position (``gather_positions`` unclamped); elements out of bounds
    are skipped (StableHLO's spec). With duplicates, ``set`` keeps the last
    in the updates' row-major order (NumPy's assignment does)."""
    result, updates = np.array(x), np.asarray(updates)
    sizes = scatter_window(result.shape, updates.shape, dims)
    positions = [np.broadcast_to(p, updates.shape)
                 for p in gather_positions(result.shape, indices, dims, sizes, clamp=False)]
    inside = np.ones(updates.shape, bool)
    for p, n in zip(positions, result.shape):
        inside &= (p >= 0) & (p < n)
    at = tuple(p[inside] for p in positions)
    target = result
    if result.ndim == 0:  # every update goes to the one element: index a 1-element view
        target, at = result.reshape(1), (np.zeros(np.count_nonzero(inside), np.intp),)
    if kind == "set":
        target[at] = updates[inside]
    else:
        with np.errstate(**_ERR):
            REDUCTIONS[kind].at(target, at, updates[inside])
    return result


ARG_REDUCTIONS = {"argmax": np.argmax, "argmin": np.argmin}


def arg_reduce(name: str, x, dim: int, dtype) -> np.ndarray:
    """``bcast.argmax``/``argmin``: the index along ``dim`` of the first
    largest/smallest element, a NaN counting as beyond every number (so the
    first NaN wins), as ``np.argmax`` and ``jnp.argmax``; ``-0.0`` and
    ``0.0`` tie. Converted to the index ``dtype`` (the verifier makes sure
    the dim's size fits). The dim is never empty (the verifier refuses it,
    as ``np.argmax`` raises)."""
    return np.asarray(ARG_REDUCTIONS[name](np.asarray(x), axis=dim)).astype(dtype)


def sort_order(keys, dim: int, orders) -> np.ndarray:
    """The stable permutation along ``dim`` that sorts by ``keys`` (arrays
    of one shape) lexicographically, each key in ``bcast.sort``'s order
    (``scalar.sort_key``) with its ``(descending, total_order)`` of
    ``orders``: equal keys keep their order. A descending key is its sort
    key's bitwise complement (which reverses the order of signed and
    unsigned integers and of booleans alike, and keeps ties tied), so every
    key sorts ascending: ``np.argsort(kind="stable")`` for one,
    ``np.lexsort`` (stable, its last key first) for several."""
    columns = []
    for key, (descending, total_order) in zip(keys, orders):
        key = np.asarray(key)
        column = np.asarray(scalar.sort_key(_SCALARS, element_of(key), key, total_order))
        columns.append(~column if descending else column)
    if len(columns) == 1:
        return np.argsort(columns[0], axis=dim, kind="stable")
    return np.lexsort(columns[::-1], axis=dim)


def sort(values, keys, dim: int, orders) -> np.ndarray:
    """``bcast.sort``: ``values`` permuted along ``dim`` by ``sort_order``
    of ``keys`` (each of ``values``' shape)."""
    order = sort_order(keys, dim, orders)
    return np.take_along_axis(np.asarray(values), order, axis=dim)


def cumulative(kind: str, x, dim: int, reverse: bool = False) -> np.ndarray:
    """``bcast.cumulative``: element ``i`` along ``dim`` is ``x[0] (+) ... (+)
    x[i]`` (with ``reverse``, ``x[i] (+) ... (+) x[n-1]``), folded in order
    with ``kind``'s binary op (``REDUCTIONS``: max/min propagate NaN),
    starting from the kind's identity as ``reduce`` and XLA's
    ``reduce_window`` do: a sum of ``-0.0`` alone is ``+0.0`` (NumPy's
    ``cumsum`` keeps ``-0.0``; adding the identity ``0.0`` to each prefix
    is that fold, since it changes only an all ``-0.0`` prefix). Integers
    wrap (the element type accumulates, not NumPy's widening default);
    ``f16`` accumulates in ``f32`` and rounds each result once, as
    ``reduce`` does."""
    x = np.asarray(x)
    acc = _accumulator(x.dtype)
    source = np.flip(x, dim) if reverse else x
    with np.errstate(**_ERR):
        result = REDUCTIONS[kind].accumulate(source.astype(acc, copy=False), axis=dim, dtype=acc)
        if kind == "add" and is_float_dtype(acc):
            result = result + reduction_identity(kind, acc)
        result = np.flip(result, dim) if reverse else result
        return np.asarray(result).astype(x.dtype)


def reduce_window(kind: str, x, init, window: Sequence[int], strides: Sequence[int],
                  base_dilations: Sequence[int], window_dilations: Sequence[int],
                  low: Sequence[int], high: Sequence[int]) -> np.ndarray:
    """``bcast.reduce_window``: ``x`` dilated and padded with the kind's
    identity (``pad``: the new places hold no element), every window of it
    seen at once through a strided view (``sliding_window_view`` of the
    dilated window's span, taking every ``stride``-th position and every
    ``window_dilation``-th element), folded as ``reduce`` folds (f16 in
    f32, integers wrap, NaN propagates), then ``init`` folded in once,
    rounded once."""
    x, init = np.asarray(x), np.asarray(init, dtype=np.asarray(x).dtype)
    shape = rules.reduce_window_shape(x.shape, window, strides, base_dilations, window_dilations, low, high)
    if 0 in shape:
        return np.full(shape, init, dtype=x.dtype)
    padded = pad(x, reduction_identity(kind, x.dtype), low, high, [d - 1 for d in base_dilations])
    spans = [(w - 1) * d + 1 for w, d in zip(window, window_dilations)]
    views = np.lib.stride_tricks.sliding_window_view(padded, spans) if x.ndim else padded
    views = views[tuple(slice(None, None, s) for s in strides) + tuple(slice(None, None, d) for d in window_dilations)]
    acc = _accumulator(x.dtype)
    with np.errstate(**_ERR):
        folded = REDUCTIONS[kind].reduce(views.astype(acc, copy=False), axis=tuple(range(x.ndim, 2 * x.ndim)),
                                         dtype=acc, initial=reduction_identity(kind, x.dtype).astype(acc)[()])
        return np.array(REDUCTIONS[kind](folded, init.astype(acc)), dtype=acc).astype(x.dtype, copy=False)


def window_places(out: Sequence[int], window: Sequence[int], strides: Sequence[int],
                  window_dilations: Sequence[int]):
    """Each window place of ``reduce_window_body`` in row-major order, as
    the index of the dilated, padded input that holds the place's element
    of every window at once (a strided slice of the result's shape)."""
    for place in np.ndindex(*window):
        yield tuple(slice(p * d, p * d + (o - 1) * s + 1 if o else p * d, s)
                    for p, d, o, s in zip(place, window_dilations, out, strides))


def reduce_window_body(body, inputs, inits, window: Sequence[int], strides: Sequence[int],
                       base_dilations: Sequence[int], window_dilations: Sequence[int],
                       low: Sequence[int], high: Sequence[int]) -> tuple[np.ndarray, ...]:
    """``bcast.reduce_window_body`` on NumPy arrays, vectorized over the
    result: each input dilated and padded with its init value, the
    accumulators the init values at every result element, then one call
    of ``body(accumulators, elements)`` per window place (``window_places``)
    on whole arrays, the body's ops being elementwise."""
    inputs = [np.asarray(x) for x in inputs]
    inits = [np.asarray(v, dtype=x.dtype) for v, x in zip(inits, inputs)]
    shape = rules.reduce_window_shape(inputs[0].shape, window, strides, base_dilations, window_dilations, low, high)
    accumulators = [np.full(shape, v, dtype=x.dtype) for v, x in zip(inits, inputs)]
    if 0 in shape:
        return tuple(accumulators)
    padded = [pad(x, v, low, high, [d - 1 for d in base_dilations]) for x, v in zip(inputs, inits)]
    with np.errstate(**_ERR):
        for at in window_places(shape, window, strides, window_dilations):
            folded = body(accumulators, [p[at] for p in padded])
            accumulators = [np.broadcast_to(np.asarray(v, dtype=a.dtype), shape) for v, a in zip(folded, accumulators)]
    return tuple(np.array(a) for a in accumulators)


def window_scan(body, inputs, inits, dim: int) -> tuple[np.ndarray, ...]:
    """``reduce_window_body`` of a running window along ``dim``
    (``evaluate.running_scan``) as a scan: the accumulators start from the
    init values over the other dims, and each step along ``dim`` calls
    ``body(accumulators, elements)`` once on the slice there, whose value is
    that slice of the results. The window form's places in its order, less
    the padding's init values, which fold into themselves: ``n`` body calls
    on slices where ``reduce_window_body`` makes ``n`` on whole arrays."""
    inputs = [np.asarray(x) for x in inputs]
    shape = inputs[0].shape
    others = shape[:dim] + shape[dim + 1:]
    accumulators = [np.full(others, v, dtype=x.dtype) for v, x in zip(inits, inputs)]
    results = [np.empty(shape, x.dtype) for x in inputs]
    with np.errstate(**_ERR):
        for i in range(shape[dim]):
            at = (slice(None),) * dim + (i,)
            folded = body(accumulators, [x[at] for x in inputs])
            accumulators = [np.asarray(v, dtype=a.dtype) for v, a in zip(folded, accumulators)]
            for r, a in zip(results, accumulators):
                r[at] = a
    return tuple(results)


def _dilate_and_pad(a: np.ndarray, dilation: Sequence[int], low: Sequence[int], high: Sequence[int]) -> np.ndarray:
    """``a``'s dims after the first two dilated (``dilation - 1`` zeros
    between neighbours) and padded with zeros (negative padding crops)."""
    sizes = a.shape[2:]
    if any(k != 1 for k in dilation):
        dilated = np.zeros(a.shape[:2] + tuple((n - 1) * k + 1 if n else 0 for n, k in zip(sizes, dilation)), a.dtype)
        dilated[(slice(None), slice(None), *(slice(None, None, k) for k in dilation))] = a
        a = dilated
    a = np.pad(a, [(0, 0), (0, 0), *((max(lo, 0), max(hi, 0)) for lo, hi in zip(low, high))])
    return a[(slice(None), slice(None), *(slice(max(-lo, 0), n - max(-hi, 0))
                                          for n, lo, hi in zip(a.shape[2:], low, high)))]  # fmt: skip


def convolution(x, w, conv: rules.Convolution) -> np.ndarray:
    """``bcast.convolution`` on operands of one dtype (``rules.Convolution``):
    both operands moved to (batch, feature, spatial) / (output feature,
    input feature, spatial), the kernel reversed where asked, both dilated
    and the input padded; then every window of the input (a strided
    ``sliding_window_view``, im2col) is multiplied by the kernel with one
    ``np.matmul`` per group (feature groups pair input and output feature
    blocks; batch groups pair input batch blocks with output feature
    blocks), and the result moved to the output layout. ``f16`` sums in
    ``f32`` and rounds once; integers wrap."""
    x, w = np.asarray(x), np.asarray(w)
    d, n = conv.dims, len(conv.dims.input_spatial)
    shape = rules.convolution_shape(x.shape, w.shape, conv)
    out = tuple(shape[o] for o in d.output_spatial)
    groups, batch_groups = conv.feature_group_count, conv.batch_group_count
    batch, features = x.shape[d.input_batch] // batch_groups, w.shape[d.kernel_output_feature]
    order = np.argsort((d.output_batch, d.output_feature, *d.output_spatial))
    if 0 in out:
        return np.zeros(shape, x.dtype)
    acc = _accumulator(x.dtype)
    xs = np.transpose(x, (d.input_batch, d.input_feature, *d.input_spatial)).astype(acc, copy=False)
    ws = np.transpose(w, (d.kernel_output_feature, d.kernel_input_feature, *d.kernel_spatial)).astype(acc, copy=False)
    if any(conv.reversal):
        ws = np.flip(ws, tuple(2 + k for k, r in enumerate(conv.reversal) if r))
    xs = _dilate_and_pad(xs, conv.lhs_dilation, conv.low, conv.high)
    ws = _dilate_and_pad(ws, conv.rhs_dilation, (0,) * n, (0,) * n)
    kernel, group_features = ws.shape[2:], ws.shape[1]
    windows = np.lib.stride_tricks.sliding_window_view(xs, kernel, axis=tuple(range(2, 2 + n)))
    windows = windows[(slice(None), slice(None), *(slice(0, (o - 1) * s + 1, s) for o, s in zip(out, conv.strides)))]
    windows = windows.reshape(batch_groups, batch, groups, group_features, *out, *kernel)
    perm = (0, 2, 1, *range(4, 4 + n), 3, *range(4 + n, 4 + 2 * n))
    k = group_features * rules.element_count(tuple(kernel))
    cols = windows.transpose(perm).reshape(batch_groups, groups, batch * rules.element_count(out), k)
    per_group = features // (groups * batch_groups)
    weights = ws.reshape(batch_groups, groups, per_group, k)
    with np.errstate(**_ERR):
        result = np.matmul(cols, weights.swapaxes(-1, -2))  # (batch groups, groups, batch * windows, features)
    result = result.reshape(batch_groups, groups, batch, *out, per_group)
    result = result.transpose(2, 0, 1, 3 + n, *range(3, 3 + n)).reshape(batch, features, *out)
    return np.ascontiguousarray(np.transpose(result, order)).astype(x.dtype, copy=False)


FFT_FUNCTIONS = {"FFT": "fftn", "IFFT": "ifftn", "RFFT": "rfftn", "IRFFT": "irfftn"}
"""Each ``fft`` transform's function of NumPy's ``numpy.fft`` and of the
Array API standard's ``fft`` extension (one signature: ``s``, ``axes``)."""


def fft(x, kind: str, lengths: Sequence[int], xp=None):
    """``bcast.fft``: ``kind``'s n-dimensional transform over the trailing
    ``len(lengths)`` axes with ``s=lengths`` (the shapes the rule checked
    make ``s`` those axes' sizes, IRFFT's output sizes). With NumPy (``xp``
    None) it is computed in complex128/float64 and rounded once to the
    result's precision, so a complex64 result is the exact transform's
    rounding; another namespace ``xp`` computes with its own ``fft``
    extension, in its precision. A zero length gives an empty result."""
    kind = str(kind)
    axes = tuple(range(-len(lengths), 0))
    if xp is None:
        x = np.asarray(x)
        shape, element = rules.fft_type(x.shape, element_of(x), kind, tuple(lengths), str(x.dtype))
        dtype = np.dtype(NUMPY_DTYPES[element])
        if 0 in lengths:
            return np.zeros(shape, dtype)
        wide = x.astype(np.float64 if kind == "RFFT" else np.complex128, copy=False)
        result = getattr(np.fft, FFT_FUNCTIONS[kind])(wide, s=tuple(lengths), axes=axes)
        return result.astype(dtype, copy=False)
    return getattr(xp.fft, FFT_FUNCTIONS[kind])(x, s=tuple(lengths), axes=axes)


def triangular_solve(a, b, left_side: bool, lower: bool, unit_diagonal: bool, transpose: str, xp=None):
    """``bcast.triangular_solve``, written with Array API functions only (no
    item assignment), so the Array API runtime runs this same definition on
    its namespace ``xp`` (NumPy when None). Both sides reduce to one left
    solve ``m @ x = rhs`` with ``m`` ``a`` or its transpose (a right solve
    ``x @ op(a) = b`` is ``op(a)^T @ x^T = b^T``): row ``i`` of ``x`` is
    ``(rhs[i] - m[i, done] @ x[done]) / m[i, i]``, rows in increasing order
    when ``m`` is lower triangular, decreasing when upper, vectorized over
    the batch and the right-hand sides. Only the triangle in use is read;
    ``f16`` and ``bf16`` are computed in ``f32`` and rounded once. A
    complex ``ADJOINT`` solves with the conjugate's transpose."""
    if xp is None:
        with np.errstate(**_ERR):
            return triangular_solve(np.asarray(a), np.asarray(b), left_side, lower, unit_diagonal, transpose, np)
    dtype = b.dtype
    work = xp.float32 if getattr(dtype, "name", str(dtype)) in WIDENED else dtype
    a, b = xp.astype(a, work), xp.astype(b, work)
    if transpose == "ADJOINT" and xp.isdtype(a.dtype, "complex floating"):
        a = xp.conj(a)  # the adjoint is the transpose of the conjugate
    flip = (transpose != "NO_TRANSPOSE") != (not left_side)
    m = xp.matrix_transpose(a) if flip else a
    rhs = b if left_side else xp.matrix_transpose(b)
    n = m.shape[-1]
    in_place = xp is np  # NumPy writes each row into one array; the standard has no item assignment
    x = np.empty(rhs.shape, rhs.dtype) if in_place else None
    rows: dict[int, object] = {}
    order = range(n) if lower != flip else range(n - 1, -1, -1)
    for i in order:
        row = rhs[..., i, :]
        lo, hi = (0, i) if lower != flip else (i + 1, n)
        if hi > lo:
            done = x[..., lo:hi, :] if in_place else xp.stack([rows[j] for j in range(lo, hi)], axis=-2)
            row = row - xp.matmul(m[..., i : i + 1, lo:hi], done)[..., 0, :]
        row = row if unit_diagonal else row / m[..., i, i : i + 1]
        if in_place:
            x[..., i, :] = row
        else:
            rows[i] = row
    if not in_place:
        x = xp.stack([rows[i] for i in range(n)], axis=-2) if n else rhs
    return xp.astype(x if left_side else xp.matrix_transpose(x), dtype)


def _first_largest_magnitude(xp, column):
    """The index along the last axis that LAPACK's reference ``i?amax``
    picks: the first largest ``|x|``. A NaN is never beyond the running
    maximum, so only a NaN in the first place is picked (it then stays)."""
    size = xp.abs(column)
    picked = xp.argmax(xp.where(xp.isnan(size), xp.asarray(-1, dtype=size.dtype), size), axis=-1)
    return xp.where(xp.isnan(size[..., 0]), xp.zeros_like(picked), picked)


def _take_rows(xp, a, rows):
    """``a``'s rows in the order ``rows`` (one permutation per matrix of the
    batch): one ``take`` of flat indices (the Array API has no batched
    ``take`` before 2024.12)."""
    *batch, m, n = a.shape
    count = rules.element_count(tuple(batch))
    start = xp.reshape(xp.arange(count, dtype=rows.dtype) * m, (*batch, 1))
    linear = xp.reshape(start + rows, (*batch, m, 1)) * n + xp.arange(n, dtype=rows.dtype)
    return xp.reshape(xp.take(xp.reshape(a, (-1,)), xp.reshape(linear, (-1,))), a.shape)


def lu(a, xp=None):
    """``bcast.lu``: LAPACK's ``?getrf`` (docs/ir.md, "lu"), unblocked and
    right-looking, written with Array API functions only (no item
    assignment) so the Array API runtime runs this same definition on its
    namespace ``xp`` (NumPy when None). Step ``j`` of ``min(m, n)``: the
    pivot is the first largest ``|a[i, j]|``, ``i >= j``
    (``_first_largest_magnitude``); rows ``j`` and the pivot's swap; the
    column below is divided by the pivot, unless the pivot is zero (then
    ``info`` is ``j + 1`` if no earlier pivot was zero, and the column is
    kept, as LAPACK does); the trailing block takes the outer product of
    that column and row ``j``. Returns (lu, pivots, info): ``lu`` holds
    ``U`` and, below the diagonal, ``L``'s multipliers; ``pivots[j]`` is the
    1-based row swapped with row ``j``; ``info`` 0 or the first zero
    pivot's 1-based place; the batch is the leading dims."""
    if xp is None:
        with np.errstate(**_ERR):
            return lu(np.asarray(a), np)
    *batch, m, n = a.shape
    a = xp.asarray(a, copy=True)  # a new array even with no step to take (min(m, n) = 0)
    info = xp.zeros(tuple(batch), dtype=xp.int32)
    pivots = []
    order = xp.arange(m)  # the namespace's default index type (int32 in JAX without x64)
    for j in range(min(m, n)):
        p = j + xp.astype(_first_largest_magnitude(xp, a[..., j:, j]), order.dtype)
        pivots.append(xp.astype(p + 1, xp.int32))
        pick = p[..., None]
        rows = xp.where(order == j, pick, xp.where(order == pick, xp.asarray(j, dtype=order.dtype), order))
        a = _take_rows(xp, a, rows)
        pivot = a[..., j, j]
        zero = pivot == 0
        info = xp.where((info == 0) & zero, xp.asarray(j + 1, dtype=xp.int32), info)
        below = a[..., j + 1 :, j]
        one = xp.asarray(1, dtype=a.dtype)
        column = xp.where(zero[..., None], below, below / xp.where(zero, one, pivot)[..., None])
        trailing = a[..., j + 1 :, j + 1 :] - column[..., :, None] * a[..., j : j + 1, j + 1 :]
        lower = xp.concat([a[..., j + 1 :, :j], column[..., None], trailing], axis=-1)
        a = xp.concat([a[..., : j + 1, :], lower], axis=-2)
    if pivots:
        pivot_rows = xp.stack(pivots, axis=-1)
    else:
        pivot_rows = xp.zeros((*batch, 0), dtype=xp.int32)
    return a, pivot_rows, info


def cholesky(a, lower: bool, xp=None):
    """``bcast.cholesky``: LAPACK's ``?potrf`` (docs/ir.md, "cholesky"),
    column by column as its unblocked ``?potf2``, written with Array API
    functions only, as ``lu``. ``lower``: ``L`` with ``L @ L^T = a`` from
    ``a``'s lower triangle, written there; else ``U`` with ``U^T @ U = a``
    from the upper one (``L`` of the transpose, transposed back). The other
    triangle keeps ``a``'s values. Column ``j``: ``d = a[j, j] - sum(L[j,
    :j]**2)``; if ``d`` is not positive (or NaN) the matrix stops there:
    ``info = j + 1``, ``d`` is written on the diagonal and the rest keeps
    ``a``'s values; else the diagonal is ``sqrt(d)`` and the column below
    ``(a[i, j] - L[i, :j] @ L[j, :j]) / sqrt(d)``. Returns (factor, info),
    each matrix of the batch (the leading dims) stopping on its own."""
    if xp is None:
        with np.errstate(**_ERR):
            return cholesky(np.asarray(a), lower, np)
    m = a if lower else xp.matrix_transpose(a)
    *batch, n, _ = m.shape
    info = xp.zeros(tuple(batch), dtype=xp.int32)
    stopped = xp.zeros(tuple(batch), dtype=xp.bool)
    one = xp.asarray(1, dtype=a.dtype)
    columns = []
    for j in range(n):
        d, below = m[..., j, j], m[..., j + 1 :, j]
        if j:
            done = xp.stack(columns, axis=-1)
            row = done[..., j, :]
            d = d - xp.sum(row * row, axis=-1)
            below = below - xp.matmul(done[..., j + 1 :, :], row[..., None])[..., 0]
        fails = ~stopped & ~(d > 0)
        info = xp.where(fails, xp.asarray(j + 1, dtype=xp.int32), info)
        halts = stopped | fails
        root = xp.sqrt(xp.where(halts, one, d))
        diagonal = xp.where(stopped, m[..., j, j], xp.where(fails, d, root))
        kept = xp.where(halts[..., None], m[..., j + 1 :, j], below / root[..., None])
        columns.append(xp.concat([m[..., :j, j], diagonal[..., None], kept], axis=-1))
        stopped = halts
    factor = xp.stack(columns, axis=-1) if n else xp.asarray(m, copy=True)
    return (factor if lower else xp.matrix_transpose(factor)), info
