"""``concatenate``, ``pad``, ``slice`` and ``reshape`` with ``?`` dims on
every backend (docs/semantics.md, "Dynamic and bounded shapes"): a
concatenate along a ``?`` dim or beside one, a pad of a ``?`` dim (interior
and cropping edges included), a slice of a ``?`` dim with static bounds, a
reshape whose one ``?`` takes the element count (NumPy's ``-1``); equal to NumPy at
run-time sizes 0, 1 and more; the sizes their rules refuse are located
errors in NumPy's words (a slice past a run-time size: the verifier's), and
the C code is clean under ASan and UBSan at every size, a refused size
stopped before the call."""

from __future__ import annotations

import numpy as np
import pytest

import bcast
from bcast.ir import numerics
from bcast.lowering import c_runtime
from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units
from bcast.tools.api import DYNAMIC_BACKENDS

CONCATENATE = """\
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>, %z: tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<?x6xf32>) {
  %c = bcast.constant dense<1.5> : tensor<1x4xf32>
  %0 = bcast.concatenate %x, %c, %y, dim = 0 : (tensor<?x4xf32>, tensor<1x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = bcast.exponential %0 : tensor<?x4xf32>
  %2 = bcast.concatenate %x, %z, dim = 1 : (tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<?x6xf32>
  func.return %1, %2 : tensor<?x4xf32>, tensor<?x6xf32>
}
"""

PAD = """\
func.func @main(%x: tensor<?x3xf32>, %v: tensor<f32>) -> (tensor<?x4xf32>, tensor<?x3xf32>) {
  %0 = bcast.pad %x, %v, low = [2, 0], high = [1, 1], interior = [1, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x4xf32>
  %1 = bcast.pad %x, %v, low = [-1, 1], high = [-2, -1], interior = [2, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  func.return %0, %1 : tensor<?x4xf32>, tensor<?x3xf32>
}
"""

SLICE = """\
func.func @main(%x: tensor<?x5xf32>) -> (tensor<2x2xf32>, tensor<0x5xf32>) {
  %0 = bcast.slice %x [1:4:2, 1:5:2] : (tensor<?x5xf32>) -> tensor<2x2xf32>
  %1 = bcast.slice %x [0:0, 0:5] : (tensor<?x5xf32>) -> tensor<0x5xf32>
  func.return %0, %1 : tensor<2x2xf32>, tensor<0x5xf32>
}
"""

SIZES = [0, 1, 3, 6]


def _rows(n: int, cols: int, shift: float = 0.0) -> np.ndarray:
    return (np.arange(n * cols, dtype=np.float32).reshape(n, cols) + shift) / 8


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_concatenate_along_and_beside_run_time_sizes_runs_as_numpy(backend):
    f = bcast.compile(CONCATENATE, backend=backend)
    for a, b in [(0, 0), (1, 0), (0, 1), (1, 1), (3, 6), (6, 3)]:
        x, y, z = _rows(a, 4), _rows(b, 4, 0.5), _rows(a, 2, 0.25)
        rows, columns = f(x, y, z)
        stacked = np.concatenate([x, np.full((1, 4), 1.5, np.float32), y])
        np.testing.assert_allclose(rows, np.exp(stacked), rtol=1e-6)
        np.testing.assert_array_equal(columns, np.concatenate([x, z], 1))


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_concatenated_sizes_that_differ_beside_the_joined_dim_fail_located(backend):
    """NumPy's error, at the op; nothing is computed (the C runtime checks
    before the call)."""
    f = bcast.compile(CONCATENATE, filename="prog.mlir", backend=backend)
    with pytest.raises(bcast.BcastError) as info:
        f(_rows(3, 4), _rows(2, 4), _rows(2, 2))
    assert str(info.value).splitlines()[0] == (
        "prog.mlir:5:8: error: all the input array dimensions except for the concatenation axis must match "
        "exactly, but along dimension 0, the array at index 0 has size 3 and the array at index 1 has size 2")
    with pytest.raises(ValueError, match="along dimension 0, the array at index 0 has size 3 and the array at index 1 has size 2"):
        np.concatenate([_rows(3, 4), _rows(2, 2)], 1)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_pad_of_run_time_sizes_runs_as_numerics_pad(backend):
    """Interior padding and cropping edges along a ``?`` dim, sizes 0 and 1
    included (``numerics.pad`` is the static backends' pad)."""
    f = bcast.compile(PAD, backend=backend)
    v = np.float32(-7)
    for n in [2, 3, 6]:
        x = _rows(n, 3)
        grown, cropped = f(x, v)
        np.testing.assert_array_equal(grown, numerics.pad(x, v, [2, 0], [1, 1], [1, 0]))
        np.testing.assert_array_equal(cropped, numerics.pad(x, v, [-1, 1], [-2, -1], [2, 0]))
    at_zero = PAD.replace("low = [-1, 1], high = [-2, -1]", "low = [0, 1], high = [0, -1]")
    grown, cropped = bcast.compile(at_zero, backend=backend)(_rows(0, 3), v)
    np.testing.assert_array_equal(grown, np.full((3, 4), v))
    assert cropped.shape == (0, 3)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_pad_that_crops_a_run_time_size_below_zero_fails_located(backend):
    """``low = -1, high = -2`` crops more than a size 1 pads to (1 + 2 * 0):
    the verifier's words for static sizes, at the op, at run time."""
    f = bcast.compile(PAD, filename="prog.mlir", backend=backend)
    with pytest.raises(bcast.BcastError) as info:
        f(_rows(1, 3), np.float32(0))
    assert str(info.value).splitlines()[0] == "prog.mlir:3:8: error: pad makes dimension 0 of size -2"


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_slice_of_a_run_time_size_runs_as_numpy_and_is_bound_checked(backend):
    f = bcast.compile(SLICE, filename="prog.mlir", backend=backend)
    for n in [4, 5, 9]:
        x = _rows(n, 5)
        picked, empty = f(x)
        np.testing.assert_array_equal(picked, x[1:4:2, 1:5:2])
        assert empty.shape == (0, 5)
    for n in [0, 1, 3]:  # NumPy would clip 1:4 silently; the range is checked as a static one is
        with pytest.raises(bcast.BcastError) as info:
            f(_rows(n, 5))
        assert str(info.value).splitlines() == [
            "prog.mlir:2:8: error: slice limit 4 of dimension 0 is out of range",
            f"prog.mlir:2:8: note: dimension 0 has size {n} at run time; a range needs limit <= {n}"]


FUSED = """\
func.func @main(%x: tensor<?x5xf32>, %y: tensor<?x4xf32>, %v: tensor<f32>) -> (tensor<2x2xf32>, tensor<?x4xf32>, tensor<?x5xf32>) {
  %0 = bcast.slice %x [1:4:2, 1:5:2] : (tensor<?x5xf32>) -> tensor<2x2xf32>
  %1 = bcast.exponential %0 : tensor<2x2xf32>
  %2 = bcast.concatenate %y, %y, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = bcast.exponential %2 : tensor<?x4xf32>
  %4 = bcast.pad %y, %v, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x5xf32>
  %5 = bcast.add %4, %x : (tensor<?x5xf32>, tensor<?x5xf32>) -> tensor<?x5xf32>
  func.return %1, %3, %5 : tensor<2x2xf32>, tensor<?x4xf32>, tensor<?x5xf32>
}
"""


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_join_ops_read_by_fused_consumers_run_as_numpy_and_are_checked(backend):
    """bcast-fuse takes the slice into its consumer's fusion (a view) and the
    concatenate's and pad's results into theirs: the slice's range is still
    checked before the C call (c_sizes walks the fusion), the pad's ``n + 1``
    rows broadcast against ``x``'s by NumPy's rule (1 row stretches)."""
    f = bcast.compile(FUSED, filename="prog.mlir", backend=backend)
    v = np.float32(2)
    for rows_y, rows_x in [(3, 4), (4, 5), (0, 4), (9, 10)]:
        x, y = _rows(rows_x, 5), _rows(rows_y, 4, 1.0)
        picked, doubled, summed = f(x, y, v)
        np.testing.assert_allclose(picked, np.exp(x[1:4:2, 1:5:2]), rtol=1e-6)
        np.testing.assert_allclose(doubled, np.exp(np.concatenate([y, y])), rtol=1e-6)
        np.testing.assert_array_equal(summed, numerics.pad(y, v, [0, 1], [1, 0], [0, 0]) + x)
    for rows_y, rows_x in [(0, 0), (0, 1), (2, 3)]:
        with pytest.raises(bcast.BcastError, match=r"^prog\.mlir:2:8: error: slice limit 4 of dimension 0 is out of range"):
            f(_rows(rows_x, 5), _rows(rows_y, 4), v)


RESHAPE = """\
func.func @main(%x: tensor<?x4xf32>, %y: tensor<?x6xf32>) -> (tensor<?x2x2xf32>, tensor<?xf32>, tensor<2x?xf32>, tensor<4x?xf32>) {
  %0 = bcast.reshape %x : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  %1 = bcast.reshape %x : (tensor<?x4xf32>) -> tensor<?xf32>
  %2 = bcast.reshape %x : (tensor<?x4xf32>) -> tensor<2x?xf32>
  %3 = bcast.reshape %y : (tensor<?x6xf32>) -> tensor<4x?xf32>
  %4 = bcast.exponential %3 : tensor<4x?xf32>
  func.return %0, %1, %2, %4 : tensor<?x2x2xf32>, tensor<?xf32>, tensor<2x?xf32>, tensor<4x?xf32>
}
"""

TO_STATIC = """\
func.func @main(%x: tensor<?x4xf32>) -> tensor<2x2x2xf32> {
  %0 = bcast.reshape %x : (tensor<?x4xf32>) -> tensor<2x2x2xf32>
  %1 = bcast.negate %0 : tensor<2x2x2xf32>
  func.return %1 : tensor<2x2x2xf32>
}
"""


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_reshape_of_run_time_sizes_runs_as_numpy(backend):
    """The result's one ``?`` is the element count over its static sizes
    (a count that no size keeps is refused when compiling)."""
    f = bcast.compile(RESHAPE, backend=backend)
    for a, b in [(0, 0), (1, 2), (0, 2), (2, 0), (3, 4), (6, 2)]:
        x, y = _rows(a, 4), _rows(b, 6)
        split, flat, two_rows, split_y = f(x, y)
        np.testing.assert_array_equal(split, x.reshape(a, 2, 2))
        np.testing.assert_array_equal(flat, x.reshape(-1))
        np.testing.assert_array_equal(two_rows, x.reshape(2, -1))
        np.testing.assert_allclose(split_y, np.exp(y.reshape(4, -1)), rtol=1e-6)


@pytest.mark.parametrize("backend", DYNAMIC_BACKENDS)
def test_a_reshape_that_does_not_keep_the_count_fails_located(backend):
    """NumPy's error, at the op: ``4 x ?`` of 3 rows of 6, a static result of another count."""
    f = bcast.compile(RESHAPE, filename="prog.mlir", backend=backend)
    with pytest.raises(bcast.BcastError, match=r"^prog\.mlir:5:8: error: cannot reshape array of size 18 into "
                                               r"shape \(4, \?\)$"):
        f(_rows(2, 4), _rows(3, 6))
    f = bcast.compile(TO_STATIC, filename="prog.mlir", backend=backend)
    np.testing.assert_array_equal(f(_rows(2, 4)), -_rows(2, 4).reshape(2, 2, 2))
    for n in (0, 1, 3):
        with pytest.raises(bcast.BcastError, match=rf"^prog\.mlir:2:8: error: cannot reshape array of size {4 * n} "
                                                   r"into shape \(2, 2, 2\)$"):
            f(_rows(n, 4))


PROGRAMS = [
    ("concatenate", CONCATENATE, [{0: a, 1: b, 2: a} for a, b in [(0, 0), (1, 0), (0, 1), (1, 1), (3, 5)]]
     + [{0: 3, 1: 1, 2: 2}]),
    ("pad", PAD, [{0: n} for n in (0, 1, 2, 3, 6)]),
    ("slice", SLICE, [{0: n} for n in (0, 1, 3, 4, 7)]),
    ("reshape", RESHAPE, [{0: a, 1: b} for a, b in [(0, 0), (1, 1), (3, 2), (2, 3), (5, 4)]]),
    ("to_static", TO_STATIC, [{0: n} for n in (0, 1, 2, 3)]),
    ("fused", FUSED, [{0: a, 1: b} for a, b in [(0, 0), (1, 0), (3, 2), (4, 3), (4, 0), (5, 4), (4, 5)]]),
]
"""(name, program, run-time sizes of each argument's ``?`` dims per call)."""


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_join_ops_are_clean_under_sanitizers_at_every_size(tmp_path):
    """Each program's C under ASan and UBSan at sizes 0, 1 and more; the
    sizes the rules refuse are refused by the size plan before any call."""
    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units(PROGRAMS, tmp_path, "j")
    assert [(name, sizes) for name, sizes, _ in refused] == [
        ("concatenate", {0: 3, 1: 1, 2: 2}), ("pad", {0: 0}), ("pad", {0: 1}),
        *(("slice", {0: n}) for n in (0, 1, 3)),
        ("reshape", {0: 1, 1: 1}), ("reshape", {0: 2, 1: 3}), *(("to_static", {0: n}) for n in (0, 1, 3)),
        *(("fused", sizes) for sizes in ({0: 0, 1: 0}, {0: 1, 1: 0}, {0: 3, 1: 2}, {0: 4, 1: 5}))]
    run_sanitized(units, calls, tmp_path, cc)
