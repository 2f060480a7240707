"""Random bcast programs for property tests, with an independent NumPy oracle.

``programs(mode=..., max_ops=...)`` is a Hypothesis strategy of
:class:`Program`: the IR text of a ``func.func @main``, random NumPy inputs for
it, and the results the program must produce, computed here, op by op, with
NumPy's own broadcasting (never with bcast's rules or evaluator).

Programs are always valid under their semantics: operand shapes are derived
from one random "universe" shape (any dim may also be 1, any leading dims may
be missing) and each op picks its operands among the values that fit it, so
no Hypothesis filtering is needed. Shapes include size-0 and size-1 dims and
rank 0 to 4.

- ``numpy``: implicit NumPy broadcasting and Array API type promotion inside a
  kind; sometimes an explicit ``broadcast_dimensions`` on operands of
  different rank.
- ``xla``: identical element types; operands of different non-zero rank get a
  ``broadcast_dimensions`` tuple (any valid strictly increasing one, not only
  the trailing one); ``select`` needs equal ranks or scalars;
  ``broadcast_in_dim`` dims are increasing.
- ``tml``: arithmetic ops broadcast per nesting level (nested tensor types,
  stored flat); logical, relational and bitwise ops take a scalar operand or
  identical shapes; bitwise ops take unsigned integers; ``narrow``.

The oracle's integer ``divide``/``remainder`` truncate (docs/semantics.md,
with XLA's edge cases), shifts by >= the bit width give 0 (sign fill for the
arithmetic shift), and float -> integer ``convert`` truncates and saturates
with NaN -> 0.

Later passes' property tests run a program before and after a pass and
compare both with ``program.expected`` through :func:`assert_results`.
"""

from __future__ import annotations

import itertools
import math as pymath
import struct
from decimal import Decimal, localcontext
from fractions import Fraction
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from hypothesis import strategies as st

from bcast.ir.types import NIBBLE_DTYPES, finfo, is_float_dtype

MODES = ("numpy", "xla", "tml")

Shape = tuple[int, ...]
Levels = tuple[Shape, ...]

DTYPES = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
NAMES = {v: k for k, v in DTYPES.items()}

DEFAULT_DTYPES = ("f32", "f64", "i32", "i8", "ui8", "i1")

# op name -> element kinds it accepts (numpy / xla)
ARITH = ("add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum")
BITWISE = ("and", "or", "xor")
SHIFTS = ("shift_left", "shift_right_arithmetic", "shift_right_logical")
BINARY = ARITH + ("atan2",) + BITWISE + SHIFTS
UNARY = ("negate", "abs", "sign", "exponential", "log", "sqrt", "rsqrt", "tanh",
         "logistic", "floor", "ceil", "sine", "cosine", "tan", "exponential_minus_one", "log_plus_one",
         "cbrt", "round_nearest_even", "round_nearest_afz", "erf", "erfc", "not", "popcnt")  # fmt: skip
STRUCTURAL = ("broadcast_in_dim", "transpose", "reshape", "convert", "narrow", "constant")
ALL_OPS = BINARY + ("compare", "select") + UNARY + STRUCTURAL
DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")

NUMERIC = frozenset({"signed", "unsigned", "float"})
KINDS = {
    **{op: NUMERIC for op in ARITH},
    "atan2": frozenset({"float"}),
    **{op: frozenset({"bool", "signed", "unsigned"}) for op in BITWISE},
    **{op: frozenset({"signed", "unsigned"}) for op in SHIFTS},
    "compare": frozenset({"bool", "signed", "unsigned", "float"}),
    "negate": NUMERIC,
    "abs": NUMERIC,
    "sign": NUMERIC,
    **{op: frozenset({"float"}) for op in (
        "exponential", "log", "sqrt", "rsqrt", "tanh", "logistic", "floor", "ceil", "sine", "cosine", "tan",
        "exponential_minus_one", "log_plus_one", "cbrt", "round_nearest_even", "round_nearest_afz", "erf", "erfc")},
    "popcnt": frozenset({"signed", "unsigned"}),
    "not": frozenset({"bool", "signed", "unsigned"}),
}  # fmt: skip
TML_KINDS = {
    **{op: frozenset({"bool", "unsigned"}) for op in BITWISE},
    **{op: frozenset({"unsigned"}) for op in SHIFTS},
    "compare": NUMERIC,
    "not": frozenset({"bool", "unsigned"}),
    "popcnt": frozenset({"unsigned"}),
}


def kind(t: str) -> str:
    if t == "i1":
        return "bool"
    return {"u": "unsigned", "i": "signed", "f": "float"}[DTYPES[t].kind]


# --------------------------------------------------------------------------
# Types and text
# --------------------------------------------------------------------------


def type_text(levels: Levels, dtype: str) -> str:
    """``((3,), (2, 2))``, ``f32`` -> ``tensor<3xtensor<2x2xf32>>``."""
    t = dtype
    for level in reversed(levels):
        t = "tensor<" + "".join(f"{d}x" for d in level) + t + ">"
    return t


def flat(levels: Levels) -> Shape:
    return tuple(d for level in levels for d in level)


@dataclass
class Value:
    name: str
    levels: Levels
    dtype: str
    data: np.ndarray  # flat storage, shape flat(levels)

    @property
    def type(self) -> str:
        return type_text(self.levels, self.dtype)

    @property
    def nested(self) -> bool:
        return len(self.levels) > 1

    @property
    def scalar(self) -> bool:
        return self.levels == ((),)


@dataclass
class Program:
    """A generated program: IR text, inputs, and the oracle's results."""

    text: str
    inputs: tuple[np.ndarray, ...]
    expected: tuple[np.ndarray, ...]
    mode: str
    ops: tuple[str, ...] = ()
    result_types: tuple[str, ...] = ()
    arg_types: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    bounds: tuple = ()
    """Per result, None (the default tolerance) or an absolute error bound
    array: results that are float sums or products a backend may reassociate
    (see :func:`reduction_error_bound`)."""

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example
        inputs = "\n".join(f"  arg{i}: {a.dtype}{list(a.shape)} = {a.tolist()!r}"
                           for i, a in enumerate(self.inputs))
        expected = "\n".join(f"  result{i}: {a.dtype}{list(a.shape)} = {a.tolist()!r}"
                             for i, a in enumerate(self.expected))
        return f"Program(mode={self.mode!r})\n{self.text}\ninputs:\n{inputs}\nexpected:\n{expected}"


def _tolerance(dtype: np.dtype) -> tuple[float, float]:
    return {2: (2e-3, 1e-3), 4: (1e-5, 1e-6)}.get(dtype.itemsize, (1e-12, 1e-13))


def _float_tolerance(program: Program, dtype: np.dtype) -> tuple[float, float]:
    """The tolerance of the narrowest float type the program computes in: an
    f64 result converted from an f32 ``rsqrt`` carries f32's error (backends
    may differ there by an ulp of f32). A complex result's is its parts'."""
    if dtype.kind == "c":
        dtype = np.dtype(dtype.type(0).real.dtype)
    narrowest = min((itemsize for name, itemsize in (("f16", 2), ("f32", 4)) if name in program.text),
                    default=dtype.itemsize)
    return _tolerance(np.dtype(f"f{min(narrowest, dtype.itemsize)}"))


def assert_results(program: Program, results) -> None:
    """``results`` (an array or a tuple of arrays) equal ``program.expected``:
    same dtypes and shapes, bit-exact for integers and booleans, close (NaN
    equal to NaN) for floats and complex values."""
    if not isinstance(results, (tuple, list)):
        results = (results,)
    assert len(results) == len(program.expected), (len(results), len(program.expected))
    for i, (got, want) in enumerate(zip(results, program.expected)):
        got = np.asarray(got)
        assert got.dtype == want.dtype, f"result {i}: dtype {got.dtype}, expected {want.dtype}"
        assert got.shape == want.shape, f"result {i}: shape {got.shape}, expected {want.shape}"
        bound = program.bounds[i] if i < len(program.bounds) else None
        if is_float_dtype(want.dtype) and bound is not None:
            _assert_within_bound(got, want, bound, f"result {i}")
        elif is_float_dtype(want.dtype) or want.dtype.kind == "c":
            rtol, atol = _float_tolerance(program, want.dtype)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=f"result {i}")
        else:
            np.testing.assert_array_equal(got, want, err_msg=f"result {i}")


def as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def assert_identical(got, want) -> None:
    """Bit-exact equality (NaN equal to NaN) of results, dtypes and shapes."""
    for g, w in zip(as_tuple(got), as_tuple(want), strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_array_equal(g, w)


def assert_same_results(before, after, args) -> None:
    """Two callables give identical results on ``args``."""
    assert_identical(after(*args), before(*args))


# --------------------------------------------------------------------------
# The oracle: NumPy semantics, written independently of bcast
# --------------------------------------------------------------------------


def _broadcast_levels(levels: Sequence[Levels]) -> Levels | None:
    """Per-level NumPy broadcasting (levels align from the outside, a missing
    inner level is a scalar); None if incompatible."""
    depth = max(len(lv) for lv in levels)
    out = []
    for k in range(depth):
        try:
            out.append(tuple(np.broadcast_shapes(*[lv[k] if k < len(lv) else () for lv in levels])))
        except ValueError:
            return None
    return tuple(out)


def _expand_flat(data: np.ndarray, levels: Levels, result: Levels) -> np.ndarray:
    """The flat value ``data`` of ``levels`` broadcast, level by level, to the
    flat shape of ``result``."""
    shape: list[int] = []
    for k, res in enumerate(result):
        own = levels[k] if k < len(levels) else ()
        shape += [1] * (len(res) - len(own)) + list(own)
    return np.broadcast_to(data.reshape(shape), flat(result))


def _in_dim(data: np.ndarray, high_rank: int, dims: Sequence[int]) -> np.ndarray:
    """Place the axes of ``data`` at ``dims`` of a rank-``high_rank`` array (1 elsewhere)."""
    shape = [1] * high_rank
    for i, d in enumerate(dims):
        shape[d] = data.shape[i]
    return data.reshape(shape)


def _materialize(x) -> np.ndarray:
    """A C-contiguous copy (``np.ascontiguousarray`` would turn rank 0 into rank 1)."""
    return np.array(x, order="C", copy=True)


def _wrap(x, dtype: np.dtype) -> np.ndarray:
    return np.asarray(x).astype(dtype)


def _from_int(r: int, dtype: np.dtype):
    """A Python int wrapped into ``dtype`` (two's complement)."""
    bits = dtype.itemsize * 8
    r %= 1 << bits
    if dtype.kind == "i" and r >= 1 << (bits - 1):
        r -= 1 << bits
    return r


def _int_divide(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    dtype = x.dtype
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), dtype)
    xs, ys = np.broadcast_arrays(x, y)
    for idx in np.ndindex(out.shape):
        a, b = int(xs[idx]), int(ys[idx])
        if b == 0:
            q = -1  # all ones, also for unsigned
        else:
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
        out[idx] = _from_int(q, dtype)
    return out


def _int_remainder(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    dtype = x.dtype
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), dtype)
    xs, ys = np.broadcast_arrays(x, y)
    for idx in np.ndindex(out.shape):
        a, b = int(xs[idx]), int(ys[idx])
        if b == 0:
            r = a
        else:
            r = abs(a) % abs(b)
            if a < 0:
                r = -r
        out[idx] = r
    return out


def _int_power(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    dtype = x.dtype
    bits = dtype.itemsize * 8
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), dtype)
    xs, ys = np.broadcast_arrays(x, y)
    for idx in np.ndindex(out.shape):
        a, b = int(xs[idx]), int(ys[idx])
        if b < 0:
            r = 1 if a == 1 else (-1 if b % 2 else 1) if a == -1 else 0
        else:
            r = pow(a, b, 1 << bits)
        out[idx] = _from_int(r, dtype)
    return out


def _shift(op: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    dtype = x.dtype
    bits = dtype.itemsize * 8
    mask = (1 << bits) - 1
    out = np.empty(np.broadcast_shapes(x.shape, y.shape), dtype)
    xs, ys = np.broadcast_arrays(x, y)
    for idx in np.ndindex(out.shape):
        a, amount = int(xs[idx]) & mask, int(ys[idx]) & mask  # two's complement bits
        if op == "shift_left":
            r = 0 if amount >= bits else (a << amount) & mask
        elif op == "shift_right_logical":
            r = 0 if amount >= bits else a >> amount
        else:
            signed = a - (1 << bits) if a >> (bits - 1) else a
            r = signed >> min(amount, bits - 1)
        out[idx] = _from_int(r, dtype)
    return out


# --------------------------------------------------------------------------
# i4 and ui4: Python ints, wrapped to 4 bits after every op (independent of
# bcast's byte arithmetic and of ml_dtypes' own)
# --------------------------------------------------------------------------


def _nibble(v: int, dtype: np.dtype) -> int:
    """``v`` modulo 16 as ``dtype`` reads it (-8..7 for int4, 0..15 for uint4)."""
    v %= 16
    return v - 16 if dtype.name == "int4" and v >= 8 else v


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


_INT4 = next((d for d in NIBBLE_DTYPES if d.name == "int4"), None)

NIBBLE_BINARY = {
    "add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
    "maximum": max, "minimum": min, "and": lambda a, b: a & b, "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "divide": lambda a, b: -1 if b == 0 else _trunc_div(a, b),
    "remainder": lambda a, b: a if b == 0 else a - b * _trunc_div(a, b),
    "power": lambda a, b: (1 if a == 1 else (-1 if b % 2 else 1) if a == -1 else 0) if b < 0 else pow(a, b, 16),
    "shift_left": lambda a, b: 0 if b % 16 >= 4 else (a % 16) << (b % 16),
    "shift_right_logical": lambda a, b: 0 if b % 16 >= 4 else (a % 16) >> (b % 16),
    # the nibble's top bit fills: its signed reading shifted by at most 3
    "shift_right_arithmetic": lambda a, b: _nibble(a, _INT4) >> min(b % 16, 3),
    "mulhi": lambda a, b: (a * b) >> 4,
}  # fmt: skip
"""Each op on the Python ints of two 4-bit values (docs/semantics.md), before the wrap."""

NIBBLE_UNARY = {
    "negate": lambda a: -a, "abs": abs, "sign": lambda a: (a > 0) - (a < 0), "not": lambda a: ~a,
    "popcnt": lambda a: (a % 16).bit_count(), "count_leading_zeros": lambda a: 4 - (a % 16).bit_length(),
}  # fmt: skip


def _nibbles_apply(fn, dtype: np.dtype, *xs: np.ndarray) -> np.ndarray:
    """``fn`` on the Python ints of each element (NumPy broadcasting), the
    result wrapped to 4 bits."""
    xs = np.broadcast_arrays(*[np.asarray(x).astype(np.int64) for x in xs])
    flat = [_nibble(fn(*(int(v) for v in vs)), dtype) for vs in zip(*(x.ravel() for x in xs))]
    return np.array(flat, np.int64).reshape(xs[0].shape).astype(dtype)


def _next_after(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """C's ``nextafter``: ``y`` where ``x == y`` (NumPy's half-precision
    loop returns ``x``, so ``nextafter(0.0, -0.0)`` is ``+0.0`` in f16 only)."""
    return np.where(x == y, y, np.nextafter(x, y))


def _lexicographic(pick_x, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each element of ``x`` where ``pick_x((x.real, x.imag), (y.real, y.imag))``
    or ``x`` has a NaN part, else ``y``'s (Python tuples compare lexicographically)."""
    xs, ys = np.broadcast_arrays(x, y)
    out = [a if (a != a) or pick_x((a.real, a.imag), (b.real, b.imag)) else b
           for a, b in zip(xs.ravel().tolist(), ys.ravel().tolist())]
    return np.array(out, x.dtype).reshape(xs.shape)


def oracle_complex_binary(op: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``op`` on complex arrays (docs/semantics.md, "Complex numbers"):
    NumPy's complex arithmetic; ``maximum``/``minimum`` by the lexicographic
    order of (real, imag), NaN first; ``atan2`` by StableHLO's formula."""
    with np.errstate(all="ignore"):
        if op in ("maximum", "minimum"):
            return _lexicographic((lambda a, b: a > b) if op == "maximum" else (lambda a, b: a < b), x, y)
        if op == "atan2":  # -i * log((x + i*y) / sqrt(x*x + y*y)), x the second operand
            i = np.asarray(1j, x.dtype)
            return np.asarray(-i * np.log((y + i * x) / np.sqrt(y * y + x * x))).astype(x.dtype)
        fn = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
              "power": np.power}[op]  # fmt: skip
        return np.asarray(fn(x, y)).astype(x.dtype)


def _complex_sign(v: complex) -> complex:
    """``v / |v|`` of one Python complex, as docs/semantics.md says: a zero
    as it is, NaN for a NaN part, at infinity the direction of the infinite
    parts; Python's ``hypot`` neither overflows nor underflows."""
    re, im = v.real, v.imag
    if pymath.isnan(re) or pymath.isnan(im):
        return complex(pymath.nan, pymath.nan)
    if re == 0 and im == 0:
        return v
    if pymath.isinf(re) or pymath.isinf(im):
        re = pymath.copysign(1.0, re) if pymath.isinf(re) else 0.0 * re
        im = pymath.copysign(1.0, im) if pymath.isinf(im) else 0.0 * im
    scale = max(abs(re), abs(im))  # (hypot of two huge parts overflows)
    re, im = re / scale, im / scale
    h = pymath.hypot(re, im)
    return complex(re / h, im / h)


def _complex_log1p(x: np.ndarray) -> np.ndarray:
    """NumPy's complex ``log1p``, but where it overflows on a finite value
    (``|1 + x|`` beyond the largest float): there ``1 + x`` rounds to a value
    whose ``log`` NumPy computes without overflow (``log(MAX + MAX j)`` is
    ``log|x| + i pi/4``, finite)."""
    out = np.asarray(np.log1p(x))
    overflowed = np.isfinite(x) & ~np.isfinite(out)
    return np.where(overflowed, np.log(x + 1), out)


def oracle_complex_unary(op: str, x: np.ndarray) -> np.ndarray:
    """``op`` on a complex array: NumPy's complex functions; ``abs``,
    ``real`` and ``imag`` give the parts' dtype."""
    with np.errstate(all="ignore"):
        if op in ("abs", "real", "imag"):
            return {"abs": np.abs, "real": np.real, "imag": np.imag}[op](x).copy()
        if op == "sign":
            return np.array([_complex_sign(v) for v in x.tolist()], x.dtype).reshape(x.shape)
        fn = {"negate": np.negative, "exponential": np.exp, "log": np.log, "sqrt": np.sqrt,
              "rsqrt": lambda v: 1 / np.sqrt(v), "tanh": np.tanh, "sine": np.sin, "cosine": np.cos,
              "tan": np.tan, "exponential_minus_one": np.expm1, "log_plus_one": _complex_log1p,
              "logistic": lambda v: 1 / (1 + np.exp(-v)), "cbrt": lambda v: v ** np.asarray(1 / 3, v.dtype)}[op]
        return np.asarray(fn(x)).astype(x.dtype)


def oracle_binary(op: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``op`` on two arrays of the same (promoted) dtype, NumPy broadcasting."""
    if x.dtype.kind == "c":
        return oracle_complex_binary(op, x, y)
    if op == "complex":  # two float parts (never x + 1j * y: inf * 1j is NaN + inf j)
        xs, ys = np.broadcast_arrays(x, y)
        out = np.empty(xs.shape, np.complex64 if x.dtype == np.float32 else np.complex128)
        out.real, out.imag = xs, ys
        return out
    if x.dtype in NIBBLE_DTYPES:
        return _nibbles_apply(NIBBLE_BINARY[op], x.dtype, x, y)
    integer = x.dtype.kind in "iub"
    with np.errstate(all="ignore"):
        if op == "divide" and x.dtype.kind in "iu":
            return _int_divide(x, y)
        if op == "remainder" and x.dtype.kind in "iu":
            return _int_remainder(x, y)
        if op == "power" and x.dtype.kind in "iu":
            return _int_power(x, y)
        if op in SHIFTS:
            return _shift(op, x, y)
        if op == "mulhi":  # the high half of the exact product (Python's unbounded ints)
            bits = 8 * x.dtype.itemsize
            xs, ys = np.broadcast_arrays(x, y)
            return np.array([(int(a) * int(b)) >> bits for a, b in zip(xs.ravel(), ys.ravel())],
                            dtype=object).astype(x.dtype).reshape(xs.shape)
        fn = {
            "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
            "divide": np.divide, "remainder": np.fmod, "power": np.power,
            "maximum": np.maximum, "minimum": np.minimum, "atan2": np.arctan2, "next_after": _next_after,
            "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
        }[op]  # fmt: skip
        out = np.asarray(fn(x, y))
    assert not integer or out.dtype == x.dtype
    return _wrap(out, x.dtype)


def oracle_compare(direction: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.dtype in NIBBLE_DTYPES:  # their values
        x, y = x.astype(np.int64), y.astype(np.int64)
    fn = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
          "GT": np.greater, "GE": np.greater_equal}[direction]  # fmt: skip
    return np.asarray(fn(x, y))


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """Python's own decimal-free rounding: ``floor(|x| + 1/2)`` in exact
    fractions, with the sign put back."""
    from fractions import Fraction
    import math as pymath

    def one(v: float) -> float:
        if not pymath.isfinite(v):
            return v
        r = pymath.floor(abs(Fraction(v)) + Fraction(1, 2))
        return pymath.copysign(float(r), v)

    flat = x.astype(np.float64).reshape(-1).tolist()
    return np.array([one(v) for v in flat]).reshape(x.shape).astype(x.dtype)


def _libm(function):
    """Python's ``math`` function (C's, in f64) on each element, rounded once
    to the element type."""
    def apply(x: np.ndarray) -> np.ndarray:
        flat = x.astype(np.float64).reshape(-1).tolist()
        return np.array([function(v) for v in flat]).reshape(x.shape).astype(x.dtype)

    return apply


def _erf_inv(y: float) -> float:
    """The inverse of ``math.erf`` by bisection in f64 (independent of
    bcast's approximation): +-inf at +-1, NaN outside [-1, 1]."""
    if pymath.isnan(y) or abs(y) > 1:
        return pymath.nan
    if abs(y) == 1:
        return pymath.copysign(pymath.inf, y)
    if y == 0:
        return y
    def as_float(bits: int) -> float:  # positive doubles order as their bit patterns
        return struct.unpack("<d", struct.pack("<q", bits))[0]

    lo, hi = 0, struct.unpack("<q", struct.pack("<d", 6.0))[0]  # erf(6) rounds to 1 in f64
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if pymath.erf(as_float(mid)) < abs(y) else (lo, mid)
    return pymath.copysign(as_float(hi), y)


def _popcount(x: np.ndarray) -> np.ndarray:
    bits = 8 * x.dtype.itemsize
    flat = x.reshape(-1).tolist()
    return np.array([(int(v) % (1 << bits)).bit_count() for v in flat], np.int64).reshape(x.shape).astype(x.dtype)


def _lgamma(x: float) -> float:
    """Python's ``math.lgamma`` (C's), with its errors as values: ``+inf`` at
    the poles (0 and the negative integers), at ``+-inf`` and past overflow."""
    if pymath.isinf(x) or (x <= 0 and x == pymath.floor(x)):
        return pymath.inf
    try:
        return pymath.lgamma(x)
    except OverflowError:
        return pymath.inf


_PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")
_BERNOULLI = (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66),
              Fraction(-691, 2730), Fraction(7, 6), Fraction(-3617, 510), Fraction(43867, 798),
              Fraction(-174611, 330))
"""``B_2, B_4, ..., B_20``, for the asymptotic series of digamma."""


def _sin_cos(y: Decimal) -> tuple[Decimal, Decimal]:
    """Taylor series, for ``|y| <= pi/2`` (80 terms: the last below ``1e-100``)."""
    sin, cos, term = Decimal(0), Decimal(0), Decimal(1)
    for k in range(80):
        if k % 2 == 0:
            cos += term if k % 4 == 0 else -term
        else:
            sin += term if k % 4 == 1 else -term
        term = term * y / (k + 1)
    return sin, cos


def _digamma(x: float) -> float:
    """digamma in 60-digit decimal arithmetic (independent of bcast's
    Lanczos approximation): the recurrence ``psi(x) = psi(x + 1) - 1/x`` up
    to 40, the asymptotic series there, the reflection formula below 1/2;
    NaN at the poles (0, the negative integers) and ``-inf``, ``+inf`` at ``+inf``."""
    if pymath.isnan(x) or x == -pymath.inf or (x <= 0 and x == pymath.floor(x)):
        return pymath.nan
    if x == pymath.inf:
        return pymath.inf
    with localcontext() as context:
        context.prec = 60
        d = Decimal(x)

        def positive(v: Decimal) -> Decimal:
            shift = Decimal(0)
            while v < 40:
                shift += 1 / v
                v += 1
            series = v.ln() - 1 / (2 * v)
            for k, b in enumerate(_BERNOULLI, start=1):
                series -= Decimal(b.numerator) / Decimal(b.denominator) / (2 * k) / v ** (2 * k)
            return series - shift

        if x >= 0.5:
            return float(positive(d))
        r = d - d.to_integral_value()  # psi(x) = psi(1 - x) - pi cot(pi x), cot of period 1
        sin, cos = _sin_cos(_PI * r)
        return float(positive(1 - d) - _PI * cos / sin)


def oracle_unary(op: str, x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        return oracle_complex_unary(op, x)
    if op == "real":  # of a float: itself
        return x.copy()
    if op == "imag":  # of a float: 0
        return np.zeros_like(x)
    if x.dtype in NIBBLE_DTYPES:
        return _nibbles_apply(NIBBLE_UNARY[op], x.dtype, x)
    with np.errstate(all="ignore"):
        if op == "not":
            out = np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)
        elif op == "count_leading_zeros":  # of the two's complement bits
            bits = 8 * x.dtype.itemsize
            out = np.array([bits - (int(v) % 2**bits).bit_length() for v in x.ravel()],
                           dtype=object).astype(x.dtype).reshape(x.shape)
        elif op == "rsqrt":
            out = 1 / np.sqrt(x)
        elif op == "logistic":
            out = 1 / (1 + np.exp(-x))
        elif op == "sign" and is_float_dtype(x.dtype):
            out = np.where(x == 0, x, np.sign(x))  # a zero keeps its sign
        else:
            fn = {"negate": np.negative, "abs": np.abs, "sign": np.sign, "exponential": np.exp,
                  "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh, "floor": np.floor,
                  "ceil": np.ceil, "sine": np.sin, "cosine": np.cos, "tan": np.tan,
                  "exponential_minus_one": np.expm1, "log_plus_one": np.log1p, "cbrt": np.cbrt,
                  "round_nearest_even": np.rint, "round_nearest_afz": _round_half_away,
                  "erf": _libm(pymath.erf), "erfc": _libm(pymath.erfc), "erf_inv": _libm(_erf_inv),
                  "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
                  "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
                  "lgamma": _libm(_lgamma), "digamma": _libm(_digamma),
                  "popcnt": _popcount}[op]  # fmt: skip
            out = fn(x)
    return _wrap(out, x.dtype)


def oracle_convert(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if x.dtype.kind == "c" and dtype.kind != "c":  # StableHLO: the real part, converted as a float
        x = x.real.copy()
    if x.dtype in NIBBLE_DTYPES:  # its value, exactly in int64, then as from int64
        x = x.astype(np.int64)
    if dtype in NIBBLE_DTYPES:
        if is_float_dtype(x.dtype):  # truncated, NaN 0, saturated at the range
            low, high = (-8, 7) if dtype.name == "int4" else (0, 15)
            t = np.trunc(x.astype(np.float64))
            return np.clip(np.where(np.isnan(t), 0, t), low, high).astype(np.int64).astype(dtype)
        return _nibbles_apply(int, dtype, x.astype(np.int64))  # the low four bits
    with np.errstate(all="ignore"):
        if dtype == np.bool_:
            return np.asarray(x != 0)
        if dtype.kind in "iu" and is_float_dtype(x.dtype):
            info = np.iinfo(dtype)
            t = np.trunc(x.astype(np.float64))
            t = np.where(np.isnan(t), 0, t)
            t = np.clip(t, float(info.min), float(info.max))
            return t.astype(dtype)
        return x.astype(dtype)


# --------------------------------------------------------------------------
# Random inputs
# --------------------------------------------------------------------------


def random_array(rng: np.random.Generator, shape: Shape, dtype: str) -> np.ndarray:
    dt = DTYPES[dtype]
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        small = rng.integers(max(info.min, -9), min(info.max, 9) + 1, size=shape)
        wide = rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dt)
        edge = rng.choice(np.array([info.min, info.max, 0, 1, -1 if dt.kind == "i" else 2], dtype=dt),
                          size=shape)
        pick = rng.random(shape)
        return np.where(pick < 0.7, small.astype(dt), np.where(pick < 0.9, wide, edge)).astype(dt)
    values = rng.standard_normal(shape) * 3
    special = rng.choice(np.array([0.0, 1.0, -1.0, 0.5, 2.0, np.inf, -np.inf, np.nan]), size=shape)
    return np.where(rng.random(shape) < 0.9, values, special).astype(dt)


# --------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------

_DIM_SIZES = (1, 2, 3, 4, 0, 5)
_REDUCE_DIM_SIZES = (3, 2, 4, 1, 5, 0)


def _derived_shape(draw, universe: Shape, mode: str) -> Shape:
    """A shape that broadcasts with every other shape derived from ``universe``:
    a suffix (numpy, tml) or an axis subset (xla) of it, any dim possibly 1."""
    if mode == "xla":
        axes = [a for a in range(len(universe)) if draw(st.booleans())]
    else:
        rank = draw(st.integers(0, len(universe)))
        axes = list(range(len(universe) - rank, len(universe)))
    return tuple(1 if draw(st.integers(0, 3)) == 0 else universe[a] for a in axes)


class _Builder:
    def __init__(self, mode: str):
        self.mode = mode
        self.values: list[Value] = []
        self.lines: list[str] = []
        self.ops: list[str] = []
        self.count = 0
        self.terminal: list[tuple[Value, np.ndarray]] = []
        self.reduced: set[str] = set()  # names of the (exact) reduce results  # results only (reassociable float reductions)

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count - 1}"

    def add(self, value: Value, line: str, op: str) -> None:
        assert value.data.shape == flat(value.levels), (value, line)
        assert value.data.dtype == DTYPES[value.dtype], (value.data.dtype, value.dtype, line)
        self.values.append(value)
        self.lines.append("  " + line)
        self.ops.append(op)

    def kinds(self, op: str) -> frozenset[str]:
        if self.mode == "tml" and op in TML_KINDS:
            return TML_KINDS[op]
        return KINDS[op]

    def promote(self, types: Sequence[str]) -> str | None:
        if self.mode == "xla":
            return types[0] if len(set(types)) == 1 else None
        if len({kind(t) for t in types}) != 1:
            return None
        return NAMES[np.result_type(*[DTYPES[t] for t in types])]

    # ---- candidates -------------------------------------------------------

    def binary_candidates(self, op: str):
        """(lhs, rhs, broadcast_dimensions or None, result levels) that are valid."""
        out = []
        allowed = self.kinds(op)
        for a, b in itertools.product(self.values, repeat=2):
            if kind(a.dtype) not in allowed or kind(b.dtype) not in allowed:
                continue
            if self.promote((a.dtype, b.dtype)) is None:
                continue
            strict = self.mode == "tml" and (op == "compare" or op in SHIFTS or (
                op in BITWISE))
            if strict:
                if a.scalar or b.scalar or a.levels == b.levels:
                    out.append((a, b, None, b.levels if a.scalar else a.levels))
                continue
            if a.nested or b.nested:
                result = _broadcast_levels((a.levels, b.levels))
                if result is not None:
                    out.append((a, b, None, result))
                continue
            sa, sb = a.levels[0], b.levels[0]
            if self.mode != "xla" or len(sa) == len(sb) or not sa or not sb:
                result = _broadcast_levels((a.levels, b.levels))
                if result is not None:
                    out.append((a, b, None, result))
            if self.mode == "tml":
                continue
            if len(sa) == len(sb):
                if self.mode == "xla" and sa and result is not None:
                    out.append((a, b, tuple(range(len(sa))), result))
                continue
            # explicit broadcast_dimensions (required under xla when ranks differ):
            # any valid strictly increasing tuple, not only the trailing one
            low, high = (sa, sb) if len(sa) < len(sb) else (sb, sa)
            for dims in itertools.combinations(range(len(high)), len(low)):
                if not all(low[i] in (1, high[d]) or high[d] == 1 for i, d in enumerate(dims)):
                    continue
                expanded = [1] * len(high)
                for i, d in enumerate(dims):
                    expanded[d] = low[i]
                result = tuple(np.broadcast_shapes(tuple(expanded), high))
                out.append((a, b, dims, (result,)))
        return out

    def select_candidates(self):
        out = []
        preds = [v for v in self.values if v.dtype == "i1"]
        for p, t, f in itertools.product(preds, self.values, self.values):
            dtype = self.promote((t.dtype, f.dtype))
            if dtype is None:
                continue
            if self.mode == "xla":
                ranks = {len(v.levels[0]) for v in (p, t, f) if v.levels[0]}
                if len(ranks) > 1:
                    continue
            result = _broadcast_levels((p.levels, t.levels, f.levels))
            if result is not None:
                out.append((p, t, f, result, dtype))
        return out


def _emit_binary(b: _Builder, op: str, lhs: Value, rhs: Value, dims, result: Levels,
                 direction: str | None) -> None:
    dtype = b.promote((lhs.dtype, rhs.dtype))
    assert dtype is not None
    x, y = (oracle_convert(v.data, DTYPES[dtype]) for v in (lhs, rhs))
    if dims is not None:
        low_is_lhs = len(lhs.levels[0]) < len(rhs.levels[0])
        rank = len(result[0])
        if low_is_lhs:
            x = _in_dim(x, rank, dims)
        else:
            y = _in_dim(y, rank, dims)
        xl, yl = (x.shape,), (y.shape,)
    else:
        xl, yl = lhs.levels, rhs.levels
    x = _expand_flat(x, xl, result)
    y = _expand_flat(y, yl, result)
    if op == "compare":
        data, out_type = oracle_compare(direction, x, y), "i1"
        head = f"bcast.compare {direction}, {lhs.name}, {rhs.name}"
    else:
        data, out_type = oracle_binary(op, x, y), dtype
        head = f"bcast.{op} {lhs.name}, {rhs.name}"
    if dims is not None:
        head += f" broadcast_dimensions = [{', '.join(map(str, dims))}]"
    value = Value(b.fresh(), result, out_type, _materialize(data))
    b.add(value, f"{value.name} = {head} : ({lhs.type}, {rhs.type}) -> {value.type}", op)


def _literal(x, dtype: str) -> str:
    if dtype == "i1":
        return "true" if x else "false"
    if is_float_dtype(DTYPES[dtype]):
        return repr(float(x))
    return str(int(x))


@st.composite
def programs(
    draw,
    mode: str | None = None,
    max_ops: int = 6,
    min_ops: int = 1,
    ops: Sequence[str] | None = None,
    dtypes: Sequence[str] | None = None,
    max_rank: int = 4,
    max_inputs: int = 4,
    nested: bool = True,
    reductions: bool = False,
) -> Program:
    """A strategy of valid programs with inputs and oracle results.

    ``mode``: ``"numpy"``, ``"xla"``, ``"tml"`` or None (any). ``ops``: the op
    names allowed (default all, see ``ALL_OPS``). ``dtypes``: the element types
    inputs may have (default f32, f64, i32, i8, ui8, i1). ``nested``: whether
    tml programs may use nested tensor types. ``reductions``: also emit
    ``bcast.reduce`` (see ``_emit_reduce``; float inputs are then rounded to
    multiples of 1/8 so that many float sums are exact in every order); off
    by default, so existing callers draw the same programs as before."""
    mode = mode if mode is not None else draw(st.sampled_from(MODES))
    assert mode in MODES, mode
    allowed_ops = tuple(ops) if ops is not None else ALL_OPS
    dtypes = tuple(dtypes or DEFAULT_DTYPES)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b = _Builder(mode)

    # the universe of shapes (one per nesting level under tml); with
    # reductions, sizes > 1 come first (Hypothesis favours early choices)
    sizes = _REDUCE_DIM_SIZES if reductions else _DIM_SIZES
    if mode == "tml" and nested and draw(st.booleans()):
        universe: Levels = (
            tuple(draw(st.sampled_from(sizes)) for _ in range(draw(st.integers(0, min(2, max_rank))))),
            tuple(draw(st.sampled_from(sizes)) for _ in range(draw(st.integers(1, 2)))),
        )
    else:
        rank = draw(st.integers(0, max_rank))
        if reductions and rank == 0 and max_rank and draw(st.integers(0, 3)):
            rank = draw(st.integers(1, max_rank))  # mostly something to reduce
        universe = (tuple(draw(st.sampled_from(sizes)) for _ in range(rank)),)

    # element types: a main kind, other types mostly of the same kind
    main = draw(st.sampled_from(dtypes))
    same_kind = [t for t in dtypes if kind(t) == kind(main)]
    if mode == "xla":
        same_kind = [main]

    def draw_levels() -> Levels:
        if len(universe) == 1:
            return (_derived_shape(draw, universe[0], mode),)
        depth = draw(st.integers(1, 2))
        return tuple(_derived_shape(draw, universe[k], mode) for k in range(depth))

    n_inputs = draw(st.integers(1, max_inputs))
    for i in range(n_inputs):
        if i == 0 or draw(st.integers(0, 3)):
            dtype = draw(st.sampled_from(same_kind))
        else:
            dtype = draw(st.sampled_from(dtypes))
        levels = draw_levels()
        data = random_array(rng, flat(levels), dtype)
        if reductions and draw(st.integers(0, 3)):
            data = _dyadic(data, finite=bool(draw(st.integers(0, 2))))
        b.values.append(Value(f"%a{i}", levels, dtype, data))
    if "select" in allowed_ops and "i1" in dtypes and not any(v.dtype == "i1" for v in b.values) \
            and draw(st.booleans()):
        levels = draw_levels()
        b.values.append(Value(f"%a{len(b.values)}", levels, "i1", random_array(rng, flat(levels), "i1")))
    inputs = list(b.values)

    groups = [g for g in (
        tuple(o for o in BINARY if o in allowed_ops),
        tuple(o for o in ("compare",) if o in allowed_ops),
        tuple(o for o in ("select",) if o in allowed_ops),
        tuple(o for o in UNARY if o in allowed_ops),
        tuple(o for o in STRUCTURAL if o in allowed_ops),
    ) if g]  # fmt: skip
    if reductions:
        groups += [("reduce",)] * 3
    n_ops = draw(st.integers(min_ops, max_ops))
    for _ in range(n_ops):
        for _attempt in range(3):
            op = draw(st.sampled_from(draw(st.sampled_from(groups))))
            if op == "reduce":
                if _emit_reduce(draw, b, allowed_ops):
                    break
                continue
            if _emit(draw, b, op, universe, dtypes, rng):
                break
        else:
            if "convert" in allowed_ops:
                _emit(draw, b, "convert", universe, dtypes, rng)

    # results: the last value, sometimes one more
    produced = b.values[len(inputs):] or b.values
    results = [produced[-1]]
    if len(produced) > 1 and draw(st.booleans()):
        other = draw(st.sampled_from(produced[:-1]))
        results.insert(0, other)
    if reductions:  # a reduced value among the results, so the oracle's reductions are checked
        reduced = [v for v in produced if v.name in b.reduced and v not in results]
        if reduced and draw(st.integers(0, 3)):
            results.insert(0, reduced[-1])
    bounds: list = [None] * len(results)
    for value, bound in b.terminal[:2]:
        results.append(value)
        bounds.append(bound)
    if len(b.terminal) > 2:  # the other reassociable reductions are not returned: drop their lines
        dropped = {v.name for v, _ in b.terminal[2:]}
        b.lines = [line for line in b.lines if line.split(" = ", 1)[0].strip() not in dropped]
    args = ", ".join(f"{v.name}: {v.type}" for v in inputs)
    rtypes = [v.type for v in results]
    rtype_text = rtypes[0] if len(rtypes) == 1 else "(" + ", ".join(rtypes) + ")"
    body = "\n".join(b.lines)
    ret = f"  func.return {', '.join(v.name for v in results)} : {', '.join(rtypes)}"
    func = f"func.func @main({args}) -> {rtype_text} {{\n{body}\n{ret}\n}}"
    if mode == "numpy" and draw(st.booleans()):
        text = func + "\n"
    else:
        text = f'module attributes {{bcast.semantics = "{mode}"}} {{\n{func}\n}}\n'
    return Program(
        text=text,
        inputs=tuple(v.data.copy() for v in inputs),
        expected=tuple(v.data.copy() for v in results),
        mode=mode,
        ops=tuple(b.ops),
        result_types=tuple(rtypes),
        arg_types=tuple(v.type for v in inputs),
        bounds=tuple(bounds) if any(x is not None for x in bounds) else (),
    )


def _emit(draw, b: _Builder, op: str, universe: Levels, dtypes, rng) -> bool:
    """Append one ``op`` to the program; False if no operands fit it."""
    mode = b.mode
    if op in BINARY or op == "compare":
        candidates = b.binary_candidates(op)
        if not candidates:
            return False
        lhs, rhs, dims, result = draw(st.sampled_from(candidates))
        direction = draw(st.sampled_from(DIRECTIONS)) if op == "compare" else None
        _emit_binary(b, op, lhs, rhs, dims, result, direction)
        return True
    if op == "select":
        candidates = b.select_candidates()
        if not candidates:
            return False
        p, t, f, result, dtype = draw(st.sampled_from(candidates))
        data = np.where(
            _expand_flat(p.data, p.levels, result),
            _expand_flat(oracle_convert(t.data, DTYPES[dtype]), t.levels, result),
            _expand_flat(oracle_convert(f.data, DTYPES[dtype]), f.levels, result),
        )
        value = Value(b.fresh(), result, dtype, _materialize(data))
        b.add(value, f"{value.name} = bcast.select {p.name}, {t.name}, {f.name} : "
                     f"({p.type}, {t.type}, {f.type}) -> {value.type}", op)
        return True
    if op in UNARY:
        candidates = [v for v in b.values if kind(v.dtype) in b.kinds(op)]
        if not candidates:
            return False
        x = draw(st.sampled_from(candidates))
        value = Value(b.fresh(), x.levels, x.dtype, oracle_unary(op, x.data))
        b.add(value, f"{value.name} = bcast.{op} {x.name} : {x.type}", op)
        return True
    if op == "convert":
        x = draw(st.sampled_from(b.values))
        dtype = draw(st.sampled_from(dtypes))
        value = Value(b.fresh(), x.levels, dtype, oracle_convert(x.data, DTYPES[dtype]))
        b.add(value, f"{value.name} = bcast.convert {x.name} : ({x.type}) -> {value.type}", op)
        return True
    if op == "constant":
        levels = (_derived_shape(draw, universe[0], mode),)
        dtype = draw(st.sampled_from(dtypes))
        shape = levels[0]
        if len(shape) == 1 and shape[0] > 0 and draw(st.booleans()):
            data = random_array(rng, shape, dtype)
            data = np.where(np.isfinite(data), data, 1) if is_float_dtype(data.dtype) else data
            if is_float_dtype(data.dtype):
                data = np.round(data * 4) / 4  # exactly printable
            data = data.astype(DTYPES[dtype])
            literal = "[" + ", ".join(_literal(x, dtype) for x in data.tolist()) + "]"
        else:
            x = draw(st.sampled_from([0, 1, 2, -1, 0.5, -2.5] if kind(dtype) == "float" else
                                     [0, 1, 2, 7] if kind(dtype) in ("signed", "unsigned") else
                                     [True, False]))
            data = np.full(shape, x, dtype=DTYPES[dtype])
            literal = _literal(x, dtype)
        value = Value(b.fresh(), levels, dtype, data)
        b.add(value, f"{value.name} = bcast.constant dense<{literal}> : {value.type}", op)
        return True
    if op == "narrow":
        if mode != "tml":
            return False
        x = draw(st.sampled_from(b.values))
        top = tuple(d for d in x.levels[0] if d != 1)
        levels = x.levels[1:] if not top and x.nested else (top,) + x.levels[1:]
        value = Value(b.fresh(), levels, x.dtype, x.data.reshape(flat(levels)))
        b.add(value, f"{value.name} = bcast.narrow {x.name} : ({x.type}) -> {value.type}", op)
        return True
    flat_values = [v for v in b.values if not v.nested]
    if not flat_values:
        return False
    if op == "transpose":
        x = draw(st.sampled_from(flat_values))
        shape = x.levels[0]
        perm = tuple(draw(st.permutations(range(len(shape)))))
        new = tuple(shape[p] for p in perm)
        value = Value(b.fresh(), (new,), x.dtype, _materialize(np.transpose(x.data, perm)))
        b.add(value, f"{value.name} = bcast.transpose {x.name}, dims = [{', '.join(map(str, perm))}] : "
                     f"({x.type}) -> {value.type}", op)
        return True
    if op == "reshape":
        x = draw(st.sampled_from(flat_values))
        shape = x.levels[0]
        choice = draw(st.integers(0, 2))
        if choice == 0:
            new = (int(np.prod(shape, dtype=np.int64)),)
        elif choice == 1:
            new = tuple(d for d in shape if d != 1)
        else:
            pos = draw(st.integers(0, len(shape)))
            new = shape[:pos] + (1,) + shape[pos:]
        if len(new) > 4:
            new = (int(np.prod(shape, dtype=np.int64)),)
        value = Value(b.fresh(), (new,), x.dtype, x.data.reshape(new))
        b.add(value, f"{value.name} = bcast.reshape {x.name} : ({x.type}) -> {value.type}", op)
        return True
    if op == "broadcast_in_dim":
        x = draw(st.sampled_from(flat_values))
        shape = x.levels[0]
        target = _derived_shape(draw, universe[0], mode if mode == "xla" else "numpy")
        if draw(st.booleans()):
            target = universe[0] if len(universe) == 1 else target
        if len(target) < len(shape):
            return False
        chooser = itertools.combinations if mode == "xla" else itertools.permutations
        options = [dims for dims in chooser(range(len(target)), len(shape))
                   if all(shape[i] in (1, target[d]) for i, d in enumerate(dims))]
        if not options:
            return False
        dims = draw(st.sampled_from(options))
        order = sorted(range(len(dims)), key=lambda i: dims[i])
        placed = _in_dim(np.transpose(x.data, order), len(target), sorted(dims))
        data = _materialize(np.broadcast_to(placed, target))
        value = Value(b.fresh(), (target,), x.dtype, data)
        b.add(value, f"{value.name} = bcast.broadcast_in_dim {x.name}, dims = "
                     f"[{', '.join(map(str, dims))}] : ({x.type}) -> {value.type}", op)
        return True
    raise ValueError(f"unknown op {op}")


# --------------------------------------------------------------------------
# Reductions (issue 9): an independent oracle written from docs/semantics.md
# 4, and the generator's ``bcast.reduce``
# --------------------------------------------------------------------------

REDUCE_KINDS = ("add", "multiply", "maximum", "minimum", "and", "or", "xor")


def reduce_kinds(dtype: str, mode: str) -> tuple[str, ...]:
    """The kinds valid on ``dtype``: the element kinds of the binary op each
    kind folds with (``and or xor`` on i1 and integers, under tml on i1 and
    unsigned integers only; the others on numbers)."""
    k = kind(dtype)
    if k == "bool":
        return ("and", "or", "xor")
    if k == "float" or (k == "signed" and mode == "tml"):
        return ("add", "multiply", "maximum", "minimum")
    return REDUCE_KINDS


def _accumulator(dtype: np.dtype) -> np.dtype:
    """docs/semantics.md: ``f16`` accumulates in ``f32`` and rounds once at the end."""
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _groups(x: np.ndarray, dims: Sequence[int]) -> tuple[np.ndarray, Shape]:
    """``x`` as rows of the elements each output element reduces: shape
    (kept dims..., count), and the kept shape."""
    dims = sorted(set(dims))
    kept = [d for d in range(x.ndim) if d not in dims]
    count = 1
    for d in dims:
        count *= x.shape[d]
    kept_shape = tuple(x.shape[d] for d in kept)
    return np.transpose(x, kept + dims).reshape(kept_shape + (count,)), kept_shape


def _fraction(v: float):
    from fractions import Fraction

    return Fraction(v)


def _combine_float(op: str, values: list[float]) -> float:
    """One output element of a float reduction, exactly, as a Python float
    (correctly rounded to f64; the caller rounds to the accumulator, then to
    the element type)."""
    import math

    nan = any(math.isnan(v) for v in values)
    if op in ("maximum", "minimum"):
        if nan:
            return math.nan  # NaN propagates
        if not values:
            return -math.inf if op == "maximum" else math.inf  # the identity
        return max(values) if op == "maximum" else min(values)
    if op == "add":
        pos, neg = math.inf in values, -math.inf in values
        if nan or (pos and neg):
            return math.nan
        if pos or neg:
            return math.inf if pos else -math.inf
        total = math.fsum(values)
        return total if total != 0 else 0.0  # starts from +0: the sum of -0s is +0
    # multiply
    zero = any(v == 0 for v in values)
    inf = any(math.isinf(v) for v in values)
    if nan or (zero and inf):
        return math.nan
    negative = sum(math.copysign(1.0, v) < 0 for v in values) % 2 == 1
    if zero:
        magnitude = 0.0
    elif inf:
        magnitude = math.inf
    else:
        product = _fraction(1.0)
        for v in values:
            product *= _fraction(abs(v))
        try:
            magnitude = float(product)
        except OverflowError:
            magnitude = math.inf
    return -magnitude if negative else magnitude


def _combine_int(op: str, values: list[int], dtype: np.dtype):
    if dtype == np.bool_:
        bits = [bool(v) for v in values]
        return {"and": all(bits), "or": any(bits), "xor": sum(bits) % 2 == 1}[op]
    info = np.iinfo(dtype)
    if op == "maximum":
        return max(values, default=int(info.min))
    if op == "minimum":
        return min(values, default=int(info.max))
    r = {"add": 0, "multiply": 1, "and": -1, "or": 0, "xor": 0}[op]  # identities (-1: all ones)
    for v in values:
        if op == "add":
            r += v
        elif op == "multiply":
            r *= v
        elif op == "and":
            r &= v
        elif op == "or":
            r |= v
        else:
            r ^= v
    return _from_int(r, dtype)  # integer arithmetic wraps


def oracle_reduce(op: str, x: np.ndarray, dims: Sequence[int], keepdims: bool = False) -> np.ndarray:
    """``bcast.reduce op`` from docs/semantics.md, one output element at a
    time in Python numbers: the kind's identity for zero-size dims, integers
    computed exactly then wrapped, floats exactly (``math.fsum``, exact
    products) then rounded to the accumulator (``f32`` for ``f16``) and once
    more to the element type; float maximum/minimum propagate NaN. ``dims``
    in any order; ``keepdims`` keeps them as size 1."""
    x = np.asarray(x)
    dtype = x.dtype
    rows, kept_shape = _groups(x, dims)
    out = np.empty(kept_shape, dtype)
    acc = _accumulator(dtype)
    for index in np.ndindex(kept_shape):
        values = rows[index].tolist()
        if is_float_dtype(dtype):
            with np.errstate(all="ignore"):
                out[index] = np.array(_combine_float(op, values), np.float64).astype(acc).astype(dtype)
        else:
            out[index] = _combine_int(op, [int(v) for v in values], dtype)
    if keepdims:
        out = out.reshape(tuple(1 if d in set(dims) else n for d, n in enumerate(x.shape)))
    return out


def _quantum(v: float):
    """The value of the lowest set bit of the finite float ``v`` (a Fraction)."""
    f = _fraction(v)
    num = abs(f.numerator)
    return _fraction((num & -num)) / f.denominator


def _float_reduction_is_exact(op: str, x: np.ndarray, dims: Sequence[int]) -> bool:
    """Whether every order of folding gives the same bits: then the oracle,
    the reference and every backend (reassociating or not) must agree
    exactly. Sums: no -0, finite values all multiples of their smallest
    quantum q with sum(|v|) < 2**p * q (p the accumulator's precision), so
    every partial sum is exact; inf/NaN propagate alike in any order.
    Products: the odd parts of the mantissas multiply to < 2**p and no partial
    product leaves the normal range. maximum/minimum: no group mixes +0 and -0."""
    import math

    acc = _accumulator(x.dtype)
    info = finfo(acc)
    p = info.nmant + 1
    rows, kept_shape = _groups(x, dims)
    for index in np.ndindex(kept_shape):
        values = [float(v) for v in rows[index].tolist()]
        finite = [v for v in values if math.isfinite(v)]
        if op in ("maximum", "minimum"):
            zeros = {math.copysign(1.0, v) for v in values if v == 0}
            if len(zeros) > 1:
                return False
            continue
        if op == "add":
            if any(v == 0 and math.copysign(1.0, v) < 0 for v in values):
                return False
            nonzero = [v for v in finite if v != 0]
            if not nonzero:
                continue
            q = min(_quantum(v) for v in nonzero)
            total = sum(_fraction(abs(v)) for v in nonzero)
            if total >= q * 2**p or total >= float(info.max) / 4:
                return False
            continue
        if not _product_in_range(finite, info, len(values)):
            return False
        mantissa = 1
        for v in finite:
            if v != 0:
                num = abs(_fraction(v).numerator)
                mantissa *= num // (num & -num)
        if mantissa >= 2**p:
            return False
    return True


def _product_in_range(finite: list[float], info, n: int) -> bool:
    """No partial product of the nonzero finite values overflows or leaves
    the normal range (so every order rounds alike up to the error bound)."""
    import math

    logs = [math.log2(abs(v)) for v in finite if v != 0]
    high = sum(v for v in logs if v > 0)
    low = sum(v for v in logs if v < 0)
    return high < math.log2(float(info.max)) - 2 and low > math.log2(float(info.tiny)) + n + 2


def reduction_error_bound(op: str, x: np.ndarray, dims: Sequence[int], keepdims: bool) -> np.ndarray | None:
    """THE tolerance for a float ``add``/``multiply`` reduction that a backend
    may reassociate (docs/semantics.md, Reductions: "within a tolerance that grows with
    the reduced size"), as an absolute bound per output element, or None when
    no order-independent bound exists (a partial sum or product may
    overflow). Any summation order of n terms in precision eps errs by at
    most (n-1) eps sum(|v|) (the textbook bound for recursive summation, which
    covers pairwise and blocked orders too); a product of n factors by
    (n-1) eps |product|. We allow twice that, plus two ulps of the element
    type for the final rounding (f16 rounds once from its f32 accumulator)
    and the smallest subnormal."""
    import math

    dtype = x.dtype
    acc = _accumulator(dtype)
    eps, info = float(finfo(acc).eps), finfo(acc)
    eps_out = float(finfo(dtype).eps)
    rows, kept_shape = _groups(x, dims)
    n = rows.shape[-1]
    bound = np.empty(kept_shape, np.float64)
    for index in np.ndindex(kept_shape):
        values = [float(v) for v in rows[index].tolist()]
        finite = [v for v in values if math.isfinite(v)]
        if op == "add":
            scale = math.fsum(abs(v) for v in finite)
            if scale >= float(info.max) / 4:
                return None
        else:
            if not _product_in_range(finite, info, n):
                return None
            scale = abs(_combine_float("multiply", finite)) if finite else 0.0
        want = abs(float(np.float64(_combine_float(op, values)).astype(acc)))
        want = want if math.isfinite(want) else 0.0
        bound[index] = 2 * n * eps * scale + 2 * eps_out * want + float(finfo(dtype).smallest_subnormal)
    if keepdims:
        bound = bound.reshape(tuple(1 if d in set(dims) else s for d, s in enumerate(x.shape)))
    return bound


def _assert_within_bound(got: np.ndarray, want: np.ndarray, bound: np.ndarray, msg: str) -> None:
    g, w = got.astype(np.float64), want.astype(np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    with np.errstate(all="ignore"):
        close = np.isfinite(g) & np.isfinite(w) & (np.abs(g - w) <= bound)
    bad = ~(same | close)
    assert not bad.any(), (f"{msg}: {int(bad.sum())} element(s) outside the reduction bound\n"
                           f"got {got[bad].tolist()}\nwant {want[bad].tolist()}\nbound {bound[bad].tolist()}")


def reduction_tolerance(dtype: np.dtype, n: int) -> tuple[float, float]:
    """(rtol, atol) for whole formulas around reductions of ``n`` elements
    (softmax, layernorm, logsumexp): the elementwise tolerance grown linearly
    with the reduced size, for the same reason as :func:`reduction_error_bound`."""
    rtol, atol = _tolerance(np.dtype(dtype))
    return rtol * max(1, n), atol * max(1, n)


def _dyadic(data: np.ndarray, finite: bool) -> np.ndarray:
    """Float inputs rounded to multiples of 1/8, so sums and products of them
    are often exact in every order; inf and NaN kept unless ``finite`` (then
    they become 1.5: a sum over a large group would nearly always meet one)."""
    if not is_float_dtype(data.dtype):
        return data
    with np.errstate(all="ignore"):
        rounded = np.round(data.astype(np.float64) * 8) / 8
    return np.where(np.isfinite(data), rounded, 1.5 if finite else data).astype(data.dtype)


_FOLLOW_UPS = ("subtract", "add", "multiply", "divide", "maximum", "minimum", "compare")


def _emit_reduce(draw, b: _Builder, allowed_ops: Sequence[str]) -> bool:
    """A ``bcast.reduce`` of a random value (kind valid for its type, random
    dims subset in random order, random keepdims); nested values reduce their
    outer level. Often followed by a broadcasting op combining the operand
    with the reduced value (``x - max(x)``). A float sum or product whose
    bits depend on the folding order is returned as a result only, compared
    within :func:`reduction_error_bound`."""
    big = [v for v in b.values if any(d > 1 for d in v.levels[0])]  # something to fold
    x = draw(st.sampled_from(big if big and draw(st.integers(0, 3)) else b.values))
    op = draw(st.sampled_from(reduce_kinds(x.dtype, b.mode)))
    outer = x.levels[0]
    dims = list(draw(st.permutations(range(len(outer)))))[: draw(st.integers(min(1, len(outer)), len(outer)))]
    wide = [i for i, d in enumerate(outer) if d > 1 and i not in dims]
    if wide and all(outer[i] <= 1 for i in dims) and draw(st.integers(0, 3)):
        dims.append(draw(st.sampled_from(wide)))
    if outer and not draw(st.integers(0, 7)):
        dims = []  # sometimes no dims at all
    keepdims = draw(st.booleans())
    exact = not is_float_dtype(x.data.dtype) or _float_reduction_is_exact(op, x.data, dims)
    bound = None
    if not exact:
        if op not in ("add", "multiply"):
            return False
        bound = reduction_error_bound(op, x.data, dims, keepdims)
        if bound is None:
            return False
    data = oracle_reduce(op, x.data, dims, keepdims)
    if keepdims:
        new = tuple(1 if i in dims else d for i, d in enumerate(outer))
    else:
        new = tuple(d for i, d in enumerate(outer) if i not in dims)
    value = Value(b.fresh(), (new,) + x.levels[1:], x.dtype, data)
    line = (f"{value.name} = bcast.reduce {op} {x.name}, dims = [{', '.join(map(str, dims))}]"
            f"{' keepdims' if keepdims else ''} : ({x.type}) -> {value.type}")
    if not exact:
        assert value.data.shape == flat(value.levels)
        b.lines.append("  " + line)
        b.ops.append("reduce")
        b.terminal.append((value, bound))
        return True
    b.add(value, line, "reduce")
    b.reduced.add(value.name)
    follow = [o for o in _FOLLOW_UPS if o in allowed_ops and kind(x.dtype) in b.kinds(o)]
    if follow and draw(st.integers(0, 2)):
        fop = draw(st.sampled_from(follow))
        pairs = [c for c in b.binary_candidates(fop)
                 if {c[0].name, c[1].name} == {x.name, value.name} and c[0] is not c[1]]
        if pairs:
            lhs, rhs, bdims, result = draw(st.sampled_from(pairs))
            direction = draw(st.sampled_from(DIRECTIONS)) if fop == "compare" else None
            _emit_binary(b, fop, lhs, rhs, bdims, result, direction)
    return True
