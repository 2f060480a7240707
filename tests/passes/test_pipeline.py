"""The standard pipeline preserves every program's results, pass by pass,
and reaches a fixed point.

Random programs of all three semantics (``tests/programs.py``) run through
the reference evaluator as written, then after each pass of
``bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse``
(and then ``bcast-fuse``); results must be identical (bit for bit, NaN equal
to NaN), the IR must verify after every pass, and running the pipeline a
second time must not change the printed IR. 3 x 170 programs per run.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bcast.lowering.reference import Evaluator
from bcast.tests.budget import examples
from bcast.tests.programs import MODES, assert_identical, assert_results, programs
from bcast.tools import driver
from bcast.tools.api import EXPLICIT_PIPELINE, STANDARD_PIPELINE
from bcast.tools.driver import parse_pipeline
from bcast.tools.opt import print_module

EXPLICIT = EXPLICIT_PIPELINE


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=examples(170), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_each_pass_preserves_results_and_pipeline_is_a_fixed_point(mode, data):
    program = data.draw(programs(mode=mode, max_ops=6))
    module = driver.load(program.text, "random.mlir")
    want = Evaluator(module).call("main", list(program.inputs))
    assert_results(program, tuple(want))
    ctx = driver.make_context()
    for name in STANDARD_PIPELINE.split(","):
        parse_pipeline(name).apply(ctx, module)
        driver.verify(module)
        assert_identical(Evaluator(module).call("main", list(program.inputs)), want)

    explicit = driver.load(program.text, "random.mlir")
    parse_pipeline(EXPLICIT).apply(ctx, explicit)
    once = print_module(explicit, False)
    parse_pipeline(EXPLICIT).apply(ctx, explicit)
    assert print_module(explicit, False) == once, "the pipeline is not a fixed point"


SHARED_SCALAR = """func.func @main(%x: tensor<3xf32>, %s: tensor<f32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %c = bcast.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %d = bcast.add %b, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %e = bcast.multiply %b, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %d, %e : tensor<4x3xf32>, tensor<4x3xf32>
}
"""


def test_sinking_then_canonicalize_and_cse_is_a_fixed_point():
    """bcast-sink-broadcasts no longer tidies up inside itself (issue 8): two
    ops sinking past one scalar broadcast each make a small copy of it, which
    only a cse after the pass merges. With cse after it, one run is final."""
    pipeline = "bcast-make-explicit,canonicalize,cse,bcast-sink-broadcasts,canonicalize,cse"
    ctx = driver.make_context()
    module = driver.load(SHARED_SCALAR, "shared.mlir")
    parse_pipeline(pipeline).apply(ctx, module)
    once = print_module(module, False)
    assert once.count("dims = [] : (tensor<f32>) -> tensor<3xf32>") == 1
    parse_pipeline(pipeline).apply(ctx, module)
    assert print_module(module, False) == once
