"""Every program in the FileCheck suite and in examples/ that runs is run:
each function of each valid chunk, on seeded inputs, through the reference
evaluator as written, through the NumPy backend's standard pipeline and
through the Array API target (on NumPy arrays); the results must agree
(bit-exact for integers and booleans).

Nothing is skipped silently: every chunk loads without flags, a function
holding an op bcast does not know must be refused by the backends
(``test_unknown_ops_are_refused``), a function with dynamic or bounded
dims runs on the reference and C backends (at sizes 0, 1 and 3, the same
results or the same error: ``test_dynamic_functions_run_on_c_as_on_the_reference``)
and must be refused, located, by the others
(``test_dynamic_functions_are_refused_by_static_backends``;
tests/lowering/test_dynamic_shapes.py runs them), and a function that
cannot run is listed in ``RUN_TIME_ERRORS`` with the exact error each
backend gives.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func

import bcast
from bcast.ir.diagnostics import is_unknown
from bcast.ir.types import is_dynamic_type
from bcast.tests import paths
from bcast.tools import driver
from bcast.tools.run import random_inputs

SOURCES = sorted(paths.FILECHECK.rglob("*.mlir")) + sorted(paths.EXAMPLES.rglob("*.mlir"))

def runs_only_known_ops(function: func.FuncOp) -> bool:
    """Whether a backend can run ``function``: ops bcast does not know are
    kept by bcast-opt and refused by every backend (open_world.mlir and
    tests/tools/test_open_world.py check that), so they are no example to run."""
    return not any(is_unknown(op) for op in function.walk())


def has_dynamic_dims(function: func.FuncOp) -> bool:
    """Whether ``function`` has a ``?`` or bounded dim anywhere (only the
    reference backend runs those so far: docs/semantics.md)."""
    types = [*function.function_type.inputs.data, *function.function_type.outputs.data]
    types += [t for op in function.walk() for t in (*op.operand_types, *op.result_types)]
    return any(is_dynamic_type(t) for t in types)


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
    with pytest.raises(bcast.BcastError, match="op (is not supported by (the reference backend|convert-stablehlo-to-bcast)"
                                               "|cannot be imported: unsupported element type)"):
        bcast.compile(text, backend="reference", entry=entry)


@pytest.mark.parametrize("path, index, text, entry", DYNAMIC_CASES)
@pytest.mark.parametrize("backend", ["numpy", "array-api"])
def test_dynamic_functions_are_refused_by_static_backends(path, index, text, entry, backend):
    """The reference backend compiles each (it runs them at every size);
    the others refuse them, located, naming themselves, until they run them."""
    bcast.compile(text, backend="reference", entry=entry)
    with pytest.raises(bcast.BcastError, match=rf"^<source>:\d+:\d+: error: .*which the {backend} backend does not support yet"):
        bcast.compile(text, backend=backend, entry=entry)


C_DYNAMIC_NOT_YET = {
    # the chunk's @declared (line 41) stops make-explicit, which runs on the whole module
    **{f"dynamic.mlir:0:@{name}": "<source>:41:8: error: 'bcast.add' op has a declared result type "
                                  "tensor<4xf32> more static than the inferred tensor<?xf32>, which "
                                  "bcast-make-explicit does not check explicitly yet"
       for name in ("numpy_rows", "declared", "families", "structural")},
    "make_explicit_dynamic_not_yet.mlir:0:@declared_more_static":
        "<source>:10:8: error: 'bcast.add' op has a declared result type tensor<4xf32> more static than the "
        "inferred tensor<?xf32>, which bcast-make-explicit does not check explicitly yet",
    "make_explicit_dynamic_not_yet.mlir:1:@transposing":
        "<source>:5:8: error: 'bcast.broadcast_in_dim' op has a transposing broadcast of dynamic dims, which "
        "bcast-make-explicit does not make explicit yet",
}
"""Dynamic functions the C backend's pipeline refuses (docs/ir.md, "The
explicit dynamic form": not yet made explicit): case id -> the error."""

C_DYNAMIC_NOTES_DIFFER = {
    "dynamic.mlir:2:@tml_rows", "dynamic.mlir:4:@xla_clamp", "make_explicit_dynamic.mlir:8:@explicit_broadcasts",
    "make_explicit_dynamic.mlir:11:@tml_strict",
}
"""Where the explicit form's check loses what the reference says beyond
NumPy's first line: its note (tml's and xla clamp's rule; an explicit
``broadcast_in_dim``'s words): strict xfails (the first line is the
reference's: tests/lowering/test_c_dynamic.py)."""


def dynamic_inputs(function: func.FuncOp, n: int, seed: int) -> list[object]:
    """``random_inputs`` with every dynamic dim ``n`` (at most its bound)."""
    from bcast.ir import rules
    from bcast.ir.types import flat_type_shape, numpy_dtype
    from bcast.tools.run import random_array
    from xdsl.dialects.builtin import IndexType

    rng = np.random.default_rng(seed)
    inputs: list[object] = []
    for t in function.function_type.inputs.data:
        if isinstance(t, IndexType):
            inputs.append(0)
            continue
        shape = tuple((n if d.bound is None else min(n, d.bound)) if isinstance(d, rules.Dynamic) else d
                      for d in flat_type_shape(t))
        inputs.append(random_array(rng, shape, numpy_dtype(t)))
    return inputs


@pytest.mark.parametrize("path, index, text, entry", [
    pytest.param(*case.values, id=case.id, marks=[pytest.mark.xfail(strict=True, reason="explicit form's notes")]
                 if case.id in C_DYNAMIC_NOTES_DIFFER else []) for case in DYNAMIC_CASES])
def test_dynamic_functions_run_on_c_as_on_the_reference(request, path, index, text, entry):
    """At sizes 0, 1 and 3 the C backend gives the reference's results, or
    its error, word for word."""
    case = request.node.callspec.id
    reference = bcast.compile(text, backend="reference", entry=entry)
    if case in C_DYNAMIC_NOT_YET:
        with pytest.raises(bcast.BcastError) as info:
            bcast.compile(text, backend="c", entry=entry)
        assert str(info.value) == C_DYNAMIC_NOT_YET[case]
        return
    compiled = bcast.compile(text, backend="c", entry=entry)
    for n in (0, 1, 3):
        inputs = dynamic_inputs(reference.function, n, index)
        try:
            want = reference(*inputs)
        except bcast.BcastError as e:
            with pytest.raises(bcast.BcastError) as info:
                compiled(*inputs)
            assert str(info.value) == str(e), n
            continue
        got = compiled(*inputs)
        want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape, n
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, equal_nan=True, err_msg=str(n))


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
