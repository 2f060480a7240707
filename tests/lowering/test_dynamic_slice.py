"""``bcast.dynamic_slice`` and ``bcast.dynamic_update_slice`` on every
backend against a NumPy oracle that clamps each start into ``[0, dim -
size]`` (StableHLO's semantics): index types i32/i64/ui32/ui64/i8/ui8,
negative, out-of-range and extreme starts (the C target must not read or
write out of bounds for any of them), zero-size blocks, rank 0; the result
of an update never aliases the operand; the exported module runs on XLA
with the same values; the Array API target on array_api_strict, dask and
JAX (under ``jit``, the starts traced)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.ir.types import NUMPY_DTYPES

BACKENDS = ["reference", "numpy", "array-api", "c"]

INDEX_DTYPES = {"i32": np.int32, "i64": np.int64, "ui32": np.uint32, "ui64": np.uint64, "i8": np.int8,
                "ui8": np.uint8}


def tensor(shape: tuple[int, ...], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{element}>" if shape else f"tensor<{element}>"


def slice_program(shape, sizes, element: str, index: str) -> str:
    t, r, i = tensor(shape, element), tensor(sizes, element), tensor((), index)
    names = [f"%i{d}" for d in range(len(shape))]
    args = "".join(f", {n}: {i}" for n in names)
    return f"""
func.func @main(%x: {t}{args}) -> {r} {{
  %0 = bcast.dynamic_slice %x[{', '.join(names)}], sizes = {list(sizes)} : ({', '.join([t] + [i] * len(names))}) -> {r}
  func.return %0 : {r}
}}
"""


def update_program(shape, update, element: str, index: str) -> str:
    t, u, i = tensor(shape, element), tensor(update, element), tensor((), index)
    names = [f"%i{d}" for d in range(len(shape))]
    args = "".join(f", {n}: {i}" for n in names)
    return f"""
func.func @main(%x: {t}, %u: {u}{args}) -> {t} {{
  %0 = bcast.dynamic_update_slice %x[{', '.join(names)}], %u : ({', '.join([t] + [i] * len(names) + [u])}) -> {t}
  func.return %0 : {t}
}}
"""


def clamped(starts, sizes, shape) -> list[int]:
    """The oracle: each start clamped into ``[0, n - size]``."""
    return [min(max(int(s), 0), n - z) for s, z, n in zip(starts, sizes, shape)]


def oracle_slice(x, starts, sizes):
    begin = clamped(starts, sizes, x.shape)
    return x[tuple(slice(b, b + z) for b, z in zip(begin, sizes))]


def oracle_update(x, starts, update):
    out = x.copy()
    begin = clamped(starts, update.shape, x.shape)
    out[tuple(slice(b, b + z) for b, z in zip(begin, update.shape))] = update
    return out


def extremes(index: str) -> list[int]:
    info = np.iinfo(INDEX_DTYPES[index])
    return [int(info.min), int(info.max), int(info.max) // 2 + 1]


# (operand shape, block sizes, element, index type, start tuples)
CASES = [
    ((6, 7), (2, 3), "f32", "i32", [(0, 0), (4, 4), (5, 6), (-1, 2), (100, -100), (3, 1)]),
    ((6, 7), (2, 3), "f32", "i64", [(-(2**63), 2**63 - 1), (2**40, 1), (1, 2)]),
    ((5, 4), (3, 4), "i32", "ui32", [(0, 0), (2, 0), (3, 0), (2**32 - 1, 7), (2**31, 2**31)]),
    ((9,), (4,), "f16", "ui64", [(0,), (5,), (6,), (2**64 - 1,), (2**63,), (2**63 - 1,)]),
    ((200,), (3,), "ui8", "i8", [(-128,), (127,), (-1,), (100,)]),
    ((300,), (7,), "i1", "ui8", [(255,), (0,), (250,)]),
    ((4, 5), (0, 2), "f64", "i32", [(9, 9), (-3, 3), (4, 0)]),  # a zero-size block
    ((3, 4, 5), (3, 1, 5), "i64", "i32", [(1, 2, 3), (-5, 7, -2)]),  # whole dims: starts are 0
    ((), (), "f32", "i32", [()]),  # rank 0
]


def sample(shape, element: str) -> np.ndarray:
    rng = np.random.default_rng(0)
    if element == "i1":
        return np.asarray(rng.random(shape) < 0.5)
    dtype = NUMPY_DTYPES[element]
    return np.asarray((rng.random(shape) * 100).astype(dtype))


def starts_of(values, index: str):
    return tuple(np.array(v, dtype=INDEX_DTYPES[index]) for v in values)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape, sizes, element, index, starts", CASES)
def test_dynamic_slice_clamps_as_numpy_oracle(backend, shape, sizes, element, index, starts):
    x = sample(shape, element)
    f = bcast.compile(slice_program(shape, sizes, element, index), backend=backend)
    for values in [*starts, *[(e,) * len(shape) for e in extremes(index)]]:
        got = np.asarray(f(x, *starts_of(values, index)))
        want = oracle_slice(x, values, sizes)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert not np.shares_memory(got, x)
        np.testing.assert_array_equal(got, want, err_msg=f"starts {values}")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape, sizes, element, index, starts", CASES)
def test_dynamic_update_slice_clamps_as_numpy_oracle(backend, shape, sizes, element, index, starts):
    x = sample(shape, element)
    u = np.asarray(np.logical_not(sample(sizes, element)) if element == "i1" else sample(sizes, element) + 1)
    f = bcast.compile(update_program(shape, sizes, element, index), backend=backend)
    for values in [*starts, *[(e,) * len(shape) for e in extremes(index)]]:
        before = x.copy()
        got = np.asarray(f(x, u, *starts_of(values, index)))
        np.testing.assert_array_equal(x, before)  # the operand is not written
        assert not np.shares_memory(got, x) and not np.shares_memory(got, u)
        np.testing.assert_array_equal(got, oracle_update(x, values, u), err_msg=f"starts {values}")


CHAINED = """
func.func @main(%x: tensor<8x6xf32>, %i: tensor<i32>, %v: tensor<1x6xf32>) -> (tensor<8x6xf32>, tensor<2x6xf32>) {
  %one = bcast.constant dense<1> : tensor<i32>
  %zero = bcast.constant dense<0> : tensor<i32>
  %j = bcast.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %0 = bcast.dynamic_update_slice %x[%j, %zero], %v : (tensor<8x6xf32>, tensor<i32>, tensor<i32>, tensor<1x6xf32>) -> tensor<8x6xf32>
  %1 = bcast.exponential %0 : tensor<8x6xf32>
  %2 = bcast.dynamic_slice %1[%i, %zero], sizes = [2, 6] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<2x6xf32>
  %3 = bcast.multiply %2, %2 : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  func.return %0, %3 : tensor<8x6xf32>, tensor<2x6xf32>
}
"""


def chained_oracle(x, i, v):
    updated = oracle_update(x, (int(i) + 1, 0), v)
    block = oracle_slice(np.exp(updated), (int(i), 0), (2, 6))
    return updated, block * block


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("i", [-4, 0, 3, 6, 7, 50])
def test_dynamic_slices_between_fusions(backend, i):
    """Starts computed by the program, a slice of a fused exponential and an
    elementwise op of the slice (dynamic slices are fusion boundaries)."""
    rng = np.random.default_rng(4)
    x = rng.random((8, 6)).astype(np.float32)
    v = rng.random((1, 6)).astype(np.float32)
    got = bcast.compile(CHAINED, backend=backend)(x, np.int32(i), v)
    for g, w in zip(got, chained_oracle(x, i, v)):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-6)


def test_dynamic_slices_are_fusion_boundaries():
    from bcast.tools import driver

    module = driver.load(CHAINED, "chained.mlir")
    driver.run_pipeline(driver.parse_pipeline("bcast-make-explicit,bcast-fuse"), driver.make_context(), module)
    text = str(module)
    for fusion in text.split("bcast.fusion")[1:]:
        assert "dynamic" not in fusion.split("bcast.yield")[0], text
    assert text.count("bcast.dynamic_slice") == 1 and text.count("bcast.dynamic_update_slice") == 1


def run_on_xla(text: str, args: tuple, whole: bool) -> np.ndarray:
    """``text`` exported and run by XLA; a dynamic op is written unless the
    block is the ``whole`` operand (then it folds away)."""
    pytest.importorskip("jax")
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools import driver
    from bcast.tools.jax_bridge import run_stablehlo, verify_stablehlo

    module = driver.load(text, "prog.mlir", pipeline=driver.EXPLICIT_PIPELINE)
    exported = emit_text(module)
    assert ("stablehlo.dynamic" in exported) != whole, exported
    verify_stablehlo(exported)
    return [np.asarray(r) for r in run_stablehlo(exported, args)]



@pytest.mark.parametrize("shape, sizes, element, index, starts", CASES)
def test_dynamic_slices_exported_run_on_xla_as_numpy_says(shape, sizes, element, index, starts):
    x = sample(shape, element)
    u = np.asarray(np.logical_not(sample(sizes, element)) if element == "i1" else sample(sizes, element) + 1)
    for values in [*starts, *[(e,) * len(shape) for e in extremes(index)]]:
        whole = tuple(sizes) == tuple(shape)
        (got,) = run_on_xla(slice_program(shape, sizes, element, index), (x, *starts_of(values, index)), whole)
        np.testing.assert_array_equal(got, oracle_slice(x, values, sizes), err_msg=f"starts {values}")
        (got,) = run_on_xla(update_program(shape, sizes, element, index), (x, u, *starts_of(values, index)), whole)
        np.testing.assert_array_equal(got, oracle_update(x, values, u), err_msg=f"starts {values}")


@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_target_runs_dynamic_slices_on_other_libraries(library):
    lib = pytest.importorskip(library)
    rng = np.random.default_rng(5)
    x = rng.random((8, 6)).astype(np.float32)
    v = rng.random((1, 6)).astype(np.float32)
    f = bcast.compile(CHAINED, backend="array-api")
    for i in (-3, 2, 7, 40):
        want = chained_oracle(x, i, v)
        if library == "jax.numpy":
            import jax

            got = jax.jit(f)(lib.asarray(x), lib.asarray(np.int32(i)), lib.asarray(v))
        elif library == "dask.array":
            got = [r.compute() for r in f(lib.from_array(x, chunks=(3, 4)), lib.from_array(np.int32(i)),
                                          lib.from_array(v, chunks=(1, 4)))]
        else:
            got = f(lib.asarray(x), lib.asarray(np.int32(i)), lib.asarray(v))
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-6)


@st.composite
def slice_cases(draw):
    """An operand shape (rank 0..3, dims 0..5), a block size per dim, a start
    per dim anywhere in the index type's range, and an index type."""
    index = draw(st.sampled_from(sorted(INDEX_DTYPES)))
    info = np.iinfo(INDEX_DTYPES[index])
    shape = tuple(draw(st.lists(st.integers(0, 5), max_size=3)))
    sizes = tuple(draw(st.integers(0, n)) for n in shape)
    near = st.integers(max(int(info.min), -8), min(int(info.max), 8))
    starts = tuple(draw(st.one_of(near, st.integers(int(info.min), int(info.max)))) for _ in shape)
    return shape, sizes, index, starts


@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
@given(slice_cases())
def test_random_dynamic_slices_match_the_oracle(case):
    """Random shapes, sizes, starts and index types: the reference, NumPy and
    Array API targets (the C target is the loop IR test's) against the oracle."""
    shape, sizes, index, starts = case
    x = sample(shape, "i32")
    u = sample(sizes, "i32") + 100
    args = starts_of(starts, index)
    for backend in ("reference", "numpy", "array-api"):
        got = np.asarray(bcast.compile(slice_program(shape, sizes, "i32", index), backend=backend)(x, *args))
        np.testing.assert_array_equal(got, oracle_slice(x, starts, sizes), err_msg=backend)
        got = np.asarray(bcast.compile(update_program(shape, sizes, "i32", index), backend=backend)(x, u, *args))
        np.testing.assert_array_equal(got, oracle_update(x, starts, u), err_msg=backend)


@pytest.mark.parametrize("semantics", ["numpy", "xla", "tml"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_dynamic_slices_run_under_every_semantics(semantics, backend):
    text = f'module attributes {{bcast.semantics = "{semantics}"}} {{{update_program((5, 4), (2, 4), "f32", "i64")}}}'
    x, u = sample((5, 4), "f32"), sample((2, 4), "f32") + 1
    got = bcast.compile(text, backend=backend)(x, u, np.int64(4), np.int64(-2))
    np.testing.assert_array_equal(np.asarray(got), oracle_update(x, (4, -2), u))
