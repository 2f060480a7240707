"""The scalar semantics of every elementwise op, written once.

Each definition computes an op on values of one element type out of a small
set of *primitives*: the ops of MLIR's ``arith`` and ``math`` dialects
(named as there, signless: ``arith.divsi`` divides as signed whatever the
element type says), each used only where ``arith`` defines it. No definition
divides by 0 or ``INT_MIN`` by -1, shifts by the width or more, or converts
an out-of-range float with ``fptosi``: every edge case of docs/semantics.md
(integer arithmetic, shifts, ``convert``) is decided here, by ``select``.

A backend implements the primitives once (``Scalars``) and runs these
definitions on them: the NumPy functions of ``bcast.ir.numerics`` (and so the
reference evaluator and the NumPy backend), the Array API runtime, the loop
IR (and so C) and the StableHLO export. An op's class names its definition
(``SCALAR`` in ``bcast.ir.ops``); ``tests/test_op_matrix.py`` runs every op
on every backend over the edge values of every element type.

Definitions come in three shapes, so a backend can map the simple ones to
one library call (a NumPy ufunc with ``out=``, one StableHLO op):
- ``OnePrimitive``: one primitive per element kind (``add`` is ``addf`` or
  ``addi``);
- ``MathFunction``: a ``math`` function of floats, computed in ``f32`` and
  rounded once for ``f16`` (as NumPy's half loops do; upstream MLIR lowers
  ``math`` on f32 and f64 only);
- ``Composite``: any composition of primitives (``divide``, ``power``, the
  shifts, ``sign``, ...).

Complex values (``complex<f32>``, ``complex<f64>``) compute with the ops of MLIR's
``complex`` dialect (``complex.add``, ``complex.exp``...), each a primitive
on values of one complex type; ``complex.abs``, ``complex.re`` and
``complex.im`` give the parts' float type, ``complex.eq``/``complex.neq``
an ``i1``, ``complex.create`` makes a complex of two floats
(docs/semantics.md, "Complex numbers").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bcast.ir import rules

Value = Any
"""A backend's value: a NumPy array, an Array API array, an SSA value."""


class Scalars(Protocol):
    """The primitives a backend implements. Values have one element type;
    ``element`` names it where the operands do not (constants, casts)."""

    def const(self, value: int | float, element: str) -> Value:
        """``value`` in ``element`` (an integer wraps to the width: -1 is all ones)."""

    def apply(self, name: str, *operands: Value) -> Value:
        """A same-typed ``arith`` or ``math`` op by name (``"arith.addi"``, ``"math.exp"``)."""

    def cmpi(self, predicate: str, x: Value, y: Value) -> Value:
        """``arith.cmpi`` (``eq``, ``ne``, ``slt``... ``uge``): an ``i1`` value."""

    def cmpf(self, predicate: str, x: Value, y: Value) -> Value:
        """``arith.cmpf`` (``oeq``, ``une``, ``olt``..., ``uno``): an ``i1`` value."""

    def select(self, condition: Value, if_true: Value, if_false: Value) -> Value: ...

    def cast(self, name: str, x: Value, element: str) -> Value:
        """``arith.extf``, ``truncf``, ``sitofp``, ``uitofp``, ``fptosi``,
        ``fptoui``, ``trunci`` (keeps the low bits), ``extsi`` or ``extui``,
        to ``element``; ``bitcast``: a float's bits as the signed integer
        ``element`` of its width (NaN payloads and signs kept)."""

    def loop(self, trips: int, inits: Sequence[Value],
             body: Callable[[list[Value]], list[Value]]) -> list[Value]:
        """``body`` applied ``trips`` times to the carried values."""


Definition = Callable[..., Value]
"""``definition(b, element, *operands)``: the op on ``element`` operands."""


# --------------------------------------------------------------------------
# The three shapes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class OnePrimitive:
    """An op that is one primitive for each element kind it takes."""

    float: str | None = None
    signed: str | None = None
    unsigned: str | None = None
    bool: str | None = None
    complex: str | None = None

    def primitive(self, element: str) -> str | None:
        return getattr(self, rules.kind(element))

    def __call__(self, b: Scalars, element: str, *xs: Value) -> Value:
        return b.apply(self.primitive(element), *xs)


def _integer(name: str) -> OnePrimitive:
    """A bitwise op: one primitive for integers and booleans alike."""
    return OnePrimitive(signed=name, unsigned=name, bool=name)


@dataclass(frozen=True)
class MathFunction:
    """A ``math`` function of floats; ``f16`` and ``bf16`` are computed in
    ``f32`` and rounded once."""

    primitive: str
    complex: str | Composite | None = None
    """The ``complex`` dialect op that is this function on complex values,
    or its composition of them."""

    def __call__(self, b: Scalars, element: str, *xs: Value) -> Value:
        if rules.kind(element) == "complex":
            if isinstance(self.complex, Composite):
                return self.complex(b, element, *xs)
            return b.apply(self.complex, *xs)
        if element not in rules.HALF_FLOATS:
            return b.apply(self.primitive, *xs)
        wide = [b.cast("arith.extf", x, "f32") for x in xs]
        return b.cast("arith.truncf", b.apply(self.primitive, *wide), element)


@dataclass(frozen=True)
class Composite:
    """Any composition of primitives: ``build(b, element, *operands)``."""

    build: Definition

    def __call__(self, b: Scalars, element: str, *xs: Value) -> Value:
        return self.build(b, element, *xs)


# --------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------

add = OnePrimitive(float="arith.addf", signed="arith.addi", unsigned="arith.addi", complex="complex.add")
subtract = OnePrimitive(float="arith.subf", signed="arith.subi", unsigned="arith.subi", complex="complex.sub")
multiply = OnePrimitive(float="arith.mulf", signed="arith.muli", unsigned="arith.muli", complex="complex.mul")
# maximumf/minimumf propagate NaN (np.maximum); i1 orders False < True
_maximum = OnePrimitive(float="arith.maximumf", signed="arith.maxsi", unsigned="arith.maxui")
_minimum = OnePrimitive(float="arith.minimumf", signed="arith.minsi", unsigned="arith.minui")


def _lexicographic(b: Scalars, element: str, x: Value, y: Value, predicate: str) -> Value:
    """``x`` where its (real, imag) pair is ``predicate`` (``ogt``, ``olt``)
    of ``y``'s in lexicographic order, else ``y`` (StableHLO's ``maximum`` /
    ``minimum`` of complex values); a NaN part in ``x`` makes the result
    ``x``, else one in ``y`` makes it ``y`` (NaN propagates, as ``np.maximum``
    does)."""
    xr, xi, yr, yi = (b.apply(p, v) for v in (x, y) for p in ("complex.re", "complex.im"))
    first = b.apply("arith.ori", b.cmpf(predicate, xr, yr),
                    b.apply("arith.andi", b.cmpf("oeq", xr, yr), b.cmpf(predicate, xi, yi)))
    nan_x = b.apply("arith.ori", b.cmpf("uno", xr, xr), b.cmpf("uno", xi, xi))
    return b.select(b.apply("arith.ori", first, nan_x), x, y)


@Composite
def maximum(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """``maximumf`` (NaN propagates), ``maxsi``/``maxui``; complex values by
    lexicographic order of (real, imag)."""
    if rules.kind(element) == "complex":
        return _lexicographic(b, element, x, y, "ogt")
    return _maximum(b, element, x, y)


@Composite
def minimum(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """``minimumf`` (NaN propagates), ``minsi``/``minui``; complex values by
    lexicographic order of (real, imag)."""
    if rules.kind(element) == "complex":
        return _lexicographic(b, element, x, y, "olt")
    return _minimum(b, element, x, y)


@Composite
def _complex_atan2(b: Scalars, element: str, y: Value, x: Value) -> Value:
    """StableHLO's ``atan2`` of complex values: ``-i * log((x + i*y) / sqrt(x*x + y*y))``."""
    i = b.const(1j, element)
    ratio = b.apply("complex.div", b.apply("complex.add", x, b.apply("complex.mul", i, y)),
                    b.apply("complex.sqrt", b.apply("complex.add", b.apply("complex.mul", x, x),
                                                    b.apply("complex.mul", y, y))))
    return b.apply("complex.mul", b.apply("complex.neg", i), b.apply("complex.log", ratio))


atan2 = MathFunction("math.atan2", complex=_complex_atan2)



@Composite
def divide(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """Truncating integer division: ``x / 0`` is -1 (all ones), ``INT_MIN /
    -1`` is ``INT_MIN`` (XLA's results); the divisor is made safe first."""
    kind = rules.kind(element)
    if kind == "float":
        return b.apply("arith.divf", x, y)
    if kind == "complex":
        return b.apply("complex.div", x, y)
    by_zero = b.cmpi("eq", y, b.const(0, element))
    one = b.const(1, element)
    safe = b.select(by_zero, one, y)
    if kind == "unsigned":
        return b.select(by_zero, b.const(-1, element), b.apply("arith.divui", x, safe))
    overflow = b.apply("arith.andi", b.cmpi("eq", x, b.const(integer_range(element)[0], element)),
                       b.cmpi("eq", y, b.const(-1, element)))
    safe = b.select(overflow, one, safe)  # INT_MIN / 1 = INT_MIN
    return b.select(by_zero, b.const(-1, element), b.apply("arith.divsi", x, safe))


@Composite
def remainder(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """The dividend's sign (C's ``%``, float ``fmod``); ``x % 0`` is ``x``
    and ``x % -1`` is 0 (so ``INT_MIN % -1`` is never computed)."""
    kind = rules.kind(element)
    if kind == "float":
        return b.apply("arith.remf", x, y)
    by_zero = b.cmpi("eq", y, b.const(0, element))
    unsafe = by_zero if kind == "unsigned" else b.apply(
        "arith.ori", by_zero, b.cmpi("eq", y, b.const(-1, element)))
    safe = b.select(unsafe, b.const(1, element), y)
    rem = b.apply("arith.remui" if kind == "unsigned" else "arith.remsi", x, safe)
    return b.select(by_zero, x, rem)


_float_power = MathFunction("math.powf", complex="complex.pow")


@Composite
def power(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """Float ``pow``; integer power by squaring over every bit of the
    exponent, wrapping; a negative exponent gives the truncated real result:
    1 for base 1, +-1 by parity for base -1, 0 otherwise."""
    kind = rules.kind(element)
    if kind in ("float", "complex"):
        return _float_power(b, element, x, y)
    one = b.const(1, element)

    def step(carried: list[Value]) -> list[Value]:
        result, base, exponent = carried
        odd = b.cast("arith.trunci", exponent, "i1")
        result = b.select(odd, b.apply("arith.muli", result, base), result)
        return [result, b.apply("arith.muli", base, base), b.apply("arith.shrui", exponent, one)]

    result = b.loop(rules.bit_width(element), [one, x, y], step)[0]
    if kind == "unsigned":
        return result
    minus_one, zero = b.const(-1, element), b.const(0, element)
    by_parity = b.select(b.cast("arith.trunci", y, "i1"), minus_one, one)
    truncated = b.select(b.cmpi("eq", x, one), one, b.select(b.cmpi("eq", x, minus_one), by_parity, zero))
    return b.select(b.cmpi("slt", y, zero), truncated, result)


# --------------------------------------------------------------------------
# Bitwise and shifts
# --------------------------------------------------------------------------

and_ = _integer("arith.andi")
or_ = _integer("arith.ori")
xor = _integer("arith.xori")


def _too_big(b: Scalars, element: str, y: Value) -> Value:
    """A shift amount at or past the width (read as unsigned: a negative
    amount is huge)."""
    return b.cmpi("uge", y, b.const(rules.bit_width(element), element))


@Composite
def shift_left(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """0 once the amount reaches the width."""
    too_big = _too_big(b, element, y)
    zero = b.const(0, element)
    return b.select(too_big, zero, b.apply("arith.shli", x, b.select(too_big, zero, y)))


@Composite
def shift_right_logical(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """0 once the amount reaches the width."""
    too_big = _too_big(b, element, y)
    zero = b.const(0, element)
    return b.select(too_big, zero, b.apply("arith.shrui", x, b.select(too_big, zero, y)))


@Composite
def shift_right_arithmetic(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """The sign fill once the amount reaches the width; an unsigned operand
    is shifted as signed too (its top bit fills)."""
    amount = b.select(_too_big(b, element, y), b.const(rules.bit_width(element) - 1, element), y)
    return b.apply("arith.shrsi", x, amount)


@Composite
def mulhi(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """The high half of the exact product ``x * y`` (twice the width), in
    ``element``: signed for a signed type (CHLO's ``mulhi``, what integer
    division by a constant and hashes compute). First the unsigned high half
    of the operands' bits: below 64 bits, both zero-extended to twice the
    width, multiplied (exact), shifted right by the width and truncated; at
    64 bits (no wider type), from the four products of the 32-bit halves.
    Then, for a signed type, the correction ``- (x < 0 ? y : 0) - (y < 0 ?
    x : 0)`` (wrapping), which makes it the signed high half. (A signed
    product of sign-extended operands, the direct form below 64 bits, is
    vectorized by GCC 12 at -O3 as an unsigned high multiply, wrongly.)"""
    bits, op = rules.bit_width(element), b.apply
    if bits < 64:
        wide = f"ui{2 * bits}"
        wx, wy = (b.cast("arith.extui", v, wide) for v in (x, y))
        high = b.cast("arith.trunci", op("arith.shrui", op("arith.muli", wx, wy), b.const(bits, wide)), element)
    else:
        half, mask = b.const(32, element), b.const(0xFFFFFFFF, element)
        x_lo, x_hi = op("arith.andi", x, mask), op("arith.shrui", x, half)
        y_lo, y_hi = op("arith.andi", y, mask), op("arith.shrui", y, half)
        low = op("arith.muli", x_lo, y_lo)
        mid = op("arith.addi", op("arith.muli", x_hi, y_lo), op("arith.shrui", low, half))
        mid2 = op("arith.addi", op("arith.muli", x_lo, y_hi), op("arith.andi", mid, mask))
        high = op("arith.addi", op("arith.addi", op("arith.muli", x_hi, y_hi), op("arith.shrui", mid, half)),
                  op("arith.shrui", mid2, half))
    if rules.kind(element) != "signed":
        return high
    zero = b.const(0, element)
    high = op("arith.subi", high, b.select(b.cmpi("slt", x, zero), y, zero))
    return op("arith.subi", high, b.select(b.cmpi("slt", y, zero), x, zero))


# --------------------------------------------------------------------------
# Unary
# --------------------------------------------------------------------------


@Composite
def negate(b: Scalars, element: str, x: Value) -> Value:
    """Integers wrap: ``-INT_MIN`` is ``INT_MIN``."""
    if rules.kind(element) == "float":
        return b.apply("arith.negf", x)
    if rules.kind(element) == "complex":
        return b.apply("complex.neg", x)
    return b.apply("arith.subi", b.const(0, element), x)


@Composite
def abs_(b: Scalars, element: str, x: Value) -> Value:
    """``abs(INT_MIN)`` is ``INT_MIN`` (wraps); unsigned values are their
    own; a complex value's modulus is of its parts' type."""
    kind = rules.kind(element)
    if kind == "float":
        return b.apply("math.absf", x)
    if kind == "complex":
        return b.apply("complex.abs", x)
    if kind == "unsigned":
        return x
    return b.select(b.cmpi("slt", x, b.const(0, element)), negate(b, element, x), x)


@Composite
def sign(b: Scalars, element: str, x: Value) -> Value:
    """-1, 0 or 1; a float zero (either sign) or NaN is returned as it is
    (``np.sign``). A complex value's sign is ``x / |x|`` (0 for 0; StableHLO's)."""
    kind = rules.kind(element)
    if kind == "complex":
        return _complex_sign(b, element, x)
    zero, one = b.const(0, element), b.const(1, element)
    if kind == "unsigned":
        return b.select(b.cmpi("ne", x, zero), one, zero)
    minus_one = b.const(-1, element)
    if kind == "float":
        return b.select(b.cmpf("ogt", x, zero), one, b.select(b.cmpf("olt", x, zero), minus_one, x))
    return b.select(b.cmpi("sgt", x, zero), one, b.select(b.cmpi("slt", x, zero), minus_one, zero))


def _complex_sign(b: Scalars, element: str, x: Value) -> Value:
    """``x / |x|`` without overflow or loss: both parts divided by the larger
    magnitude first, then by the hypotenuse of the scaled parts. An infinite
    part is +-1 and a finite one 0 before scaling (the direction of a value
    at infinity); a zero is returned as it is; a NaN part makes both NaN."""
    part = rules.COMPLEX_PARTS[element]
    re, im = b.apply("complex.re", x), b.apply("complex.im", x)
    zero, one, inf = b.const(0, part), b.const(1, part), b.const(math.inf, part)

    def direction(p: Value, infinite: Value) -> Value:
        unit = b.select(b.cmpf("olt", p, zero), b.const(-1, part), one)
        return b.select(infinite, unit, b.select(any_inf, zero, p))

    at_zero = b.apply("arith.andi", b.cmpf("oeq", re, zero), b.cmpf("oeq", im, zero))
    inf_re, inf_im = (b.cmpf("oeq", b.apply("math.absf", p), inf) for p in (re, im))
    any_inf = b.apply("arith.ori", inf_re, inf_im)
    re, im = direction(re, inf_re), direction(im, inf_im)
    scale = b.apply("arith.maximumf", b.apply("math.absf", re), b.apply("math.absf", im))
    re, im = b.apply("arith.divf", re, scale), b.apply("arith.divf", im, scale)
    h = b.apply("math.sqrt", b.apply("arith.addf", b.apply("arith.mulf", re, re), b.apply("arith.mulf", im, im)))
    result = b.apply("complex.create", b.apply("arith.divf", re, h), b.apply("arith.divf", im, h))
    return b.select(at_zero, x, result)


@Composite
def not_(b: Scalars, element: str, x: Value) -> Value:
    """Bitwise complement; logical not on ``i1``."""
    return b.apply("arith.xori", x, b.const(-1, element))


exponential = MathFunction("math.exp", complex="complex.exp")
log = MathFunction("math.log", complex="complex.log")
sqrt = MathFunction("math.sqrt", complex="complex.sqrt")
tanh = MathFunction("math.tanh", complex="complex.tanh")
floor = MathFunction("math.floor")
ceil = MathFunction("math.ceil")
sine = MathFunction("math.sin", complex="complex.sin")
cosine = MathFunction("math.cos", complex="complex.cos")
tan = MathFunction("math.tan", complex="complex.tan")
exponential_minus_one = MathFunction("math.expm1", complex="complex.expm1")
log_plus_one = MathFunction("math.log1p", complex="complex.log1p")
@Composite
def _complex_cbrt(b: Scalars, element: str, x: Value) -> Value:
    """The principal cube root of a complex value: ``x ** (1/3)``."""
    return b.apply("complex.pow", x, b.const(1 / 3, element))


cbrt = MathFunction("math.cbrt", complex=_complex_cbrt)
round_nearest_even = MathFunction("math.roundeven")
round_nearest_afz = MathFunction("math.round")  # halfway cases away from zero (C's round)
erf = MathFunction("math.erf")  # NumPy and the Array API lack it: bcast.ir.special composes it
erfc = MathFunction("math.erfc")  # 1 - erf, computed without cancelling in the tails (bcast.ir.special)


ERF_INV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                   -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
"""Giles' single-precision ``erfinv`` ("Approximating the erfinv function",
2010), highest power first, in ``w - 2.5`` for ``w = -log(1 - x*x) < 5``."""

ERF_INV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
"""The same in ``sqrt(w) - 3`` for ``w >= 5``."""


@Composite
def erf_inv(b: Scalars, element: str, x: Value) -> Value:
    """The inverse of ``erf`` on ``(-1, 1)`` (``chlo.erf_inv``,
    ``jax.scipy.special.erfinv``, which ``jax.random.normal`` uses): ``+-inf``
    at ``+-1``, NaN beyond and for NaN. ``f32`` (and ``f16``, widened to it)
    is Giles' single-precision approximation computed in ``f32``, as XLA
    computes it; ``f64`` refines that guess by two Newton steps on ``erf``
    (each squares the relative error, from about ``1e-7``)."""
    if element == "f64":
        guess = _erf_inv_guess(b, "f64", x)
        for _ in range(2):
            error = b.apply("arith.subf", b.apply("math.erf", guess), x)
            slope = b.apply("arith.mulf", b.const(2 / math.sqrt(math.pi), "f64"),
                            b.apply("math.exp", b.apply("arith.negf", b.apply("arith.mulf", guess, guess))))
            step = b.apply("arith.subf", guess, b.apply("arith.divf", error, slope))
            finite = b.cmpf("olt", b.apply("math.absf", guess), b.const(math.inf, "f64"))
            guess = b.select(finite, step, guess)
        return guess
    if element == "f32":
        return _erf_inv_guess(b, "f32", x)
    return b.cast("arith.truncf", _erf_inv_guess(b, "f32", b.cast("arith.extf", x, "f32")), element)


def _erf_inv_guess(b: Scalars, element: str, x: Value) -> Value:
    def horner(coefficients: Sequence[float], u: Value) -> Value:
        r = b.const(coefficients[0], element)
        for c in coefficients[1:]:
            r = b.apply("arith.addf", b.apply("arith.mulf", r, u), b.const(c, element))
        return r

    w = b.apply("arith.negf", b.apply("math.log1p", b.apply("arith.negf", b.apply("arith.mulf", x, x))))
    central = horner(ERF_INV_CENTRAL, b.apply("arith.subf", w, b.const(2.5, element)))
    tail = horner(ERF_INV_TAIL, b.apply("arith.subf", b.apply("math.sqrt", w), b.const(3, element)))
    r = b.apply("arith.mulf", b.select(b.cmpf("olt", w, b.const(5, element)), central, tail), x)
    at_one = b.cmpf("oeq", b.apply("math.absf", x), b.const(1, element))
    return b.select(at_one, b.apply("arith.mulf", x, b.const(math.inf, element)), r)

sinh = MathFunction("math.sinh")
cosh = MathFunction("math.cosh")
asin = MathFunction("math.asin")
acos = MathFunction("math.acos")
atan = MathFunction("math.atan")
asinh = MathFunction("math.asinh")
acosh = MathFunction("math.acosh")
atanh = MathFunction("math.atanh")


# --------------------------------------------------------------------------
# lgamma and digamma (docs/semantics.md, "lgamma and digamma")
# --------------------------------------------------------------------------

LANCZOS_G = 7.0
LANCZOS_BASE = 0.99999999999980993227684700473478
LANCZOS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
           771.3234287776530788486528258894, -176.61502916214059906584551354,
           12.507343278686904814458936853, -0.13857109526572011689554707,
           9.984369578019570859563e-6, 1.50563273514931155834e-7)
"""Lanczos' approximation with ``g = 7`` and nine terms (the published
coefficients XLA uses): ``gamma(z + 1) = sqrt(2 pi) t**(z + 1/2) exp(-t)
a(z)``, ``t = z + g + 1/2``, ``a(z) = LANCZOS_BASE + sum(c[k] / (z + k + 1))``."""


def _in_f32(definition: Callable[..., Value]) -> Definition:
    """``definition`` on ``f16``/``bf16`` computed in ``f32`` and rounded
    once, as ``MathFunction`` does (and XLA does for these functions)."""

    def run(b: Scalars, element: str, *xs: Value) -> Value:
        if element not in rules.HALF_FLOATS:
            return definition(b, element, *xs)
        wide = [b.cast("arith.extf", x, "f32") for x in xs]
        return b.cast("arith.truncf", definition(b, "f32", *wide), element)

    return run


def _lanczos(b: Scalars, element: str, x: Value) -> tuple[Value, Value, Value, Value]:
    """For ``x >= 1/2`` the approximation at ``z = x - 1``, else (the
    reflection's half) at ``z = -x``: ``(reflect, z, t, log(t))``, ``log(t)``
    as ``log(g + 1/2) + log1p(z / (g + 1/2))`` (accurate for small ``z``)."""
    op, c = b.apply, (lambda v: b.const(v, element))
    reflect = b.cmpf("olt", x, c(0.5))
    z = b.select(reflect, op("arith.negf", x), op("arith.subf", x, c(1.0)))
    t = op("arith.addf", z, c(LANCZOS_G + 0.5))
    log_t = op("arith.addf", c(math.log(LANCZOS_G + 0.5)),
               op("math.log1p", op("arith.divf", z, c(LANCZOS_G + 0.5))))
    return reflect, z, t, log_t


def _tiny(element: str) -> float:
    """The smallest normal value of ``element``: below it ``sin(pi * r)`` is
    ``pi * r`` rounded among subnormals, so the reflections use ``r``."""
    return {"f32": 2.0**-126, "f64": 2.0**-1022}[element]


def _lgamma(b: Scalars, element: str, x: Value) -> Value:
    op, c = b.apply, (lambda v: b.const(v, element))
    reflect, z, t, log_t = _lanczos(b, element, x)
    a = c(LANCZOS_BASE)
    for k, coefficient in enumerate(LANCZOS):
        a = op("arith.addf", a, op("arith.divf", c(coefficient), op("arith.addf", z, c(k + 1.0))))
    # (z + 1/2) log t - t, written so that it overflows only when the result does
    main = op("arith.mulf", op("arith.subf", op("arith.addf", z, c(0.5)), op("arith.divf", t, log_t)), log_t)
    log_y = op("arith.addf", op("arith.addf", c(0.5 * math.log(2 * math.pi)), main), op("math.log", a))
    # lgamma(x) = log(pi) - lgamma(1 - x) - log|sin(pi x)|; |sin(pi x)| has period 1
    # and is symmetric about 1/2, so it is taken at the fraction r of |x| folded into [0, 1/2]
    magnitude = op("math.absf", x)
    r = op("arith.subf", magnitude, op("math.floor", magnitude))
    r = b.select(b.cmpf("ogt", r, c(0.5)), op("arith.subf", c(1.0), r), r)
    log_sin = b.select(b.cmpf("olt", r, c(_tiny(element))),
                       op("arith.addf", c(math.log(math.pi)), op("math.log", r)),
                       op("math.log", op("math.sin", op("arith.mulf", c(math.pi), r))))
    finite = b.cmpf("olt", op("math.absf", log_sin), c(math.inf))
    reflected = b.select(finite, op("arith.subf", op("arith.subf", c(math.log(math.pi)), log_sin), log_y),
                         op("arith.negf", log_sin))  # a pole: +inf
    result = b.select(reflect, reflected, log_y)
    exact_zero = op("arith.ori", b.cmpf("oeq", x, c(1.0)), b.cmpf("oeq", x, c(2.0)))
    result = b.select(exact_zero, c(0.0), result)
    return b.select(b.cmpf("oeq", magnitude, c(math.inf)), c(math.inf), result)


@Composite
def lgamma(b: Scalars, element: str, x: Value) -> Value:
    """``log|gamma(x)|`` (``chlo.lgamma``, ``jax.scipy.special.gammaln``):
    Lanczos' approximation (``LANCZOS``) for ``x >= 1/2``, the reflection
    formula below; ``+inf`` at the poles (0 and the negative integers) and
    at ``+-inf``, exactly 0 at 1 and 2. ``f16`` is computed in ``f32``."""
    return _in_f32(_lgamma)(b, element, x)


def _digamma(b: Scalars, element: str, x: Value) -> Value:
    op, c = b.apply, (lambda v: b.const(v, element))
    reflect, z, t, log_t = _lanczos(b, element, x)
    numerator, denominator = c(0.0), c(LANCZOS_BASE)
    for k, coefficient in enumerate(LANCZOS):  # a'(z) and a(z)
        shifted = op("arith.addf", z, c(k + 1.0))
        numerator = op("arith.subf", numerator,
                       op("arith.divf", c(coefficient), op("arith.mulf", shifted, shifted)))
        denominator = op("arith.addf", denominator, op("arith.divf", c(coefficient), shifted))
    # d/dz log gamma(z + 1) = log t + a'/a - g / t
    y = op("arith.subf", op("arith.addf", log_t, op("arith.divf", numerator, denominator)),
           op("arith.divf", c(LANCZOS_G), t))
    # digamma(x) = digamma(1 - x) - pi cot(pi x), x moved into [-1/2, 1/2] (cot has period 1)
    r = op("arith.addf", x, op("math.absf", op("math.floor", op("arith.addf", x, c(0.5)))))
    angle = op("arith.mulf", c(math.pi), r)
    cot = b.select(b.cmpf("olt", op("math.absf", r), c(_tiny(element))), op("arith.divf", c(1.0), r),
                   op("arith.divf", op("arith.mulf", c(math.pi), op("math.cos", angle)), op("math.sin", angle)))
    result = b.select(reflect, op("arith.subf", y, cot), y)
    pole = op("arith.andi", b.cmpf("ole", x, c(0.0)), b.cmpf("oeq", x, op("math.floor", x)))
    return b.select(pole, c(math.nan), result)


@Composite
def digamma(b: Scalars, element: str, x: Value) -> Value:
    """``d/dx log gamma(x)`` (``chlo.digamma``, ``jax.scipy.special.digamma``):
    the derivative of ``lgamma``'s approximation, the reflection formula
    below 1/2; NaN at the poles (0 and the negative integers, as XLA) and
    at ``-inf``, ``+inf`` at ``+inf``. ``f16`` is computed in ``f32``."""
    return _in_f32(_digamma)(b, element, x)


@Composite
def next_after(b: Scalars, element: str, x: Value, y: Value) -> Value:
    """The float next to ``x`` in the direction of ``y`` (C's ``nextafter``,
    ``chlo.next_after``, ``jnp.nextafter``): ``y`` when ``x == y`` (so the
    sign of a zero is ``y``'s), NaN when either is NaN, the smallest
    subnormal of ``y``'s sign after a zero; otherwise ``x``'s bits as an
    integer, one up when moving away from zero and one down towards it
    (``max`` steps to ``inf`` and ``inf`` back to ``max``)."""
    integer = f"i{rules.bit_width(element)}"
    op, zero = b.apply, b.const(0.0, element)
    bits = b.cast("arith.bitcast", x, integer)
    away = b.cmpi("eq", b.cmpf("olt", x, y), b.cmpf("ogt", x, zero))  # |x| grows
    one = b.const(1, integer)
    stepped = b.select(away, op("arith.addi", bits, one), op("arith.subi", bits, one))
    sign = op("arith.andi", b.cast("arith.bitcast", y, integer), b.const(1 << (rules.bit_width(element) - 1), integer))
    smallest = op("arith.ori", sign, one)
    result = b.select(b.cmpf("oeq", x, zero), smallest, stepped)
    result = b.cast("arith.bitcast", result, element)
    result = b.select(b.cmpf("oeq", x, y), y, result)
    return b.select(b.cmpf("uno", x, y), b.const(math.nan, element), result)


popcnt = _integer("math.ctpop")  # the set bits of the value's bits (two's complement)


@Composite
def count_leading_zeros(b: Scalars, element: str, x: Value) -> Value:
    """The zero bits above the highest set bit of the value's bits (two's
    complement: 0 for a negative value, the width for 0), as StableHLO's
    ``count_leading_zeros`` (``jax.lax.clz``). A binary search for the bit
    length: at each halving ``s``, a value at or above ``2**s`` is shifted
    down by ``s`` and ``s`` counted; the width less the count (and less one
    more when a bit remains) is the answer. Only shifts, compares, selects
    and additions, so every backend runs it."""
    width = rules.bit_width(element)
    zero = b.const(0, element)
    count, v = zero, x
    s = width // 2
    while s:
        big = b.cmpi("ne", b.apply("arith.shrui", v, b.const(s, element)), zero)
        v = b.select(big, b.apply("arith.shrui", v, b.const(s, element)), v)
        count = b.apply("arith.addi", count, b.select(big, b.const(s, element), zero))
        s //= 2
    length = b.apply("arith.addi", count, b.select(b.cmpi("ne", v, zero), b.const(1, element), zero))
    return b.apply("arith.subi", b.const(width, element), length)


@Composite
def rsqrt(b: Scalars, element: str, x: Value) -> Value:
    """``1 / sqrt(x)``, rounded after each step (not ``math.rsqrt``, which
    may be approximate)."""
    return divide(b, element, b.const(1, element), sqrt(b, element, x))


@Composite
def logistic(b: Scalars, element: str, x: Value) -> Value:
    """``1 / (1 + exp(-x))``, rounded after each step."""
    one = b.const(1, element)
    e = exponential(b, element, negate(b, element, x))
    return divide(b, element, one, add(b, element, one, e))


# --------------------------------------------------------------------------
# Ternary
# --------------------------------------------------------------------------


@Composite
def clamp(b: Scalars, element: str, low: Value, x: Value, high: Value) -> Value:
    """``minimum(maximum(x, low), high)`` (StableHLO's ``clamp``, NumPy's
    ``clip``): a NaN in any operand is the result, and ``low > high`` gives
    ``high``."""
    return minimum(b, element, maximum(b, element, x, low), high)


# --------------------------------------------------------------------------
# Compare, select, convert (they carry more than their operands)
# --------------------------------------------------------------------------

FLOAT_PREDICATES = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
"""NaN compares unequal to everything and unordered otherwise (NumPy)."""


def compare(b: Scalars, element: str, direction: str, x: Value, y: Value, total_order: bool = False) -> Value:
    """``bcast.compare``; booleans order False < True. ``total_order`` (on
    floats; StableHLO's ``TOTALORDER``) compares by IEEE 754 totalOrder
    (``total_order_key``): ``-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf <
    +NaN``, NaNs by payload, and ``EQ`` means the same bits."""
    kind = rules.kind(element)
    if kind == "complex":  # EQ and NE only (the verifier's rule): both parts equal
        return b.apply({"EQ": "complex.eq", "NE": "complex.neq"}[direction], x, y)
    if kind == "float" and total_order:
        keys = total_order_key(b, element, x), total_order_key(b, element, y)
        return compare(b, f"i{rules.bit_width(element)}", direction, *keys)
    if kind == "float":
        return b.cmpf(FLOAT_PREDICATES[direction], x, y)
    if direction in ("EQ", "NE"):
        return b.cmpi(direction.lower(), x, y)
    return b.cmpi(("s" if kind == "signed" else "u") + direction.lower(), x, y)



def total_order_key(b: Scalars, element: str, x: Value) -> Value:
    """A float's bits as a signed integer that orders as IEEE totalOrder:
    non-negative bits (``+0.0`` up to ``+NaN``) already do; a set sign bit
    makes the integer negative, and flipping the other bits (``xor
    INT_MAX``) reverses the order of the magnitudes, so ``-0.0`` is -1,
    just below ``+0.0``, and the largest ``-NaN`` is ``INT_MIN``."""
    integer = f"i{rules.bit_width(element)}"
    bits = b.cast("arith.bitcast", x, integer)
    zero, low_bits = b.const(0, integer), b.const(integer_range(integer)[1], integer)
    return b.select(b.cmpi("slt", bits, zero), b.apply("arith.xori", bits, low_bits), bits)


def sort_key(b: Scalars, element: str, x: Value, total_order: bool = False) -> Value:
    """The value ``bcast.sort`` orders ``x`` by. Integers and booleans are
    their own key. A float's key is ``total_order_key`` of the float, after
    NumPy's (and JAX's sort comparator's) canonicalization unless
    ``total_order``: ``-0.0`` becomes ``+0.0`` and every NaN the positive
    quiet NaN, so zeros tie and NaNs tie, after ``+inf``."""
    if rules.kind(element) != "float":
        return x
    if not total_order:
        zero = b.const(0.0, element)
        x = b.select(b.cmpf("oeq", x, zero), zero, x)
        x = b.select(b.cmpf("uno", x, x), b.const(float("nan"), element), x)
    return total_order_key(b, element, x)


def sort_key_element(element: str) -> str:
    """The element type of ``sort_key``'s value: a float's is the signed
    integer of its width."""
    return f"i{rules.bit_width(element)}" if rules.kind(element) == "float" else element


def sorts_before(b: Scalars, element: str, x: Value, y: Value, descending: bool = False,
                 total_order: bool = False) -> Value:
    """Whether ``x`` goes strictly before ``y`` in ``bcast.sort``'s order
    (their ``sort_key``s compared ``LT``, descending ``GT``): a strict weak
    order, so a stable sort by it is one permutation."""
    keys = sort_key(b, element, x, total_order), sort_key(b, element, y, total_order)
    return compare(b, sort_key_element(element), "GT" if descending else "LT", *keys)


def convert(b: Scalars, source: str, target: str, x: Value) -> Value:
    """``bcast.convert``: to ``i1`` is ``x != 0``; float to integer truncates
    toward zero, saturates at the target's range and maps NaN to 0, so
    ``fptosi`` only sees values in range; integers wrap or extend by the
    source's signedness."""
    skind, tkind = rules.kind(source), rules.kind(target)
    if source == target:
        return x
    if "complex" in (skind, tkind):
        return _convert_complex(b, source, target, x)
    if target == "i1":
        zero = b.const(0, source)
        return b.cmpf("une", x, zero) if skind == "float" else b.cmpi("ne", x, zero)
    if skind == "float" and tkind == "float":
        if {source, target} == set(rules.HALF_FLOATS):  # neither holds the other: through f32, exact then rounded once
            return b.cast("arith.truncf", b.cast("arith.extf", x, "f32"), target)
        wider = rules.bit_width(target) > rules.bit_width(source)
        if wider and source == "bf16" and target != "f32":  # bf16 is f32's high half: widened through it, exactly
            x = b.cast("arith.extf", x, "f32")
        return b.cast("arith.extf" if wider else "arith.truncf", x, target)
    if tkind == "float":
        return b.cast("arith.sitofp" if skind == "signed" else "arith.uitofp", x, target)
    if skind != "float":
        sbits, tbits = rules.bit_width(source), rules.bit_width(target)
        if tbits == sbits:
            return x
        if tbits < sbits:
            return b.cast("arith.trunci", x, target)
        return b.cast("arith.extsi" if skind == "signed" else "arith.extui", x, target)
    low, high = integer_range(target)
    at_or_above = b.cmpf("oge", x, b.const(float(high), source))  # the bound rounded to the source
    at_or_below = b.cmpf("ole", x, b.const(float(low), source))
    nan = b.cmpf("uno", x, x)
    outside = b.apply("arith.ori", b.apply("arith.ori", at_or_above, at_or_below), nan)
    inside = b.cast("arith.fptosi" if tkind == "signed" else "arith.fptoui",
                    b.select(outside, b.const(0, source), x), target)
    result = b.select(at_or_below, b.const(low, target), inside)
    result = b.select(at_or_above, b.const(high, target), result)
    return b.select(nan, b.const(0, target), result)


def _convert_complex(b: Scalars, source: str, target: str, x: Value) -> Value:
    """To or from a complex type, as StableHLO's ``convert``: a real value
    becomes the real part (imaginary part 0); a complex value to a real type
    (``i1`` too) keeps its real part, converted as a float of the parts'
    type is; between complex types each part converts."""
    if rules.kind(source) != "complex":
        part = rules.COMPLEX_PARTS[target]
        real = convert(b, source, part, x)
        return b.apply("complex.create", real, b.select(b.cmpf("uno", real, real), b.const(0, part), b.const(0, part)))
    part = rules.COMPLEX_PARTS[source]
    if rules.kind(target) != "complex":
        return convert(b, part, target, b.apply("complex.re", x))
    to = rules.COMPLEX_PARTS[target]
    return b.apply("complex.create", *(convert(b, part, to, b.apply(p, x)) for p in ("complex.re", "complex.im")))


@Composite
def real(b: Scalars, element: str, x: Value) -> Value:
    """The real part of a complex value; a float is its own (StableHLO's ``real``)."""
    return b.apply("complex.re", x) if rules.kind(element) == "complex" else x


@Composite
def imag(b: Scalars, element: str, x: Value) -> Value:
    """The imaginary part of a complex value; 0 for a float (StableHLO's
    ``imag``), selected by a test of ``x`` so the zeros have ``x``'s shape
    on a backend whose constants are scalars."""
    if rules.kind(element) == "complex":
        return b.apply("complex.im", x)
    zero = b.const(0, element)
    return b.select(b.cmpf("uno", x, x), zero, zero)


complex_ = OnePrimitive(float="complex.create")
"""``complex(re, im)``: two floats of one type make the complex of that part type."""


def bitcast(b: Scalars, source: str, target: str, x: Value) -> Value:
    """``bcast.bitcast_convert`` (one width): between integers the bits are
    the value already (arith's integers are signless); to or from a float,
    ``arith.bitcast`` through the signed integer of that width."""
    skind, tkind = rules.kind(source), rules.kind(target)
    if skind != "float" and tkind != "float":
        return x
    if tkind == "float":
        return b.cast("arith.bitcast", x, target)
    return b.cast("arith.bitcast", x, f"i{rules.bit_width(target)}")


def integer_range(element: str) -> tuple[int, int]:
    """The lowest and highest value of an integer element type."""
    bits = rules.bit_width(element)
    if rules.kind(element) == "signed":
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


DEFINITIONS: dict[str, OnePrimitive | MathFunction | Composite] = {
    name: value for name, value in dict(globals()).items()
    if not name.startswith("_") and isinstance(value, OnePrimitive | MathFunction | Composite)
}  # fmt: skip
"""Every op definition above by its name (``bcast.ir.numerics.divide`` is
``divide`` on NumPy arrays)."""

_NAMES = {id(definition): name for name, definition in DEFINITIONS.items()}


def name_of(definition: OnePrimitive | MathFunction | Composite) -> str:
    """The name a definition has in this module."""
    return _NAMES[id(definition)]


class Probe:
    """Scalars over symbolic operands that note each primitive a definition
    applies, as a tuple of its name and operands (also its value): what a
    backend asks to judge a definition's cost or find the one library call
    it is."""

    def __init__(self):
        self.calls: list[tuple] = []

    def _note(self, *call):
        self.calls.append(call)
        return call

    def const(self, value, element):
        return self._note("const", value)

    def apply(self, name, *operands):
        return self._note(name, *operands)

    def cmpi(self, predicate, x, y):
        return self._note("arith.cmpi", predicate, x, y)

    def cmpf(self, predicate, x, y):
        return self._note("arith.cmpf", predicate, x, y)

    def select(self, condition, if_true, if_false):
        return self._note("arith.select", condition, if_true, if_false)

    def cast(self, name, x, element):
        return self._note(name, x, element)

    def loop(self, trips, inits, body):
        self._note("scf.for")
        return body(list(inits))


def primitives_of(definition: Definition, element: str, arity: int) -> frozenset[str]:
    """The primitives ``definition`` uses on ``element`` operands (``scf.for``
    for a loop, ``const`` for constants)."""
    probe = Probe()
    definition(probe, element, *[f"%{i}" for i in range(arity)])
    return frozenset(call[0] for call in probe.calls)


def one_call(run: Callable[..., Value], arity: int) -> tuple | None:
    """The one primitive call ``run(scalars, *operands)`` is, with the
    operands in order as its last arguments, if it is one."""
    probe, operands = Probe(), tuple(f"%{i}" for i in range(arity))
    result = run(probe, *operands)
    if probe.calls == [result] and result[-arity:] == operands:
        return result
    return None


def one_primitive(definition: Definition, element: str, arity: int) -> str | None:
    """The primitive ``definition`` is on ``element`` operands, if it applies
    exactly one to its operands (``divide`` on floats is ``arith.divf``)."""
    call = one_call(lambda b, *xs: definition(b, element, *xs), arity)
    return call[0] if call is not None and len(call) == arity + 1 else None
