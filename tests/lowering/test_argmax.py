"""``bcast.argmax``/``argmin`` on every backend against NumPy's
``np.argmax``/``np.argmin`` (the first NaN wins, the first of ties wins,
``-0.0`` ties ``0.0``): f32/f64/f16/i32/ui8/i8 operands, i32/i64/ui16
indices, every dim of rank 1-3, size-1 dims; the empty dim is a located
error (NumPy raises, JAX refuses it); the Array API module on
array_api_strict, dask (chunked, so a NaN and a maximum can sit in
different chunks) and JAX; the ``-t stablehlo`` export on XLA."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]

ELEMENTS = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i32": np.int32, "ui8": np.uint8,
            "i8": np.int8}
INDEXES = {"i32": np.int32, "i64": np.int64, "ui16": np.uint16}


def tensor(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def arg_program(name: str, shape, dim: int, element: str, index: str) -> str:
    t = tensor(shape, element)
    r = tensor([n for d, n in enumerate(shape) if d != dim], index)
    return f"""
func.func @main(%x: {t}) -> {r} {{
  %0 = bcast.{name} %x, dim = {dim} : ({t}) -> {r}
  func.return %0 : {r}
}}
"""


def sample(shape, element: str, seed: int) -> np.ndarray:
    """Few distinct values, so most lanes hold ties; floats get NaNs, -0.0
    and infinities too."""
    rng = np.random.default_rng(seed)
    dtype = ELEMENTS[element]
    if np.dtype(dtype).kind == "f":
        pool = np.array([-1.5, -0.0, 0.0, 2.0, 2.0, np.inf, -np.inf, np.nan], dtype)
        return rng.choice(pool, shape)
    info = np.iinfo(dtype)
    pool = np.array([info.min, info.max, 0, 3, 3, 1], dtype)
    return rng.choice(pool, shape)


CASES = [
    ((7,), 0, "f32", "i32"),
    ((4, 6), 1, "f32", "i64"),
    ((4, 6), 0, "f64", "i32"),
    ((3, 5), 1, "f16", "i32"),
    ((2, 3, 4), 1, "i32", "i64"),
    ((2, 3, 4), 2, "ui8", "ui16"),
    ((5, 2, 3), 0, "i8", "i32"),
    ((4, 1), 1, "f32", "i32"),  # a size-1 dim: index 0
    ((1, 5), 1, "f32", "i32"),
    ((0, 3), 1, "f32", "i32"),  # an empty result, a non-empty dim
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("shape, dim, element, index", CASES)
def test_arg_reduce_matches_numpy(backend, name, shape, dim, element, index):
    x = sample(shape, element, seed=len(shape) * 7 + dim)
    got = np.asarray(bcast.compile(arg_program(name, shape, dim, element, index), backend=backend)(x))
    want = getattr(np, name)(x, axis=dim).astype(INDEXES[index])
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


NAN_AND_TIES = np.array([
    [1.0, 3.0, 3.0, 0.0],  # a tie: the first
    [np.nan, 2.0, np.nan, 5.0],  # NaN first: 0
    [2.0, 7.0, np.nan, np.nan],  # the first NaN, after the maximum: 2
    [-0.0, 0.0, -1.0, -1.0],  # -0.0 ties 0.0
    [-np.inf, -np.inf, -np.inf, -np.inf],  # all the identity: 0
    [np.inf, 1.0, np.inf, np.nan],  # inf, then a NaN: the NaN
], np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
def test_nan_and_ties_as_numpy_and_jax(backend):
    """The rows' expected indices are written out: NumPy's (and
    ``jax.jit``'s, tests/tools/test_from_jax.py) answers."""
    argmax = bcast.compile(arg_program("argmax", (6, 4), 1, "f32", "i32"), backend=backend)
    argmin = bcast.compile(arg_program("argmin", (6, 4), 1, "f32", "i32"), backend=backend)
    np.testing.assert_array_equal(argmax(NAN_AND_TIES), [1, 0, 2, 0, 0, 3])
    np.testing.assert_array_equal(argmin(NAN_AND_TIES), [3, 0, 2, 2, 0, 3])
    np.testing.assert_array_equal(argmax(NAN_AND_TIES), np.argmax(NAN_AND_TIES, axis=1))
    np.testing.assert_array_equal(argmin(NAN_AND_TIES), np.argmin(NAN_AND_TIES, axis=1))


CHAINED = """
func.func @main(%x: tensor<5x6xf32>, %b: tensor<6xf32>) -> (tensor<5xi32>, tensor<6xi64>) {
  %0 = bcast.add %x, %b : (tensor<5x6xf32>, tensor<6xf32>) -> tensor<5x6xf32>
  %1 = bcast.exponential %0 : tensor<5x6xf32>
  %2 = bcast.argmax %1, dim = 1 : (tensor<5x6xf32>) -> tensor<5xi32>
  %3 = bcast.argmin %0, dim = 0 : (tensor<5x6xf32>) -> tensor<6xi64>
  func.return %2, %3 : tensor<5xi32>, tensor<6xi64>
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_argmax_of_a_fused_broadcasting_producer(backend):
    """A fusion boundary: the producers (one broadcasting) fuse before it."""
    rng = np.random.default_rng(5)
    x, b = rng.standard_normal((5, 6)).astype(np.float32), rng.standard_normal(6).astype(np.float32)
    got_max, got_min = bcast.compile(CHAINED, backend=backend)(x, b)
    np.testing.assert_array_equal(got_max, np.argmax(np.exp(x + b), axis=1))
    np.testing.assert_array_equal(got_min, np.argmin(x + b, axis=0))


def test_argmax_of_an_empty_dim_is_a_located_error():
    """Decided: refused when verifying (NumPy raises ``attempt to get argmax
    of an empty sequence``, JAX refuses it when tracing), never an invented
    index."""
    with pytest.raises(bcast.BcastError) as info:
        bcast.compile(arg_program("argmax", (3, 0), 1, "f32", "i32"), filename="prog.mlir")
    assert "prog.mlir:3:8: error: 'bcast.argmax' op argmax of an empty dim (dim 1 has size 0)" in str(info.value)


@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_target_runs_argmax_on_other_libraries(library):
    """Standard functions only, with the NaN rule made explicit (the
    standard leaves NaN to the library): dask, which folds chunk by chunk,
    gets a row whose maximum and first NaN sit in different chunks."""
    lib = pytest.importorskip(library)
    x = sample((6, 8), "f32", seed=11)
    x[2] = [np.inf, 1, 1, 1, 1, np.nan, 1, np.nan]  # the first NaN (5) after the maximum, in another chunk
    text = arg_program("argmax", (6, 8), 1, "f32", "i32")
    f = bcast.compile(text, backend="array-api")
    if library == "jax.numpy":
        import jax

        got = jax.jit(f)(lib.asarray(x))
    elif library == "dask.array":
        got = f(lib.from_array(x, chunks=(2, 3))).compute()
    else:
        got = f(lib.asarray(x))
    np.testing.assert_array_equal(np.asarray(got), np.argmax(x, axis=1))
    assert np.asarray(got)[2] == 5


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("shape, dim, element, index", [c for c in CASES if 0 not in c[0]])
def test_exported_arg_reduce_runs_on_xla_as_numpy_says(name, shape, dim, element, index):
    x = sample(shape, element, seed=len(shape) * 7 + dim)
    (got,) = run_on_xla(written_back(arg_program(name, shape, dim, element, index)), (x,))
    want = getattr(np, name)(x, axis=dim)
    assert got.dtype == INDEXES[index]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("semantics", ["numpy", "xla", "tml"])
def test_argmax_and_cumulative_under_every_semantics(semantics):
    """Flat types verify and run the same under numpy, xla and tml (nested
    tml types are refused: invalid_argmax_cumulative.mlir)."""
    text = f"""
module attributes {{bcast.semantics = "{semantics}"}} {{
  func.func @main(%x: tensor<3x4xf32>) -> (tensor<3xi32>, tensor<3x4xf32>) {{
    %0 = bcast.argmax %x, dim = 1 : (tensor<3x4xf32>) -> tensor<3xi32>
    %1 = bcast.cumulative add %x, dim = 1 : (tensor<3x4xf32>) -> tensor<3x4xf32>
    func.return %0, %1 : tensor<3xi32>, tensor<3x4xf32>
  }}
}}
"""
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    index, total = bcast.compile(text, backend="reference")(x)
    np.testing.assert_array_equal(index, np.argmax(x, axis=1))
    np.testing.assert_array_equal(total, np.cumsum(x, axis=1) + np.float32(0))


NOT_JAXS_ARGMAX = """
func.func @main(%x: tensor<4x3xf32>) -> tensor<4xi32> {
  %i = stablehlo.iota dim = 1 : tensor<4x3xi32>
  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%x init: %c), (%i init: %z) across dimensions = [1] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>
    %3 = stablehlo.select %1, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<4xi32>
}
"""


def test_another_two_input_reduce_stays_unknown(capsys, tmp_path):
    """Open world: a two-input reduce with another body (here a last-of-ties
    argmax) is kept by the standard pipeline and written back by ``-t
    stablehlo``; a backend that must run it refuses it, located."""
    from bcast.tools import opt
    from bcast.tools.targets import STANDARD_PIPELINE

    path = tmp_path / "prog.mlir"
    path.write_text(NOT_JAXS_ARGMAX)
    assert opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"]) == 0
    out, _ = capsys.readouterr()
    assert "stablehlo.compare GE" in out and "bcast." not in out
    for backend in BACKENDS:
        with pytest.raises(bcast.BcastError) as info:
            bcast.compile(NOT_JAXS_ARGMAX, backend=backend, filename="prog.mlir")
        assert "prog.mlir:6:" in str(info.value) and "'stablehlo.reduce' op" in str(info.value)


@st.composite
def arg_reductions(draw):
    """A random argmax/argmin: rank 1-3, sizes 1-5 (a dim is never empty),
    any dim, element and index type; values from few distinct ones (ties)
    with NaN, infinities and -0.0."""
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    dim = draw(st.integers(0, len(shape) - 1))
    element = draw(st.sampled_from(sorted(ELEMENTS)))
    pool = sample((16,), element, seed=draw(st.integers(0, 3))).tolist()
    values = draw(st.lists(st.sampled_from(pool), min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    x = np.array(values, dtype=ELEMENTS[element]).reshape(shape)
    return draw(st.sampled_from(["argmax", "argmin"])), x, dim, element, draw(st.sampled_from(sorted(INDEXES)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_random_arg_reductions_match_numpy(backend):
    @settings(max_examples=examples(12 if backend == "c" else 60), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(arg_reductions())
    def check(case):
        name, x, dim, element, index = case
        got = bcast.compile(arg_program(name, x.shape, dim, element, index), backend=backend)(x)
        want = getattr(np, name)(x, axis=dim).astype(INDEXES[index])
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(got, want)

    check()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_kept_dims_may_be_dynamic(backend, name):
    """One compiled program for every row count (0 and 1 included): the
    kept dims may be ``?`` (the reduced one too: test_dynamic_scatter_argmax.py)."""
    f = bcast.compile(arg_program(name, ["?", 5, "?"], 1, "f32", "i64"), backend=backend)
    reference = getattr(np, name)
    for rows, cols in ((0, 3), (1, 1), (4, 2)):
        x = np.random.default_rng(rows).standard_normal((rows, 5, cols)).astype(np.float32)
        if rows:
            x[0, 3, 0] = np.nan
        np.testing.assert_array_equal(f(x), reference(x, axis=1))
