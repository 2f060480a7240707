"""The C target's loop passes (``targets.C_LOOP_PIPELINE``) keep the loop IR
upstream MLIR with the same meaning: after them, ``mlir-opt`` 19 verifies
every lowering test program, and the program compiled by upstream tools
(``memref_abi``) gives the reference evaluator's results. Running the
passes twice changes nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.passes import PassPipeline
from xdsl.printer import Printer

from bcast.lowering import memref_abi
from bcast.passes import available_passes
from bcast.tests.passes.test_lower_to_loops import PROGRAMS, check_loops_match_reference, needs_llvm
from bcast.tools import driver, targets

PIPELINE = targets.TARGETS["c"].emit_pipeline


def text(module) -> str:
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def loop_ir(src: str) -> str:
    return text(driver.load(src, "<test>", pipeline=PIPELINE))


def test_the_c_target_runs_the_loop_passes_after_lowering():
    assert PIPELINE.endswith(",bcast-lower-to-loops," + targets.C_LOOP_PIPELINE)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_second_run_changes_nothing(name):
    module = driver.load(PROGRAMS[name][0], "<test>", pipeline=PIPELINE)
    once = text(module)
    PassPipeline.parse_spec(available_passes(), targets.C_LOOP_PIPELINE).apply(Context(), module)
    assert text(module) == once


@needs_llvm
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mlir_opt_verifies(name):
    memref_abi.verify(loop_ir(PROGRAMS[name][0]))


@pytest.mark.quick_share(2)
@needs_llvm
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_compiled_loops_match_reference(name):
    check_loops_match_reference(name, loop_ir)


BIG = """
func.func @main(%x: tensor<4096x2048xf32>, %row: tensor<2048xf32>) -> tensor<4096x2048xf32> {
  %r = bcast.add %x, %row : (tensor<4096x2048xf32>, tensor<2048xf32>) -> tensor<4096x2048xf32>
  func.return %r : tensor<4096x2048xf32>
}
"""


@needs_llvm
def test_mlir_opt_verifies_the_marks_of_a_large_result():
    """Threads, vectorization and streaming stores (upstream's nontemporal)."""
    text = loop_ir(BIG)
    assert "nontemporal = true" in text and "bcast.threads" in text and "bcast.vectorize" in text
    memref_abi.verify(text)
