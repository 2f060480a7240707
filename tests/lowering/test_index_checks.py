"""Run-time index checks: the same on both backends and before and after
``bcast-make-explicit``, located at the op, and never after an ``out`` has
been written.

Index-access broadcasting (a size-1 dim takes any index) holds under ``tml``
only (docs/semantics.md): under ``numpy`` and ``xla`` a dynamic index on a
size-1 dim is checked at run time like any other.
"""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tools.driver import load

BACKENDS = ("reference", "numpy")

EXTRACT = """{header}func.func @main(%x: tensor<1x3xf32>, %i: index) -> tensor<f32> {{
  %e = bcast.extract %x[%i, 2] : (tensor<1x3xf32>, index) -> tensor<f32>
  func.return %e : tensor<f32>
}}{footer}"""

ASSIGN = """{header}func.func @main(%d: tensor<1x3xf32>, %i: index, %s: tensor<3xf32>) -> tensor<1x3xf32> {{
  %r = bcast.assign %d[%i], %s : (tensor<1x3xf32>, index, tensor<3xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}}{footer}"""


def program(template: str, semantics: str) -> str:
    if semantics == "numpy":
        return template.format(header="", footer="")
    return template.format(header=f'module attributes {{bcast.semantics = "{semantics}"}} {{\n', footer="\n}")


X = np.array([[1.0, 2.0, 3.0]], np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", [999, 1, -5])
def test_dynamic_index_on_a_size_1_dim_is_checked_outside_tml(backend: str, index: int) -> None:
    f = bcast.compile(program(EXTRACT, "numpy"), backend=backend, filename="p.mlir")
    with pytest.raises(bcast.BcastError) as e:
        f(X, index)
    assert str(e.value).startswith("p.mlir:2:8: error: 'bcast.extract' op index 0 ")
    assert f(X, 0) == 3.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_assign_index_on_a_size_1_dim_is_checked_outside_tml(backend: str) -> None:
    f = bcast.compile(program(ASSIGN, "numpy"), backend=backend, filename="p.mlir")
    with pytest.raises(bcast.BcastError, match=r"^p\.mlir:2:8: error: 'bcast\.assign' op index 0 \(7\)"):
        f(X, 7, np.ones(3, np.float32))


def test_make_explicit_keeps_the_dynamic_index_outside_tml() -> None:
    for semantics in ("numpy", "xla"):
        module = load(program(EXTRACT, semantics), "p.mlir", pipeline="bcast-make-explicit")
        assert "bcast.extract %x[%i, 2]" in str(module)
    module = load(program(EXTRACT, "tml"), "p.mlir", pipeline="bcast-make-explicit")
    assert "bcast.extract %x[0, 2]" in str(module)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", [999, 1, 0, -5])
def test_tml_reads_element_0_for_any_run_time_index_on_a_size_1_dim(backend: str, index: int) -> None:
    """(A negative *literal* is rejected when verifying: invalid_indexing.mlir.)"""
    f = bcast.compile(program(EXTRACT, "tml"), backend=backend)
    assert f(X, index) == 3.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_time_error_leaves_every_out_untouched(backend: str) -> None:
    """The fused add could be written straight into out[0]; the extract then
    fails: the caller's out[0] must keep its bytes."""
    f = bcast.compile("""func.func @main(%x: tensor<3xf32>, %i: index) -> (tensor<3xf32>, tensor<f32>) {
  %s = bcast.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %e = bcast.extract %x[%i] : (tensor<3xf32>, index) -> tensor<f32>
  func.return %s, %e : tensor<3xf32>, tensor<f32>
}""", backend=backend)
    o0, o1 = np.full(3, -7, np.float32), np.zeros((), np.float32)
    with pytest.raises(bcast.BcastError, match="out of bounds"):
        f(np.ones(3, np.float32), 99, out=(o0, o1))
    assert (o0 == -7).all() and o1 == 0
    s, e = f(np.ones(3, np.float32), 1, out=(o0, o1))
    assert s is o0 and (o0 == 2).all() and e is o1 and o1 == 1


def test_both_backends_word_run_time_index_errors_alike() -> None:
    messages = set()
    for backend in BACKENDS:
        f = bcast.compile(program(EXTRACT, "xla"), backend=backend, filename="p.mlir")
        for index in (4, -1):
            with pytest.raises(bcast.BcastError) as e:
                f(X, index)
            messages.add((index, str(e.value)))
    assert len(messages) == 2, messages
