"""Arguments the API must refuse, and the ones it must take (docs/contracts.md).

An array of the declared dtype is used as is; one that converts without
loss (``np.can_cast(..., "safe")``) is converted; Python scalars and lists
are converted when their values fit; anything else is a ``BcastError`` that
names the argument, its dtype and the declared type, on every backend and
for ``bcast-run --inputs``. Layout never matters: strided, Fortran-order,
reversed and empty arrays give the right values.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

import bcast
from bcast.tools.api import BcastError
from bcast.tools.run import main as bcast_run

BACKENDS = ("reference", "numpy")


@functools.cache
def compiled(text: str, backend: str):
    return bcast.compile(text, backend=backend)


def identity(t: str) -> str:
    return f"func.func @main(%x: {t}) -> {t} {{\n  func.return %x : {t}\n}}\n"


def double(t: str) -> str:
    return f"""
func.func @main(%x: {t}) -> {t} {{
  %0 = bcast.add %x, %x : ({t}, {t}) -> {t}
  func.return %0 : {t}
}}
"""


@pytest.fixture(autouse=True)
def no_warnings():
    """No NumPy warning (overflow in a cast, ...) may reach the caller."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# --------------------------------------------------------------------------
# count and shape
# --------------------------------------------------------------------------

PAIR = """
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = bcast.add %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_wrong_argument_count_is_a_bcast_error_naming_the_arguments(backend):
    f = compiled(PAIR, backend)
    x = np.ones(3, np.float32)
    with pytest.raises(BcastError, match=r"takes 2 arguments, got 1.*missing arg1 \(%y\)"):
        f(x)
    with pytest.raises(BcastError, match=r"takes 2 arguments, got 0.*missing arg0 \(%x\), arg1 \(%y\)"):
        f()
    with pytest.raises(BcastError, match=r"takes 2 arguments \(arg0 \(%x\), arg1 \(%y\)\), got 3"):
        f(x, x, x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unknown_keyword_is_pythons_type_error(backend):
    with pytest.raises(TypeError):
        compiled(PAIR, backend)(1, 2, outs=None)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("value", [np.ones(4, np.float32), np.ones((3, 1), np.float32),
                                   np.float32(1), [1.0, 2.0], [[1.0, 2.0, 3.0]]],
                         ids=["longer", "column", "scalar", "short list", "nested list"])
def test_a_wrong_shape_is_a_bcast_error_naming_the_argument(backend, value):
    with pytest.raises(BcastError, match=r"arg1 \(%y\).*tensor<3xf32>.*\(3,\)"):
        compiled(PAIR, backend)(np.ones(3, np.float32), value)


# --------------------------------------------------------------------------
# dtypes: what is refused and what is converted
# --------------------------------------------------------------------------

LOSSY = [
    # (declared type, value, the dtype the message names)
    ("tensor<3xi8>", np.array([300, 1, 2], np.int64), "int64"),
    ("tensor<3xi8>", np.array([1, 2, 3], np.int64), "int64"),  # values fit, dtype does not
    ("tensor<3xi8>", [300, 1, 2], "int64"),
    ("tensor<3xf32>", [1e300, 0.0, 1.0], "float64"),
    ("tensor<3xf32>", np.array([1e300, 0.0, 1.0]), "float64"),
    ("tensor<3xf32>", np.array([1.0, 2.0, 3.0]), "float64"),  # f64 array, values fit
    ("tensor<f32>", np.float64(1.0), "float64"),  # NumPy scalars follow the array rule
    ("tensor<3xi32>", [1.5, 2.0, 3.0], "float64"),
    ("tensor<3xi32>", [1.0, 2.0, 3.0], "float64"),  # floats never become integers
    ("tensor<3xi32>", np.array([1.0, 2.0, 3.0], np.float32), "float32"),
    ("tensor<3xui8>", [-1, 2, 3], "int64"),
    ("tensor<3xui8>", np.array([1, 2, 3], np.int8), "int8"),
    ("tensor<3xi64>", np.array([1, 2, 3], np.uint64), "uint64"),
    ("tensor<3xi1>", [0, 1, 1], "int64"),
    ("tensor<3xf16>", [1e5, 0.0, 0.0], "float64"),
    ("tensor<3xf32>", [2**24 + 1, 0, 0], "int64"),  # not exactly representable
    ("tensor<ui64>", 2**64, "object"),
    ("tensor<3xf32>", np.array([1, 2, 3], np.complex64), "complex64"),
    ("tensor<3xf32>", ["a", "b", "c"], "<U1"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t,value,dtype", LOSSY, ids=[f"{t}-{v!r}"[:48] for t, v, _ in LOSSY])
def test_a_lossy_conversion_is_a_bcast_error_naming_argument_dtype_and_type(backend, t, value, dtype):
    with pytest.raises(BcastError) as e:
        compiled(identity(t), backend)(value)
    message = str(e.value)
    assert "arg0 (%x)" in message and dtype in message and t in message, message


SAFE = [
    # (declared type, value, expected result)
    ("tensor<3xi32>", np.array([-128, 0, 127], np.int8), np.array([-128, 0, 127], np.int32)),
    ("tensor<3xf64>", np.array([0.1, -2.5, np.inf], np.float32),
     np.array([0.1, -2.5, np.inf], np.float32).astype(np.float64)),
    ("tensor<3xi32>", np.array([True, False, True]), np.array([1, 0, 1], np.int32)),
    ("tensor<3xf32>", np.array([1, -2, 3], np.int16), np.array([1, -2, 3], np.float32)),
    ("tensor<3xi16>", np.array([0, 255, 7], np.uint8), np.array([0, 255, 7], np.int16)),
    ("tensor<3xf32>", np.array([1, 2, 3], ">f4"), np.array([1, 2, 3], np.float32)),
    ("tensor<3xi8>", [-128, 0, 127], np.array([-128, 0, 127], np.int8)),
    ("tensor<3xf32>", [1, 2**24, -3], np.array([1, 2**24, -3], np.float32)),
    ("tensor<3xf32>", [0.1, 1e30, -2.0], np.array([0.1, 1e30, -2.0], np.float32)),
    ("tensor<3xf32>", [np.nan, np.inf, 1], np.array([np.nan, np.inf, 1], np.float32)),
    ("tensor<3xf32>", [True, 2, 3.5], np.array([1, 2, 3.5], np.float32)),
    ("tensor<2x2xui8>", [[0, 1], [254, 255]], np.array([[0, 1], [254, 255]], np.uint8)),
    ("tensor<i32>", True, np.array(1, np.int32)),
    ("tensor<f32>", 3, np.array(3, np.float32)),
    ("tensor<f64>", 0.5, np.array(0.5)),
    ("tensor<f32>", np.float16(1.5), np.array(1.5, np.float32)),
    ("tensor<i64>", np.int8(-5), np.array(-5, np.int64)),
    ("tensor<ui64>", 2**64 - 1, np.array(2**64 - 1, np.uint64)),
    ("tensor<f64>", 2**70, np.array(2.0**70)),
    ("tensor<0xi8>", [], np.zeros(0, np.int8)),  # no values: nothing to lose
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t,value,want", SAFE, ids=[f"{t}-{v!r}"[:48] for t, v, _ in SAFE])
def test_a_conversion_without_loss_gives_the_right_values(backend, t, value, want):
    got = compiled(identity(t), backend)(value)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_an_array_of_the_declared_dtype_is_used_as_is_and_never_returned():
    x = np.arange(3, dtype=np.float32)
    for backend in BACKENDS:
        got = compiled(identity("tensor<3xf32>"), backend)(x)
        assert got is not x and not np.shares_memory(got, x)


# --------------------------------------------------------------------------
# index arguments
# --------------------------------------------------------------------------

EXTRACT = """
func.func @main(%m: tensor<3x2xf32>, %i: index) -> tensor<f32> {
  %e = bcast.extract %m[%i, 1] : (tensor<3x2xf32>, index) -> tensor<f32>
  func.return %e : tensor<f32>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_index_is_a_python_or_numpy_integer(backend):
    f = compiled(EXTRACT, backend)
    m = np.arange(6, dtype=np.float32).reshape(3, 2)
    assert f(m, 2) == 5 and f(m, np.int64(1)) == 3 and f(m, np.uint8(0)) == 1
    for bad in (1.0, True, np.bool_(True), np.array(1), "1", [1]):
        with pytest.raises(BcastError, match=r"arg1 \(%i\).*index"):
            f(m, bad)


# --------------------------------------------------------------------------
# layouts
# --------------------------------------------------------------------------

ROW_SCALE = """
func.func @main(%x: tensor<{r}x{c}xf32>, %row: tensor<{c}xf32>) -> tensor<{r}x{c}xf32> {{
  %0 = bcast.add %x, %row : (tensor<{r}x{c}xf32>, tensor<{c}xf32>) -> tensor<{r}x{c}xf32>
  %1 = bcast.multiply %0, %x : (tensor<{r}x{c}xf32>, tensor<{r}x{c}xf32>) -> tensor<{r}x{c}xf32>
  func.return %1 : tensor<{r}x{c}xf32>
}}
"""


def layouts(rows: int, cols: int):
    rng = np.random.default_rng(rows)
    base = rng.standard_normal((2 * rows, 2 * cols), dtype=np.float32)
    row = rng.standard_normal(2 * cols, dtype=np.float32)
    return {
        "strided": (base[::2, ::2], row[::2]),
        "fortran": (np.asfortranarray(base[:rows, :cols]), row[:cols]),
        "reversed": (base[:rows, :cols][::-1, ::-1], row[:cols][::-1]),
        "transposed": (base[:cols, :rows].T, row[:cols]),
        "column slice": (base[:rows, 1 : cols + 1], row[1 : cols + 1]),
    }


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rows,cols", [(5, 3), (1024, 1024)])
@pytest.mark.parametrize("layout", ["strided", "fortran", "reversed", "transposed", "column slice"])
def test_every_layout_gives_the_right_values(backend, rows, cols, layout):
    x, row = layouts(rows, cols)[layout]
    want = (x + row) * x
    got = compiled(ROW_SCALE.format(r=rows, c=cols), backend)(x, row)
    assert got.flags.c_contiguous and got.shape == (rows, cols)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_size_inputs(backend):
    f = compiled(ROW_SCALE.format(r=0, c=3), backend)
    got = f(np.zeros((0, 3), np.float32), np.ones(3, np.float32))
    assert got.shape == (0, 3) and got.dtype == np.float32
    got = f(np.zeros((3, 0), np.float32).T, np.ones(6, np.float32)[::2])
    assert got.shape == (0, 3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_numpy_warning_leaks_from_overflowing_values(backend):
    # inf - inf, overflow, 0/0 inside the program stay silent (autouse fixture)
    text = double("tensor<3xf32>")
    got = compiled(text, backend)(np.array([3e38, np.inf, np.nan], np.float32))
    assert np.isinf(got[0]) and np.isinf(got[1]) and np.isnan(got[2])


# --------------------------------------------------------------------------
# bcast-run --inputs
# --------------------------------------------------------------------------

I8_PAIR = """
func.func @main(%x: tensor<3xi8>, %y: tensor<3xi8>) -> tensor<3xi8> {
  %0 = bcast.add %x, %y : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  func.return %0 : tensor<3xi8>
}
"""


def run(tmp_path, capsys, backend: str, **arrays) -> tuple[int, str, str]:
    program = tmp_path / "prog.mlir"
    program.write_text(I8_PAIR)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **arrays)
    status = bcast_run([str(program), "--backend", backend, "--inputs", str(inputs)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("backend", BACKENDS)
def test_bcast_run_applies_the_argument_rule(tmp_path, capsys, backend):
    status, out, _ = run(tmp_path, capsys, backend, arg0=np.array([1, 2, 3], np.int8),
                         arg1=np.array([True, False, True]))
    assert status == 0 and "[2 2 4]" in out
    status, _, err = run(tmp_path, capsys, backend, arg0=np.array([300, 2, 3]),
                         arg1=np.array([1, 2, 3], np.int8))
    assert status == 1 and "Traceback" not in err
    assert "in.npz" in err and "arg0 (%x)" in err and "int64" in err and "tensor<3xi8>" in err


@pytest.mark.parametrize("backend", BACKENDS)
def test_bcast_run_rejects_missing_and_extra_keys(tmp_path, capsys, backend):
    x = np.array([1, 2, 3], np.int8)
    status, _, err = run(tmp_path, capsys, backend, arg0=x)
    assert status == 1 and "Traceback" not in err
    assert "in.npz" in err and "missing" in err and "arg1" in err
    status, _, err = run(tmp_path, capsys, backend, arg0=x, arg1=x, arg2=x, weights=x)
    assert status == 1 and "Traceback" not in err
    assert "in.npz" in err and "unexpected" in err and "arg2" in err and "weights" in err
