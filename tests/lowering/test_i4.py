"""i4 and ui4 on every backend (docs/semantics.md, "i4 and ui4").

Each op runs on every pair of 4-bit values (all 16 x 16) and is compared
with an oracle written here in NumPy on ``int64``: the op on the values,
then the result wrapped to four bits (``((v mod 16) xor 8) - 8`` for i4,
``v mod 16`` for ui4). bcast itself computes in a byte (NumPy) or in C's
``uint32_t``/``int`` (the C backend), ml_dtypes only stores; the oracle
shares neither. A Hypothesis property runs random chains of ops on random
arrays on every backend against the reference, and JAX's ``jnp.int4``
programs, exported and run by bcast, give XLA's values.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast

ml_dtypes = pytest.importorskip("ml_dtypes")

I4, UI4 = np.dtype(ml_dtypes.int4), np.dtype(ml_dtypes.uint4)
DTYPES = {"i4": I4, "ui4": UI4}
BACKENDS = ("reference", "numpy", "c")
"""The backends that compute i4/ui4; array-api refuses them (``test_array_api_refuses_i4``)."""


def wrap(v: np.ndarray, t: str) -> np.ndarray:
    """int64 values modulo 16, as ``t`` reads four bits, in ``t``'s dtype."""
    v = np.asarray(v, np.int64) % 16
    return (((v ^ 8) - 8) if t == "i4" else v).astype(DTYPES[t])


def values(t: str) -> np.ndarray:
    return wrap(np.arange(16), t)


def all_pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.meshgrid(values(t), values(t), indexing="ij")
    return a.reshape(-1), b.reshape(-1)


def _trunc_div(a, b):
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe)
    return np.where((a < 0) != (safe < 0), -q, q)


def _bits(a):
    return a % 16  # the four bits, as an unsigned value


POPCOUNT = np.array([bin(v).count("1") for v in range(16)])
LEADING_ZEROS = np.array([4 - v.bit_length() for v in range(16)])
"""By the four bits (an unsigned value 0..15)."""


def _power(x: int, y: int) -> int:
    """Integer power, wrapped; a negative exponent: 1 for 1, +-1 for -1, else 0."""
    if y < 0:
        return 1 if x == 1 else (-1 if y % 2 else 1) if x == -1 else 0
    return pow(int(x), int(y), 16)


BINARY = {
    "add": lambda a, b, t: a + b,
    "subtract": lambda a, b, t: a - b,
    "multiply": lambda a, b, t: a * b,
    "divide": lambda a, b, t: np.where(b == 0, -1, _trunc_div(a, b)),
    "remainder": lambda a, b, t: np.where(b == 0, a, a - b * _trunc_div(a, b)),
    "maximum": lambda a, b, t: np.maximum(a, b),
    "minimum": lambda a, b, t: np.minimum(a, b),
    "and": lambda a, b, t: a & b,
    "or": lambda a, b, t: a | b,
    "xor": lambda a, b, t: a ^ b,
    "shift_left": lambda a, b, t: np.where(_bits(b) >= 4, 0, _bits(a) << np.minimum(_bits(b), 4)),
    "shift_right_logical": lambda a, b, t: np.where(_bits(b) >= 4, 0, _bits(a) >> np.minimum(_bits(b), 4)),
    "shift_right_arithmetic": lambda a, b, t: ((_bits(a) ^ 8) - 8) >> np.minimum(_bits(b), 3),
    "power": lambda a, b, t: np.vectorize(_power, otypes=[np.int64])(a, b),
}  # fmt: skip
"""Each binary op on int64 values, before the wrap (docs/semantics.md)."""

UNARY = {
    "negate": lambda a: -a,
    "abs": lambda a: np.abs(a),
    "sign": lambda a: np.sign(a),
    "not": lambda a: ~a,
    "popcnt": lambda a: POPCOUNT[_bits(a)],
    "count_leading_zeros": lambda a: LEADING_ZEROS[_bits(a)],
}
DIRECTIONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
              "GT": np.greater, "GE": np.greater_equal}  # fmt: skip


def _program(t: str) -> tuple[str, list[str]]:
    """One function of every binary, unary and compare op on ``t``."""
    n = 256
    ty = f"tensor<{n}x{t}>"
    lines, results, names = [], [], []
    for k, op in enumerate(BINARY):
        lines.append(f"%b{k} = bcast.{op} %a, %b : ({ty}, {ty}) -> {ty}")
        results.append((f"%b{k}", ty))
        names.append(op)
    for k, op in enumerate(UNARY):
        if op == "sign" and t == "ui4":
            continue
        lines.append(f"%u{k} = bcast.{op} %a : {ty}")
        results.append((f"%u{k}", ty))
        names.append(op)
    for k, direction in enumerate(DIRECTIONS):
        lines.append(f"%c{k} = bcast.compare {direction}, %a, %b : ({ty}, {ty}) -> tensor<{n}xi1>")
        results.append((f"%c{k}", f"tensor<{n}xi1>"))
        names.append(direction)
    text = (f"func.func @main(%a: {ty}, %b: {ty}) -> ({', '.join(r for _, r in results)}) {{\n  "
            + "\n  ".join(lines)
            + f"\n  func.return {', '.join(v for v, _ in results)} : {', '.join(r for _, r in results)}\n}}\n")
    return text, names


def _oracle(name: str, a: np.ndarray, b: np.ndarray, t: str) -> np.ndarray:
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    if name in DIRECTIONS:
        return DIRECTIONS[name](a64, b64)
    if name in BINARY:
        return wrap(BINARY[name](a64, b64, t), t)
    return wrap(UNARY[name](a64), t)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t", ["i4", "ui4"])
def test_every_op_on_every_pair_wraps_as_the_int64_oracle(backend: str, t: str) -> None:
    text, names = _program(t)
    a, b = all_pairs(t)
    got = bcast.compile(text, backend=backend)(a, b)
    for name, g in zip(names, got, strict=True):
        want = _oracle(name, a, b, t)
        assert g.dtype == want.dtype, name
        # the bytes too: a 4-bit value is stored as its nibble (ml_dtypes' and the C backend's layout)
        assert g.view(np.uint8).tolist() == want.view(np.uint8).tolist(), (name, t, backend)


CONVERT_TARGETS = ("i1", "i8", "i32", "ui8", "ui64", "f16", "f32", "bf16", "i4", "ui4")


@pytest.mark.parametrize("backend", BACKENDS)
def test_convert_from_and_into_4_bits(backend: str) -> None:
    """Into i4/ui4 an integer keeps its low four bits (as i8 keeps eight), a
    float truncates toward zero and saturates at the range (NaN is 0); out of
    them the value is exact."""
    wide = np.array([0, 7, 8, -8, -9, 15, 16, 100, -100, 127, -128], np.int64)
    floats = np.array([0.0, 2.7, -3.9, 7.5, 8.0, -8.9, -9.0, 15.9, 16.0, 1e9, -np.inf, np.nan], np.float32)
    lines = ["func.func @main(%w: tensor<11xi64>, %f: tensor<12xf32>, %s: tensor<16xi4>, %u: tensor<16xui4>)"
             " -> (tensor<11xi4>, tensor<11xui4>, tensor<12xi4>, tensor<12xui4>, "
             + ", ".join(f"tensor<16x{to}>" for to in CONVERT_TARGETS for _ in "su") + ") {"]
    results = []
    for source, n, names in (("%w", 11, "tensor<11xi64>"), ("%f", 12, "tensor<12xf32>")):
        for to in ("i4", "ui4"):
            r = f"%{source[1]}_{to}"
            lines.append(f"  {r} = bcast.convert {source} : ({names}) -> tensor<{n}x{to}>")
            results.append((r, f"tensor<{n}x{to}>"))
    for to in CONVERT_TARGETS:
        for source, from_t in (("%s", "i4"), ("%u", "ui4")):
            r = f"%{source[1]}_to_{to}"
            lines.append(f"  {r} = bcast.convert {source} : (tensor<16x{from_t}>) -> tensor<16x{to}>")
            results.append((r, f"tensor<16x{to}>"))
    lines.append(f"  func.return {', '.join(r for r, _ in results)} : {', '.join(t for _, t in results)}\n}}")
    got = bcast.compile("\n".join(lines), backend=backend)(wide, floats, values("i4"), values("ui4"))
    got = list(got)
    assert got[0].astype(np.int64).tolist() == wrap(wide, "i4").astype(np.int64).tolist()
    assert got[1].astype(np.int64).tolist() == wrap(wide, "ui4").astype(np.int64).tolist()
    assert got[2].astype(np.int64).tolist() == [0, 2, -3, 7, 7, -8, -8, 7, 7, 7, -8, 0]
    assert got[3].astype(np.int64).tolist() == [0, 2, 0, 7, 8, 0, 0, 15, 15, 15, 0, 0]
    k = 4
    for to in CONVERT_TARGETS:
        for from_t in ("i4", "ui4"):
            source = values(from_t).astype(np.int64)
            g = got[k]
            k += 1
            if to == "i1":
                assert g.tolist() == (source != 0).tolist()
            elif to in ("i4", "ui4"):
                assert g.astype(np.int64).tolist() == wrap(source, to).astype(np.int64).tolist(), (from_t, to)
            elif to.startswith(("i", "u")):  # into a wider integer: the value, wrapped into it (ui8 of -1: 255)
                assert g.tolist() == source.astype(g.dtype).tolist(), (from_t, to)
            else:
                assert g.astype(np.float64).tolist() == source.astype(np.float64).tolist(), (from_t, to)


@pytest.mark.parametrize("backend", BACKENDS)
def test_reductions_iota_and_broadcasting_wrap(backend: str) -> None:
    """Sums and products over a row wrap modulo 16 (not once at the end in
    a wider type that could saturate or overflow differently); max/min of
    nothing is the type's lowest/highest; iota past 7 wraps; a (4,1) by (3,)
    broadcast product is the outer product, wrapped."""
    text = """func.func @main(%x: tensor<4x16xi4>, %u: tensor<4x16xui4>, %e: tensor<0xi4>, %c: tensor<4x1xi4>,
                          %r: tensor<3xi4>)
        -> (tensor<4xi4>, tensor<4xi4>, tensor<4xi4>, tensor<4xui4>, tensor<4xui4>, tensor<i4>, tensor<i4>,
            tensor<20xi4>, tensor<4x3xi4>) {
      %0 = bcast.reduce add %x, dims = [1] : (tensor<4x16xi4>) -> tensor<4xi4>
      %1 = bcast.reduce multiply %x, dims = [1] : (tensor<4x16xi4>) -> tensor<4xi4>
      %2 = bcast.reduce maximum %x, dims = [1] : (tensor<4x16xi4>) -> tensor<4xi4>
      %3 = bcast.reduce add %u, dims = [1] : (tensor<4x16xui4>) -> tensor<4xui4>
      %4 = bcast.reduce minimum %u, dims = [1] : (tensor<4x16xui4>) -> tensor<4xui4>
      %5 = bcast.reduce maximum %e, dims = [0] : (tensor<0xi4>) -> tensor<i4>
      %6 = bcast.reduce minimum %e, dims = [0] : (tensor<0xi4>) -> tensor<i4>
      %7 = bcast.iota dim = 0 : tensor<20xi4>
      %8 = bcast.multiply %c, %r : (tensor<4x1xi4>, tensor<3xi4>) -> tensor<4x3xi4>
      func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xi4>, tensor<4xi4>, tensor<4xi4>, tensor<4xui4>,
        tensor<4xui4>, tensor<i4>, tensor<i4>, tensor<20xi4>, tensor<4x3xi4>
    }"""
    rng = np.random.default_rng(4)
    x = wrap(rng.integers(-8, 8, (4, 16)), "i4")
    u = wrap(rng.integers(0, 16, (4, 16)), "ui4")
    c, r = wrap([[7], [-8], [3], [-1]], "i4"), wrap([7, -8, 5], "i4")
    got = bcast.compile(text, backend=backend)(x, u, np.zeros(0, I4), c, r)
    x64, u64 = x.astype(np.int64), u.astype(np.int64)
    want = [wrap(x64.sum(1), "i4"), wrap(np.prod(x64, 1), "i4"), wrap(x64.max(1), "i4"),
            wrap(u64.sum(1), "ui4"), wrap(u64.min(1), "ui4"), wrap(-8, "i4"), wrap(7, "i4"),
            wrap(np.arange(20), "i4"), wrap(c.astype(np.int64) * r.astype(np.int64), "i4")]
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.dtype == w.dtype and g.shape == w.shape, k
        assert g.astype(np.int64).tolist() == w.astype(np.int64).tolist(), k


def test_array_api_refuses_i4_at_the_signature() -> None:
    """The Array API standard has no 4-bit integers (NumPy's ``int4`` is the
    4-byte int32): the target refuses them, located at the function for an
    argument, at the op for a value made inside."""
    text = "func.func @main(%a: tensor<3xi4>) -> tensor<3xi4> {\n  func.return %a : tensor<3xi4>\n}\n"
    with pytest.raises(bcast.BcastError, match=r"^<source>:1:1: error: 'func.func' op argument 0 of type "
                                               r"tensor<3xi4> is not supported by the array-api target"):
        bcast.compile(text, backend="array-api")
    inside = ("func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
              "  %0 = bcast.convert %a : (tensor<3xf32>) -> tensor<3xui4>\n"
              "  %1 = bcast.convert %0 : (tensor<3xui4>) -> tensor<3xf32>\n"
              "  func.return %1 : tensor<3xf32>\n}\n")
    with pytest.raises(bcast.BcastError, match=r"^<source>:2:8: error: 'bcast.convert' op result of type "
                                               r"tensor<3xui4> is not supported by the array-api target"):
        bcast.compile(inside, backend="array-api")
    assert bcast.compile(inside, backend="c")(np.array([3.5, -1.0, 20.0], np.float32)).tolist() == [3, 0, 15]


# --------------------------------------------------------------------------
# The property: random chains of ops, every backend against the reference
# --------------------------------------------------------------------------

CHAIN_BINARY = tuple(BINARY)
CHAIN_UNARY = ("negate", "abs", "not", "popcnt", "count_leading_zeros")


@st.composite
def chains(draw):
    t = draw(st.sampled_from(["i4", "ui4"]))
    shape = draw(st.sampled_from([(5,), (2, 3), (3, 1), (0, 2)]))
    steps = draw(st.lists(st.one_of(st.tuples(st.just("binary"), st.sampled_from(CHAIN_BINARY),
                                              st.integers(0, 2), st.integers(0, 2)),
                                    st.tuples(st.just("unary"), st.sampled_from(CHAIN_UNARY),
                                              st.integers(0, 2), st.just(0))),
                          min_size=1, max_size=6))
    seed = draw(st.integers(0, 2**16))
    return t, shape, steps, seed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_random_chains_agree_on_every_backend(chain) -> None:
    """Each step applies an op to earlier values (the arguments or earlier
    results); every backend gives the reference's bytes, and the reference
    the int64 oracle's."""
    t, shape, steps, seed = chain
    ty = f"tensor<{'x'.join(map(str, shape))}x{t}>"
    names, lines = ["%x", "%y", "%z"], []
    rng = np.random.default_rng(seed)
    args = [wrap(rng.integers(-8, 16, shape), t) for _ in range(3)]
    known = [a.astype(np.int64) for a in args]
    for k, (arity, op, i, j) in enumerate(steps):
        i, j = i % len(names), j % len(names)
        r = f"%s{k}"
        if arity == "binary":
            lines.append(f"{r} = bcast.{op} {names[i]}, {names[j]} : ({ty}, {ty}) -> {ty}")
            known.append(wrap(BINARY[op](known[i], known[j], t), t).astype(np.int64))
        else:
            lines.append(f"{r} = bcast.{op} {names[i]} : {ty}")
            known.append(wrap(UNARY[op](known[i]), t).astype(np.int64))
        names.append(r)
    text = (f"func.func @main(%x: {ty}, %y: {ty}, %z: {ty}) -> {ty} {{\n  " + "\n  ".join(lines)
            + f"\n  func.return {names[-1]} : {ty}\n}}\n")
    want = bcast.compile(text, backend="reference")(*args)
    assert want.astype(np.int64).tolist() == known[-1].tolist()
    for backend in ("numpy", "c"):
        got = bcast.compile(text, backend=backend)(*args)
        assert got.dtype == want.dtype and got.view(np.uint8).tolist() == want.view(np.uint8).tolist(), backend


# --------------------------------------------------------------------------
# JAX: jnp.int4 programs, exported, run by bcast to XLA's values
# --------------------------------------------------------------------------


def _jax():
    return pytest.importorskip("jax")


JAX_PROGRAMS = {
    "arithmetic": lambda a, b: (a + b) * a - b,
    "negate_sign_max": lambda a, b: jax_numpy().maximum(-a, jax_lax().sign(b) * b),  # (JAX refuses abs on int4)
    "bitwise_shifts": lambda a, b: (a & b) ^ (~a | b) ^ (a << 1) ^ (b >> 2),
    "shifts_by_values": lambda a, b: (jax_lax().shift_left(a, b) ^ jax_lax().shift_right_arithmetic(a, b)
                                      ^ jax_lax().shift_right_logical(b, a)),
    "compare_select": lambda a, b: jax_numpy().where(a < b, a, b - 1),
    "convert": lambda a, b: a.astype(jax_numpy().int32) * 3 + b.astype(jax_numpy().float32).astype(jax_numpy().int32),
    "divide_remainder": lambda a, b: jax_lax().div(a, b | 1) + jax_lax().rem(a, b | 1),
    "clz": lambda a, b: jax_lax().clz(a) + b,
    "sum_rows": lambda a, b: jax_numpy().sum(a * b, axis=1, dtype=jax_numpy().int4),
    "max_rows_broadcast": lambda a, b: jax_lax().reduce_max(a[:, :1] * b, (1,)),
    "iota_into_int4": lambda a, b: jax_lax().iota(jax_numpy().int4, 5) + (a.astype(jax_numpy().int32) * 5).astype(
        jax_numpy().int4) - b,
}


def jax_numpy():
    return _jax().numpy


def jax_lax():
    return _jax().lax


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", JAX_PROGRAMS)
def test_jnp_int4_programs_equal_xla(name: str, backend: str) -> None:
    jax = _jax()
    fn = JAX_PROGRAMS[name]
    rng = np.random.default_rng(len(name))
    a = wrap(rng.integers(-8, 8, (3, 5)), "i4")
    b = wrap(rng.integers(-8, 8, (3, 5)), "i4")
    want = np.asarray(jax.jit(fn)(a, b))
    got = bcast.compile(bcast.from_jax(fn, a, b), backend=backend)(a, b)
    got = got[0] if isinstance(got, tuple) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.astype(np.int64).tolist() == want.astype(np.int64).tolist()


@pytest.mark.parametrize("name", ["arithmetic", "shifts_by_values", "convert", "sum_rows", "iota_into_int4"])
def test_jnp_int4_export_goes_back_to_xla(capsys, tmp_path, name: str) -> None:
    """JAX's export of an int4 program, through bcast's standard pipeline and
    ``-t stablehlo``: jaxlib verifies it and XLA runs it to the values of
    the original export."""
    _jax()
    from bcast.tools import opt
    from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo
    from bcast.tools.targets import STANDARD_PIPELINE

    fn = JAX_PROGRAMS[name]
    rng = np.random.default_rng(len(name) + 1)
    args = [wrap(rng.integers(-8, 8, (3, 5)), "i4") for _ in range(2)]
    path = tmp_path / f"{name}.mlir"
    path.write_text(lower_to_stablehlo(fn, *args))
    code = opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert "i4>" in out and "bcast." not in out
    verify_stablehlo(out)
    for got, want in zip(run_stablehlo(out, args), run_stablehlo(path.read_text(), args), strict=True):
        assert got.dtype == want.dtype
        assert got.astype(np.int64).tolist() == want.astype(np.int64).tolist()


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_and_out_follow_the_argument_rule(backend: str) -> None:
    """Python ints that fit convert; 8 does not fit i4, and int8 or uint4
    arrays do not convert without loss: each a BcastError naming the
    argument. ``out=`` of int4 is written and returned."""
    text = "func.func @main(%a: tensor<3xi4>) -> tensor<3xi4> {\n  %0 = bcast.negate %a : tensor<3xi4>\n" \
           "  func.return %0 : tensor<3xi4>\n}\n"
    f = bcast.compile(text, backend=backend)
    assert f([1, -8, 7]).astype(np.int64).tolist() == [-1, -8, -7]
    for bad, said in (([8, 0, 0], "the Python value 8"), (np.array([1, 2, 3], np.int8), "an array of int8"),
                      (wrap([1, 2, 3], "ui4"), "an array of uint4")):
        with pytest.raises(bcast.BcastError, match=rf"arg0 \(%a\): {said}"):
            f(bad)
    out = np.empty(3, I4)
    assert f(wrap([1, 2, 3], "i4"), out=out) is out
    assert out.astype(np.int64).tolist() == [-1, -2, -3]
