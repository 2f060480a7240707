"""Bridges between xDSL types and the plain values the rules work on."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BFloat16Type,
    ComplexType,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    NoneAttr,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from bcast.ir import rules
from bcast.ir.rules import (
    ELEMENT_TYPES,
    Dynamic,
    Levels,
    RuleError,
    Shape,
    check_sizes_fit_int64,
    flat_shape,
    levels_dynamic,
)

_FLOATS = {"f16": Float16Type, "f32": Float32Type, "f64": Float64Type, "bf16": BFloat16Type}

try:  # NumPy has no bfloat16; ml_dtypes (which jax installs) adds it
    import ml_dtypes
except ImportError:  # pragma: no cover - exercised by a test that hides the module
    ml_dtypes = None

NEEDS_ML_DTYPES = ["bf16, i4 and ui4 arrays need the ml_dtypes package (pip install 'bcast[bf16]' or pip install ml_dtypes)"]
"""The hint of the one refusal of ``bf16``, ``i4`` and ``ui4`` without ml_dtypes (``split_type``)."""

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
    **({"bf16": ml_dtypes.bfloat16} if ml_dtypes is not None else {}),
    **({"i4": ml_dtypes.int4, "ui4": ml_dtypes.uint4} if ml_dtypes is not None else {}),
    "complex<f32>": np.complex64,
    "complex<f64>": np.complex128,
}


FLOAT_DTYPES = frozenset(np.dtype(d) for name, d in NUMPY_DTYPES.items() if name in _FLOATS)
"""The NumPy dtypes of bcast's floats (ml_dtypes' bfloat16 has kind ``V``,
not ``f``: ask ``is_float_dtype``, never ``dtype.kind``)."""


def is_float_dtype(dtype) -> bool:
    """Whether ``dtype`` is one of bcast's floats, bfloat16 included."""
    return np.dtype(dtype) in FLOAT_DTYPES


NIBBLE_DTYPES = {np.dtype(NUMPY_DTYPES[name]): np.dtype(NUMPY_DTYPES[rules.storage(name)])
                 for name in rules.NIBBLES if name in NUMPY_DTYPES}
"""ml_dtypes' int4/uint4 -> the byte-wide dtype bcast computes them in
(``rules.storage``). Their kind is ``V``, not ``i``/``u``, and ml_dtypes'
own arithmetic does not wrap every op (``-int4(-8)`` prints 8): bcast never
computes in them, only stores (docs/semantics.md, "i4 and ui4")."""


def is_integer_dtype(dtype) -> bool:
    """Whether ``dtype`` is one of bcast's non-boolean integers, int4/uint4
    included (ask this, never ``dtype.kind in "iu"``)."""
    dtype = np.dtype(dtype)
    return dtype.kind in "iu" or dtype in NIBBLE_DTYPES


def iinfo(dtype):
    """``np.iinfo`` of an integer dtype, int4/uint4 included (ml_dtypes')."""
    dtype = np.dtype(dtype)
    return ml_dtypes.iinfo(dtype) if dtype in NIBBLE_DTYPES else np.iinfo(dtype)


COMPLEX_DTYPES = frozenset(np.dtype(NUMPY_DTYPES[name]) for name in rules.COMPLEX_PARTS)
"""complex64 and complex128."""


def is_complex_dtype(dtype) -> bool:
    """Whether ``dtype`` is one of bcast's complex types."""
    return np.dtype(dtype) in COMPLEX_DTYPES


def finfo(dtype):
    """``np.finfo`` of a float dtype, bfloat16 included (ml_dtypes' finfo)."""
    return ml_dtypes.finfo(dtype) if ml_dtypes is not None else np.finfo(dtype)


def element_name(t: Attribute) -> str | None:
    """``i32``, ``ui8``, ``f16``...; None for a type bcast does not support."""
    if isinstance(t, IntegerType):
        width = t.width.data
        sign = t.signedness.data
        name = ("ui" if sign == Signedness.UNSIGNED else "i") + str(width)
        if sign == Signedness.SIGNED or name not in ELEMENT_TYPES:
            return None
        return name
    if isinstance(t, ComplexType):
        part = element_name(t.element_type)
        return next((c for c, p in rules.COMPLEX_PARTS.items() if p == part), None)
    for name, cls in _FLOATS.items():
        if isinstance(t, cls):
            return name
    return None


def element_type(name: str) -> Attribute:
    if name in rules.COMPLEX_PARTS:
        return ComplexType(element_type(rules.COMPLEX_PARTS[name]))
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


@irdl_attr_definition
class BoundsAttr(ParametrizedAttribute):
    """StableHLO's bounded dynamism, the encoding of a tensor type:
    ``tensor<?x4xf32, #stablehlo.bounds<16, ?>>`` is a first dim of at most
    16 (one entry per dim, ``?`` for none; a static dim has none, as
    StableHLO's ``verifyBounds`` requires). Stored as ints, -1 for ``?``."""

    name = "stablehlo.bounds"

    bounds: ArrayAttr[IntAttr] = param_def()

    def __init__(self, bounds: Sequence[int | None]):
        super().__init__(ArrayAttr(IntAttr(-1 if b is None else b) for b in bounds))

    def values(self) -> tuple[int | None, ...]:
        return tuple(None if b.data < 0 else b.data for b in self.bounds.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def entry() -> IntAttr:
            if parser.parse_optional_punctuation("?") is not None:
                return IntAttr(-1)
            return IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))

        return (ArrayAttr(parser.parse_comma_separated_list(parser.Delimiter.ANGLE, entry)),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + ", ".join("?" if b is None else str(b) for b in self.values()) + ">")


def check_bounds(t: TensorType) -> tuple[int | None, ...]:
    """The bound of each dim of ``t`` (None for none); an encoding other
    than :class:`BoundsAttr` is refused, as are StableHLO's invalid bounds."""
    encoding = t.encoding
    rank = len(t.get_shape())
    if isinstance(encoding, NoneAttr):
        return (None,) * rank
    if not isinstance(encoding, BoundsAttr):
        raise RuleError(f"tensor encoding {encoding} is not supported: {t}",
                        ["bcast reads #stablehlo.bounds<...> (bounded dynamic dimensions) only"])
    bounds = encoding.values()
    if len(bounds) != rank:
        raise RuleError(f"bounds length is {len(bounds)}, expected to be equal to rank({rank}) of the tensor {t}")
    for d, (size, bound) in enumerate(zip(t.get_shape(), bounds)):
        if bound is not None and size != DYNAMIC_INDEX:
            raise RuleError(f"static dimension {d} cannot have a bound, use ? to indicate a missing bound in tensor {t}")
    return bounds


def _level(t: TensorType) -> Shape:
    """A tensor type's own dims: ints, and ``rules.Dynamic`` for ``?``."""
    shape = tuple(t.get_shape())
    if DYNAMIC_INDEX not in shape and isinstance(t.encoding, NoneAttr):
        return shape
    bounds = check_bounds(t)
    return tuple(Dynamic(b) if n == DYNAMIC_INDEX else n for n, b in zip(shape, bounds))


def tensor_dims(t: TensorType) -> Shape:
    """One tensor type's dims (``rules.Dynamic`` for ``?``), whatever its
    element type: the StableHLO ops read the shapes of types, such as
    ``bf16`` ones, that bcast keeps but does not compute on."""
    return _level(t)


@lru_cache(maxsize=TYPE_CACHE_SIZE)
def split_type(t: Attribute) -> tuple[Levels, str]:
    """A (possibly nested) tensor type -> (levels, element type name); a
    dynamic dim is a ``rules.Dynamic`` (with its bound, if any)."""
    levels: list[Shape] = []
    inner = t
    while isinstance(inner, TensorType):
        levels.append(_level(inner))
        inner = inner.element_type
    if not levels:
        raise RuleError(f"expected a tensor type, got {t}")
    name = element_name(inner)
    if name is None:
        raise RuleError(
            f"unsupported element type {inner}",
            ["bcast supports i1, i4, i8..i64, ui4, ui8..ui64, f16, f32, f64, bf16, complex<f32> and complex<f64>"],
        )
    if name not in NUMPY_DTYPES:
        raise RuleError(f"element type {name} is not available", NEEDS_ML_DTYPES)
    check_sizes_fit_int64(tuple(levels))
    return tuple(levels), name


def element_of(t: Attribute) -> str:
    """The bcast element name (``ui8``, ``f16``...) of a tensor type."""
    return split_type(t)[1]


def make_type(levels: Levels, element: str) -> TensorType:
    """The (possibly nested) tensor type of ``levels`` and ``element``."""
    return _make_type(tuple(tuple(level) for level in levels), element)


@lru_cache(maxsize=TYPE_CACHE_SIZE)
def _make_type(levels: Levels, element: str) -> TensorType:
    t: Attribute = element_type(element)
    for level in reversed(levels):
        t = dims_tensor_type(t, level)
    assert isinstance(t, TensorType)
    return t


def dims_tensor_type(element: Attribute, level: Shape) -> TensorType:
    """One level: ``?`` for a dynamic dim, its bound in ``#stablehlo.bounds``."""
    if not any(isinstance(d, Dynamic) for d in level):
        return TensorType(element, level)
    shape = [DYNAMIC_INDEX if isinstance(d, Dynamic) else d for d in level]
    bounds = [d.bound if isinstance(d, Dynamic) else None for d in level]
    encoding = BoundsAttr(bounds) if any(b is not None for b in bounds) else NoneAttr()
    return TensorType(element, shape, encoding)


@lru_cache(maxsize=TYPE_CACHE_SIZE)
def is_dynamic_type(t: Attribute) -> bool:
    """A tensor type with a ``?`` (or a bound) at some level (asked for
    every op by the passes' guards, so remembered per type)."""
    try:
        return levels_dynamic(split_type(t)[0])
    except RuleError:
        return False


def has_dynamic_types(op: Operation) -> bool:
    """Whether an operand or result of ``op`` has a ``?`` or bounded dim."""
    return any(is_dynamic_type(v.type) for v in (*op.operands, *op.results))


def check_dynamic_supported(op: Operation, supported: bool) -> None:
    """The one refusal of dynamic dims by an op that does not take them yet
    (its class says ``DYNAMIC_SHAPES = False``, the default, so a new op
    refuses until it is made dynamic): a ``RuleError`` naming the op."""
    if supported:
        return
    if has_dynamic_types(op):
        raise RuleError(f"dynamic dimensions are not supported by {op.name} yet",
                        ["docs/semantics.md, \"Dynamic and bounded shapes\", lists the ops that take them"])


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
