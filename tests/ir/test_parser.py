"""bcast's parser (``LocatingParser``): the input position each op records,
and the tensor types it reads once per distinct text. What it reads must be
exactly what xDSL's own parser reads (the plugin tests compare the printed
output of whole programs)."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import FileLineColLoc, TensorType
from xdsl.parser import Parser

from bcast.ir.parser import LocatingParser, make_context

PROGRAM = """// a comment line
func.func @f(%x: tensor<3x4xf32>, %row: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = bcast.add %x, %row : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
    %1 = bcast.multiply %0, %0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %1 : tensor<3x4xf32>
}

func.func @g(%n: tensor<2xtensor<3xi32>>, %m: tensor<2xtensor<3xi32>>, %d: tensor<?x2xf32>) -> tensor<2xtensor<3xi32>> {
  %0 = bcast.add %n, %m : (tensor<2xtensor<3xi32>>, tensor<2xtensor<3xi32>>) -> tensor<2xtensor<3xi32>>
  func.return %0 : tensor<2xtensor<3xi32>>
}
"""


def parse(text: str, offset: int = 0):
    return LocatingParser(make_context(), text, "in.mlir", offset).parse_module()


def test_each_op_is_located_at_its_name():
    expected = [(n, m.start() + 1) for n, line in enumerate(PROGRAM.splitlines(), 1)
                for m in re.finditer(r"\b(?:func|bcast)\.\w+", line)]
    for offset in (0, 7):
        module = parse(PROGRAM, offset)
        ops = [op for op in module.walk() if op is not module]
        got = [(op.location.line.data, op.location.column.data) for op in ops]
        assert all(isinstance(op.location, FileLineColLoc) for op in ops)
        assert got == [(line + offset, col) for line, col in expected]


def test_tensor_types_are_read_once_per_text_and_as_xdsl_reads_them():
    module = parse(PROGRAM)
    ours = [op.result_types for op in module.walk() if op.results]
    theirs = [op.result_types for op in Parser(make_context(), PROGRAM).parse_module().walk() if op.results]
    assert ours == theirs
    f = next(op for op in module.walk() if op.name == "func.func")
    add = next(op for op in module.walk() if op.name == "bcast.add")
    assert add.operands[0].type is f.body.block.args[0].type  # one object per text
    assert add.result_types[0] is add.operands[0].type
    g = [op for op in module.walk() if op.name == "func.func"][1]
    nested = g.body.block.args[0].type
    assert isinstance(nested, TensorType) and isinstance(nested.element_type, TensorType)
