"""Every program in the FileCheck suite and in examples/ that runs is run:
each function of each valid chunk, on seeded inputs, through the reference
evaluator as written, through the NumPy backend's standard pipeline and
through the Array API target (on NumPy arrays); the results must agree
(bit-exact for integers and booleans).

Nothing is skipped silently: a chunk that does not load without its RUN
line's flags is listed in ``NEEDS_FLAGS`` with the error it gives, and a
function that cannot run is listed in ``RUN_TIME_ERRORS`` with the exact
error each backend gives.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func

import bcast
from bcast.tests import paths
from bcast.tools import driver
from bcast.tools.run import random_inputs

SOURCES = sorted(paths.FILECHECK.rglob("*.mlir")) + sorted(paths.EXAMPLES.rglob("*.mlir"))

NEEDS_FLAGS = {
    # RUN: bcast-opt %s --allow-unregistered-dialect
    ("driver_unregistered.mlir", 0): "dialect 'foo' of op 'foo.bar' is not registered",
    ("driver_multiblock.mlir", 0): "dialect 'foo' of op 'foo.op' is not registered",
}
"""Chunks written to load only under their RUN line's flags: (file, chunk)
-> the error they give without them."""


def _declaration_error(case: str, callee: str) -> dict[str, str]:
    """What each backend says when the entry calls ``@callee``, a declaration:
    both locate it at the declaration."""
    file, _, _ = case.split(":")
    text = next(p for p in SOURCES if p.name == file).read_text()
    line = next(n for n, s in enumerate(text.splitlines(), 1) if f"func.func private @{callee}(" in s)
    error = f"<source>:{line}:1: error: 'func.func' op is a declaration without a body"
    return {"reference": error, "numpy": error, "array-api": error}


RUN_TIME_ERRORS = {
    # calls the declaration @callee (the chunk shows that calls separate fusions)
    "fuse.mlir:0:@barriers": _declaration_error("fuse.mlir:0:@barriers", "callee"),
}
"""Functions that cannot run on any input: case id -> backend -> the error."""


def chunks():
    """(path, index, chunk text) of every chunk that should load."""
    for path in SOURCES:
        text = path.read_text()
        for index, chunk in enumerate(driver.split_input(text, "// -----" in text)):
            if "expected-error" in chunk.text or "bcast." not in chunk.text:
                continue  # written to be rejected, or no bcast op to run
            yield path, index, chunk.text


def load_failures() -> dict[tuple[str, int], str]:
    failures = {}
    for path, index, text in chunks():
        try:
            driver.load(text, str(path))
        except driver.InputError as e:
            failures[(path.name, index)] = str(e)
    return failures


def runnable_chunks():
    for path, index, text in chunks():
        if (path.name, index) in NEEDS_FLAGS:
            continue  # test_every_chunk_loads_or_needs_its_flags checks them
        try:  # as bcast.compile loads it: StableHLO imported, private helpers inlined
            module = driver.load(text, str(path), import_stablehlo=True)
        except driver.InputError:
            continue  # test_every_chunk_loads_or_needs_its_flags reports it
        for op in module.walk():
            if isinstance(op, func.FuncOp) and op.body.blocks:
                yield pytest.param(path, index, text, op.sym_name.data,
                                   id=f"{path.name}:{index}:@{op.sym_name.data}")


CASES = list(runnable_chunks())


def test_there_are_many_runnable_examples():
    assert len(CASES) > 100


def test_every_chunk_loads_or_needs_its_flags():
    failures = load_failures()
    unexpected = {k: v for k, v in failures.items() if k not in NEEDS_FLAGS}
    assert not unexpected, unexpected
    assert set(failures) == set(NEEDS_FLAGS)
    for key, message in NEEDS_FLAGS.items():
        assert message in failures[key], (key, failures[key])


def test_run_time_errors_name_existing_cases():
    assert set(RUN_TIME_ERRORS) <= {case.id for case in CASES}


@pytest.mark.parametrize("path, index, text, entry", CASES)
def test_example_runs_the_same_on_both_backends(request, path, index, text, entry):
    reference = bcast.compile(text, backend="reference", entry=entry)
    inputs = random_inputs(reference.function, seed=index)
    expected_errors = RUN_TIME_ERRORS.get(request.node.callspec.id)
    if expected_errors is not None:
        for backend, message in expected_errors.items():
            compiled = bcast.compile(text, backend=backend, entry=entry)
            with pytest.raises(bcast.BcastError) as info:
                compiled(*inputs)
            assert str(info.value) == message, backend
        return
    want = reference(*inputs)
    want = want if isinstance(want, tuple) else (want,)
    for backend in ("numpy", "array-api"):
        got = bcast.compile(text, backend=backend, entry=entry)(*inputs)
        got = got if isinstance(got, tuple) else (got,)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape, backend
            if w.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True, err_msg=backend)
            else:
                np.testing.assert_array_equal(g, w, err_msg=backend)
