"""``bcast.erf_inv`` on every backend: ``f32`` as XLA computes it (Giles'
single-precision approximation), ``f64`` the inverse of ``erf`` to a few
ulps, and the special values (``+-1`` to ``+-inf``, beyond to NaN)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import bcast
from bcast.tools.api import BACKENDS

PROGRAM = """func.func @main(%x: tensor<{n}xf32>, %y: tensor<{n}xf64>) -> (tensor<{n}xf32>, tensor<{n}xf64>) {{
  %a = bcast.erf_inv %x : tensor<{n}xf32>
  %b = bcast.erf_inv %y : tensor<{n}xf64>
  func.return %a, %b : tensor<{n}xf32>, tensor<{n}xf64>
}}"""

POINTS = np.concatenate([np.linspace(-0.999999, 0.999999, 2001), [0.0, -0.0, 1e-30, -1e-8, 0.99999994]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_erf_inv_inverts_erf(backend):
    f = bcast.compile(PROGRAM.format(n=len(POINTS)), backend=backend)
    a, b = f(POINTS.astype(np.float32), POINTS)
    for got, y in zip(b, POINTS):  # f64: erf of the result is the argument to about an ulp
        assert abs(math.erf(got) - y) <= 4e-16 * max(1.0, abs(y) / max(abs(y), 1e-300)), (y, got)
    f32 = POINTS.astype(np.float32)
    inverse = np.array([math.erf(v) for v in a.astype(np.float64)])
    np.testing.assert_allclose(inverse, f32, rtol=2e-6, atol=1e-7)
    assert np.signbit(a[POINTS == 0.0]).tolist() == np.signbit(f32[POINTS == 0.0]).tolist()


@pytest.mark.parametrize("backend", BACKENDS)
def test_erf_inv_special_values(backend):
    special = np.array([1.0, -1.0, 1.5, -2.0, np.nan, np.inf])
    f = bcast.compile(PROGRAM.format(n=len(special)), backend=backend)
    for got in f(special.astype(np.float32), special):
        np.testing.assert_array_equal(got, [np.inf, -np.inf, np.nan, np.nan, np.nan, np.nan])


def test_erf_inv_f32_is_xlas():
    jax = pytest.importorskip("jax")
    x = POINTS.astype(np.float32)
    want = np.asarray(jax.scipy.special.erfinv(x))
    got = bcast.compile(PROGRAM.format(n=len(POINTS)), backend="numpy")(x, POINTS)[0]
    np.testing.assert_allclose(got, want, rtol=3e-7, atol=0)
