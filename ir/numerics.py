"""Element-wise arithmetic with bcast's exact semantics, on NumPy arrays.

NumPy's own integer division floors and warns; StableHLO/XLA (and bcast)
truncate toward zero and define every edge case. These functions take arrays
that already have the result's element type and NumPy-compatible shapes, and
never emit NumPy warnings. Every backend calls them (the reference evaluator
directly, the NumPy backend from its generated code), so the semantics live
in one place.

Choices where the documents are silent (XLA's choices where it has them):
- integer ``x / 0`` is -1 (all ones for unsigned), ``x % 0`` is ``x``;
  ``INT_MIN / -1`` is ``INT_MIN`` and ``INT_MIN % -1`` is 0; arithmetic wraps.
- integer ``power`` with a negative exponent is the truncated real result:
  1 for base 1, +-1 for base -1, 0 otherwise (0 for base 0 too).
- shifts by an amount >= the bit width (amount read as unsigned) give 0,
  or the sign fill for ``shift_right_arithmetic``; on unsigned operands the
  arithmetic shift fills with the top bit.
- ``convert`` from float to integer truncates toward zero, saturates out of
  range values and maps NaN to 0; to ``i1`` it is ``x != 0``.
"""

from __future__ import annotations

import numpy as np

_ERR = dict(all="ignore")


def _is_int(x: np.ndarray) -> bool:
    return x.dtype.kind in "iu"


def _unsigned_of(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _signed_of(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"i{dtype.itemsize}")


def add(x, y):
    with np.errstate(**_ERR):
        return np.add(x, y)


def subtract(x, y):
    with np.errstate(**_ERR):
        return np.subtract(x, y)


def multiply(x, y):
    with np.errstate(**_ERR):
        return np.multiply(x, y)


def divide(x, y):
    x, y = np.asarray(x), np.asarray(y)
    with np.errstate(**_ERR):
        if not _is_int(x):
            return np.divide(x, y)
        zero = y == 0
        safe = np.where(zero, 1, y).astype(x.dtype)
        if x.dtype.kind == "u":
            return np.where(zero, np.iinfo(x.dtype).max, x // safe).astype(x.dtype)
        overflow = (x == np.iinfo(x.dtype).min) & (y == -1)
        safe = np.where(overflow, 1, safe).astype(x.dtype)
        rem = np.fmod(x, safe)
        quotient = (x - rem) // safe
        quotient = np.where(overflow, x, quotient)
        return np.where(zero, -1, quotient).astype(x.dtype)


def remainder(x, y):
    x, y = np.asarray(x), np.asarray(y)
    with np.errstate(**_ERR):
        if not _is_int(x):
            return np.fmod(x, y)
        zero = y == 0
        safe = np.where(zero, 1, y).astype(x.dtype)
        if x.dtype.kind == "i":
            safe = np.where(y == -1, 1, safe).astype(x.dtype)
        return np.where(zero, x, np.fmod(x, safe)).astype(x.dtype)


def power(x, y):
    x, y = np.asarray(x), np.asarray(y)
    with np.errstate(**_ERR):
        if not _is_int(x):
            return _ieee_half_power(x, y, np.power(x, y))
        shape = np.broadcast_shapes(x.shape, y.shape)
        base = np.broadcast_to(x, shape).copy()
        exponent = np.broadcast_to(y, shape).copy()
        negative = exponent < 0
        exponent = np.where(negative, 0, exponent).astype(x.dtype)
        result = np.ones(shape, dtype=x.dtype)
        while np.any(exponent > 0):
            odd = (exponent & 1).astype(bool)
            result = np.where(odd, result * base, result)
            base = base * base
            exponent = exponent >> 1
        if x.dtype.kind == "i" and negative.any():
            xb = np.broadcast_to(x, shape)
            odd_exp = (np.broadcast_to(y, shape) & 1).astype(bool)
            truncated = np.where(xb == 1, 1, np.where(xb == -1, np.where(odd_exp, -1, 1), 0))
            result = np.where(negative, truncated, result).astype(x.dtype)
        return result


def _ieee_half_power(x, y, result):
    """NumPy computes ``x ** 0.5`` as ``sqrt(x)`` when the exponent is the
    same everywhere (a scalar or a broadcast), which is not IEEE ``pow`` at
    ``-inf`` (``+inf``, not NaN) and ``-0.0`` (``+0.0``); mend those two."""
    fix = (y == 0.5) & ((x == -np.inf) | (x == 0))
    if not fix.any():
        return result
    return np.where(fix, np.where(x == 0, 0, np.inf).astype(result.dtype), result)


def maximum(x, y):
    return np.maximum(x, y)


def minimum(x, y):
    return np.minimum(x, y)


def atan2(x, y):
    with np.errstate(**_ERR):
        return np.arctan2(x, y)


def and_(x, y):
    return np.bitwise_and(x, y)


def or_(x, y):
    return np.bitwise_or(x, y)


def xor(x, y):
    return np.bitwise_xor(x, y)


def _shift_amount(x: np.ndarray, y: np.ndarray):
    bits = x.dtype.itemsize * 8
    amount = np.asarray(y).astype(_unsigned_of(x.dtype))
    too_big = amount >= bits
    return np.where(too_big, 0, amount).astype(x.dtype), too_big, bits


def shift_left(x, y):
    x = np.asarray(x)
    amount, too_big, _ = _shift_amount(x, y)
    return np.where(too_big, 0, np.left_shift(x, amount)).astype(x.dtype)


def shift_right_logical(x, y):
    x = np.asarray(x)
    amount, too_big, _ = _shift_amount(x, y)
    ux = x.view(_unsigned_of(x.dtype))
    shifted = np.right_shift(ux, amount.view(_unsigned_of(x.dtype))).view(x.dtype)
    return np.where(too_big, 0, shifted).astype(x.dtype)


def shift_right_arithmetic(x, y):
    x = np.asarray(x)
    amount, too_big, bits = _shift_amount(x, y)
    sx = x.view(_signed_of(x.dtype))
    amount = np.where(too_big, bits - 1, amount).astype(sx.dtype)
    return np.right_shift(sx, amount).view(x.dtype)


def negate(x):
    with np.errstate(**_ERR):
        return np.negative(x)


def abs_(x):
    with np.errstate(**_ERR):
        return np.abs(x)


def sign(x):
    return np.sign(x)


def not_(x):
    x = np.asarray(x)
    return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)


def exponential(x):
    with np.errstate(**_ERR):
        return np.exp(x)


def log(x):
    with np.errstate(**_ERR):
        return np.log(x)


def sqrt(x):
    with np.errstate(**_ERR):
        return np.sqrt(x)


def rsqrt(x, out=None):
    """``1 / sqrt(x)``, computed in ``out`` (a new array without it)."""
    x = np.asarray(x)
    out = np.empty(x.shape, x.dtype) if out is None else out
    with np.errstate(**_ERR):
        np.sqrt(x, out=out)
        return np.reciprocal(out, out=out)


def tanh(x):
    return np.tanh(x)


def logistic(x, out=None):
    """``1 / (1 + exp(-x))``, computed in ``out`` (a new array without it)."""
    x = np.asarray(x)
    out = np.empty(x.shape, x.dtype) if out is None else out
    with np.errstate(**_ERR):
        np.negative(x, out=out)
        np.exp(out, out=out)
        np.add(np.ones((), dtype=out.dtype), out, out=out)
        return np.reciprocal(out, out=out)


def floor(x):
    return np.floor(x)


def ceil(x):
    return np.ceil(x)


def _same(ufunc: np.ufunc, *kinds: str) -> dict[str, np.ufunc]:
    return dict.fromkeys(kinds, ufunc)


_INTS = ("signed", "unsigned")

EXACT_UFUNCS = {
    add: _same(np.add, "float", *_INTS),
    subtract: _same(np.subtract, "float", *_INTS),
    multiply: _same(np.multiply, "float", *_INTS),
    divide: _same(np.divide, "float"),
    remainder: _same(np.fmod, "float"),
    maximum: _same(np.maximum, "float", *_INTS),
    minimum: _same(np.minimum, "float", *_INTS),
    atan2: _same(np.arctan2, "float"),
    and_: {**_same(np.bitwise_and, *_INTS), "bool": np.logical_and},
    or_: {**_same(np.bitwise_or, *_INTS), "bool": np.logical_or},
    xor: {**_same(np.bitwise_xor, *_INTS), "bool": np.logical_xor},
    negate: _same(np.negative, "float", *_INTS),
    abs_: _same(np.absolute, "float", *_INTS),
    sign: _same(np.sign, "float", *_INTS),
    not_: {**_same(np.invert, *_INTS), "bool": np.logical_not},
    exponential: _same(np.exp, "float"),
    log: _same(np.log, "float"),
    sqrt: _same(np.sqrt, "float"),
    tanh: _same(np.tanh, "float"),
    floor: _same(np.floor, "float"),
    ceil: _same(np.ceil, "float"),
}
"""Where a function above is exactly one NumPy ufunc for an element kind
(``bcast.ir.rules.kind``), so that a backend may call the ufunc with
``out=`` (no temporary) and get the same values. Kinds not listed need the
function itself (integer divide, remainder and power, shifts)."""

WRITES_INTO_OUT = frozenset({rsqrt, logistic})
"""Functions that take ``out=`` themselves (a short chain of ufuncs)."""

COMPARE = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def compare(direction: str, x, y):
    return COMPARE[direction](x, y)


def select(p, t, f):
    return np.where(p, t, f)


def convert(x, dtype) -> np.ndarray:
    x = np.asarray(x)
    dtype = np.dtype(dtype)
    with np.errstate(**_ERR):
        if dtype == np.bool_:
            return x != 0
        if dtype.kind in "iu" and x.dtype.kind == "f":
            info = np.iinfo(dtype)
            clean = np.where(np.isnan(x), 0, np.trunc(x))
            high = np.float64(info.max)
            out = np.where(clean >= high, info.max, 0).astype(dtype)
            inside = (clean < high) & (clean > np.float64(info.min))
            out = np.where(inside, clean.astype(np.float64).clip(info.min, info.max).astype(dtype), out)
            return np.where(clean <= np.float64(info.min), info.min, out).astype(dtype)
        return x.astype(dtype)


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
        if dtype.kind == "f":
            value = -np.inf if kind == "maximum" else np.inf
        else:
            info = np.iinfo(dtype)
            value = info.min if kind == "maximum" else info.max
        return np.array(value, dtype)
    if kind == "and":
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
    acc = np.dtype(np.float32) if x.dtype == np.float16 else x.dtype
    direct = out is not None and acc == x.dtype
    with np.errstate(**_ERR):  # (an f16 sum may overflow when rounded back)
        result = ufunc.reduce(
            x, axis=tuple(dims), dtype=acc, keepdims=keepdims,
            initial=reduction_identity(kind, acc)[()], out=out if direct else None,
        )  # fmt: skip
        if out is None:
            return np.asarray(result).astype(x.dtype, copy=False)
        if not direct:
            np.copyto(out, result, casting="same_kind")
    return out
