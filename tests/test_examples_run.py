"""Every program in the FileCheck suite and in examples/ that runs is run:
each function of each valid chunk, on seeded inputs, through the reference
evaluator as written and through the NumPy backend's standard pipeline; the
results must agree (bit-exact for integers and booleans)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func

import bcast
from bcast.tools.run import random_inputs
from bcast.tools import driver

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "tests" / "filecheck").glob("*.mlir")) + sorted(
    (ROOT / "examples").rglob("*.mlir")
)


def runnable_chunks():
    for path in SOURCES:
        text = path.read_text()
        for index, chunk in enumerate(driver.split_input(text, "// -----" in text)):
            if "expected-error" in chunk.text or "bcast." not in chunk.text:
                continue
            try:
                module = driver.load(chunk.text, str(path))
            except driver.InputError:
                continue  # written to be rejected under another RUN line's flags
            for op in module.walk():
                if isinstance(op, func.FuncOp) and op.body.blocks:
                    yield pytest.param(path, index, chunk.text, op.sym_name.data,
                                       id=f"{path.name}:{index}:@{op.sym_name.data}")


CASES = list(runnable_chunks())


def test_there_are_many_runnable_examples():
    assert len(CASES) > 100


@pytest.mark.parametrize("path, index, text, entry", CASES)
def test_example_runs_the_same_on_both_backends(path, index, text, entry):
    reference = bcast.compile(text, backend="reference", entry=entry)
    inputs = random_inputs(reference.function, seed=index)
    try:
        want = reference(*inputs)
    except bcast.tools.api.BcastError as e:
        pytest.skip(f"fails at run time on random inputs: {e}")
    got = bcast.compile(text, backend="numpy", entry=entry)(*inputs)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)
