"""The NumPy backend against the reference evaluator (the oracle).

Random programs of every mode run through the reference evaluator as
written and through the NumPy backend's standard pipeline
(make-explicit, canonicalize, cse, sink-broadcasts, canonicalize, fuse) plus
generated code; results must agree bit-exactly for integers and booleans and
within a few ulps for floats. Hand-written programs pin the integer edge
cases, blocking (shapes larger than one block, with a short last block),
``out=`` and the generated module's readability contract.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.lowering import numpy_emitter
from bcast.tests.budget import examples
from bcast.tests.programs import MODES, as_tuple, assert_results, programs

SETTINGS = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def assert_same(got, want) -> None:
    for g, w in zip(as_tuple(got), as_tuple(want), strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind == "f":
            np.testing.assert_array_max_ulp(g, w, maxulp=4) if np.isfinite(w).all() else \
                np.testing.assert_allclose(g, w, rtol=1e-5, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("mode", MODES)
@SETTINGS
@given(data=st.data())
def test_numpy_backend_matches_reference(mode, data):
    program = data.draw(programs(mode=mode, max_ops=6))
    reference = bcast.compile(program.text, backend="reference")(*program.inputs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy warning may leak to the user
        fast = bcast.compile(program.text, backend="numpy")(*program.inputs)
    assert_results(program, reference)
    assert_same(fast, reference)


INT_EDGES = """
func.func @main(%a: tensor<6xi32>, %b: tensor<6xi32>, %u: tensor<3xui8>, %s: tensor<4xi8>)
    -> (tensor<6xi32>, tensor<6xi32>, tensor<3xui8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<6xi32>) {
  %zero = bcast.constant dense<0> : tensor<ui8>
  %nine = bcast.constant dense<[9, 1, 8, 3]> : tensor<4xi8>
  %q = bcast.divide %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %r = bcast.remainder %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %uq = bcast.divide %u, %zero : (tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
  %sra = bcast.shift_right_arithmetic %s, %nine : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %srl = bcast.shift_right_logical %s, %nine : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %sl = bcast.shift_left %s, %nine : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %p = bcast.power %a, %b : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  func.return %q, %r, %uq, %sra, %srl, %sl, %p
      : tensor<6xi32>, tensor<6xi32>, tensor<3xui8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<6xi32>
}
"""


def test_integer_edge_cases_agree_and_match_the_design():
    a = np.array([-7, 7, -2147483648, 5, -1, 3], np.int32)
    b = np.array([2, -2, -1, 0, -3, 2], np.int32)
    u = np.array([7, 0, 255], np.uint8)
    s = np.array([-128, 64, -1, 5], np.int8)
    ref = bcast.compile(INT_EDGES, backend="reference")(a, b, u, s)
    fast = bcast.compile(INT_EDGES, backend="numpy")(a, b, u, s)
    assert_same(fast, ref)
    q, r, uq, sra, srl, sl, p = ref
    assert q.tolist() == [-3, -3, -2147483648, -1, 0, 1]  # truncation, INT_MIN/-1, x/0=-1
    assert r.tolist() == [-1, 1, 0, 5, -1, 1]  # sign of the dividend, x%0=x
    assert uq.tolist() == [255, 255, 255]  # unsigned x/0: all ones
    assert sra.tolist() == [-1, 32, -1, 0]  # >= bit width: sign fill
    assert srl.tolist() == [0, 32, 0, 0]
    assert sl.tolist() == [0, -128, 0, 40]
    assert p.tolist() == [49, 0, 0, 1, -1, 9]  # negative exponents truncate


def big_program(rows: int, cols: int) -> str:
    t = f"tensor<{rows}x{cols}xf32>"
    return f"""
func.func @main(%x: {t}, %row: tensor<{cols}xf32>, %col: tensor<{rows}x1xf32>) -> ({t}, {t}) {{
  %half = bcast.constant dense<0.5> : tensor<f32>
  %0 = bcast.add %x, %row : ({t}, tensor<{cols}xf32>) -> {t}
  %1 = bcast.multiply %0, %col : ({t}, tensor<{rows}x1xf32>) -> {t}
  %2 = bcast.multiply %half, %x : (tensor<f32>, {t}) -> {t}
  %3 = bcast.subtract %1, %2 : ({t}, {t}) -> {t}
  %4 = bcast.tanh %3 : {t}
  func.return %4, %0 : {t}, {t}
}}
"""


@pytest.mark.parametrize("rows", [1, 7, 257, 1000])
def test_blocked_fusion_with_short_last_block(rows):
    cols = 4096  # 16 KiB rows: blocks of 64 rows; 257 and 1000 leave a short last block,
    # and 1000 rows (16 blocks) run on several threads
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    row = rng.standard_normal(cols, dtype=np.float32)
    col = rng.standard_normal((rows, 1), dtype=np.float32)
    text = big_program(rows, cols)
    want = bcast.compile(text, backend="reference")(x, row, col)
    f = bcast.compile(text, backend="numpy")
    assert_same(f(x, row, col), want)
    outs = (np.empty((rows, cols), np.float32), np.empty((rows, cols), np.float32))
    got = f(x, row, col, out=outs)
    assert got[0] is outs[0] and got[1] is outs[1]
    assert_same(got, want)


def test_generated_module_uses_views_and_out_buffers():
    f = bcast.compile(big_program(1000, 300), backend="numpy")
    source = f.python_source
    assert "np.broadcast_to" not in source.split("def main")[1]  # broadcasts stay views
    assert "row[None]" in source  # a static broadcast view, decided when emitting (no reshape)
    assert "out=" in source and "rt.run_blocks(" in source
    compile(source, "generated", "exec")  # importable Python


def test_emitter_rejects_implicit_ir_with_a_located_error():
    text = big_program(4, 3)
    module = bcast.tools.driver.load(text, "prog.mlir")
    from bcast.passes.errors import PassError

    with pytest.raises(PassError, match="needs explicit IR"):
        numpy_emitter.emit_module(module)


def test_results_never_alias_inputs():
    text = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  func.return %x : tensor<3xf32>
}
"""
    x = np.arange(3, dtype=np.float32)
    for backend in ("reference", "numpy"):
        y = bcast.compile(text, backend=backend)(x)
        assert not np.shares_memory(x, y)
        assert np.array_equal(x, y)


def both_backends(text: str):
    return [bcast.compile(text, backend=b) for b in ("reference", "numpy")]


def test_names_that_shadow_python_builtins_or_start_with_digits():
    text = """
func.func @"2d"(%len: tensor<3xf32>, %zip: tensor<3xf32>) -> tensor<3xf32> {
  %sum = bcast.add %len, %zip : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %sum : tensor<3xf32>
}
"""
    x = np.arange(3, dtype=np.float32)
    for backend in ("reference", "numpy"):
        assert bcast.compile(text, backend=backend, entry="2d")(x, x).tolist() == [0, 2, 4]


def test_constants_keep_negative_zero_nan_and_infinity():
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = bcast.constant dense<[0.0, -0.0, 0x7FC00000, 0xFF800000]> : tensor<4xf32>
  %z = bcast.constant dense<[-0.0, -0.0, -0.0, -0.0]> : tensor<4xf32>
  %q = bcast.divide %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = bcast.add %q, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""
    x = np.ones(4, np.float32)
    reference, fast = both_backends(text)
    want = reference(x)
    assert np.isposinf(want[0]) and np.isneginf(want[1]) and np.isnan(want[2]) and want[3] == 0
    assert_same(fast(x), want)


def test_bad_arguments_and_out_are_input_errors_on_every_backend(tmp_path):
    text = big_program(4, 3)
    x, row, col = np.ones((4, 3), np.float32), np.ones(3, np.float32), np.ones((4, 1), np.float32)
    for f in both_backends(text):
        with pytest.raises(bcast.tools.api.BcastError, match="arg0"):
            f(np.ones((3, 4), np.float32), row, col)
        with pytest.raises(bcast.tools.api.BcastError, match="complex64.*tensor<4x3xf32>"):
            f(x.astype(np.complex64), row, col)
        written = np.zeros((4, 3), np.float32)
        with pytest.raises(bcast.tools.api.BcastError, match="out= needs 2 arrays"):
            f(x, row, col, out=written)
        assert not written.any()  # checked before any work
    path = tmp_path / "prog.mlir"
    path.write_text(text)
    np.savez(tmp_path / "in.npz", arg0=np.ones((3, 4), np.float32), arg1=row, arg2=col)
    from bcast.tools.run import main as bcast_run

    for backend in ("reference", "numpy"):
        assert bcast_run([str(path), "--backend", backend, "--inputs", str(tmp_path / "in.npz")]) == 1


def test_numpy_backend_on_implicit_ir_is_a_located_input_error():
    with pytest.raises(bcast.tools.api.BcastError, match="needs explicit IR"):
        bcast.compile(big_program(4, 3), backend="numpy", pipeline="canonicalize")


def test_memory_check_counts_what_each_backend_keeps(monkeypatch):
    """With 8 GiB available (whatever this machine has: the check reads
    ``available_memory``, and nothing here allocates), the reference refuses
    a program whose 31 tensors of 1 GiB it would keep, and the NumPy backend
    takes it, keeping 2 once fused."""
    n = 16384  # 1 GiB per tensor: 31 of them for the reference, 2 once fused
    t = f"tensor<{n}x{n}xf32>"
    lines = [f"  %v{k + 1} = bcast.multiply %v{k}, %v{k} : ({t}, {t}) -> {t}" for k in range(30)]
    text = "\n".join([f"func.func @main(%v0: {t}) -> {t} {{", *lines, f"  func.return %v30 : {t}", "}"])
    monkeypatch.setattr(bcast.tools.api, "available_memory", lambda: 8 * 2**30)
    with pytest.raises(bcast.tools.api.BcastError, match="refusing to run it"):
        bcast.compile(text, backend="reference")
    bcast.compile(text, backend="numpy")  # compiles (not run): only x and the result are kept


@pytest.mark.parametrize("backend", ["reference", "numpy"])
def test_an_entry_without_a_body_is_a_located_input_error(tmp_path, capsys, backend):
    """Every backend says what the reference says of a declaration, at the
    function (the numpy backend used to exit 2 with xDSL's message about
    single-block regions)."""
    path = tmp_path / "decl.mlir"
    path.write_text("func.func private @main(tensor<2xf32>) -> tensor<2xf32>\n")
    from bcast.tools.run import main as bcast_run

    assert bcast_run([str(path), "--backend", backend, "--seed", "0"]) == 1
    assert capsys.readouterr().err == f"{path}:1:1: error: 'func.func' op is a declaration without a body\n"
    with pytest.raises(bcast.tools.api.BcastError, match="1:1: error: 'func.func' op is a declaration without a body"):
        bcast.compile(path.read_text(), backend=backend)
