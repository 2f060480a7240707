"""``bcast.compare ..., TOTALORDER`` (StableHLO's compare type) on every
backend and on XLA, against an oracle that knows nothing of bit tricks: a
list of f16/f32/f64 values written down in IEEE 754 totalOrder (NaNs with
the sign bit set and payloads, infinities, the largest finite values,
normal and subnormal values, both zeros), so ``x DIR y`` must be
``position(x) DIR position(y)`` for every pair and direction. Also: random
bit patterns against a rank computed from sign and magnitude, the key
definition in ``bcast.ir.scalar`` on the probe, JAX's own ``lt_to`` (a
TOTALORDER compare) imported by ``from_jax``."""

from __future__ import annotations

import functools
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import scalar
from bcast.tests.budget import examples
from bcast.tests.xla import run_on_xla, written_back

BACKENDS = ["reference", "numpy", "array-api", "c"]
DIRECTIONS = {"EQ": operator.eq, "NE": operator.ne, "LT": operator.lt, "LE": operator.le,
              "GT": operator.gt, "GE": operator.ge}
FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def from_bits(dtype, bits: int):
    width = np.dtype(dtype).itemsize
    return np.array(bits, dtype=f"u{width}").view(dtype)


def ascending(dtype) -> np.ndarray:
    """Distinct values in totalOrder, written by their meaning (a NaN by its bits)."""
    width = np.dtype(dtype).itemsize * 8
    sign = 1 << (width - 1)
    info = np.finfo(dtype)
    mantissa = info.nmant
    exponent_all_ones = ((1 << (width - 1 - mantissa)) - 1) << mantissa
    quiet = exponent_all_ones | (1 << (mantissa - 1))
    nan = lambda bits: from_bits(dtype, bits)  # noqa: E731
    tiny, smallest = info.smallest_normal, info.smallest_subnormal
    values = [
        nan(sign | quiet | 3), nan(sign | quiet), nan(sign | exponent_all_ones | 1),  # -NaNs: larger payload first
        -np.inf, -info.max, -2.0, -1.0, -tiny, -smallest * 3, -smallest, -0.0,
        0.0, smallest, smallest * 3, tiny, 0.5, 1.0, info.max, np.inf,
        nan(exponent_all_ones | 1), nan(quiet), nan(quiet | 3),  # +NaNs: signalling, quiet, larger payload
    ]
    return np.stack([np.asarray(v, dtype=dtype) for v in values])


def program(element: str, n: int) -> str:
    t, r = f"tensor<{n}x{n}x{element}>", f"tensor<{n}x{n}xi1>"
    lines = [f"func.func @main(%a: {t}, %b: {t}) -> ({', '.join([r] * 6)}) {{"]
    lines += [f"  %{d} = bcast.compare {d}, %a, %b, TOTALORDER : ({t}, {t}) -> {r}" for d in DIRECTIONS]
    lines += [f"  func.return {', '.join('%' + d for d in DIRECTIONS)} : {', '.join([r] * 6)}", "}"]
    return "\n".join(lines)


def pairs(dtype):
    """Every ordered pair of the ascending values, and their positions."""
    values = ascending(dtype)
    n = len(values)
    a, b = np.repeat(values, n).reshape(n, n), np.tile(values, n).reshape(n, n)
    pa, pb = np.repeat(np.arange(n), n).reshape(n, n), np.tile(np.arange(n), n).reshape(n, n)
    return a, b, pa, pb


def test_the_oracle_values_are_distinct_and_keep_their_bits():
    for dtype in FLOATS.values():
        values = ascending(dtype)
        bits = values.view(f"u{values.itemsize}")
        assert len(set(bits.tolist())) == len(values)
        assert np.isnan(values[0]) and np.signbit(values[0]) and np.isnan(values[-1])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("element", sorted(FLOATS))
def test_total_order_compare_matches_positions(backend, element):
    a, b, pa, pb = pairs(FLOATS[element])
    got = bcast.compile(program(element, len(a)), backend=backend)(a, b)
    for (direction, relation), g in zip(DIRECTIONS.items(), got):
        np.testing.assert_array_equal(np.asarray(g), relation(pa, pb), err_msg=f"{direction} on {element}")


@pytest.mark.parametrize("element", sorted(FLOATS))
def test_total_order_compare_exported_runs_on_xla_the_same(element):
    a, b, pa, pb = pairs(FLOATS[element])
    text = written_back(program(element, len(a)))
    assert text.count(", TOTALORDER :") == 6, text
    for (direction, relation), g in zip(DIRECTIONS.items(), run_on_xla(text, (a, b))):
        np.testing.assert_array_equal(g, relation(pa, pb), err_msg=f"XLA {direction} on {element}")


@pytest.mark.parametrize("library", ["array_api_strict", "dask.array", "jax.numpy"])
def test_array_api_total_order_on_other_libraries(library):
    """The bitcast the definition needs, which the standard lacks, on each library."""
    lib = pytest.importorskip(library)
    a, b, pa, pb = pairs(np.float32)
    f = bcast.compile(program("f32", len(a)), backend="array-api")
    if library == "jax.numpy":
        import jax

        got = jax.jit(f)(lib.asarray(a), lib.asarray(b))
    elif library == "dask.array":
        got = [r.compute() for r in f(lib.from_array(a, chunks=(8, 8)), lib.from_array(b, chunks=(8, 8)))]
    else:
        got = f(lib.asarray(a), lib.asarray(b))
    for (direction, relation), g in zip(DIRECTIONS.items(), got):
        np.testing.assert_array_equal(np.asarray(g), relation(pa, pb), err_msg=f"{library} {direction}")


def test_the_definition_compares_integer_keys_of_the_bits():
    probe = scalar.Probe()
    scalar.compare(probe, "f32", "LT", "%0", "%1", total_order=True)
    names = [call[0] for call in probe.calls]
    assert names.count("arith.bitcast") == 2 and "arith.cmpf" not in names
    assert ("arith.cmpi", "slt") in [call[:2] for call in probe.calls]


def test_jax_total_order_compare_imports_and_runs():
    """JAX's ``lt_to``/``eq_to`` primitives (what its sort comparators use)
    lower to ``stablehlo.compare ..., TOTALORDER``; ``from_jax`` imports them
    and every backend gives jax.jit's results."""
    jax = pytest.importorskip("jax")
    from jax._src.lax.lax import eq_to_p, le_to_p, lt_to_p

    def ordered(x, y):
        return lt_to_p.bind(x, y) | (eq_to_p.bind(x, y) & le_to_p.bind(y, x))

    a, b, _, _ = pairs(np.float32)
    assert "TOTALORDER" in jax.jit(ordered).lower(a, b).as_text()
    module = bcast.from_jax(ordered, a, b)
    assert "TOTALORDER" in str(module)
    want = np.asarray(jax.jit(ordered)(a, b))
    for backend in BACKENDS:
        np.testing.assert_array_equal(np.asarray(bcast.compile(module, backend=backend)(a, b)), want)


def vector_program(element: str, n: int) -> str:
    t, r = f"tensor<{n}x{element}>", f"tensor<{n}xi1>"
    lines = [f"func.func @main(%a: {t}, %b: {t}) -> ({', '.join([r] * 6)}) {{"]
    lines += [f"  %{d} = bcast.compare {d}, %a, %b, TOTALORDER : ({t}, {t}) -> {r}" for d in DIRECTIONS]
    lines += [f"  func.return {', '.join('%' + d for d in DIRECTIONS)} : {', '.join([r] * 6)}", "}"]
    return "\n".join(lines)


@functools.cache
def compiled(element: str, backend: str):
    return bcast.compile(vector_program(element, 64), backend=backend)


def sign_magnitude_rank(bits: np.ndarray, width: int) -> list[int]:
    """totalOrder from the bits' meaning: a sign and a magnitude (exponent
    and fraction as one number), negatives ranked below every positive and
    larger magnitudes lower; -0.0 ranks just below +0.0."""
    out = []
    for b in bits.tolist():
        negative, magnitude = b >> (width - 1), b & ((1 << (width - 1)) - 1)
        out.append(-magnitude - 1 if negative else magnitude)
    return out


@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(FLOATS)), st.data())
def test_random_bit_patterns_order_by_sign_and_magnitude(element, data):
    """Any bits (NaN payloads, subnormals, both zeros): every backend's
    TOTALORDER compare against the sign-and-magnitude rank."""
    dtype = FLOATS[element]
    width = np.dtype(dtype).itemsize * 8
    specials = [0, 1 << (width - 1), (1 << width) - 1, (1 << (width - 1)) - 1, 1, (1 << (width - 1)) + 1]
    pattern = st.one_of(st.integers(0, (1 << width) - 1), st.sampled_from(specials))
    a_bits = np.array(data.draw(st.lists(pattern, min_size=64, max_size=64)), dtype=f"u{width // 8}")
    b_bits = np.array(data.draw(st.lists(pattern, min_size=64, max_size=64)), dtype=f"u{width // 8}")
    b_bits[::4] = a_bits[::4]  # equal bits too
    ra, rb = np.array(sign_magnitude_rank(a_bits, width)), np.array(sign_magnitude_rank(b_bits, width))
    for backend in BACKENDS:
        got = compiled(element, backend)(a_bits.view(dtype), b_bits.view(dtype))
        for (direction, relation), g in zip(DIRECTIONS.items(), got):
            np.testing.assert_array_equal(np.asarray(g), relation(ra, rb), err_msg=f"{backend} {direction}")
