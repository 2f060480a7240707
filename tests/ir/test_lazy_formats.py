"""Assembly formats parsed at first use (``bcast.ir.lazy_formats``): every
format of every dialect bcast loads is well formed and gives the program
xDSL's own parser makes, and an op parses and prints through it."""

from __future__ import annotations

import pytest
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.utils.exceptions import ParseError

import bcast.ir.chlo  # noqa: F401 - loaded at their first op otherwise: their formats too
import bcast.ir.stablehlo  # noqa: F401
import bcast.passes.lower_to_loops  # noqa: F401 - the loop IR's dialects (arith, math, memref, scf, cf)
from bcast.ir import lazy_formats
from bcast.tools import driver


def test_formats_are_made_lazily_for_the_loaded_dialects():
    names = {made.op_def.name for made in lazy_formats.MADE}
    assert {"bcast.add", "bcast.dim", "arith.addf", "math.tanh", "memref.load", "chlo.broadcast_add"} <= names


def test_every_format_is_xdsls_own_program():
    for made in lazy_formats.MADE:
        forced = made.force()
        assert type(forced) is FormatProgram and made.force() is forced
        assert forced == lazy_formats._original(made.text, made.op_def), made.op_def.name


def test_an_op_parses_and_prints_through_its_format():
    text = """func.func @main(%x: tensor<?x3xf32>, %r: tensor<3xf32>) -> tensor<?x3xf32> {
  %a = bcast.add %x, %r : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  func.return %a : tensor<?x3xf32>
}"""
    module = driver.load(text, "<test>", pipeline="bcast-make-explicit")
    printed = str(module)
    assert "bcast.dynamic_broadcast_in_dim %r, [%0, 3], dims = [1]" in printed
    assert str(driver.load(printed, "<again>")) == printed


def test_a_malformed_format_is_reported_at_first_use():
    @irdl_op_definition
    class Malformed(IRDLOperation):  # defined: its format is not read yet
        name = "test.malformed"
        x = operand_def()
        assembly_format = "$x $nothing attr-dict"

    made = lazy_formats.MADE[-1]
    assert made.op_def.name == "test.malformed"
    with pytest.raises(ParseError):
        made.force()
