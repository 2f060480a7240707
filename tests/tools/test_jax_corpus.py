"""A corpus of real JAX programs (``bcast.tests.jax_corpus``: activations,
norms, layers, losses, optimizer steps, indexing), exported by ``jax.jit``
at test time in every form bcast reads (pretty, pretty with locations,
generic with locations), run by ``bcast.compile`` on every backend against
``jax.jit``'s results, and round-tripped: ``bcast-opt -p <standard
pipeline> -t stablehlo`` of the export, checked by jaxlib and run by XLA,
gives ``jax.jit``'s results too.

A program bcast cannot run yet is listed in ``NEEDS`` with the ops its
import keeps (``kept_ops``); its runs are strict xfails that must raise a
``BcastError`` naming one of those ops, so the table stays true both ways:
an op bcast learns makes the xfail pass (the run fails until the table
loses the op), and ``test_needs_is_what_the_import_keeps`` compares the
table with the import itself.

The quick run (about 60 s of wall time on the loaded 2-core machine) runs
the pretty and generic exports on every backend and round-trips the
generic one; ``slow`` (the thorough run) adds the pretty export with
locations on every backend, the pretty round trips and the summary table,
which repeat what the quick run checks in another form.

Tolerances (``bcast.tests.jax_corpus.TOLERANCE``): integers and booleans
bit for bit; floats to a few units in the last place of their type, since
bcast's backends call the C library's (or NumPy's) ``exp``, ``tanh``,
``log1p``... and XLA its own approximations (and may contract ``a - b * c``
to a fused multiply-add), each within an ulp or two, and a softmax or a
norm sums a row of such values: f32 ``rtol=2e-5, atol=2e-6`` (as
``test_from_jax``; ``atol`` covers results that cancel to near zero, such
as ``expm1(x/2) - log1p(|x|)``), f16 ``rtol=atol=4e-3`` (about 4 ulp: XLA
computes an f16 op in f32 and rounds once, bcast may round after each op).
"""

from __future__ import annotations

import re

import pytest

import bcast
from bcast.tools import opt
from bcast.tools.api import BACKENDS
from bcast.tools.targets import STANDARD_PIPELINE

pytest.importorskip("jax")

from bcast.tests.jax_corpus import FORMS, PROGRAMS, assert_as_jax, corpus_table, export, kept_ops  # noqa: E402
from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo  # noqa: E402

NEEDS: dict[str, tuple[str, ...]] = {}
"""The programs bcast cannot run yet and the ops each needs (those its
import keeps); every other program of the corpus runs on every backend."""

C_REFUSES: dict[str, str] = {"spectral_lowpass": "bcast.fft", "power_spectrum": "bcast.fft"}
"""The programs the C backend refuses, located, and the op it names (C runs
static loops on real data: docs/ir.md, "Control flow"; an ``fft``'s complex
values: docs/c-backend.md, "Complex numbers"); the other backends run them."""

UNSUPPORTED = re.compile(r"'([\w.]+)' op [^\n]*?is not supported")


def programs():
    """Each program, a strict xfail that must raise ``BcastError`` when it
    ``NEEDS`` ops."""
    return [pytest.param(name, id=name, marks=[pytest.mark.xfail(
        strict=True, raises=bcast.BcastError, reason=f"needs {', '.join(NEEDS[name])}")]
        if name in NEEDS else []) for name in PROGRAMS]


def raising_only_for_needed_ops(name: str, action):
    """``action()``; a ``BcastError`` passes through (the xfail) only when
    it names an op the program ``NEEDS``; any other error fails the test."""
    try:
        return action()
    except bcast.BcastError as e:
        named = UNSUPPORTED.search(str(e))
        assert named and named.group(1) in NEEDS.get(name, ()), str(e)
        raise


def test_the_corpus_is_large() -> None:
    assert len(PROGRAMS) >= 30
    assert len(PROGRAMS) - len(NEEDS) >= 25


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_needs_is_what_the_import_keeps(name: str) -> None:
    assert kept_ops(export(name).texts["generic"]) == NEEDS.get(name, ())


@pytest.mark.quick_share(3)
@pytest.mark.parametrize("form", [pytest.param(form, marks=[pytest.mark.slow] if form == "debug" else [])
                                  for form in FORMS])
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", programs())
def test_program_runs_as_jax_does(name: str, backend: str, form: str) -> None:
    exported = export(name)
    if backend == "c" and name in C_REFUSES:
        with pytest.raises(bcast.BcastError, match=rf"error: '{C_REFUSES[name]}' op [^\n]*is not supported by "
                                                   "bcast-lower-to-loops"):
            bcast.compile(exported.texts[form], backend=backend, filename=f"{name}.{form}.mlir")
        return
    run = raising_only_for_needed_ops(
        name, lambda: bcast.compile(exported.texts[form], backend=backend, filename=f"{name}.{form}.mlir"))
    assert_as_jax(run(*exported.args), exported.expected)


def bcast_opt_to_stablehlo(capsys, tmp_path, name: str, form: str) -> str:
    """``bcast-opt FILE -p <standard pipeline> -t stablehlo`` of the export;
    a ``BcastError`` with its diagnostic when it refuses."""
    path = tmp_path / f"{name}.{form}.mlir"
    path.write_text(export(name).texts[form])
    code = opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"])
    out, err = capsys.readouterr()
    if code != 0:
        assert (code, out) == (1, "") and "Traceback" not in err, err
        raise bcast.BcastError(err)
    assert err == ""
    return out


@pytest.mark.quick_share(3)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_round_trip_of_the_generic_export_runs_on_xla(capsys, tmp_path, name: str) -> None:
    """Every program, those with ops bcast keeps too: bcast-opt writes them
    back, and XLA runs what it wrote to ``jax.jit``'s results."""
    exported = export(name)
    stablehlo = bcast_opt_to_stablehlo(capsys, tmp_path, name, "generic")
    assert "bcast." not in stablehlo
    verify_stablehlo(stablehlo)
    assert_as_jax(run_stablehlo(stablehlo, exported.args), exported.expected)


@pytest.mark.slow
@pytest.mark.parametrize("form", ["pretty", "debug"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_round_trip_of_the_pretty_export_runs_on_xla(capsys, tmp_path, name: str, form: str) -> None:
    """The pretty forms, those with ops bcast keeps too: an op bcast's
    parser has no custom form for is read through jaxlib
    (docs/contracts.md, "Ops bcast does not know")."""
    exported = export(name)
    stablehlo = bcast_opt_to_stablehlo(capsys, tmp_path, name, form)
    assert "bcast." not in stablehlo
    verify_stablehlo(stablehlo)
    assert_as_jax(run_stablehlo(stablehlo, exported.args), exported.expected)


@pytest.mark.slow
def test_summary_table(capsys) -> None:
    """The table (``pytest -s`` shows it; ``benchmarks/jax_corpus.py``
    prints it too): its count agrees with ``NEEDS``."""
    table = corpus_table()
    with capsys.disabled():
        print("\n" + table)
    assert table.endswith(f"{len(PROGRAMS) - len(NEEDS) - len(C_REFUSES)} of {len(PROGRAMS)} programs run on every backend "
                          f"({', '.join(BACKENDS)})")
