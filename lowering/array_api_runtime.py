"""What code generated for the Array API target calls: bcast's exact
semantics (docs/semantics.md) with standard functions only.

Every function takes the array namespace ``xp`` of its arguments (from
``array_api_compat.array_namespace``), so the same generated module runs on
NumPy, ``array_api_strict``, dask (lazily: no function here looks at
values, every branch is a ``where`` and every loop has a static trip count),
JAX (under ``jit``) and CuPy.

Elementwise ops are not written here: each is its definition in
``bcast.ir.scalar`` run on ``ArrayApiScalars`` (the primitives in standard
functions), as ``bcast.ir.numerics`` runs it on NumPy arrays. Generated code
calls ``xp.<function>`` where a definition is one standard function on the
element type (``standard_function``, ``standard_comparison``) and
``ar.<definition>`` (``ar.divide``), ``ar.compare`` or ``ar.convert``
otherwise. Constants enter through ``xp.asarray(value, dtype=...)`` so no
operation mixes dtypes (the standard's promotion rules never apply).

The rest is what is no op's scalar semantics: arguments and results,
broadcasts, reshapes, ``assign``, and reductions, which start from the
kind's identity (a zero-size reduction is a constant), sum and multiply in
the element type (integers wrap), accumulate ``f16`` in ``f32``, and reduce
integer ``and``/``or``/``xor`` bit by bit (the standard has no bitwise
reductions).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np

from bcast.ir import numerics, rules, scalar, special
from bcast.ir import ops as bc
from bcast.ir.types import NUMPY_DTYPES
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
    unknown = next((d for d, n in enumerate(shape) if not isinstance(n, int | np.integer)), None)
    if unknown is not None:  # dask's nan after a boolean index; a symbolic size of jax.export
        raise rt.ArgumentError(f"{spec.name}: the size of dimension {unknown} is not known ({shape[unknown]}); "
                               "bcast needs every size (dask: compute_chunk_sizes() first)")
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


def isdtype(xp, dtype, kind: str) -> bool:
    """``xp.isdtype``, and bfloat16 (JAX's; ml_dtypes' in NumPy, whose
    ``isdtype`` refuses it) a real floating dtype."""
    if getattr(dtype, "name", str(dtype)) == "bfloat16":
        return kind in ("real floating", "numeric")
    return xp.isdtype(dtype, kind)


def _c(xp, value, like):
    """``value`` as a rank-0 array of ``like``'s dtype."""
    return xp.asarray(value, dtype=like.dtype)


def _info(xp, x):
    return xp.iinfo(x.dtype)


def _is_signed(xp, x) -> bool:
    return isdtype(xp, x.dtype, "signed integer")


def _is_bool(xp, x) -> bool:
    return isdtype(xp, x.dtype, "bool")


# --------------------------------------------------------------------------
# Elementwise: bcast.ir.scalar's definitions on standard functions
# --------------------------------------------------------------------------

_ELEMENTS = {np.dtype(numpy_dtype).name: element for element, numpy_dtype in NUMPY_DTYPES.items()}
"""The element type of each NumPy dtype name (``"uint8"`` -> ``"ui8"``)."""


def _dtype_name(element: str) -> str:
    return np.dtype(NUMPY_DTYPES[element]).name


def _kind(xp, dtype) -> str:
    """``rules.kind`` of a namespace's dtype."""
    for kind, standard in (("bool", "bool"), ("signed", "signed integer"), ("unsigned", "unsigned integer"),
                           ("float", "real floating"), ("complex", "complex floating")):  # fmt: skip
        if isdtype(xp, dtype, standard):
            return kind
    raise TypeError(f"{dtype} is no element type of bcast")


def element_of(xp, x) -> str:
    """The bcast element type of an array (``i1``, ``ui8``, ``f16``...);
    ``bfloat16`` (JAX's, ml_dtypes' in NumPy) is no standard dtype: known by name."""
    if getattr(x.dtype, "name", str(x.dtype)) == "bfloat16":
        return "bf16"
    kind = _kind(xp, x.dtype)
    if kind == "bool":
        return "i1"
    if kind == "complex":
        return "complex<f64>" if xp.finfo(x.dtype).bits == 64 else "complex<f32>"  # finfo: its parts'
    bits = xp.finfo(x.dtype).bits if kind == "float" else xp.iinfo(x.dtype).bits
    return {"signed": "i", "unsigned": "ui", "float": "f"}[kind] + str(bits)


STANDARD_FUNCTIONS = {
    "arith.addf": "add", "arith.addi": "add", "arith.subf": "subtract", "arith.subi": "subtract",
    "arith.mulf": "multiply", "arith.muli": "multiply", "arith.divf": "divide", "arith.negf": "negative",
    "arith.maximumf": "maximum", "arith.minimumf": "minimum", "arith.maxsi": "maximum",
    "arith.maxui": "maximum", "arith.minsi": "minimum", "arith.minui": "minimum",
    "arith.divui": "floor_divide", "arith.remui": "remainder", "arith.shli": "bitwise_left_shift",
    "arith.shrsi": "bitwise_right_shift", "arith.shrui": "bitwise_right_shift",
    "arith.andi": "bitwise_and", "arith.ori": "bitwise_or", "arith.xori": "bitwise_xor",
    "math.absf": "abs", "math.exp": "exp", "math.log": "log", "math.sqrt": "sqrt", "math.tanh": "tanh",
    "math.floor": "floor", "math.ceil": "ceil", "math.atan2": "atan2", "math.sin": "sin", "math.cos": "cos",
    "math.tan": "tan", "math.expm1": "expm1", "math.log1p": "log1p", "math.roundeven": "round",
    "math.sinh": "sinh", "math.cosh": "cosh", "math.asin": "asin", "math.acos": "acos", "math.atan": "atan",
    "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh",
    "complex.add": "add", "complex.sub": "subtract", "complex.mul": "multiply", "complex.div": "divide",
    "complex.neg": "negative", "complex.exp": "exp", "complex.expm1": "expm1", "complex.log": "log",
    "complex.sqrt": "sqrt", "complex.sin": "sin", "complex.cos": "cos", "complex.tan": "tan",
    "complex.tanh": "tanh", "complex.abs": "abs", "complex.pow": "pow", "complex.eq": "equal",
    "complex.neq": "not_equal", "complex.re": "real", "complex.im": "imag",
}  # fmt: skip
"""The primitives that are one standard function on arrays whose dtype has
the primitive's signedness (``_READS``; the bitwise functions take booleans
too). ``divui``/``remui`` are ``floor_divide``/``remainder`` only where
``arith`` defines them (a divisor that is not 0), as the definitions use them."""

_COMPOSED = {"math.round": "_round", "math.cbrt": "_cbrt", "math.ctpop": "_ctpop",
             "complex.create": "_create", "complex.log1p": "_complex_log1p"}
"""Primitives the standard has no function for, composed of its functions
(and ``erf``/``erfc``, composed of the other primitives: ``bcast.ir.special``)."""

_READS = {
    "arith.maxsi": "signed", "arith.minsi": "signed", "arith.divsi": "signed", "arith.remsi": "signed",
    "arith.shrsi": "signed", "arith.maxui": "unsigned", "arith.minui": "unsigned",
    "arith.divui": "unsigned", "arith.remui": "unsigned", "arith.shrui": "unsigned",
}  # fmt: skip
"""The signless primitives that read their operands' bits as signed or
unsigned integers, whatever the dtype says."""

COMPARISONS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
               "ge": "greater_equal"}  # fmt: skip


def _is_standard_comparison(predicate: str, kind: str) -> bool:
    """Whether ``cmpi``/``cmpf`` ``predicate`` is the standard comparison of
    its order on arrays of ``kind`` (``COMPARISONS[predicate[-2:]]``): equality
    always; an integer order of the dtype's own signedness; an ordered float
    comparison (false on NaN) or ``une``. The standard orders numbers only,
    so booleans never."""
    if kind == "float":
        return predicate in ("une", "oeq", "olt", "ole", "ogt", "oge")
    if predicate in ("eq", "ne"):
        return True
    return kind != "bool" and predicate[0] == kind[0]


def bitcast(xp, x, dtype_name: str):
    """An array's bits as the NumPy dtype ``dtype_name`` of its width. The
    standard has no bitcast, so this is the one primitive taken from each
    library: ``view`` where arrays have it (NumPy, dask, lazily, CuPy), JAX's
    ``bitcast_convert_type`` (it traces under ``jit``), and otherwise
    (array_api_strict) a copy of the bits through DLPack and NumPy."""
    import array_api_compat as compat

    target = dtype(xp, dtype_name)  # a library without the type is the same error as convert's
    if compat.is_jax_namespace(xp):
        import jax

        return jax.lax.bitcast_convert_type(x, target)
    if hasattr(x, "view") and not compat.is_array_api_strict_namespace(xp):
        return x.view(target)
    return xp.asarray(np.ascontiguousarray(np.from_dlpack(x).view(dtype_name)))


class ArrayApiScalars:
    """``bcast.ir.scalar``'s primitives with standard functions only, on the
    arrays of one namespace (any shapes that broadcast together).

    Nothing looks at values (every choice is a ``where``, every loop runs
    its static trip count), so dask stays lazy and JAX traces under ``jit``.
    The standard has no bitcast, so a primitive reading bits with the other
    signedness than the dtype's is computed from the dtype's own functions
    (``_read``, ``as_dtype``); every ``astype`` between integer types is of
    values in the target's range. Integer ``add``/``multiply``/left shifts
    wrap, as in every library this target runs on (the standard leaves
    overflow to the library)."""

    def __init__(self, xp):
        self.xp = xp

    def const(self, value, element):
        kind, dt = rules.kind(element), dtype(self.xp, _dtype_name(element))
        if kind == "float":
            return self.xp.asarray(float(value), dtype=dt)
        if kind == "complex":
            return self.xp.asarray(complex(value), dtype=dt)
        if kind == "bool":
            return self.xp.asarray(bool(value & 1), dtype=dt)
        bits = rules.bit_width(element)
        value %= 1 << bits
        if kind == "signed" and value >> (bits - 1):
            value -= 1 << bits
        return self.xp.asarray(value, dtype=dt)

    def apply(self, name, *xs):
        xp = self.xp
        reads = _READS.get(name)
        if reads is not None and _kind(xp, xs[0].dtype) != reads:
            return self._other_signedness(name, reads, *xs)
        if name == "arith.divsi":
            return self._divsi(*xs)
        if name == "arith.remsi":
            return self._remsi(*xs)
        if name == "arith.remf":
            return self._remf(*xs)
        if name == "math.powf":
            return self._powf(*xs)
        if name in _COMPOSED:
            return getattr(self, _COMPOSED[name])(*xs)
        if name in special.EXPANSIONS:  # erf, erfc: composed of the other primitives
            return special.EXPANSIONS[name](self, element_of(xp, xs[0]), *xs)
        return getattr(xp, STANDARD_FUNCTIONS[name])(*xs)

    def cmpi(self, predicate, x, y):
        xp = self.xp
        kind = _kind(xp, x.dtype)
        if not _is_standard_comparison(predicate, kind):
            want = "signed" if predicate[0] == "s" else "unsigned"
            if kind == "bool":
                x, y = self._read(x, want), self._read(y, want)
            else:  # flipping the top bit maps one signedness's order onto the other's
                top = self.const(1 << (xp.iinfo(x.dtype).bits - 1), element_of(xp, x))
                x, y = xp.bitwise_xor(x, top), xp.bitwise_xor(y, top)
        return getattr(xp, COMPARISONS[predicate[-2:]])(x, y)

    def cmpf(self, predicate, x, y):
        """The standard's comparisons are false on NaN but ``not_equal``."""
        xp = self.xp
        unordered = xp.logical_or(xp.isnan(x), xp.isnan(y))
        if predicate in ("uno", "ord"):
            return unordered if predicate == "uno" else xp.logical_not(unordered)
        compared = getattr(xp, COMPARISONS[predicate[1:]])(x, y)
        if predicate == "one":
            return xp.logical_and(compared, xp.logical_not(unordered))
        if predicate[0] == "u" and predicate != "une":
            return xp.logical_or(compared, unordered)
        return compared

    def select(self, condition, if_true, if_false):
        return self.xp.where(condition, if_true, if_false)

    def cast(self, name, x, element):
        xp = self.xp
        to = dtype(xp, _dtype_name(element))
        if name == "arith.bitcast":
            return bitcast(xp, x, _dtype_name(element))
        if name in ("arith.extf", "arith.truncf"):
            return xp.astype(x, to)
        if name in ("arith.sitofp", "arith.uitofp"):
            return xp.astype(self._read(x, "signed" if name == "arith.sitofp" else "unsigned"), to)
        kind, bits = rules.kind(element), rules.bit_width(element)
        if name in ("arith.fptosi", "arith.fptoui"):  # of a value in the target's range
            reads = "signed" if name == "arith.fptosi" else "unsigned"
            return self.as_dtype(xp.astype(x, self._integer(reads, bits)), to)
        if name == "arith.trunci":  # the low bits, as an unsigned value in range
            low = xp.bitwise_and(x, self.const((1 << bits) - 1, element_of(xp, x)))
            if kind == "bool":
                return xp.not_equal(low, self.const(0, element_of(xp, x)))
            return self.as_dtype(xp.astype(low, self._integer("unsigned", bits)), to)
        reads = "signed" if name == "arith.extsi" else "unsigned"
        return self.as_dtype(xp.astype(self._read(x, reads), self._integer(reads, bits)), to)

    def loop(self, trips, inits, body):
        carried = list(inits)
        for _ in range(trips):
            carried = body(carried)
        return carried

    # -- bits read with the other signedness ------------------------------
    def _integer(self, kind: str, bits: int):
        return dtype(self.xp, f"{'u' if kind == 'unsigned' else ''}int{bits}")

    def _read(self, x, kind: str):
        """``x``'s bits as an integer array of ``kind`` (signed or unsigned)
        and the same width; a boolean is 1 unsigned and -1 signed (``i1``)."""
        xp = self.xp
        if _kind(xp, x.dtype) == "bool":
            one = xp.astype(x, self._integer(kind, 8))
            return one if kind == "unsigned" else xp.negative(one)
        bits = xp.iinfo(x.dtype).bits
        to = self._integer(kind, bits)
        if x.dtype == to:
            return x
        top = 1 << (bits - 1)  # the top bit: a sign or a value; the low bits convert as they are
        low = xp.astype(xp.bitwise_and(x, xp.asarray(top - 1, dtype=x.dtype)), to)
        high = (xp.less(x, xp.asarray(0, dtype=x.dtype)) if kind == "unsigned"
                else xp.greater_equal(x, xp.asarray(top, dtype=x.dtype)))
        return xp.where(high, xp.add(low, xp.asarray(top if kind == "unsigned" else -top, dtype=to)), low)

    def as_dtype(self, x, to):
        """Integer ``x``'s bits (the low bit for a boolean) as dtype ``to`` of
        the same width: ``_read``'s inverse."""
        xp = self.xp
        if x.dtype == to:
            return x
        if _kind(xp, to) == "bool":
            return xp.not_equal(xp.bitwise_and(x, xp.asarray(1, dtype=x.dtype)), xp.asarray(0, dtype=x.dtype))
        return self._read(x, _kind(xp, to))

    def _other_signedness(self, name: str, reads: str, x, y):
        """A primitive reading ``reads`` integers on arrays of the other
        signedness: the two shifts the definitions use so (in loops) with a
        mask, the others on the bits read as ``reads``."""
        xp = self.xp
        if name == "arith.shrui" and _kind(xp, x.dtype) == "signed":
            # the arithmetic shift, its sign fill cleared: ~((MIN >> y) << 1) keeps the low bits - y
            fill = xp.bitwise_right_shift(xp.asarray(xp.iinfo(x.dtype).min, dtype=x.dtype), y)
            keep = xp.bitwise_invert(xp.bitwise_left_shift(fill, xp.asarray(1, dtype=x.dtype)))
            return xp.bitwise_and(xp.bitwise_right_shift(x, y), keep)
        if name == "arith.shrsi" and _kind(xp, x.dtype) == "unsigned":
            # the logical shift, the top y bits set where the top bit is
            bits = xp.iinfo(x.dtype).bits
            fill = xp.bitwise_invert(xp.bitwise_right_shift(xp.asarray((1 << bits) - 1, dtype=x.dtype), y))
            negative = xp.greater_equal(x, xp.asarray(1 << (bits - 1), dtype=x.dtype))
            shifted = xp.bitwise_right_shift(x, y)
            return xp.where(negative, xp.bitwise_or(shifted, fill), shifted)
        return self.as_dtype(self.apply(name, self._read(x, reads), self._read(y, reads)), x.dtype)

    # -- primitives that are no one standard function ----------------------
    def _divsi(self, x, y):
        """Truncating division (``y`` not 0, not ``MIN / -1``): the floor
        quotient, one up where inexact and the signs differ."""
        xp = self.xp
        zero = xp.asarray(0, dtype=x.dtype)
        inexact = xp.not_equal(xp.remainder(x, y), zero)
        signs_differ = xp.not_equal(xp.less(x, zero), xp.less(y, zero))
        up = xp.where(xp.logical_and(inexact, signs_differ), xp.asarray(1, dtype=x.dtype), zero)
        return xp.add(xp.floor_divide(x, y), up)

    def _remsi(self, x, y):
        """The dividend's sign (``y`` not 0): the floor remainder (the
        divisor's sign) less ``y`` where not 0 and the signs differ."""
        xp = self.xp
        zero = xp.asarray(0, dtype=x.dtype)
        floor = xp.remainder(x, y)
        signs_differ = xp.not_equal(xp.less(x, zero), xp.less(y, zero))
        fix = xp.logical_and(xp.not_equal(floor, zero), signs_differ)
        return xp.where(fix, xp.subtract(floor, y), floor)

    def _remf(self, x, y):
        """C's ``fmod``: the standard's (floor) ``remainder`` of the
        magnitudes, exact, with the dividend's sign."""
        xp = self.xp
        return xp.copysign(xp.remainder(xp.abs(x), xp.abs(y)), x)

    def _round(self, x):
        """C's ``round`` (halfway cases away from zero): ``x - trunc(x)`` is
        exact, so the halfway test is."""
        xp = self.xp
        whole = xp.trunc(x)
        half = xp.greater_equal(xp.abs(x - whole), xp.asarray(0.5, dtype=x.dtype))
        return xp.where(half, whole + xp.copysign(xp.ones_like(x), x), whole)

    def _cbrt(self, x):
        """The library's ``cbrt`` where it has one (the standard does not):
        else ``|x| ** (1/3)`` and one Newton step, with the sign put back;
        zeros, infinities and NaN are their own cube roots."""
        xp = self.xp
        if hasattr(xp, "cbrt"):
            return xp.cbrt(x)
        a = xp.abs(x)
        y = xp.pow(a, xp.asarray(1 / 3, dtype=x.dtype))
        y = y - (y - a / (y * y)) / xp.asarray(3, dtype=x.dtype)  # (never overflows: y * y <= a ** (2/3))
        own = xp.logical_or(xp.equal(a, xp.zeros_like(a)), xp.logical_not(xp.isfinite(a)))
        return xp.where(own, x, xp.copysign(y, x))

    def _create(self, re, im):
        """A complex array of two float arrays. The standard has no such
        function, and ``re + im * 1j`` is NaN where ``im`` is infinite:
        JAX's ``lax.complex``, dask's blocks made by NumPy, else (NumPy,
        array_api_strict, CuPy) the parts written into an empty array of
        the namespace's library, through DLPack where it hides them."""
        import array_api_compat as compat

        xp = self.xp
        if compat.is_jax_namespace(xp):
            import jax

            return jax.lax.complex(re, im)
        if compat.is_dask_namespace(xp):
            import dask.array as da

            target = np.dtype(NUMPY_DTYPES[rules.complex_of(element_of(xp, re))])
            return da.map_blocks(numerics._complex_create, re, im, dtype=target)
        if compat.is_numpy_namespace(xp):
            return numerics._complex_create(re, im)
        if compat.is_cupy_namespace(xp):  # pragma: no cover - no GPU here: CuPy's settable parts, untested
            result = xp.empty(re.shape, dtype=dtype(xp, _dtype_name(rules.complex_of(element_of(xp, re)))))
            result.real[...], result.imag[...] = re, im
            return result
        return xp.asarray(numerics._complex_create(np.from_dlpack(re), np.from_dlpack(im)))

    def _complex_log1p(self, x):
        """``numerics._complex_log1p`` (accurate for small ``x``) in standard functions."""
        xp = self.xp
        re, im = xp.real(x), xp.imag(x)
        one, two = (xp.asarray(v, dtype=re.dtype) for v in (1, 2))
        real = xp.log1p(re * (two + re) + im * im) / two
        result = self._create(real, xp.atan2(im, one + re))
        big = xp.greater(xp.maximum(xp.abs(re), xp.abs(im)), xp.asarray(math.sqrt(xp.finfo(re.dtype).max) / 4, dtype=re.dtype))
        return xp.where(big, xp.log(xp.asarray(1, dtype=x.dtype) + x), result)

    def _ctpop(self, x):
        """The set bits, one bit at a time (``shrui`` reads the bits whatever
        the dtype's signedness)."""
        element = element_of(self.xp, x)
        one, count = self.const(1, element), self.const(0, element)
        for k in range(rules.bit_width(element)):
            bit = self.xp.bitwise_and(self.apply("arith.shrui", x, self.const(k, element)), one)
            count = count + bit
        return count

    def _powf(self, x, y):
        """IEEE ``pow``; NumPy-backed libraries compute ``x ** 0.5`` as
        ``sqrt`` (``numerics._ieee_power``), mended at ``-inf`` and ``-0.0``."""
        xp = self.xp
        result = xp.pow(x, y)
        zero, inf = xp.asarray(0, dtype=x.dtype), xp.asarray(np.inf, dtype=x.dtype)
        at = xp.logical_or(xp.equal(x, xp.asarray(-np.inf, dtype=x.dtype)), xp.equal(x, zero))
        fix = xp.logical_and(xp.equal(y, xp.asarray(0.5, dtype=y.dtype)), at)
        return xp.where(fix, xp.where(xp.equal(x, zero), zero, inf), result)


def standard_function(definition, element: str, arity: int) -> str | None:
    """The standard function that is ``definition`` on ``element`` arrays,
    if one is (what generated code calls as ``xp.<name>``): the definition
    applies one primitive to its operands, on arrays of the primitive's
    signedness. A ``math`` function on ``f16`` never is: its definition
    computes in ``f32`` and rounds once, which the standard does not promise
    of a library's ``float16``."""
    primitive, kind = scalar.one_primitive(definition, element, arity), rules.kind(element)
    if primitive is None:
        return None
    return STANDARD_FUNCTIONS.get(primitive) if _READS.get(primitive, kind) == kind else None


def standard_comparison(element: str, direction: str) -> str | None:
    """The standard comparison that is ``bcast.compare`` ``direction`` on
    ``element`` arrays, if one is (all but the orders of booleans)."""
    call = scalar.one_call(lambda b, x, y: scalar.compare(b, element, direction, x, y), 2)
    if call is None or not _is_standard_comparison(call[1], rules.kind(element)):
        return None
    return COMPARISONS[call[1][-2:]]


def elementwise(xp, name: str, *xs):
    """The op whose definition is ``scalar.DEFINITIONS[name]`` on arrays of
    one dtype (that broadcast together)."""
    return scalar.DEFINITIONS[name](ArrayApiScalars(xp), element_of(xp, xs[0]), *xs)


@functools.cache
def function(name: str):
    """``elementwise`` of one definition, by its name in ``bcast.ir.scalar``."""

    def array_api_function(xp, *xs):
        return elementwise(xp, name, *xs)

    array_api_function.__name__ = name
    return array_api_function


def __getattr__(name: str):
    """``ar.divide(xp, x, y)`` is ``scalar.divide`` on ``xp`` arrays (what
    generated code calls), as ``numerics.divide`` is on NumPy arrays."""
    if name in scalar.DEFINITIONS:
        return function(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def compare(xp, direction: str, x, y, total_order: bool = False):
    """``scalar.compare`` on ``xp`` arrays."""
    return scalar.compare(ArrayApiScalars(xp), element_of(xp, x), direction, x, y, total_order=total_order)


def convert(xp, x, dtype_name: str):
    """``scalar.convert`` of ``x`` to the NumPy dtype name ``dtype_name``
    (between integers of one width it keeps the bits: the dtype changes here)."""
    b = ArrayApiScalars(xp)
    return b.as_dtype(scalar.convert(b, element_of(xp, x), _ELEMENTS[dtype_name], x), dtype(xp, dtype_name))


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


def dynamic_broadcast_in_dim(xp, x, dims: Sequence[int], sizes: tuple[int, ...], expanding: tuple[int, ...],
                             nonexpanding: tuple[int, ...], site: rt.Site | None):
    """``bcast.dynamic_broadcast_in_dim``: the NumPy backend's check
    (``numpy_runtime.check_expansion``), then ``broadcast_in_dim``."""
    rt.check_expansion(tuple(x.shape), dims, sizes, expanding, nonexpanding, site)
    return broadcast_in_dim(xp, x, dims, sizes)


def iota(xp, shape: tuple[int, ...], dimension: int, dtype_name: str):
    """``bcast.iota``: ``xp.arange`` of the counted dim in the library's
    default integer dtype (``int64``, or ``int32`` in JAX without x64: the
    indices fit either, and their low bits and values are the same),
    ``convert`` to the element type (wrapping or rounding as ``convert``
    does), then ``reshape`` and ``broadcast_to`` over the other dims."""
    counted = convert(xp, xp.arange(shape[dimension]), dtype_name)
    ones = tuple(n if d == dimension else 1 for d, n in enumerate(shape))
    counted = xp.reshape(counted, ones)
    return counted if ones == tuple(shape) else xp.broadcast_to(counted, tuple(shape))


def pad(xp, x, value, low, high, interior):
    """``bcast.pad`` from standard functions only (no item assignment, which
    JAX and dask arrays lack), one dim at a time: interior padding joins each
    element with ``interior`` copies of ``value`` along a new axis, merges it
    and drops the last gap; a positive edge concatenates a block of
    ``value``, then a negative one slices it off (in that order: a crop
    larger than the elements reaches into the other edge's padding)."""
    for d, (lo, hi, gap) in enumerate(zip(low, high, interior)):
        n = x.shape[d]
        if gap and n > 1:
            shape = tuple(x.shape)
            x = xp.expand_dims(x, axis=d + 1)
            fill = xp.broadcast_to(value, (*shape[:d + 1], gap, *shape[d + 1:]))
            x = xp.concat([x, fill], axis=d + 1)
            x = xp.reshape(x, (*shape[:d], n * (gap + 1), *shape[d + 1:]))
            x = _slice_dim(x, d, 0, n * (gap + 1) - gap)
        blocks = [xp.broadcast_to(value, (*x.shape[:d], lo, *x.shape[d + 1:]))] if lo > 0 else []
        blocks.append(x)
        if hi > 0:
            blocks.append(xp.broadcast_to(value, (*x.shape[:d], hi, *x.shape[d + 1:])))
        x = xp.concat(blocks, axis=d) if len(blocks) > 1 else x
        x = _slice_dim(x, d, max(-lo, 0), x.shape[d] - max(-hi, 0))
    return x


def _slice_dim(x, d: int, start: int, stop: int):
    """``x[start:stop]`` along dim ``d`` (unchanged when that is all of it)."""
    if start == 0 and stop == x.shape[d]:
        return x
    return x[(slice(None),) * d + (slice(start, stop), ...)]  # the ellipsis: the standard indexes all dims


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


def _clamped_start(xp, start, size: int, n: int, like):
    """A start index (a 0-d integer array of any dtype) clamped into
    ``[0, n - size]`` (``rules.clamped_start``), compared in its own dtype
    (an ``uint64`` above ``2**63`` or an ``int8`` never converts out of
    range), then converted to ``like``'s dtype, where it fits."""
    high = n - size
    if _kind(xp, start.dtype) == "signed":
        start = xp.maximum(start, xp.asarray(0, dtype=start.dtype))
    if high < _info(xp, start).max:
        start = xp.minimum(start, xp.asarray(high, dtype=start.dtype))
    return xp.astype(start, like.dtype)


def dynamic_slice(xp, x, starts, sizes: Sequence[int]):
    """``bcast.dynamic_slice`` with standard functions only: per dim that
    the block does not cover whole, ``take`` of the positions ``start +
    arange(size)`` (the start stays an array: dask stays lazy, JAX traces)."""
    for d, (start, size) in enumerate(zip(starts, sizes)):
        n = x.shape[d]
        if size == n:
            continue
        if size == 0:
            x = _slice_dim(x, d, 0, 0)
            continue
        positions = xp.arange(size)
        positions = positions + _clamped_start(xp, start, size, n, positions)
        x = xp.take(x, positions, axis=d)
    return x


def _bounded_start(xp, start, n: int, like):
    """``numerics.bounded_starts`` (scatter's unclamped starts) in ``like``'s dtype."""
    info = _info(xp, start)
    if info.min < -(n + 1):
        start = xp.maximum(start, xp.asarray(-(n + 1), dtype=start.dtype))
    if n < info.max:
        start = xp.minimum(start, xp.asarray(n, dtype=start.dtype))
    return xp.astype(start, like.dtype)


def _positions(xp, shape, indices, dims: rules.GatherDims, sizes: Sequence[int], result, clamp: bool):
    """``numerics.gather_positions`` with standard functions: per operand
    dim the positions read (or written) at each element of ``result``'s
    shape, in the library's default integer dtype (JAX: i32 unless x64),
    each broadcastable to it."""
    ivd = dims.index_vector_dim
    vectors = (xp.expand_dims(indices, axis=-1) if ivd == indices.ndim
               else xp.permute_dims(indices, (*dims.batch_dims(indices.ndim), ivd)))
    batch_axes = [a for a in range(len(result)) if a not in dims.offset_dims]
    laid = tuple(result[a] if a in batch_axes else 1 for a in range(len(result)))
    like = xp.asarray(0)

    def along(axis: int, n: int):
        return xp.reshape(xp.arange(n, dtype=like.dtype), tuple(n if a == axis else 1 for a in range(len(result))))

    positions = [xp.zeros((1,) * len(result), dtype=like.dtype) for _ in shape]
    for k, d in enumerate(dims.start_index_map):
        start = (_clamped_start(xp, vectors[..., k], sizes[d], shape[d], like) if clamp
                 else _bounded_start(xp, vectors[..., k], shape[d], like))
        positions[d] = xp.reshape(start, laid)
    for d, axis in zip(dims.window_dims(len(shape)), dims.offset_dims):
        positions[d] = positions[d] + along(axis, sizes[d])
    for d, index_dim in zip(dims.operand_batching_dims, dims.start_indices_batching_dims):
        positions[d] = positions[d] + along(batch_axes[index_dim - (index_dim > ivd)], shape[d])
    return positions


def _linear(xp, shape, positions, result):
    """The positions as indices into the operand flattened (row-major), one per element of ``result``."""
    linear = sum((p * math.prod(shape[d + 1:]) for d, p in enumerate(positions)),
                 xp.zeros((1,) * len(result), dtype=xp.asarray(0).dtype))
    return xp.reshape(xp.broadcast_to(linear, result), (-1,))


def gather(xp, x, indices, dims: rules.GatherDims, sizes: Sequence[int]):
    """``bcast.gather`` with standard functions only (no advanced indexing,
    which the standard leaves out): the linear position in ``x`` of every
    result element (``_positions``: a clamped start plus an offset or batch
    ``arange`` per dim), then one ``take`` from ``x`` flattened."""
    shape = tuple(x.shape)
    if 0 in [indices.shape[k] for k in dims.batch_dims(len(indices.shape))]:  # no slices (numerics.gather)
        operand = tuple(max(n, size) for n, size in zip(shape, sizes))
        return xp.zeros(rules.gather_shape(operand, tuple(indices.shape), dims, sizes), dtype=x.dtype)
    result = rules.gather_shape(shape, tuple(indices.shape), dims, sizes)
    linear = _linear(xp, shape, _positions(xp, shape, indices, dims, sizes, result, clamp=True), result)
    return xp.reshape(xp.take(xp.reshape(x, (-1,)), linear), result)


def scatter(xp, kind: str, x, indices, updates, dims: rules.GatherDims, dtype_name: str):
    """``bcast.scatter`` without item assignment (which dask and JAX arrays
    lack, and the standard has no scatter): the linear position of every
    update element (-1 out of bounds: skipped), compared with every position
    of ``x`` flattened; ``add``, ``multiply``, ``maximum``, ``minimum`` fold
    each element of ``x`` with its matching updates (the others the kind's
    identity) by ``reduce`` (``x`` of the NumPy dtype ``dtype_name``),
    ``set`` takes the last matching update (row-major, as NumPy). The
    comparison is updates x operand elements of memory and time, a cost
    the standard's functions impose; the NumPy and C backends write in
    place."""
    shape, count = tuple(x.shape), math.prod(x.shape)
    sizes = numerics.scatter_window(shape, tuple(updates.shape), dims)
    result = tuple(updates.shape)
    positions = _positions(xp, shape, indices, dims, sizes, result, clamp=False)
    inside = xp.ones(result, dtype=xp.bool)
    for p, n in zip(positions, shape):
        zero, size = xp.asarray(0, dtype=p.dtype), xp.asarray(n, dtype=p.dtype)
        inside = xp.logical_and(inside, xp.logical_and(p >= zero, p < size))
    linear = _linear(xp, shape, positions, result)
    linear = xp.where(xp.reshape(inside, (-1,)), linear, xp.asarray(-1, dtype=linear.dtype))
    flat, values = xp.reshape(x, (-1,)), xp.reshape(updates, (-1,))
    hits = xp.expand_dims(linear, axis=1) == xp.expand_dims(xp.arange(count, dtype=linear.dtype), axis=0)
    if kind != "set":
        identity = xp.asarray(numerics.reduction_identity(kind, np.dtype(dtype_name)).item(), dtype=x.dtype)
        spread = xp.where(hits, xp.expand_dims(values, axis=1), identity)
        folded = reduce(xp, kind, xp.concat([xp.expand_dims(flat, axis=0), spread], axis=0), (0,), False, dtype_name)
        return xp.reshape(folded, shape)
    order = xp.expand_dims(xp.arange(values.shape[0], dtype=linear.dtype), axis=1)
    last = xp.max(xp.where(hits, order, xp.asarray(-1, dtype=linear.dtype)), axis=0) if values.shape[0] else None
    if last is None:
        return x
    found = last >= xp.asarray(0, dtype=last.dtype)
    picked = xp.take(values, xp.where(found, last, xp.asarray(0, dtype=last.dtype)))
    return xp.reshape(xp.where(found, picked, flat), shape)


def dynamic_update_slice(xp, x, starts, update):
    """``bcast.dynamic_update_slice`` without item assignment (dask and JAX
    arrays are immutable): per dim, a mask of the positions ``p`` in
    ``[start, start + size)`` and the update spread to the operand's size by
    ``take`` at ``p - start`` (clipped); then one ``where``."""
    mask, spread = None, update
    for d, start in enumerate(starts):
        n, size = x.shape[d], update.shape[d]
        if size == 0:
            return x
        if size == n:
            continue
        positions = xp.arange(n)
        offset = positions - _clamped_start(xp, start, size, n, positions)
        inside = xp.logical_and(offset >= xp.asarray(0, dtype=offset.dtype),
                                offset < xp.asarray(size, dtype=offset.dtype))
        ones = [1] * x.ndim
        ones[d] = n
        hit = xp.reshape(inside, tuple(ones))
        mask = hit if mask is None else xp.logical_and(mask, hit)
        zero, last = xp.asarray(0, dtype=offset.dtype), xp.asarray(size - 1, dtype=offset.dtype)
        spread = xp.take(spread, xp.minimum(xp.maximum(offset, zero), last), axis=d)
    return spread if mask is None else xp.where(mask, spread, x)


def deliver(xp, results: tuple, out, specs: tuple[rt.Spec, ...], inputs: tuple):
    """The function's results: one array or a tuple. For NumPy results,
    ``out=`` and ownership follow ``numpy_runtime.Outs`` (a result that is
    an input or a view of one is copied); other libraries' arrays are
    immutable and returned as they are, and take no ``out=``."""
    if not results and out is None:
        return ()
    # int: an index; np.generic: NumPy computes a rank-0 result as a scalar
    numpy_like = all(isinstance(r, (np.ndarray, int, np.generic)) for r in results)
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
        if dtype_name in numerics.WIDENED:  # accumulate in f32, round once
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


# --------------------------------------------------------------------------
# Contractions
# --------------------------------------------------------------------------


def dot_general(xp, x, y, dims: rules.DotDims, dtype_name: str):
    """``bcast.dot_general`` by the standard ``matmul``: directly when the
    contraction is ``matmul``'s (``DotDims.is_matmul``, every contraction
    ``bcast.matmul`` makes), else after ``permute_dims`` to (batch, free,
    contracted) / (batch, contracted, free) and a ``reshape`` to 3-D.
    ``f16`` multiplies in ``f32`` and rounds once, as the reference does; a
    result in another dtype than ``dtype_name`` is converted to it."""
    wide = dtype_name in numerics.WIDENED
    if wide:
        x, y = xp.astype(x, xp.float32), xp.astype(y, xp.float32)
    if dims.is_matmul(x.ndim, y.ndim):
        result = xp.matmul(x, y)
    else:
        x_free, y_free = dims.free(x.ndim, "lhs"), dims.free(y.ndim, "rhs")
        batch = tuple(x.shape[d] for d in dims.lhs_batch)
        sizes = [tuple(x.shape[d] for d in x_free), tuple(y.shape[d] for d in y_free)]
        k = rules.element_count(tuple(x.shape[d] for d in dims.lhs_contract))
        b = rules.element_count(batch)
        x = reshape(xp, xp.permute_dims(x, (*dims.lhs_batch, *x_free, *dims.lhs_contract)),
                    (b, rules.element_count(sizes[0]), k))
        y = reshape(xp, xp.permute_dims(y, (*dims.rhs_batch, *dims.rhs_contract, *y_free)),
                    (b, k, rules.element_count(sizes[1])))
        result = reshape(xp, xp.matmul(x, y), (*batch, *sizes[0], *sizes[1]))
    expected = dtype(xp, dtype_name)
    # dask sums an integer contraction to a 0-d result in int64: the same
    # bits modulo 2**32 as a wrapping int32 sum, so converting back is exact
    return result if result.dtype == expected else xp.astype(result, expected)


def arg_reduce(xp, name: str, x, dim: int, dtype_name: str):
    """``bcast.argmax``/``argmin`` (``numerics.arg_reduce``): the standard's
    ``argmax``/``argmin`` (first of ties), with NaN made explicit, since the
    standard leaves it to the library: where the lane holds a NaN, the index
    of its first NaN."""
    index = dtype(xp, dtype_name)
    found = xp.astype((xp.argmax if name == "argmax" else xp.argmin)(x, axis=dim), index)
    if not isdtype(xp, x.dtype, "real floating"):
        return found
    nan = xp.astype(xp.isnan(x), xp.int8)
    first_nan = xp.astype(xp.argmax(nan, axis=dim), index)
    return xp.where(xp.any(xp.isnan(x), axis=dim), first_nan, found)


def sort(xp, values, keys, dim: int, orders, site: rt.Site | None = None):
    """``bcast.sort`` (``numerics.sort``): the standard's stable ``argsort``
    (``descending`` keeps equal keys in order too) of ``scalar.sort_key``
    (booleans as ``uint8``: ``argsort`` takes real numbers), then each lane
    of ``values`` read at those indices (``take_along_axis``, 2024.12; one
    ``take`` of flat indices on a library without it). Several keys sort
    one after another from the last (each sort stable, so the earlier keys
    decide and the later break their ties), each key read in the order
    found so far. An empty array is its own sort (dask cannot reshape one
    with a 0 beside other dims). With ``?`` dims (a ``site``), the values
    and keys have one shape (``numpy_runtime.sort``)."""
    if site is not None:
        rt.checked(site, bc.check_sort, [tuple(x.shape) for x in (values, *keys)])
    if math.prod(values.shape) == 0:
        return values
    order = None
    for key, (descending, total_order) in reversed(list(zip(keys, orders))):
        column = scalar.sort_key(ArrayApiScalars(xp), element_of(xp, key), key, total_order)
        if _is_bool(xp, column):
            column = xp.astype(column, xp.uint8)
        if order is not None:
            column = _take_lanes(xp, column, order, dim)
        step = xp.argsort(column, axis=dim, descending=descending, stable=True)
        order = step if order is None else _take_lanes(xp, order, step, dim)
    return _take_lanes(xp, values, order, dim)


def _take_lanes(xp, values, order, dim: int):
    """Each lane of ``values`` along ``dim`` read at the indices of ``order``'s."""
    take_along_axis = getattr(xp, "take_along_axis", None)
    if take_along_axis is not None:
        return take_along_axis(values, order, axis=dim)
    last = [d for d in range(values.ndim) if d != dim] + [dim]
    lanes = xp.permute_dims(values, tuple(last))
    n, count = values.shape[dim], math.prod(values.shape)
    flat_order = reshape(xp, xp.permute_dims(order, tuple(last)), (count // max(n, 1), n))
    starts = xp.reshape(xp.arange(flat_order.shape[0], dtype=flat_order.dtype) * n, (flat_order.shape[0], 1))
    taken = xp.take(reshape(xp, lanes, (count,)), reshape(xp, flat_order + starts, (count,)), axis=0)
    return xp.permute_dims(reshape(xp, taken, lanes.shape), tuple(last.index(d) for d in range(values.ndim)))


CUMULATIVE_FUNCTIONS = {"add": "cumulative_sum", "multiply": "cumulative_prod"}
"""The standard's scans (2023.12, 2024.12); the other kinds, and a library
without these, scan with ``_scan``."""

def cumulative(xp, kind: str, x, dim: int, reverse: bool, dtype_name: str):
    """``bcast.cumulative`` (``numerics.cumulative``): ``f16`` accumulates in
    ``f32``; integers keep their dtype (``dtype=`` stops the standard's
    widening, so they wrap)."""
    if dtype_name in numerics.WIDENED:
        wide = cumulative(xp, kind, xp.astype(x, xp.float32), dim, reverse, "float32")
        return xp.astype(wide, x.dtype)
    if reverse:
        return xp.flip(cumulative(xp, kind, xp.flip(x, axis=dim), dim, False, dtype_name), axis=dim)
    standard = getattr(xp, CUMULATIVE_FUNCTIONS.get(kind, ""), None)
    scanned = standard(x, axis=dim, dtype=x.dtype) if standard is not None else _scan(xp, kind, x, dim, dtype_name)
    if kind == "add" and isdtype(xp, x.dtype, "real floating"):
        return scanned + _c(xp, 0.0, x)  # from the identity: an all -0.0 prefix sums to +0.0
    return scanned


def _scan(xp, kind: str, x, dim: int, dtype_name: str):
    """An inclusive scan from standard functions only (no item assignment):
    ``log2(n)`` steps, step ``s`` combining each element with the one ``s``
    before it (the kind's identity before the start). Float sums associate
    differently from a sequential scan; max/min are exact and propagate NaN
    (``xp.maximum``)."""
    combine = getattr(xp, kind)  # the standard's function of the kind's name
    n, step = x.shape[dim], 1
    identity = numerics.reduction_identity(kind, np.dtype(dtype_name)).item()
    while step < n:
        block = xp.full((*x.shape[:dim], step, *x.shape[dim + 1:]), identity, dtype=x.dtype)
        shifted = xp.concat([block, _slice_dim(x, dim, 0, n - step)], axis=dim)
        x = combine(x, shifted)
        step *= 2
    return x


def size_to_tensor(xp, size: int, dtype_name: str, type_text: str, site: rt.Site | None):
    """``bcast.size_to_tensor``: checked as the NumPy backend checks it
    (``numpy_runtime.size_to_tensor``), then a 0-d array of the namespace."""
    rt.size_to_tensor(size, np.dtype(dtype_name), type_text, site)
    return xp.asarray(size, dtype=dtype(xp, dtype_name))


def dynamic_reshape(xp, x, shape: tuple[int, ...], site: rt.Site | None):
    """``bcast.dynamic_reshape``: the element count must be kept (error at ``site``)."""
    rt.checked(site, bc.check_reshape, math.prod(x.shape), shape)
    return reshape(xp, x, shape)


def concatenate(xp, xs, dim: int, site: rt.Site | None):
    """``bcast.concatenate`` of ``?`` dims, checked as the NumPy backend checks it."""
    rt.checked(site, bc.check_concatenate, [tuple(x.shape) for x in xs], dim)
    return xp.concat(xs, axis=dim)


def checked_reshape(xp, x, declared: tuple[int | None, ...], site: rt.Site | None):
    """``bcast.reshape`` of ``?`` dims, checked and sized as the NumPy backend
    does it (``bc.reshape_sizes``: the result's ``?``, None, takes the count)."""
    return reshape(xp, x, rt.checked(site, bc.reshape_sizes, math.prod(x.shape), declared))


def checked_pad(xp, x, value, low, high, interior, site: rt.Site | None):
    """``bcast.pad`` of ``?`` dims, checked as the NumPy backend checks it."""
    rt.checked(site, bc.check_pad, tuple(x.shape), low, high, interior)
    return pad(xp, x, value, low, high, interior)


def set_dimension_size(xp, x, dim: int, size: int, site: rt.Site | None):
    """``bcast.set_dimension_size``: the first ``size`` entries of ``dim``,
    which may not pass its bound (error at ``site``)."""
    rt.checked(site, bc.check_dimension_size, size, dim, x.shape[dim])
    return x[(slice(None),) * dim + (slice(0, size),)]


def reduce_window(xp, kind: str, x, init, window: Sequence[Sequence[int]], dtype_name: str):
    """``bcast.reduce_window`` (``numerics.reduce_window``) with standard
    functions: ``x`` dilated and padded with the kind's identity (``pad``),
    one strided slice of it per window offset, stacked along a new last
    axis after ``init`` and folded by ``reduce`` (f16 in f32 as there).
    Memory is the result times the window's size."""
    sizes, strides, base_dilations, window_dilations, low, high = window
    shape = rules.reduce_window_shape(tuple(x.shape), sizes, strides, base_dilations, window_dilations, low, high)
    if 0 in shape:
        return xp.zeros(shape, dtype=x.dtype)
    identity = xp.asarray(numerics.reduction_identity(kind, np.dtype(dtype_name)).item(), dtype=x.dtype)
    padded = pad(xp, x, identity, low, high, [d - 1 for d in base_dilations])
    slices = [xp.broadcast_to(init, shape)]
    for offsets in itertools.product(*(range(w) for w in sizes)):
        at = tuple(slice(k * d, k * d + (n - 1) * s + 1, s)
                   for k, d, n, s in zip(offsets, window_dilations, shape, strides))
        slices.append(padded[(*at, ...)])
    return reduce(xp, kind, xp.stack(slices, axis=len(shape)), (len(shape),), False, dtype_name)


def convolution(xp, x, w, conv: rules.Convolution, dtype_name: str):
    """``bcast.convolution`` (``numerics.convolution``) from standard
    functions: the input moved to (batch, feature, spatial), dilated and
    padded by ``pad`` (its interior padding is the dilation), then, for each
    kernel offset, the strided slice of the input the offset sees times the
    kernel's (output, input) feature matrix at that offset, one ``matmul``
    per group, summed. ``f16`` sums in ``f32`` and rounds once."""
    d, n = conv.dims, len(conv.dims.input_spatial)
    shape = rules.convolution_shape(tuple(x.shape), tuple(w.shape), conv)
    out = tuple(shape[o] for o in d.output_spatial)
    groups, batch_groups = conv.feature_group_count, conv.batch_group_count
    batch, features = x.shape[d.input_batch] // batch_groups, w.shape[d.kernel_output_feature]
    per_group, windows = features // (groups * batch_groups), rules.element_count(out)
    expected = dtype(xp, dtype_name)
    if dtype_name in numerics.WIDENED:
        x, w = xp.astype(x, xp.float32), xp.astype(w, xp.float32)
    xs = xp.permute_dims(x, (d.input_batch, d.input_feature, *d.input_spatial))
    ws = xp.permute_dims(w, (d.kernel_output_feature, d.kernel_input_feature, *d.kernel_spatial))
    if any(conv.reversal):
        ws = xp.flip(ws, axis=tuple(2 + k for k, r in enumerate(conv.reversal) if r))
    zero = xp.zeros((), dtype=xs.dtype)
    xs = pad(xp, xs, zero, (0, 0, *conv.low), (0, 0, *conv.high), (0, 0, *(k - 1 for k in conv.lhs_dilation)))
    in_features = ws.shape[1]
    total = xp.zeros((batch_groups, groups, batch * windows, per_group), dtype=xs.dtype)
    for offset in (itertools.product(*(range(k) for k in ws.shape[2:])) if windows else ()):
        index = tuple(slice(k * r, k * r + (o - 1) * s + 1, s)
                      for k, r, o, s in zip(offset, conv.rhs_dilation, out, conv.strides))  # fmt: skip
        part = xp.permute_dims(xs[(slice(None), slice(None), *index)], (0, *range(2, 2 + n), 1))
        part = xp.permute_dims(reshape(xp, part, (batch_groups, batch * windows, groups, in_features)), (0, 2, 1, 3))
        kernel = reshape(xp, ws[(slice(None), slice(None), *offset)], (batch_groups, groups, per_group, in_features))
        total = total + xp.matmul(part, xp.permute_dims(kernel, (0, 1, 3, 2)))
    result = reshape(xp, total, (batch_groups, groups, batch, *out, per_group))
    result = reshape(xp, xp.permute_dims(result, (2, 0, 1, 3 + n, *range(3, 3 + n))), (batch, features, *out))
    order = tuple(int(i) for i in np.argsort((d.output_batch, d.output_feature, *d.output_spatial)))
    result = xp.permute_dims(result, order)
    return result if result.dtype == expected else xp.astype(result, expected)


def reduce_window_body(xp, body, inputs, inits, window: Sequence[Sequence[int]]):
    """``bcast.reduce_window_body`` (``numerics.reduce_window_body``, whose
    window places it walks) with standard functions only: each input padded
    with its init value (``pad``), the body called once per window place
    on strided slices of the result's shape."""
    sizes, strides, base_dilations, window_dilations, low, high = window
    shape = rules.reduce_window_shape(tuple(inputs[0].shape), sizes, strides, base_dilations, window_dilations,
                                      low, high)
    accumulators = [xp.broadcast_to(v, shape) for v in inits]
    if 0 in shape:
        return tuple(accumulators)
    padded = [pad(xp, x, v, low, high, [d - 1 for d in base_dilations]) for x, v in zip(inputs, inits)]
    for at in numerics.window_places(shape, sizes, strides, window_dilations):
        accumulators = [xp.broadcast_to(v, shape) for v in body(xp, accumulators, [p[at] for p in padded])]
    return tuple(accumulators)


def dynamic_conv(xp, x, w, padding, conv: rules.Convolution, dtype_name: str, site: rt.Site | None,
                 declared: tuple[int | None, ...] = ()):
    """``bcast.dynamic_conv``: ``convolution`` with the padding's values
    read now (on the host: they are sizes), checked by the reference's rule
    (``bc.check_dynamic_conv``, with the result's ``declared`` static
    sizes; its error at ``site``)."""
    read = np.asarray(padding)
    return convolution(xp, x, w, rt.checked(site, bc.check_dynamic_conv, tuple(x.shape), tuple(w.shape), conv, read,
                                            declared), dtype_name)  # fmt: skip


def fft(xp, x, kind: str, lengths: tuple[int, ...], shape: tuple[int, ...], dtype_name: str,
        site: rt.Site | None):
    """``bcast.fft`` with the namespace's ``fft`` extension (the standard's
    optional one: ``jax.numpy.fft``, ``array_api_strict.fft``), in its
    precision; a namespace without it is refused at the op (``site``). A
    zero length is an empty result of ``shape`` (the extension refuses it).
    On dask the transformed axes are first rechunked into one chunk each,
    as ``dask.array.fft`` requires."""
    if getattr(xp, "fft", None) is None:
        raise rt.ProgramError(f"{xp.__name__} has no fft extension, which bcast.fft needs",
                              ["the Array API standard's fft extension is optional; run this program on a "
                               "namespace that has it, or on the numpy backend"], site)
    if 0 in lengths:
        return xp.zeros(shape, dtype=dtype(xp, dtype_name))
    import array_api_compat as compat

    if compat.is_dask_namespace(xp):  # dask transforms an axis held in one chunk only (a lazy rechunk)
        x = x.rechunk({axis: -1 for axis in range(x.ndim - len(lengths), x.ndim)})
    return numerics.fft(x, kind, lengths, xp)


def triangular_solve(xp, a, b, left_side: bool, lower: bool, unit_diagonal: bool, transpose: str):
    """``bcast.triangular_solve``: the reference's own definition
    (``numerics.triangular_solve``, Array API functions only) on ``xp``."""
    return numerics.triangular_solve(a, b, left_side, lower, unit_diagonal, transpose, xp)


def lu(xp, a):
    """``bcast.lu``: the reference's own definition (``numerics.lu``, Array
    API functions only) on ``xp``."""
    return numerics.lu(a, xp)


def cholesky(xp, a, lower: bool):
    """``bcast.cholesky``: the reference's own definition
    (``numerics.cholesky``, Array API functions only) on ``xp``."""
    return numerics.cholesky(a, lower, xp)
