"""How much of StableHLO's interpreter test suite bcast runs, and whether its values are the spec's.

    python benchmarks/stablehlo_interpret.py DIR [--backends reference,numpy,c] [--arguments]
                                             [--files add.mlir ...] [-v]

DIR holds test files in the format of ``stablehlo/tests/interpret`` of a
StableHLO checkout (the suite is not part of this repository: pass the path
of a checkout, or of a directory extracted from one). Every ``.mlir`` file
under DIR is split into chunks at ``// -----`` lines; each chunk is a
module whose entry function (``@main``, else its only function) computes
values and checks them with the ``check`` dialect of StableHLO's
interpreter tests: ``check.expect_eq`` / ``expect_eq_const`` (exact),
``expect_almost_eq`` / ``expect_almost_eq_const`` (absolute tolerance,
1e-4 unless the op says) and ``expect_close`` (a distance in ulps). Those
expected values are the spec's.

bcast has no ``check`` dialect, and needs none: the runner takes each check
op out of the text (keeping the line count, so bcast's diagnostics name
lines of the test file), remembers which values it compares with what, and
makes the compared values the entry's results. The rewritten module is
plain StableHLO; ``bcast.compile`` reads it as it reads any StableHLO (the
strict import, as for every program that is to run), runs it on each
backend asked for, and the runner compares the results with the expected
values as StableHLO's interpreter does (``compare``). With
``--arguments`` the entry's constants become its arguments
(``lift_constants``): a backend's standard pipeline folds ops on
constants, so without it NumPy, Array API and C mostly return folded
constants; with it they compute every op themselves.

Each chunk is, on each backend:

- passed: every checked value is as expected;
- failed: bcast ran it and a value differs (a bug in bcast);
- unsupported: bcast refused it, saying what it does not support (an op,
  an element type, a form of an op), or refused a chunk holding an element
  type bcast lacks (``foreign_type``: an ``add`` of quantized values of
  two scales is refused by bcast's verifier, which knows no quantized
  types); the table counts these by that name;
- error: bcast refused it otherwise (a parse or verifier error on a valid
  program) or crashed (a bug in bcast);
- skipped: the runner cannot check it (no check op, an entry that takes
  arguments given on the interpreter's command line or returns values,
  ``check.expect_serialized_eq``, which compares files
  ``interpreter.probe`` wrote); counted, not run.

The first table has one row per file and a total; then what bcast named
first for each unsupported chunk, most common first; then everything each
unsupported chunk lacks (``lacks``: the ops outside the import's list and
the foreign element types), with how many chunks lack only that one
thing (what adding it would gain); with ``-v`` every chunk that did not
pass, with its message. The exit status is 0 whatever the counts (this
measures), 2 for a bad command line.

Expected constants are read by the runner itself (``parse_dense``), not by
bcast, so a bcast bug in reading literals cannot hide itself. Decimal float
literals are rounded to the element type through float64 (MLIR rounds
once, from the decimal; the two differ only for rare literals between two
values of the type, at most one ulp).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# --------------------------------------------------------------------------
# Reading the suite
# --------------------------------------------------------------------------

SPLIT_MARKER = re.compile(r"^// -----[^\S\n]*$", re.MULTILINE)
CHECK_OP = re.compile(r"\bcheck\.(\w+)")
FUNC_HEADER = re.compile(r"func\.func\s+(?:(?:public|private|nested)\s+)?@([\w.$-]+)\s*\(")
SSA_NAME = re.compile(r"%[\w.$#-]+")
OPENERS, CLOSERS = "<([{", ">)]}"

DEFAULT_TOLERANCE = 1e-4
"""``expect_almost_eq``'s tolerance when the op gives none (StableHLO's CheckOps.td)."""

DEFAULT_MAX_ULP = 1
"""``expect_close``'s ``max_ulp_difference`` default (its ``min_ulp_difference`` is 0)."""

DTYPES = {
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "complex<f32>": np.complex64, "complex<f64>": np.complex128,
}  # fmt: skip
try:  # bf16 values are ml_dtypes' (bcast reads bf16 only with it)
    import ml_dtypes

    DTYPES["bf16"] = ml_dtypes.bfloat16
    DTYPES["i4"], DTYPES["ui4"] = ml_dtypes.int4, ml_dtypes.uint4  # values -8..7 and 0..15, one per byte
except ImportError:
    pass
"""Element types whose expected values the runner reads (bcast's element
types; bcast refuses the others before any value is compared)."""


@dataclass
class Chunk:
    """One ``// -----`` piece of a file; ``line`` is its first line in the file (1-based)."""

    path: Path
    text: str
    line: int

    @property
    def label(self) -> str:
        """``file:line @function`` of its first function."""
        m = FUNC_HEADER.search(self.text)
        line = self.line + self.text.count("\n", 0, m.start()) if m else self.line
        return f"{self.path.name}:{line}" + (f" @{m.group(1)}" if m else "")


def split_chunks(path: Path) -> list[Chunk]:
    text = path.read_text()
    chunks, start, line = [], 0, 1
    for m in SPLIT_MARKER.finditer(text):
        chunks.append(Chunk(path, text[start:m.start()], line))
        line += text.count("\n", start, m.end()) + 1
        start = min(m.end() + 1, len(text))
    chunks.append(Chunk(path, text[start:], line))
    return [c for c in chunks if FUNC_HEADER.search(c.text)]


def _step(text: str, j: int) -> int:
    """How ``text[j]`` changes the bracket depth (``->`` is an arrow, not a
    closing angle bracket)."""
    ch = text[j]
    if ch in OPENERS:
        return 1
    return -1 if ch in CLOSERS and not (ch == ">" and j > 0 and text[j - 1] == "-") else 0


def _matching(text: str, i: int) -> int:
    """The index just past the bracket group opening at ``text[i]``."""
    depth = 0
    for j in range(i, len(text)):
        depth += _step(text, j)
        if depth == 0:
            return j + 1
    raise ValueError(f"unbalanced '{text[i]}'")


def _depth_at(text: str, end: int, start: int = 0) -> int:
    """Bracket depth at ``text[end]``, counted from ``start``."""
    return sum(_step(text, j) for j in range(start, end))


@dataclass
class Check:
    """One check op: the values it compares (SSA names, the actual one
    first), the expected constant (``_const`` forms), its type, and its
    tolerances."""

    kind: str
    operands: list[str]
    type: str
    expected: str | None = None
    tolerance: float = DEFAULT_TOLERANCE
    max_ulp: int = DEFAULT_MAX_ULP
    min_ulp: int = 0


KNOWN_CHECKS = {"expect_eq", "expect_eq_const", "expect_almost_eq", "expect_almost_eq_const", "expect_close"}


def _op_end(text: str, start: int) -> int:
    """The end of the op starting at ``start``: the first newline at bracket
    depth 0 after a depth-0 ``:`` (the op's type), or the end of the text."""
    depth, typed = 0, False
    for j in range(start, len(text)):
        depth += _step(text, j)
        if depth == 0 and text[j] == ":":
            typed = True
        elif depth == 0 and text[j] == "\n" and typed:
            return j
    return len(text)


def _first_type(text: str) -> str:
    m = re.search(r"tensor<", text)
    if m is None:
        raise ValueError(f"no tensor type in {text.strip()!r}")
    return text[m.start():_matching(text, m.start() + len("tensor"))]


def parse_check(kind: str, text: str) -> Check:
    """A check op's text (after its name) as a ``Check``."""
    number = r"\s*=\s*([-+0-9.eE]+|0x[0-9a-fA-F]+)"
    tolerance = re.search(r"tolerance" + number, text)
    max_ulp = re.search(r"max_ulp_difference" + number, text)
    min_ulp = re.search(r"min_ulp_difference" + number, text)
    check = Check(kind, [], "")
    if tolerance:
        check.tolerance = float(tolerance.group(1))
    if max_ulp:
        check.max_ulp = int(max_ulp.group(1), 0)
    if min_ulp:
        check.min_ulp = int(min_ulp.group(1), 0)
    if kind.endswith("_const"):
        dense = text.index("dense<")
        end = _matching(text, dense + len("dense"))
        check.operands = SSA_NAME.findall(text[:dense])
        check.expected = text[dense:end]
        check.type = _first_type(text[end:])
    else:
        colon = next(j for j in range(len(text)) if text[j] == ":" and _depth_at(text, j) == 0)
        check.operands = SSA_NAME.findall(text[:colon])
        check.type = _first_type(text[colon:])
    return check


class Skip(Exception):
    """The runner cannot check this chunk (the reason says why)."""


@dataclass
class Program:
    """A chunk rewritten: the entry returns the checked values."""

    text: str
    entry: str
    checks: list[Check]
    results: list[tuple[str, str]] = field(default_factory=list)
    """(SSA name, type) of each result, in order."""
    arguments: list[np.ndarray] = field(default_factory=list)
    """The values of the constants made arguments (``lift_constants``)."""


COMMENT_OR_STRING = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"')


def masked(text: str) -> str:
    """``text`` with comments and string contents blanked (same length), so
    brackets in them do not count."""
    def blank(m: re.Match) -> str:
        s = m.group()
        return " " * len(s) if s.startswith("//") else '"' + " " * (len(s) - 2) + '"'
    return COMMENT_OR_STRING.sub(blank, text)


def _entry(text: str) -> tuple[str, int, int, int]:
    """The entry's name, the end of its argument list, its body's ``{`` and
    the end of its body."""
    functions = [(m.group(1), m.end() - 1) for m in FUNC_HEADER.finditer(text)]
    names = [name for name, _ in functions]
    if "main" in names:
        entry = "main"
    elif len(names) == 1:
        entry = names[0]
    else:
        raise Skip(f"no entry: functions {', '.join(names)} and none is @main")
    paren = functions[names.index(entry)][1]
    after_args = _matching(text, paren)
    brace = text.index("{", after_args)
    if text[paren + 1:after_args - 1].strip():
        raise Skip("the entry takes arguments (given on the interpreter's command line)")
    if text[after_args:brace].strip():
        raise Skip(f"the entry's signature is not '() {{': {text[after_args:brace].strip()!r}")
    return entry, after_args, brace, _matching(text, brace)


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by its newlines (lines keep their numbers)."""
    pieces, last = [], 0
    for start, end in spans:
        pieces += [text[last:start], "\n" * text.count("\n", start, end)]
        last = end
    return "".join(pieces) + text[last:]


CONSTANT = re.compile(r"(%[\w.$#-]+)\s*=\s*stablehlo\.constant\s+(?=dense<)")


def lift_constants(text: str, scan: str) -> tuple[str, str, list[tuple[str, str]], list[np.ndarray]]:
    """``text`` without the entry's top-level constants of bcast's element
    types (pretty form), and those constants as (name, type) and values:
    the entry then takes them as arguments, so that no pass folds the ops
    that use them and every backend computes them."""
    _, _, brace, body_end = _entry(scan)
    spans, names, values = [], [], []
    for m in CONSTANT.finditer(scan, brace, body_end):
        if _depth_at(scan, m.start(), brace) != 1:
            continue
        dense = m.end()
        literal_end = _matching(scan, dense + len("dense"))
        end = _op_end(scan, literal_end)
        tensor_type = _first_type(text[literal_end:end])
        try:
            value = parse_dense(text[dense:literal_end], tensor_type)
        except ValueError:  # a type or literal the runner does not read: it stays a constant
            continue
        spans.append((m.start(), end))
        names.append((m.group(1), tensor_type))
        values.append(value)
    return _cut(text, spans), _cut(scan, spans), names, values


def rewrite(chunk: Chunk, arguments: bool = False) -> Program:
    """The chunk without its check ops, its entry returning what they check
    (and, with ``arguments``, taking its constants as arguments: see
    ``lift_constants``). Brackets are matched on ``masked`` text (same
    offsets), slices taken from the chunk's own."""
    scan = masked(chunk.text)
    entry, after_args, brace, body_end = _entry(scan)
    checks: list[Check] = []
    spans = []
    for m in CHECK_OP.finditer(scan):
        kind = m.group(1)
        end = _op_end(scan, m.end())
        if kind not in KNOWN_CHECKS:  # expect_serialized_eq compares files interpreter.probe wrote
            raise Skip(f"check.{kind} is not a check the runner runs")
        if not brace < m.start() < body_end or _depth_at(scan, m.start(), brace) != 1:
            raise Skip(f"check.{kind} is not in the entry's body")
        checks.append(parse_check(kind, chunk.text[m.end():end]))
        spans.append((m.start(), end))
    if not checks:
        raise Skip("no check op")
    text, scan = _cut(chunk.text, spans), _cut(scan, spans)
    parameters, lifted = [], []
    if arguments:
        text, scan, parameters, lifted = lift_constants(text, scan)
    entry, after_args, brace, body_end = _entry(scan)

    results = [(name, check.type) for check in checks for name in check.operands]
    returns = [m for m in re.finditer(r"(?<![\w.])(?:func\.)?return\b", scan[:body_end])
               if m.start() > brace and _depth_at(scan, m.start(), brace) == 1]
    if not returns:
        raise Skip("the entry has no top-level return")
    ret = returns[-1]
    line_end = scan.find("\n", ret.end())
    line_end = len(scan) if line_end < 0 else line_end
    if scan[ret.end():line_end].strip():
        raise Skip("the entry already returns values")
    values = ", ".join(name for name, _ in results)
    types = ", ".join(t for _, t in results)
    text = text[:ret.start()] + f"func.return {values} : {types}" + text[line_end:]
    text = text[:after_args] + f" -> ({types})" + text[after_args:]
    signature = ", ".join(f"{name}: {t}" for name, t in parameters)
    text = text[:after_args - 1] + signature + text[after_args - 1:]
    return Program(text, entry, checks, results, lifted)


# --------------------------------------------------------------------------
# Expected values
# --------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(\[|\]|\(|\)|,|true|false|0x[0-9a-fA-F]+|[-+]?(?:inf|nan)|[-+]?[0-9][0-9.]*(?:[eE][-+]?[0-9]+)?)")


def element_type(tensor_type: str) -> tuple[tuple[int, ...], str]:
    """``tensor<2x3xf32>`` -> ((2, 3), "f32")."""
    inner = tensor_type[len("tensor<"):-1]
    m = re.fullmatch(r"((?:[0-9]+x)*)(.+)", inner)
    return tuple(int(d) for d in m.group(1).split("x") if d), m.group(2)


def _scalar(token: str, element: str):
    dtype = np.dtype(DTYPES[element])
    if dtype.kind == "c":  # a part of a complex element: a float of the parts' type
        dtype = dtype.type(0).real.dtype
    if token in ("true", "false"):
        return np.array(token == "true").astype(dtype)
    if token.startswith("0x"):  # the bits of the value
        bits = int(token, 16)
        if dtype.kind == "b":
            return np.array(bool(bits))
        return np.array(bits, dtype=f"u{dtype.itemsize}").view(dtype)
    if dtype.kind == "f" or dtype.name == "bfloat16":  # ml_dtypes: kind V
        return np.array(float(token)).astype(dtype)
    if dtype.kind == "b":
        return np.array(int(token) != 0)
    return np.array(int(token), dtype=dtype)


def parse_dense(literal: str, tensor_type: str) -> np.ndarray:
    """``dense<...>`` of ``tensor_type`` as a NumPy array (splats broadcast)."""
    shape, element = element_type(tensor_type)
    if element not in DTYPES:
        raise ValueError(f"the runner reads no {element} values")
    body = literal[len("dense<"):-1].strip()
    if body.startswith('"'):
        raise ValueError("hex string literals are not read by the runner")
    pos, tokens = 0, []
    while pos < len(body):
        m = TOKEN.match(body, pos)
        if m is None:
            raise ValueError(f"cannot read {body[pos:pos + 20]!r} in {literal}")
        tokens.append(m.group(1))
        pos = m.end()
    nested, stack = [], []
    current = nested
    for token in tokens:
        if token == "[":
            stack.append(current)
            current.append([])
            current = current[-1]
        elif token == "]":
            current = stack.pop()
        elif token == "(":  # a complex element: (re, im)
            stack.append(current)
            current = []
        elif token == ")":
            re_part, im_part = current
            current = stack.pop()
            value = np.empty((), DTYPES[element])
            value.real, value.imag = re_part, im_part
            current.append(value)
        elif token != ",":
            current.append(_scalar(token, element))
    value = np.array(nested[0] if len(nested) == 1 else nested, dtype=DTYPES[element])
    if value.ndim == 0 or (value.size == 1 and shape and value.shape != shape and body[0] != "["):
        return np.broadcast_to(value, shape).copy()
    return value.reshape(shape)


# --------------------------------------------------------------------------
# Comparing as StableHLO's interpreter does
# --------------------------------------------------------------------------


def _mismatch(ok: np.ndarray, actual: np.ndarray, expected: np.ndarray, what: str) -> str | None:
    if ok.all():
        return None
    index = tuple(int(i) for i in np.argwhere(~ok)[0])
    return (f"{what}: {int((~ok).sum())} of {ok.size} elements differ; at {list(index)} "
            f"{actual[index]!r} (actual) vs {expected[index]!r} (expected)")


def equal(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """``expect_eq``: exact; floats by IEEE equality (a NaN equals nothing, -0 == 0)."""
    return actual == expected


def almost_equal(actual: np.ndarray, expected: np.ndarray, tolerance: float) -> np.ndarray:
    """``expect_almost_eq``: equal values (infinities of one sign included),
    two NaNs, or two finite values at most ``tolerance`` apart; an infinity
    or NaN against anything else differs. A complex value is its two
    parts, each compared so."""
    if np.iscomplexobj(expected):
        return (almost_equal(actual.real, expected.real, tolerance)
                & almost_equal(actual.imag, expected.imag, tolerance))
    f, g = actual.astype(np.float64), expected.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.isfinite(f) & np.isfinite(g) & (np.abs(f - g) <= tolerance)
    return (f == g) | (np.isnan(f) & np.isnan(g)) | close


def ulp_difference(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Floats between the two (``expect_close``): 0 for equal bits or two
    NaNs, the largest uint64 for a non-finite value against another; the
    larger of a complex value's two parts'."""
    if np.iscomplexobj(expected):
        return np.maximum(ulp_difference(actual.real, expected.real), ulp_difference(actual.imag, expected.imag))
    unsigned = f"u{actual.dtype.itemsize}"
    sign = np.uint64(1) << np.uint64(8 * actual.dtype.itemsize - 1)
    a = actual.view(unsigned).astype(np.uint64)
    b = expected.view(unsigned).astype(np.uint64)
    magnitude_a, magnitude_b = a & ~sign, b & ~sign
    same_sign = (a & sign) == (b & sign)
    distance = np.where(same_sign,
                        np.maximum(magnitude_a, magnitude_b) - np.minimum(magnitude_a, magnitude_b),
                        magnitude_a + magnitude_b)
    finite = np.isfinite(actual) & np.isfinite(expected)
    distance = np.where(finite, distance, np.uint64(np.iinfo(np.uint64).max))
    distance = np.where(np.isnan(actual) & np.isnan(expected), np.uint64(0), distance)
    return np.where(a == b, np.uint64(0), distance)


def compare(check: Check, actual: np.ndarray, expected: np.ndarray) -> str | None:
    """None when ``actual`` is what ``check`` expects, else what differs."""
    if actual.shape != expected.shape:
        return f"check.{check.kind}: shape {actual.shape} (actual) vs {expected.shape} (expected)"
    if actual.dtype != expected.dtype:
        return f"check.{check.kind}: dtype {actual.dtype} (actual) vs {expected.dtype} (expected)"
    if check.kind in ("expect_eq", "expect_eq_const"):
        ok = equal(actual, expected)
    elif check.kind in ("expect_almost_eq", "expect_almost_eq_const"):
        ok = almost_equal(actual, expected, check.tolerance)
    else:
        distance = ulp_difference(actual, expected)
        ok = (distance >= check.min_ulp) & (distance <= check.max_ulp)
    return _mismatch(np.asarray(ok), actual, expected, f"check.{check.kind}")


# --------------------------------------------------------------------------
# Running a chunk
# --------------------------------------------------------------------------

STATUSES = ("passed", "failed", "unsupported", "error", "skipped")

UNSUPPORTED = [
    re.compile(r"unsupported element type (\S+)"),
    re.compile(r"expected a tensor or index type, got (\S+)"),  # a token argument
    re.compile(r"'([\w.]+)' op is not supported by convert-stablehlo-to-bcast"),
    re.compile(r"'([\w.]+)' could not be converted by convert-stablehlo-to-bcast"),
    re.compile(r"'([\w.]+)' op .*?\b(?:is not supported|not supported|unsupported)\b"),
    re.compile(r"(?:unregistered|unknown) (?:operation|op) '([\w.]+)'"),
    re.compile(r"'(![\w.]+|[\w.]+)' is not registered"),
]
"""How bcast says what it does not support; the group names it."""


@dataclass
class Outcome:
    status: str
    detail: str = ""
    cause: str = ""
    """For unsupported: what bcast does not support (an op or element type)."""


def classify_refusal(message: str) -> Outcome:
    """A ``BcastError`` of compiling: unsupported when it names what bcast
    does not support, else an error (bcast rejected a valid program)."""
    first = message.strip().splitlines()[0] if message.strip() else message
    for pattern in UNSUPPORTED:
        m = pattern.search(first)
        if m:
            cause = m.group(1)
            if pattern in UNSUPPORTED[:2]:
                cause = f"type {cause}"
            elif "could not be converted" in first:
                cause = f"{cause} (this form)"
            return Outcome("unsupported", first, cause)
    return Outcome("error", first)


ELEMENT_TYPE = re.compile(r"tensor<(?:[0-9?]+x)*(complex<\w+>|![\w.]+|\w+)")


def foreign_type(text: str) -> str | None:
    """The first element type of the chunk that is not bcast's."""
    for m in ELEMENT_TYPE.finditer(text):
        if m.group(1) not in DTYPES:
            return m.group(1)
    return None


OP_NAME = re.compile(r'^\s*(?:%[^=\n]*=\s*)?"?([a-z_]+\.[a-z_.]+)\b', re.MULTILINE)


def lacks(text: str) -> frozenset[str]:
    """Everything in the chunk bcast's import does not take: its ops that are
    not in the import's list (``SUPPORTED_OPS``; a form the import refuses
    of an op in the list does not show) and its element types that are not
    bcast's. bcast reports only the first; this says what a chunk needs."""
    from bcast.passes.stablehlo_to_bcast import SUPPORTED_OPS

    known = set(SUPPORTED_OPS) | {"func.func", "func.return", "func.call"}
    code = re.sub(r"//[^\n]*", "", text)
    ops = {m.group(1) for m in OP_NAME.finditer(code) if not m.group(1).startswith("check.")}
    types = {f"type {m.group(1)}" for m in ELEMENT_TYPE.finditer(text) if m.group(1) not in DTYPES}
    return frozenset({op for op in ops if op not in known} | types)


def run_chunk(chunk: Chunk, backends: list[str], arguments: bool = False) -> dict[str, Outcome]:
    """The chunk's outcome on each backend (``arguments``: see ``lift_constants``)."""
    import bcast

    try:
        program = rewrite(chunk, arguments)
    except Skip as e:
        return {b: Outcome("skipped", str(e)) for b in backends}
    except ValueError as e:  # the runner's reading of the chunk
        return {b: Outcome("skipped", f"the runner cannot read the chunk: {e}") for b in backends}
    source = "\n" * (chunk.line - 1) + program.text  # diagnostics name lines of the file
    outcomes = {}
    for backend in backends:
        try:
            compiled = bcast.compile(source, backend=backend, entry=program.entry, filename=str(chunk.path))
        except bcast.BcastError as e:
            outcome = classify_refusal(str(e))
            foreign = foreign_type(chunk.text)
            if outcome.status == "error" and foreign:  # refused for a type bcast lacks
                outcome = Outcome("unsupported", outcome.detail, f"type {foreign}")
            outcomes[backend] = outcome
            continue
        except Exception as e:  # noqa: BLE001 - a crash is what this counts
            outcomes[backend] = Outcome("error", f"crash while compiling: {_crash(e)}")
            continue
        try:
            results = compiled(*program.arguments)
        except bcast.BcastError as e:
            outcomes[backend] = Outcome("error", f"run-time error: {str(e).splitlines()[0]}")
            continue
        except Exception as e:  # noqa: BLE001
            outcomes[backend] = Outcome("error", f"crash while running: {_crash(e)}")
            continue
        outcomes[backend] = check_results(program, results if isinstance(results, tuple) else (results,))
    return outcomes


def _crash(e: BaseException) -> str:
    where = traceback.extract_tb(e.__traceback__)[-1]
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''} ({Path(where.filename).name}:{where.lineno})"


def check_results(program: Program, results: tuple) -> Outcome:
    values = dict(zip(range(len(program.results)), results))
    k = 0
    for check in program.checks:
        taken = [np.asarray(values[k + i]) for i in range(len(check.operands))]
        k += len(check.operands)
        if check.expected is not None:
            expected = parse_dense(check.expected, check.type)
        else:
            expected = taken[1]
        problem = compare(check, taken[0], expected)
        if problem:
            return Outcome("failed", f"{check.operands[0]}: {problem}")
    return Outcome("passed")


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------


def suite_files(directory: Path, names: list[str] | None) -> list[Path]:
    files = sorted(directory.rglob("*.mlir"))
    if names:
        files = [f for f in files if f.name in names or str(f.relative_to(directory)) in names]
    return files


def table(rows: list[tuple[str, Counter]], backend: str) -> str:
    header = f"{'file':<34} {'chunks':>6} " + " ".join(f"{s:>11}" for s in STATUSES)
    lines = [f"backend: {backend}", header, "-" * len(header)]
    total = Counter()
    for name, counts in rows:
        total += counts
        lines.append(f"{name:<34} {sum(counts.values()):>6} " + " ".join(f"{counts[s]:>11}" for s in STATUSES))
    lines.append("-" * len(header))
    lines.append(f"{'total (' + str(len(rows)) + ' files)':<34} {sum(total.values()):>6} "
                 + " ".join(f"{total[s]:>11}" for s in STATUSES))
    return "\n".join(lines)


def lack_table(needs: list[frozenset[str]]) -> str:
    alone = Counter(next(iter(n)) for n in needs if len(n) == 1)
    anywhere = Counter(item for n in needs for item in n)
    lines = [f"  {'only':>4}  {'all':>4}"]
    for item in sorted(anywhere, key=lambda i: (-alone[i], -anywhere[i], i)):
        lines.append(f"  {alone[item]:>4}  {anywhere[item]:>4}  {item}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="stablehlo/tests/interpret of a StableHLO checkout")
    parser.add_argument("--backends", default="reference", help="comma-separated (default: reference)")
    parser.add_argument("--files", nargs="*", help="only these files (names or paths under DIR)")
    parser.add_argument("--arguments", action="store_true",
                        help="the entry's constants become its arguments, so no pass folds the ops")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every chunk that did not pass")
    args = parser.parse_args(argv)
    if not args.directory.is_dir():
        parser.error(f"{args.directory} is not a directory")
    backends = [b for b in args.backends.split(",") if b]
    from bcast.tools.api import BACKENDS

    unknown = [b for b in backends if b not in BACKENDS]
    if unknown or not backends:
        parser.error(f"--backends: {', '.join(unknown) or 'none given'}; this build has {', '.join(BACKENDS)}")
    started = time.perf_counter()
    rows: dict[str, list[tuple[str, Counter]]] = {b: [] for b in backends}
    causes: dict[str, Counter] = {b: Counter() for b in backends}
    needs: dict[str, list[frozenset[str]]] = {b: [] for b in backends}
    details: dict[str, list[str]] = {b: [] for b in backends}
    for path in suite_files(args.directory, args.files):
        counts = {b: Counter() for b in backends}
        for chunk in split_chunks(path):
            for backend, outcome in run_chunk(chunk, backends, args.arguments).items():
                counts[backend][outcome.status] += 1
                if outcome.status == "unsupported":
                    causes[backend][outcome.cause] += 1
                    needs[backend].append(lacks(chunk.text))
                if outcome.status != "passed":
                    details[backend].append(f"{outcome.status:<11} {chunk.label}: {outcome.detail}")
        for backend in backends:
            rows[backend].append((str(path.relative_to(args.directory)), counts[backend]))
    for backend in backends:
        print(table(rows[backend], backend))
        print(f"\nunsupported, by cause ({backend}):")
        for cause, n in causes[backend].most_common():
            print(f"  {n:>4}  {cause}")
        print(f"\nwhat the unsupported chunks lack ({backend}; only: the chunks that lack nothing else):")
        print(lack_table(needs[backend]))
        if args.verbose:
            print(f"\nchunks that did not pass ({backend}):")
            print("\n".join(f"  {line}" for line in details[backend]))
        print()
    print(f"{time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
