"""The ``bcast`` dialect: declarative op definitions whose verifiers call the
shared broadcasting rules (``bcast.ir.rules``).

Family base classes carry the operands, the assembly format and the verifier;
each concrete op is a few lines naming its element kinds and the NumPy
function (``bcast.ir.numerics``) that gives its exact semantics.
"""

from __future__ import annotations

import abc
import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import ClassVar, Generic, TypeVar

import numpy as np

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FunctionType,
    I64,
    IndexType,
    IntAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.irdl import (
    AnyAttr,
    ParamAttrConstraint,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
    SameVariadicOperandSize,
)
from xdsl.traits import (ConstantLike, EffectInstance, HasCanonicalizationPatternsTrait, MemoryEffect,
                         MemoryEffectKind, Pure)
from xdsl.utils.str_enum import StrEnum
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition

from bcast.ir import numerics, rules, scalar
from bcast.ir.diagnostics import KIND_WORDS, Diagnostic, check_kinds, incompatible_operands, incompatible_results
from bcast.ir.directives import (CheckedShapes, DotDims, IndexList, JoinedOperands, OptionalIndexList, SizeList,
                                  SliceRanges, SortedDims, conv_window_text, parse_conv_dims, parse_conv_window)
from bcast.ir.rules import IncompatibleDims, Levels, RuleError, Semantics, Shape
from bcast.ir.types import (
    iinfo,
    is_complex_dtype,
    is_float_dtype,
    NUMPY_DTYPES,
    TYPE_CACHE_SIZE,
    check_dynamic_supported,
    dense_i64,
    flat_type_shape,
    is_dynamic_type,
    make_type,
    numpy_dtype,
    split_type,
)

SEMANTICS_ATTR = "bcast.semantics"

# --------------------------------------------------------------------------
# Helpers shared by the verifiers
# --------------------------------------------------------------------------


def semantics_of(op: Operation) -> Semantics:
    """The semantics in force: the nearest ``bcast.semantics`` attribute."""
    current: Operation | None = op
    while current is not None:
        attr = current.attributes.get(SEMANTICS_ATTR)
        if isinstance(attr, StringAttr) and attr.data in rules.SEMANTICS:
            return attr.data  # type: ignore[return-value]
        current = current.parent_op()
    return "numpy"


def _split(value: SSAValue | Attribute, what: str) -> tuple[Levels, str]:
    t = value.type if isinstance(value, SSAValue) else value
    try:
        return split_type(t)
    except RuleError as e:
        raise Diagnostic(f"{what}: {e.message}", e.notes) from None


def _check_declared(op: Operation, inferred: Attribute, declared: Attribute) -> None:
    """The declared result type is the inferred one, or (with dynamic dims)
    compatible with it: the same nesting, ranks and element type, and every
    dim the inferred one or more static (``rules.compatible_levels``),
    which is checked at run time."""
    if inferred != declared and not _compatible(inferred, declared):
        raise incompatible_results([inferred], [declared])


def _compatible(inferred: Attribute, declared: Attribute) -> bool:
    try:
        (il, ie), (dl, de) = split_type(inferred), split_type(declared)
    except RuleError:
        return False
    dynamic = rules.levels_dynamic(il) or rules.levels_dynamic(dl)
    return dynamic and ie == de and rules.compatible_levels(il, dl)


def _promote(op_types: Sequence[str], semantics: Semantics, operands: Sequence[Attribute]) -> str:
    if semantics == "xla":
        if len(set(op_types)) > 1:
            raise Diagnostic(
                "operands have different element types under xla semantics: "
                + ", ".join(str(t) for t in operands),
                ["xla requires identical element types; insert a bcast.convert"],
            )
        return op_types[0]
    return rules.promote_all(op_types)


def _check_nesting(semantics: Semantics, levels: Sequence[Levels]) -> None:
    if semantics != "tml" and any(len(lv) > 1 for lv in levels):
        raise Diagnostic(
            "nested tensor types need tml semantics",
            ['set `bcast.semantics = "tml"` on the module or pass --semantics tml'],
        )


def _dims(attr: DenseArrayBase | None) -> list[int] | None:
    return None if attr is None else list(attr.get_values())


@lru_cache(maxsize=TYPE_CACHE_SIZE)
def _inferred(cls: type[BcastOp], key: tuple[Attribute | None, ...], semantics: Semantics) -> TensorType:
    """``cls``'s result type for operand types (and ``broadcast_dimensions``)
    ``key`` under ``semantics``. The inference depends on nothing else, and
    verifying a module asks it again for every op of the same types (twice
    per pipeline); a failure is not kept, but raised again each time."""
    if issubclass(cls, BinaryOp):
        lhs, rhs, dims = key
        return cls.infer_type(lhs, rhs, _dims(dims), semantics)
    return cls.infer_type(list(key), semantics)


def _builder_semantics(*types: Attribute) -> Semantics:
    """The semantics a builder infers result types under: ``tml`` for nested
    operands (the only semantics that has them), else ``numpy``."""
    return "tml" if any(len(split_type(t)[0]) > 1 for t in types) else "numpy"


def _type(value: SSAValue | Operation) -> Attribute:
    return SSAValue.get(value).type


class CanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """The canonicalization patterns of each op live in
    ``bcast.passes.canonicalization``, keyed by op class (and family base)."""

    def get_patterns(self, op: type[Operation]):
        from bcast.passes.canonicalization import patterns_for

        return patterns_for(op)

    @classmethod
    def get_canonicalization_patterns(cls):
        return ()


_SIZE_CHECK_EFFECTS = frozenset((EffectInstance(MemoryEffectKind.WRITE),))


class ChecksSizesAtRunTime(MemoryEffect):
    """The effect trait of an op that checks its own ``?`` sizes when it runs
    (a slice's limit within the size, a reshape's element count, ...). Its
    failure is part of the program's meaning (docs/semantics.md, "Run-time
    checks of unused ops"): dead-code elimination may drop what it computes,
    never its check. So an op with a dynamic operand or result type whose
    results are all unused declares its possible error as a write effect,
    the effect by which xDSL's dead-code elimination (canonicalize, dce)
    keeps an op. An op whose result is used runs anyway and is declared
    pure, so common-subexpression elimination still merges it with an equal
    op before it (which checks the same sizes first); with static types the
    op cannot fail and is pure."""

    @classmethod
    def get_effects(cls, op: Operation):
        if all(r.first_use is None for r in op.results) \
                and any(is_dynamic_type(t) for t in (*op.operand_types, *op.result_types)):
            return _SIZE_CHECK_EFFECTS
        return frozenset()


class BcastOp(IRDLOperation, abc.ABC):
    """Base of all bcast ops: rejects attributes that shadow a property.

    ``{broadcast_dimensions = [0]}`` in the attribute dictionary would be a
    plain attribute that a generic round trip turns into a property, silently
    changing the op's meaning."""

    DYNAMIC_SHAPES: ClassVar[bool] = False
    """Whether the op takes dynamic and bounded dims (docs/semantics.md,
    "Dynamic and bounded shapes"); an op refuses them until its rules,
    backends and tests handle them (``types.check_dynamic_supported``)."""

    def verify_(self) -> None:
        props = type(self).get_irdl_definition().properties
        for name in self.attributes:
            if name in props:
                raise Diagnostic(
                    f"attribute '{name}' shadows the property of the same name",
                    ["write it in the op's own syntax (or as a property `<{...}>` "
                     "in generic form), not in the attribute dictionary"],
                )
        try:
            check_dynamic_supported(self, self.DYNAMIC_SHAPES)
            self.verify_semantics(semantics_of(self))
        except RuleError as e:  # the one place a rule violation becomes a diagnostic
            raise Diagnostic(e.message, e.notes) from None
        except IncompatibleDims as e:  # one an op did not word itself
            raise incompatible_operands([o.type for o in self.operands], e) from None

    @abc.abstractmethod
    def verify_semantics(self, semantics: Semantics) -> None: ...

    @staticmethod
    def flat_shape_of(t: Attribute) -> Shape:
        """The shape a builder of a twin family (``PadFamily``, ...) reads."""
        return flat_type_shape(t)

    @staticmethod
    def shaped_like(t: Attribute, shape: Shape) -> TensorType:
        """The flat tensor type of ``shape`` with ``t``'s element type."""
        return make_type((tuple(shape),), split_type(t)[1])


# --------------------------------------------------------------------------
# Elementwise ops
# --------------------------------------------------------------------------


class _ClassDefault:
    """A class attribute computed from the class it is read on (a subclass
    that sets the attribute itself overrides it)."""

    def __init__(self, compute: Callable[[type], object]):
        self.compute = compute

    def __get__(self, instance: object, owner: type) -> object:
        return self.compute(owner)


class RuntimeShapeError(Exception):
    """Sizes known only at run time break a rule (docs/semantics.md, "Dynamic
    and bounded shapes"): the backends report it at the op, in NumPy's words
    where NumPy has them (``operands could not be broadcast together with
    shapes (3,) (4,)``)."""

    def __init__(self, message: str, notes: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.notes = list(notes)


# The run-time semantics of the explicit dynamic form (docs/ir.md), on
# run-time sizes: one definition, which the reference evaluator and the code
# the numpy and array-api targets generate both call, so their errors are
# worded alike.


def numpy_shapes(shapes: Sequence[Sequence[int]]) -> str:
    """Shapes as NumPy's broadcast error lists them: ``(3,4) (2,) ()``."""
    return " ".join("(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")" for shape in shapes)


def broadcast_size(sizes: Sequence[int]) -> int:
    """``bcast.broadcast_size``: the first size that is not 1, else 1."""
    return next((int(s) for s in sizes if s != 1), 1)


RESULT_SHAPE_WORDS = "result has shape {shape} at run time, which its type {type} does not allow"
"""The words for a result whose run-time shape its declared type does not
allow (a declared dim more static than the inferred one), after ``'OP' op``:
the reference's, the C runtime's and bcast-make-explicit's check's."""


def check_broadcastable_sizes(shapes: Sequence[Sequence[int]], landing: Sequence[Sequence[int]],
                              checked: Sequence[int], strict: bool, message: str, notes: Sequence[str] = ()) -> None:
    """``bcast.check_broadcastable`` on run-time ``shapes`` (one per operand,
    each landing on the result dims ``landing``): at each ``checked`` dim the
    sizes landing there are equal or 1 (equal if ``strict``), else
    ``message`` and the shapes, as NumPy words it, with the note of the first
    dim that fails (``notes``, one per checked dim, ``""`` for none: a
    template whose ``{s[k][j]}`` is dim ``j`` of operand ``k``)."""
    for n, r in enumerate(checked):
        sizes = {s for shape, dims in zip(shapes, landing) for s, d in zip(shape, dims) if d == r}
        if len(sizes if strict else sizes - {1}) > 1:
            note = notes[n].format(s=shapes) if n < len(notes) and notes[n] else None
            raise RuntimeShapeError(f"{message} {numpy_shapes(shapes)}", [note] if note else [])


def check_expansion(operand: Sequence[int], shape: Sequence[int], dims: Sequence[int],
                    expanding: Sequence[int] = (), nonexpanding: Sequence[int] = ()) -> None:
    """A broadcast of an operand of run-time shape ``operand`` into ``shape``
    (``broadcast_in_dim`` of dynamic dims, ``dynamic_broadcast_in_dim``):
    each operand dim is 1 or its result size, in the verifier's words
    (``rules.check_broadcast_in_dim``), and keeps its known facts
    (expanding: 1; nonexpanding: its result size)."""
    operand, shape = tuple(int(n) for n in operand), tuple(int(n) for n in shape)
    failed = f"operand of shape {operand} could not be broadcast to shape {shape}"
    for d, n in enumerate(shape):  # a size from an index value of the program
        if n < 0:
            raise RuntimeShapeError(failed, [f"size of result dimension {d} is {n}, which is negative"])
    try:
        rules.check_broadcast_in_dim(operand, shape, dims, "numpy")
    except RuleError as e:
        raise RuntimeShapeError(failed, [e.message]) from None
    for k, d in enumerate(dims):
        if (k in expanding and operand[k] != 1) or (k in nonexpanding and operand[k] != shape[d]):
            fact = "expanding" if k in expanding else "nonexpanding"
            raise RuntimeShapeError(failed, [f"size of operand dimension {k} ({operand[k]}) is known {fact}, "
                                             f"and size of result dimension {d} is {shape[d]}"])


DOT_PAIR_WORDS = {
    "batching": "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same shape, got",
    "contracting": "dot_general requires contracting dimensions to have the same shape, got",
}
"""JAX's words for ``dot_general`` operands whose paired dims differ at run
time (each side's paired sizes follow, as NumPy lists shapes)."""


def check_dot_pairs(lhs: Sequence[int], rhs: Sequence[int], dims: rules.DotDims) -> None:
    """A contraction's paired dims on run-time shapes: each side's batch
    dims, then its contracting dims, equal (``DOT_PAIR_WORDS``)."""
    for what, left, right in (("batching", dims.lhs_batch, dims.rhs_batch),
                              ("contracting", dims.lhs_contract, dims.rhs_contract)):  # fmt: skip
        sides = [[int(lhs[d]) for d in left], [int(rhs[d]) for d in right]]
        if sides[0] != sides[1]:
            raise RuntimeShapeError(f"{DOT_PAIR_WORDS[what]} {numpy_shapes(sides)}")


MATMUL_CORE_WORDS = ("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                     "(n?,k),(k,m?)->(n?,m?) (size {rhs} is different from {lhs})")
"""NumPy's words for ``matmul`` operands whose contracted sizes differ at run
time (``rhs``'s size, then ``lhs``'s: NumPy's gufunc takes ``k`` from
operand 0)."""


def matmul_broadcast_words(lhs: Sequence[str], rhs: Sequence[str]) -> str:
    """NumPy's words for ``matmul`` operands (both at least 2-D, each size
    given as text: a number, or a ``{k}`` placeholder of a run-time size)
    whose batch dims do not broadcast: each shape and its batch dims with
    the two core dims as ``newaxis``, and the core result ``(n,m)``."""
    def remapped(shape: Sequence[str]) -> str:
        return f"({','.join(shape)})->({','.join([*shape[:-2], 'newaxis', 'newaxis'])})"

    return ("operands could not be broadcast together with remapped shapes [original->remapped]: "
            f"{remapped(lhs)} {remapped(rhs)}  and requested shape ({lhs[-2]},{rhs[-1]})")


def check_matmul_shapes(lhs: Sequence[int], rhs: Sequence[int]) -> None:
    """``np.matmul``'s rule on run-time shapes, in NumPy's words and order:
    the contracted sizes equal (``MATMUL_CORE_WORDS``), then the batch dims
    broadcastable (``matmul_broadcast_words``)."""
    lhs, rhs = [int(n) for n in lhs], [int(n) for n in rhs]
    k = rhs[0] if len(rhs) == 1 else rhs[-2]
    if lhs[-1] != k:
        raise RuntimeShapeError(MATMUL_CORE_WORDS.format(rhs=k, lhs=lhs[-1]))
    if len(lhs) > 1 and len(rhs) > 1:
        try:
            np.broadcast_shapes(tuple(lhs[:-2]), tuple(rhs[:-2]))
        except ValueError:
            raise RuntimeShapeError(matmul_broadcast_words([str(n) for n in lhs], [str(n) for n in rhs])) from None


def check_dynamic_slice_sizes(shape: Sequence[int], sizes: Sequence[int], op: str = "dynamic_slice") -> None:
    """``dynamic_slice`` (``gather slice``) on an operand of run-time
    ``shape``: no block size larger than its dim
    (``rules.dynamic_slice_too_large``'s words)."""
    for d, (n, size) in enumerate(zip(shape, sizes)):
        if size > n:
            raise RuntimeShapeError(rules.dynamic_slice_too_large(size, d, op).replace("{0}", str(int(n))))


def check_dynamic_update_sizes(shape: Sequence[int], update: Sequence[int]) -> None:
    """``dynamic_update_slice`` on run-time shapes: no update size larger
    than the operand's (``rules.dynamic_update_too_large``'s words)."""
    for d, (n, u) in enumerate(zip(shape, update)):
        if u > n:
            raise RuntimeShapeError(rules.dynamic_update_too_large(d).format(int(u), int(n)))


def check_scatter_sizes(operand: Sequence[int], indices: Sequence[int], updates: Sequence[int],
                        dims: rules.GatherDims) -> None:
    """``scatter`` on run-time shapes: each updates window no larger than
    its input dim, each updates batch dim the size of its scatter_indices
    dim (``rules.scatter_size_words``)."""
    window = dict(zip(dims.offset_dims, dims.window_dims(len(operand))))
    batch = iter(dims.batch_dims(len(indices)))
    for axis, u in enumerate(updates):
        if axis in window:
            if u > operand[window[axis]]:
                raise RuntimeShapeError(rules.scatter_size_words(axis, "window", window[axis]).format(
                    int(u), int(operand[window[axis]])))
        elif u != indices[k := next(batch)]:
            raise RuntimeShapeError(rules.scatter_size_words(axis, "count", k).format(int(u), int(indices[k])))


def check_arg_reduce_size(what: str, n: int, dim: int, index: str) -> None:
    """``argmax``/``argmin`` (``what``) along a dim of run-time size ``n``:
    not empty, and its last index fits the ``index`` type
    (``rules.arg_reduce_empty_words``, ``arg_reduce_index_words``)."""
    if n == 0:
        raise RuntimeShapeError(rules.arg_reduce_empty_words(what, dim).format(int(n)))
    if n - 1 > iinfo(NUMPY_DTYPES[index]).max:
        raise RuntimeShapeError(rules.arg_reduce_index_words(what, dim, index).format(int(n)))


def check_size(size: int) -> int:
    """``bcast.size_from_tensor``: a size read from a tensor is not negative."""
    if size < 0:
        raise RuntimeShapeError(f"a size is negative ({size})")
    return size


def check_size_fits(size: int, dtype: np.dtype, type_text: str) -> None:
    """``bcast.size_to_tensor``: the size fits its tensor's integer type
    (never a wrapped value)."""
    if size > iinfo(dtype).max:
        raise RuntimeShapeError(f"size {size} does not fit {type_text}")


def check_reshape(count: int, shape: Sequence[int]) -> None:
    """``bcast.dynamic_reshape``: the element count is kept."""
    if int(np.prod(shape)) != count:
        raise RuntimeShapeError(f"cannot reshape array of size {count} into shape {tuple(shape)}")


def reshape_sizes(count: int, declared: Sequence[int | None]) -> tuple[int, ...]:
    """``reshape`` of ``?`` dims on an operand of ``count`` elements: the
    result's run-time shape (its ``?``, None in ``declared``, the count over
    the other sizes, which the verifier proved are not 0), which must keep
    the count (NumPy's words, a ``?`` as ``?``)."""
    known = math.prod(n for n in declared if n is not None)
    shape = tuple(count // known if n is None else n for n in declared)
    if math.prod(shape) != count:
        text = ", ".join("?" if n is None else str(n) for n in declared)
        raise RuntimeShapeError(f"cannot reshape array of size {count} into shape ({text}{',' if len(declared) == 1 else ''})")
    return shape


def check_dimension_size(size: int, dim: int, bound: int) -> None:
    """``bcast.set_dimension_size``: the size is within the operand's dim."""
    if size > bound:
        raise RuntimeShapeError(f"size {size} of dimension {dim} is above its bound {bound}")


def check_concatenate(shapes: Sequence[Sequence[int]], dim: int) -> tuple[int, ...]:
    """``concatenate`` on run-time ``shapes``: equal sizes but along ``dim``
    (NumPy's words); the result's shape."""
    first = [int(n) for n in shapes[0]]
    for i, shape in enumerate(shapes[1:], 1):
        for d, (a, b) in enumerate(zip(first, shape)):
            if d != dim and a != int(b):
                raise RuntimeShapeError(
                    "all the input array dimensions except for the concatenation axis must match exactly, "
                    f"but along dimension {d}, the array at index 0 has size {a} and the array at index {i} "
                    f"has size {int(b)}")
    return tuple(sum(int(s[d]) for s in shapes) if d == dim else n for d, n in enumerate(first))


def check_pad(shape: Sequence[int], low: Sequence[int], high: Sequence[int], interior: Sequence[int]) -> tuple[int, ...]:
    """``pad`` on a run-time ``shape``: no size ends negative (the verifier's
    words); the result's shape."""
    result = tuple(rules.padded_size(int(n), lo, hi, gap) for n, lo, hi, gap in zip(shape, low, high, interior))
    for d, (size, n, lo, hi) in enumerate(zip(result, shape, low, high)):
        if size < 0:
            raise RuntimeShapeError(f"pad makes dimension {d} of size {size}",
                                    [f"low {lo} and high {hi} crop more than the {int(n)} padded elements "
                                     "of the dimension"])
    return result


def check_slice(shape: Sequence[int], limits: Sequence[int]) -> None:
    """``slice`` on a run-time ``shape``: each range ends within its dim, as
    the verifier checks a static one (NumPy would clip it silently; JAX refuses it)."""
    for d, (n, limit) in enumerate(zip(shape, limits)):
        if limit > int(n):
            raise RuntimeShapeError(f"slice limit {limit} of dimension {d} is out of range",
                                    [f"dimension {d} has size {int(n)} at run time; a range needs limit <= {int(n)}"])


def check_sort(shapes: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """``sort`` on run-time ``shapes`` (values, then keys): one shape (the
    verifier's words; NumPy's ``take_along_axis`` would say less); the
    result's."""
    first = tuple(int(n) for n in shapes[0])
    for shape in shapes[1:]:
        if tuple(int(n) for n in shape) != first:
            raise RuntimeShapeError(f"values and key must have one shape, got {first} and {tuple(map(int, shape))}",
                                    ["sort permutes values by its keys' order; it does not broadcast"])  # fmt: skip
    return first


def check_run_time_result(op: Operation, inferred: Attribute, declared: Attribute,
                          computed: Sequence[int] | None = None) -> None:
    """``_check_declared`` for an op whose ``?`` result dims are computed
    from its operands' run-time sizes (concatenate, pad, a convolution's
    spatial dims; ``computed``: those dims, else every dim): such a dim is
    declared ``?``, not a static size, which only a run-time check of the
    op's result could keep (decision: refused, located)."""
    _check_declared(op, inferred, declared)
    for d, (i, n) in enumerate(zip(flat_type_shape(inferred), flat_type_shape(declared))):
        if isinstance(i, rules.Dynamic) and isinstance(n, int) and (computed is None or d in computed):
            raise Diagnostic(f"result dimension {d} is declared {n}, a size known only at run time",
                             [f"declare it ? (the inferred type is {inferred})"])


class ElementwiseOp(BcastOp, abc.ABC):
    """Base of the ops that compute element by element with broadcasting."""

    DYNAMIC_SHAPES: ClassVar[bool] = True

    SCALAR: ClassVar[scalar.OnePrimitive | scalar.MathFunction | scalar.Composite]
    """The op's scalar semantics, its one definition (``bcast.ir.scalar``):
    every backend derives its code from it (compare, select and convert
    have theirs as functions there, called with their attributes)."""
    NUMPY_FUNCTION: ClassVar[Callable[..., object]]
    """``SCALAR`` on NumPy arrays (``bcast.ir.numerics``): read by
    ``bcast.ir.evaluate``, the reference evaluator and the NumPy emitter."""

    STABLEHLO: ClassVar[str] = _ClassDefault(lambda cls: "stablehlo." + cls.name.split(".", 1)[1])
    """The StableHLO op this op exports to and is imported from: by default
    ``stablehlo.`` and the op's own name (an op named otherwise sets it).
    ``bcast.ir.stablehlo`` generates its simple elementwise ops from it, and
    ``convert-stablehlo-to-bcast`` maps them back."""
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = _ClassDefault(
        lambda cls: frozenset() if isinstance(getattr(cls, "SCALAR", None), scalar.Composite)
        else getattr(cls, "ELEMENT_KINDS", frozenset({"bool", "signed", "unsigned", "float"})))
    """The element kinds on which the ``STABLEHLO`` op computes ``SCALAR``
    (as XLA runs it: ``tests/test_op_matrix.py``), so the StableHLO target
    writes that one op; on other kinds it writes ``SCALAR``'s expansion.
    Every kind the op takes when ``SCALAR`` is one primitive or a math
    function; a ``Composite`` op names its own."""
    STABLEHLO_ON_I1: ClassVar[str | None] = None
    """The bcast op the ``STABLEHLO`` op is on ``i1``, where StableHLO
    defines arithmetic as logic (``stablehlo.add`` is ``or``) and bcast
    rejects ``i1``."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "SCALAR" in cls.__dict__:
            cls.NUMPY_FUNCTION = staticmethod(numerics.function(cls.SCALAR))
    TML_CLASS: ClassVar[str] = "arithmetic"
    """TML op class: arithmetic, logical, relational or bitwise."""

    def runtime_levels(self, operands: Sequence[Levels]) -> Levels:
        """The result's levels at run time, from the operands' run-time
        levels: the verifier's own inference on the types those sizes make,
        so the rule is the same at compile and at run time; its failure is
        NumPy's error (docs/semantics.md, "Dynamic and bounded shapes")."""
        elements = [split_type(v.type)[1] for v in self.operands]
        types = [make_type(levels, e) for levels, e in zip(operands, elements)]
        try:
            inferred = self.infer_concrete(types, semantics_of(self))
        except (Diagnostic, RuleError) as e:
            shapes = numpy_shapes([rules.flat_shape(levels) for levels in operands])
            notes = [] if e.message.startswith("operands are not broadcast-compatible") else [e.message]
            raise RuntimeShapeError(f"{NUMPY_BROADCAST_WORDS} {shapes}", notes) from None
        return split_type(inferred)[0]

    def infer_concrete(self, types: Sequence[Attribute], semantics: Semantics) -> Attribute:
        """The result type of this op on operands of ``types``."""
        return types[0]

    def runtime_checks(self) -> list[tuple[int, int, rules.RuntimeCheck]]:
        """What the op's broadcasting leaves to run time, by the table of
        docs/semantics.md ("Dynamic and bounded shapes"): ``(nesting level,
        axis counted from the right, check)`` per dim that is not proven at
        compile time; empty for static shapes. An SSA value used for several
        operands counts once (its dims are proven equal to themselves). A
        declared result dim more static than the inferred one adds an
        ``equal`` check."""
        result = split_type(self.results[0].type)[0]
        checks = self.operand_runtime_checks()
        if not checks and not rules.levels_dynamic(result) \
                and not any(rules.levels_dynamic(split_type(v.type)[0]) for v in self.operands):
            return []
        inferred = split_type(self.infer_result_type(semantics_of(self)))[0]
        for level, (got, declared) in enumerate(zip(inferred, result)):
            for axis, (a, b) in enumerate(zip(got, declared)):
                if isinstance(a, rules.Dynamic) and isinstance(b, int):
                    checks.append((level, axis - len(got), "equal"))
        return checks

    def operand_runtime_checks(self) -> list[tuple[int, int, rules.RuntimeCheck]]:
        """``runtime_checks`` of the operands' pairs only, without the
        declared result's facts (bcast-make-explicit checks those on the
        result, in the reference's words)."""
        values = list(dict.fromkeys(self.operands))
        operands = [split_type(v.type)[0] for v in values]
        if len(values) == 1 or not any(rules.levels_dynamic(levels) for levels in operands):
            return []
        return [(level, axis, check) for level, shapes in self.aligned_levels(operands)
                for axis, check in self.level_checks(shapes)]

    def aligned_levels(self, operands: Sequence[Levels]) -> list[tuple[int, list[rules.Shape]]]:
        """The operands' shapes that broadcast together, per nesting level
        (a missing inner level is a scalar)."""
        depth = max(len(levels) for levels in operands)
        return [(k, [levels[k] if k < len(levels) else () for levels in operands]) for k in range(depth)]

    def level_checks(self, shapes: Sequence[rules.Shape]) -> list[tuple[int, rules.RuntimeCheck]]:
        return rules.broadcast_dynamic_shapes(*shapes)[1]

    def rebuilt(self, operands: Sequence[SSAValue], result_type: Attribute | None = None):
        """This op (properties and attributes kept) on explicit ``operands``,
        so without ``broadcast_dimensions``."""
        return type(self).create(
            operands=list(operands),
            result_types=[self.results[0].type if result_type is None else result_type],
            properties={k: v for k, v in self.properties.items() if k != "broadcast_dimensions"},
            attributes=dict(self.attributes),
        )


_BROADCAST_FORMAT = (
    "(`broadcast_dimensions` `=` $broadcast_dimensions^)? attr-dict `:` "
    "functional-type(operands, results)"
)


class BinaryOp(ElementwiseOp, abc.ABC):
    """Binary elementwise op with implicit (or XLA-style) broadcasting."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(Pure(), CanonicalizationPatterns())

    assembly_format = "$lhs `,` $rhs " + _BROADCAST_FORMAT

    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float"})
    TML_KINDS: ClassVar[frozenset[str] | None] = None
    """Element kinds under tml semantics, when stricter than ELEMENT_KINDS."""
    TML_KINDS_NOTE: ClassVar[str | None] = None

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        result_type: Attribute | None = None,
        broadcast_dimensions: Sequence[int] | None = None,
        *,
        attributes: Mapping[str, Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
    ):
        dims = None if broadcast_dimensions is None else list(broadcast_dimensions)
        if result_type is None:
            types = (_type(lhs), _type(rhs))
            result_type = self.infer_type(*types, dims, _builder_semantics(*types))
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={
                **(properties or {}),
                "broadcast_dimensions": None if dims is None else dense_i64(dims),
            },
            attributes=attributes,
        )

    @classmethod
    def tml_op_class(cls, element: str) -> str:
        return cls.TML_CLASS

    @classmethod
    def result_element(cls, promoted: str) -> str:
        return promoted

    def infer_result_type(self, semantics: Semantics) -> TensorType:
        return _inferred(type(self), (self.lhs.type, self.rhs.type, self.broadcast_dimensions), semantics)

    def infer_concrete(self, types: Sequence[Attribute], semantics: Semantics) -> Attribute:
        return self.infer_type(*types, _dims(self.broadcast_dimensions), semantics)

    def aligned_levels(self, operands: Sequence[Levels]) -> list[tuple[int, list[rules.Shape]]]:
        """Under xla, ``broadcast_dimensions`` first places the lower-rank
        operand's dims (then the table applies)."""
        dims = _dims(self.broadcast_dimensions)
        (lhs, *_), (rhs, *_) = operands
        if dims is not None and len(operands[0]) == len(operands[1]) == 1 and len(lhs) != len(rhs):
            _, lhs, rhs = rules.in_dim_broadcast(lhs, rhs, dims, semantics_of(self))
            return [(0, [lhs, rhs])]
        return super().aligned_levels(operands)

    def level_checks(self, shapes: Sequence[rules.Shape]) -> list[tuple[int, rules.RuntimeCheck]]:
        """TML's logical, relational and bitwise ops check equality (unless
        one operand is a scalar, which broadcasts)."""
        element = split_type(self.lhs.type)[1]
        if semantics_of(self) == "tml" and self.tml_op_class(element) != "arithmetic" and all(shapes):
            return rules.check_strict_dynamic(shapes, self.tml_op_class(element))[1]
        return super().level_checks(shapes)

    @classmethod
    def infer_type(
        cls, lhs: Attribute, rhs: Attribute, dims: list[int] | None, semantics: Semantics
    ) -> TensorType:
        (ll, le), (rl, re) = _split(lhs, "lhs"), _split(rhs, "rhs")
        _check_nesting(semantics, (ll, rl))
        if semantics == "tml" and cls.TML_KINDS is not None:
            check_kinds((le, re), cls.TML_KINDS, cls.TML_KINDS_NOTE)
        check_kinds((le, re), cls.ELEMENT_KINDS)
        types = (lhs, rhs)
        element = _promote((le, re), semantics, types)
        op_class = cls.tml_op_class(element)
        try:
            if semantics == "tml" and op_class != "arithmetic":
                if dims is not None:
                    raise RuleError(
                        f"broadcast_dimensions are not allowed on {op_class} "
                        "operations under tml semantics"
                    )
                levels = rules.check_strict_levels((ll, rl), op_class)
            elif len(ll) > 1 or len(rl) > 1:
                if dims is not None:
                    raise RuleError("broadcast_dimensions are not allowed on nested tensors")
                levels = rules.broadcast_levels(ll, rl)
            else:
                shape, _, _ = rules.in_dim_broadcast(ll[0], rl[0], dims, semantics)
                levels = (shape,)
        except IncompatibleDims as e:
            expanded = dims if dims is not None and len(ll[0]) != len(rl[0]) else None
            raise incompatible_operands(types, e, expanded) from None
        return make_type(levels, cls.result_element(element))

    def verify_semantics(self, semantics: Semantics) -> None:
        _check_declared(self, self.infer_result_type(semantics), self.result.type)


class ArithmeticBinaryOp(BinaryOp, abc.ABC):
    pass


NUMERIC_OR_COMPLEX = frozenset({"signed", "unsigned", "float", "complex"})
"""The kinds of the arithmetic ops that complex values take too (docs/semantics.md, "Complex numbers")."""
FLOAT_OR_COMPLEX = frozenset({"float", "complex"})


class FloatBinaryOp(BinaryOp, abc.ABC):
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})


class BitwiseBinaryOp(BinaryOp, abc.ABC):
    """``and``/``or``/``xor``: logical on i1, bitwise on integers."""

    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"bool", "signed", "unsigned"})

    TML_KINDS: ClassVar[frozenset[str] | None] = frozenset({"bool", "unsigned"})
    TML_KINDS_NOTE: ClassVar[str | None] = (
        "tml logical operations take i1, bitwise operations unsigned integers"
    )

    @classmethod
    def tml_op_class(cls, element: str) -> str:
        return "logical" if element == "i1" else "bitwise"


class ShiftOp(BinaryOp, abc.ABC):
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})
    TML_CLASS: ClassVar[str] = "bitwise"
    TML_KINDS: ClassVar[frozenset[str] | None] = frozenset({"unsigned"})
    TML_KINDS_NOTE: ClassVar[str | None] = "tml bitwise operations take unsigned integers"


@irdl_op_definition
class AddOp(ArithmeticBinaryOp):
    name = "bcast.add"
    SCALAR = staticmethod(scalar.add)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_ON_I1: ClassVar[str | None] = "bcast.or"


@irdl_op_definition
class SubtractOp(ArithmeticBinaryOp):
    name = "bcast.subtract"
    SCALAR = staticmethod(scalar.subtract)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX


@irdl_op_definition
class MultiplyOp(ArithmeticBinaryOp):
    name = "bcast.multiply"
    SCALAR = staticmethod(scalar.multiply)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_ON_I1: ClassVar[str | None] = "bcast.and"


@irdl_op_definition
class DivideOp(ArithmeticBinaryOp):
    name = "bcast.divide"
    SCALAR = staticmethod(scalar.divide)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    """XLA's integer results are the definition's, but jaxlib's folder
    divides integer constants unchecked (SIGFPE on ``(a - a) / (a - a)``):
    the expansion's divisor is never 0."""


@irdl_op_definition
class RemainderOp(ArithmeticBinaryOp):
    name = "bcast.remainder"
    SCALAR = staticmethod(scalar.remainder)
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})
    """As ``divide``: the expansion never divides by 0 (jaxlib's folder)."""


@irdl_op_definition
class PowerOp(ArithmeticBinaryOp):
    name = "bcast.power"
    SCALAR = staticmethod(scalar.power)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    """XLA's integer power reads the low 6 bits of the exponent only."""


@irdl_op_definition
class MaximumOp(ArithmeticBinaryOp):
    name = "bcast.maximum"
    SCALAR = staticmethod(scalar.maximum)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float"})
    """Complex values are written as their lexicographic definition."""
    STABLEHLO_ON_I1: ClassVar[str | None] = "bcast.or"


@irdl_op_definition
class MinimumOp(ArithmeticBinaryOp):
    name = "bcast.minimum"
    SCALAR = staticmethod(scalar.minimum)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float"})
    """Complex values are written as their lexicographic definition."""
    STABLEHLO_ON_I1: ClassVar[str | None] = "bcast.and"


@irdl_op_definition
class Atan2Op(FloatBinaryOp):
    name = "bcast.atan2"
    SCALAR = staticmethod(scalar.atan2)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})
    """Complex values are written as their definition (logs and square roots)."""


@irdl_op_definition
class ComplexOp(BinaryOp):
    """``complex %re, %im``: two ``f32`` (``f64``) values make a
    ``complex<f32>`` (``complex<f64>``), as StableHLO's ``complex``."""

    name = "bcast.complex"
    SCALAR = staticmethod(scalar.complex_)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})

    @classmethod
    def result_element(cls, promoted: str) -> str:
        if promoted not in rules.COMPLEX_PARTS.values():
            raise Diagnostic(f"complex needs f32 or f64 operands, got element type {promoted}",
                             ["convert the parts to f32 or f64 first"])
        return rules.complex_of(promoted)


@irdl_op_definition
class AndOp(BitwiseBinaryOp):
    name = "bcast.and"
    SCALAR = staticmethod(scalar.and_)


@irdl_op_definition
class OrOp(BitwiseBinaryOp):
    name = "bcast.or"
    SCALAR = staticmethod(scalar.or_)


@irdl_op_definition
class XorOp(BitwiseBinaryOp):
    name = "bcast.xor"
    SCALAR = staticmethod(scalar.xor)


@irdl_op_definition
class ShiftLeftOp(ShiftOp):
    name = "bcast.shift_left"
    SCALAR = staticmethod(scalar.shift_left)
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})


@irdl_op_definition
class ShiftRightArithmeticOp(ShiftOp):
    name = "bcast.shift_right_arithmetic"
    SCALAR = staticmethod(scalar.shift_right_arithmetic)
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})


@irdl_op_definition
class ShiftRightLogicalOp(ShiftOp):
    name = "bcast.shift_right_logical"
    SCALAR = staticmethod(scalar.shift_right_logical)
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})


@irdl_op_definition
class MulhiOp(BinaryOp):
    """The high half of the exact (double-width) product, signed for signed
    types (``chlo.mulhi``; ``scalar.mulhi``)."""

    name = "bcast.mulhi"
    SCALAR = staticmethod(scalar.mulhi)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})
    STABLEHLO: ClassVar[str] = "chlo.mulhi"


@irdl_op_definition
class NextAfterOp(FloatBinaryOp):
    """The float next to ``lhs`` towards ``rhs`` (``jnp.nextafter``, C's
    ``nextafter``): bit arithmetic on the float's integer (``bcast.ir.scalar.next_after``)."""

    name = "bcast.next_after"
    SCALAR = staticmethod(scalar.next_after)
    STABLEHLO: ClassVar[str] = "chlo.next_after"


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    LT = "LT"
    LE = "LE"
    GT = "GT"
    GE = "GE"


@irdl_attr_definition
class ComparisonDirectionAttr(EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute):
    name = "bcast.comparison_direction"


@irdl_op_definition
class CompareOp(BinaryOp):
    """``compare DIR, %a, %b``: a binary op whose result is i1.
    ``compare DIR, %a, %b, TOTALORDER`` (floats only, as StableHLO's compare
    type of that name) compares by IEEE totalOrder (``scalar.compare``):
    -0.0 < +0.0 and NaNs are ordered by sign and payload. bcast has no other
    compare types: StableHLO's SIGNED/UNSIGNED are conversions on import."""

    name = "bcast.compare"
    comparison_direction = prop_def(ComparisonDirectionAttr)
    total_order = opt_prop_def(UnitAttr)
    assembly_format = ("$comparison_direction `,` $lhs `,` $rhs (`,` `TOTALORDER` $total_order^)? "
                       + _BROADCAST_FORMAT)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"bool", "signed", "unsigned", "float", "complex"})
    TML_CLASS: ClassVar[str] = "relational"
    NUMPY_FUNCTION = staticmethod(numerics.compare)
    TML_KINDS: ClassVar[frozenset[str] | None] = frozenset({"signed", "unsigned", "float"})
    TML_KINDS_NOTE: ClassVar[str | None] = "tml relational operations take numeric operands"

    def __init__(
        self,
        direction: ComparisonDirection | str | ComparisonDirectionAttr,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        result_type: Attribute | None = None,
        broadcast_dimensions: Sequence[int] | None = None,
        *,
        attributes: Mapping[str, Attribute] | None = None,
        total_order: bool = False,
    ):
        if not isinstance(direction, ComparisonDirectionAttr):
            direction = ComparisonDirectionAttr(ComparisonDirection(direction))
        super().__init__(
            lhs, rhs, result_type, broadcast_dimensions, attributes=attributes,
            properties={"comparison_direction": direction, "total_order": UnitAttr() if total_order else None},
        )  # fmt: skip

    @property
    def is_total_order(self) -> bool:
        return self.total_order is not None

    @classmethod
    def result_element(cls, promoted: str) -> str:
        return "i1"

    def verify_semantics(self, semantics: Semantics) -> None:
        super().verify_semantics(semantics)
        direction = self.comparison_direction.data.value
        complex_elements = [e for e in (_split(v, "operand")[1] for v in self.operands) if rules.kind(e) == "complex"]
        if direction not in ("EQ", "NE") and complex_elements:
            raise Diagnostic(f"compare {direction} needs ordered operands, got element type {complex_elements[0]}",
                             ["complex values compare EQ and NE only; compare their real or imag parts"])
        if self.is_total_order:
            for side, v in (("lhs", self.lhs), ("rhs", self.rhs)):
                element = _split(v, side)[1]
                if rules.kind(element) != "float":
                    raise Diagnostic(f"compare TOTALORDER needs float operands, got {side} element type {element}",
                                     ["TOTALORDER orders floats by their bits; integers and booleans have one order"])


class TernaryOp(ElementwiseOp, abc.ABC):
    """Elementwise op of three operands (``select``, ``clamp``): NumPy
    broadcasting over all three (no ``broadcast_dimensions``); the operands
    at ``PROMOTED`` are converted to the result's element type when made
    explicit (``bcast-make-explicit``)."""

    PROMOTED: ClassVar[tuple[int, ...]]
    OPERAND_NAMES: ClassVar[tuple[str, str, str]]

    def __init__(
        self,
        first: SSAValue | Operation,
        second: SSAValue | Operation,
        third: SSAValue | Operation,
        result_type: Attribute | None = None,
        *,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if result_type is None:
            types = (_type(first), _type(second), _type(third))
            result_type = self.infer_type(types, _builder_semantics(*types))
        super().__init__(
            operands=[first, second, third], result_types=[result_type], attributes=attributes
        )

    def infer_result_type(self, semantics: Semantics) -> TensorType:
        return _inferred(type(self), tuple(v.type for v in self.operands), semantics)

    def infer_concrete(self, types: Sequence[Attribute], semantics: Semantics) -> Attribute:
        return self.infer_type(types, semantics)

    @classmethod
    def infer_type(cls, types: Sequence[Attribute], semantics: Semantics) -> TensorType:
        split = [_split(t, n) for t, n in zip(types, cls.OPERAND_NAMES)]
        levels = [s[0] for s in split]
        _check_nesting(semantics, levels)
        element = cls.result_element([s[1] for s in split], semantics, types)
        try:
            if semantics == "xla":
                cls.check_xla_shapes([lv[0] for lv in levels])
            result = rules.broadcast_levels(*levels)
        except IncompatibleDims as e:
            raise incompatible_operands(types, e) from None
        return make_type(result, element)

    @classmethod
    @abc.abstractmethod
    def result_element(cls, elements: Sequence[str], semantics: Semantics,
                       types: Sequence[Attribute]) -> str: ...

    @classmethod
    @abc.abstractmethod
    def check_xla_shapes(cls, shapes: Sequence[rules.Shape]) -> None: ...

    def verify_semantics(self, semantics: Semantics) -> None:
        _check_declared(self, self.infer_result_type(semantics), self.result.type)


@irdl_op_definition
class SelectOp(TernaryOp):
    """``select %p, %t, %f``: NumPy broadcasting over all three operands."""

    name = "bcast.select"
    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$pred `,` $on_true `,` $on_false attr-dict `:` functional-type(operands, results)"
    NUMPY_FUNCTION = staticmethod(numerics.select)
    PROMOTED: ClassVar[tuple[int, ...]] = (1, 2)
    OPERAND_NAMES: ClassVar[tuple[str, str, str]] = ("pred", "on_true", "on_false")

    @classmethod
    def result_element(cls, elements: Sequence[str], semantics: Semantics,
                       types: Sequence[Attribute]) -> str:
        if elements[0] != "i1":
            raise Diagnostic(f"pred must have element type i1, got {elements[0]}")
        return _promote(elements[1:], semantics, types[1:])

    @classmethod
    def check_xla_shapes(cls, shapes: Sequence[rules.Shape]) -> None:
        rules.check_same_rank_or_scalar(shapes)


def _may_be_equal(a: rules.Shape, b: rules.Shape) -> bool:
    """Shapes equal for some run-time sizes (for static shapes: equal)."""
    return len(a) == len(b) and all(rules.strict_dim(x, y) is not None for x, y in zip(a, b))


@irdl_op_definition
class ClampOp(TernaryOp):
    """``clamp %min, %x, %max`` (StableHLO's operand order):
    ``minimum(maximum(x, min), max)`` (``scalar.clamp``). Under numpy and
    tml semantics the three operands broadcast together and their element
    types promote (as ``np.clip``'s do); under xla semantics StableHLO's
    rule: one element type, and ``min``/``max`` rank 0 or of ``x``'s shape."""

    name = "bcast.clamp"
    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$min `,` $operand `,` $max attr-dict `:` functional-type(operands, results)"
    SCALAR = staticmethod(scalar.clamp)
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})
    """XLA's float ``clamp`` drops a NaN ``x`` or ``max`` (``clamp(0, nan,
    -inf)`` is ``-inf``, ``clamp(0, 0.5, nan)`` is ``0.5``): on floats the
    export writes the definition, whose maximum/minimum propagate NaN."""
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float"})
    PROMOTED: ClassVar[tuple[int, ...]] = (0, 1, 2)
    OPERAND_NAMES: ClassVar[tuple[str, str, str]] = ("min", "operand", "max")

    @classmethod
    def result_element(cls, elements: Sequence[str], semantics: Semantics,
                       types: Sequence[Attribute]) -> str:
        check_kinds(elements, cls.ELEMENT_KINDS)
        return _promote(elements, semantics, types)

    @classmethod
    def check_xla_shapes(cls, shapes: Sequence[rules.Shape]) -> None:
        low, x, high = shapes
        if any(bound and not _may_be_equal(bound, x) for bound in (low, high)):
            raise RuleError(
                "clamp min and max must be rank 0 or have the operand's shape under xla semantics",
                ["broadcast them explicitly (bcast.broadcast_in_dim)"],
            )

    def level_checks(self, shapes: Sequence[rules.Shape]) -> list[tuple[int, rules.RuntimeCheck]]:
        """Under xla semantics a ``min``/``max`` that is not rank 0 has the
        operand's shape: its dynamic dims are checked equal, never
        stretched from 1 (``check_xla_shapes`` at run time)."""
        shaped = [shape for shape in shapes if shape]
        if semantics_of(self) == "xla" and len(shaped) > 1:
            return rules.check_strict_dynamic(shaped, "clamp")[1]
        return super().level_checks(shapes)


class UnaryOp(ElementwiseOp, abc.ABC):
    """Unary elementwise op: the result has the operand's type."""

    T: ClassVar = VarConstraint("T", base(TensorType))
    operand = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$operand attr-dict `:` type($result)"

    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float"})
    TML_KINDS: ClassVar[frozenset[str] | None] = None

    def __init__(
        self, operand: SSAValue | Operation, *, attributes: Mapping[str, Attribute] | None = None
    ):
        super().__init__(operands=[operand], result_types=[_type(operand)], attributes=attributes)

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.operand, "operand")
        _check_nesting(semantics, (levels,))
        kinds = self.TML_KINDS if semantics == "tml" and self.TML_KINDS else self.ELEMENT_KINDS
        check_kinds((element,), kinds)


class FloatUnaryOp(UnaryOp, abc.ABC):
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})


@irdl_op_definition
class NegateOp(UnaryOp):
    name = "bcast.negate"
    SCALAR = staticmethod(scalar.negate)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX


class PartUnaryOp(UnaryOp, abc.ABC):
    """A unary op whose result on a complex operand is of its parts' float
    type (``abs``, ``real``, ``imag``), else of the operand's type. Written
    ``%r = bcast.abs %x : tensor<4xf32>`` when the two types are one, else
    ``: (tensor<4xcomplex<f32>>) -> tensor<4xf32>`` (StableHLO's syntax)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = None

    def __init__(
        self, operand: SSAValue | Operation, *, attributes: Mapping[str, Attribute] | None = None
    ):
        levels, element = split_type(_type(operand))
        result_type = make_type(levels, rules.COMPLEX_PARTS.get(element, element))
        IRDLOperation.__init__(self, operands=[operand], result_types=[result_type], attributes=attributes)

    def verify_semantics(self, semantics: Semantics) -> None:
        super().verify_semantics(semantics)
        levels, element = _split(self.operand, "operand")
        _check_declared(self, make_type(levels, rules.COMPLEX_PARTS.get(element, element)), self.result.type)

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if isinstance(t, FunctionType):
            if len(t.inputs.data) != 1 or len(t.outputs.data) != 1:
                parser.raise_error("expected a function type with one input and one result", pos, parser.pos)
            (operand_type,), (result_type,) = t.inputs.data, t.outputs.data
        else:
            operand_type = result_type = t
        value = parser.resolve_operand(operand, operand_type)
        return cls.create(operands=[value], result_types=[result_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.operand.type == self.result.type:
            printer.print_attribute(self.result.type)
        else:
            printer.print_operation_type(self)


@irdl_op_definition
class AbsOp(PartUnaryOp):
    name = "bcast.abs"
    SCALAR = staticmethod(scalar.abs_)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "float", "complex"})
    """StableHLO's ``abs`` takes no unsigned integers."""


@irdl_op_definition
class RealOp(PartUnaryOp):
    """``real %x``: the real part of a complex value; a float's is itself."""

    name = "bcast.real"
    SCALAR = staticmethod(scalar.real)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class ImagOp(PartUnaryOp):
    """``imag %x``: the imaginary part of a complex value; 0 for a float."""

    name = "bcast.imag"
    SCALAR = staticmethod(scalar.imag)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class SignOp(UnaryOp):
    name = "bcast.sign"
    SCALAR = staticmethod(scalar.sign)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = NUMERIC_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "float"})
    """StableHLO's ``sign`` takes no unsigned integers; a complex sign is written as its definition (XLA's divides by the
    modulus, NaN at infinity)."""


@irdl_op_definition
class ExponentialOp(FloatUnaryOp):
    name = "bcast.exponential"
    SCALAR = staticmethod(scalar.exponential)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class LogOp(FloatUnaryOp):
    name = "bcast.log"
    SCALAR = staticmethod(scalar.log)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    name = "bcast.sqrt"
    SCALAR = staticmethod(scalar.sqrt)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class RsqrtOp(FloatUnaryOp):
    name = "bcast.rsqrt"
    SCALAR = staticmethod(scalar.rsqrt)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    """XLA's ``rsqrt`` is within 1 ulp of ``1 / sqrt`` (``ULPS`` of the op matrix)."""


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    name = "bcast.tanh"
    SCALAR = staticmethod(scalar.tanh)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class LogisticOp(FloatUnaryOp):
    name = "bcast.logistic"
    SCALAR = staticmethod(scalar.logistic)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})
    """XLA's ``logistic`` is within 1 ulp of the definition (``ULPS`` of the op matrix)."""


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    name = "bcast.floor"
    SCALAR = staticmethod(scalar.floor)


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    name = "bcast.ceil"
    SCALAR = staticmethod(scalar.ceil)


@irdl_op_definition
class SineOp(FloatUnaryOp):
    name = "bcast.sine"
    SCALAR = staticmethod(scalar.sine)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class CosineOp(FloatUnaryOp):
    name = "bcast.cosine"
    SCALAR = staticmethod(scalar.cosine)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class TanOp(FloatUnaryOp):
    name = "bcast.tan"
    SCALAR = staticmethod(scalar.tan)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class ExponentialMinusOneOp(FloatUnaryOp):
    name = "bcast.exponential_minus_one"
    SCALAR = staticmethod(scalar.exponential_minus_one)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class LogPlusOneOp(FloatUnaryOp):
    name = "bcast.log_plus_one"
    SCALAR = staticmethod(scalar.log_plus_one)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX


@irdl_op_definition
class CbrtOp(FloatUnaryOp):
    name = "bcast.cbrt"
    SCALAR = staticmethod(scalar.cbrt)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = FLOAT_OR_COMPLEX
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"float"})
    """Complex values are written as their definition (a power)."""


@irdl_op_definition
class RoundNearestEvenOp(FloatUnaryOp):
    name = "bcast.round_nearest_even"
    SCALAR = staticmethod(scalar.round_nearest_even)


@irdl_op_definition
class RoundNearestAfzOp(FloatUnaryOp):
    name = "bcast.round_nearest_afz"
    SCALAR = staticmethod(scalar.round_nearest_afz)


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    """The error function ``2/sqrt(pi) * integral(exp(-t*t), 0, x)``
    (``jax.scipy.special.erf``; docs/semantics.md, "erf and erfc")."""

    name = "bcast.erf"
    SCALAR = staticmethod(scalar.erf)
    STABLEHLO: ClassVar[str] = "chlo.erf"


@irdl_op_definition
class ErfcOp(FloatUnaryOp):
    """``1 - erf(x)``, accurate where ``erf(x)`` is near 1 (the tail of
    ``jax.nn.gelu(approximate=False)``)."""

    name = "bcast.erfc"
    SCALAR = staticmethod(scalar.erfc)
    STABLEHLO: ClassVar[str] = "chlo.erfc"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset()
    """XLA's ``chlo.erfc`` rounds ``x*x`` before ``exp(-x*x)``: hundreds of
    ulps off in the tail (64 at ``x = 8.4`` in f32, over 500 at ``x = 23`` in
    f64), so the StableHLO target writes the definition (``bcast.ir.special``)
    in StableHLO ops; the import reads ``chlo.erfc`` as this op."""


@irdl_op_definition
class ErfInvOp(FloatUnaryOp):
    """The inverse error function on ``(-1, 1)``, ``+-inf`` at ``+-1``
    (``jax.scipy.special.erfinv``; ``jax.random.normal`` maps uniform bits
    through it). The StableHLO target writes its definition
    (``bcast.ir.scalar.erf_inv``), so XLA computes what bcast does."""

    name = "bcast.erf_inv"
    SCALAR = staticmethod(scalar.erf_inv)
    STABLEHLO: ClassVar[str] = "chlo.erf_inv"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset()


@irdl_op_definition
class SinhOp(FloatUnaryOp):
    """The hyperbolic sine (``jnp.sinh``): a libm function (``math.sinh``); StableHLO
    has none, so it is ``chlo.sinh`` there."""

    name = "bcast.sinh"
    SCALAR = staticmethod(scalar.sinh)
    STABLEHLO: ClassVar[str] = "chlo.sinh"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset()
    """XLA's is hundreds of ulps off in f64: the StableHLO target writes
    ``bcast.ir.special``'s composition (docs/stablehlo.md)."""


@irdl_op_definition
class CoshOp(FloatUnaryOp):
    """The hyperbolic cosine (``jnp.cosh``): a libm function (``math.cosh``); StableHLO
    has none, so it is ``chlo.cosh`` there."""

    name = "bcast.cosh"
    SCALAR = staticmethod(scalar.cosh)
    STABLEHLO: ClassVar[str] = "chlo.cosh"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset()
    """XLA's is hundreds of ulps off in f64: the StableHLO target writes
    ``bcast.ir.special``'s composition (docs/stablehlo.md)."""


@irdl_op_definition
class AsinOp(FloatUnaryOp):
    """The inverse sine, NaN outside ``[-1, 1]`` (``jnp.arcsin``): a libm function (``math.asin``); StableHLO
    has none, so it is ``chlo.asin`` there."""

    name = "bcast.asin"
    SCALAR = staticmethod(scalar.asin)
    STABLEHLO: ClassVar[str] = "chlo.asin"


@irdl_op_definition
class AcosOp(FloatUnaryOp):
    """The inverse cosine, NaN outside ``[-1, 1]`` (``jnp.arccos``): a libm function (``math.acos``); StableHLO
    has none, so it is ``chlo.acos`` there."""

    name = "bcast.acos"
    SCALAR = staticmethod(scalar.acos)
    STABLEHLO: ClassVar[str] = "chlo.acos"


@irdl_op_definition
class AtanOp(FloatUnaryOp):
    """The inverse tangent (``jnp.arctan``): a libm function (``math.atan``); StableHLO
    has none, so it is ``chlo.atan`` there."""

    name = "bcast.atan"
    SCALAR = staticmethod(scalar.atan)
    STABLEHLO: ClassVar[str] = "chlo.atan"


@irdl_op_definition
class AsinhOp(FloatUnaryOp):
    """The inverse hyperbolic sine (``jnp.arcsinh``): a libm function (``math.asinh``); StableHLO
    has none, so it is ``chlo.asinh`` there."""

    name = "bcast.asinh"
    SCALAR = staticmethod(scalar.asinh)
    STABLEHLO: ClassVar[str] = "chlo.asinh"


@irdl_op_definition
class AcoshOp(FloatUnaryOp):
    """The inverse hyperbolic cosine, NaN below 1 (``jnp.arccosh``): a libm function (``math.acosh``); StableHLO
    has none, so it is ``chlo.acosh`` there."""

    name = "bcast.acosh"
    SCALAR = staticmethod(scalar.acosh)
    STABLEHLO: ClassVar[str] = "chlo.acosh"


@irdl_op_definition
class AtanhOp(FloatUnaryOp):
    """The inverse hyperbolic tangent, ``+-inf`` at ``+-1``, NaN beyond (``jnp.arctanh``): a libm function (``math.atanh``); StableHLO
    has none, so it is ``chlo.atanh`` there."""

    name = "bcast.atanh"
    SCALAR = staticmethod(scalar.atanh)
    STABLEHLO: ClassVar[str] = "chlo.atanh"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset()
    """XLA's is hundreds of ulps off in f64: the StableHLO target writes
    ``bcast.ir.special``'s composition (docs/stablehlo.md)."""


@irdl_op_definition
class LgammaOp(FloatUnaryOp):
    """``log|gamma(x)|`` (``jax.scipy.special.gammaln``, ``jax.lax.lgamma``;
    ``jax.lax.igamma`` computes it in its loops): Lanczos' approximation, as
    XLA computes it (``bcast.ir.scalar.lgamma``; docs/semantics.md)."""

    name = "bcast.lgamma"
    SCALAR = staticmethod(scalar.lgamma)
    STABLEHLO: ClassVar[str] = "chlo.lgamma"


@irdl_op_definition
class DigammaOp(FloatUnaryOp):
    """The derivative of ``lgamma`` (``jax.scipy.special.digamma``), NaN at
    the poles (``bcast.ir.scalar.digamma``; docs/semantics.md)."""

    name = "bcast.digamma"
    SCALAR = staticmethod(scalar.digamma)
    STABLEHLO: ClassVar[str] = "chlo.digamma"


@irdl_op_definition
class PopcntOp(UnaryOp):
    """The number of set bits (of the two's complement bits for a signed
    value), in the operand's type."""

    name = "bcast.popcnt"
    SCALAR = staticmethod(scalar.popcnt)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})
    TML_KINDS: ClassVar[frozenset[str] | None] = frozenset({"unsigned"})
    TML_CLASS: ClassVar[str] = "bitwise"


@irdl_op_definition
class CountLeadingZerosOp(UnaryOp):
    """The zero bits above the highest set bit (of the two's complement
    bits for a signed value), in the operand's type (``jax.lax.clz``)."""

    name = "bcast.count_leading_zeros"
    SCALAR = staticmethod(scalar.count_leading_zeros)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})
    TML_KINDS: ClassVar[frozenset[str] | None] = frozenset({"unsigned"})
    TML_CLASS: ClassVar[str] = "bitwise"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})


@irdl_op_definition
class NotOp(UnaryOp):
    name = "bcast.not"
    SCALAR = staticmethod(scalar.not_)
    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"bool", "signed", "unsigned"})
    TML_KINDS: ClassVar[frozenset[str] | None] = frozenset({"bool", "unsigned"})
    TML_CLASS: ClassVar[str] = "bitwise"
    STABLEHLO_NATIVE_KINDS: ClassVar[frozenset[str]] = frozenset({"bool", "signed", "unsigned"})


# --------------------------------------------------------------------------
# Structural ops
# --------------------------------------------------------------------------


class StructuralOp(BcastOp, abc.ABC):
    """Each kind declares its effect trait: ``Pure``, or
    ``ChecksSizesAtRunTime`` for one that can fail on ``?`` sizes."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(CanonicalizationPatterns())
    assembly_format = "$operand attr-dict `:` functional-type(operands, results)"

    def __init__(
        self,
        operand: SSAValue | Operation,
        result_type: Attribute,
        *,
        properties: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(operands=[operand], result_types=[result_type], properties=properties)

    def is_identity(self) -> bool:
        """Whether the op returns its operand unchanged (its fold)."""
        return self.operand.type == self.result.type


class _FoldIdentity(HasFolderInterface):
    """Folds an op that changes nothing to its operand (xDSL's ``fold``)."""

    def fold(self):
        return (self.operand,) if self.is_identity() else None


def _same_element(op: StructuralOp) -> tuple[Levels, Levels]:
    (ol, oe), (rl, re) = _split(op.operand, "operand"), _split(op.result, "result")
    if oe != re:
        raise Diagnostic("failed to verify that all of {operand, result} have same element type")
    return ol, rl


@irdl_op_definition
class BroadcastInDimOp(_FoldIdentity, StructuralOp):
    """StableHLO's ``broadcast_in_dim``; on nested types it sees the flat shapes."""

    name = "bcast.broadcast_in_dim"
    traits = traits_def(ChecksSizesAtRunTime())
    DYNAMIC_SHAPES: ClassVar[bool] = True
    broadcast_dimensions = prop_def(DenseArrayBase.constr(i64))
    assembly_format = (
        "$operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(self, operand: SSAValue | Operation, dims: Sequence[int], result_type: Attribute):
        super().__init__(operand, result_type, properties={"broadcast_dimensions": dense_i64(dims)})

    @property
    def dims(self) -> tuple[int, ...]:
        return self.broadcast_dimensions.get_values()

    def is_identity(self) -> bool:
        return super().is_identity() and rules.is_identity(
            self.dims, len(flat_type_shape(self.result.type))
        )

    def verify_semantics(self, semantics: Semantics) -> None:
        ol, rl = _same_element(self)
        rules.check_broadcast_in_dim(
            rules.flat_shape(ol), rules.flat_shape(rl), self.dims, semantics
        )


@irdl_op_definition
class TransposeOp(_FoldIdentity, StructuralOp):
    name = "bcast.transpose"
    traits = traits_def(Pure())
    DYNAMIC_SHAPES: ClassVar[bool] = True
    permutation = prop_def(DenseArrayBase.constr(i64))
    assembly_format = (
        "$operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        operand: SSAValue | Operation,
        permutation: Sequence[int],
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            levels, element = split_type(_type(operand))
            shape = rules.check_transpose(rules.flat_shape(levels), permutation)
            result_type = make_type((shape,), element)
        super().__init__(operand, result_type, properties={"permutation": dense_i64(permutation)})

    @property
    def perm(self) -> tuple[int, ...]:
        return self.permutation.get_values()

    def is_identity(self) -> bool:
        return super().is_identity() and rules.is_identity(self.perm, len(self.perm))

    def verify_semantics(self, semantics: Semantics) -> None:
        ol, rl = _same_element(self)
        shape = rules.check_transpose(rules.flat_shape(ol), self.perm)
        if shape != rules.flat_shape(rl):
            _check_declared(self, make_type((shape,), _split(self.operand, "operand")[1]), self.result.type)


@irdl_op_definition
class ReshapeOp(_FoldIdentity, StructuralOp):
    """The flat shape of ``operand`` read in row-major order as the result's.
    With ``?`` dims the element count is checked at run time and one
    unbounded ``?`` result dim takes the size that keeps it
    (``rules.check_dynamic_reshape``, ``reshape_sizes``)."""

    name = "bcast.reshape"
    traits = traits_def(ChecksSizesAtRunTime())
    DYNAMIC_SHAPES: ClassVar[bool] = True

    def declared_sizes(self) -> tuple[int | None, ...]:
        """The result's flat shape, None for its ``?`` dim (``reshape_sizes``)."""
        return tuple(None if isinstance(d, rules.Dynamic) else d for d in flat_type_shape(self.result.type))

    def verify_semantics(self, semantics: Semantics) -> None:
        ol, rl = _same_element(self)
        if rules.levels_dynamic(ol) or rules.levels_dynamic(rl):
            rules.check_dynamic_reshape(rules.flat_shape(ol), rules.flat_shape(rl))
            return
        n_in = rules.element_count(rules.flat_shape(ol))
        n_out = rules.element_count(rules.flat_shape(rl))
        if n_in != n_out:
            raise Diagnostic(
                f"number of output elements ({n_out}) doesn't match expected number "
                f"of elements ({n_in})"
            )


@irdl_op_definition
class NarrowOp(StructuralOp):
    """TML narrowcasting: the top level's size-1 dims are removed."""

    name = "bcast.narrow"
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute | None = None):
        if result_type is None:
            levels, element = split_type(_type(operand))
            result_type = make_type(rules.narrow_levels(levels), element)
        super().__init__(operand, result_type)

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.operand, "operand")
        _check_nesting(semantics, (levels,))
        _check_declared(self, make_type(rules.narrow_levels(levels), element), self.result.type)


class ConversionOp(_FoldIdentity, StructuralOp, abc.ABC):
    """An elementwise change of element type, the shape unchanged:
    ``convert`` (of values) and ``bitcast_convert`` (of bits). Fusion,
    loops and sinking treat both alike; what each computes is its own."""

    traits = traits_def(Pure())
    DYNAMIC_SHAPES: ClassVar[bool] = True

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, _ = _split(self.operand, "operand")
        _check_nesting(semantics, (levels,))
        _, element = _split(self.result, "result")
        _check_declared(self, make_type(levels, element), self.result.type)


@irdl_op_definition
class ConvertOp(ConversionOp):
    """Element type conversion; the shape is unchanged."""

    name = "bcast.convert"


@irdl_op_definition
class BitcastConvertOp(ConversionOp):
    """``bitcast_convert %x : (tensor<4xui32>) -> tensor<4xf32>``: each
    element's bits read as another element type of the same width
    (StableHLO's ``bitcast_convert`` between equal widths; ``jax.random``
    builds floats from random bits so). A conversion in every other respect
    (elementwise, fused as ``convert`` is), so it derives from
    ``ConvertOp``; what it computes is its own (``bcast.ir.evaluate``,
    ``scalar.bitcast``). ``i1`` has no bit pattern of its own width here."""

    name = "bcast.bitcast_convert"

    def verify_semantics(self, semantics: Semantics) -> None:
        super().verify_semantics(semantics)
        elements = [_split(self.operand, "operand")[1], _split(self.result, "result")[1]]
        if "i1" in elements or rules.bit_width(elements[0]) != rules.bit_width(elements[1]) \
                or any(rules.kind(e) == "complex" for e in elements):
            raise Diagnostic(f"bitcast_convert needs element types of one bit width (not i1, not complex), got "
                             f"{elements[0]} and {elements[1]}")


@irdl_op_definition
class ReverseOp(_FoldIdentity, StructuralOp):
    """``reverse %x, dims = [1] : tensor<3x4xf32>``: ``x`` with the order of
    its elements along each of ``dims`` reversed (StableHLO's ``reverse``,
    NumPy's ``flip``). Dims are distinct and in range, in any order (printed
    as written, as StableHLO prints them). On a nested (tml) type the dims
    index the flat shape, outer dims first, as ``transpose``'s do: reversing
    an inner dim reverses each inner tensor."""

    name = "bcast.reverse"
    traits = traits_def(Pure())
    DYNAMIC_SHAPES: ClassVar[bool] = True
    T: ClassVar = VarConstraint("T", base(TensorType))
    operand = operand_def(T)
    result = result_def(T)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    assembly_format = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)"

    def __init__(self, operand: SSAValue | Operation, dims: Sequence[int]):
        super().__init__(operand, _type(operand), properties={"dimensions": dense_i64(dims)})

    @property
    def dims(self) -> tuple[int, ...]:
        return self.dimensions.get_values()

    def reversed_dims(self) -> tuple[int, ...]:
        """The dims whose order changes: a size-1 dim reversed is itself (a
        ``?`` dim may be larger unless its bound is 1)."""
        shape = flat_type_shape(self.operand.type)
        return tuple(d for d in self.dims if not rules.may_be_at_most_one(shape[d]))

    def is_identity(self) -> bool:
        return not self.reversed_dims()

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, _ = _split(self.operand, "operand")
        _check_nesting(semantics, (levels,))
        rules.check_dims(rules.flat_shape(levels), self.dims)


# --------------------------------------------------------------------------
# Op families declared once for bcast and StableHLO
# --------------------------------------------------------------------------
# ``pad``, ``slice``, ``concatenate`` and ``iota`` have one syntax, one set of
# fields and one shape rule in both dialects; the family class declares them
# (xDSL collects IRDL fields through the base classes, as its ``arith``
# binary op bases do), and each dialect's op adds its name, traits and
# verifier (bcast's ``verify_semantics``, StableHLO's ``verify_op``, each with
# its own wording). The dialect base supplies the two builder hooks
# ``flat_shape_of`` and ``shaped_like`` (bcast's reads dynamic dims;
# StableHLO's any element type). A family's builder calls
# ``IRDLOperation.__init__`` itself: the dialect base after it in the MRO
# (``StructuralOp``) has a constructor of its own.
#
# Where the twins differ, the family declares only what is the same and the
# dialect's op the rest. An operand whose type differs (an ``index`` in bcast,
# a tensor in StableHLO) is a type parameter of the family, as xDSL's
# ``AbstractYieldOperation`` takes one. xDSL lists a subclass's fields before
# its bases', so a family leaves out fields that must come after one the
# dialect declares (operands are positional in the generic form): the family
# of ``dynamic_broadcast_in_dim`` has its properties and result, not its
# operand. ``dynamic_update_slice`` has no family: bcast's operands are
# ``(operand, start indices..., update)``, StableHLO's ``(operand, update,
# start indices...)``, and each generic form is a contract; ``dynamic_reshape``
# shares only its result.


class SliceFamily(IRDLOperation, abc.ABC):
    """``slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>``
    (the stride is printed when it is not 1)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    start_indices = prop_def(DenseArrayBase.constr(i64))
    limit_indices = prop_def(DenseArrayBase.constr(i64))
    strides = prop_def(DenseArrayBase.constr(i64))
    custom_directives = (SliceRanges,)
    assembly_format = (
        "$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(self, operand: SSAValue | Operation, starts: Sequence[int], limits: Sequence[int],
                 strides: Sequence[int] | None = None):  # fmt: skip
        strides = [1] * len(starts) if strides is None else strides
        t = _type(operand)
        shape = rules.slice_shape(self.flat_shape_of(t), starts, limits, strides)
        props = {"start_indices": dense_i64(starts), "limit_indices": dense_i64(limits), "strides": dense_i64(strides)}
        IRDLOperation.__init__(self, operands=[operand], result_types=[self.shaped_like(t, shape)],
                               properties=props)  # fmt: skip

    @property
    def starts(self) -> tuple[int, ...]:
        return self.start_indices.get_values()

    @property
    def limits(self) -> tuple[int, ...]:
        return self.limit_indices.get_values()

    @property
    def steps(self) -> tuple[int, ...]:
        return self.strides.get_values()

    def ranges(self) -> tuple[slice, ...]:
        """The Python (NumPy, Array API) index of the slice, one per dim."""
        return tuple(slice(s, l, st) for s, l, st in zip(self.starts, self.limits, self.steps))


class ConcatenateFamily(IRDLOperation, abc.ABC):
    """``concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) ->
    tensor<3x3xf32>``."""

    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    custom_directives = (JoinedOperands,)
    assembly_format = "custom<JoinedOperands>($inputs, $dimension) attr-dict `:` functional-type(operands, results)"

    def __init__(self, inputs: Sequence[SSAValue | Operation], dimension: int):
        types = [_type(x) for x in inputs]
        shape = rules.concatenate_shape([self.flat_shape_of(t) for t in types], dimension)
        IRDLOperation.__init__(self, operands=[list(inputs)], result_types=[self.shaped_like(types[0], shape)],
                               properties={"dimension": IntegerAttr(dimension, i64)})  # fmt: skip

    @property
    def dim(self) -> int:
        return self.dimension.value.data


class PadFamily(IRDLOperation, abc.ABC):
    """``pad %x, %v, low = [1, 0], high = [2, -1], interior = [0, 1] :
    (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>``."""

    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    result = result_def(TensorType)
    edge_padding_low = prop_def(DenseArrayBase.constr(i64))
    edge_padding_high = prop_def(DenseArrayBase.constr(i64))
    interior_padding = prop_def(DenseArrayBase.constr(i64))
    assembly_format = (
        "$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` "
        "`interior` `=` $interior_padding attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, operand: SSAValue | Operation, value: SSAValue | Operation,
                 low: Sequence[int], high: Sequence[int], interior: Sequence[int]):
        t = _type(operand)
        shape = rules.pad_shape(self.flat_shape_of(t), low, high, interior)
        IRDLOperation.__init__(
            self, operands=[operand, value], result_types=[self.shaped_like(t, shape)],
            properties={"edge_padding_low": dense_i64(low), "edge_padding_high": dense_i64(high),
                        "interior_padding": dense_i64(interior)},
        )  # fmt: skip

    @property
    def low(self) -> tuple[int, ...]:
        return self.edge_padding_low.get_values()

    @property
    def high(self) -> tuple[int, ...]:
        return self.edge_padding_high.get_values()

    @property
    def interior(self) -> tuple[int, ...]:
        return self.interior_padding.get_values()


class IotaFamily(IRDLOperation, abc.ABC):
    """``iota dim = 0 : tensor<4x5xi32>``."""

    result = result_def(TensorType)
    iota_dimension = prop_def(IntegerAttr.constr(type=I64))
    assembly_format = "`dim` `=` $iota_dimension attr-dict `:` type($result)"

    def __init__(self, dimension: int, result_type: Attribute):
        IRDLOperation.__init__(self, result_types=[result_type],
                               properties={"iota_dimension": IntegerAttr(dimension, i64)})  # fmt: skip

    @property
    def dim(self) -> int:
        return self.iota_dimension.value.data

    def check_static_result(self) -> None:
        """An ``iota`` has no operand, so nothing gives a ``?`` or bounded dim
        of its result a run-time size (decision: refused, located, in both
        dialects; ``dynamic_iota`` takes the sizes as operands, as JAX's
        exports write it)."""
        if is_dynamic_type(self.result.type):
            dialect = self.name.split(".")[0]
            raise RuleError(f"iota of {self.result.type} has no operand to give its ? dimension a size",
                            [f"write {dialect}.dynamic_iota with the sizes as operands"])


def _facts(attr: DenseArrayBase | None) -> tuple[int, ...]:
    return () if attr is None else attr.get_values()


StartT = TypeVar("StartT", bound=Attribute)
SizeT = TypeVar("SizeT", bound=Attribute)


class DynamicSliceFamily(IRDLOperation, Generic[StartT], abc.ABC):
    """``dynamic_slice``'s fields and builder; each dialect writes the start
    indices its own way (bcast ``%x[%i, %j]``, StableHLO ``%x, %i, %j,``),
    and bcast takes them of any type so that its verifier locates an
    ``index`` (``StartT`` is ``Attribute`` there, ``TensorType`` in StableHLO)."""

    operand = operand_def(TensorType)
    start_indices = var_operand_def(StartT)
    result = result_def(TensorType)
    slice_sizes = prop_def(DenseArrayBase.constr(i64))

    def __init__(self, operand: SSAValue | Operation, starts: Sequence[SSAValue | Operation],
                 sizes: Sequence[int]):
        IRDLOperation.__init__(self, operands=[operand, list(starts)],
                               result_types=[self.shaped_like(_type(operand), sizes)],
                               properties={"slice_sizes": dense_i64(sizes)})  # fmt: skip

    @property
    def sizes(self) -> tuple[int, ...]:
        return self.slice_sizes.get_values()


class DynamicUpdateSliceFamily(IRDLOperation, abc.ABC):
    """``dynamic_update_slice``'s builder and shape rule
    (``rules.check_dynamic_update``). Each dialect declares the operands in
    the order its syntax writes them (bcast ``%x[%i, %j], %u``, StableHLO
    ``%x, %u, %i, %j``), and ``OPERAND_ORDER`` names that order for the one
    builder, ``Op(operand, starts, update)``."""

    OPERAND_ORDER: ClassVar[tuple[str, str, str]]

    def __init__(self, operand: SSAValue | Operation, starts: Sequence[SSAValue | Operation],
                 update: SSAValue | Operation):
        given = {"operand": operand, "start_indices": list(starts), "update": update}
        IRDLOperation.__init__(self, operands=[given[name] for name in self.OPERAND_ORDER],
                               result_types=[_type(operand)])  # fmt: skip

    def check_update_shape(self) -> None:
        """The update fits the operand (a ``?`` on either side is checked at
        run time), one start per dim; the result has the operand's type."""
        operand, update = self.flat_shape_of(self.operand.type), self.flat_shape_of(self.update.type)
        rules.check_dynamic_update(operand, update, len(self.start_indices))


class DotGeneralFamily(IRDLOperation, abc.ABC):
    """``dot_general``'s operands, result and builder. The dimension numbers
    are stored (and so written) differently: four ``array<i64>`` properties
    in bcast, one ``#stablehlo.dot<...>`` in StableHLO; each dialect's op
    gives ``dims`` and ``dims_properties``, the two directions between them
    and ``rules.DotDims``."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, dims: rules.DotDims,
                 result_type: Attribute | None = None, *, attributes: Mapping[str, Attribute] | None = None):
        """The result type is inferred (``rules.dot_general_shape``, the
        operands' element type) unless given (StableHLO's
        ``preferred_element_type``)."""
        if result_type is None:
            lt, rt = _type(lhs), _type(rhs)
            shape = rules.dot_general_shape(self.flat_shape_of(lt), self.flat_shape_of(rt), dims)
            result_type = self.shaped_like(lt, shape)
        IRDLOperation.__init__(self, operands=[lhs, rhs], result_types=[result_type], attributes=attributes,
                               properties=self.dims_properties(dims))  # fmt: skip

    @staticmethod
    @abc.abstractmethod
    def dims_properties(dims: rules.DotDims) -> dict[str, Attribute]: ...

    @property
    @abc.abstractmethod
    def dims(self) -> rules.DotDims: ...


class DynamicIotaFamily(IRDLOperation, abc.ABC):
    """``dynamic_iota``'s dimension and result; the output sizes are the
    dialect's (bcast: an ``index`` list, StableHLO: a 1-D size tensor)."""

    iota_dimension = prop_def(IntegerAttr.constr(type=I64))
    result = result_def(TensorType)

    @property
    def dim(self) -> int:
        return self.iota_dimension.value.data


class SetDimensionSizeFamily(IRDLOperation, Generic[SizeT], abc.ABC):
    """``set_dimension_size``'s fields and builder; the size is an ``index``
    in bcast, a rank-0 integer tensor in StableHLO (``SizeT``), so each
    dialect writes its own type list."""

    operand = operand_def(TensorType)
    size = operand_def(SizeT)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    result = result_def(TensorType)

    def __init__(self, operand: SSAValue | Operation, size: SSAValue | Operation, dimension: int,
                 result_type: Attribute):
        IRDLOperation.__init__(self, operands=[operand, size], result_types=[result_type],
                               properties={"dimension": IntegerAttr(dimension, i64)})  # fmt: skip

    @property
    def dim(self) -> int:
        return self.dimension.value.data


class DynamicBroadcastInDimFamily(IRDLOperation, abc.ABC):
    """``dynamic_broadcast_in_dim``'s properties, result and accessors: the
    dims and the operand dims known to expand (from 1) or not; the operand
    and the output sizes are the dialect's (they come first)."""

    broadcast_dimensions = prop_def(DenseArrayBase.constr(i64))
    known_expanding_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    known_nonexpanding_dimensions = opt_prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    @property
    def dims(self) -> tuple[int, ...]:
        return self.broadcast_dimensions.get_values()

    @property
    def expanding(self) -> tuple[int, ...]:
        return _facts(self.known_expanding_dimensions)

    @property
    def nonexpanding(self) -> tuple[int, ...]:
        return _facts(self.known_nonexpanding_dimensions)


@irdl_op_definition
class SliceOp(SliceFamily, _FoldIdentity, StructuralOp):
    """``slice %x [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>``:
    ``x[start:limit:stride]`` per dimension (StableHLO's ``slice`` and its
    syntax; the stride is printed when it is not 1). Ranges are static and in
    bounds, ``0 <= start <= limit <= size`` and ``stride >= 1``: no negative
    or clamped indices as in NumPy, which the frontends resolve. A nested (tml)
    type is refused: the ranges of the outer and the inner tensors would need
    a spelling of their own, and ``extract`` already indexes an outer level."""

    name = "bcast.slice"
    traits = traits_def(ChecksSizesAtRunTime())
    DYNAMIC_SHAPES: ClassVar[bool] = True

    def verify_semantics(self, semantics: Semantics) -> None:
        ol, _ = _same_element(self)
        _check_nesting(semantics, (ol,))
        if len(ol) > 1:
            raise Diagnostic(
                "slice does not support nested tensor types",
                ["slice a flat tensor, or index an outer level with bcast.extract"],
            )
        shape = rules.slice_shape(ol[0], self.starts, self.limits, self.steps)
        _check_declared(self, make_type((shape,), _split(self.operand, "operand")[1]), self.result.type)


def _check_start_indices(starts: Sequence[SSAValue]) -> None:
    """Start indices of ``dynamic_slice``/``dynamic_update_slice``: rank-0
    tensors of one integer type (signed or unsigned, any width; no ``i1``,
    StableHLO's boolean), as StableHLO has them."""
    for k, v in enumerate(starts):
        if not isinstance(v.type, TensorType):
            raise Diagnostic(f"start index #{k} must be a rank-0 integer tensor, got {v.type}",
                             ["a start index is a tensor<i32>, tensor<ui64>, ... (no i1), not an index "
                              "as extract and assign take"])
        levels, element = _split(v, f"start index #{k}")
        if len(levels) > 1 or levels[0] or rules.kind(element) not in ("signed", "unsigned"):
            raise Diagnostic(f"start index #{k} must be a rank-0 integer tensor, got {v.type}",
                             ["a start index is a tensor<i32>, tensor<ui64>, ... (no i1)"])
    if len({v.type for v in starts}) > 1:
        raise Diagnostic("start indices must have one type, got " + ", ".join(str(v.type) for v in starts),
                         ["insert a bcast.convert"])


@irdl_op_definition
class DynamicSliceOp(DynamicSliceFamily[Attribute], _FoldIdentity, BcastOp):
    """``dynamic_slice %x[%i, %j], sizes = [2, 3] : (tensor<4x8xf32>,
    tensor<i32>, tensor<i32>) -> tensor<2x3xf32>``: the block of ``sizes``
    starting at run-time indices, StableHLO's ``dynamic_slice``. Each start is
    a rank-0 integer tensor (not an ``index``, as ``extract`` takes: starts
    are values computed by the program, of any integer type, and never
    out of range) CLAMPED into ``[0, dim - size]`` so the block stays in
    bounds: any value is valid, there is no run-time error. A nested (tml)
    type is refused. Fusion takes it as a boundary (computed before the group
    that reads it): its offsets are values the group would have to read first.
    Folds to its operand when the block is all of it (every start clamps to
    0); ``canonicalize`` makes one with constant starts a ``slice``."""

    name = "bcast.dynamic_slice"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(ChecksSizesAtRunTime(), CanonicalizationPatterns())
    assembly_format = (
        "$operand `[` $start_indices `]` `,` `sizes` `=` $slice_sizes attr-dict `:` "
        "functional-type(operands, results)"
    )

    def is_identity(self) -> bool:
        """The block is the whole operand: every start clamps to 0."""
        return self.operand.type == self.result.type

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.operand, "operand")
        _check_nesting(semantics, (levels,))
        if len(levels) > 1:
            raise Diagnostic("dynamic_slice does not support nested tensor types")
        _check_start_indices(self.start_indices)
        shape = rules.dynamic_slice_shape(levels[0], len(self.start_indices), self.sizes)
        _check_declared(self, make_type((shape,), element), self.result.type)


@irdl_op_definition
class DynamicUpdateSliceOp(DynamicUpdateSliceFamily, HasFolderInterface, BcastOp):
    """``dynamic_update_slice %x[%i, %j], %u : (tensor<4x8xf32>, tensor<i32>,
    tensor<i32>, tensor<2x3xf32>) -> tensor<4x8xf32>``: a new tensor equal to
    ``x`` with ``u`` written at run-time start indices, StableHLO's
    ``dynamic_update_slice``. The starts are clamped as ``dynamic_slice``'s
    (into ``[0, dim - update size]``); ``u`` has ``x``'s rank and element
    type (no broadcasting or promotion, unlike ``assign``: it is StableHLO's
    op). The result never shares memory with ``x``. A nested type is refused.
    A ``?`` dim on either side is checked at run time (the update no larger),
    at the op's location. Folds to the update when it has ``x``'s static type
    (it replaces all of it; equal ``?`` types prove nothing about sizes)."""

    name = "bcast.dynamic_update_slice"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    OPERAND_ORDER: ClassVar[tuple[str, str, str]] = ("operand", "start_indices", "update")
    operand = operand_def(TensorType)
    start_indices = var_operand_def()  # tensors, checked by the verifier
    update = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = (
        "$operand `[` $start_indices `]` `,` $update attr-dict `:` functional-type(operands, results)"
    )

    def fold(self):
        same = self.update.type == self.operand.type and not is_dynamic_type(self.operand.type)
        return (self.update,) if same else None

    def verify_semantics(self, semantics: Semantics) -> None:
        (levels, element), (update_levels, update_element) = (
            _split(self.operand, "operand"), _split(self.update, "update"))
        _check_nesting(semantics, (levels, update_levels))
        if len(levels) > 1 or len(update_levels) > 1:
            raise Diagnostic("dynamic_update_slice does not support nested tensor types")
        _check_start_indices(self.start_indices)
        if update_element != element:
            raise Diagnostic(f"update has element type {update_element}, the operand has {element}",
                             ["insert a bcast.convert"])
        self.check_update_shape()
        _check_declared(self, self.operand.type, self.result.type)


# --------------------------------------------------------------------------
# gather: StableHLO's, with its dimension numbers. Family bases shared with
# ir/stablehlo.py, as the slice family above.
# --------------------------------------------------------------------------


class DimensionNumbersFamily(ParametrizedAttribute, abc.ABC):
    """``<offset_dims = [1], collapsed_slice_dims = [0], start_index_map =
    [0], index_vector_dim = 1>`` (empty lists omitted, as StableHLO prints
    them): ``rules.GatherDims`` as an attribute, its five lists named
    ``LISTS`` (gather's or scatter's words) and ``index_vector_dim``."""

    LISTS: ClassVar[tuple[str, ...]]

    @classmethod
    def of(cls, dims: rules.GatherDims):
        values = (dims.offset_dims, dims.collapsed_slice_dims, dims.operand_batching_dims,
                  dims.start_indices_batching_dims, dims.start_index_map)
        return cls(*(dense_i64(v) for v in values), IntAttr(dims.index_vector_dim))

    @property
    def dims(self) -> rules.GatherDims:
        return rules.GatherDims(*(getattr(self, f).get_values() for f in self.LISTS),
                                index_vector_dim=self.index_vector_dim.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        lists: dict[str, list[int]] = {f: [] for f in cls.LISTS}
        vector_dim = [0]

        def field() -> None:
            pos = parser.pos
            name = parser.parse_identifier()
            if name not in (*cls.LISTS, "index_vector_dim"):
                parser.raise_error(f"unknown {cls.WHAT} dimension field '{name}'", pos, parser.pos)
            parser.parse_punctuation("=")
            if name == "index_vector_dim":
                vector_dim[0] = parser.parse_integer(allow_boolean=False)
            else:
                lists[name] = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False))

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, field)
        return (*(dense_i64(lists[f]) for f in cls.LISTS), IntAttr(vector_dim[0]))

    def print_parameters(self, printer: Printer) -> None:
        shown = [f"{f} = [{', '.join(map(str, getattr(self, f).get_values()))}]"
                 for f in self.LISTS if getattr(self, f).get_values()]
        printer.print_string(f"<{', '.join([*shown, f'index_vector_dim = {self.index_vector_dim.data}'])}>")


class GatherDimsFamily(DimensionNumbersFamily, abc.ABC):
    offset_dims: DenseArrayBase
    collapsed_slice_dims: DenseArrayBase
    operand_batching_dims: DenseArrayBase
    start_indices_batching_dims: DenseArrayBase
    start_index_map: DenseArrayBase
    index_vector_dim: IntAttr

    WHAT: ClassVar[str] = "gather"
    LISTS: ClassVar[tuple[str, ...]] = ("offset_dims", "collapsed_slice_dims", "operand_batching_dims",
                                        "start_indices_batching_dims", "start_index_map")


class ScatterDimsFamily(DimensionNumbersFamily, abc.ABC):
    """A scatter's dimension numbers, a gather's in other words
    (``rules.SCATTER_WORDS``), in the same order."""

    update_window_dims: DenseArrayBase
    inserted_window_dims: DenseArrayBase
    input_batching_dims: DenseArrayBase
    scatter_indices_batching_dims: DenseArrayBase
    scatter_dims_to_operand_dims: DenseArrayBase
    index_vector_dim: IntAttr

    WHAT: ClassVar[str] = "scatter"
    LISTS: ClassVar[tuple[str, ...]] = ("update_window_dims", "inserted_window_dims", "input_batching_dims",
                                        "scatter_indices_batching_dims", "scatter_dims_to_operand_dims")


@irdl_attr_definition
class GatherDimsAttr(GatherDimsFamily):
    name = "bcast.gather"


class GatherFamily(IRDLOperation, abc.ABC):
    """``gather``'s operands and properties: an operand, an integer tensor of
    start indices, the dimension numbers (an attribute of the dialect's own
    ``GatherDimsFamily`` class, ``DIMS_ATTR``) and ``slice_sizes``."""

    DIMS_ATTR: ClassVar[type[GatherDimsFamily]]
    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    result = result_def(TensorType)
    dimension_numbers = prop_def(GatherDimsFamily)
    slice_sizes = prop_def(DenseArrayBase.constr(i64))

    def __init__(self, operand: SSAValue | Operation, start_indices: SSAValue | Operation, dims: rules.GatherDims,
                 sizes: Sequence[int], *, properties: Mapping[str, Attribute] | None = None):
        t = _type(operand)
        shape = rules.gather_shape(self.flat_shape_of(t), self.flat_shape_of(_type(start_indices)), dims, sizes)
        props = {"dimension_numbers": self.DIMS_ATTR.of(dims), "slice_sizes": dense_i64(sizes), **(properties or {})}
        IRDLOperation.__init__(self, operands=[operand, start_indices], result_types=[self.shaped_like(t, shape)],
                               properties=props)  # fmt: skip

    @property
    def dims(self) -> rules.GatherDims:
        return self.dimension_numbers.dims

    @property
    def sizes(self) -> tuple[int, ...]:
        return self.slice_sizes.get_values()


@irdl_op_definition
class GatherOp(GatherFamily, BcastOp):
    """``gather %x[%i], <offset_dims = [1], collapsed_slice_dims = [0],
    start_index_map = [0], index_vector_dim = 1>, sizes = [1, 8] :
    (tensor<4x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>``: StableHLO's
    ``gather``, slices of ``x`` at run-time start indices (``x[i]``,
    ``take``, ``take_along_axis``, an embedding lookup), its shape rules and
    words (``rules.gather_shape``). Each start is CLAMPED into ``[0, dim -
    slice size]`` as the spec says (as ``dynamic_slice``'s): any index is
    valid, none reads out of bounds. The indices are a tensor of any integer
    type (no ``i1``). StableHLO's ``indices_are_sorted`` is a promise bcast
    does not need and drops (keeping it false is always correct). A nested
    (tml) type is refused. Fusion takes it as a boundary, as
    ``dynamic_slice``: its positions are values read first."""

    name = "bcast.gather"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    DIMS_ATTR: ClassVar[type[GatherDimsFamily]] = GatherDimsAttr
    dimension_numbers = prop_def(GatherDimsAttr)
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = (
        "$operand `[` $start_indices `]` `,` $dimension_numbers `,` `sizes` `=` $slice_sizes attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_semantics(self, semantics: Semantics) -> None:
        (levels, element), (index_levels, index_element) = (
            _split(self.operand, "operand"), _split(self.start_indices, "start indices"))
        _check_nesting(semantics, (levels, index_levels))
        if len(levels) > 1 or len(index_levels) > 1:
            raise Diagnostic("gather does not support nested tensor types")
        if rules.kind(index_element) not in ("signed", "unsigned"):
            raise Diagnostic(f"start indices must be a tensor of integers, got {self.start_indices.type}",
                             ["indices are i32, ui64, ... (no i1); insert a bcast.convert"])
        shape = rules.gather_shape(levels[0], index_levels[0], self.dims, self.sizes)
        _check_declared(self, make_type((shape,), element), self.result.type)


@irdl_attr_definition
class ScatterDimsAttr(ScatterDimsFamily):
    name = "bcast.scatter"


class ScatterKind(StrEnum):
    SET = "set"
    ADD = "add"
    MULTIPLY = "multiply"
    MAXIMUM = "maximum"
    MINIMUM = "minimum"


SCATTER_KINDS = frozenset(ScatterKind)
"""``set`` and the reduction kinds a scatter combines duplicates with."""


@irdl_attr_definition
class ScatterKindAttr(EnumAttribute[ScatterKind], SpacedOpaqueSyntaxAttribute):
    name = "bcast.scatter_kind"


@irdl_op_definition
class ScatterOp(BcastOp):
    """``scatter add %x[%i], %u, <update_window_dims = [1],
    inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
    index_vector_dim = 1> : (tensor<6x4xf32>, tensor<3x1xi32>,
    tensor<3x4xf32>) -> tensor<6x4xf32>``: StableHLO's ``scatter`` of one
    input whose update computation is the update itself (``set``:
    ``x.at[i].set(u)``) or a reduction kind's binary op on the old value
    and the update (``add``, ``multiply``, ``maximum``, ``minimum``:
    ``x.at[i].add(u)``, ``.multiply``, ``.max``, ``.min``, with that op's
    element kinds and NaN rules). Each update
    element goes where the gather with the same dimension numbers would
    have read it (``rules.check_scatter``), but its start is NOT clamped: an
    element whose position is out of bounds is skipped, as the spec says.
    Duplicate positions: the combining kinds fold every update in (in the
    updates' row-major order; the spec leaves the order to the
    implementation); ``set`` keeps one of them (the spec leaves which to
    the implementation; every backend of bcast keeps the last in the
    updates' row-major order). The result is a
    new tensor, never ``x``'s memory. Updates have ``x``'s element type;
    indices are integers (no ``i1``). A nested (tml) type is refused; a
    fusion boundary."""

    name = "bcast.scatter"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # what a ``?`` leaves unproven: ``CheckDynamicScatterSizes``
    kind = prop_def(ScatterKindAttr)
    operand = operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    result = result_def(TensorType)
    dimension_numbers = prop_def(ScatterDimsAttr)
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = (
        "$kind $operand `[` $scatter_indices `]` `,` $updates `,` $dimension_numbers attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(self, kind: str, operand: SSAValue | Operation, indices: SSAValue | Operation,
                 updates: SSAValue | Operation, dims: rules.GatherDims):
        super().__init__(operands=[operand, indices, updates], result_types=[_type(operand)],
                         properties={"kind": ScatterKindAttr(ScatterKind(kind)),
                                     "dimension_numbers": ScatterDimsAttr.of(dims)})  # fmt: skip

    @property
    def dims(self) -> rules.GatherDims:
        return self.dimension_numbers.dims

    @property
    def kind_name(self) -> str:
        return self.kind.data.value

    def verify_semantics(self, semantics: Semantics) -> None:
        (levels, element), (index_levels, index_element), (update_levels, update_element) = (
            _split(self.operand, "operand"), _split(self.scatter_indices, "scatter indices"),
            _split(self.updates, "updates"))
        _check_nesting(semantics, (levels, index_levels, update_levels))
        if len(levels) > 1 or len(index_levels) > 1 or len(update_levels) > 1:
            raise Diagnostic("scatter does not support nested tensor types")
        if rules.kind(index_element) not in ("signed", "unsigned"):
            raise Diagnostic(f"scatter indices must be a tensor of integers, got {self.scatter_indices.type}",
                             ["indices are i32, ui64, ... (no i1); insert a bcast.convert"])
        if update_element != element:
            raise Diagnostic(f"updates have element type {update_element}, the operand has {element}",
                             ["insert a bcast.convert"])
        if self.kind_name != "set" and rules.kind(element) not in reduction_kinds(self.kind_name):
            allowed = reduction_kinds(self.kind_name)
            raise Diagnostic(f"scatter {self.kind_name} needs {KIND_WORDS[allowed]} elements, got element type "
                             f"{element}", [f"'{REDUCTION_COMBINERS[self.kind_name].name}' is the operation "
                                            f"scatter {self.kind_name} combines with"])  # fmt: skip
        rules.check_scatter(levels[0], index_levels[0], update_levels[0], self.dims)
        _check_declared(self, self.operand.type, self.result.type)


@irdl_op_definition
class IotaOp(IotaFamily, BcastOp):
    """``iota dim = 0 : tensor<4x5xi32>``: each element is its index along
    ``dim``, converted to the element type as ``convert`` does (an integer
    type too small wraps; a float rounds), as StableHLO's ``iota``.
    The element type is an integer or a float, not ``i1`` (StableHLO's
    ``iota`` takes no booleans); the result has rank >= 1. A nested (tml)
    type is refused: an index along one dim of a tensor of tensors would
    make every inner tensor a splat, which ``broadcast_in_dim`` of a flat
    iota writes more plainly."""

    name = "bcast.iota"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # refused by its own rule: check_static_result
    traits = traits_def(Pure(), CanonicalizationPatterns())

    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float", "complex"})

    def verify_semantics(self, semantics: Semantics) -> None:
        self.check_static_result()
        levels, element = _split(self.result, "result")
        if len(levels) > 1:
            raise Diagnostic(
                "iota does not support nested tensor types",
                ["write a flat iota and broadcast it with bcast.broadcast_in_dim"],
            )
        if rules.kind(element) not in self.ELEMENT_KINDS:
            raise Diagnostic(
                f"result must be {KIND_WORDS[self.ELEMENT_KINDS]}, got element type {element}",
                ["iota counts indices, which have no boolean (i1) form"],
            )
        rules.check_iota(levels[0], self.dim)


@irdl_op_definition
class ConcatenateOp(ConcatenateFamily, BcastOp):
    """``concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) ->
    tensor<3x3xf32>``: the operands joined along ``dim``, in order (StableHLO's
    ``concatenate``, NumPy's ``concatenate``). At least one operand; one rank
    >= 1 and one element type for all (no promotion: a join is not
    arithmetic); sizes equal except along ``dim``. A nested (tml) type is
    refused: joining tensors of tensors has no StableHLO or Array API form."""

    name = "bcast.concatenate"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(ChecksSizesAtRunTime())

    def verify_semantics(self, semantics: Semantics) -> None:
        split = [_split(x, f"operand #{i}") for i, x in enumerate(self.inputs)]
        if any(len(levels) > 1 for levels, _ in split):
            raise Diagnostic("concatenate does not support nested tensor types")
        elements = [e for _, e in split]
        for i, e in enumerate(elements[1:], 1):
            if e != elements[0]:
                raise Diagnostic(
                    f"operand #{i} has element type {e}, operand #0 has {elements[0]}",
                    ["concatenate joins operands of one element type; insert a bcast.convert"],
                )
        shape = rules.concatenate_shape([levels[0] for levels, _ in split], self.dim)
        check_run_time_result(self, make_type((shape,), elements[0]), self.result.type)


@irdl_op_definition
class PadOp(PadFamily, BcastOp):
    """``pad %x, %v, low = [1, 0], high = [2, -1], interior = [0, 1] :
    (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>``: ``x`` with
    ``interior`` copies of the scalar ``v`` between neighbours, ``low`` before
    and ``high`` after, per dim (StableHLO's ``pad``). A negative ``low`` or
    ``high`` crops that many elements from the padded edge. ``v`` is a
    rank-0 tensor of ``x``'s element type; a nested (tml) type is refused."""

    name = "bcast.pad"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(ChecksSizesAtRunTime())

    def verify_semantics(self, semantics: Semantics) -> None:
        (levels, element), (value_levels, value_element) = (
            _split(self.operand, "operand"), _split(self.padding_value, "padding value"))
        if len(levels) > 1 or len(value_levels) > 1:
            raise Diagnostic("pad does not support nested tensor types")
        if value_levels[0]:
            raise Diagnostic(f"padding value must be a rank-0 tensor, got {self.padding_value.type}")
        if value_element != element:
            raise Diagnostic(
                f"padding value has element type {value_element}, the operand has {element}",
                ["insert a bcast.convert"],
            )
        shape = rules.pad_shape(levels[0], self.low, self.high, self.interior)
        check_run_time_result(self, make_type((shape,), element), self.result.type)


@irdl_op_definition
class ConstantOp(BcastOp):
    name = "bcast.constant"
    T: ClassVar = VarConstraint("T", base(TensorType))
    value = prop_def(ParamAttrConstraint(DenseIntOrFPElementsAttr, (T, AnyAttr())))
    result = result_def(T)
    traits = traits_def(Pure(), ConstantLike(), CanonicalizationPatterns())
    assembly_format = "attr-dict $value"

    def __init__(
        self, value: DenseIntOrFPElementsAttr | np.ndarray, value_type: Attribute | None = None
    ):
        """From a dense attribute, or from a NumPy array (flat values in order)
        and the tensor type ``value_type``."""
        if isinstance(value, np.ndarray):
            assert value_type is not None, "a constant from an array needs its type"
            flat = value.reshape(-1)
            if is_complex_dtype(flat.dtype):
                values = [(float(v.real), float(v.imag)) for v in flat]
            else:
                values = [float(v) for v in flat] if is_float_dtype(flat.dtype) else [int(v) for v in flat]
            value = DenseIntOrFPElementsAttr.from_list(value_type, values)  # type: ignore[arg-type]
        super().__init__(properties={"value": value}, result_types=[value.type])

    def numpy_value(self) -> np.ndarray:
        """The value as a flat NumPy array of the result's element type;
        floats come from the stored bytes (little-endian, as xDSL packs
        them), so NaN payloads survive (Python floats would not keep them)."""
        t = self.result.type
        shape = flat_type_shape(t)
        dtype = numpy_dtype(t)
        if is_float_dtype(dtype) or is_complex_dtype(dtype):
            array = np.frombuffer(self.value.data.data, dtype=dtype.newbyteorder("<")).astype(dtype)
        else:
            array = np.array(self.value.get_values(), dtype=dtype)
        if array.size == 1 and rules.element_count(shape) != 1:
            return np.full(shape, array.reshape(()), dtype=array.dtype)
        return array.reshape(shape)

    def verify_semantics(self, semantics: Semantics) -> None:
        _split(self.value.type, "value")
        _check_declared(self, self.value.type, self.result.type)

    def splat_value(self) -> int | float | None:
        """The one value of a splat constant, or None. Elements are compared
        bit for bit, so ``[0.0, -0.0]`` is no splat (Python says 0.0 == -0.0)
        and a NaN splat is one."""
        raw = self.value.data.data
        count = len(self.value)
        if count == 0:
            return None
        size = len(raw) // count
        if raw != raw[:size] * count:
            return None
        return self.value.get_values()[0]


# --------------------------------------------------------------------------
# Indexing
# --------------------------------------------------------------------------


def _indices(static: DenseArrayBase, n_dynamic: int, what: str) -> list[int | None]:
    values = [None if v == DYNAMIC_INDEX else v for v in static.get_values()]
    if sum(v is None for v in values) != n_dynamic:
        raise Diagnostic(f"{what} lists {rules.plural(n_dynamic, 'SSA index', 'SSA indices')} but "
                         f"its index list has {rules.plural(sum(v is None for v in values), 'dynamic entry', 'dynamic entries')}")
    return values


def _index_operands(indices: Sequence[int | SSAValue]) -> tuple[DenseArrayBase, list[SSAValue]]:
    """Builder input ``[1, %i]`` -> the static list (``DYNAMIC_INDEX`` for SSA
    entries) and the SSA indices."""
    static = [DYNAMIC_INDEX if isinstance(i, SSAValue) else i for i in indices]
    return dense_i64(static), [i for i in indices if isinstance(i, SSAValue)]


class IndexingOp(BcastOp, abc.ABC):
    """``extract`` and ``assign``: an operand indexed by literal and SSA indices
    (the operands, whose order differs, are declared by each op)."""

    static_indices = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)
    traits = traits_def(Pure(), CanonicalizationPatterns())

    def _build(
        self,
        indexed: SSAValue | Operation,
        indices: Sequence[int | SSAValue],
        more: Sequence[SSAValue | Operation],
        result_type: Attribute,
        attributes: Mapping[str, Attribute] | None,
    ) -> None:
        static, dynamic = _index_operands(indices)
        IRDLOperation.__init__(
            self, operands=[indexed, dynamic, *more], result_types=[result_type],
            properties={"static_indices": static}, attributes=attributes,
        )  # fmt: skip

    def indices(self) -> list[int | None]:
        """The indices, ``None`` for an SSA one."""
        return _indices(self.static_indices, len(self.index_values), self.name.split(".")[1])

    def mixed_indices(self) -> list[int | SSAValue]:
        """The indices as written: literals and SSA values (the builders' input)."""
        dynamic = iter(self.index_values)
        return [next(dynamic) if i is None else i for i in self.indices()]

    @property
    @abc.abstractmethod
    def indexed(self) -> SSAValue:
        """The value the indices apply to (``extract``'s operand, ``assign``'s dest)."""

    def index_plan(self, semantics: Semantics | None = None) -> rules.IndexPlan:
        """How the indices apply to :attr:`indexed` (``rules.plan_indices``),
        under ``semantics`` or else the op's module's; a ``RuleError`` when
        they do not."""
        levels, _ = split_type(self.indexed.type)
        return rules.plan_indices(levels, self.indices(), semantics or semantics_of(self), self.name.split(".")[1])


@irdl_op_definition
class ExtractOp(IndexingOp):
    """``extract %t[i, j, ...]``: a sub-tensor or element, with index-access
    broadcasting under tml semantics."""

    name = "bcast.extract"
    operand = operand_def(TensorType)
    index_values = var_operand_def(IndexType)
    assembly_format = (
        "$operand custom<IndexList>($index_values, $static_indices) attr-dict `:` "
        "functional-type(operands, results)"
    )
    custom_directives = (IndexList,)

    def __init__(
        self,
        operand: SSAValue | Operation,
        indices: Sequence[int | SSAValue],
        result_type: Attribute,
        *,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        self._build(operand, indices, [], result_type, attributes)

    @property
    def indexed(self) -> SSAValue:
        return self.operand

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.operand, "operand")
        _check_nesting(semantics, (levels,))
        plan = self.index_plan(semantics)
        _check_declared(self, make_type(plan.result, element), self.result.type)


@irdl_op_definition
class AssignOp(IndexingOp):
    """``assign %dst[i...], %src``: a new tensor equal to ``dst`` with the indexed
    part replaced by ``src`` broadcast to it (the Array API in-place rule)."""

    name = "bcast.assign"
    dest = operand_def(TensorType)
    index_values = var_operand_def(IndexType)
    source = operand_def(TensorType)
    assembly_format = (
        "$dest custom<OptionalIndexList>($index_values, $static_indices) `,` $source "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (OptionalIndexList,)

    def __init__(
        self,
        dest: SSAValue | Operation,
        indices: Sequence[int | SSAValue],
        source: SSAValue | Operation,
        *,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        self._build(dest, indices, [source], _type(dest), attributes)

    @property
    def indexed(self) -> SSAValue:
        return self.dest

    def verify_semantics(self, semantics: Semantics) -> None:
        (dl, de), (sl, se) = _split(self.dest, "dest"), _split(self.source, "source")
        _check_nesting(semantics, (dl, sl))
        if semantics == "xla" and de != se:
            raise Diagnostic(
                f"source element type {se} differs from the destination's {de} under "
                "xla semantics"
            )
        if not rules.assignable(se, de):
            raise Diagnostic(
                f"source element type {se} does not convert implicitly to the "
                f"destination's {de}",
                ["assignment keeps the destination type; insert a bcast.convert"],
            )
        plan = self.index_plan(semantics)
        rules.check_assign_levels(plan.result, sl)
        _check_declared(self, self.dest.type, self.result.type)


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------


class ReductionKind(StrEnum):
    ADD = "add"
    MULTIPLY = "multiply"
    MAXIMUM = "maximum"
    MINIMUM = "minimum"
    AND = "and"
    OR = "or"
    XOR = "xor"


@irdl_attr_definition
class ReductionKindAttr(EnumAttribute[ReductionKind], SpacedOpaqueSyntaxAttribute):
    name = "bcast.reduction_kind"


REDUCTION_COMBINERS: dict[str, type[BinaryOp]] = {
    "add": AddOp, "multiply": MultiplyOp, "maximum": MaximumOp, "minimum": MinimumOp,
    "and": AndOp, "or": OrOp, "xor": XorOp,
}  # fmt: skip
"""The binary op each kind folds with: its element kinds are the reduction's
(so ``add`` rejects i1 and ``and`` rejects floats, exactly as the binary ops),
but for complex values under ``maximum``/``minimum`` (``reduction_kinds``)."""


def reduction_kinds(kind: str) -> frozenset[str]:
    """The element kinds a reduction of ``kind`` takes: its combiner's, less
    complex for ``maximum``/``minimum``, which have no identity on complex
    values (their lexicographic order has no least element)."""
    kinds = REDUCTION_COMBINERS[kind].ELEMENT_KINDS
    return kinds - {"complex"} if kind in ("maximum", "minimum") else kinds


@irdl_op_definition
class ReduceOp(BcastOp):
    """``reduce KIND %x, dims = [...] [keepdims]``: ``x`` folded with KIND over
    ``dims``, starting from the kind's identity (``numerics.reduce``).

    ``dims`` are distinct and in range, in any order: the custom syntax and the
    builder store them sorted (a reduction does not depend on their order, and
    canonical text makes equal ops print equally); generic IR may hold any
    order. ``keepdims`` leaves size-1 dims in place, so under numpy semantics
    the result broadcasts back against the operand with no reshape.
    On a nested (tml) type, ``dims`` index the outer level only and the inner
    levels are kept whole: each element of the outer tensor is a tensor, and
    reducing combines those tensors elementwise. Since a nested value is
    stored flat with the outer dims first, the flat reduction is the same.
    Under tml the combiner's op-class rule applies too: ``and``/``or``/``xor``
    reduce i1 or unsigned integers only, as the binary ops take them."""

    name = "bcast.reduce"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    kind = prop_def(ReductionKindAttr)
    dims = prop_def(DenseArrayBase.constr(i64))
    keepdims = opt_prop_def(UnitAttr)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = (
        "$kind $operand `,` `dims` `=` custom<SortedDims>($dims) (`keepdims` $keepdims^)? "
        "attr-dict `:` functional-type(operands, results)"
    )
    custom_directives = (SortedDims,)

    def __init__(
        self,
        kind: ReductionKind | str | ReductionKindAttr,
        operand: SSAValue | Operation,
        dims: Sequence[int],
        keepdims: bool = False,
        *,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if not isinstance(kind, ReductionKindAttr):
            kind = ReductionKindAttr(ReductionKind(kind))
        t = _type(operand)
        result_type = self.infer_type(kind.data.value, t, sorted(dims), keepdims, _builder_semantics(t))
        super().__init__(
            operands=[operand], result_types=[result_type], attributes=attributes,
            properties={"kind": kind, "dims": dense_i64(sorted(dims)),
                        "keepdims": UnitAttr() if keepdims else None},
        )  # fmt: skip

    @property
    def kind_name(self) -> str:
        return self.kind.data.value

    @property
    def reduced_dims(self) -> tuple[int, ...]:
        return self.dims.get_values()

    @property
    def keeps_dims(self) -> bool:
        return self.keepdims is not None

    @staticmethod
    def infer_type(
        kind: str, operand: Attribute, dims: Sequence[int], keepdims: bool, semantics: Semantics
    ) -> TensorType:
        levels, element = _split(operand, "operand")
        _check_nesting(semantics, (levels,))
        combiner = REDUCTION_COMBINERS[kind]
        allowed, notes = reduction_kinds(kind), []
        if semantics == "tml" and combiner.TML_KINDS is not None:
            # the combiner's tml class rule (bitwise on unsigned integers only)
            allowed, notes = combiner.TML_KINDS, [combiner.TML_KINDS_NOTE]
        if rules.kind(element) not in allowed:
            raise Diagnostic(
                f"reduce {kind} needs {KIND_WORDS[allowed]} elements, got element type {element}",
                [f"'{combiner.name}' is the operation reduce {kind} folds with, and it "
                 f"takes {KIND_WORDS[allowed]} operands", *notes]
                if rules.kind(element) != "complex" else
                [f"reduce {kind} has no identity on complex values (their lexicographic order has no least "
                 "element); reduce their real or imag parts"],
            )  # fmt: skip
        try:
            outer = rules.reduce_shape(levels[0], dims, keepdims)
        except RuleError as e:
            if len(levels) > 1:
                e.notes.append("dims index the outer level of a nested type only")
            raise
        return make_type((outer, *levels[1:]), element)

    def verify_semantics(self, semantics: Semantics) -> None:
        inferred = self.infer_type(
            self.kind_name, self.operand.type, self.reduced_dims, self.keeps_dims, semantics
        )
        try:
            _check_declared(self, inferred, self.result.type)
        except Diagnostic as e:
            how = "stay as size 1 (keepdims)" if self.keeps_dims else "are removed (no keepdims)"
            e.notes.append(f"the reduced dims {list(self.reduced_dims)} {how}")
            raise


# --------------------------------------------------------------------------
# Contractions
# --------------------------------------------------------------------------

CONTRACTION_KINDS = frozenset({"signed", "unsigned", "float", "complex"})
"""What ``dot_general`` and ``matmul`` multiply: integers (wrapping, as
NumPy's integer ``matmul``), floats and complex values (no conjugation:
``jnp.vdot`` conjugates first); not ``i1``."""


def _contraction_levels(op: BcastOp) -> tuple[tuple[Shape, str], tuple[Shape, str]]:
    """Both operands' (shape, element): nested (tml) types are refused (a
    contraction of tensors of tensors has no StableHLO or Array API form),
    and the element kinds checked."""
    split = [_split(v, name) for v, name in ((op.operands[0], "lhs"), (op.operands[1], "rhs"))]
    if any(len(levels) > 1 for levels, _ in split):
        raise Diagnostic(f"{op.name.removeprefix('bcast.')} does not support nested tensor types")
    check_kinds([e for _, e in split], CONTRACTION_KINDS)
    return (split[0][0][0], split[0][1]), (split[1][0][0], split[1][1])


@irdl_op_definition
class DotGeneralOp(DotGeneralFamily, BcastOp):
    """``dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2]
    x [1] : (tensor<8x3x4xf32>, tensor<8x4x5xf32>) -> tensor<8x3x5xf32>``:
    StableHLO's ``dot_general``, the explicit contraction every ``matmul``
    becomes. The result is the batch dims, then ``lhs``'s free dims, then
    ``rhs``'s (``rules.dot_general_shape``, StableHLO's rules). Both operands
    have one element type (integer or float) under every semantics and the
    result has it too: promotion is ``matmul``'s business (make-explicit
    converts), and StableHLO's ``preferred_element_type`` is imported as a
    ``convert`` of the operands. ``f16`` sums in ``f32`` and rounds once;
    integers wrap. Nested (tml) types are refused."""

    name = "bcast.dot_general"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    lhs_batching_dimensions = prop_def(DenseArrayBase.constr(i64))
    rhs_batching_dimensions = prop_def(DenseArrayBase.constr(i64))
    lhs_contracting_dimensions = prop_def(DenseArrayBase.constr(i64))
    rhs_contracting_dimensions = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(ChecksSizesAtRunTime())
    custom_directives = (DotDims,)
    assembly_format = (
        "$lhs `,` $rhs `,` custom<DotDims>($lhs_batching_dimensions, $rhs_batching_dimensions, "
        "$lhs_contracting_dimensions, $rhs_contracting_dimensions) attr-dict `:` functional-type(operands, results)"
    )

    @staticmethod
    def dims_properties(dims: rules.DotDims) -> dict[str, Attribute]:
        return {"lhs_batching_dimensions": dense_i64(dims.lhs_batch),
                "rhs_batching_dimensions": dense_i64(dims.rhs_batch),
                "lhs_contracting_dimensions": dense_i64(dims.lhs_contract),
                "rhs_contracting_dimensions": dense_i64(dims.rhs_contract)}  # fmt: skip

    @property
    def dims(self) -> rules.DotDims:
        return rules.DotDims(self.lhs_batching_dimensions.get_values(), self.rhs_batching_dimensions.get_values(),
                             self.lhs_contracting_dimensions.get_values(),
                             self.rhs_contracting_dimensions.get_values())  # fmt: skip

    def result_source(self, d: int) -> tuple[SSAValue, int]:
        """The operand dim whose size result dim ``d`` has: a batch dim
        ``lhs``'s (a ``?`` paired with a static size makes a static result
        dim, checked equal at run time), a free dim its own side's."""
        dims = self.dims
        lhs_free = dims.free(len(flat_type_shape(self.lhs.type)), "lhs")
        rhs_free = dims.free(len(flat_type_shape(self.rhs.type)), "rhs")
        nb, nl = len(dims.lhs_batch), len(lhs_free)
        if d < nb:
            return self.lhs, dims.lhs_batch[d]
        if d < nb + nl:
            return self.lhs, lhs_free[d - nb]
        return self.rhs, rhs_free[d - nb - nl]

    def verify_semantics(self, semantics: Semantics) -> None:
        (lhs, le), (rhs, re) = _contraction_levels(self)
        if le != re:
            raise Diagnostic(
                f"operands have element types {le} and {re}",
                ["dot_general multiplies operands of one element type; insert a bcast.convert "
                 "(or use bcast.matmul, which promotes)"],
            )
        _check_declared(self, make_type((rules.dot_general_shape(lhs, rhs, self.dims),), le), self.result.type)


@irdl_op_definition
class MatmulOp(BcastOp):
    """``matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) ->
    tensor<2x5x3x6xf32>``: the Array API's ``matmul`` (``rules.matmul_plan``:
    1-D operands as ``np.matmul`` takes them, batch dims broadcast from the
    right under numpy and tml, equal under xla). Element types promote as
    the binary ops' do (identical under xla); integers wrap. Nested (tml)
    types are refused. ``bcast-make-explicit`` turns it into
    ``dot_general`` (with ``convert``/``broadcast_in_dim``/``reshape`` around)."""

    name = "bcast.matmul"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, result_type: Attribute | None = None,
                 *, attributes: Mapping[str, Attribute] | None = None):
        if result_type is None:
            result_type = self.infer_type(_type(lhs), _type(rhs), "numpy")
        super().__init__(operands=[lhs, rhs], result_types=[result_type], attributes=attributes)

    @staticmethod
    def infer_type(lhs: Attribute, rhs: Attribute, semantics: Semantics) -> TensorType:
        (ls, le), (rs, re) = _split(lhs, "lhs"), _split(rhs, "rhs")
        if len(ls) > 1 or len(rs) > 1:
            raise Diagnostic("matmul does not support nested tensor types")
        check_kinds((le, re), CONTRACTION_KINDS)
        element = _promote((le, re), semantics, (lhs, rhs))
        return make_type((rules.matmul_plan(ls[0], rs[0], semantics).result,), element)

    def plan(self) -> rules.MatmulPlan:
        return rules.matmul_plan(flat_type_shape(self.lhs.type), flat_type_shape(self.rhs.type),
                                 semantics_of(self))  # fmt: skip

    def verify_semantics(self, semantics: Semantics) -> None:
        _check_declared(self, self.infer_type(self.lhs.type, self.rhs.type, semantics), self.result.type)


def _flat_operand(op: BcastOp, what: str) -> tuple[rules.Shape, str]:
    """The shape and element of a one-operand op that refuses nested (tml)
    types: an index or a running fold along one dim of a tensor of tensors
    has no StableHLO or Array API form."""
    levels, element = _split(op.operand, "operand")
    if len(levels) > 1:
        raise Diagnostic(f"{what} does not support nested tensor types")
    return levels[0], element


def _check_dim(shape: rules.Shape, dim: int, what: str) -> None:
    if not 0 <= dim < len(shape):
        raise Diagnostic(
            f"{what} dim {dim} is out of range for an operand of rank {len(shape)}",
            ["the dim indexes the operand's dimensions from 0"],
        )


class ArgReduceOp(BcastOp, abc.ABC):
    """``argmax %x, dim = 1 : (tensor<4x3xf32>) -> tensor<4xi32>``: the index
    along ``dim`` of the first largest (``argmin``: smallest) element, the
    dim removed (``keepdims`` is a ``reshape`` after it), as NumPy's
    ``argmax``/``argmin`` and ``jnp.argmax`` (``numerics.arg_reduce``).

    A NaN counts as beyond every number, so the first NaN's index is the
    result (NumPy and ``jax.jit`` agree); ties (``-0.0 == 0.0`` too) give
    the smaller index. The operand is numeric (no ``i1``: NumPy's boolean
    argmax is an ``argmax`` of its conversion); the result's element type,
    any integer type but ``i1``, chooses the index type, and must hold
    ``size - 1``. The dim must not be empty: NumPy raises for the argmax of
    nothing and JAX refuses it when tracing, so bcast refuses it when
    verifying (a located error) rather than invent an index. A ``?`` dim
    is checked at run time, located, in the same words
    (``check_arg_reduce_size``; make-explicit's ``CheckDynamicArgReduce``)."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    traits = traits_def(ChecksSizesAtRunTime())  # a ``?`` reduced dim: not empty, its last index fits
    assembly_format = "$operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"

    ELEMENT_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned", "float"})
    INDEX_KINDS: ClassVar[frozenset[str]] = frozenset({"signed", "unsigned"})
    DYNAMIC_SHAPES: ClassVar[bool] = True
    """Any dim may be ``?``; a ``?`` reduced dim is checked at run time to
    be non-empty and its last index to fit the index type."""

    def __init__(self, operand: SSAValue | Operation, dimension: int, index_element: str):
        shape = flat_type_shape(_type(operand))
        result_type = make_type(((*shape[:dimension], *shape[dimension + 1:]),), index_element)
        super().__init__(operands=[operand], result_types=[result_type],
                         properties={"dimension": IntegerAttr(dimension, i64)})  # fmt: skip

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    @property
    def short_name(self) -> str:
        """``argmax`` or ``argmin`` (``numerics.ARG_REDUCTIONS``' key)."""
        return self.name.removeprefix("bcast.")

    def verify_semantics(self, semantics: Semantics) -> None:
        what = self.short_name
        shape, element = _flat_operand(self, what)
        check_kinds((element,), self.ELEMENT_KINDS, f"{what} compares numbers; convert booleans first")
        _check_dim(shape, self.dim, what)
        if shape[self.dim] == 0:
            raise Diagnostic(
                f"{what} of an empty dim (dim {self.dim} has size 0)",
                ["an empty dim has no largest or smallest element (NumPy raises, JAX refuses it too)"],
            )
        result_levels, index = _split(self.result, "result")
        if rules.kind(index) not in self.INDEX_KINDS:
            raise Diagnostic(f"result must have {KIND_WORDS[self.INDEX_KINDS]} elements (the index type), "
                             f"got element type {index}")  # fmt: skip
        if isinstance(shape[self.dim], int) and shape[self.dim] - 1 > iinfo(NUMPY_DTYPES[index]).max:
            raise Diagnostic(f"index type {index} cannot hold index {shape[self.dim] - 1} of dim {self.dim}",
                             ["choose a wider index type (i64)"])  # fmt: skip
        kept = (*shape[:self.dim], *shape[self.dim + 1:])
        _check_declared(self, make_type((kept,), index), self.result.type)


@irdl_op_definition
class ArgmaxOp(ArgReduceOp):
    name = "bcast.argmax"
    STABLEHLO_DIRECTION: ClassVar[str] = "GT"
    """The comparison JAX's reduce body picks the new value with."""
    START_KIND: ClassVar[str] = "maximum"
    """The reduction kind whose identity a scan starts from (-inf, the minimum)."""


@irdl_op_definition
class ArgminOp(ArgReduceOp):
    name = "bcast.argmin"
    STABLEHLO_DIRECTION: ClassVar[str] = "LT"
    START_KIND: ClassVar[str] = "minimum"


CUMULATIVE_KINDS = frozenset({"add", "multiply", "maximum", "minimum"})
"""The kinds ``cumulative`` takes: those with an Array API or NumPy scan
(``cumulative_sum``/``cumulative_prod``, ``np.maximum.accumulate``)."""


@irdl_op_definition
class CumulativeOp(BcastOp):
    """``cumulative add %x, dim = 1 [reverse] : (tensor<4x3xf32>) ->
    tensor<4x3xf32>``: element ``i`` along ``dim`` is the fold with KIND of
    the operand's elements ``0..i`` (with ``reverse``, ``i..n-1``), in
    order (``numerics.cumulative``): ``jnp.cumsum``/``cumprod``/``cummax``/
    ``cummin``, the Array API's ``cumulative_sum``/``cumulative_prod``
    (without ``include_initial``). KIND is ``add``, ``multiply``,
    ``maximum`` or ``minimum`` on numeric elements (``CUMULATIVE_KINDS``);
    integers wrap; ``maximum``/``minimum`` propagate NaN as the binary ops
    do; ``f16`` accumulates in ``f32`` as ``reduce`` does. The result has
    the operand's type; a nested (tml) type is refused."""

    name = "bcast.cumulative"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    result = result_def(TensorType)
    kind = prop_def(ReductionKindAttr)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    reverse = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())
    assembly_format = (
        "$kind $operand `,` `dim` `=` $dimension (`reverse` $reverse^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, kind: str, operand: SSAValue | Operation, dimension: int, reverse: bool = False):
        super().__init__(
            operands=[operand], result_types=[_type(operand)],
            properties={"kind": ReductionKindAttr(ReductionKind(kind)), "dimension": IntegerAttr(dimension, i64),
                        "reverse": UnitAttr() if reverse else None},
        )  # fmt: skip

    @property
    def kind_name(self) -> str:
        return self.kind.data.value

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    @property
    def is_reverse(self) -> bool:
        return self.reverse is not None

    def verify_semantics(self, semantics: Semantics) -> None:
        shape, element = _flat_operand(self, "cumulative")
        if self.kind_name not in CUMULATIVE_KINDS:
            raise Diagnostic(f"cumulative {self.kind_name} is not supported",
                             ["cumulative takes " + ", ".join(sorted(CUMULATIVE_KINDS))])  # fmt: skip
        check_kinds((element,), frozenset({"signed", "unsigned", "float"}))
        _check_dim(shape, self.dim, "cumulative")
        _check_declared(self, self.operand.type, self.result.type)

@irdl_op_definition
class SortOp(BcastOp):
    """``sort %values by %k1 [descending] [total_order], %k2 ..., dim = 1 :
    (tensor<4x3xi32>, tensor<4x3xf32>, ...) -> tensor<4x3xi32>``:
    ``values`` permuted along ``dim`` by the stable lexicographic order of
    the keys (each of ``values``' shape): ``sort %x by %x`` is
    ``jnp.sort``, ``sort iota by %x`` is ``jnp.argsort``, ``sort iota by
    %b, %a`` is ``jnp.lexsort([a, b])`` and ``jax.lax.sort`` with
    ``num_keys=2`` (``numerics.sort``).

    The first key decides; where it ties, the next one, and so on; where
    all tie, the earlier element goes first (a stable sort, so the result
    is one permutation on every backend). Each key orders by
    ``scalar.sorts_before``: ascending (``descending``: from the largest).
    Booleans order False < True, integers by their signedness. Floats order
    as NumPy's and ``jnp.sort``'s: ``-0.0`` ties ``0.0``, every NaN ties
    and goes after ``+inf``; with ``total_order``, as IEEE totalOrder
    (StableHLO's ``TOTALORDER``, what ``jax.lax.top_k`` compares with):
    ``-NaN < -inf < ... < -0.0 < +0.0 < ... < +NaN``. The per-key flags
    are the properties ``descending`` and ``total_order``: the positions
    of the keys they apply to.

    One result per op, where StableHLO's ``sort`` permutes all its operands
    at once: every backend here runs one-result ops, and the import writes
    one ``bcast.sort`` per used result of a ``stablehlo.sort`` (sorting
    values and indices by one key, as ``top_k`` does, sorts twice). ``?``
    dims are taken anywhere, the sorted dim included: the operands' types
    are then compatible (a ``?`` where another has a size) and their
    run-time shapes equal (``check_sort``, NumPy's words); a nested (tml)
    type is refused."""

    name = "bcast.sort"
    values = operand_def(TensorType)
    keys = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    descending = opt_prop_def(DenseArrayBase.constr(i64))
    total_order = opt_prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(Pure())

    DYNAMIC_SHAPES: ClassVar[bool] = True
    KEY_KINDS: ClassVar[frozenset[str]] = frozenset({"bool", "signed", "unsigned", "float"})
    KEY_FLAGS: ClassVar[tuple[str, ...]] = ("descending", "total_order")

    def __init__(self, values: SSAValue | Operation, keys: SSAValue | Operation | Sequence[SSAValue | Operation],
                 dimension: int, descending: bool | Sequence[bool] = False,
                 total_order: bool | Sequence[bool] = False, result_type: Attribute | None = None):
        keys = [keys] if isinstance(keys, SSAValue | Operation) else list(keys)
        flags = {name: [k for k, on in enumerate(_per_key(given, len(keys))) if on]
                 for name, given in zip(self.KEY_FLAGS, (descending, total_order))}  # fmt: skip
        super().__init__(
            operands=[values, keys], result_types=[result_type or _type(values)],
            properties={"dimension": IntegerAttr(dimension, i64),
                        **{name: dense_i64(on) for name, on in flags.items() if on}},
        )  # fmt: skip

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    @property
    def orders(self) -> list[tuple[bool, bool]]:
        """(descending, total_order) of each key."""
        descending, total_order = (set(_dims(getattr(self, name)) or ()) for name in self.KEY_FLAGS)
        return [(k in descending, k in total_order) for k in range(len(self.keys))]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.values)
        printer.print_string(" by ")
        for k, (key, flags) in enumerate(zip(self.keys, self.orders)):
            printer.print_string(", " if k else "")
            printer.print_ssa_value(key)
            for name, on in zip(self.KEY_FLAGS, flags):
                printer.print_string(f" {name}" if on else "")
        printer.print_string(f", dim = {self.dim}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_operation_type(self)

    @classmethod
    def parse(cls, parser: Parser) -> SortOp:
        values = parser.parse_unresolved_operand()
        parser.parse_keyword("by")
        keys, flags = [], []
        while True:
            keys.append(parser.parse_unresolved_operand())
            flags.append([parser.parse_optional_keyword(name) is not None for name in cls.KEY_FLAGS])
            parser.parse_punctuation(",")
            if parser.parse_optional_keyword("dim") is not None:
                break
        parser.parse_punctuation("=")
        dimension = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        inputs, outputs = function_type.inputs.data, function_type.outputs.data
        if len(inputs) != 1 + len(keys) or len(outputs) != 1:
            parser.raise_error(f"expected {1 + len(keys)} operand types and one result type", pos, parser.pos)
        values_, *keys_ = (parser.resolve_operand(v, t) for v, t in zip([values, *keys], inputs))
        op = cls(values_, keys_, dimension, [f[0] for f in flags], [f[1] for f in flags], outputs[0])
        op.attributes |= attributes
        return op

    def verify_semantics(self, semantics: Semantics) -> None:
        values_levels, _ = _split(self.values, "values")
        if not self.keys:
            raise Diagnostic("sort needs at least one key")
        keys = [_split(key, "key") for key in self.keys]
        if len(values_levels) > 1 or any(len(levels) > 1 for levels, _ in keys):
            raise Diagnostic("sort does not support nested tensor types")
        shape = values_levels[0]
        for key, (levels, _) in zip(self.keys, keys):
            if len(levels[0]) != len(shape) or not all(rules.compatible_dims(a, b) or rules.compatible_dims(b, a)
                                                       for a, b in zip(levels[0], shape)):
                raise Diagnostic(f"values and key must have one shape, got {self.values.type} and {key.type}",
                                 ["sort permutes values by its keys' order; it does not broadcast"])  # fmt: skip
        for name in self.KEY_FLAGS:
            on = _dims(getattr(self, name)) or []
            if sorted(set(on)) != on or any(not 0 <= k < len(self.keys) for k in on):
                raise Diagnostic(f"{name} lists key positions, increasing, in [0, {len(self.keys)}), got {on}")
        check_kinds(tuple(element for _, element in keys), self.KEY_KINDS)
        for k, ((_, element), (_, total_order)) in enumerate(zip(keys, self.orders)):
            if total_order and rules.kind(element) != "float":
                raise Diagnostic(f"total_order orders floats, but key #{k} has element type {element}",
                                 ["integers and booleans have one order; drop total_order"])  # fmt: skip
        _check_dim(shape, self.dim, "sort")
        check_run_time_result(self, self.values.type, self.result.type)


def _per_key(given: bool | Sequence[bool], count: int) -> list[bool]:
    """A per-key flag given for every key at once (a bool) or key by key."""
    return [given] * count if isinstance(given, bool) else list(given)


class WindowFields(IRDLOperation, abc.ABC):
    """The window of ``reduce_window`` and ``reduce_window_body``: its
    sizes, strides, base and window dilations and low/high padding, one
    ``i64`` array per input dim."""

    window_dimensions = prop_def(DenseArrayBase.constr(i64))
    window_strides = prop_def(DenseArrayBase.constr(i64))
    base_dilations = prop_def(DenseArrayBase.constr(i64))
    window_dilations = prop_def(DenseArrayBase.constr(i64))
    padding_low = prop_def(DenseArrayBase.constr(i64))
    padding_high = prop_def(DenseArrayBase.constr(i64))

    @staticmethod
    def window_properties(window: Sequence[int], strides: Sequence[int], base_dilations: Sequence[int],
                          window_dilations: Sequence[int], low: Sequence[int], high: Sequence[int]) -> dict:
        return {"window_dimensions": dense_i64(window), "window_strides": dense_i64(strides),
                "base_dilations": dense_i64(base_dilations), "window_dilations": dense_i64(window_dilations),
                "padding_low": dense_i64(low), "padding_high": dense_i64(high)}

    @property
    def window(self) -> tuple[tuple[int, ...], ...]:
        """(window, strides, base dilations, window dilations, low, high):
        ``rules.reduce_window_shape``'s arguments after the operand's shape."""
        return tuple(a.get_values() for a in (self.window_dimensions, self.window_strides, self.base_dilations,
                                              self.window_dilations, self.padding_low, self.padding_high))

    def run_time_check(self) -> tuple[int | None, ...] | None:
        """What ``check_window_result`` checks when the op runs, None when
        nothing is: the result's flat shape (None for a ``?`` dim) when it
        declares a static size where the size is known only at run time (a
        ``?`` input dim its windows span), or when several inputs have ``?``
        dims (their run-time shapes must be one)."""
        shape = flat_type_shape(self.operands[0].type)
        declared = flat_type_shape(self.results[0].type)
        inferred = rules.reduce_window_shape(shape, *self.window)
        several = len(self.results) > 1 and rules.is_dynamic(shape)
        if not several and not any(isinstance(i, rules.Dynamic) and isinstance(n, int)
                                   for i, n in zip(inferred, declared)):
            return None
        return tuple(n if isinstance(n, int) else None for n in declared)


def check_window_result(shapes: Sequence[Sequence[int]], window: Sequence[Sequence[int]],
                        declared: Sequence[int | None], name: str, type_text: str) -> tuple[int, ...]:
    """The result shape of a ``reduce_window`` (or ``reduce_window_body``)
    of inputs of run-time ``shapes`` (``rules.reduce_window_shape``): the
    inputs have one shape (the verifier's words), and a static size of the
    ``declared`` result type equals the size there (else the reference's
    words for a declared type, ``RESULT_SHAPE_WORDS``)."""
    first = tuple(int(n) for n in shapes[0])
    for shape in shapes[1:]:
        if tuple(int(n) for n in shape) != first:
            raise RuntimeShapeError(f"'{name}' op expects all inputs to have one shape, got {first} and "
                                    f"{tuple(map(int, shape))}")  # fmt: skip
    got = rules.reduce_window_shape(first, *window)
    if any(n is not None and n != g for n, g in zip(declared, got)):
        raise RuntimeShapeError(f"'{name}' op " + RESULT_SHAPE_WORDS.format(shape=tuple(got), type=type_text))
    return got


@irdl_op_definition
class ReduceWindowOp(WindowFields, BcastOp):
    """``reduce_window maximum %x, %init, window = [2, 2], strides = [2, 2],
    base_dilations = [1, 1], window_dilations = [1, 1], low = [0, 0],
    high = [1, 1] : (tensor<3x3xf32>, tensor<f32>) -> tensor<2x2xf32>``:
    StableHLO's ``reduce_window`` of one input whose body is one binary op
    (max and average pooling, sliding sums). The input is dilated (``base_dilations - 1``
    places between neighbours) and padded (``low``/``high`` per dim,
    negative crops); each result element is KIND's fold of ``init``, once,
    and the input elements inside one window: ``window`` places per dim,
    ``window_dilations`` apart, moved by ``strides`` (a place the dilation
    or padding made holds no element). The result shape is
    ``rules.reduce_window_shape`` (StableHLO's C15). With the kind's
    identity as ``init`` (what JAX writes) this is the spec's value; with
    another, it is XLA's (the spec fills the padding with ``init`` but
    leaves how often ``init`` is folded in to the implementation). KIND's binary op gives the element kinds and NaN rules (as
    ``reduce``); ``f16`` sums and products accumulate in ``f32``. A nested
    (tml) type is refused; a ``?`` dim no window spans (a pooling's batch)
    keeps its size, one windows span is ``?``, the window count of its
    run-time size (a static declared size there is checked when it runs:
    ``check_window_result``); a fusion boundary.
    ``numerics.reduce_window`` is the reference."""

    name = "bcast.reduce_window"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # rules.reduce_window_shape: a ? windows span is a run-time count
    operand = operand_def(TensorType)
    init = operand_def(TensorType)
    result = result_def(TensorType)
    kind = prop_def(ReductionKindAttr)
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = (
        "$kind $operand `,` $init `,` `window` `=` $window_dimensions `,` `strides` `=` $window_strides `,` "
        "`base_dilations` `=` $base_dilations `,` `window_dilations` `=` $window_dilations `,` "
        "`low` `=` $padding_low `,` `high` `=` $padding_high attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, kind: str, operand: SSAValue | Operation, init: SSAValue | Operation,
                 window: Sequence[int], strides: Sequence[int], base_dilations: Sequence[int],
                 window_dilations: Sequence[int], low: Sequence[int], high: Sequence[int],
                 result_type: Attribute | None = None):
        """``result_type``: a declared one (compatible with the inferred one), else inferred."""
        if result_type is None:
            levels, element = split_type(_type(operand))
            shape = rules.reduce_window_shape(levels[0], window, strides, base_dilations, window_dilations, low, high)
            result_type = make_type((shape,), element)
        super().__init__(
            operands=[operand, init], result_types=[result_type],
            properties={"kind": ReductionKindAttr(ReductionKind(kind)),
                        **self.window_properties(window, strides, base_dilations, window_dilations, low, high)},
        )  # fmt: skip

    @property
    def kind_name(self) -> str:
        return self.kind.data.value

    def verify_semantics(self, semantics: Semantics) -> None:
        shape, element = _flat_operand(self, "reduce_window")
        _, init_element = _split(self.init, "init")
        if flat_type_shape(self.init.type) != () or init_element != element:
            raise Diagnostic(f"init must be a rank-0 tensor of the operand's element type {element}, "
                             f"got {self.init.type}")  # fmt: skip
        combiner = REDUCTION_COMBINERS[self.kind_name]
        if rules.kind(element) not in reduction_kinds(self.kind_name):
            raise Diagnostic(
                f"reduce_window {self.kind_name} needs {KIND_WORDS[reduction_kinds(self.kind_name)]} elements, "
                f"got element type {element}",
                [f"'{combiner.name}' is the operation reduce_window {self.kind_name} folds with"])  # fmt: skip
        result = rules.reduce_window_shape(shape, *self.window)
        _check_declared(self, make_type((result,), element), self.result.type)


WINDOW_BODY_OPS = (ElementwiseOp, ConversionOp, ConstantOp, BroadcastInDimOp)
"""The ops a ``reduce_window_body``'s body may hold, all on rank-0 tensors:
each backend runs them as the scalar ops they are there (the loop IR) or
on whole arrays of window elements, where they act elementwise (NumPy,
the Array API)."""


@irdl_op_definition
class ReduceWindowBodyOp(WindowFields, BcastOp):
    """``%r:2 = bcast.reduce_window_body (%x, %i) init (%ninf, %zero),
    window = [2, 2], strides = [2, 2], base_dilations = [1, 1],
    window_dilations = [1, 1], low = [0, 0], high = [0, 0] : (...) -> (...)
    ({^bb0(%acc..., %elem...): ... bcast.yield ...})``: StableHLO's
    ``reduce_window`` of several inputs whose body mixes them (the
    argmax-pooling JAX writes: (value, index) pairs folded together), with
    the window, strides, dilations and padding of ``bcast.reduce_window``
    (``rules.reduce_window_shape``: a ``?`` dim windows span has the window
    count of its run-time size; the inputs' one shape is checked when it
    runs, ``check_window_result``). Each input is dilated and padded with its init value; each
    result element starts from the init values and folds the body over its
    window's places in row-major order (the spec leaves the order to the
    implementation; XLA's fold of padding is the spec's: padded places hold
    the init values and are folded too). The body takes (accumulators,
    elements) as rank-0 tensors and yields the next accumulators; it holds
    ``WINDOW_BODY_OPS`` only. Backends loop over window places carrying the
    accumulators (docs/ir.md, "reduce_window"); a fusion boundary."""

    name = "bcast.reduce_window_body"
    DYNAMIC_SHAPES: ClassVar[bool] = True  # rules.reduce_window_shape: a ? windows span is a run-time count
    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = (
        "`(` $inputs `)` `init` `(` $init_values `)` `,` `window` `=` $window_dimensions `,` "
        "`strides` `=` $window_strides `,` `base_dilations` `=` $base_dilations `,` "
        "`window_dilations` `=` $window_dilations `,` `low` `=` $padding_low `,` `high` `=` $padding_high "
        "attr-dict `:` functional-type(operands, results) $body"
    )

    def __init__(self, inputs: Sequence[SSAValue], init_values: Sequence[SSAValue], window: Sequence[int],
                 strides: Sequence[int], base_dilations: Sequence[int], window_dilations: Sequence[int],
                 low: Sequence[int], high: Sequence[int], body: Region,
                 result_types: Sequence[Attribute] | None = None):
        """``result_types``: declared ones (compatible with the inferred ones), else inferred."""
        if result_types is None:
            shape = rules.reduce_window_shape(flat_type_shape(_type(inputs[0])), window, strides, base_dilations,
                                              window_dilations, low, high)
            result_types = [make_type((shape,), split_type(_type(x))[1]) for x in inputs]
        super().__init__(
            operands=[list(inputs), list(init_values)],
            result_types=[list(result_types)],
            properties=self.window_properties(window, strides, base_dilations, window_dilations, low, high),
            regions=[body],
        )  # fmt: skip

    @property
    def block(self):
        return self.body.block

    @property
    def elements(self) -> list[str]:
        return [split_type(x.type)[1] for x in self.inputs]

    def verify_semantics(self, semantics: Semantics) -> None:
        n = len(self.inputs)
        if n == 0:
            raise Diagnostic("expects at least one input")
        shape = None
        for k, x in enumerate(self.inputs):
            levels, element = _split(x, f"input #{k}")
            if len(levels) > 1:
                raise Diagnostic("reduce_window_body does not support nested tensor types")
            if shape is not None and levels[0] != shape:
                raise Diagnostic(f"expects all inputs to have one shape, got {x.type} and {self.inputs[0].type}")
            shape = levels[0]
            init = self.init_values[k]
            if flat_type_shape(init.type) != () or split_type(init.type)[1] != element:
                raise Diagnostic(f"init value #{k} must be a rank-0 tensor of input #{k}'s element type "
                                 f"{element}, got {init.type}")  # fmt: skip
        result = rules.reduce_window_shape(shape, *self.window)
        for x, r in zip(self.inputs, self.outputs, strict=True):
            _check_declared(self, make_type((result,), split_type(x.type)[1]), r.type)
        scalars = [TensorType(x.type.get_element_type(), []) for x in self.inputs]
        block = self.body.blocks[0] if self.body.blocks else None
        if block is None or list(block.arg_types) != scalars + scalars:
            raise Diagnostic("the body must take (" + ", ".join(map(str, scalars + scalars)) + ")")
        last = block.last_op
        if last is None or last.name != "bcast.yield" or [v.type for v in last.operands] != scalars:
            raise Diagnostic("the body must end with bcast.yield of " + ", ".join(map(str, scalars)))
        for inner in block.ops:
            outside = next((v for v in inner.operands if v.owner is not block
                            and getattr(v.owner, "parent", None) is not block), None)
            if outside is not None:
                raise Diagnostic(f"the body's '{inner.name}' reads a value defined outside the body",
                                 ["the body reads only its arguments and its own values"])
            if inner is last:
                break
            if not isinstance(inner, WINDOW_BODY_OPS) or inner.regions or any(
                    flat_type_shape(v.type) != () for v in (*inner.operands, *inner.results)):
                raise Diagnostic(f"the body holds '{inner.name}'",
                                 ["the body holds elementwise ops, converts, constants and broadcasts, all on "
                                  "rank-0 tensors"])  # fmt: skip


# --------------------------------------------------------------------------
# The explicit dynamic form (docs/semantics.md, "Dynamic and bounded shapes",
# "The explicit form"): sizes as ``index`` values, broadcasts into run-time
# sizes, and run-time checks, all written out by ``bcast-make-explicit``
# --------------------------------------------------------------------------


@irdl_op_definition
class DimOp(BcastOp):
    """``bcast.dim %x, 0 : tensor<?x4xf32>``: the run-time size of flat dim
    ``0`` of ``%x``, an ``index``.

    bcast's own op, not upstream ``tensor.dim``: that one takes the dim as an
    ``index`` operand (so no verifier can check it in range) and sees only
    the outer level of a nested (tml) type, while bcast's explicit form
    speaks of flat dims of its own types."""

    name = "bcast.dim"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    dimension = prop_def(IntegerAttr.constr(type=I64))
    result = result_def(IndexType)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$operand `,` $dimension attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation, dimension: int):
        super().__init__(operands=[operand], result_types=[IndexType()],
                         properties={"dimension": IntegerAttr(dimension, i64)})  # fmt: skip

    @property
    def dim(self) -> int:
        return self.dimension.value.data

    def verify_semantics(self, semantics: Semantics) -> None:
        rank = len(flat_type_shape(self.operand.type))
        if not 0 <= self.dim < rank:
            raise Diagnostic(f"dimension {self.dim} is out of range for an operand of rank {rank}",
                             ["a nested (tml) type's dims count flat: outer dims, then inner dims"])


@irdl_op_definition
class BroadcastSizeOp(BcastOp):
    """``bcast.broadcast_size %a, %b``: the size NumPy's rule gives sizes
    already checked broadcastable: the first that is not 1, else 1 (so
    ``0`` against ``1`` is 0: a maximum would be wrong there). It gives a
    ``?`` result dim that several ``?`` operand dims broadcast into."""

    name = "bcast.broadcast_size"
    sizes = var_operand_def(IndexType)
    result = result_def(IndexType)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$sizes attr-dict"

    def __init__(self, sizes: Sequence[SSAValue | Operation]):
        super().__init__(operands=[list(sizes)], result_types=[IndexType()])

    def verify_semantics(self, semantics: Semantics) -> None:
        if len(self.sizes) < 2:
            raise Diagnostic(f"needs at least two sizes, got {len(self.sizes)}")


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    """A literal-and-SSA size list (``DYNAMIC_INDEX`` marks the SSA entries)."""
    values = iter(dynamic)
    return [next(values) if s == DYNAMIC_INDEX else s for s in static]


@irdl_op_definition
class DynamicBroadcastInDimOp(DynamicBroadcastInDimFamily, BcastOp):
    """``bcast.dynamic_broadcast_in_dim %x, [%n, 4], dims = [0, 1]
    expanding = [1] nonexpanding = [0] : (tensor<?x1xf32>) -> tensor<?x4xf32>``:
    StableHLO's ``dynamic_broadcast_in_dim``, the output sizes given as a
    literal-and-SSA ``index`` list (a static result dim is written as its
    size, a ``?`` one as an SSA size), with its
    ``known_expanding_dimensions`` (operand dims that are 1 and stretch)
    and ``known_nonexpanding_dimensions`` (operand dims equal to their
    output size). At run time each operand dim is 1 or its output size
    (and keeps its facts), or the op fails at its location with
    ``broadcast_in_dim``'s words: where bcast-make-explicit emits one, a
    check before it has already given NumPy's error."""

    name = "bcast.dynamic_broadcast_in_dim"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    output_sizes = var_operand_def(IndexType)
    static_output_sizes = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(ChecksSizesAtRunTime(), CanonicalizationPatterns())
    assembly_format = (
        "$operand `,` custom<SizeList>($output_sizes, $static_output_sizes) `,` `dims` `=` "
        "$broadcast_dimensions (`expanding` `=` $known_expanding_dimensions^)? "
        "(`nonexpanding` `=` $known_nonexpanding_dimensions^)? attr-dict `:` "
        "functional-type($operand, results)"
    )
    custom_directives = (SizeList,)

    def __init__(
        self,
        operand: SSAValue | Operation,
        sizes: Sequence[int | SSAValue],
        dims: Sequence[int],
        result_type: Attribute,
        expanding: Sequence[int] = (),
        nonexpanding: Sequence[int] = (),
    ):
        static, dynamic = _index_operands(sizes)
        super().__init__(
            operands=[operand, dynamic], result_types=[result_type],
            properties={"static_output_sizes": static, "broadcast_dimensions": dense_i64(dims),
                        "known_expanding_dimensions": dense_i64(expanding) if expanding else None,
                        "known_nonexpanding_dimensions": dense_i64(nonexpanding) if nonexpanding else None},
        )  # fmt: skip

    def mixed_sizes(self, sizes: Sequence[int | SSAValue] | None = None) -> list[int | SSAValue]:
        """The output sizes as written; with ``sizes`` (run-time values of the
        SSA sizes), as ints."""
        return _mixed(self.static_output_sizes.get_values(), self.output_sizes if sizes is None else sizes)

    def verify_semantics(self, semantics: Semantics) -> None:
        (ol, oe), (rl, re) = _split(self.operand, "operand"), _split(self.result, "result")
        if oe != re:
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        operand, result = rules.flat_shape(ol), rules.flat_shape(rl)
        _check_output_sizes(self.static_output_sizes, self.output_sizes, result)
        rules.check_broadcast_in_dim(operand, result, self.dims, semantics, sizes_given=True)
        for what, facts in (("expanding", self.expanding), ("nonexpanding", self.nonexpanding)):
            if len(set(facts)) != len(facts) or any(not 0 <= i < len(operand) for i in facts):
                raise Diagnostic(f"known_{what}_dimensions must be distinct operand dims, got {list(facts)}")
        if both := set(self.expanding) & set(self.nonexpanding):
            raise Diagnostic(f"operand dim {min(both)} is known both expanding and nonexpanding")
        for i in self.expanding:
            if not rules.may_be(operand[i], 1):
                raise Diagnostic(f"operand dim {i} ({operand[i]}) is known expanding but cannot be 1")
        for i in self.nonexpanding:
            if isinstance(operand[i], int) and isinstance(result[self.dims[i]], int) \
                    and operand[i] != result[self.dims[i]]:
                raise Diagnostic(f"operand dim {i} ({operand[i]}) is known nonexpanding but result dim "
                                 f"{self.dims[i]} is {result[self.dims[i]]}")  # fmt: skip


NUMPY_BROADCAST_WORDS = "operands could not be broadcast together with shapes"
"""NumPy's words for operands that do not broadcast (the shapes follow)."""


@irdl_op_definition
class CheckBroadcastableOp(BcastOp):
    """``bcast.check_broadcastable [%n, 4] at [0, 1], [%m] at [1] checking [1]
    message = "operands could not ..."``: a run-time check of the op at the
    check's own location (bcast-make-explicit gives it the location of the op
    that needs it). Each list is one operand's flat shape (literal and SSA
    sizes) with the result dims its dims land on; at each result dim in
    ``checking``, the sizes landing there are equal or 1 (NumPy's rule) or,
    with ``strict`` (tml's logical, relational and bitwise ops), equal.
    When they are not, the program fails with ``message`` followed by the
    operands' run-time shapes, as NumPy words it, and with the first failing
    dim's entry of ``notes`` (one per checked dim), if any: the note the op
    that needs the check gives there (its rule under tml or xla), as a
    template whose ``{s[k][j]}`` is the run-time size of dim ``j`` of shape
    ``k``."""

    name = "bcast.check_broadcastable"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    sizes = var_operand_def(IndexType)
    static_shapes = prop_def(DenseArrayBase.constr(i64))
    ranks = prop_def(DenseArrayBase.constr(i64))
    landing = prop_def(DenseArrayBase.constr(i64))
    checked = prop_def(DenseArrayBase.constr(i64))
    strict = opt_prop_def(UnitAttr)
    message = prop_def(StringAttr)
    notes = opt_prop_def(ArrayAttr[StringAttr])
    traits = traits_def(CanonicalizationPatterns())
    assembly_format = (
        "custom<CheckedShapes>($sizes, $static_shapes, $ranks, $landing) `checking` $checked "
        "(`strict` $strict^)? `message` `=` $message (`notes` `=` $notes^)? attr-dict"
    )
    custom_directives = (CheckedShapes,)

    def __init__(
        self,
        shapes: Sequence[Sequence[int | SSAValue]],
        landing: Sequence[Sequence[int]],
        checked: Sequence[int],
        strict: bool = False,
        message: str = NUMPY_BROADCAST_WORDS,
        notes: Sequence[str] = (),
    ):
        static, dynamic = _index_operands([s for shape in shapes for s in shape])
        super().__init__(
            operands=[dynamic],
            properties={"static_shapes": static, "ranks": dense_i64([len(s) for s in shapes]),
                        "landing": dense_i64([d for dims in landing for d in dims]),
                        "checked": dense_i64(checked), "strict": UnitAttr() if strict else None,
                        "message": StringAttr(message),
                        "notes": ArrayAttr([StringAttr(n) for n in notes]) if any(notes) else None},
        )  # fmt: skip

    def note_templates(self) -> list[str]:
        """One note template per checked dim (``""``: none)."""
        return [n.data for n in self.notes.data] if self.notes is not None else []

    @property
    def is_strict(self) -> bool:
        return self.strict is not None

    def shapes(self, sizes: Sequence[int | SSAValue] | None = None) -> list[list[int | SSAValue]]:
        """Each operand's shape; with ``sizes`` (run-time values of the SSA
        sizes), as ints."""
        flat = _mixed(self.static_shapes.get_values(), self.sizes if sizes is None else sizes)
        out, start = [], 0
        for rank in self.ranks.get_values():
            out.append(flat[start:start + rank])
            start += rank
        return out

    def landing_dims(self) -> list[tuple[int, ...]]:
        dims, out, start = self.landing.get_values(), [], 0
        for rank in self.ranks.get_values():
            out.append(dims[start:start + rank])
            start += rank
        return out

    def check(self, shapes: Sequence[Sequence[int]]) -> None:
        """The check on run-time ``shapes`` (``check_broadcastable_sizes``)."""
        check_broadcastable_sizes(shapes, self.landing_dims(), self.checked.get_values(), self.is_strict,
                                  self.message.data, self.note_templates())

    def verify_semantics(self, semantics: Semantics) -> None:
        static = self.static_shapes.get_values()
        if sum(s == DYNAMIC_INDEX for s in static) != len(self.sizes):
            raise Diagnostic("the shapes' SSA entries do not match the SSA sizes")
        if sum(self.ranks.get_values()) != len(static) or len(self.landing.get_values()) != len(static):
            raise Diagnostic(f"ranks {list(self.ranks.get_values())} do not match the "
                             f"{rules.plural(len(static), 'size')} and their landing dims")  # fmt: skip
        for k, dims in enumerate(self.landing_dims()):
            if not rules.is_sorted(dims) or any(d < 0 for d in dims):
                raise Diagnostic(f"operand {k} lands on dims {list(dims)}, which are not increasing")
        landed = {d for dims in self.landing_dims() for d in dims}
        if missing := [r for r in self.checked.get_values() if r not in landed]:
            raise Diagnostic(f"checks dim {missing[0]}, on which no operand dim lands")
        if len(self.ranks.get_values()) < 2:
            raise Diagnostic("needs at least two shapes")
        if self.notes is not None and len(self.notes.data) != len(self.checked.get_values()):
            raise Diagnostic(f"{rules.plural(len(self.notes.data), 'note')} for "
                             f"{rules.plural(len(self.checked.get_values()), 'checked dim')}",
                             ["one note per checked dim (\"\" for none)"])


def _size_tensor(value: SSAValue, what: str) -> None:
    """A size held in a tensor, as StableHLO and JAX pass sizes: rank 0, of
    a signed or unsigned integer type."""
    levels, element = _split(value, what)
    if rules.flat_shape(levels) or rules.kind(element) not in ("signed", "unsigned"):
        raise Diagnostic(f"{what} must be a rank-0 integer tensor, got {value.type}")


@irdl_op_definition
class SizeFromTensorOp(BcastOp):
    """``bcast.size_from_tensor %t : tensor<i32>``: the ``index`` a rank-0
    integer tensor holds. StableHLO passes sizes as tensors (JAX's dimension
    variables, ``2 * b`` computed with ``multiply``); bcast's explicit form
    takes them as ``index`` values. A negative value is a run-time error at
    the op (no size is negative)."""

    name = "bcast.size_from_tensor"
    operand = operand_def(TensorType)
    result = result_def(IndexType)
    traits = traits_def(Pure(), CanonicalizationPatterns())
    assembly_format = "$operand attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation):
        super().__init__(operands=[operand], result_types=[IndexType()])

    def verify_semantics(self, semantics: Semantics) -> None:
        _size_tensor(self.operand, "operand")


@irdl_op_definition
class SizeToTensorOp(BcastOp):
    """``bcast.size_to_tensor %n : tensor<i32>``: an ``index`` (a size) as a
    rank-0 integer tensor, so that arithmetic on sizes (JAX's dimension
    expressions) is ordinary tensor arithmetic. A size the type cannot hold
    is a run-time error at the op."""

    name = "bcast.size_to_tensor"
    size = operand_def(IndexType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$size attr-dict `:` type($result)"

    def __init__(self, size: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[size], result_types=[result_type])

    def verify_semantics(self, semantics: Semantics) -> None:
        _size_tensor(self.result, "result")


@irdl_op_definition
class ShapeAssertionOp(BcastOp):
    """``bcast.shape_assertion %ok, %b, %n message = "... {0} ..." : tensor<i1>,
    tensor<i32>, tensor<i32>``: JAX's ``custom_call @shape_assertion``, a
    run-time check at the op's location. When the rank-0 ``i1`` predicate is
    false the program fails with ``message``, each ``{k}`` replaced by the
    run-time value of the ``k``-th value after the predicate (JAX's
    ``error_message_inputs``). ``canonicalize`` removes one whose predicate
    is a true constant."""

    name = "bcast.shape_assertion"
    predicate = operand_def(TensorType)
    inputs = var_operand_def(TensorType)
    message = prop_def(StringAttr)
    traits = traits_def(CanonicalizationPatterns())
    assembly_format = (
        "$predicate (`,` $inputs^)? `message` `=` $message attr-dict `:` type($predicate) (`,` type($inputs)^)?"
    )

    def __init__(self, predicate: SSAValue | Operation, inputs: Sequence[SSAValue | Operation], message: str):
        super().__init__(operands=[predicate, list(inputs)], properties={"message": StringAttr(message)})

    def formatted(self, values: Sequence[int]) -> str:
        """The message with its ``{k}`` replaced by ``values``."""
        text = self.message.data
        for k, v in enumerate(values):
            text = text.replace(f"{{{k}}}", str(v))
        return text

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.predicate, "predicate")
        if rules.flat_shape(levels) or str(element) != "i1":
            raise Diagnostic(f"predicate must be tensor<i1>, got {self.predicate.type}")
        for k, value in enumerate(self.inputs):
            _size_tensor(value, f"message input {k}")


def _check_output_sizes(static: DenseArrayBase, dynamic: Sequence[SSAValue], result: Shape) -> None:
    """A literal-and-SSA output size list against the result type: a static
    result dim written as its size, a ``?`` one as an SSA size."""
    sizes = [None if s == DYNAMIC_INDEX else s for s in static.get_values()]
    if sum(s is None for s in sizes) != len(dynamic):
        raise Diagnostic("the output size list's SSA entries do not match its SSA sizes")
    if len(sizes) != len(result):
        raise Diagnostic(f"{rules.plural(len(sizes), 'output size')} for a result of rank {len(result)}")
    for d, (size, dim) in enumerate(zip(sizes, result)):
        if isinstance(dim, int) != (size is not None) or (size is not None and size != dim):
            raise Diagnostic(f"output size {d} ({'an SSA size' if size is None else size}) does not match "
                             f"result dimension {d} ({dim})",
                             ["a static result dim is written as its size, a ? one as an SSA index"])  # fmt: skip


class DynamicReshapeFamily(IRDLOperation, abc.ABC):
    """``dynamic_reshape``'s rule, shared by bcast's op and StableHLO's, which
    write the output sizes differently (an ``index`` list, a 1-D size
    tensor) and so declare their operands themselves."""

    def check_reshape(self) -> None:
        """Operand and result have one element type; when both shapes are
        static, one element count (a ``?`` is checked at run time)."""
        operand, result = self.operands[0].type, self.results[0].type
        if split_type(operand)[1] != split_type(result)[1]:
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        shapes = self.flat_shape_of(operand), self.flat_shape_of(result)
        if not any(rules.is_dynamic(shape) for shape in shapes):
            counts = [rules.element_count(shape) for shape in shapes]
            if counts[0] != counts[1]:
                raise Diagnostic(f"cannot reshape {counts[0]} elements into {counts[1]}")


@irdl_op_definition
class DynamicReshapeOp(DynamicReshapeFamily, BcastOp):
    """``bcast.dynamic_reshape %x, [%n, 4] : (tensor<?x2x2xf32>) -> tensor<?x4xf32>``:
    StableHLO's ``dynamic_reshape``, the output sizes as a literal-and-SSA
    ``index`` list (as ``dynamic_broadcast_in_dim``'s). The elements in
    row-major order; at run time the element counts must be equal, or the
    op fails at its location (NumPy's words)."""

    name = "bcast.dynamic_reshape"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    operand = operand_def(TensorType)
    output_sizes = var_operand_def(IndexType)
    static_output_sizes = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)
    traits = traits_def(ChecksSizesAtRunTime(), CanonicalizationPatterns())
    assembly_format = (
        "$operand `,` custom<SizeList>($output_sizes, $static_output_sizes) attr-dict `:` "
        "functional-type($operand, results)"
    )
    custom_directives = (SizeList,)

    def __init__(self, operand: SSAValue | Operation, sizes: Sequence[int | SSAValue], result_type: Attribute):
        static, dynamic = _index_operands(sizes)
        super().__init__(operands=[operand, dynamic], result_types=[result_type],
                         properties={"static_output_sizes": static})  # fmt: skip

    def mixed_sizes(self, sizes: Sequence[int | SSAValue] | None = None) -> list[int | SSAValue]:
        return _mixed(self.static_output_sizes.get_values(), self.output_sizes if sizes is None else sizes)

    def verify_semantics(self, semantics: Semantics) -> None:
        _split(self.operand, "operand")
        _check_output_sizes(self.static_output_sizes, self.output_sizes,
                            rules.flat_shape(_split(self.result, "result")[0]))
        self.check_reshape()


@irdl_op_definition
class DynamicIotaOp(DynamicIotaFamily, BcastOp):
    """``bcast.dynamic_iota [%n, 4], dim = 0 : tensor<?x4xi32>``: ``iota`` of
    run-time sizes (StableHLO's ``dynamic_iota``; the sizes as
    ``dynamic_broadcast_in_dim``'s)."""

    name = "bcast.dynamic_iota"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    output_sizes = var_operand_def(IndexType)
    static_output_sizes = prop_def(DenseArrayBase.constr(i64))
    traits = traits_def(ChecksSizesAtRunTime(), CanonicalizationPatterns())
    assembly_format = (
        "custom<SizeList>($output_sizes, $static_output_sizes) `,` `dim` `=` $iota_dimension attr-dict `:` "
        "type($result)"
    )
    custom_directives = (SizeList,)

    def __init__(self, sizes: Sequence[int | SSAValue], dimension: int, result_type: Attribute):
        static, dynamic = _index_operands(sizes)
        super().__init__(operands=[dynamic], result_types=[result_type],
                         properties={"static_output_sizes": static,
                                     "iota_dimension": IntegerAttr(dimension, i64)})  # fmt: skip

    def mixed_sizes(self, sizes: Sequence[int | SSAValue] | None = None) -> list[int | SSAValue]:
        return _mixed(self.static_output_sizes.get_values(), self.output_sizes if sizes is None else sizes)

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.result, "result")
        if len(levels) > 1:
            raise Diagnostic("iota does not support nested tensor types")
        if rules.kind(element) not in IotaOp.ELEMENT_KINDS:
            raise Diagnostic(f"result must be {KIND_WORDS[IotaOp.ELEMENT_KINDS]}, got element type {element}")
        _check_output_sizes(self.static_output_sizes, self.output_sizes, rules.flat_shape(levels))
        rules.check_iota(levels[0], self.dim)


@irdl_op_definition
class SetDimensionSizeOp(SetDimensionSizeFamily[IndexType], BcastOp):
    """``bcast.set_dimension_size %x, %n, dim = 0 : (tensor<16xf32>) ->
    tensor<?xf32, #stablehlo.bounds<16>>``: the first ``n`` entries of ``%x``
    along ``dim`` (XLA's ``set_dimension_size``: the operand's size is the
    bound of the result's ``?``). ``n`` above that size is a run-time error
    at the op."""

    name = "bcast.set_dimension_size"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    traits = traits_def(ChecksSizesAtRunTime())
    assembly_format = (
        "$operand `,` $size `,` `dim` `=` $dimension attr-dict `:` functional-type($operand, results)"
    )

    def verify_semantics(self, semantics: Semantics) -> None:
        (ol, oe), (rl, re) = _split(self.operand, "operand"), _split(self.result, "result")
        if oe != re:
            raise Diagnostic("failed to verify that all of {operand, result} have same element type")
        operand, result = rules.flat_shape(ol), rules.flat_shape(rl)
        if len(operand) != len(result) or not 0 <= self.dim < len(operand):
            raise Diagnostic(f"dimension {self.dim} and result rank {len(result)} do not fit an operand of "
                             f"rank {len(operand)}")  # fmt: skip
        for d, (o, r) in enumerate(zip(operand, result)):
            if d != self.dim and o != r:
                raise Diagnostic(f"result dimension {d} ({r}) differs from the operand's ({o})")
        if isinstance(result[self.dim], int):
            raise Diagnostic(f"result dimension {self.dim} must be ? (its size is set at run time)")


SIZED_BY_OPERANDS = (DynamicBroadcastInDimOp, DynamicReshapeOp, DynamicIotaOp)
"""The ops whose result sizes are their size operands (``mixed_sizes()``):
what a ``dim`` of their result is, for the loop lowering and for the proofs
of ``canonicalize``."""



# --------------------------------------------------------------------------
# convolution: StableHLO's, one family with ir/stablehlo.py's (dimension
# numbers, window, groups, syntax); each dialect adds its name and verifier
# --------------------------------------------------------------------------


class ConvDimsFamily(ParametrizedAttribute, abc.ABC):
    """``<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>``: ``rules.ConvDims`` as an
    attribute of the dialect (``#stablehlo.conv``, ``#bcast.conv``)."""

    input_batch_dimension: IntAttr
    input_feature_dimension: IntAttr
    input_spatial_dimensions: DenseArrayBase
    kernel_input_feature_dimension: IntAttr
    kernel_output_feature_dimension: IntAttr
    kernel_spatial_dimensions: DenseArrayBase
    output_batch_dimension: IntAttr
    output_feature_dimension: IntAttr
    output_spatial_dimensions: DenseArrayBase

    @classmethod
    def of(cls, dims: rules.ConvDims):
        return cls(*(dense_i64(v) if isinstance(v, tuple) else IntAttr(v) for v in dataclasses.astuple(dims)))

    @property
    def dims(self) -> rules.ConvDims:
        return rules.ConvDims(*(p.get_values() if isinstance(p, DenseArrayBase) else p.data for p in self.parameters))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        if parser.parse_optional_keyword("raw") is not None:
            parser.raise_error("the raw form of convolution dimension numbers is not supported; write "
                               "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]")  # fmt: skip
        dims = parse_conv_dims(parser)
        parser.parse_punctuation(">")
        return cls.of(dims).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.dims.text()}>")


@irdl_attr_definition
class ConvDimsAttr(ConvDimsFamily):
    name = "bcast.conv"


def _or_default(attr: DenseArrayBase | None, n: int, default: int) -> tuple[int, ...]:
    return attr.get_values() if attr is not None else (default,) * n


class ConvolutionFamily(IRDLOperation, abc.ABC):
    """``convolution``'s fields, builder and syntax, StableHLO's pretty form
    in both dialects: ``(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i,
    o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (A, B)
    -> C``. The window properties are optional (unit strides and dilations,
    no padding, no reversal when absent, as in StableHLO); the precision
    config is kept as written (bcast computes in the type's full
    precision). ``conv`` is the ``rules.Convolution`` they say."""

    DIMS_ATTR: ClassVar[type[ConvDimsFamily]]
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase.constr(i64))
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase.constr(i64))
    rhs_dilation = opt_prop_def(DenseArrayBase.constr(i64))
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimsFamily)
    feature_group_count = prop_def(IntegerAttr.constr(type=I64))
    batch_group_count = prop_def(IntegerAttr.constr(type=I64))
    precision_config = opt_prop_def(ArrayAttr)

    WINDOW: ClassVar[dict[str, str]] = {"stride": "window_strides", "pad": "padding", "lhs_dilate": "lhs_dilation",
                                        "rhs_dilate": "rhs_dilation", "reverse": "window_reversal"}  # fmt: skip
    """The pretty form's window fields and the properties they are."""

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, conv: rules.Convolution,
                 result_type: Attribute | None = None, *, precision_config: ArrayAttr | None = None):
        """The result type is inferred (``rules.convolution_shape``, the
        operands' element type) unless given (StableHLO's result element type)."""
        if result_type is None:
            lt = _type(lhs)
            shape = rules.convolution_shape(self.flat_shape_of(lt), self.flat_shape_of(_type(rhs)), conv)
            result_type = self.shaped_like(lt, shape)
        IRDLOperation.__init__(self, operands=[lhs, rhs], result_types=[result_type],
                               properties=self.conv_properties(conv, precision_config))

    @classmethod
    def conv_properties(cls, conv: rules.Convolution, precision_config: ArrayAttr | None,
                        padded: bool = True) -> dict[str, Attribute]:
        """The properties that say ``conv`` (its padding unless not ``padded``)."""
        window = {"stride": list(conv.strides), "pad": list(zip(conv.low, conv.high)),
                  "lhs_dilate": list(conv.lhs_dilation), "rhs_dilate": list(conv.rhs_dilation),
                  "reverse": list(conv.reversal)}  # fmt: skip
        if not padded:
            del window["pad"]
        props = {**cls.window_properties(window), "dimension_numbers": cls.DIMS_ATTR.of(conv.dims),
                 "feature_group_count": IntegerAttr(conv.feature_group_count, i64),
                 "batch_group_count": IntegerAttr(conv.batch_group_count, i64)}  # fmt: skip
        if precision_config is not None:
            props["precision_config"] = precision_config
        return props

    @staticmethod
    def window_properties(window: Mapping[str, list]) -> dict[str, Attribute]:
        """The properties of the pretty form's window fields."""
        props: dict[str, Attribute] = {}
        for field, values in window.items():
            name = ConvolutionFamily.WINDOW[field]
            if field == "pad":
                props[name] = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values), 2]),
                                                                 [v for pair in values for v in pair])  # fmt: skip
            elif field == "reverse":
                props[name] = DenseArrayBase.from_list(i1, [bool(v) for v in values])
            else:
                props[name] = dense_i64(values)
        return props

    def window_fields(self) -> dict[str, list]:
        """The window fields the properties give (absent ones left out)."""
        fields: dict[str, list] = {}
        for field, name in self.WINDOW.items():
            attr = getattr(self, name)
            if attr is None:
                continue
            values = [int(v) for v in attr.get_values()]
            fields[field] = (list(zip(values[0::2], values[1::2])) if field == "pad"
                             else [bool(v) for v in values] if field == "reverse" else values)  # fmt: skip
        return fields

    @property
    def conv(self) -> rules.Convolution:
        """The dimension numbers, window and groups; a padding that is not
        one (low, high) pair per spatial dim is refused (StableHLO's C4)."""
        dims = self.dimension_numbers.dims
        n = len(dims.input_spatial)
        if self.padding is None:
            low = high = (0,) * n
        else:
            shape = tuple(self.padding.get_type().get_shape())
            if len(shape) != 2 or shape[1] != 2:
                raise Diagnostic(f"expects padding to be of shape [N, 2], got {list(shape)}")
            values = [int(v) for v in self.padding.get_values()]
            low, high = tuple(values[0::2]), tuple(values[1::2])
        reversal = (tuple(bool(v) for v in self.window_reversal.get_values()) if self.window_reversal is not None
                    else (False,) * n)  # fmt: skip
        return rules.Convolution(dims, _or_default(self.window_strides, n, 1), low, high,
                                 _or_default(self.lhs_dilation, n, 1), _or_default(self.rhs_dilation, n, 1),
                                 reversal, self.feature_group_count.value.data, self.batch_group_count.value.data)

    def check_precision_config(self) -> None:
        """StableHLO's C24: none, or one precision per operand."""
        if self.precision_config is not None and len(self.precision_config.data) not in (0, 2):
            raise Diagnostic(f"expects precision config to be empty or have <= 2 elements, "
                             f"got {len(self.precision_config.data)}")  # fmt: skip

    @classmethod
    def parse(cls, parser: Parser):
        count = len(cls.get_irdl_definition().operands)  # lhs, rhs (and dynamic_conv's padding)
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"dimension_numbers": cls.DIMS_ATTR.of(parse_conv_dims(parser))}
        parser.parse_punctuation(",")
        parser.parse_keyword("window")
        parser.parse_punctuation("=")
        props.update(cls.window_properties(parse_conv_window(parser)))
        names = cls.get_irdl_definition().properties
        attrs = parser.parse_optional_attr_dict()
        props.update({k: v for k, v in attrs.items() if k in names})
        parser.parse_punctuation(":")
        pos = parser.pos
        function = parser.parse_function_type()
        if len(operands) != count or len(function.inputs.data) != count or len(function.outputs.data) != 1:
            parser.raise_error(f"expected {count} operands and a function type with {count} inputs and one result",
                               pos, parser.pos)
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, function.inputs.data)]
        return cls.create(operands=values, result_types=[function.outputs.data[0]], properties=props,
                          attributes={k: v for k, v in attrs.items() if k not in names})  # fmt: skip

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f") dim_numbers = {self.dimension_numbers.dims.text()}, "
                             f"window = {conv_window_text(self.window_fields())}")  # fmt: skip
        shown = {"dimension_numbers", *self.WINDOW.values()}
        extra = {k: self.properties[k] for k in sorted(self.properties) if k not in shown}  # sorted, as MLIR's
        printer.print_op_attributes({**extra, **self.attributes})
        printer.print_string(" : (")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ConvolutionOp(ConvolutionFamily, BcastOp):
    """``convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0,
    1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64} :
    (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>``:
    StableHLO's ``convolution`` (``jax.lax.conv_general_dilated``), its
    syntax, rules and words (``rules.convolution_shape``): every window of
    the dilated, padded input times the dilated (and reversed) kernel,
    summed over the window and the input features of the feature group;
    batch groups split the input batch over the output features. Both
    operands and the result have one element type (integer or float) under
    every semantics: StableHLO's other result element type is imported as a
    ``convert`` of the operands. ``f16`` sums in ``f32`` and rounds once;
    integers wrap. A ``?`` is taken in the input's batch dim and spatial
    dims (JAX's shape-polymorphic CNNs): a ``?`` spatial dim's output size
    is computed at run time (``rules.conv_window_count``) and declared
    ``?``. A nested (tml) type is refused; a fusion
    boundary. ``numerics.convolution`` is the reference."""

    name = "bcast.convolution"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    DIMS_ATTR: ClassVar[type[ConvDimsFamily]] = ConvDimsAttr
    traits = traits_def(Pure())

    def verify_semantics(self, semantics: Semantics) -> None:
        (lhs, le), (rhs, re) = _contraction_levels(self)
        if le != re:
            raise Diagnostic(f"operands have element types {le} and {re}",
                             ["convolution multiplies operands of one element type; insert a bcast.convert"])
        self.check_precision_config()
        check_run_time_result(self, make_type((rules.convolution_shape(lhs, rhs, self.conv),), le), self.result.type,
                              self.conv.dims.output_spatial)


def dynamic_conv_shape(lhs: Shape, rhs: Shape, conv: rules.Convolution) -> tuple[rules.Dim, ...]:
    """``dynamic_conv``'s inferred result shape: ``convolution``'s rules
    with no padding, each spatial dim ``?`` (its size comes from the
    padding read at run time, ``check_dynamic_conv``)."""
    shape = list(rules.convolution_shape(lhs, rhs, conv))
    for o in conv.dims.output_spatial:
        shape[o] = rules.Dynamic()
    return tuple(shape)


def check_dynamic_conv(lhs: Sequence[int], rhs: Sequence[int], conv: rules.Convolution,
                       padding: np.ndarray, declared: Sequence[int | None] = ()) -> rules.Convolution:
    """``dynamic_conv`` on its run-time ``padding`` (one (low, high) row
    per spatial dim): ``conv`` with that padding. A padding whose edges
    crop more than the dilated input holds, so that the padded input's
    size ends negative, is an error (a negative edge crops; no size is
    negative), as is a result spatial size other than a static one the
    result type ``declared`` (``DynamicConvOp.declared_sizes``: JAX
    declares the sizes it knows of a padding it computes at run time)."""
    rows = [(int(lo), int(hi)) for lo, hi in np.asarray(padding).reshape(-1, 2)]
    for s, ((lo, hi), i) in enumerate(zip(rows, conv.dims.input_spatial)):
        n = int(lhs[i])
        dilated = (n - 1) * conv.lhs_dilation[s] + 1 if n else 0
        if dilated + lo + hi < 0:
            raise RuntimeShapeError(f"dynamic_conv padding makes spatial dimension {s} of the padded input "
                                    f"of size {dilated + lo + hi}",
                                    [f"low {lo} and high {hi} crop more than the {dilated} elements of the "
                                     "dilated input dimension"])  # fmt: skip
    padded = dataclasses.replace(conv, low=tuple(lo for lo, _ in rows), high=tuple(hi for _, hi in rows))
    if any(n is not None for n in declared):
        shape = rules.convolution_shape(lhs, rhs, padded)
        for o in conv.dims.output_spatial:
            if declared[o] is not None and shape[o] != declared[o]:
                raise RuntimeShapeError(f"dynamic_conv padding makes result dimension {o} of size {shape[o]}, "
                                        f"but its type declares {declared[o]}",
                                        [f"the padding is {[list(r) for r in rows]}; the result's shape is "
                                         f"{tuple(shape)}"])  # fmt: skip
    return padded


@irdl_op_definition
class DynamicConvOp(ConvolutionFamily, BcastOp):
    """``dynamic_conv(%x, %w, %padding) dim_numbers = ..., window = {...}
    {...} : (tensor<?x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<2x2xi64>) ->
    tensor<?x?x?x4xf32>``: StableHLO's ``dynamic_conv``, a ``convolution``
    whose padding is an integer tensor operand of one (low, high) row per
    spatial dim, read at run time (its window has no ``pad`` field). The
    result's spatial dims are ``?`` (their sizes come from the padding's
    values), or declared static, which is checked when it runs (JAX
    declares the sizes it knows of a padding it computes from a symbolic
    size); a padding that makes a padded input dim negative, or a size
    other than the declared one, is a run-time error at the op
    (``check_dynamic_conv``). Otherwise
    ``convolution``'s rules and meaning (``numerics.convolution`` with the
    padding read); a fusion boundary (docs/stablehlo.md, "Convolution")."""

    name = "bcast.dynamic_conv"
    DYNAMIC_SHAPES: ClassVar[bool] = True
    DIMS_ATTR: ClassVar[type[ConvDimsFamily]] = ConvDimsAttr
    lhs = operand_def(TensorType)  # redeclared: the operands in StableHLO's order
    rhs = operand_def(TensorType)
    d_padding = operand_def(TensorType)
    traits = traits_def(ChecksSizesAtRunTime())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, padding: SSAValue | Operation,
                 conv: rules.Convolution, result_type: Attribute | None = None, *,
                 precision_config: ArrayAttr | None = None):
        """The result type is inferred (``dynamic_conv_shape``) unless given;
        ``conv``'s own padding is not used."""
        if result_type is None:
            shape = dynamic_conv_shape(self.flat_shape_of(_type(lhs)), self.flat_shape_of(_type(rhs)), conv)
            result_type = self.shaped_like(_type(lhs), shape)
        IRDLOperation.__init__(self, operands=[lhs, rhs, padding], result_types=[result_type],
                               properties=self.conv_properties(conv, precision_config, padded=False))

    def declared_sizes(self) -> tuple[int | None, ...]:
        """The result's flat shape, None for a ``?`` dim: the static spatial
        sizes ``check_dynamic_conv`` checks at run time."""
        return tuple(n if isinstance(n, int) else None for n in flat_type_shape(self.result.type))

    def verify_semantics(self, semantics: Semantics) -> None:
        (lhs, le), (rhs, re) = _contraction_levels(self)
        if le != re:
            raise Diagnostic(f"operands have element types {le} and {re}",
                             ["convolution multiplies operands of one element type; insert a bcast.convert"])
        self.check_precision_config()
        if self.padding is not None:
            raise Diagnostic("takes its padding as an operand, not in its window")
        spatial = len(self.dimension_numbers.dims.input_spatial)
        padding = self.d_padding.type
        if (not isinstance(padding, TensorType) or rules.kind(str(padding.get_element_type())) not in ("signed", "unsigned")
                or tuple(padding.get_shape()) != (spatial, 2)):
            raise Diagnostic(f"padding must be a tensor<{spatial}x2x...> of integers (one (low, high) row per "
                             f"spatial dim), got {padding}")  # fmt: skip
        inferred = make_type((dynamic_conv_shape(lhs, rhs, self.conv),), le)
        _check_declared(self, inferred, self.result.type)
        for d in self.conv.dims.output_spatial:  # a static size is checked at run time; a bound is not
            n = flat_type_shape(self.result.type)[d]
            if isinstance(n, rules.Dynamic) and n.bound is not None:
                raise Diagnostic(f"result dimension {d} is declared {n}, a bound on a size known only at run time",
                                 [f"declare it ? or a static size (checked at run time); the inferred type is "
                                  f"{inferred}"])


# --------------------------------------------------------------------------
# Linear algebra
# --------------------------------------------------------------------------


class Transpose(StrEnum):
    """Which matrix ``triangular_solve`` solves with: ``a``, its transpose,
    or its conjugate transpose (the transpose on real types)."""

    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


@irdl_attr_definition
class TransposeAttr(EnumAttribute[Transpose], SpacedOpaqueSyntaxAttribute):
    name = "bcast.transpose"


LINALG_KINDS = frozenset({"float", "complex"})
"""What ``triangular_solve`` takes: floats and complex values (``ADJOINT``
solves with the conjugate transpose)."""

TRIANGULAR_FLAGS = ("left_side", "lower", "unit_diagonal")


class TriangularSolveFamily(IRDLOperation, abc.ABC):
    """``triangular_solve``'s operands, flags, builder and rules, shared by
    bcast and StableHLO (each names its ``transpose_a`` attribute,
    ``TRANSPOSE_ATTR``). ``flags`` reads them as Python values."""

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    result = result_def(TensorType)
    left_side = prop_def(IntegerAttr.constr(type=i1))
    lower = prop_def(IntegerAttr.constr(type=i1))
    unit_diagonal = prop_def(IntegerAttr.constr(type=i1))
    TRANSPOSE_ATTR: ClassVar[type[EnumAttribute[Transpose]]]

    def __init__(self, a: SSAValue | Operation, b: SSAValue | Operation, *, left_side: bool, lower: bool,
                 unit_diagonal: bool = False, transpose_a: str = "NO_TRANSPOSE",
                 result_type: Attribute | None = None):
        IRDLOperation.__init__(
            self, operands=[a, b], result_types=[result_type or _type(b)],
            properties={"left_side": IntegerAttr(int(left_side), i1), "lower": IntegerAttr(int(lower), i1),
                        "unit_diagonal": IntegerAttr(int(unit_diagonal), i1),
                        "transpose_a": self.TRANSPOSE_ATTR(Transpose(transpose_a))},
        )  # fmt: skip

    @property
    def flags(self) -> tuple[bool, bool, bool, str]:
        """(left_side, lower, unit_diagonal, transpose_a)."""
        left, lower, unit = (bool(getattr(self, name).value.data) for name in TRIANGULAR_FLAGS)
        return left, lower, unit, str(self.transpose_a.data)

    def result_shape(self) -> Shape:
        """``rules.triangular_solve_shape`` of the operands, element kinds checked."""
        a, b = self.flat_shape_of(self.a.type), self.flat_shape_of(self.b.type)
        ea, eb = str(self.a.type.get_element_type()), str(self.b.type.get_element_type())
        if ea != eb:
            raise Diagnostic(f"operands have element types {ea} and {eb}",
                             ["triangular_solve takes a and b of one element type"])
        check_kinds([ea], LINALG_KINDS)
        return rules.triangular_solve_shape(a, b, self.flags[0], str(self.a.type), str(self.b.type))


@irdl_op_definition
class TriangularSolveOp(TriangularSolveFamily, BcastOp):
    """``triangular_solve %a, %b, left_side = true, lower = true,
    unit_diagonal = false, transpose_a = NO_TRANSPOSE : (tensor<3x3xf32>,
    tensor<3x2xf32>) -> tensor<3x2xf32>``: StableHLO's ``triangular_solve``
    (``jax.lax.linalg.triangular_solve``, what ``jnp.linalg.solve`` and
    Cholesky-based code emit): ``x`` with ``op(a) @ x = b`` (``left_side``)
    or ``x @ op(a) = b``, where only ``a``'s lower (``lower``) or upper
    triangle is read, its diagonal taken as ones with ``unit_diagonal``, and
    ``op`` transposes with ``TRANSPOSE`` and ``ADJOINT`` (which also
    conjugates complex values). Leading dims are batch dims, equal in ``a``
    and ``b`` (no broadcasting). Floats and complex values; ``f16`` is
    computed in ``f32`` and rounded once. A singular
    ``a`` gives IEEE infinities and NaNs, as XLA does. Static shapes; a
    nested (tml) type is refused; a fusion boundary. ``numerics.triangular_solve``
    is the reference (docs/ir.md, "triangular_solve")."""

    name = "bcast.triangular_solve"
    transpose_a = prop_def(TransposeAttr)
    TRANSPOSE_ATTR: ClassVar[type[EnumAttribute[Transpose]]] = TransposeAttr
    traits = traits_def(Pure())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        left, lower, unit, transpose = self.flags
        for name, on in zip(TRIANGULAR_FLAGS, (left, lower, unit)):
            printer.print_string(f", {name} = {'true' if on else 'false'}")
        printer.print_string(f", transpose_a = {transpose}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_operation_type(self)

    @classmethod
    def parse(cls, parser: Parser) -> TriangularSolveOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        flags = {}
        for name in TRIANGULAR_FLAGS:
            parser.parse_punctuation(",")
            parser.parse_keyword(name)
            parser.parse_punctuation("=")
            flags[name] = parser.parse_boolean()
        parser.parse_punctuation(",")
        parser.parse_keyword("transpose_a")
        parser.parse_punctuation("=")
        transpose = parser.parse_str_enum(Transpose)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        inputs, outputs = function_type.inputs.data, function_type.outputs.data
        if len(inputs) != 2 or len(outputs) != 1:
            parser.raise_error("expected two operand types and one result type", pos, parser.pos)
        a_, b_ = (parser.resolve_operand(v, t) for v, t in zip((a, b), inputs))
        op = cls(a_, b_, **flags, transpose_a=transpose, result_type=outputs[0])
        op.attributes |= attributes
        return op

    def verify_semantics(self, semantics: Semantics) -> None:
        for value, what in ((self.a, "a"), (self.b, "b")):
            if len(_split(value, what)[0]) > 1:
                raise Diagnostic("triangular_solve does not support nested tensor types")
        shape = self.result_shape()
        _check_declared(self, make_type((shape,), split_type(self.b.type)[1]), self.result.type)


LAPACK_ELEMENTS = ("f32", "f64")
"""The element types ``lu`` and ``cholesky`` take: LAPACK's ``s`` and ``d``
routines (complex ``c``/``z`` need complex types, which bcast has not)."""

LAPACK_INDEX = "i32"
"""The element type of ``lu``'s pivots and of ``info``: LAPACK's integer, as
JAX's ``custom_call`` returns it."""


def _lapack_operand(op: Operation, what: str) -> tuple[Shape, str]:
    """The flat shape and element type of ``op``'s matrix operand: not
    nested, of a LAPACK element type."""
    levels, element = _split(op.operands[0], "a")
    if len(levels) > 1:
        raise Diagnostic(f"{what} does not support nested tensor types")
    if element not in LAPACK_ELEMENTS:
        raise Diagnostic(f"operand must be f32 or f64, got element type {element}",
                         [f"{what} is LAPACK's, which computes in f32 and f64 only: convert the operand first"])
    return levels[0], element


class LapackOp(BcastOp, abc.ABC):
    """An op JAX runs as a LAPACK ``custom_call`` on a CPU (docs/ir.md,
    "lu"): one matrix operand, the results ``LAPACK_RESULTS`` names, the
    last an ``i32`` ``info`` per matrix; a fusion boundary."""

    a = operand_def(TensorType)
    LAPACK_RESULTS: ClassVar[tuple[str, ...]]

    def result_types_for(self, a: Attribute) -> list[Attribute]:
        shapes = self.result_shapes(flat_type_shape(a), str(a))
        element = split_type(a)[1]
        return [make_type((shape,), element if k == 0 else LAPACK_INDEX) for k, shape in enumerate(shapes)]

    @abc.abstractmethod
    def result_shapes(self, a: Shape, a_type: str) -> tuple[Shape, ...]: ...

    def verify_semantics(self, semantics: Semantics) -> None:
        shape, element = _lapack_operand(self, self.name.removeprefix("bcast."))
        shapes = self.result_shapes(shape, str(self.a.type))
        inferred = [make_type((s,), element if k == 0 else LAPACK_INDEX) for k, s in enumerate(shapes)]
        if len(self.results) != len(inferred) or any(t != r.type for t, r in zip(inferred, self.results)):
            raise incompatible_results(inferred, [r.type for r in self.results])


@irdl_op_definition
class LuOp(LapackOp):
    """``%lu, %pivots, %info = lu %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>,
    tensor<4xi32>, tensor<i32>)``: LAPACK's ``?getrf``, LU factorization
    with partial pivoting of each ``m x n`` matrix of a batch, as JAX's
    ``custom_call @lapack_sgetrf_ffi`` (``jnp.linalg.solve``, ``inv``,
    ``det``, ``slogdet``, ``jax.scipy.linalg.lu_factor``/``lu``) returns it:
    the factors (``U`` on and above the diagonal, ``L``'s multipliers
    below), the ``min(m, n)`` pivots (1-based rows, as LAPACK), and ``info``
    (0, or the 1-based place of the first zero pivot; the factorization
    still completes). f32 and f64; static shapes; ``numerics.lu`` is the
    definition (docs/ir.md, "lu")."""

    name = "bcast.lu"
    factors = result_def(TensorType)
    pivots = result_def(TensorType)
    info = result_def(TensorType)
    LAPACK_RESULTS: ClassVar[tuple[str, ...]] = ("factors", "pivots", "info")
    traits = traits_def(Pure())
    assembly_format = "$a attr-dict `:` functional-type(operands, results)"

    def __init__(self, a: SSAValue | Operation, result_types: Sequence[Attribute] | None = None):
        IRDLOperation.__init__(self, operands=[a], result_types=list(result_types or self.result_types_for(_type(a))))

    def result_shapes(self, a: Shape, a_type: str) -> tuple[Shape, ...]:
        return rules.lu_shapes(a, a_type)


@irdl_op_definition
class CholeskyOp(LapackOp):
    """``%l, %info = cholesky %a, lower = true : (tensor<3x3xf32>) ->
    (tensor<3x3xf32>, tensor<i32>)``: LAPACK's ``?potrf``, the Cholesky
    factor of each symmetric positive definite matrix of a batch, as JAX's
    ``custom_call @lapack_spotrf_ffi`` (``jnp.linalg.cholesky``,
    ``jax.scipy.linalg.cho_factor``) returns it: ``L`` (``lower``, read
    from and written to the lower triangle) or ``U`` (the upper), the other
    triangle keeping ``a``'s values, and ``info`` (0, or the 1-based column
    where the matrix is found not positive definite: the factorization
    stops there). StableHLO's ``cholesky`` rules; f32 and f64; static
    shapes; ``numerics.cholesky`` is the definition (docs/ir.md,
    "cholesky")."""

    name = "bcast.cholesky"
    factor = result_def(TensorType)
    info = result_def(TensorType)
    lower = prop_def(IntegerAttr.constr(type=i1))
    LAPACK_RESULTS: ClassVar[tuple[str, ...]] = ("factor", "info")
    traits = traits_def(Pure())

    def __init__(self, a: SSAValue | Operation, *, lower: bool, result_types: Sequence[Attribute] | None = None):
        IRDLOperation.__init__(self, operands=[a], result_types=list(result_types or self.result_types_for(_type(a))),
                               properties={"lower": IntegerAttr(int(lower), i1)})

    @property
    def is_lower(self) -> bool:
        return bool(self.lower.value.data)

    def result_shapes(self, a: Shape, a_type: str) -> tuple[Shape, ...]:
        return rules.cholesky_shapes(a, a_type)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        printer.print_string(f", lower = {'true' if self.is_lower else 'false'}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_operation_type(self)

    @classmethod
    def parse(cls, parser: Parser) -> CholeskyOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("lower")
        parser.parse_punctuation("=")
        lower = parser.parse_boolean()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        inputs, outputs = function_type.inputs.data, function_type.outputs.data
        if len(inputs) != 1 or len(outputs) != 2:
            parser.raise_error("expected one operand type and two result types", pos, parser.pos)
        op = cls(parser.resolve_operand(a, inputs[0]), lower=lower, result_types=outputs)
        op.attributes |= attributes
        return op


# --------------------------------------------------------------------------
# Fourier transforms
# --------------------------------------------------------------------------


class FftType(StrEnum):
    """``fft``'s transform (``rules.FFT_TYPES``)."""

    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


@irdl_attr_definition
class FftTypeAttr(EnumAttribute[FftType], SpacedOpaqueSyntaxAttribute):
    name = "bcast.fft_type"


class FftFamily(IRDLOperation, abc.ABC):
    """``fft``'s operand, attributes, syntax, builder and rule, shared by
    bcast and StableHLO (each names its ``fft_type`` attribute,
    ``FFT_TYPE_ATTR``): ``%x, type = RFFT, length = [8] : (T) -> R``, as
    StableHLO prints it."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    fft_length = prop_def(DenseArrayBase.constr(i64))
    FFT_TYPE_ATTR: ClassVar[type[EnumAttribute[FftType]]]

    def __init__(self, x: SSAValue | Operation, fft_type: str, fft_length: Sequence[int],
                 result_type: Attribute | None = None):
        if result_type is None:
            t = _type(x)
            shape, element = rules.fft_type(tuple(t.get_shape()), str(t.get_element_type()), str(fft_type),
                                            tuple(fft_length), str(t))
            result_type = make_type((shape,), element)
        IRDLOperation.__init__(self, operands=[x], result_types=[result_type],
                               properties={"fft_length": DenseArrayBase.from_list(i64, list(fft_length)),
                                           "fft_type": self.FFT_TYPE_ATTR(FftType(fft_type))})

    @property
    def kind(self) -> str:
        """FFT, IFFT, RFFT or IRFFT."""
        return str(self.fft_type.data)

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(self.fft_length.get_values())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", type = {self.kind}, length = [{', '.join(map(str, self.lengths))}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_operation_type(self)

    @classmethod
    def parse(cls, parser: Parser):
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("type")
        parser.parse_punctuation("=")
        kind = parser.parse_str_enum(FftType)
        parser.parse_punctuation(",")
        parser.parse_keyword("length")
        parser.parse_punctuation("=")
        pos = parser.pos
        lengths = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                    lambda: parser.parse_integer(allow_boolean=False))
        if any(not -(2**63) <= n < 2**63 for n in lengths):
            parser.raise_error("an fft length does not fit in 64 bits", pos, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        inputs, outputs = function_type.inputs.data, function_type.outputs.data
        if len(inputs) != 1 or len(outputs) != 1:
            parser.raise_error("expected one operand type and one result type", pos, parser.pos)
        op = cls(parser.resolve_operand(x, inputs[0]), kind, lengths, result_type=outputs[0])
        op.attributes |= attributes
        return op

    def inferred_type(self, shape: Shape, element: str) -> Attribute:
        """The result type ``rules.fft_type`` infers from the operand's."""
        shape, element = rules.fft_type(shape, element, self.kind, self.lengths, str(self.operand.type))
        return make_type((shape,), element)


@irdl_op_definition
class FftOp(FftFamily, BcastOp):
    """``fft %x, type = RFFT, length = [8] : (tensor<3x8xf32>) ->
    tensor<3x5xcomplex<f32>>``: StableHLO's ``fft`` (``jnp.fft.fft``,
    ``ifft``, ``rfft``, ``irfft``, ``fft2``, ``fftn``): the discrete Fourier
    transform over the trailing ``len(length)`` dims (1 to 3), the leading
    ones a batch. FFT and IFFT map complex to complex of one shape (IFFT
    scaled by 1/n); RFFT maps f32/f64 to the complex type of its parts, the
    last dim ``n // 2 + 1`` (the non-negative frequencies); IRFFT maps
    those back to a real result of ``length``. Static shapes; a nested
    (tml) type is refused; a fusion boundary. ``numerics.fft`` is the
    reference (docs/ir.md, "fft")."""

    name = "bcast.fft"
    fft_type = prop_def(FftTypeAttr)
    FFT_TYPE_ATTR: ClassVar[type[EnumAttribute[FftType]]] = FftTypeAttr
    traits = traits_def(Pure())

    def verify_semantics(self, semantics: Semantics) -> None:
        levels, element = _split(self.operand, "operand")
        if len(levels) > 1:
            raise Diagnostic("fft does not support nested tensor types")
        _check_declared(self, self.inferred_type(levels[0], element), self.result.type)


OPS: list[type[BcastOp]] = [
    op for op in dict(globals()).values()
    if isinstance(op, type) and issubclass(op, BcastOp) and "name" in op.__dict__
]  # fmt: skip
"""Every op of the dialect, in the order defined above: a new op class is
registered by being defined."""
