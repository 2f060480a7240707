"""``count_leading_zeros`` (``jax.lax.clz``): on every integer type and every
backend against Python's ``int.bit_length`` at each type's edges; JAX's
export imported and run to ``jax.jit``'s values; ``-t stablehlo`` run by XLA."""

from __future__ import annotations

import numpy as np
import pytest

import bcast

BACKENDS = ("reference", "numpy", "array-api", "c")
TYPES = [("i8", np.int8), ("ui8", np.uint8), ("i16", np.int16), ("ui16", np.uint16),
         ("i32", np.int32), ("ui32", np.uint32), ("i64", np.int64), ("ui64", np.uint64)]


def values(dtype) -> np.ndarray:
    """0, 1, every power of two and its neighbours, the extremes, -1."""
    info = np.iinfo(dtype)
    vs = {0, 1, info.min, info.max, -1 if info.min else 2}
    for k in range(info.bits):
        for v in (2**k - 1, 2**k, 2**k + 1, -(2**k)):
            if info.min <= v <= info.max:
                vs.add(v)
    return np.array(sorted(vs), dtype=object).astype(dtype)


def expected(x: np.ndarray) -> np.ndarray:
    bits = np.iinfo(x.dtype).bits
    return np.array([bits - (int(v) % 2**bits).bit_length() for v in x], dtype=object).astype(x.dtype)


def program(element: str, n: int) -> str:
    t = f"tensor<{n}x{element}>"
    return (f"func.func @main(%x: {t}) -> {t} {{\n  %r = bcast.count_leading_zeros %x : {t}\n"
            f"  func.return %r : {t}\n}}\n")


@pytest.mark.parametrize("element, dtype", TYPES)
def test_every_type_on_every_backend(element, dtype):
    x = values(dtype)
    for backend in BACKENDS:
        got = bcast.compile(program(element, len(x)), backend=backend)(x)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, expected(x), err_msg=backend)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint32, np.int64])
def test_jax_lax_clz_runs_on_every_backend_as_jax_jit(dtype):
    jax = pytest.importorskip("jax")
    x = values(dtype)
    with jax.enable_x64(True):  # (64-bit operands stay 64-bit)
        module = bcast.from_jax(jax.lax.clz, x)
        want = np.asarray(jax.jit(jax.lax.clz)(x))
    assert "bcast.count_leading_zeros" in str(module)
    for backend in BACKENDS:
        np.testing.assert_array_equal(bcast.compile(module, backend=backend)(x), want, err_msg=backend)


@pytest.mark.parametrize("element, dtype", [("ui8", np.uint8), ("i16", np.int16), ("i64", np.int64)])
def test_exported_runs_on_xla(element, dtype):
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    x = values(dtype)
    exported = emit_text(driver.load(program(element, len(x)), "prog.mlir", pipeline=driver.EXPLICIT_PIPELINE))
    assert "stablehlo.count_leading_zeros" in exported
    verify_stablehlo(exported)
    (got,) = run_stablehlo(exported, (x,))
    np.testing.assert_array_equal(np.asarray(got), expected(x))


def test_floats_are_refused():
    with pytest.raises(bcast.BcastError, match="'bcast.count_leading_zeros' op operands must be integer"):
        bcast.compile(program("f32", 2), backend="reference")
