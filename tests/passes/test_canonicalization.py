"""Canonicalization and broadcast sinking preserve results.

The main property builds random chains of ``broadcast_in_dim`` /
``transpose`` / ``reshape`` on random shapes (unsorted broadcast dims
included: composing dims through a transpose is where such rewrites go
wrong), evaluates them with NumPy directly from the ops' definitions, runs
``canonicalize`` and evaluates again.

The small evaluator below follows the op definitions literally (a broadcast
reads operand dimension ``k`` at result index ``dims[k]``, or at 0 where the
operand dimension is 1) and shares no code with the patterns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.passes import PassPipeline

from bcast.ir import numerics
from bcast.ir.ops import (
    BinaryOp,
    BroadcastInDimOp,
    CompareOp,
    ConstantOp,
    ConvertOp,
    ElementwiseOp,
    ReshapeOp,
    SelectOp,
    TransposeOp,
)
from bcast.ir.parser import LocatingParser, make_context
from bcast.passes import available_passes
from bcast.passes.canonicalization import exact_constant
from bcast.tests.budget import examples
from bcast.tools.driver import verify
from bcast.tests.programs import as_tuple, assert_same_results

# --------------------------------------------------------------------------
# A literal evaluator for the ops these tests produce
# --------------------------------------------------------------------------

DTYPES = {
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}  # fmt: skip


def _shape(t) -> tuple[int, ...]:
    return tuple(t.get_shape())


def _dtype(t):
    element = str(t.element_type)
    return np.dtype(DTYPES[element])


def broadcast_in_dim(x: np.ndarray, dims, shape) -> np.ndarray:
    """result[i...] = x[j...] with j[k] = i[dims[k]], or 0 where x's dim k is 1."""
    index = np.indices(shape, dtype=np.intp) if shape else ()
    zeros = np.zeros(shape, dtype=np.intp)
    operand_index = tuple(
        index[d] if x.shape[k] != 1 else zeros for k, d in enumerate(dims)
    )
    if x.ndim == 0:
        return np.broadcast_to(x, shape).copy()
    return x[operand_index]


def evaluate(module: ModuleOp, args: list[np.ndarray]) -> list[np.ndarray]:
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    env: dict = dict(zip(func.body.block.args, args))
    for op in func.body.block.ops:
        if isinstance(op, ReturnOp):
            return [env[v] for v in op.operands]
        values = [env[v] for v in op.operands]
        result_type = op.results[0].type
        shape, dtype = _shape(result_type), _dtype(result_type)
        if isinstance(op, BroadcastInDimOp):
            out = broadcast_in_dim(values[0], op.broadcast_dimensions.get_values(), shape)
        elif isinstance(op, TransposeOp):
            out = np.transpose(values[0], op.permutation.get_values())
        elif isinstance(op, ReshapeOp):
            out = values[0].reshape(shape)
        elif isinstance(op, ConvertOp):
            out = numerics.convert(values[0], dtype)
        elif isinstance(op, ConstantOp):
            raw = np.array(op.value.get_values())
            out = (raw != 0 if dtype == np.bool_ else raw).astype(dtype).reshape(shape)
        elif isinstance(op, CompareOp):
            common = np.result_type(*values)
            values = [v.astype(common) for v in values]
            out = op.NUMPY_FUNCTION(str(op.comparison_direction.data), *values)
        elif isinstance(op, SelectOp):
            out = op.NUMPY_FUNCTION(values[0], *(v.astype(dtype) for v in values[1:]))
        elif isinstance(op, ElementwiseOp):
            assert not isinstance(op, BinaryOp) or op.broadcast_dimensions is None
            out = op.NUMPY_FUNCTION(*(v.astype(dtype) for v in values))
        else:
            raise NotImplementedError(op.name)
        out = np.asarray(out)
        assert out.shape == shape, (op.name, out.shape, shape)
        env[op.results[0]] = out.astype(dtype)
    raise AssertionError("no return")


def parse(text: str) -> ModuleOp:
    module = LocatingParser(make_context(), text, "chain.mlir").parse_module()
    verify(module)
    return module


def run(module: ModuleOp, pipeline: str) -> None:
    PassPipeline.parse_spec(available_passes(), pipeline).apply(make_context(), module)
    verify(module)


def locations(module: ModuleOp) -> set[tuple[int, int]]:
    return {
        (op.location.line.data, op.location.column.data)
        for op in module.walk()
        if op.name.startswith("bcast.")
    }


def assert_located(before: set, module: ModuleOp) -> None:
    for op in module.walk():
        if op.name.startswith("bcast."):
            assert isinstance(op.location, FileLineColLoc), op
            assert (op.location.line.data, op.location.column.data) in before, op


# --------------------------------------------------------------------------
# Random chains of structural ops
# --------------------------------------------------------------------------


def tensor(shape, element="f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


@dataclass
class Chain:
    arg_shape: tuple[int, ...]
    lines: list[str]
    results: list[tuple[str, tuple[int, ...]]]
    sorted_dims: bool

    def text(self) -> str:
        results = ", ".join(tensor(s) for _, s in self.results)
        body = "\n".join("  " + line for line in self.lines)
        names = ", ".join(n for n, _ in self.results)
        return (
            f"func.func @main(%x: {tensor(self.arg_shape)}) -> ({results}) {{\n"
            f"{body}\n  func.return {names} : {results}\n}}\n"
        )


SIZES = st.sampled_from([1, 1, 2, 3, 4])


@st.composite
def broadcast_step(draw, shape, allow_unsorted):
    rank = len(shape)
    new_rank = rank + draw(st.integers(0, 2))
    if new_rank > 5:
        new_rank = rank
    positions = draw(st.permutations(range(new_rank)))[:rank]
    if not allow_unsorted or draw(st.booleans()):
        positions = sorted(positions)
    result = []
    for d in range(new_rank):
        if d in positions:
            k = positions.index(d)
            result.append(draw(SIZES) if shape[k] == 1 else shape[k])
        else:
            result.append(draw(SIZES))
    if np.prod(result) > 400:
        result = [shape[positions.index(d)] if d in positions else 1 for d in range(new_rank)]
    return positions, tuple(result)


@st.composite
def reshape_step(draw, shape):
    """A same-size shape: insert/drop 1s, merge neighbours, or split a dim."""
    shape = list(shape)
    for _ in range(draw(st.integers(1, 3))):
        choice = draw(st.sampled_from(["insert", "drop", "merge", "split"]))
        if choice == "insert" and len(shape) < 5:
            shape.insert(draw(st.integers(0, len(shape))), 1)
        elif choice == "drop" and 1 in shape:
            ones = [i for i, s in enumerate(shape) if s == 1]
            shape.pop(draw(st.sampled_from(ones)))
        elif choice == "merge" and len(shape) >= 2:
            i = draw(st.integers(0, len(shape) - 2))
            shape[i : i + 2] = [shape[i] * shape[i + 1]]
        elif choice == "split" and len(shape) < 5:
            splittable = [i for i, s in enumerate(shape) if s in (4, 6, 8, 9, 12)]
            if splittable:
                i = draw(st.sampled_from(splittable))
                f = {4: 2, 6: 2, 8: 2, 9: 3, 12: 3}[shape[i]]
                shape[i : i + 1] = [f, shape[i] // f]
    return tuple(shape)


@st.composite
def chains(draw, allow_unsorted=True, kinds=("broadcast", "broadcast", "transpose", "reshape")):
    arg_shape = tuple(draw(st.lists(SIZES, min_size=0, max_size=3)))
    values = [("%x", arg_shape)]
    lines: list[str] = []
    for i in range(draw(st.integers(1, 6))):
        # mostly extend the chain, sometimes branch from an earlier value
        name, shape = values[-1] if draw(st.integers(0, 3)) else draw(st.sampled_from(values))
        kind = draw(st.sampled_from(kinds))
        new = f"%v{i}"
        if kind == "broadcast":
            dims, result = draw(broadcast_step(shape, allow_unsorted))
            lines.append(
                f"{new} = bcast.broadcast_in_dim {name}, dims = {list(dims)} : "
                f"({tensor(shape)}) -> {tensor(result)}"
            )
        elif kind == "transpose":
            perm = draw(st.permutations(range(len(shape))))
            result = tuple(shape[p] for p in perm)
            lines.append(
                f"{new} = bcast.transpose {name}, dims = {list(perm)} : "
                f"({tensor(shape)}) -> {tensor(result)}"
            )
        else:
            result = draw(reshape_step(shape))
            lines.append(f"{new} = bcast.reshape {name} : ({tensor(shape)}) -> {tensor(result)}")
        values.append((new, result))
    results = [values[-1]]
    if len(values) > 2 and draw(st.booleans()):
        results.append(draw(st.sampled_from(values[1:-1])))
    return Chain(arg_shape, lines, results, not allow_unsorted)


def check_chain(chain: Chain, pipeline: str = "canonicalize") -> ModuleOp:
    text = chain.text()
    module = parse(text)
    x = np.arange(np.prod(chain.arg_shape, dtype=int), dtype=np.float32).reshape(chain.arg_shape)
    expected = evaluate(module, [x])
    before = locations(module)
    run(module, pipeline)
    got = evaluate(module, [x])
    for e, g in zip(expected, got, strict=True):
        assert e.shape == g.shape
        np.testing.assert_array_equal(e, g, err_msg=text + "\n" + str(module))
    assert_located(before, module)
    return module


def assert_normal_form(module: ModuleOp) -> None:
    for op in module.walk():
        if isinstance(op, BroadcastInDimOp):
            assert not isinstance(op.operand.owner, BroadcastInDimOp), str(module)
            dims = op.broadcast_dimensions.get_values()
            assert list(dims) == sorted(dims), str(module)
            assert op.operand.type != op.result.type, str(module)
        if isinstance(op, ReshapeOp):
            assert not isinstance(op.operand.owner, ReshapeOp), str(module)
            assert op.operand.type != op.result.type, str(module)
        if isinstance(op, TransposeOp):
            assert not isinstance(op.operand.owner, TransposeOp), str(module)
            perm = op.permutation.get_values()
            assert list(perm) != list(range(len(perm))), str(module)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_canonicalize_preserves_structural_chains(chain: Chain):
    module = check_chain(chain)
    assert_normal_form(module)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains(kinds=("broadcast", "transpose")))
def test_canonicalize_preserves_broadcast_transpose_chains(chain: Chain):
    """Broadcasts and transposes only: every composition through a permutation."""
    check_chain(chain)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains(allow_unsorted=False))
def test_canonicalize_keeps_xla_broadcasts_sorted(chain: Chain):
    """Under xla semantics (sorted dims only) the output verifies as xla too."""
    text = '"builtin.module"() ({\n' + chain.text() + '}) {bcast.semantics = "xla"} : () -> ()'
    module = parse(text)
    run(module, "canonicalize")


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_canonicalize_cse_preserves_structural_chains(chain: Chain):
    check_chain(chain, "canonicalize,cse,canonicalize")


# --------------------------------------------------------------------------
# Known compositions, by hand
# --------------------------------------------------------------------------


def one_op_chain(lines: list[str], arg_shape, result_shape) -> Chain:
    return Chain(tuple(arg_shape), lines, [(lines[-1].split(" =")[0], tuple(result_shape))], False)


@pytest.mark.parametrize(
    "lines,arg,result",
    [
        # a transpose feeding an unsorted broadcast: dims compose through P^-1
        (["%a = bcast.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>",
          "%b = bcast.broadcast_in_dim %a, dims = [1, 3, 0] : (tensor<4x2x3xf32>) -> tensor<3x4x5x2xf32>"],
         (2, 3, 4), (3, 4, 5, 2)),
        (["%a = bcast.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>",
          "%b = bcast.transpose %a, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>"],
         (2, 3), (4, 2, 3)),
        (["%a = bcast.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>",
          "%b = bcast.transpose %a, dims = [2, 0, 1] : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>"],
         (2, 3, 4), (2, 3, 4)),
        (["%a = bcast.transpose %x, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>",
          "%b = bcast.transpose %a, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>"],
         (2, 3, 4), (4, 2, 3)),
        (["%a = bcast.broadcast_in_dim %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>"],
         (2, 3, 4), (3, 4, 2)),
        (["%a = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3x5xf32>",
          "%b = bcast.reshape %a : (tensor<4x3x5xf32>) -> tensor<2x2x3x5x1xf32>"],
         (3,), (2, 2, 3, 5, 1)),
    ],
)  # fmt: skip
def test_hand_written_compositions(lines, arg, result):
    check_chain(one_op_chain(lines, arg, result))


# --------------------------------------------------------------------------
# bcast-sink-broadcasts on random elementwise ops over broadcasts
# --------------------------------------------------------------------------

ELEMENTWISE = {
    # name: (arity, operand element -> result element)
    "add": 2, "subtract": 2, "multiply": 2, "maximum": 2, "compare GT,": 2,
    "negate": 1, "abs": 1, "select": 3,
}  # fmt: skip


@st.composite
def sink_programs(draw):
    source = tuple(draw(st.lists(SIZES, min_size=1, max_size=3)))
    dims, result = draw(broadcast_step(source, True))
    args = [f"%a0: {tensor(source)}", f"%a1: {tensor(source)}", "%s: tensor<f32>",
            f"%p: {tensor(source, 'i1')}"]  # fmt: skip
    lines: list[str] = []
    counter = iter(range(1000))

    def fresh() -> str:
        return f"%v{next(counter)}"

    def operand(element: str = "f32", choices=("a0", "a1", "a0", "s", "splat")) -> str:
        if element == "i1":
            name = fresh()
            lines.append(f"{name} = bcast.broadcast_in_dim %p, dims = {list(dims)} : "
                         f"({tensor(source, 'i1')}) -> {tensor(result, 'i1')}")  # fmt: skip
            return name
        choice = draw(st.sampled_from(choices))
        name = fresh()
        if choice == "splat":
            value = draw(st.sampled_from(["1.5", "-2.0", "0.0"]))
            lines.append(f"{name} = bcast.constant dense<{value}> : {tensor(result)}")
        elif choice == "s":
            lines.append(f"{name} = bcast.broadcast_in_dim %s, dims = [] : "
                         f"(tensor<f32>) -> {tensor(result)}")  # fmt: skip
        else:
            lines.append(f"{name} = bcast.broadcast_in_dim %{choice}, dims = {list(dims)} : "
                         f"({tensor(source)}) -> {tensor(result)}")  # fmt: skip
        return name

    last = operand(choices=("a0",))  # the chain depends on an argument
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(sorted(ELEMENTWISE)))
        arity = ELEMENTWISE[op]
        if op == "select":
            operands = [operand("i1"), last, operand()]
            types = [tensor(result, "i1"), tensor(result), tensor(result)]
        else:
            operands = [last] + [operand() for _ in range(arity - 1)]
            types = [tensor(result)] * arity
        name = fresh()
        out_type = tensor(result, "i1") if op.startswith("compare") else tensor(result)
        if arity == 1:
            lines.append(f"{name} = bcast.{op} {operands[0]} : {out_type}")
        else:
            lines.append(f"{name} = bcast.{op} {', '.join(operands)} : "
                         f"({', '.join(types)}) -> {out_type}")  # fmt: skip
        if op.startswith("compare"):
            converted = fresh()
            lines.append(f"{converted} = bcast.convert {name} : ({out_type}) -> {tensor(result)}")
            name = converted
        last = name
    body = "\n".join("  " + line for line in lines)
    text = (f"func.func @main({', '.join(args)}) -> {tensor(result)} {{\n{body}\n"
            f"  func.return {last} : {tensor(result)}\n}}\n")  # fmt: skip
    return text, source


@pytest.mark.parametrize("pipeline", ["bcast-sink-broadcasts", "bcast-sink-broadcasts,canonicalize,cse"])
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=sink_programs(), seed=st.integers(0, 2**16))
def test_sink_broadcasts_preserves_results(pipeline, program, seed):
    text, source = program
    rng = np.random.default_rng(seed)
    args = [
        rng.standard_normal(source).astype(np.float32),
        rng.standard_normal(source).astype(np.float32),
        np.array(rng.standard_normal(), dtype=np.float32),
        rng.random(source) < 0.5,
    ]
    module = parse(text)
    expected = evaluate(module, args)
    before = locations(module)
    run(module, pipeline)
    got = evaluate(module, args)
    np.testing.assert_array_equal(expected[0], got[0], err_msg=text + "\n" + str(module))
    assert_located(before, module)
    # every elementwise op left computes on the small shape (unless the
    # result is no larger than the sources', or it is left to constant folding)
    if np.prod(source) < np.prod(expected[0].shape):
        for op in module.walk():
            constants = all(isinstance(v.owner, ConstantOp) for v in op.operands)
            if isinstance(op, ElementwiseOp) and not constants:
                assert _shape(op.results[0].type) in (source, ()), str(module)


# --------------------------------------------------------------------------
# Whole programs through the reference evaluator
# --------------------------------------------------------------------------

PIPELINES = (
    "canonicalize",
    "bcast-make-explicit,canonicalize,cse",
    "bcast-make-explicit{degenerate=reshape},canonicalize,cse",
    "bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse",
    "bcast-make-explicit{degenerate=reshape},bcast-sink-broadcasts,canonicalize",
)


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("mode", ("numpy", "xla", "tml"))
def test_random_programs_preserved(mode: str, pipeline: str) -> None:
    import bcast
    from bcast.tests.programs import programs

    @settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
    @given(programs(mode=mode))
    def check(program) -> None:
        before = bcast.compile(program.text, backend="reference")
        after = bcast.compile(program.text, backend="reference", pipeline=pipeline)
        assert_same_results(before, after, program.inputs)

    check()


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_literal_evaluator_agrees_with_reference(chain: Chain):
    """This file's evaluator and the reference evaluator read the ops alike."""
    import bcast

    x = np.arange(np.prod(chain.arg_shape, dtype=int), dtype=np.float32).reshape(chain.arg_shape)
    reference = as_tuple(bcast.compile(chain.text(), backend="reference")(x))
    literal = evaluate(parse(chain.text()), [x])
    for r, lit in zip(reference, literal, strict=True):
        np.testing.assert_array_equal(r, lit)


def test_an_exact_constant_keeps_nan_bits():
    """A NaN folds to a constant: xDSL prints it as hex bits, which bcast's
    parser reads back as the same float bits."""
    from bcast.ir.types import make_type

    value_type = make_type(((1,),), "f32")
    folded = exact_constant(np.array([np.nan], np.float32), value_type)
    assert folded is not None and np.isnan(folded.numpy_value()).all()


def test_stablehlo_reshapes_compose_though_the_dialect_is_imported_lazily():
    """``PATTERNS_BY_NAME``: StableHLO's reshape keeps its pattern, made at
    its first visit, not when canonicalization is imported."""
    from bcast.ir import stablehlo as shlo
    from bcast.passes.canonicalization import ComposeReshapeOfReshape, patterns_for

    found = [p.pattern for p in patterns_for(shlo.ReshapeOp) if hasattr(p, "pattern")]
    assert any(isinstance(p, ComposeReshapeOfReshape) and p.reshape is shlo.ReshapeOp for p in found)
    assert not any(isinstance(p, ComposeReshapeOfReshape) and p.reshape is shlo.ReshapeOp
                   for p in (getattr(q, "pattern", q) for q in patterns_for(ReshapeOp)))
