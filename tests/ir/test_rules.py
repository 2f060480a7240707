"""Unit tests of the broadcasting rules (``bcast.ir.rules``): plain functions
on shapes and element-type names, no IR."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bcast.ir import rules
from bcast.ir.types import NUMPY_DTYPES
from bcast.ir.rules import IncompatibleDims, RuleError

# --------------------------------------------------------------------------
# shape_str / aligned_from_the_right / element_count
# --------------------------------------------------------------------------


def test_shape_str():
    assert rules.shape_str((2, 3)) == "2x3"
    assert rules.shape_str((0,)) == "0"
    assert rules.shape_str(()) == "()"


def test_aligned_from_the_right_design_example():
    # docs/contracts.md (Diagnostics)
    assert rules.aligned_from_the_right([(2, 1), (8, 4, 3)]) == ["    2 x 1", "8 x 4 x 3"]


def test_aligned_from_the_right_widths_and_scalar():
    lines = rules.aligned_from_the_right([(10, 1), (3,), ()])
    assert lines == ["10 x 1", "     3", "()"]
    assert rules.aligned_from_the_right([]) == []
    assert rules.aligned_from_the_right([()]) == ["()"]
    # columns line up: every line has the same length once padded
    lines = rules.aligned_from_the_right([(8, 1, 6, 1), (7, 1, 5)])
    assert lines[0].endswith("1") and lines[1].endswith("5")
    assert len(lines[0]) == len(lines[1])


@pytest.mark.parametrize("shape,n", [((), 1), ((0,), 0), ((2, 3), 6), ((5, 0, 7), 0), ((1, 1), 1)])
def test_element_count(shape, n):
    assert rules.element_count(shape) == n


# --------------------------------------------------------------------------
# broadcast_shapes: the Array API algorithm
# --------------------------------------------------------------------------

VALID = [
    ((), (), ()),
    ((), (3,), (3,)),
    ((2, 3), (3,), (2, 3)),
    ((4, 1), (3,), (4, 3)),
    ((8, 1, 6, 1), (7, 1, 5), (8, 7, 6, 5)),  # the NumPy docs example
    ((5, 4), (1,), (5, 4)),
    ((15, 3, 5), (15, 1, 5), (15, 3, 5)),
    ((2, 1), (1, 3), (2, 3)),  # outer
    ((0,), (1,), (0,)),
    ((0, 3), (3,), (0, 3)),
    ((1, 0), (5, 1), (5, 0)),
    ((0,), (), (0,)),
    ((1, 1, 1), (), (1, 1, 1)),
]


@pytest.mark.parametrize("a,b,expected", VALID)
def test_broadcast_shapes_valid(a, b, expected):
    assert rules.broadcast_shapes(a, b) == expected
    assert rules.broadcast_shapes(b, a) == expected
    assert rules.broadcast_shapes(a, b) == np.broadcast_shapes(a, b)


@pytest.mark.parametrize(
    "a,b,axis,sizes",
    [
        ((3,), (4,), -1, (3, 4)),
        ((2, 1), (8, 4, 3), -2, (2, 4)),  # docs/contracts.md (Diagnostics)
        ((0,), (2,), -1, (0, 2)),  # 0 is not 1
        ((2, 3), (3, 2), -2, (2, 3)),
        ((7, 2, 5), (7, 2, 6), -1, (5, 6)),
    ],
)
def test_broadcast_shapes_incompatible(a, b, axis, sizes):
    with pytest.raises(IncompatibleDims) as info:
        rules.broadcast_shapes(a, b)
    assert info.value.axis == axis
    assert info.value.sizes == sizes
    assert info.value.shapes == (a, b)
    assert info.value.level is None
    with pytest.raises(ValueError):
        np.broadcast_shapes(a, b)


def test_broadcast_shapes_many_and_none():
    assert rules.broadcast_shapes() == ()
    assert rules.broadcast_shapes((3,)) == (3,)
    assert rules.broadcast_shapes((4, 1), (3,), (2, 1, 1)) == (2, 4, 3)
    assert rules.broadcast_shapes((1,), (1, 1), ()) == (1, 1)
    with pytest.raises(IncompatibleDims) as info:
        rules.broadcast_shapes((4, 1), (3,), (2, 1))
    assert info.value.axis == -2
    assert info.value.sizes == (4, 1, 2)


def test_can_broadcast_to():
    assert rules.can_broadcast_to((3,), (2, 3))
    assert rules.can_broadcast_to((1, 3), (2, 3))
    assert rules.can_broadcast_to((), (2, 3))
    assert rules.can_broadcast_to((), ())
    assert rules.can_broadcast_to((1,), (0,))
    assert rules.can_broadcast_to((0,), (0,))
    assert not rules.can_broadcast_to((2, 3), (3,))  # would change the destination
    assert not rules.can_broadcast_to((1, 3, 4), (3, 4))  # docs/semantics.md (Assignment): an error
    assert not rules.can_broadcast_to((3,), (1,))
    assert not rules.can_broadcast_to((0,), (1,))
    assert not rules.can_broadcast_to((2,), (3,))


def test_numpy_broadcast_dims():
    assert rules.numpy_broadcast_dims((3,), (2, 3)) == (1,)
    assert rules.numpy_broadcast_dims((), (2, 3)) == ()
    assert rules.numpy_broadcast_dims((4, 1), (5, 4, 1)) == (1, 2)
    assert rules.numpy_broadcast_dims((2, 3), (2, 3)) == (0, 1)


# --------------------------------------------------------------------------
# XLA InDim broadcasting
# --------------------------------------------------------------------------


def test_xla_document_examples():
    # (2,3) + (3) with dims (1)
    assert rules.in_dim_broadcast((2, 3), (3,), [1], "xla")[0] == (2, 3)
    # 3x3 + 3: dims (1) and dims (0) both valid
    assert rules.in_dim_broadcast((3, 3), (3,), [1], "xla") == ((3, 3), (3, 3), (1, 3))
    assert rules.in_dim_broadcast((3, 3), (3,), [0], "xla") == ((3, 3), (3, 3), (3, 1))
    # 2x3 + 3 with dims (0) is invalid
    with pytest.raises(RuleError):
        rules.in_dim_broadcast((2, 3), (3,), [0], "xla")
    # 2x3x4 cuboid and 3x4 matrix with (1, 2)
    assert rules.in_dim_broadcast((2, 3, 4), (3, 4), [1, 2], "xla")[0] == (2, 3, 4)
    # MxNxPxQ with TxV at (0, 3)
    assert rules.in_dim_broadcast((2, 3, 4, 5), (2, 5), [0, 3], "xla")[0] == (2, 3, 4, 5)
    # scalars broadcast without broadcast_dimensions
    assert rules.in_dim_broadcast((2, 3), (), None, "xla")[0] == (2, 3)
    assert rules.in_dim_broadcast((), (2, 3), None, "xla") == ((2, 3), (1, 1), (2, 3))


def test_xla_degenerate_examples():
    for a, b, r in [
        ((2, 1), (2, 3), (2, 3)),
        ((1, 2, 5), (7, 2, 5), (7, 2, 5)),
        ((7, 2, 5), (7, 1, 5), (7, 2, 5)),
        ((2, 1), (1, 3), (2, 3)),  # outer operation
    ]:
        assert rules.in_dim_broadcast(a, b, None, "xla")[0] == r
    with pytest.raises(IncompatibleDims):
        rules.in_dim_broadcast((7, 2, 5), (7, 2, 6), None, "xla")


def test_xla_broadcast_composition():
    # a vector of 4 and a 1x2 matrix with dims (0) -> 4x2 (the document's example)
    result, lhs, rhs = rules.in_dim_broadcast((4,), (1, 2), [0], "xla")
    assert result == (4, 2)
    assert lhs == (4, 1) and rhs == (1, 2)
    # the same with the operands swapped
    assert rules.in_dim_broadcast((1, 2), (4,), [0], "xla") == ((4, 2), (1, 2), (4, 1))
    # a non-prefix case from docs/passes.md (bcast-make-explicit): 4 + 4x3 with dims [0]
    assert rules.in_dim_broadcast((4,), (4, 3), [0], "numpy")[0] == (4, 3)
    # a size-1 high dim takes the low operand's size
    assert rules.in_dim_broadcast((5,), (1, 3), [0], "xla")[0] == (5, 3)
    # zero-size dims
    assert rules.in_dim_broadcast((0,), (0, 3), [0], "xla")[0] == (0, 3)
    assert rules.in_dim_broadcast((1,), (0, 3), [0], "xla")[0] == (0, 3)


def test_xla_needs_broadcast_dimensions_for_different_ranks():
    with pytest.raises(RuleError) as info:
        rules.in_dim_broadcast((2, 3), (3,), None, "xla")
    assert "broadcast_dimensions" in info.value.message
    # numpy and tml infer the trailing alignment
    for semantics in ("numpy", "tml"):
        assert rules.in_dim_broadcast((2, 3), (3,), None, semantics) == ((2, 3), (2, 3), (1, 3))


def test_in_dim_broadcast_same_rank_dims():
    assert rules.in_dim_broadcast((2, 3), (2, 1), [0, 1], "xla")[0] == (2, 3)
    assert rules.in_dim_broadcast((2, 3), (2, 1), [], "xla")[0] == (2, 3)
    with pytest.raises(RuleError):
        rules.in_dim_broadcast((2, 3), (2, 1), [1, 0], "xla")
    with pytest.raises(RuleError):
        rules.in_dim_broadcast((2, 3), (2, 1), [0], "numpy")


@pytest.mark.parametrize(
    "low,high,dims,fragment",
    [
        ((3,), (2, 3), [0, 1], "has 2 entries but the lower-rank operand has rank 1"),
        ((3,), (2, 3), [], "has 0 entries"),
        ((3,), (2, 3), [2], "out of range"),
        ((3,), (2, 3), [-1], "out of range"),
        ((2, 3), (2, 3, 4), [1, 0], "strictly increasing"),
        ((2, 3), (2, 3, 4), [1, 1], "strictly increasing"),
        ((3,), (2, 4), [1], "sizes must be equal or one of them 1"),
    ],
)
def test_expand_with_broadcast_dimensions_errors(low, high, dims, fragment):
    with pytest.raises(RuleError) as info:
        rules.expand_with_broadcast_dimensions(low, high, dims)
    assert fragment in info.value.message


def test_expand_with_broadcast_dimensions():
    assert rules.expand_with_broadcast_dimensions((3,), (2, 3), [1]) == (1, 3)
    assert rules.expand_with_broadcast_dimensions((2, 5), (2, 3, 4, 5), [0, 3]) == (2, 1, 1, 5)
    assert rules.expand_with_broadcast_dimensions((), (2, 3), []) == (1, 1)
    assert rules.expand_with_broadcast_dimensions((1,), (2, 3), [0]) == (1, 1)
    assert rules.expand_with_broadcast_dimensions((4,), (1, 3), [0]) == (4, 1)


def test_check_same_rank_or_scalar():
    rules.check_same_rank_or_scalar([(2, 3), (1, 3), ()])
    rules.check_same_rank_or_scalar([(), ()])
    rules.check_same_rank_or_scalar([])
    with pytest.raises(RuleError):
        rules.check_same_rank_or_scalar([(2, 3), (3,)])
    with pytest.raises(RuleError):
        rules.check_same_rank_or_scalar([(1,), (), (1, 1)])


# --------------------------------------------------------------------------
# broadcast_in_dim: StableHLO constraints and check order
# --------------------------------------------------------------------------


def test_broadcast_in_dim_valid():
    rules.check_broadcast_in_dim((3,), (2, 3), [1], "xla")
    rules.check_broadcast_in_dim((1, 3), (2, 3), [0, 1], "xla")
    rules.check_broadcast_in_dim((), (2, 3), [], "xla")
    rules.check_broadcast_in_dim((), (), [], "xla")
    rules.check_broadcast_in_dim((1,), (0,), [0], "xla")
    rules.check_broadcast_in_dim((0,), (4, 0), [1], "xla")
    # StableHLO allows transposing broadcasts (docs/stablehlo.md) outside xla
    rules.check_broadcast_in_dim((1, 3), (2, 3, 2), [2, 1], "numpy")
    rules.check_broadcast_in_dim((1, 3), (2, 3, 2), [2, 1], "tml")


def _message(operand, result, dims, semantics="numpy") -> str:
    with pytest.raises(RuleError) as info:
        rules.check_broadcast_in_dim(operand, result, dims, semantics)
    return info.value.message


def test_broadcast_in_dim_messages():
    assert _message((3,), (3, 4), [0, 1]) == (
        "broadcast_dimensions size (2) does not match operand rank (1)"
    )
    assert _message((3, 3), (3, 3), [1, 1]) == "broadcast_dimensions should not have duplicates"
    assert _message((3,), (3, 4), [2]) == (
        "broadcast_dimensions contains invalid value 2 for result with rank 2"
    )
    assert _message((3,), (3, 4), [-1]) == (
        "broadcast_dimensions contains invalid value -1 for result with rank 2"
    )
    # the example of docs/semantics.md (broadcast_in_dim)
    assert _message((3,), (2, 4), [1]) == (
        "size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (4)"
    )
    assert _message((0,), (1,), [0]) == (
        "size of operand dimension 0 (0) is not equal to 1 or size of result dimension 0 (1)"
    )
    assert "strictly increasing" in _message((1, 3), (2, 3, 2), [2, 1], "xla")


def test_broadcast_in_dim_check_order():
    # size is checked before duplicates: both violated -> the size message
    assert "does not match operand rank" in _message((3,), (3, 3), [0, 0])
    # duplicates before range: [5, 5] is both duplicated and out of range
    assert _message((3, 3), (3, 3), [5, 5]) == "broadcast_dimensions should not have duplicates"
    # duplicates before sizes
    assert _message((2, 4), (3, 3), [0, 0]) == "broadcast_dimensions should not have duplicates"
    # per dimension: range then size, dimension by dimension in order
    assert "invalid value 7" in _message((3, 5), (3, 4), [7, 1])
    assert "size of operand dimension 0 (5)" in _message((5, 3), (3, 4), [0, 7])
    assert "invalid value 7" in _message((3, 5), (3, 4), [0, 7])
    # the xla ordering check comes last: sizes fail first
    assert "size of operand dimension 1" in _message((3, 5), (2, 3), [1, 0], "xla")
    assert "strictly increasing" in _message((3, 2), (2, 3), [1, 0], "xla")


# --------------------------------------------------------------------------
# transpose
# --------------------------------------------------------------------------


def test_check_transpose():
    assert rules.check_transpose((2, 3, 4), [2, 0, 1]) == (4, 2, 3)
    assert rules.check_transpose((), []) == ()
    assert rules.check_transpose((0, 5), [1, 0]) == (5, 0)
    for bad in ([0], [0, 0], [0, 2], [1, 2], [-1, 0]):
        with pytest.raises(RuleError):
            rules.check_transpose((2, 3), bad)


# --------------------------------------------------------------------------
# Nested (TML) shapes
# --------------------------------------------------------------------------


def test_flat_shape_and_is_scalar():
    assert rules.flat_shape(((3,), (3, 3))) == (3, 3, 3)
    assert rules.flat_shape(((),)) == ()
    assert rules.flat_shape(((), (2,))) == (2,)
    assert rules.is_scalar(((),))
    assert not rules.is_scalar(((1,),))
    assert not rules.is_scalar(((), ()))


def test_broadcast_levels():
    assert rules.broadcast_levels(((3,), (3, 3)), ((3,), (3, 3))) == ((3,), (3, 3))
    assert rules.broadcast_levels(((3,), (1, 3)), ((1,), (3, 1))) == ((3,), (3, 3))
    # fewer levels: a scalar at the inner level
    assert rules.broadcast_levels(((3,), (2,)), ((3,),)) == ((3,), (2,))
    assert rules.broadcast_levels(((),), ((4,), (2, 2))) == ((4,), (2, 2))
    assert rules.broadcast_levels(((2, 3),), ((3,),)) == ((2, 3),)
    # 3x3x3 and 3x(3x3) are different: the levels do not mix
    assert rules.broadcast_levels(((3,), (3, 3)), ((3, 3, 3),)) != ((3, 3, 3),)


def test_broadcast_levels_incompatible_reports_the_level():
    with pytest.raises(IncompatibleDims) as info:
        rules.broadcast_levels(((3,), (2,)), ((3,), (4,)))
    assert info.value.level == 1
    assert info.value.sizes == (2, 4)
    with pytest.raises(IncompatibleDims) as info:
        rules.broadcast_levels(((3,), (2,)), ((4,), (2,)))
    assert info.value.level == 0
    with pytest.raises(IncompatibleDims) as info:  # not nested: no level
        rules.broadcast_levels(((3,),), ((4,),))
    assert info.value.level is None
    with pytest.raises(IncompatibleDims):  # inner 3x(3x3) vs 3x3x3: (3, 3) vs () fine, outer 3 vs 3x3x3
        rules.broadcast_levels(((2,), (3, 3)), ((3, 3, 3),))


def test_flat_broadcast_shape_and_dims():
    operand, result = ((3,), (1,)), ((2, 3), (4, 5))
    assert rules.flat_broadcast_shape(operand, result) == (1, 3, 1, 1)
    assert rules.flat_broadcast_dims(operand, result) == (1, 3)
    operand = ((3,),)
    assert rules.flat_broadcast_shape(operand, result) == (1, 3, 1, 1)
    assert rules.flat_broadcast_dims(operand, result) == (1,)
    assert rules.flat_broadcast_shape(((),), result) == (1, 1, 1, 1)
    assert rules.flat_broadcast_dims(((),), result) == ()
    # the flat-shape broadcast is exactly the per-level broadcast
    x = np.arange(3).reshape(3, 1)
    flat = np.broadcast_to(x.reshape(rules.flat_broadcast_shape(((3,), (1,)), ((3,), (2,)))), (3, 2))
    assert flat.tolist() == [[0, 0], [1, 1], [2, 2]]


def test_check_strict_levels():
    a = ((3,), (2,))
    assert rules.check_strict_levels((a, a), "relational") == a
    assert rules.check_strict_levels((((),), a), "relational") == a
    assert rules.check_strict_levels((a, ((),)), "logical") == a
    assert rules.check_strict_levels((((),), ((),)), "bitwise") == ((),)
    with pytest.raises(RuleError) as info:
        rules.check_strict_levels((((3,),), ((1,),)), "relational")
    assert "relational" in info.value.message
    with pytest.raises(RuleError):  # same flat shape, different nesting
        rules.check_strict_levels((((3, 2),), ((3,), (2,))), "logical")
    with pytest.raises(RuleError):  # a rank-1 size-1 tensor is not a scalar
        rules.check_strict_levels((((1,),), ((3,),)), "bitwise")


def test_check_assign_levels():
    rules.check_assign_levels(((2, 3, 4),), ((1, 3, 4),))
    rules.check_assign_levels(((3, 4),), ((4,),))
    rules.check_assign_levels(((3, 4),), ((),))
    rules.check_assign_levels(((3,), (2,)), ((3,),))
    rules.check_assign_levels(((3,), (2,)), ((1,), (1,)))
    rules.check_assign_levels(((0, 4),), ((1, 4),))
    with pytest.raises(RuleError) as info:  # docs/semantics.md (Assignment): (1,3,4) into (3,4) is an error
        rules.check_assign_levels(((3, 4),), ((1, 3, 4),))
    assert "rank" in info.value.message
    with pytest.raises(RuleError):
        rules.check_assign_levels(((3, 1),), ((3, 4),))  # would change the destination
    with pytest.raises(RuleError) as info:
        rules.check_assign_levels(((3,), (2,)), ((3,), (3,)))
    assert "nesting level 1" in info.value.message
    with pytest.raises(RuleError):
        rules.check_assign_levels(((3,),), ((3,), (2,)))  # deeper source


def test_narrow_levels():
    assert rules.narrow_levels(((1, 5, 1),)) == ((5,),)
    assert rules.narrow_levels(((1, 1),)) == ((),)
    assert rules.narrow_levels(((),)) == ((),)
    assert rules.narrow_levels(((1,), (3, 3))) == ((3, 3),)
    assert rules.narrow_levels(((1, 2), (1, 3))) == ((2,), (1, 3))  # inner level untouched
    assert rules.narrow_levels(((0, 1),)) == ((0,),)


# --------------------------------------------------------------------------
# plan_indices: extract/assign indices and index-access broadcasting
# --------------------------------------------------------------------------


def test_plan_indices_in_bounds():
    plan = rules.plan_indices(((3, 2),), [1, 0], "numpy", "extract")
    assert plan.result == ((),)
    assert plan.consumed == ((0, 0), (1, 1))
    plan = rules.plan_indices(((2, 3, 4),), [1], "numpy", "assign")
    assert plan.result == ((3, 4),)
    plan = rules.plan_indices(((3, 2),), [None, 0], "xla", "extract")
    assert plan.result == ((),)
    assert rules.plan_indices(((3, 2),), [], "numpy", "extract").result == ((3, 2),)


def test_plan_indices_index_access_broadcasting():
    # docs/semantics.md (Index-access broadcasting): extract %t[999, 1] from 1x2 under tml
    assert rules.plan_indices(((1, 2),), [999, 1], "tml", "extract").result == ((),)
    with pytest.raises(RuleError) as info:
        rules.plan_indices(((1, 2),), [999, 1], "numpy", "extract")
    assert info.value.notes and "tml" in info.value.notes[0]
    # surplus indices are ignored under tml, an error otherwise
    assert rules.plan_indices(((3,),), [1, 5, 7], "tml", "extract").result == ((),)
    with pytest.raises(RuleError):
        rules.plan_indices(((3,),), [1, 5], "numpy", "extract")
    # a rank-0 tensor accepts any number of indices under tml
    assert rules.plan_indices(((),), [4, 2], "tml", "extract").result == ((),)
    # dims larger than 1 are bounds-checked even under tml
    with pytest.raises(RuleError):
        rules.plan_indices(((3,),), [3], "tml", "extract")
    with pytest.raises(RuleError):
        rules.plan_indices(((3,),), [-1], "tml", "extract")
    # a size-0 dim has no element to read
    with pytest.raises(RuleError):
        rules.plan_indices(((0,),), [0], "tml", "extract")


def test_plan_indices_nested():
    levels = ((3,), (2, 4))
    assert rules.plan_indices(levels, [1], "tml", "extract").result == ((2, 4),)
    assert rules.plan_indices(levels, [1, 0], "tml", "extract").result == ((4,),)
    assert rules.plan_indices(levels, [1, 0, 3], "tml", "extract").result == ((),)


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


def test_kind_and_bit_width():
    assert [rules.kind(t) for t in ("i1", "i8", "ui16", "f16")] == [
        "bool", "signed", "unsigned", "float"]  # fmt: skip
    assert [rules.bit_width(t) for t in ("i1", "i8", "ui16", "i32", "f64")] == [1, 8, 16, 32, 64]


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ("i8", "i32", "i32"),
        ("i32", "i8", "i32"),
        ("f16", "f32", "f32"),
        ("f32", "f64", "f64"),
        ("ui8", "i8", "i16"),
        ("i8", "ui8", "i16"),
        ("ui8", "i16", "i16"),
        ("ui16", "i8", "i32"),
        ("ui32", "i64", "i64"),
        ("ui32", "i32", "i64"),
        ("ui8", "ui32", "ui32"),
        ("i1", "i1", "i1"),
        ("i64", "i64", "i64"),
        ("i4", "i8", "i8"),
        ("i4", "ui4", "i8"),
        ("ui4", "ui8", "ui8"),
        ("ui4", "i8", "i8"),
        ("ui8", "i4", "i16"),
        ("ui4", "ui4", "ui4"),
    ],
)
def test_promote_types(a, b, expected):
    assert rules.promote_types(a, b) == expected


def test_promotion_agrees_with_numpy_within_kinds():
    names = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
             "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
             "f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
             "bf16": NUMPY_DTYPES["bf16"], "i4": NUMPY_DTYPES["i4"], "ui4": NUMPY_DTYPES["ui4"],
             "complex<f32>": np.complex64, "complex<f64>": np.complex128}  # fmt: skip
    for a in rules.ELEMENT_TYPES:
        for b in rules.ELEMENT_TYPES:
            if {a, b} == set(rules.HALF_FLOATS):
                continue  # NumPy does not promote ml_dtypes' bfloat16 with float16 (JAX: f32, as bcast)
            try:
                got = rules.promote_types(a, b)
            except RuleError:
                # only a pair of two kinds may be refused (test_promote_types_errors)
                assert rules.kind(a) != rules.kind(b), (a, b)
                continue
            if {a, b} & set(rules.NIBBLES):
                continue  # NumPy promotes some 4-bit pairs only (test_4_bit_promotion_is_the_one_integer_rule)
            if "bf16" in (a, b) and "complex" in (rules.kind(a), rules.kind(b)):
                continue  # NumPy does not promote ml_dtypes' bfloat16 with complex (bcast: complex<f32>, as JAX)
            assert np.dtype(names[got]) == np.result_type(names[a], names[b]), (a, b)


def test_complex_promotion_is_the_array_api_table():
    """A float with a complex type gives the complex type whose parts hold
    both (the Array API's table; docs/semantics.md, "Complex numbers");
    complex with an integer or a boolean does not promote."""
    c64, c128 = "complex<f32>", "complex<f64>"
    table = {("f32", c64): c64, ("f64", c64): c128, ("f32", c128): c128, ("f64", c128): c128,
             ("f16", c64): c64, ("bf16", c64): c64, (c64, c128): c128, (c64, c64): c64}
    for (a, b), want in table.items():
        assert rules.promote_types(a, b) == want and rules.promote_types(b, a) == want, (a, b)
    for other in ("i1", "i8", "ui64", "i4"):
        with pytest.raises(RuleError, match=rf"element types {other} and complex<f32> are of different kinds"):
            rules.promote_types(other, c64)
    assert rules.assignable("f32", c64) and not rules.assignable(c64, "f32") and not rules.assignable("f64", c64)


def test_4_bit_promotion_is_the_one_integer_rule():
    """i4/ui4 promote by the integer rule of every width (the smallest type
    holding both): NumPy (ml_dtypes) agrees on every pair it promotes and
    refuses the signed 4-bit type with any unsigned one (bcast: the next
    signed type, as for ``ui8 + i8``); JAX refuses every implicit 4-bit
    promotion (docs/semantics.md, "i4 and ui4")."""
    integers = [t for t in rules.ELEMENT_TYPES if rules.kind(t) in ("signed", "unsigned")]
    refused_by_numpy = []
    for a in ("i4", "ui4"):
        for b in integers:
            got = rules.promote_types(a, b) if (a, b) != ("i4", "ui64") else None
            try:
                want = np.result_type(NUMPY_DTYPES[a], NUMPY_DTYPES[b])
            except TypeError:  # numpy.exceptions.DTypePromotionError
                refused_by_numpy.append((a, b))
                continue
            assert np.dtype(NUMPY_DTYPES[got]) == want, (a, b)
    assert refused_by_numpy == [("i4", t) for t in ("ui8", "ui16", "ui32", "ui64", "ui4")] + [("ui4", "i4")]


@pytest.mark.parametrize(
    "a,b",
    [("ui64", "i64"), ("i8", "ui64"), ("i32", "f32"), ("f16", "i8"), ("i1", "i32"),
     ("ui8", "i1"), ("i1", "f64"), ("ui32", "f32"), ("i4", "f16"), ("ui4", "i1")],
)
def test_promote_types_errors(a, b):
    with pytest.raises(RuleError) as info:
        rules.promote_types(a, b)
    assert "convert" in " ".join([info.value.message] + info.value.notes)


def test_promote_types_is_symmetric_and_total_on_kinds():
    for a in rules.ELEMENT_TYPES:
        for b in rules.ELEMENT_TYPES:
            try:
                ab = rules.promote_types(a, b)
            except RuleError:
                with pytest.raises(RuleError):
                    rules.promote_types(b, a)
                continue
            assert rules.promote_types(b, a) == ab
            assert ab in rules.ELEMENT_TYPES
            if {a, b} == set(rules.HALF_FLOATS):
                assert ab == "f32"  # neither 16-bit float holds the other
            elif rules.kind(a) == rules.kind(b):
                assert ab in (a, b)


def test_promote_all_and_assignable():
    assert rules.promote_all(["i8"]) == "i8"
    assert rules.promote_all(["i8", "ui8", "i32"]) == "i32"
    assert rules.promote_all(["f16", "f16", "f64"]) == "f64"
    with pytest.raises(RuleError):
        rules.promote_all(["i8", "i8", "f32"])
    assert rules.assignable("i8", "i32")
    assert rules.assignable("ui8", "i16")
    assert rules.assignable("f16", "f32")
    assert rules.assignable("i32", "i32")
    assert not rules.assignable("i32", "i8")  # narrowing
    assert not rules.assignable("f64", "f32")
    assert not rules.assignable("i32", "f32")  # different kinds
    assert not rules.assignable("ui8", "i8")
    assert not rules.assignable("i1", "i8")


# --------------------------------------------------------------------------
# plan_indices: the normalised indices every user takes (issue 8)
# --------------------------------------------------------------------------


def test_plan_indices_normalised_indices():
    # literal on a size-1 dim reads element 0; surplus indices dropped (tml)
    assert rules.plan_indices(((1, 2),), [999, 1, 5], "tml", "extract").indices == (0, 1)
    # a dynamic index on a size-1 dim is 0 under tml, checked at run time otherwise
    assert rules.plan_indices(((1, 3),), [None, None], "tml", "extract").indices == (0, None)
    assert rules.plan_indices(((1, 3),), [None, 2], "numpy", "extract").indices == (None, 2)
    assert rules.plan_indices(((1, 3),), [0], "numpy", "extract").indices == (0,)
    # nested: the flat dims, outer levels first
    assert rules.plan_indices(((3,), (1, 4)), [2, 7], "tml", "extract").indices == (2, 0)


def test_runtime_index():
    assert rules.runtime_index(7, 1, True, 0) == 0
    assert rules.runtime_index(2, 3, False, 1) == 2
    with pytest.raises(RuleError, match=r"index 1 \(3\) is out of bounds for dimension 1 of size 3"):
        rules.runtime_index(3, 3, True, 1)
    with pytest.raises(RuleError, match="out of bounds"):
        rules.runtime_index(5, 1, False, 0)
    with pytest.raises(RuleError, match=r"index 0 is negative \(-1\)"):  # as a literal -1
        rules.runtime_index(-1, 3, False, 0)
    assert rules.runtime_index(-5, 1, True, 0) == 0  # any run-time value under IAB


# --------------------------------------------------------------------------
# Shape algebra of broadcasts, transposes and reshapes
# --------------------------------------------------------------------------


def test_is_sorted_and_identity():
    assert rules.is_sorted([]) and rules.is_sorted([0, 2, 5])
    assert not rules.is_sorted([1, 1]) and not rules.is_sorted([2, 0])
    assert rules.is_identity([0, 1, 2], 3) and rules.is_identity([], 0)
    assert not rules.is_identity([0, 1], 3) and not rules.is_identity([1, 0], 2)


def test_inverse_permutation():
    assert rules.inverse_permutation([1, 2, 0]) == [2, 0, 1]
    x = np.arange(24).reshape(2, 3, 4)
    perm = [2, 0, 1]
    assert np.array_equal(
        np.transpose(np.transpose(x, perm), rules.inverse_permutation(perm)), x
    )


def test_split_transposing_broadcast():
    perm, shape, dims = rules.split_transposing_broadcast((1, 3), [2, 1])
    assert (perm, shape, dims) == ([1, 0], (3, 1), [1, 2])
    # the split computes the same as the transposing broadcast itself
    x = np.arange(6).reshape(2, 3)
    perm, shape, dims = rules.split_transposing_broadcast(x.shape, [2, 0])
    split = np.transpose(x, perm).reshape(3, 1, 2)
    direct = np.transpose(x, [1, 0]).reshape(3, 1, 2)  # operand dim 0 -> result 2
    assert shape == (3, 2) and dims == [0, 2]
    assert np.array_equal(split, direct)


def test_is_permuting_broadcast():
    assert rules.is_permuting_broadcast((2, 3), (3, 2), [1, 0])
    assert not rules.is_permuting_broadcast((1, 3), (2, 3, 2), [2, 1])
    assert not rules.is_permuting_broadcast((1, 3), (3, 2), [1, 0])


def test_unit_dim_embedding():
    assert rules.unit_dim_embedding((3,), (1, 3)) == [1]
    assert rules.unit_dim_embedding((4, 3), (4, 1, 3, 1)) == [0, 2]
    assert rules.unit_dim_embedding((), (1, 1)) == []
    assert rules.unit_dim_embedding((4, 3), (12,)) is None
    assert rules.unit_dim_embedding((4, 3), (3, 4)) is None


def test_reshape_segments():
    assert rules.reshape_segments((4, 3, 5), (4, 3, 1, 5)) == [([0], [0]), ([1], [1]), ([2], [3])]
    assert rules.reshape_segments((2, 3, 4), (6, 4)) == [([0, 1], [0]), ([2], [1])]
    assert rules.reshape_segments((6,), (4,)) is None
    assert rules.reshape_segments((0, 3), (3, 0)) is None


def test_reshape_of_broadcast_dims():
    # reshape(bcast(x : 3, [1]) : 4x3x5) : 4x3x1x5 -> bcast(x, [1])
    assert rules.reshape_of_broadcast_dims((3,), [1], (4, 3, 5), (4, 3, 1, 5)) == [1]
    # merging expanded dims is free; splitting the operand's dim is not
    assert rules.reshape_of_broadcast_dims((3,), [2], (4, 5, 3), (20, 3)) == [1]
    assert rules.reshape_of_broadcast_dims((6,), [1], (4, 6), (4, 2, 3)) is None
    # unsorted dims: not handled
    assert rules.reshape_of_broadcast_dims((2, 3), [1, 0], (3, 2), (6,)) is None


UNIT_SHAPES = [s for rank in range(4) for s in itertools.product((1, 2, 3), repeat=rank)]


@pytest.mark.parametrize("shape", UNIT_SHAPES, ids=str)
def test_a_transpose_of_unit_dims_is_a_reshape(shape) -> None:
    """``moves_only_unit_dims`` says exactly when NumPy's transpose equals a
    reshape to the transposed shape (the elements stay in memory order)."""
    x = np.arange(int(np.prod(shape))).reshape(shape)
    for perm in itertools.permutations(range(len(shape))):
        moved = np.transpose(x, perm)
        same = np.array_equal(moved, x.reshape(moved.shape))
        assert rules.moves_only_unit_dims(shape, perm) == same, (shape, perm)


@pytest.mark.parametrize("shape", UNIT_SHAPES, ids=str)
def test_a_unit_dim_reshape_composes_into_a_broadcast(shape) -> None:
    """``unit_dim_reshape_permutation`` of a reshape that moves size-1 dims
    maps each source dim to a dim of the reshaped value: broadcasting the
    source through that map (any size-1 dim may go anywhere) gives what
    broadcasting the reshaped value gives."""
    x = np.arange(int(np.prod(shape))).reshape(shape)
    for perm in itertools.permutations(range(len(shape))):
        after = tuple(shape[p] for p in perm)
        where = rules.unit_dim_reshape_permutation(shape, after)
        keeps_order = [s for s in shape if s != 1] == [s for s in after if s != 1]
        assert (where is not None) == keeps_order, (shape, perm)
        if where is None:
            continue
        assert sorted(where) == list(range(len(shape)))
        reshaped = x.reshape(after)
        assert all(shape[k] == after[m] for k, m in enumerate(where))
        assert np.array_equal(np.moveaxis(x, range(len(shape)), where), reshaped)
