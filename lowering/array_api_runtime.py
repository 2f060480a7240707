"""What code generated for the Array API target calls: bcast's exact
semantics (docs/semantics.md) written with standard functions only.

Every function takes the array namespace ``xp`` of its arguments (from
``array_api_compat.array_namespace``), so the same generated module runs on
NumPy, ``array_api_strict``, dask (lazily: no function here looks at
values, every branch is a ``where`` and every loop has a static trip count),
JAX (under ``jit``) and CuPy. ``bcast.ir.numerics`` is the definition on
NumPy; these functions compute the same values with the standard's
vocabulary, and the tests compare the two bit for bit:

- integer ``divide`` truncates (``floor_divide`` corrected where the signs
  differ), ``x / 0`` is -1 (all ones unsigned), ``INT_MIN / -1`` wraps;
  ``remainder`` takes the dividend's sign, ``x % 0`` is ``x``; float
  ``remainder`` is C's ``fmod``, computed exactly as the standard's
  ``remainder`` of magnitudes with the dividend's sign;
- shifts by an amount outside ``[0, bits)`` give 0 (the sign fill for the
  arithmetic shift); a logical right shift of a signed value masks the fill;
- integer ``power`` is square-and-multiply over every bit of the exponent
  (a static loop), with docs/semantics.md's values for negative exponents;
- float-to-integer ``convert`` truncates, saturates and maps NaN to 0;
- reductions start from the kind's identity (a zero-size reduction is a
  constant), sum and product in the element type (integers wrap), ``f16``
  accumulated in ``f32``; integer ``and``/``or``/``xor`` reduce bit by bit,
  since the standard has no bitwise reductions.
Python scalars enter through ``xp.asarray(value, dtype=...)`` so no
operation mixes dtypes (the standard's promotion rules never apply).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bcast.ir import numerics, rules
from bcast.lowering import numpy_runtime as rt


def namespace(*arrays):
    """The Array API namespace of the arguments (NumPy's when there are none)."""
    import array_api_compat

    if arrays:
        try:
            return array_api_compat.array_namespace(*arrays)
        except TypeError as e:  # several libraries, or an object that is no array
            raise rt.ArgumentError(f"the arguments must be arrays of one Array API library: {e}") from None
    import array_api_compat.numpy

    return array_api_compat.numpy


def dtype(xp, name: str):
    """The namespace's dtype for a NumPy dtype name (``float32`` ...); a
    library without it (``float16`` is not in the standard) is an error
    naming both."""
    found = getattr(xp, name, None)
    if found is None:
        import array_api_compat as compat

        if compat.is_dask_namespace(xp) or compat.is_cupy_namespace(xp) or compat.is_numpy_namespace(xp):
            return np.dtype(name)  # their dtypes are NumPy's, float16 included
    if found is None:
        raise rt.ArgumentError(f"{xp.__name__} has no {name} (the program needs it; "
                               "the Array API standard does not define it)")
    return found


def constant(xp, value, dtype_name: str, shape: tuple[int, ...]):
    """A constant of ``shape`` from the exact NumPy value (one element: a splat,
    broadcast, so a large splat is never materialized)."""
    array = np.asarray(value)
    dt = dtype(xp, dtype_name)
    if array.size == 1:  # a splat: a broadcast of one element, not a full array
        one = xp.asarray(array.reshape(()).item(), dtype=dt)
        return one if shape == () else xp.broadcast_to(one, shape)
    return xp.asarray(array.reshape(shape), dtype=dt)


def argument(xp, value, spec: rt.Spec):
    """The argument rule of docs/contracts.md (Arguments) for arrays of any library: the
    declared dtype as it is, another dtype only where ``can_cast`` says every
    value converts (``astype``), the exact declared shape. NumPy inputs and
    Python values go through ``numpy_runtime.argument`` (same rule)."""
    if spec.shape is None or isinstance(value, (np.ndarray, np.generic, bool, int, float, list, tuple)):
        return rt.argument(value, spec)
    shape = tuple(value.shape)
    rt.check_shape(shape, spec)
    want = dtype(xp, spec.dtype.name)
    if value.dtype == want:
        return value
    if xp.can_cast(value.dtype, want):
        return xp.astype(value, want)
    raise rt.ArgumentError(
        f"{spec.name}: an array of {value.dtype} does not convert to {spec.type} "
        f"({spec.dtype}) without loss; convert it first if that is intended"
    )


def _c(xp, value, like):
    """``value`` as a rank-0 array of ``like``'s dtype."""
    return xp.asarray(value, dtype=like.dtype)


def _info(xp, x):
    return xp.iinfo(x.dtype)


def _is_int(xp, x) -> bool:
    return xp.isdtype(x.dtype, "integral")


def _is_signed(xp, x) -> bool:
    return xp.isdtype(x.dtype, "signed integer")


def _is_bool(xp, x) -> bool:
    return xp.isdtype(x.dtype, "bool")


# --------------------------------------------------------------------------
# Elementwise
# --------------------------------------------------------------------------


def divide(xp, x, y):
    if not _is_int(xp, x):
        return xp.divide(x, y)
    zero = y == _c(xp, 0, y)
    safe = xp.where(zero, _c(xp, 1, y), y)
    if not _is_signed(xp, x):
        return xp.where(zero, _c(xp, _info(xp, x).max, x), xp.floor_divide(x, safe))
    overflow = (x == _c(xp, _info(xp, x).min, x)) & (y == _c(xp, -1, y))
    safe = xp.where(overflow, _c(xp, 1, y), safe)
    floor = xp.floor_divide(x, safe)
    inexact = (x - floor * safe) != _c(xp, 0, x)
    signs_differ = (x < _c(xp, 0, x)) != (safe < _c(xp, 0, safe))
    quotient = xp.where(inexact & signs_differ, floor + _c(xp, 1, x), floor)
    quotient = xp.where(overflow, x, quotient)
    return xp.where(zero, _c(xp, -1, x), quotient)


def remainder(xp, x, y):
    if not _is_int(xp, x):
        return xp.copysign(xp.remainder(xp.abs(x), xp.abs(y)), x)
    zero = y == _c(xp, 0, y)
    safe = xp.where(zero, _c(xp, 1, y), y)
    if _is_signed(xp, x):
        safe = xp.where(y == _c(xp, -1, y), _c(xp, 1, y), safe)
    floor = xp.remainder(x, safe)  # the divisor's sign
    if _is_signed(xp, x):
        fix = (floor != _c(xp, 0, x)) & ((x < _c(xp, 0, x)) != (safe < _c(xp, 0, safe)))
        floor = xp.where(fix, floor - safe, floor)
    return xp.where(zero, x, floor)


def power(xp, x, y):
    if not _is_int(xp, x):  # IEEE pow at x ** 0.5 (see numerics._ieee_half_power)
        result = xp.pow(x, y)
        fix = (y == _c(xp, 0.5, y)) & ((x == _c(xp, -np.inf, x)) | (x == _c(xp, 0, x)))
        mended = xp.where(x == _c(xp, 0, x), _c(xp, 0, x), _c(xp, np.inf, x))
        return xp.where(fix, mended, result)
    bits = _info(xp, x).bits
    negative = y < _c(xp, 0, y) if _is_signed(xp, y) else xp.zeros_like(y, dtype=xp.bool)
    exponent = xp.where(negative, _c(xp, 0, y), y)
    base, result = x, xp.ones_like(x)
    one = _c(xp, 1, x)
    for _ in range(bits):
        odd = xp.bitwise_and(exponent, one) == one
        result = xp.where(odd, result * base, result)
        base = base * base
        exponent = xp.bitwise_right_shift(exponent, one)
    if _is_signed(xp, x):
        odd_exponent = xp.bitwise_and(y, one) == one
        minus_one = _c(xp, -1, x)
        truncated = xp.where(
            x == one, one, xp.where(x == minus_one, xp.where(odd_exponent, minus_one, one), _c(xp, 0, x))
        )
        result = xp.where(negative, truncated, result)
    return result


def _shift_amount(xp, x, y):
    """The amount where it is in ``[0, bits)`` (0 elsewhere), and where not."""
    bits = _info(xp, x).bits
    too_big = y >= _c(xp, bits, y)
    if _is_signed(xp, y):
        too_big = too_big | (y < _c(xp, 0, y))  # read as unsigned: huge
    return xp.where(too_big, _c(xp, 0, y), y), too_big, bits


def shift_left(xp, x, y):
    amount, too_big, _ = _shift_amount(xp, x, y)
    return xp.where(too_big, _c(xp, 0, x), xp.bitwise_left_shift(x, amount))


def shift_right_logical(xp, x, y):
    amount, too_big, bits = _shift_amount(xp, x, y)
    shifted = xp.bitwise_right_shift(x, amount)
    if _is_signed(xp, x):  # clear the sign fill: keep the low bits - amount bits
        some = amount != _c(xp, 0, y)
        width = _c(xp, bits, y) - xp.where(some, amount, _c(xp, 1, y))
        mask = xp.bitwise_invert(xp.bitwise_left_shift(_c(xp, -1, x), width))
        shifted = xp.where(some, xp.bitwise_and(shifted, mask), x)
    return xp.where(too_big, _c(xp, 0, x), shifted)


def shift_right_arithmetic(xp, x, y):
    amount, too_big, bits = _shift_amount(xp, x, y)
    amount = xp.where(too_big, _c(xp, bits - 1, y), amount)
    shifted = xp.bitwise_right_shift(x, amount)
    if _is_signed(xp, x):
        return shifted
    # unsigned: fill with the top bit, as a signed shift would
    top = xp.bitwise_right_shift(x, _c(xp, bits - 1, x)) == _c(xp, 1, x)
    fill = xp.bitwise_invert(xp.bitwise_right_shift(_c(xp, _info(xp, x).max, x), amount))
    return xp.where(top, xp.bitwise_or(shifted, fill), shifted)


def maximum(xp, x, y):
    return xp.maximum(x, y)


def minimum(xp, x, y):
    return xp.minimum(x, y)


def and_(xp, x, y):
    return xp.logical_and(x, y) if _is_bool(xp, x) else xp.bitwise_and(x, y)


def or_(xp, x, y):
    return xp.logical_or(x, y) if _is_bool(xp, x) else xp.bitwise_or(x, y)


def xor(xp, x, y):
    return xp.logical_xor(x, y) if _is_bool(xp, x) else xp.bitwise_xor(x, y)


def not_(xp, x):
    return xp.logical_not(x) if _is_bool(xp, x) else xp.bitwise_invert(x)


def rsqrt(xp, x):
    return xp.divide(_c(xp, 1, x), xp.sqrt(x))


def logistic(xp, x):
    one = _c(xp, 1, x)
    return xp.divide(one, one + xp.exp(xp.negative(x)))


def convert(xp, x, dtype_name: str):
    to = dtype(xp, dtype_name)
    if to == xp.bool:
        return x != _c(xp, 0, x)
    if xp.isdtype(to, "integral") and xp.isdtype(x.dtype, "real floating"):
        info = xp.iinfo(to)
        clean = xp.where(xp.isnan(x), _c(xp, 0, x), xp.trunc(x))
        high, low = _c(xp, info.max, x), _c(xp, info.min, x)  # rounded to x's type
        inside = (clean < high) & (clean > low)
        value = xp.astype(xp.where(inside, clean, _c(xp, 0, x)), to)
        value = xp.where(clean >= high, xp.asarray(info.max, dtype=to), value)
        return xp.where(clean <= low, xp.asarray(info.min, dtype=to), value)
    return xp.astype(x, to)


# binary ops whose standard function is the op itself; the rest are above
STANDARD_BINARY = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "atan2": "atan2",
}  # fmt: skip
STANDARD_UNARY = {
    "negate": "negative", "abs_": "abs", "sign": "sign", "exponential": "exp", "log": "log",
    "sqrt": "sqrt", "tanh": "tanh", "floor": "floor", "ceil": "ceil",
}  # fmt: skip
COMPARE = {"EQ": "equal", "NE": "not_equal", "LT": "less", "LE": "less_equal",
           "GT": "greater", "GE": "greater_equal"}  # fmt: skip


def compare(xp, direction: str, x, y):
    """The standard orders numbers only: booleans compare as 0 and 1."""
    if direction not in ("EQ", "NE") and _is_bool(xp, x):
        x, y = xp.astype(x, xp.uint8), xp.astype(y, xp.uint8)
    return getattr(xp, COMPARE[direction])(x, y)


# --------------------------------------------------------------------------
# Shapes and indices
# --------------------------------------------------------------------------


def broadcast_in_dim(xp, x, dims: Sequence[int], shape: tuple[int, ...]):
    """``permute_dims`` (for unsorted dims), ``reshape`` to insert the size-1
    dims, ``broadcast_to``: views where the library has them."""
    perm, _, dims = rules.split_transposing_broadcast(tuple(x.shape), dims)
    if not rules.is_identity(perm, len(perm)):
        x = xp.permute_dims(x, tuple(perm))
    expanded = [1] * len(shape)
    for k, d in enumerate(dims):
        expanded[d] = x.shape[k]
    if tuple(x.shape) != tuple(expanded):
        x = xp.reshape(x, tuple(expanded))
    return x if tuple(x.shape) == tuple(shape) else xp.broadcast_to(x, tuple(shape))


def reshape(xp, x, shape: tuple[int, ...]):
    """``xp.reshape``. Dask reshapes only by merging or evenly splitting
    chunked dims; for any other reshape (2x6 -> 3x4 in chunks of 1x3) the
    dims are first merged into one chunk each (the one step here that is
    not the standard's: dask's ``rechunk``, still lazy)."""
    try:
        return xp.reshape(x, shape)
    except NotImplementedError:
        import array_api_compat as compat

        if not compat.is_dask_namespace(xp):
            raise
        return xp.reshape(x.rechunk(-1), shape)


def assign(xp, dst, index: tuple[int, ...], src):
    """``dst`` with ``dst[index] = src`` as a new array, without mutation (dask
    and JAX arrays are immutable): a ``where`` over a mask of the indexed
    leading dims. ``src`` has the rank of ``dst[index]`` and broadcasts to it."""
    shape = tuple(dst.shape)
    mask = None
    for pos, i in enumerate(index):
        ones = [1] * len(shape)
        ones[pos] = shape[pos]
        hit = xp.reshape(xp.arange(shape[pos]) == i, tuple(ones))
        mask = hit if mask is None else xp.logical_and(mask, hit)
    spread = xp.broadcast_to(xp.reshape(src, (1,) * len(index) + tuple(src.shape)), shape)
    return spread if mask is None else xp.where(mask, spread, dst)


def deliver(xp, results: tuple, out, specs: tuple[rt.Spec, ...], inputs: tuple):
    """The function's results: one array or a tuple. For NumPy results,
    ``out=`` and ownership follow ``numpy_runtime.Outs`` (a result that is
    an input or a view of one is copied); other libraries' arrays are
    immutable and returned as they are, and take no ``out=``."""
    if not results and out is None:
        return ()
    numpy_like = all(isinstance(r, (np.ndarray, int, np.integer)) for r in results)  # int: an index
    if out is not None or numpy_like:
        if not numpy_like:
            raise rt.ArgumentError("out= needs NumPy arrays; this call computes with " + xp.__name__)
        values = [v for v in inputs if isinstance(v, np.ndarray)]
        results = tuple(np.asarray(r) for r in results)
        fresh = [r.flags.owndata and r.flags.c_contiguous and r.flags.writeable
                 and not any(r is v for v in values) for r in results]
        return rt.Outs(out, specs, values).deliver(list(results), fresh)
    return results[0] if len(results) == 1 else results


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------


def reduce(xp, kind: str, x, dims: Sequence[int], keepdims: bool, dtype_name: str):
    """``x`` (of the NumPy dtype ``dtype_name``) reduced over ``dims``."""
    shape = tuple(x.shape)
    axis = tuple(dims)
    out_shape = tuple(1 if d in axis else n for d, n in enumerate(shape) if keepdims or d not in axis)
    if any(shape[d] == 0 for d in axis):
        identity = numerics.reduction_identity(kind, np.dtype(dtype_name))
        return xp.full(out_shape, identity.item(), dtype=x.dtype)
    if not axis:
        return x
    if kind in ("add", "multiply"):
        fold = xp.sum if kind == "add" else xp.prod
        if dtype_name == "float16":  # accumulate in f32, round once
            wide = fold(xp.astype(x, xp.float32), axis=axis, dtype=xp.float32, keepdims=keepdims)
            return xp.astype(wide, x.dtype)
        return fold(x, axis=axis, dtype=x.dtype, keepdims=keepdims)
    if kind in ("maximum", "minimum"):
        return (xp.max if kind == "maximum" else xp.min)(x, axis=axis, keepdims=keepdims)
    if _is_bool(xp, x):
        if kind == "xor":
            count = xp.sum(xp.astype(x, xp.int64), axis=axis, keepdims=keepdims)
            return xp.remainder(count, xp.asarray(2, dtype=count.dtype)) == xp.asarray(1, dtype=count.dtype)
        return (xp.all if kind == "and" else xp.any)(x, axis=axis, keepdims=keepdims)
    return _bitwise_reduce(xp, kind, x, axis, keepdims)


def _bitwise_reduce(xp, kind: str, x, axis: tuple[int, ...], keepdims: bool):
    """Integer ``and``/``or``/``xor`` over ``axis``, one bit at a time."""
    bits = _info(xp, x).bits
    one = _c(xp, 1, x)
    result = None
    for b in range(bits):
        bit = xp.bitwise_and(xp.bitwise_right_shift(x, _c(xp, b, x)), one) == one
        folded = reduce(xp, kind, bit, axis, keepdims, "bool")
        weight = -(1 << b) if _is_signed(xp, x) and b == bits - 1 else 1 << b
        term = xp.where(folded, _c(xp, weight, x), _c(xp, 0, x))
        result = term if result is None else xp.bitwise_or(result, term)
    return result
