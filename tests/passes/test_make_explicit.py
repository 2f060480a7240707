"""``bcast-make-explicit``: the contract checked on IR, and results preserved.

After the pass every elementwise op's operands have its result's shape (and
one element type), no ``broadcast_dimensions`` and no ``narrow`` are left,
every ``broadcast_in_dim`` has strictly increasing dims (the output verifies
under ``xla`` semantics, except nested types on ops other than views) and, with
``degenerate=reshape``, never expands a size-1 dim. Programs compute the same
results before and after the pass (reference evaluator).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, StringAttr, TensorType

import bcast
from bcast.ir import ops, rules
from bcast.ir.parser import make_context
from bcast.ir.types import NUMPY_DTYPES, split_type
from bcast.passes.make_explicit import MakeExplicitPass
from bcast.tests.budget import examples
from bcast.tests.programs import programs
from bcast.tools import driver
from bcast.tests.programs import assert_same_results
from bcast.tools.opt import main as bcast_opt
from bcast.tests import paths

FILECHECK = paths.FILECHECK / "transforms" / "make_explicit.mlir"
CHUNKS = driver.split_input(FILECHECK.read_text(), True)
MODES = ("expand", "reshape")
NESTING_NEEDS_TML = (ops.ElementwiseOp, ops.NarrowOp, ops.ConvertOp, ops.ExtractOp, ops.AssignOp)
"""The ops whose nested tensor types need tml semantics (views see flat shapes)."""


def run_pass(text: str, degenerate: str = "expand", name: str = "test.mlir") -> ModuleOp:
    ctx = make_context()
    module = driver.load(text, name, ctx=ctx)
    MakeExplicitPass(degenerate=degenerate).apply(ctx, module)
    driver.verify(module)
    return module


def levels(value) -> rules.Levels:
    return split_type(value.type)[0]


def flat(value) -> rules.Shape:
    return rules.flat_shape(levels(value))


def check_contract(module: ModuleOp, degenerate: str) -> None:
    """The IR-level promises of the pass."""
    for op in module.walk():
        if isinstance(op, ops.ElementwiseOp) and not isinstance(op, ops.UnaryOp):
            result = op.results[0]
            for operand in op.operands:
                assert levels(operand) == levels(result), op
            if isinstance(op, ops.BinaryOp):
                assert op.broadcast_dimensions is None, op
                assert op.lhs.type == op.rhs.type, op
                if not isinstance(op, ops.CompareOp):
                    assert op.lhs.type == result.type, op
            if isinstance(op, ops.SelectOp):
                assert op.on_true.type == result.type == op.on_false.type, op
        assert not isinstance(op, ops.NarrowOp), op
        if isinstance(op, ops.BroadcastInDimOp):
            dims = list(op.broadcast_dimensions.get_values())
            assert dims == sorted(set(dims)), op
            assert op.operand.type != op.result.type, f"identity broadcast: {op}"
            if degenerate == "reshape":
                src, dst = flat(op.operand), flat(op.result)
                assert all(src[i] == dst[d] for i, d in enumerate(dims)), op
        if isinstance(op, ops.ExtractOp):
            shape = flat(op.operand)
            indices = op.indices()
            assert 0 < len(indices) <= len(shape), op
            assert all(i in (0, None) for i, d in zip(indices, shape) if d == 1), op
        if isinstance(op, ops.AssignOp):
            shape = flat(op.dest)
            indices = op.indices()
            assert len(indices) <= len(shape), op
            assert all(i == 0 for i, d in zip(indices, shape) if d == 1), op
            plan = rules.plan_indices(levels(op.dest), indices, "numpy", "assign")
            assert levels(op.source) == plan.result, op
            assert split_type(op.source.type)[1] == split_type(op.dest.type)[1], op


# --------------------------------------------------------------------------
# The FileCheck cases, checked structurally
# --------------------------------------------------------------------------


@pytest.mark.parametrize("degenerate", MODES)
@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_contract_on_filecheck_cases(chunk: int, degenerate: str) -> None:
    module = run_pass(CHUNKS[chunk].text, degenerate)
    check_contract(module, degenerate)


@pytest.mark.parametrize("degenerate", MODES)
@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_output_verifies_under_xla(chunk: int, degenerate: str) -> None:
    """The output verifies under xla semantics, except where an op that is
    not a view has nested tensor types: those need tml semantics, and the
    verifier must say so at the first such op."""
    module = run_pass(CHUNKS[chunk].text, degenerate)
    nested = [op for op in module.walk() if isinstance(op, NESTING_NEEDS_TML) and any(
        isinstance(v.type, TensorType) and len(levels(v)) > 1 for v in (*op.operands, *op.results))]
    module.attributes[ops.SEMANTICS_ATTR] = StringAttr("xla")
    if not nested:
        driver.verify(module)
        return
    with pytest.raises(driver.InputError) as info:
        driver.verify(module)
    assert f"'{nested[0].name}' op nested tensor types need tml semantics" in str(info.value)


@pytest.mark.parametrize("degenerate", MODES)
@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_idempotent(chunk: int, degenerate: str) -> None:
    module = run_pass(CHUNKS[chunk].text, degenerate)
    once = str(module)
    MakeExplicitPass(degenerate=degenerate).apply(make_context(), module)
    assert str(module) == once


def test_new_ops_carry_the_replaced_ops_location() -> None:
    text = (
        "func.func @main(%a: tensor<4x1xi8>, %b: tensor<3xi32>) -> tensor<4x3xi32> {\n"
        "  %r = bcast.add %a, %b : (tensor<4x1xi8>, tensor<3xi32>) -> tensor<4x3xi32>\n"
        "  func.return %r : tensor<4x3xi32>\n"
        "}\n"
    )
    for degenerate in MODES:
        module = run_pass(text, degenerate, name="prog.mlir")
        new = [op for op in module.walk() if op.name.startswith("bcast.")]
        assert {op.name for op in new} >= {"bcast.convert", "bcast.broadcast_in_dim", "bcast.add"}
        for op in new:
            loc = op.location
            assert isinstance(loc, FileLineColLoc), op
            assert (loc.filename.data, loc.line.data, loc.column.data) == ("prog.mlir", 2, 8), op


# --------------------------------------------------------------------------
# The option
# --------------------------------------------------------------------------


def test_default_is_expand() -> None:
    assert MakeExplicitPass().degenerate == "expand"


def test_bad_option_value_is_a_clear_usage_error(capsys, tmp_path) -> None:
    path = tmp_path / "p.mlir"
    path.write_text("func.func @f() {\n  func.return\n}\n")
    assert bcast_opt([str(path), "-p", "bcast-make-explicit{degenerate=foo}"]) == 2
    err = capsys.readouterr().err
    assert "invalid value 'foo' for option 'degenerate' of bcast-make-explicit" in err
    assert "expected 'expand' or 'reshape'" in err
    assert "Traceback" not in err
    with pytest.raises(ValueError, match="expected 'expand' or 'reshape'"):
        MakeExplicitPass(degenerate="foo")


def test_bcast_opt_runs_the_pass(tmp_path) -> None:
    path = tmp_path / "p.mlir"
    path.write_text(
        "func.func @f(%v: tensor<4xf32>, %m: tensor<4x3xf32>) -> tensor<4x3xf32> {\n"
        "  %r = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>\n"
        "  func.return %r : tensor<4x3xf32>\n}\n"
    )
    out = subprocess.run(
        [str(Path(sys.executable).parent / "bcast-opt"), str(path), "-p",
         "bcast-make-explicit{degenerate=reshape}"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "bcast.broadcast_in_dim %v, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>" in out
    assert "broadcast_dimensions" not in out


# --------------------------------------------------------------------------
# Results are preserved (reference evaluator)
# --------------------------------------------------------------------------

PROGRAMS = {
    "numpy_mix": (
        """
func.func @main(%a: tensor<4x1xi8>, %b: tensor<3xi32>, %c: tensor<2x1x3xf32>, %s: tensor<f32>,
                %p: tensor<4x1xi1>, %h: tensor<3xf16>) -> (tensor<4x3xi32>, tensor<4x3xi1>, tensor<2x4x3xf32>) {
  %0 = bcast.add %a, %b : (tensor<4x1xi8>, tensor<3xi32>) -> tensor<4x3xi32>
  %1 = bcast.compare GT, %a, %b : (tensor<4x1xi8>, tensor<3xi32>) -> tensor<4x3xi1>
  %2 = bcast.multiply %c, %s : (tensor<2x1x3xf32>, tensor<f32>) -> tensor<2x1x3xf32>
  %3 = bcast.select %p, %h, %2 : (tensor<4x1xi1>, tensor<3xf16>, tensor<2x1x3xf32>) -> tensor<2x4x3xf32>
  func.return %0, %1, %3 : tensor<4x3xi32>, tensor<4x3xi1>, tensor<2x4x3xf32>
}
""",
        None,
    ),
    "xla_composition": (
        """
func.func @main(%v: tensor<4xf32>, %m: tensor<1x2xf32>, %a: tensor<1x2xf32>, %b: tensor<4x3x1xf32>,
                %w: tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x3x2xf32>, tensor<4x3xf32>) {
  %0 = bcast.add %v, %m broadcast_dimensions = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %1 = bcast.subtract %a, %b broadcast_dimensions = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  %2 = bcast.divide %w, %v broadcast_dimensions = [0] : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  func.return %0, %1, %2 : tensor<4x2xf32>, tensor<4x3x2xf32>, tensor<4x3xf32>
}
""",
        "xla",
    ),
    "tml_nested_narrow_index": (
        """
func.func @main(%a: tensor<2xtensor<3xf32>>, %b: tensor<1xtensor<2x1xf32>>, %e: tensor<1x5x1xi32>,
                %t: tensor<1x2xf32>, %d: tensor<1x3xi32>, %u: tensor<3xui8>, %i: index)
    -> (tensor<2xtensor<2x3xf32>>, tensor<5xi32>, tensor<f32>, tensor<f32>, tensor<1x3xi32>) {
  %0 = bcast.add %a, %b : (tensor<2xtensor<3xf32>>, tensor<1xtensor<2x1xf32>>) -> tensor<2xtensor<2x3xf32>>
  %1 = bcast.narrow %e : (tensor<1x5x1xi32>) -> tensor<5xi32>
  %2 = bcast.extract %t[999, 1, 7] : (tensor<1x2xf32>) -> tensor<f32>
  %3 = bcast.extract %t[%i, 0] : (tensor<1x2xf32>, index) -> tensor<f32>
  %4 = bcast.assign %d[5], %u : (tensor<1x3xi32>, tensor<3xui8>) -> tensor<1x3xi32>
  func.return %0, %1, %2, %3, %4 : tensor<2xtensor<2x3xf32>>, tensor<5xi32>, tensor<f32>, tensor<f32>, tensor<1x3xi32>
}
""",
        "tml",
    ),
    "assign_and_transposing_broadcast": (
        """
func.func @main(%x: tensor<2x3x4xf32>, %a: tensor<1x3x4xf32>, %h: tensor<4xf16>, %r: tensor<1x3xf32>,
                %y: tensor<2x1xf32>)
    -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x2xf32>, tensor<3x4x2xf32>) {
  %0 = bcast.assign %x, %a : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = bcast.assign %0[1], %h : (tensor<2x3x4xf32>, tensor<4xf16>) -> tensor<2x3x4xf32>
  %2 = bcast.broadcast_in_dim %r, dims = [2, 1] : (tensor<1x3xf32>) -> tensor<2x3x2xf32>
  %3 = bcast.broadcast_in_dim %y, dims = [2, 0] : (tensor<2x1xf32>) -> tensor<3x4x2xf32>
  func.return %0, %1, %2, %3 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x2xf32>, tensor<3x4x2xf32>
}
""",
        None,
    ),
}


def _inputs(compiled, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    args = []
    for t in compiled.input_types:
        if str(t) == "index":
            args.append(int(rng.integers(0, 1)))
            continue
        lv, element = split_type(t)
        shape = rules.flat_shape(lv)
        dtype = np.dtype(NUMPY_DTYPES[element])
        if dtype.kind == "f":
            args.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.kind == "b":
            args.append(rng.integers(0, 2, shape).astype(dtype))
        else:
            args.append(rng.integers(0, 100, shape).astype(dtype))
    return args


@pytest.mark.parametrize("degenerate", MODES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_results_preserved(name: str, degenerate: str) -> None:
    text, semantics = PROGRAMS[name]
    before = bcast.compile(text, backend="reference", semantics=semantics)
    after = bcast.compile(
        text, backend="reference", semantics=semantics,
        pipeline=f"bcast-make-explicit{{degenerate={degenerate}}}",
    )  # fmt: skip
    check_contract(after.module, degenerate)
    assert_same_results(before, after, _inputs(before))


@pytest.mark.parametrize("degenerate", MODES)
@pytest.mark.parametrize("mode", ("numpy", "xla", "tml"))
def test_random_programs_preserved(mode: str, degenerate: str) -> None:
    @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
    @given(programs(mode=mode))
    def check(program) -> None:
        before = bcast.compile(program.text, backend="reference")
        after = bcast.compile(
            program.text, backend="reference",
            pipeline=f"bcast-make-explicit{{degenerate={degenerate}}}",
        )  # fmt: skip
        check_contract(after.module, degenerate)
        assert_same_results(before, after, program.inputs)
        if "tensor<tensor<" not in program.text and "xtensor<" not in program.text:
            after.module.attributes[ops.SEMANTICS_ATTR] = StringAttr("xla")
            driver.verify(after.module)

    check()


@st.composite
def index_programs(draw) -> tuple[str, list]:
    """tml programs extracting from and assigning into a random tensor with
    index-access broadcasting: indices on size-1 dims out of range, surplus
    indices, SSA indices."""
    shape = tuple(draw(st.lists(st.sampled_from((1, 1, 2, 3)), max_size=3)))
    n = draw(st.integers(0, len(shape) + 2))
    static, dynamic, args = [], [], []
    for pos in range(n):
        size = shape[pos] if pos < len(shape) else 1
        index = draw(st.integers(0, 999)) if size == 1 else draw(st.integers(0, size - 1))
        if draw(st.booleans()) and pos < len(shape):
            dynamic.append(f"%i{pos}")
            args.append(index)
            static.append(f"%i{pos}")
        else:
            static.append(str(index))
    indexed = shape[min(n, len(shape)):]
    src = list(indexed[draw(st.integers(0, len(indexed))):])
    src = tuple(1 if draw(st.booleans()) else d for d in src)
    src_element = draw(st.sampled_from(("f16", "f32")))

    def t(sh, el="f32"):
        return "tensor<" + "".join(f"{d}x" for d in sh) + el + ">"

    idx = f"[{', '.join(static)}]" if static else ""
    idx_types = "".join(", index" for _ in dynamic)
    extract = (
        f"  %e = bcast.extract %x{idx or '[]'} : ({t(shape)}{idx_types}) -> {t(indexed)}\n"
        if static else ""
    )
    text = (
        'module attributes {bcast.semantics = "tml"} {\n'
        f"func.func @main(%x: {t(shape)}, %s: {t(src, src_element)}"
        + "".join(f", {d}: index" for d in dynamic)
        + f") -> ({t(shape)}{', ' + t(indexed) if static else ''}) {{\n"
        + extract
        + f"  %a = bcast.assign %x{idx}, %s : ({t(shape)}{idx_types}, {t(src, src_element)}) -> {t(shape)}\n"
        + f"  func.return %a{', %e' if static else ''} : {t(shape)}{', ' + t(indexed) if static else ''}\n"
        + "}\n}\n"
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    inputs = [
        rng.standard_normal(shape).astype(np.float32),
        rng.standard_normal(src).astype(np.float16 if src_element == "f16" else np.float32),
        *args,
    ]
    return text, inputs


@pytest.mark.parametrize("degenerate", MODES)
def test_random_index_access_preserved(degenerate: str) -> None:
    @settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
    @given(index_programs())
    def check(case) -> None:
        text, inputs = case
        before = bcast.compile(text, backend="reference")
        after = bcast.compile(
            text, backend="reference", pipeline=f"bcast-make-explicit{{degenerate={degenerate}}}"
        )
        check_contract(after.module, degenerate)
        assert_same_results(before, after, inputs)
        after.module.attributes[ops.SEMANTICS_ATTR] = StringAttr("xla")
        driver.verify(after.module)

    check()
