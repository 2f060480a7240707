"""The reference evaluator on xDSL's interpreter (``bcast.lowering.interpreter``).

The evaluator is the oracle of the property tests (test_backends,
test_pipeline, test_fuse, ...); here: that every op has an implementation,
that xDSL's own ``Interpreter`` runs bcast IR with xDSL's ``func``
implementations, and the run-time rules of docs/semantics.md that random
programs rarely reach (dynamic indices, declarations, results cast to the
declared type), each with its located error.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions

from bcast.ir import ops as bc
from bcast.ir.dialect import Bcast
from bcast.lowering.interpreter import BcastFunctions
from bcast.lowering.reference import EvaluationError, Evaluator
from bcast.tools import driver
from bcast.tools.api import STANDARD_PIPELINE


def load(text: str, pipeline: str | None = None):
    return driver.load(text, "prog.mlir", pipeline=pipeline)


def run(text: str, *args):
    return Evaluator(load(text)).call("main", list(args))


def test_every_op_of_the_dialect_has_an_implementation():
    # ``_impls`` is what ``Interpreter.register_implementations`` reads
    registered = {op_type for op_type, _ in BcastFunctions._impls()}
    assert set(Bcast.operations) <= registered
    for op_type in bc.OPS:  # the elementwise families, registered in a loop
        if issubclass(op_type, bc.ElementwiseOp):
            assert hasattr(BcastFunctions, f"run_{op_type.name.removeprefix('bcast.')}"), op_type


def test_xdsls_interpreter_runs_bcast_ir_with_xdsls_func_functions():
    """Calls by symbol, a fusion body run as a region, ``bcast.yield``."""
    text = """
func.func @scale(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = bcast.multiply %x, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
func.func @main(%x: tensor<4x3xf32>, %row: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = func.call @scale(%x, %row) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1 = bcast.add %0, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %1 : tensor<4x3xf32>
}
"""
    module = load(text, STANDARD_PIPELINE)
    assert any(op.name == "bcast.fusion" for op in module.walk())
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    row = np.array([1, 2, 3], np.float32)
    interpreter = Interpreter(module)
    interpreter.register_implementations(FuncFunctions())
    interpreter.register_implementations(BcastFunctions())
    (got,) = interpreter.call_op("main", (x, row))
    np.testing.assert_array_equal(got, x * row + row)
    (again,) = Evaluator(module).call("main", [x, row])
    np.testing.assert_array_equal(again, got)


def test_results_have_the_declared_type_and_promotion_wraps():
    text = """
func.func @main(%a: tensor<2xi8>, %b: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi8>) {
  %0 = bcast.add %a, %b : (tensor<2xi8>, tensor<2xi32>) -> tensor<2xi32>
  %1 = bcast.add %a, %a : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  func.return %0, %1 : tensor<2xi32>, tensor<2xi8>
}
"""
    wide, narrow = run(text, np.array([100, -7], np.int8), np.array([1000, 2], np.int32))
    assert wide.dtype == np.int32 and wide.tolist() == [1100, -5]
    assert narrow.dtype == np.int8 and narrow.tolist() == [-56, -14]


def test_integer_divide_truncates_with_xla_edge_cases():
    text = """
func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = bcast.divide %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %1 = bcast.remainder %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  func.return %0, %1 : tensor<3xi32>, tensor<3xi32>
}
"""
    q, r = run(text, np.array([-7, 5, -2**31], np.int32), np.array([2, 0, -1], np.int32))
    assert q.tolist() == [-3, -1, -2**31] and r.tolist() == [-1, 5, 0]


def test_broadcast_dimensions_and_nested_values_stored_flat():
    xla = """
module attributes {bcast.semantics = "xla"} {
func.func @main(%x: tensor<2x3xf32>, %col: tensor<2xf32>) -> tensor<2x3xf32> {
  %0 = bcast.add %x, %col broadcast_dimensions = [0] : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
}
"""
    x = np.zeros((2, 3), np.float32)
    (got,) = run(xla, x, np.array([1, 2], np.float32))
    assert got.tolist() == [[1, 1, 1], [2, 2, 2]]
    tml = """
module attributes {bcast.semantics = "tml"} {
func.func @main(%x: tensor<2xtensor<3xi32>>, %y: tensor<2xtensor<1xi32>>) -> tensor<2xtensor<3xi32>> {
  %0 = bcast.add %x, %y : (tensor<2xtensor<3xi32>>, tensor<2xtensor<1xi32>>) -> tensor<2xtensor<3xi32>>
  func.return %0 : tensor<2xtensor<3xi32>>
}
}
"""
    (got,) = run(tml, np.zeros((2, 3), np.int32), np.array([[10], [20]], np.int32))
    assert got.shape == (2, 3) and got.tolist() == [[10, 10, 10], [20, 20, 20]]


EXTRACT = """
module attributes {{bcast.semantics = "{mode}"}} {{
func.func @main(%x: tensor<{shape}xf32>, %i: index) -> tensor<3xf32> {{
  %0 = bcast.extract %x[%i] : (tensor<{shape}xf32>, index) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}}
}}
"""


def test_dynamic_index_access_broadcasting_under_tml():
    x = np.arange(3, dtype=np.float32).reshape(1, 3)
    (got,) = run(EXTRACT.format(mode="tml", shape="1x3"), x, 7)
    assert got.tolist() == [0, 1, 2]


@pytest.mark.parametrize(
    "mode,shape,index,message",
    [
        ("numpy", "2x3", 2, "index 0 (2) is out of bounds for dimension 0 of size 2"),
        ("numpy", "2x3", -1, "index 0 is negative (-1)"),
        ("numpy", "1x3", 1, "index 0 (1) is out of bounds for dimension 0 of size 1\n"
         "prog.mlir:4:8: note: index-access broadcasting on size-1 dims needs tml semantics"),
        ("tml", "2x3", 5, "index 0 (5) is out of bounds for dimension 0 of size 2"),
    ],
)
def test_a_dynamic_index_out_of_bounds_is_located(mode, shape, index, message):
    x = np.zeros(tuple(int(d) for d in shape.split("x")), np.float32)
    with pytest.raises(EvaluationError) as e:
        run(EXTRACT.format(mode=mode, shape=shape), x, index)
    assert e.value.report.render() == f"prog.mlir:4:8: error: 'bcast.extract' op {message}"


def test_assign_with_a_dynamic_index():
    text = """
func.func @main(%x: tensor<3x2xf32>, %i: index, %s: tensor<2xf32>) -> tensor<3x2xf32> {
  %0 = bcast.assign %x[%i], %s : (tensor<3x2xf32>, index, tensor<2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
"""
    x = np.zeros((3, 2), np.float32)
    (got,) = run(text, x, 1, np.ones(2, np.float32))
    assert got.tolist() == [[0, 0], [1, 1], [0, 0]] and not x.any()  # the input is not written
    with pytest.raises(EvaluationError, match="'bcast.assign' op index 0 \\(3\\) is out of bounds"):
        run(text, x, 3, np.ones(2, np.float32))


def test_calling_a_declaration_is_located_at_the_declaration():
    text = """
func.func private @f(tensor<2xf32>) -> tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""
    evaluator = Evaluator(load(text))
    for name, args in (("main", [np.ones(2, np.float32)]), ("f", [np.ones(2, np.float32)])):
        with pytest.raises(EvaluationError) as e:
            evaluator.call(name, args)
        assert e.value.report.render() == "prog.mlir:2:1: error: 'func.func' op is a declaration without a body"
    with pytest.raises(EvaluationError, match="no function @g in the module \\(functions: @f, @main\\)"):
        evaluator.call("g", [])


def test_an_op_without_reference_semantics_is_located():
    text = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = builtin.unrealized_conversion_cast %x : tensor<2xf32> to tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""
    with pytest.raises(EvaluationError) as e:
        run(text, np.ones(2, np.float32))
    assert e.value.report.render() == (
        "prog.mlir:3:8: error: 'builtin.unrealized_conversion_cast' op cannot be evaluated by the reference backend"
    )


def test_single_ops_evaluate_without_a_module():
    module = load("""
func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> {
  %0 = bcast.negate %x : tensor<2xi8>
  func.return %0 : tensor<2xi8>
}
""")
    negate = next(op for op in module.walk() if isinstance(op, bc.NegateOp))
    (got,) = Evaluator().evaluate(negate, [np.array([-128, 5], np.int8)])
    assert got.tolist() == [-128, -5]
