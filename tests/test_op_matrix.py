"""Every elementwise op, on every element type it takes, on every backend,
on the edge values of the type (``edge_values.py``), bit for bit.

The cases are computed from the dialect (``bcast.ir.ops.OPS`` and the op
classes' ``ELEMENT_KINDS``, ``ComparisonDirection``, ``ReductionKind`` and
``REDUCTION_COMBINERS``), never listed by hand: a new op is a new row of the
matrix, and a backend that lacks it fails. An op that is neither one of the
families below nor listed in ``NOT_SCALAR`` fails
``test_every_op_is_in_the_matrix``.

One program per element type holds every op of that type (one function,
one result per op and direction, conversion target and reduction kind), so
each backend compiles about a dozen modules, not hundreds. The reference
evaluator is the oracle of the other backends; it is itself checked
against the independent Python-int oracles of ``tests/programs.py`` (the
``reference`` column).

Results are compared bit for bit (NaN against NaN whatever the payload),
except the ops of ``ULPS`` (libm functions, whose last bit is not
specified) and the documented backend deviations of ``DEVIATIONS``.
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
from bcast.tests.edge_values import ELEMENT_TYPES, convert_sources, dtype, edges, pairs
from bcast.tools import driver

# --------------------------------------------------------------------------
# The op list, from the dialect
# --------------------------------------------------------------------------

NOT_SCALAR = {bc.BroadcastInDimOp, bc.TransposeOp, bc.ReshapeOp, bc.NarrowOp, bc.ConstantOp,
              bc.ExtractOp, bc.AssignOp}  # fmt: skip
"""Ops that move data and compute no element: not rows of this matrix
(``tests/ir``, ``tests/lowering`` and the random programs test them)."""


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
    ints: its clip to ``float(MAX)`` (2**63, out of range) wraps to ``MIN``."""
    if x.dtype.kind != "f" or to.kind not in "iu":
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
        end = np.inf if a.dtype.kind == "f" else None
        if end is None:
            info = np.iinfo(a.dtype)
            value = info.min if identity == "lowest" else info.max
        else:
            value = -end if identity == "lowest" else end
    else:
        value = identity
    start = np.full(a.shape, value).astype(a.dtype) if a.dtype != np.bool_ else np.full(a.shape, value != 0)
    combiner = short(bc.REDUCTION_COMBINERS[kind])
    return programs.oracle_binary(combiner, programs.oracle_binary(combiner, start, a), b)


def _takes(op_class, t: str) -> bool:
    return rules.kind(t) in op_class.ELEMENT_KINDS


@cache
def rows(t: str) -> tuple[Row, ...]:
    """Every op of the dialect that takes element type ``t``, as rows."""
    found: list[Row] = []
    tensor = "tensor<{size}x" + t + ">"
    a, n, m, k2 = (tensor.format(size=s) for s in ("{K}", "{N}", "{M}", "{K}x2"))
    for op in bc.OPS:
        if op in NOT_SCALAR:
            continue
        name = short(op)
        if op is bc.CompareOp:
            for d in bc.ComparisonDirection:
                if _takes(op, t):
                    found.append(Row(f"compare.{d.value}", name,
                                     f"{op.name} {d.value}, %a, %b : ({a}, {a}) -> tensor<{{K}}xi1>", "i1",
                                     lambda v, d=d.value: programs.oracle_compare(d, v["a"], v["b"]), ("a", "b")))
        elif issubclass(op, bc.BinaryOp):
            if _takes(op, t):
                r = op.result_element(t)
                found.append(Row(name, name, f"{op.name} %a, %b : ({a}, {a}) -> tensor<{{K}}x{r}>", r,
                                 lambda v, name=name: programs.oracle_binary(name, v["a"], v["b"]), ("a", "b")))
        elif op is bc.SelectOp:
            found.append(Row(name, name, f"{op.name} %p, %a, %b : (tensor<{{K}}xi1>, {a}, {a}) -> {a}", t,
                             lambda v: np.where(v["p"], v["a"], v["b"]), ("p", "a", "b")))
        elif issubclass(op, bc.UnaryOp):
            if _takes(op, t):
                found.append(Row(name, name, f"{op.name} %x : {n}", t,
                                 lambda v, name=name: programs.oracle_unary(name, v["x"]), ("x",)))
        elif op is bc.ConvertOp:
            for to in ELEMENT_TYPES:
                found.append(Row(f"convert.{to}", name, f"{op.name} %c : ({m}) -> tensor<{{M}}x{to}>", to,
                                 lambda v, to=to: oracle_convert(v["c"], dtype(to)), ("c",)))
        elif op is bc.ReduceOp:
            for kind in bc.ReductionKind:
                combiner = bc.REDUCTION_COMBINERS[kind.value]
                if _takes(combiner, t):
                    found.append(Row(f"reduce.{kind.value}", name,
                                     f"{op.name} {kind.value} %r, dims = [1] : ({k2}) -> {a}", t,
                                     lambda v, k=kind.value: oracle_reduce_pair(k, v["a"], v["b"]),
                                     ("a", "b")))
        else:
            raise AssertionError(f"{op.name} is in no family of the op matrix: add it (or to NOT_SCALAR)")
    return tuple(found)


@cache
def inputs(t: str) -> dict[str, np.ndarray]:
    """The program's arguments, by name: ``x`` the edge values (unary ops),
    ``a``/``b`` every pair of them (binary ops, ``select``'s branches),
    ``p`` a predicate pattern, ``c`` the ``convert`` sources, ``r`` the pairs
    side by side (a reduction over dim 1 folds each pair)."""
    a, b = pairs(t)
    return {"x": edges(t), "a": a, "b": b, "p": np.arange(a.size) % 3 == 1,
            "c": convert_sources(t), "r": np.stack([a, b], axis=1)}


@cache
def program(t: str) -> str:
    """One function with one result per row of ``t``."""
    values = inputs(t)
    sizes = {"K": values["a"].size, "N": values["x"].size, "M": values["c"].size}

    def arg_type(name: str) -> str:
        v = values[name]
        element = "i1" if name == "p" else t
        return f"tensor<{'x'.join(map(str, v.shape))}x{element}>"

    body, results = [], []
    for i, row in enumerate(rows(t)):
        line = row.line.format(**sizes)
        body.append(f"  %v{i} = {line}")
        results.append((f"%v{i}", line.rsplit("-> ", 1)[1] if "->" in line else line.rsplit(": ", 1)[1]))
    args = ", ".join(f"%{name}: {arg_type(name)}" for name in values)
    return (f"func.func @main({args}) -> ({', '.join(r for _, r in results)}) {{\n" + "\n".join(body)
            + f"\n  func.return {', '.join(v for v, _ in results)} : {', '.join(r for _, r in results)}\n}}\n")


def test_every_op_is_in_the_matrix():
    """Each op of the dialect is a row on some element type, or moves data."""
    covered = {row.op for t in ELEMENT_TYPES for row in rows(t)}
    for op in bc.OPS:
        assert op in NOT_SCALAR or short(op) in covered, op.name
    assert all(issubclass(op, bc.ElementwiseOp) or op in NOT_SCALAR
               or op in (bc.ConvertOp, bc.ReduceOp) for op in bc.OPS)


# --------------------------------------------------------------------------
# The backends
# --------------------------------------------------------------------------


def _as_list(results) -> list[np.ndarray]:
    return [np.asarray(r) for r in (results if isinstance(results, tuple) else (results,))]


def _arguments(t: str) -> list[np.ndarray]:
    return list(inputs(t).values())


def _compiled(backend: str, t: str, text: str | None = None) -> list[np.ndarray]:
    return _as_list(bcast.compile(text or program(t), backend=backend)(*_arguments(t)))


def _array_api_strict(t: str) -> list[np.ndarray]:
    import array_api_strict as xs

    f = bcast.compile(program(t), backend="array-api")
    got = _as_list(f(*[xs.asarray(v) for v in _arguments(t)]))
    return got


def _loops(t: str) -> list[np.ndarray]:
    """The loop IR, compiled by upstream MLIR 19 (mlir-opt, mlir-translate, llc)."""
    from bcast.lowering import memref_abi
    from bcast.ir.types import flat_type_shape, numpy_dtype
    from xdsl.dialects import func

    if not memref_abi.tools_available():
        pytest.fail("mlir-opt 19 is not installed (apt-get install mlir-19-tools llvm-19; .ci/run does)")
    module = driver.load(program(t), "<matrix>", pipeline=driver.STANDARD_PIPELINE + ",bcast-lower-to-loops")
    main = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    specs = [(flat_type_shape(r), numpy_dtype(r)) for r in main.function_type.outputs.data]
    out = StringIO()
    Printer(stream=out).print_op(module)
    return memref_abi.LoopLibrary(out.getvalue()).call("main", _arguments(t), specs)


@cache
def _stablehlo(t: str) -> str:
    """``t``'s program exported (``bcast-opt -t stablehlo``), checked by jaxlib."""
    from bcast.lowering.stablehlo_emitter import emit_text
    from bcast.tools.jax_bridge import verify_stablehlo

    text = emit_text(driver.load(program(t), "<matrix>", pipeline=driver.EXPLICIT_PIPELINE), "main")
    verify_stablehlo(text)
    return text


def _xla(t: str) -> list[np.ndarray]:
    from bcast.tools.jax_bridge import run_stablehlo

    return run_stablehlo(_stablehlo(t), _arguments(t))


BACKENDS: dict[str, Callable[[str], list[np.ndarray]]] = {
    "reference": lambda t: _compiled("reference", t),
    "numpy": lambda t: _compiled("numpy", t),
    "array-api": lambda t: _compiled("array-api", t),
    "array-api-strict": _array_api_strict,
    "c": lambda t: _compiled("c", t),
    "loops-mlir": _loops,
    "stablehlo-xla": _xla,
    "stablehlo-import": lambda t: _compiled("reference", t, _stablehlo(t)),
}
"""Backend -> its results on ``t``'s program. ``reference`` is checked
against the independent oracles, every other one against ``reference``."""


@cache
def results(backend: str, t: str) -> list[np.ndarray] | BaseException:
    """One run per (backend, element type); an error is kept and raised by
    each case of that pair."""
    try:
        return BACKENDS[backend](t)
    except Exception as e:  # noqa: BLE001 - reported by every case it concerns
        return e


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------

ULPS = {"exponential": 1, "log": 1, "tanh": 1, "logistic": 1, "atan2": 1, "power": 1}
"""Ops computed by a libm function, whose last bit is not specified: the
bound (in ulps of the element type) on any backend against the reference."""


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint8) if x.dtype == np.bool_ else x.view(f"u{x.dtype.itemsize}")


def _ordered(x: np.ndarray) -> np.ndarray:
    """Float bits as integers in the order of the values (-0 and +0 equal)."""
    signed = [int(v) for v in x.view(f"i{x.dtype.itemsize}")]
    top = (1 << (8 * x.dtype.itemsize - 1)) - 1
    return np.array([v if v >= 0 else -(v & top) for v in signed], dtype=object)


def differing(got: np.ndarray, want: np.ndarray, ulps: int) -> np.ndarray:
    """Where ``got`` is not ``want``: bits differ and not both NaN, and (with
    ``ulps``) not both finite within ``ulps``."""
    same = _bits(got) == _bits(want)
    if want.dtype.kind == "f":
        same |= np.isnan(got) & np.isnan(want)
        if ulps:
            finite = np.isfinite(got) & np.isfinite(want)
            close = np.abs(_ordered(got) - _ordered(want)) <= ulps
            same |= finite & close.astype(bool)
    return ~same


# --------------------------------------------------------------------------
# The matrix
# --------------------------------------------------------------------------


def cases():
    for backend in BACKENDS:
        for t in ELEMENT_TYPES:
            for index, row in enumerate(rows(t)):
                yield pytest.param(backend, t, index, id=f"{backend}-{t}-{row.name}")


@pytest.mark.parametrize(("backend", "t", "index"), list(cases()))
def test_op_matrix(backend: str, t: str, index: int) -> None:
    row = rows(t)[index]
    values = inputs(t)
    if backend == "reference":
        want = row.oracle(values)
    else:
        reference = results("reference", t)
        assert not isinstance(reference, BaseException), reference
        want = reference[index]
    got = results(backend, t)
    if isinstance(got, BaseException):
        raise got
    got = got[index]
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    wrong = np.flatnonzero(differing(got, want, ULPS.get(row.op, 0) if row.result[0] == "f" else 0))
    if wrong.size:
        operands = [values[name] for name in row.operands]
        shown = "\n".join(f"  {tuple(o[i].item() for o in operands)}: want {want[i]!r}, got {got[i]!r}"
                          for i in wrong[:8])
        pytest.fail(f"{row.name} on {t}, {backend}: {wrong.size} of {want.size} differ\n{shown}")
