"""Op builders (issue 8): ``bc.AddOp(lhs, rhs)`` and friends build the op the
parser builds from its text (result types inferred with the shared rules
where they can be); folds live on the ops, the evaluation hook in
``bcast.ir.evaluate``."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from bcast.ir import ops as bc
from bcast.ir.evaluate import evaluate
from bcast.ir.fusion import FusionOp, YieldOp, is_explicit
from bcast.ir.parser import make_context
from bcast.ir.types import dense_i64, make_type
from bcast.tools import driver


def t(shape, element="f32"):
    return make_type((tuple(shape),), element)


@pytest.fixture
def args():
    block = Block(arg_types=[t((4, 3)), t((3,)), IndexType(), t((4,), "i8"), t((4,), "i32")])
    return block.args


def test_builders_infer_result_types(args) -> None:
    x, row, i, a8, a32 = args
    assert bc.AddOp(x, row).result.type == t((4, 3))
    assert bc.AddOp(row, x, None, [1]).result.type == t((4, 3))
    assert bc.AddOp(a8, a32).result.type == t((4,), "i32")
    compare = bc.CompareOp("GT", x, row)
    assert compare.result.type == t((4, 3), "i1")
    assert compare.comparison_direction.data == bc.ComparisonDirection.GT
    assert bc.SelectOp(compare, x, row).result.type == t((4, 3))
    assert bc.ExponentialOp(x).result.type == x.type
    assert bc.TransposeOp(x, [1, 0]).result.type == t((3, 4))
    assert bc.NarrowOp(bc.ReshapeOp(row, t((1, 3, 1)))).result.type == t((3,))
    assert bc.AssignOp(x, [i], row).result.type == x.type
    extract = bc.ExtractOp(x, [1, i], t(()))
    assert extract.indices() == [1, None] and list(extract.index_values) == [i]


def test_builders_make_what_the_parser_makes() -> None:
    text = """func.func @main(%x: tensor<4x3xf32>, %r: tensor<3xf32>, %i: index) -> tensor<4x3xf32> {
  %0 = bcast.broadcast_in_dim %r, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.compare LT, %x, %0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
  %2 = bcast.select %1, %x, %0 : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = bcast.assign %2[%i], %r : (tensor<4x3xf32>, index, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %3 : tensor<4x3xf32>
}
"""
    module = driver.load(text, "test.mlir", ctx=make_context())
    parsed = [op for op in module.walk() if op.name.startswith("bcast.")]
    x, r, i = parsed[0].parent_block().args
    built = [bc.BroadcastInDimOp(r, [1], t((4, 3)))]
    built.append(bc.CompareOp("LT", x, built[0]))
    built.append(bc.SelectOp(built[1], x, built[0]))
    built.append(bc.AssignOp(built[2], [i], r))
    for a, b in zip(parsed, built):
        assert (a.name, a.result.type, a.properties, a.attributes) == (
            b.name, b.result.type, b.properties, b.attributes
        )


def test_folds_and_evaluation_hook(args) -> None:
    x, row, _, a8, a32 = args
    assert bc.TransposeOp(x, [0, 1]).fold() == (x,)
    assert bc.TransposeOp(x, [1, 0]).fold() is None
    assert bc.BroadcastInDimOp(row, [0], row.type).fold() == (row,)
    assert bc.BroadcastInDimOp(row, [1], x.type).fold() is None
    assert bc.ReshapeOp(x, x.type).fold() == (x,)
    assert bc.ConvertOp(x, x.type).fold() == (x,)
    add = bc.AddOp(a8, a32)
    value = evaluate(add, np.array([1, 2, 3, 127], np.int8), np.array([1, 1, 1, 1], np.int32))
    assert value.dtype == np.int32 and list(value) == [2, 3, 4, 128]
    constant = bc.ConstantOp(np.array([1.5, 2.5, 3.5], np.float32), row.type)
    assert constant.numpy_value().tolist() == [1.5, 2.5, 3.5]


def test_is_explicit_is_one_definition(args) -> None:
    x, row, _, a8, a32 = args
    assert not is_explicit(bc.AddOp(x, row))
    assert not is_explicit(bc.AddOp(a8, a32))
    assert is_explicit(bc.AddOp(x, x))
    assert is_explicit(bc.ConvertOp(a8, a32.type))
    assert not is_explicit(bc.BroadcastInDimOp(row, [1], x.type))
    body = Block(arg_types=[x.type])
    body.add_op(neg := bc.NegateOp(body.args[0]))
    body.add_op(YieldOp([neg.result]))
    from xdsl.ir import Region

    FusionOp([x], [x.type], Region(body)).verify_()



@pytest.mark.parametrize("shape, why", [
    ((2**63, 1), "dimension size 9223372036854775808 does not fit in int64"),
    ((2**32, 2**32), "18446744073709551616 elements do not fit in int64"),
])
def test_built_types_whose_sizes_do_not_fit_int64_are_rejected_at_the_op(shape, why) -> None:
    """IR built in Python (as from_jax builds it) never meets the parser's
    check of a type: the verifiers reject a size beyond int64 at the op
    using the type (a bcast op, a StableHLO op, a function's signature)."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import ModuleOp, TensorType, f32
    from xdsl.ir import Region

    from bcast.ir import stablehlo as hlo

    big = TensorType(f32, shape)
    for build, where in ((bc.BroadcastInDimOp, "'bcast.broadcast_in_dim' op result: "),
                         (hlo.BroadcastInDimOp, "'stablehlo.broadcast_in_dim' op result: "),
                         (None, "'func.func' op argument 0: ")):
        arg = big if build is None else t((1,))
        block = Block(arg_types=[arg])
        ops = [] if build is None else [build(block.args[0], [1], big)]
        block.add_ops([*ops, func.ReturnOp()])
        module = ModuleOp([func.FuncOp("main", ((arg,), ()), Region(block))])
        with pytest.raises(driver.InputError) as info:
            driver.verify(module)
        [report] = info.value.reports
        assert report.message.startswith(where) and why in report.message, report.message


def test_invalid_stablehlo_slice_prints_every_list() -> None:
    """A slice whose index lists differ in length (the verifier rejects it)
    still prints all of them, for a diagnostic or a debugger, rather than a
    range list cut to the shortest."""
    from bcast.ir import stablehlo as shlo

    (x,) = Block(arg_types=[t((4, 3))]).args
    op = shlo.SliceOp(x, [1, 0], [3, 3], [1, 1])
    assert " [1:3, 0:3] : " in str(op)
    op.properties["start_indices"] = dense_i64([1])
    assert "[start_indices: [1], limit_indices: [3, 3], strides: [1, 1]]" in str(op)


def test_equal_dims_share_one_attribute(args) -> None:
    """Builders keep one ``array<i64: ...>`` per distinct list (attributes are
    immutable; building one checks it again, a tenth of make-explicit)."""
    x, row, *_ = args
    a = bc.BroadcastInDimOp(row, [1], x.type)
    b = bc.BroadcastInDimOp(row, (np.int64(1),), x.type)
    assert a.properties["broadcast_dimensions"] is b.properties["broadcast_dimensions"]
    assert list(b.properties["broadcast_dimensions"].get_values()) == [1]
    assert bc.BroadcastInDimOp(x, [0, 1], x.type).properties["broadcast_dimensions"] is not (
        a.properties["broadcast_dimensions"])


def test_verify_keeps_inferred_types_per_question_and_raises_each_failure() -> None:
    """Verification asks the same type question for every op of the same
    types: the answer is kept (per op class, operand types, dims and
    semantics); a failure is raised again, never remembered as an answer."""
    from bcast.ir.ops import _inferred

    body = """func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %a = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %b = bcast.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<2x3xf64>
  func.return %b : tensor<2x3xf64>
}
"""
    hits = _inferred.cache_info().hits
    driver.load(body, "t.mlir", "numpy")  # numpy promotes f32 with f64
    assert _inferred.cache_info().hits > hits
    for _ in range(2):  # the same types under xla: an error, each time
        with pytest.raises(driver.InputError, match="different element types under xla"):
            driver.load(body, "t.mlir", "xla")


def test_bcast_and_stablehlo_twins_share_one_declaration() -> None:
    """``pad``, ``slice`` and ``concatenate`` are declared once (fields,
    syntax, accessors, builder: ``bc.*Family``); each dialect's op adds only
    its name, traits and verifier, so the two build and print alike."""
    from bcast.ir import stablehlo as shlo

    x, v, y = Block(arg_types=[t((4, 3)), t(()), t((2, 3))]).args
    twins = [
        (bc.PadFamily, bc.PadOp, shlo.PadOp, (x, v, [1, 0], [2, -1], [0, 1])),
        (bc.SliceFamily, bc.SliceOp, shlo.SliceOp, (x, [1, 0], [3, 3], [1, 2])),
        (bc.ConcatenateFamily, bc.ConcatenateOp, shlo.ConcatenateOp, ([x, y], 0)),
        (bc.IotaFamily, bc.IotaOp, shlo.IotaOp, (1, t((4, 3), "i32"))),
    ]
    for family, ours, theirs, args in twins:
        assert all(issubclass(op, family) and op.__init__ is family.__init__ for op in (ours, theirs))
        a, b = ours.get_irdl_definition(), theirs.get_irdl_definition()
        assert (a.operands, a.results, a.properties, a.assembly_format) == (
            b.operands, b.results, b.properties, b.assembly_format)
        built = [op(*args) for op in (ours, theirs)]
        assert built[0].result.type == built[1].result.type
        assert str(built[0]).replace("bcast.", "stablehlo.") == str(built[1])
    assert shlo.SliceOp(x, [1, 0], [3, 3]).result.type == t((2, 3))  # strides default to 1, as for bcast


def test_twins_that_differ_share_what_is_the_same() -> None:
    """``dot_general``, ``dynamic_slice`` and the size ops differ in a field
    or in syntax; the family (``bc.*Family``) declares the rest once: both
    ops have its fields with one constraint each, in one order, and build
    alike through its builder where it has one."""
    from xdsl.dialects.builtin import TensorType

    from bcast.ir import stablehlo as shlo
    from bcast.ir.rules import DotDims

    def fields(op: type) -> dict[str, object]:
        d = op.get_irdl_definition()
        return {**dict(d.operands), **dict(d.results), **d.properties}

    x, w, i, n = Block(arg_types=[t((2, 4, 8)), t((2, 8, 5)), t((), "i32"), IndexType()]).args
    dims = DotDims((0,), (0,), (2,), (1,))
    twins = [
        (bc.DotGeneralFamily, bc.DotGeneralOp, shlo.DotGeneralOp, (x, w, dims)),
        (bc.DynamicSliceFamily, bc.DynamicSliceOp, shlo.DynamicSliceOp, (x, [i, i, i], [1, 2, 3])),
        (bc.SetDimensionSizeFamily, bc.SetDimensionSizeOp, shlo.SetDimensionSizeOp, None),
        (bc.DynamicIotaFamily, bc.DynamicIotaOp, shlo.DynamicIotaOp, None),
        (bc.DynamicBroadcastInDimFamily, bc.DynamicBroadcastInDimOp, shlo.DynamicBroadcastInDimOp, None),
    ]
    typed = ("start_indices", "size")  # the families' type parameters
    for family, ours, theirs, args in twins:
        assert issubclass(ours, family) and issubclass(theirs, family)
        a, b = fields(ours), fields(theirs)
        declared = [name for name in a if hasattr(family, name)]
        assert declared == [name for name in b if hasattr(family, name)], family
        assert all(a[name] == b[name] for name in declared if name not in typed), family
        if args is not None:
            assert ours.__init__ is theirs.__init__ is family.__init__
            assert ours(*args).result.type == theirs(*args).result.type
    # where the twins' operand types differ, each keeps its own constraint
    assert fields(bc.DynamicSliceOp)["start_indices"] != fields(shlo.DynamicSliceOp)["start_indices"]
    assert fields(bc.SetDimensionSizeOp)["size"] != fields(shlo.SetDimensionSizeOp)["size"]
    assert bc.DotGeneralOp(x, w, dims).result.type == t((2, 4, 5))
    sized = shlo.SetDimensionSizeOp(x, i, 1, TensorType(x.type.element_type, [2, -1, 8]))
    assert (sized.dim, sized.size) == (1, i) and bc.SetDimensionSizeOp(x, n, 1, sized.result.type).dim == 1
