"""``bcast.sort`` (docs/ir.md) on every backend.

(1) JAX programs (``jnp.sort``, ``jnp.argsort``, descending, integers,
booleans, ``f16``, NaNs of both signs, ``-0.0`` beside ``0.0``, lanes full
of ties, ``lax.sort`` of several operands by one key and by several
(``num_keys`` 2 and 3, ``jnp.lexsort``), ``lax.top_k`` as
``jax.jit(...).lower`` and as ``jax.export`` write it), imported and run by
``bcast.compile`` on every backend, bit for bit equal to ``jax.jit``, and
round-tripped through ``-t stablehlo`` to XLA; (2) the op itself on every
backend and element type, over edge values and run lengths around the
merge sort's powers of two, bit for bit equal to the reference's
``numerics.sort``; (3) the Array API module on array_api_strict (also
without ``take_along_axis``), dask and JAX.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import bcast
from bcast.ir import numerics, scalar
from bcast.lowering import array_api_runtime as ar
from bcast.tests.budget import quick_sample
from bcast.tools.api import BACKENDS
from bcast.tools.targets import STANDARD_PIPELINE

jax = pytest.importorskip("jax")
jnp = jax.numpy

from bcast.tools import opt  # noqa: E402
from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo  # noqa: E402

EDGES = np.array([3.0, -0.0, np.nan, 0.0, 1.0, 0.0, -0.0, np.inf, -np.inf, np.nan, 2.0, 2.0], np.float32)
EDGES[2] = -np.nan  # a NaN with its sign bit set: JAX's sort canonicalizes it, top_k does not


def rows() -> np.ndarray:
    """Two rows of edge values and ties."""
    return np.stack([EDGES, np.roll(EDGES, 5)])


INTS = np.array([[3, 1, 3, -5, 1, 0, 2**31 - 1, -2**31, 1, 1], [0, 0, 0, 7, 7, -1, -1, 0, 7, 0]], np.int32)

PROGRAMS = {
    "sort_rows": (lambda x: jnp.sort(x, axis=-1), (rows(),)),
    "sort_columns": (lambda x: jnp.sort(x, axis=0), (rows(),)),
    "argsort": (lambda x: jnp.argsort(x, axis=-1), (rows(),)),
    "sort_descending": (lambda x: jnp.sort(x, descending=True), (rows(),)),
    "argsort_descending": (lambda x: jnp.argsort(x, descending=True), (rows(),)),
    "argsort_unstable": (lambda x: jnp.argsort(x, stable=False), (INTS,)),
    "sort_ints": (lambda x: jnp.sort(x), (INTS,)),
    "argsort_ints_descending": (lambda x: jnp.argsort(x, descending=True), (INTS,)),
    "argsort_ties": (lambda x: jnp.argsort(x // 3), (np.arange(24, dtype=np.int32)[::-1].reshape(2, 12),)),
    "sort_uint8": (lambda x: jnp.sort(x, axis=0), (np.array([[255, 0], [3, 3], [128, 1]], np.uint8),)),
    "sort_bools": (lambda x: jnp.sort(x > 1), (rows(),)),
    "argsort_f16": (lambda x: jnp.argsort(x.astype(jnp.float16)), (rows(),)),
    "sort_3d": (lambda x: jnp.argsort(x, axis=1), (np.tile(EDGES, 4).reshape(2, 12, 2),)),
    "several_operands": (lambda x, i, y: jax.lax.sort((x, i, y), dimension=1, num_keys=1),
                         (rows(), np.arange(24, dtype=np.int32).reshape(2, 12), -rows())),
    "key_not_first": (lambda x, i: jax.lax.sort((i, x), num_keys=1)[1], (rows(), INTS[:, :1].repeat(12, 1))),
    "two_keys": (lambda x, i, y: jax.lax.sort((x, i, y), dimension=1, num_keys=2),
                 (rows(), np.array([[0, 1] * 6, [1, 1, 0] * 4], np.int32), -rows())),
    "two_keys_int_first": (lambda i, x: jax.lax.sort((i, x), dimension=1, num_keys=2),
                           (np.array([[0, 1] * 6, [1, 1, 0] * 4], np.int32), rows())),
    "three_keys": (lambda u, x, v: jax.lax.sort((u, x > 1, x.astype(jnp.float16), v), dimension=0, num_keys=3),
                   (np.array([[2, 1] * 6, [1, 2, 2] * 4], np.uint8), rows(), np.arange(24, dtype=np.int32).reshape(2, 12))),
    "lexsort": (lambda a, b: jnp.lexsort([a, b]), (rows(), np.array([[0, 1] * 6, [1, 1, 0] * 4], np.int32))),
    "lexsort_columns": (lambda a, b: jnp.lexsort((a, b), axis=0), (INTS, INTS % 2)),
    "top_k": (lambda x: jax.lax.top_k(x, 5), (rows(),)),
    "top_k_ints": (lambda x: jax.lax.top_k(x, 4), (INTS,)),
}
"""name: (function, arguments)."""


def as_list(values) -> list[np.ndarray]:
    return [np.asarray(v) for v in (values if isinstance(values, (tuple, list)) else [values])]


def assert_bits_equal(got, want) -> None:
    """Same dtype and shape, and the same bits (NaN payloads and signs, -0.0)."""
    got, want = as_list(got), as_list(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        np.testing.assert_array_equal(np.ascontiguousarray(g).view(np.uint8), np.ascontiguousarray(w).view(np.uint8),
                                      err_msg=f"{g}\n!=\n{w}")


@pytest.mark.quick_share(3)
@pytest.mark.parametrize("form", ["pretty", "located"])
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_jax_sort_programs_run_as_jax_does(name: str, backend: str, form: str) -> None:
    fn, args = PROGRAMS[name]
    text = lower_to_stablehlo(fn, *args, located=form == "located")
    assert_bits_equal(bcast.compile(text, backend=backend)(*args), jax.jit(fn)(*args))


@pytest.mark.parametrize("name", ["sort_rows", "argsort", "top_k"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_jax_export_form_runs_as_jax_does(name: str, backend: str) -> None:
    """``jax.export``'s text: the sort in a private function (``call @sort``),
    ``top_k`` as a composite of its decomposition."""
    fn, args = PROGRAMS[name]
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
    text = jax.export.export(jax.jit(fn))(*specs).mlir_module()
    assert '"stablehlo.sort"' in text
    assert_bits_equal(bcast.compile(text, backend=backend)(*args), jax.jit(fn)(*args))


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_round_trip_runs_on_xla(capsys, tmp_path, name: str) -> None:
    """``bcast-opt -p <standard pipeline> -t stablehlo`` writes each sort
    back as JAX's form, which jaxlib verifies and XLA runs to ``jax.jit``'s
    values."""
    fn, args = PROGRAMS[name]
    path = tmp_path / f"{name}.mlir"
    path.write_text(lower_to_stablehlo(fn, *args))
    assert opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "bcast." not in out and '"stablehlo.sort"' in out
    verify_stablehlo(out)
    assert_bits_equal(run_stablehlo(out, args), jax.jit(fn)(*args))


# -- the op itself ---------------------------------------------------------

POOLS = {
    "f32": np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1.0, -1.0, 2.5], np.float32),
    "f64": np.array([0.0, -0.0, np.nan, -np.nan, 1.0, -1.0, np.inf], np.float64),
    "f16": np.array([0.0, -0.0, np.nan, -np.nan, -np.inf, 1.0, -2.0], np.float16),
    "i32": np.array([0, -1, 5, 2**31 - 1, -2**31, 3], np.int32),
    "i64": np.array([0, -1, 2**63 - 1, -2**63, 7], np.int64),
    "ui8": np.array([0, 255, 3, 128], np.uint8),
    "i1": np.array([False, True]),
}

SHAPES = [((1,), 0), ((2,), 0), ((7,), 0), ((3, 16), 1), ((3, 17), 1), ((33, 2), 0), ((2, 1, 5), 2), ((0, 3), 1),
          ((2, 0), 1), ((2, 256), 1), ((300, 2), 0)]
"""Run lengths 1, 2, 7, 16, 17, 33 (a power of two, one past it: the last
merge of a pass pairs a run with an empty one), empty lanes, and lanes of
``RADIX_SORT_MIN`` (256) places and more, which C sorts by radix."""

ORDERS = [(False, False), (True, False), (False, True), (True, True)]


def orders_of(element: str) -> list[tuple[bool, bool]]:
    """(descending, total_order) pairs: total_order orders floats only."""
    return [o for o in ORDERS if element.startswith("f") or not o[1]]


def sort_program(shape, dim: int, element: str) -> str:
    """The keys sorted, and i32 values sorted by them, in each order of
    ``orders_of(element)``: one module, so each backend builds it once."""
    t = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    i = f"tensor<{'x'.join(map(str, shape))}xi32>"
    body, results, types = [], [], []
    for n, (descending, total_order) in enumerate(orders_of(element)):
        flags = (" descending" if descending else "") + (" total_order" if total_order else "")
        body.append(f"  %s{n} = bcast.sort %k by %k{flags}, dim = {dim} : ({t}, {t}) -> {t}")
        body.append(f"  %a{n} = bcast.sort %v by %k{flags}, dim = {dim} : ({i}, {t}) -> {i}")
        results += [f"%s{n}", f"%a{n}"]
        types += [t, i]
    return (f"func.func @main(%k: {t}, %v: {i}) -> ({', '.join(types)}) {{\n" + "\n".join(body)
            + f"\n  func.return {', '.join(results)} : {', '.join(types)}\n}}\n")


EDGE_CASES = quick_sample([
    pytest.param(backend, element, shape, dim, id=f"{backend}-{element}-{'x'.join(map(str, shape))}-dim{dim}")
    for backend in BACKENDS if backend != "reference" for element in POOLS for shape, dim in SHAPES
])


@pytest.mark.quick_share(2)
@pytest.mark.parametrize(("backend", "element", "shape", "dim"), EDGE_CASES)
def test_sort_matches_the_reference_on_edge_values(backend: str, element: str, shape, dim: int) -> None:
    rng = np.random.default_rng(len(shape) * 31 + dim)
    keys = rng.choice(POOLS[element], shape)
    values = rng.integers(-100, 100, shape).astype(np.int32)
    want = []
    for descending, total_order in orders_of(element):
        want += [numerics.sort(keys, [keys], dim, [(descending, total_order)]),
                 numerics.sort(values, [keys], dim, [(descending, total_order)])]
    assert_bits_equal(bcast.compile(sort_program(shape, dim, element), backend=backend)(keys, values), want)


KEY_ORDERS = [[(False, False), (False, False)], [(True, False), (False, True)], [(False, True), (True, False)],
              [(True, True), (True, False), (False, False)]]
"""(descending, total_order) per key of the several-key cases."""


def keys_program(shape, dim: int, orders) -> str:
    """i32 values sorted by f32 keys ``%k0, %k1, ...`` (one per entry of
    ``orders``, each with its flags)."""
    t = f"tensor<{'x'.join(map(str, shape))}xf32>"
    i = f"tensor<{'x'.join(map(str, shape))}xi32>"
    keys = ", ".join(f"%k{n}" + (" descending" if d else "") + (" total_order" if o else "")
                     for n, (d, o) in enumerate(orders))
    args = ", ".join(f"%k{n}: {t}" for n in range(len(orders)))
    return (f"func.func @main(%v: {i}, {args}) -> {i} {{\n"
            f"  %r = bcast.sort %v by {keys}, dim = {dim} : ({i}, {', '.join([t] * len(orders))}) -> {i}\n"
            f"  func.return %r : {i}\n}}\n")


def lexicographic_order(keys, orders) -> list[int]:
    """The stable sort of one lane by several keys, spelled out in Python:
    each key's ``sort_key`` (negated when descending) in a tuple, with the
    position last (so ties keep their order)."""
    columns = [np.asarray(scalar.sort_key(numerics.NumpyScalars(), "f32", np.asarray(k, np.float32), t)).tolist()
               for k, (_, t) in zip(keys, orders)]
    return sorted(range(len(keys[0])),
                  key=lambda p: (*[-c[p] if d else c[p] for c, (d, _) in zip(columns, orders)], p))


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("orders", KEY_ORDERS, ids=lambda o: "-".join(f"{int(d)}{int(t)}" for d, t in o))
@pytest.mark.parametrize(("shape", "dim"), [((17,), 0), ((3, 16), 1), ((33, 2), 0), ((2, 0), 1), ((0, 3), 1)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_several_keys_sort_lexicographically(backend: str, shape, dim: int, orders) -> None:
    """Several float keys with few distinct values (so later keys decide
    often), each with its own flags: every backend gives the lexicographic
    stable order, spelled out lane by lane in Python."""
    rng = np.random.default_rng(len(orders) * 7 + dim)
    keys = [rng.choice(POOLS["f32"][:4], shape) for _ in orders]
    values = np.arange(math.prod(shape), dtype=np.int32).reshape(shape)
    got = np.asarray(bcast.compile(keys_program(shape, dim, orders), backend=backend)(values, *keys))
    lanes = lambda a: np.moveaxis(a, dim, -1).reshape(math.prod(shape) // max(shape[dim], 1), shape[dim])  # noqa: E731
    want = [row[lexicographic_order(ks, orders)] for row, *ks in zip(lanes(values), *map(lanes, keys))]
    assert lanes(got).tolist() == [w.tolist() for w in want]


def test_reference_orders_as_numpy_and_ieee_total_order() -> None:
    """``numerics.sort``'s two float orders, spelled out: NumPy's (NaNs of
    both signs last, ``-0.0`` tied with ``0.0`` so they keep their order),
    and IEEE totalOrder (``-NaN`` first, ``-0.0`` before ``0.0``);
    descending keeps ties in their order too."""
    x = np.array([np.nan, 0.0, -0.0, 1.0, -np.nan, -np.inf], np.float32)
    x[4] = -np.nan
    order = numerics.sort_order([x], 0, [(False, False)])
    assert order.tolist() == [5, 1, 2, 3, 0, 4]
    assert numerics.sort_order([x], 0, [(False, True)]).tolist() == [4, 5, 2, 1, 3, 0]
    assert numerics.sort_order([x], 0, [(True, False)]).tolist() == [0, 4, 3, 1, 2, 5]
    assert numerics.sort_order([np.array([2, 1, 2, 1])], 0, [(True, False)]).tolist() == [0, 2, 1, 3]


class WithoutTakeAlongAxis:
    """A namespace that lacks ``take_along_axis`` (before the 2024.12 standard)."""

    def __init__(self, xp):
        self.xp = xp

    def __getattr__(self, name: str):
        if name == "take_along_axis":
            raise AttributeError(name)
        return getattr(self.xp, name)


@pytest.mark.parametrize("lacks_take_along_axis", [False, True])
def test_array_api_sort_on_array_api_strict(lacks_take_along_axis: bool) -> None:
    xp = pytest.importorskip("array_api_strict")
    namespace = WithoutTakeAlongAxis(xp) if lacks_take_along_axis else xp
    rng = np.random.default_rng(5)
    for shape, dim in [((3, 5), 1), ((3, 5), 0), ((2, 3, 4), 1), ((4,), 0), ((2, 0, 3), 1)]:
        keys = rng.choice(POOLS["f32"], shape)
        values = rng.standard_normal(shape).astype(np.float32)
        for descending, total_order in ORDERS:
            got = ar.sort(namespace, xp.asarray(values), [xp.asarray(keys)], dim, [(descending, total_order)])
            assert_bits_equal(np.asarray(got), numerics.sort(values, [keys], dim, [(descending, total_order)]))


@pytest.mark.parametrize("library", ["dask", "jax"])
def test_array_api_sort_on_dask_and_jax(library: str) -> None:
    """Through ``array_api_compat``: dask in chunks that split each lane
    (its argsort gathers a lane), JAX's own namespace."""
    compat = pytest.importorskip("array_api_compat")
    rng = np.random.default_rng(6)
    keys = rng.choice(POOLS["f32"], (4, 6))
    values = rng.integers(-9, 9, (4, 6)).astype(np.int32)
    if library == "dask":
        da = pytest.importorskip("dask.array")
        wrap = lambda a: da.from_array(a, chunks=(2, 3))  # noqa: E731
    else:
        wrap = jnp.asarray
    xp = compat.array_namespace(wrap(keys))
    for dim in (0, 1):
        for descending, total_order in ORDERS:
            got = ar.sort(xp, wrap(values), [wrap(keys)], dim, [(descending, total_order)])
            assert_bits_equal(np.asarray(got), numerics.sort(values, [keys], dim, [(descending, total_order)]))


# -- ? dims -----------------------------------------------------------------

DYNAMIC_SORTS = """func.func @main(%x: tensor<3x?xf32>, %i: tensor<3x?xi32>) -> (tensor<3x?xf32>, tensor<3x?xi32>) {
  %s = bcast.sort %x by %x, dim = 1 : (tensor<3x?xf32>, tensor<3x?xf32>) -> tensor<3x?xf32>
  %a = bcast.sort %i by %x descending, %i, dim = 1 : (tensor<3x?xi32>, tensor<3x?xf32>, tensor<3x?xi32>) -> tensor<3x?xi32>
  func.return %s, %a : tensor<3x?xf32>, tensor<3x?xi32>
}
"""
"""A sort along a ? dim, by one key and by two."""

BATCH_SORTS = """func.func @main(%x: tensor<?x5xf32>, %i: tensor<?x5xi32>) -> (tensor<?x5xi32>, tensor<?x5xf32>) {
  %a = bcast.sort %i by %x total_order, dim = 1 : (tensor<?x5xi32>, tensor<?x5xf32>, ) -> tensor<?x5xi32>
  %s = bcast.sort %x by %x, dim = 0 : (tensor<?x5xf32>, tensor<?x5xf32>) -> tensor<?x5xf32>
  func.return %a, %s : tensor<?x5xi32>, tensor<?x5xf32>
}
""".replace(", )", ")")
"""Sorts beside a ? dim and along it."""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sort_along_a_dynamic_dim_runs_at_every_size(backend: str) -> None:
    """One compile, lane lengths 0 and 1 and around the merge passes'
    powers of two (the pass count is found at run time on C), NaNs and ties:
    bit for bit the reference's ``numerics.sort``."""
    compiled = bcast.compile(DYNAMIC_SORTS, backend=backend)
    rng = np.random.default_rng(9)
    for n in (0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 31, 33, 100):
        x = rng.choice(POOLS["f32"], (3, n))
        i = rng.integers(0, 3, (3, n)).astype(np.int32)
        want = [numerics.sort(x, [x], 1, [(False, False)]),
                numerics.sort(i, [x, i], 1, [(True, False), (False, False)])]
        assert_bits_equal(compiled(x, i), want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sort_beside_a_dynamic_dim_runs_at_every_size(backend: str) -> None:
    compiled = bcast.compile(BATCH_SORTS, backend=backend)
    rng = np.random.default_rng(10)
    for b in (0, 1, 2, 7):
        x = rng.choice(POOLS["f32"], (b, 5))
        i = rng.integers(-5, 5, (b, 5)).astype(np.int32)
        assert_bits_equal(compiled(x, i), [numerics.sort(i, [x], 1, [(False, True)]),
                                           numerics.sort(x, [x], 0, [(False, False)])])


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_and_keys_of_two_run_time_shapes_are_a_located_error(backend: str) -> None:
    """Nothing proves two ? dims equal: the run time checks them, at the
    sort, in the verifier's words, before any sort runs (C: out of bounds)."""
    compiled = bcast.compile(DYNAMIC_SORTS, backend=backend, filename="prog.mlir")
    with pytest.raises(bcast.BcastError) as e:
        compiled(np.zeros((3, 4), np.float32), np.zeros((3, 5), np.int32))
    assert str(e.value).startswith("prog.mlir:3:8: error: values and key must have one shape, got (3, 5) and (3, 4)")


@pytest.mark.slow  # ASan/UBSan builds (the thorough run, CI)
def test_dynamic_sorts_are_clean_under_sanitizers(tmp_path) -> None:
    """Buffers of exactly their sizes, lanes of 0, 1, 2, 5 and 33 places;
    keys and values of different sizes refused by the size plan before any
    call."""
    from bcast.lowering import c_runtime
    from bcast.tests.lowering.test_c_dynamic import run_sanitized, sanitized_units

    cc = c_runtime.require_compiler()
    units, calls, refused, _ = sanitized_units([
        ("along", DYNAMIC_SORTS, [{0: n, 1: n} for n in (0, 1, 2, 5, 33)] + [{0: 2, 1: 3}]),
        ("beside", BATCH_SORTS, [{0: n, 1: n} for n in (0, 1, 3)]),
    ], tmp_path, "sort")
    assert [(name, sizes) for name, sizes, _ in refused] == [("along", {0: 2, 1: 3})]
    assert refused[0][2].startswith("values and key must have one shape")
    run_sanitized(units, calls, tmp_path, cc)


RADIX_POOLS = {**POOLS, "f32": np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1.0, -1.0, 3e38, -1e-40],
                                        np.float32), "ui32": np.array([0, 2**32 - 1, 3, 2**31], np.uint32)}


@pytest.mark.quick_share(2)
@pytest.mark.parametrize("element", sorted(RADIX_POOLS))
def test_c_radix_sort_is_the_reference_order(element: str) -> None:
    """Static lanes of at least ``RADIX_SORT_MIN`` places sort by radix on
    C (a key's bytes from the lowest, the last key first): by one key in
    each order and by two (an i32 key descending first), bit for bit
    ``numerics.sort``; signed, unsigned, boolean, float (subnormals, NaNs
    of both signs, zeros of both signs) keys."""
    from bcast.passes.lower_to_loops import RADIX_SORT_MIN

    rng = np.random.default_rng(4)
    for n in (RADIX_SORT_MIN, RADIX_SORT_MIN + 1, 1000):
        t, i = f"tensor<2x{n}x{element}>", f"tensor<2x{n}xi32>"
        keys, ties = rng.choice(RADIX_POOLS[element], (2, n)), rng.integers(0, 3, (2, n)).astype(np.int32)
        values = np.arange(2 * n, dtype=np.int32).reshape(2, n)
        for order in orders_of(element):
            flags = (" descending" if order[0] else "") + (" total_order" if order[1] else "")
            text = (f"func.func @main(%k: {t}, %t: {i}, %v: {i}) -> ({i}, {i}) {{\n"
                    f"  %a = bcast.sort %v by %k{flags}, dim = 1 : ({i}, {t}) -> {i}\n"
                    f"  %b = bcast.sort %v by %t descending, %k{flags}, dim = 1 : ({i}, {i}, {t}) -> {i}\n"
                    f"  func.return %a, %b : {i}, {i}\n}}\n")
            want = [numerics.sort(values, [keys], 1, [order]),
                    numerics.sort(values, [ties, keys], 1, [(True, False), order])]
            assert_bits_equal(bcast.compile(text, backend="c")(keys, ties, values), want)
