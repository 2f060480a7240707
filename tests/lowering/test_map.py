"""``stablehlo.map`` imported as its body applied to the whole inputs:
maps of several inputs, integer and float, with constants and with
compare + select in the body, run on every backend against NumPy and
against XLA running the map itself; the ``-t stablehlo`` output (no map)
verified by jaxlib and run by XLA; a Hypothesis property over shapes
(zero-size and rank 0 included) and values; a body the import does not
take refused where the program is to run. No JAX function emits
``stablehlo.map`` (``jax.lax.map`` is a loop), so there is no JAX export."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import bcast

BACKENDS = ("reference", "numpy", "array-api", "c")


def map_program(inputs: list[str], result: str, shape: tuple[int, ...], body: str, extra: str = "",
                extra_type: str = "") -> str:
    """``@main`` of one ``stablehlo.map`` over arguments of element types
    ``inputs`` and ``shape``; ``body`` reads ``%a0, %a1, ...`` and defines
    ``%r`` (of element type ``result``); ``extra``: one more argument of
    type ``extra_type`` the body reads, as ``%extra``."""
    dims = "x".join(map(str, shape))
    t = [f"tensor<{dims}x{e}>" if shape else f"tensor<{e}>" for e in inputs]
    out = f"tensor<{dims}x{result}>" if shape else f"tensor<{result}>"
    args = [f"%x{i}: {ti}" for i, ti in enumerate(t)] + ([f"%extra: {extra_type}"] if extra else [])
    block = ", ".join(f"%a{i}: tensor<{e}>" for i, e in enumerate(inputs))
    return (f"func.func @main({', '.join(args)}) -> {out} {{\n"
            f"  %0 = \"stablehlo.map\"({', '.join(f'%x{i}' for i in range(len(inputs)))}) ({{\n"
            f"  ^bb0({block}):\n{body}\n    stablehlo.return %r : tensor<{result}>\n"
            f"  }}) {{dimensions = array<i64{': ' if shape else ''}{', '.join(map(str, range(len(shape))))}>}}"
            f" : ({', '.join(t)}) -> {out}\n  func.return %0 : {out}\n}}\n")


AXPY = ("""    %c = stablehlo.constant dense<3> : tensor<i32>
    %m = stablehlo.multiply %a0, %c : tensor<i32>
    %s = stablehlo.add %m, %a1 : tensor<i32>
    %r = stablehlo.subtract %s, %a2 : tensor<i32>""")

CLIPPED_RATIO = ("""    %f = stablehlo.convert %a1 : (tensor<i16>) -> tensor<f32>
    %q = stablehlo.divide %a0, %f : tensor<f32>
    %lim = stablehlo.constant dense<2.5> : tensor<f32>
    %big = stablehlo.compare GT, %q, %lim, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %r = stablehlo.select %big, %lim, %q : tensor<i1>, tensor<f32>""")

RELU_OF_SCALE = ("""    %z = stablehlo.constant dense<0.0> : tensor<f64>
    %s = stablehlo.multiply %a0, %extra : tensor<f64>
    %r = stablehlo.maximum %s, %z : tensor<f64>""")

IS_SMALL = ("""    %e = stablehlo.exponential %a0 : tensor<f32>
    %one = stablehlo.constant dense<1.5> : tensor<f32>
    %r = stablehlo.compare LT, %e, %one, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>""")

CASES = {
    # name: (program, input dtypes, extra argument, NumPy's function)
    "axpy_i32_three_inputs": (map_program(["i32"] * 3, "i32", (4, 5), AXPY), [np.int32] * 3, None,
                              lambda x, y, z: x * np.int32(3) + y - z),
    "clipped_ratio_f32_i16": (map_program(["f32", "i16"], "f32", (3, 7), CLIPPED_RATIO), [np.float32, np.int16],
                              None, lambda x, n: np.where(x / n.astype(np.float32) > np.float32(2.5),
                                                          np.float32(2.5), x / n.astype(np.float32))),
    "relu_of_scale_f64_reads_a_scalar": (
        map_program(["f64"], "f64", (2, 3, 4), RELU_OF_SCALE, extra="s", extra_type="tensor<f64>"),
        [np.float64], np.float64, lambda x, s: np.maximum(x * s, 0.0)),
    "is_small_f32_to_i1": (map_program(["f32"], "i1", (6,), IS_SMALL), [np.float32], None,
                           lambda x: np.exp(x) < np.float32(1.5)),
}


def inputs_of(dtypes, extra, shape, seed: int = 0) -> list[np.ndarray]:
    """Values of ``dtypes`` (integers from -20 to 20, nonzero so a ratio is
    finite; normal floats) of ``shape``, then the extra scalar."""
    rng = np.random.default_rng(seed)
    out = []
    for dtype in dtypes:
        if np.issubdtype(dtype, np.integer):
            v = rng.integers(1, 21, shape) * rng.choice([-1, 1], shape)
            out.append(v.astype(dtype))
        else:
            out.append(rng.normal(size=shape).astype(dtype))
    if extra is not None:
        out.append(np.asarray(rng.normal(), dtype=extra))
    return out


def shape_of(case: str) -> tuple[int, ...]:
    return {"axpy_i32_three_inputs": (4, 5), "clipped_ratio_f32_i16": (3, 7),
            "relu_of_scale_f64_reads_a_scalar": (2, 3, 4), "is_small_f32_to_i1": (6,)}[case]


@pytest.mark.parametrize("case", sorted(CASES))
def test_map_runs_on_every_backend_as_numpy(case):
    src, dtypes, extra, numpy_function = CASES[case]
    args = inputs_of(dtypes, extra, shape_of(case))
    want = numpy_function(*args)
    for backend in BACKENDS:
        got = bcast.compile(src, backend=backend)(*args)
        assert got.dtype == want.dtype and got.shape == want.shape, backend
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=backend)


@pytest.mark.parametrize("case", sorted(CASES))
def test_map_is_what_xla_computes_and_the_export_runs_on_xla(case):
    """XLA runs the map itself (but one whose body reads a value of the
    function: XLA takes no such region), and bcast's ``-t stablehlo``
    (which has no map) after the import; both equal bcast's reference."""
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    src, dtypes, extra, _ = CASES[case]
    args = inputs_of(dtypes, extra, shape_of(case), seed=1)
    want = bcast.compile(src, backend="reference")(*args)
    if extra is None:
        (xla,) = run_stablehlo(src, args)
        np.testing.assert_allclose(xla, want, rtol=1e-6)
    exported = emit_text(driver.load(src, "map.mlir", pipeline="convert-stablehlo-to-bcast"))
    assert "stablehlo.map" not in exported
    verify_stablehlo(exported)
    (got,) = run_stablehlo(exported, args)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_the_interpreter_suite_values():
    """stablehlo/tests/interpret/map.mlir: [[0, 1], [2, 3]] * [[4, 5], [6, 7]]."""
    src = map_program(["i64", "i64"], "i64", (2, 2), "    %r = stablehlo.multiply %a0, %a1 : tensor<i64>")
    x, y = np.array([[0, 1], [2, 3]]), np.array([[4, 5], [6, 7]])
    for backend in BACKENDS:
        np.testing.assert_array_equal(bcast.compile(src, backend=backend)(x, y), [[0, 5], [12, 21]], err_msg=backend)


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(0, 4), max_size=3).map(tuple), seed=st.integers(0, 2**16),
       backend=st.sampled_from(["reference", "numpy"]))
def test_property_a_map_is_its_body_at_every_index(shape, seed, backend):
    """Any shape (rank 0 and zero-size dims included): the clipped ratio's
    map equals the body evaluated element by element in Python."""
    src = map_program(["f32", "i16"], "f32", shape, CLIPPED_RATIO)
    x, n = inputs_of([np.float32, np.int16], None, shape, seed)
    got = bcast.compile(src, backend=backend)(x, n)
    assert got.shape == shape and got.dtype == np.float32
    for i in np.ndindex(shape):
        q = np.float32(x[i]) / np.float32(n[i])
        assert got[i] == (np.float32(2.5) if q > np.float32(2.5) else q)


def test_builder_makes_what_the_parser_makes():
    """``MapOp(inputs, dimensions, body, result_type)``, verified, prints as
    the parsed generic form does."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import ModuleOp, TensorType, f32

    from bcast.ir import stablehlo as hlo
    from bcast.tools import driver

    src = map_program(["f32", "f32"], "f32", (2, 3), "    %r = stablehlo.add %a0, %a1 : tensor<f32>")
    parsed = driver.load(src, "map.mlir")
    t = TensorType(f32, [2, 3])
    main = func.FuncOp("main", ((t, t), (t,)))
    x, y = main.body.block.args
    op = hlo.MapOp([x, y], [0, 1], hlo.reduce_body(hlo.AddOp, [f32]), t)
    main.body.block.add_ops([op, func.ReturnOp(op)])
    built = ModuleOp([main])
    built.verify()
    assert [type(o).__name__ for o in built.walk()] == [type(o).__name__ for o in parsed.walk()]
    assert op.dims == (0, 1) and op.result.type == t


def test_a_body_the_import_does_not_take_is_refused_where_it_runs():
    body = ("    %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
            "    %r = stablehlo.reduce(%a0 init: %c) applies stablehlo.add across dimensions = []"
            " : (tensor<f32>, tensor<f32>) -> tensor<f32>")
    src = map_program(["f32"], "f32", (3,), body)
    with pytest.raises(bcast.BcastError, match=r"map.mlir:2:8: error: 'stablehlo.map' op with 'stablehlo.reduce' "
                                               "in its body is not supported by convert-stablehlo-to-bcast"):
        bcast.compile(src, backend="numpy", filename="map.mlir")
