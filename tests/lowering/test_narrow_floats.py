"""The f8/f6/f4 floats on every backend that computes them (docs/semantics.md,
"Narrow floats").

The oracle is ml_dtypes: every encoding of each type (all 256, 64 or 16),
widened to ``f32`` by ml_dtypes, the op computed there by NumPy, the result
rounded back by ml_dtypes' cast from ``f32`` (one rounding). Binary ops run
on every pair of encodings. Conversions from ``f64`` and integers, which
ml_dtypes rounds twice, are checked against xDSL's encoder (exact rounding of
a Python float, written independently of both). A Hypothesis property runs
random chains of ops on random arrays on every backend against the
reference, and JAX's ``jnp.float8_*`` programs run by bcast give XLA's
values.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.ir import rules
from bcast.ir.rules import RuleError
from bcast.ir.types import NUMPY_DTYPES, element_type, finfo, iinfo

ml_dtypes = pytest.importorskip("ml_dtypes")

TYPES = rules.NARROW_FLOATS
BACKENDS = ("reference", "numpy")
"""The backends that compute them; the loop IR (C) and array-api refuse them
(``test_c_and_array_api_refuse_them_at_the_signature``)."""


def dtype(t: str) -> np.dtype:
    return np.dtype(NUMPY_DTYPES[t])


def encodings(t: str) -> np.ndarray:
    """Every value of ``t``, by its bits (0 .. 2**bits - 1)."""
    return np.arange(1 << rules.bit_width(t), dtype=np.uint8).view(dtype(t))


def all_pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.meshgrid(encodings(t), encodings(t), indexing="ij")
    return a.reshape(-1), b.reshape(-1)


def in_f32(fn):
    """``fn`` on the operands widened to f32, rounded back once by ml_dtypes."""
    def apply(*xs):
        with np.errstate(all="ignore"):
            out = fn(*[x.astype(np.float32) for x in xs])
        return out.astype(xs[0].dtype) if out.dtype != np.bool_ else out

    return apply


BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "remainder": np.fmod, "power": np.power, "maximum": np.maximum, "minimum": np.minimum, "atan2": np.arctan2,
}  # fmt: skip
UNARY = {
    "negate": np.negative, "abs": np.abs, "sqrt": np.sqrt, "exponential": np.exp, "log": np.log, "tanh": np.tanh,
    "floor": np.floor, "ceil": np.ceil, "sine": np.sin, "round_nearest_even": np.rint,
    "sign": lambda x: np.where(x == 0, x, np.sign(x)), "logistic": lambda x: 1 / (1 + np.exp(-x)),
    "rsqrt": lambda x: 1 / np.sqrt(x),
}  # fmt: skip
DIRECTIONS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
              "GT": np.greater, "GE": np.greater_equal}  # fmt: skip


def same(got: np.ndarray, want: np.ndarray, zero_sign: bool = True) -> np.ndarray:
    """Elementwise: equal values with the zero's sign (unless not
    ``zero_sign``), or both NaN (payloads and a NaN's sign not compared)."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    equal = (g == w) & ((np.signbit(g) == np.signbit(w)) | ~np.bool_(zero_sign) | (g != 0))
    return equal | (np.isnan(g) & np.isnan(w))


def _program(t: str) -> tuple[str, list[str]]:
    n = (1 << rules.bit_width(t)) ** 2
    ty, lines, results, names = f"tensor<{n}x{t}>", [], [], []
    for k, op in enumerate(BINARY):
        lines.append(f"%b{k} = bcast.{op} %a, %b : ({ty}, {ty}) -> {ty}")
        results.append((f"%b{k}", ty))
        names.append(op)
    for k, op in enumerate(UNARY):
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


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t", TYPES)
def test_every_op_on_every_pair_is_ml_dtypes_in_f32(backend: str, t: str) -> None:
    """Each op on every pair of encodings: the exact result rounded once
    (``+ - * /``, ``sqrt``, ...), ``f32``'s functions rounded once (``exp``,
    ...), composed ops (``logistic``, ``rsqrt``, ``sign``) composed in f32
    and rounded once; comparisons of the values."""
    text, names = _program(t)
    a, b = all_pairs(t)
    got = bcast.compile(text, backend=backend)(a, b)
    for name, g in zip(names, got, strict=True):
        if name in DIRECTIONS:
            want = in_f32(DIRECTIONS[name])(a, b)
            assert g.dtype == np.bool_ and g.tolist() == want.tolist(), (name, t)
            continue
        want = in_f32(BINARY[name])(a, b) if name in BINARY else in_f32(UNARY[name])(a)
        assert g.dtype == want.dtype, (name, t)
        ok = same(g, want, zero_sign=name not in ("maximum", "minimum"))  # which zero max(-0, +0) is: unspecified
        assert ok.all(), (name, t, backend, a[~ok][:4], b[~ok][:4], g[~ok][:4], want[~ok][:4])


def test_the_edge_encodings_round_as_the_docs_say() -> None:
    """docs/semantics.md's list, checked on the reference: overflow, infinity,
    NaN and -0 in the types that lack them."""
    def r(t: str, values) -> list[int]:
        x = np.array(values, np.float32)
        text = (f"func.func @main(%x: tensor<{len(values)}xf32>) -> tensor<{len(values)}x{t}> {{\n"
                f"  %0 = bcast.convert %x : (tensor<{len(values)}xf32>) -> tensor<{len(values)}x{t}>\n"
                f"  func.return %0 : tensor<{len(values)}x{t}>\n}}\n")
        return bcast.compile(text, backend="reference")(x).view(np.uint8).tolist()

    assert r("f8E4M3FN", [464, 465, 1e30, -np.inf, -0.0]) == [0x7E, 0x7F, 0x7F, 0xFF, 0x80]
    assert r("f8E4M3FNUZ", [-0.0, -1e-30, np.inf, np.nan, 1e30]) == [0, 0, 0x80, 0x80, 0x80]
    assert r("f8E5M2", [1e30, -np.inf, 61439, 61440]) == [0x7C, 0xFC, 0x7B, 0x7C]
    assert r("f4E2M1FN", [1e30, -np.inf, 6.5, 5.0, -7.0]) == [0x7, 0xF, 0x7, 0x6, 0xF]
    assert r("f8E8M0FNU", [0.0, -1.0, 1.5, 3.0, 0.75, 2.0**-130, np.inf]) == [0xFF, 0xFF, 128, 129, 127, 0, 0xFF]


CONVERT_TARGETS = ("i1", "i8", "i32", "i64", "ui8", "ui64", "f16", "bf16", "f32", "f64", "i4", "i2", *TYPES)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t", TYPES)
def test_convert_every_encoding(backend: str, t: str) -> None:
    """Out of ``t``: to floats holding it, exact; to the other narrow types,
    ``f16`` and ``bf16`` through f32, rounded once; to integers truncated
    toward zero, saturated, NaN 0; to ``i1`` ``x != 0``."""
    x = encodings(t)
    n = x.size
    results = [f"tensor<{n}x{to}>" for to in CONVERT_TARGETS]
    lines = [f"  %r{k} = bcast.convert %x : (tensor<{n}x{t}>) -> {r}" for k, r in enumerate(results)]
    text = (f"func.func @main(%x: tensor<{n}x{t}>) -> ({', '.join(results)}) {{\n" + "\n".join(lines)
            + f"\n  func.return {', '.join(f'%r{k}' for k in range(len(results)))} : {', '.join(results)}\n}}\n")
    got = bcast.compile(text, backend=backend)(x)
    wide = x.astype(np.float64)
    for to, g in zip(CONVERT_TARGETS, got, strict=True):
        if to == "i1":
            assert g.tolist() == (wide != 0).tolist()
        elif rules.kind(to) == "float":
            with np.errstate(all="ignore"):
                want = x.astype(np.float32).astype(dtype(to))
            assert same(g, want).all(), (t, to)
        else:
            info = iinfo(g.dtype)
            want = [0 if math.isnan(v) else int(info.min) if v == -math.inf else int(info.max) if v == math.inf
                    else min(max(int(v), int(info.min)), int(info.max)) for v in wide.tolist()]
            assert [int(v) for v in g.tolist()] == want, (t, to)


def _xdsl_round(t: str, v: float) -> int | None:
    """The bits xDSL's encoder gives ``v`` in ``t`` (an exact round to
    nearest even of a Python float), None where the types' rules differ
    (xDSL, as LLVM's APFloat, has no NaN for overflow of ``f8E8M0FNU`` zero)."""
    try:
        return element_type(t).encode_bits(v)
    except ValueError:
        return None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t", TYPES)
def test_f64_and_integers_round_once(backend: str, t: str) -> None:
    """From f64 (values beside every tie of ``t``, 2**-40 away: ml_dtypes'
    own cast, through float, rounds those twice) and from i32: one rounding,
    as xDSL's encoder of the exact value gives it, for every value ``t``
    holds without overflow (overflow is ``test_the_edge_encodings...``)."""
    values = encodings(t).astype(np.float64)
    finite = np.unique(values[np.isfinite(values)])
    ties = (finite[:-1] + finite[1:]) / 2
    sample = np.concatenate([ties, ties + 2.0**-40 * np.abs(ties) + 1e-300, ties - 2.0**-40 * np.abs(ties),
                             finite, -ties])
    limit = float(finfo(dtype(t)).max)
    sample = sample[np.abs(sample) <= limit]
    if t == "f8E8M0FNU":  # (ml_dtypes rounds every f32 in (2^-127, 2^-126) up: docs/semantics.md)
        sample = sample[sample >= 2.0**-126]
    ints = np.arange(-300, 300, dtype=np.int32)
    ints = ints[np.abs(ints) <= limit] if t != "f8E8M0FNU" else ints[(ints > 0) & (ints <= limit)]
    text = (f"func.func @main(%x: tensor<{sample.size}xf64>, %i: tensor<{ints.size}xi32>) -> "
            f"(tensor<{sample.size}x{t}>, tensor<{ints.size}x{t}>) {{\n"
            f"  %0 = bcast.convert %x : (tensor<{sample.size}xf64>) -> tensor<{sample.size}x{t}>\n"
            f"  %1 = bcast.convert %i : (tensor<{ints.size}xi32>) -> tensor<{ints.size}x{t}>\n"
            f"  func.return %0, %1 : tensor<{sample.size}x{t}>, tensor<{ints.size}x{t}>\n}}\n")
    from_f64, from_int = bcast.compile(text, backend=backend)(sample, ints)
    for source, got in ((sample, from_f64), (ints.astype(np.float64), from_int)):
        want = [_xdsl_round(t, float(v)) for v in source]
        bits = got.view(np.uint8).tolist()
        wrong = [(float(v), b, w) for v, b, w in zip(source, bits, want, strict=True) if w is not None and b != w]
        assert not wrong, (t, wrong[:5])


@pytest.mark.parametrize("backend", BACKENDS)
def test_reductions_accumulate_in_f32_and_start_from_the_types_ends(backend: str) -> None:
    """A row sum is the f32 sum rounded once (not rounded per step: 256 plus
    seven ones is 263 -> 256 in f8E4M3FN either way, but 16 ones in
    f4E2M1FN are 6 (saturated), not 4 as steps of 4 + 1 = 4 would give);
    max of nothing is the lowest finite value in a type without infinity."""
    text = """func.func @main(%x: tensor<2x16xf4E2M1FN>, %e: tensor<0xf8E4M3FN>, %f: tensor<0xf8E5M2>)
        -> (tensor<2xf4E2M1FN>, tensor<f8E4M3FN>, tensor<f8E5M2>, tensor<f8E4M3FN>) {
      %0 = bcast.reduce add %x, dims = [1] : (tensor<2x16xf4E2M1FN>) -> tensor<2xf4E2M1FN>
      %1 = bcast.reduce maximum %e, dims = [0] : (tensor<0xf8E4M3FN>) -> tensor<f8E4M3FN>
      %2 = bcast.reduce maximum %f, dims = [0] : (tensor<0xf8E5M2>) -> tensor<f8E5M2>
      %3 = bcast.reduce minimum %e, dims = [0] : (tensor<0xf8E4M3FN>) -> tensor<f8E4M3FN>
      func.return %0, %1, %2, %3 : tensor<2xf4E2M1FN>, tensor<f8E4M3FN>, tensor<f8E5M2>, tensor<f8E4M3FN>
    }"""
    x = np.array([[0.5] * 16, [1.0] * 8 + [-0.5] * 8], np.float32).astype(dtype("f4E2M1FN"))
    got = bcast.compile(text, backend=backend)(x, np.zeros(0, dtype("f8E4M3FN")), np.zeros(0, dtype("f8E5M2")))
    assert [float(v) for v in got[0]] == [6.0, 4.0]
    assert float(got[1]) == -448.0 and float(got[2]) == -math.inf and float(got[3]) == 448.0


def test_no_implicit_promotion_with_another_float() -> None:
    """JAX's lattice has no path between a narrow float and any other float:
    bcast refuses the mix too, located, suggesting a convert."""
    for other in ("f32", "bf16", "f16", "f8E5M2", "f4E2M1FN"):
        with pytest.raises(RuleError, match="do not promote"):
            rules.promote_types("f8E4M3FN", other)
    assert rules.promote_types("f8E4M3FN", "f8E4M3FN") == "f8E4M3FN"
    text = ("func.func @main(%a: tensor<3xf8E4M3FN>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
            "  %0 = bcast.add %a, %b : (tensor<3xf8E4M3FN>, tensor<3xf32>) -> tensor<3xf32>\n"
            "  func.return %0 : tensor<3xf32>\n}\n")
    with pytest.raises(bcast.BcastError, match=r"<source>:2:8: error: .*f8E4M3FN and f32 do not promote"):
        bcast.compile(text, backend="reference")


@pytest.mark.parametrize("backend", ["c", "array-api"])
def test_c_and_array_api_refuse_them_at_the_signature(backend: str) -> None:
    text = "func.func @main(%a: tensor<3xf8E5M2>) -> tensor<3xf8E5M2> {\n  func.return %a : tensor<3xf8E5M2>\n}\n"
    with pytest.raises(bcast.BcastError, match=r"^<source>:1:1: error: 'func.func' op argument 0 of type "
                                               r"tensor<3xf8E5M2> is not supported by"):
        bcast.compile(text, backend=backend)
    inside = ("func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
              "  %0 = bcast.convert %a : (tensor<3xf32>) -> tensor<3xf4E2M1FN>\n"
              "  %1 = bcast.convert %0 : (tensor<3xf4E2M1FN>) -> tensor<3xf32>\n"
              "  func.return %1 : tensor<3xf32>\n}\n")
    with pytest.raises(bcast.BcastError, match=r"<source>:2:8: error: 'bcast.convert' op result of type "
                                               r"tensor<3xf4E2M1FN> is not supported by"):
        bcast.compile(inside, backend=backend)
    assert bcast.compile(inside, backend="numpy")(np.array([2.7, -9.0, 0.2], np.float32)).tolist() == [3.0, -6.0, 0.0]


# --------------------------------------------------------------------------
# The property: random chains of ops, every backend against the reference
# --------------------------------------------------------------------------

CHAIN_BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "power")
CHAIN_UNARY = ("negate", "abs", "sqrt", "exponential", "tanh", "logistic", "floor")


@st.composite
def chains(draw):
    t = draw(st.sampled_from(TYPES))
    shape = draw(st.sampled_from([(5,), (2, 3), (3, 1), (0, 2)]))
    steps = draw(st.lists(st.one_of(st.tuples(st.just("binary"), st.sampled_from(CHAIN_BINARY),
                                              st.integers(0, 2), st.integers(0, 2)),
                                    st.tuples(st.just("unary"), st.sampled_from(CHAIN_UNARY),
                                              st.integers(0, 2), st.just(0))),
                          min_size=1, max_size=6))
    return t, shape, steps, draw(st.integers(0, 2**16))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_random_chains_agree_on_every_backend(chain) -> None:
    """The reference equals the ml_dtypes oracle step by step, and the numpy
    backend the reference's bytes."""
    t, shape, steps, seed = chain
    ty = f"tensor<{'x'.join(map(str, shape))}x{t}>"
    rng = np.random.default_rng(seed)
    args = [rng.integers(0, 1 << rules.bit_width(t), shape).astype(np.uint8).view(dtype(t)) for _ in range(3)]
    names, lines, known = ["%x", "%y", "%z"], [], list(args)
    for k, (arity, op, i, j) in enumerate(steps):
        i, j = i % len(names), j % len(names)
        if arity == "binary":
            lines.append(f"%s{k} = bcast.{op} {names[i]}, {names[j]} : ({ty}, {ty}) -> {ty}")
            known.append(in_f32(BINARY[op])(known[i], known[j]))
        else:
            lines.append(f"%s{k} = bcast.{op} {names[i]} : {ty}")
            known.append(in_f32(UNARY[op])(known[i]))
        names.append(f"%s{k}")
    text = (f"func.func @main(%x: {ty}, %y: {ty}, %z: {ty}) -> {ty} {{\n  " + "\n  ".join(lines)
            + f"\n  func.return {names[-1]} : {ty}\n}}\n")
    want = bcast.compile(text, backend="reference")(*args)
    assert same(want, known[-1], zero_sign=False).all()
    got = bcast.compile(text, backend="numpy")(*args)
    assert got.dtype == want.dtype and same(got, want).all()


# --------------------------------------------------------------------------
# JAX: jnp.float8_* programs, exported, run by bcast to XLA's values
# --------------------------------------------------------------------------

JAX_TYPES = ("f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E3M4", "f4E2M1FN")


def _jax():
    return pytest.importorskip("jax")


def _programs():
    jnp = _jax().numpy
    return {
        "arithmetic": lambda a, b: (a + b) * a - b / (jnp.abs(b) + a),
        "max_where": lambda a, b: jnp.where(a < b, jnp.maximum(a, -b), b),
        "to_f32_and_back": lambda a, b: (a.astype(jnp.float32) * 3 + b.astype(jnp.float32)).astype(a.dtype),
        "sum_rows": lambda a, b: jnp.sum(a.astype(jnp.float32) * b.astype(jnp.float32), axis=1).astype(a.dtype),
        "broadcast": lambda a, b: a[:, :1] * b + a[:1, :],
    }


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("t", JAX_TYPES)
@pytest.mark.parametrize("name", ["arithmetic", "max_where", "to_f32_and_back", "sum_rows", "broadcast"])
def test_jnp_float8_programs_equal_xla(name: str, t: str, backend: str) -> None:
    """XLA computes these types in f32 and rounds each op once, as bcast:
    the values are equal (NaN payloads aside) on these random inputs."""
    jax = _jax()
    fn = _programs()[name]
    rng = np.random.default_rng(len(name))
    a, b = (rng.integers(0, 1 << rules.bit_width(t), (3, 5)).astype(np.uint8).view(dtype(t)) for _ in range(2))
    want = np.asarray(jax.jit(fn)(a, b))
    got = bcast.compile(bcast.from_jax(fn, a, b), backend=backend)(a, b)
    got = got[0] if isinstance(got, tuple) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    assert same(got, want).all(), (got, want)


@pytest.mark.parametrize("name", ["arithmetic", "to_f32_and_back", "broadcast"])
def test_jnp_float8_export_goes_back_to_xla(capsys, tmp_path, name: str) -> None:
    """JAX's export of an f8E4M3FN program, through bcast's standard pipeline
    and ``-t stablehlo``: jaxlib verifies it and XLA runs it to the values of
    the original export."""
    _jax()
    from bcast.tools import opt
    from bcast.tools.jax_bridge import lower_to_stablehlo, run_stablehlo, verify_stablehlo
    from bcast.tools.targets import STANDARD_PIPELINE

    fn = _programs()[name]
    rng = np.random.default_rng(len(name) + 1)
    args = [rng.integers(0, 256, (3, 5)).astype(np.uint8).view(dtype("f8E4M3FN")) for _ in range(2)]
    path = tmp_path / f"{name}.mlir"
    path.write_text(lower_to_stablehlo(fn, *args))
    code = opt.main([str(path), "-p", STANDARD_PIPELINE, "-t", "stablehlo"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert "f8E4M3FN>" in out and "bcast." not in out
    verify_stablehlo(out)
    for got, want in zip(run_stablehlo(out, args), run_stablehlo(path.read_text(), args), strict=True):
        assert got.dtype == want.dtype and same(got, want).all()
