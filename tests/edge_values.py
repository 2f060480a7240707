"""The edge values of each element type: the inputs every op is checked on
(``test_op_matrix.py``).

Integers: the values where integer semantics has a rule of its own (0, -1,
``MIN``, ``MIN / -1``, shift amounts at and past the width, negative
exponents); floats: signed zeros, infinities, NaN, the smallest subnormal,
the largest finite value, halves and values beside them, and values just
out of range of each integer type (float -> int saturation). Each list is
in the element type itself, without duplicates (by bits): ``-1`` and
``MAX`` are one value of an unsigned type, ``3e9`` is ``inf`` in ``f16``.
"""

from __future__ import annotations

import numpy as np

from bcast.ir.types import (NIBBLE_DTYPES, NUMPY_DTYPES, finfo, iinfo, is_complex_dtype, is_float_dtype,
                            is_integer_dtype)

NIBBLE_REFUSAL = r"is not supported by the array-api target \(its element type u?i4\)"
"""The Array API target's located refusal of i4/ui4 (docs/array-api.md), as
a pattern the tests that expect it match."""

ELEMENT_TYPES = tuple(NUMPY_DTYPES)
"""Every element type bcast has (``i1``, ``i8``...``ui64``, ``f16``...)."""

INTEGER_TYPES = tuple(t for t in ELEMENT_TYPES if is_integer_dtype(NUMPY_DTYPES[t]))

COMPLEX_TYPES = tuple(t for t in ELEMENT_TYPES if is_complex_dtype(NUMPY_DTYPES[t]))


def dtype(t: str) -> np.dtype:
    return np.dtype(NUMPY_DTYPES[t])


def bit_count(dt: np.dtype) -> int:
    """The bits of a value of ``dt`` (4 for int4/uint4, which take a byte)."""
    return 4 if dt in NIBBLE_DTYPES else dt.itemsize * 8


def _unique_bits(values: np.ndarray) -> np.ndarray:
    """``values`` in their first-seen order, each bit pattern once."""
    if values.dtype in NIBBLE_DTYPES:  # each value once (their bytes are their nibbles)
        _, first = np.unique(values.astype(np.int64), return_index=True)
        return values[np.sort(first)]
    if is_complex_dtype(values.dtype):  # both parts' bits
        parts = values.view(f"u{values.itemsize // 2}").reshape(-1, 2)
        _, first = np.unique(parts, axis=0, return_index=True)
        return values[np.sort(first)]
    bits = values.view(f"u{values.itemsize}") if values.dtype != np.bool_ else values
    _, first = np.unique(bits, return_index=True)
    return values[np.sort(first)]


def _wrapped(values: list[int], dt: np.dtype) -> np.ndarray:
    """Python ints in ``dt``, wrapped modulo 2**bits (two's complement)."""
    bits = bit_count(dt)
    if dt in NIBBLE_DTYPES:  # the wrapped values, in range, converted exactly
        signed = iinfo(dt).min < 0
        return np.array([v % 16 - 16 if signed and v % 16 >= 8 else v % 16 for v in values]).astype(dt)
    unsigned = np.array([v % (1 << bits) for v in values], dtype=f"u{dt.itemsize}")
    return unsigned.view(dt)


def integer_edges(dt: np.dtype) -> list[int]:
    """As Python ints (may be out of range: they are wrapped into ``dt``)."""
    info, bits = iinfo(dt), bit_count(dt)
    return [0, 1, -1, 2, info.min, info.min + 1, info.max, info.max - 1,
            bits - 1, bits, bits + 1, 2 * bits, -bits]  # fmt: skip


def float_edges(dt: np.dtype) -> np.ndarray:
    info = finfo(dt)
    values = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 0.5, -0.5, 0.49, -1.5, 2.5,
              float(info.smallest_subnormal), -float(info.smallest_subnormal),
              float(info.max), -float(info.max), 3e9, -3e9, 2.0**31, -(2.0**31), 2.0**63, -(2.0**63)]
    with np.errstate(over="ignore"):
        return np.array(values, np.float64).astype(dt)


def complex_edges(dt: np.dtype) -> np.ndarray:
    """Complex values whose parts are float edges: zeros of each sign in
    each part, the units, infinities and NaN in one part or both, the
    largest finite and the smallest subnormal parts, and plain values."""
    part = np.dtype(dt.type(0).real.dtype)
    info = finfo(part)
    big, tiny, inf, nan = float(info.max), float(info.smallest_subnormal), np.inf, np.nan
    values = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0),
              (-1.5, 2.5), (0.5, -0.5), (inf, 0.0), (0.0, inf), (-inf, 1.0), (1.0, -inf), (inf, inf),
              (nan, 0.0), (0.0, nan), (big, big), (-big, 1.0), (tiny, -1.0), (3e9, -2.0), (1e-3, 1e3)]
    result = np.empty(len(values), dt)
    result.real = [re for re, _ in values]
    result.imag = [im for _, im in values]
    return result


def edges(t: str) -> np.ndarray:
    """The edge values of element type ``t``."""
    dt = dtype(t)
    if is_complex_dtype(dt):
        return _unique_bits(complex_edges(dt))
    if dt == np.bool_:
        return np.array([False, True])
    if is_integer_dtype(dt):
        return _unique_bits(_wrapped(integer_edges(dt), dt))
    return _unique_bits(float_edges(dt))


def convert_sources(t: str) -> np.ndarray:
    """Inputs of ``convert`` from ``t``: its edges and, for a float type,
    each integer type's ``MIN``, ``MAX``, ``MIN - 1`` and ``MAX + 1`` as
    they round into ``t`` (saturation exactly at the ends)."""
    dt = dtype(t)
    if not is_float_dtype(dt):
        return edges(t)
    ends = []
    for i in INTEGER_TYPES:
        info = iinfo(dtype(i))
        ends += [int(info.min), int(info.max), int(info.min) - 1, int(info.max) + 1]
    with np.errstate(over="ignore"):
        extra = np.array([float(v) for v in ends], np.float64).astype(dt)
    return _unique_bits(np.concatenate([edges(t), extra]))


def pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair of ``t``'s edge values, as two 1-D arrays."""
    values = edges(t)
    a, b = np.meshgrid(values, values, indexing="ij")
    return a.reshape(-1), b.reshape(-1)
