"""Bridges between xDSL types and the plain values the rules work on."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute

from bcast.ir.rules import ELEMENT_TYPES, Levels, RuleError, Shape, check_sizes_fit_int64, flat_shape

_FLOATS = {"f16": Float16Type, "f32": Float32Type, "f64": Float64Type}

NUMPY_DTYPES = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
}


def element_name(t: Attribute) -> str | None:
    """``i32``, ``ui8``, ``f16``...; None for a type bcast does not support."""
    if isinstance(t, IntegerType):
        width = t.width.data
        sign = t.signedness.data
        name = ("ui" if sign == Signedness.UNSIGNED else "i") + str(width)
        if sign == Signedness.SIGNED or name not in ELEMENT_TYPES:
            return None
        return name
    for name, cls in _FLOATS.items():
        if isinstance(t, cls):
            return name
    return None


def element_type(name: str) -> Attribute:
    if name in _FLOATS:
        return _FLOATS[name]()
    if name.startswith("ui"):
        return IntegerType(int(name[2:]), Signedness.UNSIGNED)
    return IntegerType(int(name[1:]))


TYPE_CACHE_SIZE = 8192
"""Distinct types remembered by ``split_type`` and ``make_type``. Verifiers,
passes and backends ask about the same few types tens of times per op
(profiled: a third of the standard pipeline's time at 10k ops); types are
immutable, so the answers can be kept. Errors are not cached."""


@lru_cache(maxsize=TYPE_CACHE_SIZE)
def split_type(t: Attribute) -> tuple[Levels, str]:
    """A (possibly nested) tensor type -> (levels, element type name)."""
    levels: list[Shape] = []
    inner = t
    while isinstance(inner, TensorType):
        levels.append(tuple(inner.get_shape()))
        inner = inner.element_type
    if not levels:
        raise RuleError(f"expected a tensor type, got {t}")
    name = element_name(inner)
    if name is None:
        raise RuleError(
            f"unsupported element type {inner}",
            ["bcast supports i1, i8..i64, ui8..ui64, f16, f32 and f64"],
        )
    if any(d < 0 for level in levels for d in level):
        raise RuleError(f"dynamic dimensions are not supported: {t}")
    check_sizes_fit_int64(tuple(levels))
    return tuple(levels), name


def make_type(levels: Levels, element: str) -> TensorType:
    """The (possibly nested) tensor type of ``levels`` and ``element``."""
    return _make_type(tuple(tuple(level) for level in levels), element)


@lru_cache(maxsize=TYPE_CACHE_SIZE)
def _make_type(levels: Levels, element: str) -> TensorType:
    t: Attribute = element_type(element)
    for level in reversed(levels):
        t = TensorType(t, level)
    assert isinstance(t, TensorType)
    return t


def flat_type_shape(t: Attribute) -> Shape:
    return flat_shape(split_type(t)[0])


def numpy_dtype(t: Attribute) -> np.dtype:
    return np.dtype(NUMPY_DTYPES[split_type(t)[1]])


def is_nested(t: Attribute) -> bool:
    """A tensor of tensors (TML)."""
    return len(split_type(t)[0]) > 1


def dense_i64(values: Sequence[int]) -> DenseArrayBase:
    """``array<i64: ...>`` of ``values`` (dims, permutations, indices)."""
    return _dense_of(tuple(values))


@lru_cache(maxsize=4096)
def _dense_of(values: tuple[int, ...]) -> DenseArrayBase:
    """One attribute per distinct list: attributes are immutable, and building
    one checks every value again (a tenth of ``bcast-make-explicit``)."""
    return DenseArrayBase.from_list(i64, list(values))
