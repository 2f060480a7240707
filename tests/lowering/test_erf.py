"""``bcast.erf``/``bcast.erfc`` on the backends that do not (only) run
``bcast.ir.special``'s composition: C (libm's ``erf``, the composed ``erfc``)
and XLA (``chlo.erf``, the composed ``erfc`` in StableHLO ops), over dense
sweeps, in ulps against Python's ``math.erf``/``math.erfc``
(tests/ir/test_special.py holds the composition itself)."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.ir import special
from bcast.tests.ir.test_special import libm, sweep, ulps
from bcast.tests.xla import run_on_xla, written_back

XLA_ERF_ULPS = {"f32": 5, "f64": 1}
"""XLA's ``chlo.erf`` against glibc's (docs/stablehlo.md)."""


def xla_chlo_erfc_bound(x: np.ndarray) -> np.ndarray:
    """XLA's own ``chlo.erfc`` rounds ``x*x`` before ``exp(-x*x)``: its
    error grows with ``x*x`` (why the StableHLO target does not write it)."""
    return 6 * (1 + x.astype(np.float64) ** 2)


def program(element: str, n: int) -> str:
    t = f"tensor<{n}x{element}>"
    return f"""func.func @main(%x: {t}) -> ({t}, {t}) {{
  %e = bcast.erf %x : {t}
  %c = bcast.erfc %x : {t}
  func.return %e, %c : {t}, {t}
}}"""


def flushed(x: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where XLA's CPU runtime flushes a subnormal operand or result to zero."""
    tiny = np.finfo(x.dtype).tiny
    return ((x != 0) & (np.abs(x) < tiny)) | ((want != 0) & (np.abs(want) < tiny))


@pytest.mark.parametrize("element, dtype", [("f32", np.float32), ("f64", np.float64)])
def test_c_calls_libm_erf_and_composes_erfc(element, dtype):
    x = sweep(dtype)[::5]
    erf, erfc = (np.asarray(r) for r in bcast.compile(program(element, x.size), backend="c")(x))
    assert ulps(erf, libm("erf", x)).max() <= 4  # glibc's erf/erff, or libmvec's in simd loops (4 ulps)
    assert ulps(erfc, libm("erfc", x)).max() <= special.ERF_ULPS[element] + 1  # C's exp, not NumPy's


def test_the_loop_ir_calls_math_erf_and_composes_erfc():
    """``math.erfc`` is no op of MLIR 19: the loop IR composes it of
    ``math.exp`` and arithmetic; ``erf`` stays ``math.erf`` (libm)."""
    from bcast.tools import driver

    module = driver.load(program("f32", 4), "erf.mlir", pipeline=driver.STANDARD_PIPELINE + ",bcast-lower-to-loops")
    names = {op.name for op in module.walk()}
    assert "math.erf" in names and "math.exp" in names and "math.erfc" not in names


@pytest.mark.parametrize("element, dtype", [("f32", np.float32), ("f64", np.float64)])
def test_xla_runs_the_exported_chlo_within_its_bounds(element, dtype):
    x = sweep(dtype)[::5]
    exported = written_back(program(element, x.size), "erf.mlir")
    assert "chlo.erf " in exported and "chlo.erfc" not in exported  # erfc: the composition
    erf, erfc = run_on_xla(exported, [x])
    want_erf, want_erfc = libm("erf", x), libm("erfc", x)
    off = np.where(flushed(x, want_erf), 0, ulps(erf, want_erf))
    assert off.max() <= XLA_ERF_ULPS[element], (x[np.argmax(off)], off.max())
    off = np.where(flushed(x, want_erfc), 0, ulps(erfc, want_erfc))
    assert off.max() <= special.ERF_ULPS[element], (x[np.argmax(off)], off.max())


@pytest.mark.parametrize("element, dtype", [("f32", np.float32), ("f64", np.float64)])
def test_xlas_own_chlo_erfc_is_why_the_export_composes_erfc(element, dtype):
    """XLA's ``chlo.erfc`` (what JAX writes) is within ``6 * (1 + x*x)``
    ulps, and far outside bcast's bound in the tail."""
    pytest.importorskip("jax")
    from bcast.tools.jax_bridge import run_stablehlo

    x = sweep(dtype)[::5]
    t = f"tensor<{x.size}x{element}>"
    (got,) = run_stablehlo(f"func.func public @main(%x: {t}) -> {t} {{\n  %0 = chlo.erfc %x : {t} -> {t}\n"
                           f"  return %0 : {t}\n}}", [x])
    want = libm("erfc", x)
    off = np.where(flushed(x, want), 0, ulps(got, want))
    assert (off <= xla_chlo_erfc_bound(x)).all(), (x[np.argmax(off - xla_chlo_erfc_bound(x))], off.max())
    assert off.max() > 50 * special.ERF_ULPS[element]
