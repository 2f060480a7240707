"""A hex literal of a float's width is that float's bit pattern (MLIR's
rule), kept to the bit by the constant and every backend: NaN payloads,
signalling NaNs and the sign of a NaN included. (xDSL's printer prints
every NaN through a Python float, so the printed text shows the quiet,
payload-free NaN; the constant's bytes, and so the results, keep the bits.)"""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.ir.ops import ConstantOp
from bcast.tools.driver import load

PROGRAM = """func.func @main() -> (tensor<2xf16>, tensor<2xf32>, tensor<2xf32>, tensor<f64>) {
  %a = bcast.constant dense<0x7E01> : tensor<2xf16>
  %b = bcast.constant dense<[0x7F800001, 0xFFC00000]> : tensor<2xf32>
  %c = bcast.constant dense<[1.5, 0x7F800000]> : tensor<2xf32>
  %d = bcast.constant dense<0x7FF0000000000001> : tensor<f64>
  func.return %a, %b, %c, %d : tensor<2xf16>, tensor<2xf32>, tensor<2xf32>, tensor<f64>
}
"""
BITS = [[0x7E01, 0x7E01], [0x7F800001, 0xFFC00000], [0x3FC00000, 0x7F800000], 0x7FF0000000000001]
VIEWS = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


def bits(x: np.ndarray):
    return x.view(VIEWS[x.dtype.type]).tolist()


def test_the_constant_holds_the_literal_bits() -> None:
    constants = [op for op in load(PROGRAM, "p.mlir").walk() if isinstance(op, ConstantOp)]
    assert [bits(op.numpy_value()) for op in constants] == BITS


@pytest.mark.parametrize("backend", ["reference", "numpy"])
def test_backends_return_the_literal_bits(backend: str) -> None:
    assert [bits(r) for r in bcast.compile(PROGRAM, backend=backend)()] == BITS
