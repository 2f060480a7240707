"""``math.erf`` and ``math.erfc`` for the libraries that lack them, composed
of the other primitives of ``bcast.ir.scalar``.

NumPy and the Array API standard have no error function; C has libm's
(``erf``/``erff``/``erfc``/``erfcf``) and XLA its own (``chlo.erf``/``chlo.erfc``).
The NumPy functions (``bcast.ir.numerics``, and so the reference evaluator
and the NumPy backend) and the Array API runtime implement the two
primitives with the functions below, run on their own ``Scalars``: one
algorithm, written once, of ``+ - * /``, ``floor``, ``abs``, ``exp`` and
``select``, so it is as lazy as the rest (dask) and traceable (JAX). The
loop IR (so C) computes ``erfc`` with it too (upstream MLIR 19 has
``math.erf``, which C calls as libm's, but no ``math.erfc``), and so does
the StableHLO target (XLA's ``chlo.erfc`` is hundreds of ulps off in the
tail; docs/stablehlo.md).

The algorithm, in f64 (an ``f32`` operand is widened and the result rounded
once, so ``f32`` results are within 1 ulp of the true value):

- ``|x| < 1/2``: ``erf(x) = x * P(x*x)``, ``erfc(x) = 1 - erf(x)`` (no
  cancellation: ``erf(x)`` is below 0.53);
- ``|x| >= 1/2``: ``erfc(|x|) = exp(-x*x) * F(|x|)`` with ``F(a) = exp(a*a) *
  erfc(a)``, smooth and slowly varying: a polynomial in ``a`` on ``[1/2, 2)``
  and on ``[2, 4)``, and ``G(1/(a*a)) / a`` beyond (``G(s) = a * F(a)`` tends to
  ``1/sqrt(pi)``); ``erf(x) = +-(1 - erfc(|x|))``, ``erfc(-a) = 2 - erfc(a)``.
  The tail is never ``1 - erf``, which would cancel. ``exp(-x*x)`` is
  ``exp(-h*h) * exp(-(x - h) * (x + h))`` with ``h`` = ``x`` cut to 21 bits
  after the point, so ``h*h`` is exact: ``x*x`` rounded would cost up to
  ``x*x * 2**-53`` of relative error (hundreds of ulps at ``x = 26``);
- past ``|x| = 28`` ``erfc`` is 0 (it underflows past 27.3) and ``erf`` is +-1;
  ``erf(+-0) = +-0``, ``erf(+-inf) = +-1``, ``erfc(-inf) = 2``, NaN stays NaN.

Each polynomial is the Chebyshev interpolant of its function (computed
with 50 digits by ``tests/ir/fit_erf_coefficients.py``) written in powers
of ``v - mid``; the interpolants are within ``1e-17`` (relative) of the
functions, below the rounding of f64. Measured error against Python's
``math.erf``/``math.erfc`` (glibc, within 1 ulp themselves):
``tests/ir/test_special.py`` bounds it by ``ERF_ULPS`` ulps of each
element type over a dense sweep, the tails, subnormals and the special
values.
"""

from __future__ import annotations

from bcast.ir.scalar import Scalars, Value

ERF_ULPS = {"f16": 1, "f32": 1, "f64": 6}
"""The bound, in ulps of the element type, of ``erf`` and ``erfc`` below
against glibc's results rounded to the type (``tests/ir/test_special.py``).
Against the correctly rounded f64 results (50-digit mpmath, 38000 points
of ``erfc`` on ``[-3, 28]``) the largest error measured is 4 ulps, glibc's
own 3."""

Piece = tuple[float, tuple[float, ...]]
"""``(mid, coefficients)``: the polynomial ``sum(c[k] * (v - mid)**k)``."""

ERF_SMALL: Piece = (0.125, (
    1.0830752376761712, -0.3491364710935831, 0.10323658675594932,
    -0.024383165104740107, 0.004716969080911766, -0.0007691399920694917,
    0.00010818748975606738, -1.3373262711652195e-05, 1.4725865480556744e-06,
))  # fmt: skip
"""``erf(x) / x`` as a polynomial in ``s = x*x``, ``s`` in ``[0, 1/4]``."""

ERFC_NEAR: Piece = (1.25, (
    0.3678229164523611, -0.20882187596460985, 0.10679557149659928,
    -0.05021827439590769, 0.022011364250828717, -0.009081627632927324,
    0.003553109903875953, -0.001325782929846726, 0.00047397030283264957,
    -0.0001629600074316919, 5.4054108971728716e-05, -1.7344091353066755e-05,
    5.395462390055807e-06, -1.630643366451485e-06, 4.801033754096196e-07,
    -1.3761288922564854e-07, 3.774027852586979e-08, -1.033550401575574e-08,
    3.4032914151941086e-09, -8.849955003240408e-10,
))  # fmt: skip
"""``F(a) = exp(a*a) * erfc(a)``, ``a`` in ``[1/2, 2]``."""

ERFC_MID: Piece = (3.0, (
    0.17900115118138996, -0.05437226000717289, 0.01588437115987134,
    -0.004479431018371144, 0.0012230390523765237, -0.00032412554452200884,
    8.355413963369297e-05, -2.0989464259545496e-05, 5.146436522511331e-06,
    -1.2333685934914701e-06, 2.8926684651166363e-07, -6.64646639786765e-08,
    1.4977253627698686e-08, -3.316229237177357e-09, 7.20516363335066e-10,
    -1.5077563830210874e-10, 3.1724792006762475e-11, -8.134236373235494e-12,
    1.6482525468969957e-12,
))  # fmt: skip
"""``F(a)``, ``a`` in ``[2, 4]``."""

ERFC_TAIL: Piece = (0.03188775510204082, (
    0.555593535796611, -0.2579269188461501, 0.3402376675676149,
    -0.7112499895630883, 1.9858051091015811, -6.820127760081672,
    27.459471963600837, -125.60407219030645, 638.546288145752,
    -3551.9459506765393, 21336.02658370252, -134559.7354768547,
    914060.6027302531, -8364986.195703532, 64379238.51819023,
))  # fmt: skip
"""``G(s) = a * F(a)`` as a polynomial in ``s = 1/(a*a)``, ``a`` in ``[4, 28]``."""

SPLIT = 2.0**21
"""``h = floor(a * SPLIT) / SPLIT`` has at most 5 + 21 bits below 32, so ``h*h`` is exact in f64."""

TAIL_END = 28.0
"""``erfc`` is 0 in f64 from here on (``erfc(27.3)`` is below half the least subnormal)."""


def erf(b: Scalars, element: str, x: Value) -> Value:
    """``math.erf`` on ``f32``/``f64`` values."""
    return _in_f64(b, element, x, _erf)


def erfc(b: Scalars, element: str, x: Value) -> Value:
    """``math.erfc`` on ``f32``/``f64`` values."""
    return _in_f64(b, element, x, _erfc)


EXPANSIONS = {"math.erf": erf, "math.erfc": erfc}
"""The primitives composed here, by name."""


def _in_f64(b: Scalars, element: str, x: Value, f) -> Value:
    if element == "f64":
        return f(b, x)
    return b.cast("arith.truncf", f(b, b.cast("arith.extf", x, "f64")), element)


def _polynomial(b: Scalars, piece: Piece, v: Value) -> Value:
    """``piece`` at ``v`` (Horner's scheme in ``v - mid``)."""
    mid, coefficients = piece
    u = b.apply("arith.subf", v, b.const(mid, "f64"))
    r = b.const(coefficients[-1], "f64")
    for c in reversed(coefficients[:-1]):
        r = b.apply("arith.addf", b.apply("arith.mulf", r, u), b.const(c, "f64"))
    return r


def _erf_small(b: Scalars, x: Value) -> Value:
    """``erf(x)`` for ``|x| < 1/2``; exact in sign, and ``x * (2/sqrt(pi))``
    rounded once for tiny and subnormal ``x``."""
    return b.apply("arith.mulf", x, _polynomial(b, ERF_SMALL, b.apply("arith.mulf", x, x)))


def _erfc_large(b: Scalars, a: Value) -> Value:
    """``erfc(a)`` for ``a >= 1/2`` (and NaN): ``exp(-a*a) * F(a)``."""
    mul, sub = (lambda x, y: b.apply("arith.mulf", x, y)), (lambda x, y: b.apply("arith.subf", x, y))
    near = _polynomial(b, ERFC_NEAR, a)
    mid = _polynomial(b, ERFC_MID, a)
    tail = b.apply("arith.divf", _polynomial(b, ERFC_TAIL, b.apply("arith.divf", b.const(1, "f64"), mul(a, a))), a)
    f = b.select(b.cmpf("olt", a, b.const(2, "f64")), near,
                 b.select(b.cmpf("olt", a, b.const(4, "f64")), mid, tail))
    split = b.const(SPLIT, "f64")
    h = b.apply("arith.divf", b.apply("math.floor", mul(a, split)), split)
    low = mul(sub(a, h), b.apply("arith.addf", a, h))  # a*a = h*h + low, 0 <= low < 2**-16
    # exp(-low) * f = f + f * q, q = exp(-low) - 1 to 4 terms (low**4 / 24 < 2**-67): one rounding
    q = mul(low, b.apply("arith.subf", mul(low, b.apply("arith.subf", b.const(0.5, "f64"),
                                                         mul(low, b.const(1 / 6, "f64")))), b.const(1, "f64")))
    scaled = b.apply("arith.addf", f, mul(f, q))
    exp_high = b.apply("math.exp", b.apply("arith.negf", mul(h, h)))
    r = mul(scaled, exp_high)  # the possibly subnormal factor last: one rounding there
    return b.select(b.cmpf("ogt", a, b.const(TAIL_END, "f64")), b.const(0, "f64"), r)


def _erf(b: Scalars, x: Value) -> Value:
    a = b.apply("math.absf", x)
    large = b.apply("arith.subf", b.const(1, "f64"), _erfc_large(b, a))
    signed = b.select(b.cmpf("olt", x, b.const(0, "f64")), b.apply("arith.negf", large), large)
    return b.select(b.cmpf("olt", a, b.const(0.5, "f64")), _erf_small(b, x), signed)


def _erfc(b: Scalars, x: Value) -> Value:
    a = b.apply("math.absf", x)
    large = _erfc_large(b, a)
    signed = b.select(b.cmpf("olt", x, b.const(0, "f64")), b.apply("arith.subf", b.const(2, "f64"), large), large)
    small = b.apply("arith.subf", b.const(1, "f64"), _erf_small(b, x))
    return b.select(b.cmpf("olt", a, b.const(0.5, "f64")), small, signed)


# --------------------------------------------------------------------------
# sinh, cosh, atanh for the StableHLO target
# --------------------------------------------------------------------------
#
# XLA's own ``chlo.sinh``/``chlo.cosh`` lose hundreds of ulps at large |x| in
# f64 (423 measured at x = 537: ``exp(x + log(1/2))`` rounds ``x + log(1/2)``)
# and its ``chlo.atanh`` over a hundred near 0.41 in f64 (docs/stablehlo.md),
# so the StableHLO target writes these compositions of its ``exp``,
# ``expm1`` and ``log1p`` instead, in f64 (an f32 operand is widened and the
# result rounded once): within 3 ulps of libm in f64
# (``tests/lowering/test_chlo_functions.py``).


def _signed(b: Scalars, x: Value, magnitude_result: Value) -> Value:
    """An odd function's value at ``x`` from its value at ``|x|``; a zero
    (either sign) is its own result."""
    zero = b.const(0.0, "f64")
    r = b.select(b.cmpf("olt", x, zero), b.apply("arith.negf", magnitude_result), magnitude_result)
    return b.select(b.cmpf("oeq", x, zero), x, r)


def _half_exp(b: Scalars, a: Value) -> tuple[Value, Value]:
    """``(exp(a) / 2, 1 / (2 exp(a)))`` for ``a >= 0``, with ``exp(a)`` as
    ``exp(a/2)**2`` so that it overflows only where ``exp(a) / 2`` does."""
    e = b.apply("math.exp", b.apply("arith.mulf", a, b.const(0.5, "f64")))
    big = b.apply("arith.mulf", b.apply("arith.mulf", b.const(0.5, "f64"), e), e)
    return big, b.apply("arith.divf", b.const(0.25, "f64"), big)


def _sinh(b: Scalars, x: Value) -> Value:
    a = b.apply("math.absf", x)
    m = b.apply("math.expm1", a)  # below 1: (e - 1/e) / 2 without cancelling
    small = b.apply("arith.mulf", b.const(0.5, "f64"),
                    b.apply("arith.addf", m, b.apply("arith.divf", m, b.apply("arith.addf", m, b.const(1.0, "f64")))))
    big, tiny = _half_exp(b, a)
    s = b.select(b.cmpf("olt", a, b.const(1.0, "f64")), small, b.apply("arith.subf", big, tiny))
    return _signed(b, x, s)


def _cosh(b: Scalars, x: Value) -> Value:
    big, tiny = _half_exp(b, b.apply("math.absf", x))
    return b.apply("arith.addf", big, tiny)


def _atanh(b: Scalars, x: Value) -> Value:
    a = b.apply("math.absf", x)
    ratio = b.apply("arith.divf", b.apply("arith.mulf", b.const(2.0, "f64"), a),
                    b.apply("arith.subf", b.const(1.0, "f64"), a))
    return _signed(b, x, b.apply("arith.mulf", b.const(0.5, "f64"), b.apply("math.log1p", ratio)))


STABLEHLO_EXPANSIONS = {
    name: (lambda f: lambda b, element, x: _in_f64(b, element, x, f))(f)
    for name, f in (("math.sinh", _sinh), ("math.cosh", _cosh), ("math.atanh", _atanh))
}  # fmt: skip
"""The primitives the StableHLO target composes (above), by name."""
