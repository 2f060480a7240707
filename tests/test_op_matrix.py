"""Every elementwise op, on every element type it takes, on every backend,
on the edge values of the type (``edge_values.py``), bit for bit.

The cases are computed from the dialect (``bcast.ir.ops.OPS`` and the op
classes' ``ELEMENT_KINDS``, ``ComparisonDirection``, ``ReductionKind`` and
``REDUCTION_COMBINERS``), never listed by hand: a new op is a new row of the
matrix, and a backend that lacks it fails (every case of that backend and
element type: one missing op breaks the program they share). An op of
``OPS`` in none of the families of ``rows`` and not in ``NOT_SCALAR`` stops
the collection.

One program per element type holds every op of that type (one function,
one result per op and direction, conversion target and reduction kind), so
each backend compiles about a dozen modules, not hundreds. The reference
evaluator is the oracle of the other backends; it is itself checked
against the independent Python-int oracles of ``tests/programs.py`` (the
``reference`` column).

Results are compared bit for bit (NaN against NaN whatever the payload),
except the ops of ``ULPS`` (libm functions, whose last bit is not
specified) and the documented backend deviations of ``DEVIATIONS``; the
discrepancies this test found are ``DISCREPANCIES``, strict xfails.
Backends needing upstream tools (mlir-opt 19, jax) fail when the tool is
missing: CI installs both.
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Callable
from functools import cache
from io import StringIO

import numpy as np
import pytest
from xdsl.printer import Printer

import bcast
from bcast.ir import ops as bc
from bcast.ir import rules
from bcast.tests import programs
from bcast.ir.types import finfo, iinfo, is_float_dtype
from bcast.tests.edge_values import ELEMENT_TYPES, NIBBLE_REFUSAL, convert_sources, dtype, edges, pairs
from bcast.tools import driver

# --------------------------------------------------------------------------
# The op list, from the dialect
# --------------------------------------------------------------------------

NOT_SCALAR = {bc.BroadcastInDimOp, bc.TransposeOp, bc.ReshapeOp, bc.NarrowOp, bc.ConstantOp,
              bc.ExtractOp, bc.AssignOp, bc.IotaOp, bc.ReverseOp, bc.SliceOp, bc.ConcatenateOp, bc.PadOp,
              bc.DynamicSliceOp, bc.DynamicUpdateSliceOp, bc.GatherOp, bc.ScatterOp, bc.DotGeneralOp, bc.MatmulOp,
              bc.DimOp, bc.BroadcastSizeOp, bc.DynamicBroadcastInDimOp, bc.CheckBroadcastableOp,
              bc.SizeFromTensorOp, bc.SizeToTensorOp, bc.ShapeAssertionOp,
              bc.DynamicReshapeOp, bc.DynamicIotaOp, bc.SetDimensionSizeOp, bc.SortOp,
              bc.ConvolutionOp,
              bc.DynamicConvOp, bc.TriangularSolveOp, bc.LuOp, bc.CholeskyOp, bc.FftOp}  # fmt: skip
"""Ops that move data and compute no element, the contractions (an
element is a sum over many, not a scalar op) and the explicit dynamic form
(sizes and checks: tests/lowering/test_make_explicit_dynamic.py, tests/tools/test_jax_dynamic.py) and ``sort``
(a permutation: tests/lowering/test_sort.py runs it on every element type's edge values) and ``convolution``
(a contraction: tests/lowering/test_convolution.py): not rows of this matrix
(``tests/ir``, ``tests/lowering`` (``test_dot_general.py``) and the random
programs test them); ``triangular_solve`` (a solve: tests/lowering/test_triangular_solve.py
runs every flag on every backend); ``lu`` and ``cholesky`` (factorizations:
tests/lowering/test_lapack.py runs them on every backend against XLA and NumPy); ``fft`` (a
transform: an element is a sum over many; tests/lowering/test_fft.py runs ``jnp.fft`` against
``jax.jit`` and NumPy on every backend)."""

SCANS = {bc.CumulativeOp, bc.ReduceWindowOp, bc.ReduceWindowBodyOp}
"""Ops whose result keeps the operand's 2-D shape (or a window of it, as
``reduce_window``), which the one-dim rows of this matrix cannot hold:
tests/lowering/test_cumulative.py and tests/lowering/test_reduce_window.py
run them on every backend (NaN, infinities, wrapping);
``reduce_window_body`` (its body's ops are rows of their own here):
tests/lowering/test_reduce_window_inputs.py."""


def short(op_class) -> str:
    return op_class.name.split(".", 1)[1]


@dataclasses.dataclass(frozen=True)
class Row:
    """One result of the per-type program: the op applied to the edge values."""

    name: str  # "add", "compare.LT", "convert.f32", "reduce.add", "select"
    op: str  # the op's short name, the key of ULPS and DEVIATIONS
    line: str  # the IR line, with {K}, {N}, {M} for the input sizes
    result: str  # result element type
    oracle: Callable[[dict[str, np.ndarray]], np.ndarray]
    operands: tuple[str, ...]  # the inputs an element of the result depends on


def oracle_convert(x: np.ndarray, to: np.dtype) -> np.ndarray:
    """``programs.oracle_convert``, but float -> 64-bit integer in Python
    ints: its clip to ``float(MAX)`` (2**63, out of range) wraps to ``MIN``;
    a complex value to a real type is its real part (StableHLO's convert)."""
    if x.dtype.kind == "c" and to.kind != "c":
        x = x.real.copy()
    if not is_float_dtype(x.dtype) or to.kind not in "iu":  # (int4/uint4 too: programs.oracle_convert)
        return programs.oracle_convert(x, to)
    info = np.iinfo(to)
    return np.array([0 if np.isnan(v) else info.min if v == -np.inf else info.max if v == np.inf
                     else min(max(int(v), int(info.min)), int(info.max)) for v in x.tolist()], to)


IDENTITIES = {"add": 0, "multiply": 1, "maximum": "lowest", "minimum": "highest", "and": -1, "or": 0,
              "xor": 0}
"""Reductions start from these (docs/semantics.md), written out again here."""


def oracle_reduce_pair(kind: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``reduce KIND`` of each pair ``(a[i], b[i])``: the identity folded with
    ``a[i]``, then with ``b[i]``, by the combiner's oracle."""
    identity = IDENTITIES[kind]
    if identity in ("lowest", "highest"):
        end = np.inf if is_float_dtype(a.dtype) else None
        if end is None:
            info = iinfo(a.dtype)
            value = info.min if identity == "lowest" else info.max
        else:
            value = -end if identity == "lowest" else end
    else:
        value = identity
    start = np.full(a.shape, value).astype(a.dtype) if a.dtype != np.bool_ else np.full(a.shape, value != 0)
    combiner = short(bc.REDUCTION_COMBINERS[kind])
    return programs.oracle_binary(combiner, programs.oracle_binary(combiner, start, a), b)


def oracle_arg_pair(direction: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``argmax`` (``direction`` GT) / ``argmin`` (LT) of each pair ``(a[i],
    b[i])``: 1 when ``b[i]`` is strictly beyond ``a[i]``, or is a NaN and
    ``a[i]`` is not (the first NaN wins); else 0."""
    def beyond(x, y):
        return x > y if direction == "GT" else x < y

    def nan(x):
        return x != x

    return np.array([int((beyond(y, x) and not nan(x)) or (nan(y) and not nan(x)))
                     for x, y in zip(a.tolist(), b.tolist())], np.int32)


def _takes(op_class, t: str) -> bool:
    return rules.kind(t) in op_class.ELEMENT_KINDS


@cache
def rows(t: str) -> tuple[Row, ...]:
    """Every op of the dialect that takes element type ``t``, as rows."""
    found: list[Row] = []
    tensor = "tensor<{size}x" + t + ">"
    a, n, m, k2 = (tensor.format(size=s) for s in ("{K}", "{N}", "{M}", "{K}x2"))
    for op in bc.OPS:
        if op in NOT_SCALAR or op in SCANS:
            continue
        name = short(op)
        if op is bc.CompareOp:
            for d in bc.ComparisonDirection:
                if _takes(op, t) and (rules.kind(t) != "complex" or d.value in ("EQ", "NE")):
                    found.append(Row(f"compare.{d.value}", name,
                                     f"{op.name} {d.value}, %a, %b : ({a}, {a}) -> tensor<{{K}}xi1>", "i1",
                                     lambda v, d=d.value: programs.oracle_compare(d, v["a"], v["b"]), ("a", "b")))
        elif issubclass(op, bc.BinaryOp):
            if _takes(op, t) and (op is not bc.ComplexOp or t in rules.COMPLEX_PARTS.values()):
                r = op.result_element(t)
                found.append(Row(name, name, f"{op.name} %a, %b : ({a}, {a}) -> tensor<{{K}}x{r}>", r,
                                 lambda v, name=name: programs.oracle_binary(name, v["a"], v["b"]), ("a", "b")))
        elif op is bc.SelectOp:
            found.append(Row(name, name, f"{op.name} %p, %a, %b : (tensor<{{K}}xi1>, {a}, {a}) -> {a}", t,
                             lambda v: np.where(v["p"], v["a"], v["b"]), ("p", "a", "b")))
        elif op is bc.ClampOp:
            if _takes(op, t):
                found.append(Row(name, name, f"{op.name} %a, %b, %h : ({a}, {a}, {a}) -> {a}", t,
                                 lambda v: programs.oracle_binary(
                                     "minimum", programs.oracle_binary("maximum", v["b"], v["a"]), v["h"]),
                                 ("a", "b", "h")))
        elif issubclass(op, bc.UnaryOp):
            if _takes(op, t):
                r = rules.COMPLEX_PARTS.get(t, t) if issubclass(op, bc.PartUnaryOp) else t
                typed = n if r == t else f"({n}) -> tensor<{{N}}x{r}>"  # (abs, real, imag of complex)
                found.append(Row(name, name, f"{op.name} %x : {typed}", r,
                                 lambda v, name=name: programs.oracle_unary(name, v["x"]), ("x",)))
        elif op is bc.ConvertOp:
            for to in ELEMENT_TYPES:
                found.append(Row(f"convert.{to}", name, f"{op.name} %c : ({m}) -> tensor<{{M}}x{to}>", to,
                                 lambda v, to=to: oracle_convert(v["c"], dtype(to)), ("c",)))
        elif op is bc.BitcastConvertOp:
            for to in ELEMENT_TYPES:
                if to != t and "i1" not in (t, to) and rules.bit_width(to) == rules.bit_width(t) \
                        and "complex" not in (rules.kind(t), rules.kind(to)):
                    found.append(Row(f"bitcast_convert.{to}", name, f"{op.name} %c : ({m}) -> tensor<{{M}}x{to}>",
                                     to, lambda v, to=to: v["c"].view(dtype(to)), ("c",)))
        elif op is bc.ReduceOp:
            for kind in bc.ReductionKind:
                if rules.kind(t) in bc.reduction_kinds(kind.value):
                    found.append(Row(f"reduce.{kind.value}", name,
                                     f"{op.name} {kind.value} %r, dims = [1] : ({k2}) -> {a}", t,
                                     lambda v, k=kind.value: oracle_reduce_pair(k, v["a"], v["b"]),
                                     ("a", "b")))
        elif issubclass(op, bc.ArgReduceOp):
            if _takes(op, t):
                found.append(Row(name, name, f"{op.name} %r, dim = 1 : ({k2}) -> tensor<{{K}}xi32>", "i32",
                                 lambda v, d=op.STABLEHLO_DIRECTION: oracle_arg_pair(d, v["a"], v["b"]),
                                 ("a", "b")))
        else:
            raise AssertionError(f"{op.name} is in no family of the op matrix: add it (or to NOT_SCALAR)")
    return tuple(found)


@cache
def inputs(t: str) -> dict[str, np.ndarray]:
    """The program's arguments, by name: ``x`` the edge values (unary ops),
    ``a``/``b`` every pair of them (binary ops, ``select``'s branches),
    ``p`` a predicate pattern, ``c`` the ``convert`` sources, ``r`` the pairs
    side by side (a reduction over dim 1 folds each pair), ``h`` a third
    operand (``clamp %a, %b, %h``: ``b`` shifted, so each bound pair meets
    every ordering, NaN and infinity)."""
    a, b = pairs(t)
    return {"x": edges(t), "a": a, "b": b, "p": np.arange(a.size) % 3 == 1,
            "c": convert_sources(t), "r": np.stack([a, b], axis=1), "h": np.roll(b, 1)}


def result_shape(t: str, row: Row) -> tuple[int]:
    """The (flat) shape of ``row``'s result."""
    return inputs(t)[row.operands[-1]].shape[:1]


@cache
def program(t: str, names: tuple[str, ...]) -> str:
    """One function with one result per row of ``t`` named in ``names``."""
    values = inputs(t)
    sizes = {"K": values["a"].size, "N": values["x"].size, "M": values["c"].size}
    chosen = [row for row in rows(t) if row.name in names]
    assert chosen, names

    def arg_type(name: str) -> str:
        element = "i1" if name == "p" else t
        return f"tensor<{'x'.join(map(str, values[name].shape))}x{element}>"

    body, types = [], []
    for i, row in enumerate(chosen):
        line = row.line.format(**sizes)
        body.append(f"  %v{i} = {line}")
        types.append(f"tensor<{result_shape(t, row)[0]}x{row.result}>")
    args = ", ".join(f"%{name}: {arg_type(name)}" for name in values)
    results = ", ".join(f"%v{i}" for i in range(len(chosen)))
    return (f"func.func @main({args}) -> ({', '.join(types)}) {{\n" + "\n".join(body)
            + f"\n  func.return {results} : {', '.join(types)}\n}}\n")


def test_every_op_is_in_the_matrix():
    """Each op of the dialect is a row on some element type, moves data, or
    is a scan tested on its own."""
    covered = {row.op for t in ELEMENT_TYPES for row in rows(t)}
    for op in bc.OPS:
        assert op in NOT_SCALAR or op in SCANS or short(op) in covered, op.name


# --------------------------------------------------------------------------
# The backends
# --------------------------------------------------------------------------


def _as_list(results) -> list[np.ndarray]:
    return [np.asarray(r) for r in (results if isinstance(results, tuple) else (results,))]


def _arguments(t: str) -> list[np.ndarray]:
    return list(inputs(t).values())


def _compiled(backend: str, text: str, t: str) -> list[np.ndarray]:
    return _as_list(bcast.compile(text, backend=backend)(*_arguments(t)))


def _array_api_strict(text: str, t: str) -> list[np.ndarray]:
    import array_api_strict as xs

    f = bcast.compile(text, backend="array-api")
    # array_api_strict has no float16 (nor bfloat16) array to pass: an f16 or
    # bf16 program gets f32 ones, which it must reject for the missing type first
    return _as_list(f(*[xs.asarray(v.astype(np.float32) if v.dtype in (np.float16, dtype("bf16")) else v)
                        for v in _arguments(t)]))


def _loops(text: str, t: str) -> list[np.ndarray]:
    """The loop IR, compiled by upstream MLIR 19 (mlir-opt, mlir-translate, llc)."""
    from xdsl.dialects import func

    from bcast.ir.types import flat_type_shape, numpy_dtype
    from bcast.lowering import memref_abi

    if not memref_abi.tools_available():
        pytest.fail("mlir-opt 19 is not installed (apt-get install mlir-19-tools llvm-19; .ci/run does)")
    main = next(op for op in driver.load(text, "<matrix>").walk() if isinstance(op, func.FuncOp))
    specs = [(flat_type_shape(r), numpy_dtype(r)) for r in main.function_type.outputs.data]
    module = driver.load(text, "<matrix>", pipeline=driver.STANDARD_PIPELINE + ",bcast-lower-to-loops")
    out = StringIO()
    Printer(stream=out).print_op(module)
    return memref_abi.LoopLibrary(out.getvalue()).call("main", _arguments(t), specs)


def _stablehlo(text: str) -> str:
    """``text`` exported as ``bcast-opt -t stablehlo`` does, checked by jaxlib."""
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import verify_stablehlo

    exported = emit_text(driver.load(text, "<matrix>", pipeline=driver.EXPLICIT_PIPELINE), "main")
    verify_stablehlo(exported)
    return exported


def _xla(text: str, t: str) -> list[np.ndarray]:
    from bcast.tools.jax_bridge import run_stablehlo

    return run_stablehlo(_stablehlo(text), _arguments(t))


BACKENDS: dict[str, Callable[[str, str], list[np.ndarray]]] = {
    "reference": lambda text, t: _compiled("reference", text, t),
    "numpy": lambda text, t: _compiled("numpy", text, t),
    "array-api": lambda text, t: _compiled("array-api", text, t),
    "array-api-strict": _array_api_strict,
    "c": lambda text, t: _compiled("c", text, t),
    "loops-mlir": _loops,
    "stablehlo-xla": _xla,
    "stablehlo-import": lambda text, t: _compiled("reference", _stablehlo(text), t),
}
"""Backend -> its results of a program on ``t``'s inputs. ``reference`` is
checked against the independent oracles, every other one against it."""

# --------------------------------------------------------------------------
# What may differ, and why: ONE table each
# --------------------------------------------------------------------------

ULPS = {"exponential": 2, "log": 1, "tanh": 2, "logistic": 1, "atan2": 1, "power": 1, "rsqrt": 1,
        "sine": 4, "cosine": 4, "tan": 4, "exponential_minus_one": 4, "log_plus_one": 4, "cbrt": 4,
        "erf": 4, "erfc": 4, "erf_inv": 8, "sinh": 4, "cosh": 4, "asin": 4, "acos": 4, "atan": 4, "asinh": 4,
        "acosh": 4, "atanh": 4, "lgamma": 4, "digamma": 4}
"""Ops whose last bit no backend contract fixes (a libm function, or XLA's
native ``rsqrt``, which the reference computes as ``1 / sqrt`` rounded
twice): the bound, in ulps of the element type, on any backend against the
reference. Non-finite results and NaN must still match exactly. The C
backend's simd loops call glibc's vector math (libmvec), whose documented
bound is 4 ulps: the functions added since are held to that. ``erf`` and
``erfc``: libm's (or libmvec's) ``erf`` in C, bcast's composition
elsewhere (``bcast.ir.special``, within 6 ulps of glibc's in f64 over
dense sweeps: ``tests/ir/test_special.py``), XLA's ``chlo.erf``/``chlo.erfc``
(whose ``erfc`` tail is less accurate than these edge values show:
``tests/lowering/test_erf.py``)."""


EPSILONS = {"lgamma": 32, "digamma": 16}
"""Ops whose error is bounded in machine epsilons of ``max(1, |result|)``,
not in ulps: the Lanczos approximation in the element type cancels near
the zeros of the function and in the reflection (docs/semantics.md, "lgamma
and digamma"). A result within this bound or within ``ULPS`` passes."""


COMPLEX_ULPS = {"sign": 2, "divide": 2}
"""More ops whose last bit is not fixed on complex values (each part held
to the bound): ``sign`` divides twice in the element's precision, where
the oracle computes in f64 and rounds once; complex division has no one
algorithm (NumPy's Smith's method, XLA's own)."""


def _zero_ties(operands: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """Elements whose result is a zero and whose operands hold both +0.0 and -0.0."""
    zeros = [o == 0 for o in operands]
    positive = np.logical_or.reduce([z & ~np.signbit(o) for z, o in zip(zeros, operands)])
    negative = np.logical_or.reduce([z & np.signbit(o) for z, o in zip(zeros, operands)])
    return (want == 0) & positive & negative


def _subnormal(x: np.ndarray) -> np.ndarray:
    if not is_float_dtype(x.dtype):
        return np.zeros(x.shape, bool)
    with np.errstate(invalid="ignore"):  # NaN compares false
        return (x != 0) & (np.abs(x) < finfo(x.dtype).tiny)


def flushed(operands: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """Elements where an operand or the result is subnormal."""
    mask = _subnormal(want)
    for o in operands:
        mask = mask | _subnormal(o)
    return mask


@dataclasses.dataclass(frozen=True)
class Known:
    """Cases (``fnmatch`` patterns of backend, element type and row name)
    that differ from the reference, and why."""

    backend: str
    types: str
    rows: str
    reason: str
    ignore: Callable[[list[np.ndarray], np.ndarray], np.ndarray] | None = None
    """A documented deviation: the elements not compared."""
    raises: str | None = None
    """A documented deviation: the program is rejected with this message."""
    rtol: float | None = None
    """A documented deviation of complex results: elements within this
    distance of the reference, relative to its modulus, count as equal."""
    rejects: type[Exception] | None = None
    """A discrepancy that rejects the program with this error: the row runs
    in a program of its own."""

    def matches(self, backend: str, t: str, name: str) -> bool:
        return (fnmatch.fnmatchcase(backend, self.backend) and fnmatch.fnmatchcase(t, self.types)
                and fnmatch.fnmatchcase(name, self.rows))

    def excused(self, operands: list[np.ndarray], got: np.ndarray, want: np.ndarray) -> np.ndarray:
        """The elements this deviation excuses: those ``ignore`` leaves out
        and those within ``rtol`` of the reference."""
        excused = np.zeros(want.shape, bool)
        if self.ignore is not None:
            excused |= self.ignore(operands, want)
        if self.rtol is not None:
            with np.errstate(invalid="ignore", over="ignore"):
                excused |= np.abs(got - want) <= self.rtol * np.abs(want)
        return excused


_CLAMP_ZEROS = ("clamp is maximum then minimum: which zero it gives where +0.0 meets -0.0 is not specified "
                "(docs/semantics.md)")


def _overflowing_product(operands: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """Elements of a complex product of finite operands that overflows."""
    finite = np.logical_and.reduce([np.isfinite(o) for o in operands])
    return finite & ~np.isfinite(want)


def _irregular_complex(operands: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """Elements where an operand or the result has a part that is not
    finite, is subnormal, or is so large that a square overflows."""
    def irregular(x: np.ndarray) -> np.ndarray:
        if x.dtype.kind not in "fc":
            return np.zeros(x.shape, bool)
        parts = (x.real, x.imag) if x.dtype.kind == "c" else (x,)
        mask = np.zeros(x.shape, bool)
        for p in parts:
            with np.errstate(invalid="ignore", over="ignore"):
                mask |= ~np.isfinite(p) | _subnormal(p) | (np.abs(p) > np.sqrt(finfo(p.dtype).max))
        return mask

    return np.logical_or.reduce([irregular(o) for o in operands] + [irregular(want)])


def _on_an_axis(operands: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """Elements where an operand has a zero part (a zero base, a signed zero,
    a value on a branch cut), or that ``_irregular_complex`` leaves out."""
    axis = np.logical_or.reduce([(o.real == 0) | (o.imag == 0) for o in operands if o.dtype.kind == "c"])
    return axis | _irregular_complex(operands, want)


def _small_angle(operands: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """Elements of a complex atan2 far smaller than 1: the definition (a log
    of a value of modulus 1) has an absolute error of ulps of 1 there, not of
    the result (bcast's and XLA's alike: both round the same formula)."""
    return np.abs(want) < 1e-2


_XLA_BRANCHES = ("XLA computes complex power, sqrt and rsqrt through log and exp, and atan2 from bcast's "
                 "written definition, without the branch cuts' signed zeros: a zero base gives NaN, a value on "
                 "an axis may take the other side of the cut, and parts are off by ulps of the modulus "
                 "(docs/stablehlo.md, \"Complex numbers\"); its power is within 16 ulps of the modulus")
_COMPLEX_OVERFLOW = ("an overflowing complex product's infinite or NaN parts are not specified (docs/semantics.md, "
                     "\"Complex numbers\"): NumPy's elementwise multiply recovers infinities (C99 Annex G), its "
                     "reductions (the reference's, dask's, JAX's) do not")
COMPLEX_REFUSAL = r"is not supported by bcast-lower-to-loops \(the c backend\) \(its element type complex<f(32|64)>\)"
"""The C backend's located refusal of complex values (docs/c-backend.md, "Complex numbers")."""

DEVIATIONS = [  # (the first that matches counts: the target's refusal of i4 comes before any namespace's)
    *(Known(backend, types, rows, "the loop IR and the c backend have no complex values (docs/c-backend.md)",
            raises=COMPLEX_REFUSAL)
      for backend in ("c", "loops-mlir")
      for types, rows in (("complex*", "*"), ("*", "convert.complex*"), ("f[36]*", "complex"))),
    Known("stablehlo-xla", "complex*", "divide", "XLA's complex division is not correctly rounded: a part "
          "may be off by an ulp of the modulus (x / x is 1 - 1.75e-8j in f32; docs/stablehlo.md)",
          ignore=lambda operands, want: _irregular_complex(operands, want), rtol=4 * float(np.finfo(np.float32).eps)),
    *(Known("stablehlo-xla", "complex*", row, _XLA_BRANCHES, ignore=ignore, rtol=ulps * float(np.finfo(np.float32).eps))
      for row, ignore, ulps in (("power", _on_an_axis, 16), ("sqrt", _on_an_axis, 4), ("rsqrt", _on_an_axis, 4),
                                ("atan2", lambda operands, want: _on_an_axis(operands, want) | _small_angle(operands, want), 4))),
    Known("stablehlo-xla", "complex*", "*", "XLA's CPU runtime flushes subnormal parts, computes complex "
          "functions without C99 Annex G's rules at infinities and NaN, and reassociates divisions, which "
          "overflows for parts near the largest float (docs/stablehlo.md, \"Complex numbers\")",
          ignore=_irregular_complex),
    Known("*", "complex*", "reduce.multiply", _COMPLEX_OVERFLOW, ignore=_overflowing_product),
    *(Known(backend, types, rows, "the array-api target refuses i4 and ui4: the standard has no 4-bit "
            "integers (docs/array-api.md)", raises=NIBBLE_REFUSAL)
      for backend in ("array-api", "array-api-strict")
      for types, rows in (("*i4", "*"), ("*", "convert.*i4"), ("*", "bitcast_convert.*i4"))),
    Known("stablehlo-xla", "f[36]*", "clamp", _CLAMP_ZEROS + "; XLA flushes subnormals (below)",
          ignore=lambda operands, want: _zero_ties(operands, want) | flushed(operands, want)),
    Known("stablehlo-xla", "f[36]*", "*", "XLA's CPU runtime flushes f32 and f64 subnormals to zero, in operands "
          "and results (docs/stablehlo.md); f16 is computed in f32, where its subnormals are normal",
          ignore=flushed),
    Known("stablehlo-xla", "bf16", "clamp", _CLAMP_ZEROS + "; XLA flushes subnormals (below)",
          ignore=lambda operands, want: _zero_ties(operands, want) | flushed(operands, want)),
    Known("stablehlo-xla", "bf16", "*", "XLA's CPU runtime computes bf16 in f32 and flushes f32 subnormals to "
          "zero, and bf16's subnormals are f32's (docs/stablehlo.md)", ignore=flushed),
    Known("stablehlo-xla", "*", "convert.f[36]*", "XLA flushes subnormal results (docs/stablehlo.md)",
          ignore=lambda operands, want: _subnormal(want)),
    Known("array-api-strict", "bf16", "*", "array_api_strict has no bfloat16 (docs/array-api.md)",
          raises="array_api_strict has no bfloat16"),
    Known("array-api-strict", "f16", "*", "array_api_strict has no float16 (docs/array-api.md)",
          raises="array_api_strict has no float16"),
    Known("array-api-strict", "*", "convert.f16", "array_api_strict has no float16 (docs/array-api.md)",
          raises="array_api_strict has no float16"),
    Known("array-api-strict", "*", "bitcast_convert.f16", "array_api_strict has no float16 (docs/array-api.md)",
          raises="array_api_strict has no float16"),
    Known("*", "f*", "clamp", _CLAMP_ZEROS, ignore=lambda operands, want: _zero_ties(operands, want)),
    Known("array-api-strict", "*", "convert.bf16", "array_api_strict has no bfloat16 (docs/array-api.md)",
          raises="array_api_strict has no bfloat16"),
    Known("array-api-strict", "*", "bitcast_convert.bf16", "array_api_strict has no bfloat16 (docs/array-api.md)",
          raises="array_api_strict has no bfloat16"),
    Known("*", "bf16", "clamp", _CLAMP_ZEROS, ignore=lambda operands, want: _zero_ties(operands, want)),
    Known("stablehlo-xla", "i4", "popcnt", "XLA's CPU backend counts the set bits of a negative i4's "
          "sign-extended byte (-1 gives 8, wrapped to -8); the spec counts the four bits (docs/stablehlo.md)",
          ignore=lambda operands, want: operands[0].astype(np.int64) < 0),
]
"""Documented backend deviations: compared without the elements they
concern, or expected to be rejected with the documented error."""

_SIGNED_ZERO_MAX = ("maximum/minimum of +0.0 and -0.0: which zero is not specified (docs/semantics.md), and "
                    "the backends differ: NumPy (reference) returns the first operand on f16 and the second on "
                    "f32/f64, its f16 reduction (accumulated in f32) the other one, C and the loop IR their own")
DISCREPANCIES = [
    Known("reference", "f16", "reduce.m[ai][xn]*", _SIGNED_ZERO_MAX),
    Known("array-api", "f16", "reduce.m[ai][xn]*", _SIGNED_ZERO_MAX),
    Known("c", "f16", "m[ai][xn]imum", _SIGNED_ZERO_MAX),
    Known("c", "f*", "reduce.m[ai][xn]*", _SIGNED_ZERO_MAX),
    Known("loops-mlir", "f16", "m[ai][xn]imum", _SIGNED_ZERO_MAX),  # (arith-expand, for bf16, makes f32/f64 agree)
    Known("stablehlo-xla", "f[36]*", "m[ai][xn]imum", _SIGNED_ZERO_MAX),
    Known("stablehlo-xla", "f*", "reduce.m[ai][xn]*", _SIGNED_ZERO_MAX),
    Known("stablehlo-import", "f*", "reduce.m[ai][xn]*", "the exporter's NaN-propagating max/min reduce "
          "body is not one op, which convert-stablehlo-to-bcast rejects", rejects=bcast.BcastError),
    Known("c", "bf16", "reduce.m[ai][xn]*", _SIGNED_ZERO_MAX),
    Known("stablehlo-xla", "bf16", "m[ai][xn]imum", _SIGNED_ZERO_MAX),
    Known("stablehlo-xla", "bf16", "reduce.m[ai][xn]*", _SIGNED_ZERO_MAX),
    Known("stablehlo-import", "bf16", "reduce.m[ai][xn]*", "the exporter's NaN-propagating max/min reduce "
          "body is not one op, which convert-stablehlo-to-bcast rejects", rejects=bcast.BcastError),
    Known("loops-mlir", "f64", "convert.bf16", "LLVM 19 lowers fptrunc double to bfloat to a call of "
          "__truncdfbf2, which GCC 12's libgcc lacks (the C target rounds through f32 to odd: docs/c-backend.md)",
          rejects=OSError),
]
"""Discrepancies this test found (not documented, not fixed yet): each case
is ``xfail(strict=True)``, so a fix makes it pass and fails the test until
the entry is removed. ``rejects``: the backend refuses the row, so the row
runs alone and the rest of the program without it."""


def known(table: list[Known], backend: str, t: str, name: str) -> Known | None:
    return next((k for k in table if k.matches(backend, t, name)), None)


def alone(backend: str, t: str, name: str) -> bool:
    """Whether the row runs in a program of its own on ``backend``."""
    entry = known(DEVIATIONS, backend, t, name) or known(DISCREPANCIES, backend, t, name)
    return entry is not None and (entry.raises is not None or entry.rejects is not None)


@cache
def results(backend: str, t: str) -> dict[str, np.ndarray] | BaseException:
    """One run per (backend, element type) of every row that does not run
    alone; an error is kept and raised by each case it concerns."""
    names = tuple(row.name for row in rows(t) if not alone(backend, t, row.name))
    try:
        return dict(zip(names, BACKENDS[backend](program(t, names), t), strict=True))
    except Exception as e:  # noqa: BLE001 - reported by every case it concerns
        return e


def result(backend: str, t: str, name: str) -> np.ndarray:
    if alone(backend, t, name):
        return BACKENDS[backend](program(t, (name,)), t)[0]
    got = results(backend, t)
    if isinstance(got, BaseException):
        raise got
    return got[name]


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint8) if x.dtype == np.bool_ else x.view(f"u{x.dtype.itemsize}")


def _ordered(x: np.ndarray) -> np.ndarray:
    """Float bits as integers in the order of the values (-0 and +0 equal)."""
    signed = [int(v) for v in x.view(f"i{x.dtype.itemsize}")]
    top = (1 << (8 * x.dtype.itemsize - 1)) - 1
    return np.array([v if v >= 0 else -(v & top) for v in signed], dtype=object)


def differing(got: np.ndarray, want: np.ndarray, ulps: int, epsilons: int = 0) -> np.ndarray:
    """Where ``got`` is not ``want``: bits differ and not both NaN, and (with
    ``ulps``) not both finite within ``ulps``, and (with ``epsilons``) not
    both finite within ``epsilons * eps * max(1, |want|)``; a complex
    element where either part differs so."""
    if want.dtype.kind == "c":
        return (differing(got.real.copy(), want.real.copy(), ulps, epsilons)
                | differing(got.imag.copy(), want.imag.copy(), ulps, epsilons))
    same = _bits(got) == _bits(want)
    if is_float_dtype(want.dtype):
        same |= np.isnan(got) & np.isnan(want)
        finite = np.isfinite(got) & np.isfinite(want)
        if ulps:
            close = np.abs(_ordered(got) - _ordered(want)) <= ulps
            same |= finite & close.astype(bool)
        if epsilons:
            g, w = got.astype(np.float64), want.astype(np.float64)
            with np.errstate(invalid="ignore"):
                near = np.abs(g - w) <= epsilons * float(finfo(want.dtype).eps) * np.maximum(1.0, np.abs(w))
            same |= finite & near
    return ~same


# --------------------------------------------------------------------------
# The matrix
# --------------------------------------------------------------------------


def cases():
    for backend in BACKENDS:
        for t in ELEMENT_TYPES:
            for row in rows(t):
                marks = []
                if (entry := known(DISCREPANCIES, backend, t, row.name)) is not None:
                    error = entry.rejects or pytest.fail.Exception  # (a value mismatch)
                    marks.append(pytest.mark.xfail(strict=True, raises=error, reason=entry.reason))
                yield pytest.param(backend, t, row.name, id=f"{backend}-{t}-{row.name}", marks=marks)


@pytest.mark.parametrize(("backend", "t", "name"), list(cases()))
def test_op_matrix(backend: str, t: str, name: str) -> None:
    row = next(r for r in rows(t) if r.name == name)
    values = inputs(t)
    deviation = known(DEVIATIONS, backend, t, name)
    if deviation is not None and deviation.raises is not None:
        with pytest.raises((bcast.BcastError, driver.InputError), match=deviation.raises):  # (loops-mlir: the driver's)
            result(backend, t, name)
        return
    want = row.oracle(values) if backend == "reference" else result("reference", t, name)
    got = result(backend, t, name)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    operands = [values[o] for o in row.operands]
    floats = rules.kind(row.result) in ("float", "complex")
    ulps = {**ULPS, **COMPLEX_ULPS} if rules.kind(t) == "complex" else ULPS
    wrong = differing(got, want, ulps.get(row.op, 0) if floats else 0, EPSILONS.get(row.op, 0) if floats else 0)
    if deviation is not None:
        wrong &= ~deviation.excused(operands, got, want)
    if wrong.any():
        shown = "\n".join(f"  {tuple(o[i].item() for o in operands)}: want {want[i]!r}, got {got[i]!r}"
                          for i in np.flatnonzero(wrong)[:8])
        pytest.fail(f"{name} on {t}, {backend}: {wrong.sum()} of {want.size} differ\n{shown}")
