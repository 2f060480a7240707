"""Every program in the FileCheck suite and in examples/ that runs is run:
each function of each valid chunk, on seeded inputs, through the reference
evaluator as written, through the NumPy backend's standard pipeline and
through the Array API target (on NumPy arrays); the results must agree
(bit-exact for integers and booleans).

Nothing is skipped silently: every chunk loads without flags, a function
holding an op bcast does not know must be refused by the backends
(``test_unknown_ops_are_refused``), a function with dynamic or bounded
dims runs on the reference, NumPy, Array API and C backends at several
sizes (0 and 1 included) with equal results or equal errors
(``test_dynamic_functions_run_the_same_on_every_dynamic_backend``;
tests/lowering/test_dynamic_shapes.py tests them further), and a function that
cannot run is listed in ``RUN_TIME_ERRORS`` with the exact error each
backend gives.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects import func

import bcast
from bcast.ir import ops as bc
from bcast.ir.control_flow import CONTROL_FLOW_OPS
from bcast.ir.diagnostics import is_unknown
from bcast.ir.rules import Dynamic
from bcast.ir.types import is_dynamic_type
from bcast.tests import paths
from bcast.tests.edge_values import NIBBLE_REFUSAL
from bcast.tools import driver
from bcast.tools.run import random_array, random_inputs

SOURCES = sorted(paths.FILECHECK.rglob("*.mlir")) + sorted(paths.EXAMPLES.rglob("*.mlir"))

def runs_only_known_ops(function: func.FuncOp) -> bool:
    """Whether a backend can run ``function``: ops bcast does not know are
    kept by bcast-opt and refused by every backend (open_world.mlir and
    tests/tools/test_open_world.py check that), so they are no example to run."""
    return not any(is_unknown(op) for op in function.walk())


def uses_nibbles(module) -> bool:
    """Whether a value of ``module`` is ``i4`` or ``ui4``, which the
    array-api target refuses (the standard has no 4-bit integers)."""
    types = [t for op in module.walk() for t in (*op.operand_types, *op.result_types)]
    types += [t for op in module.walk() if isinstance(op, func.FuncOp)
              for t in (*op.function_type.inputs.data, *op.function_type.outputs.data)]
    return any(getattr(t, "element_type", None) is not None and str(t.element_type) in ("i4", "ui4") for t in types)


def has_dynamic_dims(function: func.FuncOp) -> bool:
    """Whether ``function`` has a ``?`` or bounded dim anywhere (those are
    ``DYNAMIC_CASES``, run at several sizes)."""
    types = [*function.function_type.inputs.data, *function.function_type.outputs.data]
    types += [t for op in function.walk() for t in (*op.operand_types, *op.result_types)]
    return any(is_dynamic_type(t) for t in types)


def _declaration_error(case: str, callee: str) -> dict[str, str]:
    """What each backend says when the entry calls ``@callee``, a declaration:
    both locate it at the declaration."""
    file, _, _ = case.split(":")
    text = next(p for p in SOURCES if p.name == file).read_text()
    line = next(n for n, s in enumerate(text.splitlines(), 1) if f"func.func private @{callee}(" in s)
    return _on_every_backend(f"<source>:{line}:1: error: 'func.func' op is a declaration without a body")


def _on_every_backend(error: str) -> dict[str, str]:
    return {"reference": error, "numpy": error, "array-api": error}


RUN_TIME_ERRORS = {
    # calls the declaration @callee (the chunk shows that calls separate fusions)
    "fuse.mlir:0:@barriers": _declaration_error("fuse.mlir:0:@barriers", "callee"),
    # a static result dim whose size an argument passes: the random size (-1) contradicts it
    "canonicalize_dynamism_import.mlir:1:@iota_of_argument_size_static_result": _on_every_backend(
        "<source>:10:8: error: stablehlo.dynamic_iota: output size 0 is -1 at run time, but the result type has 4 "
        "there"),
    "canonicalize_dynamism_import.mlir:4:@reshape_to_argument_sizes_static_result": _on_every_backend(
        "<source>:7:8: error: stablehlo.dynamic_reshape: output size 0 is -1 at run time, but the result type has 1 "
        "there"),
}
"""Functions that fail on the examples' random inputs (``fuse.mlir``'s on any
input): case id -> backend -> the error."""


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


def runnable_chunks(known: bool = True, dynamic: bool = False):
    """Each function of each chunk (as bcast.compile loads it: StableHLO
    imported, private helpers inlined) that holds only ops bcast knows, or,
    with ``known=False``, one that holds an op bcast does not know (or a
    chunk whose strict import refuses one); of the known ones, those with
    static shapes, or with ``dynamic``, those with a dynamic dim."""
    for path, index, text in chunks():
        try:
            module = driver.load(text, str(path), import_stablehlo=True)
        except driver.InputError:  # the strict import refuses an op (the chunk loads: test_every_chunk_loads)
            if not known:
                yield pytest.param(path, index, text, "main", id=f"{path.name}:{index}")
            continue
        for op in module.walk():
            if (isinstance(op, func.FuncOp) and op.body.blocks and runs_only_known_ops(op) == known
                    and (not known or has_dynamic_dims(op) == dynamic)):
                yield pytest.param(path, index, text, op.sym_name.data,
                                   id=f"{path.name}:{index}:@{op.sym_name.data}")


CASES = list(runnable_chunks())
UNKNOWN_OP_CASES = list(runnable_chunks(known=False))
DYNAMIC_CASES = list(runnable_chunks(dynamic=True))


@pytest.mark.parametrize("path, index, text, entry", UNKNOWN_OP_CASES)
def test_unknown_ops_are_refused(path, index, text, entry):
    # the import names the op, or the form of it it does not take ("scatter with this update computation"),
    # or a declared result less static than its sizes make (bcast has no op that forgets a static size)
    with pytest.raises(bcast.BcastError, match="op (.*is not supported by (the reference backend|convert-stablehlo-to-bcast)"
                                               "|cannot be imported: unsupported element type"
                                               "|declares .*, but its sizes make )"):
        bcast.compile(text, backend="reference", entry=entry)


SIZE_OPS = (bc.SizeToTensorOp, bc.SizeFromTensorOp, bc.ShapeAssertionOp, bc.DynamicReshapeOp, bc.DynamicIotaOp,
            bc.SetDimensionSizeOp)
REFUSED_SIZE_OPS = {"numpy": (), "array-api": (), "c": ()}
"""The size ops of the StableHLO import of dynamic programs (docs/ir.md)
each backend refuses, located, so far: none (every backend runs them all;
the C backend at entry, lowering/c_sizes.py). The C backend refuses a dynamic
``bcast.while``/``bcast.case`` (``CONTROL_FLOW_OPS``) whose result sizes are
not known before the call, located (docs/c-backend.md, "Control flow"), and
runs the others."""

def sized_inputs(function: bcast.tools.api.Compiled, size: int, seed: int) -> list[np.ndarray]:
    """Seeded inputs with every ``?`` dim ``size`` (at most its bound), and
    every ``index`` argument ``size`` too (in these programs an index is a
    size or a position: either way the backends must agree)."""
    rng = np.random.default_rng(seed)
    return [size if spec.shape is None else
            random_array(rng, tuple(min(size, d.bound if d.bound is not None else size)
                                    if isinstance(d, Dynamic) else d for d in spec.shape), spec.dtype)
            for spec in function.arguments]


@pytest.mark.quick_share(3)
@pytest.mark.parametrize("path, index, text, entry", DYNAMIC_CASES)
def test_dynamic_functions_run_the_same_on_every_dynamic_backend(path, index, text, entry):
    """At sizes 0, 1 and 3 of every ``?``, numpy, array-api and C give the
    reference's results, or its error word for word (the explicit form's
    check carries the note of the implicit op's rule)."""
    reference = bcast.compile(text, backend="reference", entry=entry)
    for backend in ("numpy", "array-api", "c"):
        reference_only = [op.name for op in reference.module.walk() if isinstance(op, REFUSED_SIZE_OPS[backend])]
        if reference_only:
            with pytest.raises(bcast.BcastError, match=rf"^<source>:\d+:\d+: error: '({'|'.join(reference_only)})' "
                                                       r"op (is not supported by|has dynamic dimensions)"):
                bcast.compile(text, backend=backend, entry=entry)
            continue
        try:
            compiled = bcast.compile(text, backend=backend, entry=entry)
        except bcast.BcastError as e:  # only control flow whose sizes C cannot know before the call
            assert backend == "c" and any(isinstance(op, CONTROL_FLOW_OPS) for op in reference.module.walk())
            assert re.match(r"^<source>:\d+:\d+: error: 'bcast\.(while|case)' op is not supported by "
                            r"bcast-lower-to-loops", str(e)), str(e)
            continue
        for size in (0, 1, 3):
            inputs = sized_inputs(reference, size, seed=index)
            want, got = outcome(reference, inputs), outcome(compiled, inputs)
            if isinstance(want, str):
                assert got == want, (backend, size)
                continue
            assert not isinstance(got, str), (backend, size, got)
            for g, w in zip(got, want, strict=True):
                assert g.dtype == w.dtype and g.shape == w.shape, (backend, size)
                np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True, err_msg=backend)


def outcome(function, inputs) -> tuple[np.ndarray, ...] | str:
    """The results as a tuple, or the error's message."""
    try:
        results = function(*inputs)
    except bcast.BcastError as e:
        return str(e)
    return results if isinstance(results, tuple) else (results,)


def test_there_are_dynamic_examples():
    assert len(DYNAMIC_CASES) >= 5


def test_there_are_many_runnable_examples():
    assert len(CASES) > 100


def test_every_chunk_loads():
    """With no flags: ops of other dialects are kept (the open world)."""
    failures = load_failures()
    assert not failures, failures


def test_run_time_errors_name_existing_cases():
    assert set(RUN_TIME_ERRORS) <= {case.id for case in CASES}


@pytest.mark.quick_share(3)
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
        if backend == "array-api" and uses_nibbles(reference.module):  # refused, located (docs/array-api.md)
            with pytest.raises(bcast.BcastError, match=r"^<source>:\d+:\d+: error: .* " + NIBBLE_REFUSAL):
                bcast.compile(text, backend=backend, entry=entry)
            continue
        got = bcast.compile(text, backend=backend, entry=entry)(*inputs)
        got = got if isinstance(got, tuple) else (got,)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape, backend
            if w.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True, err_msg=backend)
            else:
                np.testing.assert_array_equal(g, w, err_msg=backend)
