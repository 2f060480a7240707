"""Every JAX export in tests/data/jax_exports (pretty, generic and debug
forms) imported by ``bcast.compile`` and run on the reference and NumPy
backends, equal to XLA running the export text itself; located errors for
bad input after import, at the Python source line of the export's
locations."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import bcast
from bcast.tools.run import random_array
from bcast.tests.paths import DATA
from bcast.tools import driver
from bcast.tools.api import BACKENDS, BcastError

EXPORTS = DATA / "jax_exports"
MANIFEST = json.loads((EXPORTS / "manifest.json").read_text())["cases"]
FILES = sorted(p for p in EXPORTS.glob("*.mlir") if p.name.split(".")[0] in MANIFEST)


def case_of(path):
    return MANIFEST[path.name.split(".")[0]]


def tolerance(name: str) -> dict:
    """Float results may differ from XLA's in the last bits (reassociated
    sums, exp/log implementations)."""
    return {"rtol": 2e-5, "atol": 1e-6}


def random_inputs(specs, seed: int = 0) -> list[np.ndarray]:
    """Random arrays for manifest input specs (``{"shape": [...], "dtype": ...}``):
    normal floats, small integers, fair booleans."""
    rng = np.random.default_rng(seed)
    return [random_array(rng, tuple(spec["shape"]), np.dtype(spec["dtype"])) for spec in specs]


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("backend", ["reference", "numpy", "array-api", "c"])
def test_export_matches_xla(path, backend):
    pytest.importorskip("jax")
    from bcast.tools.jax_bridge import run_stablehlo

    text = path.read_text()
    case = case_of(path)
    program = bcast.compile(text, backend=backend, filename=str(path))
    for seed in range(3):
        inputs = random_inputs(case["inputs"], seed)
        expected = run_stablehlo(text, inputs)
        got = program(*inputs)
        got = list(got) if isinstance(got, tuple) else [got]
        assert len(got) == len(expected) == len(case["outputs"])
        for g, e, spec in zip(got, expected, case["outputs"]):
            assert g.dtype == np.dtype(spec["dtype"]) and g.shape == tuple(spec["shape"])
            if g.dtype.kind == "f":
                np.testing.assert_allclose(g, e, **tolerance(path.name))
            else:
                np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_export_imports_to_bcast_ops_only(path):
    module = driver.load(path.read_text(), str(path), import_stablehlo=True)
    names = {op.name.split(".")[0] for op in module.walk()}
    assert names <= {"builtin", "func", "bcast"}, names
    functions = [op for op in module.ops]
    assert all(f.sym_visibility is None or f.sym_visibility.data == "public" for f in functions)


def test_pretty_and_generic_import_equally():
    for name in MANIFEST:
        pretty, generic = EXPORTS / f"{name}.mlir", EXPORTS / f"{name}.generic.mlir"
        if not (pretty.exists() and generic.exists()):
            continue
        a = driver.load(pretty.read_text(), "a", import_stablehlo=True)
        b = driver.load(generic.read_text(), "a", import_stablehlo=True)
        assert _ops(a) == _ops(b), name


def _ops(module):
    return [(op.name, tuple(str(r.type) for r in op.results)) for op in module.walk()]


def test_two_step_broadcasts_become_one_after_canonicalize():
    text = (EXPORTS / "add_row.mlir").read_text()
    module = driver.load(text, "add_row.mlir", pipeline="convert-stablehlo-to-bcast,canonicalize,cse")
    broadcasts = [op for op in module.walk() if op.name == "bcast.broadcast_in_dim"]
    assert len(broadcasts) == 1
    assert broadcasts[0].operand.type != broadcasts[0].result.type


# --------------------------------------------------------------------------
# Errors after import point at the Python source
# --------------------------------------------------------------------------

PY = re.compile(r'loc\("([^"]+\.py)":(\d+):(\d+)')


def test_error_after_import_reports_python_line():
    """A bad broadcast injected into a debug export is reported at the Python
    line of the broadcast's location, as StableHLO's verifier words it."""
    path = EXPORTS / "add_row.debug.mlir"
    text = path.read_text()
    bad = text.replace("dims = [0, 1] : (tensor<1x3xf32>)", "dims = [1, 0] : (tensor<1x3xf32>)", 1)
    assert bad != text
    with pytest.raises(BcastError) as info:
        bcast.compile(bad, backend="reference", filename=str(path))
    first = str(info.value).splitlines()[0]
    assert re.match(r".*export_jax_stablehlo\.py:\d+:\d+: error: 'stablehlo.broadcast_in_dim' op", first), first
    assert "size of operand dimension 1 (3) is not equal to 1 or size of result dimension 0 (2)" in first


def test_unsupported_op_in_debug_export_reports_python_line():
    """An op the import lacks, in a debug export (``--allow-unregistered-dialect``
    style generic op), is a located error naming it, with the supported list."""
    path = EXPORTS / "add_row.debug.mlir"
    text = path.read_text().replace("stablehlo.add %arg0, %1 : tensor<2x3xf32>",
                                    '"stablehlo.cosine_add"(%arg0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>')
    with pytest.raises(BcastError) as info:
        bcast.compile(text, backend="reference", filename=str(path))
    message = str(info.value)
    first = message.splitlines()[0]
    assert re.match(r".*export_jax_stablehlo\.py:\d+:\d+: error: .*stablehlo\.cosine_add", first), first
    assert "stablehlo.broadcast_in_dim" in message  # the supported ops


def test_import_error_after_inlining_points_at_call():
    """An error in an op inlined from a private helper (whose own locations
    name no file) is reported at the call's Python line."""
    path = EXPORTS / "where.debug.mlir"
    text = path.read_text()
    bad = text.replace("%2 = stablehlo.select %0, %arg1, %1 : tensor<4x3xi1>, tensor<4x3xf32> loc(#loc9)",
                       '%2 = "stablehlo.atan2_x"(%0, %arg1, %1) : (tensor<4x3xi1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32> loc(#loc9)')
    assert bad != text
    with pytest.raises(BcastError) as info:
        bcast.compile(bad, backend="reference", filename=str(path))
    assert "stablehlo.atan2_x" in str(info.value).splitlines()[0]


def test_no_traceback_for_unsupported_op(tmp_path, capsys):
    from bcast.tools.run import main

    f = tmp_path / "bad.mlir"
    f.write_text('func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {\n'
                 '  %0 = "chlo.bessel_i1e"(%x) : (tensor<3xf32>) -> tensor<3xf32>\n'
                 '  return %0 : tensor<3xf32>\n}\n')
    assert main([str(f), "--seed", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:2:8: error:"), err
    assert "chlo.bessel_i1e" in err and "Traceback" not in err


def test_every_elementwise_op_is_imported_from_its_stablehlo_op():
    """The import maps come from the bcast op classes: each binary and unary
    op (``SCALAR``) is what its ``STABLEHLO`` op imports as, and each op the
    StableHLO target writes natively is one the import reads."""
    from bcast.ir import chlo
    from bcast.ir import ops as bc
    from bcast.ir import stablehlo as hlo
    from bcast.passes.stablehlo_to_bcast import BINARY, SUPPORTED_OPS, UNARY

    elementwise = [op for op in bc.OPS if issubclass(op, bc.BinaryOp | bc.UnaryOp) and hasattr(op, "SCALAR")]
    assert bc.SineOp in elementwise and bc.CosineOp in elementwise
    for op in elementwise:
        counterparts = {**hlo.ELEMENTWISE_OPS, **chlo.CHLO_UNARY_OPS, **chlo.CHLO_SAME_TYPE_BINARY_OPS}
        imported = {**BINARY, **UNARY}[counterparts[op.STABLEHLO]]
        assert imported is op and op.STABLEHLO in SUPPORTED_OPS, op.name
        assert op.STABLEHLO_NATIVE_KINDS <= op.ELEMENT_KINDS, op.name




COMPARE_TYPES = """func.func @main(%a: tensor<5xi32>, %b: tensor<5xi32>) -> (tensor<5xi1>, tensor<5xi1>, tensor<5xi1>) {
  %0 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  %2 = stablehlo.compare GE, %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  return %0, %1, %2 : tensor<5xi1>, tensor<5xi1>, tensor<5xi1>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_compare_unsigned_on_i32_orders_the_bit_patterns(backend):
    """``compare LT, a, b, UNSIGNED`` on signless i32 (as XLA runs it): -1 is
    the largest value (0xFFFFFFFF), INT_MIN is 2**31."""
    a = np.array([-1, 1, 0, -2**31, 7], np.int32)
    b = np.array([1, -1, 0, 5, 7], np.int32)
    unsigned, signed, default = bcast.compile(COMPARE_TYPES, backend=backend)(a, b)
    np.testing.assert_array_equal(unsigned, a.view(np.uint32) < b.view(np.uint32))
    np.testing.assert_array_equal(signed, a < b)
    np.testing.assert_array_equal(default, a >= b)
    assert unsigned.tolist() == [False, True, False, False, False]


CHLO_DYNAMIC = """func.func @main(%a: tensor<?x4xf32>, %b: tensor<?xf32>, %p: tensor<?x1xi1>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) {
  %0 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
  %1 = chlo.broadcast_multiply %a, %p_f : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %2 = chlo.broadcast_select %p, %0, %1 : (tensor<?x1xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0, %1, %2 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>
}
""".replace("%p_f", "%pf").replace("{\n", "{\n  %pf = stablehlo.convert %p : (tensor<?x1xi1>) -> tensor<?x1xf32>\n", 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_chlo_broadcasts_with_dynamic_dims_run_as_numpy_broadcasts(backend):
    """``chlo.broadcast_*`` with ``?`` dims import as implicit bcast ops, so
    one compiled program runs at every row count (0 and 1 included), and
    ``broadcast_dimensions`` still places ``b`` on the rows."""
    f = bcast.compile(CHLO_DYNAMIC, backend=backend)
    rng = np.random.default_rng(1)
    for n in (0, 1, 3):
        a = rng.standard_normal((n, 4)).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        p = rng.random((n, 1)) > 0.5
        added, scaled, chosen = f(a, b, p)
        np.testing.assert_allclose(added, a + b[:, None], rtol=1e-6)
        np.testing.assert_allclose(scaled, a * p, rtol=1e-6)
        np.testing.assert_allclose(chosen, np.where(p, a + b[:, None], a * p), rtol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_chlo_broadcast_of_mismatched_run_time_sizes_is_located(backend):
    """Rows of ``a`` and ``b`` that differ (neither 1) fail at run time,
    located at the ``chlo.broadcast_add`` line, in NumPy's words."""
    f = bcast.compile(CHLO_DYNAMIC, backend=backend, filename="prog.mlir")
    with pytest.raises(BcastError, match=r"prog.mlir:3:\d+: error: operands could not be broadcast together"):
        f(np.ones((3, 4), np.float32), np.ones(2, np.float32), np.ones((3, 1), bool))
