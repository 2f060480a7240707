"""Function signatures with element types bcast lacks (complex, an f8E5M2 value before bcast computed f8), in
JAX exports made at test time: the open world (docs/contracts.md, "Ops bcast
does not know") holds for them as for the ops that use them. ``bcast-opt``
prints such an export back, runs the rewriting pipelines over it and writes
it back with ``-t stablehlo`` (XLA runs it as it runs the export); only a
backend that must run it refuses it, located
(tests/filecheck/tools/open_world_signature.mlir checks the IR itself)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bcast
from bcast.tools import opt
from bcast.tools.targets import RUNNABLE, STANDARD_PIPELINE

jax = pytest.importorskip("jax")
jnp = jax.numpy

from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo  # noqa: E402


def mixed(h, z, x, row):
    """complex values (``h`` was f8E5M2, now bcast's type) next to an f32 broadcast bcast simplifies."""
    return h * 2, z * z, x + row


ARGUMENTS = ((np.arange(4) + 2j).astype(np.complex64), (np.arange(2) + 1j).astype(np.complex64),
             np.arange(12, dtype=np.float32).reshape(4, 3), np.arange(3, dtype=np.float32))  # fmt: skip


def through(z):
    return z


@pytest.fixture(params=[False, True], ids=["pretty", "located-generic"])
def export(request, tmp_path: Path) -> Path:
    path = tmp_path / "mixed.mlir"
    path.write_text(lower_to_stablehlo(mixed, *ARGUMENTS, located=request.param))
    return path


def run_opt(capsys, *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_export_prints_back(capsys, export: Path) -> None:
    code, out, err = run_opt(capsys, str(export))
    assert (code, err) == (0, "")
    assert "tensor<4xcomplex<f32>>" in out and "tensor<2xcomplex<f32>>" in out


def test_the_export_goes_through_the_pipeline_and_runs_on_xla_as_before(capsys, export: Path) -> None:
    code, out, err = run_opt(capsys, str(export), "-p", STANDARD_PIPELINE, "-t", "stablehlo")
    assert (code, err) == (0, "")
    assert "bcast." not in out
    verify_stablehlo(out)
    for want, got in zip(run_stablehlo(export.read_text(), ARGUMENTS), run_stablehlo(out, ARGUMENTS), strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", RUNNABLE)
def test_a_backend_refuses_the_first_f8_op_located(backend) -> None:
    """The strict import of a program to run names the first op on complex values
    (the constant 2 of ``h * 2``), at its line."""
    text = lower_to_stablehlo(mixed, *ARGUMENTS)
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(text, backend=backend, filename="mixed.mlir")
    assert str(info.value).startswith("mixed.mlir:3:12: error: 'stablehlo.constant' op cannot be imported: "
                                      "unsupported element type complex<f32>")
    with pytest.raises(bcast.BcastError, match="'stablehlo.constant' op cannot be imported: unsupported element"):
        bcast.from_jax(mixed, *ARGUMENTS)


@pytest.mark.parametrize("backend", RUNNABLE)
def test_a_backend_refuses_a_signature_it_cannot_run_at_the_function(backend) -> None:
    """A function that only passes a complex value through has no op to
    refuse: the backend refuses its signature, at the function."""
    text = lower_to_stablehlo(through, ARGUMENTS[1])
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(text, backend=backend, filename="through.mlir")
    message = str(info.value)
    assert message.startswith("through.mlir:2:3: error: 'func.func' op argument 0 of type tensor<2xcomplex<f32>> "
                              f"is not supported by the {backend} backend: unsupported element type complex<f32>")
