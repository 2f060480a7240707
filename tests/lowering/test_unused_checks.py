"""An op whose result is unused keeps its run-time size check on every
backend (docs/semantics.md, "Run-time checks of unused ops"): the compiled
backends may drop what it computes, not its failure, so they fail where
the reference (which evaluates every op) fails. The IR side (canonicalize
keeps the op) is tests/filecheck/transforms/canonicalize_unused_checks.mlir."""

from __future__ import annotations

import numpy as np
import pytest

import bcast

# Each program returns %x and computes one op nobody reads, on %x (rows ?)
# and %c (3x4): the op fails with 2 rows and runs with 3.
UNUSED = {
    "slice": "bcast.slice %x [1:3, 0:8:2] : (tensor<?x8xf32>) -> tensor<2x4xf32>",
    "reshape": "bcast.reshape %x : (tensor<?x8xf32>) -> tensor<4x6xf32>",
    "concatenate": "bcast.concatenate %x, %c, dim = 1 : (tensor<?x8xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>",
    "broadcast_in_dim": "bcast.broadcast_in_dim %x, dims = [0, 1] : (tensor<?x8xf32>) -> tensor<3x8xf32>",
    "dot_general": "bcast.dot_general %x, %c, contracting_dims = [0] x [0] : "
                   "(tensor<?x8xf32>, tensor<3x4xf32>) -> tensor<8x4xf32>",
}


def program(kind: str) -> str:
    return ("func.func @main(%x: tensor<?x8xf32>, %c: tensor<3x4xf32>) -> tensor<?x8xf32> {\n"
            f"  %0 = {UNUSED[kind]}\n"
            "  return %x : tensor<?x8xf32>\n}\n")


def arguments(rows: int) -> tuple[np.ndarray, np.ndarray]:
    return (np.arange(rows * 8, dtype=np.float32).reshape(rows, 8),
            np.ones((3, 4), dtype=np.float32))


def failure(function, *inputs) -> str | None:
    try:
        function(*inputs)
    except bcast.BcastError as e:
        return str(e)
    return None


@pytest.mark.parametrize("kind", UNUSED)
@pytest.mark.parametrize("backend", ["numpy", "array-api", "c"])
def test_unused_op_fails_as_the_reference_does(kind, backend):
    source = program(kind)
    reference = bcast.compile(source, backend="reference")
    compiled = bcast.compile(source, backend=backend)
    want = failure(reference, *arguments(2))
    assert want is not None and want.startswith("<source>:2:8: error:"), want
    assert failure(compiled, *arguments(2)) == want
    x, c = arguments(3)
    np.testing.assert_array_equal(compiled(x, c), x)
