"""``bcast.bitcast_convert`` on every backend: the bits, NaN payloads and
signs included, as NumPy's ``view`` reads them; fused with the ops around
it."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.tools.api import BACKENDS

PROGRAM = """func.func @main(%x: tensor<5xui32>, %y: tensor<3x5xf32>) -> (tensor<5xf32>, tensor<3x5xi32>, tensor<3x5xf32>) {
  %a = bcast.bitcast_convert %x : (tensor<5xui32>) -> tensor<5xf32>
  %b = bcast.bitcast_convert %y : (tensor<3x5xf32>) -> tensor<3x5xi32>
  %xi = bcast.bitcast_convert %x : (tensor<5xui32>) -> tensor<5xi32>
  %r = bcast.broadcast_in_dim %xi, dims = [1] : (tensor<5xi32>) -> tensor<3x5xi32>
  %s = bcast.xor %b, %r : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
  %c = bcast.bitcast_convert %s : (tensor<3x5xi32>) -> tensor<3x5xf32>
  func.return %a, %b, %c : tensor<5xf32>, tensor<3x5xi32>, tensor<3x5xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_bits_are_read_as_the_other_type(backend):
    x = np.array([0x3F800000, 0x7FC00001, 0x80000000, 0xFFFFFFFF, 1], dtype=np.uint32)
    y = np.array([[1.5, -0.0, np.inf, np.nan, -3.25]] * 3, dtype=np.float32) * np.float32([[1], [2], [-1]])
    b = y.view(np.int32)
    want = (x.view(np.float32), b, (b ^ x.view(np.int32)).view(np.float32))
    got = bcast.compile(PROGRAM, backend=backend)(x, y)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes()
