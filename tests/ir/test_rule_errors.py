"""Every failure of a broadcasting rule (the exceptions of ``bcast.ir.rules``)
reaches the user as a located diagnostic in the designed wording, whichever
dialect's verifier called the rule: never a Python tuple or an exception's
repr (``chlo.broadcast_add`` once reported ``(((10,), (5,)), -1, (10, 5))``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from bcast.ir import rules
from bcast.ir import stablehlo as hlo
from bcast.tools import driver

RULE_ERRORS = {k for k in vars(rules).values()
               if isinstance(k, type) and issubclass(k, Exception) and k.__module__ == rules.__name__}
"""Every kind of rule failure: a new one needs its cases below."""

DIALECTS = ("bcast", "stablehlo", "chlo")

INCOMPATIBLE = "operands are not broadcast-compatible: tensor<10xf32> and tensor<5xf32>"
HEAD = "aligned from the right: "
INCOMPATIBLE_NOTES = [HEAD + "10\n" + " " * len(HEAD) + " 5",
                      "dimension -1: 10 vs 5 (neither is 1)"]

PYTHON_REPR = re.compile(r"\(\(|\(\d+,\)|\[\(|\w+Error\(|\w+Dims\(")
"""A tuple, a one-element tuple, a list of tuples, an exception's repr."""


@dataclass
class Case:
    kind: type[Exception]
    dialect: str
    args: str
    op: str
    result: str
    message: str
    notes: list[str]
    semantics: str | None = None

    def source(self) -> str:
        return (f"func.func @main({self.args}) -> {self.result} {{\n"
                f"  %0 = {self.op}\n  func.return %0 : {self.result}\n}}\n")


TWO = "%x: tensor<10xf32>, %y: tensor<5xf32>"
CASES = [
    Case(rules.IncompatibleDims, "bcast", TWO,
         "bcast.add %x, %y : (tensor<10xf32>, tensor<5xf32>) -> tensor<10xf32>",
         "tensor<10xf32>", INCOMPATIBLE, INCOMPATIBLE_NOTES),
    Case(rules.IncompatibleDims, "bcast", TWO,
         "bcast.compare GT, %x, %y : (tensor<10xf32>, tensor<5xf32>) -> tensor<10xi1>",
         "tensor<10xi1>", INCOMPATIBLE, INCOMPATIBLE_NOTES),
    Case(rules.IncompatibleDims, "bcast", "%p: tensor<i1>, " + TWO,
         "bcast.select %p, %x, %y : (tensor<i1>, tensor<10xf32>, tensor<5xf32>) -> tensor<10xf32>",
         "tensor<10xf32>", "operands are not broadcast-compatible: tensor<i1>, tensor<10xf32>, tensor<5xf32>",
         [HEAD + "()\n" + " " * len(HEAD) + "10\n" + " " * len(HEAD) + " 5",
          "dimension -1: 1 vs 10 vs 5 (sizes other than 1 differ)"]),
    Case(rules.IncompatibleDims, "bcast", "%x: tensor<2xtensor<10xf32>>, %y: tensor<2xtensor<5xf32>>",
         "bcast.add %x, %y : (tensor<2xtensor<10xf32>>, tensor<2xtensor<5xf32>>) -> tensor<2xtensor<10xf32>>",
         "tensor<2xtensor<10xf32>>",
         "operands are not broadcast-compatible: tensor<2xtensor<10xf32>> and tensor<2xtensor<5xf32>>",
         ["nesting level 1, aligned from the right: 10\n" + " " * 41 + " 5",
          "nesting level 1, dimension -1: 10 vs 5 (neither is 1)"], "tml"),
    Case(rules.IncompatibleDims, "chlo", TWO,
         "chlo.broadcast_add %x, %y : (tensor<10xf32>, tensor<5xf32>) -> tensor<10xf32>",
         "tensor<10xf32>", INCOMPATIBLE, INCOMPATIBLE_NOTES),
    Case(rules.IncompatibleDims, "chlo", TWO,
         "chlo.broadcast_compare %x, %y {comparison_direction = #chlo<comparison_direction GT>} "
         ": (tensor<10xf32>, tensor<5xf32>) -> tensor<10xi1>",
         "tensor<10xi1>", INCOMPATIBLE, INCOMPATIBLE_NOTES),
    Case(rules.IncompatibleDims, "chlo", "%x: tensor<10xi32>, %y: tensor<5xi32>",
         "chlo.broadcast_and %x, %y : (tensor<10xi32>, tensor<5xi32>) -> tensor<10xi32>",
         "tensor<10xi32>", "operands are not broadcast-compatible: tensor<10xi32> and tensor<5xi32>",
         INCOMPATIBLE_NOTES),
    Case(rules.RuleError, "bcast", "%x: tensor<10x5xf32>, %y: tensor<5xf32>",
         "bcast.add %x, %y : (tensor<10x5xf32>, tensor<5xf32>) -> tensor<10x5xf32>", "tensor<10x5xf32>",
         "operands of different rank need broadcast_dimensions under xla semantics",
         ["only a rank-0 operand broadcasts without broadcast_dimensions"], "xla"),
    Case(rules.RuleError, "stablehlo", "%x: tensor<3xf32>",
         "stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x4xf32>", "tensor<4x4xf32>",
         "size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (4)", []),
    Case(rules.RuleError, "chlo", "%x: tensor<5xf32>, %y: tensor<10x5xf32>",
         "chlo.broadcast_add %x, %y {broadcast_dimensions = array<i64: 0, 1>} "
         ": (tensor<5xf32>, tensor<10x5xf32>) -> tensor<10x5xf32>", "tensor<10x5xf32>",
         "broadcast_dimensions has 2 entries but the lower-rank operand has rank 1",
         ["broadcast_dimensions needs one entry per dimension of the lower-rank operand"]),
]

IMPLICIT_BROADCASTING = {"bcast", "chlo"}
"""The dialects whose verifiers run the NumPy rule (``IncompatibleDims``);
stablehlo's ops never broadcast implicitly (its base class is tested below)."""


def test_every_rule_error_kind_has_a_case_in_every_dialect_that_raises_it():
    assert RULE_ERRORS == {rules.RuleError, rules.IncompatibleDims}
    want = {(k, d) for k in RULE_ERRORS for d in DIALECTS
            if k is not rules.IncompatibleDims or d in IMPLICIT_BROADCASTING}
    assert {(c.kind, c.dialect) for c in CASES} == want


def rejection(text: str, semantics: str | None = None):
    with pytest.raises(driver.InputError) as info:
        driver.load(text, "t.mlir", semantics)
    [report] = info.value.reports
    return report


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.kind.__name__}-{c.op.split()[0]}")
def test_rule_error_reaches_the_user_in_the_designed_wording(case: Case):
    report = rejection(case.source(), case.semantics)
    name = case.op.split()[0]
    assert report.message == f"'{name}' op {case.message}"
    assert report.notes == case.notes
    assert (report.loc.file, report.loc.line) == ("t.mlir", 2)
    assert not PYTHON_REPR.search(report.render()), report.render()


@pytest.mark.parametrize("base, op", [("bcast", "bcast.negate %x : tensor<10xf32>"),
                                      ("stablehlo", "stablehlo.negate %x : tensor<10xf32>")])
def test_base_verifiers_word_a_rule_failure_no_op_worded(monkeypatch, base, op):
    """A verifier that lets the NumPy rule's failure escape still gives the
    designed wording (the safety net of ``BcastOp`` and ``StablehloOp``)."""
    from bcast.ir import ops

    cls = ops.NegateOp if base == "bcast" else hlo.NegateOp
    hook = "verify_semantics" if base == "bcast" else "verify_op"

    def fail(self, *args):
        rules.broadcast_shapes((10,), (5,))

    monkeypatch.setattr(cls, hook, fail)
    report = rejection(f"func.func @main(%x: tensor<10xf32>) -> tensor<10xf32> {{\n  %0 = {op}\n"
                       "  func.return %0 : tensor<10xf32>\n}\n")
    assert report.message == f"'{op.split()[0]}' op operands are not broadcast-compatible: tensor<10xf32>"
    assert report.notes == INCOMPATIBLE_NOTES
