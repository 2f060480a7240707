"""Function signatures with element types bcast lacks, in the open world
(docs/contracts.md, "Ops bcast does not know"): it holds for them as for the
ops that use them, and only a backend that must run such a function refuses
it, located (tests/filecheck/tools/open_world_signature.mlir checks the IR
itself). The refusals run on modules written here, of ``tf32`` and
``complex<f16>``, types no backend computes (complex<f32> is bcast's on
every backend but C); a JAX export of f8E5M2 and complex values prints
back, goes through the rewriting pipelines and, written with ``-t
stablehlo``, runs on XLA as the export does."""

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
    """f8E5M2 and complex values next to an f32 broadcast bcast simplifies."""
    return h * 2, z * z, x + row


ARGUMENTS = (np.arange(4).astype(jnp.float8_e5m2), (np.arange(2) + 1j).astype(np.complex64),
             np.arange(12, dtype=np.float32).reshape(4, 3), np.arange(3, dtype=np.float32))  # fmt: skip

FOREIGN = """func.func public @main(%h: tensor<4xtf32>, %x: tensor<4x3xf32>, %row: tensor<3xf32>) -> (tensor<4xtf32>, tensor<4x3xf32>) {
  %0 = stablehlo.multiply %h, %h : tensor<4xtf32>
  %1 = bcast.add %x, %row : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0, %1 : tensor<4xtf32>, tensor<4x3xf32>
}
"""
"""A ``tf32`` op (a type bcast lacks) beside an f32 broadcast."""

THROUGH = """func.func public @main(%z: tensor<2xcomplex<f16>>) -> tensor<2xcomplex<f16>> {
  func.return %z : tensor<2xcomplex<f16>>
}
"""
"""A ``complex<f16>`` value (a type bcast lacks) only passed through."""


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
    assert "tensor<4xf8E5M2>" in out and "tensor<2xcomplex<f32>>" in out


def test_the_export_goes_through_the_pipeline_and_runs_on_xla_as_before(capsys, export: Path) -> None:
    code, out, err = run_opt(capsys, str(export), "-p", STANDARD_PIPELINE, "-t", "stablehlo")
    assert (code, err) == (0, "")
    assert "bcast." not in out
    verify_stablehlo(out)
    for want, got in zip(run_stablehlo(export.read_text(), ARGUMENTS), run_stablehlo(out, ARGUMENTS), strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_a_module_of_a_lacking_type_prints_back_and_goes_through_the_pipeline(capsys, tmp_path: Path) -> None:
    path = tmp_path / "foreign.mlir"
    path.write_text(FOREIGN)
    code, out, err = run_opt(capsys, str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo")
    assert (code, err) == (0, "")
    assert "stablehlo.multiply %h, %h : tensor<4xtf32>" in out and "bcast." not in out


@pytest.mark.parametrize("backend", RUNNABLE)
def test_a_backend_refuses_the_first_op_of_a_lacking_type_located(backend) -> None:
    """The strict import of a program to run names the first op on ``tf32``
    values, at its line and column."""
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(FOREIGN, backend=backend, filename="foreign.mlir")
    assert str(info.value).startswith("foreign.mlir:2:8: error: 'stablehlo.multiply' op cannot be imported: "
                                      "unsupported element type tf32")


@pytest.mark.parametrize("backend", RUNNABLE)
def test_a_backend_refuses_a_signature_it_cannot_run_at_the_function(backend) -> None:
    """A function that only passes a ``complex<f16>`` value through has no
    op to refuse: the backend refuses its signature, at the function."""
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(THROUGH, backend=backend, filename="through.mlir")
    message = str(info.value)
    assert message.startswith("through.mlir:1:1: error: 'func.func' op argument 0 of type tensor<2xcomplex<f16>> "
                              f"is not supported by the {backend} backend: unsupported element type complex<f16>")
