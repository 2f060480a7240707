"""How the polynomials of ``bcast.ir.special`` were computed (a script, not a
test: it needs ``mpmath``, which bcast does not depend on).

Each piece is the Chebyshev interpolant of its function on its interval, at
the lowest degree whose truncation error (relative, measured at 401 points
with 50 digits) is below ``1e-17``, rewritten in powers of ``v - mid`` and
rounded to f64. Run: ``python tests/ir/fit_erf_coefficients.py``; it prints
the tables of ``bcast/ir/special.py``.
"""

from __future__ import annotations

import mpmath as mp

mp.mp.dps = 50
TARGET = 1e-17


def erf_over_x(s):
    """``erf(x) / x`` at ``s = x*x``."""
    return mp.erf(mp.sqrt(s)) / mp.sqrt(s) if s > 0 else 2 / mp.sqrt(mp.pi)


def scaled_erfc(a):
    """``F(a) = exp(a*a) * erfc(a)``."""
    return mp.exp(a * a) * mp.erfc(a)


def scaled_tail(s):
    """``G(s) = a * F(a)`` at ``s = 1/(a*a)``."""
    return scaled_erfc(1 / mp.sqrt(s)) / mp.sqrt(s)


def interpolant(f, lo, hi, degree):
    """``(mid, coefficients)`` of the Chebyshev interpolant in powers of ``v - mid``."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    mid, half, n = (lo + hi) / 2, (hi - lo) / 2, degree + 1
    angles = [mp.pi * (k + mp.mpf(1) / 2) / n for k in range(n)]
    values = [f(mid + half * mp.cos(t)) for t in angles]
    chebyshev = [2 * sum(v * mp.cos(j * t) for v, t in zip(values, angles)) / n for j in range(n)]
    chebyshev[0] /= 2
    powers = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]  # T_j in powers of t
    for j in range(2, n):
        higher = [mp.mpf(0)] + [2 * c for c in powers[j - 1]]
        lower = powers[j - 2] + [mp.mpf(0)] * (len(higher) - len(powers[j - 2]))
        powers.append([x - y for x, y in zip(higher, lower)])
    monomial = [mp.mpf(0)] * n
    for c, p in zip(chebyshev, powers):
        for k, x in enumerate(p):
            monomial[k] += c * x
    return mid, [m / half**k for k, m in enumerate(monomial)]  # t = (v - mid) / half


def fit(f, lo, hi, max_degree=30):
    for degree in range(4, max_degree + 1):
        mid, coefficients = interpolant(f, lo, hi, degree)
        points = [mp.mpf(lo) + (mp.mpf(hi) - lo) * k / 400 for k in range(401)]
        error = max(abs(sum(c * (v - mid) ** k for k, c in enumerate(coefficients)) / f(v) - 1) for v in points)
        if error < TARGET:
            return degree, float(error), float(mid), [float(c) for c in coefficients]
    raise ValueError(f"no degree up to {max_degree} fits [{lo}, {hi}]")


PIECES = [("ERF_SMALL", erf_over_x, 0.0, 0.25), ("ERFC_NEAR", scaled_erfc, 0.5, 2.0),
          ("ERFC_MID", scaled_erfc, 2.0, 4.0), ("ERFC_TAIL", scaled_tail, 1 / 28.0**2, 0.0625)]  # fmt: skip

if __name__ == "__main__":
    for name, f, lo, hi in PIECES:
        degree, error, mid, coefficients = fit(f, lo, hi)
        print(f"# [{lo!r}, {hi!r}]: degree {degree}, truncation error {error:.1e}")
        print(f"{name}: Piece = ({mid!r}, (")
        for i in range(0, len(coefficients), 3):
            print("    " + " ".join(f"{c!r}," for c in coefficients[i:i + 3]))
        print("))")
