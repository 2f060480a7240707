"""Property tests (Hypothesis) for programs mixing ``bcast.reduce`` with
broadcasting ops (issue 9), in all three semantics, tml nested types included
(a nested reduction reduces the outer level only).

Random programs come from ``programs(..., reductions=True)`` (tests/programs.py):
random kinds valid for the element type, random dims subsets in random order,
random keepdims, and the reduced value used again by broadcasting ops
(``x - max(x)`` with keepdims, ``broadcast_dimensions`` under xla, per-level
broadcasting of nested values under tml). Their expected results come from the
independent oracle ``oracle_reduce``.

Float tolerance: a float sum or product whose bits do not depend on the
folding order (checked by the generator) must agree bit for bit on every
backend and after every pass; one that does depend on it is only returned as
a result and compared within ``reduction_error_bound`` (one place, in
tests/programs.py), which grows linearly with the reduced size, as docs/semantics.md
section 4 allows backends to reassociate float sums. Integers and booleans
are always exact.

(1) the reference evaluator against the oracle; (2) each pass and the
standard pipeline preserve results; (3) the NumPy backend against the oracle
and the reference; then softmax, layernorm and logsumexp written in each
semantics, on both backends, against NumPy formulas.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bcast
from bcast.tests.budget import examples
from bcast.tests.programs import MODES, assert_results, programs, reduction_tolerance
from bcast.tools.api import STANDARD_PIPELINE

SETTINGS = settings(max_examples=examples(80), deadline=None, suppress_health_check=list(HealthCheck))

# default element types, and a float-heavy set (f16 accumulates in f32) with
# a few integer types, where reassociable float sums and products show up
DTYPE_SETS = {"default": None, "floats": ("f32", "f16", "f64", "i8", "ui16")}

PASSES = (
    "bcast-make-explicit",
    "bcast-make-explicit{degenerate=reshape}",
    "canonicalize",
    "cse",
    "bcast-sink-broadcasts",
    "bcast-fuse",
    "bcast-make-explicit,bcast-fuse",  # fuse on explicit IR, where it actually fuses
    STANDARD_PIPELINE,
)


def reduction_programs(mode: str, dtypes: str, max_ops: int = 6):
    return programs(mode=mode, max_ops=max_ops, reductions=True, dtypes=DTYPE_SETS[dtypes])


def run(program, backend: str = "reference", pipeline: str | None = None):
    f = bcast.compile(program.text, backend=backend, pipeline=pipeline)
    return f(*[a.copy() for a in program.inputs])


# --------------------------------------------------------------------------
# (1) the reference evaluator against the oracle
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtypes", sorted(DTYPE_SETS))
@pytest.mark.parametrize("mode", MODES)
def test_reference_matches_the_oracle(mode: str, dtypes: str) -> None:
    @settings(SETTINGS, max_examples=examples(200))
    @given(reduction_programs(mode, dtypes))
    def check(program) -> None:
        assert_results(program, run(program))

    check()


# --------------------------------------------------------------------------
# (2) every pass preserves the results
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtypes", sorted(DTYPE_SETS))
@pytest.mark.parametrize("mode", MODES)
def test_each_pass_preserves_results(mode: str, dtypes: str) -> None:
    """After each pass alone and after the standard pipeline, the reference
    evaluator still gives the oracle's results (the generated IR being valid
    is the pass's input contract; its output must verify)."""

    @SETTINGS
    @given(reduction_programs(mode, dtypes))
    def check(program) -> None:
        for pipeline in PASSES:
            try:
                assert_results(program, run(program, pipeline=pipeline))
            except AssertionError as e:
                raise AssertionError(f"after {pipeline}: {e}") from None

    check()


# --------------------------------------------------------------------------
# (3) the NumPy backend against the oracle and the reference
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtypes", sorted(DTYPE_SETS))
@pytest.mark.parametrize("mode", MODES)
def test_numpy_backend_matches_the_reference(mode: str, dtypes: str) -> None:
    @SETTINGS
    @given(reduction_programs(mode, dtypes))
    def check(program) -> None:
        generated = run(program, backend="numpy")
        assert_results(program, generated)
        reference = run(program)
        # exact reductions and everything integer agree bit for bit
        for i, (g, r) in enumerate(zip(_tuple(generated), _tuple(reference), strict=True)):
            bound = program.bounds[i] if i < len(program.bounds) else None
            if bound is None:
                np.testing.assert_array_equal(np.asarray(g), np.asarray(r), err_msg=f"result {i}")

    check()


def _tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def test_generator_covers_reductions() -> None:
    """A fixed sample uses every kind, keepdims, several dims in one
    reduction, nested operands, reduced values used again, zero-size
    reduced dims, and reassociable float sums compared within the bound."""
    kinds: set[str] = set()
    seen = {"keepdims": 0, "multi": 0, "nested": 0, "reused": 0, "zero": 0, "bounds": 0,
            "dims": 0}

    @settings(max_examples=200, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(MODES).flatmap(lambda m: reduction_programs(m, "floats"))
           | st.sampled_from(MODES).flatmap(lambda m: reduction_programs(m, "default")))
    def collect(p) -> None:
        lines = [line for line in p.text.splitlines() if "bcast.reduce" in line]
        for line in lines:
            kinds.add(line.split("bcast.reduce ")[1].split()[0])
            seen["keepdims"] += " keepdims :" in line
            seen["multi"] += "," in line.split("dims = [")[1].split("]")[0]
            seen["nested"] += "tensor<tensor<" in line or "xtensor<" in line
            name = line.split(" = ")[0].strip()
            seen["reused"] += any(f"{name}," in rest or rest.endswith(name) or f"{name} " in rest
                                  for rest in p.text.split(line, 1)[1].splitlines()
                                  if "func.return" not in rest)
        seen["zero"] += any(0 in a.shape for a in p.inputs) and bool(lines)
        seen["bounds"] += bool(p.bounds)
        seen["dims"] += "broadcast_dimensions" in p.text and bool(lines)

    collect()
    assert kinds == {"add", "multiply", "maximum", "minimum", "and", "or", "xor"}
    assert all(seen.values()), seen


# --------------------------------------------------------------------------
# softmax, layernorm, logsumexp in each semantics, on both backends
# --------------------------------------------------------------------------

R, C = 4, 6
F = f"tensor<{R}x{C}xf32>"
COL = f"tensor<{R}x1xf32>"
ROW = f"tensor<{R}xf32>"
VEC = f"tensor<{C}xf32>"
S = "tensor<f32>"
# tml nested: 6 outer elements of 4-element tensors, reduced over the outer level
N = f"tensor<{C}xtensor<{R}xf32>>"
NS = f"tensor<tensor<{R}xf32>>"


def module(semantics: str, args: str, result: str, body: str) -> str:
    return (f'module attributes {{bcast.semantics = "{semantics}"}} {{\n'
            f"func.func @main({args}) -> {result} {{\n{body}\n}}\n}}\n")


def _keepdims_forms(semantics: str) -> dict[str, str]:
    """numpy (and flat tml): keepdims results broadcast back implicitly."""
    return {
        "softmax": module(semantics, f"%x: {F}", F, f"""
  %m = bcast.reduce maximum %x, dims = [1] keepdims : ({F}) -> {COL}
  %d = bcast.subtract %x, %m : ({F}, {COL}) -> {F}
  %e = bcast.exponential %d : {F}
  %s = bcast.reduce add %e, dims = [1] keepdims : ({F}) -> {COL}
  %r = bcast.divide %e, %s : ({F}, {COL}) -> {F}
  func.return %r : {F}"""),
        "layernorm": module(semantics, f"%x: {F}, %g: {VEC}, %b: {VEC}", F, f"""
  %n = bcast.constant dense<{float(C)}> : {S}
  %eps = bcast.constant dense<1.0e-05> : {S}
  %s = bcast.reduce add %x, dims = [1] keepdims : ({F}) -> {COL}
  %mean = bcast.divide %s, %n : ({COL}, {S}) -> {COL}
  %c = bcast.subtract %x, %mean : ({F}, {COL}) -> {F}
  %sq = bcast.multiply %c, %c : ({F}, {F}) -> {F}
  %ss = bcast.reduce add %sq, dims = [1] keepdims : ({F}) -> {COL}
  %var = bcast.divide %ss, %n : ({COL}, {S}) -> {COL}
  %ve = bcast.add %var, %eps : ({COL}, {S}) -> {COL}
  %inv = bcast.rsqrt %ve : {COL}
  %y = bcast.multiply %c, %inv : ({F}, {COL}) -> {F}
  %yg = bcast.multiply %y, %g : ({F}, {VEC}) -> {F}
  %r = bcast.add %yg, %b : ({F}, {VEC}) -> {F}
  func.return %r : {F}"""),
        "logsumexp": module(semantics, f"%x: {F}", ROW, f"""
  %m = bcast.reduce maximum %x, dims = [1] keepdims : ({F}) -> {COL}
  %d = bcast.subtract %x, %m : ({F}, {COL}) -> {F}
  %e = bcast.exponential %d : {F}
  %s = bcast.reduce add %e, dims = [1] keepdims : ({F}) -> {COL}
  %l = bcast.log %s : {COL}
  %t = bcast.add %l, %m : ({COL}, {COL}) -> {COL}
  %r = bcast.reduce add %t, dims = [1] : ({COL}) -> {ROW}
  func.return %r : {ROW}"""),
    }


def _xla_forms() -> dict[str, str]:
    """xla: reductions drop the dim; broadcast_dimensions map it back."""
    bd0 = "broadcast_dimensions = [0]"
    return {
        "softmax": module("xla", f"%x: {F}", F, f"""
  %m = bcast.reduce maximum %x, dims = [1] : ({F}) -> {ROW}
  %d = bcast.subtract %x, %m {bd0} : ({F}, {ROW}) -> {F}
  %e = bcast.exponential %d : {F}
  %s = bcast.reduce add %e, dims = [1] : ({F}) -> {ROW}
  %r = bcast.divide %e, %s {bd0} : ({F}, {ROW}) -> {F}
  func.return %r : {F}"""),
        "layernorm": module("xla", f"%x: {F}, %g: {VEC}, %b: {VEC}", F, f"""
  %n = bcast.constant dense<{float(C)}> : {S}
  %eps = bcast.constant dense<1.0e-05> : {S}
  %s = bcast.reduce add %x, dims = [1] : ({F}) -> {ROW}
  %mean = bcast.divide %s, %n : ({ROW}, {S}) -> {ROW}
  %c = bcast.subtract %x, %mean {bd0} : ({F}, {ROW}) -> {F}
  %sq = bcast.multiply %c, %c : ({F}, {F}) -> {F}
  %ss = bcast.reduce add %sq, dims = [1] : ({F}) -> {ROW}
  %var = bcast.divide %ss, %n : ({ROW}, {S}) -> {ROW}
  %ve = bcast.add %var, %eps : ({ROW}, {S}) -> {ROW}
  %inv = bcast.rsqrt %ve : {ROW}
  %y = bcast.multiply %c, %inv {bd0} : ({F}, {ROW}) -> {F}
  %yg = bcast.multiply %g, %y broadcast_dimensions = [1] : ({VEC}, {F}) -> {F}
  %r = bcast.add %yg, %b broadcast_dimensions = [1] : ({F}, {VEC}) -> {F}
  func.return %r : {F}"""),
        "logsumexp": module("xla", f"%x: {F}", ROW, f"""
  %m = bcast.reduce maximum %x, dims = [1] : ({F}) -> {ROW}
  %d = bcast.subtract %x, %m {bd0} : ({F}, {ROW}) -> {F}
  %e = bcast.exponential %d : {F}
  %s = bcast.reduce add %e, dims = [1] : ({F}) -> {ROW}
  %l = bcast.log %s : {ROW}
  %r = bcast.add %l, %m : ({ROW}, {ROW}) -> {ROW}
  func.return %r : {ROW}"""),
    }


def _nested_forms() -> dict[str, str]:
    """tml nested: ``x`` holds 6 tensors of 4; reducing the outer level
    combines them elementwise (axis 0 of the flat storage) and the result
    broadcasts back per level (outer 6 vs scalar, inner 4 vs 4)."""
    return {
        "softmax": module("tml", f"%x: {N}", N, f"""
  %m = bcast.reduce maximum %x, dims = [0] : ({N}) -> {NS}
  %d = bcast.subtract %x, %m : ({N}, {NS}) -> {N}
  %e = bcast.exponential %d : {N}
  %s = bcast.reduce add %e, dims = [0] : ({N}) -> {NS}
  %r = bcast.divide %e, %s : ({N}, {NS}) -> {N}
  func.return %r : {N}"""),
        "layernorm": module("tml", f"%x: {N}, %g: tensor<{C}xf32>, %b: tensor<{C}xf32>", N, f"""
  %n = bcast.constant dense<{float(C)}> : {S}
  %eps = bcast.constant dense<1.0e-05> : {S}
  %s = bcast.reduce add %x, dims = [0] : ({N}) -> {NS}
  %mean = bcast.divide %s, %n : ({NS}, {S}) -> {NS}
  %c = bcast.subtract %x, %mean : ({N}, {NS}) -> {N}
  %sq = bcast.multiply %c, %c : ({N}, {N}) -> {N}
  %ss = bcast.reduce add %sq, dims = [0] : ({N}) -> {NS}
  %var = bcast.divide %ss, %n : ({NS}, {S}) -> {NS}
  %ve = bcast.add %var, %eps : ({NS}, {S}) -> {NS}
  %inv = bcast.rsqrt %ve : {NS}
  %y = bcast.multiply %c, %inv : ({N}, {NS}) -> {N}
  %yg = bcast.multiply %y, %g : ({N}, tensor<{C}xf32>) -> {N}
  %r = bcast.add %yg, %b : ({N}, tensor<{C}xf32>) -> {N}
  func.return %r : {N}"""),
        "logsumexp": module("tml", f"%x: {N}", NS, f"""
  %m = bcast.reduce maximum %x, dims = [0] : ({N}) -> {NS}
  %d = bcast.subtract %x, %m : ({N}, {NS}) -> {N}
  %e = bcast.exponential %d : {N}
  %s = bcast.reduce add %e, dims = [0] : ({N}) -> {NS}
  %l = bcast.log %s : {NS}
  %r = bcast.add %l, %m : ({NS}, {NS}) -> {NS}
  func.return %r : {NS}"""),
    }


FORMS = {
    "numpy": _keepdims_forms("numpy"),
    "xla": _xla_forms(),
    "tml": _keepdims_forms("tml"),
    "tml-nested": _nested_forms(),
}


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _layernorm(x, g, b, axis):
    mean = x.mean(axis=axis, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axis, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


def _logsumexp(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return np.squeeze(np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m, axis)


@pytest.mark.parametrize("backend", ["reference", "numpy"])
@pytest.mark.parametrize("formula", ["softmax", "layernorm", "logsumexp"])
@pytest.mark.parametrize("form", sorted(FORMS))
def test_normalizations_match_numpy(form: str, formula: str, backend: str) -> None:
    nested = form == "tml-nested"
    axis = 0 if nested else 1  # the flat storage of the nested value is 6 x 4
    shape = (C, R) if nested else (R, C)
    rng = np.random.default_rng(91)
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    x[1, 2] = 30.0  # a large entry: exp(x) alone would lose the others
    g = rng.standard_normal(C).astype(np.float32)
    b = rng.standard_normal(C).astype(np.float32)
    f = bcast.compile(FORMS[form][formula], backend=backend)
    x64 = x.astype(np.float64)
    if formula == "layernorm":
        # nested: g and b broadcast per level against the outer level (6)
        gg, bb = (g[:, None], b[:, None]) if nested else (g, b)
        got, want = f(x, g, b), _layernorm(x64, gg.astype(np.float64), bb.astype(np.float64), axis)
    elif formula == "softmax":
        got, want = f(x), _softmax(x64, axis)
    else:
        got, want = f(x), _logsumexp(x64, axis)
    got = np.asarray(got)
    assert got.dtype == np.float32 and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    rtol, atol = reduction_tolerance(np.dtype(np.float32), C)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def test_normalization_forms_agree_across_semantics() -> None:
    """The same formula written for numpy, xla and tml gives the same bits on
    the reference backend (same ops in the same order, only the broadcasting
    spelled differently)."""
    x = (np.random.default_rng(5).standard_normal((R, C)) * 3).astype(np.float32)
    for formula in ("softmax", "logsumexp"):
        outs = [np.asarray(bcast.compile(FORMS[form][formula], backend="reference")(x))
                for form in ("numpy", "xla", "tml")]
        for other in outs[1:]:
            np.testing.assert_array_equal(other, outs[0])


# --------------------------------------------------------------------------
# reductions of broadcasts (the simplification of docs/passes.md: add multiplies by
# the count): zero-size and size-1 counts, inf and NaN in the source
# --------------------------------------------------------------------------


@pytest.mark.parametrize("backend_pipeline", [("reference", None), ("reference", STANDARD_PIPELINE),
                                              ("reference", "canonicalize"), ("numpy", None)])
@pytest.mark.parametrize("count", [0, 1, 3])
@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "minimum"])
def test_reduce_of_broadcast_matches_the_oracle(op: str, count: int, backend_pipeline) -> None:
    from bcast.tests.programs import oracle_reduce

    backend, pipeline = backend_pipeline
    src = module("numpy", "%x: tensor<4xf32>", "tensor<4xf32>", f"""
  %b = bcast.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<{count}x4xf32>
  %r = bcast.reduce {op} %b, dims = [0] : (tensor<{count}x4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>""")
    x = np.array([np.inf, np.nan, 1.25, -2.5], np.float32)
    want = oracle_reduce(op, np.broadcast_to(x, (count, 4)), [0])
    got = np.asarray(bcast.compile(src, backend=backend, pipeline=pipeline)(x))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
